"""Ridder-toernooi: the game engine, registered under the id ``ridder_toernooi``.

``cards`` holds the card-set format and the shipped PLACEHOLDER set, ``bots``
and ``simulate`` the simulation players.
"""

from .. import registry
from .game import RidderToernooi

try:
    GAME = registry.get("ridder_toernooi")
except Exception:  # noqa: BLE001 - UnknownGame: not registered yet
    GAME = registry.register(RidderToernooi())

__all__ = ["GAME", "RidderToernooi"]
