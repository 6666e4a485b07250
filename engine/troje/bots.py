"""Players for simulated Troje games: ``bot(game, state, seat, rng, secret=None) -> Move``.

- ``random``: a uniformly random legal move; but a claim of 15 VP is made
  exactly when it holds (a player wins in his own turn; he does not claim a
  win he knows he lacks).
- ``greedy``: Catan's greedy set-up, discards, cities, settlements, roads and
  bank trades (``engine.catan.bots``), with a corner of a ship-symbol sea
  tile valued higher while it has none (a ship needs one); besides, it claims
  a win that holds, uses its swap and draw ships, builds a ship whenever it
  can, donates the cards of its own side's resources (else one brick, which
  counts for no side; and when the turn would end with cards short or six in
  hand, one card of any kind, so that no card is held back from the war for
  good), takes the trade chip of the resource it produces most, lays back a
  card of its own side after a swap, and moves the sea people onto the
  leader's ship and draws from the leader. With paired turns (option
  ``turn_model``) it plays Settler 2's part as its own trade and build phase.

A bot reads only what its seat may know: its own hand (the log's knowledge of
that hand, exact in a simulated game), the other hands' sizes, the public
board, and its own side: ``s.ext.allegiances[seat]`` for its own seat only,
or, when the log leaves the decision cards to the reveal (option
``allegiances: at_reveal``), ``secret``, its own card as the simulator dealt
it (``engine.troje.simulate``). Never another seat's hand or side.
"""

from __future__ import annotations

import random
from typing import Any

from ..catan import bots as CB
from ..catan.pieces import DISCARD, MAIN, PRE_ROLL, ROBBER, SBP, SETUP_R, SETUP_S
from ..core import Move
from . import ships as SH
from . import support as SU
from .phases import CHIP, SWAP_BACK

#: the resources whose cards count for each side in a battle
SIDE_RESOURCES = {"troy": SU.TROY_RESOURCES, "mycenae": SU.MYCENAE_RESOURCES}
BRICK = SU.NEUTRAL[0]


def own_side(s: Any, seat: int, secret: str | None = None) -> str | None:
    """The seat's own decision card: the log's (private allegiances) or the
    one the simulator dealt it; None if neither says."""
    return s.ext.allegiances[seat] or secret


def claim_holds(game: Any, s: Any, seat: int, side: str | None) -> bool:
    """Would a claim of the goal hold: the seat's public VP plus its own side's saga VP?"""
    if side is None:
        return False
    return game.public_vp(s, seat) + game.side_vp(s, seat, side) >= s.ext.tcfg.goal


def _without_false_claims(game: Any, s: Any, seat: int, moves: list[Move], side: str | None) -> tuple[Move | None,
                                                                                                      list[Move]]:
    """The claim among ``moves`` if it holds, and the other moves."""
    claim = None
    rest = []
    for m in moves:
        if m.type == "claim_win":
            claim = m
        else:
            rest.append(m)
    return (claim if claim is not None and claim_holds(game, s, seat, side) else None), rest


def random_bot(game: Any, s: Any, seat: int, rng: random.Random, secret: str | None = None) -> Move:
    claim, moves = _without_false_claims(game, s, seat, game.legal_moves(s, seat), own_side(s, seat, secret))
    return claim or rng.choice(moves)


# -- greedy -------------------------------------------------------------------------------------

def _production(s: Any, seat: int) -> list[float]:
    """Pips of each resource on the seat's buildings (a city counts twice)."""
    topo = s.topo
    out = [0.0] * 5
    for v, b in enumerate(s.buildings):
        if b >= 0 and b >> 1 == seat:
            for h in topo.vertex_hexes[v]:
                r = topo.resource[h]
                if r >= 0:
                    out[r] += CB.PIPS.get(topo.number[h], 0) * (1 + (b & 1))
    return out


#: what a corner of a sea tile with a ship symbol adds to an intersection's value (a ship may go
#: there) while the seat has no building on such a corner
SHIP_CORNER = 4.0


def _ship_corners(game: Any, s: Any) -> frozenset[int]:
    sea = game.sea(s)
    return frozenset(v for t, corners in enumerate(sea.corners) if sea.ship_symbol[t] for v in corners)


def _site_value(s: Any, v: int, have: set[int] | None, coast: frozenset[int]) -> float:
    """Catan's value of an intersection (``engine.catan.bots.vertex_value``),
    plus ``SHIP_CORNER`` on a ship-symbol tile's corner while the seat has
    none (its first ship needs one)."""
    return CB.vertex_value(s, v, have) + (SHIP_CORNER if v in coast else 0.0)


def _leader_weight(game: Any, s: Any, p: int) -> float:
    return 1 + game.public_vp(s, p) / 5


def _sea_people_value(game: Any, s: Any, seat: int, m: Move) -> float:
    """Block the leader's ship and draw from the leader; never one's own ship."""
    x = s.ext
    tile = game.sea(s).index[tuple(m.data["tile"])]
    value = 0.0
    ship = x.ships[tile]
    if ship is not None:
        owner, advantage = ship
        weight = 1.5 if advantage in (SH.SWAP, SH.DRAW, SH.CHIP, SH.HARBOUR) else 0.5
        value += -5 * weight if owner == seat else 3 * weight * _leader_weight(game, s, owner)
    victim = m.data.get("victim")
    if victim is not None:
        value += 2 * _leader_weight(game, s, victim) + 0.1 * s.hands[victim][seat].size
    return value


def _ship_site_value(game: Any, s: Any, seat: int, m: Move) -> float:
    """Prefer a tile guarded by the seat's own buildings (the sea people's
    thieves come from those corners) and away from the sea people."""
    sea = game.sea(s)
    tile = sea.index[tuple(m.data["tile"])]
    own = sum(1 for v in sea.corners[tile] if s.buildings[v] >= 0 and s.buildings[v] >> 1 == seat)
    return own - (2 if tile == s.ext.sea_people else 0)


def _ship_reserve(game: Any, s: Any, seat: int) -> tuple[int, ...]:
    """The cards to keep back from a donation: a ship's lumber and wool when
    this donation's trade point pays for one (a site and a tile are there)."""
    x = s.ext
    if x.trade_points[seat] + 1 < SH.SHIP_TRADE_POINTS or not sum(x.tiles[seat]):
        return (0, 0, 0, 0, 0)
    if not SH.sites(game.sea(s), x.ships, s.buildings, seat, x.tcfg.city_counts):
        return (0, 0, 0, 0, 0)
    return SH.SHIP_COST


def _donation(moves: list[Move], hand: tuple[int, ...], side: str | None, keep: tuple[int, ...]) -> Move | None:
    """The donation of the most cards of the seat's own side (up to three);
    without any, one brick (no side's); else none. The cards in ``keep``
    stay in the hand."""
    mine = SIDE_RESOURCES.get(side or "", ())
    best, best_key = None, None
    for m in moves:
        counts = _counts(m)
        if any(hand[r] - counts[r] < keep[r] for r in range(5)):
            continue
        if any(counts[r] for r in range(5) if r not in mine and r != BRICK):
            continue  # no card for the other side
        own = sum(counts[r] for r in mine)
        if own == 0 and counts[BRICK] != 1:
            continue
        key = (own, -counts[BRICK])
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best


def _spare_card(s: Any, moves: list[Move], hand: tuple[int, ...], keep: tuple[int, ...]) -> Move | None:
    """At the end of a turn with nothing else to do: one card of the resource
    held most, even the other side's, when cards are short (the bank holds
    fewer than a battle needs) or the hand is large (six or more). A trade
    point, and a card that is not held back from the war for good (with
    option revealed_cards removed, cards kept out of the stack could stall
    the war)."""
    if sum(s.bank) >= s.ext.tcfg.battle_size and sum(hand) < 6:
        return None
    best, best_key = None, None
    for m in moves:
        counts = _counts(m)
        if sum(counts) != 1 or any(hand[r] - counts[r] < keep[r] for r in range(5)):
            continue
        r = counts.index(1)
        key = (hand[r], -r)
        if best_key is None or key > best_key:
            best, best_key = m, key
    return best


def _counts(m: Move) -> list[int]:
    cards = m.data.get("cards") or {}
    return [cards.get(name, 0) for name in CB.RES]


def _returned_card(moves: list[Move], hand: tuple[int, ...], side: str | None) -> Move:
    """After a swap: lay back a card of one's own side (it fights for it),
    else a brick, else the card held most."""
    mine = SIDE_RESOURCES.get(side or "", ())

    def key(m: Move) -> tuple:
        card = m.data["card"]
        r = CB.RES.index(card) if card else -1
        return (r in mine, r == BRICK, hand[r] if r >= 0 else 0)

    return max(moves, key=key)


def greedy_bot(game: Any, s: Any, seat: int, rng: random.Random, secret: str | None = None) -> Move:
    side = own_side(s, seat, secret)
    claim, moves = _without_false_claims(game, s, seat, game.legal_moves(s, seat), side)
    if claim is not None:
        return claim
    ph = s.phase
    hand = s.hands[seat][-1].known  # the seat's own hand, as the log knows it
    if ph == SETUP_S or ph in (MAIN, SBP) and any(m.type == "build_settlement" for m in moves) \
            and not any(m.type == "build_city" for m in moves):
        coast = _ship_corners(game, s)
        if any(s.buildings[v] >= 0 and s.buildings[v] >> 1 == seat for v in coast):
            coast = frozenset()
        have = CB._kinds(s, seat)
        settle = [m for m in moves if m.type == "build_settlement"]
        return max(settle, key=lambda m: (_site_value(s, m.data["vertex"], have, coast), rng.random()))
    if ph in (SETUP_R, DISCARD, PRE_ROLL):
        return CB.greedy_bot(game, s, seat, rng)
    if ph == ROBBER:
        return max(moves, key=lambda m: (_sea_people_value(game, s, seat, m), rng.random()))
    if ph == CHIP:  # a chip is never worse than none: take one even when it may be left (option trade_chip)
        prod = _production(s, seat)
        chips = [m for m in moves if m.type == "take_chip"]
        return max(chips, key=lambda m: (prod[CB.RES.index(m.data["resource"])], rng.random()))
    if ph == SWAP_BACK:
        return _returned_card(moves, hand, side)
    if ph not in (MAIN, SBP):
        return rng.choice(moves)
    by_type: dict[str, list[Move]] = {}
    for m in moves:
        by_type.setdefault(m.type, []).append(m)
    if "use_advantage" in by_type:
        return by_type["use_advantage"][0]
    if "build_city" in by_type:
        return CB.greedy_bot(game, s, seat, rng)  # Catan's city first
    if "build_ship" in by_type:
        return max(by_type["build_ship"], key=lambda m: (_ship_site_value(game, s, seat, m), rng.random()))
    donations = by_type.get("donate", [])
    keep = _ship_reserve(game, s, seat) if donations else (0,) * 5
    donation = _donation(donations, hand, side, keep)
    if donation is not None:
        return donation
    move = CB.greedy_bot(game, s, seat, rng)  # bank trades toward a build, roads, or the end of the turn
    if move.type == "end_turn" and donations:
        return _spare_card(s, donations, hand, keep) or move
    return move


BOTS: dict[str, Any] = {"random": random_bot, "greedy": greedy_bot}
__all__ = ["BOTS", "greedy_bot", "random_bot", "own_side", "claim_holds"]
