"""What every Jogledor solver returns, and the switch between the compiled
core and its pure-Python twin.

A solver call is a pure function of a game state and a node budget. It
answers ``win`` (with a witness line: events that, entered in order from the
position, win the game), ``loss`` (proven: every line loses) or ``unknown``
(the budget ran out first). It never says ``loss`` after running out of
budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import Move

WIN, LOSS, UNKNOWN = "win", "loss", "unknown"

#: the default node budget of one solver call
DEFAULT_BUDGET = 2_000_000

try:  # the compiled core (engine/jogledor/_native/jogledor_core.c), built by the install
    from . import _core as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None


def native() -> Any:
    """The compiled core module, or None (then the pure-Python search runs;
    both give identical answers)."""
    return _native


@dataclass(frozen=True)
class Solution:
    status: str
    line: tuple[Move, ...] = ()
    nodes: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winnable(self) -> bool | None:
        return {WIN: True, LOSS: False}.get(self.status)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "winnable": self.winnable,
            "nodes": self.nodes,
            "line": [m.to_dict() for m in self.line],
        }
        if self.note:
            out["note"] = self.note
        out.update(self.extra)
        return out


def judge_moves(rules: Any, state: Any, seat: int | None, solve: Callable[[Any, int], Solution],
                budget: int) -> dict[str, Any]:
    """The moves of ``seat`` that keep the game winnable, those that lose it,
    and those the budget left undecided: each legal move applied by the
    game's ``rules`` and the position after it given to ``solve(after,
    nodes)``. ``budget`` is the nodes of the whole judgement, shared out
    evenly over the moves (it was each move's, so a hint asked for 5 million
    nodes could search 5 million times the number of moves)."""
    moves = list(rules.legal_moves(state, seat))
    each = share(budget, len(moves))
    out: dict[str, Any] = {"winning": [], "losing": [], "unknown": [], "nodes": 0}
    for move in moves:
        sol = solve(rules.apply(state, move.type, move.seat, move.data), each)
        out["nodes"] += sol.nodes
        out[{WIN: "winning", LOSS: "losing", UNKNOWN: "unknown"}[sol.status]].append(move.to_dict())
    return out


def share(budget: int, parts: int) -> int:
    """Each of ``parts`` solver calls' nodes out of ``budget`` for them all
    (at least 1; a call may go one node past its share before it stops)."""
    return max(1, budget // max(1, parts))
