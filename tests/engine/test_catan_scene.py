"""Catan's scene (engine/catan/scene.py, issue 19): over positions of whole
games, for the referee, the public and every seat, every legal move has
exactly one place on the table (an intersection, a path, a hex, the dice, the
development deck, a hand, a card, or a resource and the bank's pile), the
chance pickers sit where the table sees the outcome and offer what can come,
labels are in English and Dutch, and a seat's table never holds a card that
seat may not see."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine import registry
from engine.catan.bots import greedy_bot
from engine.core import CHANCE, REFEREE
from engine.scene import Scene, coverage

from .catan_support import bot_positions, checked_positions

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]


def positions(seed: int, players: int = 3, limit: int = 700, options: dict | None = None):
    """Every position of one game, the greedy bot's moves mixed with random ones."""
    return bot_positions("catan", greedy_bot, seed, players, limit, {"board_seed": seed, **(options or {})}, 0.75)


def viewers(ms):
    return [REFEREE, None, *range(ms.state.cfg.n)]


def entered(picker, outcome):
    """The values a table taps in the picker for the engine's outcome."""
    if picker.type == "dice":
        return [str(d) for d in outcome["data"]["dice"]]
    card = outcome["data"]["card"]
    return ["unknown" if card is None else card]


def check(ms, viewer=REFEREE) -> Scene:
    moves = M.visible_moves(ms, viewer)
    scene: Scene = ms.game.scene(ms.view(viewer), moves)
    wrong = coverage(scene, moves)
    assert wrong == {"unreachable": [], "ambiguous": [], "illegal": []}, (ms.seq, viewer, wrong)
    assert not scene.fallback  # every move Catan lists has a place on the table
    for e in scene.elements():
        assert set(e.label) == {"en", "nl"} and all(e.label.values()), e
        for m in [*e.moves, *(m for ms_ in e.targets.values() for m in ms_)]:
            assert set(m["label"]) == {"en", "nl"} and all(m["label"].values()), m
    chance = [e for e in scene.elements() if e.chance and e.chance.type != "trade"]  # (a trade is the seat's move)
    if CHANCE in ms.game.actors(ms.state):
        assert len(chance) == 1, (ms.seq, viewer)
        picker = chance[0].chance
        outcome = ms.game.chance_outcome(ms.state, random.Random(ms.seq)).to_dict()
        values = entered(picker, outcome)
        assert picker.type == outcome["type"] and picker.count == len(values)
        assert set(values) <= set(picker.values), (picker.values, values)
        if picker.type in ("steal", "draw_dev"):
            assert picker.values[-1] == "unknown" and picker.scalar  # the table may not have seen the card
        # the picked values, as the page sends them, are the engine's own event
        sent = [int(v) for v in values] if picker.numeric else values
        data = {picker.field: sent[0] if picker.scalar else sent}
        assert M.normalize_event(ms, picker.type, picker.seat, data, by_server=True) == \
            M.normalize_event(ms, outcome["type"], outcome["seat"], outcome["data"], by_server=True)
    else:
        assert not chance
    assert json.loads(json.dumps(scene.to_dict())) == scene.to_dict()
    return scene


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # a whole game is too long to shrink
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4, 5, 6]))
def test_every_legal_move_has_exactly_one_place_on_the_table(seed, players):
    assert checked_positions(positions(seed, players, limit=300), check) > 100


def test_a_whole_game_is_drawn_for_every_viewer_with_every_kind_of_move():
    """One game to its end: the scene offered, at some point, each kind of
    move Catan lists, and each chance picker."""
    kinds, pickers = set(), set()
    last = None
    for ms in positions(4, 4, limit=3000):
        for viewer in viewers(ms) if ms.seq % 11 == 0 else [REFEREE] if ms.seq % 2 or ms.result else []:
            scene = check(ms, viewer)
            kinds |= {m["type"] for e in scene.elements() for m in e.moves}
            kinds |= {m["type"] for e in scene.elements() for ms_ in e.targets.values() for m in ms_}
            pickers |= {e.chance.type for e in scene.elements() if e.chance}
        last = ms
    assert last.result is not None
    assert {"build_settlement", "build_road", "build_city", "roll", "end_turn", "move_robber", "buy_dev",
            "trade_bank", "play_knight"} <= kinds, kinds
    assert pickers == {"dice", "steal", "draw_dev", "trade"}  # (a trade: the turn's player picks on the other's hand)
    assert not any(e.tappable for e in check(last).elements())  # a finished game offers nothing


def hidden_cards(scene: Scene, seat: int) -> dict[str, int]:
    """What ``seat``'s area shows of its cards: resources and development cards by kind."""
    out = {}
    for e in scene.elements():
        for prefix in (f"res-{seat}-", f"dev-{seat}-"):
            if e.id.startswith(prefix) and e.id != f"dev-{seat}-hidden" and e.shows.get("count"):
                out[e.id[len(prefix):]] = e.shows["count"]
    return out


def test_a_seat_sees_only_what_it_may_of_another_seats_hand():
    """Hidden information is real: another seat's area shows the cards that
    seat knows (what it saw given, traded, stolen in the open), never the
    referee's knowledge; a development card bought shows its kind only to its
    owner (and the referee), to the rest as a face-down card."""
    bought = 0
    for ms in positions(9, 4, limit=1500):
        s = ms.state
        for viewer in range(s.cfg.n):
            scene = ms.game.scene(ms.view(viewer), M.visible_moves(ms, viewer))
            for p in range(s.cfg.n):
                shown = hidden_cards(scene, p)
                hand = s.hands[p][viewer if viewer != p else p]
                known_res = {r: hand.known[i] for i, r in enumerate(("lumber", "brick", "wool", "grain", "ore")) if hand.known[i]}
                known_dev = {k: n for k, n in ms.view(viewer)["players"][p]["development_known"].items()}
                assert shown == {**known_res, **known_dev}, (ms.seq, viewer, p)
                if p != viewer and s.dev[p][-1][1] == 0 and sum(s.dev[p][-1][0]) > sum(s.dev[p][viewer][0]):
                    # the referee knows a card of p's that this viewer does not: it lies face down
                    hidden = {e.id: e for e in scene.elements()}.get(f"dev-{p}-hidden")
                    assert hidden is not None and hidden.face_down
                    bought += 1
        if ms.result is not None:
            break
    assert bought > 10


def test_the_distance_rule_leaves_no_tap_target_next_to_a_settlement():
    """Rule catan.distance: no settlement on an intersection next to another
    one. In the set-up the board offers every free intersection but the
    neighbours of the settlements placed, each as one tap on the spot."""
    game = registry.get("catan")
    for ms in positions(2, 3, limit=12):
        if ms.state.phase != 0:  # setup_settlement
            continue
        scene = check(ms)
        offered = {int(e.id[2:]) for e in scene.elements() if e.kind == "vertex" and e.moves}
        topo = ms.state.topo
        taken = {v for v, b in enumerate(ms.state.buildings) if b >= 0}
        near = {w for v in taken for w in topo.vertex_adj[v]}
        assert offered == set(range(len(topo.vertices))) - taken - near
        assert all(game._distance_ok(ms.state, v) for v in offered)


def test_the_robber_picker_names_only_the_players_with_a_building_on_the_hex():
    """Rules catan.robber_move and catan.steal: the robber goes to another
    land hex, and its mover names a victim among the
    players with a settlement or city on the hex (nobody only when none of
    them holds a card). A tap on a hex opens exactly those."""
    for ms in positions(5, 4, limit=2000):
        if ms.game.phase_names[ms.state.phase] != "robber":
            continue
        scene = check(ms)
        for e in scene.elements():
            if e.kind != "hex" or not e.moves:
                continue
            at = tuple(e.shows["at"])
            there = {b["owner"] for b in ms.view(REFEREE)["buildings"]
                     if at in [tuple(c) for c in ms.view(REFEREE)["layout"]["vertices"][b["vertex"]]]}
            victims = {m["data"]["victim"] for m in e.moves}
            assert victims <= there | {None} and ms.state.turn not in victims
            assert len(e.moves) == 1 or None not in victims
            assert "pawn" not in e.shows  # not the hex the robber stands on
        return
    pytest.fail("no robber was moved")


def test_a_maritime_trade_is_a_resource_of_ones_own_then_the_banks_pile():
    for ms in positions(6, 3, limit=2000):
        moves = [m for m in M.visible_moves(ms, REFEREE) if m["type"] == "trade_bank"]
        if not moves:
            continue
        scene = check(ms)
        by_id = {e.id: e for e in scene.elements()}
        m = moves[0]
        source = by_id[f"res-{m['seat']}-{m['data']['give']}"]
        assert any(x["data"] == m["data"] for x in source.targets[f"bank-{m['data']['get']}"])
        assert source.shows["count"] >= 2  # at least a 2:1 harbour's worth of it
        return
    pytest.fail("no maritime trade came up")


def test_a_domestic_trade_is_picked_on_the_other_players_hand():
    """A trade with another player (handel): a tap on that player's hand opens a picker of what the turn's
    player gives and what it gets back, and the picked cards are the engine's own trade event. Only the seat
    whose turn it is (and the referee, who enters every move) gets it, only in the trade and build phase."""
    from engine.catan.game import MAIN

    from ..test_web import domestic_trade

    for ms in positions(6, 3, limit=2000):
        trade = domestic_trade(ms)
        if trade is None:
            continue
        turn, other = trade["seat"], trade["data"]["with"]
        for viewer in (REFEREE, turn):
            hand = {e.id: e for e in check(ms, viewer).elements()}[f"hand-{other}"]
            picker = hand.chance
            assert picker.type == "trade" and picker.seat == turn and picker.data == {"with": other}
            assert picker.builds(trade) and picker.counts and picker.parts[0].field == "get"
            assert not picker.builds({**trade, "data": {**trade["data"], "get": {}}})  # no gifts: both sides give
            assert picker.label["nl"].startswith("Handel") and picker.names["brick"] == {"en": "brick", "nl": "steen"}
            assert M.normalize_event(ms, "trade", turn, trade["data"])  # what the picker sends, the engine takes
        # the seat to act does not trade with itself; another seat, whose turn it is not, is offered no trade
        assert {e.id: e for e in check(ms, REFEREE).elements()}[f"hand-{turn}"].chance is None
        assert all(e.chance is None for e in check(ms, other).elements())
        assert ms.state.phase == MAIN
        break
    else:
        pytest.fail("no domestic trade came up")
    rolled = next(ms for ms in positions(6, 3, limit=2000) if ms.game.phase_names[ms.state.phase] != "main")
    assert not any(e.chance and e.chance.type == "trade" for e in check(rolled).elements())


def test_the_dice_pad_enters_two_faces_as_numbers():
    ms = next(ms for ms in positions(3, 3) if ms.game.phase_names[ms.state.phase] == "dice")
    dice = {e.id: e for e in check(ms).elements()}["dice"]
    assert dice.chance.values == ["1", "2", "3", "4", "5", "6"] and dice.chance.count == 2
    assert dice.chance.repeat and dice.chance.numeric and dice.chance.label["nl"].startswith("De dobbelstenen")
    assert M.normalize_event(ms, "dice", None, {"dice": [6, 6]}) == {"dice": [6, 6]}


def test_the_hex_board_holds_the_geometry_the_renderer_draws():
    """Every land hex with its axial coordinates and number; intersections
    and paths only where something stands or a move is legal; the nine
    harbours of the standard board on their intersections; Dutch names."""
    ms = M.start(M.make_setup("catan", NAMES[:3], {}))
    scene = check(ms, None)  # the public: no moves, so no spot is a tap target
    board = next(z for z in scene.zones if z.id == "board")
    assert board.kind == "hexboard"
    hexes = [e for e in board.elements if e.kind == "hex"]
    assert len(hexes) == 19 and all(len(e.shows["at"]) == 2 for e in hexes)
    assert sum(1 for e in hexes if "pawn" in e.shows) == 1  # the robber, on the desert
    harbours = [e.shows["harbour"] for e in board.elements if e.kind == "vertex"]
    assert sorted(harbours) == sorted(["3:1"] * 8 + [f"2:1 {r}" for r in ("lumber", "brick", "wool", "grain", "ore") for _ in (0, 1)])
    assert not any(e.kind == "edge" for e in board.elements)
    desert = next(e for e in hexes if "pawn" in e.shows)
    assert desert.label == {"en": "desert (robber)", "nl": "woestijn (struikrover)"}
    referee = check(ms)
    spots = [e for e in referee.elements() if e.kind == "vertex" and e.moves]
    assert len(spots) == 54 and all(e.label["nl"].startswith("Kruispunt ") for e in spots)


def test_catan_and_troje_each_declare_their_own_scene():
    """Troje shares Catan's board and engine, and draws a scene of its own
    (engine/troje/scene.py; tests/engine/test_troje_scene.py)."""
    assert registry.get("catan-troje").info()["scene"] is True
    assert registry.get("catan").info()["scene"] is True
    assert type(registry.get("catan-troje")).scene is not type(registry.get("catan")).scene
