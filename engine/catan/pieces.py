"""Catan's fixed numbers: resources, development cards, costs, piece limits
and the turn's phases. Apart from the game so that its describer and bots
read them without importing the game module (no import circle)."""

from __future__ import annotations

from . import board as B

P = "catan."
RES = B.RESOURCES
RES_ALIASES = {
    "lumber": 0, "wood": 0, "hout": 0, "brick": 1, "steen": 1, "leem": 1, "baksteen": 1, "klei": 1, "wool": 2, "wol": 2,
    "sheep": 2, "grain": 3, "wheat": 3, "graan": 3, "koren": 3, "ore": 4, "erts": 4,
}
DEV = ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
DEV_ALIASES = {
    "knight": 0, "ridder": 0, "road_building": 1, "stratenbouw": 1, "year_of_plenty": 2, "uitvinding": 2,
    "monopoly": 3, "monopolie": 3, "victory_point": 4, "overwinningspunt": 4, "vp": 4,
}
KNIGHT, ROADS, PLENTY, MONOPOLY, VP = range(5)
DECKS = {"3-4": (14, 2, 2, 2, 5), "5-6": (20, 3, 3, 3, 5)}

ROAD_COST = (1, 1, 0, 0, 0)
SETTLEMENT_COST = (1, 1, 1, 1, 0)
CITY_COST = (0, 0, 0, 2, 3)
DEV_COST = (0, 0, 1, 1, 1)
ZERO = (0, 0, 0, 0, 0)
MAX_SETTLEMENTS, MAX_CITIES, MAX_ROADS = 5, 4, 15

# phases
SETUP_S, SETUP_R, PRE_ROLL, DICE, DISCARD, ROBBER, STEAL, MAIN, DEV_DRAW, ROAD_BUILDING, SBP, OVER = range(12)
PHASES = ("setup_settlement", "setup_road", "roll", "dice", "discard", "robber", "steal", "main", "draw_dev",
          "road_building", "special_building", "over")
OWN_TURN = frozenset({PRE_ROLL, DICE, DISCARD, ROBBER, STEAL, MAIN, DEV_DRAW, ROAD_BUILDING})
