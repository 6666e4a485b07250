"""Invariants the three Jogledor patiences share (``Game.invariants``): one
deck of 52 cards, each card in exactly one place, and the cooperative
result (both seats win together, or nobody). Each game adds its own."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from .cards import DECK, card_id
from .tableau import COLUMNS, DEPTH


def deck_once(where: str, places: dict[str, Iterable[int]], rule: str, complete: bool = True) -> list[tuple[str, str]]:
    """Every card of the deck in exactly one of ``places`` (``complete``: all
    52 of them; else at most once each)."""
    seen: Counter[int] = Counter()
    for cards in places.values():
        seen.update(cards)
    twice = sorted(c for c, k in seen.items() if k > 1)
    out = []
    if twice:
        out.append((rule, f"{', '.join(card_id(c) for c in twice)} lie in two places ({where})"))
    stray = sorted(c for c in seen if c not in DECK)
    if stray:
        out.append((rule, f"cards {stray} are not of the deck"))
    if complete and len(seen) != len(DECK):
        out.append((rule, f"{len(DECK) - len(seen)} cards of the deck are nowhere ({where})"))
    return out


def tableau_ok(columns: Any, heights: tuple[int, ...], rule: str) -> list[tuple[str, str]]:
    """The dealt tableau: 13 columns of 4, 0–4 cards left in each."""
    if columns is None:
        return []
    out = []
    if len(columns) != COLUMNS or any(len(c) != DEPTH for c in columns):
        out.append((rule, "the tableau is not 13 columns of 4 cards"))
    if len(heights) != COLUMNS or any(not 0 <= h <= DEPTH for h in heights):
        out.append((rule, f"cards left per column: {list(heights)}"))
    return out


def tableau_accounted(columns: Any, heights: tuple[int, ...], removed: list[int], name: str,
                      rule: str) -> list[tuple[str, str]]:
    """A dealt tableau and the cards taken off it (``removed``, called
    ``name``): the tableau well formed, every card of the deck either left in
    it or removed, and the removed ones exactly those gone from the columns."""
    out = tableau_ok(columns, heights, rule)
    left = [c for col, h in zip(columns, heights) for c in col[:h]]
    gone = sorted(c for col, h in zip(columns, heights) for c in col[h:])
    out += deck_once(f"tableau and {name}", {"tableau": left, name: removed}, rule)
    if sorted(removed) != gone:
        out.append((rule, f"the cards of the {name} are not the ones gone from the columns"))
    return out


def result_ok(game: Any, state: Any, rule: str) -> list[tuple[str, str]]:
    """A cooperative result: both seats win, or nobody does."""
    result = game.result(state)
    if result is not None and result.winners not in ((0, 1), ()):
        return [(rule, f"winners {list(result.winners)}: both seats win together, or nobody")]
    if result is not None and (result.outcome == "win") != bool(result.winners):
        return [(rule, f"outcome {result.outcome} with winners {list(result.winners)}")]
    return []
