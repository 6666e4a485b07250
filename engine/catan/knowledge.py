"""What one viewer knows of one holder's resource cards: known cards plus
unseen ones, each unseen card with the set of resources it could be.

A ``Hand`` is ``(known, unseen)``: ``known`` counts per resource (lumber,
brick, wool, grain, ore) and ``unseen`` a sorted tuple of ``(mask, origin)``
— bit r of ``mask`` set when the card could be resource r, ``origin`` the seq
of the event that made it unseen (a contradiction names it). Every operation
is an over-approximation of the hands the viewer cannot rule out: it never
refuses what the real cards allow and never narrows beyond what was shown,
so a view built from it cannot reveal a hidden card.

Nothing here is Catan-specific beyond five resources: a scenario adds its own
holders (Troje's support stack) as more ``Hand`` values and uses the same
operations (``add_unseen`` for a face-down donation, ``lose_random`` for a
blind draw, ``pay`` for a reveal).
"""

from __future__ import annotations

from typing import NamedTuple

from ..text import Text, say

R = 5
FULL = (1 << R) - 1
ZERO = (0, 0, 0, 0, 0)


class Contradiction(ValueError):
    """The cards asked for cannot be in the hand; ``origins``: the events whose
    unseen cards were involved (empty: the known cards alone fall short)."""

    def __init__(self, message: Text, origins: tuple[int, ...] = ()) -> None:
        super().__init__(str(message))
        #: what it says, as a message (a refusal says it in the reader's language)
        self.text = message
        self.origins = origins


class Hand(NamedTuple):
    known: tuple[int, ...] = ZERO
    unseen: tuple[tuple[int, int], ...] = ()

    @property
    def size(self) -> int:
        return sum(self.known) + len(self.unseen)

    @property
    def exact(self) -> bool:
        return not self.unseen

    def could_be(self) -> int:
        """Mask of resources some unseen card could be."""
        m = 0
        for mask, _ in self.unseen:
            m |= mask
        return m

    def most(self, r: int) -> int:
        return self.known[r] + sum(1 for mask, _ in self.unseen if mask >> r & 1)

    def least(self, r: int) -> int:
        return self.known[r] + sum(1 for mask, _ in self.unseen if mask == 1 << r)

    def encode(self) -> list:
        return [list(self.known), list(map(list, self.unseen))]

    @classmethod
    def decode(cls, obj: list) -> Hand:
        return cls(tuple(obj[0]), tuple(tuple(u) for u in obj[1]))


#: ``Hand(known, unseen)`` without the named tuple's Python-level ``__new__``
#: (the operations below run for every viewer on most events)
_hand = tuple.__new__


def exact(counts: tuple[int, ...]) -> Hand:
    return Hand(tuple(counts), ())


def add(h: Hand, counts: tuple[int, ...]) -> Hand:
    k = h.known
    return _hand(Hand, ((k[0] + counts[0], k[1] + counts[1], k[2] + counts[2], k[3] + counts[3], k[4] + counts[4]), h.unseen))


def add_one(h: Hand, r: int, n: int = 1) -> Hand:
    k = list(h.known)
    k[r] += n
    return _hand(Hand, (tuple(k), h.unseen))


def add_unseen(h: Hand, mask: int, origin: int, n: int = 1) -> Hand:
    return _hand(Hand, (h.known, tuple(sorted(h.unseen + ((mask, origin),) * n))))


def _shortfall(h: Hand, counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(max(0, counts[r] - h.known[r]) for r in range(R))


def can_pay(h: Hand, counts: tuple[int, ...]) -> bool:
    k = h.known
    if k[0] >= counts[0] and k[1] >= counts[1] and k[2] >= counts[2] and k[3] >= counts[3] and k[4] >= counts[4]:
        return True
    if not h.unseen:
        return False
    need = _shortfall(h, counts)
    if not any(need):
        return True
    return _hall(need, h.unseen)


def _hall(need: tuple[int, ...], unseen: tuple[tuple[int, int], ...]) -> bool:
    """Whether each needed card can be a distinct unseen card (Hall's condition
    over every set of needed resources)."""
    types = [r for r in range(R) if need[r]]
    for sub in range(1, 1 << len(types)):
        mask = 0
        want = 0
        for i, r in enumerate(types):
            if sub >> i & 1:
                mask |= 1 << r
                want += need[r]
        if sum(1 for m, _ in unseen if m & mask) < want:
            return False
    return True


def pay(h: Hand, counts: tuple[int, ...], origin: int = 0) -> Hand:
    """The hand after ``counts`` leave it, seen by the viewer (a build, a trade,
    a discard, a card stolen that the viewer saw). Raises ``Contradiction``."""
    k = h.known
    if k[0] >= counts[0] and k[1] >= counts[1] and k[2] >= counts[2] and k[3] >= counts[3] and k[4] >= counts[4]:
        return _hand(Hand, ((k[0] - counts[0], k[1] - counts[1], k[2] - counts[2], k[3] - counts[3], k[4] - counts[4]), h.unseen))
    # the known cards pay what they can, unseen cards the rest (``need``)
    known = []
    need = []
    mask = 0  # the resources unseen cards must supply
    for r in range(R):
        have, want = k[r], counts[r]
        if have >= want:
            known.append(have - want)
            need.append(0)
        else:
            known.append(0)
            need.append(want - have)
            mask |= 1 << r
    unseen = h.unseen
    used = sum(need)
    cand = [u for u in unseen if u[0] & mask]
    if mask & (mask - 1):  # several resources: every group of them must find its cards
        ok = _hall(tuple(need), unseen)
    else:  # one resource
        ok = len(cand) >= used
    if not ok:
        names = [say("{n} {resource}", n=counts[r], resource=_RES[r]) for r in range(R) if counts[r]]
        origins = tuple(sorted({o for _, o in unseen}))
        raise Contradiction(say("{cards} cannot be in a hand of {hand}", cards=names, hand=_show(h)), origins)
    rest = [u for u in unseen if not u[0] & mask]
    if len(cand) > used:
        union = 0
        latest = 0
        for m, o in cand:
            union |= m
            latest = max(latest, o)
        rest.extend([(union, latest)] * (len(cand) - used))
    return _hand(Hand, (tuple(known), tuple(sorted(rest))))


def lose_random(h: Hand, origin: int) -> tuple[Hand, int]:
    """The hand after one card the viewer did not see leaves it (a steal seen
    from outside); also the mask of what that card could be."""
    k, unseen = h
    union = 0
    kinds = 0  # resources with known cards
    for r in range(R):
        if k[r]:
            union |= 1 << r
            kinds += 1
    for m, _ in unseen:
        union |= m
    back = kinds + len(unseen) - 1  # the cards left whose resource the viewer no longer knows
    if back < 0:
        raise Contradiction(say("an empty hand has no card to lose"))
    known = (k[0] - 1 if k[0] else 0, k[1] - 1 if k[1] else 0, k[2] - 1 if k[2] else 0, k[3] - 1 if k[3] else 0,
             k[4] - 1 if k[4] else 0)
    return _hand(Hand, (known, ((union, origin),) * back)), union


def give_all(h: Hand, r: int, count: int, origin: int) -> Hand:
    """The hand after handing over all its cards of resource ``r``, ``count``
    of them as the table saw (a monopoly). Raises ``Contradiction``."""
    bit = 1 << r
    exact_r = [u for u in h.unseen if u[0] == bit]
    cand = [u for u in h.unseen if u[0] & bit and u[0] != bit]
    lo = h.known[r] + len(exact_r)
    hi = lo + len(cand)
    if not lo <= count <= hi:
        origins = tuple(sorted({o for _, o in h.unseen}))
        raise Contradiction(say("{n} {resource} cannot be all of them in a hand of {hand} (it holds {lo}–{hi})",
                                n=count, resource=_RES[r], hand=_show(h), lo=lo, hi=hi), origins)
    rest = [u for u in h.unseen if not u[0] & bit]
    left = len(cand) - (count - lo)
    if left:
        union = 0
        latest = origin
        for m, o in cand:
            union |= m
            latest = max(latest, o)
        rest.extend([(union & ~bit, latest)] * left)
    known = list(h.known)
    known[r] = 0
    return _hand(Hand, (tuple(known), tuple(sorted(rest))))


def rule_out(h: Hand, r: int) -> Hand:
    """The viewer learns the hand holds no card of ``r`` (a monopoly that took none)."""
    if not h.unseen:
        return h
    return give_all(h, r, h.known[r], 0) if h.known[r] == 0 else h


RESOURCE_NAMES = ("lumber", "brick", "wool", "grain", "ore")


#: the resources as a refusal names them (the Dutch of the rules text: brick is "steen")
_RES = (say("lumber"), say("brick"), say("wool"), say("grain"), say("ore"))


def _show(h: Hand) -> Text:
    """A hand as a refusal shows it: "2 wool, 1 unseen card (one of: lumber, brick; since event 12)"."""
    parts = [say("{n} {resource}", n=h.known[r], resource=_RES[r]) for r in range(R) if h.known[r]]
    for m, o in h.unseen:
        could = [_RES[r] for r in range(R) if m >> r & 1]
        parts.append(say("1 unseen card (one of: {could}; since event {seq})", could=could, seq=o))
    return say("{cards}", cards=parts) if parts else say("no cards")


def describe(h: Hand) -> dict:
    """JSON for a view: the known cards, the unseen count and what they could be."""
    out: dict = {"known": {RESOURCE_NAMES[r]: h.known[r] for r in range(R) if h.known[r]}, "unseen": len(h.unseen)}
    if h.unseen:
        out["unseen_could_be"] = [[RESOURCE_NAMES[r] for r in range(R) if m >> r & 1] for m, _ in h.unseen]
    return out
