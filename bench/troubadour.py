"""Troubadour speed goals, measured on one core (no Redis needed).

(t1) events/s replaying recorded Troubadour logs through the reducer
     (``Game.apply`` on each logged event, from the setup on)   goal ≥ 100,000/s
(t2) the same logs through ``engine.match.replay`` (schema validation,
     canonical check, seeded-chance check, undo stack)          no goal, for scale
(t3) full simulated 2-player greedy games/s through ``engine.match``
     (bots, validation, seeded chance draws)                    goal ≥ 50/s

``measure()`` returns the rows ``(measure, measured, ratio/figure, goal)`` that
``make bench`` prints; ``python -m bench.troubadour`` prints them alone.
"""

from __future__ import annotations

import time

from engine import match as M
from engine import registry

#: the logs replayed for (t1) and (t2): (players, strategies) × seeds
LOG_MIX = ((2, ("greedy", "greedy")), (2, ("greedy", "random")), (3, ("greedy", "greedy", "greedy")), (4, ("greedy",) * 4))


def _logs(seeds: int) -> list[list[dict]]:
    from engine.troubadour.simulate import play_game

    logs = []
    for players, strategies in LOG_MIX:
        for seed in range(seeds):
            logs.append(play_game(players, list(strategies), 10_000 + seed, keep_log=True)["log"])
    return logs


def _reducer_pass(game, logs) -> float:
    apply = game.apply
    setup = game.setup
    t0 = time.perf_counter()
    for log in logs:
        head = log[0]["data"]
        state = setup(tuple(head["players"]), head["options"])
        for e in log[1:]:
            state = apply(state, e["type"], e["seat"], e["data"])
    return time.perf_counter() - t0


def measure(seeds: int = 12, games: int = 60, repeat: int = 3) -> list[tuple[str, str, str, str]]:
    import engine.troubadour  # noqa: F401  (registers the game)
    from engine.troubadour.simulate import simulate

    game = registry.get("troubadour")
    logs = _logs(seeds)
    events = sum(len(log) - 1 for log in logs)
    rows = []

    _reducer_pass(game, logs[:4])  # warm-up
    best = min(_reducer_pass(game, logs) for _ in range(repeat))
    rate = events / best
    rows.append((
        "(t1) Troubadour: replayed events/s through the reducer",
        f"{events:,} events, {len(logs)} logs (2–4 players), {best:.3f} s",
        f"{rate:,.0f}/s",
        "≥ 100,000/s",
    ))

    t0 = time.perf_counter()
    for log in logs:
        M.replay(log)
    full = time.perf_counter() - t0
    rows.append((
        "(t2) Troubadour: events/s through engine.match.replay (all checks)",
        f"{events:,} events, {full:.3f} s",
        f"{events / full:,.0f}/s",
        "—",
    ))

    simulate(3, 2, ["greedy"], seed=99)  # warm-up
    t0 = time.perf_counter()
    summary = simulate(games, 2, ["greedy"], seed=2024)
    secs = time.perf_counter() - t0
    rows.append((
        "(t3) Troubadour: simulated 2-player greedy games/s",
        f"{games} games, {summary['finished']} finished, median {summary['rounds']['median']} rounds, {secs:.2f} s",
        f"{games / secs:.1f}/s",
        "≥ 50/s",
    ))
    return rows


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
