"""Ridder-toernooi exact odds (engine/ridder_toernooi/odds.py) against
independent references: full enumeration of every roll, a plain recursive
duel solver that iterates the loops instead of summing them, and a seeded
Monte Carlo of 10^6 duels.

Run time on the shared 2-core machine: the fast part about 8 s (of it the
enumeration of all 6^n rolls for n ≤ 8, 2.0 million outcomes, about 2 s; the
hypothesis properties about 2 s); the Monte Carlo of 10^6 duels (``slow``)
about 25 s of CPU, up to a minute of wall time under load.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from bisect import bisect_right
from itertools import accumulate, combinations_with_replacement, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ridder_toernooi import odds as O
from engine.ridder_toernooi.odds import (
    NEVER,
    DuelOdds,
    Fighter,
    GiveUp,
    WoedendMode,
    duel_odds,
    expected_hits,
    foot_odds,
    give_up_decision,
    hit_counts,
    hit_distribution,
    hit_distribution_exact,
    hits,
    prob_at_least,
    prob_at_most,
    roll_luck,
)

R = "ridder_toernooi."
COVERS = list(product(range(3), repeat=3))  # 27 cover vectors of one phase

# -- the reference: every roll enumerated ---------------------------------------------------

SHIFT = 5  # face counts packed 5 bits per face (up to 31 dice)


def _unpack(key: int) -> list[int]:
    return [(key >> (SHIFT * f)) & 31 for f in range(6)]


@lru_cache(maxsize=None)
def enumerated_face_counts(n: int) -> Counter:
    """All 6**n outcomes of n dice, one by one, tallied by their face counts."""
    weights = [1 << (SHIFT * f) for f in range(6)]  # die showing face f+1
    return Counter(map(sum, product(weights, repeat=n)))


def hits_of_counts(counts: list[int], cover: tuple[int, int, int], faces: tuple[int, int, int]) -> int:
    return sum(max(0, counts[v - 1] - c) for v, c in zip(faces, cover))


@lru_cache(maxsize=None)
def enumerated_hits(n: int, cover: tuple[int, int, int], faces: tuple[int, int, int]) -> tuple[int, ...]:
    tally = Counter()
    for key, ways in enumerated_face_counts(n).items():
        tally[hits_of_counts(_unpack(key), cover, faces)] += ways
    top = max(tally)
    return tuple(tally[h] for h in range(top + 1))


# -- rolls -----------------------------------------------------------------------------------

@pytest.mark.rule(R + "R9")
@pytest.mark.rule(R + "R12")
@pytest.mark.parametrize("n", range(9))
def test_hit_counts_equal_the_enumeration_of_every_roll(n):
    """Every (dice ≤ 8, cover) case, for both phases: the exact counts of
    hits equal a tally of all 6^n outcomes, and the probabilities are those
    counts over 6^n exactly (fractions) and to the last bit (floats)."""
    for cover in COVERS:
        for faces in (O.MOUNTED_FACES, O.FOOT_FACES):
            assert hit_counts(n, cover) == enumerated_hits(n, cover, faces), (n, cover, faces)
        counts = enumerated_hits(n, cover, O.MOUNTED_FACES)
        assert sum(counts) == 6 ** n
        assert hit_distribution_exact(n, cover) == tuple(Fraction(c, 6 ** n) for c in counts)
        assert hit_distribution(n, cover) == tuple(c / 6 ** n for c in counts)


@pytest.mark.rule(R + "R9")
def test_a_covered_field_blocks_one_die_of_its_face():
    # "3x een 1 en beide trefvelden 1 afgedekt: de derde 1 raakt"
    assert hits([1, 1, 1], (2, 0, 0), "mounted") == 1
    assert hits([1, 1, 1], {"1": 2}, "mounted") == 1
    assert hits([4, 5, 6, 1, 2, 3], (0, 0, 0), "mounted") == 3
    assert hits([4, 5, 6, 1, 2, 3], (0, 0, 0), "foot") == 3
    assert hits([4, 4, 6, 6, 6], {4: 1, 6: 2}, "foot") == 2
    # a 4, 5 or 6 never hits on horseback, a 1, 2 or 3 never on foot
    assert hits([4, 5, 6, 6], (0, 0, 0), "mounted") == 0
    assert hits([1, 2, 3, 3], (0, 0, 0), "foot") == 0


@pytest.mark.rule(R + "R9")
@pytest.mark.rule(R + "R10")
def test_the_printed_duel_apollonius_against_harald():
    """The rules' example, with the placeholder cards: Apollonius (K01, red
    mounted 1,2,3, trained: +1 die and a second 1) rolls 1,3,3,6 and deals 2
    wounds; Harald (K02, red mounted 1,2, 5 dice) rolls 1,2,5,5,6 and deals
    none — so exactly Harald falls and Apollonius wins."""
    apollonius = Fighter.from_covered(3 + 1, {1: 1 + 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1})
    harald = Fighter.from_covered(5, {1: 1, 2: 1, 4: 1, 5: 1})
    assert apollonius.mounted == (2, 1, 1) and harald.mounted == (1, 1, 0)
    dealt_by_apollonius = hits([1, 3, 3, 6], harald.mounted, "mounted")
    dealt_by_harald = hits([1, 2, 5, 5, 6], apollonius.mounted, "mounted")
    assert (dealt_by_apollonius, dealt_by_harald) == (2, 0)
    # the odds of those two rolls, from the exact distributions
    luck_a = roll_luck(4, harald.mounted, 2)
    assert luck_a.p_at_least == pytest.approx(sum(enumerated_hits(4, (1, 1, 0), (1, 2, 3))[2:]) / 6 ** 4, abs=1e-15)
    luck_h = roll_luck(5, apollonius.mounted, 0)
    assert luck_h.p_at_most == pytest.approx(enumerated_hits(5, (2, 1, 1), (1, 2, 3))[0] / 6 ** 5, abs=1e-15)
    # Apollonius attacking: his chance before the dice is a real probability
    odds = duel_odds(apollonius, harald)
    assert 0 < odds.attacker_wins < 1 and 0 < odds.defender_wins < 1


@pytest.mark.parametrize("n,cover", [(0, (0, 0, 0)), (1, (0, 0, 0)), (4, (1, 1, 0)), (6, (2, 2, 2)), (8, (0, 1, 2))])
def test_luck_helpers_against_the_enumeration(n, cover):
    counts = enumerated_hits(n, cover, O.MOUNTED_FACES)
    total = 6 ** n
    assert expected_hits(n, cover) == pytest.approx(sum(h * c for h, c in enumerate(counts)) / total, abs=1e-14)
    for h in range(n + 2):
        assert prob_at_least(n, cover, h) == pytest.approx(sum(counts[h:]) / total, abs=1e-15)
        assert prob_at_most(n, cover, h) == pytest.approx(sum(counts[: h + 1]) / total, abs=1e-15)
    luck = roll_luck(n, cover, 0)
    assert luck.luck == pytest.approx(-luck.expected)
    assert luck.p_at_most == pytest.approx(counts[0] / total)


@pytest.mark.parametrize("call", [
    lambda: hit_distribution(-1, (0, 0, 0)),
    lambda: hit_distribution(3, (0, 3, 0)),
    lambda: hit_distribution(3, (0, 0)),
    lambda: hit_distribution(3, {1: 1, 4: 1}),
    lambda: hit_distribution(O.MAX_POOL + 1, (0, 0, 0)),
    lambda: hits([0, 1], (0, 0, 0)),
    lambda: hits([7], (0, 0, 0)),
    lambda: hits([1], (0, 0, 0), "swimming"),
    lambda: roll_luck(3, (0, 0, 0), 4),
    lambda: Fighter(O.MAX_DICE + 1),
    lambda: Fighter(3, (0, 0, 0), (0, 0, 0), 10),
    lambda: Fighter(3, (0, -1, 0)),
    lambda: Fighter.from_covered(3, {7: 1}),
    lambda: GiveUp("sometimes"),
    lambda: GiveUp.at_wounds(0),
    lambda: GiveUp.at_wounds(10),
    lambda: GiveUp.below_odds(1.5),
    lambda: GiveUp.parse("wounds:x"),
    lambda: GiveUp.parse("never:1"),
    lambda: duel_odds(Fighter(3), Fighter(3), woedend_mode="sometimes"),
    lambda: duel_odds(Fighter(3), Fighter(3), policy=(NEVER,)),
    lambda: duel_odds((3,), Fighter(3)),
])
def test_bad_input_is_a_value_error_that_says_what(call):
    with pytest.raises(ValueError) as exc:
        call()
    assert str(exc.value)


def test_policies_parse_and_print():
    assert GiveUp.parse("never") is NEVER and O.DEFAULT_POLICY == NEVER
    assert GiveUp.parse("wounds:7") == GiveUp.at_wounds(7)
    assert GiveUp.parse("odds:0.25") == GiveUp.below_odds(0.25)
    assert [str(GiveUp.parse(s)) for s in ("never", "wounds:7", "odds:0.25")] == ["never", "wounds:7", "odds:0.25"]
    assert O.DEFAULT_WOEDEND is WoedendMode.EVERY


# -- the reference duel: enumerated rolls, a plain recursion, loops iterated ----------------

@lru_cache(maxsize=None)
def die_by_die(n: int, cover: tuple[int, int, int]) -> tuple[Fraction, ...]:
    """Beyond 8 dice (cumulative woedend): add the dice one at a time, each
    face with chance 1/6, keeping the counts of the three attacking faces."""
    states = {(0, 0, 0): Fraction(1)}
    for _ in range(n):
        nxt: dict = {}
        for (k1, k2, k3), p in states.items():
            for k in ((k1 + 1, k2, k3), (k1, k2 + 1, k3), (k1, k2, k3 + 1)):
                nxt[k] = nxt.get(k, 0) + p / 6
            nxt[(k1, k2, k3)] = nxt.get((k1, k2, k3), 0) + p / 2
        states = nxt
    out = [Fraction(0)] * (n + 1)
    for ks, p in states.items():
        out[sum(max(0, k - c) for k, c in zip(ks, cover))] += p
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return tuple(out)


def ref_dist(n: int, cover: tuple[int, int, int], faces: tuple[int, int, int]) -> list[float]:
    if n > 8:
        return [float(p) for p in die_by_die(n, cover)]
    counts = enumerated_hits(n, cover, faces)
    return [c / 6 ** n for c in counts]


@pytest.mark.parametrize("n", [0, 3, 8])
def test_the_die_by_die_reference_agrees_with_the_enumeration(n):
    for cover in COVERS:
        assert die_by_die(n, cover) == tuple(Fraction(c, 6 ** n) for c in enumerated_hits(n, cover, (1, 2, 3)))


def ref_policy(spec: str, own: int, p_win: float) -> bool:
    kind, _, arg = spec.partition(":")
    if kind == "wounds":
        return own >= int(arg)
    if kind == "odds":
        return p_win < float(arg)
    return False


def reference_duel(att: Fighter, dfd: Fighter, pol_a: str, pol_b: str, mode: str, first: bool = False) -> dict:
    """Value vectors (pA, pB, pN, pU, wounds A, wounds B, out A, out B).
    ``first``: both_eliminated attacker_first, a defender the attacker's hits put
    at 10 does not roll."""
    foot_a = ref_dist(att.dice, dfd.foot, (4, 5, 6))  # hits the attacker deals on foot
    foot_b = ref_dist(dfd.dice, att.foot, (4, 5, 6))
    null = foot_a[0] * foot_b[0]

    def end(wa: int, wb: int, taken_a: float, taken_b: float):
        """After a round at (wa, wb): a terminal vector, or None to fight on."""
        if wa >= 10 and wb >= 10:
            return [0, 0, 1, 0, taken_a, taken_b, 1, 1]
        if wa >= 10:
            return [0, 1, 0, 0, taken_a, taken_b, 1, 0]
        if wb >= 10:
            return [1, 0, 0, 0, taken_a, taken_b, 0, 1]
        return None

    @lru_cache(maxsize=None)
    def fight_on(wa: int, wb: int) -> tuple:
        """Both fight the next foot round at (wa, wb); null rounds iterated."""
        if null == 1.0:
            return (0, 0, 0, 1, 0, 0, 0, 0)
        rest = [0.0] * 8
        for i, pa in enumerate(foot_a):
            for j, pb in enumerate(foot_b):
                if i == 0 and j == 0:
                    continue
                if first and wb + i >= 10:  # out before he strikes back
                    vec = [1, 0, 0, 0, 0, i, 0, 1]
                else:
                    vec = after_round(wa + j, wb + i, j, i)
                rest = [r + pa * pb * x for r, x in zip(rest, vec)]
        c = [0.0] * 8
        for _ in range(100_000):  # c = rest + null * c, iterated to its fixed point
            nxt = [r + null * x for r, x in zip(rest, c)]
            if max(abs(x - y) for x, y in zip(nxt, c)) < 1e-17:
                break
            c = nxt
        return tuple(nxt)

    def after_round(wa: int, wb: int, taken_a: int, taken_b: int) -> list:
        done = end(wa, wb, taken_a, taken_b)
        if done is not None:
            return done
        c = fight_on(wa, wb)
        if ref_policy(pol_a, wa, c[0]):
            return [0, 1, 0, 0, taken_a, taken_b, 0, 0]
        if ref_policy(pol_b, wb, c[1]):
            return [1, 0, 0, 0, taken_a, taken_b, 0, 0]
        return [c[0], c[1], c[2], c[3], c[4] + taken_a, c[5] + taken_b, c[6], c[7]]

    def extras():
        k = 0
        yield 0
        while True:
            k += 1
            yield {"every": 1, "first_only": 1 if k == 1 else 0, "cumulative": k}[mode]

    total = [0.0] * 8
    mass = 1.0
    wa0, wb0 = att.wounds, dfd.wounds
    for extra in extras():
        ma = ref_dist(att.dice + extra, dfd.mounted, (1, 2, 3))
        mb = ref_dist(dfd.dice + extra, att.mounted, (1, 2, 3))
        for i, pa in enumerate(ma):
            for j, pb in enumerate(mb):
                p = mass * pa * pb
                if i == 0 and j == 0:
                    continue
                if j == 0:  # only the defender falls
                    vec = [1, 0, 0, 0, 0, i, 0, 1 if wb0 + i >= 10 else 0]
                elif i == 0:
                    vec = [0, 1, 0, 0, j, 0, 1 if wa0 + j >= 10 else 0, 0]
                elif first and wb0 + i >= 10:
                    vec = [1, 0, 0, 0, 0, i, 0, 1]
                else:
                    vec = after_round(wa0 + j, wb0 + i, j, i)
                total = [t + p * x for t, x in zip(total, vec)]
        mass *= ma[0] * mb[0]
        if mass < 1e-14 or (mass == 1.0 and extra and mode != "cumulative"):
            break
    total[3] += mass  # still undecided: below 1e-14, or 1 if nobody can ever hit
    return dict(zip(("attacker_wins", "defender_wins", "nobody", "undecided", "attacker_wounds",
                     "defender_wounds", "attacker_out", "defender_out"), total))


APOLLONIUS = Fighter(4, (2, 1, 1), (1, 1, 1))
HARALD = Fighter(5, (1, 1, 0), (1, 1, 0))

SMALL_CASES = [
    # (attacker, defender, attacker policy, defender policy, woedend mode)
    (Fighter(1), Fighter(1), "never", "never", "every"),
    (Fighter(2, (1, 0, 1), (0, 1, 0)), Fighter(1, (0, 1, 1), (1, 0, 0)), "never", "never", "every"),
    (Fighter(2, (1, 0, 1), (0, 1, 0)), Fighter(1, (0, 1, 1), (1, 0, 0)), "never", "never", "first_only"),
    (Fighter(2, (1, 0, 1), (0, 1, 0)), Fighter(1, (0, 1, 1), (1, 0, 0)), "never", "never", "cumulative"),
    (Fighter(2, (2, 1, 2), (1, 1, 1)), Fighter(2, (2, 2, 1), (2, 0, 1)), "never", "never", "every"),
    (Fighter(2, (2, 1, 2), (1, 1, 1)), Fighter(2, (2, 2, 1), (2, 0, 1)), "never", "never", "first_only"),
    (Fighter(2, (1, 1, 1), (1, 1, 1)), Fighter(2, (1, 1, 1), (1, 1, 1)), "never", "never", "cumulative"),
    (Fighter(3, (0, 0, 0), (2, 2, 1), wounds=4), Fighter(2, (0, 0, 1), (1, 2, 2), wounds=2), "never", "never",
     "every"),
    (Fighter(3, (0, 0, 0), (1, 1, 1), wounds=3), Fighter(3, (0, 1, 0), (1, 0, 1), wounds=1), "wounds:6", "wounds:8",
     "every"),
    (Fighter(3, (0, 0, 0), (1, 1, 1), wounds=3), Fighter(3, (0, 1, 0), (1, 0, 1), wounds=1), "odds:0.3", "odds:0.45",
     "first_only"),
    (Fighter(3, (1, 0, 0), (0, 0, 0), wounds=8), Fighter(3, (0, 0, 1), (0, 0, 0), wounds=9), "never", "never",
     "every"),
    (APOLLONIUS, HARALD, "never", "never", "every"),
    (APOLLONIUS, HARALD, "wounds:5", "odds:0.2", "cumulative"),
    (Fighter(1, (2, 2, 2)), Fighter(1, (2, 2, 2)), "never", "never", "every"),
    (Fighter(2, (0, 0, 0), (2, 2, 2)), Fighter(2, (0, 0, 0), (2, 2, 2)), "never", "never", "every"),
    (Fighter(2, (0, 0, 0), (2, 2, 2)), Fighter(2, (0, 0, 0), (2, 2, 2)), "odds:0.1", "never", "every"),
]

KEYS = ("attacker_wins", "defender_wins", "nobody", "undecided", "attacker_wounds", "defender_wounds",
        "attacker_out", "defender_out")


@pytest.mark.rule(R + "R10")
@pytest.mark.rule(R + "R11")
@pytest.mark.rule(R + "R12")
@pytest.mark.rule(R + "R13")
@pytest.mark.parametrize("att,dfd,pa,pb,mode", SMALL_CASES)
def test_duel_odds_equal_the_reference_solver(att, dfd, pa, pb, mode):
    got = duel_odds(att, dfd, (pa, pb), mode)
    want = reference_duel(att, dfd, pa, pb, mode)
    for k in KEYS:
        assert getattr(got, k) == pytest.approx(want[k], abs=1e-12), k
    assert sum(getattr(got, k) for k in KEYS[:4]) == pytest.approx(1.0, abs=1e-12)


FIRST_CASES = [
    (Fighter(3, (1, 0, 0), (0, 0, 0), wounds=8), Fighter(3, (0, 0, 1), (0, 0, 0), wounds=9), "never", "never",
     "every"),
    (Fighter(3, (0, 0, 0), (2, 2, 1), wounds=4), Fighter(2, (0, 0, 1), (1, 2, 2), wounds=2), "never", "never",
     "first_only"),
    (Fighter(3, (0, 0, 0), (1, 1, 1), wounds=3), Fighter(3, (0, 1, 0), (1, 0, 1), wounds=6), "wounds:6", "odds:0.3",
     "every"),
    (APOLLONIUS, HARALD, "never", "never", "cumulative"),
    (Fighter(2, (0, 0, 0), (2, 2, 2)), Fighter(2, (0, 0, 0), (2, 2, 2)), "never", "never", "every"),
]


@pytest.mark.rule(R + "R13")
@pytest.mark.parametrize("att,dfd,pa,pb,mode", FIRST_CASES)
def test_attacker_first_odds_equal_the_reference_solver(att, dfd, pa, pb, mode):
    """Open point 10, "Eerst gooit de aanvaller" (both_eliminated attacker_first):
    a defender put at 10 by the attacker's hits does not roll, so nobody never
    wins and the attacker takes no wounds in that round."""
    got = duel_odds(att, dfd, (pa, pb), mode, "attacker_first")
    want = reference_duel(att, dfd, pa, pb, mode, first=True)
    for k in KEYS:
        assert getattr(got, k) == pytest.approx(want[k], abs=1e-12), k
    assert got.nobody == 0.0
    assert sum(getattr(got, k) for k in KEYS[:4]) == pytest.approx(1.0, abs=1e-12)
    base = duel_odds(att, dfd, (pa, pb), mode)
    assert got.attacker_wins >= base.attacker_wins - 1e-12 and got.attacker_wounds <= base.attacker_wounds + 1e-12
    foot = foot_odds(Fighter(att.dice, att.mounted, att.foot, 8), Fighter(dfd.dice, dfd.mounted, dfd.foot, 9),
                     (pa, pb), "attacker_first")
    assert foot.nobody == 0.0
    with pytest.raises(ValueError, match="both_eliminated"):
        duel_odds(att, dfd, (pa, pb), mode, "both")


@pytest.mark.rule(R + "R11")
def test_nobody_ever_hitting_is_undecided_not_a_hang():
    # one die (+1 woedend) against both fields of 1, 2 and 3 covered can never hit
    stone = Fighter(1, (2, 2, 2), (0, 0, 0))
    for mode in ("every", "first_only"):
        assert duel_odds(stone, stone, woedend_mode=mode).undecided == 1.0
    # with +k dice the k-th reroll can hit: cumulative always decides
    assert duel_odds(stone, stone, woedend_mode="cumulative").undecided == 0.0
    # both fall, then on foot two dice each against full foot cover never hit
    walls = Fighter(2, (0, 0, 0), (2, 2, 2))
    odds = duel_odds(walls, walls)
    assert odds.undecided == pytest.approx(odds.foot) and odds.foot > 0.1
    # unless someone gives up: the attacker declares first
    gives = duel_odds(walls, walls, "wounds:1")
    assert gives.undecided == 0.0
    assert gives.defender_wins == pytest.approx(duel_odds(walls, walls).defender_wins + odds.undecided)


@pytest.mark.rule(R + "R11")
def test_woedend_rerolls_with_one_extra_die_for_that_round():
    """Worked by hand. One die each: the attacker hits only with a 3 (1/6),
    the defender never. Woedend, two dice each: the attacker misses in 23 of
    36 rolls (no 3, not two 1s or two 2s), the defender hits only with a pair
    of 1s, 2s or 3s (3 of 36). Nobody can hit on foot, so a fall of both ends
    undecided and the saddle alone decides the winner."""
    a = Fighter(1, (1, 1, 1), (2, 2, 2))
    b = Fighter(1, (1, 1, 0), (2, 2, 2))
    f = Fraction
    a_only, b_only, both = f(13 * 33, 1296), f(23 * 3, 1296), f(13 * 3, 1296)
    q1 = f(23 * 33, 1296)
    every = duel_odds(a, b, woedend_mode="every")
    s = f(5, 6) / (1 - q1)  # every further miss is rerolled at +1 die
    assert every.woedend == pytest.approx(5 / 6, abs=1e-15)
    assert every.attacker_wins == pytest.approx(float(f(1, 6) + s * a_only), abs=1e-15)
    assert every.defender_wins == pytest.approx(float(s * b_only), abs=1e-15)
    assert every.undecided == pytest.approx(float(s * both), abs=1e-15)
    # first_only: a second miss goes back to one die each, where only the attacker can hit
    first = duel_odds(a, b, woedend_mode="first_only")
    assert first.attacker_wins == pytest.approx(float(f(1, 6) + f(5, 6) * (a_only + q1)), abs=1e-15)
    assert first.defender_wins == pytest.approx(float(f(5, 6) * b_only), abs=1e-15)
    assert first.undecided == pytest.approx(float(f(5, 6) * both), abs=1e-15)


@pytest.mark.rule(R + "R13")
def test_both_reaching_ten_in_one_round_means_nobody_wins():
    a = Fighter(3, (0, 0, 0), (1, 0, 0), wounds=9)
    b = Fighter(2, (0, 1, 0), (0, 0, 1), wounds=9)
    fa, fb = hit_distribution(3, b.foot), hit_distribution(2, a.foot)
    odds = foot_odds(a, b)
    nonnull = 1 - fa[0] * fb[0]
    assert odds.nobody == pytest.approx((1 - fa[0]) * (1 - fb[0]) / nonnull, abs=1e-15)
    assert odds.attacker_wins == pytest.approx((1 - fa[0]) * fb[0] / nonnull, abs=1e-15)
    assert odds.attacker_out == pytest.approx(odds.defender_wins + odds.nobody, abs=1e-15)
    # mounted: both hit -> both fall with 10 wounds; exactly one hits -> he wins
    ma, mb = hit_distribution(3, b.mounted), hit_distribution(2, a.mounted)
    duel = duel_odds(a, b)
    q0 = ma[0] * mb[0]
    ma1, mb1 = hit_distribution(4, b.mounted), hit_distribution(3, a.mounted)
    s = q0 / (1 - ma1[0] * mb1[0])
    assert duel.nobody == pytest.approx((1 - ma[0]) * (1 - mb[0]) + s * (1 - ma1[0]) * (1 - mb1[0]), abs=1e-15)
    assert duel.foot == 0.0 or duel.foot == pytest.approx(duel.nobody)


@pytest.mark.rule(R + "R27")
def test_the_deciding_duel_fights_on_to_ten_wounds():
    """Under ``never`` (the deciding duel) every foot fight ends with a knight
    at 10 wounds: the loser on foot is always out of the tournament."""
    a = Fighter(4, (1, 1, 0), (1, 0, 1), wounds=2)
    b = Fighter(5, (1, 0, 1), (0, 1, 1), wounds=5)
    odds = foot_odds(a, b, NEVER)
    assert odds.attacker_out == pytest.approx(odds.defender_wins + odds.nobody, abs=1e-13)
    assert odds.defender_out == pytest.approx(odds.attacker_wins + odds.nobody, abs=1e-13)
    assert give_up_decision(Fighter(3, wounds=9), Fighter(3, wounds=9), NEVER) is None
    # a knight who may give up is less often out of the tournament, and wins less
    careful = foot_odds(a, b, ("wounds:6", "never"))
    assert careful.attacker_out < odds.attacker_out and careful.attacker_wins < odds.attacker_wins


@pytest.mark.rule(R + "R12")
def test_give_up_after_a_round_attacker_declares_first():
    a, b = Fighter(3, wounds=7), Fighter(3, wounds=8)
    assert give_up_decision(a, b, "wounds:7") == "attacker"
    assert give_up_decision(a, b, ("never", "wounds:7")) == "defender"
    assert give_up_decision(a, b, ("wounds:8", "wounds:9")) is None
    # odds: a knight far behind gives up, one ahead fights on
    weak, strong = Fighter(1, wounds=8), Fighter(8, wounds=1)
    assert give_up_decision(weak, strong, "odds:0.2") == "attacker"
    assert give_up_decision(strong, weak, "odds:0.2") == "defender"
    # from the start: at 1 wound a knight gives up every foot fight at once (nobody
    # reaches 10 in the saddle here), so he wins only in the saddle
    saddle_a = duel_odds(APOLLONIUS, HARALD, ("wounds:1", "never")).attacker_wins
    saddle_b = duel_odds(APOLLONIUS, HARALD, ("never", "wounds:1")).defender_wins
    foot = duel_odds(APOLLONIUS, HARALD).foot
    assert 0.1 < foot < 0.9
    assert saddle_a + saddle_b + foot == pytest.approx(1.0, abs=1e-13)
    both = duel_odds(APOLLONIUS, HARALD, "wounds:1")
    assert both.attacker_wins == pytest.approx(saddle_a, abs=1e-13)  # the attacker declares first
    assert both.foot == pytest.approx(foot, abs=1e-15)  # the saddle does not depend on the policy


def test_the_result_is_cached_and_immutable():
    first = duel_odds(APOLLONIUS, HARALD)
    assert duel_odds(APOLLONIUS, HARALD) is first
    assert isinstance(first, DuelOdds)
    with pytest.raises(AttributeError):
        first.attacker_wins = 1.0  # type: ignore[misc]
    assert first.win("attacker") == first.attacker_wins and first.win("defender") == first.defender_wins
    assert first.as_dict()["nobody"] == first.nobody and len(first.as_dict()) == 10


fighters = st.builds(
    Fighter,
    st.integers(1, 9),
    st.tuples(*[st.integers(0, 2)] * 3),
    st.tuples(*[st.integers(0, 2)] * 3),
    st.integers(0, 9),
)
modes = st.sampled_from(list(WoedendMode))


@pytest.mark.rule(R + "R10")
@pytest.mark.rule(R + "R12")
@settings(max_examples=150, deadline=None)
@given(fighters, fighters, modes)
def test_the_duel_is_symmetric_and_more_dice_never_hurt(a, b, mode):
    """Both roll in every round and the rolls are evaluated together, so
    without giving up the roles are mirror images; and one more attack die
    or covered field can only help (each die can only add hits)."""
    ab, ba = duel_odds(a, b, NEVER, mode), duel_odds(b, a, NEVER, mode)
    mirrored = ("defender_wins", "attacker_wins", "nobody", "undecided", "defender_wounds", "attacker_wounds",
                "defender_out", "attacker_out", "foot", "woedend")
    for k, m in zip(("attacker_wins", "defender_wins", "nobody", "undecided", "attacker_wounds", "defender_wounds",
                     "attacker_out", "defender_out", "foot", "woedend"), mirrored):
        assert getattr(ab, k) == pytest.approx(getattr(ba, m), rel=1e-9, abs=1e-12), k
    assert ab.attacker_wins + ab.defender_wins + ab.nobody + ab.undecided == pytest.approx(1.0, abs=1e-12)
    for k in KEYS:
        assert getattr(ab, k) >= -1e-15
    assert ab.attacker_out <= 1 + 1e-12 and ab.nobody <= min(ab.attacker_out, ab.defender_out) + 1e-12
    stronger = Fighter(a.dice + 1, a.mounted, a.foot, a.wounds)
    assert duel_odds(stronger, b, NEVER, mode).attacker_wins >= ab.attacker_wins - 1e-12
    if a.mounted[0] < 2:
        shielded = Fighter(a.dice, (a.mounted[0] + 1,) + a.mounted[1:], a.foot, a.wounds)
        assert duel_odds(shielded, b, NEVER, mode).defender_wins <= ab.defender_wins + 1e-12


def test_the_bench_runs(monkeypatch):
    from bench import ridder_odds

    monkeypatch.setenv("RIDDER_BENCH_REPEAT", "1")
    rows = ridder_odds.measure()
    assert len(ridder_odds.matchups(1)) == 180 and len(rows) == 4
    assert all(len(r) == 4 and "ms" in r[1] for r in rows)


# -- 10^6 simulated duels ------------------------------------------------------------------


@lru_cache(maxsize=None)
def hit_weights(n: int, cover: tuple[int, int, int], faces: tuple[int, int, int]) -> tuple[int, ...]:
    """The number of the 6^n outcomes of n dice that give each number of
    hits, tallied by face counts (each multiset of faces weighted by the
    ways to roll it), so that a duel's wider rolls cost no 6^n loop."""
    tally = Counter()
    for combo in combinations_with_replacement(range(6), n):
        counts = [combo.count(f) for f in range(6)]
        ways = math.factorial(n)
        for c in counts:
            ways //= math.factorial(c)
        tally[hits_of_counts(counts, cover, faces)] += ways
    return tuple(tally[h] for h in range(max(tally) + 1))


@lru_cache(maxsize=None)
def hits_table(n: int, cover: tuple[int, int, int], faces: tuple[int, int, int]) -> tuple[list[float], list[int]]:
    """One roll's hits as a cumulative table (one uniform draw, then a bisection)."""
    weights = hit_weights(n, cover, faces)
    return list(accumulate(w / 6 ** n for w in weights)), list(range(len(weights)))


@lru_cache(maxsize=None)
def foot_round_table(dice_a: int, cover_a: tuple, dice_b: int, cover_b: tuple) -> tuple[list[float], list[tuple[int, int]]]:
    """A foot round that wounds someone: the joint (hits of A, hits of B) of
    two independent rolls, given that not both missed. A round where both
    miss changes nothing, so a duel draws the next round that wounds."""
    wa, wb = hit_weights(dice_a, cover_b, O.FOOT_FACES), hit_weights(dice_b, cover_a, O.FOOT_FACES)
    pairs = [((ha, hb), x * y) for ha, x in enumerate(wa) for hb, y in enumerate(wb) if (ha, hb) != (0, 0) and x * y]
    total = sum(w for _, w in pairs)
    return list(accumulate(w / total for _, w in pairs)), [pair for pair, _ in pairs]


def test_the_simulators_tally_by_face_counts_is_the_enumeration_of_every_roll():
    for n in range(7):
        for cover in COVERS:
            for faces in (O.MOUNTED_FACES, O.FOOT_FACES):
                assert hit_weights(n, cover, faces) == enumerated_hits(n, cover, faces), (n, cover, faces)


class Simulator:
    """Duels drawn roll by roll from a seeded RNG, written without the exact
    code: each roll's hits drawn from the tally of all its dice outcomes (the
    tally the enumeration tests above check), and on foot, where a round in
    which both miss changes nothing, the next round that wounds someone."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random

    def draw(self, table: tuple[list[float], list]) -> Any:
        cumulative, outcomes = table
        return outcomes[min(bisect_right(cumulative, self.random()), len(outcomes) - 1)]

    def roll(self, n: int, cover: tuple[int, int, int], faces: tuple[int, int, int]) -> int:
        return self.draw(hits_table(n, cover, faces))

    def duel(self, a: Fighter, b: Fighter, give_up_a: int, give_up_b: int, mode: str):
        """One duel: (winner 'A'/'B'/'N', wounds taken by A, by B, reached foot)."""
        misses = 0
        extra = 0
        while True:
            ha = self.roll(a.dice + extra, b.mounted, (1, 2, 3))
            hb = self.roll(b.dice + extra, a.mounted, (1, 2, 3))
            if ha or hb:
                break
            misses += 1
            extra = 1 if mode == "every" else (1 if misses == 1 else 0) if mode == "first_only" else misses
        wa, wb = a.wounds + hb, b.wounds + ha
        if not hb:
            return "A", hb, ha, False
        if not ha:
            return "B", hb, ha, False
        while True:
            if wa >= 10 and wb >= 10:
                return "N", wa - a.wounds, wb - b.wounds, True
            if wa >= 10:
                return "B", wa - a.wounds, wb - b.wounds, True
            if wb >= 10:
                return "A", wa - a.wounds, wb - b.wounds, True
            if wa >= give_up_a:
                return "B", wa - a.wounds, wb - b.wounds, True
            if wb >= give_up_b:
                return "A", wa - a.wounds, wb - b.wounds, True
            ha, hb = self.draw(foot_round_table(a.dice, a.foot, b.dice, b.foot))
            wa += hb
            wb += ha


MATCHUPS = [
    # name, attacker, defender, give up at own wounds (10 = never), woedend mode
    ("printed example, Apollonius v Harald", APOLLONIUS, HARALD, 10, 10, "every"),
    ("woedend-heavy, every", Fighter(2, (2, 2, 1), (1, 1, 1)), Fighter(3, (2, 1, 2), (0, 1, 1)), 10, 10, "every"),
    ("woedend-heavy, first_only", Fighter(2, (2, 2, 1), (1, 1, 1)), Fighter(3, (2, 1, 2), (0, 1, 1)), 10, 10,
     "first_only"),
    ("woedend-heavy, cumulative", Fighter(1, (2, 2, 2), (0, 1, 0)), Fighter(2, (2, 1, 2), (1, 0, 0)), 10, 10,
     "cumulative"),
    ("long foot fight", Fighter(3, (0, 0, 0), (2, 2, 1)), Fighter(3, (0, 0, 0), (1, 2, 2)), 10, 10, "every"),
    ("wounded, give up at 7 / 8", Fighter(6, (1, 0, 0), (1, 0, 1), wounds=3),
     Fighter(4, (1, 1, 0), (1, 1, 1), wounds=5), 7, 8, "every"),
    ("both near 10", Fighter(7, (0, 0, 0), (0, 0, 0), wounds=8), Fighter(6, (0, 0, 1), (0, 0, 0), wounds=8), 10, 10,
     "every"),
]
DUELS = 1_000_000 // len(MATCHUPS) + 1  # 10^6 duels in all


@pytest.mark.slow
@pytest.mark.rule(R + "R9")
@pytest.mark.rule(R + "R10")
@pytest.mark.rule(R + "R11")
@pytest.mark.rule(R + "R12")
@pytest.mark.rule(R + "R13")
@pytest.mark.rule(R + "R27")
@pytest.mark.parametrize("name,a,b,ga,gb,mode", MATCHUPS, ids=[m[0] for m in MATCHUPS])
def test_duel_odds_agree_with_simulated_duels(name, a, b, ga, gb, mode):
    """|p̂ − p| ≤ 4σ, σ = sqrt(p(1−p)/n), for each outcome; the mean wounds
    within 4 standard errors (from the sample variance)."""
    sim = Simulator(seed=sum(map(ord, name)))
    n = DUELS
    tally = Counter()
    feet = 0
    s_a = s_b = ss_a = ss_b = 0
    for _ in range(n):
        winner, ta, tb, foot = sim.duel(a, b, ga, gb, mode)
        tally[winner] += 1
        feet += foot
        s_a += ta
        s_b += tb
        ss_a += ta * ta
        ss_b += tb * tb
    policy = ("never" if ga >= 10 else f"wounds:{ga}", "never" if gb >= 10 else f"wounds:{gb}")
    exact = duel_odds(a, b, policy, mode)
    for label, count, p in (("A", tally["A"], exact.attacker_wins), ("B", tally["B"], exact.defender_wins),
                            ("N", tally["N"], exact.nobody), ("foot", feet, exact.foot)):
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(count / n - p) <= 4 * sigma + 1e-12, (label, count / n, p, sigma)
    assert exact.undecided == 0.0
    for s, ss, mean in ((s_a, ss_a, exact.attacker_wounds), (s_b, ss_b, exact.defender_wounds)):
        var = ss / n - (s / n) ** 2
        assert abs(s / n - mean) <= 4 * math.sqrt(var / n), (s / n, mean)
