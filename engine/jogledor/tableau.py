"""The open 13×4 tableau shared by Twaalven en veertienen and Stapelen.

The cards are dealt face up in four rows of thirteen, each row a little lower
than the one before and overlapping it, so the table shows thirteen columns
(the rules text calls them *rijtjes*) of four cards. The card dealt last to a
column lies on top and is the only one that can be taken.

The deal is one chance event, entered once. Its canonical form lists the
columns left to right, each bottom to top::

    {"columns": [["7H", "2C", "KD", "QS"], … 13 columns of 4 …]}

The recorder may also enter the four rows as they were laid out
(``{"rows": [[13 cards], … 4 rows …]}``, first row = the bottom cards), the 52
cards in dealing order (``{"cards": [...]}``: card *i* goes to column
*i* mod 13), or a seed (``{"seed": 42}``: the server shuffles with a seeded
RNG). All are stored as ``columns``. A deal that misses or repeats a card is
refused.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import CHANCE, EventType, MalformedEvent, Move
from ..text import N_
from .cards import CARD_IDS, CARD_SCHEMA, RANK, check_deck, parse_card, seeded_deck, shuffled_deck

COLUMNS = 13
DEPTH = 4


def _cards(n: int) -> dict[str, Any]:
    return {"type": "array", "items": CARD_SCHEMA, "minItems": n, "maxItems": n}


DEAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "columns": {
            "type": "array",
            "items": _cards(DEPTH),
            "minItems": COLUMNS,
            "maxItems": COLUMNS,
            "description": N_("the 13 columns (rijtjes) left to right, each bottom to top (the top card last)"),
        },
        "rows": {
            "type": "array",
            "items": _cards(COLUMNS),
            "minItems": DEPTH,
            "maxItems": DEPTH,
            "description": N_("the 4 rows of 13 as they were laid out, the first (bottom) row first"),
        },
        "cards": {**_cards(52), "description": N_("the 52 cards in dealing order: card i goes to column i mod 13")},
        "seed": {"type": "integer", "description": N_("let the server shuffle, with this seed")},
    },
    "minProperties": 1,
    "maxProperties": 1,
    "additionalProperties": False,
}

#: the deal of a tableau game: one chance event, entered once
DEAL_EVENT = EventType(
    "deal",
    CHANCE,
    DEAL_SCHEMA,
    N_("The shuffled deck laid out as 13 columns of 4, entered once: columns (each bottom to top), rows "
       "(as laid out), cards (52 in dealing order) or a seed; stored as columns."),
    aliases=("delen",),
)

Columns = tuple[tuple[int, ...], ...]


def deck_to_columns(deck: list[int]) -> Columns:
    """Deal a deck in order: 13 cards in a row, then the next row on top."""
    return tuple(tuple(deck[c + COLUMNS * layer] for layer in range(DEPTH)) for c in range(COLUMNS))


def normalize_deal(game_id: str, data: dict[str, Any], rule: str) -> dict[str, Any]:
    """Canonical ``{"columns": ...}`` of a deal event; RuleViolation(rule) if a
    card is missing or repeated."""
    if "seed" in data:
        columns = deck_to_columns(seeded_deck(game_id, data["seed"]))
    elif "columns" in data:
        columns = tuple(
            tuple(parse_card(v, f"columns[{c}][{i}]") for i, v in enumerate(col)) for c, col in enumerate(data["columns"])
        )
    elif "rows" in data:
        rows = [[parse_card(v, f"rows[{r}][{c}]") for c, v in enumerate(row)] for r, row in enumerate(data["rows"])]
        columns = tuple(tuple(rows[layer][c] for layer in range(DEPTH)) for c in range(COLUMNS))
    elif "cards" in data:
        columns = deck_to_columns([parse_card(v, f"cards[{i}]") for i, v in enumerate(data["cards"])])
    else:  # pragma: no cover - the schema requires one key
        raise MalformedEvent("a deal gives columns, rows, cards or a seed", field="data")
    check_deck([c for col in columns for c in col], rule)
    return {"columns": [[CARD_IDS[c] for c in col] for col in columns]}


def columns_of(data: dict[str, Any]) -> Columns:
    """The columns of a canonical deal event."""
    return tuple(tuple(parse_card(v, "columns") for v in col) for col in data["columns"])


def deal_move(rng: random.Random) -> Move:
    """A simulated deal: a shuffle drawn from the match's seeded RNG."""
    columns = deck_to_columns(shuffled_deck(rng))
    return Move("deal", None, {"columns": [[CARD_IDS[c] for c in col] for col in columns]})


def ranks_bytes(columns: Columns) -> bytes:
    """The ranks of the tableau, column by column, bottom to top (for the solvers)."""
    return bytes(RANK[c] for col in columns for c in col)


def top(columns: Columns, heights: tuple[int, ...], c: int) -> int | None:
    h = heights[c]
    return columns[c][h - 1] if h else None


def column_of_top(columns: Columns, heights: tuple[int, ...], card: int) -> int | None:
    """The column whose top card is ``card`` (None if it is not a top card)."""
    for c in range(COLUMNS):
        h = heights[c]
        if h and columns[c][h - 1] == card:
            return c
    return None


def where(columns: Columns, heights: tuple[int, ...], card: int) -> tuple[int, int] | None:
    """(column, depth below the top) of a card still on the tableau; None if taken."""
    for c in range(COLUMNS):
        col = columns[c]
        for i in range(heights[c]):
            if col[i] == card:
                return c, heights[c] - 1 - i
    return None


def view_columns(columns: Columns | None, heights: tuple[int, ...]) -> list[list[str]]:
    if columns is None:
        return []
    return [[CARD_IDS[c] for c in columns[i][: heights[i]]] for i in range(COLUMNS)]
