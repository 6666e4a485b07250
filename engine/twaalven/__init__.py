"""Twaalven en veertienen: the game engine, registered under the id ``twaalven``,
and its exact solver (``engine.twaalven.solver``)."""

from .. import registry
from . import solver
from .game import Twaalven

GAME = registry.register(Twaalven(solver))

__all__ = ["GAME", "Twaalven"]
