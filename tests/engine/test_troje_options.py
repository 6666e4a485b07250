"""Troje's options (defaults, every bad value refused naming its field) and
its board and ship-tile documents (validated by the Catan board validator
plus the scenario's own checks)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.catan import board as B
from engine.core import InvalidOptions
from engine.game_data import digest
from engine.troje import board as TB
from engine.troje import options as O

from .troje_support import cfg

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "catan-troje.md"


def test_defaults():
    c = cfg(4)
    assert (c.revealed_to_bank, c.sea_people_any_sea, c.city_counts, c.blocked_keeps_vp, c.blocked_blocks_chip,
            c.draws_per_ship, c.battle_before_sbp, c.ships_in_sbp, c.donations_in_sbp,
            c.private_allegiances) == (True, True, True, True, True, True, True, True, False, True)
    assert (c.bank, cfg(6).bank, c.goal, c.saga_track, c.start) == (19, 24, 15, (1, 2, 3, 4, 6), 0)
    assert cfg(6, bank_per_resource=19).bank == 19


def test_every_option_has_a_default_and_a_description_and_is_in_the_docs():
    text = DOC.read_text()
    for name, prop in O.OPTIONS_SCHEMA["properties"].items():
        assert prop.get("description"), name
        assert f"`{name}`" in text, name
        if not name.endswith("_doc"):
            assert "default" in prop, name


@pytest.mark.parametrize("options, field", [
    ({"revealed_cards": "discard"}, "options.revealed_cards"),
    ({"sea_people_tiles": "land"}, "options.sea_people_tiles"),
    ({"city_counts_as_settlement": "yes"}, "options.city_counts_as_settlement"),
    ({"blocked_ship_keeps_vp": 1}, "options.blocked_ship_keeps_vp"),
    ({"blocked_ship_blocks_chip": None}, "options.blocked_ship_blocks_chip"),
    ({"stack_draws": "unlimited"}, "options.stack_draws"),
    ({"battle_timing": "never"}, "options.battle_timing"),
    ({"ships_in_sbp": "no"}, "options.ships_in_sbp"),
    ({"donations_in_sbp": []}, "options.donations_in_sbp"),
    ({"allegiances": "public"}, "options.allegiances"),
    ({"trade_chip": "maybe"}, "options.trade_chip"),
    ({"turn_model": "pairs"}, "options.turn_model"),
    ({"turn_model": "paired"}, "options.turn_model"),  # a 5–6 rule: not with 4 players
    ({"bank_per_resource": 0}, "options.bank_per_resource"),
    ({"victory_points": 2}, "options.victory_points"),
    ({"initial_stack": {"gold": 1}}, "options.initial_stack"),
    ({"initial_stack": {"ore": -1}}, "options.initial_stack.ore"),
    ({"initial_stack": {"ore": 5}, "bank_per_resource": 4}, "options.initial_stack.ore"),
    ({"saga_track": [1, 2, 2, 6]}, "options.saga_track"),
    ({"saga_track": []}, "options.saga_track"),
    ({"sea_people_start": [0]}, "options.sea_people_start"),
    ({"start_seat": 4}, "options.start_seat"),
    ({"board": "0" * 64}, "options.board"),
    ({"ship_tiles": "zz"}, "options.ship_tiles"),
    ({"colour": "red"}, "options"),
])
def test_a_bad_value_is_refused_naming_its_field(options, field):
    with pytest.raises(InvalidOptions) as e:
        cfg(4, **options)
    assert e.value.details["field"] == field
    assert e.value.status == 400


def test_an_embedded_board_must_hash_to_the_named_one():
    c = cfg(4)
    ours = copy.deepcopy(c.board)
    ours["name"] = "Our Troje board"
    ours["provenance"] = "user"
    canon = TB.check_board(ours)
    got = cfg(4, board_doc=canon, board=digest(canon))
    assert got.board_hash == digest(canon) and got.board["name"] == "Our Troje board"
    with pytest.raises(InvalidOptions) as e:
        cfg(4, board_doc=canon, board=c.board_hash)
    assert e.value.details["field"] == "options.board"
    four_only = TB.check_board({**canon, "players": [4]})
    with pytest.raises(InvalidOptions) as e:
        cfg(6, board_doc=four_only)
    assert e.value.details["field"] == "options.board"
    bad = copy.deepcopy(canon)
    bad["hexes"][0]["number"] = 7
    with pytest.raises(InvalidOptions) as e:
        cfg(4, board_doc=bad)
    assert e.value.details["field"] == "options.board_doc" and "hexes[0].number" in e.value.message


def test_the_shipped_files_are_canonical_and_valid():
    for path in sorted((Path(TB.__file__).parent / "boards").glob("*.json")):
        doc = json.loads(path.read_text("utf-8"))
        check = TB.check_board if path.name.startswith("troje-") else TB.check_ship_tiles
        assert check(doc) == doc, path.name


def test_a_troje_board_is_a_catan_board_with_the_scenarios_checks():
    (doc,) = TB.builtin_boards().values()
    assert B.validate_board(doc) == doc  # the Catan validator alone accepts it
    for change, field in (
        (lambda d: d.update(robber=[-9, -1]), "robber"),
        (lambda d: d.update(players=[3, 4]), "players"),
        (lambda d: d["hexes"].__setitem__(*next((i, {**h, "name": "Athens"}) for i, h in enumerate(d["hexes"])
                                                 if h.get("name") == "Troy")), "hexes"),
        (lambda d: [h.pop("ship_symbol", None) for h in d["hexes"]], "hexes"),
    ):
        bad = copy.deepcopy(doc)
        change(bad)
        with pytest.raises(B.BoardError) as e:
            TB.check_board(bad)
        assert e.value.details["field"] == field


def test_the_sea_topology_matches_the_catan_topology():
    c = cfg(6)
    for n in (4, 6):
        topo, sea = B.topology(c.board, n), TB.sea_topology(c.board, n)
        assert not set(sea.tiles) & set(topo.hexes)
        for t, tile in enumerate(sea.tiles):
            for v in sea.corners[t]:
                assert tile in topo.vertices[v]  # the intersection is a corner of this sea tile
            for u in sea.adj[t]:
                assert sea.tiles[u] in B.neighbours(tile) and t in sea.adj[u]
        assert TB.city_hexes(c.board)["troy"] in topo.hex_index
