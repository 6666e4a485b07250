"""What Catan's (and Troje's) refusals name, as messages (engine/text.py): resources, development cards,
phases and the places on the board as a player names them, in the Dutch of the rules text (brick is
"steen"). Apart from the game so that the scenario and the board read them without an import circle."""

from __future__ import annotations

from typing import Any

from ..text import Text, Words, say

#: the resources, in the order of ``pieces.RES``, as the Dutch rules text names them (Troje: "steenkaarten")
RESOURCE = {"lumber": say("lumber"), "brick": say("brick"), "wool": say("wool"), "grain": say("grain"),
            "ore": say("ore")}
#: the development cards, in the order of ``pieces.DEV``
DEV_CARD = {"knight": say("Knight"), "road_building": say("Road Building"), "year_of_plenty": say("Year of Plenty"),
            "monopoly": say("Monopoly"), "victory_point": say("Victory Point")}
TERRAIN = {"forest": say("forest"), "hills": say("hills"), "pasture": say("pasture"), "fields": say("fields"),
           "mountains": say("mountains"), "desert": say("desert"), "special": say("special"), "sea": say("sea")}
#: what the table is doing in each phase (Catan's, then Troje's own)
PHASE = {
    "setup_settlement": say("placing a settlement in the set-up"),
    "setup_road": say("placing a road in the set-up"),
    "roll": say("the roll of the dice"),
    "dice": say("entering the dice rolled"),
    "discard": say("discarding on a 7"),
    "robber": say("moving the robber"),
    "sea_people": say("moving the sea people"),
    "steal": say("entering the card stolen"),
    "main": say("trading and building"),
    "draw_dev": say("entering the development card drawn"),
    "road_building": say("placing Road Building's free roads"),
    "special_building": say("the Special Building Phase"),
    "over": say("the end of the game"),
    "deal": say("dealing the decision cards"),
    "ship_tile": say("turning up the new ship's tile"),
    "take_chip": say("taking a trade chip"),
    "stack_card": say("entering the card drawn from the support stack"),
    "return_card": say("laying a card back on the support stack"),
    "battle": say("the battle"),
    "reveal": say("turning up the decision cards"),
}


def resource(name: str) -> Text | str:
    return RESOURCE.get(name, name)


def dev_card(name: str) -> Text | str:
    return DEV_CARD.get(name, name)


def phase(name: str) -> Text | Words:
    return PHASE.get(name) or Words(en=name.replace("_", " "))


def seat(s: Any, p: int) -> str | Text:
    """A seat as a refusal names it: its player's name."""
    names = getattr(s, "names", ())
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return say("seat {seat}", seat=str(p))


def _terrain(topo: Any, h: int) -> Text:
    number = topo.number[h]
    terrain = TERRAIN.get(topo.terrain[h], Words(en=topo.terrain[h]))
    return say("{terrain} {number}", terrain=terrain, number=number) if number else terrain


def _at(topo: Any, c: Any) -> Text:
    h = topo.hex_index.get(tuple(c))
    return TERRAIN["sea"] if h is None else _terrain(topo, h)


def hex_place(topo: Any, h: int) -> Text:
    """A land hex as a player names it: its terrain and number ("hills 6")."""
    return _terrain(topo, h)


def vertex(topo: Any, v: int) -> Text:
    """An intersection as the board's drawing names it: its number and the hexes around it."""
    a, b, c = (_at(topo, x) for x in topo.vertices[v])
    return say("intersection {n} ({a} / {b} / {c})", n=v, a=a, b=b, c=c)


def edge(topo: Any, e: int) -> Text:
    """A path as the board's drawing names it: its number and the two hexes it runs between."""
    a, b = (_at(topo, c) for c in topo.edges[e])
    return say("path {n} ({a} | {b})", n=e, a=a, b=b)
