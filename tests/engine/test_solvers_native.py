"""The compiled core and the pure-Python search are twins: identical status,
node count and witness line, at every budget (so an answer never depends on
whether the extension was built)."""

from __future__ import annotations

import pytest

import engine.stapelen  # noqa: F401
import engine.twaalven  # noqa: F401
from engine.jogledor import batch
from engine.jogledor.solving import native
from engine.jogledor.simulate import play_random
from engine.stapelen import solver as st_solver
from engine.twaalven import solver as tw_solver

pytestmark = pytest.mark.skipif(native() is None, reason="the compiled core is not built")

SOLVERS = {"twaalven": tw_solver, "stapelen": st_solver}


@pytest.mark.parametrize("game_id", ["twaalven", "stapelen"])
@pytest.mark.parametrize("budget", [1, 40, 2_000, 200_000])
def test_fresh_deals_identical(game_id, budget):
    for i in range(25):
        deck = batch.deal_deck(game_id, 9, i)
        a = batch.solve_one(game_id, deck, budget, use_native=True)
        b = batch.solve_one(game_id, deck, budget, use_native=False)
        assert (a.status, a.nodes, a.line) == (b.status, b.nodes, b.line), (game_id, i, budget)


@pytest.mark.parametrize("game_id", ["twaalven", "stapelen"])
def test_mid_game_positions_identical(game_id):
    solver = SOLVERS[game_id]
    n = 0
    for seed in range(12):
        rec = play_random(game_id, seed, mode="physical")
        from engine.jogledor.analysis import effective_line

        for _, _, state in effective_line(rec.log)[1][::3]:
            if state.columns is None:
                continue
            a = solver.solve(state, 20_000, use_native=True)
            b = solver.solve(state, 20_000, use_native=False)
            assert (a.status, a.nodes, a.line) == (b.status, b.nodes, b.line)
            n += 1
    assert n > 30


def test_forcing_the_core_when_missing_is_an_error(monkeypatch):
    import engine.jogledor.solving as solving

    monkeypatch.setattr(solving, "_native", None)
    monkeypatch.setattr(tw_solver, "native", lambda: None)
    with pytest.raises(RuntimeError):
        tw_solver.search(bytes(52), [0] * 13, [0] * 14, False, 10, use_native=True)
