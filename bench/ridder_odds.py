"""Ridder-toernooi exact duel odds, for ``make bench`` (one core, no Redis).

``measure()`` times :func:`engine.ridder_toernooi.odds.duel_odds` (mounted
round, woedend rerolls and the foot fight, solved exactly) over a spread of
match-ups and returns rows (measure, measured, ratio / figure, goal):

* every ordered pair of the ten placeholder knights, fresh and untrained,
  with the defaults (woedend ``every``, give-up ``never``);
* the same pairs after seeded random training (up to +2 dice and 4 more
  covered fields), with 0–8 wounds each, under a mix of give-up policies
  (``never``, ``wounds:7``, ``odds:0.2``) and woedend modes.

Each call is timed with the duel and foot-fight caches cleared (the hit distributions of the
rolls stay memoised, as in a running worker); each match-up is timed
``RIDDER_BENCH_REPEAT`` times and its fastest time counts; the median and the
99th percentile are over the match-ups: goal ≤ 1 ms median. For scale, the
same with the hit tables cleared too, and a repeated (cached) call.
Nothing here asserts a time. ``python -m bench.ridder_odds`` prints the table.

Environment: ``RIDDER_BENCH_SEED`` (default 2024), ``RIDDER_BENCH_REPEAT``
(times each match-up is timed, default 5).
"""

from __future__ import annotations

import os
import random
import statistics
import time

from engine.ridder_toernooi import odds as O
from engine.ridder_toernooi.odds import Fighter, duel_odds

GOAL_S = 0.001

#: The placeholder card set's knights: attack dice, red mounted faces, red foot faces.
PLACEHOLDER_KNIGHTS = [
    (3, (1, 2, 3), (4, 5, 6)), (5, (1, 2), (4, 5)), (4, (1, 2, 3), (4, 5)), (4, (1, 2), (4, 5, 6)),
    (6, (1, 2), (5,)), (6, (1,), (4, 6)), (5, (2, 3), (4, 6)), (4, (1, 3), (4, 5, 6)),
    (7, (1,), (4,)), (5, (1, 3), (5, 6)),
]


def _fighter(dice: int, mounted: tuple, foot: tuple, wounds: int = 0) -> Fighter:
    return Fighter(dice, tuple(int(f in mounted) for f in (1, 2, 3)), tuple(int(f in foot) for f in (4, 5, 6)),
                   wounds)


def _trained(rng: random.Random, f: Fighter) -> Fighter:
    cover = list(f.mounted + f.foot)
    dice = f.dice
    for _ in range(rng.randint(0, 5)):
        if rng.random() < 0.3 and dice < f.dice + 2:
            dice += 1
        else:
            free = [i for i, c in enumerate(cover) if c < 2]
            if free:
                cover[rng.choice(free)] += 1
    return Fighter(dice, tuple(cover[:3]), tuple(cover[3:]), rng.randint(0, 8))


def matchups(seed: int) -> list[tuple]:
    rng = random.Random(seed)
    knights = [_fighter(*k) for k in PLACEHOLDER_KNIGHTS]
    fresh = [(a, b, "never", "every") for a in knights for b in knights if a is not b]
    varied = [(_trained(rng, a), _trained(rng, b), rng.choice(["never", "wounds:7", "odds:0.2"]),
               rng.choice(["every", "every", "first_only", "cumulative"])) for a, b, _, _ in fresh]
    return fresh + varied


def _time_calls(cases: list[tuple], repeat: int, clear_hits: bool) -> list[float]:
    """Per match-up, the fastest of ``repeat`` timed calls (the machine is
    shared: a slower call measures the neighbours, not the code)."""
    best = [float("inf")] * len(cases)
    for _ in range(repeat):
        for k, (a, b, policy, mode) in enumerate(cases):
            if clear_hits:
                O.clear_caches()
            else:
                O._duel.cache_clear()
                O._FOOT_CACHE.clear()
            t0 = time.perf_counter()
            duel_odds(a, b, policy, mode)
            best[k] = min(best[k], time.perf_counter() - t0)
    return best


def _ms(s: float) -> str:
    return f"{s * 1e3:.3f} ms"


def measure() -> list[tuple[str, str, str, str]]:
    seed = int(os.environ.get("RIDDER_BENCH_SEED", "2024"))
    repeat = int(os.environ.get("RIDDER_BENCH_REPEAT", "5"))
    cases = matchups(seed)
    _time_calls(cases, 1, False)  # warm-up: the hit tables of these pools
    rows = []
    for label, subset in (("all", cases), ("fresh, defaults", cases[:90]), ("trained, wounded, mixed options",
                                                                            cases[90:])):
        t = sorted(_time_calls(subset, repeat, False))
        med = statistics.median(t)
        p99 = t[int(0.99 * (len(t) - 1))]
        rows.append((f"Ridder-toernooi duel odds (mounted + foot, exact) per call, {label}: "
                     f"{len(subset)} match-ups, best of {repeat} each, median (p99)",
                     f"{_ms(med)} ({_ms(p99)})", f"{med / GOAL_S:.2f} of goal", f"≤ {_ms(GOAL_S)} median"))
    cold = statistics.median(_time_calls(cases, repeat, True))
    a, b, policy, mode = cases[0]
    duel_odds(a, b, policy, mode)
    n = 20_000
    t0 = time.perf_counter()
    for _ in range(n):
        duel_odds(a, b, policy, mode)
    cached = (time.perf_counter() - t0) / n
    rows.append(("Ridder-toernooi duel odds: with the hit tables cleared too / a repeated (cached) call",
                 f"{_ms(cold)} / {cached * 1e6:.1f} µs", "median, for scale", "—"))
    return rows


def main() -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Ridder-toernooi exact odds (one core)")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in measure():
        table.add_row(*row)
    Console().print(table)


if __name__ == "__main__":
    main()
