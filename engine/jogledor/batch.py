"""Solve many seeded deals: for ``kroniek solve`` and ``make bench``.

``iter_solve_deals`` yields one result per deal, so a caller can drive a
progress bar; ``solve_deals`` collects them; ``summary`` gives the share of
winnable deals and the solve-time distribution. The deals and the answers are
pure functions of (game, n, seed, budget); only the measured seconds are not.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any, Iterator

from .cards import DECK
from .solving import DEFAULT_BUDGET, LOSS, UNKNOWN, WIN
from .tableau import deck_to_columns

GAMES = ("twaalven", "stapelen", "sir_tommy")


def deal_deck(game: str, seed: int, i: int) -> list[int]:
    """Deal ``i`` of the batch with ``seed``: a shuffled deck."""
    deck = list(DECK)
    random.Random(f"jogledor-deals:{game}:{seed}:{i}").shuffle(deck)
    return deck


def fresh_state(game: str, deck: list[int]) -> Any:
    """The position right after the deal (Twaalven: roles still open, so both
    ways of starting count; Sir Tommy: before the first draw)."""
    if game == "twaalven":
        from ..twaalven.game import State

        return State(columns=deck_to_columns(deck))
    if game == "stapelen":
        from ..stapelen.game import State as SState

        return SState(columns=deck_to_columns(deck))
    if game == "sir_tommy":
        from ..sir_tommy import GAME

        return GAME.setup(("a", "b"), {})
    raise ValueError(f"no solver for {game!r}; games: {', '.join(GAMES)}")


def solve_one(game: str, deck: list[int], budget: int = DEFAULT_BUDGET, use_native: bool | None = None) -> Any:
    state = fresh_state(game, deck)
    if game == "twaalven":
        from ..twaalven.solver import solve

        return solve(state, budget, use_native)
    if game == "stapelen":
        from ..stapelen.solver import solve as ssolve

        return ssolve(state, budget, use_native)
    from ..sir_tommy.solver import solve_known

    return solve_known(state, deck, budget)


def iter_solve_deals(game: str, n: int, seed: int = 0, budget: int = DEFAULT_BUDGET,
                     use_native: bool | None = None) -> Iterator[dict[str, Any]]:
    for i in range(n):
        deck = deal_deck(game, seed, i)
        t0 = time.perf_counter()
        sol = solve_one(game, deck, budget, use_native)
        seconds = time.perf_counter() - t0
        yield {"deal": i, "status": sol.status, "nodes": sol.nodes, "seconds": seconds, "moves": len(sol.line)}


def solve_deals(game: str, n: int, seed: int = 0, budget: int = DEFAULT_BUDGET,
                use_native: bool | None = None) -> list[dict[str, Any]]:
    """Solve ``n`` seeded deals of ``game`` (twaalven, stapelen, sir_tommy; Sir
    Tommy with the whole deck order known). One dict per deal: deal, status
    (win/loss/unknown), nodes, seconds, moves (witness length)."""
    return list(iter_solve_deals(game, n, seed, budget, use_native))


def _pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Share of winnable deals and the solve-time distribution."""
    n = len(results)
    secs = sorted(r["seconds"] for r in results)
    nodes = sum(r["nodes"] for r in results)
    counts = {s: sum(1 for r in results if r["status"] == s) for s in (WIN, LOSS, UNKNOWN)}
    return {
        "deals": n,
        **counts,
        "winnable_share": counts[WIN] / n if n else 0.0,
        "decided_share": (counts[WIN] + counts[LOSS]) / n if n else 0.0,
        "median_s": statistics.median(secs) if secs else 0.0,
        "p90_s": _pct(secs, 0.90),
        "p99_s": _pct(secs, 0.99),
        "max_s": secs[-1] if secs else 0.0,
        "mean_s": statistics.fmean(secs) if secs else 0.0,
        "nodes": nodes,
        "positions_per_s": nodes / sum(secs) if secs and sum(secs) > 0 else 0.0,
    }
