"""Whole matches of any registered game, played through ``engine.match`` as
the service would record them, for the notation tests and the benchmark.

Seats are played by the game's own bots where it has a simulator
(``engine.<game>.simulate``), by random legal moves otherwise; in a physical
match the recorder enters each chance outcome (drawn with the same seeded
RNG); ``undo_rate`` adds recording corrections.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from engine import match as M
from engine import registry
from engine.core import CHANCE
from engine.simulation import Table

NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien", "Gijs", "Hanna", "Ivo", "Joke")


def bot_of(game_id: str):
    """The game's default bot (``bot(game, state, seat, rng) -> Move``), or None."""
    try:
        module = importlib.import_module(f"engine.{game_id}.simulate")
    except ModuleNotFoundError:
        return None
    simulator = getattr(module, "SIMULATOR", None)
    return simulator.bots[simulator.default_strategy] if simulator else None


def play(game_id: str, seed: int, players: int | None = None, mode: str = "simulated",
         options: dict[str, Any] | None = None, undo_rate: float = 0.0, limit: int = 3000,
         finish: bool = True) -> list[dict[str, Any]]:
    """The log (``seq``, ``type``, ``seat``, ``data``; setup first) of one match."""
    game = registry.get(game_id)
    n = players or game.min_players
    setup = M.make_setup(game_id, list(NAMES[:n]), options or {}, mode=mode,
                         seed=seed if mode == "simulated" else None)
    table = Table(setup)
    rng = random.Random(f"played:{game_id}:{seed}")
    bot = bot_of(game_id)
    for _ in range(limit):
        ms = table.ms
        if ms.result is not None:
            break
        actors = game.actors(ms.state)
        if CHANCE in actors:  # physical: the recorder enters what the table saw
            move = game.chance_outcome(ms.state, rng)
            table.enter(move.type, move.seat, move.data)
            continue
        options_ = [(a, M.legal_moves(ms, None if a == "table" else a)) for a in actors]
        actor, moves = rng.choice([(a, m) for a, m in options_ if m])
        seat = None if actor == "table" else actor
        if bot is not None and seat is not None and rng.random() < 0.8:
            move = bot(game, ms.state, seat, rng).to_dict()
        else:
            move = rng.choice(moves)
        table.enter(move["type"], move["seat"], move["data"])
        if undo_rate and table.ms.result is None and rng.random() < undo_rate:
            table.enter(M.UNDO, None, {})
    else:
        if finish:
            raise AssertionError(f"{game_id} did not end in {limit} events")
    return table.log


def random_step(ms, rng, seq: int):
    """The match after one more event: the chance outcome the engine draws
    when chance is due, else a random legal move of whoever may act."""
    actors = ms.game.actors(ms.state)
    if "chance" in actors:
        move = ms.game.chance_outcome(ms.state, rng).to_dict()
    else:
        move = rng.choice([m for a in actors for m in M.legal_moves(ms, None if a == "table" else a)])
    data = M.normalize_event(ms, move["type"], move["seat"], move["data"])
    return M.apply_event(ms, seq, move["type"], move["seat"], data)
