"""``make bench``: speed goals as ratios measured in one run on one Redis.

(a) validated appends/s through the service layer ÷ raw single-connection
    XADD/s                                             goal ≥ 0.6
    (the service validates, hashes and appends; rendering the answer's
    public view is the HTTP layer's work, measured in (d))
(b) cost of one append at log length 10,000 ÷ at 10    goal ≤ 1.2
(c) time of state?at=N at N = 10,000 ÷ at N = 10       goal ≤ 2
    (each on a process that has not seen the match: its first read
    replays from the snapshot below N and keeps a checkpoint every 16 steps,
    the next ones replay from those)
(d) HTTP appends/s with the production server (gunicorn, 2 gevent workers), 8 keep-alive
    clients (wrk), ÷ a bare Flask endpoint doing one XADD with the same
    server settings, in the same run                  goal ≥ 0.8,
    and the append's p99 ≤ max(15 ms, 1.5 × the bare endpoint's p99)
    with the server's and Redis' CPU per request, the load average and the
    clients' connections per worker process
    (bench/http_appends.py; ``python -m bench.http_appends`` runs it alone;
    ``python -m bench.append_profile`` shows where an append's CPU goes)
(e) Redis bytes per event by kind of key, live and after the verdicts, over
    HTTP (gunicorn and a worker as processes, 12 clients, the 8 games, half
    the moves with an Idempotency-Key) and through the service layer, and
    the RAM for a million matches of 100 events     goal ≤ 600 B live
    and of finished, compacted matches              goal ≤ 150 B finished
    (bench/bytes_per_event.py)
(r) reads in proportion to what they return: the review of the last 10
    events, the events after a seq, the state at a late and at an old step,
    in a log of 100,000 events ÷ of 100                goal ≤ 2
    (bench/reads.py)
(l) live fan-out over HTTP: 1,000 watchers of one match at 5,000 events and
    100 matches × 10 watchers: append → received p95   goal ≤ 250 ms,
    every event to every watcher; the appends' p99 while they listen ÷
    without                                           goal ≤ 1.5; the
    server's CPU per event at 5,000 events ÷ at 50    goal ≤ 1.5
    (bench/live.py)
(br) BraveRats solved exactly from the opening of the base game, of variant
    C and of variant F: CPU time, positions, mixed rounds, memory, the
    opening's value and mix (bench/braverats_table.py)
(bk) kroniek backup and kroniek restore of 1,000,000 events: events/s and each
    process's peak memory, and at a tenth of the events (bench/backup.py)
(l7) the Dutch system against bbpPairings on fresh seeds, 8 to 1,024 players
    (bench/swiss_fresh.py; needs BBP, a bbpPairings built from its source)

Redis: REDIS_URL if set, else a fresh embedded redis-server in a temporary
directory. Nothing here asserts a time; it prints what it measured.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import threading
import time
import uuid

import redis
from rich.table import Table

from bench import bench_redis, http_appends
from bench import console as bench_console
from replays import EventStore
from service.matches import MatchService

console = bench_console()

#: A round and its undo: a BraveRats match that can grow without end, so the
#: log-length goals can be measured on a real game's reducer.
ROUND = ("round", None, {"cards": ["spy", "prince"]})
UNDO = ("undo", None, {})


def timed(fn, repeat: int) -> float:
    t0 = time.perf_counter()
    for i in range(repeat):
        fn(i)
    return time.perf_counter() - t0


def raw_xadd_rate(client: redis.Redis, prefix: str, n: int) -> float:
    key = f"{prefix}:{{bench}}:raw"
    fields = {
        "seq": "2", "type": "round", "seat": "null", "data": '{"cards":["spy","prince"]}',
        "recorded_at": "2026-01-01T00:00:00.000Z", "recorded_by": "bench",
        "prev_hash": "0" * 64, "hash": "f" * 64,
    }
    secs = timed(lambda i: client.xadd(key, fields), n)
    client.delete(key)
    return n / secs


def grow(svc: MatchService, mid: str, length: int) -> None:
    """Append round/undo pairs until the log has at least ``length`` events
    and no round is in effect (so the next pair starts with a round)."""
    ms = svc.current(mid)
    while ms.seq < length or ms.depth:
        type_, seat, data = ROUND if ms.depth == 0 else UNDO
        svc.append(mid, type_, seat, data)
        ms = svc.current(mid)


def append_pairs(svc: MatchService, mid: str, n: int) -> float:
    def step(i: int) -> None:
        type_, seat, data = ROUND if i % 2 == 0 else UNDO
        svc.append(mid, type_, seat, data)

    return timed(step, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="appends for (a)")
    parser.add_argument("--long", type=int, default=10_000, help="the long log length for (b) and (c)")
    parser.add_argument("--http-seconds", type=int, default=4, help="seconds of each measured round of (d)")
    parser.add_argument("--http-rounds", type=int, default=5, help="rounds per server of (d), alternating")
    parser.add_argument("--only", choices=["core", *GAME_BENCHES], help="run one part only")
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str]] = []
    if args.only in (None, "core"):
        rows += core(args)
    for name, module in GAME_BENCHES.items():
        if args.only in (None, name):
            console.print(f"[bold]{name}[/bold] …")
            rows += importlib.import_module(module).measure()
    table = Table(title="Kroniek benchmarks (one run; ratios are measured within it)")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console.print(table)


#: Benchmark modules of the games, leagues and Merkle proofs, each with measure() -> rows.
GAME_BENCHES = {"troubadour": "bench.troubadour", "jogledor": "bench.jogledor", "leagues": "bench.leagues",
                "merkle": "bench.merkle", "ridder": "bench.ridder", "ridder_odds": "bench.ridder_odds",
                "workers": "bench.workers", "notation": "bench.notation", "web": "bench.web",
                "catan": "bench.catan", "troje": "bench.troje", "bytes": "bench.bytes_per_event",
                "reads": "bench.reads", "live": "bench.live",
                "braverats": "bench.braverats_table", "swiss": "bench.swiss_fresh", "backup": "bench.backup"}


def core(args: argparse.Namespace) -> list[tuple[str, str, str, str]]:
    """The event store and service goals (a)–(d), on one Redis."""
    with bench_redis() as url:
        return _core(args, url)


def _core(args: argparse.Namespace, url: str) -> list[tuple[str, str, str, str]]:
    client = redis.Redis.from_url(url, decode_responses=True)
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    store = EventStore(client, prefix)
    svc = MatchService(store)
    rows: list[tuple[str, str, str, str]] = []
    try:
        console.print(f"Redis: {url} ({client.info('server')['redis_version']}); Python {sys.version.split()[0]}")

        # (a) -------------------------------------------------------------
        # Batches of raw XADDs and of validated appends alternate, and the
        # medians are compared, so both sides see the same machine (a shared
        # VM's speed drifts within seconds).
        mid = svc.create_match("braverats", ["A", "B"])["id"]
        raw_xadd_rate(client, prefix, 2000)  # warm-up
        append_pairs(svc, mid, 2000)
        batch = 1000
        raw_times, append_times = [], []
        for _ in range(max(args.n // batch, 4)):
            raw_times.append(1 / raw_xadd_rate(client, prefix, batch))
            append_times.append(append_pairs(svc, mid, batch) / batch)
        raw = 1 / statistics.median(raw_times)
        validated = 1 / statistics.median(append_times)
        rows.append(("(a) validated appends/s ÷ raw XADD/s, one client (interleaved batches, medians)",
                     f"{validated:,.0f} / {raw:,.0f}", f"{validated / raw:.2f}", "≥ 0.6"))

        # Round trips per append, counted where the client sends them (the
        # server's own count would include the calls inside the script): the
        # client's commands and pipelines, and the commands the store sends on
        # its own lent connections (replays.connection).
        sent = [0]
        send = client.execute_command
        make_pipeline = client.pipeline
        own = store.send

        def counting(*a, **k):
            sent[0] += 1
            return send(*a, **k)

        def counting_pipeline(*a, **k):  # a pipeline is one round trip
            pipe = make_pipeline(*a, **k)
            run = pipe.execute

            def execute(*ea, **ek):
                sent[0] += 1
                return run(*ea, **ek)

            pipe.execute = execute
            return pipe

        def counting_own(*a):
            sent[0] += 1
            return own(*a)

        client.execute_command = counting
        client.pipeline = counting_pipeline
        store.send = counting_own
        append_pairs(svc, mid, 6400)
        del client.execute_command
        del client.pipeline
        store.send = own
        rows.append(("(a) round trips to Redis per validated append", f"{sent[0]:,} for 6,400",
                     f"{sent[0] / 6400:.3f}", "1 (+1/64 for a snapshot)"))

        # Several recorders at once through one service (one process, threads).
        writers = 4
        mids = [svc.create_match("braverats", ["A", "B"])["id"] for _ in range(writers)]
        per = args.n // writers
        threads = [threading.Thread(target=append_pairs, args=(svc, m, per)) for m in mids]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        concurrent = writers * per / (time.perf_counter() - t0)
        rows.append((f"(a) validated appends/s with {writers} writers ÷ raw XADD/s", f"{concurrent:,.0f} / {raw:,.0f}",
                     f"{concurrent / raw:.2f}", "≥ 0.6"))

        # (b) -------------------------------------------------------------
        k = 2000
        short = svc.create_match("braverats", ["A", "B"])["id"]
        long_ = svc.create_match("braverats", ["A", "B"])["id"]
        grow(svc, short, 10)
        grow(svc, long_, args.long)
        t_short = statistics.median(append_pairs(svc, short, k) for _ in range(3)) / k
        t_long = statistics.median(append_pairs(svc, long_, k) for _ in range(3)) / k
        rows.append((f"(b) append at length {args.long:,} ÷ at 10", f"{t_long * 1e6:.0f} µs / {t_short * 1e6:.0f} µs",
                     f"{t_long / t_short:.2f}", "≤ 1.2"))

        # (c) -------------------------------------------------------------
        reps = 300

        def state_at(match_id: str, at: int) -> float:
            fresh = MatchService(store)  # no cache: snapshot + tail from Redis
            fresh.current(match_id)
            return timed(lambda i: fresh.state_at(match_id, at), reps) / reps

        t10 = statistics.median(state_at(long_, 10) for _ in range(3))
        tN = statistics.median(state_at(long_, args.long) for _ in range(3))
        tN1 = statistics.median(state_at(long_, args.long - 1) for _ in range(3))
        worst = max(tN, tN1)
        rows.append((f"(c) state?at={args.long:,} ÷ at=10", f"{worst * 1e3:.2f} ms / {t10 * 1e3:.2f} ms",
                     f"{worst / t10:.2f}", "≤ 2"))

        # (d) -------------------------------------------------------------
        rows += http_appends.measure(url, prefix, args.http_seconds, args.http_rounds)
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000)) + list(client.scan_iter(match=f"rq:*{prefix}*"))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i:i + 500])
        client.close()
    return rows


if __name__ == "__main__":
    main()
