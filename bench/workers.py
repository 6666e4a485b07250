"""Workers: how soon a verdict comes, and how fast the analysis goes.

(w1) verdict latency per game: a burst of finished matches of every game,
     recorded one after another through the service with the API's wiring
     (a validation job queued with a 1 s delay), one ``kroniek worker``
     (its two RQ workers: validation; validation then analysis); latency = from the last append of a match to its
     ``validation`` ≠ pending. p50 and p99 per game; goal p99 ≤ 5 s for
     every game, Sir Tommy included (its analysis is another job now).
(w2) analysis throughput per game: the same matches' analysis jobs, as the
     job records them (seconds per match, events per second).
(w3) a live match's verdict after each move: a 2-player Troubadour game
     (~800 events) recorded move by move and validated after every move,
     once from the worker's checkpoint and once from seq 1 (the whole log
     replayed, as before checkpoints): the CPU of all those verdicts, and
     the median of the last 20, as ratios.
(w4) a verdict after one more move of a long match: BraveRats rounds and
     their undos recorded through the service to 1,000 and to 100,000
     events, one verdict of the whole log each (the worker's first), then a
     move and its verdict, 25 times, the two logs in turn: the median
     verdict (wall clock, its reads and writes to Redis included) at
     100,000 ÷ at 1,000, goal ≤ 2.
     The first verdict of each log is shown beside it, for scale.

``python -m bench.workers [--matches N] [--live-only | --long-only]`` prints these alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

import redis

GAMES = ("braverats", "troubadour", "twaalven", "stapelen", "sir_tommy")
#: The server secret of the bench's simulated matches: the bots' games are
#: played with it, and the bench's service is given it, so it draws what they drew.
SECRET = "be" * 32


def recorded_log(game: str, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished match's setup and log (setup first), played by bots."""
    if game == "troubadour":
        from engine.troubadour.simulate import play_game

        out = play_game(2, ["greedy", "greedy"], seed, keep_log=True, secret=SECRET)
        return out["log"][0]["data"], out["log"]
    from engine.jogledor.simulate import play_random

    rec = play_random(game, seed, mode="physical")
    return rec.setup, rec.log


def record(svc, setup: dict[str, Any], log: list[dict[str, Any]]) -> str:
    """Create the match and append its moves; chance events the service
    draws itself (simulated mode) are skipped. Returns the match id."""
    match = svc.create_match(setup["game"], setup["players"], setup["options"], mode=setup["mode"],
                             seed=setup.get("seed"))
    mid, seq = match["id"], match["seq"]
    while seq < len(log):
        event = log[seq]  # the event at seq + 1
        seq = svc.append(mid, event["type"], event["seat"], event["data"])["latest_seq"]
    return mid


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def measure(matches: int = 12, analysis_wait: float = 300.0) -> list[tuple[str, str, str, str]]:
    from bench import bench_redis
    from replays import EventStore
    from service.matches import MatchService
    from workers.queue import enqueue_validation

    logs = {game: [recorded_log(game, seed) for seed in range(matches)] for game in GAMES}
    rows: list[tuple[str, str, str, str]] = []
    with bench_redis("bench-workers") as url:
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix}
        saved = {k: os.environ.get(k) for k in ("REDIS_URL", "KRONIEK_QUEUE")}
        os.environ.update(REDIS_URL=url, KRONIEK_QUEUE=prefix)
        from workers import connection

        connection._cached.cache_clear()
        client = redis.Redis.from_url(url, decode_responses=True)
        store = EventStore(client, prefix)
        svc = MatchService(store, lambda m: enqueue_validation(prefix, m, 1.0), secret_source=lambda: SECRET)
        worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while client.get(f"rq:scheduler-lock:{prefix}") is None:
                if time.monotonic() > deadline:
                    raise RuntimeError("the worker did not start")
                time.sleep(0.1)
            finished_at: dict[str, float] = {}
            game_of: dict[str, str] = {}
            events: dict[str, int] = {}
            t_burst = time.monotonic()
            for i in range(matches):  # one match of each game in turn
                for game in GAMES:
                    setup, log = logs[game][i]
                    mid = record(svc, setup, log)
                    finished_at[mid], game_of[mid], events[mid] = time.monotonic(), game, len(log)
            burst = time.monotonic() - t_burst
            latency: dict[str, float] = {}
            deadline = time.monotonic() + 300
            while len(latency) < len(finished_at) and time.monotonic() < deadline:
                waiting = [m for m in finished_at if m not in latency]
                pipe = client.pipeline(transaction=False)
                for mid in waiting:
                    pipe.get(store.key(mid, "verdict"))
                now = time.monotonic()
                for mid, raw in zip(waiting, pipe.execute()):
                    if raw and json.loads(raw)["seq"] >= events[mid]:
                        latency[mid] = now - finished_at[mid]
                time.sleep(0.02)
            total = len(finished_at)
            rows.append((f"(w1) burst: {total} finished matches ({matches} per game), one kroniek worker",
                         f"recorded in {burst:.1f} s", f"{len(latency)}/{total} verdicts", "all"))
            for game in GAMES:
                lat = [latency[m] for m in latency if game_of[m] == game]
                missing = sum(1 for m in finished_at if game_of[m] == game and m not in latency)
                if not lat:
                    rows.append((f"(w1) verdict latency, {game}", "no verdict", f"{missing} missing", "p99 ≤ 5 s"))
                    continue
                rows.append((f"(w1) verdict latency, {game} (last append → validation ≠ pending)",
                             f"p50 {statistics.median(lat):.2f} s", f"p99 {_pct(lat, 0.99):.2f} s"
                             + (f", {missing} missing" if missing else ""), "p99 ≤ 5 s"))

            # (w2) the analysis jobs of the same matches
            solved = [m for m in finished_at if game_of[m] in ("twaalven", "stapelen", "sir_tommy")]
            deadline = time.monotonic() + analysis_wait
            records: dict[str, dict[str, Any]] = {}
            while len(records) < len(solved) and time.monotonic() < deadline:
                for mid in solved:
                    if mid not in records:
                        rec, _ = store.analysis(mid)
                        if rec is not None and rec["seq"] >= events[mid]:
                            records[mid] = rec
                time.sleep(0.5)
            for game in ("twaalven", "stapelen", "sir_tommy"):
                done = [m for m in records if game_of[m] == game]
                if not done:
                    rows.append((f"(w2) analysis, {game}", "none finished", f"within {analysis_wait:.0f} s", "—"))
                    continue
                secs = [records[m]["seconds"] for m in done]
                n_events = sum(events[m] for m in done)
                rows.append((f"(w2) analysis throughput, {game} ({len(done)} matches, "
                             f"{n_events / len(done):.0f} events each)",
                             f"{len(done) / sum(secs):.2f} matches/s, {n_events / sum(secs):.0f} events/s",
                             f"per match p50 {statistics.median(secs):.2f} s, max {max(secs):.2f} s", "—"))
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, 9)
                worker.wait()
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000)) + list(client.scan_iter(match=f"rq:*{prefix}*"))
            for i in range(0, len(keys), 500):
                client.delete(*keys[i:i + 500])
            client.close()
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
            connection._cached.cache_clear()
    return rows + measure_live_verdicts() + measure_long_verdicts()


def measure_live_verdicts(game_seed: int = 1) -> list[tuple[str, str, str, str]]:
    """(w3): see the module docstring."""
    from bench import bench_redis
    from replays import EventStore
    from service.matches import MatchService
    from workers.jobs import Checkpoints, validate_log

    setup, log = recorded_log("troubadour", game_seed)
    log = log[:-1]  # one move short of the end: a live match, as the verdicts of every move before
    with bench_redis("bench-live-verdicts") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefixes = [f"bench-{uuid.uuid4().hex[:8]}" for _ in range(2)]
        spent: list[float] = []
        last: list[float] = []  # the median of the last 20 verdicts' CPU
        try:
            for prefix, checkpoints in zip(prefixes, (Checkpoints(100_000), None)):
                store = EventStore(client, prefix)
                svc = MatchService(store, secret_source=lambda: SECRET)
                match = svc.create_match(setup["game"], setup["players"], setup["options"], mode=setup["mode"],
                                         seed=setup.get("seed"))
                mid, seq, times = match["id"], match["seq"], []
                while seq < len(log):
                    event = log[seq]
                    seq = svc.append(mid, event["type"], event["seat"], event["data"])["latest_seq"]
                    t0 = time.process_time()
                    verdict = validate_log(store, mid, checkpoints=checkpoints)
                    times.append(time.process_time() - t0)
                    assert verdict["status"] == "valid", verdict
                spent.append(sum(times))
                last.append(statistics.median(times[-20:]))
        finally:
            for prefix in prefixes:
                keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
                for i in range(0, len(keys), 500):
                    client.delete(*keys[i:i + 500])
            client.close()
    return [
        (f"(w3) a verdict after every move of a live Troubadour match ({len(log)} events), CPU: "
         "from the checkpoint ÷ from seq 1", f"{spent[0]:.2f} s / {spent[1]:.2f} s", f"{spent[0] / spent[1]:.2f}",
         "—"),
        (f"(w3) a verdict of one of its last 20 moves (median), CPU: from the checkpoint ÷ from seq 1",
         f"{last[0] * 1000:.1f} ms / {last[1] * 1000:.1f} ms", f"{last[0] / last[1]:.2f}", "—"),
    ]


def _round_or_undo(svc, mid: str) -> None:
    """A BraveRats round, or the undo of the one in effect: a match that can grow without end."""
    if svc.current(mid).depth == 0:
        svc.append(mid, "round", None, {"cards": ["spy", "prince"]})
    else:
        svc.append(mid, "undo", None, {})


def measure_long_verdicts(lengths: tuple[int, int] = (1_000, 100_000), moves: int = 25
                          ) -> list[tuple[str, str, str, str]]:
    """(w4): see the module docstring."""
    from bench import bench_redis
    from replays import EventStore
    from service.matches import MatchService
    from workers.jobs import CHECKPOINTS, validate_log

    first: dict[int, float] = {}
    with bench_redis("bench-long-verdicts") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        store = EventStore(client, prefix)
        svc = MatchService(store)
        try:
            mids = {}
            for length in lengths:
                mid = mids[length] = svc.create_match("braverats", ["A", "B"])["id"]
                while svc.current(mid).seq < length:
                    _round_or_undo(svc, mid)
                t0 = time.perf_counter()
                verdict = validate_log(store, mid, checkpoints=CHECKPOINTS)  # the worker's own checkpoints
                first[length] = time.perf_counter() - t0
                assert verdict["status"] == "valid", verdict
            times: dict[int, list[float]] = {length: [] for length in lengths}
            for _ in range(moves):  # the two logs in turn, so that both see the same machine
                for length, mid in mids.items():
                    _round_or_undo(svc, mid)
                    t0 = time.perf_counter()
                    verdict = validate_log(store, mid, checkpoints=CHECKPOINTS)
                    times[length].append(time.perf_counter() - t0)
                    assert verdict["status"] == "valid" and verdict["seq"] == svc.current(mid).seq, verdict
            after = {length: statistics.median(t) for length, t in times.items()}
        finally:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.delete(*keys[i:i + 500])
            client.close()
    short, long_ = lengths
    return [
        (f"(w4) the verdict after one more move, BraveRats at {long_:,} events ÷ at {short:,} "
         f"(median of {moves}, wall clock)", f"{after[long_] * 1000:.2f} ms / {after[short] * 1000:.2f} ms",
         f"{after[long_] / after[short]:.2f}", "≤ 2"),
        (f"(w4) for scale: the first verdict of each log (from seq 1), at {long_:,} and at {short:,} events",
         f"{first[long_]:.2f} s / {first[short] * 1000:.0f} ms", "—", "—"),
    ]


def main() -> None:
    from rich.table import Table

    from bench import console

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=12, help="finished matches per game in the burst")
    parser.add_argument("--live-only", action="store_true", help="only (w3), the live match's verdicts")
    parser.add_argument("--long-only", action="store_true", help="only (w4), the verdicts of a long match")
    args = parser.parse_args()
    table = Table(title="Workers (one kroniek worker)")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    rows = (measure_live_verdicts() if args.live_only else measure_long_verdicts() if args.long_only
            else measure(args.matches))
    for row in rows:
        table.add_row(*row)
    console().print(table)


if __name__ == "__main__":
    main()
