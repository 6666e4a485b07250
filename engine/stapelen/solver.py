"""Exact solver for Stapelen.

Cooperative with a forced turn order: winnability is reachability, found by a
depth-first search that remembers the positions proven dead. A position is
the 13 column heights (3 bits each) plus each player's three foundation tops
as a sorted triple (4 bits each; foundations are interchangeable), 63 bits.
Whose turn it is follows from the number of cards taken.

Symmetry: a card is tried on one foundation with the matching top and on one
empty foundation, never on two alike. Move ordering: building on a foundation
before starting one, and within that, uncovering a card the partner can play
next first. The compiled core (engine/jogledor/_native/jogledor_core.c) runs
the same search; both give identical answers, node counts and witness lines.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core import Move
from ..jogledor.cards import CARD_IDS
from ..jogledor.solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN, Solution, judge_moves, native
from ..jogledor.tableau import ranks_bytes
from .game import DEAL, OVER, Stapelen, State
from .rules import pred

R_LOSS, R_WIN, R_ABORT = 0, 1, 2
_STATUS = {R_LOSS: LOSS, R_WIN: WIN, R_ABORT: UNKNOWN}
#: the game's rules, to apply the moves the search finds (the registered game carries this solver)
_RULES = Stapelen()
PRED = (0,) + tuple(pred(r) for r in range(1, 14))


def search(ranks: bytes, heights: Sequence[int], tops: Sequence[int], mover: int, budget: int,
           use_native: bool | None = None) -> tuple[int, int, list[tuple[int, int]]]:
    """(R_LOSS | R_WIN | R_ABORT, nodes, line of (column, foundation)).

    ``tops`` are seat 0's three foundation tops then seat 1's (0: empty)."""
    core = native() if use_native is not False else None
    if use_native and core is None:
        raise RuntimeError("the compiled core is not built")
    if core is not None:
        status, nodes, line, _ = core.stapelen_search(ranks, bytes(heights), bytes(tops), mover, budget)
        return status, nodes, [(line[i], line[i + 1]) for i in range(0, len(line), 2)]
    return _search_py(ranks, list(heights), [list(tops[:3]), list(tops[3:])], mover, budget)


class _Abort(Exception):
    pass


def _tops_key(t: list[int]) -> int:
    a, b, c = sorted(t)
    return a | b << 4 | c << 8


def _search_py(ranks: bytes, h: list[int], f: list[list[int]], mover: int, budget: int) -> tuple[int, int, list[tuple[int, int]]]:
    dead: set[int] = set()
    line: list[tuple[int, int]] = []
    nodes = 0
    cols = range(13)

    def dfs(hkey: int, p: int, left: int) -> bool:
        nonlocal nodes
        if left == 0:
            return True
        key = hkey | _tops_key(f[0]) << 39 | _tops_key(f[1]) << 51
        if key in dead:
            return False
        nodes += 1
        if nodes > budget:
            raise _Abort
        fp, fo = f[p], f[1 - p]
        other_empty = 0 in fo
        has_empty = 0 in fp
        moves: list[tuple[int, int, int]] = []
        for c in cols:
            hc = h[c]
            if not hc:
                continue
            r = ranks[c * 4 + hc - 1]
            ufit = 0
            if hc > 1:
                ufit = 1 if (other_empty or PRED[ranks[c * 4 + hc - 2]] in fo) else 0
            pr = PRED[r]
            if pr in fp:
                moves.append((2 + ufit, c, fp.index(pr)))
            if has_empty:
                moves.append((ufit, c, fp.index(0)))
        for score in (3, 2, 1, 0):
            for s, c, i in moves:
                if s != score:
                    continue
                old = fp[i]
                fp[i] = ranks[c * 4 + h[c] - 1]
                h[c] -= 1
                line.append((c, i))
                if dfs(hkey - (1 << 3 * c), 1 - p, left - 1):
                    return True
                line.pop()
                h[c] += 1
                fp[i] = old
        dead.add(key)
        return False

    hkey = sum(h[c] << 3 * c for c in cols)
    try:
        won = dfs(hkey, mover, sum(h))
    except _Abort:
        return R_ABORT, nodes, []
    return (R_WIN if won else R_LOSS), nodes, list(line)


def _line_moves(state: State, mover: int, line: list[tuple[int, int]]) -> list[Move]:
    h = list(state.heights)
    cols = state.columns
    seat = mover
    out = []
    for c, i in line:
        out.append(Move("take", seat, {"column": c + 1, "card": CARD_IDS[cols[c][h[c] - 1]], "foundation": i + 1}))  # type: ignore[index]
        h[c] -= 1
        seat = 1 - seat
    return out


def solve(state: State, budget: int = DEFAULT_BUDGET, use_native: bool | None = None) -> Solution:
    """Can the game still come out from ``state``? Exact, within ``budget`` nodes."""
    phase = state.phase
    if phase == DEAL:
        return Solution(UNKNOWN, note="the deal is not known yet")
    if phase == OVER:
        return Solution(WIN if state.over[0] == "win" else LOSS, note="the game is over")  # type: ignore[index]
    mover = state.to_move
    tops = (*state.tops(0), *state.tops(1))
    status, nodes, line = search(ranks_bytes(state.columns), state.heights, tops, mover, budget, use_native)  # type: ignore[arg-type]
    return Solution(_STATUS[status], tuple(_line_moves(state, mover, line)) if status == R_WIN else (), nodes)  # type: ignore[arg-type]


def hint(state: State, seat: int | None, budget: int = DEFAULT_BUDGET, use_native: bool | None = None) -> dict[str, Any]:
    """The moves of ``seat`` that keep the game winnable, those that lose it,
    and those the budget left undecided. Everything is face up."""
    return judge_moves(_RULES, state, seat, lambda after, nodes: solve(after, nodes, use_native), budget)
