"""The Troje (Troy) scenario on Catan, registered under the id
``catan-troje``: ``game`` is the Catan engine with the scenario's turn flow
(``Troje``); its parts below are pure and I/O-free.

- ``rules``: the rules catalogue (every rule sentence of the Dutch text, ids
  ``troje.*``), the Dutch terms, and which rules wait for the wiring;
- ``options``: the options (the ten open points of the notes §2.7 and the
  scenario's numbers) with defaults, checked into a ``Config``;
- ``board``: Troje boards (Catan board format) and ship-tile lists, and the
  sea tiles' topology; ``boards/`` the shipped placeholders;
- ``support``: the support stack per viewer (donations, blind draws, battles);
- ``saga``: the saga track, allegiances and the two ends of the game;
- ``ships``: ship building, advantages, trade chips and the sea people.

- ``game``: the registered game; ``describe`` its descriptions and annotations;
- ``bots`` and ``simulate``: players for simulated games, and whole simulated
  games (``kroniek simulate catan-troje``).

docs/games/catan-troje.md describes the scenario as implemented.
"""

from .. import registry
from .game import Troje

try:
    GAME = registry.get("catan-troje")
except Exception:  # noqa: BLE001 - UnknownGame: not registered yet
    GAME = registry.register(Troje())

__all__ = ["GAME", "Troje"]
