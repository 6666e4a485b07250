"""BraveRats's scene (issue 19): over positions reached by random legal play
in the base game and each variant, for the referee, each seat and the
public, every legal move the viewer may see is reached from exactly one
place on the drawing (a round: Red's card and Blue's; a card played alone:
the card and its seat's place on the table), no place offers a move that is
not legal, a chance picker sits where the table sees the outcome and
offers every outcome the engine could draw, no seat's scene holds a card of
the other's secret hand, and a scene survives a trip through JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.braverats.cards import CARD_IDS
from engine.core import REFEREE
from engine.scene import Scene, coverage
from engine.page_table import dumps  # (a view holds messages: said as their JSON)
from tests.support.played import random_step

VIEWERS = (REFEREE, 0, 1, None)

#: the base game and the variants that change what lies on the table or who enters what
OPTIONS = [
    {},
    {"variants": ["A"]},
    {"variants": ["B"]},
    {"variants": ["C"]},
    {"variants": ["D"], "draft_first_seat": 1},
    {"variants": ["E"]},
    {"variants": ["F"], "princess_attack_seat": 1},
    {"variants": ["A", "B", "C"]},
    {"variants": ["G", "B"]},
    {"variants": ["G", "E", "A"]},
]


def positions(seed: int, options: dict | None = None):
    """Every position of one random match: the match state after each event."""
    rng = random.Random(seed)
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], options or {}))
    yield ms
    for seq in range(2, 300):
        if not ms.game.actors(ms.state):
            return
        ms = random_step(ms, rng, seq)
        yield ms


def picked(outcome):
    """The values a table taps for an outcome, in order: both seats' lists one after the other."""
    data = outcome["data"]
    values = data["hands"] if "hands" in data else data["cards"]
    return [c for group in values for c in group] if values and isinstance(values[0], list) else values


def check(ms, viewer):
    moves = M.visible_moves(ms, viewer)
    scene: Scene = ms.game.scene(ms.view(viewer), moves)
    assert scene is not None
    wrong = coverage(scene, moves)
    assert wrong == {"unreachable": [], "ambiguous": [], "illegal": []}, (ms.seq, viewer, wrong)
    assert not scene.fallback
    for e in scene.elements():
        assert set(e.label) == {"en", "nl"} and all(e.label.values())
        for m in [*e.moves, *(m for ms_ in e.targets.values() for m in ms_)]:
            assert set(m["label"]) == {"en", "nl"} and all(m["label"].values())
    chance = [e for e in scene.elements() if e.chance]
    if "chance" in ms.game.actors(ms.state):
        assert len(chance) == 1, (ms.seq, viewer)
        picker = chance[0].chance
        assert chance[0].highlight
        outcome = ms.game.chance_outcome(ms.state, random.Random(ms.seq)).to_dict()
        values = picked(outcome)
        assert outcome["type"] == picker.type and len(values) == picker.count
        assert set(values) <= set(picker.values), (ms.seq, viewer, values, picker.values)
        # the picked values, split as the picker splits them, are the same event as the engine's own
        if picker.groups:
            at = [sum(picker.groups[:i]) for i in range(len(picker.groups) + 1)]
            entered_values = [values[at[i]:at[i + 1]] for i in range(len(picker.groups))]
        else:
            entered_values = values
        entered = M.normalize_event(ms, picker.type, picker.seat, {picker.field: entered_values})
        assert entered == M.normalize_event(ms, outcome["type"], outcome["seat"], outcome["data"])
    else:
        assert not chance, (ms.seq, viewer)
    again = json.loads(json.dumps(scene.to_dict()))
    assert again == scene.to_dict()
    return scene


def secret_cards(ms, seat):
    """The cards of the other seat's hand that nothing ``seat`` sees names
    (its own hand, the rounds played may hold the same kind of card)."""
    other = ms.game.view(ms.state, REFEREE)["hands"][1 - seat]["cards"] or []
    seen = dumps(ms.view(seat))
    return {c for c in other if f'"{c}"' not in seen}


def without_pickers(scene: Scene) -> str:
    """The scene as JSON without its chance pickers' values: a picker lists
    what a card could be (every card, for a seat), never what it is."""
    d = scene.to_dict()
    for z in d["zones"]:
        for e in z["elements"]:
            e.pop("chance", None)
    return json.dumps(d)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), choice=st.integers(0, len(OPTIONS) - 1))
def test_every_legal_move_has_exactly_one_place_on_the_table(seed, choice):
    seen = 0
    for ms in positions(seed, OPTIONS[choice]):
        for viewer in VIEWERS:
            scene = check(ms, viewer)
            if viewer in (0, 1):
                for card in secret_cards(ms, viewer):
                    assert f'"{card}"' not in without_pickers(scene), (ms.seq, viewer, card)
        seen += 1
    assert seen >= 2


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "".join(o.get("variants", [])) or "base")
def test_every_variant_is_drawn_to_its_end(options):
    """One whole match of each option set, every viewer at every step; where
    a hand is secret (B, D, E) its cards were there to hide, and were hidden."""
    hidden = 0
    for ms in positions(11, options):
        for viewer in VIEWERS:
            scene = check(ms, viewer)
            if viewer in (0, 1):
                secret = secret_cards(ms, viewer)
                hidden += len(secret)
                for card in secret:
                    assert f'"{card}"' not in without_pickers(scene), (ms.seq, viewer, card)
    assert ms.result is not None
    assert (hidden > 0) == any(v in options.get("variants", []) for v in "BDE"), hidden
    for viewer in VIEWERS:
        scene = check(ms, viewer)
        assert not any(e.moves or e.targets or e.chance for e in scene.elements())


def by_id(scene):
    return {e.id: e for e in scene.elements()}


@pytest.mark.rule("braverats.one_card_per_round")
def test_a_round_is_a_tap_on_reds_card_and_one_on_blues():
    """Both cards chosen in secret and turned over together: the table taps
    Red's card, then Blue's (a round); a card laid down alone goes on its
    seat's place on the table."""
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {}))
    scene = check(ms, REFEREE)
    els = by_id(scene)
    spy = els["hand-0-spy"]
    assert [m["data"]["cards"] for m in spy.targets["hand-1-prince"]] == [["spy", "prince"]]
    assert [m["label"]["nl"] for m in spy.targets["hand-1-prince"]] == ["Spion – Prins"]
    assert [m["data"] for m in spy.targets["place-0"]] == [{"card": "spy"}] and spy.targets["place-0"][0]["seat"] == 0
    assert set(spy.targets) == {"place-0", *(f"hand-1-{c}" for c in CARD_IDS)}
    assert els["place-0"].kind == "slot" and els["place-1"].kind == "slot"
    # Ann lays her Spy face down: Bob's card is still to come, and only Bob's cards go anywhere
    ms = M.apply_event(ms, 2, "play", 0, {"card": "spy"})
    for viewer, shown in ((REFEREE, "spy"), (0, "spy"), (1, None), (None, None)):
        els = by_id(check(ms, viewer))
        assert els["place-0"].shows.get("card") == shown and els["place-0"].face_down == (shown is None)
        assert not any(e.targets for e in els.values() if e.id.startswith("hand-0-"))
    bob = by_id(check(ms, 1))
    assert set(bob["hand-1-wizard"].targets) == {"place-1"}
    # the round resolves: the pair lies face up among the rounds played
    ms = M.apply_event(ms, 3, "play", 1, {"card": "wizard"})
    els = by_id(check(ms, None))
    assert els["round-1"].kind == "trick" and els["round-1"].shows["cards"] == ["spy", "wizard"]
    assert els["round-1"].label["en"] == "1: {seat1} wins"
    assert "hand-0-spy" not in els and "hand-1-wizard" not in els


@pytest.mark.rule("braverats.spy_order")
def test_after_a_spy_the_other_seat_plays_first_and_face_up():
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {}))
    ms = M.apply_event(ms, 2, "round", None, {"cards": ["spy", "prince"]})  # Bob wins; Ann's Spy: Bob plays first
    els = by_id(check(ms, 0))
    assert els["spy"].label["nl"] == "{seat1} speelt eerst, open (Spion)"
    ann = by_id(check(ms, REFEREE))
    # Ann may not lay a card alone before Bob, but the table may still turn over both at once
    assert "place-0" not in ann["hand-0-musician"].targets and "hand-1-musician" in ann["hand-0-musician"].targets
    ms = M.apply_event(ms, 3, "play", 1, {"card": "general"})
    for viewer in (0, None):
        place = by_id(check(ms, viewer))["place-1"]
        assert place.shows["card"] == "general" and "open" in place.label["nl"]


@pytest.mark.rule("braverats.variant_b")
def test_a_card_drawn_unseen_is_named_from_the_hands_face_down_cards():
    """Variant B: the table enters each player's draw on the draw piles'
    picker, unknown where it did not see the card; a card drawn unseen lies
    face down in the hand, and a tap on it and on a partner names it."""
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {"variants": ["B"]}))
    draw = by_id(check(ms, REFEREE))["draw"]
    assert draw.chance.type == "draw" and draw.chance.groups == [3, 3] and "unknown" in draw.chance.values
    ms = M.apply_event(ms, 2, "draw", None, M.normalize_event(
        ms, "draw", None, {"cards": [["spy", "wizard", "prince"], ["unknown", "unknown", "unknown"]]}))
    els = by_id(check(ms, REFEREE))
    assert {"hand-0-spy", "hand-0-wizard", "hand-0-prince", "unseen-1"} <= set(els)
    assert els["unseen-1"].face_down and els["unseen-1"].shows["count"] == 3
    named = els["hand-0-spy"].targets["unseen-1"]
    assert sorted(m["data"]["cards"][1] for m in named) == sorted(CARD_IDS)  # any of Bob's 8 could be in his hand
    assert els["pile-0"].shows["count"] == 5
    # Ann's own table shows Bob's hand as backs only, and her own cards face up
    ann = by_id(check(ms, 0))
    assert ann["unseen-1"].face_down and not any(i.startswith("hand-1-") for i in ann)


@pytest.mark.rule("braverats.variant_d")
def test_the_draft_is_drawn_on_the_stack_and_kept_by_a_tap_on_the_offer():
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {"variants": ["D"]}))
    stack = by_id(check(ms, REFEREE))["draft-stack"]
    assert stack.chance.count == 4 and stack.chance.seat == 0 and stack.shows["count"] == 16
    ms = M.apply_event(ms, 2, "draft", 0, M.normalize_event(ms, "draft", 0, {"cards": ["spy", "spy", "wizard", "prince"]}))
    els = by_id(check(ms, 0))
    assert [m["data"] for m in els["offer-spy"].moves] == [{"card": "spy"}] and els["offer-spy"].shows["count"] == 2
    bob = by_id(check(ms, 1))  # Bob does not see what Ann was offered
    assert "offer-spy" not in bob and bob["offer"].face_down and bob["offer"].shows["count"] == 4


@pytest.mark.rule("braverats.variant_g")
def test_the_loser_chooses_the_next_games_variants_on_the_score_line():
    ms = next(ms for ms in positions(4, {"variants": ["G"]}) if ms.state.phase == "choose")
    chooser = ms.state.chooser
    els = by_id(check(ms, REFEREE))
    choose = els[f"choose-{chooser}"]
    assert len(choose.moves) == 32 and choose.moves[0]["label"] == {"en": "The base game", "nl": "Het basisspel"}
    assert "Reeks" in els["series"].label["nl"]
