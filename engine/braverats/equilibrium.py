"""The exact value of a BraveRats position, and how much each choice of card gave away (issue 37).

A round is two cards chosen at once: a zero-sum matrix game between the two hands, solved by linear
programming (HiGHS, through highspy). After an effective Spy one side shows its card first and the other answers
it, so that round is a plain max-min. The value of a position is seat 0's (Red's) expected result under
equilibrium play from there on, +1 a win, -1 a loss, 0 a draw; the chance of winning a game "counted as
half for a draw" is ``(1 + value) / 2``.

Exact where both hands are common knowledge: the base game and variants A (after the exchange), C and F,
D after the draft and E after the deal (all 16 cards dealt: each hand is the other's complement), with the
three house rules (``Flags``), the General's +2, the Wizard and held rounds all in. Variant B hides its
draws from the other side; a game inside a series (G) is valued as that one game.

A solver keeps what it solved (the base game's whole tree is ~314,000 positions, of which ~219,000 are kept:
a position and its mirror, the seats' roles swapped, share one value); ``freeze``/``thaw`` turn a solved
opening's tree into bytes and back, which the worker keeps as a file (workers/tables.py).
The engine never imports this module (the page's engine runs without HiGHS); the analysis does.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, NamedTuple

from ..evaluation import GLYPHS as CHANCE_GLYPHS
from .cards import PRINCE, PRINCESS
from .resolve import Flags, key, outcome_table

#: cards 0-7; a hand is how many of each it holds, packed in base 3 (variant F holds two of a card)
CARDS = range(8)
_POW3 = tuple(3 ** c for c in CARDS)
FULL = sum(_POW3)  # one of each
#: below this the matrix game has a saddle point in pure strategies, or two values are the same
EPS = 1e-9


def pack(counts: tuple[int, ...] | list[int]) -> int:
    return sum(n * _POW3[c] for c, n in enumerate(counts))


def unpack(hand: int) -> tuple[int, ...]:
    return tuple(hand // _POW3[c] % 3 for c in CARDS)


def hand_of(cards: list[int] | tuple[int, ...]) -> int:
    counts = [0] * 8
    for c in cards:
        counts[c] += 1
    return pack(counts)


def cards_in(hand: int) -> tuple[int, ...]:
    """The distinct cards a hand can play (a second copy is the same choice)."""
    return tuple(c for c in CARDS if hand // _POW3[c] % 3)


class Position(NamedTuple):
    """A position at the start of a round, both hands known (``hand_of``)."""

    hands: tuple[int, int]
    score: tuple[int, int] = (0, 0)
    held: int = 0
    bonus: tuple[bool, bool] = (False, False)
    spy_first: int | None = None

    def swapped(self) -> Position:
        return Position(self.hands[::-1], self.score[::-1], self.held, self.bonus[::-1],
                        None if self.spy_first is None else 1 - self.spy_first)


def position_of(state) -> Position | None:
    """The position of a BraveRats ``State`` at the start of a round, when both hands are known to both players
    (the base game, variants A after the exchange, C and F; D after the draft and E after the deal too: all 16
    cards are dealt, so each hand is the other's complement, and a player sees what the draft gives the other;
    B once both piles are empty: each hand is then what its owner has not played, as everyone can count);
    None otherwise (mid-round, a game over, a card still in a draw pile, a card the record leaves unknown)."""
    from .state import PLAY

    if state.phase != PLAY or state.ended is not None or state.pending != (None, None):
        return None
    if any(h.unknown or h.pile for h in state.hands) or state.pool:
        return None
    return Position((hand_of(state.hands[0].known), hand_of(state.hands[1].known)), tuple(state.score),
                    state.held, tuple(state.bonus), state.spy_first)


#: the opening of the base game
OPENING = Position((FULL, FULL))


def opening(variants: tuple[str, ...] = (), attack_seat: int = 0) -> Position:
    """Where a game starts after its deal (variant F: the attacker's Prince traded for the other's Princess)."""
    if "F" not in variants:
        return OPENING
    attacker = [1] * 8
    attacker[PRINCE], attacker[PRINCESS] = 0, 2
    other = [1] * 8
    other[PRINCE], other[PRINCESS] = 2, 0
    hands = [pack(other), pack(other)]
    hands[attack_seat] = pack(attacker)
    return Position((hands[0], hands[1]))


@dataclass(frozen=True)
class Round:
    """One round solved: the cards each side may play (``rows`` Red's, ``cols`` Blue's), what each pair leads
    to for Red (``matrix``), the value, and each side's equilibrium mix over its cards. ``first``: the seat
    that shows its card first (an effective Spy): both mixes are then pure, its max-min choice and the other's
    best answer to it."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    matrix: tuple[tuple[float, ...], ...]
    value: float
    mix: tuple[tuple[float, ...], tuple[float, ...]]
    first: int | None = None


Mix = tuple[float, ...]


def solve_matrix(matrix: list[list[float]] | tuple[tuple[float, ...], ...]) -> tuple[float, Mix, Mix]:
    """Value and equilibrium mixes (the row player maximises) of a zero-sum matrix game."""
    m, n = len(matrix), len(matrix[0])
    row_min = [min(r) for r in matrix]
    col_max = [max(matrix[i][j] for i in range(m)) for j in range(n)]
    lo, hi = max(row_min), min(col_max)
    if hi - lo <= EPS:  # a saddle point: both play it
        i, j = row_min.index(lo), col_max.index(hi)
        return lo, tuple(float(k == i) for k in range(m)), tuple(float(k == j) for k in range(n))
    rows, cols = _undominated(matrix)
    if len(rows) < m or len(cols) < n:  # solved on what is left; a dominated card gets no weight
        v, x, y = solve_matrix(tuple(tuple(matrix[i][j] for j in cols) for i in rows))
        return v, _spread(x, rows, m), _spread(y, cols, n)
    if m == n == 2:  # no saddle point and nothing dominated: both mix, each making the other indifferent
        (a, b), (c, d) = matrix
        den = a - b - c + d
        p, q = (d - c) / den, (d - b) / den
        return (a * d - b * c) / den, (p, 1.0 - p), (q, 1.0 - q)
    return _lp(matrix)


def _lp(matrix) -> tuple[float, tuple[float, ...], tuple[float, ...]]:
    """The LP of a matrix game, by HiGHS: Red's mix x and the value v, v as large as every Blue card
    allows (``-x·A[:, j] + v <= 0``, ``sum x = 1``); Blue's mix is the duals of those rows."""
    import numpy as np

    a = np.asarray(matrix, dtype=float)
    m, n = a.shape
    rows = np.zeros((n + 1, m + 1))
    rows[:n, :m] = -a.T
    rows[:n, m] = 1.0
    rows[n, :m] = 1.0
    lp = _highs_lp(m, n, rows)
    h = _highs()
    h.passModel(lp)
    h.run()
    if h.getModelStatus() != _OPTIMAL:  # pragma: no cover - a bounded, feasible LP always solves
        raise RuntimeError(f"the LP of a {m}x{n} round did not solve: {h.modelStatusToString(h.getModelStatus())}")
    sol = h.getSolution()
    col = list(sol.col_value)
    return float(col[m]), _normal(col[:m]), _normal([-d for d in list(sol.row_dual)[:n]])


_OPTIMAL = None
_HIGHS = None


def _highs():
    """One quiet HiGHS per process, its model replaced for each LP (a solver is not shared between threads:
    the analysis runs in a worker's work horse)."""
    global _HIGHS, _OPTIMAL
    if _HIGHS is None:
        import os
        import sys

        import highspy

        # HiGHS prints its banner as it is made, before it can be told to be quiet: not into a worker's log
        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                _HIGHS = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        _HIGHS.setOptionValue("output_flag", False)
        _HIGHS.setOptionValue("presolve", "off")  # LPs of at most 9 columns: nothing to presolve
        _HIGHS.setOptionValue("threads", 1)  # one LP at a time, in the caller's thread
        _OPTIMAL = highspy.HighsModelStatus.kOptimal
    return _HIGHS


def _highs_lp(m: int, n: int, rows):
    import highspy
    import numpy as np

    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = m + 1, n + 1
    lp.col_cost_ = np.array([0.0] * m + [-1.0])
    lp.col_lower_ = np.array([0.0] * m + [-1.0])
    lp.col_upper_ = np.array([1.0] * (m + 1))
    lp.row_lower_ = np.array([-highspy.kHighsInf] * n + [1.0])
    lp.row_upper_ = np.array([0.0] * n + [1.0])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = m + 1, n + 1
    lp.a_matrix_.start_ = np.arange(0, (n + 2) * (m + 1), m + 1)[: n + 2]
    lp.a_matrix_.index_ = np.tile(np.arange(m + 1), n + 1)
    lp.a_matrix_.value_ = rows.ravel()
    return lp


def _undominated(matrix) -> tuple[list[int], list[int]]:
    """The rows and columns left once every weakly dominated one is struck out, again and again (a row no
    better than another against every column; a column no better for Blue than another). The game's value
    stays, and an equilibrium of what is left is one of the whole game."""
    rows, cols = list(range(len(matrix))), list(range(len(matrix[0])))
    changed = True
    while changed:
        changed = False
        for i in list(rows):
            if len(rows) > 1 and any(k != i and all(matrix[k][j] >= matrix[i][j] - EPS for j in cols) for k in rows):
                rows.remove(i)
                changed = True
        for j in list(cols):
            if len(cols) > 1 and any(k != j and all(matrix[i][k] <= matrix[i][j] + EPS for i in rows) for k in cols):
                cols.remove(j)
                changed = True
    return rows, cols


def _spread(mix: tuple[float, ...], kept: list[int], n: int) -> tuple[float, ...]:
    out = [0.0] * n
    for w, k in zip(mix, kept):
        out[k] = w
    return tuple(out)


def _normal(weights) -> tuple[float, ...]:
    w = [max(0.0, float(v)) for v in weights]
    w = [0.0 if v < EPS else v for v in w]
    total = sum(w)
    return tuple(v / total for v in w)


class Solver:
    """Every position's value under one set of house rules and one target, worked out as asked and kept."""

    def __init__(self, flags: Flags = Flags(), target: int = 4) -> None:
        self.flags, self.target = flags, target
        self.table = outcome_table(flags)
        self.values: dict[Position, float] = {}
        self.lps = 0  # rounds whose equilibrium is mixed (no saddle point)
        # a table solved before (``thaw``): canonical positions' keys, sorted, and their values
        self._keys: array = array("Q")
        self._kept: array = array("d")

    def outcome(self, pos: Position, c0: int, c1: int) -> Position | float:
        """Where Red's ``c0`` against Blue's ``c1`` leads: the next round's position, or the game's result."""
        out = self.table[key(c0, c1, *pos.bonus)]
        if out.game:
            return 1.0 if out.winner == 0 else -1.0
        s0, s1 = pos.score
        held = pos.held
        if out.winner is None:
            held += 1
        else:
            if out.winner == 0:
                s0 += out.counts + held
            else:
                s1 += out.counts + held
            held = 0
            if max(s0, s1) >= self.target:
                return 1.0 if s0 > s1 else -1.0
        h0, h1 = pos.hands[0] - _POW3[c0], pos.hands[1] - _POW3[c1]
        if not h0 and not h1:
            return 0.0
        return Position((h0, h1), (s0, s1), held, out.bonus, out.spy_first)

    def after(self, pos: Position, c0: int, c1: int) -> float:
        nxt = self.outcome(pos, c0, c1)
        return nxt if isinstance(nxt, float) else self.value(nxt)

    def value(self, pos: Position) -> float:
        known = self.values.get(pos)
        if known is None:
            mirror = pos.swapped()  # the same position with the seats' roles swapped: its value negated
            if order(mirror) < order(pos):
                known = -self.value(mirror)
            else:
                known = self._thawed(pos)
                if known is None:
                    known = self.round(pos).value
            self.values[pos] = known
        return known

    # -- a solved table kept and read back (the worker keeps it: workers/tables.py) -------------------
    def freeze(self) -> bytes:
        """Every canonical position solved so far (a position whose mirror is not smaller) with its value:
        keys (``key_of``) and values, sorted by key, 8 bytes each, little-endian. A mirror is not kept: its
        value is the canonical one negated."""
        pairs = dict(zip(self._keys, self._kept))
        for pos, v in self.values.items():
            if order(pos) <= order(pos.swapped()):
                pairs[key_of(pos)] = v
        keys = array("Q", sorted(pairs))
        kept = array("d", (pairs[k] for k in keys))
        if sys.byteorder != "little":  # pragma: no cover - the machines we run on are little-endian
            keys.byteswap()
            kept.byteswap()
        return len(keys).to_bytes(8, "little") + keys.tobytes() + kept.tobytes()

    def thaw(self, blob: bytes) -> int:
        """Read a table ``freeze`` wrote (for these flags and this target): its positions are looked up, not
        solved again. The number of positions it holds; ValueError for bytes that are no such table."""
        if len(blob) < 8:
            raise ValueError("a solved table is at least 8 bytes")
        n = int.from_bytes(blob[:8], "little")
        if len(blob) != 8 + 16 * n:
            raise ValueError(f"a solved table of {n} positions is {8 + 16 * n} bytes, not {len(blob)}")
        keys, kept = array("Q"), array("d")
        keys.frombytes(blob[8:8 + 8 * n])
        kept.frombytes(blob[8 + 8 * n:])
        if sys.byteorder != "little":  # pragma: no cover
            keys.byteswap()
            kept.byteswap()
        if any(keys[i] >= keys[i + 1] for i in range(n - 1)):
            raise ValueError("a solved table's keys are not in order")
        self._keys, self._kept = keys, kept
        return n

    def _thawed(self, pos: Position) -> float | None:
        k = key_of(pos)
        i = bisect_left(self._keys, k)
        return self._kept[i] if i < len(self._keys) and self._keys[i] == k else None

    def positions(self) -> Iterator[Position]:
        """Every position this solver knows the value of: solved here, or read from a table, each once."""
        seen = set(self.values)
        yield from self.values
        for k in self._keys:
            pos = position_of_key(k)
            if pos not in seen:
                yield pos

    def round(self, pos: Position) -> Round:
        """The round at ``pos`` solved (its matrix is worked out again; its value is kept)."""
        rows, cols = cards_in(pos.hands[0]), cards_in(pos.hands[1])
        matrix = tuple(tuple(self.after(pos, c0, c1) for c1 in cols) for c0 in rows)
        first = pos.spy_first
        if first == 0:  # Red shows a card, Blue answers it
            worst = [min(r) for r in matrix]
            v = max(worst)
            i = worst.index(v)
            answer = min(range(len(cols)), key=lambda j: matrix[i][j])
            mix = (tuple(float(k == i) for k in range(len(rows))), tuple(float(k == answer) for k in range(len(cols))))
        elif first == 1:
            best = [max(matrix[i][j] for i in range(len(rows))) for j in range(len(cols))]
            v = min(best)
            j = best.index(v)
            answer = max(range(len(rows)), key=lambda i: matrix[i][j])
            mix = (tuple(float(k == answer) for k in range(len(rows))), tuple(float(k == j) for k in range(len(cols))))
        else:
            v, x, y = solve_matrix(matrix)
            if max(x) < 1.0 or max(y) < 1.0:
                self.lps += 1
            mix = (x, y)
        return Round(rows, cols, matrix, v, mix, first)

    def loss(self, pos: Position, c0: int | None, c1: int | None,
             solved: Round | None = None) -> tuple[float | None, float | None]:
        """How much of its value each side gave away by the cards it played (None: not known), in the units of
        the value (a won game is 2 more than a lost one). Against the other side's equilibrium mix in a round
        played at once; against the best answer to it when the card was shown first; the answer's against the
        best answer to the card it saw. A card an equilibrium plays loses 0. ``solved``: the round at ``pos``,
        where the caller has it already (it is not solved again)."""
        r = solved or self.round(pos)
        rows, cols, a, v = r.rows, r.cols, r.matrix, r.value
        x, y = r.mix
        i = rows.index(c0) if c0 is not None else None
        j = cols.index(c1) if c1 is not None else None
        if r.first == 0:
            red = None if i is None else v - min(a[i])
            blue = None if i is None or j is None else a[i][j] - min(a[i])
        elif r.first == 1:
            col = None if j is None else [a[k][j] for k in range(len(rows))]
            blue = None if col is None else max(col) - v
            red = None if col is None or i is None else max(col) - col[i]
        else:
            red = None if i is None else v - sum(y[k] * a[i][k] for k in range(len(cols)))
            blue = None if j is None else sum(x[k] * a[k][j] for k in range(len(rows))) - v
        clean = lambda d: None if d is None else (0.0 if d < EPS else d)  # noqa: E731
        return clean(red), clean(blue)


#: a choice's glyph by the value it gave away: the value runs from -1 to +1, as Lichess's winning chances do,
#: so these are twice the steps on the chance of winning every game's evaluation uses (engine/evaluation.py)
GLYPHS = tuple((2 * step, mark) for step, mark in CHANCE_GLYPHS)


def glyph(loss: float | None) -> str | None:
    """The glyph for a choice that gave away ``loss`` (None: nothing worth marking, or not known)."""
    if loss is None:
        return None
    return next((g for step, g in GLYPHS if loss >= step), None)


class Judged(NamedTuple):
    """One round of a log, judged: the event that resolved it (``seq``), Red's value at its start and after it
    (the next round's value, or the game's result), the cards, what each side's card gave away and its glyph,
    and each side's equilibrium mix at the start (card → weight, the weights > 0)."""

    seq: int
    before: float
    after: float
    cards: tuple[int, int]
    loss: tuple[float | None, float | None]
    glyphs: tuple[str | None, str | None]
    mix: tuple[dict[int, float], dict[int, float]]


def judge_log(events, solve=None, steps=None) -> list[Judged]:
    """Every round of a BraveRats log that started where both hands were known, judged (undone events left
    out, as the table took them back). ``solve(flags, target)``: the solver to use (the process's by
    default); ``steps``: the log's ``replay_steps`` where the caller has them already."""
    from .. import match as M

    solve = solve or solver
    undone = M.undone_seqs(events)
    out: list[Judged] = []
    start: Position | None = None
    for event, before, after in (M.replay_steps(events) if steps is None else steps):
        if before is None:  # the set-up: the opening
            start = position_of(after.state)
            continue
        if event["type"] == M.UNDO or event["seq"] in undone:
            continue
        s0, s1 = before.state, after.state
        if len(s1.games) > len(s0.games):
            cards = s1.games[-1].rounds[-1].cards
        elif len(s1.rounds) == len(s0.rounds) + 1:
            cards = s1.rounds[-1].cards
        else:
            cards = None
        if cards is not None and start is not None:
            sv = solve(s0.cfg.flags, s0.spec.target)
            r = sv.round(start)
            loss = sv.loss(start, *cards, solved=r)
            mix = tuple({c: w for c, w in zip(side, weights) if w > 0}
                        for side, weights in ((r.rows, r.mix[0]), (r.cols, r.mix[1])))
            out.append(Judged(event["seq"], sv.value(start), sv.after(start, *cards), cards, loss,
                              (glyph(loss[0]), glyph(loss[1])), mix))
        if cards is not None or start is None or position_of(s1) is not None:
            start = position_of(s1)
    return out


def key_of(pos: Position) -> int:
    """A position as one integer (a table's key): the hands 13 bits each (3^8 < 2^13), the scores, held
    rounds 4 bits each, the General's bonuses and who shows first 2 bits each."""
    spy = 3 if pos.spy_first is None else pos.spy_first
    k = pos.hands[0] | pos.hands[1] << 13 | pos.score[0] << 26 | pos.score[1] << 30 | pos.held << 34
    return k | pos.bonus[0] << 38 | pos.bonus[1] << 39 | spy << 40


def position_of_key(k: int) -> Position:
    spy = k >> 40 & 3
    return Position((k & 0x1FFF, k >> 13 & 0x1FFF), (k >> 26 & 15, k >> 30 & 15), k >> 34 & 15,
                    (bool(k >> 38 & 1), bool(k >> 39 & 1)), None if spy == 3 else spy)


def order(pos: Position) -> tuple:
    """A total order on positions (mirrors are valued through the smaller; tests sample in this order)."""
    return (pos.hands, pos.score, pos.held, pos.bonus, -1 if pos.spy_first is None else pos.spy_first)


#: bump when a change to the solver changes what a kept table holds (a table of another version is not read)
TABLE_VERSION = 1


def table_name(flags: Flags, target: int, opening_pos: Position) -> str:
    """The name a solved table from ``opening_pos`` is kept under (its mirror's table is the same one)."""
    canonical = min(opening_pos, opening_pos.swapped(), key=order)
    rules = "".join("1" if f else "0" for f in flags)
    return f"braverats-v{TABLE_VERSION}-r{rules}-t{target}-{key_of(canonical):x}"


def build_table(flags: Flags, target: int, opening_pos: Position) -> bytes:
    """The whole tree from ``opening_pos`` solved by a solver of its own, frozen (``Solver.freeze``)."""
    fresh = Solver(flags, target)
    fresh.value(opening_pos)
    return fresh.freeze()


def evaluate(events, tables=None) -> dict:
    """The evaluation of a BraveRats log (``Game.evaluate_log``): Red's and Blue's chance of winning (a draw
    counts half) at the set-up and after every round where both hands were known, exact; each card judged
    (its loss, glyph and accuracy) with both sides' equilibrium mixes; each seat's accuracy. ``tables(name,
    build)``: where solved trees are kept (workers/tables.py); without it the tree is solved here."""
    from .. import match as M
    from ..evaluation import accuracy, summary
    from ..text import say
    from .cards import CARD_IDS, NAMES

    steps = list(M.replay_steps(events))
    undone = M.undone_seqs(events)
    final = steps[-1][2] if steps else None
    if final is not None and final.result is None and any(
            a.state.spec.hands_hidden and "B" not in a.state.spec.variants for _, _, a in steps):
        # D and E: the players know both hands, onlookers do not, and the values would tell them something
        return {"perspective": "seats", "method": None, "points": [], "moves": [], "summary": [],
                "note": say("Evaluated once the match is over: in this variant onlookers do not see the hands")}
    openings: dict[int, float] = {}  # seq -> Red's value where a game's opening became known
    loaded: set[str] = set()
    opened: set[int] = set()  # the games (of a series) whose opening is valued
    solvers: dict[tuple[Flags, int], Solver] = {}
    for event, _, after in steps:
        if event["type"] == M.UNDO or event["seq"] in undone:
            continue
        s = after.state
        pos = position_of(s)
        if pos is None or s.rounds or len(s.games) in opened:
            continue
        opened.add(len(s.games))
        key = (s.cfg.flags, s.spec.target)
        sv = solvers.setdefault(key, solver(*key))
        name = table_name(s.cfg.flags, s.spec.target, pos)
        # the openings every game shares are kept (the base game's, C's, F's, A's 64 exchanges); a drafted or
        # dealt hand (D, E) is one match's own: solved here, not kept
        if tables is not None and name not in loaded and not s.spec.hands_hidden:
            sv.thaw(tables(name, lambda: build_table(s.cfg.flags, s.spec.target, pos)))
            loaded.add(name)
        openings[event["seq"]] = sv.value(pos)
    judged = judge_log(events, lambda flags, target: solvers.setdefault((flags, target), solver(flags, target)),
                       steps)

    def chances(v: float) -> list[float]:
        red = round((1.0 + v) / 2.0, 6)
        return [red, round(1.0 - red, 6)]

    points = [{"seq": seq, "chances": chances(v), "method": "exact"} for seq, v in openings.items()]
    points += [{"seq": j.seq, "chances": chances(j.after), "method": "exact"} for j in judged]
    points.sort(key=lambda p: p["seq"])
    moves, notes = [], {}
    for j in judged:
        for seat in (0, 1):
            card, loss, mark = j.cards[seat], j.loss[seat], j.glyphs[seat]
            mix = sorted(j.mix[seat].items(), key=lambda cw: (-cw[1], cw[0]))
            move = {"seq": j.seq, "seat": seat, "card": CARD_IDS[card], "loss": round(loss / 2, 6),
                    "accuracy": round(accuracy(loss * 50.0), 1), "glyph": mark,
                    "best": [{"card": CARD_IDS[c], "weight": round(w, 4)} for c, w in mix]}
            moves.append(move)
            said_mix = [say("{card} {percent}%", card=NAMES[c], percent=round(100 * w)) for c, w in mix]
            if mark is None:
                text = say("{card} is an equilibrium card here (the equilibrium plays {mix})",
                           card=NAMES[card], mix=said_mix) if loss == 0 else \
                    say("{card} cost {loss} percentage points of winning chance (the equilibrium plays {mix})",
                        card=NAMES[card], loss=_points(loss), mix=said_mix)
            else:
                text = say("{glyph} {card} cost {loss} percentage points of winning chance (the equilibrium plays "
                           "{mix})", glyph=mark, card=NAMES[card], loss=_points(loss), mix=said_mix)
            notes.setdefault(j.seq, []).append({"kind": "evaluation", "seat": seat, "glyph": mark,
                                                "loss": move["loss"], "text": text})
    out = {"perspective": "seats", "method": "exact", "points": points, "moves": moves,
           "summary": summary((0, 1), moves), "notes": notes}
    draw_piles = final is not None and "B" in final.state.spec.variants
    if not points:
        out["method"] = None
        out["note"] = say("Not evaluated: in this variant a hand is hidden from the other side, and the "
                          "evaluation is exact only where both hands are known")  # B, or a card left unknown
        if draw_piles:
            out["note"] = say("Not evaluated: with draw piles a hand is hidden from the other side until both "
                              "piles are empty, and this game ended before that")
    elif draw_piles:
        # the rounds before are a game of hidden hands and chance, which this solver does not solve
        out["note"] = say("Exact from the round where both draw piles are empty (each hand is then what its "
                          "owner has not played); before it a hand is hidden from the other side")
    return out


def _points(loss: float) -> float:
    """A loss in the value's units (-1..+1) in percentage points of the chance of winning (half as many)."""
    return round(loss * 50, 1)


@lru_cache(maxsize=4)
def solver(flags: Flags = Flags(), target: int = 4) -> Solver:
    """The process's solver for these house rules and this target (positions kept as they are solved)."""
    return Solver(flags, target)


__all__ = ["CARDS", "FULL", "GLYPHS", "Judged", "OPENING", "Position", "Round", "Solver", "cards_in", "glyph",
           "hand_of", "judge_log", "key_of", "opening", "order", "position_of_key", "pack", "position_of", "solve_matrix", "solver", "unpack",
           "TABLE_VERSION", "build_table", "evaluate", "table_name"]
