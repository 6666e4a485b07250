"""Solver speed of the Jogledor patiences, for ``make bench``.

``measure()`` solves 1,000 seeded fresh deals of Twaalven en veertienen and of
Stapelen (one core, one process) and returns rows (measure, measured,
ratio / figure, goal): the median and 99th-percentile time to decide a deal
and the positions searched per second. Sir Tommy (exact, with the deck order
known): the share of 400 fresh deals decided within the analysis's budget per
solver call (issue 37's goal: 99%). Nothing here asserts a time. ``python -m
bench.jogledor`` prints the table.

Environment: ``JOGLEDOR_BENCH_DEALS`` (default 1000), ``JOGLEDOR_BENCH_SEED``
(default 2024), ``JOGLEDOR_BENCH_PURE=1`` to force the pure-Python search,
``SIR_TOMMY_BENCH_DEALS`` (default 400).
"""

from __future__ import annotations

import os

from engine.jogledor import batch
from engine.jogledor.solving import native

GOALS = {"twaalven": (0.010, 1.0), "stapelen": (0.030, 1.0)}
NAMES = {"twaalven": "Twaalven en veertienen", "stapelen": "Stapelen", "sir_tommy": "Sir Tommy (deck order known)"}


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms" if seconds < 10 else f"{seconds:.1f} s"


def measure() -> list[tuple[str, str, str, str]]:
    n = int(os.environ.get("JOGLEDOR_BENCH_DEALS", "1000"))
    seed = int(os.environ.get("JOGLEDOR_BENCH_SEED", "2024"))
    pure = os.environ.get("JOGLEDOR_BENCH_PURE") == "1"
    use_native = False if pure else None
    engine_kind = "compiled core" if (native() is not None and not pure) else "pure Python"
    rows: list[tuple[str, str, str, str]] = []
    for game in ("twaalven", "stapelen"):
        results = batch.solve_deals(game, n, seed, budget=50_000_000 if engine_kind == "compiled core" else 5_000_000,
                                    use_native=use_native)
        s = batch.summary(results)
        med_goal, p99_goal = GOALS[game]
        label = f"{NAMES[game]}: decide a fresh deal ({n:,} deals, {engine_kind})"
        rows.append((f"{label}, median", _ms(s["median_s"]), f"{s['median_s'] / med_goal:.3f} of goal",
                     f"≤ {_ms(med_goal)}"))
        rows.append((f"{label}, 99th percentile", _ms(s["p99_s"]), f"{s['p99_s'] / p99_goal:.3f} of goal (max {_ms(s['max_s'])})",
                     f"≤ {_ms(p99_goal)}"))
        rows.append((f"{NAMES[game]}: positions per second", f"{s['positions_per_s']:,.0f}/s",
                     f"winnable {s['win']}/{n}, lost {s['loss']}, unknown {s['unknown']}", "—"))
    m = int(os.environ.get("SIR_TOMMY_BENCH_DEALS", "400"))
    budget = solver_budget()
    results = batch.solve_deals("sir_tommy", m, seed, budget=budget)
    s = batch.summary(results)
    rows.append((f"(st) {NAMES['sir_tommy']}: {m} fresh deals decided (won, or proven lost) within the analysis's "
                 f"budget per solver call ({budget:,} nodes, KRONIEK_SOLVER_BUDGET; searches of 20,000 nodes, "
                 f"restarted in shuffled orders); median / 99th pct / max time",
                 f"{s['decided_share']:.1%}: winnable {s['win']}, lost {s['loss']}, unknown {s['unknown']}",
                 f"{_ms(s['median_s'])} / {_ms(s['p99_s'])} / {_ms(s['max_s'])}; {s['positions_per_s']:,.0f} "
                 f"positions/s", "≥ 99% decided"))
    return rows


def solver_budget() -> int:
    from workers.queue import solver_budget as configured

    return configured()


def main() -> None:
    from rich.table import Table

    from bench import console

    table = Table(title="Jogledor solvers (one core)")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in measure():
        table.add_row(*row)
    console().print(table)


if __name__ == "__main__":
    main()
