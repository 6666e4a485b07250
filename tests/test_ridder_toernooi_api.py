"""Ridder-toernooi over HTTP: card sets (validated, content-addressed,
immutable, the placeholder labelled), matches that embed the set they are
played with, and a whole simulated 6-player tournament validated by the worker."""

from __future__ import annotations

import copy
import random

import pytest

from engine import match as M
from engine.core import CHANCE
from engine.ridder_toernooi import GAME
from engine.ridder_toernooi.bots import BOTS
from engine.ridder_toernooi.cards import CardSetError, card_set_hash, placeholder_doc, validate_card_set
from replays import audit_match, canonical
from tests.support.draws import fix_secret
from workers.jobs import analyse_log, validate_log


def my_box() -> dict:
    doc = copy.deepcopy(placeholder_doc())
    doc["name"] = "Our box"
    doc["provenance"] = "user"
    doc.pop("note", None)
    for card in doc["knights"] + doc["ladies"]:
        card["provenance"] = "user"
    doc["knights"][2]["name"] = "Sir Tristan"
    doc["knights"][2]["attackDice"] = 6
    return doc


# -- validation -------------------------------------------------------------------------------

@pytest.mark.parametrize("change, card, field", [
    (lambda d: d["knights"][2]["red"]["mounted"].__setitem__("2", 3), "K03", "/red/mounted/2"),
    (lambda d: d["knights"][4].__setitem__("attackDice", 12), "K05", "/attackDice"),
    (lambda d: d["knights"][0]["preferences"].append({"attr": "hair", "value": "groen"}), "K01", "/preferences/4/value"),
    (lambda d: d["knights"][0]["preferences"].append(dict(d["knights"][0]["preferences"][0])), "K01", "/preferences"),
    (lambda d: d["ladies"][1]["attributes"].__setitem__("eyes", "blue"), "L02", "/attributes/eyes"),
    (lambda d: d["ladies"][3].__setitem__("id", "K01"), "K01", "/ladies/3/id"),
])
def test_card_set_errors_name_the_card_and_the_field(change, card, field):
    doc = my_box()
    change(doc)
    with pytest.raises(CardSetError) as exc:
        validate_card_set(doc)
    assert exc.value.details.get("card") == card and exc.value.details["field"] == field, exc.value.message
    assert card in exc.value.message and field in exc.value.message


@pytest.mark.parametrize("change, field", [
    (lambda d: d["tracks"].__setitem__("wounds", {"fields": 12, "eliminatedAt": 12}), "/tracks/wounds"),
    (lambda d: d["tracks"].__setitem__("premiums", {"max": 30, "x": "y" * 100}), "/tracks/premiums"),
    (lambda d: d.__setitem__("extra", 1), "/"),
    (lambda d: d.__setitem__("format", "v2"), "/format"),
    (lambda d: d["knights"].extend([dict(d["knights"][0], id=f"X{i}") for i in range(40)]), "/knights"),
])
def test_set_level_errors_name_the_field(change, field):
    doc = my_box()
    change(doc)
    with pytest.raises(CardSetError) as exc:
        validate_card_set(doc)
    assert exc.value.details["field"] == field, exc.value.message


def test_the_vocabulary_can_be_extended():
    doc = my_box()
    doc["vocabulary"]["hair"].append("grijs")
    doc["ladies"][4]["attributes"]["hair"] = "grijs"
    assert validate_card_set(doc)["ladies"][4]["attributes"]["hair"] == "grijs"


# -- the API ----------------------------------------------------------------------------------

def test_game_detail_labels_the_placeholder_set(anon):
    body = anon.get("/api/games/ridder_toernooi").get_json()
    kind = body["data_kinds"]["card-sets"]
    assert kind["default"]["placeholder"] is True and "PLACEHOLDER" in kind["default"]["label"]
    assert body["options"]["properties"]["card_set"]["default"] == kind["default"]["hash"]
    assert "PLACEHOLDER" in body["summary"]
    listing = anon.get("/api/games/ridder_toernooi/card-sets").get_json()["items"]
    assert listing[0]["placeholder"] is True and listing[0]["builtin"] is True


def test_card_sets_are_content_addressed_and_immutable(client, anon):
    doc = my_box()
    assert anon.post("/api/games/ridder_toernooi/card-sets", json=doc).status_code == 401
    first = client.post("/api/games/ridder_toernooi/card-sets", json=doc)
    assert first.status_code == 201, first.get_json()
    h = first.get_json()["hash"]
    assert h == card_set_hash(validate_card_set(doc))
    assert first.get_json()["placeholder"] is False
    again = client.post("/api/games/ridder_toernooi/card-sets", json=doc)
    assert again.status_code == 200 and again.get_json()["hash"] == h
    read = anon.get(f"/api/games/ridder_toernooi/card-sets/{h}").get_json()
    assert read["document"] == validate_card_set(doc) and read["by"] == client.user_name
    assert h in [i["hash"] for i in anon.get("/api/games/ridder_toernooi/card-sets").get_json()["items"]]
    bad = copy.deepcopy(doc)
    bad["knights"][6]["red"]["foot"]["6"] = 5
    res = client.post("/api/games/ridder_toernooi/card-sets", json=bad)
    assert res.status_code == 400
    err = res.get_json()["error"]
    assert err["card"] == "K07" and err["field"] == "/red/foot/6"
    assert anon.get("/api/games/ridder_toernooi/card-sets/" + "0" * 64).status_code == 404
    assert anon.get("/api/games/ridder_toernooi/boards").status_code == 404
    assert anon.get("/api/games/braverats/card-sets").status_code == 404


def test_a_card_set_is_checked_without_being_stored(client, anon, store):
    """The editor's check (POST …/card-sets/check): the summary, hash and
    canonical form a save would give, or the error a save gets (naming the
    card and the field), as a 200 with ``valid``: the check itself went
    well. Nothing is written either way, and it needs a signed-in user."""
    doc = my_box()
    before = sorted(store.r.scan_iter(match=f"{store.prefix}:gd:*"))
    ok = client.post("/api/games/ridder_toernooi/card-sets/check", json=doc)
    assert ok.status_code == 200, ok.get_json()
    body = ok.get_json()
    assert body["hash"] == card_set_hash(validate_card_set(doc)) and body["document"] == validate_card_set(doc)
    assert body["valid"] is True and body["builtin"] is False and body["placeholder"] is False
    assert body["name"] == doc["name"]
    bad = copy.deepcopy(doc)
    bad["knights"][6]["red"]["foot"]["6"] = 5
    refused = client.post("/api/games/ridder_toernooi/card-sets/check", json=bad)
    stored = client.post("/api/games/ridder_toernooi/card-sets", json=bad)
    assert refused.status_code == 200 and stored.status_code == 400
    assert refused.get_json() == {"valid": False, "error": stored.get_json()["error"]}
    assert refused.get_json()["error"]["card"] == "K07" and refused.get_json()["error"]["field"] == "/red/foot/6"
    assert client.post("/api/games/ridder_toernooi/card-sets/check", data="{", content_type="application/json").status_code == 400
    assert sorted(store.r.scan_iter(match=f"{store.prefix}:gd:*")) == before
    assert anon.post("/api/games/ridder_toernooi/card-sets/check", json=doc).status_code == 401
    assert client.post("/api/games/braverats/card-sets/check", json=doc).status_code == 404
    shipped = client.post("/api/games/ridder_toernooi/card-sets/check", json=placeholder_doc()).get_json()
    assert shipped["builtin"] is True and shipped["placeholder"] is True


def test_a_match_embeds_its_card_set_and_replays_from_its_log(client, store):
    doc = my_box()
    h = client.post("/api/games/ridder_toernooi/card-sets", json=doc).get_json()["hash"]
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"],
                                            "options": {"card_set": h}})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    setup = store.events(mid)[0]["data"]
    assert setup["options"]["card_set"] == h and card_set_hash(setup["options"]["cards"]) == h
    view = client.get(f"/api/matches/{mid}/state").get_json()
    assert view["card_set"]["hash"] == h and view["card_set"]["placeholder"] is False
    ev = client.post(f"/api/matches/{mid}/events", json={"type": "deal", "seat": None, "data": {
        "knights": [["K03", "K01"], ["K02", "K04"]], "ladies": [["L01", "L02"], ["L03", "L04"]]}})
    assert ev.status_code == 201, ev.get_json()
    tristan = next(k for k in ev.get_json()["state"]["knights"] if k["id"] == "K03")
    assert tristan["name"] == "Sir Tristan" and tristan["dice"] == 6
    assert M.replay(store.events(mid)).state.cards.knights[2].dice == 6
    # a default match records (and embeds) the placeholder, labelled as such
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"]})
    setup = store.events(res.get_json()["id"])[0]["data"]
    assert setup["options"]["cards"]["provenance"] == "placeholder"
    view = client.get(f"/api/matches/{res.get_json()['id']}/state").get_json()
    assert view["card_set"]["placeholder"] is True and "PLACEHOLDER" in view["card_set"]["label"]
    setup_line = client.get(f"/api/matches/{res.get_json()['id']}/review").get_json()["steps"][0]["summary"]
    assert setup_line.endswith("with the PLACEHOLDER card set (not the printed cards)"), setup_line
    assert client.get(f"/api/matches/{mid}/review").get_json()["steps"][0]["summary"].endswith(
        f"with the card set {doc['name']!r}")
    # an unknown set is refused, and nothing is written
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"],
                                            "options": {"card_set": "a" * 64}})
    assert res.status_code == 404
    # an embedded set that does not hash to the recorded hash is refused
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"],
                                            "options": {"card_set": "b" * 64, "cards": validate_card_set(doc)}})
    assert res.status_code == 400 and res.get_json()["error"]["rule"] == "ridder_toernooi.card_set"


def test_a_wrong_die_count_is_a_422_naming_the_rule(client, store):
    mid = client.post("/api/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"]}).get_json()["id"]
    ev = client.post(f"/api/matches/{mid}/events", json={"type": "deal", "seat": None, "data": {
        "knights": [["K01", "K03"], ["K02", "K04"], ["K05", "K06"]], "ladies": [["L01", "L02"], ["L03", "L04"]]}})
    assert ev.status_code in (400, 422)
    assert len(store.events(mid)) == 1


# -- a whole simulated tournament ---------------------------------------------------------------

def test_a_simulated_six_player_tournament_over_http_is_validated_with_annotations(client, app, store):
    fix_secret(app, 2026)  # one known tournament, as before secrets
    res = client.post("/api/matches", json={"game": "ridder_toernooi", "players": [f"P{i}" for i in range(6)],
                                            "mode": "simulated", "seed": 2026})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    svc = app.extensions["kroniek"]
    rng = random.Random(7)
    bots = [BOTS["greedy" if s % 2 == 0 else "random"] for s in range(6)]
    for _ in range(3000):
        ms = svc.current(mid)
        if ms.result is not None:
            break
        seat = next(a for a in ms.game.actors(ms.state) if a != CHANCE)
        move = bots[seat](ms.game, ms.state, seat, rng)
        res = client.post(f"/api/matches/{mid}/events", json={"type": move.type, "seat": seat, "data": move.data})
        assert res.status_code == 201, res.get_json()
    ms = svc.current(mid)
    assert ms.result is not None and ms.state.day == 4
    rebuilt = M.replay(store.events(mid))
    assert canonical(M.encode(rebuilt)) == canonical(M.encode(ms))
    verdict = validate_log(store, mid)
    assert verdict["status"] == "valid", verdict
    assert analyse_log(store, mid)["status"] == "done"  # the analysis job: per-day luck, choices, upsets
    assert client.get(f"/api/matches/{mid}").get_json()["analysis"] == "done"
    stored = store.auto_annotations(mid)
    notes = [n for seq in sorted(stored, key=int) for n in stored[seq]]
    kinds = {n["kind"] for n in notes}
    assert {"odds", "luck", "luck_summary"} <= kinds, kinds
    odds = [n for n in notes if n["kind"] == "odds"]
    assert all(0 <= n["attacker_wins"] <= 1 and n["attacker_wins"] + n["defender_wins"] <= 1 + 1e-9 for n in odds)
    summaries = [n for n in notes if n["kind"] == "luck_summary"]
    assert [n["scope"] for n in summaries] == ["day 1", "day 2", "day 3", "day 4", "match"]
    assert audit_match(store, mid).valid
    assert client.get(f"/api/matches/{mid}/audit").get_json()["valid"] is True
    review = client.get(f"/api/matches/{mid}/review").get_json()
    assert review["steps"][1]["summary"].startswith("Deal with the PLACEHOLDER card set")
    assert GAME.result(ms.state).scores == tuple(ms.result.scores)
