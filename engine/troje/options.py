"""Troje's options: the ten points the rules leave open (notes §2.7) and the
scenario's numbers, as a JSON Schema with defaults (the pattern every game's
``options_schema`` follows, checked with fastjsonschema as ``engine.match``
does) plus the checks a schema cannot state. ``check_options`` fills the
defaults, refuses a bad value with an ``InvalidOptions`` naming the field
(``options.<name>``) and returns the ``Config`` the mechanics read.

The ten points and the options that settle them:

1. board layout, tokens, ship symbols, Troy/Mycenae, the 4-player cut:
   ``board`` (+ ``board_doc``), default the shipped placeholder board;
2. ship advantages per colour: ``ship_tiles`` (+ ``ship_tiles_doc``), default
   the shipped placeholder distribution;
3. where the turned-up battle cards go: ``revealed_cards`` (``bank``); cards on
   the support stack are out of the bank while there, always;
4. where the sea people may go: ``sea_people_tiles`` (``any_sea``);
5. whether a city counts as a settlement for ships and the sea people:
   ``city_counts_as_settlement`` (true);
6. whether an occupied ship keeps its VP, and whether its trade chip is
   blocked: ``blocked_ship_keeps_vp`` (true), ``blocked_ship_blocks_chip`` (true);
7. how often the swap/draw advantages are used: ``stack_draws`` (``per_ship``:
   once per turn for each such ship);
8. with 6 players: the battle before or after the Special Building Phase,
   ships and donations in it: ``battle_timing`` (``before_sbp``),
   ``ships_in_sbp`` (true), ``donations_in_sbp`` (false);
9. allegiances entered privately or left unknown until the reveal:
   ``allegiances`` (``private``);
10. the bank with 6 players: ``bank_per_resource`` (null: 19 with 4 players,
    24 with 6, as the 5–6 extension).

Two readings of the Dutch text itself, each an option whose default keeps the
engine's first reading (so a log recorded before the option reads the same):

- the trade chip, "de speler mag een van de 2:1 handelskaartjes pakken" (may
  take): ``trade_chip`` (``must_take``: the builder takes one; ``may_take``:
  he may leave them, event ``decline_chip``);
- six players, "Bij zes spelers gelden ook de regels van de uitbreiding voor
  vijf en zes spelers": which turn of the 5–6 extension, ``turn_model`` (null:
  the Special Building Phase with 6 players, one player at a time with 4; or
  ``special_building``, ``standard``, ``paired`` as in Catan). With paired
  turns each part is a player's turn: ``battle_timing`` ``before_sbp`` brings
  a due battle after either part, ``after_sbp`` only after Settler 2's part.

Besides: ``victory_points`` (15), ``initial_stack`` (one lumber, grain, wool and
ore), ``saga_track`` ([1, 2, 3, 4, 6]), ``sea_people_start`` (null: off the
board), ``start_seat`` (0).

A setup recorded before an option existed lacks its key: ``fill_defaults``
reads a missing key as the default, so old logs replay as they were.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import fastjsonschema

from ..catan import board as B
from ..core import InvalidOptions
from ..game_data import check_embedded, digest
from ..catan import words as CW
from ..text import N_, say
from . import words as TW
from . import board as TB

P = "troje."
RESOURCES = B.RESOURCES
HASH_OR_NULL = {"type": ["string", "null"], "pattern": "^[0-9a-f]{64}$"}
COUNTS = {"type": "object", "properties": {r: {"type": "integer", "minimum": 0, "maximum": 24} for r in RESOURCES},
          "additionalProperties": False}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "board": {**HASH_OR_NULL, "default": None,
                  "description": N_("The board played on, one of the boards stored for Troje; if none is chosen, the "
                                     "shipped PLACEHOLDER layout.")},
        "board_doc": {"type": "object", "description": N_("The board itself, kept with the match so that its record alone "
                                                     "replays it.")},
        "ship_tiles": {**HASH_OR_NULL, "default": None,
                       "description": N_("The ship tiles played with, one of the lists stored for Troje; if none is chosen, "
                                          "the shipped PLACEHOLDER distribution.")},
        "ship_tiles_doc": {"type": "object", "description": N_("The ship-tile list itself, kept with the match.")},
        "revealed_cards": {"enum": ["bank", "removed"], "default": "bank",
                           "description": N_("Where a battle's turned-up cards go: back to the bank, or out of "
                                              "the game.")},
        "sea_people_tiles": {"enum": ["any_sea", "ship_symbol"], "default": "any_sea",
                             "description": N_("The sea people go to any sea tile, or only to tiles with a ship "
                                                "symbol.")},
        "city_counts_as_settlement": {"type": "boolean", "default": True,
                                      "description": N_("A city counts as a settlement for placing ships and for "
                                                         "the sea people's theft.")},
        "blocked_ship_keeps_vp": {"type": "boolean", "default": True,
                                  "description": N_("A victory point ship keeps its point while the sea people "
                                                     "stand on it.")},
        "blocked_ship_blocks_chip": {"type": "boolean", "default": True,
                                     "description": N_("A trade chip taken with a ship cannot be used while the sea "
                                                        "people stand on that ship.")},
        "stack_draws": {"enum": ["per_ship", "per_player"], "default": "per_ship",
                        "description": N_("The swap and draw advantages: once per turn for each such ship, or once "
                                           "per turn for the player whatever his ships.")},
        "battle_timing": {"enum": ["before_sbp", "after_sbp"], "default": "before_sbp",
                          "description": N_("With 6 players: the battle right after the turn, or after the Special "
                                             "Building Phase. With paired players: after either part of the turn, or "
                                             "only after Settler 2's part.")},
        "ships_in_sbp": {"type": "boolean", "default": True,
                         "description": N_("Ships can be built in the Special Building Phase.")},
        "donations_in_sbp": {"type": "boolean", "default": False,
                             "description": N_("Donations can be made in the Special Building Phase.")},
        "trade_chip": {"enum": ["must_take", "may_take"], "default": "must_take",
                       "description": N_("\"De speler mag een van de 2:1 handelskaartjes pakken\": the builder of a "
                                          "ship with the 2:1 trade chip takes one of the chips left, or may also "
                                          "leave them.")},
        "turn_model": {"enum": [None, "standard", "special_building", "paired"], "default": None,
                       "description": N_("\"Bij zes spelers gelden ook de regels van de uitbreiding voor vijf en zes "
                                          "spelers\": how turns run, as in Catan: with the 5–6 extension's Special "
                                          "Building Phase, as paired players (the newer official rule, 6 players "
                                          "only) or one player at a time; if not set, the Special Building Phase "
                                          "with 6 players and one player at a time with 4.")},
        "allegiances": {"enum": ["private", "at_reveal"], "default": "private",
                        "description": N_("The recorder enters each decision card privately at the start, or they "
                                           "stay unknown until they are turned up at the end (a claimed win with 15 "
                                           "victory points is checked then).")},
        "bank_per_resource": {"type": ["integer", "null"], "minimum": 1, "maximum": 100, "default": None,
                              "description": N_("Cards of each resource in the bank; if not set, 19 with 4 players and 24 "
                                                 "with 6.")},
        "victory_points": {"type": "integer", "minimum": 3, "maximum": 40, "default": 15,
                           "description": N_("Victory points that win in one's own turn (15 as printed).")},
        "initial_stack": {**COUNTS, "default": {"lumber": 1, "grain": 1, "wool": 1, "ore": 1},
                          "description": N_("The support stack at the start, face down (from the bank): 2 cards "
                                             "for Troy, 2 for Mycenae.")},
        "saga_track": {"type": "array", "minItems": 1, "maxItems": 10,
                       "items": {"type": "integer", "minimum": 1, "maximum": 20}, "default": [1, 2, 3, 4, 6],
                       "description": N_("The victory points of each field of the saga track outward from the "
                                          "start, for each side; a marker on the last field ends the war.")},
        "sea_people_start": {"type": ["array", "null"], "minItems": 2, "maxItems": 2,
                             "items": {"type": "integer", "minimum": -30, "maximum": 30}, "default": None,
                             "description": N_("The sea tile the sea people start on; if not set, they stay off the "
                                                "board until their first move.")},
        "start_seat": {"type": "integer", "minimum": 0, "maximum": 5, "default": 0,
                       "description": N_("The start player (the seats go clockwise).")},
    },
    "additionalProperties": False,
}


class Config(NamedTuple):
    n: int
    board_hash: str
    board: dict[str, Any]
    ship_tiles_hash: str
    ship_tiles: dict[str, Any]
    revealed_to_bank: bool
    sea_people_any_sea: bool
    city_counts: bool
    blocked_keeps_vp: bool
    blocked_blocks_chip: bool
    draws_per_ship: bool
    battle_before_sbp: bool
    ships_in_sbp: bool
    donations_in_sbp: bool
    private_allegiances: bool
    bank: int
    goal: int
    initial_stack: tuple[int, ...]
    saga_track: tuple[int, ...]
    sea_people_start: tuple[int, int] | None
    start: int
    battle_size: int  # the stack's size that brings a battle at the end of a turn
    battle_reveal: int  # cards turned up in a battle
    #: option trade_chip may_take (a default, so a snapshot stored before the option decodes as must_take)
    chip_optional: bool = False


def fill_defaults(options: dict[str, Any]) -> dict[str, Any]:
    filled = dict(options)
    for name, prop in OPTIONS_SCHEMA["properties"].items():
        if name not in filled and "default" in prop:
            d = prop["default"]
            filled[name] = dict(d) if isinstance(d, dict) else list(d) if isinstance(d, list) else d
    return filled


@lru_cache(maxsize=1)
def _validator():
    return fastjsonschema.compile(OPTIONS_SCHEMA)


def _field(exc: fastjsonschema.JsonSchemaException) -> str:
    name = exc.name or "data"
    return "options" + name[len("data"):] if name.startswith("data") else f"options.{name}"


def _resolve(o: dict[str, Any], key: str, doc_key: str, check, builtin, what: str, kind: str, rule: str):
    doc = o.get(doc_key)
    recorded = o.get(key)
    if doc is not None:
        errors = TB.ShipTilesError if key == "ship_tiles" else B.BoardError
        return check_embedded(doc, recorded, validate=check, hash_of=digest, errors=errors, what=what, kind=kind,
                              doc_option=doc_key, hash_option=key, rule=rule)
    shipped = builtin()
    if recorded is None:
        (h,) = shipped
        return shipped[h], h
    if recorded not in shipped:
        raise InvalidOptions(say("board {digest} is not shipped with the engine; embed it as options.board_doc",
                                 digest=recorded) if key == "board" else
                             say("ship-tile list {digest} is not shipped with the engine; embed it as "
                                 "options.ship_tiles_doc", digest=recorded), field=f"options.{key}", rule=rule)
    return shipped[recorded], recorded


def turn_model(options: dict[str, Any], players: int) -> str:
    """The turn model (option ``turn_model``; null: the Special Building Phase
    with 6 players, one player at a time with 4). The paired players' turn is a
    rule of the 5–6 extension: refused with 4 players."""
    model = options.get("turn_model")
    if model is None:
        return "special_building" if players == 6 else "standard"
    if model == "paired" and players != 6:
        raise InvalidOptions(say("the paired players' turn is a rule of the 5–6 player extension: Troje with 6 "
                                 "players only"), field="options.turn_model", rule=P + "base_rules")
    return model


def check_options(options: dict[str, Any], players: int) -> Config:
    """The match's Troje options, checked; a bad value raises ``InvalidOptions``
    whose ``field`` names it."""
    if players not in TB.PLAYERS:
        raise InvalidOptions(say("Troje is played by 4 or 6 players, not {n}", n=players), field="players",
                             rule=P + "players")
    if not isinstance(options, dict):
        raise InvalidOptions(say("options must be an object"), field="options")
    o = fill_defaults(options)
    try:
        _validator()(o)
    except fastjsonschema.JsonSchemaException as exc:
        raise InvalidOptions(say("invalid options: {why}", why=exc.message), field=_field(exc)) from None
    board, board_hash = _resolve(o, "board", "board_doc", TB.check_board, TB.builtin_boards, "board", "boards",
                                 P + "board_placeholder")
    if players not in board["players"]:
        raise InvalidOptions(say("the board {name} is for {counts} players, not {players}", name=repr(board["name"]),
                                 counts=list(board["players"]), players=players),
                             field="options.board", rule=P + "board_cut")
    tiles, tiles_hash = _resolve(o, "ship_tiles", "ship_tiles_doc", TB.check_ship_tiles, TB.builtin_ship_tiles,
                                 "ship-tile list", "ship-tiles", P + "ship_tiles")
    if len(tiles["colours"]) < players:
        raise InvalidOptions(say("the ship-tile list has {n} colours, fewer than {players} players",
                                 n=len(tiles["colours"]), players=players),
                             field="options.ship_tiles", rule=P + "ship_tiles")
    bank = o["bank_per_resource"] or (19 if players == 4 else 24)
    stack = tuple(o["initial_stack"].get(r, 0) for r in RESOURCES)
    for r, k in zip(RESOURCES, stack):
        if k > bank:
            raise InvalidOptions(say("{n} {resource} on the initial support stack, but the bank has {bank} of each "
                                     "resource", n=k, resource=CW.resource(r), bank=bank),
                                 field=f"options.initial_stack.{r}", rule=P + "initial_stack")
    track = tuple(o["saga_track"])
    if any(b <= a for a, b in zip(track, track[1:])):
        raise InvalidOptions(say("the saga track's values must rise outward from the start"), field="options.saga_track",
                             rule=P + "saga_vp")
    start = None
    if o["sea_people_start"] is not None:
        start = tuple(o["sea_people_start"])
        sea = TB.sea_topology(board, players)
        if start not in sea.index:
            raise InvalidOptions(say("{at} is no sea tile in play with {n} players", at=str(list(start)), n=players),
                                 field="options.sea_people_start", rule=P + "sea_people_start")
        if o["sea_people_tiles"] == "ship_symbol" and not sea.ship_symbol[sea.index[start]]:
            raise InvalidOptions(say("{tile} shows no ship symbol, and the sea people go only to tiles with one",
                                     tile=TW.sea_tile(sea.index[start])),
                                 field="options.sea_people_start", rule=P + "sea_people_tile")
    if o["start_seat"] >= players:
        raise InvalidOptions(say("the start player must be one of the {n} seats (0–{last})", n=players, last=players - 1),
                             field="options.start_seat")
    turn_model(o, players)
    return Config(
        n=players, board_hash=board_hash, board=board, ship_tiles_hash=tiles_hash, ship_tiles=tiles,
        revealed_to_bank=o["revealed_cards"] == "bank", sea_people_any_sea=o["sea_people_tiles"] == "any_sea",
        city_counts=o["city_counts_as_settlement"], blocked_keeps_vp=o["blocked_ship_keeps_vp"],
        blocked_blocks_chip=o["blocked_ship_blocks_chip"], draws_per_ship=o["stack_draws"] == "per_ship",
        battle_before_sbp=o["battle_timing"] == "before_sbp", ships_in_sbp=o["ships_in_sbp"],
        donations_in_sbp=o["donations_in_sbp"], private_allegiances=o["allegiances"] == "private", bank=bank,
        goal=o["victory_points"], initial_stack=stack, saga_track=track, sea_people_start=start,
        start=o["start_seat"], battle_size=10 if players == 4 else 13, battle_reveal=7 if players == 4 else 10,
        chip_optional=o["trade_chip"] == "may_take",
    )
