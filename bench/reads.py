"""(r) Reads in proportion to what they return (issue 36): the same small
read of a log of 100 events and of 100,000, through the service layer on
one Redis, in one run.

- the review of the last 10 events (``review?from=``),
- the events after a seq, the last 10 (``events?from=``, the public view),
- the state at a late step (``state?at=``, one of the last 200 steps, a
  different one each time, so no answer is simply remembered), and at an
  old one (around the log's middle, far from the snapshots kept near the
  head).

Each warm (the process has served the match before: its cache, its
checkpoints) and cold (a new ``MatchService``, as a process that has not
seen the match: its first read loads it from the nearest snapshot). The logs
are BraveRats round/undo pairs appended through the service (the one
BraveRats match that grows without end; half its events are undone, which is
what the undo marks are for). Nothing here asserts a time.

``python -m bench.reads [--long N]`` prints these alone.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from typing import Callable

import redis

from replays import EventStore
from service.matches import MatchService

ROUND = ("round", None, {"cards": ["spy", "prince"]})
UNDO = ("undo", None, {})


def grow(svc: MatchService, mid: str, length: int) -> None:
    ms = svc.current(mid)
    while ms.seq < length:
        svc.append(mid, *(ROUND if ms.depth == 0 else UNDO))
        ms = svc.current(mid)


def median_time(fn: Callable[[int], object], reps: int) -> float:
    times = []
    for i in range(reps):
        t0 = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(url: str | None = None, long: int = 100_000, short: int = 100, reps: int = 200) -> list[tuple[str, str, str, str]]:
    from bench import bench_redis

    if url is None:
        with bench_redis("reads") as fresh:
            return measure(fresh, long, short, reps)
    client = redis.Redis.from_url(url, decode_responses=True)
    prefix = f"bench-reads-{uuid.uuid4().hex[:8]}"
    store = EventStore(client, prefix)
    svc = MatchService(store)
    rows: list[tuple[str, str, str, str]] = []
    try:
        mids = {}
        for n in (short, long):
            mids[n] = svc.create_match("braverats", ["A", "B"])["id"]
            t0 = time.perf_counter()
            grow(svc, mids[n], n)
            if n == long:
                print(f"(r) grew a log of {n:,} events in {time.perf_counter() - t0:.1f} s")
        heads = {n: svc.current(mids[n]).seq for n in mids}

        def late(n: int, i: int) -> int:
            """One of the last 200 steps (of a short log: its second half), a different one each time."""
            span = min(200, heads[n] // 2)
            return heads[n] - 1 - (i * 37) % span

        def old(n: int, i: int) -> int:
            """One of 50 steps around the log's middle, a different one each time: far from any snapshot
            a long log keeps near its head."""
            return heads[n] // 2 - 25 + (i * 17) % 50

        reads: dict[str, Callable[[MatchService, int, int], object]] = {
            "review of the last 10 events": lambda s, n, i: s.review(mids[n], None, first=heads[n] - 9),
            "events after a seq (the last 10, public)": lambda s, n, i: s.events(mids[n], heads[n] - 9, None, None),
            "state at a late step": lambda s, n, i: s.state_at(mids[n], late(n, i)),
            "state at an old step (the log's middle)": lambda s, n, i: s.state_at(mids[n], old(n, i)),
        }
        for name, read in reads.items():
            figures = {}
            for n in (short, long):
                warm = MatchService(store)
                read(warm, n, reps)  # served once before: as a process that has shown this match
                figures[n, "warm"] = median_time(lambda i: read(warm, n, i), reps)
                figures[n, "cold"] = median_time(lambda i: read(MatchService(store), n, i), max(10, reps // 10))
            for kind in ("warm", "cold"):
                a, b = figures[long, kind], figures[short, kind]
                rows.append((f"(r) {name}, {kind}: log of {long:,} ÷ of {short:,} events",
                             f"{a * 1e3:.2f} ms / {b * 1e3:.2f} ms", f"{a / b:.2f}", "≤ 2" if kind == "warm" else "—"))
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i:i + 500])
        client.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long", type=int, default=100_000, help="the long log's length")
    parser.add_argument("--short", type=int, default=100, help="the short log's length")
    parser.add_argument("--reps", type=int, default=200, help="reads per figure (a tenth of them cold)")
    args = parser.parse_args()

    from bench import print_table

    rows = measure(None, args.long, args.short, args.reps)
    print_table("Kroniek reads (one run)", rows)


if __name__ == "__main__":
    main()
