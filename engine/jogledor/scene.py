"""What the three Jogledor patiences' scenes (``engine.scene``) share: a card
as an element, the open 13×4 tableau (Twaalven, Stapelen) with the deal's
picker on the deck, a player's area, and the cards a viewer has seen.

Dutch terms from the rules text: *rijtje* (a tableau column), *fundament*,
*raapstapel* (the stock), *schudden en delen*."""

from __future__ import annotations

from typing import Any, Iterable

from ..scene import Chance, Element, Zone, text
from .cards import CARD_IDS, DUTCH_RANKS, DUTCH_SUITS, RANK_IDS, RANK_NAMES, SUIT_IDS, SUIT_NAMES

#: every card id, in the order a picker offers them (suit by suit, Ace to King)
ALL_CARDS = list(CARD_IDS)


def card_text(card: str) -> dict[str, str]:
    """"Queen of hearts" / "harten vrouw" for ``"QH"``."""
    rank, suit = RANK_IDS.index(card[:-1]), SUIT_IDS.index(card[-1])
    return text(f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}", f"{DUTCH_SUITS[suit]} {DUTCH_RANKS[rank]}")


def seat_text(seat: int) -> str:
    """A seat in a label: the renderer puts the player's name there (a view
    holds no names)."""
    return "{seat%d}" % seat


def moves_by_type(moves: list[dict[str, Any]], type: str) -> list[dict[str, Any]]:
    return [m for m in moves if m["type"] == type]


def chance_due(view: dict[str, Any]) -> bool:
    return "chance" in (view.get("to_act") or [])


def deck_zone(view: dict[str, Any]) -> Zone:
    """Before the deal: the shuffled deck, whose picker enters the 52 cards
    in dealing order (card *i* to column *i* mod 13, as the table deals)."""
    picker = None
    if chance_due(view):
        picker = Chance(
            type="deal", field="cards", values=ALL_CARDS, count=52,
            label=text("Deal: tap the 52 cards in the order they are laid out, row by row",
                       "Delen: tik de 52 kaarten aan in de volgorde waarin ze gelegd worden, rij na rij"),
        )
    deck = Element("deck", "pile", text("The shuffled deck", "Het geschudde kaartspel"), shows={"count": 52},
                   face_down=True, chance=picker, highlight=picker is not None)
    return Zone("deck", "stack", text("Deck", "Kaartspel"), [deck])


def column_id(c: int) -> str:
    """The element id of tableau column ``c`` (1–13)."""
    return f"column-{c}"


def tableau_zone(view: dict[str, Any]) -> Zone:
    """The 13 columns (rijtjes), each bottom to top: one element a column,
    whose top card is the one a tap takes."""
    elements = []
    for c, cards in enumerate(view.get("columns") or [], start=1):
        top = cards[-1] if cards else None
        label = (text(f"Column {c}: ", f"Rijtje {c}: ") if top else text(f"Column {c}: empty", f"Rijtje {c}: leeg"))
        if top:
            name = card_text(top)
            label = {k: label[k] + name[k] for k in label}
        elements.append(Element(column_id(c), "card" if top else "slot", label,
                                shows={"cards": list(cards), "card": top, "column": c}))
    return Zone("tableau", "columns", text("Tableau: 13 columns", "Tableau: dertien rijtjes"), elements)


def counted(label: dict[str, str], n: int) -> dict[str, str]:
    return {k: f"{v} ({n})" for k, v in label.items()}


def seen_cards(groups: Iterable[Iterable[str | None]]) -> set[str]:
    return {c for g in groups for c in g if c}
