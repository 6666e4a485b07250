"""The standard 52-card deck of the three Jogledor patiences: card ids, the
names a recorder may type (English or Dutch), and checking a deal.

A card is an int 0–51: ``suit * 13 + rank - 1`` with rank 1 (Ace) … 13 (King)
and suits in the order spades, hearts, diamonds, clubs. In the log a card is
its canonical id: the rank (``A 2 … 10 J Q K``) followed by the suit letter
(``S H D C``), e.g. ``"QH"``, ``"10S"``. Only the rank matters in play; the
suit only tells the 52 cards apart, so that a deal can be checked.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from ..core import MalformedEvent
from ..text import N_, Text, Words, say

RANK_IDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_IDS = ("S", "H", "D", "C")
RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
#: Dutch names used at the table (the rules text says Heer and Koning, Koningin)
DUTCH_RANKS = ("aas", "2", "3", "4", "5", "6", "7", "8", "9", "10", "boer", "vrouw", "heer")
DUTCH_RANK_ALIASES = {
    "koningin": 12, "dame": 12, "koning": 13, "heer": 13, "vrouw": 12, "boer": 11, "aas": 1,
    "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8, "negen": 9, "tien": 10,
}
DUTCH_SUITS = ("schoppen", "harten", "ruiten", "klaveren")
DUTCH_SUIT_ALIASES = {"schoppen": 0, "harten": 1, "ruiten": 2, "klaveren": 3, "klaver": 3, "schop": 0, "hart": 1}
ENGLISH_RANK_ALIASES = {
    "ace": 1, "jack": 11, "queen": 12, "king": 13, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}
ENGLISH_SUIT_ALIASES = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3, "spade": 0, "heart": 1, "diamond": 2, "club": 3}
SUIT_SYMBOLS = {"♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
#: a card as the players read it, its suit's symbol and its rank's letter in each language ("♥Q", "♥V")
SUIT_CHARS = "♠♥♦♣"
DUTCH_RANK_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "V", "H")
#: the ranks and suits named in full, as the engine says them (the catalogue has the Dutch)
RANK_SAID = (say("Ace"), "2", "3", "4", "5", "6", "7", "8", "9", "10", say("Jack"), say("Queen"), say("King"))
SUIT_SAID = (say("spades"), say("hearts"), say("diamonds"), say("clubs"))

DECK = tuple(range(52))
CARD_IDS = tuple(RANK_IDS[c % 13] + SUIT_IDS[c // 13] for c in DECK)
RANK = tuple(c % 13 + 1 for c in DECK)

CARD_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 2,
    "maxLength": 40,
    "description": N_('a card: rank A 2–10 J Q K then suit S H D C, e.g. "QH", "10S"; '
                      'or in words, English or Dutch: "queen of hearts", "harten vrouw", "klaveren 10"'),
}


def card_id(card: int) -> str:
    return CARD_IDS[card]


def rank_of(card: int) -> int:
    return card % 13 + 1


def card_name(card: int) -> Text:
    """For messages: "Queen of hearts (♥Q)", "harten vrouw (♥V)"."""
    return say("{rank} of {suit} ({card})", rank=RANK_SAID[card % 13], suit=SUIT_SAID[card // 13],
               card=card_face(card))


def card_face(card: int) -> Words:
    """A card as the players read it: its suit's symbol and its rank ("♦4", "♥Q"; Dutch "♥V"), not its id."""
    suit, rank = SUIT_CHARS[card // 13], card % 13
    return Words(en=suit + RANK_IDS[rank], nl=suit + DUTCH_RANK_LETTERS[rank])


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]


def rank_said(rank: int) -> Text | str:
    """A rank as a message says it (Dutch "Vrouw")."""
    return RANK_SAID[rank - 1]


def _rank_token(token: str) -> int | None:
    token = token.lower()
    if token in ENGLISH_RANK_ALIASES:
        return ENGLISH_RANK_ALIASES[token]
    if token in DUTCH_RANK_ALIASES:
        return DUTCH_RANK_ALIASES[token]
    up = token.upper()
    if up in RANK_IDS:
        return RANK_IDS.index(up) + 1
    if up in ("B", "V", "H", "1", "11", "12", "13", "T"):
        return {"B": 11, "V": 12, "H": 13, "1": 1, "11": 11, "12": 12, "13": 13, "T": 10}[up]
    return None


def _suit_token(token: str) -> int | None:
    token = token.lower()
    if token in ENGLISH_SUIT_ALIASES:
        return ENGLISH_SUIT_ALIASES[token]
    if token in DUTCH_SUIT_ALIASES:
        return DUTCH_SUIT_ALIASES[token]
    if token in SUIT_SYMBOLS:
        return SUIT_SYMBOLS[token]
    return None


_CANONICAL = {cid: c for c, cid in enumerate(CARD_IDS)}


def _parse_text(text: str) -> int | None:
    t = text.strip()
    up = t.upper()
    if up in _CANONICAL:
        return _CANONICAL[up]
    # a suit symbol after or before the rank: "Q♥", "♥Q", "10♠"
    if t and t[-1] in SUIT_SYMBOLS:
        r = _rank_token(t[:-1].strip())
        return None if r is None else SUIT_SYMBOLS[t[-1]] * 13 + r - 1
    if t and t[0] in SUIT_SYMBOLS:
        r = _rank_token(t[1:].strip())
        return None if r is None else SUIT_SYMBOLS[t[0]] * 13 + r - 1
    words = t.lower().replace("-", " ").split()
    if len(words) == 3 and words[1] in ("of", "van"):
        words = [words[0], words[2]]
    if len(words) != 2:
        return None
    a, b = words
    # "<suit> <rank>" (Dutch order: "harten vrouw") or "<rank> <suit>" ("queen hearts")
    s, r = _suit_token(a), _rank_token(b)
    if s is None or r is None:
        s, r = _suit_token(b), _rank_token(a)
    if s is None or r is None:
        return None
    return s * 13 + r - 1


def parse_card(value: Any, field: str) -> int:
    """The card (0–51) a recorder typed; MalformedEvent when it names none."""
    if value.__class__ is str:
        card = _CANONICAL.get(value)
        if card is not None:
            return card
        card = _parse_text(value)
        if card is not None:
            return card
    raise MalformedEvent(
        say("{field}: {value} is not a card; write rank then suit, e.g. \"QH\", \"10S\", \"AC\" (A 2–10 J Q K; "
            "S H D C), or in words: \"queen of hearts\", \"harten vrouw\"", field=field, value=repr(value)),
        field=field,
    )


def aliases() -> dict[str, str]:
    """Some of the Dutch names a recorder may type, for the docs: alias -> card id.
    (Every combination of a suit word and a rank word is accepted.)"""
    out: dict[str, str] = {}
    for s, suit in enumerate(DUTCH_SUITS):
        for r, rank in enumerate(DUTCH_RANKS):
            out[f"{suit} {rank}"] = CARD_IDS[s * 13 + r]
    for s, suit in enumerate(DUTCH_SUITS):
        out[f"{suit} koningin"] = CARD_IDS[s * 13 + 11]
        out[f"{suit} koning"] = CARD_IDS[s * 13 + 12]
    return out


def check_deck(cards: Iterable[int], rule: str, expected: int = 52) -> None:
    """Raise RuleViolation(rule) unless ``cards`` are exactly the 52 cards (or,
    with ``expected`` < 52, distinct cards only)."""
    from ..core import RuleViolation

    cards = list(cards)
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
    repeated = sorted(c for c, n in seen.items() if n > 1)
    missing = sorted(set(DECK) - set(seen)) if expected == 52 else []
    if repeated or missing or len(cards) != expected:
        parts: list[Text] = []
        if repeated:
            parts.append(say("repeated: {cards}", cards=[say("{card} ×{n}", card=card_face(c), n=seen[c])
                                                         for c in repeated]))
        if missing:
            parts.append(say("missing: {cards}", cards=[card_face(c) for c in missing]))
        if not parts:
            parts.append(say("{n} cards instead of {expected}", n=len(cards), expected=expected))
        said = parts[0] if len(parts) == 1 else say("{first}; {then}", first=parts[0], then=parts[1])
        raise RuleViolation(rule, say("a deal holds each of the 52 cards of one standard deck exactly once; {what}",
                                      what=said))


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


def seeded_deck(game: str, seed: int) -> list[int]:
    """The deck a recorded ``{"seed": n}`` deal stands for: a shuffle that
    depends on the game id and the seed only, the same on every machine."""
    return shuffled_deck(random.Random(f"jogledor:{game}:{seed}"))
