"""Kroniek's Dutch system against bbpPairings v6 (FIDE C.04.3 as approved in
2025) on the committed random tournaments (tests/leagues/fixtures/bbp_dutch,
made by make_bbp_fixtures.py): never an illegal pairing, and at least the
measured share of rounds identical to bbp's (same boards, same colours, same
bye). The floors sit just under what this implementation reaches; raise them
when the pairing improves, never lower them to make a change pass."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.leagues.bbp_fixtures import load, replay, summary

#: identical rounds / all rounds, per field size, as measured (see the module docstring)
FLOORS = {16: 0.97, 64: 1.0, 256: 0.97, 1024: 0.89}  # measured: 166/171, 91/91, 44/45, 17/19
OVERALL_FLOOR = 0.97  # measured: 318/326 (pairing system 3; v2 reached 300/326)


@pytest.fixture(scope="module")
def checks():
    return [c for data in load() for c in replay(data)]


def test_the_fixtures_cover_the_brief():
    data = load()
    sizes = Counter(d["players"] for d in data)
    assert set(sizes) == {16, 64, 256, 1024}
    assert sum(len(d["round_data"]) for d in data) >= 300
    assert all(5 <= d["rounds"] <= 9 for d in data)
    assert any(r["absent"] for d in data for r in d["round_data"])
    assert any(r["bye"] is not None for d in data for r in d["round_data"])
    assert all(d["engine"].startswith("bbpPairings v6") for d in data)


@pytest.mark.rule("C.04.3-C.1-C.3")
def test_no_round_breaks_an_absolute_criterion(checks):
    bad = [(c.players, c.round, c.illegal) for c in checks if c.illegal]
    assert not bad


@pytest.mark.rule("C.04.3")
def test_identical_to_bbp_in_at_least_the_measured_share(checks):
    s = summary(checks)
    for players, (same, total) in s["by_players"].items():
        assert same / total >= FLOORS[players], (players, same, total)
    assert s["identical"] / s["rounds"] >= OVERALL_FLOOR, s
