"""What building costs and how many pieces a seat has: shared by the rules
(``game``) and the summaries (``describe``), which must not import each other."""

from .board import RESOURCES as RES

ROAD_COST = (1, 1, 0, 0, 0)
SETTLEMENT_COST = (1, 1, 1, 1, 0)
CITY_COST = (0, 0, 0, 2, 3)
DEV_COST = (0, 0, 1, 1, 1)
MAX_SETTLEMENTS, MAX_CITIES, MAX_ROADS = 5, 4, 15

__all__ = ["CITY_COST", "DEV_COST", "MAX_CITIES", "MAX_ROADS", "MAX_SETTLEMENTS", "RES", "ROAD_COST", "SETTLEMENT_COST"]
