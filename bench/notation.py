"""The text notation (``engine.notation``), on a 1,000-event match.

(n1) import: parse + validate (every event through ``engine.match``), events/s
(n2) import through the service: (n1) plus sealing and the one atomic
     create in Redis, events/s
(n3) export: the log written as text, events/s

The match is a simulated 4-player Troubadour game (greedy bots) cut at its
first 1,000 events. Nothing is asserted; ``python -m bench --only notation``
prints these rows alone.
"""

from __future__ import annotations

import time
import uuid

EVENTS = 1_000


def _log(events: int = EVENTS) -> list[dict]:
    from engine.troubadour.simulate import play_game

    for seed in range(100):
        log = play_game(4, ["greedy"] * 4, 4_000 + seed, keep_log=True)["log"]
        if len(log) > events:
            return log[: events + 1]
    raise RuntimeError(f"no simulated Troubadour game reached {events} events")


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def measure(repeat: int = 5) -> list[tuple[str, str, str, str]]:
    import redis

    from bench import bench_redis
    from engine import notation as N
    from replays import EventStore
    from service.matches import MatchService

    log = _log()
    events = len(log) - 1
    text = N.write(log)
    N.read(text)  # warm-up
    rows = []
    read = _best(lambda: N.read(text), repeat)
    rows.append(("(n1) notation import: parse + validate", f"{events:,} events, {len(text):,} characters, "
                 f"{read * 1e3:.1f} ms", f"{events / read:,.0f} events/s", "printed, no goal"))
    with bench_redis() as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        svc = MatchService(EventStore(client, prefix))
        try:
            svc.import_notation(text, "bench")
            full = _best(lambda: svc.import_notation(text, "bench"), repeat)
        finally:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.delete(*keys[i:i + 500])
            client.close()
    rows.append(("(n2) notation import through the service (+ seal, one atomic create in Redis)",
                 f"{events:,} events, {full * 1e3:.1f} ms", f"{events / full:,.0f} events/s", "printed, no goal"))
    write = _best(lambda: N.write(log), repeat)
    rows.append(("(n3) notation export: the log written as text", f"{events:,} events, {write * 1e3:.1f} ms",
                 f"{events / write:,.0f} events/s", "printed, no goal"))
    return rows


if __name__ == "__main__":
    from rich.table import Table

    from bench import console

    table = Table(title="Notation")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in measure():
        table.add_row(*row)
    console().print(table)
