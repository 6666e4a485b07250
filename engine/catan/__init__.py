"""Catan (base game, 3–6 players), registered under the id ``catan``.

``board`` holds the board format and generator, ``knowledge`` what each
viewer knows of every hand, ``game`` the rules, ``bots`` and ``simulate`` the
simulation players.
"""

from .. import registry
from .game import Catan

try:
    GAME = registry.get("catan")
except Exception:  # noqa: BLE001 - UnknownGame: not registered yet
    GAME = registry.register(Catan())

__all__ = ["GAME", "Catan"]
