"""BraveRats solved exactly (issue 37), for ``make bench`` (one core, no Redis).

``measure()`` solves the whole tree from the opening of the base game, of
variant C (first to 3) and of variant F (the Princess attack), each with a
fresh solver, and prints for each: the time, the positions kept, the rounds
whose equilibrium is mixed (HiGHS's LP, or a 2x2 left once the dominated
cards were struck out; the rest have a saddle point), the growth of the
process's resident memory while it solved (the table kept), the opening's
value and its equilibrium mix. The base game's table is what a worker keeps
once it has solved it. Nothing here asserts a time. ``python -m
bench.braverats_table`` prints the table alone.
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
    return rows


if __name__ == "__main__":
    print_table("BraveRats solved (one run)", measure())
