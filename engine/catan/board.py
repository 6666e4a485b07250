"""Catan boards as data (format ``kroniek.catan.board/1``) and their topology.

A board lists its hexes in axial coordinates ``[q, r]`` (pointy-top), each
with a terrain and, on producing land, a number token; harbours name the
coastal edge they sit on by its two hexes (land first, then sea; a hex not
listed is sea). Everything else is derived at load: intersections (named by
the three hexes that meet there, sea included), paths (the two hexes they
separate), adjacency, which intersections a harbour serves. ``validate_board``
refuses a wrong document with an error that names the hex, harbour or field.

Scenarios can carry more per hex (``region``, ``name``, ``ship_symbol`` on sea)
and per-player-count cuts (``variants``: ``{"4": {"exclude_regions": [...]}}``),
so a Troje board can come in through the same format.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..core import MalformedEvent
from ..game_data import canonical_json, digest
from ..text import Text, say
from . import words as W

FORMAT = "kroniek.catan.board/1"
RESOURCES = ("lumber", "brick", "wool", "grain", "ore")
#: terrain -> the resource it produces (index into RESOURCES)
PRODUCES = {"forest": 0, "hills": 1, "pasture": 2, "fields": 3, "mountains": 4}
TERRAINS = (*PRODUCES, "desert", "special", "sea")
LAND = frozenset(TERRAINS) - {"sea"}
HARBOR_TYPES = ("3:1", *RESOURCES)
GENERIC = 5  # harbour index of a 3:1 harbour (0–4: the 2:1 harbour of that resource)
PROVENANCES = ("standard", "generated", "printed", "user", "placeholder")
#: axial neighbour directions, in order around a hex (consecutive ones are neighbours too)
DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_HEXES = 200
MAX_COORD = 30
MAX_TEXT = 200
MAX_NOTES = 1000  # a board's notes say where its layout comes from
_DIR = Path(__file__).parent / "boards"


class BoardError(MalformedEvent):
    """A board document that does not validate; ``field`` (and ``hex``) say where."""

    code = "invalid_board"


def _err(message: Text, field: str, at: Any = None) -> BoardError:
    """A board document's error: the field (and hex) of the document it is in, and what is wrong there."""
    if at is not None:
        return BoardError(say("{field} (hex {at}): {why}", field=field, at=str(list(at)), why=message), field=field,
                          hex=list(at))
    return BoardError(say("{field}: {why}", field=field, why=message), field=field)


def _coord(value: Any, field: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) or abs(x) > MAX_COORD for x in value)):
        raise _err(say("must be [q, r], two integers from -{most} to {most}, not {value}", most=MAX_COORD,
                       value=repr(value)), field)
    return value[0], value[1]


def _text(value: Any, field: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise _err(say("must be a non-empty string of at most {n} characters", n=limit), field)
    return value


def _only(obj: Any, allowed: set[str], field: str, at: Any = None) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _err(say("must be an object"), field, at)
    extra = sorted(set(obj) - allowed)
    if extra:
        raise _err(say("unknown field(s) {fields}", fields=extra), field, at)
    return obj


def neighbours(c: tuple[int, int]) -> list[tuple[int, int]]:
    return [(c[0] + dq, c[1] + dr) for dq, dr in DIRS]


def validate_board(doc: Any) -> dict[str, Any]:
    """Check a board document; return its canonical form (hexes sorted by row
    then column, harbours sorted, optional fields only when given)."""
    doc = _only(doc, {"format", "name", "provenance", "players", "hexes", "harbors", "robber", "variants", "notes"}, "/")
    if doc.get("format") != FORMAT:
        raise _err(say("must be {format}", format=repr(FORMAT)), "format")
    out: dict[str, Any] = {"format": FORMAT, "name": _text(doc.get("name"), "name")}
    prov = doc.get("provenance", "user")
    if prov not in PROVENANCES:
        raise _err(say("must be one of {values}", values=list(PROVENANCES)), "provenance")
    out["provenance"] = prov
    if "notes" in doc:
        out["notes"] = _text(doc["notes"], "notes", MAX_NOTES)
    players = doc.get("players")
    if (not isinstance(players, list) or not players or len(set(players)) != len(players)
            or any(isinstance(p, bool) or not isinstance(p, int) or not 3 <= p <= 6 for p in players)):
        raise _err(say("must be a non-empty list of distinct player counts 3–6"), "players")
    out["players"] = sorted(players)
    hexes = doc.get("hexes")
    if not isinstance(hexes, list) or not 1 <= len(hexes) <= MAX_HEXES:
        raise _err(say("must be a list of 1–{n} hexes", n=MAX_HEXES), "hexes")
    seen: dict[tuple[int, int], int] = {}
    canon_hexes = []
    regions: set[str] = set()
    for i, h in enumerate(hexes):
        field = f"hexes[{i}]"
        h = _only(h, {"at", "terrain", "number", "name", "region", "ship_symbol"}, field)
        at = _coord(h.get("at"), f"{field}.at")
        if at in seen:
            raise _err(say("the hex is listed twice (also hexes[{i}])", i=seen[at]), field, at)
        seen[at] = i
        terrain = h.get("terrain")
        if terrain not in TERRAINS:
            raise _err(say("terrain must be one of {values}, not {value}", values=list(TERRAINS), value=repr(terrain)),
                       f"{field}.terrain", at)
        c: dict[str, Any] = {"at": list(at), "terrain": terrain}
        number = h.get("number")
        if number is not None:
            if terrain not in PRODUCES:
                raise _err(say("a {terrain} hex carries no number token", terrain=W.TERRAIN.get(terrain, terrain)),
                           f"{field}.number", at)
            if isinstance(number, bool) or not isinstance(number, int) or not 2 <= number <= 12 or number == 7:
                raise _err(say("a number token is 2–6 or 8–12, not {value}", value=repr(number)), f"{field}.number", at)
            c["number"] = number
        if "name" in h:
            c["name"] = _text(h["name"], f"{field}.name")
        if "region" in h:
            reg = h["region"]
            if not isinstance(reg, list) or len(reg) > 10:
                raise _err(say("must be a list of at most 10 region names"), f"{field}.region", at)
            c["region"] = sorted({_text(x, f"{field}.region") for x in reg})
            regions.update(c["region"])
        if "ship_symbol" in h:
            if terrain != "sea" or not isinstance(h["ship_symbol"], bool):
                raise _err(say("a ship symbol can only be on a sea hex (true or false)"), f"{field}.ship_symbol", at)
            c["ship_symbol"] = h["ship_symbol"]
        canon_hexes.append(c)
    out["hexes"] = sorted(canon_hexes, key=lambda c: (c["at"][1], c["at"][0]))
    terrain_at = {tuple(c["at"]): c["terrain"] for c in canon_hexes}
    land = [a for a, t in terrain_at.items() if t != "sea"]
    if not land:
        raise _err(say("a board needs land hexes"), "hexes")
    _check_connected(land, "hexes")
    harbors = doc.get("harbors", [])
    if not isinstance(harbors, list) or len(harbors) > 60:
        raise _err(say("must be a list of at most 60 harbours"), "harbors")
    canon_harbors = []
    used_vertices: dict[tuple, int] = {}
    for i, hb in enumerate(harbors):
        field = f"harbors[{i}]"
        hb = _only(hb, {"edge", "type"}, field)
        edge = hb.get("edge")
        if not isinstance(edge, list) or len(edge) != 2:
            raise _err(say("edge must be [[q, r], [q, r]]: the land hex and the sea hex it faces"), f"{field}.edge")
        a, b = _coord(edge[0], f"{field}.edge[0]"), _coord(edge[1], f"{field}.edge[1]")
        if b not in neighbours(a):
            raise _err(say("{a} and {b} do not share an edge", a=str(list(a)), b=str(list(b))), f"{field}.edge", a)
        if terrain_at.get(a, "sea") == "sea":
            raise _err(say("the first hex of a harbour's edge must be a land hex"), f"{field}.edge", a)
        if terrain_at.get(b, "sea") != "sea":
            raise _err(say("the second hex of a harbour's edge must be sea (or off the board)"), f"{field}.edge", b)
        kind = hb.get("type")
        if kind not in HARBOR_TYPES:
            raise _err(say("type must be one of {values}, not {value}", values=list(HARBOR_TYPES), value=repr(kind)),
                       f"{field}.type", a)
        for v in edge_vertices(a, b):
            if v in used_vertices:
                raise _err(say("touches harbour harbors[{i}] at the same intersection", i=used_vertices[v]), field, a)
            used_vertices[v] = i
        canon_harbors.append({"edge": [list(a), list(b)], "type": kind})
    out["harbors"] = sorted(canon_harbors, key=lambda h: (h["edge"][0][1], h["edge"][0][0], h["edge"][1][1], h["edge"][1][0]))
    if "robber" in doc and doc["robber"] is not None:
        at = _coord(doc["robber"], "robber")
        if terrain_at.get(at, "sea") == "sea":
            raise _err(say("the robber starts on a land hex"), "robber", at)
        out["robber"] = list(at)
    if "variants" in doc:
        variants = _only(doc["variants"], {"3", "4", "5", "6"}, "variants")
        canon_v = {}
        for k, v in variants.items():
            v = _only(v, {"exclude_regions"}, f"variants.{k}")
            ex = v.get("exclude_regions", [])
            if not isinstance(ex, list) or any(x not in regions for x in ex):
                raise _err(say("what a player count leaves out must be regions the hexes use ({regions})",
                               regions=sorted(regions) or say("none")),
                           f"variants.{k}.exclude_regions")
            if int(k) not in out["players"]:
                raise _err(say("the board is not for {n} players", n=int(k)), f"variants.{k}")
            kept = [a for a, t in terrain_at.items() if t != "sea" and not set(_region(out, a)) & set(ex)]
            if not kept:
                raise _err(say("the cut leaves no land"), f"variants.{k}")
            _check_connected(kept, f"variants.{k}")
            canon_v[k] = {"exclude_regions": sorted(ex)}
        out["variants"] = canon_v
    return out


def _region(doc: dict[str, Any], at: tuple[int, int]) -> list[str]:
    for h in doc["hexes"]:
        if tuple(h["at"]) == at:
            return h.get("region", [])
    return []


def _check_connected(land: list[tuple[int, int]], field: str) -> None:
    cells = set(land)
    start = land[0]
    todo, seen = [start], {start}
    while todo:
        c = todo.pop()
        for n in neighbours(c):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(cells):
        lost = sorted(cells - seen)[0]
        raise _err(say("the land is not one connected mass: hex {lost} is cut off from hex {start}", lost=str(list(lost)),
                       start=str(list(start))), field, lost)


def vertex_key(hexes: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(hexes))


def hex_vertices(c: tuple[int, int]) -> list[tuple[tuple[int, int], ...]]:
    """The six intersections of a hex, each as the three hexes meeting there."""
    ns = neighbours(c)
    return [vertex_key([c, ns[k], ns[(k + 1) % 6]]) for k in range(6)]


def edge_vertices(a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple, tuple]:
    """The two intersections at the ends of the edge between hexes a and b."""
    ns = neighbours(a)
    k = ns.index(b)
    return vertex_key([a, b, ns[(k - 1) % 6]]), vertex_key([a, b, ns[(k + 1) % 6]])


def _pixel(c: tuple[int, int]) -> tuple[float, float]:
    return math.sqrt(3) * (c[0] + c[1] / 2), 1.5 * c[1]


class Topology(NamedTuple):
    """A validated board for one player count, as indexes the engine uses."""

    hash: str
    name: str
    provenance: str
    hexes: tuple[tuple[int, int], ...]  # land hexes in play
    terrain: tuple[str, ...]
    number: tuple[int, ...]  # 0: no token
    resource: tuple[int, ...]  # -1: produces nothing
    hex_index: dict[tuple[int, int], int]
    hex_vertices: tuple[tuple[int, ...], ...]
    vertices: tuple[tuple[tuple[int, int], ...], ...]  # each: its three hexes
    vertex_index: dict[tuple, int]
    vertex_hexes: tuple[tuple[int, ...], ...]  # land hexes in play at the vertex
    vertex_adj: tuple[tuple[int, ...], ...]
    vertex_edges: tuple[tuple[int, ...], ...]
    edges: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    edge_index: dict[tuple, int]
    edge_vertices: tuple[tuple[int, int], ...]
    harbor: tuple[int, ...]  # per vertex: -1 none, 0–4 that resource's 2:1, 5 generic 3:1
    robber: int
    by_number: dict[int, tuple[int, ...]]
    placeholder: bool
    harbor_vertices: tuple[tuple[int, int], ...]  # (vertex, kind) of every harbour intersection
    #: per number token: (hex, resource, its intersections) of each producing hex (what a roll pays)
    number_sites: dict[int, tuple[tuple[int, int, tuple[int, ...]], ...]]
    #: per path, per end (as in ``edge_vertices``): the other paths at that intersection
    edge_next: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def topology(doc: dict[str, Any], players: int) -> Topology:
    """The board's topology for ``players`` (after its variant's cut); cached."""
    return _topology(canonical_json(doc), players)


@lru_cache(maxsize=64)
def _topology(text: str, players: int) -> Topology:
    doc = json.loads(text)
    exclude = set(doc.get("variants", {}).get(str(players), {}).get("exclude_regions", []))
    land = []
    for h in doc["hexes"]:
        if h["terrain"] != "sea" and not set(h.get("region", [])) & exclude:
            land.append(h)
    land.sort(key=lambda h: (h["at"][1], h["at"][0]))
    coords = tuple(tuple(h["at"]) for h in land)
    hex_index = {c: i for i, c in enumerate(coords)}
    vset: set[tuple] = set()
    eset: set[tuple] = set()
    for c in coords:
        vset.update(hex_vertices(c))
        for n in neighbours(c):
            eset.add(tuple(sorted((c, n))))

    def vpos(v):
        xs = [_pixel(c) for c in v]
        return (round(sum(p[1] for p in xs) / 3, 4), round(sum(p[0] for p in xs) / 3, 4))

    vertices = tuple(sorted(vset, key=vpos))
    vertex_index = {v: i for i, v in enumerate(vertices)}

    def epos(e):
        xs = [_pixel(c) for c in e]
        return (round((xs[0][1] + xs[1][1]) / 2, 4), round((xs[0][0] + xs[1][0]) / 2, 4))

    edges = tuple(sorted(eset, key=epos))
    edge_index = {e: i for i, e in enumerate(edges)}
    edge_v = tuple(tuple(sorted(vertex_index[v] for v in edge_vertices(*e))) for e in edges)
    adj: list[set[int]] = [set() for _ in vertices]
    vedges: list[list[int]] = [[] for _ in vertices]
    for i, (a, b) in enumerate(edge_v):
        adj[a].add(b)
        adj[b].add(a)
        vedges[a].append(i)
        vedges[b].append(i)
    harbor = [-1] * len(vertices)
    for hb in doc.get("harbors", []):
        a, b = (tuple(x) for x in hb["edge"])
        if a not in hex_index:
            continue  # cut away with its land
        kind = GENERIC if hb["type"] == "3:1" else RESOURCES.index(hb["type"])
        for v in edge_vertices(a, b):
            harbor[vertex_index[v]] = kind
    robber_at = tuple(doc["robber"]) if "robber" in doc else None
    if robber_at not in hex_index:
        deserts = [c for c, h in zip(coords, land) if h["terrain"] == "desert"]
        robber_at = deserts[0] if deserts else coords[0]
    by_number: dict[int, list[int]] = {}
    for i, h in enumerate(land):
        if h.get("number"):
            by_number.setdefault(h["number"], []).append(i)
    hex_v = tuple(tuple(vertex_index[v] for v in hex_vertices(c)) for c in coords)
    resource = tuple(PRODUCES.get(h["terrain"], -1) if h.get("number") else -1 for h in land)
    vertex_edges = tuple(tuple(sorted(e)) for e in vedges)
    return Topology(
        hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        name=doc["name"],
        provenance=doc["provenance"],
        hexes=coords,
        terrain=tuple(h["terrain"] for h in land),
        number=tuple(h.get("number", 0) for h in land),
        resource=resource,
        hex_index=hex_index,
        hex_vertices=hex_v,
        vertices=vertices,
        vertex_index=vertex_index,
        vertex_hexes=tuple(tuple(hex_index[c] for c in v if c in hex_index) for v in vertices),
        vertex_adj=tuple(tuple(sorted(a)) for a in adj),
        vertex_edges=vertex_edges,
        edges=edges,
        edge_index=edge_index,
        edge_vertices=edge_v,
        harbor=tuple(harbor),
        robber=hex_index[robber_at],
        by_number={k: tuple(v) for k, v in by_number.items()},
        placeholder=doc["provenance"] == "placeholder",
        harbor_vertices=tuple((v, k) for v, k in enumerate(harbor) if k >= 0),
        number_sites={k: tuple((h, resource[h], hex_v[h]) for h in v if resource[h] >= 0) for k, v in by_number.items()},
        edge_next=tuple(tuple(tuple(f for f in vertex_edges[v] if f != e) for v in ends) for e, ends in enumerate(edge_v)),
    )


# -- shipped and generated boards -------------------------------------------------

#: Component counts of the base game and the 5–6 extension (rulebook component lists).
COMPONENTS = {
    "3-4": {
        "terrain": {"forest": 4, "hills": 3, "pasture": 4, "fields": 4, "mountains": 3, "desert": 1},
        "numbers": [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12],
        "harbors": ["3:1"] * 4 + list(RESOURCES),
        "rows": 3,  # a hexagon of radius 2: rows 3-4-5-4-3
    },
    "5-6": {
        "terrain": {"forest": 6, "hills": 5, "pasture": 6, "fields": 6, "mountains": 5, "desert": 2},
        "numbers": [2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12],
        "harbors": ["3:1"] * 5 + list(RESOURCES) + ["wool"],
        "rows": 4,  # rows 3-4-5-6-5-4-3
    },
}


def land_shape(size: str) -> list[tuple[int, int]]:
    """Axial coordinates of the land hexes, row by row (top first, left to right)."""
    if size == "3-4":
        return [(q, r) for r in range(-2, 3) for q in range(max(-2, -2 - r), min(2, 2 - r) + 1)]
    out = []
    for r in range(-3, 4):
        lo = -3 - r if r < 0 else -3
        hi = 2 if r <= 0 else 2 - r
        out.extend((q, r) for q in range(lo, hi + 1))
    return out


def frame_harbor_edges(size: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the printed frame of ``size`` ("3-4" or "5-6") puts its harbours:
    the edges of the shipped standard board's harbours (its frame is printed;
    the variable set-up lays the harbour pieces on it at random)."""
    players = 3 if size == "3-4" else 5
    doc = builtin_boards()[standard_hashes()[players]]
    return [(tuple(h["edge"][0]), tuple(h["edge"][1])) for h in doc["harbors"]]


def red_apart(numbers: dict[tuple[int, int], int]) -> bool:
    """No two hexes with a 6 or an 8 share an edge."""
    reds = {c for c, n in numbers.items() if n in (6, 8)}
    return not any(n in reds for c in reds for n in neighbours(c))


def generate_board(size: str, seed: int | str, name: str | None = None) -> dict[str, Any]:
    """A random board from ``seed`` as the variable set-up lays one: terrains and
    tokens shuffled with no 6 or 8 next to another 6 or 8, the harbour pieces
    shuffled onto the printed frame's harbours, the robber on a desert."""
    comp = COMPONENTS[size]
    rng = random.Random(f"catan-board:{size}:{seed}")
    land = land_shape(size)
    terrains = [t for t, k in comp["terrain"].items() for _ in range(k)]
    rng.shuffle(terrains)
    producing = [c for c, t in zip(land, terrains) if t != "desert"]
    numbers = list(comp["numbers"])
    for _ in range(10_000):
        rng.shuffle(numbers)
        placed = dict(zip(producing, numbers))
        if red_apart(placed):
            break
    else:  # pragma: no cover - the counts always allow a layout
        raise RuntimeError("no layout keeps the 6s and 8s apart")
    kinds = list(comp["harbors"])
    rng.shuffle(kinds)
    hexes = []
    for c, t in zip(land, terrains):
        h: dict[str, Any] = {"at": list(c), "terrain": t}
        if c in placed:
            h["number"] = placed[c]
        hexes.append(h)
    deserts = [c for c, t in zip(land, terrains) if t == "desert"]
    doc = {
        "format": FORMAT,
        "name": name or f"Random board ({size} players, seed {seed})",
        "provenance": "generated",
        "players": [3, 4] if size == "3-4" else [5, 6],
        "hexes": hexes,
        "harbors": [{"edge": [list(a), list(b)], "type": k} for (a, b), k in zip(frame_harbor_edges(size), kinds)],
        "robber": list(deserts[0]),
    }
    return validate_board(doc)


@lru_cache(maxsize=1)
def builtin_boards() -> dict[str, dict[str, Any]]:
    """Hash -> document of the boards shipped with the engine."""
    out = {}
    for path in sorted(_DIR.glob("*.json")):
        doc = validate_board(json.loads(path.read_text("utf-8")))
        out[board_hash(doc)] = doc
    return out


#: SHA-256 (hex) of a board's canonical JSON: the game-data hash every stored document gets.
board_hash = digest


@lru_cache(maxsize=1)
def standard_hashes() -> dict[int, str]:
    """Player count -> the hash of the shipped standard board for it."""
    out = {}
    for h, doc in builtin_boards().items():
        if doc["provenance"] == "standard":
            for p in doc["players"]:
                out[p] = h
    return out


def summary(doc: dict[str, Any]) -> dict[str, Any]:
    land = [h for h in doc["hexes"] if h["terrain"] != "sea"]
    placeholder = doc["provenance"] == "placeholder"
    return {
        "hash": board_hash(doc),
        "name": doc["name"],
        "provenance": doc["provenance"],
        "placeholder": placeholder,
        "label": (say("PLACEHOLDER layout (not the printed board)") if placeholder else
                  {"standard": say("standard board"), "generated": say("generated random board"),
                   "printed": say("printed board"), "user": say("user-entered board")}[doc["provenance"]]),
        "players": doc["players"],
        "land_hexes": len(land),
        "harbors": len(doc.get("harbors", [])),
    }
