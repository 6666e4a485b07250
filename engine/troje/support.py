"""The support stack (ondersteuningsstapel): donations, blind draws and
battles, as pure functions over the Catan engine's per-viewer hands.

``hands[holder][viewer]`` is the Catan state's table of ``knowledge.Hand``
values: holders 0..n-1 are the seats and holder ``n`` (``stack_holder(n)``)
is the face-down support stack, which this scenario appends; viewers 0..n-1
are the seats, ``n`` the public and ``n + 1`` the referee (the log). Every
function returns the new table and never narrows a viewer's knowledge beyond
what that viewer saw:

- a donation (``to_stack``) is seen by the donor (and by the log when the
  recorder entered the cards); everyone else sees cards leave the donor's
  hand unseen and arrive on the stack as "one of what the donor could hold";
- a blind draw (``from_stack``) is seen by the drawer (and the log when
  entered); everyone else sees an unseen card of what the stack could hold;
- a battle (``battle``) turns cards up for all to see: every viewer's stack
  loses exactly those cards, and the rest stays as that viewer knew it.

A move the log's own knowledge cannot allow raises
``RuleViolation("troje.hidden_cards")`` naming the events whose unseen cards
were involved; a viewer whose narrower knowledge fails is reset to what that
viewer can always know, the size (as the Catan engine does).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..catan import knowledge as K
from ..catan.pieces import RES_ALIASES
from ..catan.knowledge import Contradiction, Hand
from ..core import RuleViolation
from ..text import Text, say, say_n
from ..catan import words as CW

P = "troje."
TROY_RESOURCES = (2, 4)  # wool, ore
MYCENAE_RESOURCES = (0, 3)  # lumber, grain
NEUTRAL = (1,)  # brick
SIDES = ("troy", "mycenae")


#: the Catan engine's resource names plus the Dutch text's "steen" (brick)
RESOURCE_ALIASES = {**RES_ALIASES, "steen": 1}
TRADE_POINT_NAMES = frozenset({"trade_point", "trade_points", "handelspunt", "handelspunten"})


def resource(name: str) -> int:
    """A resource card's index from its English or Dutch name; trade points
    are refused by name: they are no resource (``troje.trade_points_not_resources``)."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key in TRADE_POINT_NAMES:
        raise RuleViolation(P + "trade_points_not_resources", say("trade points are not resources: they cannot be "
                                                                  "traded, exchanged, donated, stolen or discarded"))
    if key not in RESOURCE_ALIASES:
        raise RuleViolation(P + "donate_any", say("{name} is no resource ({resources})", name=repr(name),
                                                   resources=list(CW.RESOURCE.values())))
    return RESOURCE_ALIASES[key]


def counts(cards: dict[str, int]) -> tuple[int, ...]:
    """``{"wool": 2, "erts": 1}`` as counts per resource (see ``resource``)."""
    out = [0, 0, 0, 0, 0]
    for name, k in cards.items():
        out[resource(name)] += k
    return tuple(out)


def stack_holder(n: int) -> int:
    return n


def referee(n: int) -> int:
    return n + 1


def initial_row(initial: tuple[int, ...], n: int) -> tuple[Hand, ...]:
    """The initial stack as every viewer knows it: its make-up is a rule, so
    exact for all (rule ``troje.initial_stack``)."""
    return tuple(K.exact(initial) for _ in range(n + 2))


def with_stack(hands: tuple[tuple[Hand, ...], ...], initial: tuple[int, ...]) -> tuple[tuple[Hand, ...], ...]:
    """The Catan hands table with the support stack appended as holder n."""
    n = len(hands)
    return hands + (initial_row(initial, n),)


def size(hands: tuple[tuple[Hand, ...], ...], n: int) -> int:
    return hands[n][n + 1].size


def _size_only(size_: int) -> Hand:
    return Hand(K.ZERO, tuple(sorted(((K.FULL, 0),) * size_)))


def _referee_fails(exc: Contradiction, what: Text) -> RuleViolation:
    if exc.origins:
        return RuleViolation(P + "hidden_cards", say("{what}: {why} (unseen cards from events {events})", what=what,
                                                     why=exc.text, events=list(exc.origins)))
    return RuleViolation(P + "hidden_cards", say("{what}: {why}", what=what, why=exc.text))


def _move(hands: tuple, n: int, src: int, dst: int, cards: tuple[int, ...] | None, count: int, origin: int,
          seen: frozenset[int], what: Text) -> tuple:
    """``count`` cards go from holder ``src`` to holder ``dst``; the viewers in
    ``seen`` see which (``cards``), the others only that ``count`` went."""
    ref = n + 1
    srow, drow = list(hands[src]), list(hands[dst])
    memo: dict[tuple[Hand, Hand, bool], tuple[Hand, Hand]] = {}
    for v in (ref, *range(n + 1)):  # the log first: its failure refuses the move, never a viewer's memo
        saw = cards is not None and v in seen
        key = (srow[v], drow[v], saw)
        if key in memo:
            srow[v], drow[v] = memo[key]
            continue
        s, d, _ = key
        try:
            if saw:
                s, d = K.pay(s, cards, origin), K.add(d, cards)
            else:
                for _ in range(count):
                    s, mask = K.lose_random(s, origin)
                    d = K.add_unseen(d, mask, origin)
        except Contradiction as exc:
            if v == ref:
                raise _referee_fails(exc, what) from None
            s, d = _size_only(max(0, key[0].size - count)), _size_only(key[1].size + count)
        memo[key] = (s, d)
        srow[v], drow[v] = s, d
    out = list(hands)
    out[src], out[dst] = tuple(srow), tuple(drow)
    return tuple(out)


def _one(r: int) -> tuple[int, ...]:
    c = [0, 0, 0, 0, 0]
    c[r] = 1
    return tuple(c)


def to_stack(hands: tuple, n: int, seat: int, cards: tuple[int, ...] | None, count: int, origin: int) -> tuple:
    """``seat`` lays ``count`` cards face down on the stack (a donation, or the
    card given back after a swap); ``cards`` the counts per resource when the
    recorder saw them, else None (rules ``troje.donate_face_down``,
    ``troje.hidden_cards``)."""
    if cards is not None and sum(cards) != count:
        raise ValueError("cards and count disagree")
    seen = frozenset({seat, n + 1}) if cards is not None else frozenset()
    return _move(hands, n, seat, n, cards, count, origin, seen, say("the cards laid on the support stack"))


def from_stack(hands: tuple, n: int, seat: int, card: int | None, origin: int) -> tuple:
    """``seat`` draws one card blind from the stack (advantages swap and draw);
    ``card`` the resource when the recorder saw it, else None."""
    if hands[n][n + 1].size == 0:
        raise RuleViolation(P + "adv_draw", say("the support stack is empty: there is no card to draw"))
    seen = frozenset({seat, n + 1}) if card is not None else frozenset()
    return _move(hands, n, n, seat, None if card is None else _one(card), 1, origin, seen,
                 say("the card drawn from the support stack"))


# -- the battle ---------------------------------------------------------------------------------

def battle_due(stack_size: int, battle_size: int) -> bool:
    """At the end of a turn: does the stack bring a battle (``troje.battle_trigger``)?"""
    return stack_size >= battle_size


def score(revealed: tuple[int, ...]) -> tuple[int, int]:
    """(Troy's points, Mycenae's points) of the turned-up cards (``troje.battle_score``)."""
    return (sum(revealed[r] for r in TROY_RESOURCES), sum(revealed[r] for r in MYCENAE_RESOURCES))


def winner(revealed: tuple[int, ...]) -> str | None:
    """The side that wins the battle, or None on a tie."""
    troy, myc = score(revealed)
    return "troy" if troy > myc else "mycenae" if myc > troy else None


def check_reveal(revealed: tuple[int, ...], stack_size: int, reveal: int) -> None:
    """The turned-up cards are ``reveal`` cards (``troje.battle_reveal``)."""
    if len(revealed) != 5 or any(c < 0 for c in revealed):
        raise ValueError("revealed: five counts")
    if sum(revealed) != min(reveal, stack_size):
        raise RuleViolation(P + "battle_reveal", say_n(min(reveal, stack_size), "a battle turns up {n} card, not {given}",
                                                       "a battle turns up {n} cards, not {given}", given=sum(revealed)))


def battle(hands: tuple, n: int, revealed: tuple[int, ...], reveal: int, origin: int) -> tuple:
    """The stack after a battle turned up ``revealed`` (seen by all): every
    viewer's stack loses those cards; the rest stays face down as the next
    stack (``troje.battle_remainder``)."""
    check_reveal(revealed, hands[n][n + 1].size, reveal)
    row = list(hands[n])
    done: dict[Hand, Hand] = {}
    for v in (n + 1, *range(n + 1)):  # the log first: its failure refuses the battle, never a viewer's memo
        h = row[v]
        if h not in done:
            try:
                done[h] = K.pay(h, revealed, origin)
            except Contradiction as exc:
                if v == n + 1:
                    raise _referee_fails(exc, say("the cards turned up in the battle")) from None
                done[h] = _size_only(h.size - sum(revealed))
        row[v] = done[h]
    return hands[:n] + (tuple(row),) + hands[n + 1:]


def bank_after_battle(bank: tuple[int, ...], revealed: tuple[int, ...], to_bank: bool) -> tuple[int, ...]:
    """The bank once the turned-up cards went where option revealed_cards says
    (``troje.battle_cards``)."""
    return tuple(b + r for b, r in zip(bank, revealed)) if to_bank else bank


def draw_reveal(rng: random.Random, stack: tuple[int, ...], reveal: int) -> tuple[int, ...]:
    """A simulated battle: shuffle the stack the log knows exactly and count
    the first ``reveal`` cards."""
    cards = [r for r in range(5) for _ in range(stack[r])]
    rng.shuffle(cards)
    out = [0, 0, 0, 0, 0]
    for r in cards[:reveal]:
        out[r] += 1
    return tuple(out)


def draw_blind(rng: random.Random, stack: tuple[int, ...]) -> int:
    """A simulated blind draw from a stack the log knows exactly."""
    return rng.choice([r for r in range(5) for _ in range(stack[r])])


# -- donations (the rule checks a reducer calls before ``to_stack``) --------------------------

def check_donation(count: int, donated_this_turn: bool, own_turn: bool, in_sbp: bool, donations_in_sbp: bool,
                   hand_size: int) -> None:
    """A donation of ``count`` cards may be made now (``troje.donate``)."""
    if not 1 <= count <= 3:
        raise RuleViolation(P + "donate", say("a donation is 1, 2 or 3 cards, not {n}", n=count))
    if in_sbp and not donations_in_sbp:
        raise RuleViolation(P + "donate", say("no donations in the Special Building Phase (not with these options)"))
    if not own_turn and not in_sbp:
        raise RuleViolation(P + "donate", say("donations are made in one's own trade and build phase"))
    if donated_this_turn:
        raise RuleViolation(P + "donate", say("a player donates once per trade and build phase"))
    if hand_size < count:
        raise RuleViolation(P + "donate", say_n(hand_size, "a hand of {n} card cannot donate {count}",
                                                 "a hand of {n} cards cannot donate {count}", count=count))


def donate(hands: tuple, trade_points: tuple[int, ...], n: int, seat: int, cards: tuple[int, ...] | None,
           count: int, origin: int) -> tuple[tuple, tuple[int, ...]]:
    """The donation itself: the cards face down on the stack, one trade point
    for the donor however many cards (``troje.trade_point``)."""
    hands = to_stack(hands, n, seat, cards, count, origin)
    return hands, trade_points[:seat] + (trade_points[seat] + 1,) + trade_points[seat + 1:]


def describe_stack(hands: tuple, n: int, viewer: int, describe: Callable[[Hand], dict[str, Any]] = K.describe) -> dict:
    """The stack as ``viewer`` (a seat, ``n`` the public, ``n + 1`` the referee) knows it."""
    return describe(hands[n][viewer])
