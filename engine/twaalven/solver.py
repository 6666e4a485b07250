"""Exact solver for Twaalven en veertienen.

The game is cooperative with a forced turn order, so "can the game still come
out?" is plain reachability: a depth-first search over positions, remembering
the positions proven dead. A position is the 13 column heights (3 bits each);
whose turn it is follows from the number of cards taken.

The strong cut: the pair types form a path over the ranks
(6 —14— 8 —12— 4 —14— 10 —12— 2 —14— Q —12— K —14— A —12— J —14— 3 —12— 9
—14— 5 —12— 7, with 6-6 a twelve and 7-7 a fourteen), so the cards left split
into the pairs still to be taken in exactly one way: given the counts of each
rank and how many twelves and fourteens are still to be taken, the number of
pairs of each type is fixed (from a full deal: every type twice per player,
6-6 and 7-7 once). The search never takes a pair type beyond that need.

The compiled core (engine/jogledor/_native/jogledor_core.c) runs the same
search; both give identical answers, node counts and witness lines.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core import Move
from ..jogledor.cards import CARD_IDS, RANK
from ..jogledor.solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN, Solution, judge_moves, native
from ..jogledor.tableau import ranks_bytes
from .game import DEAL, OVER, ROLES, State, Twaalven
from .rules import FOURTEEN, PAIR_TYPES, PATH, TWELVE, TYPE

R_LOSS, R_WIN, R_ABORT = 0, 1, 2
_STATUS = {R_LOSS: LOSS, R_WIN: WIN, R_ABORT: UNKNOWN}
#: the game's rules, to apply the moves the search finds (the registered game carries this solver)
_RULES = Twaalven()


def needs(counts: Sequence[int], k12: int, k14: int) -> list[int] | None:
    """How many pairs of each type (ids of ``PAIR_TYPES``) the cards left must
    split into, with ``k12`` twelves and ``k14`` fourteens still to take; None
    when they cannot split at all. ``counts[r]`` is the number of rank-r cards left."""
    if sum(counts) != 2 * (k12 + k14):
        return None
    for s6 in range(counts[6] // 2 + 1):
        vals = [s6]
        prev = counts[6] - 2 * s6
        ok = prev >= 0
        if not ok:
            continue
        vals.append(prev)
        for i in range(1, 12):
            prev = counts[PATH[i]] - prev
            if prev < 0:
                ok = False
                break
            vals.append(prev)
        if not ok:
            continue
        rest = counts[7] - prev
        if rest < 0 or rest % 2:
            continue
        vals.append(rest // 2)
        if sum(v for v, (_, _, k) in zip(vals, PAIR_TYPES) if k == TWELVE) == k12:
            return vals
    return None


def search(ranks: bytes, heights: Sequence[int], need: Sequence[int], mover14: bool, budget: int,
           use_native: bool | None = None) -> tuple[int, int, list[tuple[int, int]]]:
    """The depth-first search: (R_LOSS | R_WIN | R_ABORT, nodes, line of column pairs).

    ``ranks`` holds the rank of card (column c, layer l) at c*4+l, bottom to top.
    With ``use_native`` None the compiled core is used when it is built."""
    core = native() if use_native is not False else None
    if use_native and core is None:
        raise RuntimeError("the compiled core is not built")
    if core is not None:
        status, nodes, line, _ = core.twaalven_search(ranks, bytes(heights), bytes(need), bool(mover14), budget)
        return status, nodes, [(line[i], line[i + 1]) for i in range(0, len(line), 2)]
    return _search_py(ranks, list(heights), list(need), bool(mover14), budget)


class _Abort(Exception):
    pass


def _search_py(ranks: bytes, h: list[int], need: list[int], mover14: bool, budget: int) -> tuple[int, int, list[tuple[int, int]]]:
    tables = (TYPE[TWELVE], TYPE[FOURTEEN])
    dead: set[int] = set()
    line: list[tuple[int, int]] = []
    nodes = 0
    cols = range(13)

    def dfs(key: int, m14: int, left: int) -> bool:
        nonlocal nodes
        if left == 0:
            return True
        if key in dead:
            return False
        nodes += 1
        if nodes > budget:
            raise _Abort
        tab = tables[m14]
        tops = [(c, ranks[c * 4 + h[c] - 1]) for c in cols if h[c]]
        nt = len(tops)
        for i in range(nt):
            a, ra = tops[i]
            row = tab[ra]
            for j in range(i + 1, nt):
                b, rb = tops[j]
                t = row[rb]
                if t < 0 or not need[t]:
                    continue
                need[t] -= 1
                h[a] -= 1
                h[b] -= 1
                line.append((a, b))
                if dfs(key - (1 << 3 * a) - (1 << 3 * b), 1 - m14, left - 2):
                    return True
                line.pop()
                need[t] += 1
                h[a] += 1
                h[b] += 1
        dead.add(key)
        return False

    key = sum(h[c] << 3 * c for c in cols)
    try:
        won = dfs(key, int(mover14), sum(h))
    except _Abort:
        return R_ABORT, nodes, []
    return (R_WIN if won else R_LOSS), nodes, list(line)


# -- over engine states -------------------------------------------------------------

def _counts(state: State) -> list[int]:
    counts = [0] * 14
    for c, col in enumerate(state.columns):  # type: ignore[arg-type]
        for card in col[: state.heights[c]]:
            counts[RANK[card]] += 1
    return counts


def _line_moves(state: State, mover: int, line: list[tuple[int, int]]) -> list[Move]:
    h = list(state.heights)
    cols = state.columns
    moves = []
    seat = mover
    for a, b in line:
        a, b = min(a, b), max(a, b)
        moves.append(Move("take", seat, {"columns": [a + 1, b + 1],
                                         "cards": [CARD_IDS[cols[a][h[a] - 1]], CARD_IDS[cols[b][h[b] - 1]]]}))  # type: ignore[index]
        h[a] -= 1
        h[b] -= 1
        seat = 1 - seat
    return moves


def _solve_play(state: State, mover: int, kind: int, budget: int, use_native: bool | None) -> tuple[int, int, list[Move]]:
    left = state.left
    pairs = left // 2
    mine, theirs = (pairs + 1) // 2, pairs // 2
    k12, k14 = (mine, theirs) if kind == TWELVE else (theirs, mine)
    need = needs(_counts(state), k12, k14)
    if need is None:
        return R_LOSS, 0, []
    status, nodes, line = search(ranks_bytes(state.columns), state.heights, need, kind == FOURTEEN, budget, use_native)  # type: ignore[arg-type]
    return status, nodes, _line_moves(state, mover, line) if status == R_WIN else []


def solve(state: State, budget: int = DEFAULT_BUDGET, use_native: bool | None = None) -> Solution:
    """Can the game still come out from ``state``? Exact, within ``budget`` nodes.

    Before the roles are chosen both ways of starting (a twelve or a fourteen
    first) are tried; the witness line then begins with a ``roles`` event."""
    phase = state.phase
    if phase == DEAL:
        return Solution(UNKNOWN, note="the deal is not known yet")
    if phase == OVER:
        return Solution(WIN if state.over[0] == "win" else LOSS, note="the game is over")  # type: ignore[index]
    if phase == ROLES:
        total = 0
        unknown = False
        for roles in ({"twelves": 0, "first": 0}, {"twelves": 1, "first": 0}):
            kind = TWELVE if roles["twelves"] == roles["first"] else FOURTEEN
            status, nodes, line = _solve_play(state, 0, kind, budget - total, use_native)
            total += nodes
            if status == R_WIN:
                return Solution(WIN, (Move("roles", None, roles), *line), total,
                                note=f"won with a {kind} first")
            if status == R_ABORT:
                unknown = True
                if total >= budget:
                    break
        return Solution(UNKNOWN if unknown else LOSS, (), total)
    mover = state.to_move
    status, nodes, line = _solve_play(state, mover, state.kind(mover), budget, use_native)  # type: ignore[arg-type]
    return Solution(_STATUS[status], tuple(line), nodes)


def hint(state: State, seat: int | None, budget: int = DEFAULT_BUDGET, use_native: bool | None = None) -> dict[str, Any]:
    """The moves of ``seat`` (None: the table's roles choice) that keep the
    game winnable, those that lose it, and those the budget left undecided.
    Everything is face up, so nothing is hidden from the asking seat."""
    return judge_moves(_RULES, state, seat, lambda after, nodes: solve(after, nodes, use_native), budget)
