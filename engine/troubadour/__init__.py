"""Troubadour: the game engine, registered under the id ``troubadour``.

``bots`` holds the simulation players and ``simulate`` plays whole games
through ``engine.match``.
"""

from .. import registry
from .game import Troubadour

try:
    GAME = registry.get("troubadour")
except Exception:  # noqa: BLE001 - UnknownGame: not registered yet
    GAME = registry.register(Troubadour())

__all__ = ["GAME", "Troubadour"]
