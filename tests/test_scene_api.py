"""``GET /api/matches/<id>/scene`` (issue 19): a game's table as zones and
elements with the legal moves each stands for, guarded as the state is, and
never holding a card the viewer may not see."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from engine import get
from engine import match as M
from engine.braverats.game import BraveRats
from engine.core import REFEREE
from engine.scene import Element, Scene, Zone, coverage, text
from engine.text import to_json  # (a view holds messages: said as their JSON)
from tests.support.played import random_step
from tests.support.toy import ensure_registered

ensure_registered()


def play(client, match, events):
    for e in events:
        r = client.post(f"/api/matches/{match}/events", json=e)
        assert r.status_code == 201, r.get_json()


def new(client, game, **body):
    r = client.post("/api/matches", json={"game": game, "players": ["Ann", "Bob"], **body})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def test_a_twaalven_scene_offers_every_legal_move_from_the_table(client, anon):
    match = new(client, "twaalven")
    deck = client.get(f"/api/matches/{match}/scene?seat=referee")
    assert deck.status_code == 200, deck.get_json()
    picker = deck.json["zones"][0]["elements"][0]["chance"]
    assert picker["type"] == "deal" and picker["field"] == "cards" and picker["count"] == 52 and len(picker["values"]) == 52
    play(client, match, [{"type": "deal", "seat": None, "data": {"seed": 42}},
                         {"type": "roles", "seat": None, "data": {"twelves": 0, "first": 1}}])
    scene = anon.get(f"/api/matches/{match}/scene?seat=1").json  # nothing hidden: anyone may read a seat's table
    assert scene["match"] == match and scene["seq"] == 3 and scene["viewer"] == 1
    moves = client.get(f"/api/matches/{match}/legal-moves?seat=1").json["moves"]
    assert moves
    offered = [m for z in scene["zones"] for e in z["elements"] for ms in e["targets"].values() for m in ms]
    assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, moves))
    tableau = scene["zones"][0]
    assert tableau["kind"] == "columns" and len(tableau["elements"]) == 13
    assert tableau["elements"][0]["label"]["nl"].startswith("Rijtje 1: ")
    assert anon.get(f"/api/matches/{match}/scene").json["zones"] == scene["zones"]  # the public sees the same
    # a move entered through the scene is recorded as the legal move it is
    r = client.post(f"/api/matches/{match}/events", json={**moves[0], "expected_seq": 3})
    assert r.status_code == 201, r.get_json()


def test_the_table_at_an_earlier_seq_is_drawn_as_it_stood(client):
    match = new(client, "stapelen")
    play(client, match, [{"type": "deal", "seat": None, "data": {"seed": 5}}])
    move = client.get(f"/api/matches/{match}/legal-moves?seat=0").json["moves"][0]
    play(client, match, [move])
    then = client.get(f"/api/matches/{match}/scene?at=2").json
    now = client.get(f"/api/matches/{match}/scene").json
    assert (then["seq"], now["seq"]) == (2, 3)
    column = move["data"]["column"] - 1
    assert then["zones"][0]["elements"][column]["shows"]["card"] == move["data"]["card"]
    assert now["zones"][0]["elements"][column]["shows"]["card"] != move["data"]["card"]
    r = client.get(f"/api/matches/{match}/scene?at=9")
    assert r.status_code == 400 and r.json["error"]["field"] == "at"


def test_the_referees_table_is_a_recorders_not_anyones(client, anon):
    match = new(client, "stapelen")
    r = anon.get(f"/api/matches/{match}/scene?seat=referee")
    assert r.status_code == 401 and r.json["error"]["code"] == "unauthorized"
    assert client.get(f"/api/matches/{match}/scene?seat=referee").status_code == 200


def test_bad_seats_and_games_without_a_scene_are_4xx_json(client):
    match = new(client, "sir_tommy")
    r = client.get(f"/api/matches/{match}/scene?seat=2")
    assert r.status_code == 400 and r.json["error"]["field"] == "seat"
    r = client.get(f"/api/matches/{match}/scene?seat=everyone")
    assert r.status_code == 400 and r.json["error"]["field"] == "seat"
    assert client.get("/api/matches/nope/scene").status_code == 404
    toy = new(client, "toy")  # the framework's test game draws no scene
    r = client.get(f"/api/matches/{toy}/scene?seat=referee")
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found" and r.json["error"]["game"] == "toy"


def test_a_braverats_card_laid_face_down_is_a_back_on_the_publics_table(client, anon):
    match = new(client, "braverats")
    play(client, match, [{"type": "play", "seat": 0, "data": {"card": "wizard"}}])
    public = anon.get(f"/api/matches/{match}/scene").json
    places = {e["id"]: e for z in public["zones"] for e in z["elements"] if e["id"].startswith("place-")}
    assert places["place-0"]["face_down"] and "card" not in places["place-0"]["shows"]
    assert places["place-1"]["kind"] == "slot"
    mine = client.get(f"/api/matches/{match}/scene?seat=0").json
    assert {e["id"]: e for z in mine["zones"] for e in z["elements"]}["place-0"]["shows"]["card"] == "wizard"
    # the variant E deal: Ann's table holds her cards and Bob's backs, the deal's picker one list per seat
    dealt = new(client, "braverats", options={"variants": ["E"]})
    picker = next(e["chance"] for z in client.get(f"/api/matches/{dealt}/scene?seat=referee").json["zones"]
                  for e in z["elements"] if e.get("chance"))
    assert picker["type"] == "deal" and picker["groups"] == [8, 8] and picker["count"] == 16
    play(client, dealt, [{"type": "deal", "seat": None, "data": {"hands": [
        ["musician", "musician", "princess", "spy", "spy", "assassin", "ambassador", "wizard"],
        ["princess", "assassin", "ambassador", "wizard", "general", "general", "prince", "prince"]]}}])
    ann = json.dumps(client.get(f"/api/matches/{dealt}/scene?seat=0").json)
    assert '"musician"' in ann and '"general"' not in ann and '"prince"' not in ann


def test_the_scene_is_in_the_openapi_document(anon):
    spec = anon.get("/api/openapi.json").json
    op = spec["paths"]["/api/matches/{match_id}/scene"]["get"]
    assert {"200", "400", "401", "403", "404"} <= set(op["responses"])
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert {"zones", "fallback", "viewer", "seq"} <= set(spec["components"]["schemas"][ref]["properties"])


# -- hidden cards: the framework, with a game that hides them --------------------------------


class DrawnBraveRats(BraveRats):
    """BraveRats with a plain scene of its view and moves: every card the
    view shows is an element, every move sits on one. Enough to check that
    what a scene is built from holds no card the viewer may not see."""

    def scene(self, view, moves):
        cards = [Element(f"card-{i}", "card", text(str(c)), shows={"card": c})
                 for i, c in enumerate(json.dumps(to_json(view)).split('"'))]
        actions = [Element(f"move-{i}", "action", text(m["type"]), moves=[m]) for i, m in enumerate(moves)]
        return Scene([Zone("all", "row", text("all"), cards + actions)])


CARDS = ["musician", "princess", "spy", "assassin", "ambassador", "wizard", "general", "prince"]


def braverats_positions(seed):
    rng = random.Random(seed)
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {}))
    ms = replace(ms, game=DrawnBraveRats())
    for seq in range(2, 60):
        yield ms
        actors = ms.game.actors(ms.state)
        if not actors:
            return
        ms = random_step(ms, rng, seq)


@pytest.mark.parametrize("seed", range(3))
def test_a_seats_scene_never_holds_the_other_seats_hidden_cards(seed):
    assert get("braverats").hidden_information
    for ms in braverats_positions(seed):
        for seat in (0, 1):
            scene = json.dumps(to_json(M.scene(ms, seat)))
            other = ms.game.view(ms.state, REFEREE)["hands"][1 - seat].get("cards") or []
            mine = set(ms.game.view(ms.state, seat)["hands"][1 - seat].get("cards") or [])
            for card in set(other) - mine:
                assert f'"{card}"' not in scene, (ms.seq, seat, card)
            # the seat's own moves are all there; the other seat's are not
            built = ms.game.scene(ms.view(seat), M.visible_moves(ms, seat))
            assert coverage(built, M.legal_moves(ms, seat) if seat in ms.game.actors(ms.state) else [])["unreachable"] == []
            assert all(m["seat"] in (seat, None) for e in built.elements() for m in e.moves)
        if ms.game.table_moves_hidden(ms.state):  # the table's moves name secret cards: not the public's
            assert not any(m["seat"] is None for m in M.visible_moves(ms, None))


def test_a_pickers_fixed_data_and_a_dies_numbers_come_through_the_api(client):
    """Troubadour's pickers as the pages get them: the deal on a draw pile,
    the secret trio on a player's nobles with the data it does not ask for
    (which reveal it belongs to), a die's faces as numbers; each entered
    as the picker says is recorded."""
    match = new(client, "troubadour")

    def picker(element):
        scene = client.get(f"/api/matches/{match}/scene?seat=referee").json
        return next(e["chance"] for z in scene["zones"] for e in z["elements"] if e["id"] == element)

    for seat, faces in ((0, ["AS", "2S", "3S", "4S", "5S"]), (1, ["AD", "2D", "3D", "4D", "5D"])):
        deal = picker(f"draw-{seat}")
        assert (deal["type"], deal["field"], deal["count"], deal["seat"]) == ("deal", "face_up", 5, seat)
        play(client, match, [{"type": "deal", "seat": seat, "data": {**deal["data"], "face_up": faces}}])
    for seat in (0, 1):
        choose = picker(f"nobles-{seat}")
        assert (choose["type"], choose["field"], choose["count"], choose["data"]) == ("choose", "nobles", 3, {"reveal": 0})
        assert len(choose["values"]) == 12
        play(client, match, [{"type": "choose", "seat": seat, "data": {**choose["data"], "nobles": ["QC", "JC", "KC"]}}])
    die = picker("die")  # equal trios: the lowest roll starts
    assert die["values"] == [1, 2, 3, 4, 5, 6] and die["repeat"] and die["count"] == 2
    play(client, match, [{"type": "die", "seat": None, "data": {**die["data"], "rolls": [2, 5]}}])
    state = client.get(f"/api/matches/{match}/state?seat=referee").json
    assert state["phase"] == "play" and state["turn"]["seat"] == 0


def test_the_latest_scene_is_worked_out_once_per_move_and_view_for_every_watcher(client, monkeypatch):
    """A multiboard's watchers all ask for a board's scene after each move: the service works it out once per
    move and viewer (service.matches.MatchService.scene), and each asks again reads the same answer, in
    either language."""
    made = []
    real = M.scene
    monkeypatch.setattr(M, "scene", lambda ms, viewer: made.append((ms.seq, viewer)) or real(ms, viewer))
    mid = new(client, "braverats")
    first = [client.get(f"/api/matches/{mid}/scene").get_json() for _ in range(5)]
    assert len(made) == 1 and all(s == first[0] for s in first)
    dutch = client.get(f"/api/matches/{mid}/scene", headers={"Accept-Language": "nl"}).get_json()
    assert client.get(f"/api/matches/{mid}/scene").get_json() == first[0] and len(made) == 1
    assert dutch["zones"] == first[0]["zones"]  # the labels carry both languages; nothing said twice
    play(client, mid, [{"type": "round", "data": {"cards": ["prince", "spy"]}}])
    after = [client.get(f"/api/matches/{mid}/scene").get_json() for _ in range(3)]
    assert len(made) == 2 and after[0] != first[0] and all(s == after[0] for s in after)
    client.get(f"/api/matches/{mid}/scene?seat=0")
    client.get(f"/api/matches/{mid}/scene?at=1")  # an older step is worked out when asked, not kept
    assert made[2:] == [(2, 0), (1, None)]
