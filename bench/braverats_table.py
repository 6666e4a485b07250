"""BraveRats solved exactly (issue 37), for ``make bench`` (one core, no Redis).

``measure()`` solves the whole tree from the opening of the base game, of
variant C (first to 3) and of variant F (the Princess attack), each with a
fresh solver, and prints for each: the time, the positions kept, the rounds
whose equilibrium is mixed (HiGHS's LP, or a 2x2 left once the dominated
cards were struck out; the rest have a saddle point), the growth of the
process's resident memory while it solved (the table kept), the opening's
value and its equilibrium mix. The base game's table is what a worker keeps
once it has solved it: its frozen bytes (``Solver.freeze``, the file
``workers.tables`` keeps), the time to read them back (``thaw``) and to
evaluate a whole game's log from them, as every analysis after the first
does. Nothing here asserts a time. ``python -m bench.braverats_table``
prints the table alone.
"""

from __future__ import annotations

import os
import time

from bench import print_table
from engine.braverats.cards import NAMES
from engine.braverats.equilibrium import Solver, opening
from engine.braverats.resolve import Flags


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _mix(solver: Solver, pos) -> str:
    r = solver.round(pos)
    ranked = sorted(zip(r.rows, r.mix[0]), key=lambda cw: -cw[1])
    return ", ".join(f"{NAMES[c]} {w:.0%}" for c, w in ranked if w > 0.005)


def measure() -> list[tuple[str, str, str, str]]:
    rows, kept = [], []  # each solver kept alive, so that the next one's memory is its own
    for name, variants, target in (("base game", (), 4), ("variant C (first to 3)", ("C",), 3),
                                   ("variant F (Red attacks)", ("F",), 4)):
        solver = Solver(Flags(), target)
        pos = opening(variants, 0)
        rss = _rss()
        t0 = time.process_time()
        value = solver.value(pos)
        seconds = time.process_time() - t0
        grown = _rss() - rss
        kept.append(solver)
        value += 0.0  # not "-0.0000"
        rows.append((f"(br) BraveRats solved from the opening, {name}: CPU time, positions kept, rounds with "
                     f"a mixed equilibrium; the process's memory grown while solving",
                     f"{seconds:.1f} s, {len(solver.values):,} positions, {solver.lps:,} mixed rounds, "
                     f"{grown / 2**20:.0f} MiB",
                     f"Red's value {value:+.4f} (wins {(1 + value) / 2:.1%}, a draw half); Red's mix: "
                     f"{_mix(solver, pos)}",
                     "computed once, kept"))
    rows.append(_kept(kept[0]))
    return rows


def _kept(solved: Solver) -> tuple[str, str, str, str]:
    """The base game's table as the worker keeps it, read back and used."""
    from engine.braverats.equilibrium import evaluate, table_name
    from tests.support.played import play

    blob = solved.freeze()
    t0 = time.perf_counter()
    thawed = Solver()
    n = thawed.thaw(blob)
    thaw = time.perf_counter() - t0
    log = play("braverats", 1, mode="physical")
    name = table_name(Flags(), 4, opening((), 0))
    t0 = time.perf_counter()
    ev = evaluate(log, lambda asked, build: blob if asked == name else build())
    judged = time.perf_counter() - t0
    return ("(br) the base game's table kept (workers/tables.py): its size, the time to read it back, and a "
            "whole game's evaluation from it (a new process: the table read, every round judged)",
            f"{len(blob) / 2**20:.1f} MiB, {n:,} canonical positions; read back in {thaw * 1000:.0f} ms",
            f"a {len(ev['points']) - 1}-round game evaluated in {judged * 1000:.0f} ms", "solved once per machine")


if __name__ == "__main__":
    print_table("BraveRats solved (one run)", measure())
