"""The eight BraveRats cards: values, names and the aliases a recorder may type."""

from __future__ import annotations

from typing import Any

from ..core import MalformedEvent
from ..text import N_, Text, say

MUSICIAN, PRINCESS, SPY, ASSASSIN, AMBASSADOR, WIZARD, GENERAL, PRINCE = range(8)

#: canonical card ids, index = value
CARD_IDS = ("musician", "princess", "spy", "assassin", "ambassador", "wizard", "general", "prince")
DUTCH_IDS = ("muzikant", "prinses", "spion", "sluipmoordenaar", "raadsheer", "tovenaar", "generaal", "prins")
TITLES = ("Musician", "Princess", "Spy", "Assassin", "Ambassador", "Wizard", "General", "Prince")
#: the cards' names as the engine says them (engine/text.py: the catalogue has the rules text's Dutch names)
NAMES = (say("Musician"), say("Princess"), say("Spy"), say("Assassin"), say("Ambassador"), say("Wizard"),
         say("General"), say("Prince"))
PLURAL_NAMES = (say("Musicians"), say("Princesses"), say("Spies"), say("Assassins"), say("Ambassadors"),
                say("Wizards"), say("Generals"), say("Princes"))

#: an entry of a ``draw`` or ``deal`` event the table could not see
UNKNOWN = "unknown"
UNKNOWN_ALIASES = ("onbekend", "?")

#: one player's eight cards, and the sixteen cards of both colours
FULL_HAND = tuple(range(8))
DECK = tuple(sorted(FULL_HAND * 2))

SEAT_NAMES = (say("Red"), say("Blue"))
SEAT_COLOURS = ("red", "blue")
SEAT_ARMIES = ("Royal Reds", "MacBlue")

#: alias -> canonical id, for the docs (numbers are also accepted as JSON integers)
ALIASES: dict[str, str] = {
    **{dutch: card for dutch, card in zip(DUTCH_IDS, CARD_IDS)},
    **{str(value): card for value, card in enumerate(CARD_IDS)},
    **{alias: UNKNOWN for alias in UNKNOWN_ALIASES},
}

_LOOKUP: dict[Any, int | None] = {
    **{card: value for value, card in enumerate(CARD_IDS)},
    **{dutch: value for value, dutch in enumerate(DUTCH_IDS)},
    **{str(value): value for value in FULL_HAND},
    **{value: value for value in FULL_HAND},
    UNKNOWN: None,
    **{alias: None for alias in UNKNOWN_ALIASES},
}

#: JSON Schema of one card field
CARD_SCHEMA = {
    "type": ["string", "integer"],
    "description": N_("a card: musician, princess, spy, assassin, ambassador, wizard, general, prince (or the "
                      "Dutch name, or its value 0–7)"),
}
CARD_OR_UNKNOWN_SCHEMA = {
    "type": ["string", "integer"],
    "description": N_("a card as in CARD_SCHEMA, or \"unknown\" when the table could not see it"),
}


_CANONICAL = {card: value for value, card in enumerate(CARD_IDS)}


def parse_card(value: Any, field: str, allow_unknown: bool = False) -> int | None:
    """The card's value 0–7 (None for an allowed "unknown"); MalformedEvent otherwise."""
    if value.__class__ is str:  # fast path: the canonical form, as stored in the log
        card = _CANONICAL.get(value)
        if card is not None:
            return card
    key = value.strip().lower() if isinstance(value, str) else value
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise MalformedEvent(say("{field}: a card is a name or a number 0–7, not {value}", field=field,
                                 value=repr(value)), field=field)
    try:
        card = _LOOKUP[key]
    except KeyError:
        raise MalformedEvent(
            say("{field}: unknown card {value}; the cards are {cards} (Dutch: {dutch}) or their values 0–7",
                field=field, value=repr(value), cards=", ".join(CARD_IDS), dutch=", ".join(DUTCH_IDS)),
            field=field,
        ) from None
    if card is None and not allow_unknown:
        raise MalformedEvent(
            say("{field}: \"unknown\" is only allowed for cards drawn or dealt face down",
                field=field),
            field=field,
        )
    return card


def card_id(card: int | None) -> str:
    return UNKNOWN if card is None else CARD_IDS[card]


def title(card: int) -> str:
    return TITLES[card]


def list_titles(cards: tuple[int, ...] | list[int]) -> Text | list[Text]:
    """The cards' names, for a message to join (", "); "none" for no card."""
    return [NAMES[c] for c in cards] if cards else say("none")


def plural(card: int, n: int) -> Text:
    return say("one {card}", card=NAMES[card]) if n == 1 else say("{n} {cards}", n=n, cards=PLURAL_NAMES[card])
