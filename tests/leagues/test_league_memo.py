"""What a league state works out once (its standings, its next pairing) and
keeps: never shared with a caller that could change it, never carried over
to the next state, and no shortcut past the reducer's check of a pairing."""

from __future__ import annotations

import random

import pytest

from engine.core import RuleViolation
from leagues import league as L
from leagues.standings import standings
from tests.leagues.reference_standings import reference_standings


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


def test_every_state_reads_the_standings_of_its_own_results_kept_or_not():
    """The standings are kept result by result along the line of states the
    reducer makes: a state reads them if it is where they are, and works
    them out from its results if not (an older state, or a sibling made from
    a state the line has left). Every state's table is the table of its own
    results, whichever way it was read."""
    rng = random.Random(4)
    rules = {"win": 3, "draw": 1, "tiebreaks": ["buchholz_cut1", "sonneborn_berger", "direct_encounter", "wins"]}
    state = L.start({"name": "x", "game": "braverats", "format": "swiss", "rounds": 4, "rules": rules,
                     "pairing_system": 3})
    for i in range(11):  # a bye each round
        state = L.apply(state, "register", {"player": f"P{i}"})
    states = [state]

    def check(s: L.LeagueState) -> None:
        assert s.standings() == reference_standings(s.results(), s.rules, s.players)

    for rno in range(1, 5):
        state = L.apply(state, "pair", L.next_pairing(state))
        states.append(state)
        for b, board in enumerate(state.rounds[-1].boards, 1):
            if rng.random() < 0.2:
                state = L.apply(state, "forfeit", {"round": rno, "board": b, "forfeited": [board.players[1]],
                                                   "reason": "late"})
            else:
                match = f"m{rno}-{b}"
                state = L.apply(state, "link", {"round": rno, "board": b, "match": match,
                                                "players": list(board.players)})
                state = L.apply(state, "result", {"round": rno, "board": b, "match": match,
                                                  "players": list(board.players),
                                                  "ranks": rng.choice([[1, 2], [2, 1], [1, 1]])})
            states.append(state)
            if rng.random() < 0.3:  # read along the line now and then (the rest later, left behind)
                check(state)
        fixed = state.rounds[-1].boards[0]
        if fixed.match is not None:  # a correction: one result out, another in
            state = L.apply(state, "correction", {"round": rno, "board": 1, "match": fixed.match,
                                                  "players": list(fixed.players),
                                                  "ranks": [2, 1] if fixed.outcome.ranks != (2, 1) else [1, 2],
                                                  "reason": "misread"})
            states.append(state)
        check(state)
    for s in rng.sample(states, len(states)):  # older states, read after the line moved on
        check(s)
    old = states[len(states) // 2]
    board = next(b for b, x in enumerate(old.rounds[-1].boards, 1) if x.outcome is not None)
    sibling = L.apply(old, "correction", {"round": len(old.rounds), "board": board, "forfeited":
                                          [old.rounds[-1].boards[board - 1].players[0]], "reason": "appeal"})
    check(sibling)
    check(L.apply(state, "withdraw", {"player": "P0"}))
    assert state.standings() == reference_standings(state.results(), state.rules, state.players)
