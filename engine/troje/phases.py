"""Troje's phases (Catan's, then the scenario's own) and the event each of
the scenario's phases waits for; apart from the game so that its describer
reads them without importing the game module."""

from __future__ import annotations

from ..catan.pieces import DICE, DISCARD, MAIN, PHASES, PRE_ROLL, ROBBER, STEAL
from . import ships as SH

# the scenario's own phases, after Catan's
DEAL, SHIP_TILE, CHIP, STACK_DRAW, SWAP_BACK, BATTLE, REVEAL = range(len(PHASES), len(PHASES) + 7)
TROJE_PHASES = tuple("sea_people" if p == "robber" else p for p in PHASES) + (
    "deal", "ship_tile", "take_chip", "stack_card", "return_card", "battle", "reveal")
#: the event each scenario phase waits for
PHASE_EVENT = {DEAL: "decision_card", SHIP_TILE: "ship_tile", CHIP: "take_chip", STACK_DRAW: "stack_card",
               SWAP_BACK: "return_card", BATTLE: "battle", REVEAL: "reveal_allegiances"}
#: phases of the player whose turn it is (a 15-VP win counts then)
OWN_TURN = frozenset({PRE_ROLL, DICE, DISCARD, ROBBER, STEAL, MAIN, SHIP_TILE, CHIP, STACK_DRAW, SWAP_BACK})
SHIP_COST = SH.SHIP_COST
#: after a battle: nothing, the Special Building Phase, the next turn, Settler 2's part of a paired turn
RESUME_SBP, RESUME_NEXT, RESUME_SETTLER_2 = 1, 2, 3
