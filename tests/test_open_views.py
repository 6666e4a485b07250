"""A game with nothing hidden (every seat sees what the public sees) lets
anyone read seat views, legal moves and hints; a game with hidden
information still wants the seat's player, a recorder or a referee."""

from __future__ import annotations

import pytest

from engine import all_games, get
from engine.core import Game
from tests.conftest import client_with_token

OPEN_SETUPS = {
    "twaalven": [{"type": "deal", "seat": None, "data": {"seed": 42}},
                 {"type": "roles", "seat": None, "data": {"twelves": 0, "first": 1}}],
    "stapelen": [{"type": "deal", "seat": None, "data": {"seed": 42}}],
    "sir_tommy": [{"type": "draw", "seat": 0, "data": {"cards": ["AS", "2H", "KD"]}}],
    "ridder_toernooi": [{"type": "deal", "seat": None,
                         "data": {"knights": [["K01", "K03"], ["K02", "K04"]], "ladies": [["L01", "L03"], ["L02", "L04"]]}}],
}


def test_every_game_says_whether_it_hides_anything(anon):
    flags = {g["id"]: g["hidden_information"] for g in anon.get("/api/games").json["games"]}
    assert flags == {g.id: g.hidden_information for g in all_games()}
    assert flags["braverats"] is True and flags["troubadour"] is True
    assert flags["twaalven"] is flags["stapelen"] is flags["sir_tommy"] is flags["ridder_toernooi"] is False
    assert anon.get("/api/games/stapelen").json["hidden_information"] is False


@pytest.mark.parametrize("game", sorted(OPEN_SETUPS))
def test_seat_views_legal_moves_and_hints_of_an_open_game_need_no_token(client, anon, game):
    match = client.post("/api/matches", json={"game": game, "players": ["Ann", "Bob"]}).json["id"]
    for event in OPEN_SETUPS[game]:
        assert client.post(f"/api/matches/{match}/events", json=event).status_code == 201
    for seat in (0, 1):
        offers_hints = type(get(game)).hint is not Game.hint
        paths = ("state", "events", "legal-moves", "hint") if offers_hints else ("state", "events", "legal-moves")
        for path in paths:
            r = anon.get(f"/api/matches/{match}/{path}?seat={seat}&budget=2000")
            assert r.status_code == 200, (path, seat, r.json)
        # the same view as the recorder gets: nothing is hidden from anyone
        assert anon.get(f"/api/matches/{match}/state?seat={seat}").json == \
            client.get(f"/api/matches/{match}/state?seat={seat}").json
    mover = anon.get(f"/api/matches/{match}/state").json["to_act"][0]
    assert anon.get(f"/api/matches/{match}/legal-moves?seat={mover}").json["moves"]
    # the referee's view (the whole log, a simulated match's seed) stays private
    assert anon.get(f"/api/matches/{match}/events?seat=referee").status_code == 401
    assert anon.get(f"/api/matches/{match}/state?seat=referee").status_code == 401
    assert anon.get("/api/matches/nope/legal-moves?seat=0").status_code == 404


def test_a_simulated_open_game_keeps_its_seed_and_secret_from_every_seat(client, anon):
    match = client.post("/api/matches", json={"game": "sir_tommy", "players": ["Ann", "Bob"], "mode": "simulated",
                                              "seed": 7}).json["id"]
    setup = anon.get(f"/api/matches/{match}/events?seat=0").json["events"][0]
    assert setup["data"]["seed"] == setup["data"]["secret"] == "hidden" and setup["redacted"] is True
    referee = client.get(f"/api/matches/{match}/events?seat=referee").json["events"][0]["data"]
    assert referee["seed"] == 7 and len(referee["secret"]) == 64  # the draws' server secret, the referee's alone


@pytest.mark.parametrize("game", ["braverats", "troubadour"])
def test_a_game_with_hidden_information_still_guards_seat_views(client, anon, make_user, app, game):
    assert get(game).hidden_information
    match = client.post("/api/matches", json={"game": game, "players": ["Ann", "Bob"]}).json["id"]
    _, token = make_user("stranger")
    stranger = client_with_token(app, token)
    for path in ("state", "events", "legal-moves"):
        assert anon.get(f"/api/matches/{match}/{path}?seat=1").status_code == 401
        assert stranger.get(f"/api/matches/{match}/{path}?seat=1").status_code == 403
        assert client.get(f"/api/matches/{match}/{path}?seat=1").status_code == 200
        assert anon.get(f"/api/matches/{match}/{path}").status_code == 200
