"""Troje's scene (engine/troje/scene.py, issue 19): over positions of whole
games, for the referee, the public and every seat, every legal move has
exactly one place on the table (Catan's board, a sea tile, the support stack,
the trade chips, a hand), each chance outcome is entered where the table sees
it (a seat's decision card, the builder's ship tiles, the support stack, the
robbed hand, the dice), and a seat's table never shows another seat's
secret decision card."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import CHANCE, REFEREE
from engine.scene import Scene, coverage

from .catan_support import bot_positions, checked_positions
from engine.troje.bots import greedy_bot

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]
#: the event type of each chance picker -> the element it sits on
PICKER_PLACES = {"decision_card": "side-", "ship_tile": "ship-tiles-", "stack_card": "support-stack",
                 "battle": "support-stack", "steal": "hand-", "dice": "dice", "reveal_allegiances": "saga"}


def positions(seed: int, players: int = 4, limit: int = 900, options: dict | None = None):
    """Every position of one game, the greedy bot's moves mixed with random ones; it stops at the table's
    reveal (entered on the saga track, checked below)."""
    return bot_positions("catan-troje", greedy_bot, seed, players, limit, dict(options or {}), 0.8)


def viewers(ms):
    return [REFEREE, None, *range(ms.state.cfg.n)]


def entered(picker, outcome):
    """The values a table taps in the picker for the engine's outcome."""
    value = outcome["data"][picker.field]
    if picker.type == "dice":
        return [str(d) for d in value]
    if picker.counts:
        return [r for r, k in value.items() for _ in range(k)]
    return ["unknown" if value is None else value]


def check(ms, viewer=REFEREE) -> Scene:
    moves = M.visible_moves(ms, viewer)
    scene: Scene = ms.game.scene(ms.view(viewer), moves)
    wrong = coverage(scene, moves)
    assert wrong == {"unreachable": [], "ambiguous": [], "illegal": []}, (ms.seq, viewer, wrong)
    assert not scene.fallback  # a domestic trade too is picked on the table (the other player's hand)
    for e in scene.elements():
        assert set(e.label) == {"en", "nl"} and all(e.label.values()), e
        for m in [*e.moves, *(m for ms_ in e.targets.values() for m in ms_)]:
            assert set(m["label"]) == {"en", "nl"} and all(m["label"].values()), m
    pickers = [e for e in scene.elements() if e.chance and e.chance.type not in ("donate", "trade")]
    if CHANCE in ms.game.actors(ms.state):
        assert len(pickers) == 1, (ms.seq, viewer, [e.id for e in pickers])
        e = pickers[0]
        picker = e.chance
        outcome = ms.game.chance_outcome(ms.state, random.Random(ms.seq))
        if outcome is None:
            return scene
        outcome = outcome.to_dict()
        assert e.id.startswith(PICKER_PLACES[picker.type]), (e.id, picker.type)
        values = entered(picker, outcome)
        assert picker.type == outcome["type"] and picker.seat == outcome["seat"], (picker, outcome)
        assert (picker.least or picker.count) <= len(values) <= picker.count and set(values) <= set(picker.values)
        # the picked values, as the page sends them, are the engine's own event
        if picker.counts:
            sent = {v: values.count(v) for v in values}
        else:
            sent = [int(v) for v in values] if picker.numeric else values
            sent = sent[0] if picker.scalar else sent
        data = {**picker.data, picker.field: sent}
        assert M.normalize_event(ms, picker.type, picker.seat, data, by_server=True) == \
            M.normalize_event(ms, outcome["type"], outcome["seat"], outcome["data"], by_server=True)
    else:
        assert not pickers or pickers[0].chance.type == "reveal_allegiances", (ms.seq, [e.id for e in pickers])
    assert json.loads(json.dumps(scene.to_dict())) == scene.to_dict()
    return scene


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # a whole game is too long to shrink
@given(seed=st.integers(0, 2**32), players=st.sampled_from([4, 6]))
def test_every_legal_move_has_exactly_one_place_on_the_table(seed, players):
    assert checked_positions(positions(seed, players, limit=300), check) > 100


def test_a_whole_game_offers_every_kind_of_move_and_picker_on_the_table():
    """Games to their end: at some point the scene offered each kind of
    move Troje lists, and each chance picker."""
    kinds, pickers = set(), set()
    for seed, options in ((5, {}), (19, {"trade_chip": "may_take"})):  # seeds whose games hold every kind
        last = None
        for ms in positions(seed, 4, limit=3000, options=options):
            if ms.seq % 3 == 0 or CHANCE in ms.game.actors(ms.state) or ms.state.phase >= 12:
                scene = check(ms)
                kinds |= {m["type"] for e in scene.elements() for m in e.moves}
                kinds |= {m["type"] for e in scene.elements() for ms_ in e.targets.values() for m in ms_}
                pickers |= {e.chance.type for e in scene.elements() if e.chance}
            last = ms
        assert last.result is not None, last.seq
        assert not any(e.tappable for e in check(last).elements())  # a finished game offers nothing
    assert {"build_settlement", "build_road", "build_city", "roll", "end_turn", "move_sea_people", "build_ship",
            "donate", "trade_bank", "take_chip", "use_advantage", "return_card"} <= kinds, kinds
    assert {"dice", "steal", "decision_card", "ship_tile", "battle", "stack_card", "donate", "trade"} <= pickers, pickers


def test_the_sea_is_drawn_with_its_ships_symbols_and_the_sea_people():
    """Every sea tile in play is a hex of the board, numbered as the API
    names it; a ship shows its owner's colour and advantage; Troy and
    Mycenae are named on their hexes."""
    for ms in positions(5, 4, limit=3000):
        view = ms.view(REFEREE)
        if any(t.get("ship") for t in view["troje"]["sea_tiles"]) and view["troje"]["sea_people"]:
            break
    scene = check(ms)
    board = next(z for z in scene.zones if z.id == "board")
    sea = [e for e in board.elements if e.id.startswith("sea-")]
    tiles = view["troje"]["sea_tiles"]
    assert [e.shows["at"] for e in sea] == [t["at"] for t in tiles]
    assert [e.shows.get("symbol", False) for e in sea] == [t["ship_symbol"] for t in tiles]
    ships = {i: t["ship"] for i, t in enumerate(tiles) if t.get("ship")}
    assert {int(e.id[4:]): e.shows["ship"]["owner"] for e in sea if "ship" in e.shows} == \
        {i: s["owner"] for i, s in ships.items()}
    people = [e for e in sea if e.shows.get("people")]
    assert [e.shows["at"] for e in people] == [view["troje"]["sea_people"]]
    assert "het zeevolk" in people[0].label["nl"]
    names = sorted(e.label["nl"] for e in board.elements if "name" in e.shows)
    assert names == ["Mykene", "Troje"]


def test_a_seat_sees_its_own_decision_card_and_no_one_elses():
    """Hidden information is real: the deal is entered on each seat's
    decision card; afterwards a seat's table shows its own side and every
    other seat's as secret, while the referee sees them all."""
    ms = next(ms for ms in positions(3, 4, limit=50) if ms.state.ext.dealt == 4)
    sides = ms.state.ext.allegiances
    for viewer in range(4):
        scene = ms.game.scene(ms.view(viewer), M.visible_moves(ms, viewer))
        shown = {e.id: e.shows["side"] for e in scene.elements() if e.id.startswith("side-")}
        assert shown == {f"side-{p}": (sides[p] if p == viewer else None) for p in range(4)}, viewer
        assert "secret" in next(e for e in scene.elements() if e.id == f"side-{(viewer + 1) % 4}").label["en"]
    scene = ms.game.scene(ms.view(REFEREE), [])
    assert {e.shows["side"] for e in scene.elements() if e.id.startswith("side-")} == {"troy", "mycenae"}


@pytest.mark.parametrize("field,event", [("card", "steal"), ("card", "stack_card"), ("side", "decision_card")])
def test_a_picker_s_unknown_is_taken_as_not_seen(field, event):
    """The pickers offer "unknown" where the table may not have seen the
    outcome; the engine takes the word as null, as it takes null."""
    for ms in positions(5, 4, limit=3000):
        if (ms.view(REFEREE)["troje"].get("due") or {}).get("event") == event:
            break
    else:
        raise AssertionError(f"no {event} was due")
    due = ms.view(REFEREE)["troje"]["due"]
    extra = {"from": due["from"]} if event == "steal" else {}
    assert M.normalize_event(ms, event, due["seat"], {field: "unknown", **extra}, by_server=True) == \
        M.normalize_event(ms, event, due["seat"], {field: None, **extra}, by_server=True)


def test_the_decision_cards_turned_up_at_the_end_are_entered_on_the_saga_track():
    """With the sides unknown until the end (option allegiances: at_reveal),
    the table turns the decision cards up: the saga track's picker takes one
    side per seat, and what it sends is the reveal the engine accepts."""
    for seed in range(20):
        last = None
        for ms in positions(seed, 4, limit=3000, options={"allegiances": "at_reveal"}):
            last = ms
        if (last.view(REFEREE)["troje"].get("due") or {}).get("event") == "reveal_allegiances":
            break
    else:
        raise AssertionError("no game of the first seeds ended in a reveal")
    scene = check(last)
    saga = next(e for e in scene.elements() if e.id == "saga")
    picker = saga.chance
    assert picker.type == "reveal_allegiances" and picker.count == 4 and picker.seat is None
    sides = ["troy", "mycenae", "mycenae", "troy"]
    after = M.apply_event(last, last.seq + 1, picker.type, None,
                          M.normalize_event(last, picker.type, None, {picker.field: sides}, by_server=True))
    assert after.state.ext.allegiances == tuple(sides) and after.result is not None
