"""Troubadour's table as a scene (issue 19): over positions reached by play
(the engine's greedy bot and random legal moves, 2–4 players, both tie-breaks),
for the referee, every seat and the public: every legal move the viewer may
see is reached from exactly one place on the drawing, the labels are in English
and Dutch, a scene survives a trip through JSON, a picker sits where the table
sees what it enters and offers (to the referee) exactly the outcomes the engine
accepts, and no seat's scene holds what only another seat or the referee may
know."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import REFEREE, RuleViolation
from engine.scene import Scene, coverage
from engine.troubadour.bots import greedy_bot
from engine.troubadour.cards import CARD_IDS, NOBLE_IDS
from engine.troubadour.scene import castle_id, discard_id, draw_id, noble_id, nobles_id, village_id, visible_cards

from .test_troubadour_support import GAME, position, started

CHANCE_TYPES = {"deal", "flip", "turn_up", "die"}


def positions(seed: int, players: int = 2, options: dict | None = None, limit: int = 300):
    """The match after each event of one game: mostly the greedy bot's moves
    (it builds, attacks and plays its nobles), some random ones, and the
    chance outcomes the engine draws."""
    rng = random.Random(seed)
    ms = M.start(M.make_setup("troubadour", ["Ann", "Bob", "Cas", "Dirk"][:players], options or {}))
    yield ms
    for seq in range(2, limit):
        actors = ms.game.actors(ms.state)
        if not actors:
            return
        if "chance" in actors:
            move = ms.game.chance_outcome(ms.state, rng).to_dict()
        else:
            seat = rng.choice([a for a in actors if isinstance(a, int)])
            move = (greedy_bot(ms.state, seat, rng) if rng.random() < 0.8
                    else rng.choice(GAME.legal_moves(ms.state, seat))).to_dict()
        data = M.normalize_event(ms, move["type"], move["seat"], move["data"])
        ms = M.apply_event(ms, seq, move["type"], move["seat"], data)
        yield ms


def accepted(ms, type_, seat, data, field, values):
    """The values the engine accepts in ``data[field]`` of a chance event now."""
    out = []
    for v in values:
        try:
            M.apply_event(ms, ms.seq + 1, type_, seat, M.normalize_event(ms, type_, seat, {**data, field: v}))
        except RuleViolation:
            continue
        out.append(v)
    return out


def face_up(view, seat) -> set[str]:
    """The cards of ``seat``'s deck face up on the table (each player has a deck of his own)."""
    return visible_cards(view["players"][seat])


def check(ms, viewer, deep: bool = True) -> Scene:
    moves = M.visible_moves(ms, viewer)
    view = ms.view(viewer)
    scene: Scene = ms.game.scene(view, moves)
    assert scene is not None
    wrong = coverage(scene, moves)
    assert wrong == {"unreachable": [], "ambiguous": [], "illegal": []}, (ms.seq, viewer, wrong)
    assert scene.fallback == []  # every move has its place on the table
    for z in scene.zones:
        assert set(z.label) == {"en", "nl"} and all(z.label.values())
    for e in scene.elements():
        assert set(e.label) == {"en", "nl"} and all(e.label.values()), e
        for m in e.moves + [m for ms_ in e.targets.values() for m in ms_]:
            assert set(m["label"]) == {"en", "nl"} and all(m["label"].values()), m
    if deep:
        drawn = scene.to_dict()
        assert json.loads(json.dumps(drawn)) == drawn
    pickers = [e for e in scene.elements() if e.chance]
    chance = [e for e in pickers if e.chance.type in CHANCE_TYPES]
    # a secret choice: one picker of twelve nobles per seat the viewer may enter it for, building exactly its moves
    chooses = {m["seat"] for m in moves if m["type"] == "choose"}
    assert {e.chance.seat for e in pickers if e.chance.type == "choose"} == chooses
    for e in pickers:
        if e.chance.type == "choose":
            assert e.id == nobles_id(e.chance.seat) and e.chance.values == list(NOBLE_IDS)
            picks = [m for m in moves if m["type"] == "choose" and m["seat"] == e.chance.seat]
            assert len(picks) == len(list(combinations(NOBLE_IDS, 3))) == 220
    if "chance" not in ms.game.actors(ms.state):
        assert not chance
        return scene
    s = ms.state
    if s.phase == 2 and len(s.order[GAME._tie_slot(s)]) < s.n:  # a die for some players only: the form enters it
        assert not chance
        return scene
    assert len(chance) == 1, (ms.seq, viewer)
    picker = chance[0].chance
    outcome = ms.game.chance_outcome(ms.state, random.Random(ms.seq)).to_dict()
    assert (picker.type, picker.seat) == (outcome["type"], outcome["seat"]) or picker.type == "die"
    # the engine's own outcome, entered with the picker, is the same event
    value = outcome["data"][picker.field]
    assert (value in picker.values) if picker.scalar else set(value) <= set(picker.values)
    built = {**picker.data, picker.field: value}
    assert M.normalize_event(ms, picker.type, picker.seat, built) == M.normalize_event(ms, outcome["type"], outcome["seat"], outcome["data"])
    if picker.type in ("flip", "turn_up"):
        # where the table sees it: the turned card on its draw pile, a turned-up card on its village
        where = draw_id(picker.seat) if picker.type == "flip" else village_id(picker.seat, picker.data["village"])
        assert chance[0].id == where
        can = accepted(ms, picker.type, picker.seat, picker.data, picker.field, CARD_IDS)
        if viewer == REFEREE:
            assert picker.values == can, (ms.seq, picker.type)  # exactly the cards that can come
        else:
            assert set(can) <= set(picker.values)  # what the viewer cannot rule out, and nothing face up
            assert not set(picker.values) & face_up(view, picker.seat)
    elif picker.type == "deal":
        assert chance[0].id == draw_id(picker.seat) and picker.count == 5 and len(picker.values) == 40
    else:
        assert picker.values == [1, 2, 3, 4, 5, 6] and picker.repeat and picker.count == s.n
    return scene


def viewers(ms):
    return [REFEREE, None, *range(ms.state.n)]


SETTINGS = [(2, {}), (3, {"tie_break": "nobles"}), (4, {"turn_order": "clockwise", "protected_attack": "refused"}),
            (2, {"tie_break": "nobles"})]


@pytest.mark.slow(15)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), setting=st.integers(0, len(SETTINGS) - 1))
def test_every_legal_move_has_exactly_one_place_on_the_table_for_every_viewer(seed, setting):
    players, options = SETTINGS[setting]
    seen = set()
    for i, ms in enumerate(positions(seed, players, options, limit=200)):
        # the referee's table at every position; the seats' and the public's (and the JSON trip) at every third
        for viewer in viewers(ms) if i % 3 == 0 else [REFEREE]:
            check(ms, viewer, deep=i % 3 == 0)
        seen.add(ms.state.phase)
    assert {0, 1, 3} <= seen  # the deal, a choice of nobles and turns were drawn


def test_a_whole_game_is_drawn_to_its_end():
    """The greedy bot's game to the finish: every position drawn for everyone;
    the last offers nothing and says who won."""
    last = None
    for last in positions(11, 2, {}, limit=4000):
        if last.seq % 5 == 0:
            check(last, REFEREE, deep=False)
    assert last.result is not None
    scene = check(last, REFEREE)
    assert not any(e.tappable for e in scene.elements())
    assert "{seat%d}" % last.state.winner in scene.zones[0].label["en"]


# -- hidden information ---------------------------------------------------------------------


@pytest.mark.rule("troubadour.secret_choice")
def test_a_seats_table_is_the_same_whatever_the_other_chose_in_secret():
    """The nobles are chosen in secret: seat 0's drawing (and the public's) is
    the same whichever trio seat 1 holds, and shows it only as a face-down
    pile; seat 1 and the referee see the three nobles in the hand."""
    rec = started()
    tables = {}
    for trio in (["JS", "QS", "KS"], ["QD", "JC", "KH"]):
        ms = M.apply_event(rec.ms, rec.ms.seq + 1, "choose", 1, M.normalize_event(rec.ms, "choose", 1, {"nobles": trio}))
        for viewer in (0, None):
            scene = check(ms, viewer)
            tables.setdefault(viewer, set()).add(json.dumps(scene.to_dict(), sort_keys=True))
            hidden = {e.id: e for e in scene.elements()}[nobles_id(1)]
            assert hidden.face_down and hidden.shows == {"count": 3} and not hidden.tappable
            assert not any(e.id.startswith("noble-1-") for e in scene.elements())
        for viewer in (1, REFEREE):
            shown = [e.shows["card"] for e in check(ms, viewer).elements() if e.id.startswith("noble-1-")]
            assert shown == sorted(trio, key=NOBLE_IDS.index)
        # seat 0 may still choose: its picker is there for itself and the referee, not for the public or seat 1
        assert {e.id for e in check(ms, 0).elements() if e.chance} == {nobles_id(0)}
        assert not any(e.chance for e in check(ms, None).elements())
        assert not any(e.chance for e in check(ms, 1).elements())
    assert all(len(v) == 1 for v in tables.values())


@pytest.mark.rule("troubadour.discard_top")
def test_only_the_discard_piles_top_card_is_on_a_seats_table():
    """Nobody browses the discard pile: a seat sees its top card and count;
    the cards under it are in no seat's scene, not even in a picker as
    where they lie (the referee's picker may offer the pile's bottom card
    when it is turned over)."""
    rec = position(discard=[["3S", "9D", "5C"], []])
    for viewer in (0, 1, None):
        scene = check(rec.ms, viewer)
        pile = {e.id: e for e in scene.elements()}[discard_id(0)]
        assert pile.shows == {"card": "5C", "count": 3}
        shown = json.dumps([e.shows for e in scene.elements()])
        assert '"3S"' not in shown and '"9D"' not in shown
    referee = ms_view_keys(rec.ms, REFEREE)
    assert "draw_segments" in referee  # what the referee's pickers are made of, which no seat's view holds
    assert "draw_segments" not in ms_view_keys(rec.ms, 0)


def ms_view_keys(ms, viewer):
    return set(ms.view(viewer)["players"][0])


# -- rules that shape the table ------------------------------------------------------------------


@pytest.mark.rule("troubadour.recycle")
def test_the_turned_over_discard_pile_gives_its_bottom_card_first():
    """With the draw pile empty the discard pile is turned over unshuffled:
    the referee's picker on the draw pile offers its bottom card only; a
    seat's offers every card it cannot see (it cannot know the order)."""
    # every card of seat 0 on its castles but the three of its discard pile: its draw pile is empty
    rec = position(castles=[{"S": 10, "D": 10, "C": 10, "H": 7}, {}], discard=[["9H", "8H", "10H"], []])
    assert rec.state.players[0].ndraw == 0
    rec.add("turn_over", 0, {})
    assert rec.state.turn.flip is not None
    pile = {e.id: e for e in check(rec.ms, REFEREE).elements()}[draw_id(0)]
    assert pile.chance.values == ["9H"] and pile.chance.type == "flip" and pile.chance.seat == 0
    assert "turned over first" in pile.chance.label["en"] and "raapstapel" in pile.chance.label["nl"]
    seat = {e.id: e for e in check(rec.ms, 0).elements()}[draw_id(0)]
    assert seat.chance.values == ["8H", "9H"]  # the top card, 10H, is face up


@pytest.mark.rule("troubadour.spades_trio")
@pytest.mark.rule("troubadour.spades_jack")
@pytest.mark.rule("troubadour.spades_queen")
def test_an_attack_is_a_spades_noble_and_the_opponents_village_or_castle():
    """The spades jack and one of the opponent's villages; the spades queen
    alone (every village's top); the spades king, which acts only in the trio,
    and one of the opponent's castles."""
    rec = position(villages=[[[]] * 5, [["?", "?", "5H", "4S"], ["9C"], [], [], []]], castles=[{}, {"H": 4, "S": 1}],
                   trios=[["JS", "QS", "KS"], ["JC", "QC", "KC"]])
    scene = check(rec.ms, REFEREE)
    by_id = {e.id: e for e in scene.elements()}
    js = by_id[noble_id(0, "JS")]
    assert sorted(js.targets) == [village_id(1, 1), village_id(1, 2)]
    assert js.targets[village_id(1, 1)][0]["data"] == {"power": "JS", "target": 1, "village": 1}
    assert js.targets[village_id(1, 1)][0]["label"]["nl"] == "Schoppen boer: dorp 1 van {seat1} plunderen"
    assert [m["data"] for m in by_id[noble_id(0, "QS")].moves] == [{"power": "QS", "target": 1}]
    ks = by_id[noble_id(0, "KS")]
    assert sorted(ks.targets) == [castle_id(1, "H"), castle_id(1, "S")] and not ks.moves
    # once the jack acted alone, the trio is gone: the king's castles are no longer offered
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 2})
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    assert not by_id[noble_id(0, "KS")].tappable and "used" in by_id[noble_id(0, "JS")].label["en"]


@pytest.mark.rule("troubadour.hearts_jack")
@pytest.mark.rule("troubadour.run_move")
def test_a_card_from_inside_a_village_goes_with_the_hearts_jack_a_run_with_its_village():
    """A run moves from its village to another (the picker names the cards
    that move); a card from inside a village, not the top of a run, is the
    hearts jack's: the hearts jack and where the card goes."""
    rec = position(villages=[[["9C", "5D", "8H", "7S"], ["9S"], [], [], []], [[]] * 5], castles=[{"D": 4}, {}],
                   trios=[["JH", "JC", "QC"], ["JC", "QC", "KC"]])
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    run = [m for m in by_id[village_id(0, 1)].targets[village_id(0, 2)]]
    assert {m["data"]["card"]: m["label"]["en"] for m in run} == {"8H": "♥8 ♠7 from village 1 onto village 2"}
    jack = by_id[noble_id(0, "JH")]
    assert jack.targets[castle_id(0, "D")][0]["data"] == {"card": "5D", "to": "castle", "hearts_jack": True}
    assert jack.targets[castle_id(0, "D")][0]["label"]["nl"] == "Harten boer: ♦5 uit dorp 1 op het kasteel"
    assert not any(m["data"].get("hearts_jack") for e in by_id.values() if e.id != jack.id
                   for ms_ in e.targets.values() for m in ms_)


@pytest.mark.rule("troubadour.hearts_queen")
@pytest.mark.rule("troubadour.face_down_turned")
def test_a_face_down_card_is_turned_on_its_village_and_entered_there():
    """A face-down top is turned with a tap on its village; the hearts queen
    and a village turn a card inside it (the picker names the slot); the card
    turned up is entered with the picker that then opens on that village,
    offering the cards still unseen."""
    rec = position(villages=[[["?", "?", "6D"], ["?"], [], [], []], [[]] * 5], trios=[["QH", "JC", "QC"], ["JC", "QC", "KC"]])
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    assert [m["data"] for m in by_id[village_id(0, 2)].moves] == [{"village": 2}]
    queen = by_id[noble_id(0, "QH")]
    assert [m["data"]["slot"] for m in queen.targets[village_id(0, 1)]] == [1, 2]
    assert [m["label"]["nl"] for m in queen.targets[village_id(0, 1)]][0] == "Harten vrouw: kaart 1 van dorp 1 omdraaien (1 = onderste)"
    rec.add("turn_top", 0, {"village": 2})
    village = {e.id: e for e in check(rec.ms, REFEREE).elements()}[village_id(0, 2)]
    assert village.chance.type == "turn_up" and village.chance.data == {"village": 2} and village.highlight
    assert "6D" not in village.chance.values and len(village.chance.values) == rec.state.players[0].pool.bit_count()


@pytest.mark.rule("troubadour.clubs_jack")
@pytest.mark.rule("troubadour.clubs_queen")
@pytest.mark.rule("troubadour.clubs_after_turn_over")
def test_the_clubs_nobles_turn_cards_with_a_tap_on_them():
    """The standard turn-over is a tap on the draw pile, the clubs jack's
    on the jack; the clubs queen is offered only after the turn-over, and
    each of her extra cards is then a tap on the draw pile."""
    rec = position(trios=[["JC", "QC", "KH"], ["JC", "QC", "KC"]])
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    assert [m["data"] for m in by_id[draw_id(0)].moves] == [{"clubs_jack": False}]
    assert [m["data"] for m in by_id[noble_id(0, "JC")].moves] == [{"clubs_jack": True}]
    assert not by_id[noble_id(0, "QC")].tappable
    rec.add("turn_over", 0, {})
    rec.flip(next(c for c in CARD_IDS if c in rec.view(REFEREE)["players"][0]["unseen_cards"]))
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    assert [m["type"] for m in by_id[noble_id(0, "QC")].moves] == ["extra_draw"]
    assert not by_id[draw_id(0)].tappable
    rec.add("extra_draw", 0, {"power": "QC"})
    rec.flip(next(c for c in CARD_IDS if c in rec.view(REFEREE)["players"][0]["unseen_cards"]))
    by_id = {e.id: e for e in check(rec.ms, REFEREE).elements()}
    assert [m["type"] for m in by_id[draw_id(0)].moves] == ["extra_card"]
