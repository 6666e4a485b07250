"""What a league state works out once (its standings, its next pairing) and
keeps: never shared with a caller that could change it, never carried over
to the next state, and no shortcut past the reducer's check of a pairing."""

from __future__ import annotations

import pytest

from engine.core import RuleViolation
from leagues import league as L
from leagues.standings import standings


def swiss(players: int = 8) -> L.LeagueState:
    state = L.start({"name": "x", "game": "braverats", "format": "swiss", "rounds": 3, "rules": {},
                     "pairing_system": 3})
    for i in range(players):
        state = L.apply(state, "register", {"player": f"P{i}"})
    return state


def test_each_caller_gets_its_own_copy_of_the_pairing():
    state = swiss()
    first = L.next_pairing(state)
    expected = L._next_pairing(state)  # worked out afresh, without the memo
    first["boards"][0].reverse()
    first["boards"].append(["P0", "P1"])
    first["bye"] = "P7"
    again = L.next_pairing(state)
    assert again == expected and again is not first and again["boards"] is not first["boards"]


def test_the_reducer_still_refuses_a_pairing_other_than_the_systems_on_a_state_that_paired_once():
    state = swiss()
    good = L.next_pairing(state)  # the memo is filled
    forged = {**good, "boards": [list(reversed(good["boards"][0])), *good["boards"][1:]]}
    with pytest.raises(RuleViolation) as err:
        L.apply(state, "pair", forged)
    assert err.value.rule == "league.pair"
    assert L.apply(state, "pair", good).rounds[0].pairings == good


def test_the_next_state_works_out_its_own_standings():
    state = L.apply(swiss(4), "pair", L.next_pairing(swiss(4)))
    before = state.standings()
    before.clear()  # the caller's list, not the state's
    assert [s.points for s in state.standings()] == [0, 0, 0, 0]
    a, b = state.rounds[0].boards[0].players
    state = L.apply(state, "forfeit", {"round": 1, "board": 1, "forfeited": [b], "reason": "ill"})
    table = {s.player: s.points for s in state.standings()}
    assert table[a] == 1 and table[b] == 0
    assert state.standings() == standings(state.results(), state.rules, state.players)
