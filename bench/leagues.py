"""League speed goals: (l1)–(l4) on one core without Redis, (l5)–(l6) through
the service on a real Redis (REDIS_URL, else an embedded one).

(l1) Swiss (Dutch) pairing time per round at 64, 256 and 1,024 players, over
     several rounds with seeded random results: median and worst round, in
     CPU time (the machine may be shared; the 1-minute load is printed).
     Goal: under 100 ms per round at 1,024.
(l2) rating recomputation from scratch for 10,000 results: Glicko-2 (two-player
     games, 1,000 players) and openskill Plackett-Luce (four-player tables,
     2,000 players).
(l3) multi-player tables (score groups, fewest repeated opponents) at 1,024
     players, for scale.
(l4) the Dutch system against bbpPairings v6 (FIDE C.04.3, 2025 rules) on the
     committed fixtures (tests/leagues/fixtures/bbp_dutch): the share of rounds
     with identical pairings (goal >= 95%), and the time per round at 1,024
     players (CPU time) against bbp's time recorded in the fixture for the
     same rounds (wall time of the bbp process when the fixtures were made;
     goal: under 100 ms, >= 50x faster).

(l5) registration through the service (``service.leagues`` on a real Redis,
     as ``make bench`` runs it), players registered one by one: the total at
     256 and at 4,096 players (goal: 4,096 in <= 2 s), and the time of one
     registration at 4,096 against at 256 (O(1) amortised: about 1); and the
     4,096 again with the transparency log's leaf added after every write, as
     the app wires the service.
(l6) a Swiss league of 4,096 players through the service: each round's
     pairing (``pair_next_round``: paired, checked by the reducer, appended)
     plus the standings read after it, worst and median round (goal: <= 1 s
     a round); results are entered as ``record_result`` writes them (a link
     and a result event a board, without playing 2,048 matches a round), and
     the median league write of the last round against one of a new league
     of 256 players in its first round, in alternating batches (about 1);
     and a process's first read of the finished league (the whole log
     replayed, every round paired again), which no goal covers.

``measure()`` returns the rows ``(measure, measured, ratio/figure, goal)`` that
``make bench`` prints; ``python -m bench.leagues`` prints them alone.
"""

from __future__ import annotations

import os
import random
import statistics
import time
import uuid
from fractions import Fraction

import redis

from leagues.pairing import swiss_pairings, table_groups
from leagues.ratings import glicko2_ratings, openskill_ratings
from leagues.standings import LeagueResult

#: players -> rounds simulated
SWISS_FIELDS = ((64, 6), (256, 8), (1024, 10))


def swiss_round_times(players: int, rounds: int, seed: int = 7) -> list[float]:
    rng = random.Random(seed)
    names = [f"p{i:04d}" for i in range(players)]
    points = {p: Fraction(0) for p in names}
    history = []
    times = []
    for rno in range(1, rounds + 1):
        standings = [(p, points[p]) for p in names]
        t0 = time.process_time()
        pairings = swiss_pairings(standings, history, rno)
        times.append(time.process_time() - t0)
        for w, b in pairings.boards:
            x = rng.random()
            if x < 0.45:
                points[w] += 1
            elif x < 0.8:
                points[b] += 1
            else:
                points[w] += Fraction(1, 2)
                points[b] += Fraction(1, 2)
        if pairings.bye:
            points[pairings.bye] += 1
        history.append(pairings)
    return times


def random_results(count: int, players: int, size: int, seed: int) -> list[LeagueResult]:
    """``count`` results of random games between ``size`` players at a table,
    everyone seated once a round; two-player games may be drawn."""
    rng = random.Random(seed)
    names = [f"p{i:04d}" for i in range(players)]
    out: list[LeagueResult] = []
    rnd = 0
    while len(out) < count:
        rnd += 1
        rng.shuffle(names)
        for k in range(0, players - size + 1, size):
            if len(out) == count:
                break
            if size == 2:
                ranks = rng.choice(((1, 2), (2, 1), (1, 1)))
            else:
                ranks = tuple(rng.sample(range(1, size + 1), size))
            out.append(LeagueResult(round=rnd, players=tuple(names[k:k + size]), ranks=ranks, match=f"{rnd}-{k}"))
    return out


def measure() -> list[tuple[str, str, str, str]]:
    rows = []
    for players, rounds in SWISS_FIELDS:
        times = swiss_round_times(players, rounds)
        rows.append((
            f"(l1) Swiss (Dutch) pairing per round, {players:,} players",
            f"{rounds} rounds, random results; median {statistics.median(times) * 1000:.1f} ms CPU "
            f"(load {os.getloadavg()[0]:.1f})",
            f"max {max(times) * 1000:.1f} ms",
            "< 100 ms at 1,024 (bbpPairings: see l4)" if players == 1024 else "—",
        ))

    results = random_results(10_000, 1_000, 2, seed=11)
    t0 = time.perf_counter()
    table = glicko2_ratings(results)
    secs = time.perf_counter() - t0
    rows.append((
        "(l2) Glicko-2 recomputation, 10,000 results",
        f"{len(table.current):,} players, {results[-1].round} periods, {secs:.2f} s",
        f"{len(results) / secs:,.0f} results/s",
        "—",
    ))
    results = random_results(10_000, 2_000, 4, seed=13)
    t0 = time.perf_counter()
    table = openskill_ratings(results)
    secs = time.perf_counter() - t0
    rows.append((
        "(l2) openskill Plackett-Luce recomputation, 10,000 results",
        f"4-player tables, {len(table.current):,} players, {secs:.2f} s",
        f"{len(results) / secs:,.0f} results/s",
        "—",
    ))

    rng = random.Random(17)
    standings = [(f"p{i:04d}", rng.randint(0, 12)) for i in range(1024)]
    history = [table_groups([(p, 0) for p, _ in standings], [])]
    t0 = time.perf_counter()
    table_groups(standings, history)
    secs = time.perf_counter() - t0
    rows.append((
        "(l3) multi-player tables of 3–6, 1,024 players",
        "score groups, one earlier round to avoid",
        f"{secs * 1000:.0f} ms",
        "—",
    ))
    rows.extend(bbp_rows())
    rows.extend(service_rows())
    return rows


#: players registered by (l5); the league of (l6) and its rounds
REGISTER_FIELDS = (256, 4096)
SERVICE_SWISS = (4096, 8)


def service_rows() -> list[tuple[str, str, str, str]]:
    """(l5) and (l6), on one Redis (``bench_redis``)."""
    from bench import bench_redis

    with bench_redis("leagues") as url:
        client = redis.Redis.from_url(url, decode_responses=True)
        prefix = f"bench-{uuid.uuid4().hex[:8]}"
        try:
            return _service_rows(client, prefix)
        finally:
            keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
            for i in range(0, len(keys), 500):
                client.delete(*keys[i:i + 500])
            client.close()


def _service(client: redis.Redis, prefix: str, with_log: bool = False):
    from replays import EventStore
    from replays.translog import TransparencyLog
    from service.leagues import LeagueService
    from service.matches import MatchService

    log = TransparencyLog(client, prefix) if with_log else None
    return LeagueService(EventStore(client, prefix, kind="l"), MatchService(EventStore(client, prefix)),
                         on_head=(lambda i, s, h: log.add("l", i, s, h)) if log is not None else None)


def register_seconds(service, players: int, rounds: int = 3) -> tuple[str, float]:
    """A new Swiss league, its ``players`` registered one by one: (league id, seconds)."""
    lid = service.create(f"Bench {players}", "braverats", "swiss", rounds, {}, [])["id"]
    t0 = time.perf_counter()
    for i in range(players):
        service.register(lid, f"Player {i:04d}")
    return lid, time.perf_counter() - t0


def enter_results(service, lid: str, rno: int, boards, rng: random.Random) -> list[float]:
    """Each board's link and result, as ``record_result`` writes them (a
    made-up match id: no match is played): the seconds of each write."""
    times = []
    for number, board in boards:
        match = f"bench-{rno}-{number}"
        t0 = time.perf_counter()
        service._append(lid, "link", {"round": rno, "board": number, "match": match,
                                      "players": list(board.players)}, "bench")
        t1 = time.perf_counter()
        service._append(lid, "result", {"round": rno, "board": number, "match": match,
                                        "players": list(board.players), "ranks": rng.choice(([1, 2], [2, 1], [1, 1])),
                                        "scores": [0, 0], "reason": "bench", "seq": 8, "head": "0" * 64}, "bench")
        times += [t1 - t0, time.perf_counter() - t1]
    return times


def _service_rows(client: redis.Redis, prefix: str) -> list[tuple[str, str, str, str]]:
    rows = []
    service = _service(client, prefix)
    register_seconds(service, 64)  # warm-up: scripts loaded, connections open
    took = {n: register_seconds(service, n)[1] for n in REGISTER_FIELDS}
    small, large = REGISTER_FIELDS
    for n in REGISTER_FIELDS:
        rows.append((
            f"(l5) {n:,} players registered one by one through the service",
            f"{took[n]:.2f} s, {took[n] / n * 1e6:.0f} µs each (load {os.getloadavg()[0]:.1f})",
            f"{took[n]:.2f} s",
            "<= 2 s at 4,096" if n == large else "—",
        ))
    per_small, per_large = took[small] / small, took[large] / large
    rows.append((
        f"(l5) one registration at {large:,} players ÷ at {small:,}",
        f"{per_large * 1e6:.0f} µs / {per_small * 1e6:.0f} µs",
        f"{per_large / per_small:.2f}",
        "about 1 (O(1) amortised)",
    ))
    _, logged = register_seconds(_service(client, prefix, with_log=True), large)
    rows.append((
        f"(l5) {large:,} registrations with the transparency log's leaf after each write (as the app wires it)",
        f"{logged:.2f} s, {logged / large * 1e6:.0f} µs each",
        f"{logged:.2f} s",
        "—",
    ))

    players, rounds = SERVICE_SWISS
    lid, _ = register_seconds(service, players, rounds)
    rng = random.Random(23)
    round_wall, round_cpu = [], []
    for rno in range(1, rounds + 1):
        w0, c0 = time.perf_counter(), time.process_time()
        service.pair_next_round(lid)
        service.standings(lid)
        round_wall.append(time.perf_counter() - w0)
        round_cpu.append(time.process_time() - c0)
        boards = list(enumerate(service.state(lid).rounds[-1].boards, start=1))
        if rno < rounds:
            enter_results(service, lid, rno, boards, rng)
            continue
        # The last round's results, in batches alternating with a new league's of 256 players in round 1,
        # so both are measured on the same machine at the same time (a shared VM's speed drifts within seconds).
        small, _ = register_seconds(service, small_players := REGISTER_FIELDS[0], 1)
        service.pair_next_round(small)
        small_boards = list(enumerate(service.state(small).rounds[-1].boards, start=1))
        big_times, small_times = [], []
        batches = 16
        for k in range(batches):
            big_times += enter_results(service, lid, rno, boards[k::batches], rng)
            small_times += enter_results(service, small, 1, small_boards[k::batches], rng)
    worst = max(range(rounds), key=round_wall.__getitem__)
    rows.append((
        f"(l6) Swiss pairing + standings per round through the service, {players:,} players",
        f"{rounds} rounds: median {statistics.median(round_wall):.2f} s, worst {round_wall[worst]:.2f} s "
        f"(round {worst + 1}; {round_cpu[worst]:.2f} s CPU) (load {os.getloadavg()[0]:.1f})",
        f"{round_wall[worst]:.2f} s",
        "<= 1 s a round",
    ))
    big, little = statistics.median(big_times), statistics.median(small_times)
    rows.append((
        f"(l6) a league write (link, result) at {players:,} players in round {rounds} ÷ at {small_players} in round 1",
        f"{big * 1e6:.0f} µs / {little * 1e6:.0f} µs (medians, alternating batches)",
        f"{big / little:.2f}",
        "about 1 (O(1) amortised)",
    ))
    fresh = _service(client, prefix)
    t0 = time.perf_counter()
    fresh.get(lid)
    cold = time.perf_counter() - t0
    rows.append((
        f"(l6) a process's first read of that league ({len(fresh.events(lid)):,} events, {rounds} rounds paired again)",
        f"{cold:.2f} s",
        f"{cold:.2f} s",
        "—",
    ))
    return rows


def bbp_rows() -> list[tuple[str, str, str, str]]:
    from tests.leagues.bbp_fixtures import load, replay, summary

    checks = [c for data in load() for c in replay(data)]
    s = summary(checks)
    per = ", ".join(f"{n}: {a}/{b}" for n, (a, b) in s["by_players"].items())
    big = [c for c in checks if c.players == 1024]
    ours = statistics.median(c.seconds for c in big)
    theirs = statistics.median(c.bbp_seconds for c in big)
    return [
        (
            "(l4) Dutch pairings identical to bbpPairings v6",
            f"{s['identical']}/{s['rounds']} rounds ({per}); {s['illegal']} illegal",
            f"{s['identical'] / s['rounds']:.1%}",
            ">= 95%, 0 illegal",
        ),
        (
            "(l4) Dutch pairing per round at 1,024 players (fixtures)",
            f"{len(big)} rounds: median {ours * 1000:.0f} ms CPU, max {max(c.seconds for c in big) * 1000:.0f} ms "
            f"(load {os.getloadavg()[0]:.1f}); bbp median {theirs:.1f} s",
            f"{theirs / ours:,.0f}x faster",
            "< 100 ms, >= 50x",
        ),
    ]


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
