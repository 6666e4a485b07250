"""Helpers for the Catan tests: a state moved by real events (normalized and
applied as the server does), and a few set-ups built directly (hands, roads)
where a rule needs a position that would take a whole game to reach."""

from __future__ import annotations

from engine import registry
from engine.catan import GAME as G  # noqa: F401  (registers the game)
from engine.catan import knowledge as K
from engine.catan.game import RES, State
from engine.core import CHANCE, RuleViolation  # noqa: F401

NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien")


def new(n: int = 4, **options) -> State:
    return G.setup(NAMES[:n], options)


def act(s: State, type_: str, seat, data=None) -> State:
    """Enter one event as the framework does: the actor check, then the game's
    normalize and apply."""
    data = data or {}
    actors = G.actors(s)
    et = G.event_types[type_]
    if et.actor == "seat":
        if seat not in actors:
            raise RuleViolation("core.turn", f"seat {seat} is not to act now")
    elif CHANCE not in actors:
        raise RuleViolation("core.chance", "no chance outcome due")
    return G.apply(s, type_, seat, G.normalize(s, type_, seat, data))


def counts(d: dict[str, int]) -> tuple[int, ...]:
    return tuple(d.get(r, 0) for r in RES)


def give(s: State, seat: int, cards: dict[str, int]) -> State:
    """Set ``seat``'s hand to exactly ``cards`` for every viewer (the bank pays)."""
    c = counts(cards)
    old = s.hands[seat][-1].known
    row = tuple(K.exact(c) for _ in s.hands[seat])
    bank = tuple(s.bank[r] + old[r] - c[r] for r in range(5))
    worlds = s.worlds
    if worlds is not None:  # the log's joint knowledge: this seat's hand is now known in every world
        worlds = frozenset(w[:seat] + (c,) + w[seat + 1:] for w in worlds)
    return s._replace(hands=s.hands[:seat] + (row,) + s.hands[seat + 1:], bank=bank, worlds=worlds)


def hand(s: State, seat: int, viewer=None) -> K.Hand:
    """``viewer``: a seat, "public" or None for the referee."""
    n = s.cfg.n
    v = n + 1 if viewer is None else n if viewer == "public" else viewer
    return s.hands[seat][v]


def vertex(s: State, *hexes) -> int:
    from engine.catan.board import vertex_key
    return s.topo.vertex_index[vertex_key([tuple(h) for h in hexes])]


def edge(s: State, a, b) -> int:
    return s.topo.edge_index[tuple(sorted((tuple(a), tuple(b))))]


def edge_between(s: State, v: int, w: int) -> int:
    topo = s.topo
    return next(e for e in topo.vertex_edges[v] if w in topo.edge_vertices[e])


def chain(s: State, start: int, length: int, avoid: set[int] = frozenset()) -> tuple[list[int], list[int]]:
    """A simple path of ``length`` edges from vertex ``start``: (vertices, edges),
    staying on the board's free paths and away from the vertices in ``avoid``."""
    topo = s.topo

    def walk(path, edges):
        if len(edges) == length:
            return path, edges
        v = path[-1]
        for w in topo.vertex_adj[v]:
            if w in path or w in avoid:
                continue
            e = edge_between(s, v, w)
            if s.roads[e] != -1:
                continue
            got = walk(path + [w], edges + [e])
            if got:
                return got
        return None

    got = walk([start], [])
    assert got, "no such chain"
    return got


def play_setup(s: State, picks=None) -> State:
    """Run the set-up: ``picks`` is a list of (vertex, edge) per placement in
    snake order; missing ones take the first legal move."""
    picks = list(picks or [])
    i = 0
    while s.phase in (0, 1):
        seat = s.turn
        if s.phase == 0:
            v = picks[i][0] if i < len(picks) else G.legal_moves(s, seat)[0].data["vertex"]
            s = act(s, "build_settlement", seat, {"vertex": v})
        else:
            e = picks[i][1] if i < len(picks) and picks[i][1] is not None else G.legal_moves(s, seat)[0].data["edge"]
            s = act(s, "build_road", seat, {"edge": e})
            i += 1
    return s


def main_phase(s: State, dice=(2, 4)) -> State:
    """Roll (a non-7) to reach the main phase of the current turn."""
    s = act(s, "roll", s.turn)
    return act(s, "dice", None, {"dice": list(dice)})


def place(s: State, seat: int, vertices=(), edges=(), cities=()) -> State:
    """Put pieces on the board directly (counts kept), then recompute the roads."""
    b = list(s.buildings)
    r = list(s.roads)
    built = [list(x) for x in s.built]
    for v in vertices:
        b[v] = seat * 2
        built[seat][0] += 1
    for v in cities:
        b[v] = seat * 2 + 1
        built[seat][1] += 1
    for e in edges:
        r[e] = seat
        built[seat][2] += 1
    s = s._replace(buildings=tuple(b), roads=tuple(r), built=tuple(tuple(x) for x in built))
    return G._longest(s, set(range(s.cfg.n)))


def split_road(s: State, seat: int, a: int, b: int, c: int) -> tuple[State, int]:
    """Give ``seat`` one road of a+b pieces through the inland vertex ``c``
    (a on one side, b on the other); returns the state and c's third, free
    path (where a cutter's road can reach c)."""
    assert len(s.topo.vertex_edges[c]) == 3
    _, ea = chain(s, c, a)
    s = place(s, seat, edges=ea)
    _, eb = chain(s, c, b)
    s = place(s, seat, edges=eb)
    third = next(e for e in s.topo.vertex_edges[c] if s.roads[e] == -1)
    return s, third


def far_road(s: State, seat: int, length: int) -> State:
    """A road of ``length`` for ``seat`` on paths nobody uses, starting from
    the last vertex with all paths free."""
    for v in reversed(range(len(s.buildings))):
        if all(s.roads[e] == -1 for e in s.topo.vertex_edges[v]) and all(
                all(s.roads[f] == -1 for f in s.topo.vertex_edges[w]) for w in s.topo.vertex_adj[v]):
            try:
                _, es = chain(s, v, length, avoid={x for e, o in enumerate(s.roads) if o >= 0 for x in s.topo.edge_vertices[e]})
            except AssertionError:
                continue
            return place(s, seat, edges=es)
    raise AssertionError("no room for the road")


def checked_positions(positions, check, every: int = 7) -> int:
    """Every position of ``positions`` checked for the referee, and every
    ``every``-th one for the public and each seat too; how many there were
    (a scene test's property over whole games, Catan's and Troje's)."""
    from engine.core import REFEREE

    seen = 0
    for ms in positions:
        for viewer in [REFEREE, None, *range(ms.state.cfg.n)] if ms.seq % every == 0 else [REFEREE]:
            check(ms, viewer)
        seen += 1
    return seen


def bot_positions(game_id: str, bot, seed: int, players: int, limit: int, options: dict, greedy: float):
    """Every position of one game of Catan or a scenario on its board: the
    game's ``bot`` picks a move with probability ``greedy``, a random legal
    one otherwise (so that cards are bought and played, robbers moved, trades
    made); chance outcomes drawn as the engine draws them. It stops where no
    seat has a move but the table does (Troje's reveal) or the engine cannot
    draw the outcome (a stack the log does not know)."""
    import random

    from engine import match as M

    rng = random.Random(seed)
    ms = M.start(M.make_setup(game_id, list(NAMES[:players]), options))
    yield ms
    for seq in range(2, limit):
        actors = ms.game.actors(ms.state)
        if not actors:
            return
        if CHANCE in actors:
            drawn = ms.game.chance_outcome(ms.state, rng)
            if drawn is None:
                return
            move = drawn.to_dict()
        else:
            seats = [a for a in actors if isinstance(a, int) and M.legal_moves(ms, a)]
            if not seats:
                return
            seat = rng.choice(seats)
            if rng.random() < greedy:
                move = bot(ms.game, ms.state, seat, rng).to_dict()
            else:
                move = rng.choice(M.legal_moves(ms, seat))
        data = M.normalize_event(ms, move["type"], move["seat"], move["data"], by_server=True)
        ms = M.apply_event(ms, seq, move["type"], move["seat"], data)
        yield ms
