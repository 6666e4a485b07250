"""A league's audit trail, end to end: a played league exports an archive
that `kroniek audit verify` accepts offline; tampering in Redis with a match
event, a result or a league event is caught by the verifier and by the audit
endpoint, each with where; so are edits to the exported file itself."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from replays import EventStore
from replays.signing import public_key_b64
from service.cli import main
from tests.support.tamper import forge_entry, rewrite_entry
from tests.test_leagues_api import play_board, post


@pytest.fixture
def played(client, store):
    """A round robin of four BraveRats players: round 1 played with real,
    validated matches, round 2 with one result and one forfeit."""
    lid = post(client, "/api/leagues", {"name": "Club", "game": "braverats", "format": "round_robin",
                                         "players": ["Ann", "Bob", "Cas", "Dee"]})["id"]
    matches = []
    for rnd in (1, 2):
        boards = post(client, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]["boards"]
        for board in (1, 2):
            if (rnd, board) == (2, 2):
                absent = boards[1]["players"][1]
                post(client, f"/api/leagues/{lid}/forfeits", {"round": 2, "board": 2, "forfeited": [absent],
                                                              "reason": "did not come"})
                continue
            matches.append(play_board(client, store, lid, rnd, board))
    return lid, matches, absent


def export(client, lid) -> list[str]:
    r = client.get(f"/api/leagues/{lid}/export")
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    return r.get_data(as_text=True).splitlines()


def verify(tmp_path, lines, *extra) -> tuple[int, dict]:
    path = tmp_path / "league.jsonl"
    path.write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(main, ["audit", "verify", str(path), "--json", *extra])
    return r.exit_code, json.loads(r.output)


def problems(report) -> str:
    return "\n".join(f"{p['where']}: {p['problem']}" for p in report["problems"])


def test_a_clean_export_verifies_offline_and_the_audit_agrees(client, played, tmp_path, signing_key):
    lid, matches, absent = played
    lines = export(client, lid)
    code, report = verify(tmp_path, lines, "--public-key", public_key_b64(signing_key))
    assert code == 0, problems(report)
    assert report["checked"]["matches"] == 3 and report["checked"]["results"] == 3
    assert report["checked"]["proofs"] == 4  # the league and its three finished matches
    audit = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert audit["valid"] is True and audit["problems"] == []
    # the human-readable report says so too
    path = tmp_path / "league.jsonl"
    out = CliRunner().invoke(main, ["audit", "verify", str(path)])
    text = " ".join(out.output.split())  # rich wraps lines to the terminal
    assert out.exit_code == 0 and "the archive verifies" in text and "pass the server's public key" in text


def test_a_stored_match_event_edited_in_redis_is_caught(client, store, played, tmp_path):
    lid, matches, absent = played
    victim = matches[0]
    event = store.events(victim)[2]
    rewrite_entry(store, victim, 3, data={"cards": list(reversed(event["data"]["cards"]))})
    audit = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert audit["valid"] is False
    assert f"match {victim} seq 3" in problems(audit) and "edited" in problems(audit)
    code, report = verify(tmp_path, export(client, lid))
    assert code == 1 and f"match {victim} seq 3: its hash does not match its content" in problems(report)


def test_a_match_log_forged_with_fresh_hashes_is_caught_by_the_result_and_the_tree(client, store, played, tmp_path):
    lid, matches, absent = played
    victim = matches[1]
    event = store.events(victim)[2]
    forge_entry(store, victim, 3, data={"cards": list(reversed(event["data"]["cards"]))})
    assert client.get(f"/api/matches/{victim}/audit").get_json()["valid"] is True  # its own chain checks out
    code, report = verify(tmp_path, export(client, lid))
    text = problems(report)
    assert code == 1
    assert f"proof for match {victim}" in text and "changed after it was logged" in text
    assert f"names match {victim} at seq" in text or f"match {victim}'s log gives" in text
    assert client.get(f"/api/leagues/{lid}/audit").get_json()["valid"] is False


def test_a_result_changed_in_redis_is_caught(client, store, played, tmp_path):
    lid, matches, absent = played
    leagues = EventStore(store.r, store.prefix, kind="l")
    log = leagues.events(lid)
    result = next(e for e in log if e["type"] == "result" and e["data"]["match"] == matches[0])
    swapped = {**result["data"], "ranks": list(reversed(result["data"]["ranks"]))}
    # re-hashed so the league's own chain still checks out: only the match log and the tree can tell
    forge_entry(leagues, lid, result["seq"], data=swapped)
    assert client.get(f"/api/leagues/{lid}/events").status_code == 200
    audit = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert audit["first_invalid_seq"] is None and audit["valid"] is False
    assert f"league {lid} seq {result['seq']} (result)" in problems(audit)
    code, report = verify(tmp_path, export(client, lid))
    text = problems(report)
    assert code == 1 and f"match {matches[0]}'s log gives ranks" in text
    assert f"proof for league {lid}" in text


def test_a_league_event_edited_or_removed_in_redis_is_caught(client, store, played, tmp_path):
    lid, _, _ = played
    leagues = EventStore(store.r, store.prefix, kind="l")
    rewrite_entry(leagues, lid, 3, data={"player": "Mallory"})
    audit = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert audit["valid"] is False and audit["first_invalid_seq"] == 3
    code, report = verify(tmp_path, export(client, lid))
    assert code == 1 and f"league {lid} seq 3: its hash does not match its content" in problems(report)


def test_a_removed_league_event_is_caught(client, store, played, tmp_path):
    lid, _, _ = played
    leagues = EventStore(store.r, store.prefix, kind="l")
    store.r.xdel(leagues.key(lid, "log"), "4-0")
    audit = client.get(f"/api/leagues/{lid}/audit").get_json()
    assert audit["valid"] is False and audit["first_invalid_seq"] == 4


@pytest.mark.parametrize("edit", ["reorder", "drop", "result", "truncate", "signature", "foreign_key"])
def test_edits_to_the_exported_file_are_caught(client, played, tmp_path, edit, signing_key):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    lid, matches, absent = played
    lines = export(client, lid)
    records = [json.loads(line) for line in lines]
    events = [i for i, r in enumerate(records) if r["kind"] == "event" and r["stream"] == "m" and r["id"] == matches[2]]
    pinned = public_key_b64(signing_key)
    if edit == "reorder":
        a, b = events[2], events[3]
        lines[a], lines[b] = lines[b], lines[a]
        expect = f"match {matches[2]} seq"
    elif edit == "drop":
        del lines[events[1]]
        expect = f"match {matches[2]} seq"
    elif edit == "result":
        i = next(i for i, r in enumerate(records) if r["kind"] == "event" and r["event"]["type"] == "result")
        records[i]["event"]["data"]["scores"] = [9, 9]
        lines[i] = json.dumps(records[i])
        expect = f"league {lid} seq {records[i]['event']['seq']}: its hash does not match"
    elif edit == "truncate":
        lines = lines[:-3]
        expect = "footer: missing"
    elif edit == "signature":
        i = next(i for i, r in enumerate(records) if r["kind"] == "tree_head")
        records[i]["tree_size"] += 1
        lines[i] = json.dumps(records[i])
        expect = "tree_head: its signature does not verify"
    else:
        pinned = public_key_b64(Ed25519PrivateKey.generate())
        expect = "tree_head: its signature does not verify with the given key"
    code, report = verify(tmp_path, lines, "--public-key", pinned)
    assert code == 1
    assert expect in problems(report), problems(report)


def test_play_rows_for_play_logging_apps(client, played):
    lid, matches, absent = played
    plays = client.get(f"/api/leagues/{lid}/plays").get_json()["plays"]
    assert len(plays) == 4
    first = plays[0]
    assert first["match"] == matches[0] and len(first["date"]) == 10
    assert sorted(first["ranks"]) in ([1, 1], [1, 2]) and first["start_player"] is None  # BraveRats: both reveal at once
    assert len(first["scores"]) == 2
    match = client.get(f"/api/matches/{matches[0]}").get_json()
    assert first["scores"] == match["result"]["scores"]
    assert first["winners"] == [match["players"][s] for s in match["result"]["winners"]]
    forfeit = next(p for p in plays if p["forfeit"])
    assert forfeit["forfeit"] == "did not come" and absent not in forfeit["winners"] and forfeit["scores"] is None
    csv_text = client.get(f"/api/leagues/{lid}/plays?format=csv").get_data(as_text=True)
    header, *rows = csv_text.strip().splitlines()
    assert header.startswith("date,game,league,round,board,match,player,seat,score,rank,winner,start_player")
    assert len(rows) == 8  # a row per player per play


# The formats' fields as their makers write them (docs/leagues.md names the sources): BG Stats' play file, as the
# app writes it when it shares plays (an "about" text, then players, locations, games and plays with
# playerScores by playerRefId), and BoardGameGeek's play and player attributes in its XML API 2.
BGSTATS_TOP = {"about", "players", "locations", "games", "plays", "modificationDate"}
BGSTATS_PLAYER = {"id": int, "uuid": str, "name": str, "isAnonymous": bool, "bggUsername": str}
BGSTATS_LOCATION = {"id": int, "uuid": str, "name": str}
BGSTATS_GAME = {"id": int, "uuid": str, "name": str, "cooperative": bool, "highestWins": bool, "noPoints": bool,
                "usesTeams": bool, "bggId": int}
BGSTATS_PLAY = {"uuid": str, "playDate": str, "gameRefId": int, "locationRefId": int, "durationMin": int,
                "ignored": bool, "manualWinner": bool, "rounds": int, "usesTeams": bool, "comments": str,
                "playerScores": list}
BGSTATS_SCORE = {"playerRefId": int, "score": str, "winner": bool, "newPlayer": bool, "startPlayer": bool,
                 "rank": int, "seatOrder": int}
BGG_PLAY = ("date", "quantity", "length", "incomplete", "nowinstats", "location")
BGG_ITEM = ("objectname", "objectid")
BGG_PLAYER = ("username", "userid", "name", "startposition", "color", "score", "new", "rating", "win")


def _fields(record: dict, documented: dict, required: set | None = None) -> None:
    assert set(record) <= set(documented), set(record) - set(documented)
    assert set(required if required is not None else set(documented) - {"bggId"}) <= set(record)
    for key, value in record.items():
        assert isinstance(value, documented[key]), (key, value)


def test_a_league_exports_a_bg_stats_play_file_with_the_apps_own_fields(client, played):
    import re
    import uuid

    lid, matches, absent = played
    r = client.get(f"/api/leagues/{lid}/plays?format=bgstats")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Disposition"].endswith(f"plays-{lid}.bgsplay")
    data = r.get_json()
    assert set(data) <= BGSTATS_TOP and {"about", "players", "locations", "games", "plays"} <= set(data)
    for p in data["players"]:
        _fields(p, BGSTATS_PLAYER)
    for loc in data["locations"]:
        _fields(loc, BGSTATS_LOCATION)
    for g in data["games"]:
        _fields(g, BGSTATS_GAME)
    assert data["games"][0]["name"] == "BraveRats" and data["locations"][0]["name"] == "Club"
    rows = client.get(f"/api/leagues/{lid}/plays").get_json()["plays"]
    played_rows = [row for row in rows if row["forfeit"] is None]
    assert len(data["plays"]) == len(played_rows) == 3  # the forfeit is no play
    names = {p["id"]: p["name"] for p in data["players"]}
    assert sorted(names.values()) == ["Ann", "Bob", "Cas", "Dee"] and len(set(names)) == 4
    for play, row in zip(data["plays"], played_rows):
        _fields(play, BGSTATS_PLAY)
        uuid.UUID(play["uuid"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
        assert play["playDate"] == row["finished_at"][:19].replace("T", " ")
        assert play["gameRefId"] in {g["id"] for g in data["games"]}
        assert play["locationRefId"] in {loc["id"] for loc in data["locations"]}
        assert row["match"] in play["comments"]
        for ps in play["playerScores"]:
            _fields(ps, BGSTATS_SCORE)
        assert [names[ps["playerRefId"]] for ps in play["playerScores"]] == row["players"]
        assert [ps["score"] for ps in play["playerScores"]] == [str(s) for s in row["scores"]]
        assert [names[ps["playerRefId"]] for ps in play["playerScores"] if ps["winner"]] == row["winners"]
        assert [ps["rank"] for ps in play["playerScores"]] == row["ranks"]
    again = client.get(f"/api/leagues/{lid}/plays?format=bgstats").get_json()
    assert [p["uuid"] for p in again["plays"]] == [p["uuid"] for p in data["plays"]]  # re-imported: no doubles
    mine = client.get(f"/api/leagues/{lid}/plays?format=bgstats&player=Ann").get_json()
    own = {p["id"]: p["name"] for p in mine["players"]}
    assert mine["plays"] and all("Ann" in [own[ps["playerRefId"]] for ps in p["playerScores"]] for p in mine["plays"])
    assert len(mine["plays"]) == sum("Ann" in row["players"] for row in played_rows)


def test_a_league_exports_boardgamegeeks_play_fields_a_row_per_player(client, played):
    import csv
    import io

    lid, matches, absent = played
    r = client.get(f"/api/leagues/{lid}/plays?format=bgg")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    table = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert tuple(table[0]) == BGG_PLAY + BGG_ITEM + ("comments",) + BGG_PLAYER
    rows = [row for row in client.get(f"/api/leagues/{lid}/plays").get_json()["plays"] if row["forfeit"] is None]
    assert len(table) == 2 * len(rows) == 6
    for i, row in enumerate(rows):
        for seat, line in enumerate(table[2 * i: 2 * i + 2]):
            assert line["date"] == row["finished_at"][:10] and line["objectname"] == "BraveRats"
            assert line["name"] == row["players"][seat] and line["startposition"] == str(seat + 1)
            assert line["score"] == str(row["scores"][seat])
            assert line["win"] == str(int(row["players"][seat] in row["winners"]))
            assert line["quantity"] == "1" and line["incomplete"] == "0" and line["location"] == "Club"
            assert int(line["length"]) >= 0
    only = list(csv.DictReader(io.StringIO(client.get(f"/api/leagues/{lid}/plays?format=bgg&player=Bob")
                                           .get_data(as_text=True))))
    assert only and len(only) == 2 * sum("Bob" in row["players"] for row in rows)
    bad = client.get(f"/api/leagues/{lid}/plays?format=bgx")
    assert bad.status_code == 400 and "format" in bad.get_data(as_text=True)
