"""BraveRats solved exactly (issue 37, engine/braverats/equilibrium.py), and checked a second way:

- the solver's rounds are the engine's: every round of engine-played games (base game, variants C and F,
  the house rules both ways) leads where the solver says it leads;
- by LP duality: at the opening and at 1,000 random positions of its tree, each side's equilibrium mix
  guarantees the value against every card of the other (a certificate no LP solver is trusted for);
- by exhaustive search in exact rationals: positions of up to three cards a hand, every matrix game solved
  by its Shapley-Snow kernels (each square submatrix's equalising mixes) in fractions;
- a card an equilibrium plays gives nothing away, and one it never plays gives away what it costs.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from engine import match as M
from engine.braverats.equilibrium import (
    FULL,
    OPENING,
    Position,
    Solver,
    cards_in,
    hand_of,
    judge_log,
    opening,
    order,
    position_of,
    build_table,
    table_name,
    unpack,
)
from engine.braverats.cards import PRINCE, PRINCESS
from engine.braverats.resolve import Flags
from tests.support.played import play


#: a certificate's slack: HiGHS's own tolerances are ~1e-9 per LP, summed over a few rounds
TOL = 1e-7


def certified(s: Solver, pos: Position) -> None:
    """The round at ``pos``: its matrix holds the values of where each pair of cards leads, and each side's mix
    guarantees the value against every card of the other (weak duality: then it is the game's value)."""
    r = s.round(pos)
    a = r.matrix
    for i, c0 in enumerate(r.rows):
        for j, c1 in enumerate(r.cols):
            nxt = s.outcome(pos, c0, c1)
            assert a[i][j] == (nxt if isinstance(nxt, float) else s.value(nxt))
    x, y = r.mix
    assert abs(sum(x) - 1) < 1e-12 and abs(sum(y) - 1) < 1e-12 and min(x) >= 0 and min(y) >= 0
    if r.first == 0:
        assert r.value == max(min(row) for row in a)
    elif r.first == 1:
        assert r.value == min(max(a[i][j] for i in range(len(a))) for j in range(len(a[0])))
    else:
        red_gets = min(sum(x[i] * a[i][j] for i in range(len(x))) for j in range(len(y)))
        blue_allows = max(sum(y[j] * a[i][j] for j in range(len(y))) for i in range(len(x)))
        assert red_gets >= r.value - TOL and blue_allows <= r.value + TOL, (pos, r.value, red_gets, blue_allows)
    assert abs(s.value(pos) - r.value) < TOL


# -- the engine's rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {},
    {"variants": ["C"]},
    {"variants": ["F"], "princess_attack_seat": 1},
    {"variants": ["F"], "musician_cancels_lasting_powers": False, "wizard_cancels_general_bonus": False,
     "wizard_cancels_spy": False},
], ids=["base", "C", "F", "F-house-rules-off"])
def test_the_solvers_rounds_lead_where_the_engines_rounds_lead(options):
    variants = tuple(options.get("variants", ()))
    flags = Flags(*(options.get(name, True) for name in Flags._fields))
    s = Solver(flags, 3 if "C" in variants else 4)
    rounds = 0
    for seed in range(80):
        log = play("braverats", seed, mode="physical", options=options)
        before, first = None, True
        for _, _, after in M.replay_steps(log):
            st = after.state
            if before is not None and len(st.rounds) == rounds_then + 1:
                c0, c1 = st.rounds[-1].cards
                nxt = s.outcome(before, c0, c1)
                if st.ended is not None:
                    winner = st.ended[0]
                    assert nxt == (0.0 if winner is None else 1.0 if winner == 0 else -1.0), (seed, st.ended)
                else:
                    assert nxt == position_of(st), (seed, len(st.rounds))
                rounds += 1
                before = None
            pos = position_of(st)
            if pos is not None:
                before, rounds_then = pos, len(st.rounds)
                if first:  # the first round starts where the solver's opening is
                    assert pos == opening(variants, options.get("princess_attack_seat", 0)), seed
                    first = False
    assert rounds > 200


# -- LP duality -----------------------------------------------------------------------------------------


@pytest.mark.slow(25)
def test_the_base_games_whole_tree_is_solved_and_certified():
    """The base game solved from the opening (~220,000 positions, ~25 s: one test, so that one process of the
    suite solves it once): the opening, 1,000 random positions of the tree, 150 of its late positions in exact
    fractions, and what the choices at 400 positions gave away."""
    from workers.tables import FileTables

    kept = FileTables()  # the run's own directory (tests/conftest.py): the servers' analyses read the same table
    blob = kept.get(table_name(Flags(), 4, OPENING), lambda: build_table(Flags(), 4, OPENING))
    solved = Solver()
    assert solved.thaw(blob) > 150_000  # canonical positions: a mirror is its canonical position negated
    assert len({p for p in solved.positions()}) > 150_000
    opening_is_even(solved)
    a_thousand_random_positions_are_certified(solved)
    late_positions_agree_with_exhaustive_search(solved)
    a_card_an_equilibrium_plays_loses_nothing_and_another_loses_what_it_costs(solved)
    logs_are_judged_round_by_round(solved)


def logs_are_judged_round_by_round(solved: Solver) -> None:
    """``judge_log`` over engine-played games (undos among the moves): each round starts at the value the last
    one ended on, the last ends on the game's result, and each glyph is the one its loss earns."""
    marked = 0
    for seed in range(12):
        log = play("braverats", seed, mode="physical", undo_rate=0.1 if seed % 3 == 0 else 0.0)
        judged = judge_log(log, lambda flags, target: solved)
        final = M.replay(log)
        assert judged and len(judged) == len(final.state.rounds), seed
        assert judged[0].before == solved.value(OPENING)
        for prev, nxt in zip(judged, judged[1:]):
            assert prev.after == nxt.before, (seed, prev.seq)
        winner = final.state.ended[0]
        assert judged[-1].after == (0.0 if winner is None else 1.0 if winner == 0 else -1.0)
        for j in judged:
            assert j.cards in [r.cards for r in final.state.rounds]
            for loss, mark in zip(j.loss, j.glyphs):
                assert mark == ("??" if loss >= 0.3 else "?" if loss >= 0.2 else "?!" if loss >= 0.1 else None)
                marked += mark is not None
            assert abs(sum(j.mix[0].values()) - 1) < 1e-9 and abs(sum(j.mix[1].values()) - 1) < 1e-9
    assert marked > 5  # the bots are no equilibrium players


def _ordered(positions):
    return sorted(positions, key=order)


def opening_is_even(solved: Solver) -> None:
    assert abs(solved.value(OPENING)) < TOL  # both sides hold the same eight cards
    certified(solved, OPENING)
    x, y = solved.round(OPENING).mix
    assert all(abs(a - b) < 1e-6 for a, b in zip(x, y))  # and play the same mix


def a_thousand_random_positions_are_certified(solved: Solver) -> None:
    rng = random.Random(37)
    sample = rng.sample(_ordered(solved.positions()), 1000)
    assert sum(p.spy_first is not None for p in sample) > 50 and sum(p.held > 0 for p in sample) > 50
    assert sum(any(p.bonus) for p in sample) > 50
    for pos in sample:
        certified(solved, pos)
        assert abs(solved.value(pos) + solved.value(pos.swapped())) < TOL  # the seats' roles swapped


def late_positions_agree_with_exhaustive_search(solved: Solver) -> None:
    rng = random.Random(3)
    late = rng.sample(_ordered(p for p in solved.positions() if sum(unpack(p.hands[0])) <= 3), 150)
    memo: dict = {}
    for pos in late:
        assert abs(float(exact_value(solved, pos, memo)) - solved.value(pos)) < 1e-9, pos
    assert sum(v.denominator > 1 for v in memo.values()) > 10


@pytest.mark.parametrize("flags,target,f",
                         [(Flags(), 3, False), (Flags(), 4, True), (Flags(False, False, False), 4, True)],
                         ids=["C", "F", "F-house-rules-off"])
def test_the_variants_positions_are_certified(flags, target, f):
    """Variant C's target of 3, and F's hands (the attacker's two Princesses, the other's two Princes): 300
    positions of four cards a hand or fewer each, certified as above (the openings' whole trees are the
    bench's: ~20 s each)."""
    s = Solver(flags, target)
    rng = random.Random(f"{flags}{target}{f}")
    positions = small_positions(rng, 300, 4, target, f)
    for pos in positions:
        certified(s, pos)
    assert sum(max(s.round(p).mix[0]) < 1 for p in positions if p.spy_first is None) > 30


# -- exact rationals ------------------------------------------------------------------------------------


def _solve_square(rows: list[list[Fraction]]) -> list[Fraction] | None:
    """Gaussian elimination in fractions; None when singular."""
    n = len(rows)
    a = [r[:] for r in rows]
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [u - f * w for u, w in zip(a[r], a[col])]
    return [a[r][n] / a[r][r] for r in range(n)]


def exact_matrix_value(a: list[list[Fraction]]) -> Fraction:
    """A matrix game's value in fractions, by search over its square submatrices: one of them is a kernel
    whose equalising mixes are an equilibrium of the whole game (Shapley and Snow, 1950)."""
    m, n = len(a), len(a[0])
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                # Red's x on rows, value v: every kept column pays v; sum x = 1
                xs = _solve_square([[a[i][j] for i in rows] + [Fraction(-1), Fraction(0)] for j in cols]
                                   + [[Fraction(1)] * k + [Fraction(0), Fraction(1)]])
                ys = _solve_square([[a[i][j] for j in cols] + [Fraction(-1), Fraction(0)] for i in rows]
                                   + [[Fraction(1)] * k + [Fraction(0), Fraction(1)]])
                if xs is None or ys is None or xs[-1] != ys[-1]:
                    continue
                x, y, v = xs[:-1], ys[:-1], xs[-1]
                if min(x) < 0 or min(y) < 0:
                    continue
                if all(sum(x[p] * a[i][j] for p, i in enumerate(rows)) >= v for j in range(n)) and \
                        all(sum(y[q] * a[i][j] for q, j in enumerate(cols)) <= v for i in range(m)):
                    return v
    raise AssertionError(f"no kernel for {a}")  # every matrix game has one


def exact_value(s: Solver, pos: Position, memo: dict) -> Fraction:
    """The value of ``pos`` by exhaustive search in fractions, the solver used only for what a pair of cards
    leads to (the rules, checked against the engine above)."""
    if pos in memo:
        return memo[pos]
    rows, cols = cards_in(pos.hands[0]), cards_in(pos.hands[1])
    a = []
    for c0 in rows:
        line = []
        for c1 in cols:
            nxt = s.outcome(pos, c0, c1)
            line.append(Fraction(int(nxt)) if isinstance(nxt, float) else exact_value(s, nxt, memo))
        a.append(line)
    if pos.spy_first == 0:
        v = max(min(r) for r in a)
    elif pos.spy_first == 1:
        v = min(max(a[i][j] for i in range(len(rows))) for j in range(len(cols)))
    else:
        v = exact_matrix_value(a)
    memo[pos] = v
    return v


def small_positions(rng: random.Random, n: int, most: int = 3, target: int = 4, f: bool = False) -> list[Position]:
    """``n`` positions of up to ``most`` cards a hand, scores short of ``target``; ``f``: the hands variant F
    deals (one side's Prince traded for the other's Princess)."""
    out = []
    while len(out) < n:
        k = rng.randint(1, most)
        if f:
            attacker = [c for c in range(8) if c != PRINCE] + [PRINCESS]
            other = [c for c in range(8) if c != PRINCESS] + [PRINCE]
            sides = [attacker, other] if rng.random() < 0.5 else [other, attacker]
            hands = tuple(hand_of(rng.sample(side, k)) for side in sides)
        else:
            hands = tuple(hand_of(rng.sample(range(8), k)) for _ in range(2))
        score = (rng.randint(0, target - 1), rng.randint(0, target - 1))
        out.append(Position(hands, score, rng.choice([0, 0, 1, 2]), (rng.random() < 0.3, rng.random() < 0.3),
                            rng.choice([None, None, 0, 1])))
    return out


@pytest.mark.parametrize("flags,target", [(Flags(), 4), (Flags(False, False, False), 4), (Flags(True, False, True), 3)],
                         ids=["base", "house-rules-off", "C"])
def test_small_positions_agree_with_exhaustive_search_in_exact_rationals(flags, target):
    s = Solver(flags, target)
    rng = random.Random(f"{flags}{target}")
    positions = small_positions(rng, 300, 3, target)
    memo: dict = {}
    mixed = 0
    for pos in positions:
        if max(pos.score) >= target:
            continue
        exact = exact_value(s, pos, memo)
        assert abs(float(exact) - s.value(pos)) < 1e-9, (pos, exact, s.value(pos))
        mixed += exact.denominator > 1
    assert mixed > 10  # not only saddle points


# -- what a choice gave away ----------------------------------------------------------------------------


def a_card_an_equilibrium_plays_loses_nothing_and_another_loses_what_it_costs(solved: Solver) -> None:
    rng = random.Random(7)
    positions = _ordered(p for p in solved.positions() if sum(unpack(p.hands[0])) >= 2)
    positive = 0
    for pos in rng.sample(positions, 400):
        r = solved.round(pos)
        x, y = r.mix
        for i, c0 in enumerate(r.rows):
            red, _ = solved.loss(pos, c0, None) if r.first != 1 else solved.loss(pos, c0, r.cols[y.index(1.0)])
            assert red >= 0
            if x[i] > 0 and r.first is None:
                assert red == 0 or red < TOL, (pos, c0, red)
            if r.first is None:  # against Blue's equilibrium mix
                expected = r.value - sum(y[j] * r.matrix[i][j] for j in range(len(y)))
                assert abs(red - max(0.0, expected)) < TOL
            positive += red > 1e-6
        for j, c1 in enumerate(r.cols):
            _, blue = solved.loss(pos, None, c1) if r.first != 0 else solved.loss(pos, r.rows[x.index(1.0)], c1)
            assert blue >= 0
            if y[j] > 0 and r.first is None:
                assert blue < TOL, (pos, c1, blue)
    assert positive > 100
    # the opening: a card the equilibrium never plays (the Prince, the Musician, the Princess) gives something away
    r = solved.round(OPENING)
    for card in (r.rows[i] for i, w in enumerate(r.mix[0]) if w == 0):
        assert solved.loss(OPENING, card, None)[0] > 0
    assert FULL == hand_of(range(8))
