"""Troje (``catan-troje``) over HTTP against a real Redis: 4- and 6-player
matches, the boards and ship-tile lists as data (shipped PLACEHOLDERS, and a
table's own), refused moves naming the troje rule with the stream unchanged,
what each seat and the public may read (never another seat's decision card
or donated cards), and whole simulated games recorded event by event as a
recorder enters them, validated by the worker with its annotations and
audited.

``WALK`` is the walk-through of docs/games/catan-troje.md (its curl block
runs the same events in tests/test_docs_examples.py): four players on the
shipped placeholder board, the decision cards dealt privately, the set-up,
Ann's donation seen by the recorder, Bob's 7 with the sea people, Bob's
donation the recorder did not see, and the battle it brings.
"""

from __future__ import annotations

import copy
import os
import random
import subprocess
import sys

import orjson
import pytest

from engine import match as M
from engine import registry
from engine.core import CHANCE
from engine.troje import board as TB
from engine.troje.game import TABLE, Troje
from replays import audit_match, canonical
from tests.test_commitments import get, normalized, player, post, seen_by
from workers.jobs import validate_log

GAME = "catan-troje"
FOUR = ["Ann", "Bob", "Cor", "Dirk"]
SIX = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]
PLACEHOLDER_BOARD = TB.default_board_hash()
PLACEHOLDER_TILES = TB.default_ship_tiles_hash()


def create(client, players, options=None, status=201, **body):
    res = client.post("/api/matches", json={"game": GAME, "players": players, **({"options": options} if options
                                                                                  is not None else {}), **body})
    assert res.status_code == status, res.get_json()
    return res.get_json()


def send(client, mid, type_, seat=None, data=None):
    return client.post(f"/api/matches/{mid}/events", json={"type": type_, "seat": seat, "data": data or {}})


def ok(client, mid, type_, seat=None, data=None):
    res = send(client, mid, type_, seat, data)
    assert res.status_code == 201, (type_, seat, data, res.get_json())
    return orjson.loads(res.get_data())  # each answer holds the public view: the stdlib's json took 5 s of the suite


# -- the walk-through of the docs -------------------------------------------------------------------

SETUP = [  # (seat, settlement: its three hexes, road: its two hexes), in snake order
    (0, [[-5, -2], [-4, -3], [-4, -2]], [[-5, -2], [-4, -3]]),
    (1, [[-6, -1], [-5, -2], [-5, -1]], [[-6, -1], [-5, -2]]),
    (2, [[-8, 1], [-7, 0], [-7, 1]], [[-8, 1], [-7, 0]]),
    (3, [[-5, -1], [-4, -2], [-4, -1]], [[-5, -1], [-4, -2]]),  # on the coast of sea tile [-4, -1]
    (3, [[-6, -3], [-6, -2], [-5, -3]], [[-6, -3], [-5, -3]]),  # lumber, 2 grain
    (2, [[-8, -2], [-8, -1], [-7, -2]], [[-8, -2], [-7, -2]]),  # brick, wool, ore
    (1, [[-6, 0], [-5, -1], [-5, 0]], [[-6, 0], [-5, -1]]),  # lumber, brick, ore
    (0, [[-3, -3], [-3, -2], [-2, -3]], [[-3, -3], [-2, -3]]),  # lumber, wool, ore
]


def walk(sides=("troy", "mycenae", "mycenae", "troy"), ann_gives=None, bob_gives=None):
    """The walk-through's events: ``sides`` the decision cards, ``ann_gives``
    Ann's donation (seen by the recorder), ``bob_gives`` Bob's (None: the
    recorder did not see it, only its count)."""
    events = [("decision_card", seat, {"side": side}) for seat, side in enumerate(sides)]
    for seat, vertex, edge in SETUP:
        events += [("build_settlement", seat, {"vertex": vertex}), ("build_road", seat, {"edge": edge})]
    events += [
        ("roll", 0, {}), ("dice", None, {"dice": [3, 3]}),  # a 6: Ann 1 wool; Cor 1 brick, 1 wool
        ("donate", 0, {"cards": ann_gives or {"wool": 2, "ore": 1}}),
        ("end_turn", 0, {}),
        ("roll", 1, {}), ("dice", None, {"dice": [3, 4]}),  # a 7: nobody holds more than 7 cards
        ("move_sea_people", 1, {"tile": [-4, -1], "victim": 3}),
        ("steal", 1, {"card": "grain", "from": 3}),
        ("donate", 1, {"cards": bob_gives, "count": 3}),
        ("end_turn", 1, {}),  # the stack holds 10 cards: a battle
        ("battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 2, "brick": 1}}),  # Troy 4, Mycenae 2
    ]
    return events


#: seqs in the walk-through's match (the setup is 1)
ANN_CARD, ANN_DONATES, BOB_DONATES, BATTLE = 2, 24, 30, 32


def record_walk(client, **kwargs) -> str:
    mid = create(client, FOUR)["id"]
    for type_, seat, data in walk(**kwargs):
        ok(client, mid, type_, seat, data)
    return mid


def test_the_walk_through_seqs_are_as_named():
    events = walk()
    assert events[ANN_CARD - 2][:2] == ("decision_card", 0)
    assert events[ANN_DONATES - 2][:2] == ("donate", 0) and events[BOB_DONATES - 2][:2] == ("donate", 1)
    assert events[BATTLE - 2][0] == "battle" and len(events) == BATTLE - 1


# -- matches for 4 and 6 ----------------------------------------------------------------------------

@pytest.mark.rule("troje.players")
@pytest.mark.rule("troje.board_placeholder")
def test_a_four_and_a_six_player_match_start_on_the_placeholders_and_five_are_refused(client, store):
    for players in (FOUR, SIX):
        m = create(client, players)
        setup = store.events(m["id"])[0]["data"]
        options = setup["options"]
        assert options["board"] == PLACEHOLDER_BOARD and options["ship_tiles"] == PLACEHOLDER_TILES
        assert TB.check_board(options["board_doc"]) == options["board_doc"]
        assert options["ship_tiles_doc"]["provenance"] == "placeholder"
        state = get(client, f"/api/matches/{m['id']}/state")
        assert state["phase"] == "deal" and len(state["players"]) == len(players)
        assert state["troje"]["ship_tiles"]["placeholder"] is True
        assert "PLACEHOLDER" in state["troje"]["ship_tiles"]["label"]
        assert state["troje"]["support_stack"]["battle_at"] == (10 if len(players) == 4 else 13)
        assert state["troje"]["support_stack"]["turned_up_in_battle"] == (7 if len(players) == 4 else 10)
        review = get(client, f"/api/matches/{m['id']}/review")
        assert "placeholder" in review["steps"][0]["summary"]
        # the deal comes first: one decision card per seat, in seat order
        assert get(client, f"/api/matches/{m['id']}/legal-moves")["chance"] == [{"type": "decision_card",
                                                                                "seat": 0}]
    for players in (FOUR[:3], SIX[:5], SIX + ["Gert"]):
        res = client.post("/api/matches", json={"game": GAME, "players": players})
        assert res.status_code == 400, res.get_json()
        err = res.get_json()["error"]
        assert err["field"] == "players", err


def test_the_game_lists_its_events_options_rules_and_data_kinds(anon):
    info = get(anon, f"/api/games/{GAME}")
    assert info["min_players"] == 4 and info["max_players"] == 6
    assert {"decision_card", "donate", "build_ship", "ship_tile", "take_chip", "move_sea_people", "use_advantage",
            "stack_card", "return_card", "battle", "claim_win", "reveal_allegiances"} <= set(info["event_types"])
    defaults = {k: v.get("default") for k, v in info["options"]["properties"].items()}
    assert defaults["revealed_cards"] == "bank" and defaults["allegiances"] == "private"
    assert defaults["battle_timing"] == "before_sbp" and defaults["stack_draws"] == "per_ship"
    assert {"troje.donate", "troje.battle_reveal", "troje.war_end"} <= set(info["rules"])
    assert info["data_kinds"]["boards"]["url"] == f"/api/games/{GAME}/boards"
    assert info["data_kinds"]["ship-tiles"]["url"] == f"/api/games/{GAME}/ship-tiles"
    assert "PLACEHOLDER" in info["data_kinds"]["boards"]["default"]
    assert "PLACEHOLDER" in info["data_kinds"]["ship-tiles"]["default"]


def test_the_base_games_dutch_event_names_are_accepted(client, store):
    """The table says dorp, straat, dobbelen, worp as in the base game (and
    afdragen, zeevolk, strijd for the scenario's own events)."""
    mid = create(client, FOUR)["id"]
    for type_, seat, data in walk()[:4]:
        ok(client, mid, "beslissingskaart", seat, data)
    names = {"build_settlement": "dorp", "build_road": "straat", "roll": "dobbelen", "dice": "worp",
             "end_turn": "beurt beëindigen", "donate": "afdragen", "move_sea_people": "zeevolk", "steal": "stelen",
             "battle": "strijd"}
    for type_, seat, data in walk()[4:]:
        ok(client, mid, names.get(type_, type_), seat, data)
    logged = [(e["type"], e["seat"], e["data"]) for e in store.events(mid)[1:]]
    assert [t for t, _, _ in logged] == [t for t, _, _ in walk()]
    aliases = get(client, f"/api/games/{GAME}")["aliases"]
    assert aliases["dorp"] == "build_settlement" and aliases["worp"] == "dice" and aliases["zeehandel"] == "trade_bank"
    assert "ridder" not in aliases  # no development cards in Troje


# -- boards and ship tiles as data -----------------------------------------------------------------

def our_tiles():
    """A table's own count of its ship tiles (four colours are enough for 4 players)."""
    return {"format": TB.SHIP_TILES_FORMAT, "name": "Our box, counted", "provenance": "user",
            "colours": [{"colour": c, "tiles": ["3:1", "3:1", "vp", "ruilen", "handelsfiche", "trekken", "trekken"]}
                        for c in ("red", "blue", "white", "orange")]}


def our_board():
    doc = copy.deepcopy(TB.builtin_boards()[PLACEHOLDER_BOARD])
    doc.update(name="Our board", provenance="user")
    doc.pop("notes")
    doc["players"] = [4]
    doc.pop("variants")
    doc["hexes"] = [h for h in doc["hexes"] if "east" not in h["region"]]
    return doc


@pytest.mark.rule("troje.board_placeholder")
def test_the_shipped_board_and_ship_tiles_are_listed_as_placeholders(anon):
    boards = get(anon, f"/api/games/{GAME}/boards")["items"]
    assert [b["hash"] for b in boards if b["builtin"]] == [PLACEHOLDER_BOARD]
    (board,) = [b for b in boards if b["builtin"]]
    assert board["placeholder"] is True and board["label"].startswith("PLACEHOLDER") and board["players"] == [4, 6]
    doc = get(anon, f"/api/games/{GAME}/boards/{PLACEHOLDER_BOARD}")
    assert doc["document"] == TB.builtin_boards()[PLACEHOLDER_BOARD] and doc["builtin"] is True
    tiles = get(anon, f"/api/games/{GAME}/ship-tiles")["items"]
    (shipped,) = [t for t in tiles if t["builtin"]]
    assert shipped["hash"] == PLACEHOLDER_TILES and shipped["placeholder"] is True
    assert shipped["label"].startswith("PLACEHOLDER") and shipped["tiles_per_colour"] == [7] * 6
    doc = get(anon, f"/api/games/{GAME}/ship-tiles/{PLACEHOLDER_TILES}")["document"]
    assert doc["provenance"] == "placeholder" and len(doc["colours"]) == 6


@pytest.mark.rule("troje.ship_tiles")
def test_a_table_enters_its_own_board_and_ship_tiles_and_plays_on_them(client, anon, store):
    assert anon.post(f"/api/games/{GAME}/ship-tiles", json=our_tiles()).status_code == 401
    res = client.post(f"/api/games/{GAME}/ship-tiles", json=our_tiles())
    assert res.status_code == 201, res.get_json()
    tiles = res.get_json()
    assert tiles["placeholder"] is False and tiles["label"] == "user-entered ship tiles"
    assert tiles["hash"] == TB.digest(TB.check_ship_tiles(our_tiles()))
    assert client.post(f"/api/games/{GAME}/ship-tiles", json=our_tiles()).status_code == 200  # stored once
    res = client.post(f"/api/games/{GAME}/boards", json=our_board())
    assert res.status_code == 201, res.get_json()
    board = res.get_json()
    assert board["label"] == "user-entered board" and board["players"] == [4] and not board.get("placeholder")
    listed = get(anon, f"/api/games/{GAME}/ship-tiles")["items"]
    assert [t["hash"] for t in listed if not t["builtin"]] == [tiles["hash"]]
    assert [b["hash"] for b in get(anon, f"/api/games/{GAME}/boards")["items"] if not b["builtin"]] == [board["hash"]]
    # a match names both by hash; the server embeds them so the log alone replays
    mid = create(client, FOUR, {"board": board["hash"], "ship_tiles": tiles["hash"]})["id"]
    options = store.events(mid)[0]["data"]["options"]
    assert options["board_doc"]["name"] == "Our board" and options["ship_tiles_doc"]["name"] == "Our box, counted"
    state = get(anon, f"/api/matches/{mid}/state")
    assert state["troje"]["ship_tiles"] == {"hash": tiles["hash"], "name": "Our box, counted", "provenance": "user"}
    assert state["board"]["hash"] == board["hash"]
    assert state["players"][0]["ship_tiles_left"] == {"harbour_3to1": 2, "victory_point": 1, "swap": 1,
                                                      "trade_chip": 1, "draw": 2}
    for type_, seat, data in walk()[:8]:
        ok(client, mid, type_, seat, data)
    assert M.replay(store.events(mid)).seq == 9
    # four colours do not serve six players; the board is for 4 only
    res = client.post("/api/matches", json={"game": GAME, "players": SIX, "options": {"ship_tiles": tiles["hash"]}})
    assert res.status_code == 400 and res.get_json()["error"]["field"] == "options.ship_tiles", res.get_json()
    res = client.post("/api/matches", json={"game": GAME, "players": SIX, "options": {"board": board["hash"]}})
    assert res.status_code == 400 and res.get_json()["error"]["rule"] == "troje.board_cut", res.get_json()
    res = client.post("/api/matches", json={"game": GAME, "players": FOUR, "options": {"ship_tiles": "a" * 64}})
    assert res.status_code == 404, res.get_json()


@pytest.mark.parametrize("change,code,field", [
    (lambda d: d["colours"][1]["tiles"].append("kanon"), "invalid_ship_tiles", "colours[1].tiles[7]"),
    (lambda d: d.update(colours=d["colours"][:3]), "invalid_ship_tiles", "colours"),  # 4–6 colours
    (lambda d: d.update(format="kroniek.catan.board/1"), "invalid_ship_tiles", "format"),
    (lambda d: d["colours"][2].update(colour="Red"), "invalid_ship_tiles", "colours[2].colour"),
])
def test_a_bad_ship_tile_list_is_a_400_naming_the_field(client, change, code, field):
    doc = our_tiles()
    change(doc)
    res = client.post(f"/api/games/{GAME}/ship-tiles", json=doc)
    assert res.status_code == 400, res.get_json()
    err = res.get_json()["error"]
    assert err["code"] == code and err["field"] == field, err


@pytest.mark.parametrize("change,field", [
    (lambda d: d.update(robber=[0, 0]), "robber"),
    (lambda d: d.update(players=[3, 4]), "players"),
    (lambda d: [h.update(name="Athene") for h in d["hexes"] if h.get("name") == "Troy"], "hexes"),
])
def test_a_board_unfit_for_troje_is_a_400_naming_the_field(client, change, field):
    doc = our_board()
    change(doc)
    res = client.post(f"/api/games/{GAME}/boards", json=doc)
    assert res.status_code == 400, res.get_json()
    err = res.get_json()["error"]
    assert err["code"] == "invalid_board" and err["field"] == field, err
    # the pages' editor checks it first: the same error, as a 200 that says it is not valid
    assert client.post(f"/api/games/{GAME}/boards/check", json=doc).get_json() == {"valid": False, "error": err}


# -- refusals --------------------------------------------------------------------------------------

def _at(n):
    """The walk-through's first ``n`` events."""
    return walk()[:n]


#: (events of the walk-through before the refused one, the refused event, status, what the error names)
REFUSALS = [
    pytest.param(3, ("decision_card", 3, {"side": "mycenae"}), 422, {"rule": "troje.allegiance_teams"},
                 id="a third Mycenae card with 4 players", marks=pytest.mark.rule("troje.allegiance_teams")),
    pytest.param(2, ("decision_card", 3, {"side": "troy"}), 400, {"field": "seat"}, id="a card out of seat order"),
    pytest.param(4, ("decision_card", 0, {"side": "troy"}), 422, {"rule": "core.chance"}, id="a fifth card"),
    pytest.param(2, ("decision_card", 2, {"side": "sparta"}), 400, {"field": "data.side"}, id="no such city"),
    pytest.param(19, ("roll", 0, {}), 422, {"rule": "catan.roll"}, id="the set-up is not over"),
    pytest.param(20, ("buy_dev", 0, {}), 422, {"rule": "troje.no_development_cards"}, id="a development card",
                 marks=pytest.mark.rule("troje.no_development_cards")),
    pytest.param(22, ("move_robber", 0, {"hex": [-4, -3], "victim": None}), 422, {"rule": "troje.seven"},
                 id="the robber", marks=pytest.mark.rule("troje.seven")),
    pytest.param(22, ("donate", 0, {"cards": {"wool": 4}}), 422, {"rule": "troje.donate"}, id="four cards"),
    pytest.param(22, ("donate", 0, {"cards": None, "count": 4}), 400, {"field": "data"}, id="a count of four"),
    pytest.param(22, ("donate", 0, {"cards": {"grain": 1}}), 422, {"rule": "troje.hidden_cards"},
                 id="a card Ann lacks"),
    pytest.param(22, ("donate", 0, {"cards": {"handelspunt": 1}}), 422, {"rule": "troje.trade_points_not_resources"},
                 id="a trade point donated"),
    pytest.param(23, ("donate", 0, {"cards": {"lumber": 1}}), 422, {"rule": "troje.donate"}, id="a second donation"),
    pytest.param(23, ("build_ship", 0, {"tile": [-1, -2]}), 422, {"rule": "troje.ship_cost"},
                 id="a ship without trade points"),
    pytest.param(26, ("move_sea_people", 1, {"tile": [-4, -1], "victim": 2}), 422, {"rule": "troje.sea_people_steal"},
                 id="a victim with no settlement there"),
    pytest.param(26, ("move_sea_people", 1, {"tile": [-4, -7]}), 400, {"field": "data.tile"}, id="no sea tile"),
    pytest.param(30, ("battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 2}}), 422,
                 {"rule": "troje.battle_reveal"}, id="six cards turned up, not seven"),
    pytest.param(30, ("battle", None, {"revealed": {"wool": 4, "ore": 3}}), 422,
                 {"rule": "troje.hidden_cards"}, id="four wool on a stack that holds three",
                 marks=pytest.mark.rule("troje.hidden_cards")),
    pytest.param(30, ("roll", 2, {}), 422, {"rule": "core.turn"}, id="the battle comes first"),
]


@pytest.mark.parametrize("before,refused,status,names", REFUSALS)
def test_a_refused_move_is_a_4xx_naming_the_rule_and_the_stream_is_unchanged(client, store, before, refused, status,
                                                                               names):
    mid = create(client, FOUR)["id"]
    for type_, seat, data in _at(before):
        ok(client, mid, type_, seat, data)
    events = store.events(mid)
    state = get(client, f"/api/matches/{mid}/state", seat="referee")
    res = send(client, mid, *refused)
    assert res.status_code == status, res.get_json()
    err = res.get_json()["error"]
    assert {k: err.get(k) for k in names} == names, err
    assert err["message"]
    if "rule" in names and names["rule"].startswith("troje."):
        assert err["rule_text"] == Troje.rules[names["rule"]] if "rule_text" in err else True
    assert store.events(mid) == events
    assert get(client, f"/api/matches/{mid}/state", seat="referee") == state


# -- what each viewer may read ---------------------------------------------------------------------

BASE = {"sides": ("troy", "mycenae", "mycenae", "troy"), "ann_gives": {"wool": 2, "ore": 1},
        "bob_gives": {"lumber": 1, "brick": 1, "grain": 1}}
#: recordings of the walk-through that differ only in what some seats may not see (the recorder saw both
#: donations in all of them: whether the recorder saw one is no secret, as with a Catan steal)
VARIANTS = {
    "base": BASE,
    "ann and bob swap sides": {**BASE, "sides": ("mycenae", "troy", "mycenae", "troy")},
    "ann gives other cards": {**BASE, "ann_gives": {"lumber": 1, "wool": 1, "ore": 1}},
    "bob gives other cards": {**BASE, "bob_gives": {"lumber": 1, "brick": 1, "ore": 1}},
}
#: per viewer (seat, or None: the public), the variants it must not tell apart
BLIND = {
    None: list(VARIANTS),
    2: list(VARIANTS),  # Cor: Mycenae in all of them
    3: list(VARIANTS),  # Dirk: Troy in all of them
    1: ["base", "ann gives other cards"],  # Bob: his own side or cards differ in the others
    0: ["base", "bob gives other cards"],  # Ann: likewise
}


@pytest.mark.rule("troje.allegiance_knowledge")
@pytest.mark.rule("troje.donate_face_down")
def test_no_seat_nor_the_public_reads_another_seats_decision_card_or_donated_cards(app, client, anon, make_user,
                                                                                    store):
    read: dict[str, dict] = {}
    referee = {}
    for name, variant in VARIANTS.items():
        mid = record_walk(client, **variant)
        assert validate_log(store, mid)["status"] == "valid"
        seats = {seat: player(client, make_user, app, mid, seat) for seat in range(4)}
        read[name] = {seat: normalized(seen_by(anon if seat is None else seats[seat], seat, mid), mid)
                      for seat in BLIND}
        referee[name] = normalized(seen_by(client, "referee", mid), mid)
    for seat, variants in BLIND.items():
        seen = {read[name][seat] for name in variants}
        assert len(seen) == 1, f"seat {seat} tells {variants} apart"
    # the control: the log's own view tells every recording apart, and each seat its own secrets
    assert len(set(referee.values())) == len(VARIANTS)
    assert read["base"][0] != read["ann gives other cards"][0] and read["base"][1] != read["bob gives other cards"][1]
    assert read["base"][1] != read["ann and bob swap sides"][1]


def test_events_and_review_are_redacted_for_other_seats(app, client, anon, make_user, store):
    mid = record_walk(client)
    validate_log(store, mid)
    ann, cor = player(client, make_user, app, mid, 0), player(client, make_user, app, mid, 2)
    for viewer, seat in ((cor, 2), (anon, None)):
        q = {} if seat is None else {"seat": seat}
        events = get(viewer, f"/api/matches/{mid}/events", **q)["events"]
        card = events[ANN_CARD - 1]
        assert card["type"] == "decision_card" and card["data"] == {"side": None} and card["redacted"] is True
        assert "salt" not in card
        for seq, count in ((ANN_DONATES, 3), (BOB_DONATES, 3)):
            assert events[seq - 1]["data"] == {"cards": None, "count": count}
        assert events[ANN_DONATES - 1]["redacted"] is True
        steps = get(viewer, f"/api/matches/{mid}/review", **q)["steps"]
        for seq in (ANN_CARD, ANN_DONATES):
            assert steps[seq - 1]["summary"].endswith("(hidden from this view)")
            assert steps[seq - 1]["annotations"] == []
        if seat == 2:  # Cor sees his own card
            assert events[3]["data"] == {"side": "mycenae"} and "redacted" not in events[3]
        state = get(viewer, f"/api/matches/{mid}/state", **q)
        others = [p for p in state["players"] if p["seat"] != seat]
        assert all(p["side"] is None and p["saga_vp"] is None for p in others)
        stack = state["troje"]["support_stack"]["as_known"]
        assert stack["known"] == {"grain": 1} and stack["unseen"] == 2  # after the battle: 3 cards, 1 known to all
    # Ann reads her own card and donation, with the worker's note on it
    events = get(ann, f"/api/matches/{mid}/events", seat=0)["events"]
    assert events[ANN_CARD - 1]["data"] == {"side": "troy"} and "redacted" not in events[ANN_CARD - 1]
    assert events[ANN_DONATES - 1]["data"] == {"cards": {"wool": 2, "ore": 1}, "count": 3}
    step = get(ann, f"/api/matches/{mid}/review", seat=0)["steps"][ANN_DONATES - 1]
    assert step["summary"] == "Ann donates 1 ore, 2 wool to the support stack (now 7); +1 trade point"
    assert [a["kind"] for a in step["annotations"]] == ["support"]
    assert step["annotations"][0]["given"] == {"troy": 3, "mycenae": 0, "neutral": 0, "unseen": 0}
    state = get(ann, f"/api/matches/{mid}/state", seat=0)
    assert state["players"][0]["side"] == "troy" and state["players"][0]["saga_vp"] == 1
    # the battle is public: its summary and the worker's odds and saga notes for everyone
    step = get(anon, f"/api/matches/{mid}/review")["steps"][BATTLE - 1]
    assert step["summary"].startswith("Battle: 1 brick, 2 lumber, 2 ore, 2 wool turned up — Troy 4, Mycenae 2: "
                                      "Troy wins")
    assert [a["kind"] for a in step["annotations"]] == ["battle_odds", "saga"]
    # the players' own exports hide the same, as not seen by the recorder: Cor's export imports as his recording
    text = cor.get(f"/api/matches/{mid}/notation?seat=2").get_data(as_text=True)
    lines = text.splitlines()
    assert "2. Ann: decision_card -" in lines and "4. Cor: decision_card mycenae" in lines
    assert "24. Ann: donate cards=- count=3" in lines and "29. Bob: steal - from=3" in lines
    res = client.post("/api/matches/import", data=text.encode(), content_type="text/plain; charset=utf-8")
    assert res.status_code == 201, res.get_json()
    mine = get(client, f"/api/matches/{res.get_json()['id']}/events", seat="referee")["events"]
    cors = get(cor, f"/api/matches/{mid}/events", seat=2)["events"]
    assert [(e["type"], e["seat"], e["data"]) for e in mine[1:]] == [(e["type"], e["seat"], e["data"])
                                                                     for e in cors[1:]]


# -- whole games recorded over HTTP ------------------------------------------------------------------

#: how much more often a kind of move is picked than another (the donations alone are many moves: picked
#: uniformly among all legal moves, they end every game by the war before a ship is built)
WEIGHTS = {"build_ship": 10, "use_advantage": 10, "build_city": 8, "build_settlement": 8, "build_road": 2, "donate": 2,
           "end_turn": 3}


def pick(rng, moves):
    """A random legal move: a kind of move by ``WEIGHTS`` (1 if not named), then one of that kind."""
    kinds = sorted({m.type for m in moves})
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1) for k in kinds])[0]
    return rng.choice([m for m in moves if m.type == kind])


def record_random_game(client, store, players, seed, options=None, cap=5000):
    """A game played by random legal moves (``pick``), chance drawn from a
    seeded RNG, every event POSTed one by one as a recorder enters it. The
    recorder's own copy of the match (``engine.match`` from the stored setup)
    moves alongside; returns (match id, that copy)."""
    mid = create(client, players, options)["id"]
    ms = M.start(store.events(mid)[0]["data"])
    game = ms.game
    rng = random.Random(seed)
    for _ in range(cap):
        if ms.result is not None:
            break
        actor = game.actors(ms.state)[0]
        if actor in (CHANCE, TABLE):
            move = game.chance_outcome(ms.state, rng)
        else:
            move = pick(rng, game.legal_moves(ms.state, actor))
        body = ok(client, mid, move.type, move.seat, move.data)
        data = M.normalize_event(ms, move.type, move.seat, move.data)
        ms = M.apply_event(ms, ms.seq + 1, move.type, move.seat, data)
        assert body["seq"] == ms.seq
    assert ms.result is not None, f"no end in {cap} events"
    return mid, ms


def first_seed(players, kinds, tries=100, cap=5000):
    """The first seed whose random game (as ``record_random_game`` plays it, on
    the engine alone) has events of all ``kinds``: the game a seed plays moves
    whenever the rules or the legal moves change, the kinds the test needs do not."""
    game = registry.get("catan-troje")
    names = tuple(f"P{i}" for i in range(len(players)))
    for seed in range(tries):
        rng = random.Random(seed)
        s = game.setup(names, {})
        seen = set()
        for _ in range(cap):
            if game.result(s) is not None:
                break
            actor = game.actors(s)[0]
            move = game.chance_outcome(s, rng) if actor in (CHANCE, TABLE) else pick(rng, game.legal_moves(s, actor))
            s = game.apply(s, move.type, move.seat, game.normalize(s, move.type, move.seat, move.data))
            seen.add(move.type)
        if kinds <= seen:
            return seed
    raise AssertionError(f"no seed below {tries} plays {sorted(kinds)}")


def worker_notes(store, mid):
    stored = store.auto_annotations(mid)
    return [n for seq in sorted(stored, key=int) for n in stored[seq]]


def check_recorded(client, anon, store, mid, ms):
    """The log replays to the recorder's copy, the audit holds, the result is the game's."""
    rebuilt = M.replay(store.events(mid))
    assert canonical(M.encode(rebuilt)) == canonical(M.encode(ms))
    assert audit_match(store, mid).valid
    audit = get(anon, f"/api/matches/{mid}/audit")
    assert audit["valid"] is True and audit["length"] == ms.seq
    match = get(anon, f"/api/matches/{mid}")
    assert match["status"] == "finished" and match["result"]["winners"] == list(ms.state.ext.winners)
    assert match["result"]["scores"] == list(ms.game.result(ms.state).scores)


def check_annotations(store, mid, ms):
    notes = worker_notes(store, mid)
    kinds = [n["kind"] for n in notes]
    x = ms.state.ext
    assert kinds.count("battle_odds") == kinds.count("saga") == len(x.battles) > 0, kinds
    assert kinds.count("support") == sum(1 for e in store.events(mid) if e["type"] == "donate") > 0
    for note in (n for n in notes if n["kind"] == "battle_odds"):
        odds = note["odds"]
        assert abs(odds["troy"] + odds["mycenae"] + odds["tie"] - 1) < 1e-3 and note["stack"] >= note["result"]["troy"]
    last = [n for n in notes if n["kind"] == "saga"][-1]
    assert (last["troy"], last["mycenae"]) == (x.saga.troy, x.saga.mycenae)
    assert [b["won_by"] for b in last["battles"]] == [w for _, w in x.battles]


@pytest.mark.slow
@pytest.mark.parametrize("players,seed,end", [(FOUR, 0, "war"), (SIX, 6, "15 VP")])
def test_a_random_game_recorded_over_http_is_valid_annotated_and_audited(client, anon, store, players, seed, end):
    mid, ms = record_random_game(client, store, players, seed)
    assert (ms.state.ext.war is not None) == (end == "war")
    check_recorded(client, anon, store, mid, ms)
    verdict = validate_log(store, mid)
    assert verdict["status"] == "valid" and verdict["seq"] == ms.seq, verdict
    check_annotations(store, mid, ms)
    assert get(anon, f"/api/matches/{mid}")["validation"] == "valid"
    # the referee's scoresheet (board and tiles by hash) imports as the same log
    text = client.get(f"/api/matches/{mid}/notation?seat=referee").get_data(as_text=True)
    assert "board_doc" not in text and f"board={PLACEHOLDER_BOARD}" in text
    res = client.post("/api/matches/import", data=text.encode(), content_type="text/plain; charset=utf-8")
    assert res.status_code == 201, res.get_json()
    again = store.events(res.get_json()["id"])
    assert [(e["type"], e["seat"], e["data"]) for e in again] == [(e["type"], e["seat"], e["data"])
                                                                  for e in store.events(mid)]


@pytest.mark.slow
def test_a_random_six_player_game_recorded_over_http_is_validated_by_a_real_worker(client, anon, store, prefix):
    """Six players (the Special Building Phase, battles at 13 cards turning up
    10), the verdict from a real RQ worker process on the suite's Redis."""
    from workers.queue import enqueue_validation

    wanted = {"build_ship", "ship_tile", "use_advantage", "stack_card", "return_card", "steal"}
    mid, ms = record_random_game(client, store, SIX, seed=first_seed(SIX, wanted))
    check_recorded(client, anon, store, mid, ms)
    kinds = {e["type"] for e in store.events(mid)}
    assert wanted <= kinds, kinds
    enqueue_validation(prefix, mid)
    env = {**os.environ, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix}
    proc = subprocess.run([sys.executable, "-m", "service.cli", "worker", "--burst", "--queues", "validation"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    verdict = store.verdict(mid)
    assert verdict["status"] == "valid" and verdict["seq"] == ms.seq, verdict
    check_annotations(store, mid, ms)
    # the review shows the worker's notes to everyone on public events, never on another seat's donation
    steps = get(anon, f"/api/matches/{mid}/review")["steps"]
    battles = [s for s in steps if s["type"] == "battle"]
    assert battles and all([a["kind"] for a in s["annotations"]] == ["battle_odds", "saga"] for s in battles)
    assert all(s["annotations"] == [] for s in steps if s["type"] == "donate" and
               s["summary"].endswith("(hidden from this view)"))
    assert get(anon, f"/api/matches/{mid}")["validation"] == "valid"


# -- allegiances left to the reveal: a claimed win is checked there -----------------------------------

@pytest.mark.rule("troje.allegiance_knowledge")
@pytest.mark.rule("troje.win_15")
def test_with_allegiances_at_the_reveal_a_claimed_win_is_checked_when_the_cards_are_turned_up(client, anon, store):
    """Option allegiances at_reveal (and 3 VP to win, so that one battle
    decides): after Troy's battle Cor, with 2 VP, could have 3 if he is for
    Troy; he claims, and the reveal decides."""
    mid = create(client, FOUR, {"allegiances": "at_reveal", "victory_points": 3})["id"]
    assert get(anon, f"/api/matches/{mid}/state")["phase"] == "setup_settlement"
    events = walk()[4:]
    for type_, seat, data in events[:16]:
        ok(client, mid, type_, seat, data)
    res = send(client, mid, "claim_win", 0)  # nobody has saga VP yet: 2 VP cannot be 3
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "troje.win_15", res.get_json()
    for type_, seat, data in events[16:]:
        ok(client, mid, type_, seat, data)
    state = get(anon, f"/api/matches/{mid}/state")
    assert state["troje"]["saga"]["vp"] == {"troy": 1, "mycenae": 0} and state["turn"] == 2
    moves = get(client, f"/api/matches/{mid}/legal-moves", seat=2)["moves"]
    assert {"type": "claim_win", "seat": 2, "data": {}} in moves
    ok(client, mid, "claim_win", 2)
    state = get(anon, f"/api/matches/{mid}/state")
    assert state["phase"] == "reveal" and state["troje"]["claim"] == 2
    assert all(p["side"] is None for p in state["players"])
    before = store.events(mid)
    res = send(client, mid, "reveal_allegiances", None, {"sides": ["troy", "mycenae", "mycenae", "troy"]})
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "troje.win_15", res.get_json()
    assert store.events(mid) == before
    res = send(client, mid, "reveal_allegiances", None, {"sides": ["troje", "mykene", "troje", "mykene"]})
    assert res.status_code == 201, res.get_json()
    match = get(anon, f"/api/matches/{mid}")
    assert match["status"] == "finished" and match["result"]["winners"] == [2]
    assert match["result"]["scores"] == [3, 2, 3, 2]
    state = get(anon, f"/api/matches/{mid}/state")
    assert [p["side"] for p in state["players"]] == ["troy", "mycenae", "troy", "mycenae"]
    assert validate_log(store, mid)["status"] == "valid"
