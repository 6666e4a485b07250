"""Troje's boards and ship tiles as data.

A Troje board is a Catan board (``kroniek.catan.board/1``, validated by
``engine.catan.board.validate_board``) that uses the format's scenario fields
and needs nothing beyond them:

- sea hexes are listed (``terrain: "sea"``), those with a ship symbol with
  ``ship_symbol: true``: ships go only there, the sea people on any listed sea
  hex in play;
- Troy and Mycenae are ``special`` hexes named ``Troy``/``Troje`` and
  ``Mycenae``/``Mykene`` (they produce nothing); land hexes without a
  ``number`` yield nothing;
- every hex has a ``region``, and a board for 4 and 6 players cuts the right
  third away for 4 with ``variants: {"4": {"exclude_regions": [...]}}`` (sea
  hexes in an excluded region are out of play too);
- no ``robber``: Troje has no robber on land.

``check_board`` adds these checks to the Catan validator. ``sea_topology``
derives what ships and the sea people need: the sea tiles in play, which carry
a ship symbol, which touch each other, and the intersections (numbered as the
Catan engine's ``Topology`` numbers them) on each tile's corners.

Ship tiles (format ``kroniek.troje.ship_tiles/1``) list, per colour in seat
order, the advantages on the backs of that colour's tiles. The printed
distribution is unknown: the shipped list is a placeholder, and says so.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ..catan import board as B
from ..core import MalformedEvent
from ..game_data import canonical_json, digest
from ..text import Text, say

P = "troje."
PLAYERS = (4, 6)
CITY_NAMES = {"troy": "troy", "troje": "troy", "troja": "troy", "mycenae": "mycenae", "mykene": "mycenae"}
_DIR = Path(__file__).parent / "boards"

SHIP_TILES_FORMAT = "kroniek.troje.ship_tiles/1"
#: the five advantages printed on the backs of ship tiles, in the text's order
ADVANTAGES = ("harbour_3to1", "victory_point", "swap", "trade_chip", "draw")
ADVANTAGE_ALIASES = {
    "harbour_3to1": "harbour_3to1", "harbor_3to1": "harbour_3to1", "3:1": "harbour_3to1", "haven": "harbour_3to1",
    "victory_point": "victory_point", "vp": "victory_point", "overwinningspunt": "victory_point",
    "swap": "swap", "ruilen": "swap", "trade_chip": "trade_chip", "chip": "trade_chip", "handelsfiche": "trade_chip",
    "draw": "draw", "trekken": "draw",
}
COLOURS = ("red", "blue", "white", "orange", "green", "brown")
MAX_TILES = 20


class ShipTilesError(MalformedEvent):
    """A ship-tile document that does not validate; ``field`` says where."""

    code = "invalid_ship_tiles"


def _board_err(message: Text, field: str, at: Any = None) -> B.BoardError:
    if at is not None:
        return B.BoardError(say("{field} (hex {at}): {why}", field=field, at=str(list(at)), why=message), field=field,
                            hex=list(at))
    return B.BoardError(say("{field}: {why}", field=field, why=message), field=field)


def city_hexes(doc: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """``{"troy": (q, r), "mycenae": (q, r)}`` of a validated board."""
    out = {}
    for h in doc["hexes"]:
        if h["terrain"] == "special" and h.get("name", "").strip().lower() in CITY_NAMES:
            out[CITY_NAMES[h["name"].strip().lower()]] = tuple(h["at"])
    return out


def check_board(doc: Any) -> dict[str, Any]:
    """A Troje board: valid as a Catan board and fit for the scenario (rule
    ``troje.board_cut``); returns the canonical document."""
    canon = B.validate_board(doc)
    if not set(canon["players"]) <= set(PLAYERS):
        raise _board_err(say("a Troje board is for 4 and/or 6 players"), "players")
    if "robber" in canon:
        raise _board_err(say("Troje has no robber on land (the sea people replace it)"), "robber")
    cities: dict[str, list[int]] = {}
    for i, h in enumerate(canon["hexes"]):
        name = h.get("name", "").strip().lower()
        if h["terrain"] == "special" and name in CITY_NAMES:
            cities.setdefault(CITY_NAMES[name], []).append(i)
    for city in ("troy", "mycenae"):
        if len(cities.get(city, [])) != 1:
            raise _board_err(say("needs exactly one special hex named {city} (found {n})", city=_CITY[city],
                                 n=len(cities.get(city, []))), "hexes")
    if set(PLAYERS) <= set(canon["players"]) and "4" not in canon.get("variants", {}):
        raise _board_err(say("a board for 4 and 6 players must say which regions it leaves out for 4 players "
                             "(the right third)"), "variants")
    for p in canon["players"]:
        sea = sea_topology(canon, p)
        if not any(sea.ship_symbol):
            raise _board_err(say("no sea hex with a ship symbol is in play with {n} players", n=p), "hexes")
        loc = city_hexes(canon)
        topo = B.topology(canon, p)
        for city, at in loc.items():
            if at not in topo.hex_index:
                raise _board_err(say("{city} is cut away with {n} players", city=_CITY[city], n=p), "variants", at)
    return canon


class SeaTopology(NamedTuple):
    """The sea tiles in play for one player count."""

    tiles: tuple[tuple[int, int], ...]  # axial coordinates, row by row
    index: dict[tuple[int, int], int]
    ship_symbol: tuple[bool, ...]
    adj: tuple[tuple[int, ...], ...]  # sea tiles in play sharing an edge
    #: per tile: the Catan topology's intersections on its corners (coastal ones only: a corner
    #: no land hex in play touches is no intersection)
    corners: tuple[tuple[int, ...], ...]


def sea_topology(doc: dict[str, Any], players: int) -> SeaTopology:
    """The sea tiles of a validated board in play with ``players`` (cached)."""
    return _sea_topology(canonical_json(doc), players)


@lru_cache(maxsize=32)
def _sea_topology(text: str, players: int) -> SeaTopology:
    doc = json.loads(text)
    topo = B.topology(doc, players)
    exclude = set(doc.get("variants", {}).get(str(players), {}).get("exclude_regions", []))
    sea = [h for h in doc["hexes"] if h["terrain"] == "sea" and not set(h.get("region", [])) & exclude]
    sea.sort(key=lambda h: (h["at"][1], h["at"][0]))
    tiles = tuple(tuple(h["at"]) for h in sea)
    index = {c: i for i, c in enumerate(tiles)}
    adj = tuple(tuple(sorted(index[n] for n in B.neighbours(c) if n in index)) for c in tiles)
    corners = tuple(tuple(sorted(topo.vertex_index[v] for v in B.hex_vertices(c) if v in topo.vertex_index))
                    for c in tiles)
    return SeaTopology(tiles, index, tuple(bool(h.get("ship_symbol")) for h in sea), adj, corners)


# -- ship tiles -------------------------------------------------------------------------

def _tiles_err(message: Text, field: str) -> ShipTilesError:
    return ShipTilesError(say("{field}: {why}", field=field, why=message), field=field)


def check_ship_tiles(doc: Any) -> dict[str, Any]:
    """Validate a ship-tile document; return its canonical form (advantages by
    their English names, colours in the order given: seat i takes colour i)."""
    if not isinstance(doc, dict):
        raise _tiles_err(say("must be an object"), "/")
    extra = sorted(set(doc) - {"format", "name", "provenance", "notes", "colours"})
    if extra:
        raise _tiles_err(say("unknown field(s) {fields}", fields=extra), "/")
    if doc.get("format") != SHIP_TILES_FORMAT:
        raise _tiles_err(say("must be {format}", format=repr(SHIP_TILES_FORMAT)), "format")
    out: dict[str, Any] = {"format": SHIP_TILES_FORMAT}
    for key in ("name", "notes"):
        if key in doc or key == "name":
            v = doc.get(key)
            if not isinstance(v, str) or not v.strip() or len(v) > B.MAX_TEXT:
                raise _tiles_err(say("must be a non-empty string of at most {n} characters", n=B.MAX_TEXT), key)
            out[key] = v
    prov = doc.get("provenance", "user")
    if prov not in B.PROVENANCES:
        raise _tiles_err(say("must be one of {values}", values=list(B.PROVENANCES)), "provenance")
    out["provenance"] = prov
    colours = doc.get("colours")
    if not isinstance(colours, list) or not 4 <= len(colours) <= 6:
        raise _tiles_err(say("must list 4–6 colours (one per seat, in seat order)"), "colours")
    seen: set[str] = set()
    canon = []
    for i, c in enumerate(colours):
        field = f"colours[{i}]"
        if not isinstance(c, dict) or set(c) != {"colour", "tiles"}:
            raise _tiles_err(say("must name a colour and its tiles' advantages, and nothing else"), field)
        name = c["colour"]
        if not isinstance(name, str) or not name.strip() or len(name) > 20:
            raise _tiles_err(say("must be a colour name of 1–20 characters"), f"{field}.colour")
        if name.lower() in seen:
            raise _tiles_err(say("colour {name} is listed twice", name=repr(name)), f"{field}.colour")
        seen.add(name.lower())
        tiles = c["tiles"]
        if not isinstance(tiles, list) or not 1 <= len(tiles) <= MAX_TILES:
            raise _tiles_err(say("must be a list of 1–{n} advantages", n=MAX_TILES), f"{field}.tiles")
        kinds = []
        for j, t in enumerate(tiles):
            if not isinstance(t, str) or t.lower() not in ADVANTAGE_ALIASES:
                raise _tiles_err(say("must be one of {values}, not {value}", values=list(ADVANTAGES), value=repr(t)),
                                 f"{field}.tiles[{j}]")
            kinds.append(ADVANTAGE_ALIASES[t.lower()])
        canon.append({"colour": name.lower(), "tiles": sorted(kinds, key=ADVANTAGES.index)})
    out["colours"] = canon
    return out


#: a ship-tile list in a picker, by where it comes from
_TILES_LABEL = {"standard": say("standard ship tiles"), "generated": say("generated ship tiles"),
                "printed": say("printed ship tiles"), "user": say("user-entered ship tiles")}
_CITY = {"troy": say("Troy"), "mycenae": say("Mycenae")}


def tile_counts(doc: dict[str, Any], colour: int) -> tuple[int, ...]:
    """How many tiles of each advantage (in ``ADVANTAGES`` order) colour ``colour`` has."""
    tiles = doc["colours"][colour]["tiles"]
    return tuple(tiles.count(a) for a in ADVANTAGES)


def ship_tiles_summary(doc: dict[str, Any]) -> dict[str, Any]:
    placeholder = doc["provenance"] == "placeholder"
    return {
        "hash": digest(doc),
        "name": doc["name"],
        "provenance": doc["provenance"],
        "placeholder": placeholder,
        "label": say("PLACEHOLDER distribution (not the printed tiles)") if placeholder else
        _TILES_LABEL.get(doc["provenance"]) or say("{provenance} ship tiles", provenance=doc["provenance"]),
        "colours": [c["colour"] for c in doc["colours"]],
        "tiles_per_colour": [len(c["tiles"]) for c in doc["colours"]],
    }


# -- shipped data ---------------------------------------------------------------------------

@lru_cache(maxsize=1)
def builtin_boards() -> dict[str, dict[str, Any]]:
    """Hash -> document of the Troje boards shipped with the engine."""
    out = {}
    for path in sorted(_DIR.glob("troje-*.json")):
        doc = check_board(json.loads(path.read_text("utf-8")))
        out[digest(doc)] = doc
    return out


@lru_cache(maxsize=1)
def builtin_ship_tiles() -> dict[str, dict[str, Any]]:
    """Hash -> document of the ship-tile lists shipped with the engine."""
    out = {}
    for path in sorted(_DIR.glob("ship-tiles-*.json")):
        doc = check_ship_tiles(json.loads(path.read_text("utf-8")))
        out[digest(doc)] = doc
    return out


def default_board_hash() -> str:
    """The shipped placeholder board (the only shipped one)."""
    (h,) = builtin_boards()
    return h


def default_ship_tiles_hash() -> str:
    (h,) = builtin_ship_tiles()
    return h
