"""Whole simulated Troubadour games through ``engine.match``; the loop, the
seat rotation and the summary are ``engine.simulation``'s. Pure: no I/O, no
clock, no global random; ``progress`` (optional) is called after each game,
which is how the CLI drives its progress bar.
"""

from __future__ import annotations

from typing import Any

from ..simulation import Simulator
from .bots import BOTS

GAME_ID = "troubadour"
NAMES = ("North", "East", "South", "West")


def _record(game: Any, state: Any) -> dict[str, Any]:
    return {"rounds": state.round, "castle_cards": [sum(p.castles) for p in state.players]}


SIMULATOR = Simulator(
    game_id=GAME_ID,
    names=NAMES,
    # Troubadour's bots do not need the game: bot(state, seat, rng)
    bots={name: (lambda game, state, seat, rng, bot=bot: bot(state, seat, rng)) for name, bot in BOTS.items()},
    default_strategy="greedy",
    record=_record,
    stats=("rounds", "events"),
)


# What service/cli.py, bench/ and the tests call (``engine.simulation.Simulator``);
# a game's record adds ``rounds`` and each seat's ``castle_cards``.
play_game = SIMULATOR.play_game
simulate = SIMULATOR.simulate
summarize = SIMULATOR.summarize
