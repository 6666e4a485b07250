"""(e) Redis bytes per event: what a match's keys cost, by kind of key.

Two loads. **Over HTTP** (``measure_http``), as the deployment runs: ``kroniek
serve`` (gunicorn) and ``kroniek worker`` as processes, 12 client threads,
each recording matches of the 8 games in turn through the API (the legal
moves, then one drawn at random, half with an ``Idempotency-Key``; now and
then a state at an earlier step and a page of events), every match until
the game ends or at 100 events. Every key in that Redis is counted (the
accounts' and RQ's too): right after the load, with the worker running
beside it as in production, and once the worker has saved every verdict
(the analyses' backlog as it stands then); the matches still in play are
also shown alone. Beside it, **through the
service layer** (``measure_service``): every game is played (``MatchService``, as the
API calls it) as simulated matches between random players: each move is one
drawn at random from the legal moves (``legal_moves``, the referee's view),
the server draws the chance outcomes, and half of the moves carry an
``Idempotency-Key``. A match ends when the game does or at ``--cap`` events.
Then each key's ``MEMORY USAGE`` (Redis' own count: the value, the key and
its overhead) is summed by kind (``log``, ``idem:*``, ``snap`` …) and divided
by the number of events: once live (no verdicts yet) and once after the
worker's validation has saved every verdict (a final verdict prunes a
finished match's snapshots, and compacts its events into one block). Then
the finished matches alone (their keys, and their share of the index), per
event: goal ≤ 150 B once their idempotency records have expired (48 h), and
with them. It prints the RAM each implies for a million matches of 100
events. The figures are measured; nothing is asserted.

A match ends when the game does or at ``--cap`` events; ``--finish``
matches per game are played to their end (up to ``--finish-cap`` events), so
that the long games are among the finished ones too.

``python -m bench.bytes_per_event [--clients C] [--matches N] [--cap C] [--finish F] [--finish-cap C] [--seed S]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from typing import Any

import redis
from rich.table import Table

from bench import bench_redis, run_threads
from bench import console as bench_console
from engine import registry
from engine.core import REFEREE
from replays import EventStore
from service.matches import MatchService

console = bench_console()


def play(svc: MatchService, game: Any, seed: int, cap: int) -> tuple[str, int]:
    """One simulated match of ``game`` between random players; its id and length."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(min(game.player_counts))]
    mid = svc.create_match(game.id, players, mode="simulated", seed=seed)["id"]
    n = 0
    while True:
        ms = svc.current(mid)
        if ms.result is not None or ms.seq >= cap:
            return mid, ms.seq
        moves = svc.legal_moves(mid, REFEREE)["moves"]
        if not moves:
            return mid, ms.seq
        move = rng.choice(moves)
        key = f"k{n}" if rng.random() < 0.5 else None
        svc.append(mid, move["type"], move.get("seat"), move.get("data", {}), idempotency_key=key)
        n += 1


def _kind(key: str, prefix: str) -> str:
    part = key.split("}:", 1)[1] if "}:" in key else key[len(prefix) + 1:]
    return "idem" if part.startswith("idem:") else part


def usage(client: redis.Redis, prefix: str) -> Counter:
    """Bytes per kind of key under ``prefix`` (``MEMORY USAGE``, every sample)."""
    by_kind: Counter = Counter()
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        by_kind[_kind(key, prefix)] += client.memory_usage(key, samples=0) or 0
    return by_kind


def usage_of(client: redis.Redis, store: EventStore, match_ids: list[str]) -> Counter:
    """Bytes per kind of key of these matches: their own keys, and their
    share (one member each) of the shared index and owed sets."""
    by_kind: Counter = Counter()
    wanted = set(match_ids)
    for key in client.scan_iter(match=f"{store.prefix}:{{m:*", count=1000):
        if key.split("{m:", 1)[1].split("}", 1)[0] in wanted:
            by_kind[_kind(key, store.prefix)] += client.memory_usage(key, samples=0) or 0
    for shared in (store.index_key, store.owed_key("validation"), store.owed_key("analysis")):
        members = client.zcard(shared)
        if members:
            by_kind[_kind(shared, store.prefix)] += (client.memory_usage(shared, samples=0) or 0) * len(
                [m for m in match_ids if client.zscore(shared, m) is not None]) // members
    return by_kind


def _row(label: str, by_kind: Counter, events: int, goal: str, leave_out: tuple[str, ...] = ()) -> tuple[str, ...]:
    total = sum(b for kind, b in by_kind.items() if kind not in leave_out)
    detail = ", ".join(f"{kind} {b / events:,.0f}" for kind, b in by_kind.most_common(7) if kind not in leave_out)
    return (f"(e) Redis bytes per event, {label}; by key: {detail})", f"{total / events:,.0f} B/event",
            f"{total / events * 100e6 / 2**30:,.1f} GiB for 10⁶ matches of 100 events", goal)


def measure(clients: int = 12, http_matches: int = 8, http_cap: int = 100, matches: int = 3, cap: int = 300,
            seed: int = 1, finish: int = 1, finish_cap: int = 3000) -> list[tuple[str, str, str, str]]:
    """Both loads' rows: over HTTP (none when ``clients`` is 0), then through the service layer."""
    rows = measure_http(clients, http_matches, http_cap, seed) if clients else []
    return rows + measure_service(matches, cap, seed, finish, finish_cap)


def measure_service(matches: int = 3, cap: int = 300, seed: int = 1, finish: int = 1,
                    finish_cap: int = 3000) -> list[tuple[str, str, str, str]]:
    from workers.jobs import validate_log

    rows: list[tuple[str, str, str, str]] = []
    with bench_redis("bytes") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = f"bytes-{uuid.uuid4().hex[:8]}"
        store = EventStore(client, prefix)
        svc = MatchService(store)
        played: list[tuple[str, int]] = []
        for game in registry.all_games():
            for i in range(matches):
                played.append(play(svc, game, seed * 1000 + i, cap))
        events = sum(n for _, n in played)
        games = len(registry.all_games())
        mixed = f"{len(played)} matches of the {games} games, {events:,} events, half the moves with an Idempotency-Key"
        rows.append(_row(f"live ({mixed}", usage(client, prefix), events, "≤ 600 B"))
        for mid, _ in played:
            validate_log(store, mid)
        rows.append(_row(f"after the verdicts (the same; the finished ones compacted by the worker", usage(
            client, prefix), events, "—"))
        # The finished matches alone, with long games played to their end.
        for game in registry.all_games():
            for i in range(finish):
                mid, n = play(svc, game, seed * 1000 + matches + i, finish_cap)
                validate_log(store, mid)
                played.append((mid, n))
        done = [(mid, n) for mid, n in played if store.compacted(mid)]
        events = sum(n for _, n in done)
        by_kind = usage_of(client, store, [mid for mid, _ in done])
        label = f"finished and compacted ({len(done)} matches of the {games} games, {events:,} events"
        rows.append(_row(label + ", once their idempotency records expired (48 h)", by_kind, events, "≤ 150 B",
                         leave_out=("idem",)))
        rows.append(_row(label + ", within 48 h: with their idempotency records", by_kind, events, "—"))
        client.close()
    return rows


# -- over HTTP: real processes, as deployed ---------------------------------------------
#: A state at an earlier step and a page of events, after about one move in this many.
READ_EVERY = 8


def _http_client(host: str, token: str, seed: int, games: list[Any], per_client: int, cap: int,
                 played: list[tuple[str, int, str]], failures: list[str]) -> None:
    """One keep-alive client recording ``per_client`` matches, the games in turn."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(host, timeout=30)

    def call(method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if key:
            headers["Idempotency-Key"] = key
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")

    try:
        for j in range(per_client):
            game = games[(seed + j) % len(games)]
            players = [f"P{i}" for i in range(min(game.player_counts))]
            status, answer = call("POST", "/api/matches", {"game": game.id, "players": players,
                                                            "mode": "simulated", "seed": seed * 100 + j})
            if status != 201:
                raise RuntimeError(f"creating a {game.id} match: {status} {answer}")
            mid, seq, state = answer["id"], answer.get("seq", 0), answer.get("status", "")
            moves_made = 0
            while state != "finished" and seq < cap:
                status, legal = call("GET", f"/api/matches/{mid}/legal-moves?seat=referee")
                if status != 200:
                    raise RuntimeError(f"legal moves of {mid}: {status} {legal}")
                if not legal["moves"]:
                    break
                move = rng.choice(legal["moves"])
                key = f"{mid}-{moves_made}" if rng.random() < 0.5 else None
                body = {"type": move["type"], "seat": move.get("seat"), "data": move.get("data", {})}
                status, answer = call("POST", f"/api/matches/{mid}/events", body, key)
                if status != 201:
                    raise RuntimeError(f"appending to {mid}: {status} {answer}")
                seq, state = answer["latest_seq"], answer["status"]
                moves_made += 1
                if rng.randrange(READ_EVERY) == 0:
                    call("GET", f"/api/matches/{mid}/state?at={rng.randint(1, seq)}&seat=referee")
                    call("GET", f"/api/matches/{mid}/events?from={max(1, seq - 20)}&seat=referee")
            played.append((mid, seq, state))
    except Exception as exc:  # noqa: BLE001 - reported by the caller, which stops the run
        failures.append(f"{type(exc).__name__}: {exc}")
    finally:
        conn.close()


def usage_all(client: redis.Redis, prefix: str) -> Counter:
    """Bytes per kind of every key in this Redis: ours by kind, RQ's as
    ``rq`` (the job queue's jobs and registries), anything else as ``other``."""
    by_kind: Counter = Counter()
    for key in client.scan_iter(count=1000):
        if key.startswith(f"{prefix}:"):
            kind = _kind(key, prefix)
        else:
            kind = "rq" if key.startswith("rq:") else "other"
        by_kind[kind] += client.memory_usage(key, samples=0) or 0
    return by_kind


def measure_http(clients: int = 12, per_client: int = 8, cap: int = 100, seed: int = 1,
                 catch_up_seconds: float = 120) -> list[tuple[str, str, str, str]]:
    from bench.http_appends import server
    from service.accounts import Accounts

    if os.environ.get("REDIS_URL"):  # every key must be this run's to be counted
        return [("(e) Redis bytes per event over HTTP", "not measured: REDIS_URL is set, and this part counts every "
                 "key of its Redis, so it runs on an embedded one of its own", "", "≤ 600 B")]
    rows: list[tuple[str, str, str, str]] = []
    games = registry.all_games()
    with bench_redis("bytes-http") as url, tempfile.TemporaryDirectory(prefix="kroniek-bytes-var-") as var:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = "kroniek"
        env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix,
               "KRONIEK_VAR": var}
        _, token = Accounts(client, prefix).add_user("bench-recorder")
        worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            with server(["service.cli", "serve"], env) as host:
                played: list[tuple[str, int, str]] = []
                failures: list[str] = []
                threads = [threading.Thread(target=_http_client, args=(
                    host, token, seed * 1000 + i, games, per_client, cap, played, failures)) for i in range(clients)]
                elapsed = run_threads(threads)
                if failures:
                    raise RuntimeError(f"the HTTP load failed: {failures[0]}")
            events = sum(n for _, n, _ in played)
            finished = sum(1 for *_, st in played if st == "finished")
            load = (f"over HTTP: gunicorn and a worker as processes, {clients} clients, {len(played)} matches of the "
                    f"{len(games)} games ({finished} finished), {events:,} events in {elapsed:.0f} s, half the moves "
                    f"with an Idempotency-Key; every key in Redis")
            rows.append(_row(f"live ({load}, right after the load", usage_all(client, prefix), events, "≤ 600 B"))
            store = EventStore(client, prefix)
            in_play = [(mid, n) for mid, n, st in played if st != "finished"]
            if in_play:  # the long games at 100 events: their set-up (a board and its tiles, ~9 KB) is ~90 B each
                rows.append(_row(f"live, the {len(in_play)} matches still in play alone ({sum(n for _, n in in_play):,} "
                                 f"events of the long games, whose set-up event carries the board: their keys and "
                                 f"their share of the index", usage_of(client, store, [m for m, _ in in_play]),
                                 sum(n for _, n in in_play), "—"))
            # The verdicts come within seconds; the analyses (a solver's budget each, one job at a time) may
            # take the worker many minutes, and their backlog is reported as it stands.
            deadline = time.monotonic() + catch_up_seconds
            while time.monotonic() < deadline and client.zcard(store.owed_key("validation")):
                time.sleep(0.5)
            owed = client.zcard(store.owed_key("validation"))
            analyses = client.zcard(store.owed_key("analysis"))
            caught_up = (f"had every verdict saved ({analyses} of the {len(played)} matches still waited for their "
                         f"analysis)" if not owed else f"still owed {owed} verdicts after {catch_up_seconds:.0f} s")
            rows.append(_row(f"over HTTP, the same once the worker {caught_up}; finished matches compacted",
                             usage_all(client, prefix), events, "—"))
        finally:
            worker.terminate()
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
        client.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=3, help="matches per game")
    parser.add_argument("--cap", type=int, default=300, help="most events per match")
    parser.add_argument("--finish", type=int, default=1, help="matches per game played to their end")
    parser.add_argument("--finish-cap", type=int, default=3000, help="most events of a match played to its end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=12, help="HTTP clients (0: no HTTP load)")
    parser.add_argument("--http-matches", type=int, default=8, help="matches each HTTP client records")
    parser.add_argument("--http-cap", type=int, default=100, help="most events of a match over HTTP")
    args = parser.parse_args()
    table = Table(title="Kroniek: Redis bytes per event (one run)")
    for col in ("measure", "measured", "figure", "goal"):
        table.add_column(col)
    for row in measure(args.clients, args.http_matches, args.http_cap, args.matches, args.cap, args.seed, args.finish,
                       args.finish_cap):
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
