"""The Dutch names players use at the table for a move are accepted as its
event type and logged as the canonical type (the docs list them beside the
English ones)."""

from __future__ import annotations

import pytest

from engine import match as M
from engine import registry


def games():
    import engine.braverats, engine.ridder_toernooi, engine.sir_tommy  # noqa: E401,F401
    import engine.stapelen, engine.troubadour, engine.twaalven  # noqa: E401,F401

    return registry.all_games()


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_alias_that_names_an_event_type_resolves_to_it(game):
    for name, et in game.event_types.items():
        assert M.canonical_type(game, name) == name
        for alias in et.aliases:
            assert M.canonical_type(game, alias) == name
            assert M.canonical_type(game, alias.upper()) == name
    for alias, target in game.aliases.items():
        if target in game.event_types:
            assert M.canonical_type(game, alias) == target
    assert M.canonical_type(game, "no such move") == "no such move"
    assert M.canonical_type(game, 7) == 7


def test_a_knights_tournament_recorded_with_dutch_move_names(client):
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"],
                                            "options": {"days": 2, "ladies": False}})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    res = client.post(f"/api/matches/{mid}/events",
                      json={"type": "delen", "data": {"knights": [["K01", "K03"], ["K02", "K04"]], "ladies": []}})
    assert res.status_code == 201, res.get_json()
    events = client.get(f"/api/matches/{mid}/events").get_json()["events"]
    assert events[-1]["type"] == "deal"  # logged under its canonical type


def test_an_unknown_move_name_still_lists_the_known_ones(client):
    mid = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"]}).get_json()["id"]
    res = client.post(f"/api/matches/{mid}/events", json={"type": "dansen", "data": {}})
    assert res.status_code == 400
    err = res.get_json()["error"]
    assert err["field"] == "type" and "deal" in err["message"] and "'dansen'" in err["message"]


def test_a_card_name_that_fits_several_cards_lists_them(client):
    mid = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"],
                                            "options": {"days": 2, "ladies": False}}).get_json()["id"]
    res = client.post(f"/api/matches/{mid}/events",
                      json={"type": "deal", "data": {"knights": [["Ridder", "K03"], ["K02", "K04"]], "ladies": []}})
    assert res.status_code == 400
    message = res.get_json()["error"]["message"]
    # the cards it fits, by their names (no card ids in what a player reads)
    assert "ambiguous" in message and "Ridder 3" in message and "Ridder 10" in message, message
    assert "K03" not in message, message
    res = client.post(f"/api/matches/{mid}/events",
                      json={"type": "deal", "data": {"knights": [["Nobody", "K03"], ["K02", "K04"]], "ladies": []}})
    assert res.get_json()["error"]["message"] == "no knight 'Nobody' in the card set"


def test_a_move_out_of_turn_says_who_is_to_act(client):
    mid = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()
    assert "id" in mid, mid
    mid = mid["id"]
    assert client.post(f"/api/matches/{mid}/events", json={"type": "play", "seat": 0,
                                                           "data": {"card": "spy"}}).status_code == 201
    res = client.post(f"/api/matches/{mid}/events", json={"type": "play", "seat": 0, "data": {"card": "prince"}})
    err = res.get_json()["error"]
    assert res.status_code == 422 and err["rule"] == "core.turn", err
    assert err["message"] == "Ann (seat 0) is not to act now; waiting for Bob (seat 1)"
