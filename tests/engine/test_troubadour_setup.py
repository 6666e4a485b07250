"""Troubadour: registration, the catalogue, set-up, rounds, the secret choice of
nobles and who plays first (the three examples of the rules text and both
exact-tie procedures)."""

import json
from pathlib import Path

import pytest

from engine import match as M
from engine.core import CHANCE, InvalidOptions, MalformedEvent, RuleViolation
from engine.troubadour.cards import CARD_IDS, NOBLE_IDS, NOBLE_INDEX, parse_any
from engine.troubadour.state import CHOOSE, DEAL, PLAY, TIE

from .test_troubadour_support import GAME, Rec, started


# -- registration and catalogue ---------------------------------------------------------

def test_registered_with_the_fixed_contract():
    assert (GAME.id, GAME.name, GAME.version, GAME.min_players, GAME.max_players) == ("troubadour", "Troubadour", "2", 2, 4)
    assert GAME.summary and "\n" not in GAME.summary
    assert GAME.aliases["schoppen boer"] == "JS" and GAME.aliases["harten vrouw+heer"] == "QKH"
    assert GAME.aliases["standaardkaartdraai"] == "turn_over"
    for name, et in GAME.event_types.items():
        assert et.name == name and et.actor in ("seat", "table", CHANCE) and et.description


def test_every_rule_id_is_covered_by_a_marked_test(rules_covered, request):
    here = Path(__file__).parent
    files = {p.name for p in here.glob("test_troubadour_*.py")} - {"test_troubadour_support.py"}
    collected = {Path(str(item.fspath)).name for item in request.session.items}
    if not files <= collected:
        pytest.skip("run with all test_troubadour_*.py files to check the rule coverage")
    mine = {r for r in rules_covered if r.startswith("troubadour.")}
    assert set(GAME.rules) - mine == set(), "rules without a marked test"
    assert mine - set(GAME.rules) == set(), "a marker names a rule id that does not exist"


def test_rule_texts_name_the_dutch_term():
    for rule, text in GAME.rules.items():
        assert rule.startswith("troubadour.") and "(" in text and text.endswith("]."), rule
    assert M.rule_text("troubadour.tie_die").startswith("Exactly the same trios")


@pytest.mark.parametrize(
    "given,canonical",
    [("7H", "7H"), ("7h", "7H"), ("7♥", "7H"), ("harten 7", "7H"), ("harten zeven", "7H"), ("seven of hearts", "7H"),
     ("10s", "10S"), ("T♠", "10S"), ("schoppen tien", "10S"), ("AD", "AD"), ("ruiten aas", "AD"), ("1d", "AD"),
     ("klaveren 3", "3C"), ("schoppen boer", "JS"), ("J♠", "JS"), ("jack of spades", "JS"), ("harten heer", "KH"),
     ("ruiten vrouw", "QD"), ("KC", "KC")],
)
def test_card_names_normalize_to_canonical_ids(given, canonical):
    kind, x = parse_any(given, "card")
    assert (CARD_IDS[x] if kind == "card" else NOBLE_IDS[x]) == canonical


@pytest.mark.parametrize("bad", ["11H", "joker", "0S", "", "7X", 7])
def test_unknown_card_names_are_malformed(bad):
    rec = Rec()
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "deal", 0, {"face_up": [bad, "2S", "3S", "4S", "5S"]})


# -- players and set-up -------------------------------------------------------------------

@pytest.mark.rule("troubadour.players")
def test_two_to_four_players_each_with_a_deck_of_his_own():
    for n in (2, 3, 4):
        assert M.make_setup("troubadour", ["A", "B", "C", "D"][:n])["players"]
    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            M.make_setup("troubadour", ["A", "B", "C", "D", "E"][:n])
    rec = Rec(3)
    # the same card may lie in every player's villages: each has his own deck
    rec.deal(["AS", "2S", "3S", "4S", "5S"], ["AS", "2S", "3S", "4S", "5S"], ["AS", "2S", "3S", "4S", "5S"])
    assert rec.state.phase == CHOOSE


@pytest.mark.rule("troubadour.setup")
def test_setup_deals_five_villages_two_down_one_up_and_leaves_25_in_the_draw_pile():
    rec = Rec()
    assert rec.state.phase == DEAL and GAME.actors(rec.state) == (CHANCE,)
    rec.add("deal", None, {"face_up": ["AS", "2H", "3C", "4D", "5S"]})  # seat null: the next player
    view = rec.view()
    assert view["players"][0]["villages"] == [[None, None, "AS"], [None, None, "2H"], [None, None, "3C"],
                                            [None, None, "4D"], [None, None, "5S"]]
    assert view["players"][0]["draw_pile"] == 25 and view["players"][0]["unseen"] == 35
    rec.reject("deal", 0, {"face_up": ["6S", "7S", "8S", "9S", "10S"]}, rule="troubadour.setup")
    rec.add("deal", 1, {"face_up": ["6S", "7S", "8S", "9S", "10S"]})
    assert rec.state.phase == CHOOSE and rec.state.round == 1
    # twelve nobles per player: every trio of them can be chosen
    assert len(GAME.legal_moves(rec.state, 0)) == 220
    rec.reject("deal", 0, {"face_up": ["6S", "7S", "8S", "9S", "10S"]}, rule="core.chance")
    with pytest.raises(RuleViolation) as err:
        GAME.apply(rec.state, "deal", 0, {"face_up": ["6S", "7S", "8S", "9S", "10S"]})
    assert err.value.rule == "troubadour.setup"


@pytest.mark.rule("troubadour.setup")
@pytest.mark.rule("troubadour.unseen_card")
def test_deal_refuses_a_noble_or_a_card_twice():
    rec = Rec()
    err = rec.reject("deal", 0, {"face_up": ["AS", "QH", "3C", "4D", "5S"]}, rule="troubadour.unseen_card")
    assert "the queen of hearts is a noble" in err.message
    err = rec.reject("deal", 0, {"face_up": ["AS", "AS", "3C", "4D", "5S"]}, rule="troubadour.unseen_card")
    assert "appears twice" in err.message


# -- rounds and the choice of nobles ---------------------------------------------------------

@pytest.mark.rule("troubadour.rounds")
def test_every_player_has_one_turn_per_round_then_all_choose_again_from_all_twelve():
    rec = started()
    rec.reveal(["JS", "QS", "KS"], ["JH", "QH", "KH"])
    assert rec.state.phase == PLAY and rec.state.current == 0
    rec.end(0)
    assert rec.state.current == 1
    rec.end(1)
    assert rec.state.phase == CHOOSE and rec.state.round == 2
    # the same trio again is fine: every round chooses from all twelve
    rec.reveal(["JS", "QS", "KS"], ["JH", "QH", "KH"])
    assert rec.state.round == 2 and rec.state.phase == PLAY


@pytest.mark.rule("troubadour.choose")
def test_three_different_nobles_of_ones_own_twelve():
    rec = started()
    rec.reject("choose", 0, {"nobles": ["JS", "JS", "QS"]}, rule="troubadour.choose")
    err = rec.reject("choose", 0, {"nobles": ["JS", "7H", "QS"]}, rule="troubadour.choose")
    assert "building card" in err.message
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "choose", 0, {"nobles": ["JS", "QS"]})
    data = rec.add("choose", 0, {"nobles": ["harten heer", "schoppen boer", "KD"]})
    assert data == {"nobles": ["JS", "KD", "KH"], "reveal": 0}  # canonical: by rank, with the reveal it belongs to


@pytest.mark.rule("troubadour.secret_choice")
def test_choices_are_secret_until_everyone_has_chosen_then_revealed_together():
    rec = started()
    assert set(GAME.actors(rec.state)) == {0, 1, "table"}
    rec.add("choose", 1, {"nobles": ["JD", "QD", "KD"]})
    assert GAME.actors(rec.state) == (0,)
    assert rec.view(0)["players"][1]["nobles"] is None and rec.view(0)["players"][1]["chosen"] is True
    assert rec.view(None)["players"][1]["nobles"] is None
    assert rec.view(1)["players"][1]["nobles"] == ["JD", "QD", "KD"]
    assert "JD" not in json.dumps(rec.view(0)) and "JD" not in rec.describe_last()
    rec.reject("choose", 1, {"nobles": ["JS", "QS", "KS"]}, rule="core.turn")
    with pytest.raises(RuleViolation) as err:
        GAME.apply(rec.state, "choose", 1, {"nobles": ["JS", "QS", "KS"], "reveal": 0})
    assert err.value.rule == "troubadour.secret_choice"
    with pytest.raises(Exception):  # the table is no longer an actor once a seat chose in secret
        rec.add("reveal", None, {"nobles": [["JS", "QS", "KS"], ["JD", "QD", "KD"]]})
    # the event of seat 1 is hidden from seat 0 and the public in the log, not from seat 1
    ev = rec.log[-1]
    assert M.event_view(rec.ms, ev, 0)["data"]["nobles"] is None and M.event_view(rec.ms, ev, 0)["redacted"]
    assert M.event_view(rec.ms, ev, None)["data"]["nobles"] is None
    assert M.event_view(rec.ms, ev, 1) == ev
    rec.add("choose", 0, {"nobles": ["JC", "QC", "KC"]})
    assert rec.state.phase == PLAY
    assert rec.view(0)["players"][1]["nobles"] == ["JD", "QD", "KD"]
    assert M.event_view(rec.ms, ev, 0) == ev  # revealed now


@pytest.mark.rule("troubadour.secret_choice")
def test_a_choice_for_another_reveal_is_refused():
    rec = started()
    rec.reject("choose", 0, {"nobles": ["JD", "QD", "KD"], "reveal": 3}, rule="troubadour.secret_choice")


# -- who plays first ---------------------------------------------------------------------------

@pytest.mark.rule("troubadour.noble_order")
def test_noble_ranking_suit_first_then_jack_queen_king():
    order = ["JS", "QS", "KS", "JD", "QD", "KD", "JC", "QC", "KC", "JH", "QH", "KH"]
    assert sorted(order, key=NOBLE_INDEX.__getitem__) == order
    assert NOBLE_INDEX["JC"] > NOBLE_INDEX["KD"]  # clubs jack ranks above the diamonds king
    rec = started()
    rec.reveal(["KD", "KC", "KH"], ["JC", "QC", "QH"])  # lowest: KD against JC
    assert rec.state.current == 0


@pytest.mark.rule("troubadour.first_player")
@pytest.mark.parametrize(
    "a,b,first",
    [
        # the three examples of chapter 7
        (["JS", "JC", "QC"], ["QS", "JD", "QD"], 0),  # schoppen boer is lower than schoppen vrouw
        (["QS", "JC", "KC"], ["QS", "QD", "QH"], 1),  # same lowest; ruiten vrouw below klaver boer
        (["JD", "QD", "QH"], ["JD", "QD", "KC"], 1),  # two the same; klaver heer below harten vrouw
    ],
)
def test_first_player_examples_from_the_rules_text(a, b, first):
    rec = started()
    rec.reveal(a, b)
    assert rec.state.current == first
    assert [slot[0] for slot in rec.state.order] == [first, 1 - first]
    assert f"turn order {('Ann', 'Bob')[first]}" in rec.describe_last()


@pytest.mark.rule("troubadour.turn_order")
def test_three_and_four_players_play_in_the_order_of_their_trios():
    rec = started(4)
    rec.reveal(["JH", "QH", "KH"], ["JS", "KC", "KH"], ["JD", "QH", "KH"], ["QS", "JC", "QC"])
    assert [slot[0] for slot in rec.state.order] == [1, 3, 2, 0]
    for seat in (1, 3, 2, 0):
        assert rec.state.current == seat
        rec.end(seat)
    assert rec.state.phase == CHOOSE


@pytest.mark.rule("troubadour.turn_order")
def test_clockwise_option_the_lowest_starts_then_clockwise():
    rec = started(4, {"turn_order": "clockwise"})
    rec.reveal(["JH", "QH", "KH"], ["JS", "KC", "KH"], ["JD", "QH", "KH"], ["QS", "JC", "QC"])
    assert [slot[0] for slot in rec.state.order] == [1, 2, 3, 0]


@pytest.mark.rule("troubadour.tie_die")
def test_exactly_equal_trios_roll_a_die_lowest_starts_equal_rolls_again():
    rec = started()
    rec.reveal(["JS", "QD", "KH"], ["KH", "QD", "JS"])
    assert rec.state.phase == TIE and GAME.actors(rec.state) == (CHANCE,)
    assert "exactly the same trio" in rec.describe_last()
    rec.reject("die", None, {"rolls": [3, None]}, rule="troubadour.tie_die")
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "die", None, {"rolls": [7, 2]})
    rec.add("die", None, {"rolls": [4, 4]})  # equal: roll again
    assert rec.state.phase == TIE
    rec.add("die", None, {"rolls": [5, 2]})
    assert rec.state.phase == PLAY and rec.state.current == 1


@pytest.mark.rule("troubadour.tie_die")
def test_three_tied_players_are_ordered_by_their_rolls():
    rec = started(3)
    rec.reveal(["JS", "QS", "KS"], ["JS", "QS", "KS"], ["JS", "QS", "KS"])
    rec.add("die", None, {"rolls": [6, 1, 6]})
    assert rec.state.phase == TIE and rec.state.order == ((1,), (0, 2))
    rec.reject("die", None, {"rolls": [2, 3, 1]}, rule="troubadour.tie_die")  # seat 1 is no longer tied
    rec.add("die", None, {"rolls": [2, None, 1]})
    assert [s[0] for s in rec.state.order] == [1, 2, 0]


@pytest.mark.rule("troubadour.tie_die")
def test_a_simulated_match_rolls_the_die_itself():
    rec = Rec(2, mode="simulated", seed=3)
    rec.add("choose", 0, {"nobles": ["JD", "QD", "KD"]})
    rec.add("choose", 1, {"nobles": ["JD", "QD", "KD"]})
    assert rec.state.phase == PLAY
    assert any(step[1] == "die" for step in rec.steps)


@pytest.mark.rule("troubadour.tie_nobles")
def test_counter_pick_queen_beats_jack_king_beats_queen_jack_beats_king_loser_starts():
    cases = [("QC", "JD", 1), ("KD", "QH", 1), ("JH", "KC", 1), ("JD", "QD", 0), ("QC", "KH", 0), ("KC", "JC", 0)]
    for a, b, first in cases:
        rec = started(options={"tie_break": "nobles"})
        rec.reveal(["JS", "QS", "KS"], ["JS", "QS", "KS"])
        assert rec.state.phase == TIE and set(GAME.actors(rec.state)) == {0, 1, "table"}
        rec.add("counter_reveal", None, {"nobles": [a, b]})
        assert rec.state.phase == PLAY and rec.state.current == first, (a, b)


@pytest.mark.rule("troubadour.tie_nobles")
def test_counter_pick_from_the_nine_outside_the_trio_in_secret_and_again_on_a_tie():
    rec = started(options={"tie_break": "nobles"})
    rec.reveal(["JS", "QD", "KH"], ["JS", "QD", "KH"])
    rec.reject("counter_pick", 0, {"noble": "QD"}, rule="troubadour.tie_nobles")
    rec.reject("counter_pick", 0, {"noble": "7H"}, rule="troubadour.tie_nobles")
    assert len(GAME.legal_moves(rec.state, 0)) == 9
    rec.add("counter_pick", 0, {"noble": "QS"})
    assert rec.view(1)["tie"]["picks"] == {} and rec.view(0)["tie"]["picks"] == {"0": "QS"}
    assert M.event_view(rec.ms, rec.log[-1], 1)["data"]["noble"] is None
    rec.add("counter_pick", 1, {"noble": "QC"})  # equal ranks: pick again
    assert rec.state.phase == TIE and "pick again" in rec.describe_last()
    assert M.event_view(rec.ms, rec.log[-1], 0) == rec.log[-1]  # revealed
    rec.add("counter_pick", 0, {"noble": "JC"})
    rec.add("counter_pick", 1, {"noble": "KS"})  # jack beats king: seat 1 is beaten and starts
    assert rec.state.phase == PLAY and rec.state.current == 1


@pytest.mark.rule("troubadour.tie_nobles")
def test_counter_pick_with_all_three_ranks_picks_again():
    rec = started(3, options={"tie_break": "nobles"})
    rec.reveal(["JS", "QS", "KS"], ["JS", "QS", "KS"], ["JS", "QS", "KS"])
    rec.add("counter_reveal", None, {"nobles": ["JD", "QD", "KD"]})
    assert rec.state.phase == TIE
    rec.add("counter_reveal", None, {"nobles": ["JD", "QD", "QH"]})  # the jack is beaten: seat 0 first
    assert rec.state.order == ((0,), (1, 2))
    rec.add("counter_reveal", None, {"nobles": [None, "KD", "JH"]})  # jack beats king: seat 1 beaten
    assert [s[0] for s in rec.state.order] == [0, 1, 2]
