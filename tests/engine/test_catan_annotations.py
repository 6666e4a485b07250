"""The worker's Catan annotations: production per roll, robber cost, Longest
Road and Largest Army changes, each trade's effect on build options as the
table can tell, and at the end the dice histogram with its chi-square
p-value and the production per player and per hex."""

from __future__ import annotations

import math

import pytest

from engine import match as M
from engine.catan.describe import WAYS, chi_square_p
from engine.catan.simulate import play_game

from .catan_support import G, act, give, new, place


def test_the_chi_square_survival_function_is_exact_for_ten_degrees_of_freedom():
    # the 5% and 1% critical values of chi-square with 10 degrees of freedom
    n = 3600
    expected = [n * w / 36 for w in WAYS]
    for target, p in ((18.307, 0.05), (23.209, 0.01)):
        # observed counts off the expectation in two bins by +d and -d give x = 2 d^2 / e (for equal e)
        e = expected[0]
        d = math.sqrt(target * e / 2)
        observed = list(expected)
        observed[0] += d
        observed[-1] -= d
        x, got = chi_square_p(tuple(observed))
        assert x == pytest.approx(target, rel=1e-9)
        assert got == pytest.approx(p, abs=5e-5)
    assert chi_square_p(tuple(int(e) for e in expected)) == (0.0, 1.0)


def test_a_simulated_game_is_annotated_from_what_the_table_saw():
    record = play_game(4, ["greedy", "random", "greedy", "random"], 11, keep_log=True)
    notes = []
    final = None
    for event, before, after in M.replay_steps(record["log"]):
        final = after
        if before is None:
            continue
        for n in G.annotate(before.state, event["type"], event["seat"], event["data"], after.state):
            notes.append((event, n))
    s = final.state
    production = [n for _, n in notes if n["kind"] == "production"]
    assert len(production) == sum(c for i, c in enumerate(s.hist) if i != 5)
    gained = [0] * 4
    for n in production:
        for p, g in n["gained"].items():
            gained[int(p)] += sum(g.values())
    setup_yield = [sum(s.produced[p]) - gained[p] for p in range(4)]
    assert all(0 <= y <= 3 for y in setup_yield)  # the rest is the second set-up settlement's yield
    changes = [n for _, n in notes if n["kind"] == "longest_road"]
    assert (changes[-1]["to"] if changes else None) == (s.longest if s.longest >= 0 else None)
    summary = next(n for _, n in notes if n["kind"] == "production_summary")
    assert sum(h["cards"] for h in summary["per_hex"]) <= sum(map(sum, s.produced))
    assert {p: v["stolen"] for p, v in summary["robber"].items()} == {str(p): s.lost[p] for p in range(4)}
    hist = next(n for _, n in notes if n["kind"] == "dice_histogram")
    assert sum(hist["observed"].values()) == hist["rolls"] == sum(s.hist)
    assert hist["chi_square"] == pytest.approx(chi_square_p(s.hist)[0], abs=1e-3)
    trades = [n for e, n in notes if n["kind"] == "trade_effect"]
    assert trades and all(set(n["build_options"]) for n in trades)


def test_a_trade_effect_reads_only_the_public_knowledge():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    s = give(s, 0, {"ore": 3, "grain": 1, "wool": 1})
    s = give(s, 1, {"grain": 2})
    after = act(s, "trade", 0, {"with": 1, "give": {"wool": 1}, "get": {"grain": 1}})
    (note,) = [n for n in G.annotate(s, "trade", 0, {"with": 1, "give": {"wool": 1}, "get": {"grain": 1}}, after)
               if n["kind"] == "trade_effect"]
    assert note["build_options"]["0"]["before"]["city"] == "no"
    assert note["build_options"]["0"]["after"]["city"] == "yes"
    assert note["build_options"]["1"]["after"]["development card"] == "no"


def test_a_longest_road_change_is_annotated():
    s = new(4)._replace(phase=7, turn=0, turn_no=1)
    from .catan_support import chain
    vs, es = chain(s, 18, 5)
    s = place(s, 0, edges=es[:4])
    s = give(s, 0, {"lumber": 1, "brick": 1})
    after = act(s, "build_road", 0, {"edge": es[4]})
    notes = G.annotate(s, "build_road", 0, {"edge": es[4]}, after)
    assert [n["kind"] for n in notes] == ["longest_road"] and notes[0]["to"] == 0 and notes[0]["from"] is None
