"""The saga track (sage-lijst), the allegiances and the two ends of the game.

The track (notes §2.5): both cities' victory point cards start on a shared
neutral field; a city's card moves one field outward for each battle it wins.
``track`` lists the fields' VP outward from the start (default
``(1, 2, 3, 4, 6)``, option ``saga_track``); ``Saga(troy, mycenae)`` counts the
fields each card has moved. A card put on the last field (the six) ends the
war.

Allegiances: ``allegiances`` is a tuple per seat of ``"troy"``,
``"mycenae"`` or None (not known to the one asking). Only the seat itself and
the referee know a seat's decision card until the reveal; since the sides are
equal, what one knows narrows what else can be true (``possible``), and a
player's saga VP are shown only to a viewer who knows his side.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..core import RuleViolation
from ..text import say
from . import words as W

P = "troje."
SIDES = ("troy", "mycenae")
SIDE_ALIASES = {"troy": "troy", "troje": "troy", "troja": "troy", "mycenae": "mycenae", "mykene": "mycenae"}
DEFAULT_TRACK = (1, 2, 3, 4, 6)


class Saga(NamedTuple):
    troy: int = 0
    mycenae: int = 0

    def fields(self, side: str) -> int:
        return self.troy if side == "troy" else self.mycenae


def advance(saga: Saga, won: str | None, track: tuple[int, ...] = DEFAULT_TRACK) -> Saga:
    """The track after a battle ``won`` by a side (None: a tie, nothing moves;
    rules ``troje.saga_move``, ``troje.saga_tie``)."""
    if won is None:
        return saga
    if war_won(saga, track) is not None:
        raise RuleViolation(P + "war_end", say("the war is over: no battle moves the track any more"))
    return saga._replace(**{won: saga.fields(won) + 1})


def side_vp(saga: Saga, side: str, track: tuple[int, ...] = DEFAULT_TRACK) -> int:
    """The VP every player with ``side``'s decision card has (``troje.saga_vp``)."""
    k = saga.fields(side)
    return track[k - 1] if k else 0


def war_won(saga: Saga, track: tuple[int, ...] = DEFAULT_TRACK) -> str | None:
    """The city whose card stands on the last field (the six), if any (``troje.war_end``)."""
    for side in SIDES:
        if saga.fields(side) >= len(track):
            return side
    return None


# -- allegiances -------------------------------------------------------------------------------

def side(name: str) -> str:
    try:
        return SIDE_ALIASES[name.strip().lower()]
    except (KeyError, AttributeError):
        raise RuleViolation(P + "allegiance", say("a decision card shows Troy or Mycenae, not {name}",
                                                  name=repr(name))) from None


def check_deal(allegiances: tuple[str | None, ...]) -> None:
    """A deal (complete or partly entered) the decision cards allow: never more
    than half the seats on one side (``troje.allegiance_teams``)."""
    n = len(allegiances)
    for s in SIDES:
        k = sum(1 for a in allegiances if a == s)
        if k > n // 2:
            raise RuleViolation(P + "allegiance_teams", say("{k} players for {side}: the box has {half} decision "
                                                            "cards of {side} for {n} players", k=k, side=W.side(s),
                                                            half=n // 2, n=n))


def possible(known: tuple[str | None, ...]) -> list[tuple[str, ...]]:
    """Every complete deal consistent with what is known (equal sides)."""
    n = len(known)
    out = []
    for troy in combinations(range(n), n // 2):
        deal = tuple("troy" if i in troy else "mycenae" for i in range(n))
        if all(k is None or k == d for k, d in zip(known, deal)):
            out.append(deal)
    return out


def known_to(allegiances: tuple[str | None, ...], viewer: int, revealed: bool) -> tuple[str | None, ...]:
    """What ``viewer`` (a seat; ``n`` the public; ``n + 1`` the referee) knows of
    the deal: all after the reveal, the referee all it was told, a seat its own
    card and what equal sides force, the public nothing."""
    n = len(allegiances)
    if revealed or viewer == n + 1:
        return allegiances
    if viewer >= n or allegiances[viewer] is None:
        return (None,) * n
    own = tuple(a if i == viewer else None for i, a in enumerate(allegiances))
    worlds = possible(own)
    return tuple(worlds[0][i] if all(w[i] == worlds[0][i] for w in worlds) else None for i in range(n))


def saga_vp_view(allegiances: tuple[str | None, ...], viewer: int, revealed: bool, saga: Saga,
                 track: tuple[int, ...] = DEFAULT_TRACK) -> tuple[int | None, ...]:
    """Each seat's saga VP as ``viewer`` may see them (None: not his to know;
    ``troje.allegiance_knowledge``)."""
    return tuple(None if a is None else side_vp(saga, a, track) for a in known_to(allegiances, viewer, revealed))


# -- the end -----------------------------------------------------------------------------------

def total_vp(public_vp: int, allegiance: str, saga: Saga, track: tuple[int, ...] = DEFAULT_TRACK) -> int:
    """A player's VP: those everyone sees (buildings, Longest Road, ships) plus his side's saga VP."""
    return public_vp + side_vp(saga, allegiance, track)


def wins_on_turn(public_vp: int, allegiance: str, saga: Saga, goal: int = 15,
                 track: tuple[int, ...] = DEFAULT_TRACK) -> bool:
    """Does the player whose turn it is win with ``goal`` VP (``troje.win_15``)?"""
    return total_vp(public_vp, allegiance, saga, track) >= goal


def could_win(public_vp: int, saga: Saga, goal: int = 15, track: tuple[int, ...] = DEFAULT_TRACK) -> bool:
    """With the side unknown: could the player have ``goal`` VP (so a claim is possible)?"""
    return any(wins_on_turn(public_vp, s, saga, goal, track) for s in SIDES)


def check_claim(public_vp: int, allegiance: str, saga: Saga, goal: int = 15,
                track: tuple[int, ...] = DEFAULT_TRACK) -> None:
    """A 15-VP win claimed while the sides were unknown, checked at the reveal."""
    total = total_vp(public_vp, allegiance, saga, track)
    if total < goal:
        raise RuleViolation(P + "win_15", say("the claimed win does not hold: {public} VP + {saga} for {side} = "
                                              "{total}, fewer than {goal}", public=public_vp, saga=total - public_vp,
                                              side=W.side(allegiance), total=total, goal=goal))


def war_winners(vps: tuple[int, ...], trade_points: tuple[int, ...]) -> tuple[int, ...]:
    """The seats that win when the war ends: the most VP, then the most trade
    points; still equal, they share (``troje.war_end``, ``troje.war_tiebreak``)."""
    best = max(vps)
    top = [i for i, v in enumerate(vps) if v == best]
    most = max(trade_points[i] for i in top)
    return tuple(i for i in top if trade_points[i] == most)
