"""Catan over HTTP: boards (validated, content-addressed, named by hash in a
match's setup), a refused move, and whole simulated 4- and 6-player games
played by bots through the API, validated by the worker with its annotations
and audited."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import match as M
from engine.catan import GAME
from engine.catan import board as B
from engine.catan.bots import BOTS
from engine.core import CHANCE
from replays import audit_match, canonical
from tests.support.draws import fix_secret
from workers.jobs import validate_log


def my_board():
    doc = B.generate_board("3-4", 77, name="Our kitchen-table board")
    doc["provenance"] = "user"
    return doc


def test_boards_are_content_addressed_and_listed(client, anon):
    listing = anon.get("/api/games/catan/boards").get_json()["items"]
    standard = {i["hash"]: i for i in listing if i["builtin"]}
    assert set(standard) == set(B.standard_hashes().values())
    assert {tuple(i["players"]) for i in standard.values()} == {(3, 4), (5, 6)}
    doc = my_board()
    assert anon.post("/api/games/catan/boards", json=doc).status_code == 401
    first = client.post("/api/games/catan/boards", json=doc)
    assert first.status_code == 201, first.get_json()
    h = first.get_json()["hash"]
    assert h == B.board_hash(B.validate_board(doc))
    assert client.post("/api/games/catan/boards", json=doc).status_code == 200
    read = anon.get(f"/api/games/catan/boards/{h}").get_json()
    assert read["document"] == B.validate_board(doc) and read["land_hexes"] == 19


@pytest.mark.parametrize("change,field,hex_", [
    (lambda d: d["hexes"][3].update(number=7), "hexes[3].number", True),
    (lambda d: d["hexes"][0].update(terrain="lava"), "hexes[0].terrain", True),
    (lambda d: d["hexes"].append(dict(d["hexes"][5])), "hexes[19]", True),
    (lambda d: d["harbors"][0].update(edge=[[0, 0], [1, 0]]), "harbors[0].edge", True),
    (lambda d: d["hexes"].append({"at": [9, 9], "terrain": "forest", "number": 5}), "hexes", True),
    (lambda d: d.update(players=[2]), "players", False),
])
def test_board_errors_name_the_hex_or_field(client, change, field, hex_):
    doc = my_board()
    change(doc)
    res = client.post("/api/games/catan/boards", json=doc)
    assert res.status_code == 400, res.get_json()
    err = res.get_json()["error"]
    assert err["code"] == "invalid_board" and err["field"] == field, err
    assert ("hex" in err) == hex_


def test_a_match_records_its_board_by_hash_and_embeds_it(client, store):
    res = client.post("/api/matches", json={"game": "catan", "players": ["Ann", "Bob", "Cor", "Dirk", "Eva"]})
    assert res.status_code == 201, res.get_json()
    setup = store.events(res.get_json()["id"])[0]["data"]
    assert setup["options"]["board"] == B.standard_hashes()[5]
    assert B.board_hash(setup["options"]["board_doc"]) == setup["options"]["board"]
    h = client.post("/api/games/catan/boards", json=my_board()).get_json()["hash"]
    res = client.post("/api/matches", json={"game": "catan", "players": ["Ann", "Bob", "Cor"], "options": {"board": h}})
    mid = res.get_json()["id"]
    assert store.events(mid)[0]["data"]["options"]["board_doc"]["name"] == "Our kitchen-table board"
    assert client.get(f"/api/matches/{mid}/state").get_json()["board"]["hash"] == h
    # a 3–4 board is refused for 6 players, an unknown board is a 404
    res = client.post("/api/matches", json={"game": "catan", "players": [f"P{i}" for i in range(6)], "options": {"board": h}})
    assert res.status_code == 400 and res.get_json()["error"]["rule"] == "catan.board"
    res = client.post("/api/matches", json={"game": "catan", "players": ["A", "B", "C"], "options": {"board": "a" * 64}})
    assert res.status_code == 404


def test_an_illegal_move_is_a_422_naming_the_rule_and_the_stream_is_unchanged(client, store):
    mid = client.post("/api/matches", json={"game": "catan", "players": ["Ann", "Bob", "Cor"]}).get_json()["id"]
    ok = client.post(f"/api/matches/{mid}/events", json={"type": "build_settlement", "seat": 0, "data": {"vertex": 20}})
    assert ok.status_code == 201, ok.get_json()
    res = client.post(f"/api/matches/{mid}/events", json={"type": "build_road", "seat": 0, "data": {"edge": 0}})
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "catan.setup_road"
    res = client.post(f"/api/matches/{mid}/events", json={"type": "build_settlement", "seat": 0, "data": {"vertex": [[0, 0], [5, 5], [1, 1]]}})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "data.vertex"
    assert len(store.events(mid)) == 2


@pytest.mark.parametrize("players,seed", [(4, 2026), (6, 7)])
def test_a_simulated_game_over_http_is_validated_with_annotations_and_audited(client, app, store, players, seed):
    fix_secret(app, seed)  # one known game per case, as before secrets: it ends well within the move budget
    res = client.post("/api/matches", json={"game": "catan", "players": [f"P{i}" for i in range(players)],
                                            "mode": "simulated", "seed": seed})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    svc = app.extensions["kroniek"]
    rng = random.Random(seed)
    bots = [BOTS["greedy" if s % 2 == 0 else "random"] for s in range(players)]
    for _ in range(6000):
        ms = svc.current(mid)
        if ms.result is not None:
            break
        seat = next(a for a in ms.game.actors(ms.state) if a != CHANCE)
        move = bots[seat](ms.game, ms.state, seat, rng)
        res = client.post(f"/api/matches/{mid}/events", json={"type": move.type, "seat": seat, "data": move.data})
        assert res.status_code == 201, res.get_json()
    ms = svc.current(mid)
    assert ms.result is not None
    rebuilt = M.replay(store.events(mid))
    assert canonical(M.encode(rebuilt)) == canonical(M.encode(ms))
    verdict = validate_log(store, mid)
    assert verdict["status"] == "valid", verdict
    stored = store.auto_annotations(mid)
    notes = [n for seq in sorted(stored, key=int) for n in stored[seq]]
    kinds = {n["kind"] for n in notes}
    assert {"production", "dice_histogram", "production_summary"} <= kinds, kinds
    hist = next(n for n in notes if n["kind"] == "dice_histogram")
    assert hist["rolls"] == sum(ms.state.hist) and 0 <= hist["p_value"] <= 1
    assert audit_match(store, mid).valid
    assert client.get(f"/api/matches/{mid}/audit").get_json()["valid"] is True
    # the public view shows counts of development cards, never which
    public = client.get(f"/api/matches/{mid}/state").get_json()
    assert all(p["development_known"] == {} for p in public["players"])
    assert GAME.result(ms.state).scores == tuple(ms.result.scores)


# -- brute force over HTTP: a stolen card and a drawn card stay hidden ------------------------------

SETUP = [
    (0, [[0, -1], [1, -1], [0, 0]], [[0, -1], [0, 0]]), (1, [[-1, 1], [0, 1], [-1, 2]], [[-1, 1], [0, 1]]),
    (2, [[1, 0], [2, 0], [1, 1]], [[1, 0], [2, 0]]), (2, [[-1, -1], [0, -1], [-1, 0]], [[-1, -1], [-1, 0]]),
    (1, [[1, -2], [2, -2], [1, -1]], [[1, -2], [2, -2]]), (0, [[-2, 1], [-1, 1], [-2, 2]], [[-2, 1], [-1, 1]]),
]


def _record_to_the_steal(client, steal, draw):
    """The walk-through of docs/games/catan.md up to Bob's steal from Ann
    (card ``steal``) and a development card Bob then buys (card ``draw``)."""
    from tests.test_commitments import event, post
    mid = post(client, "/api/matches", {"game": "catan", "players": ["Ann", "Bob", "Cor"]})["id"]
    for seat, v, e in SETUP:
        event(client, mid, "build_settlement", seat, {"vertex": v})
        event(client, mid, "build_road", seat, {"edge": e})
    event(client, mid, "roll", 0)
    event(client, mid, "dice", None, {"dice": [2, 4]})
    event(client, mid, "trade", 0, {"with": 1, "give": {"ore": 1}, "get": {"wool": 1}})
    event(client, mid, "build_road", 0, {"edge": [[0, -1], [1, -1]]})
    event(client, mid, "end_turn", 0)
    event(client, mid, "roll", 1)
    event(client, mid, "dice", None, {"dice": [3, 4]})
    event(client, mid, "move_robber", 1, {"hex": [0, -1], "victim": 0})
    event(client, mid, "steal", 1, {"card": steal, "from": 0})
    event(client, mid, "buy_dev", 1)
    event(client, mid, "draw_dev", 1, {"card": draw})
    return mid


def test_a_stolen_and_a_drawn_card_cannot_be_brute_forced(app, client, anon, make_user, store):
    from tests.test_commitments import attack, get, normalized, player, seen_by, transparency
    svc = app.extensions["kroniek"]
    outcomes = {}
    for steal, draw in [("brick", "knight"), ("wool", "knight"), ("brick", "monopoly"), ("brick", "victory_point"),
                        ("wool", "road_building")]:
        mid = _record_to_the_steal(client, steal, draw)
        cor = player(client, make_user, app, mid, 2)
        assert validate_log(store, mid)["status"] == "valid"
        referee = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
        views = {"public": seen_by(anon, None, mid), "Cor": seen_by(cor, 2, mid)}
        for seq, candidates in ((len(referee) - 2, [{"card": c, "from": 0} for c in ("brick", "wool")]),
                                (len(referee), [{"card": c} for c in ("knight", "road_building", "year_of_plenty",
                                                                          "monopoly", "victory_point")])):
            hidden = referee[seq - 1]
            assert hidden["data"]["card"] in (steal, draw)
            before = svc.state_at(mid, seq - 1)
            for name, docs in views.items():
                shown = docs["events"]["events"][seq - 1]
                assert shown["redacted"] is True and shown["data"]["card"] is None
                found = attack([docs, transparency(anon)], hidden, candidates)
                # a stolen card's text ("card":"brick","from":0) never appears; neither does a drawn card's
                assert found == [], (name, found)
            assert before.seq == seq - 1
            # the control: the referee's view gives the card away to the same attack
            control = attack([{"events": {"events": referee}}], hidden, candidates)
            assert f"text of {hidden['data']}" in control, control
        outcomes[(steal, draw)] = {name: normalized(docs, mid) for name, docs in views.items()}
    # whatever was stolen and drawn, the public and Cor read exactly the same
    assert len({json.dumps(o, sort_keys=True) for o in outcomes.values()}) == 1


def test_the_turn_model_is_a_match_option_and_a_wrong_one_is_a_400_naming_it(client, store):
    six = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]
    res = client.post("/api/matches", json={"game": "catan", "players": six, "options": {"turn_model": "paired"}})
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    assert store.events(mid)[0]["data"]["options"]["turn_model"] == "paired"
    res = client.post("/api/matches", json={"game": "catan", "players": six[:4], "options": {"turn_model": "paired"}})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "options.turn_model", res.get_json()
    assert "5–6 players" in res.get_json()["error"]["message"]
    res = client.post("/api/matches", json={"game": "catan", "players": six, "options": {"turn_model": "sometimes"}})
    assert res.status_code == 400 and "turn_model" in res.get_json()["error"]["message"], res.get_json()
    res = client.post("/api/matches", json={"game": "catan", "players": six,
                                            "options": {"turn_model": "paired", "special_building_phase": True}})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "options.special_building_phase"


def test_the_docs_and_the_api_say_when_the_robbers_victim_may_be_null(anon):
    """Issue 19 (mended once, then reverted): the docs did not say when ``victim`` may be null. It may only
    when no other player on the hex holds a card (the rule catan.steal refuses null otherwise, as
    tests/engine/test_catan_rules.py checks); the docs and the event's description say so."""
    from pathlib import Path

    row = next(line for line in (Path(__file__).resolve().parents[1] / "docs/games/catan.md").read_text("utf-8").splitlines()
               if line.startswith("| `move_robber`"))
    assert "`victim` may be null or left out only when no other player with a settlement or city on that hex holds a card" in row
    described = anon.get("/api/games/catan").get_json()["event_types"]["move_robber"]["description"]
    assert "nobody only when none of them holds a card" in described
