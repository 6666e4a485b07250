"""Pure game engines: one folder per game, shared primitives in ``primitives``.

Each game registers itself when its package is imported; ``get`` and
``all_games`` (``engine.registry``) import the project's games as they are
asked for.
"""

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
