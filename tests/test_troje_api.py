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
import json
import os
import random
import subprocess
import sys

import pytest

from engine import match as M
from engine.core import CHANCE
from engine.troje import board as TB
from engine.troje.game import TABLE, Troje
from replays import audit_match, canonical
from tests.conftest import client_with_token
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
    return res.get_json()


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
