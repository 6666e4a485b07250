"""Whole simulated Troje games through ``engine.match``; the loop, the seat
rotation and the summary are ``engine.simulation``'s.

With option ``allegiances: private`` (the default) the server deals the
decision cards as chance events, and each bot reads its own from the state.
With ``allegiances: at_reveal`` the log knows no side until the end: the
simulator deals the cards itself (``secrets``, from the game's seed), gives
each seat's bot its own, and at the end the table turns them all up
(``reveal_allegiances``, the table's move) — so a seat that reaches 15 VP
with its saga VP claims the win (``claim_win``) and the reveal checks it.

A game's record: ``turns``, each seat's ``vp`` (the final total, saga VP
included), the number of ``battles``, the saga track (``saga``), the ships
built, and how the game ``ended``: ``war`` (a saga marker reached the last
field) or ``vp`` (a player reached the goal in his own turn), with the city
that won the war (``war_won_by``).
"""

from __future__ import annotations

import random
from typing import Any

from ..core import Move
from ..simulation import Simulator
from . import saga as SG
from .bots import BOTS

GAME_ID = "catan-troje"
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien")


def _record(game: Any, state: Any) -> dict[str, Any]:
    x = state.ext
    n = state.cfg.n
    over = game.result(state) is not None
    return {
        "turns": state.turn_no,
        "vp": [game.total_vp(state, p) for p in range(n)],
        "battles": len(x.battles),
        "saga": {"troy": x.saga.troy, "mycenae": x.saga.mycenae},
        "ships": sum(1 for ship in x.ships if ship is not None),
        "ended": None if not over else "war" if x.war is not None else "vp",
        "war_won_by": x.war,
    }


def deal(game: Any, state: Any, rng: random.Random) -> list[str] | None:
    """The decision cards the log will not know until the reveal (option
    ``allegiances: at_reveal``): half Troy, half Mycenae, shuffled; None when
    the server deals them into the log (``private``)."""
    if state.ext.tcfg.private_allegiances:
        return None
    n = state.cfg.n
    cards = list(SG.SIDES) * (n // 2)
    rng.shuffle(cards)
    return cards


def reveal(game: Any, state: Any, secrets: list[str] | None) -> Move:
    """The table turns every decision card up: the ones the simulator dealt,
    else (every side already in the log) the log's."""
    sides = list(secrets) if secrets is not None else list(state.ext.allegiances)
    return Move("reveal_allegiances", None, {"sides": sides})


SIMULATOR = Simulator(
    game_id=GAME_ID,
    names=NAMES,
    bots=BOTS,
    default_strategy="greedy",
    record=_record,
    stats=("turns", "events", "battles", "ships"),
    counts=("ended", "war_won_by"),
    secrets=deal,
    table_move=reveal,
)

play_game = SIMULATOR.play_game
simulate = SIMULATOR.simulate
summarize = SIMULATOR.summarize
