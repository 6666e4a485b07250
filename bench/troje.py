"""Troje (catan-troje) speed figures, measured on one core (no Redis needed).

A "game" here is a 4-player Troje game on the shipped placeholder board with
the default options, played to its end (the war's end or 15 VP): each move
goes through the reducer's rule checks and per-viewer hand tracking (the
support stack included), and every chance outcome (decision cards, dice,
ship tiles, blind draws, battles, steals) is drawn by the game from the
seeded RNG that a simulated match records.

(t1) random-bot 4-player games per second of CPU, on the engine's own loop
     (``engine_only``: no ``engine.match`` undo stack or schema checks; the
     same games, event for event, as through ``engine.match``, which the
     tests check); every bot draws uniformly among all legal moves
                                                        no goal, for scale
(t1g) the same with greedy bots (Catan's greedy building, donations of
     their own side's cards, ships)                     no goal, for scale
(t2) events per CPU second replaying recorded game logs through the reducer
     (``Game.apply`` on each logged event, from the setup on; random and
     greedy games, 4 and 6 players)                     no goal, for scale

Figures are CPU time of this process (``time.process_time``) next to the
wall clock and the machine's 1-minute load average: on a shared machine the
CPU figure is the one-core figure.

``python -m bench --only troje`` prints them alone.
"""

from __future__ import annotations

import os
import time

from engine import registry


def _reducer_pass(game, logs) -> float:
    """CPU seconds to replay ``logs`` through the reducer (the setup, then ``apply`` per event)."""
    c0 = time.process_time()
    for log in logs:
        head = log[0]["data"]
        state = game.setup(tuple(head["players"]), head["options"])
        for e in log[1:]:
            state = game.apply(state, e["type"], e["seat"], e["data"])
    return time.process_time() - c0


def measure(games: int = 30, logs: int = 12, repeat: int = 3) -> list[tuple[str, str, str, str]]:
    import engine.troje  # noqa: F401  (registers the game)
    from engine.troje.simulate import play_game, simulate

    game = registry.get("catan-troje")
    rows = []
    simulate(2, 4, ["random"], seed=99, engine_only=True)  # warm-up
    for strategy, label in (("random", "(t1) Troje: random-bot 4-player games/s, engine's own loop"),
                            ("greedy", "(t1g) Troje: greedy-bot 4-player games/s, engine's own loop")):
        load = os.getloadavg()[0]
        t0, c0 = time.perf_counter(), time.process_time()
        summary = simulate(games, 4, [strategy], seed=2024, engine_only=True)
        secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        ended = ", ".join(f"{k} {v}" for k, v in summary["ended"].items())
        rows.append((
            label,
            f"{games} games ({strategy} bots), {summary['finished']} finished ({ended}), median "
            f"{summary['events']['median']} events, {summary['battles']['median']} battles; "
            f"{cpu:.2f} s of CPU, {secs:.2f} s wall ({games / secs:.1f}/s), load {load:.1f}",
            f"{games / cpu:.1f}/s",
            "—",
        ))
    recorded = []
    for i in range(logs):
        players = 4 if i % 4 < 2 else 6
        recorded.append(play_game(players, ["random" if i % 2 else "greedy"] * players, 700 + i,
                                  keep_log=True)["log"])
    events = sum(len(log) - 1 for log in recorded)
    best = min(_reducer_pass(game, recorded) for _ in range(repeat))
    rows.append((
        "(t2) Troje: replayed events/s through the reducer",
        f"{events:,} events, {len(recorded)} logs (4 and 6 players, random and greedy), best of {repeat}: "
        f"{best:.3f} s of CPU",
        f"{events / best:,.0f}/s",
        "—",
    ))
    return rows


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
