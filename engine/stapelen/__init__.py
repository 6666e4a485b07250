"""Stapelen: the game engine, registered under the id ``stapelen``, and its
exact solver (``engine.stapelen.solver``)."""

from .. import registry
from . import solver
from .game import Stapelen

GAME = registry.register(Stapelen(solver))

__all__ = ["GAME", "Stapelen"]
