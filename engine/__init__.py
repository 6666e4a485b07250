"""Pure game engines: one folder per game, shared primitives in ``primitives``.

Importing the package registers every game.
"""

from . import braverats, catan, ridder_toernooi, sir_tommy, stapelen, troje, troubadour, twaalven  # noqa: F401  (each registers itself)
from .core import CHANCE, REFEREE, Game, KroniekError, MalformedEvent, Move, Result, RuleViolation
from .registry import all_games, get

__all__ = [
    "CHANCE",
    "REFEREE",
    "Game",
    "KroniekError",
    "MalformedEvent",
    "Move",
    "Result",
    "RuleViolation",
    "all_games",
    "get",
]
