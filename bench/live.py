"""(l) Live fan-out over HTTP (issue 36): ``kroniek serve`` (gunicorn, 2
gevent workers) on one Redis, watchers of ``GET /api/matches/<id>/stream``
in a client process of their own, appends over HTTP from this one.

- (l1) one match with ``--watchers`` (1,000) watchers at ``--events``
  (5,000) events: append → received, p50/p95/max over every watcher and
  event, and whether every watcher got every event once, in order;
- (l2) ``--matches`` (100) matches with ``--per-match`` (10) watchers each,
  the appends going round the matches: the same figures;
- (l3) the appends' own latency (p99) while the watchers of (l1) listen ÷
  the same appends to a match of the same length that nobody watches;
- (l4) the server's CPU per event (its gunicorn workers', from ``/proc``) at
  ``--events`` ÷ at 50 events, each with the watchers of (l1) listening.

The watchers are a quarter each the public view, seat 0's, seat 1's and
the referee's (a recorder's token), all of a BraveRats match grown by
round/undo pairs through the service layer; each starts after the log's
head (``Last-Event-ID``), as a page that has read the log does. The client
(``python -m bench.live --watch``, asyncio over plain sockets, HTTP/1.0 so
that each stream is the raw bytes until the server closes it) stamps each
frame with the system-wide monotonic clock when it arrives; the appender
stamps each append when it sends it. Appends go at ``--rate`` a second, one
at a time on one keep-alive connection. Streams are held open for the whole
run (``wait=300``, the server's ``KRONIEK_STREAM_SECONDS`` raised to it; a watcher whose
stream ends reconnects at once with ``Last-Event-ID``, and the reconnects
are counted). On this machine the client shares the 2 cores with the server,
Redis and everything else: the figures include its own delay in reading
1,000 sockets. Nothing here asserts a time.

``python -m bench.live [--watchers N] [--events N] …`` prints these alone.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

#: what each quarter of the watchers asks for
VIEWS = ("", "&seat=0", "&seat=1", "&seat=referee")
BODIES = (b'{"type": "round", "data": {"cards": ["spy", "prince"]}}', b'{"type": "undo", "data": {}}')
#: seconds a watcher's stream may stay open (the most ``wait`` takes; the server's cap is raised to it)
STREAM_SECONDS = 300


# -- the watchers' process -----------------------------------------------------------
async def _watch(host: str, port: int, spec: dict[str, Any], out: dict[str, Any], ready: asyncio.Event,
                 stop: asyncio.Event) -> None:
    last = spec["last"]
    got: list[tuple[int, float]] = out["got"]
    first = True
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        except OSError as exc:
            out["errors"].append(f"connect: {exc}")
            await asyncio.sleep(0.2)
            continue
        auth = f"Authorization: Bearer {spec['token']}\r\n" if spec["token"] else ""
        writer.write((f"GET /api/matches/{spec['match']}/stream?wait={STREAM_SECONDS}{spec['view']} HTTP/1.0\r\n"
                      f"Host: bench\r\n{auth}Last-Event-ID: {last}\r\n\r\n").encode())
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 200") and not head.startswith(b"HTTP/1.0 200"):
                out["errors"].append(head.split(b"\r\n", 1)[0].decode())
                out["failed"] = True
                ready.set()
                return
            buf = b""
            while True:
                chunk = await reader.read(1 << 16)
                now = time.monotonic()
                if not chunk:
                    break
                buf += chunk
                while (end := buf.find(b"\n\n")) >= 0:
                    frame, buf = buf[:end], buf[end + 2:]
                    if frame.startswith(b"id: "):
                        seq = int(frame[4:frame.index(b"\n")])
                        got.append((seq, now))
                        last = seq
                    elif frame.startswith(b"retry:") and first:
                        first = False
                        out["ready"] = True
                        ready.set()
        except (OSError, asyncio.IncompleteReadError) as exc:
            out["errors"].append(f"read: {exc!r}")
        finally:
            writer.close()
        if not stop.is_set():
            out["reconnects"] += 1


async def _watch_all(spec: dict[str, Any]) -> dict[str, Any]:
    host, port = spec["host"].split(":")
    outs = [{"got": [], "errors": [], "reconnects": 0, "ready": False, "failed": False} for _ in spec["watchers"]]
    stop = asyncio.Event()
    tasks = []
    for i, w in enumerate(spec["watchers"]):
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(_watch(host, int(port), w, outs[i], ready, stop)))
        if i % 50 == 49:  # connect in waves, as a crowd arriving, not all in one instant
            await asyncio.sleep(0.05)
    deadline = time.monotonic() + spec["connect_seconds"]
    while not all(o["ready"] or o["failed"] for o in outs) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    ready_count = sum(o["ready"] for o in outs)
    print(f"READY {ready_count}", flush=True)
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)  # END {match: final seq}
    finals = json.loads(line.split(" ", 1)[1])
    deadline = time.monotonic() + spec["drain_seconds"]
    while time.monotonic() < deadline:
        if all(o["got"] and o["got"][-1][0] >= finals[w["match"]] for o, w in zip(outs, spec["watchers"])):
            break
        await asyncio.sleep(0.05)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"watchers": [{"got": o["got"], "errors": o["errors"][:3], "reconnects": o["reconnects"]} for o in outs],
            "cpu": time.process_time()}


def watch_main() -> None:
    spec = json.loads(sys.stdin.readline())
    result = asyncio.run(_watch_all(spec))
    sys.stdout.write("RESULT " + json.dumps(result) + "\n")
    sys.stdout.flush()


class Watchers:
    """The watchers' process: started with their specs, READY once each has its stream open."""

    def __init__(self, host: str, watchers: list[dict[str, Any]], connect_seconds: float = 300) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.live", "--watch"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.watchers = watchers
        self.proc.stdin.write(json.dumps({"host": host, "watchers": watchers, "connect_seconds": connect_seconds,
                                          "drain_seconds": 180}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line.startswith("READY"):
            raise RuntimeError(f"the watchers did not start: {line!r}")
        self.ready = int(line.split()[1])

    def finish(self, finals: dict[str, int]) -> list[dict[str, Any]]:
        self.proc.stdin.write("END " + json.dumps(finals) + "\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            if line.startswith("RESULT "):
                self.proc.wait(timeout=30)
                result = json.loads(line[len("RESULT "):])
                self.cpu = result["cpu"]
                return result["watchers"]
        raise RuntimeError("the watchers' process ended without its result")


# -- appends --------------------------------------------------------------------------
class Appender:
    """Appends over one keep-alive connection, a round and then its undo per match."""

    def __init__(self, host: str, token: str) -> None:
        self.conn = http.client.HTTPConnection(host, timeout=60)
        self.token = token
        self.next: dict[str, int] = {}

    def append(self, match: str) -> tuple[int, float, float]:
        """(seq, sent at, latency)"""
        body = BODIES[self.next.get(match, 0)]
        sent = time.monotonic()
        self.conn.request("POST", f"/api/matches/{match}/events", body=body, headers={
            "Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        resp = self.conn.getresponse()
        raw = resp.read()
        took = time.monotonic() - sent
        if resp.status != 201:
            raise RuntimeError(f"append failed: {resp.status} {raw[:300]!r}")
        answer = json.loads(raw)
        self.next[match] = 1 if answer["appended"][-1]["type"] == "round" else 0
        return answer["latest_seq"], sent, took

    def paced(self, matches: list[str], count: int, rate: float) -> list[tuple[str, int, float, float]]:
        out = []
        start = time.monotonic()
        for i in range(count):
            due = start + i / rate
            if (wait := due - time.monotonic()) > 0:
                time.sleep(wait)
            match = matches[i % len(matches)]
            seq, sent, took = self.append(match)
            out.append((match, seq, sent, took))
        return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p / 100 * len(values))) - 1))] if values else float("nan")


def delivered(results: list[dict[str, Any]], watchers: list[dict[str, Any]],
              appends: list[tuple[str, int, float, float]]) -> dict[str, Any]:
    """Latencies of every (watcher, appended event) and whether each watcher got every event once, in order."""
    sent = {(m, seq): t for m, seq, t, _ in appends}
    finals: dict[str, int] = {}
    for m, seq, _, _ in appends:
        finals[m] = max(finals.get(m, 0), seq)
    delays: list[float] = []
    complete = 0
    reconnects = 0
    errors: list[str] = []
    for w, r in zip(watchers, results):
        seqs = [s for s, _ in r["got"]]
        complete += seqs == list(range(w["last"] + 1, finals[w["match"]] + 1))
        reconnects += r["reconnects"]
        errors += r["errors"]
        for seq, t in r["got"]:
            # an append of several events (none here) is stamped by its last; each seq a watcher got once
            if (w["match"], seq) in sent:
                delays.append(t - sent[w["match"], seq])
    return {"delays": delays, "complete": complete, "reconnects": reconnects, "errors": errors}


# -- the measurement ------------------------------------------------------------------
def measure(url: str | None = None, watchers: int = 1000, events: int = 5000, matches: int = 100,
            per_match: int = 10, match_events: int = 1000, appends: int = 100, rate: float = 5.0,
            parts: str = "1234", server_source: str | None = None, dump: str | None = None
            ) -> list[tuple[str, str, str, str]]:
    """``server_source``: serve the code of another checkout (a folder holding ``service/``), for figures of
    the code before a change beside those after it, in the same setting. ``dump``: write every run's
    deliveries to ``<dump>.<watchers>x<matches>.<a match's seq>.json``."""
    from bench import bench_redis

    if url is None:
        with bench_redis("live") as fresh:
            return measure(fresh, watchers, events, matches, per_match, match_events, appends, rate, parts,
                           server_source, dump)
    import redis

    from bench.http_appends import server, workers_cpu
    from replays import EventStore
    from service.accounts import Accounts
    from service.matches import MatchService

    prefix = f"bench-live-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix,
           "KRONIEK_STREAM_SECONDS": str(STREAM_SECONDS)}
    if server_source:  # its modules first: ``python -m`` puts the working directory first on the path
        env["PYTHONPATH"] = server_source = os.path.abspath(server_source)
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # nothing written into the other checkout
    client = redis.Redis.from_url(url, decode_responses=True)
    svc = MatchService(EventStore(client, prefix))
    _, token = Accounts(client, prefix).add_user(f"bench-live-{uuid.uuid4().hex[:6]}")
    rows: list[tuple[str, str, str, str]] = []

    def new_match(length: int) -> str:
        conn = http.client.HTTPConnection(host, timeout=30)
        conn.request("POST", "/api/matches", body=b'{"game": "braverats", "players": ["A", "B"]}',
                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        mid = json.loads(resp.read())["id"]
        conn.close()
        ms = svc.current(mid)
        while ms.seq < length or ms.depth:  # ends after an undo: the next append is a round
            svc.append(mid, *(("round", None, {"cards": ["spy", "prince"]}) if ms.depth == 0 else ("undo", None, {})))
            ms = svc.current(mid)
        return mid

    def specs(mids: list[str], each: int) -> list[dict[str, Any]]:
        out = []
        for mid in mids:
            head = svc.current(mid).seq
            for i in range(each):
                view = VIEWS[i % len(VIEWS)]
                out.append({"match": mid, "view": view, "token": token if view else "", "last": head})
        return out

    def watched_run(mids: list[str], each: int, count: int) -> dict[str, Any]:
        """Watchers on ``mids``, then ``count`` paced appends going round them: delivery, append latency, CPU."""
        spec = specs(mids, each)
        crowd = Watchers(host, spec)
        settle()  # every stream past its start, waiting
        cpu0 = workers_cpu(host.pid)
        done = Appender(host, token).paced(mids, count, rate)
        cpu = workers_cpu(host.pid) - cpu0
        finals = {m: max(s for mm, s, _, _ in done if mm == m) for m in mids}
        results = crowd.finish(finals)
        # The server notices a closed stream only when a write to it fails, the second after the client
        # went: two more events each (not measured) let the streams of this run go, so that they hold none
        # of the next run's connections (a worker serves 1,000 at most).
        after = Appender(host, token)
        for _ in range(2):
            for m in mids:
                after.append(m)
            time.sleep(0.5)
        settle()
        if dump:  # every delivery, for a closer look
            with open(f"{dump}.{len(spec)}x{len(mids)}.{svc.current(mids[0]).seq}.json", "w") as out:
                json.dump({"spec": spec, "results": results, "appends": done}, out)
        return {**delivered(results, spec, done), "appends": [t for *_, t in done], "cpu": cpu / count,
                "ready": crowd.ready, "watchers": len(spec), "client_cpu": crowd.cpu}

    def settle(most: float = 20) -> None:
        """Until the server is idle (its workers use under a tenth of a core for half a second): the
        streams a run opened have started, those it left have gone, and neither is counted in the next."""
        deadline = time.monotonic() + most
        while time.monotonic() < deadline:
            cpu0 = workers_cpu(host.pid)
            time.sleep(0.5)
            if workers_cpu(host.pid) - cpu0 < 0.05:
                return

    def quiet_run(mid: str, count: int) -> dict[str, Any]:
        cpu0 = workers_cpu(host.pid)
        done = Appender(host, token).paced([mid], count, rate)
        return {"appends": [t for *_, t in done], "cpu": (workers_cpu(host.pid) - cpu0) / count}

    def fanout_row(label: str, run: dict[str, Any]) -> tuple[str, str, str, str]:
        d = run["delays"]
        note = f"; {run['reconnects']} reconnects" if run["reconnects"] else ""
        note += f"; errors: {run['errors'][:2]}" if run["errors"] else ""
        return (f"{label}: append → received over {len(d):,} deliveries ({run['ready']} of {run['watchers']} "
                f"streams open; {run['complete']} got every event once, in order; the watchers' process used "
                f"{run['client_cpu']:.1f} CPU-s{note})",
                f"p50 {statistics.median(d) * 1e3:.0f} ms, max {max(d) * 1e3:.0f} ms" if d else "none",
                f"p95 {pct(d, 95) * 1e3:.0f} ms" if d else "—", "p95 ≤ 250 ms, every event to every watcher")

    load0 = os.getloadavg()[0]
    try:
        with server(["service.cli", "serve"], env, cwd=server_source) as host:
            results: dict[str, Any] = {}
            if "1" in parts or "3" in parts or "4" in parts:
                busy = new_match(events)
                quiet = new_match(events)
                quiet_run(quiet, 10)  # warm-up: imports, connections, the match's state
                results["quiet"] = quiet_run(quiet, appends)
                results["one"] = watched_run([busy], watchers, appends)
                rows.append(fanout_row(f"(l1) 1 match, {watchers:,} watchers, {events:,} events, {rate:g} appends/s",
                                       results["one"]))
                if "3" in parts:
                    with_, without = pct(results["one"]["appends"], 99), pct(results["quiet"]["appends"], 99)
                    rows.append((f"(l3) append latency while {watchers:,} watch ÷ nobody watching ({appends} appends "
                                 f"each, {rate:g}/s)", f"p99 {with_ * 1e3:.1f} ms / {without * 1e3:.1f} ms",
                                 f"{with_ / without:.2f}", "≤ 1.5"))
                if "4" in parts:
                    short = new_match(50)
                    results["short"] = watched_run([short], watchers, appends)
                    at_long, at_short = results["one"]["cpu"], results["short"]["cpu"]
                    rows.append((f"(l4) server CPU per event with {watchers:,} watchers: at {events:,} events ÷ at 50",
                                 f"{at_long * 1e3:.1f} ms / {at_short * 1e3:.1f} ms", f"{at_long / at_short:.2f}",
                                 "≤ 1.5"))
                    rows.append(fanout_row(f"(l4) 1 match, {watchers:,} watchers, 50 events", results["short"]))
            if "2" in parts:
                mids = [new_match(match_events) for _ in range(matches)]
                results["many"] = watched_run(mids, per_match, max(appends, 2 * matches))
                rows.append(fanout_row(f"(l2) {matches} matches × {per_match} watchers, {match_events:,} events each, "
                                       f"{rate:g} appends/s round them", results["many"]))
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000)) + list(client.scan_iter(match=f"rq:*{prefix}*"))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i:i + 500])
        client.close()
    rows.append(("(l) load average during the live runs", f"{load0:.1f} → {os.getloadavg()[0]:.1f}",
                 f"{os.cpu_count()} CPUs", "—"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--watch", action="store_true", help="be the watchers' process (used by the bench)")
    parser.add_argument("--watchers", type=int, default=1000, help="(l1, l3, l4) watchers of one match")
    parser.add_argument("--events", type=int, default=5000, help="(l1, l3, l4) that match's length")
    parser.add_argument("--matches", type=int, default=100, help="(l2) matches")
    parser.add_argument("--per-match", type=int, default=10, help="(l2) watchers per match")
    parser.add_argument("--match-events", type=int, default=1000, help="(l2) each match's length")
    parser.add_argument("--appends", type=int, default=100, help="appends per run")
    parser.add_argument("--rate", type=float, default=5.0, help="appends per second")
    parser.add_argument("--parts", default="1234", help="which of l1–l4 to run (l3 and l4 need l1's run)")
    parser.add_argument("--server-source", default=None,
                        help="serve the code of this checkout instead (before/after figures in one setting)")
    parser.add_argument("--dump", default=None, help="write each run's deliveries to DUMP.<watchers>x<matches>.<seq>.json")
    args = parser.parse_args()
    if args.watch:
        watch_main()
        return

    from bench import print_table

    rows = measure(None, args.watchers, args.events, args.matches, args.per_match, args.match_events, args.appends,
                   args.rate, args.parts, args.server_source, args.dump)
    print_table("Kroniek live fan-out (one run)", rows)


if __name__ == "__main__":
    main()
