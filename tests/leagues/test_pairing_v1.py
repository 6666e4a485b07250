"""Leagues paired by the first releases' system (pairing v1) replay and verify
unchanged after the FIDE Dutch system (v2) replaced it: a setup that names no
``pairing_system`` is v1, and ``leagues.pairing_v1`` still pairs as the old
code did (fixtures made from that code by make_pairing_v1_fixtures.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine.core import MalformedEvent, RuleViolation
from leagues import league as L
from leagues import pairing, pairing_v1

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "pairing_v1.json").read_text())


@pytest.mark.parametrize("t", FIXTURES["swiss"], ids=lambda t: f"{t['players']}p-seed{t['seed']}")
def test_v1_swiss_pairs_every_recorded_round_as_the_old_code_did(t):
    history = []
    for number, rnd in enumerate(t["rounds"], start=1):
        standings = [(p, Fraction(s)) for p, s in rnd["standings"]]
        got = pairing_v1.swiss_pairings(standings, history, number)
        assert got.to_dict() == rnd["pairing"], number
        history.append(got)


@pytest.mark.parametrize("n", sorted(FIXTURES["double_round_robin"], key=int))
def test_v1_double_round_robin_is_the_old_table(n):
    table = pairing_v1.berger_round_robin([f"p{k}" for k in range(int(n))], double=True)
    assert [[list(b) for b in rnd] for rnd in table] == FIXTURES["double_round_robin"][n]


def _play_double_round_robin(setup: dict) -> tuple[L.LeagueState, list[dict]]:
    """A 4-player double round robin driven by forfeits (the first player of
    each board forfeits), pairing each round as the league's system does."""
    state = L.start(setup)
    for p in ("Ann", "Bob", "Cas", "Dirk"):
        state = L.apply(state, "register", {"player": p})
    pairs = []
    while not state.finished:
        expected = L.next_pairing(state)
        pairs.append(expected)
        state = L.apply(state, "pair", expected)
        for b, board in enumerate(expected["boards"], start=1):
            state = L.apply(state, "forfeit", {"round": expected["round"], "board": b,
                                               "forfeited": [board[0]], "reason": "absent"})
    return state, pairs


def test_a_league_without_a_pairing_system_is_paired_by_v1_and_a_new_one_by_the_current_system():
    base = {"name": "Old club", "game": "braverats", "format": "double_round_robin"}
    old, old_pairs = _play_double_round_robin(base)
    new, new_pairs = _play_double_round_robin({**base, "pairing_system": L.PAIRING_SYSTEM})
    assert old.pairing_system == 1 and new.pairing_system == L.PAIRING_SYSTEM == 4
    # the seam swap is the difference: the systems disagree on some round ...
    differ = [k for k, (a, b) in enumerate(zip(old_pairs, new_pairs)) if a != b]
    assert differ
    # ... and each league accepts only its own system's pairing there
    k = differ[0]
    replayed = L.start(base)
    for p in ("Ann", "Bob", "Cas", "Dirk"):
        replayed = L.apply(replayed, "register", {"player": p})
    for j in range(k):
        replayed = L.apply(replayed, "pair", old_pairs[j])
        for b, board in enumerate(old_pairs[j]["boards"], start=1):
            replayed = L.apply(replayed, "forfeit", {"round": j + 1, "board": b, "forfeited": [board[0]],
                                                     "reason": "absent"})
    with pytest.raises(RuleViolation):
        L.apply(replayed, "pair", new_pairs[k])
    assert L.apply(replayed, "pair", old_pairs[k]).rounds[-1].pairings == old_pairs[k]


def test_the_pairing_system_is_checked():
    for bad in (0, 5, True, "2"):
        with pytest.raises(MalformedEvent):
            L.start({"name": "x", "game": "braverats", "format": "swiss", "rounds": 3, "pairing_system": bad})


def test_a_new_league_records_the_current_system(client):
    res = client.post("/api/leagues", json={"name": "New club", "game": "braverats", "format": "swiss", "rounds": 3})
    assert res.status_code == 201, res.get_json()
    events = client.get(f"/api/leagues/{res.get_json()['id']}/events").get_json()["events"]
    assert events[0]["data"]["pairing_system"] == L.PAIRING_SYSTEM == 4
    assert pairing.swiss_pairings is not pairing_v1.swiss_pairings
