"""Sir Tommy voor twee: the game engine, registered under the id ``sir_tommy``,
and its solver (``engine.sir_tommy.solver``)."""

from .. import registry
from . import solver
from .game import SirTommy

GAME = registry.register(SirTommy(solver))

__all__ = ["GAME", "SirTommy"]
