"""The engine's own simulation loop (what the Catan bench times) plays the same
games as the framework's, and the faster Longest Road walk measures what an
exhaustive walk measures."""

from __future__ import annotations

import random

import pytest

from engine import match as M
from engine.catan import GAME
from engine.catan.simulate import play_game
from engine.troubadour.simulate import play_game as troubadour_game


@pytest.mark.parametrize("players,strategy,seed", [(3, "random", 1), (4, "random", 2), (4, "greedy", 3),
                                                   (5, "greedy", 4), (6, "random", 5)])
def test_the_engine_loop_plays_the_framework_loops_game_event_for_event(players, strategy, seed):
    framework = play_game(players, [strategy] * players, seed, keep_log=True)
    engine_only = play_game(players, [strategy] * players, seed, keep_log=True, engine_only=True)
    assert engine_only == framework
    assert engine_only["finished"]
    # and its log is a valid simulated match: every rule and every seeded draw checked again
    ms = M.replay(engine_only["log"])
    assert ms.result is not None and ms.result.winners[0] == engine_only["winner"]


def test_the_engine_loop_is_the_framework_loop_for_another_game_too():
    for seed in range(3):
        assert troubadour_game(3, ["greedy"] * 3, seed, keep_log=True, engine_only=True) == \
            troubadour_game(3, ["greedy"] * 3, seed, keep_log=True)


def _exhaustive_length(s, seat: int) -> int:
    """Every trail from every intersection (the reference the pruned walk must match)."""
    own = [e for e, o in enumerate(s.roads) if o == seat]
    at: dict[int, list[tuple[int, int]]] = {}
    for i, e in enumerate(own):
        a, b = s.topo.edge_vertices[e]
        at.setdefault(a, []).append((i, b))
        at.setdefault(b, []).append((i, a))
    blocked = {v for v in at if s.buildings[v] != -1 and s.buildings[v] >> 1 != seat}
    best = 0

    def walk(v: int, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        if length and v in blocked:
            return
        for i, w in at[v]:
            if not used >> i & 1:
                walk(w, used | 1 << i, length + 1)

    for v in at:
        walk(v, 0, 0)
    return best


@pytest.mark.rule("catan.longest_road_length")
def test_the_pruned_longest_road_walk_matches_an_exhaustive_one():
    base = GAME.setup(("A", "B", "C", "D"), {})
    topo = base.topo
    edges, vertices = len(base.roads), len(base.buildings)
    rng = random.Random(12)
    cases = []
    for trial in range(600):  # grown networks and scattered roads, cut by other players' buildings
        roads = [-1] * edges
        if trial % 2:
            roads[rng.randrange(edges)] = 0
            for _ in range(rng.randint(0, 14)):
                grow = [f for e in range(edges) if roads[e] == 0 for v in topo.edge_vertices[e]
                        for f in topo.vertex_edges[v] if roads[f] == -1]
                roads[rng.choice(grow)] = 0
        else:
            for e in rng.sample(range(edges), rng.randint(0, 15)):
                roads[e] = 0
        cases.append(roads)
    for h in range(len(topo.hexes)):  # rings: every hexagon, whole or with a road missing
        ring = set(topo.hex_vertices[h])
        roads = [0 if set(ends) <= ring else -1 for ends in topo.edge_vertices]
        cases.append(roads)
        cases.append([-1 if e == roads.index(0) else o for e, o in enumerate(roads)])
    for roads in cases:
        for cut in (0, 3):
            bld = [-1] * vertices
            for v in rng.sample(range(vertices), cut):
                bld[v] = rng.choice([0, 1, 2, 3, 5])  # own settlement / city, or another player's
            s = base._replace(roads=tuple(roads), buildings=tuple(bld))
            assert GAME.road_length(s, 0) == _exhaustive_length(s, 0), (roads, bld)


@pytest.mark.rule("catan.longest_road_length")
@pytest.mark.parametrize("players,seed", [(4, 11), (4, 12), (6, 13)])
def test_road_lengths_kept_after_each_road_match_a_walk_of_every_trail(players, seed):
    # a new road walks only the network piece it joins (``_longest(..., added=)``);
    # every road length the state carries must still be the whole network's
    log = play_game(players, ["random"] * players, seed, keep_log=True, engine_only=True)["log"]
    head = log[0]["data"]
    s = GAME.setup(tuple(head["players"]), head["options"])
    roads = 0
    for e in log[1:]:
        s = GAME.apply(s, e["type"], e["seat"], e["data"])
        if e["type"] in ("build_road", "build_settlement"):
            roads += e["type"] == "build_road"
            assert s.road_len == tuple(_exhaustive_length(s, p) for p in range(players)), e
    assert roads >= 20 and max(s.road_len) >= 5
