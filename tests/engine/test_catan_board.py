"""Catan boards as data: validation that names the hex or field, the shipped
standard boards, the seeded generator (6s and 8s apart), and the topology
derived from a board (intersections, paths, harbours, a player-count cut)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catan import board as B


@pytest.mark.parametrize("size,players,hexes,vertices,edges,harbors", [
    ("3-4", 4, 19, 54, 72, 9), ("5-6", 6, 30, 80, 109, 11)])
def test_the_standard_boards_have_the_printed_components(size, players, hexes, vertices, edges, harbors):
    doc = B.builtin_boards()[B.standard_hashes()[players]]
    comp = B.COMPONENTS[size]
    land = [h for h in doc["hexes"] if h["terrain"] != "sea"]
    assert Counter(h["terrain"] for h in land) == Counter(comp["terrain"])
    assert sorted(h["number"] for h in land if "number" in h) == sorted(comp["numbers"])
    assert Counter(h["type"] for h in doc["harbors"]) == Counter(comp["harbors"])
    t = B.topology(doc, players)
    assert (len(t.hexes), len(t.vertices), len(t.edges)) == (hexes, vertices, edges)
    assert sum(1 for k in t.harbor if k >= 0) == 2 * harbors  # two intersections per harbour
    assert t.terrain[t.robber] == "desert"
    assert all(len(vs) == 2 for vs in t.edge_vertices) and all(2 <= len(a) <= 3 for a in t.vertex_adj)


@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from(["3-4", "5-6"]), seed=st.integers(0, 2**53 - 1))
def test_a_generated_board_keeps_6s_and_8s_apart_and_uses_the_components(size, seed):
    doc = B.generate_board(size, seed)
    numbers = {tuple(h["at"]): h["number"] for h in doc["hexes"] if "number" in h}
    assert B.red_apart(numbers)
    reds = [c for c, n in numbers.items() if n in (6, 8)]
    assert all(b not in B.neighbours(a) for a in reds for b in reds)
    comp = B.COMPONENTS[size]
    assert sorted(numbers.values()) == sorted(comp["numbers"])
    assert all("number" not in h for h in doc["hexes"] if h["terrain"] == "desert")
    assert B.generate_board(size, seed) == doc  # the seed decides the board
    assert B.validate_board(doc) == doc


def _doc():
    return B.generate_board("3-4", 3)


@pytest.mark.parametrize("change,field,at", [
    (lambda d: d["hexes"][2].update(number=13), "hexes[2].number", True),
    (lambda d: d["hexes"][4].update(terrain="desert"), "hexes[4].number", True),
    (lambda d: d["hexes"][0].update(at=d["hexes"][1]["at"]), "hexes[1]", True),
    (lambda d: d["hexes"][0].update(ship_symbol=True), "hexes[0].ship_symbol", True),
    (lambda d: d["harbors"][0].update(type="gold"), "harbors[0].type", True),
    (lambda d: d["harbors"][0].update(edge=[d["harbors"][0]["edge"][1], d["harbors"][0]["edge"][0]]), "harbors[0].edge", True),
    (lambda d: d.update(robber=[7, 7]), "robber", True),
    (lambda d: d.update(format="x"), "format", False),
    (lambda d: d.update(colour="red"), "/", False),
    (lambda d: d.update(variants={"4": {"exclude_regions": ["east"]}}), "variants.4.exclude_regions", False),
])
def test_errors_name_the_hex_or_the_field(change, field, at):
    doc = _doc()
    change(doc)
    with pytest.raises(B.BoardError) as exc:
        B.validate_board(doc)
    assert exc.value.details["field"] == field, exc.value.message
    assert ("hex" in exc.value.details) == at


def test_a_cut_for_a_player_count_leaves_out_a_region():
    doc = _doc()
    for h in doc["hexes"]:
        if h["at"][0] >= 2 or h["at"][0] + h["at"][1] >= 2:
            h["region"] = ["east"]
    doc["players"] = [3, 4]
    doc["variants"] = {"3": {"exclude_regions": ["east"]}}
    canon = B.validate_board(doc)
    full, cut = B.topology(canon, 4), B.topology(canon, 3)
    assert len(cut.hexes) < len(full.hexes) and all(c[0] < 2 and c[0] + c[1] < 2 for c in cut.hexes)


def test_a_board_whose_land_falls_apart_is_refused_naming_the_hex():
    doc = _doc()
    doc["hexes"].append({"at": [6, 0], "terrain": "forest", "number": 5})
    with pytest.raises(B.BoardError) as exc:
        B.validate_board(doc)
    assert exc.value.details["hex"] == [6, 0] and "not one connected mass" in exc.value.message
