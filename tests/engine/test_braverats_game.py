"""The base game through the framework: rounds, plays, holds, the end, errors,
views, descriptions, snapshots."""

import json
import re
from pathlib import Path

import pytest

from engine import match as M
from engine.core import CHANCE, REFEREE, InvalidOptions, MalformedEvent, RuleViolation
from engine.page_table import dumps  # (a view holds messages: said as their JSON)

from .braverats_support import CARDS, GAME, Rec


def violation(rec: Rec, type_, seat, data) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        rec.add(type_, seat, data)
    return exc.value


# -- catalogue and registration -------------------------------------------------

def test_registered_with_the_fixed_contract():
    assert (GAME.id, GAME.name, GAME.version, GAME.min_players, GAME.max_players) == ("braverats", "BraveRats", "1", 2, 2)
    assert GAME.summary and "\n" not in GAME.summary
    assert GAME.aliases["prins"] == "prince" and GAME.aliases["sluipmoordenaar"] == "assassin"
    assert GAME.aliases["4"] == "ambassador"


def test_every_rule_id_has_a_marked_test():
    marked = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        marked |= {r for r in re.findall(r'mark\.rule\("([^"]+)"\)', path.read_text()) if r.startswith("braverats.")}
    assert set(GAME.rules) - marked == set()
    assert marked - set(GAME.rules) == set(), "a marker names a rule id that does not exist"


# -- normalize ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "given,canonical",
    [("Prins", "prince"), ("SLUIPMOORDENAAR", "assassin"), (" raadsheer ", "ambassador"), (0, "musician"),
     ("7", "prince"), ("Wizard", "wizard"), ("tovenaar", "wizard"), ("generaal", "general"), ("spion", "spy"),
     ("prinses", "princess"), ("muzikant", "musician")],
)
def test_aliases_normalize_to_canonical_ids(given, canonical):
    rec = Rec()
    data = M.normalize_event(rec.ms, "round", None, {"cards": [given, "spy"]})
    assert data == {"cards": [canonical, "spy"]}


@pytest.mark.parametrize("bad", ["queen", 8, -1, True, "unknown", None, 2.0])
def test_unknown_cards_are_malformed(bad):
    rec = Rec()
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "round", None, {"cards": [bad, "spy"]})


def test_round_needs_exactly_two_cards():
    rec = Rec()
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "round", None, {"cards": ["spy"]})


# -- rounds -----------------------------------------------------------------------------

@pytest.mark.rule("braverats.values")
@pytest.mark.rule("braverats.win")
def test_higher_value_wins_and_four_rounds_win_the_game():
    rec = Rec()
    for red, blue in [("prince", "spy"), ("general", "assassin"), ("wizard", "princess"), ("spy", "ambassador")]:
        rec.round(red, blue)
    # Prince wins; Assassin beats General; Wizard beats Princess; Ambassador beats Spy (2)
    assert rec.state.score == (2, 3)
    rec.round("ambassador", "general")  # 4 vs 6: Blue wins the 4th round
    res = rec.ms.result
    assert res.outcome == "win" and res.winners == (1,) and res.scores == (2, 4)
    assert "Bob (Blue) won 4 rounds" in str(res.reason)
    assert GAME.actors(rec.state) == ()
    with pytest.raises(RuleViolation) as exc:
        rec.round("musician", "musician")
    assert exc.value.rule == "core.finished"


@pytest.mark.rule("braverats.on_hold")
def test_held_rounds_go_to_the_next_winner():
    rec = Rec()
    rec.round("spy", "spy")  # 2 vs 2, spies cancel: on hold
    rec.round("musician", "prince")  # Musician: on hold
    assert (rec.state.score, rec.state.held) == ((0, 0), 2)
    assert rec.ms.view(None)["held"] == 2
    rec.round("general", "assassin")  # Assassin: lowest wins -> Blue wins 1 + 2 held
    assert (rec.state.score, rec.state.held) == ((0, 3), 0)
    ann = rec.annotate_last()[0]
    assert ann["held_before"] == 2 and ann["counts_as"] == 3 and ann["winner"] == 1


@pytest.mark.rule("braverats.ambassador")
@pytest.mark.rule("braverats.on_hold")
def test_ambassador_after_held_rounds_counts_held_plus_two():
    rec = Rec()
    rec.round("wizard", "wizard")  # on hold
    rec.round("ambassador", "spy")
    assert rec.state.score == (3, 0)  # the text: one held round -> 3
    rec2 = Rec()
    rec2.round("wizard", "wizard")
    rec2.round("musician", "musician")
    rec2.round("ambassador", "princess")
    assert rec2.state.score == (4, 0)
    assert rec2.ms.result.winners == (0,)


@pytest.mark.rule("braverats.ambassador")
@pytest.mark.rule("braverats.wizard")
def test_ambassador_counts_once_when_a_wizard_ignores_it():
    rec = Rec()
    rec.round("general", "spy")  # Red +2 next round
    rec.round("ambassador", "wizard")  # 6 vs 5: Red wins, but the Wizard cancels the double count
    assert rec.state.score == (2, 0)


@pytest.mark.rule("braverats.princess_catches_prince")
@pytest.mark.rule("braverats.princess")
def test_princess_catches_prince_whatever_the_score():
    # Red catches Blue's Prince while Blue leads 3-0 (and with rounds on hold)
    rec = Rec()
    rec.round("musician", "musician")
    rec.round("spy", "ambassador")  # Blue: Ambassador 2 + 1 held
    rec.round("wizard", "wizard")  # on hold
    assert (rec.state.score, rec.state.held) == ((0, 3), 1)
    rec.round("princess", "prince")
    res = rec.ms.result
    assert (res.outcome, res.winners, res.scores) == ("win", (0,), (0, 3))
    assert "Princess caught" in str(res.reason)
    assert "the Princess catches the Prince: Ann wins the game" in rec.describe_last()
    assert GAME.actors(rec.state) == ()
    # Blue's Princess catches a General-boosted Prince while Red leads 3-1
    rec = Rec()
    rec.round("ambassador", "spy")  # Red 2
    rec.round("wizard", "assassin")  # Red 3
    rec.round("musician", "wizard")  # the Wizard ignores the Musician: Blue 1
    rec.round("general", "general")  # on hold; both +2 next round
    assert rec.state.score == (3, 1) and rec.state.bonus == (True, True)
    rec.round("prince", "princess")
    assert rec.ms.result.winners == (1,) and rec.ms.result.scores == (3, 1)


@pytest.mark.rule("braverats.draw")
def test_draw_when_the_cards_run_out():
    rec = Rec()
    # eight rounds, nobody reaches 4: 3-3 with the last two rounds on hold
    for red, blue in [
        ("prince", "spy"),  # Red 1-0
        ("spy", "prince"),  # Blue 1-1
        ("ambassador", "general"),  # Blue 1-2, Blue +2 next round
        ("general", "musician"),  # on hold; the Musician also cancels Red's General
        ("wizard", "princess"),  # Red wins 1 + 1 held: 3-2
        ("princess", "wizard"),  # Blue 3-3
        ("assassin", "assassin"),  # on hold
        ("musician", "ambassador"),  # on hold
    ]:
        assert rec.ms.result is None
        rec.round(red, blue)
    res = rec.ms.result
    assert (res.outcome, res.winners, res.scores) == ("draw", (), (3, 3))
    assert rec.state.held == 2
    assert "a draw" in rec.describe_last()


@pytest.mark.rule("braverats.card_in_hand")
def test_a_card_can_be_played_only_once():
    rec = Rec()
    rec.round("prince", "spy")
    err = violation(rec, "round", None, {"cards": ["prins", "spy"]})
    assert err.rule == "braverats.card_in_hand"
    assert "Ann (Red) has no Prince left in hand" in err.message
    assert "Musician, Princess, Spy, Assassin, Ambassador, Wizard, General" in err.message
    assert "round 1" in err.message
    assert err.to_dict()["rule"] == "braverats.card_in_hand"


@pytest.mark.rule("braverats.no_declining")
@pytest.mark.rule("braverats.assassin")
def test_no_declining_a_power_even_against_its_own_player():
    rec = Rec()
    rec.round("assassin", "spy")  # Red's own Assassin makes the lower Spy win
    assert rec.state.score == (0, 1)
    # Blue's Spy forces Blue's opponent (Red) to play first: Red cannot wait
    assert GAME.actors(rec.state) == (0, "table")
    rec.round("musician", "general")  # Red's Musician cancels Red's own chance and Blue's General
    assert rec.state.bonus == (False, False) and rec.state.held == 1


# -- plays (online / simulated entry) ------------------------------------------------

@pytest.mark.rule("braverats.one_card_per_round")
def test_plays_stay_hidden_until_both_are_in():
    rec = Rec()
    rec.add("play", 1, {"card": "prince"})
    assert GAME.actors(rec.state) == (0,)
    assert rec.ms.view(0)["table"][1] == {"seat": 1, "played": True, "face_up": False, "card": None}
    assert rec.ms.view(None)["table"][1]["card"] is None
    assert rec.ms.view(1)["table"][1]["card"] == "prince"
    assert rec.ms.view(REFEREE)["table"][1]["card"] == "prince"
    assert rec.describe_last() == "Bob (Blue) plays a card face down"
    assert "prince" not in dumps(rec.ms.view(0)["table"]) and rec.annotate_last() == []
    # Blue cannot play again, and no whole round may be entered now
    with pytest.raises(RuleViolation) as exc:
        rec.add("play", 1, {"card": "spy"})
    assert exc.value.rule == "core.turn"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "play", 1, {"card": "spy"})
    assert exc.value.rule == "braverats.one_card_per_round"
    with pytest.raises(RuleViolation) as exc:
        rec.round("spy", "spy")
    assert exc.value.rule == "core.turn"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "round", None, {"cards": ["spy", "spy"]})
    assert exc.value.rule == "braverats.one_card_per_round"
    rec.add("play", 0, {"card": "princess"})
    assert rec.ms.result.winners == (0,)
    assert rec.ms.view(None)["rounds"][0]["cards"] == ["princess", "prince"]


@pytest.mark.rule("braverats.spy_order")
@pytest.mark.rule("braverats.spy")
def test_spy_opponent_plays_first_face_up():
    rec = Rec()
    rec.add("play", 0, {"card": "spy"})
    rec.add("play", 1, {"card": "assassin"})  # Red's Spy wins (lowest) and works next round
    assert rec.state.spy_first == 1
    assert GAME.actors(rec.state) == (1, "table")
    assert rec.ms.view(None)["spy_first"] == 1
    with pytest.raises(RuleViolation) as exc:
        rec.add("play", 0, {"card": "prince"})
    assert exc.value.rule == "core.turn"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, "play", 0, {"card": "prince"})
    assert exc.value.rule == "braverats.spy_order"
    assert "Bob (Blue) plays first" in exc.value.message
    rec.add("play", 1, {"card": "wizard"})
    assert "Bob (Blue) plays the Wizard first, face up" in rec.describe_last()
    for viewer in (0, None, 1):
        assert rec.ms.view(viewer)["table"][1] == {"seat": 1, "played": True, "face_up": True, "card": "wizard"}
    assert GAME.actors(rec.state) == (0,)
    rec.add("play", 0, {"card": "prince"})  # the Wizard ignores the Prince: 7 vs 5, Red wins
    assert rec.state.score == (2, 0) and rec.state.spy_first is None


@pytest.mark.rule("braverats.spy")
def test_two_spies_cancel_each_other():
    rec = Rec()
    rec.round("spy", "spy")
    assert rec.state.spy_first is None and GAME.actors(rec.state) == (0, 1, "table")
    assert rec.state.held == 1


@pytest.mark.rule("braverats.spy")
def test_a_recorded_round_is_accepted_after_a_spy():
    rec = Rec()
    rec.round("prince", "spy")
    assert GAME.actors(rec.state) == (0, "table")
    rec.round("musician", "general")
    assert rec.state.held == 1


@pytest.mark.rule("braverats.general")
@pytest.mark.rule("braverats.wizard")
def test_wizard_in_the_round_after_the_general_does_not_stop_the_bonus():
    rec = Rec()
    rec.round("general", "princess")
    assert rec.state.bonus == (True, False)
    assert rec.ms.view(None)["general_bonus"] == [True, False]
    rec.round("ambassador", "wizard")  # 4 + 2 = 6 beats 5
    assert rec.state.score == (2, 0)
    ann = rec.annotate_last()[0]
    assert ann["winner"] == 0 and "general" in ann["powers"] and "wizard" in ann["powers"]


@pytest.mark.rule("braverats.house.wizard_cancels_general_bonus")
def test_general_against_wizard_gives_no_bonus_unless_house_rule_off():
    rec = Rec()
    rec.round("general", "wizard")  # 6 beats 5, but the Wizard cancels the General's +2
    assert rec.state.score == (1, 0) and rec.state.bonus == (False, False)
    rec = Rec({"wizard_cancels_general_bonus": False})
    rec.round("general", "wizard")
    assert rec.state.bonus == (True, False)


@pytest.mark.rule("braverats.house.musician_cancels_lasting_powers")
@pytest.mark.rule("braverats.musician")
def test_musician_cancels_spy_and_general_unless_house_rule_off():
    rec = Rec()
    rec.round("spy", "musician")
    assert rec.state.spy_first is None and rec.state.held == 1
    rec.round("general", "princess")  # the General's own +2 is still fine later
    rec.round("musician", "general")
    assert rec.state.bonus == (False, False)
    rec = Rec({"musician_cancels_lasting_powers": False})
    rec.round("spy", "musician")
    assert rec.state.spy_first == 1 and rec.state.held == 1
    rec = Rec({"musician_cancels_lasting_powers": False})
    rec.round("general", "musician")
    assert rec.state.bonus == (True, False) and rec.state.held == 1


@pytest.mark.rule("braverats.house.wizard_cancels_spy")
def test_spy_against_wizard_does_not_reveal_unless_house_rule_off():
    rec = Rec()
    rec.round("spy", "wizard")
    assert rec.state.spy_first is None
    rec = Rec({"wizard_cancels_spy": False})
    rec.round("spy", "wizard")
    assert rec.state.spy_first == 1 and GAME.actors(rec.state) == (1, "table")


# -- describe, annotate, views ---------------------------------------------------------

def test_describe_and_annotate_a_round():
    rec = Rec()
    rec.round("wizard", "wizard")
    rec.round("general", "spy")
    text = rec.describe_last()
    assert text.startswith("Round 2: Ann (Red) General vs Bob (Blue) Spy — ")
    assert "Ann wins 2 rounds (with 1 held)" in text
    assert "Ann +2 next round (General)" in text and "Ann plays first next round (Spy)" in text
    (ann,) = rec.annotate_last()
    assert ann["kind"] == "round" and str(ann["text"]) == text and ann["winner"] == 0
    assert ann["counts_as"] == 2 and ann["held_before"] == 1
    assert ann["carries"] == {"general_bonus": [0], "spy_reveal_first": 0, "held": 0}
    rec.round("musician", "prince")
    (ann,) = rec.annotate_last()
    assert ann["winner"] is None and ann["powers"] == ["musician"] and ann["carries"]["held"] == 1


def test_a_wrong_player_count_says_how_many_play():
    """Issue 9: "BraveRats is played by 2–2 players"."""
    with pytest.raises(InvalidOptions) as exc:
        M.make_setup("braverats", ["Ann", "Bob", "Cas"])
    assert exc.value.message == "BraveRats is played by 2 players, not 3"
    with pytest.raises(InvalidOptions) as exc:
        M.make_setup("troubadour", ["A", "B", "C", "D", "E"])
    assert exc.value.message == "Troubadour is played by 2–4 players, not 5"


def test_the_round_that_wins_the_game_says_so_in_the_note_and_the_view():
    """Issue 9: the worker's note on the round that brought Red to four said
    "wins_game": false; only a Princess catching the Prince said true."""
    rec = Rec()
    for red, blue in [("prince", "spy"), ("general", "assassin"), ("wizard", "princess"), ("spy", "ambassador")]:
        rec.round(red, blue)
        (note,) = rec.annotate_last()
        assert note["wins_game"] is False
    rec.round("ambassador", "general")  # Blue's 4th round: the game is over
    (note,) = rec.annotate_last()
    assert note["winner"] == 1 and note["wins_game"] is True
    rounds = rec.ms.view(None)["rounds"]
    assert [r["wins_game"] for r in rounds] == [False, False, False, False, True]
    # a round that ends the game in a draw wins nothing
    rec = Rec()
    for red, blue in [("musician", "musician")] * 1 + list(zip(CARDS[1:], CARDS[1:])):
        rec.round(red, blue)
    assert rec.ms.result.outcome == "draw"
    (note,) = rec.annotate_last()
    assert note["wins_game"] is False and not any(r["wins_game"] for r in rec.ms.view(None)["rounds"])


def test_reviews_and_results_name_the_players():
    rec = Rec()
    rec.round("prince", "spy")
    assert rec.describe_last().startswith("Round 1: Ann (Red) Prince vs Bob (Blue) Spy — ")
    assert rec.describe_last().endswith(": Ann wins the round; Ann plays first next round (Spy)")
    rec.add("play", 0, {"card": "ambassador"})
    assert rec.describe_last() == "Ann (Red) plays the Ambassador first, face up (Spy)"
    rec.add("play", 1, {"card": "general"})  # 4 vs 6
    assert "Bob wins the round; Bob +2 next round (General)" in rec.describe_last()
    rec.round("assassin", "wizard")  # the Wizard ignores the Assassin: 3 vs 5+2
    assert "(3 vs 7, Bob +2 from the General)" in rec.describe_last()
    rec.round("princess", "prince")
    assert str(rec.ms.result.reason) == "Ann (Red)'s Princess caught Bob (Blue)'s Prince in round 4"
    assert rec.ms.view(None)["game_over"]["reason"] == str(rec.ms.result.reason)


def test_view_shows_score_held_and_both_hands_in_the_base_game():
    rec = Rec()
    rec.round("prince", "spy")
    for viewer in (0, 1, None, REFEREE):
        v = rec.ms.view(viewer)
        assert v["score"] == [1, 0] and v["held"] == 0 and v["round"] == 2
        # the base game's hands are common knowledge: both start with the same 8 cards
        assert v["hands"][0]["cards"] == [c for c in CARDS if c != "prince"]
        assert v["hands"][1]["count"] == 7
    dumps(rec.ms.view(REFEREE))


def test_legal_moves_for_table_and_seats():
    rec = Rec()
    assert len(M.legal_moves(rec.ms, None)) == 64
    assert {m["data"]["card"] for m in M.legal_moves(rec.ms, 0)} == set(CARDS)
    rec.round("prince", "spy")
    assert M.legal_moves(rec.ms, 1) == []  # Blue's Spy: Red plays first
    assert len(M.legal_moves(rec.ms, 0)) == 7
    assert len(M.legal_moves(rec.ms, None)) == 49
    rec.add("play", 0, {"card": "spy"})
    assert M.legal_moves(rec.ms, None) == [] and len(M.legal_moves(rec.ms, 1)) == 7


# -- framework: undo, replay, snapshots ------------------------------------------------

def test_undo_replay_and_snapshot_round_trip():
    rec = Rec()
    rec.round("general", "assassin")
    rec.add("play", 1, {"card": "princess"})
    before = rec.state
    rec.add("play", 0, {"card": "prince"})
    rec.undo()
    assert rec.state == before
    rec.add("play", 0, {"card": "wizard"})
    replayed = rec.replayed()
    assert replayed.state == rec.state and replayed.seq == rec.ms.seq
    snap = json.loads(json.dumps(M.encode(rec.ms)))
    assert M.decode(rec.setup, snap).state == rec.state
    for _, _, _, _, after in rec.steps:
        assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(after)))) == after


def test_replay_refuses_a_non_canonical_log():
    rec = Rec()
    rec.round("spy", "prince")
    log = [dict(e) for e in rec.log]
    log[1] = {**log[1], "data": {"cards": ["spion", "prince"]}}
    with pytest.raises(MalformedEvent):
        M.replay(log)


def test_apply_never_mutates_its_input():
    state = GAME.setup(("a", "b"), {})
    snapshot = GAME.encode_state(state)
    GAME.apply(state, "round", None, {"cards": ["spy", "prince"]})
    GAME.apply(state, "play", 0, {"card": "spy"})
    assert GAME.encode_state(state) == snapshot
    with pytest.raises(Exception):
        state.score = (1, 1)


def test_options_are_validated():
    with pytest.raises(InvalidOptions):
        M.make_setup("braverats", ["a", "b"], {"variants": ["H"]})
    with pytest.raises(InvalidOptions):
        M.make_setup("braverats", ["a", "b"], {"colour": "red"})
    with pytest.raises(InvalidOptions):
        M.make_setup("braverats", ["a", "b", "c"])
    setup = M.make_setup("braverats", ["a", "b"])
    assert setup["options"] == {
        "variants": [],
        "princess_attack_seat": 0,
        "draft_first_seat": 0,
        "musician_cancels_lasting_powers": True,
        "wizard_cancels_general_bonus": True,
        "wizard_cancels_spy": True,
        "series_draw": "replay",
    }


def test_base_game_has_no_chance_node():
    rec = Rec()
    assert CHANCE not in GAME.actors(rec.state)
    assert GAME.chance_outcome(rec.state, __import__("random").Random(1)) is None
