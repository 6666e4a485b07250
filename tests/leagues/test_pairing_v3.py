"""Leagues paired by the second Dutch-system release (pairing system v3)
replay and verify unchanged after ``leagues.pairing`` changes:
``leagues.pairing_v3`` still pairs as the released code did (fixtures made
from that code by make_pairing_v3_fixtures.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from leagues import pairing_v3

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
