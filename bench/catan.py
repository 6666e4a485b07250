"""Catan speed goals, measured on one core (no Redis needed).

A "game" here is a random 4-player base game on the standard board, played to
10 VP: every seat's bot draws uniformly among ALL the engine's legal moves
(``legal_moves``; not uniformly among kinds of move), each move goes through
the reducer's rule checks and per-viewer hand tracking (``Game.apply``), and
every chance outcome (dice, steals, development draws) is drawn by the game
from the seeded RNG that a simulated match records.

(c1) random 4-player games/s on the engine's own loop
     (``engine_only``: no ``engine.match``, so no undo stack and no
     JSON-schema checks; the same games, event for event, as (c1f), which
     the tests check)                                          goal ≥ 50/s
     (for scale: catanatron, full information, no per-viewer knowledge,
     about 33/s on one core in its own loop)
(c1f) the same games through ``engine.match`` as the server plays a
     simulated match: undo stack, and the server's chance draws checked
     against the event schemas and canonicalised       no goal, for scale
(c2) events/s replaying recorded game logs through the reducer
     (``Game.apply`` on each logged event, from the setup on)  no goal, for scale
(c3) legal-move generation: microseconds per ``legal_moves`` call over the
     states of recorded games                                    no goal, for scale

Figures are CPU time of this process (``time.process_time``) next to the
wall clock and the machine's 1-minute load average: on a shared machine the
CPU figure is the one-core figure.

``python -m bench --only catan`` prints them alone.
"""

from __future__ import annotations

import os
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
    simulate(2, 4, ["random"], seed=99, engine_only=True)  # warm-up
    for engine_only, label in ((True, "(c1) Catan: random 4-player games/s, engine's own loop"),
                               (False, "(c1f) Catan: the same games through engine.match")):
        load = os.getloadavg()[0]
        t0, c0 = time.perf_counter(), time.process_time()
        summary = simulate(games, 4, ["random"], seed=2024, engine_only=engine_only)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append((
            label,
            f"{games} games, {summary['finished']} finished, median {summary['events']['median']} events "
            f"(uniform over all legal moves; legal moves, apply, seeded chance draws"
            f"{'' if engine_only else ', undo stack, schema checks of the draws'}); "
            f"{cpu:.2f} s of CPU, {secs:.2f} s wall ({games / secs:.1f}/s), load {load:.1f}",
            f"{games / cpu:.1f}/s",
            "≥ 50/s" if engine_only else "—",
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
