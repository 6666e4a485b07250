"""Troubadour's cards: the 40 building cards and the 12 nobles of one player's
deck, their canonical ids, and every name a recorder may type for them.

Internally a building card is an int 0–39: ``suit * 10 + rank`` with rank 0 for
the ace up to 9 for the ten, and the suits in the order of the nobles
(spades 0, diamonds 1, clubs 2, hearts 3), so a card is red exactly when its
suit is odd. A noble is an int 0–11: ``suit * 3 + (0 jack, 1 queen, 2 king)``,
which is also its rank for who plays first (schoppen boer lowest, harten heer
highest). Each player has a deck of his own, so a card id is unique within it:
sets of cards are bitmasks (``1 << card``).
"""

from __future__ import annotations

import re
from typing import Any

from ..core import MalformedEvent
from ..text import Text, Words, say

SUITS = "SDCH"
SUIT_NAMES = ("spades", "diamonds", "clubs", "hearts")
SUIT_DUTCH = ("schoppen", "ruiten", "klaver", "harten")
SUIT_SYMBOLS = ("♠", "♦", "♣", "♥")
SUIT_ALT_SYMBOLS = ("♤", "♢", "♧", "♡")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
RANK_DUTCH = ("aas", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien")
NOBLE_RANKS = ("J", "Q", "K")
NOBLE_NAMES = ("jack", "queen", "king")
NOBLE_DUTCH = ("boer", "vrouw", "heer")

SPADES, DIAMONDS, CLUBS, HEARTS = range(4)
JACK, QUEEN, KING = range(3)

#: canonical ids: "AS", "2S" … "10H"; nobles "JS" … "KH"
CARD_IDS: tuple[str, ...] = tuple(f"{RANKS[c % 10]}{SUITS[c // 10]}" for c in range(40))
NOBLE_IDS: tuple[str, ...] = tuple(f"{NOBLE_RANKS[n % 3]}{SUITS[n // 3]}" for n in range(12))
CARD_INDEX = {cid: c for c, cid in enumerate(CARD_IDS)}
NOBLE_INDEX = {nid: n for n, nid in enumerate(NOBLE_IDS)}
ALL_CARDS = (1 << 40) - 1

JS, QS, KS, JD, QD, KD, JC, QC, KC, JH, QH, KH = range(12)


def noble(suit: int, rank: int) -> int:
    return suit * 3 + rank


def card_face(c: int) -> str:
    """A building card as a sentence names it: its suit's symbol and its rank ("♥7", "♠A", "♦10"), the same
    in Dutch (aas: A); never its id "7H"."""
    return SUIT_SYMBOLS[c // 10] + RANKS[c % 10]


def card_faces(cards: Any) -> list[str] | Text:
    """Cards for a sentence: their faces joined, or "none"."""
    cards = list(cards)
    return [card_face(c) for c in cards] if cards else say("none")


#: the nobles' letters as the Dutch table writes them: boer, vrouw, heer
NOBLE_LETTERS_NL = ("B", "V", "H")


def noble_face(n: int) -> Words:
    """A noble as a list of nobles names it: "♠J", in Dutch "♠B" (schoppen boer)."""
    return Words(en=SUIT_SYMBOLS[n // 3] + NOBLE_RANKS[n % 3], nl=SUIT_SYMBOLS[n // 3] + NOBLE_LETTERS_NL[n % 3])


def face_of(x: str) -> Any:
    """A card or noble id ("7H", "JS") as a sentence names it: "♥7", "♠J" (Dutch "♠B"); anything else as it is."""
    if x in CARD_INDEX:
        return card_face(CARD_INDEX[x])
    if x in NOBLE_INDEX:
        return noble_face(NOBLE_INDEX[x])
    return x


#: a noble as a sentence names it (Dutch: the rules text's "de schoppen boer")
NOBLE_SAID: tuple[Text, ...] = (
    say("the jack of spades"), say("the queen of spades"), say("the king of spades"),
    say("the jack of diamonds"), say("the queen of diamonds"), say("the king of diamonds"),
    say("the jack of clubs"), say("the queen of clubs"), say("the king of clubs"),
    say("the jack of hearts"), say("the queen of hearts"), say("the king of hearts"),
)

#: a castle as a sentence names it, by its suit
CASTLE_SAID: tuple[Text, ...] = (say("the spades castle"), say("the diamonds castle"), say("the clubs castle"),
                                 say("the hearts castle"))


def is_red(c: int) -> bool:
    return bool((c // 10) & 1)


def ids(cards: Any) -> list[str]:
    return [CARD_IDS[c] for c in cards]


def mask_cards(mask: int) -> list[int]:
    """The cards of a bitmask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- what a recorder may type -------------------------------------------------------

def _norm(text: str) -> str:
    text = text.strip().lower().replace("_", " ").replace("-", " ")
    return re.sub(r"\s+", " ", text)


def _rank_words(r: int) -> list[str]:
    words = [RANKS[r].lower(), RANK_NAMES[r], RANK_DUTCH[r]]
    if r == 0:
        words += ["1", "a"]
    if r == 9:
        words += ["t"]
    return words


def _suit_words(s: int) -> list[str]:
    words = [SUITS[s].lower(), SUIT_NAMES[s], SUIT_DUTCH[s], SUIT_SYMBOLS[s], SUIT_ALT_SYMBOLS[s]]
    if s == CLUBS:
        words.append("klaveren")
    return words


def _forms(rank_words: list[str], suit_words: list[str]) -> set[str]:
    out = set()
    for r in rank_words:
        for s in suit_words:
            out |= {f"{r}{s}", f"{s}{r}", f"{r} {s}", f"{s} {r}", f"{r} of {s}"}
    return out


_CARD_LOOKUP: dict[str, tuple[str, int]] = {}
for _c in range(40):
    for _form in _forms(_rank_words(_c % 10), _suit_words(_c // 10)):
        _CARD_LOOKUP[_form] = ("card", _c)
for _n in range(12):
    _words = [NOBLE_RANKS[_n % 3].lower(), NOBLE_NAMES[_n % 3], NOBLE_DUTCH[_n % 3]]
    for _form in _forms(_words, _suit_words(_n // 3)):
        _CARD_LOOKUP[_form] = ("noble", _n)
# plain-letter suit forms would be ambiguous in Dutch ("h": heer or harten), so the
# single letters are only accepted as English codes (above: "qh", "h q" …); nothing else.


def parse_any(value: Any, field: str) -> tuple[str, int]:
    """('card', 0–39) or ('noble', 0–11) for any accepted name; MalformedEvent otherwise."""
    if value.__class__ is str:
        c = CARD_INDEX.get(value)
        if c is not None:
            return "card", c
        n = NOBLE_INDEX.get(value)
        if n is not None:
            return "noble", n
        found = _CARD_LOOKUP.get(_norm(value))
        if found is not None:
            return found
    raise MalformedEvent(
        say("{field}: {value} is not a card; write e.g. \"7H\", \"10S\", \"AD\" for building cards and \"JS\", "
            "\"QD\", \"KH\" for nobles (also \"harten 7\", \"schoppen boer\", \"7♥\", \"seven of hearts\")",
            field=field, value=repr(value)),
        field=field,
    )


def parse_card_id(value: Any, field: str) -> str:
    """The canonical id of any card name (building card or noble)."""
    kind, x = parse_any(value, field)
    return CARD_IDS[x] if kind == "card" else NOBLE_IDS[x]


def parse_suit(value: Any, field: str) -> str:
    if isinstance(value, str):
        key = _norm(value)
        for s in range(4):
            if key in _suit_words(s) or key == SUIT_NAMES[s][:-1] or key == SUIT_SYMBOLS[s]:
                return SUITS[s]
    raise MalformedEvent(say("{field}: {value} is not a suit; use S, D, C or H (schoppen, ruiten, klaver, harten)",
                             field=field, value=repr(value)), field=field)


#: powers a seat plays explicitly: a single noble, or a combination
POWERS = {
    "JS": (JS,),
    "QS": (QS,),
    "JQKS": (JS, QS, KS),
    "QC": (QC,),
    "KC": (KC,),
    "QKH": (QH, KH),
}
#: a power as a sentence names it
POWER_SAID: dict[str, Text] = {
    "JS": NOBLE_SAID[JS],
    "QS": NOBLE_SAID[QS],
    "JQKS": say("jack+queen+king of spades"),
    "QC": NOBLE_SAID[QC],
    "KC": NOBLE_SAID[KC],
    "QKH": say("queen+king of hearts"),
}
_POWER_ALIASES = {
    "schoppen boer": "JS",
    "schoppenboer": "JS",
    "spades jack": "JS",
    "jack of spades": "JS",
    "schoppen vrouw": "QS",
    "schoppenvrouw": "QS",
    "spades queen": "QS",
    "queen of spades": "QS",
    "schoppen boer+vrouw+heer": "JQKS",
    "schoppen boer vrouw heer": "JQKS",
    "spades trio": "JQKS",
    "spades jack+queen+king": "JQKS",
    "jqk": "JQKS",
    "klaver vrouw": "QC",
    "clubs queen": "QC",
    "queen of clubs": "QC",
    "klaver heer": "KC",
    "clubs king": "KC",
    "king of clubs": "KC",
    "harten vrouw+heer": "QKH",
    "harten vrouw heer": "QKH",
    "hearts queen+king": "QKH",
}


def parse_power(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str):
        key = value.strip()
        if key.upper() in POWERS:
            power = key.upper()
        else:
            power = _POWER_ALIASES.get(_norm(value), "")
        if power in allowed:
            return power
    raise MalformedEvent(say("{field}: {value} is not one of {allowed}", field=field, value=repr(value),
                             allowed=list(allowed)), field=field)


#: Dutch table terms -> canonical ids, for the docs and GET /api/games/troubadour
ALIASES: dict[str, str] = {
    **{f"{SUIT_DUTCH[n // 3]} {NOBLE_DUTCH[n % 3]}": NOBLE_IDS[n] for n in range(12)},
    **{f"{SUIT_DUTCH[s]} {RANK_DUTCH[r]}": CARD_IDS[s * 10 + r] for s in range(4) for r in (0, 9)},
    "schoppen boer+vrouw+heer": "JQKS",
    "harten vrouw+heer": "QKH",
    "schoppen": "S",
    "ruiten": "D",
    "klaver": "C",
    "harten": "H",
    "aas": "A",
    "kasteel": "castle",
    "dorp": "village",
    "edelen": "nobles",
    "bouwkaarten": "building cards",
    "draaistapel": "draw pile",
    "raapstapel": "discard pile",
    "kastelen en dorpen klaarleggen": "deal",
    "drie edelen kiezen": "choose",
    "edelen openleggen": "reveal",
    "dobbelsteen gooien": "die",
    "edele tegenkiezen": "counter_pick",
    "tegenkeuze openleggen": "counter_reveal",
    "standaardkaartdraai": "turn_over",
    "kaart draaien": "flip",
    "kaart omdraaien (dorp)": "turn_up",
    "bouwen": "build",
    "aanval": "attack",
    "extra kaarten draaien": "extra_draw",
    "volgende extra kaart draaien": "extra_card",
    "bovenste kaart omdraaien": "turn_top",
    "kaart omdraaien met harten vrouw": "hearts_queen",
    "kaart noemen": "name_card",
    "beurt voorbij": "end_turn",
    "geschud (tegen de regels)": "shuffled",
}
