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
    SEATS_NL,
    SPY,
    TITLES,
    TITLES_NL,
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
    why_nl: str = ""  # the same in Dutch, with the rules text's names (Tovenaar, Sluipmoordenaar, Raadsheer…)


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

    def values_text(nl: bool = False) -> str:
        extra = [f"{SEATS_NL[s]} +2 van de Generaal" if nl else f"{SEATS[s]} +2 from the General"
                 for s in (0, 1) if (b0, b1)[s]]
        return f"{values[0]} {'tegen' if nl else 'vs'} {values[1]}" + (", " + ", ".join(extra) if extra else "")

    if musician:
        both = c0 == c1 == MUSICIAN
        why = "two Musicians: the round is on hold" if both else "the Musician puts the round on hold"
        why_nl = "twee Muzikanten: de ronde blijft onbeslist" if both else "de Muzikant maakt de ronde onbeslist"
        return Outcome(None, 0, False, ("musician",), why, values, bonus, spy_first, why_nl)

    for s in (0, 1):
        if cards[s] == PRINCESS and active[s] and cards[1 - s] == PRINCE:
            return Outcome(s, 0, True, ("princess",), "the Princess catches the Prince", values, (False, False), None,
                           "de Prinses vangt de Prins")
    for s in (0, 1):
        if cards[s] == PRINCE and active[s] and cards[1 - s] != PRINCE:
            return Outcome(s, 1, False, ("prince",), "the Prince wins the round", values, bonus, spy_first,
                           "de Prins wint de ronde")

    prefix, prefix_nl = [], []
    if c0 == c1 == WIZARD:
        prefix.append("two Wizards: only the values count")
        prefix_nl.append("twee Tovenaars: alleen de waarden tellen")
    else:
        for s in (0, 1):
            if cancelled[s] == "wizard":
                prefix.append(f"the Wizard ignores the {TITLES[cards[s]]}: only the values count")
                prefix_nl.append(f"de Tovenaar negeert de {TITLES_NL[cards[s]]}: alleen de waarden tellen")
    if c0 == c1 == SPY:
        prefix.append("the two Spies cancel each other")
        prefix_nl.append("de twee Spionnen heffen elkaar op")
    lowest = any(cards[s] == ASSASSIN and active[s] for s in (0, 1))
    if lowest:
        powers.append("assassin")
        winner = None if values[0] == values[1] else (0 if values[0] < values[1] else 1)
        rule, rule_nl = "the Assassin makes the lowest value win", "de Sluipmoordenaar laat de laagste waarde winnen"
    else:
        winner = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
        rule, rule_nl = "the higher value wins", "de hoogste waarde wint"
    if boosted:
        powers.append("general")
    if winner is None:
        why = f"{rule}, but the values are equal ({values_text()}): the round is on hold"
        why_nl = f"{rule_nl}, maar de waarden zijn gelijk ({values_text(True)}): de ronde blijft onbeslist"
        counts = 0
    else:
        why = f"{rule} ({values_text()})"
        why_nl = f"{rule_nl} ({values_text(True)})"
        counts = 1
        if cards[winner] == AMBASSADOR and active[winner]:
            counts = 2
            powers.append("ambassador")
            why += "; the Ambassador counts as 2 rounds"
            why_nl += "; de Raadsheer telt als 2 rondes"
    if prefix:
        why = "; ".join(prefix) + "; " + why
        why_nl = "; ".join(prefix_nl) + "; " + why_nl
    return Outcome(winner, counts, False, tuple(powers), why, values, bonus, spy_first, why_nl)


@lru_cache(maxsize=None)
def outcome_table(flags: Flags) -> tuple[Outcome, ...]:
    table: list[Outcome | None] = [None] * 256
    for c0 in range(8):
        for c1 in range(8):
            for b0 in (False, True):
                for b1 in (False, True):
                    table[key(c0, c1, b0, b1)] = resolve(c0, c1, b0, b1, flags)
    return tuple(table)  # type: ignore[arg-type]
