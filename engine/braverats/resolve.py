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
    SEATS,
    SPY,
    TITLES,
    WIZARD,
)


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
    why: str  # English explanation, without the card names of the round
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

    def values_text() -> str:
        extra = [f"{SEATS[s]} +2 from the General" for s in (0, 1) if (b0, b1)[s]]
        return f"{values[0]} vs {values[1]}" + (", " + ", ".join(extra) if extra else "")

    if musician:
        both = c0 == c1 == MUSICIAN
        why = "two Musicians: the round is on hold" if both else "the Musician puts the round on hold"
        return Outcome(None, 0, False, ("musician",), why, values, bonus, spy_first)

    for s in (0, 1):
        if cards[s] == PRINCESS and active[s] and cards[1 - s] == PRINCE:
            return Outcome(s, 0, True, ("princess",), "the Princess catches the Prince", values, (False, False), None)
    for s in (0, 1):
        if cards[s] == PRINCE and active[s] and cards[1 - s] != PRINCE:
            return Outcome(s, 1, False, ("prince",), "the Prince wins the round", values, bonus, spy_first)

    prefix = []
    if c0 == c1 == WIZARD:
        prefix.append("two Wizards: only the values count")
    else:
        for s in (0, 1):
            if cancelled[s] == "wizard":
                prefix.append(f"the Wizard ignores the {TITLES[cards[s]]}: only the values count")
    if c0 == c1 == SPY:
        prefix.append("the two Spies cancel each other")
    lowest = any(cards[s] == ASSASSIN and active[s] for s in (0, 1))
    if lowest:
        powers.append("assassin")
        winner = None if values[0] == values[1] else (0 if values[0] < values[1] else 1)
        rule = "the Assassin makes the lowest value win"
    else:
        winner = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
        rule = "the higher value wins"
    if boosted:
        powers.append("general")
    if winner is None:
        why = f"{rule}, but the values are equal ({values_text()}): the round is on hold"
        counts = 0
    else:
        why = f"{rule} ({values_text()})"
        counts = 1
        if cards[winner] == AMBASSADOR and active[winner]:
            counts = 2
            powers.append("ambassador")
            why += "; the Ambassador counts as 2 rounds"
    if prefix:
        why = "; ".join(prefix) + "; " + why
    return Outcome(winner, counts, False, tuple(powers), why, values, bonus, spy_first)


@lru_cache(maxsize=None)
def outcome_table(flags: Flags) -> tuple[Outcome, ...]:
    table: list[Outcome | None] = [None] * 256
    for c0 in range(8):
        for c1 in range(8):
            for b0 in (False, True):
                for b1 in (False, True):
                    table[key(c0, c1, b0, b1)] = resolve(c0, c1, b0, b1, flags)
    return tuple(table)  # type: ignore[arg-type]
