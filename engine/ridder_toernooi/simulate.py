"""Whole simulated tournaments through ``engine.match``; the loop, the seat
rotation and the summary are ``engine.simulation``'s. Pure: no I/O, no clock,
no global random; ``progress`` (optional) is called after each game, which is
how the CLI drives its progress bar.
"""

from __future__ import annotations

from typing import Any

from ..simulation import Simulator
from .bots import BOTS

GAME_ID = "ridder_toernooi"
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien", "Gijs", "Hanna", "Ivo", "Joke")


def _record(game: Any, state: Any) -> dict[str, Any]:
    return {
        "days": state.day,
        "scores": list(game.scores(state)),
        "duels": sum(1 for a in state.awards if a[2].endswith(": duel")),
    }


SIMULATOR = Simulator(
    game_id=GAME_ID,
    names=NAMES,
    bots=BOTS,
    default_strategy="random",
    record=_record,
    stats=("days", "events", "duels"),
)


# What service/cli.py, bench/ and the tests call (``engine.simulation.Simulator``);
# a game's record adds ``days``, the ``scores`` and the number of ``duels``.
play_game = SIMULATOR.play_game
simulate = SIMULATOR.simulate
summarize = SIMULATOR.summarize
