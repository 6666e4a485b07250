"""Players for simulated matches: ``bot(game, state, seat, rng) -> Move``.

- ``random``: a uniformly random legal move.
- ``greedy``: sets up where the pips are highest, then builds a city, a
  settlement or a road toward the best free site, buys development cards,
  trades with the bank when that completes a build, robs the leader.

Both read only the seat's own hand and the public board (a seat knows its own
hand exactly: the referee's knowledge of it); never another seat's cards.
"""

from __future__ import annotations

import random
from typing import Any

from ..core import Move
from . import knowledge as K
from .game import (CITY_COST, DEV_COST, DICE, DISCARD, MAIN, PRE_ROLL, RES, ROAD_BUILDING, ROAD_COST, ROBBER,
                   SETTLEMENT_COST, SETUP_R, SETUP_S, Catan, State)

#: pips: the chance of each number in 36ths
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def random_bot(game: Catan, s: State, seat: int, rng: random.Random) -> Move:
    return rng.choice(game.legal_moves(s, seat))


def vertex_value(s: State, v: int, have: set[int] | None = None) -> float:
    topo = s.topo
    value = 0.0
    kinds = set()
    for h in topo.vertex_hexes[v]:
        r = topo.resource[h]
        if r >= 0:
            value += PIPS.get(topo.number[h], 0) * (0.5 if h == s.robber else 1)
            kinds.add(r)
    new = kinds - (have or set())
    return value + 1.5 * len(new) + (1.0 if topo.harbor[v] >= 0 else 0)


def _kinds(s: State, seat: int) -> set[int]:
    topo = s.topo
    out = set()
    for v, b in enumerate(s.buildings):
        if b >= 0 and b >> 1 == seat:
            out.update(topo.resource[h] for h in topo.vertex_hexes[v] if topo.resource[h] >= 0)
    return out


def greedy_bot(game: Catan, s: State, seat: int, rng: random.Random) -> Move:
    moves = game.legal_moves(s, seat)
    ph = s.phase
    if ph == SETUP_S:
        have = _kinds(s, seat)
        return max(moves, key=lambda m: (vertex_value(s, m.data["vertex"], have), rng.random()))
    if ph in (SETUP_R, ROAD_BUILDING):
        return max(moves, key=lambda m: (_road_value(s, seat, m.data["edge"]), rng.random()))
    if ph == DISCARD:
        hand = s.hands[seat][-1].known
        # keep a balanced hand: discard from the largest piles
        return min(moves, key=lambda m: (max(hand[r] - m.data["cards"].get(RES[r], 0) for r in range(5)), rng.random()))
    if ph == ROBBER:
        return max(moves, key=lambda m: (_robber_value(game, s, seat, m), rng.random()))
    if ph == PRE_ROLL:
        knight = next((m for m in moves if m.type == "play_knight"), None)
        if knight and _robber_on_me(s, seat):
            return knight
        return next(m for m in moves if m.type == "roll")
    by_type: dict[str, list[Move]] = {}
    for m in moves:
        by_type.setdefault(m.type, []).append(m)
    have = _kinds(s, seat)
    if "build_city" in by_type:
        return max(by_type["build_city"], key=lambda m: vertex_value(s, m.data["vertex"]))
    if "build_settlement" in by_type:
        return max(by_type["build_settlement"], key=lambda m: vertex_value(s, m.data["vertex"], have))
    for kind in ("play_knight", "play_road_building", "play_monopoly", "play_year_of_plenty"):
        if kind in by_type and ph == MAIN:
            if kind == "play_year_of_plenty":
                return _best_plenty(s, seat, by_type[kind])
            if kind == "play_monopoly":
                return max(by_type[kind], key=lambda m: s.bank[RES.index(m.data["resource"])] * -1)
            return by_type[kind][0]
    hand = s.hands[seat][-1]
    if "build_road" in by_type and (_open_sites(s, seat) == 0 or hand.known[0] >= 3) and s.built[seat][2] < 13:
        return max(by_type["build_road"], key=lambda m: (_road_value(s, seat, m.data["edge"]), rng.random()))
    if "buy_dev" in by_type and (not K.can_pay(hand, CITY_COST) or s.built[seat][1] >= 4):
        return by_type["buy_dev"][0]
    trade = _useful_trade(game, s, seat, by_type.get("trade_bank", []))
    if trade is not None:
        return trade
    if "build_road" in by_type and s.built[seat][2] < 13 and rng.random() < 0.5:
        return max(by_type["build_road"], key=lambda m: (_road_value(s, seat, m.data["edge"]), rng.random()))
    return by_type["end_turn"][0]


def _robber_on_me(s: State, seat: int) -> bool:
    topo = s.topo
    return any(s.buildings[v] >= 0 and s.buildings[v] >> 1 == seat for v in topo.hex_vertices[s.robber])


def _robber_value(game: Catan, s: State, seat: int, m: Move) -> float:
    topo = s.topo
    h = topo.hex_index[tuple(m.data["hex"])]
    value = 0.0
    for v in topo.hex_vertices[h]:
        b = s.buildings[v]
        if b >= 0:
            w = PIPS.get(topo.number[h], 0) * (1 + (b & 1))
            value += -3 * w if b >> 1 == seat else w * (1 + game.public_vp(s, b >> 1) / 5)
    victim = m.data.get("victim")
    if victim is not None:
        value += s.hands[victim][-1].size * 0.1
    return value


def _open_sites(s: State, seat: int) -> int:
    game = _GAME
    return sum(1 for v in range(len(s.buildings)) if game._settlement_ok(s, seat, v))


def _road_value(s: State, seat: int, e: int) -> float:
    topo = s.topo
    best = 0.0
    for v in topo.edge_vertices[e]:
        if _GAME._distance_ok(s, v):
            best = max(best, vertex_value(s, v))
        for w in topo.vertex_adj[v]:
            if _GAME._distance_ok(s, w):
                best = max(best, vertex_value(s, w) * 0.6)
    return best


def _best_plenty(s: State, seat: int, moves: list[Move]) -> Move:
    hand = s.hands[seat][-1].known

    def score(m: Move) -> float:
        h = list(hand)
        for c in m.data["cards"]:
            h[RES.index(c)] += 1
        return max(_covers(h, cost) for cost in (CITY_COST, SETTLEMENT_COST, DEV_COST, ROAD_COST))

    return max(moves, key=score)


def _covers(h: list[int] | tuple[int, ...], cost: tuple[int, ...]) -> float:
    return sum(min(h[r], cost[r]) for r in range(5)) / sum(cost)


def _useful_trade(game: Catan, s: State, seat: int, trades: list[Move]) -> Move | None:
    """A bank trade after which a settlement or city is affordable."""
    hand = s.hands[seat][-1].known
    for cost, ok in ((CITY_COST, s.built[seat][1] < 4 and any(b == seat * 2 for b in s.buildings)),
                     (SETTLEMENT_COST, s.built[seat][0] < 5 and _open_sites(s, seat) > 0)):
        if not ok:
            continue
        for m in trades:
            give, get = RES.index(m.data["give"]), RES.index(m.data["get"])
            k = game.ratio(s, seat, give)
            h = list(hand)
            h[give] -= k
            h[get] += 1
            if h[give] >= cost[give] and all(h[r] >= cost[r] for r in range(5)):
                return m
    return None


_GAME = Catan()

BOTS: dict[str, Any] = {"random": random_bot, "greedy": greedy_bot}
__all__ = ["BOTS", "DICE", "greedy_bot", "random_bot"]
