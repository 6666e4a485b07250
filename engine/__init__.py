"""Pure game engines: one folder per game, shared primitives in ``primitives``.

Importing the package registers every game.
"""

# Games register themselves on import; BraveRats lands next.
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
