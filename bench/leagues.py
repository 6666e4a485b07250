"""League speed goals, measured on one core (no Redis needed).

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

``measure()`` returns the rows ``(measure, measured, ratio/figure, goal)`` that
``make bench`` prints; ``python -m bench.leagues`` prints them alone.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from fractions import Fraction

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
