"""Issue 20, item 4: an API that says what it does. Each inconsistency a
fuzzing session found gets a test that fails without its fix:

- ``GET /api/games`` said Troje takes 4–6 players, but 5 is refused: the
  games now list exactly the counts they allow (``player_counts``);
- a player role for seat 5 on a 2-seat match was accepted;
- ``"admin": "yes"`` and ``"admin": 1`` were taken as true;
- ``legal-moves?seat=referee`` was refused, though docs/api.md lists it;
- ``?seat=public`` was refused everywhere (and the review page asked for
  ``?seat=NaN``);
- a refused annotation named no field;
- a player role without a seat answered with the undocumented code ``"error"``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import redis as redis_py
from click.testing import CliRunner

from engine import all_games, registry
from engine import match as M
from engine.core import InvalidOptions, player_count_text

def _documented_codes() -> set[str]:
    """Every error code the Errors table of docs/api.md lists."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    table = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| 4") or line.startswith("| 5")]
    return {code for row in rows for code in re.findall(r"`([a-z_]+)`", row[2])}


DOCUMENTED_CODES = _documented_codes()


def snapshot(redis_url: str, prefix: str) -> dict[bytes, bytes]:
    raw = redis_py.Redis.from_url(redis_url)
    try:
        return {key: raw.dump(key) for key in raw.scan_iter(match=f"{prefix}:*", count=1000)}
    finally:
        raw.close()


def refused(res, status: int, code: str, field: str) -> dict:
    body = res.get_json()
    assert res.status_code == status, body
    error = body["error"]
    assert error["code"] == code and error["field"] == field, error
    assert error["code"] in DOCUMENTED_CODES
    return error


def braverats(client) -> str:
    res = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["id"]


# -- player counts -------------------------------------------------------------------------------

def test_player_counts_say_it_as_a_sentence():
    assert player_count_text([2]) == "2"
    assert player_count_text([4, 6]) == "4 or 6"
    assert player_count_text([3, 4]) == "3 or 4"
    assert player_count_text([2, 3, 4]) == "2–4"
    assert player_count_text([2, 4, 6]) == "2, 4 or 6"


def test_the_games_list_exactly_the_player_counts_they_allow(anon):
    games = {g["id"]: g for g in anon.get("/api/games").get_json()["games"]}
    assert games["catan-troje"]["player_counts"] == [4, 6]
    assert games["troubadour"]["player_counts"] == [2, 3, 4]
    assert games["braverats"]["player_counts"] == [2]
    for game in all_games():
        listed = games[game.id]
        counts = listed["player_counts"]
        # the old fields stay, as the first and last count
        assert (listed["min_players"], listed["max_players"]) == (counts[0], counts[-1]) == (
            game.min_players, game.max_players)
        assert anon.get(f"/api/games/{game.id}").get_json()["player_counts"] == counts
        # every count listed starts a match, every other between and around them is refused naming the counts
        for n in range(max(1, counts[0] - 1), counts[-1] + 2):
            names = [f"P{i}" for i in range(n)]
            if n in counts:
                assert M.make_setup(game.id, names)["players"] == names
            else:
                with pytest.raises(InvalidOptions) as exc:
                    M.make_setup(game.id, names)
                assert exc.value.details["field"] == "players"
                assert f"played by {player_count_text(counts)} players, not {n}" in exc.value.message


def test_five_players_of_troje_are_refused_naming_four_or_six(client, redis_url, prefix):
    before = snapshot(redis_url, prefix)
    res = client.post("/api/matches", json={"game": "catan-troje", "players": ["A", "B", "C", "D", "E"]})
    error = refused(res, 400, "invalid_options", "players")
    assert "4 or 6 players, not 5" in error["message"], error
    assert error["rule"] == "troje.players" and "4 or 6" in error["rule_text"], error  # the rule that says so
    assert snapshot(redis_url, prefix) == before


def test_a_game_declares_counts_within_its_bounds():
    from engine.core import Game

    with pytest.raises(TypeError, match="player_counts"):
        type("Gapped", (Game,), {"min_players": 2, "max_players": 6, "player_counts": (3, 6)})
    gapless = type("Gapless", (Game,), {"min_players": 2, "max_players": 4})
    assert gapless.player_counts == (2, 3, 4)
    assert registry.get("catan-troje").player_counts == (4, 6)
    for game in all_games():  # a rule named for the counts is one of the game's
        assert game.player_counts_rule is None or game.player_counts_rule in game.rules, game.id


def test_the_home_page_and_the_record_page_show_the_player_counts(anon):
    home = anon.get("/").get_data(as_text=True)
    assert 'data-player-counts="4,6">4 or 6 players' in home
    assert 'data-player-counts="2,3,4">2–4 players' in home
    assert "4–6 players" not in home
    record = anon.get("/record").get_data(as_text=True)
    assert 'data-counts="4,6"' in record and "4 or 6 players" in record


def test_kroniek_games_lists_the_player_counts():
    from service.cli import main

    res = CliRunner().invoke(main, ["games"])
    assert res.exit_code == 0, res.output
    troje = next(line for line in res.output.splitlines() if line.startswith("catan-troje "))
    assert "4 or 6 players" in troje and "Troje" in troje
    as_json = json.loads(CliRunner().invoke(main, ["games", "--json"]).output)
    assert next(g for g in as_json["games"] if g["id"] == "catan-troje")["player_counts"] == [4, 6]


# -- roles --------------------------------------------------------------------------------------

def test_a_players_seat_must_be_one_of_the_matchs(client, make_user, redis_url, prefix):
    mid = braverats(client)
    other, _ = make_user("other")
    before = snapshot(redis_url, prefix)
    for seat in (2, 5):
        res = client.post(f"/api/matches/{mid}/roles", json={"user": other, "role": "player", "seat": seat})
        error = refused(res, 400, "bad_request", "seat")
        assert "0–1" in error["message"] and error["location"] == "body", error
    # beyond any game's seats: the document says so, and so does the schema's refusal
    res = client.post(f"/api/matches/{mid}/roles", json={"user": other, "role": "player", "seat": 10})
    refused(res, 400, "malformed_request", "seat")
    assert snapshot(redis_url, prefix) == before
    res = client.post(f"/api/matches/{mid}/roles", json={"user": other, "role": "player", "seat": 1})
    assert res.status_code == 201 and res.get_json()["roles"] == ["player:1"], res.get_json()


def test_a_player_role_without_a_seat_is_a_documented_400_naming_the_seat(client, make_user, redis_url, prefix):
    mid = braverats(client)
    other, _ = make_user("other")
    before = snapshot(redis_url, prefix)
    for body in ({"user": other, "role": "player"}, {"user": other, "role": "player", "seat": None}):
        error = refused(client.post(f"/api/matches/{mid}/roles", json=body), 400, "bad_request", "seat")
        assert "seat" in error["message"]
    # a seat with a role that takes none is not dropped silently either
    error = refused(client.post(f"/api/matches/{mid}/roles", json={"user": other, "role": "referee", "seat": 0}),
                    400, "bad_request", "seat")
    assert "only a player's role" in error["message"]
    assert snapshot(redis_url, prefix) == before


def test_a_malformed_user_name_is_a_documented_400(admin, client, redis_url, prefix):
    """Before: a name the schema's Regexp let through (a trailing line break:
    ``re.match`` and ``$``) reached the account check, whose refusal had the
    undocumented code "error"."""
    mid = braverats(client)
    before = snapshot(redis_url, prefix)
    refused(admin.post("/api/users", json={"name": "ann\n"}), 400, "malformed_request", "name")
    refused(client.post(f"/api/matches/{mid}/roles", json={"user": "ann\n", "role": "recorder"}),
            400, "malformed_request", "user")
    assert snapshot(redis_url, prefix) == before
    from service.accounts import check_name
    from service.errors import BadRequest

    with pytest.raises(BadRequest) as exc:  # what the CLI's path meets
        check_name("ann\n")
    assert exc.value.code in DOCUMENTED_CODES and exc.value.details["field"] == "name"


# -- booleans -----------------------------------------------------------------------------------

@pytest.mark.parametrize("truthy", ["yes", "true", 1, 0, "1", "on", None])
def test_admin_is_true_or_false_and_nothing_else(admin, truthy, redis_url, prefix):
    before = snapshot(redis_url, prefix)
    res = admin.post("/api/users", json={"name": "cas", "admin": truthy})
    error = refused(res, 400, "malformed_request", "admin")
    assert error["location"] == "body"
    assert snapshot(redis_url, prefix) == before


def test_admin_true_and_false_still_work(admin):
    assert admin.post("/api/users", json={"name": "dora", "admin": True}).get_json()["admin"] is True
    assert admin.post("/api/users", json={"name": "eli", "admin": False}).get_json()["admin"] is False
    assert admin.post("/api/users", json={"name": "fay"}).get_json()["admin"] is False


# -- the referee's legal moves --------------------------------------------------------------------

def test_legal_moves_for_the_referee_list_every_move_that_can_be_entered_now(client, anon, make_user):
    """docs/api.md: ``seat=referee`` for a recorder or referee, on the legal
    moves too. It lists the table's moves, then each acting seat's."""
    from tests.conftest import client_with_token

    for game, players in (("catan", ["Ann", "Bob", "Cas"]), ("braverats", ["Ann", "Bob"])):
        mid = client.post("/api/matches", json={"game": game, "players": players}).get_json()["id"]
        answer = client.get(f"/api/matches/{mid}/legal-moves?seat=referee")
        assert answer.status_code == 200, answer.get_json()
        answer = answer.get_json()
        assert answer["seat"] == "referee"
        expected = list(client.get(f"/api/matches/{mid}/legal-moves").get_json()["moves"])
        for actor in answer["to_act"]:
            if isinstance(actor, int):
                expected += client.get(f"/api/matches/{mid}/legal-moves?seat={actor}").get_json()["moves"]
        assert answer["moves"] == expected and expected, (game, answer)
        # the referee's view needs its role, as on the log and the state
        assert anon.get(f"/api/matches/{mid}/legal-moves?seat=referee").status_code == 401
        _, token = make_user("stranger")
        stranger = client_with_token(client.application, token)
        assert stranger.get(f"/api/matches/{mid}/legal-moves?seat=referee").status_code == 403


# -- seat=public ------------------------------------------------------------------------------------

def test_seat_public_is_the_public_view_on_every_endpoint_that_takes_a_seat(client, anon):
    mid = braverats(client)
    assert client.post(f"/api/matches/{mid}/events",
                       json={"type": "round", "data": {"cards": ["spy", "prince"]}}).status_code == 201
    for path in ("state", "events", "review", "legal-moves", "notation", "stream"):
        extra = "wait=0" if path == "stream" else ""
        plain = anon.get(f"/api/matches/{mid}/{path}?{extra}")
        public = anon.get(f"/api/matches/{mid}/{path}?seat=public&{extra}")
        assert plain.status_code == 200, (path, plain.data[:300])
        assert public.status_code == 200 and public.data == plain.data, (path, public.data[:300])
    bad = anon.get(f"/api/matches/{mid}/state?seat=everyone")
    error = refused(bad, 400, "malformed_request", "seat")
    assert "'public'" in error["message"] and "'referee'" in error["message"]
    # and a seat beyond the match's players names the words it takes
    error = refused(client.get(f"/api/matches/{mid}/state?seat=5"), 400, "bad_request", "seat")
    assert "'public'" in error["message"]


# -- annotations --------------------------------------------------------------------------------------

def test_a_refused_annotation_names_its_field(client, redis_url, prefix):
    mid = braverats(client)
    before = snapshot(redis_url, prefix)
    for body, code, field in (({"seq": 1}, "bad_request", "comment"),
                              ({"seq": 1, "comment": None, "glyph": None}, "bad_request", "comment"),
                              ({"seq": 2, "comment": "x"}, "bad_request", "seq"),
                              ({"seq": 0, "comment": "x"}, "malformed_request", "seq"),
                              ({"seq": 1, "glyph": "?!?"}, "malformed_request", "glyph")):
        error = refused(client.post(f"/api/matches/{mid}/annotations", json=body), 400, code, field)
        assert error["location"] == "body", error
    assert snapshot(redis_url, prefix) == before
    assert client.post(f"/api/matches/{mid}/annotations", json={"seq": 1, "glyph": "!?"}).status_code == 201


# -- contention ---------------------------------------------------------------------------------------

def test_too_many_writers_at_once_is_a_documented_409_not_the_code_error(app, client, monkeypatch):
    """The same mistake as the role's "error": a write that lost every
    compare-and-set answered 400 with the undocumented code "error"."""
    from types import SimpleNamespace

    mid = braverats(client)
    league = client.post("/api/leagues", json={"name": "Cup", "game": "braverats", "format": "round_robin",
                                               "players": ["Ann", "Bob"]}).get_json()["id"]
    lost = lambda *args, **kwargs: SimpleNamespace(status="conflict", owed=False, stored=None)  # noqa: E731
    monkeypatch.setattr(app.extensions["kroniek"].store, "append", lost)
    monkeypatch.setattr(app.extensions["kroniek.leagues"].store, "append", lost)
    for res in (client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "prince"]}}),
                client.post(f"/api/leagues/{league}/players", json={"player": "Cas"})):
        body = res.get_json()
        assert res.status_code == 409 and body["error"]["code"] == "busy", body
        assert body["error"]["code"] in DOCUMENTED_CODES
