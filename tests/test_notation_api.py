"""The notation over HTTP and on the command line: ``GET
/api/matches/<id>/notation`` filtered per viewer like the log, ``POST
/api/matches/import`` (201, or 422 naming the line and rule with nothing
written), ``kroniek export`` / ``kroniek import``."""

from __future__ import annotations

import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from engine import match as M
from engine import notation as N
from service.cli import main
from tests.conftest import client_with_token
from tests.support.played import play
from tests.test_input_gate import snapshot
from workers.jobs import validate_log

BRAVERATS = '[Game "braverats"]\n[Players "Ann" "Bob"]\n[Mode "physical"]\n\n'


def import_text(client, text: str, **kwargs):
    return client.post("/api/matches/import", data=text.encode("utf-8"),
                       content_type=kwargs.pop("content_type", "text/plain; charset=utf-8"), **kwargs)


def logged(client, match_id: str) -> list[tuple]:
    events = client.get(f"/api/matches/{match_id}/events?seat=referee").get_json()["events"]
    return [(e["type"], e["seat"], e["data"]) for e in events]


@pytest.mark.parametrize("game_id", ["braverats", "troubadour", "ridder_toernooi", "twaalven", "stapelen",
                                     "sir_tommy"])
def test_an_imported_match_exports_to_the_same_text_and_holds_the_same_log(client, game_id, validations, store):
    log = play(game_id, 7, mode="simulated", undo_rate=0.05, limit=300, finish=False)
    text = N.write(log, [{"seq": 2, "glyph": "!?", "comment": "Ann's idea"}], result=M.replay(log).result_dict)
    res = import_text(client, text)
    assert res.status_code == 201, res.get_json()
    match = res.get_json()
    assert match["game"] == game_id and match["seq"] == len(log) and match["annotations"] == 1
    assert validations == [match["id"]]
    assert logged(client, match["id"])[1:] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]
    setup = logged(client, match["id"])[0][2]
    assert {k: v for k, v in setup["options"].items() if k != "cards"} == log[0]["data"]["options"]
    assert (setup["mode"], setup["seed"], setup["players"]) == ("simulated", 7, log[0]["data"]["players"])
    exported = client.get(f"/api/matches/{match['id']}/notation?seat=referee")
    assert exported.status_code == 200 and exported.mimetype == "text/plain"
    assert exported.headers["Content-Type"] == "text/plain; charset=utf-8"
    body = lambda t: [line for line in t.splitlines() if not line.startswith(("[Date", "[Match", "[View"))]  # noqa
    assert body(exported.get_data(as_text=True)) == body(text)
    notes = client.get(f"/api/matches/{match['id']}/annotations").get_json()["annotations"]
    assert [(n["seq"], n["glyph"], n["comment"], n["author"]) for n in notes] == [(2, "!?", "Ann's idea",
                                                                                 client.user_name)]
    assert client.get(f"/api/matches/{match['id']}/audit").get_json()["valid"]
    assert validate_log(store, match["id"])["status"] == "valid"  # the worker's replay agrees
    # the state at every seq is the one the log gives (snapshots written with the import included)
    assert client.get(f"/api/matches/{match['id']}/state?at={len(log)}&seat=referee").status_code == 200


def test_a_json_body_holds_the_notation_and_may_be_longer_than_a_string(client):
    log = play("troubadour", 3, limit=400, finish=False)
    text = N.write(log)
    assert len(text) > 10_000
    res = client.post("/api/matches/import", json={"notation": text})
    assert res.status_code == 201, res.get_json()
    assert logged(client, res.get_json()["id"])[1:] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]


@pytest.mark.rule("braverats.card_in_hand")
def test_a_bad_line_is_a_422_naming_line_column_and_rule_and_writes_nothing(client, redis_url, prefix, validations):
    text = BRAVERATS + "2. round spy prince\n3. round wizard general {fine}\n4. round spy musician\n"
    before = snapshot(redis_url, prefix)
    res = import_text(client, text)
    assert res.status_code == 422
    err = res.get_json()["error"]
    assert (err["code"], err["line"], err["column"], err["rule"]) == ("invalid_notation", 7, 1,
                                                                     "braverats.card_in_hand")
    assert err["rule_text"] == client.get("/api/games/braverats").get_json()["rules"]["braverats.card_in_hand"]
    assert err["cause"] == "illegal_move" and err["message"].startswith("line 7, column 1: ")
    assert snapshot(redis_url, prefix) == before and validations == []
    res = client.post("/api/matches/import", json={"notation": BRAVERATS + "2. round spy pawn\n"})
    err = res.get_json()["error"]
    assert res.status_code == 422 and (err["line"], err["column"], err["rule"]) == (5, 14, "notation.move")
    assert err["rule_text"] == N.NOTATION_RULES["notation.move"]
    assert snapshot(redis_url, prefix) == before


@pytest.mark.parametrize("body, content_type, status, code", [
    (b"", "text/plain", 400, "bad_request"),
    (b"\xff\xfe", "text/plain", 400, "invalid_value"),
    (b'[Game "braverats"]', "text/plain; charset=latin-1", 415, "unsupported_media_type"),
    (b'[Game "braverats"]', "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
    (b'{"notation": 5}', "application/json", 400, "bad_request"),
    (b'{"notation": "x", "game": "y"}', "application/json", 400, "bad_request"),
    (b'["x"]', "application/json", 400, "bad_request"),
    (b'{"notation": "x", "notation": "y"}', "application/json", 400, "malformed_json"),
    (b'{"notation": "x", "seed": 1.5}', "application/json", 400, "invalid_value"),
])
def test_a_body_that_is_no_notation_is_refused_before_anything_is_read(client, redis_url, prefix, body, content_type,
                                                                       status, code):
    before = snapshot(redis_url, prefix)
    res = client.post("/api/matches/import", data=body, content_type=content_type)
    assert res.status_code == status and res.get_json()["error"]["code"] == code, res.get_json()
    assert snapshot(redis_url, prefix) == before


def test_a_notation_past_its_limit_is_refused(client, redis_url, prefix):
    from service.limits import MAX_NOTATION

    before = snapshot(redis_url, prefix)
    res = client.post("/api/matches/import", json={"notation": " " * (MAX_NOTATION + 1)})
    assert res.status_code in (400, 413) and res.get_json()["error"]["code"] in ("limit_exceeded", "payload_too_large")
    assert snapshot(redis_url, prefix) == before


def test_importing_needs_a_token_as_creating_a_match_does(anon, redis_url, prefix):
    before = snapshot(redis_url, prefix)
    res = import_text(anon, BRAVERATS + "2. round spy prince\n")
    assert res.status_code == 401 and res.get_json()["error"]["code"] == "unauthorized"
    assert snapshot(redis_url, prefix) == before


# -- the export, per viewer ------------------------------------------------------------------

@pytest.fixture
def face_down(client, app, make_user):
    """A BraveRats match where Ann has played the Prince face down, with
    Bob's player holding a token for seat 1."""
    mid = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    assert client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "wizard"]}}
                       ).status_code == 201
    assert client.post(f"/api/matches/{mid}/events", json={"type": "play", "seat": 0, "data": {"card": "prince"}}
                       ).status_code == 201
    name, token = make_user("bob")
    assert client.post(f"/api/matches/{mid}/roles", json={"user": name, "role": "player", "seat": 1}
                       ).status_code == 201
    return mid, client_with_token(app, token)


def test_a_seat_or_public_export_never_shows_another_seats_face_down_card(client, anon, face_down):
    mid, bob = face_down
    for who, query in ((bob, "?seat=1"), (anon, ""), (client, "?seat=1")):
        res = who.get(f"/api/matches/{mid}/notation{query}")
        assert res.status_code == 200
        text = res.get_data(as_text=True)
        assert "3. Ann: play hidden" in text and "prince" not in text.lower(), text
    referee = client.get(f"/api/matches/{mid}/notation?seat=referee").get_data(as_text=True)
    assert "3. Ann: play prince" in referee and '[View "referee"]' in referee
    own = client.get(f"/api/matches/{mid}/notation?seat=0").get_data(as_text=True)
    assert "3. Ann: play prince" in own


def test_private_exports_need_their_role(anon, face_down):
    mid, bob = face_down
    assert anon.get(f"/api/matches/{mid}/notation?seat=1").status_code == 401
    assert bob.get(f"/api/matches/{mid}/notation?seat=0").status_code == 403
    assert bob.get(f"/api/matches/{mid}/notation?seat=referee").status_code == 403
    assert anon.get("/api/matches/nosuchmatch/notation").status_code == 404


def test_a_seats_export_with_hidden_cards_is_refused_on_import_at_that_line(face_down, redis_url, prefix):
    mid, bob = face_down
    text = bob.get(f"/api/matches/{mid}/notation?seat=1").get_data(as_text=True)
    before = snapshot(redis_url, prefix)
    res = import_text(bob, text)
    err = res.get_json()["error"]
    assert res.status_code == 422 and err["rule"] == "notation.hidden"
    assert text.splitlines()[err["line"] - 1] == "3. Ann: play hidden"
    assert snapshot(redis_url, prefix) == before


# -- the command line ---------------------------------------------------------------------------

@pytest.fixture
def served(app):
    """The app on a real port (werkzeug), for the CLI's HTTP."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def test_kroniek_import_then_export_round_trips_through_the_api(served, client, make_user, tmp_path):
    _, token = make_user("cli")
    log = play("twaalven", 21, undo_rate=0.1)
    path = tmp_path / "game.txt"
    path.write_text(N.write(log, [{"seq": 3, "glyph": "?", "comment": None}]), encoding="utf-8")
    res = CliRunner().invoke(main, ["import", str(path), "--url", served, "--token", token])
    assert res.exit_code == 0, res.output
    match_id = res.output.split()[0]
    out = CliRunner().invoke(main, ["export", match_id, "--url", served, "--seat", "referee", "--token", token])
    assert out.exit_code == 0, out.output
    read = N.read(out.output)
    assert [(e.type, e.seat, e.data) for e in read.events] == [(e["type"], e["seat"], e["data"]) for e in log[1:]]
    assert [(s, g) for s, g, *_ in read.notes] == [(3, "?")]
    public = CliRunner().invoke(main, ["export", match_id, "--url", served])
    assert public.exit_code == 0 and '[View "public"]' in public.output


def test_kroniek_import_says_which_line_and_rule_refused_it(served, make_user, tmp_path):
    _, token = make_user("cli")
    path = tmp_path / "bad.txt"
    path.write_text(BRAVERATS + "2. round spy prince\n3. round spy musician\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["import", str(path), "--url", served, "--token", token])
    assert res.exit_code == 1
    assert "422 invalid_notation: line 6, column 1" in res.output and "braverats.card_in_hand" in res.output


def test_kroniek_export_without_the_role_or_the_server_fails_plainly(served, face_down):
    mid, _ = face_down
    res = CliRunner().invoke(main, ["export", mid, "--seat", "0", "--url", served])
    assert res.exit_code == 1 and "401 unauthorized" in res.output
    res = CliRunner().invoke(main, ["export", mid, "--url", "http://127.0.0.1:9"])
    assert res.exit_code == 1 and "cannot reach the API" in res.output
