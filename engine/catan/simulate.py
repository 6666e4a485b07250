"""Whole simulated Catan games through ``engine.match``; the loop, the seat
rotation and the summary are ``engine.simulation``'s."""

from __future__ import annotations

from typing import Any

from ..simulation import Simulator
from .bots import BOTS

GAME_ID = "catan"
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien")


def _record(game: Any, state: Any) -> dict[str, Any]:
    return {
        "turns": state.turn_no,
        "vp": [game.public_vp(state, p) + game.hidden_vp(state, p) for p in range(state.cfg.n)],
        "rolls": sum(state.hist),
    }


SIMULATOR = Simulator(
    game_id=GAME_ID,
    names=NAMES,
    bots=BOTS,
    default_strategy="greedy",
    record=_record,
    stats=("turns", "events"),
)

play_game = SIMULATOR.play_game
simulate = SIMULATOR.simulate
summarize = SIMULATOR.summarize
