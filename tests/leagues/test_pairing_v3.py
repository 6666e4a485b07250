"""Leagues paired by the second Dutch-system release (pairing system v3)
replay and verify unchanged after ``leagues.pairing`` (v4) paired the last
bracket exactly: ``leagues.pairing_v3`` still pairs as the released code did
(fixtures made from that code by make_pairing_v3_fixtures.py), a league that
recorded ``pairing_system: 3`` is paired by it, and a new league records 4."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core import RuleViolation
from leagues import league as L
from leagues import pairing, pairing_v3

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "pairing_v3.json").read_text())


def _numbers(t: dict) -> dict[str, int]:
    return {f"p{k:02d}": k for k in range(1, t["players"] + 1)}


@pytest.mark.parametrize("t", FIXTURES["swiss"], ids=lambda t: f"{t['players']}p-seed{t['seed']}")
def test_v3_swiss_pairs_every_recorded_round_as_the_released_code_did(t):
    history = []
    for number, rnd in enumerate(t["rounds"], start=1):
        standings = [(p, Fraction(s)) for p, s in rnd["standings"]]
        got = pairing_v3.swiss_pairings(standings, history, number, rounds=t["planned_rounds"],
                                        pairing_numbers=_numbers(t))
        assert got.to_dict() == rnd["pairing"], number
        history.append(got)


def test_the_current_system_pairs_some_recorded_v3_rounds_otherwise():
    """Why v3 is frozen: on the same standings and history, v4 differs."""
    differ = 0
    for t in FIXTURES["swiss"]:
        history = []
        for number, rnd in enumerate(t["rounds"], start=1):
            standings = [(p, Fraction(s)) for p, s in rnd["standings"]]
            now = pairing.swiss_pairings(standings, history, number, rounds=t["planned_rounds"],
                                         pairing_numbers=_numbers(t))
            differ += now.to_dict() != rnd["pairing"]
            history.append(pairing.Pairings.from_dict(rnd["pairing"]))
    assert differ


def _league(system: int) -> L.LeagueState:
    state = L.start({"name": "Club", "game": "braverats", "format": "swiss", "rounds": 6, "pairing_system": system})
    for k in range(7):
        state = L.apply(state, "register", {"player": f"P{k:02d}"})
    return state


def _forfeit_alternately(state: L.LeagueState, pairing_: dict) -> L.LeagueState:
    """Each board's result by forfeit, white and black forfeiting in turn over the boards and rounds."""
    for b, board in enumerate(pairing_["boards"], start=1):
        loser = board[(pairing_["round"] * 7 + b) % 2]
        state = L.apply(state, "forfeit", {"round": pairing_["round"], "board": b, "forfeited": [loser],
                                           "reason": "absent"})
    return state


def test_a_v3_league_is_paired_by_v3_and_refuses_the_current_systems_pairing():
    """7 players, forfeits: the systems part in round 6, on the bye."""
    old, new = _league(3), _league(L.PAIRING_SYSTEM)
    assert (old.pairing_system, new.pairing_system) == (3, 4)
    for _ in range(5):
        expected = L.next_pairing(old)
        assert expected == L.next_pairing(new)
        old, new = (_forfeit_alternately(L.apply(s, "pair", expected), expected) for s in (old, new))
    v3, v4 = L.next_pairing(old), L.next_pairing(new)
    assert v3 != v4
    with pytest.raises(RuleViolation):
        L.apply(old, "pair", v4)
    with pytest.raises(RuleViolation):
        L.apply(new, "pair", v3)
    assert L.apply(old, "pair", v3).rounds[-1].pairings == v3
    assert L.apply(new, "pair", v4).rounds[-1].pairings == v4
