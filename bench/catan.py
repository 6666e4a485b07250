"""Catan speed goals, measured on one core (no Redis needed).

(c1) simulated random 4-player base games/s through ``engine.match`` (random
     bots, seeded dice, steals and draws, the reducer's rule checks and
     per-viewer hand tracking)                                goal ≥ 50/s
     (for scale: catanatron, full information, no per-viewer knowledge,
     about 33/s on one core)
(c2) events/s replaying recorded game logs through the reducer
     (``Game.apply`` on each logged event, from the setup on)  no goal, for scale
(c3) legal-move generation: microseconds per ``legal_moves`` call over the
     states of recorded games                                    no goal, for scale

``python -m bench --only catan`` prints them alone.
"""

from __future__ import annotations

import time

from engine import registry


def _reducer_pass(game, logs) -> float:
    t0 = time.perf_counter()
    for log in logs:
        head = log[0]["data"]
        state = game.setup(tuple(head["players"]), head["options"])
        for e in log[1:]:
            state = game.apply(state, e["type"], e["seat"], e["data"])
    return time.perf_counter() - t0


def measure(games: int = 30, logs: int = 12, repeat: int = 3) -> list[tuple[str, str, str, str]]:
    import engine.catan  # noqa: F401  (registers the game)
    from engine.catan.simulate import play_game, simulate

    game = registry.get("catan")
    rows = []
    simulate(2, 4, ["random"], seed=99)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    summary = simulate(games, 4, ["random"], seed=2024)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    rows.append((
        "(c1) Catan: simulated random 4-player games/s",
        f"{games} games, {summary['finished']} finished, median {summary['events']['median']} events, {secs:.2f} s "
        f"({cpu:.2f} s of CPU: {games / cpu:.1f}/s on a core of its own)",
        f"{games / secs:.1f}/s",
        "≥ 50/s",
    ))
    recorded = [play_game(4, ["random"] * 4 if i % 2 else ["greedy"] * 4, 500 + i, keep_log=True)["log"]
                for i in range(logs)]
    events = sum(len(log) - 1 for log in recorded)
    best = min(_reducer_pass(game, recorded) for _ in range(repeat))
    rows.append((
        "(c2) Catan: replayed events/s through the reducer",
        f"{events:,} events, {len(recorded)} logs (4 players, random and greedy), {best:.3f} s",
        f"{events / best:,.0f}/s",
        "—",
    ))
    states = []
    for log in recorded[:4]:
        head = log[0]["data"]
        state = game.setup(tuple(head["players"]), head["options"])
        for e in log[1:]:
            state = game.apply(state, e["type"], e["seat"], e["data"])
            states.append(state)
    actors = [next((a for a in game.actors(s) if isinstance(a, int)), None) for s in states]
    t0 = time.perf_counter()
    moves = 0
    for s, seat in zip(states, actors):
        if seat is not None:
            moves += len(game.legal_moves(s, seat))
    secs = time.perf_counter() - t0
    calls = sum(1 for a in actors if a is not None)
    rows.append((
        "(c3) Catan: legal-move generation per call",
        f"{calls:,} calls, {moves / max(calls, 1):.1f} moves each, {secs:.3f} s",
        f"{secs / max(calls, 1) * 1e6:.0f} µs/call",
        "—",
    ))
    return rows


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
