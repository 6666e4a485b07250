"""Stapelen: the game engine, registered under the id ``stapelen``, and its
exact solver (``engine.stapelen.solver``)."""

from .. import registry
from .game import Stapelen

GAME = registry.register(Stapelen())

__all__ = ["GAME", "Stapelen"]
