"""(e) Redis bytes per event: what a match's keys cost, by kind of key.

Every game is played through the service layer (``MatchService``, as the
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

``python -m bench.bytes_per_event [--matches N] [--cap C] [--finish F] [--finish-cap C] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import uuid
from collections import Counter
from typing import Any

import redis
from rich.table import Table

from bench import bench_redis
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


def measure(matches: int = 3, cap: int = 300, seed: int = 1, finish: int = 1,
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=3, help="matches per game")
    parser.add_argument("--cap", type=int, default=300, help="most events per match")
    parser.add_argument("--finish", type=int, default=1, help="matches per game played to their end")
    parser.add_argument("--finish-cap", type=int, default=3000, help="most events of a match played to its end")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = Table(title="Kroniek: Redis bytes per event (one run)")
    for col in ("measure", "measured", "figure", "goal"):
        table.add_column(col)
    for row in measure(args.matches, args.cap, args.seed, args.finish, args.finish_cap):
        table.add_row(*row)
    console.print(table)


if __name__ == "__main__":
    main()
