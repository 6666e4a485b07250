"""Leagues paired by the first Dutch-system release (pairing system v2) replay
and verify unchanged after ``leagues.pairing`` (v3) came closer to
bbpPairings: ``leagues.pairing_v2`` still pairs as the released code did
(fixtures made from that code by make_pairing_v2_fixtures.py), a league that
recorded ``pairing_system: 2`` is paired by it, and a new league records the
current system (4 since v3 was frozen in its turn)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core import RuleViolation
from leagues import league as L
from leagues import pairing, pairing_v2

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "pairing_v2.json").read_text())


def _numbers(t: dict) -> dict[str, int]:
    return {f"p{k:02d}": k for k in range(1, t["players"] + 1)}


@pytest.mark.parametrize("t", FIXTURES["swiss"], ids=lambda t: f"{t['players']}p-seed{t['seed']}")
def test_v2_swiss_pairs_every_recorded_round_as_the_released_code_did(t):
    history = []
    for number, rnd in enumerate(t["rounds"], start=1):
        standings = [(p, Fraction(s)) for p, s in rnd["standings"]]
        got = pairing_v2.swiss_pairings(standings, history, number, rounds=t["planned_rounds"],
                                        pairing_numbers=_numbers(t))
        assert got.to_dict() == rnd["pairing"], number
        history.append(got)


def test_the_current_system_pairs_some_recorded_v2_rounds_otherwise():
    """Why v2 is frozen: on the same standings and history, v3 differs."""
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
    state = L.start({"name": "Club", "game": "braverats", "format": "swiss", "rounds": 5, "pairing_system": system})
    for k in range(12):
        state = L.apply(state, "register", {"player": f"P{k:02d}"})
    return state


def _forfeit_white(state: L.LeagueState, pairing_: dict) -> L.LeagueState:
    for b, board in enumerate(pairing_["boards"], start=1):
        state = L.apply(state, "forfeit", {"round": pairing_["round"], "board": b, "forfeited": [board[0]],
                                           "reason": "absent"})
    return state


def test_a_v2_league_is_paired_by_v2_and_refuses_the_current_systems_pairing():
    """12 players, white forfeits every board: the systems part in round 3."""
    old, new = _league(2), _league(L.PAIRING_SYSTEM)
    assert (old.pairing_system, new.pairing_system) == (2, L.PAIRING_SYSTEM)
    for _ in range(2):
        expected = L.next_pairing(old)
        assert expected == L.next_pairing(new)
        old, new = (_forfeit_white(L.apply(s, "pair", expected), expected) for s in (old, new))
    v2, v3 = L.next_pairing(old), L.next_pairing(new)
    assert v2 != v3
    with pytest.raises(RuleViolation):
        L.apply(old, "pair", v3)
    with pytest.raises(RuleViolation):
        L.apply(new, "pair", v2)
    assert L.apply(old, "pair", v2).rounds[-1].pairings == v2
    assert L.apply(new, "pair", v3).rounds[-1].pairings == v3
