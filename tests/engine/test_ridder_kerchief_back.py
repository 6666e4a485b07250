"""R19: at the end of each day every kerchief goes back to its lady, also
the one a knight wore when he was put out of the tournament. Found by the
invariant ridder_toernooi.kerchiefs (checked after every event): the knight
kept showing the kerchief after the night, while the lady had it back and
could lay it on another knight."""

from __future__ import annotations

import pytest

from engine import match as M
from engine.ridder_toernooi import GAME
from engine.ridder_toernooi.simulate import play_game
from engine.ridder_toernooi.state import ELIMINATED


@pytest.mark.rule("ridder_toernooi.R19")
def test_a_knight_out_of_the_tournament_gives_his_kerchief_back_at_the_end_of_the_day():
    seen = 0
    for seed in range(12):
        log = play_game(4, ["random"] * 4, seed, keep_log=True, max_events=5000)["log"]
        worn: set[int] = set()  # knights put out while wearing a kerchief
        for _, before, after in M.replay_steps(log):
            s = after.state
            for k, kn in enumerate(s.knights):
                if kn.status == ELIMINATED and kn.kerchief != -1:
                    worn.add(k)
                    # while the day runs the lady's kerchief is still on him, both ways
                    assert s.ladies[kn.kerchief].knight == k
            assert GAME.invariants(s) == [], (seed, after.seq)
        final = M.replay(log).state
        for k in worn:
            assert final.knights[k].kerchief == -1
            seen += 1
    assert seen, "no knight was put out while wearing a kerchief in these tournaments"
