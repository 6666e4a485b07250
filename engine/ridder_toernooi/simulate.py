"""Whole simulated games through ``engine.match``: the same setup, validation,
reducer and seeded chance draws as a recorded match. Pure: no I/O, no clock,
no global random; ``progress`` (optional) is called after each game, which is
how the CLI drives its progress bar.
"""

from __future__ import annotations

import random
import statistics
from typing import Any, Callable, Sequence

from .. import match as M
from ..core import CHANCE
from .bots import BOTS

GAME_ID = "ridder_toernooi"
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien", "Gijs", "Hanna", "Ivo", "Joke")


def play_game(
    players: int,
    strategies: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
    max_events: int = 20_000,
    keep_log: bool = False,
    validate: bool = True,
) -> dict[str, Any]:
    """One simulated game; ``strategies[s]`` plays seat s. Returns its record
    (and, with ``keep_log``, the log as stored: setup first)."""
    for name in strategies:
        if name not in BOTS:
            raise ValueError(f"unknown strategy {name!r}; known: {', '.join(sorted(BOTS))}")
    setup = M.make_setup(GAME_ID, list(NAMES[:players]), options or {}, mode="simulated", seed=seed)
    ms = M.start(setup)
    game = ms.game
    log: list[dict[str, Any]] = [{"seq": 1, "type": "setup", "seat": None, "data": setup}] if keep_log else []
    rng = random.Random(f"{seed}:bots")
    bots = [BOTS[strategies[s]] for s in range(players)]

    def add(type_: str, seat: int | None, data: dict[str, Any]) -> None:
        nonlocal ms
        ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
        if keep_log:
            log.append({"seq": ms.seq, "type": type_, "seat": seat, "data": data})

    for type_, seat, data in M.chance_events(ms, ms.seq + 1):
        add(type_, seat, data)
    while ms.result is None and ms.seq < max_events:
        actors = game.actors(ms.state)
        seat = next(a for a in actors if a != CHANCE and a != "table")
        move = bots[seat](game, ms.state, seat, rng)
        data = M.normalize_event(ms, move.type, seat, move.data) if validate else move.data
        add(move.type, seat, data)
        for type_, s, d in M.chance_events(ms, ms.seq + 1):
            add(type_, s, d)
    result = ms.result
    out: dict[str, Any] = {
        "seed": seed,
        "strategies": list(strategies),
        "finished": result is not None,
        "winner": result.winners[0] if result else None,
        "events": ms.seq,
        "days": ms.state.day,
        "scores": list(game.scores(ms.state)),
        "duels": sum(1 for a in ms.state.awards if a[2].endswith(": duel")),
    }
    if keep_log:
        out["log"] = log
    return out


def simulate(
    games: int,
    players: int = 2,
    strategies: Sequence[str] = ("random",),
    seed: int = 0,
    options: dict[str, Any] | None = None,
    max_events: int = 20_000,
    progress: Callable[[dict[str, Any]], None] | None = None,
    validate: bool = False,
) -> dict[str, Any]:
    """Play ``games`` full games and summarise them.

    ``strategies`` is one name for all seats or one per seat; the seats rotate
    from game to game (game g gives seat s the strategy ``strategies[(s + g) % k]``)
    so that no strategy keeps the advantage or handicap of one seat. A game
    that reaches ``max_events`` events is counted as unfinished.

    Every move goes through the reducer (``engine.match.apply_event``), which
    checks every rule; ``validate`` also runs the API's shape and actor checks
    (``normalize_event``) on the bots' moves, which they always pass (the tests
    replay such logs through ``engine.match.replay``), at about 15% of the time.
    """
    if not 2 <= players <= 10:
        raise ValueError("Ridder-toernooi is played by 2–10 players")
    strategies = list(strategies) or ["random"]
    k = len(strategies)
    records = []
    for g in range(games):
        per_seat = [strategies[(s + g) % k] for s in range(players)]
        rec = play_game(players, per_seat, seed * 1_000_003 + g, options, max_events, validate=validate)
        records.append(rec)
        if progress is not None:
            progress(rec)
    return summarize(records, players, strategies)


def summarize(records: list[dict[str, Any]], players: int, strategies: Sequence[str]) -> dict[str, Any]:
    finished = [r for r in records if r["finished"]]

    def stats(key: str) -> dict[str, float] | None:
        values = [r[key] for r in finished]
        if not values:
            return None
        return {"mean": round(statistics.fmean(values), 1), "median": statistics.median(values), "min": min(values), "max": max(values)}

    by_seat = [0] * players
    by_strategy: dict[str, int] = {name: 0 for name in strategies}
    seats_played: dict[str, int] = {name: 0 for name in strategies}
    for r in records:
        for name in r["strategies"]:
            seats_played[name] += 1
        if r["finished"]:
            by_seat[r["winner"]] += 1
            by_strategy[r["strategies"][r["winner"]]] += 1
    return {
        "game": GAME_ID,
        "games": len(records),
        "players": players,
        "strategies": list(strategies),
        "finished": len(finished),
        "unfinished": len(records) - len(finished),
        "days": stats("days"),
        "events": stats("events"),
        "duels": stats("duels"),
        "wins_by_seat": by_seat,
        "wins_by_strategy": by_strategy,
        "seats_by_strategy": seats_played,
        "games_list": [{k: v for k, v in r.items() if k != "log"} for r in records],
    }
