"""What Troje's refusals name, as messages (engine/text.py), besides Catan's words (engine/catan/words.py):
the sea tiles as the board's drawing numbers them, the ship tiles' advantages and the two sides, in the
Dutch of the rules text (zeetegel, scheepsfiche, Troje, Mykene)."""

from __future__ import annotations

from typing import Any

from ..text import Text, Words, say

#: a ship tile's advantage, as the table names it
ADVANTAGE = {"harbour_3to1": say("3:1 harbour"), "victory_point": say("victory point"),
             "swap": say("swap a stack card"), "trade_chip": say("2:1 trade chip"),
             "draw": say("draw a stack card")}
SIDE = {"troy": say("Troy"), "mycenae": say("Mycenae")}


def sea_tile(i: int) -> Text:
    """A sea tile as the board's drawing numbers it: "sea tile #3"."""
    return say("sea tile #{n}", n=i)


def advantage(name: str) -> Text | Words:
    return ADVANTAGE.get(name) or Words(en=name)


def side(name: Any) -> Text | str:
    return SIDE.get(name, str(name))
