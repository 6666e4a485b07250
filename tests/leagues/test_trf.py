"""FIDE's TRF for Swiss leagues (leagues/trf.py): written for a pairing program to check a round, read so a
tournament begun elsewhere goes on here. The committed bbpPairings tournaments (tests/leagues/fixtures/bbp_dutch,
each with the TRF bbpPairings was given) are the reference: read, imported, written again and read back, they are
the same tournament; and the round Kroniek pairs after importing one is the round bbpPairings paired."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from leagues import league as L
from leagues import trf
from tests.leagues.fixtures.make_bbp_fixtures import trf_text
from tests.test_leagues_api import play_board, post

FIXTURES = Path(__file__).parent / "fixtures" / "bbp_dutch"


def imported(text: str, game: str = "braverats") -> L.LeagueState:
    t = trf.read(text)
    events = [{"type": "setup", "data": {"name": t.name, "game": game, "format": "swiss",
                                         "rounds": t.planned_rounds, "rules": t.rules(),
                                         "pairing_system": L.PAIRING_SYSTEM}}]
    events += [{"type": "register", "data": {"player": t.players[n]}} for n in sorted(t.players)]
    events += [{"type": "import_round", "data": r} for r in trf.import_rounds(t)]
    return L.replay(events)


def test_every_reference_tournament_reads_imports_and_writes_back_the_same():
    files = sorted(FIXTURES.glob("*.trf"))
    assert len(files) >= 40
    for path in files:
        original = trf.read(path.read_text())
        state = imported(path.read_text())
        assert {s.player: s.points for s in state.standings()} == \
            {original.players[n]: p for n, p in original.stated.items()}, path.name
        again = trf.read(trf.write(state, state.standings()))
        assert again.players == original.players and again.stated == original.stated, path.name
        assert [(r.games, r.byes, r.absent) for r in again.rounds] == \
            [(r.games, r.byes, r.absent) for r in original.rounds], path.name


@pytest.mark.rule("league.import")
def test_after_an_imported_round_kroniek_pairs_the_next_as_bbppairings_did():
    """The TRF bbpPairings read after round k, imported here: Kroniek's round k+1 is bbpPairings's, in every
    round of the reference tournaments where nobody was absent from it (an absence is the file's news for the
    round to come, which a league does not keep)."""
    compared = same = 0
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text())
        names = [f"p{i + 1:04d}" for i in range(data["players"])]
        rounds = data["round_data"]
        for k in range(1, len(rounds)):
            if rounds[k]["absent"] or data["players"] > 256:
                continue
            state = imported(trf_text(names, data["ratings"], rounds[:k], data["rounds"]))
            mine = L.next_pairing(state)
            index = {n: i for i, n in enumerate(names)}
            compared += 1
            same += sorted((index[w], index[b]) for w, b in mine["boards"]) == sorted(map(tuple, rounds[k]["boards"])) \
                and (None if mine["bye"] is None else index[mine["bye"]]) == rounds[k]["bye"]
    assert compared >= 60 and same == compared, (same, compared)


def league_played(client, store, rounds: int = 4, players: int = 9, seed: int = 5) -> str:
    names = [f"P{i}" for i in range(players - 1)] + ["Zoë Ångström"]
    lid = post(client, "/api/leagues", {"name": "Club night", "game": "braverats", "format": "swiss",
                                         "rounds": rounds + 1, "players": names})["id"]
    rng = random.Random(seed)
    for round_no in range(1, rounds + 1):
        rnd = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
        for board in rnd["boards"]:
            if rng.random() < 0.3:
                post(client, f"/api/leagues/{lid}/forfeits", {"round": round_no, "board": board["board"],
                                                              "forfeited": [rng.choice(board["players"])],
                                                              "reason": "did not come"})
                continue
            play_board(client, store, lid, round_no, board["board"])
    return lid


@pytest.mark.rule("league.import", "league.trf")
def test_a_league_written_as_trf_imports_as_a_league_with_the_same_standings_and_next_round(client, store, tmp_path):
    lid = league_played(client, store)
    res = client.get(f"/api/leagues/{lid}/trf")
    assert res.status_code == 200 and res.mimetype == "text/plain"
    text = res.get_data(as_text=True)
    lines = text.splitlines()
    assert "XXR 5" in lines and "XXC white1" in lines
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 9
    for line in players:  # TRF's columns, counted in bytes
        data = line.encode()
        assert data[80:84].decode().strip() and data[88:89] != b" " and data[89:91] == b"  "
        assert len(data) == 91 + 4 * 10 - 2
    assert players[-1].encode()[14:47].decode().strip() == "Zoë Ångström"
    copy = client.post("/api/leagues/import?game=braverats&name=Copy", data=text.encode(),
                       content_type="text/plain; charset=utf-8")
    assert copy.status_code == 201, copy.get_json()
    cid = copy.get_json()["id"]
    assert copy.get_json()["name"] == "Copy" and len(copy.get_json()["rounds"]) == 4
    ours = client.get(f"/api/leagues/{lid}/standings").get_json()["standings"]
    theirs = client.get(f"/api/leagues/{cid}/standings").get_json()["standings"]
    assert theirs == ours
    a = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]
    b = post(client, f"/api/leagues/{cid}/rounds")["league"]["rounds"][-1]
    assert [x["players"] for x in a["boards"]] == [x["players"] for x in b["boards"]] and a["bye"] == b["bye"]
    events = client.get(f"/api/leagues/{cid}/events").get_json()
    kinds = [e["type"] for e in (events["events"] if isinstance(events, dict) else events)]
    assert kinds.count("import_round") == 4 and kinds[-1] == "pair"
    assert client.get(f"/api/leagues/{cid}/audit").get_json()["valid"] is True
    from tests.test_league_audit import export, verify

    code, report = verify(tmp_path, export(client, cid))  # the archive of a league begun elsewhere verifies
    assert code == 0, report["problems"]
    as_json = client.post("/api/leagues/import", json={"game": "braverats", "trf": text, "tiebreaks": ["wins"]})
    assert as_json.status_code == 201 and as_json.get_json()["name"] == "Club night"
    table = client.get(f"/api/leagues/{as_json.get_json()['id']}/standings").get_json()["standings"]
    assert all(list(row["tiebreaks"]) == ["wins"] for row in table)
    bad = client.post("/api/leagues/import", json={"game": "braverats", "trf": text, "tiebreaks": ["luck"]})
    assert bad.status_code == 400 and "tiebreaks" in bad.get_json()["error"]["message"]


def spoiled(text: str, player: int, cut: slice, new: str) -> str:
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(f"001 {player:4d}"))
    data = bytearray(lines[i].encode())
    data[cut] = new.encode()
    lines[i] = data.decode()
    return "\n".join(lines) + "\n"


@pytest.mark.rule("league.import")
def test_a_trf_that_does_not_hold_together_is_refused_with_its_line_and_nothing_is_written(client, store):
    from replays import EventStore

    text = (FIXTURES / "n0016_s16000.trf").read_text()
    leagues = EventStore(store.r, store.prefix, kind="l")
    before = leagues.match_count()
    cases = {
        "points": (spoiled(text, 1, slice(80, 84), " 9.0"), "has 9 points on his line, but his results give 4"),
        "opponent": (spoiled(text, 1, slice(91, 95), "   3"), "player 1, round 1: 1 meets 3"),
        "colour": (spoiled(text, 1, slice(96, 97), "b"), "player 1, round 1: 1 meets 9 as b"),
        "half bye": (spoiled(text, 1, slice(91, 99), "0000 - H"), "a half-point bye is not a Kroniek league's"),
        "number": (spoiled(text, 2, slice(4, 8), "   1"), "pairing number 1 is given twice"),
    }
    for what, (bad, said) in cases.items():
        res = client.post("/api/leagues/import", json={"game": "braverats", "trf": bad})
        assert res.status_code == 400, (what, res.get_json())
        assert said in res.get_json()["error"]["message"], (what, res.get_json())
        assert "line " in res.get_json()["error"]["message"] or what == "points"
    assert client.post("/api/leagues/import", json={"game": "catan", "trf": text}).status_code == 422
    assert client.post("/api/leagues/import", json={"game": "nope", "trf": text}).status_code == 404
    assert client.post("/api/leagues/import", json={"trf": text}).status_code == 400
    assert client.post("/api/leagues/import", json={"game": "braverats", "trf": text, "x": 1}).status_code == 400
    assert leagues.match_count() == before
    assert client.post("/api/leagues/import", json={"game": "braverats", "trf": text}).status_code == 201
    assert leagues.match_count() == before + 1  # the count sees a league


@pytest.mark.rule("league.trf")
def test_what_trf_cannot_say_is_refused_not_written_wrong(client):
    tables = post(client, "/api/leagues", {"name": "T", "game": "catan", "format": "tables", "rounds": 1,
                                            "players": ["A", "B", "C"]})["id"]
    res = client.get(f"/api/leagues/{tables}/trf")
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "league.trf"
    thirds = post(client, "/api/leagues", {"name": "S", "game": "braverats", "format": "swiss", "rounds": 2,
                                            "players": ["A", "B"], "rules": {"draw": "1/3"}})["id"]
    res = client.get(f"/api/leagues/{thirds}/trf")
    assert res.status_code == 422 and "tenths" in res.get_json()["error"]["message"]
    odd = post(client, "/api/leagues", {"name": "F", "game": "braverats", "format": "swiss", "rounds": 2,
                                         "players": ["A", "B"], "rules": {"forfeit_win": "1/2"}})["id"]
    res = client.get(f"/api/leagues/{odd}/trf")
    assert res.status_code == 422 and "forfeit win" in res.get_json()["error"]["message"]


def test_three_points_for_a_win_are_written_with_bbppairings_point_codes():
    state = L.start({"name": "Football", "game": "braverats", "format": "swiss", "rounds": 3,
                     "rules": {"win": 3, "draw": 1, "loss": 0, "bye": 3, "forfeit_win": 3}})
    for p in ("A", "B", "C"):
        state = L.apply(state, "register", {"player": p})
    state = L.apply(state, "pair", L.next_pairing(state))
    w, b = state.rounds[0].boards[0].players
    state = L.apply(state, "forfeit", {"round": 1, "board": 1, "forfeited": [b], "reason": "ill"})
    text = trf.write(state, state.standings())
    assert "BBW  3.0" in text.splitlines() and "BBD  1.0" in text.splitlines() and "BBU  3.0" in text.splitlines()
    back = trf.read(text)
    assert back.points["BBW"] == Fraction(3) and set(back.stated.values()) == {Fraction(3), Fraction(0)}
    assert back.rounds[0].games[0].results == ("+", "-")
