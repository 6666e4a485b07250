"""BraveRats: the game engine, registered under the id ``braverats``."""

from .. import registry
from .game import BraveRats

GAME = registry.register(BraveRats())

__all__ = ["BraveRats", "GAME"]
