"""How one round of BraveRats is decided.

``outcome_table(flags)`` precomputes every (Red card, Blue card, Red bonus,
Blue bonus) combination once per house-rule setting, so resolving a round
during play is a tuple lookup.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .cards import (
    AMBASSADOR,
    ASSASSIN,
    GENERAL,
    MUSICIAN,
    PRINCE,
    PRINCESS,
    SEAT_NAMES,
    SPY,
    NAMES,
    WIZARD,
)
from ..text import Text, say


class Flags(NamedTuple):
    """The house rules that change how a round resolves."""

    musician_cancels_lasting_powers: bool = True
    wizard_cancels_general_bonus: bool = True
    wizard_cancels_spy: bool = True


class Outcome(NamedTuple):
    winner: int | None  # seat that wins the round (or the game), None: on hold
    counts: int  # rounds the win is worth before held rounds are added (0 on hold)
    game: bool  # the winner wins the whole game at once (the Princess caught the Prince)
    powers: tuple[str, ...]  # card ids of the powers that decided this round
    why: Text  # the explanation, without the card names of the round (a seat's General bonus names its colour)
    values: tuple[int, int]  # the values after a General's +2
    bonus: tuple[bool, bool]  # General +2 for each seat in the next round
    spy_first: int | None  # seat that must play first, face up, in the next round


def key(c0: int, c1: int, b0: bool, b1: bool) -> int:
    return (c0 << 5) | (c1 << 2) | (b0 << 1) | b1


def resolve(c0: int, c1: int, b0: bool, b1: bool, flags: Flags = Flags()) -> Outcome:
    cards = (c0, c1)
    values = (c0 + 2 * b0, c1 + 2 * b1)
    # which seat's power is cancelled this round, and by what
    cancelled: list[str | None] = [None, None]
    for s in (0, 1):
        if cards[s] != WIZARD and cards[1 - s] == WIZARD:
            cancelled[s] = "wizard"
    musician = any(cards[s] == MUSICIAN and cancelled[s] is None for s in (0, 1))
    if musician:
        for s in (0, 1):
            if cards[s] != MUSICIAN:
                cancelled[s] = "musician"
    active = (cancelled[0] is None, cancelled[1] is None)

    def lasting(s: int, wizard_flag: bool) -> bool:
        if cancelled[s] == "wizard":
            return not wizard_flag
        if cancelled[s] == "musician":
            return not flags.musician_cancels_lasting_powers
        return True

    bonus = tuple(cards[s] == GENERAL and lasting(s, flags.wizard_cancels_general_bonus) for s in (0, 1))
    spy_first = None
    for s in (0, 1):
        if cards[s] == SPY and cards[1 - s] != SPY and lasting(s, flags.wizard_cancels_spy):
            spy_first = 1 - s

    powers: list[str] = []
    if WIZARD in cards:
        powers.append("wizard")
    boosted = b0 or b1

    def values_text() -> Text:
        compared = say("{a} vs {b}", a=values[0], b=values[1])
        extra = [say("{who} +2 from the General", who=SEAT_NAMES[s]) for s in (0, 1) if (b0, b1)[s]]
        return say("{values}, {bonuses}", values=compared, bonuses=extra) if extra else compared

    if musician:
        both = c0 == c1 == MUSICIAN
        why = say("two Musicians: the round is on hold") if both else say("the Musician puts the round on hold")
        return Outcome(None, 0, False, ("musician",), why, values, bonus, spy_first)

    for s in (0, 1):
        if cards[s] == PRINCESS and active[s] and cards[1 - s] == PRINCE:
            return Outcome(s, 0, True, ("princess",), say("the Princess catches the Prince"), values, (False, False),
                           None)
    for s in (0, 1):
        if cards[s] == PRINCE and active[s] and cards[1 - s] != PRINCE:
            return Outcome(s, 1, False, ("prince",), say("the Prince wins the round"), values, bonus, spy_first)

    prefix: list[Text] = []
    if c0 == c1 == WIZARD:
        prefix.append(say("two Wizards: only the values count"))
    else:
        for s in (0, 1):
            if cancelled[s] == "wizard":
                prefix.append(say("the Wizard ignores the {card}: only the values count", card=NAMES[cards[s]]))
    if c0 == c1 == SPY:
        prefix.append(say("the two Spies cancel each other"))
    lowest = any(cards[s] == ASSASSIN and active[s] for s in (0, 1))
    if lowest:
        powers.append("assassin")
        winner = None if values[0] == values[1] else (0 if values[0] < values[1] else 1)
        rule = say("the Assassin makes the lowest value win")
    else:
        winner = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
        rule = say("the higher value wins")
    if boosted:
        powers.append("general")
    if winner is None:
        why = say("{rule}, but the values are equal ({values}): the round is on hold", rule=rule, values=values_text())
        counts = 0
    else:
        why = say("{rule} ({values})", rule=rule, values=values_text())
        counts = 1
        if cards[winner] == AMBASSADOR and active[winner]:
            counts = 2
            powers.append("ambassador")
            why = say("{why}; the Ambassador counts as 2 rounds", why=why)
    if prefix:
        why = say("{powers}; {why}", powers=_joined(prefix), why=why)
    return Outcome(winner, counts, False, tuple(powers), why, values, bonus, spy_first)


def _joined(parts: list[Text]) -> Text:
    """Parts of a sentence, joined with "; "."""
    joined = parts[0]
    for part in parts[1:]:
        joined = say("{first}; {then}", first=joined, then=part)
    return joined


@lru_cache(maxsize=None)
def outcome_table(flags: Flags) -> tuple[Outcome, ...]:
    table: list[Outcome | None] = [None] * 256
    for c0 in range(8):
        for c1 in range(8):
            for b0 in (False, True):
                for b1 in (False, True):
                    table[key(c0, c1, b0, b1)] = resolve(c0, c1, b0, b1, flags)
    return tuple(table)  # type: ignore[arg-type]
