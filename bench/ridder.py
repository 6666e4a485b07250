"""Ridder-toernooi speed goals, measured on one core (no Redis needed).

(r1) simulated 4-player, 4-day tournaments/s through ``engine.match`` (random
     bots, seeded chance draws for every die, the reducer's rule checks)
                                                                 goal ≥ 100/s
(r2) events/s replaying recorded tournament logs through the reducer
     (``Game.apply`` on each logged event, from the setup on)   no goal, for scale
(r3) the same logs through ``engine.match.replay`` (schema validation,
     canonical check, seeded-chance check)                       no goal, for scale

``python -m bench --only ridder`` prints them alone.
"""

from __future__ import annotations

import time

from engine import match as M
from engine import registry


def _reducer_pass(game, logs) -> float:
    t0 = time.perf_counter()
    for log in logs:
        head = log[0]["data"]
        state = game.setup(tuple(head["players"]), head["options"])
        for e in log[1:]:
            state = game.apply(state, e["type"], e["seat"], e["data"])
    return time.perf_counter() - t0


def measure(games: int = 200, logs: int = 40, repeat: int = 3) -> list[tuple[str, str, str, str]]:
    import engine.ridder_toernooi  # noqa: F401  (registers the game)
    from engine.ridder_toernooi.simulate import play_game, simulate

    game = registry.get("ridder_toernooi")
    rows = []
    simulate(5, 4, ["random"], seed=99)  # warm-up
    best = best_cpu = float("inf")
    for r in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        summary = simulate(games, 4, ["random"], seed=2024 + r)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    rows.append((
        "(r1) Ridder-toernooi: simulated 4-player 4-day tournaments/s",
        f"{games} tournaments (random bots), {summary['finished']} finished, "
        f"median {summary['events']['median']} events, best of {repeat}: {best:.2f} s "
        f"({best_cpu:.2f} s of CPU: what a busy machine's other jobs do not skew)",
        f"{games / best:.1f}/s ({games / best_cpu:.1f}/s of CPU)",
        "≥ 100/s",
    ))
    recorded = [play_game(4, ["random"] * 4, 7_000 + i, keep_log=True)["log"] for i in range(logs)]
    events = sum(len(log) - 1 for log in recorded)
    _reducer_pass(game, recorded[:4])
    secs = min(_reducer_pass(game, recorded) for _ in range(repeat))
    rows.append((
        "(r2) Ridder-toernooi: replayed events/s through the reducer",
        f"{events:,} events, {len(recorded)} logs, {secs:.3f} s",
        f"{events / secs:,.0f}/s",
        "—",
    ))
    t0 = time.perf_counter()
    for log in recorded:
        M.replay(log)
    full = time.perf_counter() - t0
    rows.append((
        "(r3) Ridder-toernooi: events/s through engine.match.replay (all checks)",
        f"{events:,} events, {full:.3f} s",
        f"{events / full:,.0f}/s",
        "—",
    ))
    return rows


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
