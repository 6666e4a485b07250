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


# -- harbours: the printed frames ------------------------------------------------------

#: The beginner set-up's frame (almanac "Starting Set-Up for Beginners", Illustration R),
#: clockwise from the top left: (land hex, the sea hex the harbour lies in, kind).
PRINTED_3_4 = [
    ((0, -2), (0, -3), "3:1"), ((1, -2), (2, -3), "grain"), ((2, -1), (3, -2), "ore"),
    ((2, 0), (3, 0), "3:1"), ((1, 1), (1, 2), "wool"), ((-1, 2), (-1, 3), "3:1"),
    ((-2, 2), (-3, 3), "3:1"), ((-2, 1), (-3, 1), "brick"), ((-1, -1), (-2, -1), "lumber"),
]
#: The 5–6 frame: the base frame with the extension's four small pieces.
PRINTED_5_6 = [
    ((0, -3), (-1, -3), "wool"), ((1, -3), (1, -4), "lumber"), ((2, -3), (3, -4), "3:1"),
    ((2, -2), (3, -2), "grain"), ((2, 0), (3, -1), "3:1"), ((1, 1), (2, 1), "ore"),
    ((-1, 3), (-1, 4), "3:1"), ((-2, 3), (-3, 4), "wool"), ((-3, 2), (-4, 3), "3:1"),
    ((-3, 0), (-4, 0), "3:1"), ((-2, -1), (-2, -2), "brick"),
]


def _standard(players):
    return B.builtin_boards()[B.standard_hashes()[players]]


def _coastal(t, v):
    """An intersection touching the sea: fewer than three land hexes meet there."""
    return len(t.vertex_hexes[v]) < 3


def _check_harbours(doc, players, size):
    t = B.topology(doc, players)
    land = {tuple(h["at"]) for h in doc["hexes"] if h["terrain"] != "sea"}
    assert Counter(h["type"] for h in doc["harbors"]) == Counter(B.COMPONENTS[size]["harbors"])
    served = []
    for h in doc["harbors"]:
        a, b = (tuple(x) for x in h["edge"])
        assert a in land and b not in land and b in B.neighbours(a), h  # a coastal land/sea edge
        ends = [t.vertex_index[v] for v in B.edge_vertices(a, b)]
        assert len(set(ends)) == 2 and all(_coastal(t, v) for v in ends), h
        kind = B.GENERIC if h["type"] == "3:1" else B.RESOURCES.index(h["type"])
        assert all(t.harbor[v] == kind for v in ends)
        served += ends
    assert len(served) == len(set(served)), "no intersection is served by two harbours"
    assert sorted(v for v, k in enumerate(t.harbor) if k >= 0) == sorted(served)


@pytest.mark.parametrize("size,players", [("3-4", 4), ("5-6", 6)])
def test_each_harbour_lies_on_the_coast_and_serves_two_coastal_intersections_of_its_own(size, players):
    _check_harbours(_standard(players), players, size)


@settings(max_examples=20, deadline=None)
@given(size=st.sampled_from(["3-4", "5-6"]), seed=st.integers(0, 2**53 - 1))
def test_a_random_board_lays_the_shuffled_harbours_on_the_printed_frame(size, seed):
    doc = B.generate_board(size, seed)
    players = 4 if size == "3-4" else 6
    _check_harbours(doc, players, size)
    frame = {tuple(map(tuple, h["edge"])) for h in _standard(players)["harbors"]}
    assert {tuple(map(tuple, h["edge"])) for h in doc["harbors"]} == frame


@pytest.mark.rule("catan.frame")
@pytest.mark.parametrize("players,printed", [(4, PRINTED_3_4), (6, PRINTED_5_6)])
def test_the_standard_boards_put_the_harbours_where_the_frame_prints_them(players, printed):
    doc = _standard(players)
    got = {(tuple(h["edge"][0]), tuple(h["edge"][1])): h["type"] for h in doc["harbors"]}
    assert got == {(a, b): kind for a, b, kind in printed}


def _round_the_coast(land, harbours):
    """The sea hexes round ``land`` clockwise from the top, each as (corner?, kind,
    facing): a corner touches one land hex; a harbour on a side faces the land hex
    towards the next ("cw") or the previous ("ccw") sea hex."""
    import math

    def pixel(c):
        return math.sqrt(3) * (c[0] + c[1] / 2), 1.5 * c[1]

    sea = {n for c in land for n in B.neighbours(c) if n not in land}
    cx = sum(pixel(c)[0] for c in land) / len(land)
    cy = sum(pixel(c)[1] for c in land) / len(land)
    ring = sorted(sea, key=lambda s: math.atan2(pixel(s)[0] - cx, -(pixel(s)[1] - cy)) % (2 * math.pi))
    at = {b: (a, kind) for a, b, kind in harbours}
    out = []
    for i, s in enumerate(ring):
        corner = sum(1 for n in B.neighbours(s) if n in land) == 1
        if s not in at:
            out.append((corner, None, None))
            continue
        a, kind = at[s]
        facing = None if corner else "cw" if a in B.neighbours(ring[(i + 1) % len(ring)]) else "ccw"
        out.append((corner, kind, facing))
    return out


@pytest.mark.rule("catan.frame")
def test_the_5_6_frame_is_the_base_frame_with_the_extensions_four_pieces():
    """The extension's rules assemble its frame from the base frame's pieces and
    four small ones: plain at joints 2 and 6, the wool 2:1 at joint 3, the 3:1 at
    joint 5 (the joints numbered clockwise, 1 and 4 on the short sides). Round
    the coast the 5–6 harbours are the beginner frame's, in the same order and
    facing the same way, with those four pieces inserted one to each long side."""
    base = _round_the_coast(set(B.land_shape("3-4")), PRINTED_3_4)
    big = _round_the_coast(set(B.land_shape("5-6")), PRINTED_5_6)
    corners = [i for i, c in enumerate(big) if c[0]]
    sides = [list(range(a + 1, b)) for a, b in zip(corners, corners[1:] + [corners[0] + len(big)])]
    long_sides = [[i % len(big) for i in s] for s in sides if len(s) == 3]
    assert len(long_sides) == 4
    # each small piece sits at the clockwise end of its long side
    inserted = [s[-1] for s in long_sides]
    assert sorted(big[i][1] for i in inserted if big[i][1]) == ["3:1", "wool"]
    rest = [c for i, c in enumerate(big) if i not in inserted]
    assert any(rest == base[k:] + base[:k] for k in range(len(base)))
    # clockwise round the coast the joints run 1 (a short side), 2 plain, 3 wool, 4 (short), 5 3:1, 6 plain
    joints = ["short" if len(side) == 2 else big[side[-1] % len(big)][1] for side in sides]
    expected = ["short", None, "wool", "short", "3:1", None]
    assert any(joints == expected[k:] + expected[:k] for k in range(6)), joints


def test_the_3_4_board_is_the_beginner_set_up_and_the_5_6_board_uses_the_extensions_tokens():
    """The 3–4 land and tokens are the starting set-up for beginners (rows from
    the top; it is a fixed layout, not the A–R token spiral of the variable
    set-up). The 5–6 land was generated: the extension's hexes and 28 tokens
    (checked above), its 6s and 8s apart."""
    rows = [
        [("mountains", 10), ("pasture", 2), ("forest", 9)],
        [("fields", 12), ("hills", 6), ("pasture", 4), ("hills", 10)],
        [("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)],
        [("forest", 8), ("mountains", 3), ("fields", 4), ("pasture", 5)],
        [("hills", 5), ("fields", 6), ("pasture", 11)],
    ]
    doc = _standard(4)
    got = {}
    for h in doc["hexes"]:
        got.setdefault(h["at"][1], []).append((h["at"][0], h["terrain"], h.get("number")))
    assert [[(t, n) for _, t, n in sorted(got[r])] for r in sorted(got)] == rows
    assert doc["robber"] == [0, 0]
    big = _standard(6)
    assert B.red_apart({tuple(h["at"]): h["number"] for h in big["hexes"] if "number" in h})
    assert sorted(tuple(h["at"]) for h in big["hexes"]) == sorted(B.land_shape("5-6"))
