"""Ships, their advantages, the trade chips and the sea people, as pure
functions over plain values.

- ``ships``: per sea tile of the ``SeaTopology`` (same order), None or
  ``(owner, advantage)`` with ``advantage`` an index into ``board.ADVANTAGES``;
- ``buildings``: the Catan state's per-intersection tuple (-1, or owner * 2,
  + 1 for a city);
- ``sea_people``: the sea tile the figure stands on, or -1 (off the board);
- a colour's tile stack: counts per advantage still face down (public as a
  whole, its order unknown); the chip supply: counts per resource.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..core import RuleViolation
from ..text import say
from . import words as W
from .board import ADVANTAGES, SeaTopology

P = "troje."
SHIP_COST = (1, 0, 1, 0, 0)  # one lumber, one wool
SHIP_TRADE_POINTS = 2
HARBOUR, VP, SWAP, CHIP, DRAW = range(5)
CHIPS = (2, 2, 2, 2, 2)  # two 2:1 trade chips per resource


class Chip(NamedTuple):
    resource: int
    ship: int  # the sea tile of the ship that gave it


# -- building --------------------------------------------------------------------------------

def check_payment(trade_points: int) -> None:
    """Two trade points besides the cards (``troje.ship_cost``); the caller
    pays ``SHIP_COST`` from the hand as for any build."""
    if trade_points < SHIP_TRADE_POINTS:
        raise RuleViolation(P + "ship_cost", say("a ship costs {n} trade points; {held} held", n=SHIP_TRADE_POINTS,
                                                  held=trade_points))


def _owns_building(buildings: tuple[int, ...], v: int, seat: int, city_counts: bool) -> bool:
    b = buildings[v]
    return b >= 0 and b >> 1 == seat and (city_counts or not b & 1)


def check_site(sea: SeaTopology, ships: tuple, buildings: tuple[int, ...], seat: int, tile: int,
               city_counts: bool = True) -> None:
    """Can ``seat`` build a ship on sea tile ``tile``? The sea people's tile is
    allowed (``troje.ship_on_sea_people``): the figure moves away next."""
    if not 0 <= tile < len(sea.tiles):
        raise RuleViolation(P + "ship_symbol", say("that is no sea tile in play"))
    if not sea.ship_symbol[tile]:
        raise RuleViolation(P + "ship_symbol", say("{tile} shows no ship symbol", tile=W.sea_tile(tile)))
    if ships[tile] is not None:
        raise RuleViolation(P + "ship_one_per_tile", say("{tile} already holds a ship", tile=W.sea_tile(tile)))
    if any(_owns_building(buildings, v, seat, city_counts) for v in sea.corners[tile]):
        return
    if any(ships[t] is not None and ships[t][0] == seat for t in sea.adj[tile]):
        return
    raise RuleViolation(P + "ship_connect", say("{tile} has none of the player's settlements or cities on a corner "
                                                "and no ship of his next to it", tile=W.sea_tile(tile)) if city_counts
                        else say("{tile} has none of the player's settlements on a corner and no ship of his next to "
                                 "it", tile=W.sea_tile(tile)))


def sites(sea: SeaTopology, ships: tuple, buildings: tuple[int, ...], seat: int,
          city_counts: bool = True) -> tuple[int, ...]:
    """Every sea tile where ``seat`` may build a ship now."""
    out = []
    for t in range(len(sea.tiles)):
        try:
            check_site(sea, ships, buildings, seat, t, city_counts)
        except RuleViolation:
            continue
        out.append(t)
    return tuple(out)


def turn_tile(stack: tuple[int, ...], advantage: int) -> tuple[int, ...]:
    """The colour's stack after its top tile showed ``advantage`` (``troje.ship_tiles``)."""
    if not 0 <= advantage < len(ADVANTAGES):
        raise ValueError("advantage index")
    if stack[advantage] <= 0:
        left = [say("{n} {advantage}", n=k, advantage=W.advantage(ADVANTAGES[a])) for a, k in enumerate(stack) if k]
        raise RuleViolation(P + "ship_tiles", say("no tile {advantage} is left in this colour's stack (left: {left})",
                                                  advantage=W.advantage(ADVANTAGES[advantage]),
                                                  left=left or say("none")))
    return stack[:advantage] + (stack[advantage] - 1,) + stack[advantage + 1:]


def draw_tile(rng: random.Random, stack: tuple[int, ...]) -> int:
    """A simulated turn of the colour's top tile."""
    tiles = [a for a, k in enumerate(stack) for _ in range(k)]
    if not tiles:
        raise RuleViolation(P + "ship_tiles", say("this colour has no ship tiles left"))
    return rng.choice(tiles)


def tile_odds(stack: tuple[int, ...]) -> dict[str, float]:
    """The chance of each advantage on the colour's next tile, as the table knows it."""
    total = sum(stack)
    return {ADVANTAGES[a]: k / total for a, k in enumerate(stack) if k} if total else {}


def place(ships: tuple, tile: int, seat: int, advantage: int) -> tuple:
    return ships[:tile] + ((seat, advantage),) + ships[tile + 1:]


# -- advantages ------------------------------------------------------------------------------

def blocked(tile: int, sea_people: int) -> bool:
    """The sea people stand on this ship: its advantages are unusable (``troje.sea_people_block``)."""
    return tile == sea_people


def take_chip(supply: tuple[int, ...], resource: int) -> tuple[int, ...]:
    """The chip supply after a chip of ``resource`` was taken (``troje.adv_chip``, ``troje.trade_chips``)."""
    if supply[resource] <= 0:
        raise RuleViolation(P + "trade_chips", say("no trade chip of that resource is left in the supply"))
    return supply[:resource] + (supply[resource] - 1,) + supply[resource + 1:]


def ratios(seat: int, ships: tuple, chips: tuple[Chip, ...], sea_people: int,
           blocked_blocks_chip: bool = True) -> tuple[int, ...]:
    """The maritime ratio per resource that ``seat``'s ships give (4 without
    any): 3 with a usable 3:1 ship, 2 with a usable chip (``troje.adv_harbor``,
    ``troje.adv_chip``); ``chips`` are the trade chips ``seat`` holds. The
    Catan engine takes the lower of this and its harbours."""
    out = [4, 4, 4, 4, 4]
    for t, ship in enumerate(ships):
        if ship is not None and ship[0] == seat and ship[1] == HARBOUR and not blocked(t, sea_people):
            out = [min(x, 3) for x in out]
    for chip in chips:
        if not (blocked_blocks_chip and blocked(chip.ship, sea_people)):
            out[chip.resource] = 2
    return tuple(out)


def ship_vp(seat: int, ships: tuple, sea_people: int, blocked_keeps_vp: bool = True) -> int:
    """VP from ``seat``'s VP ships (``troje.adv_vp``); option blocked_ship_keeps_vp."""
    return sum(1 for t, ship in enumerate(ships)
               if ship is not None and ship[0] == seat and ship[1] == VP
               and (blocked_keeps_vp or not blocked(t, sea_people)))


def check_stack_advantage(seat: int, tile: int, kind: int, ships: tuple, sea_people: int,
                          used: frozenset[int], draws_per_ship: bool = True, own_turn: bool = True) -> None:
    """May ``seat`` use the swap or draw advantage (``kind``) of the ship on
    ``tile`` now? ``used``: the ships whose swap/draw he used this turn."""
    rule = P + ("adv_swap" if kind == SWAP else "adv_draw")
    if kind not in (SWAP, DRAW):
        raise ValueError("kind is SWAP or DRAW")
    if not own_turn:
        raise RuleViolation(rule, say("the support stack is drawn from in one's own trade and build phase"))
    if not 0 <= tile < len(ships) or ships[tile] is None or ships[tile][0] != seat:
        raise RuleViolation(rule, say("the player has no ship there"))
    if ships[tile][1] != kind:
        raise RuleViolation(rule, say("that ship's advantage is {has}, not {wanted}", has=W.advantage(ADVANTAGES[ships[tile][1]]),
                                       wanted=W.advantage(ADVANTAGES[kind])))
    if blocked(tile, sea_people):
        raise RuleViolation(P + "sea_people_block", say("the sea people stand on that ship: its advantage is unusable"))
    if (tile in used) if draws_per_ship else bool(used):
        raise RuleViolation(P + "advantage_use", say("that advantage was used this turn") if draws_per_ship else
                            say("the player drew from the support stack this turn (once per turn for a player, "
                                "whatever his ships)"))


# -- the sea people ---------------------------------------------------------------------------

def targets(sea: SeaTopology, sea_people: int, any_sea: bool = True) -> tuple[int, ...]:
    """The tiles the sea people may move to: another sea tile in play, any or
    only ship-symbol ones (option sea_people_tiles; ``troje.sea_people_tile``).
    Every tile is free or holds a ship, so every one qualifies."""
    return tuple(t for t in range(len(sea.tiles)) if t != sea_people and (any_sea or sea.ship_symbol[t]))


def check_target(sea: SeaTopology, sea_people: int, tile: int, any_sea: bool = True) -> None:
    if tile not in targets(sea, sea_people, any_sea):
        why = (say("the figure stands there: it must move") if tile == sea_people else
               say("no sea tile in play") if not 0 <= tile < len(sea.tiles) else say("it shows no ship symbol"))
        raise RuleViolation(P + "sea_people_tile", say("the sea people cannot go there: {why}", why=why))


def victims(sea: SeaTopology, tile: int, ships: tuple, buildings: tuple[int, ...], mover: int,
            hand_sizes: tuple[int, ...], city_counts: bool = True) -> tuple[int, ...]:
    """The players the mover may draw a card from: a settlement on a corner of
    the tile or a ship on it, and at least one resource card (trade points are
    no cards; ``troje.sea_people_steal``)."""
    there = set()
    for v in sea.corners[tile]:
        b = buildings[v]
        if b >= 0 and (city_counts or not b & 1):
            there.add(b >> 1)
    if ships[tile] is not None:
        there.add(ships[tile][0])
    return tuple(sorted(p for p in there if p != mover and hand_sizes[p] > 0))


def check_victim(possible_victims: tuple[int, ...], victim: int | None) -> None:
    """The mover names whom to draw from: with one player there he *may*
    (``troje.sea_people_steal``: null skips it); with more than one he *must*
    choose one and draw (``troje.sea_people_choose``)."""
    if victim is None:
        if len(possible_victims) > 1:
            raise RuleViolation(P + "sea_people_choose", say("several players can be drawn from here: the mover must "
                                                             "choose one"))
        return
    if victim not in possible_victims:
        raise RuleViolation(P + "sea_people_steal", say("that player has no settlement on a corner of the tile, no "
                                                        "ship on it, or no cards (or is the mover)"))
