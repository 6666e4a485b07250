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
(c4) snapshot bytes per event of one long match (needs Redis: ``bench_redis``):
     a simulated 4-player match whose seats roll, discard, move the robber
     to steal from someone and end their turn, building nothing after the
     set-up, so that it never ends and its steals go on (one every 20
     events or so); its states are snapshotted as the service does (every
     256 events, ``EventStore.save_snapshot`` of ``engine.match.encode``,
     pruned as they are written) and Redis' own count of the snapshot keys
     (``MEMORY USAGE``) divided by the events, at 1,000, 10,000 and 100,000
     events: 100,000 ÷ 1,000                            goal: flat (≤ 1.2)
     with the time of one snapshot's write (the Redis script and its
     compression; ``encode`` beside it) at each length.

Figures (c1)–(c3) are CPU time of this process (``time.process_time``) next to the
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


def _passive(game, s, seat: int, rng):
    """(c4)'s seats: the set-up as the greedy bot plays it, then only rolls,
    discards, robber moves (onto someone to steal from, where there is one)
    and the end of the turn: the match never ends."""
    from engine.catan.bots import greedy_bot
    from engine.catan.game import SETUP_R, SETUP_S

    if s.phase in (SETUP_S, SETUP_R):
        return greedy_bot(game, s, seat, rng)
    moves = [m for m in game.legal_moves(s, seat) if m.type in ("roll", "discard", "move_robber", "end_turn")]
    robbing = [m for m in moves if m.type == "move_robber" and m.data.get("victim") is not None]
    return rng.choice(robbing or moves)


def measure_snapshots(lengths: tuple[int, ...] = (1_000, 10_000, 100_000), every: int = 256, seed: int = 7
                      ) -> list[tuple[str, str, str, str]]:
    """(c4): see the module docstring."""
    import random
    import statistics
    import uuid

    import redis

    from bench import bench_redis
    from engine import match as M
    from engine.simulation import Table
    from replays import EventStore

    setup = M.make_setup("catan", ["Ann", "Bob", "Cor", "Dirk"], {}, "simulated", seed)
    table = Table(setup, keep_log=False)
    rng = random.Random(seed)
    rows = []
    with bench_redis("bench-catan-snapshots") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        store = EventStore(client, prefix)
        mid = "long"
        figures: dict[int, tuple[int, float, float, int, int]] = {}
        saves: list[tuple[float, float]] = []
        todo = list(lengths)
        try:
            while todo:
                before = table.ms.seq
                seat = next(a for a in table.game.actors(table.state) if isinstance(a, int))
                move = _passive(table.game, table.state, seat, rng)
                table.enter(move.type, move.seat, move.data)
                ms = table.ms
                if ms.seq // every != before // every:  # as the service: a snapshot per 256 events
                    t0 = time.perf_counter()
                    encoded = M.encode(ms)
                    t1 = time.perf_counter()
                    store.save_snapshot(mid, ms.seq, f"{ms.seq:064x}", encoded)
                    saves.append((t1 - t0, time.perf_counter() - t1))
                if ms.seq >= todo[0]:
                    size = sum(client.memory_usage(k, samples=0) or 0
                               for k in client.scan_iter(match=f"{store.key(mid, 'snap')}*"))
                    kept = client.zcard(store.key(mid, "snapi")) + client.zcard(store.key(mid, "snap"))
                    last = saves[-5:]
                    figures[todo.pop(0)] = (size, statistics.median(e for e, _ in last),
                                            statistics.median(w for _, w in last), ms.seq, kept)
        finally:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.delete(*keys[i:i + 500])
            client.close()
    sevens = table.state.hist[7 - 2]  # each a robber move onto someone to steal from, nearly always
    first, last = lengths[0], lengths[-1]
    per = {n: figures[n][0] / figures[n][3] for n in lengths}
    rows.append((
        f"(c4) Catan: snapshot bytes per event of one long match, at {last:,} ÷ at {first:,} events",
        ", ".join(f"{n:,}: {per[n]:,.1f} B ({figures[n][0] / 1024:,.0f} KiB in {figures[n][4]} snapshots)"
                  for n in lengths)
        + f"; {sevens:,} sevens rolled in {table.ms.seq:,} events",
        f"{per[last] / per[first]:.2f}", "flat (≤ 1.2)"))
    rows.append((
        "(c4) Catan: one snapshot's write (Redis script and compression; encode beside it), median of the last 5",
        ", ".join(f"{n:,}: {figures[n][2] * 1000:.1f} ms (encode {figures[n][1] * 1000:.1f} ms)" for n in lengths),
        f"{figures[last][2] / figures[first][2]:.2f}", "—"))
    return rows


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
    return rows + measure_snapshots()


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
