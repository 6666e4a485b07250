"""Exact odds for the knights' tournament (Ridder-toernooi): rolls and duels.

Everything here is pure and works on plain values (no game state), so the
engine, the worker's annotations and the bots can all call it.

The model
=========

**A roll** (R9, R12). A knight rolls ``n`` dice, each showing 1–6 uniformly.
In the mounted phase only the faces 1, 2, 3 can hit; on foot only 4, 5, 6.
The defender has ``covered[v]`` fields (0..2) of each attacking face ``v``;
each covered field blocks one die of that face, so

    hits = Σ_v max(0, count_v − covered_v)     (v over the phase's 3 faces)

:func:`hit_counts` gives, for every number of hits, the exact number of the
``6**n`` outcomes with that many hits (a multinomial sum over the counts of
the three attacking faces; the other three faces never hit), so
:func:`hit_distribution_exact` is exact in rationals and
:func:`hit_distribution` is the same as floats. Both are memoised.

**A duel** (R9–R13, R27). The attacker and the defender each roll in every
round; both rolls are evaluated together.

* *Mounted round.* Each hit is one wound; a knight who takes any wound falls.
  Exactly one falls: the other wins at once (R10), even if the fallen one now
  has 10 or more wounds (he is then also out of the tournament, R13).
* *Woedend* (R11). Neither hits: both reroll, each with one extra die for
  that round only. ``woedend_mode`` says what happens if the reroll misses
  again (open point 8):

  - ``every`` (**default**): every further round without a hit is again
    rolled with +1 die (not cumulative), until someone hits. Solved in closed
    form: the geometric series of no-hit rerolls sums to a division by
    ``1 − P(no hit at +1)``.
  - ``first_only``: only the first reroll gets the extra die; later no-hit
    rounds are rerolled with the knights' own dice. Closed form as above.
  - ``cumulative``: the k-th reroll uses +k dice. The series is summed term by
    term until the mass still undecided is below 1e-18 (or the pools reach
    :data:`MAX_POOL` dice), and that last remainder is closed as in ``every``
    at that level: the error is below 1e-18.

* *Both fall*: they fight on foot (R12) from the wounds they now have (wounds
  carry over from the mounted round and from earlier days). Each foot round
  both roll their own dice (no woedend die), 4/5/6 against foot fields.
  A foot round in which nobody hits changes nothing and is repeated; that
  loop is solved in closed form (division by ``1 − P(no hit)``).
* *End.* After every complete round in which both are on foot — including
  the mounted round in which both fell — the attacker may give up, then the
  defender (open point 9); who gives up loses. A knight who reaches 10 wounds
  is out of the tournament and loses (R13); if both reach 10 in the same round
  both are out and nobody wins (open point 10, ``both_eliminated`` ``no_winner``,
  the default). With ``attacker_first`` ("Eerst gooit de aanvaller") the
  attacker's hits count first: a defender they put at 10 wounds is out before
  he rolls, the attacker wins and takes no wounds in that round.
* *Woedend die.* With the option ``woedend_die`` ``optional`` a knight may
  leave the woedend die out; it can only add hits for him, so these odds
  assume that he rolls it.

The duel is a Markov chain over the wound pair ``(wounds_a, wounds_b)``:
wounds never decrease and every non-null round adds at least one, so
:func:`duel_odds` solves it exactly by dynamic programming from the most
wounded states down (at most 100 states), with the null rounds' self-loops
and the woedend rerolls summed in closed form. Probabilities are floats
(double precision); they sum to 1 within rounding.

*Undecided.* If neither knight can ever hit (for example two dice each against
two covered fields of every face on foot), the duel never ends under the
rules; that probability is reported as ``undecided`` instead of looping.

Give-up policies (open points 9 and 19)
=======================================

:class:`GiveUp` is a named policy, applied after each complete round once
both knights are on foot:

* ``never`` (**the default**, :data:`NEVER`): fight until one has 10 wounds.
  This is the rules' own end of a foot fight and the only one allowed in the
  deciding duel (R27); giving up is a player's choice, recorded as a move, so
  the odds before the dice assume nobody does.
* ``wounds:K`` (:meth:`GiveUp.at_wounds`): give up as soon as one's own
  wounds are at least ``K`` (1..9) after a round.
* ``odds:P`` (:meth:`GiveUp.below_odds`): give up when one's chance to win
  if both fight the next round (and follow their policies afterwards) is
  below ``P`` (0..1). The attacker does not know yet whether the defender
  will give up, so he does not count on it.

``policy`` may be one policy for both knights or a pair
``(attacker_policy, defender_policy)``. Policies are also accepted as the
strings ``"never"``, ``"wounds:7"``, ``"odds:0.2"`` (:meth:`GiveUp.parse`).

Expected wounds are the hits each knight takes in the duel (not capped at the
end of the wound track). ``attacker_out``/``defender_out`` are the
probabilities that a knight ends the duel with 10 or more wounds.

Calling it
==========

``duel_odds(Fighter(4, (2, 1, 1), (1, 1, 1)), Fighter(5, (1, 1, 0), (1, 1, 0)))``
gives a :class:`DuelOdds` before the dice; :func:`foot_odds` the odds of a foot
fight from the knights' current wounds; :func:`give_up_decision` what a policy
does after a round; :func:`roll_luck` the luck of an observed roll
(``hits`` counts it). Results are memoised (a duel takes well under a
millisecond the first time, microseconds after); :func:`clear_caches` forgets
them. Bad input raises ``ValueError`` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import mul
from typing import Mapping, Sequence, Union

__all__ = [
    "BOTH_ELIMINATED",
    "DEFAULT_POLICY",
    "DEFAULT_WOEDEND",
    "ELIMINATED_AT",
    "FOOT_FACES",
    "MAX_DICE",
    "MAX_POOL",
    "MOUNTED_FACES",
    "NEVER",
    "DuelOdds",
    "Fighter",
    "GiveUp",
    "RollLuck",
    "WoedendMode",
    "clear_caches",
    "duel_odds",
    "expected_hits",
    "foot_odds",
    "give_up_decision",
    "hit_counts",
    "hit_distribution",
    "hit_distribution_exact",
    "hits",
    "prob_at_least",
    "prob_at_most",
    "roll_luck",
]

MOUNTED_FACES = (1, 2, 3)
FOOT_FACES = (4, 5, 6)
PHASE_FACES = {"mounted": MOUNTED_FACES, "foot": FOOT_FACES}
#: 10 or more wounds: out of the whole tournament (R13).
ELIMINATED_AT = 10
#: The most dice a knight's own pool may hold here (the box has 24 dice).
MAX_DICE = 24
#: The most dice one roll may have, woedend extra dice included.
MAX_POOL = 60
FIELDS_PER_FACE = 2
_CUMULATIVE_EPS = 1e-18


class WoedendMode(str, Enum):
    """What happens when a woedend reroll again has no hit (open point 8)."""

    EVERY = "every"
    FIRST_ONLY = "first_only"
    CUMULATIVE = "cumulative"


DEFAULT_WOEDEND = WoedendMode.EVERY

#: Open point 10: both knights reach 10 wounds in one round.
BOTH_ELIMINATED = ("no_winner", "attacker_first")


def _attacker_first(both_eliminated: str) -> bool:
    if both_eliminated not in BOTH_ELIMINATED:
        raise ValueError(f"both_eliminated: must be 'no_winner' or 'attacker_first', got {both_eliminated!r}")
    return both_eliminated == "attacker_first"

Cover = Union[Sequence[int], Mapping[Union[int, str], int]]


# --------------------------------------------------------------------------------------------
# Rolls
# --------------------------------------------------------------------------------------------

def _cover3(covered: Cover) -> tuple[int, int, int]:
    """A phase's covered fields as a 3-tuple (faces in ascending order).

    Accepts a sequence of three counts or a mapping face -> count whose keys
    are the faces of one phase (1–3 or 4–6, ints or digit strings)."""
    if isinstance(covered, Mapping):
        try:
            items = {int(k): v for k, v in covered.items()}
        except (TypeError, ValueError):
            raise ValueError(f"covered: faces must be 1..6, got {sorted(map(str, covered))}") from None
        if not items:
            return (0, 0, 0)
        if set(items) <= set(MOUNTED_FACES):
            faces = MOUNTED_FACES
        elif set(items) <= set(FOOT_FACES):
            faces = FOOT_FACES
        else:
            raise ValueError(f"covered: faces {sorted(items)} are not all mounted (1-3) or all foot (4-6)")
        values = tuple(items.get(f, 0) for f in faces)
    else:
        values = tuple(covered)
        if len(values) != 3:
            raise ValueError(f"covered: need 3 counts (one per attacking face), got {len(values)}")
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= FIELDS_PER_FACE:
            raise ValueError(f"covered: each count must be an integer 0..{FIELDS_PER_FACE}, got {v!r}")
    return values  # type: ignore[return-value]


def _check_dice(dice: int, limit: int = MAX_POOL) -> int:
    if not isinstance(dice, int) or isinstance(dice, bool) or not 0 <= dice <= limit:
        raise ValueError(f"dice: must be an integer 0..{limit}, got {dice!r}")
    return dice


@lru_cache(maxsize=4096)
def _hit_counts(dice: int, c1: int, c2: int, c3: int) -> tuple[int, ...]:
    counts = [0] * (dice + 1)
    for k1 in range(dice + 1):
        w1 = comb(dice, k1)
        h1 = k1 - c1 if k1 > c1 else 0
        r1 = dice - k1
        for k2 in range(r1 + 1):
            w2 = w1 * comb(r1, k2)
            h2 = h1 + (k2 - c2 if k2 > c2 else 0)
            r2 = r1 - k2
            for k3 in range(r2 + 1):
                # the r2 - k3 dice left show one of the three faces that never hit
                counts[h2 + (k3 - c3 if k3 > c3 else 0)] += w2 * comb(r2, k3) * 3 ** (r2 - k3)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return tuple(counts)


def hit_counts(dice: int, covered: Cover) -> tuple[int, ...]:
    """For h = 0, 1, …: how many of the ``6**dice`` equally likely outcomes
    give exactly h hits against ``covered`` (3 counts, the phase's faces).
    Trailing impossible hit counts are dropped; the counts sum to 6**dice."""
    return _hit_counts(_check_dice(dice), *_cover3(covered))


@lru_cache(maxsize=4096)
def _hit_dist(dice: int, c1: int, c2: int, c3: int) -> tuple[float, ...]:
    total = 6 ** dice
    return tuple(c / total for c in _hit_counts(dice, c1, c2, c3))


def hit_distribution(dice: int, covered: Cover) -> tuple[float, ...]:
    """P(exactly h hits) for h = 0, 1, … as floats (index = hits)."""
    return _hit_dist(_check_dice(dice), *_cover3(covered))


def hit_distribution_exact(dice: int, covered: Cover) -> tuple[Fraction, ...]:
    """P(exactly h hits) for h = 0, 1, … as exact fractions."""
    total = 6 ** _check_dice(dice)
    return tuple(Fraction(c, total) for c in hit_counts(dice, covered))


def hits(faces: Sequence[int], covered: Cover, phase: str = "mounted") -> int:
    """The hits of an observed roll: ``faces`` are the dice as rolled (1–6),
    ``covered`` the defender's fields of the phase's faces, ``phase`` is
    ``"mounted"`` (1–3 hit) or ``"foot"`` (4–6 hit)."""
    if phase not in PHASE_FACES:
        raise ValueError(f"phase: must be 'mounted' or 'foot', got {phase!r}")
    cover = _cover3(covered)
    counts = [0] * 7
    for f in faces:
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
            raise ValueError(f"faces: each die shows 1..6, got {f!r}")
        counts[f] += 1
    return sum(max(0, counts[v] - c) for v, c in zip(PHASE_FACES[phase], cover))


def expected_hits(dice: int, covered: Cover) -> float:
    """The mean number of hits of ``dice`` dice against ``covered``."""
    return sum(h * p for h, p in enumerate(hit_distribution(dice, covered)))


def _check_observed(observed: int) -> int:
    if not isinstance(observed, int) or isinstance(observed, bool):
        raise ValueError(f"observed: hits must be an integer, got {observed!r}")
    return observed


def prob_at_least(dice: int, covered: Cover, observed: int) -> float:
    """P(hits ≥ observed) — small means the roll was lucky for the roller."""
    _check_observed(observed)
    counts = hit_counts(dice, covered)
    return sum(counts[max(0, observed):]) / 6 ** dice


def prob_at_most(dice: int, covered: Cover, observed: int) -> float:
    """P(hits ≤ observed) — small means the roll was unlucky for the roller."""
    _check_observed(observed)
    counts = hit_counts(dice, covered)
    return sum(counts[: max(0, observed + 1)]) / 6 ** dice


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll: expected vs. observed hits and both tails."""

    dice: int
    observed: int
    expected: float
    p_at_least: float
    p_at_most: float

    @property
    def luck(self) -> float:
        """Observed minus expected hits (positive: luckier than average)."""
        return self.observed - self.expected


def roll_luck(dice: int, covered: Cover, observed: int) -> RollLuck:
    """Expected hits, P(≥ observed) and P(≤ observed) for an observed roll."""
    if not isinstance(observed, int) or isinstance(observed, bool) or not 0 <= observed <= dice:
        raise ValueError(f"observed: hits must be an integer 0..{dice}, got {observed!r}")
    return RollLuck(dice, observed, expected_hits(dice, covered), prob_at_least(dice, covered, observed),
                    prob_at_most(dice, covered, observed))


# --------------------------------------------------------------------------------------------
# Fighters and policies
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Fighter:
    """A knight as the odds see him: his attack dice now, his covered fields
    of faces 1, 2, 3 (``mounted``) and 4, 5, 6 (``foot``), each 0..2, and his
    wounds now (0..9)."""

    dice: int
    mounted: tuple[int, int, int] = (0, 0, 0)
    foot: tuple[int, int, int] = (0, 0, 0)
    wounds: int = 0

    def __post_init__(self) -> None:
        _check_dice(self.dice, MAX_DICE)
        object.__setattr__(self, "mounted", _cover3(self.mounted))
        object.__setattr__(self, "foot", _cover3(self.foot))
        w = self.wounds
        if not isinstance(w, int) or isinstance(w, bool) or not 0 <= w < ELIMINATED_AT:
            raise ValueError(f"wounds: a knight in a duel has 0..{ELIMINATED_AT - 1} wounds, got {w!r}")

    @classmethod
    def from_covered(cls, dice: int, covered: Mapping[Union[int, str], int], wounds: int = 0) -> "Fighter":
        """From one mapping face (1..6) -> covered fields; missing faces are 0."""
        try:
            c = {int(k): v for k, v in covered.items()}
        except (TypeError, ValueError):
            raise ValueError("covered: faces must be 1..6") from None
        if not set(c) <= set(range(1, 7)):
            raise ValueError(f"covered: faces must be 1..6, got {sorted(c)}")
        return cls(dice, tuple(c.get(f, 0) for f in MOUNTED_FACES), tuple(c.get(f, 0) for f in FOOT_FACES), wounds)


@dataclass(frozen=True, slots=True)
class GiveUp:
    """A named give-up policy; see the module docstring. ``kind`` is
    ``"never"``, ``"wounds"`` (threshold: own wounds 1..9) or ``"odds"``
    (threshold: chance to win by fighting on, 0..1)."""

    kind: str = "never"
    threshold: float = 0

    def __post_init__(self) -> None:
        if self.kind == "never":
            object.__setattr__(self, "threshold", 0)
        elif self.kind == "wounds":
            t = self.threshold
            if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t < ELIMINATED_AT:
                raise ValueError(f"give-up 'wounds': the threshold is a wound count 1..{ELIMINATED_AT - 1}, got {t!r}")
        elif self.kind == "odds":
            t = self.threshold
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t <= 1:
                raise ValueError(f"give-up 'odds': the threshold is a probability 0..1, got {t!r}")
            object.__setattr__(self, "threshold", float(t))
        else:
            raise ValueError(f"give-up policy: kind must be 'never', 'wounds' or 'odds', got {self.kind!r}")

    @classmethod
    def at_wounds(cls, k: int) -> "GiveUp":
        """Give up once one's own wounds are at least ``k`` after a round."""
        return cls("wounds", k)

    @classmethod
    def below_odds(cls, p: float) -> "GiveUp":
        """Give up when the chance to win by fighting on is below ``p``."""
        return cls("odds", p)

    @classmethod
    def parse(cls, spec: Union[str, "GiveUp"]) -> "GiveUp":
        """``"never"``, ``"wounds:K"`` or ``"odds:P"`` (or a GiveUp as is)."""
        if isinstance(spec, GiveUp):
            return spec
        if not isinstance(spec, str) or len(spec) > 40:
            raise ValueError(f"give-up policy: expected 'never', 'wounds:K' or 'odds:P', got {spec!r}")
        kind, _, arg = spec.strip().partition(":")
        if kind == "never" and not arg:
            return NEVER
        try:
            if kind == "wounds":
                return cls("wounds", int(arg))
            if kind == "odds":
                return cls("odds", float(arg))
        except ValueError as exc:
            raise ValueError(f"give-up policy {spec!r}: {exc}") from None
        raise ValueError(f"give-up policy: expected 'never', 'wounds:K' or 'odds:P', got {spec!r}")

    def __str__(self) -> str:
        return "never" if self.kind == "never" else f"{self.kind}:{self.threshold:g}"

    def gives_up(self, own_wounds: int, p_win_if_fighting_on: float) -> bool:
        """Whether a knight with ``own_wounds`` gives up after a round."""
        if self.kind == "wounds":
            return own_wounds >= self.threshold
        if self.kind == "odds":
            return p_win_if_fighting_on < self.threshold
        return False


NEVER = GiveUp("never")
DEFAULT_POLICY = NEVER

PolicyArg = Union[GiveUp, str, tuple]


def _policies(policy: PolicyArg) -> tuple[GiveUp, GiveUp]:
    if isinstance(policy, tuple):
        if len(policy) != 2:
            raise ValueError("policy: one policy or a pair (attacker, defender)")
        return GiveUp.parse(policy[0]), GiveUp.parse(policy[1])
    p = GiveUp.parse(policy)
    return p, p


# --------------------------------------------------------------------------------------------
# Duels
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DuelOdds:
    """The outcome distribution of a duel (or of a foot fight from here).

    ``attacker_wins + defender_wins + nobody + undecided == 1`` (rounding).
    ``nobody``: both reach 10 wounds in the same round. ``undecided``: neither
    can ever hit, so the rules never end the duel. Wounds are expected hits
    taken in this duel; ``*_out`` the chance to end with ≥ 10 wounds;
    ``foot`` the chance that they fight on foot, ``woedend`` the chance of at
    least one woedend reroll."""

    attacker_wins: float
    defender_wins: float
    nobody: float
    undecided: float
    attacker_wounds: float
    defender_wounds: float
    attacker_out: float
    defender_out: float
    foot: float
    woedend: float

    def as_dict(self) -> dict[str, float]:
        """The figures by name (for annotations)."""
        return {f: getattr(self, f) for f in self.__slots__}

    def win(self, side: str) -> float:
        """The chance that ``side`` (``"attacker"`` or ``"defender"``) wins."""
        if side == "attacker":
            return self.attacker_wins
        if side == "defender":
            return self.defender_wins
        raise ValueError(f"side: 'attacker' or 'defender', got {side!r}")


# A value vector: (pA, pB, pN, pU, wounds_a, wounds_b, out_a, out_b)
_A_WINS = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_B_WINS = (0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_UNDECIDED = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0)


def _tails(dist: Sequence[float]) -> list[float]:
    """tails[k] = P(hits ≥ k) for k = 0..ELIMINATED_AT (+1)."""
    t = [0.0] * (ELIMINATED_AT + 2)
    acc = 0.0
    for k in range(len(dist) - 1, -1, -1):
        acc += dist[k]
        if k < len(t):
            t[k] = acc
    return t


class _Foot:
    """The foot fight between two fixed pools, solved for every wound pair
    (wa, wb) with wa ≥ lo_a and wb ≥ lo_b.

    ``value(wa, wb)`` is the value vector after the give-up check that follows
    a round; ``cont(wa, wb)`` the value of fighting the next round. Three
    quantities are packed as complex numbers so that each sum over a hit
    distribution is one C-level call: P = pA + i·pB, Q = pN + i·rounds,
    O = outA + i·outB."""

    __slots__ = ("a", "b", "pol_a", "pol_b", "lo_a", "lo_b", "first", "degenerate", "null", "mu_a", "mu_b",
                 "P", "Q", "O", "CP", "CQ", "CO", "gave_up")

    def __init__(self, a: Sequence[float], b: Sequence[float], pol_a: GiveUp, pol_b: GiveUp,
                 lo_a: int, lo_b: int, first: bool = False) -> None:
        # a: hits the attacker deals (wounds to B); b: hits the defender deals.
        # first: the attacker's hits count first (both_eliminated attacker_first).
        self.a, self.b = a, b
        self.first = first
        self.pol_a, self.pol_b = pol_a, pol_b
        self.lo_a, self.lo_b = lo_a, lo_b
        null = a[0] * b[0]
        self.null = null
        self.degenerate = null >= 1.0
        self.mu_a = sum(i * p for i, p in enumerate(a))
        self.mu_b = sum(j * p for j, p in enumerate(b))
        n = ELIMINATED_AT
        self.P = [[0j] * n for _ in range(n)]
        self.Q = [[0j] * n for _ in range(n)]
        self.O = [[0j] * n for _ in range(n)]
        self.CP = [[0j] * n for _ in range(n)]
        self.CQ = [[0j] * n for _ in range(n)]
        self.CO = [[0j] * n for _ in range(n)]
        self.gave_up = [[0] * n for _ in range(n)]  # 0 nobody, 1 attacker, 2 defender
        if not self.degenerate:
            self._solve()

    def _solve(self) -> None:
        n = ELIMINATED_AT
        a, b = self.a, self.b
        a0, b0 = a[0], b[0]
        ta, tb = _tails(a), _tails(b)
        a1 = list(a[1:n])  # hits 1..9 of the attacker
        b1 = list(b[1:n])
        inv = 1.0 / (1.0 - a0 * b0)
        P, Q, O, CP, CQ, CO = self.P, self.Q, self.O, self.CP, self.CQ, self.CO
        pol_a, pol_b = self.pol_a, self.pol_b
        never = pol_a.kind == "never" and pol_b.kind == "never"
        # R[x][wb] = Σ_i a_i V(x, wb+i) for the attacker's row x (full, i ≥ 0), kept by column
        RP = [[0j] * n for _ in range(n)]  # RP[wb][x]
        RQ = [[0j] * n for _ in range(n)]
        RO = [[0j] * n for _ in range(n)]
        for wa in range(n - 1, self.lo_a - 1, -1):
            Prow, Qrow, Orow = P[wa], Q[wa], O[wa]
            ka = n - wa  # the defender's hits j >= ka put the attacker out
            tbk = tb[ka]
            bj = b1[: ka - 1]
            for wb in range(n - 1, self.lo_b - 1, -1):
                kb = n - wb  # the attacker's hits i >= kb put the defender out
                tak = ta[kb]
                ai = a1[: kb - 1]
                # j = 0, i >= 1: the attacker's row wa; i >= kb: the defender is out, the attacker wins
                r0P = sum(map(mul, ai, Prow[wb + 1:])) + tak
                r0Q = sum(map(mul, ai, Qrow[wb + 1:]))
                r0O = sum(map(mul, ai, Orow[wb + 1:])) + tak * 1j
                # j >= 1 with the attacker still in: rows wa+j, all i
                colP, colQ, colO = RP[wb], RQ[wb], RO[wb]
                sP = b0 * r0P + sum(map(mul, bj, colP[wa + 1:]))
                sQ = b0 * r0Q + sum(map(mul, bj, colQ[wa + 1:]))
                sO = b0 * r0O + sum(map(mul, bj, colO[wa + 1:]))
                # j >= ka: the attacker is out; nobody wins if the defender is out too,
                # unless the attacker's hits count first: then the defender, out, never rolled
                if tbk:
                    if self.first:
                        sP += tbk * ((1.0 - tak) * 1j + tak)
                        sO += tbk * ((1.0 - tak) + tak * 1j)
                    else:
                        sP += tbk * (1.0 - tak) * 1j
                        sQ += tbk * tak
                        sO += tbk * (1.0 + tak * 1j)
                cP = sP * inv
                cQ = sQ * inv + 1j  # one more non-null round
                cO = sO * inv
                CP[wa][wb], CQ[wa][wb], CO[wa][wb] = cP, cQ, cO
                if never:
                    vP, vQ, vO = cP, cQ, cO
                elif pol_a.gives_up(wa, cP.real):
                    vP, vQ, vO = 1j, 0j, 0j
                    self.gave_up[wa][wb] = 1
                elif pol_b.gives_up(wb, cP.imag):
                    vP, vQ, vO = 1 + 0j, 0j, 0j
                    self.gave_up[wa][wb] = 2
                else:
                    vP, vQ, vO = cP, cQ, cO
                Prow[wb], Qrow[wb], Orow[wb] = vP, vQ, vO
                colP[wa] = a0 * vP + r0P
                colQ[wa] = a0 * vQ + r0Q
                colO[wa] = a0 * vO + r0O

    def vector(self, P: complex, Q: complex, O: complex) -> tuple:
        """The value vector of packed sums (linear, so sums may be packed first)."""
        rounds = Q.imag
        scale = rounds / (1.0 - self.null)
        # attacker_first: in the round that puts the defender out (O.imag: its chance) he does not roll
        taken = scale - O.imag if self.first else scale
        return (P.real, P.imag, Q.real, 0.0, taken * self.mu_b, scale * self.mu_a, O.real, O.imag)

    def value(self, wa: int, wb: int) -> tuple:
        """After a complete round at (wa, wb), both under 10: give-up check, then fight on."""
        if self.degenerate:
            return self._degenerate(wa, wb)
        return self.vector(self.P[wa][wb], self.Q[wa][wb], self.O[wa][wb])

    def cont(self, wa: int, wb: int) -> tuple:
        """Fighting the next round at (wa, wb) and on, with no give-up now."""
        if self.degenerate:
            return _UNDECIDED
        return self.vector(self.CP[wa][wb], self.CQ[wa][wb], self.CO[wa][wb])

    def decision(self, wa: int, wb: int) -> int:
        if self.degenerate:
            return {"attacker": 1, "defender": 2, None: 0}[self._degenerate_decision(wa, wb)]
        return self.gave_up[wa][wb]

    def _degenerate_decision(self, wa: int, wb: int):
        if self.pol_a.gives_up(wa, 0.0):
            return "attacker"
        if self.pol_b.gives_up(wb, 0.0):
            return "defender"
        return None

    def _degenerate(self, wa: int, wb: int) -> tuple:
        who = self._degenerate_decision(wa, wb)
        return _B_WINS if who == "attacker" else _A_WINS if who == "defender" else _UNDECIDED


_FOOT_CACHE: dict[tuple, _Foot] = {}
_FOOT_CACHE_SIZE = 1024


def _foot_solution(dice_a: int, foot_a: tuple, dice_b: int, foot_b: tuple, pol_a: GiveUp, pol_b: GiveUp,
                   lo_a: int, lo_b: int, first: bool = False) -> _Foot:
    """The foot fight of two pools, solved for every wound pair from
    (lo_a, lo_b) up. It does not depend on the wounds, so one solution serves
    every duel of these pools that starts at or above its lower bounds; a
    request below them solves again with the lower bounds."""
    key = (dice_a, foot_a, dice_b, foot_b, pol_a, pol_b, first)
    foot = _FOOT_CACHE.get(key)
    if foot is None or foot.lo_a > lo_a or foot.lo_b > lo_b:
        if foot is not None:
            lo_a, lo_b = min(lo_a, foot.lo_a), min(lo_b, foot.lo_b)
        foot = _Foot(_hit_dist(dice_a, *foot_b), _hit_dist(dice_b, *foot_a), pol_a, pol_b, lo_a, lo_b, first)
        if len(_FOOT_CACHE) >= _FOOT_CACHE_SIZE:
            _FOOT_CACHE.clear()
        _FOOT_CACHE[key] = foot
    return foot


def clear_caches() -> None:
    """Forget every memoised roll table, foot fight and duel (for benchmarks)."""
    _duel.cache_clear()
    _foot_odds.cache_clear()
    _FOOT_CACHE.clear()
    _hit_dist.cache_clear()
    _hit_counts.cache_clear()


def _dist_pair(att: Fighter, dfd: Fighter, phase: str, extra: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    if phase == "mounted":
        return (_hit_dist(att.dice + extra, *dfd.mounted), _hit_dist(dfd.dice + extra, *att.mounted))
    return _hit_dist(att.dice, *dfd.foot), _hit_dist(dfd.dice, *att.foot)


def _mounted_level(a: Sequence[float], b: Sequence[float], wa0: int, wb0: int, foot: _Foot) -> tuple[list, float]:
    """One mounted round: the unnormalised value vector over its outcomes with
    at least one hit, and P(no hit on either side). ``a``: the attacker's hits
    (wounds to the defender), ``b``: the defender's. ``foot.first``: the
    attacker's hits count first (a defender they put out does not roll)."""
    a0, b0 = a[0], b[0]
    ta, tb = _tails(a), _tails(b)
    mu_a = sum(i * p for i, p in enumerate(a))
    mu_b = sum(j * p for j, p in enumerate(b))
    ka, kb = ELIMINATED_AT - wa0, ELIMINATED_AT - wb0  # hits that put the attacker / the defender out
    a_out, b_out = tb[ka], ta[kb]  # P(the attacker / the defender reaches 10 in this round)
    # Only the attacker hits: the defender falls, the attacker wins (and the
    # other way round). Both hit: both fall and take their wounds.
    v = [
        (1.0 - a0) * b0 + b_out * (tb[1] - a_out),  # attacker wins
        a0 * (1.0 - b0) + a_out * (ta[1] - b_out),  # defender wins
        a_out * b_out,  # both reach 10 in this round: nobody
        0.0,
        mu_b,  # every hit of this round is a wound: E[hits] over all outcomes
        mu_a,
        a_out,  # whoever hits the attacker to 10 puts him out, whatever else happens
        b_out,
    ]
    if foot.first:
        # the attacker's hits count first: a defender at 10 does not roll, the attacker wins
        v[0] += a_out * b_out
        v[2] = 0.0
        v[4] = mu_b * (1.0 - b_out)
        v[6] = a_out * (1.0 - b_out)
    # both fall and both stay under 10: on foot at (wa0+j, wb0+i), after the give-up check
    if foot.degenerate:
        for j in range(1, min(len(b), ka)):
            for i in range(1, min(len(a), kb)):
                p = b[j] * a[i]
                if p:
                    f = foot.value(wa0 + j, wb0 + i)
                    for x in range(8):
                        v[x] += p * f[x]
        return v, a0 * b0
    ai = a[1:kb]
    sP = sQ = sO = 0j
    for j in range(1, min(len(b), ka)):
        bj = b[j]
        if bj:
            w = wa0 + j
            sP += bj * sum(map(mul, ai, foot.P[w][wb0 + 1:]))
            sQ += bj * sum(map(mul, ai, foot.Q[w][wb0 + 1:]))
            sO += bj * sum(map(mul, ai, foot.O[w][wb0 + 1:]))
    f = foot.vector(sP, sQ, sO)
    for x in range(8):
        v[x] += f[x]
    return v, a0 * b0


def _foot_prob(a: Sequence[float], b: Sequence[float]) -> float:
    return (1.0 - a[0]) * (1.0 - b[0])


def duel_odds(attacker: Fighter, defender: Fighter, policy: PolicyArg = DEFAULT_POLICY,
              woedend_mode: Union[WoedendMode, str] = DEFAULT_WOEDEND,
              both_eliminated: str = "no_winner") -> DuelOdds:
    """The exact odds of a duel from its first mounted round (R9–R13).

    ``policy``: a :class:`GiveUp`, its string form, or a pair (attacker,
    defender); default ``never`` (R27: fight to 10 wounds). ``woedend_mode``:
    ``every`` (default), ``first_only`` or ``cumulative``. ``both_eliminated``
    (open point 10): ``no_winner`` (default) or ``attacker_first``."""
    if not isinstance(attacker, Fighter) or not isinstance(defender, Fighter):
        raise ValueError("attacker and defender must be Fighter values")
    pol_a, pol_b = _policies(policy)
    mode = WoedendMode(woedend_mode)
    return _duel(attacker, defender, pol_a, pol_b, mode, _attacker_first(both_eliminated))


@lru_cache(maxsize=8192)
def _duel(att: Fighter, dfd: Fighter, pol_a: GiveUp, pol_b: GiveUp, mode: WoedendMode,
          first: bool = False) -> DuelOdds:
    wa0, wb0 = att.wounds, dfd.wounds
    foot = _foot_solution(att.dice, att.foot, dfd.dice, dfd.foot, pol_a, pol_b,
                          min(wa0 + 1, ELIMINATED_AT - 1), min(wb0 + 1, ELIMINATED_AT - 1), first)

    def level(extra: int) -> tuple[list, float, float]:
        a, b = _dist_pair(att, dfd, "mounted", extra)
        v, q = _mounted_level(a, b, wa0, wb0, foot)
        return v, q, _foot_prob(a, b)

    v0, q0, f0 = level(0)
    total = list(v0)
    foot_p = f0
    undecided = 0.0
    if q0 > 0.0:
        v1, q1, f1 = level(1)
        if mode is WoedendMode.EVERY:
            if q1 >= 1.0:
                undecided = q0
            else:
                s = q0 / (1.0 - q1)
                total = [x + s * y for x, y in zip(total, v1)]
                foot_p += s * f1
        elif mode is WoedendMode.FIRST_ONLY:
            total = [x + q0 * y for x, y in zip(total, v1)]
            foot_p += q0 * f1
            if q1 > 0.0:
                if q0 < 1.0:
                    s = q0 * q1 / (1.0 - q0)
                    total = [x + s * y for x, y in zip(total, v0)]
                    foot_p += s * f0
                else:
                    undecided = q1
        else:  # cumulative: +k dice on the k-th reroll
            mass, extra, v, q, f = q0, 1, v1, q1, f1
            while True:
                total = [x + mass * y for x, y in zip(total, v)]
                foot_p += mass * f
                mass *= q
                if mass <= _CUMULATIVE_EPS or max(att.dice, dfd.dice) + extra >= MAX_POOL:
                    break
                extra += 1
                v, q, f = level(extra)
            if mass > 0.0:  # close the remainder as 'every' at the last level
                if q < 1.0:
                    s = mass / (1.0 - q)
                    total = [x + s * y for x, y in zip(total, v)]
                    foot_p += s * f
                else:
                    undecided = mass
    total[3] += undecided
    return DuelOdds(attacker_wins=total[0], defender_wins=total[1], nobody=total[2], undecided=total[3],
                    attacker_wounds=total[4], defender_wounds=total[5], attacker_out=total[6],
                    defender_out=total[7], foot=foot_p, woedend=q0)


def foot_odds(attacker: Fighter, defender: Fighter, policy: PolicyArg = DEFAULT_POLICY,
              both_eliminated: str = "no_winner") -> DuelOdds:
    """The odds of a foot fight from the knights' current wounds, if both
    fight the next round (nobody gives up now) and follow ``policy`` after
    it. Wounds in the result are those still to be taken."""
    if not isinstance(attacker, Fighter) or not isinstance(defender, Fighter):
        raise ValueError("attacker and defender must be Fighter values")
    pol_a, pol_b = _policies(policy)
    return _foot_odds(attacker, defender, pol_a, pol_b, _attacker_first(both_eliminated))


@lru_cache(maxsize=4096)
def _foot_odds(att: Fighter, dfd: Fighter, pol_a: GiveUp, pol_b: GiveUp, first: bool = False) -> DuelOdds:
    foot = _foot_solution(att.dice, att.foot, dfd.dice, dfd.foot, pol_a, pol_b, att.wounds, dfd.wounds, first)
    v = foot.cont(att.wounds, dfd.wounds)
    return DuelOdds(attacker_wins=v[0], defender_wins=v[1], nobody=v[2], undecided=v[3], attacker_wounds=v[4],
                    defender_wounds=v[5], attacker_out=v[6], defender_out=v[7], foot=1.0, woedend=0.0)


def give_up_decision(attacker: Fighter, defender: Fighter, policy: PolicyArg = DEFAULT_POLICY,
                     both_eliminated: str = "no_winner") -> str | None:
    """After a complete round with both on foot at their current wounds: who
    gives up under ``policy`` — ``"attacker"`` (he declares first),
    ``"defender"`` or ``None``."""
    if not isinstance(attacker, Fighter) or not isinstance(defender, Fighter):
        raise ValueError("attacker and defender must be Fighter values")
    pol_a, pol_b = _policies(policy)
    if pol_a.kind == "never" and pol_b.kind == "never":
        return None
    foot = _foot_solution(attacker.dice, attacker.foot, defender.dice, defender.foot, pol_a, pol_b,
                          attacker.wounds, defender.wounds, _attacker_first(both_eliminated))
    return {0: None, 1: "attacker", 2: "defender"}[foot.decision(attacker.wounds, defender.wounds)]
