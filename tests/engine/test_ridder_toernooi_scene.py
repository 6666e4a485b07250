"""Ridder-toernooi's scene (issue 19): over positions reached by play (the
game's bots and random moves, several player counts and options), for the
referee, the public and every seat: every legal move is reached from exactly
one place on the drawing, no place offers a move that is not legal, every
label is in English and Dutch, a dice pad or the deck's picker sits where the
table sees the outcome and enters exactly the engine's own outcome, and a
scene survives a trip through JSON. Rules that shape the table have their
own tests below."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import REFEREE
from engine.ridder_toernooi import GAME
from engine.ridder_toernooi.bots import random_bot
from engine.scene import DIE_TONES, Scene, coverage
from engine.text import from_json
from service.web.i18n import language
from tests.engine.ridder_support import DEAL2, Table, day_with_all, printed_duel, started
from tests.support.played import bot_of

#: options that change what lies on the table or who acts
OPTIONS = [
    {},
    {"ladies": False, "challenge_required": False, "days": 2},
    {"woedend_die": "optional", "wound_penalty": True, "rejected_lady_next": True, "training_optional": False},
]


def positions(seed: int, players: int = 2, options: dict | None = None, limit: int = 1500):
    """Every position of one game: the greedy bot or a random move for each seat, the engine's dice."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien", "Gijs"][:players]
    ms = M.start(M.make_setup("ridder_toernooi", names, options or {}))
    greedy = bot_of("ridder_toernooi")
    yield ms
    for seq in range(2, limit):
        actors = ms.game.actors(ms.state)
        if not actors:
            return
        if "chance" in actors:
            move = ms.game.chance_outcome(ms.state, rng)
        else:
            seat = rng.choice(actors)
            move = (greedy if rng.random() < 0.5 else random_bot)(ms.game, ms.state, seat, rng)
        data = M.normalize_event(ms, move.type, move.seat, move.data)
        ms = M.apply_event(ms, seq, move.type, move.seat, data)
        yield ms


def picked(ms, outcome: dict) -> list:
    """The values a table taps on the picker for an engine outcome: the deal's
    cards seat by seat (each seat's knights, then its ladies), the dice of the
    players still rolling for the start, a roll's faces."""
    data = outcome["data"]
    if outcome["type"] == "deal":
        return [c for i, row in enumerate(data["knights"]) for c in row + (data["ladies"][i] if data["ladies"] else [])]
    if outcome["type"] == "start_roll":
        return [f for f in data["faces"] if f is not None]
    return data["faces"]


def texts(scene: Scene):
    """Every label a scene shows: zones, elements, the lines, dice rows and tracks they show, pickers and moves."""
    for z in scene.zones:
        yield z.label
        for e in z.elements:
            yield e.label
            s = e.shows
            yield from s.get("lines", [])
            for row in s.get("dice", []):
                yield row["label"]
                yield row["spoken"]
            yield from (m["label"] for m in s.get("marks", []))
            yield from (m["label"] for m in e.moves if "label" in m)
            if e.chance:
                yield e.chance.label
                yield from (e.chance.names or {}).values()


def check(ms, viewer=REFEREE) -> Scene:
    moves = M.visible_moves(ms, viewer)
    scene: Scene = ms.game.scene(ms.view(viewer), moves)
    wrong = coverage(scene, moves)
    assert wrong == {"unreachable": [], "ambiguous": [], "illegal": []}, (ms.seq, wrong)
    assert not scene.fallback  # every move of the game has its place on the drawing
    for label in texts(scene):  # in both languages, or a message said from the catalogue (the result)
        assert (set(label) == {"en", "nl"} and all(label.values())) or set(label) == {"msg", "params"}, (ms.seq, label)
    for e in scene.elements():
        for row in e.shows.get("dice", []):
            assert all(f["tone"] in DIE_TONES for f in row["faces"] if isinstance(f, dict))
    chance = [e for e in scene.elements() if e.chance]
    if "chance" in ms.game.actors(ms.state):
        assert len(chance) == 1, ms.seq
        picker = chance[0].chance
        outcome = ms.game.chance_outcome(ms.state, random.Random(ms.seq)).to_dict()
        values = picked(ms, outcome)
        assert outcome["type"] == picker.type and (picker.least or picker.count) <= len(values) <= picker.count
        assert set(values) <= set(picker.values)
        # the picker's values, in the field it names, are the same event as the engine's own
        entered = M.normalize_event(ms, picker.type, picker.seat, {picker.field: values})
        assert entered == M.normalize_event(ms, outcome["type"], outcome["seat"], outcome["data"])
    else:
        assert not chance
    assert json.loads(json.dumps(scene.to_dict())) == scene.to_dict()
    return scene


@pytest.mark.slow(20)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), choice=st.integers(0, len(OPTIONS) - 1), players=st.sampled_from([2, 3, 6]))
def test_every_legal_move_has_exactly_one_place_on_the_table(seed, choice, players):
    seen = set()
    for ms in positions(seed, players, OPTIONS[choice]):
        for viewer in (REFEREE, ms.seq % players):  # every viewer's table is the same (the test below)
            check(ms, viewer)
        seen.add(ms.state.phase)
    assert {"deal", "start_roll", "participate", "over"} <= seen


@pytest.mark.parametrize("seed", range(4))
def test_every_viewer_sees_the_same_table_and_only_the_dealt_cards(seed):
    """Nothing is hidden in this game (every card lies open, every die is
    rolled in view): the referee, the public and each seat get one table,
    moves and all. After the deal the undealt cards are out of the
    tournament (R1: "De overige ridder- en minnekaarten doen aan dit
    toernooi niet mee"): none of them is on anyone's table."""
    for ms in positions(seed, 3):
        referee = ms.game.scene(ms.view(REFEREE), M.visible_moves(ms, REFEREE))
        for viewer in (None, 0, 1, 2):
            assert ms.game.scene(ms.view(viewer), M.visible_moves(ms, viewer)) == referee, (ms.seq, viewer)
        if ms.state.phase != "deal":
            dealt = {GAME.kid(ms.state, k) for k in range(len(ms.state.knights))}
            dealt |= {GAME.lid(ms.state, x) for x in range(len(ms.state.ladies))}
            shown = json.dumps(referee.to_dict())
            for card in [*ms.state.cards.knights, *ms.state.cards.ladies]:
                if card.id not in dealt:
                    assert f'"{card.name}' not in shown and f"-{card.id}\"" not in shown, (ms.seq, card.id)


@pytest.mark.rule("ridder_toernooi.R1")
def test_the_deal_is_tapped_card_by_card_seat_by_seat():
    """R1 (two knights and two ladies each, one of each above five players):
    the deck's picker offers every card of the set by name and enters the deal
    in dealing order; the knights and the ladies go to the seats in the order
    they were tapped, whatever the mix."""
    t = Table(2)
    scene = check(t.ms)
    deck = {e.id: e for e in scene.elements()}["deck"]
    picker = deck.chance
    assert picker.count == 8 and picker.names["K01"]["en"] == "Apollonius von Wolkenburg" and deck.face_down
    assert picker.label["nl"].endswith("elk 2 ridders en 2 minnen")
    tapped = ["K01", "L02", "K03", "L03", "L01", "K02", "K04", "L04"]  # Ann's four, then Bob's, mixed
    assert M.normalize_event(t.ms, "deal", None, {"cards": tapped}) == DEAL2
    six = {e.id: e for e in check(Table(6).ms).elements()}["deck"].chance
    assert six.count == 12 and six.label["en"].endswith("1 knight and 1 lady each")


@pytest.mark.rule("ridder_toernooi.R4")
def test_only_the_tied_players_roll_again_on_the_dice_pad():
    t = Table(3)
    t.ev("deal", None, cards=["K01", "K02", "K03", "K04", "K05", "K06", "L01", "L02", "L03", "L04", "L05", "L06"])
    t.train_nothing()
    assert {e.id: e for e in check(t.ms).elements()}["start-dice"].chance.count == 3
    t.ev("start_roll", None, faces=[6, 2, 6])  # Ann and Cor tie
    pad = {e.id: e for e in check(t.ms).elements()}["start-dice"]
    assert pad.chance.count == 2 and pad.chance.values == [1, 2, 3, 4, 5, 6] and pad.chance.repeat
    assert M.normalize_event(t.ms, "start_roll", None, {"faces": [3, 5]}) == {"faces": [3, None, 5]}
    t.ev("start_roll", None, faces=[3, 5])
    assert t.s.first == 2


@pytest.mark.rule("ridder_toernooi.R3")
def test_a_knights_card_shows_his_fields_red_and_trained_and_a_tap_trains_him():
    """R3: two points, as +2 dice, two covered fields or one of each; the
    card shows the red (printed) fields and the ones training covered."""
    t = Table()
    t.ev("deal", None, **DEAL2)
    by_id = {e.id: e for e in check(t.ms).elements()}
    apollonius = by_id["knight-K01"]
    labels = [m["label"]["en"] for m in apollonius.moves]
    assert "+2 dice" in labels and "+1 die, cover 1" in labels and "cover 1 and 4" in labels and "cover 1 and 1" not in labels and "no training" in labels
    assert all(m["data"]["knight"] == "K01" for m in apollonius.moves)
    # picked in two steps on a phone: first how many of the points buy dice, then the fields
    groups = {}
    for m in apollonius.moves:
        groups.setdefault(m["group"]["en"], set()).add(m["data"]["dice"])
        assert set(m["group"]) == {"en", "nl"} and all(m["group"].values())
    assert groups == {"no extra die": {0}, "+1 die": {1}, "+2 dice": {2}}
    assert {m["group"]["nl"] for m in apollonius.moves} == {"geen extra slagdobbelsteen", "+1 slagdobbelsteen",
                                                           "+2 slagdobbelstenen"}
    t.ev("train", 0, knight="K01", dice=1, cover=[1])
    knight = {e.id: e for e in check(t.ms).elements()}["knight-K01"]
    mounted, foot = knight.shows["dice"]
    assert [(f["face"], f["tone"]) for f in mounted["faces"]] == [
        (1, "red"), (1, "covered"), (2, "red"), (2, "open"), (3, "red"), (3, "open")]
    assert [f["face"] for f in foot["faces"]] == [4, 4, 5, 5, 6, 6]
    assert mounted["label"] == {"en": "mounted", "nl": "te paard"} and foot["label"]["nl"] == "te voet"
    assert knight.moves == [] and "4 dice" in knight.shows["lines"][0]["en"]


@pytest.mark.rule("ridder_toernooi.R6")
def test_a_kerchief_is_laid_by_a_tap_on_the_lady_and_one_on_the_knight():
    """R6: the printed example. Ilsa displaces Podica on Apollonius; Podica
    then offers to another knight, never again to Apollonius, who rejected her."""
    t = started()
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    by_id = {e.id: e for e in check(t.ms).elements()}
    assert set(by_id["lady-L02"].targets) == {"knight-K01", "knight-K02", "knight-K03", "knight-K04"}
    assert by_id["lady-L01"].targets == {}  # Bob's lady: not his turn
    t.ev("kerchief", 0, lady="Podica", knight="Apollonius").ev("kerchief", 1, lady="Ilsa", knight="Apollonius")
    by_id = {e.id: e for e in check(t.ms).elements()}
    assert "knight-K01" not in by_id["lady-L02"].targets and by_id["lady-L02"].highlight
    assert by_id["knight-K01"].shows["lines"][1] == {"en": "kerchief: Ilsa von Tannen", "nl": "doek: Ilsa von Tannen"}
    assert by_id["lady-L01"].shows["lines"][-1]["nl"] == "0 premies · doek op Apollonius von Wolkenburg"


@pytest.mark.rule("ridder_toernooi.R8")
def test_the_knight_to_challenge_is_tapped():
    """R8: a player challenges a fit knight of another player with one of his
    own: the moves sit on the knight challenged (a picker asks with which own
    knight); his own knights are never a target."""
    t = started()
    day_with_all(t)
    assert t.s.phase == "challenge" and t.s.turn == 0
    by_id = {e.id: e for e in check(t.ms).elements()}
    harald = by_id["knight-K02"]
    assert sorted(m["data"]["knight"] for m in harald.moves) == ["K01", "K03"]
    assert {m["data"]["target"] for m in harald.moves} == {"K02"}
    assert harald.moves[0]["label"] == {"en": "Apollonius von Wolkenburg challenges Harald Kampfzahn",
                                        "nl": "Apollonius von Wolkenburg daagt Harald Kampfzahn uit"}
    assert by_id["knight-K01"].moves == [] and by_id["knight-K03"].moves == []


@pytest.mark.rule("ridder_toernooi.R9")
@pytest.mark.rule("ridder_toernooi.R13")
def test_the_attackers_roll_shows_its_hits_and_the_dice_pad_the_defenders_dice():
    """R9, the printed duel: Apollonius rolls 1, 3, 3, 6 against Harald, who
    has one 1 covered and no 3: the 1 is blocked, both 3s hit, the 6 misses
    (mounted, only 1–3 hit). The hits are on Harald's wound track at once;
    the pad then asks for Harald's five dice."""
    t = printed_duel()
    pad = {e.id: e for e in check(t.ms).elements()}["dice"]
    assert pad.chance.count == 4 and pad.chance.type == "roll" and pad.chance.field == "faces"
    t.roll(1, 3, 3, 6)
    by_id = {e.id: e for e in check(t.ms).elements()}
    roll = by_id["attacker-roll"]
    assert [(f["face"], f["tone"]) for f in roll.shows["dice"][0]["faces"]] == [
        (1, "blocked"), (3, "hit"), (3, "hit"), (6, "miss")]
    assert roll.label["en"].endswith(": 2 hits") and roll.label["nl"].endswith(": 2 treffers")
    assert by_id["knight-K02"].shows["marks"] == [{"label": {"en": "wounds", "nl": "verwondingen"}, "value": 2, "max": 10}]
    assert by_id["dice"].chance.count == 5 and "Harald Kampfzahn" in by_id["dice"].label["en"]


@pytest.mark.rule("ridder_toernooi.R11")
@pytest.mark.rule("ridder_toernooi.R12")
def test_woedend_adds_a_die_to_the_pad_and_on_foot_a_knight_gives_up_or_fights_on():
    t = printed_duel()
    t.roll(4, 5, 6, 6).roll(4, 4, 5, 6, 6)  # no hit on horseback: both woedend
    by_id = {e.id: e for e in check(t.ms).elements()}
    assert by_id["dice"].chance.count == 5 and by_id["woedend"].label["nl"].startswith("Woedend: 1 slagdobbelsteen extra")
    t.roll(1, 1, 1, 2, 2).roll(1, 2, 3, 3, 3, 3)  # both fall: on foot, Apollonius declares first
    assert t.s.phase == "give_up"
    by_id = {e.id: e for e in check(t.ms).elements()}
    assert by_id["duel"].label["en"].endswith("· on foot") and by_id["duel"].label["nl"].endswith("· te voet")
    assert [m["type"] for m in by_id["fight_on-0"].moves + by_id["give_up-0"].moves] == ["fight_on", "give_up"]
    assert by_id["give_up-0"].label == {"en": "Apollonius von Wolkenburg gives up", "nl": "Apollonius von Wolkenburg geeft op"}


@pytest.mark.rule("ridder_toernooi.R5")
def test_who_rides_today_is_a_picker_in_the_players_area():
    t = started()
    zone = {z.id: z for z in check(t.ms).zones}["seat-0"]
    ask = {e.id: e for e in zone.elements}["participate-0"]
    assert [m["label"]["nl"] for m in ask.moves] == [
        "niemand rijdt mee", "Apollonius von Wolkenburg rijdt mee", "Ridder 3 rijdt mee",
        "Apollonius von Wolkenburg en Ridder 3 rijden mee"]


def test_a_finished_tournament_offers_nothing_and_says_who_won():
    *_, last = positions(11)
    assert last.result is not None
    scene = check(last)
    assert not any(e.moves or e.targets or e.chance for e in scene.elements())
    said = from_json({e.id: e for e in scene.elements()}["result"].label)  # said where it is shown
    assert said.render().startswith("Over: ") and str(said) == f"Over: {last.result_english['reason']}"
    assert said.render(language("nl")).startswith("Voorbij: ")
