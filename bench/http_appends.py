"""(d) HTTP appends: Kroniek's ``POST /api/matches/<id>/events`` against a
bare endpoint, in one run, on one Redis, with the same gunicorn settings.

- Kroniek: ``kroniek serve`` (gunicorn, 2 gevent worker processes);
  each client records its own BraveRats match as an ordinary user with a
  token (round, undo, round, undo …).
- Bare: a Flask endpoint at the same path that parses the JSON body and does
  one XADD, served by the same function with the same settings
  (``service.gunicorn_worker.serve_app``).
- The load: 8 keep-alive clients, each sending its next request when the
  answer came. ``wrk`` (Debian package ``wrk``, a compiled load generator)
  when it is installed, so the client costs far less than the server; else
  Python ``http.client`` threads in this process, and the table says so.

The two servers are measured in alternating rounds and the medians compared,
so both see the same machine; the append's p99 against its goal, the larger
of 15 ms and 1.5 × the bare endpoint's p99 in the same run, with each
round's figures (the spread between rounds is part of the answer). Each
round also shows how the 8 connections were spread over the worker
processes (a keep-alive connection stays with the process that took it),
and a server is measured only once all its workers have taken a connection. Beside the rates, the CPU time each server's
worker processes and the Redis server spent per request (read from
``/proc`` and Redis' ``INFO cpu`` around each round): on a machine shared
with other work the rate moves with the load, the CPU per request much less.
The load average is printed with the figures. Nothing here asserts a time.

``python -m bench.http_appends [--seconds S] [--rounds R]`` prints these alone.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Iterator

CLIENTS = 8
#: gunicorn worker processes of both servers (``kroniek serve``'s default)
WORKERS = 2
#: the append's p99 goal: at most the larger of these, in seconds and as a multiple of the bare endpoint's
P99_GOAL = 0.015
P99_GOAL_RATIO = 1.5
BODIES = (b'{"type": "round", "data": {"cards": ["spy", "prince"]}}', b'{"type": "undo", "data": {}}')

#: wrk's script: thread i records match i with the token: a round, then an
#: undo once the answer says a round went in (so a request wrk resends after a
#: reconnect cannot put the pair out of step); done() prints one JSON line.
WRK_SCRIPT = r"""
local counter = 0
function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
end
function init(args)
  path = "/api/matches/" .. args[index + 2] .. "/events"
  headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. args[1]}
  bodies = {round = '%s', undo = '%s'}
  nxt = "round"
end
function request()
  return wrk.format("POST", path, headers, bodies[nxt])
end
function response(status, headers, body)
  if status == 201 then
    nxt = string.find(body, '"type":"round"', 1, true) and "undo" or "round"
  elseif not bad then
    bad = status .. " " .. body
    io.stderr:write("BAD " .. bad .. "\n")
  end
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\nRESULT {"requests": %%d, "seconds": %%f, "p50_us": %%d, "p99_us": %%d, ' ..
    '"bad_status": %%d, "socket_errors": %%d}\n', summary.requests, summary.duration / 1e6,
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))
end
""" % (BODIES[0].decode(), BODIES[1].decode())


# -- the bare endpoint ----------------------------------------------------------------
def bare_app():
    """Flask: parse the JSON body, one XADD, answer 201 with the entry id."""
    from flask import Flask, jsonify, request

    from workers.connection import key_prefix, store_client

    app = Flask("bare")
    client, prefix = store_client(), key_prefix()

    @app.post("/api/matches/<match_id>/events")
    def append(match_id: str):
        body = request.get_json()
        entry = client.xadd(f"{prefix}:{{bare:{match_id}}}:log", {"event": json.dumps(body)})
        return jsonify({"match": match_id, "id": entry, "appended": [{"type": body["type"]}]}), 201

    return app


# -- servers --------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server(str):
    """A started server's ``host:port``; ``pid`` is its gunicorn master's."""

    pid: int


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _children(master: int) -> Iterator[tuple[int, list[str]]]:
    """The master's child processes (gunicorn's workers): pid and the fields
    of ``/proc/<pid>/stat`` after the command name (Linux)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended meanwhile
            continue
        fields = text[text.rindex(")") + 2:].split()  # after the command name, which may hold spaces
        if int(fields[1]) == master:  # ppid
            yield int(stat.parent.name), fields


def workers_cpu(master: int) -> float:
    """CPU seconds (user + system) the master's child processes (gunicorn's
    workers) have used, from ``/proc`` (Linux)."""
    return sum(int(f[11]) + int(f[12]) for _, f in _children(master)) / CLOCK_TICKS  # utime, stime


def worker_pids(master: int) -> list[int]:
    return sorted(pid for pid, _ in _children(master))


def connections_per_worker(port: int, pids: list[int]) -> dict[int, int]:
    """The open TCP connections to ``port`` each of these processes holds
    (``/proc/net/tcp`` and the processes' sockets; Linux, IPv4)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # local port; ESTABLISHED
            inodes.add(f"socket:[{fields[9]}]")
    held = {}
    for pid in pids:
        count = 0
        with contextlib.suppress(OSError):  # the process ended meanwhile
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    count += os.readlink(fd) in inodes
        held[pid] = count
    return held


def wait_serving(host: "Server", workers: int = WORKERS, timeout: float = 120) -> None:
    """Until every worker process of the server has taken a connection (so
    has loaded the app): a worker still importing it on a busy machine
    would leave all the connections of the first round to the other."""
    port = int(host.rsplit(":", 1)[1])
    deadline = time.monotonic() + timeout
    pids = worker_pids(host.pid)
    seen: set[int] = set()
    while len(pids) < workers or not seen >= set(pids):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the workers {sorted(set(pids) - seen)} of {host} took no connection")
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(65536)  # any answer: a worker holds this connection
            seen.update(pid for pid, n in connections_per_worker(port, pids).items() if n)
        pids = worker_pids(host.pid)
        time.sleep(0.05)


def redis_cpu(client: Any) -> float:
    """CPU seconds the Redis server has used (its ``INFO cpu``)."""
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


@contextlib.contextmanager
def server(args: list[str], env: dict[str, str], cwd: str | None = None) -> Iterator[Server]:
    """A gunicorn server started with ``python -m <args> --port P`` (in ``cwd``: whose modules it runs
    first); its base URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", *args, "--port", str(port)], env=env, cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"the server {' '.join(args)} did not start")
                time.sleep(0.1)
        host = Server(f"127.0.0.1:{port}")
        host.pid = proc.pid
        wait_serving(host)
        yield host
    finally:
        proc.terminate()
        proc.wait(timeout=15)


# -- clients --------------------------------------------------------------------------
def call(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, token: str) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    return resp.status, resp.read()


def new_matches(host: str, token: str, n: int) -> list[str]:
    conn = http.client.HTTPConnection(host, timeout=10)
    out = []
    for _ in range(n):
        status, raw = call(conn, "POST", "/api/matches", b'{"game": "braverats", "players": ["A", "B"]}', token)
        if status != 201:
            raise RuntimeError(f"creating a match failed: {status} {raw[:200]!r}")
        out.append(json.loads(raw)["id"])
    conn.close()
    return out


def wrk_load(host: str, token: str, matches: list[str], seconds: int, script: Path) -> dict[str, Any]:
    run = subprocess.run(
        ["wrk", "-t", str(len(matches)), "-c", str(len(matches)), "-d", f"{max(1, round(seconds))}s",
         "--timeout", "10s", "-s", str(script), f"http://{host}", "--", token, *matches],
        capture_output=True, text=True, timeout=seconds + 60,
    )
    if run.returncode:
        raise RuntimeError(f"wrk failed ({run.returncode}): {run.stderr or run.stdout}")
    out = run.stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    if result["bad_status"] or result["socket_errors"]:
        raise RuntimeError(f"wrk saw failed requests: {result}; {run.stderr.strip()[:500]}")
    return {"rate": result["requests"] / result["seconds"], "seconds": result["seconds"],
            "p50": result["p50_us"] / 1e6, "p99": result["p99_us"] / 1e6}


def python_load(host: str, token: str, matches: list[str], seconds: float) -> dict[str, Any]:
    """The fallback when wrk is missing: one keep-alive http.client
    connection per match, each in its own thread, for ``seconds``."""
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.perf_counter() + seconds
    failures: list[str] = []

    def run(match_id: str) -> None:
        conn = http.client.HTTPConnection(host, timeout=10)
        path, mine, body = f"/api/matches/{match_id}/events", [], BODIES[0]
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            status, raw = call(conn, "POST", path, body, token)
            mine.append(time.perf_counter() - t0)
            body = BODIES[1] if b'"type":"round"' in raw else BODIES[0]
            if status != 201:
                failures.append(f"{status} {raw[:200]!r}")
                break
        conn.close()
        with lock:
            latencies.extend(mine)

    from bench import run_threads

    elapsed = run_threads([threading.Thread(target=run, args=(m,)) for m in matches])
    if failures:
        raise RuntimeError(f"HTTP append failed: {failures[0]}")
    latencies.sort()
    return {"rate": len(latencies) / elapsed, "seconds": elapsed, "p50": latencies[len(latencies) // 2],
            "p99": latencies[max(0, int(len(latencies) * 0.99) - 1)]}


# -- the measurement ------------------------------------------------------------------
def measure(url: str, prefix: str, seconds: int = 4, rounds: int = 5) -> list[tuple[str, str, str, str]]:
    import redis

    from service.accounts import Accounts

    env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix}
    client = redis.Redis.from_url(url, decode_responses=True)
    _, token = Accounts(client, prefix).add_user(f"bench-recorder-{uuid.uuid4().hex[:6]}")
    wrk = shutil.which("wrk")
    tool = "wrk" if wrk else "Python http.client threads (wrk is not installed: apt-get install wrk)"
    with contextlib.ExitStack() as stack:
        kroniek = stack.enter_context(server(["service.cli", "serve"], env))
        bare = stack.enter_context(server(["bench.http_appends", "--serve-bare"], env))
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kroniek-wrk-")))
        script = tmp / "appends.lua"
        script.write_text(WRK_SCRIPT)
        hosts = {"kroniek": kroniek, "bare": bare}

        def load(name: str, secs: int) -> dict[str, Any]:
            """One round on fresh matches: every client starts with a round."""
            host = hosts[name]
            matches = new_matches(host, token, CLIENTS) if name == "kroniek" else [uuid.uuid4().hex[:16] for _ in range(CLIENTS)]
            cpu0, redis0 = workers_cpu(host.pid), redis_cpu(client)
            held: list[dict[int, int]] = []
            # how the clients' connections are spread over the worker processes, a second into the round
            probe = threading.Timer(min(1.0, secs / 2), lambda: held.append(
                connections_per_worker(int(host.rsplit(":", 1)[1]), worker_pids(host.pid))))
            probe.start()
            result = wrk_load(host, token, matches, secs, script) if wrk else python_load(host, token, matches, secs)
            probe.join()
            result["spread"] = "/".join(str(n) for n in sorted(held[0].values())) if held else "?"
            requests = result["rate"] * result["seconds"]
            result["cpu"] = (workers_cpu(host.pid) - cpu0) / requests
            result["redis_cpu"] = (redis_cpu(client) - redis0) / requests
            return result

        for name in hosts:  # warm-up: imports, connections, caches
            load(name, 1)
        load_before = os.getloadavg()[0]
        runs: dict[str, list[dict[str, Any]]] = {"kroniek": [], "bare": []}
        for _ in range(rounds):
            for name in hosts:
                runs[name].append(load(name, seconds))
        load_after = os.getloadavg()[0]
    client.close()

    def median(name: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[name])

    k_rate, b_rate = median("kroniek", "rate"), median("bare", "rate")
    ratios = sorted(k["rate"] / b["rate"] for k, b in zip(runs["kroniek"], runs["bare"]))
    setting = (f"gunicorn {WORKERS} gevent workers, {CLIENTS} keep-alive clients ({tool}), "
               f"{rounds}×{seconds:g} s each, medians; "
               f"load average {load_before:.1f} → {load_after:.1f} on {os.cpu_count()} CPUs")
    cpu_ratio = median("bare", "cpu") / median("kroniek", "cpu")
    k_p99, b_p99 = median("kroniek", "p99"), median("bare", "p99")
    p99_ratios = sorted(k["p99"] / b["p99"] for k, b in zip(runs["kroniek"], runs["bare"]))
    goal = max(P99_GOAL, P99_GOAL_RATIO * b_p99)

    def rounds_ms(name: str, key: str) -> str:
        return ", ".join(f"{r[key] * 1e3:.1f}" for r in runs[name])

    return [
        (f"(d) HTTP appends/s, Kroniek ÷ bare Flask + one XADD ({setting})",
         f"{k_rate:,.0f}/s / {b_rate:,.0f}/s", f"{k_rate / b_rate:.2f} (rounds {', '.join(f'{r:.2f}' for r in ratios)})",
         "≥ 0.8"),
        (f"(d) Kroniek append latency at {CLIENTS} clients: p50, p99 (the rounds' p99 in ms: "
         f"{rounds_ms('kroniek', 'p99')})",
         f"p50 {median('kroniek', 'p50') * 1e3:.1f} ms, p99 {k_p99 * 1e3:.1f} ms",
         f"p99 ÷ bare's {k_p99 / b_p99:.2f} (rounds {', '.join(f'{r:.2f}' for r in p99_ratios)})",
         f"p99 ≤ max({P99_GOAL * 1e3:.0f} ms, {P99_GOAL_RATIO:g} × bare's) = {goal * 1e3:.1f} ms: "
         f"{'met' if k_p99 <= goal else 'NOT met'}"),
        (f"(d) bare Flask + XADD latency at {CLIENTS} clients (the rounds' p99 in ms: {rounds_ms('bare', 'p99')})",
         f"p50 {median('bare', 'p50') * 1e3:.1f} ms, p99 {b_p99 * 1e3:.1f} ms", "", "—"),
        ("(d) the clients' connections per worker process, each round, Kroniek | bare",
         f"{' '.join(r['spread'] for r in runs['kroniek'])} | {' '.join(r['spread'] for r in runs['bare'])}", "",
         "even"),
        ("(d) server CPU per request (gunicorn workers), Kroniek / bare; bare ÷ Kroniek",
         f"{median('kroniek', 'cpu') * 1e6:.0f} µs / {median('bare', 'cpu') * 1e6:.0f} µs", f"{cpu_ratio:.2f}", "—"),
        ("(d) Redis CPU per request, Kroniek / bare",
         f"{median('kroniek', 'redis_cpu') * 1e6:.1f} µs / {median('bare', 'redis_cpu') * 1e6:.1f} µs", "", "—"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=4, help="length of each measured round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per server, alternating")
    parser.add_argument("--serve-bare", action="store_true", help="serve the bare endpoint (used by the bench)")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help="--serve-bare: gunicorn processes (as kroniek serve)")
    parser.add_argument("--connections", type=int, default=1000,
                        help="--serve-bare: connections per process (as kroniek serve)")
    args = parser.parse_args()
    if args.serve_bare:
        from service.gunicorn_worker import serve_app

        serve_app(bare_app, "127.0.0.1", args.port, args.workers, args.connections)
        return

    from bench import bench_redis, print_table

    with bench_redis("http") as url:
        rows = measure(url, f"bench-{uuid.uuid4().hex[:8]}", args.seconds, args.rounds)
    print_table("Kroniek HTTP appends (one run)", rows)


if __name__ == "__main__":
    main()
