"""Troubadour: the turn. Turning cards, the discard pile, castles, villages and
runs, face-down cards, the end of the turn and of the game."""

import pytest

from engine.core import CHANCE, RuleViolation
from engine.troubadour.cards import CARD_IDS
from engine.troubadour.state import OVER

from .test_troubadour_support import GAME, position


def others(*used: str) -> list[str]:
    """Every building card but ``used``, to fill a pile or village so that nothing is unseen."""
    return [c for c in CARD_IDS if c not in used]


def apply_rule(rec, type_, seat, data) -> str:
    """The rule the reducer itself names (bypassing the framework's actor check)."""
    with pytest.raises(RuleViolation) as err:
        GAME.apply(rec.state, type_, seat, data)
    return err.value.rule


# -- turning cards -----------------------------------------------------------------------

@pytest.mark.rule("troubadour.standard_turn_over")
def test_standard_turn_over_one_card_once_per_turn_and_optional():
    rec = position()
    rec.add("turn_over", 0, {})
    assert GAME.actors(rec.state) == (CHANCE,)
    rec.flip("7H")
    view = rec.view()["players"][0]
    assert view["discard_pile"] == {"count": 1, "top": "7H"} and view["draw_pile"] == 39
    assert GAME.actors(rec.state) == (0,)
    err = rec.reject("turn_over", 0, {}, rule="troubadour.standard_turn_over")
    assert "one standard turn-over per turn" in err.message
    rec.end(0)
    rec.end(1)  # ending a turn without the turn-over is allowed …
    assert rec.annotate_last()[0]["kind"] == "skipped_turn_over"  # … and noted


@pytest.mark.rule("troubadour.standard_turn_over")
def test_no_turn_over_without_cards():
    rec = position(villages=[[others()[:20], others()[20:], [], [], []], [[], [], [], [], []]])
    assert rec.state.players[0].ndraw == 0
    rec.reject("turn_over", 0, {}, rule="troubadour.standard_turn_over")


@pytest.mark.rule("troubadour.no_more_flips")
def test_no_more_cards_after_the_turn_over_even_with_an_empty_discard_pile():
    rec = position(castles=[{"H": 6}, {}])
    rec.add("turn_over", 0, {})
    rec.flip("7H")
    rec.build(0, "7H", "castle")
    assert rec.view()["players"][0]["discard_pile"]["count"] == 0
    rec.reject("flip", None, {"card": "8H"}, rule="core.chance")
    assert apply_rule(rec, "flip", None, {"card": "8H"}) == "troubadour.no_more_flips"
    rec.reject("turn_over", 0, {}, rule="troubadour.standard_turn_over")
    assert all(m.type != "turn_over" for m in GAME.legal_moves(rec.state, 0))


@pytest.mark.rule("troubadour.no_more_flips")
def test_nothing_else_while_cards_are_being_turned():
    rec = position(discard=[["9D"], []])
    rec.add("turn_over", 0, {})
    rec.reject("build", 0, {"card": "9D", "to": 1}, rule="core.turn")
    assert apply_rule(rec, "build", 0, {"card": "9D", "to": 1}) == "troubadour.no_more_flips"


def _recycle_position(**kw):
    # hearts: AH–3H on the castle, 4H 5H 6H 7H on the discard pile (7H on top), the rest in villages:
    # the draw pile is empty and every card is located.
    rest = others("AH", "2H", "3H", "4H", "5H", "6H", "7H")
    return position(
        castles=[{"H": 3}, {}],
        discard=[["4H", "5H", "6H", "7H"], []],
        villages=[[rest[:12], rest[12:24], rest[24:], [], []], [[], [], [], [], []]],
        **kw,
    )


@pytest.mark.rule("troubadour.recycle")
def test_empty_draw_pile_turns_the_discard_pile_over_unshuffled_and_its_order_is_checked():
    rec = _recycle_position()
    assert rec.state.players[0].ndraw == 0 and rec.state.players[0].pool == 0
    rec.add("turn_over", 0, {})
    err = rec.reject("flip", None, {"card": "7H"}, rule="troubadour.recycle")
    assert "next card of Ann's draw pile is ♥4" in err.message and "unshuffled" in err.message
    rec.flip("4H")
    assert "discard pile is turned over" in rec.describe_last()
    p = rec.view("referee")["players"][0]
    assert p["draw_pile"] == 3 and p["discard_pile"]["cards"] == ["4H"]
    assert p["draw_segments"] == [{"order": ["5H", "6H", "7H"]}]
    assert rec.view(0)["players"][0].get("draw_segments") is None  # nobody sees the order in the pile


@pytest.mark.rule("troubadour.recycle")
def test_the_discard_pile_waits_when_the_player_may_not_turn_a_card():
    rec = _recycle_position(std=True)
    rec.reject("turn_over", 0, {}, rule="troubadour.standard_turn_over")
    rec.end(0)
    rec.end(1)
    p = rec.view()["players"][0]
    assert p["draw_pile"] == 0 and p["discard_pile"] == {"count": 4, "top": "7H"}  # still lying there


@pytest.mark.rule("troubadour.recycle")
def test_a_shuffled_discard_pile_is_recorded_as_a_discrepancy_and_the_order_is_forgotten():
    rec = _recycle_position()
    rec.add("turn_over", 0, {})
    rec.reject("flip", None, {"card": "6H"}, rule="troubadour.recycle")
    rec.add("shuffled", 0, {})
    notes = rec.annotate_last()
    assert notes[0]["kind"] == "discrepancy" and "shuffled" in str(notes[0]["text"])
    rec.flip("6H")  # any of the four now
    rec.reject("shuffled", 0, {}, rule="core.chance")
    sim = position()
    sim.add("turn_over", 0, {})
    err = sim.reject("shuffled", 0, {}, rule="troubadour.recycle")
    assert "knows nothing of the order" in err.message


# -- the discard pile and where cards come from ---------------------------------------------

@pytest.mark.rule("troubadour.discard_top")
def test_only_the_top_of_the_discard_pile_then_the_next():
    rec = position(castles=[{"S": 4}, {}], discard=[["5S", "9D"], []], villages=[[["10C"], [], [], [], []], [[], [], [], [], []]])
    err = rec.reject("build", 0, {"card": "5S", "to": "castle"}, rule="troubadour.discard_top")
    assert "under 1 card" in err.message
    rec.build(0, "9D", 1)
    rec.build(0, "5S", "castle")
    assert rec.view()["players"][0]["castles"]["S"] == "5S"


@pytest.mark.rule("troubadour.sources")
def test_cards_come_only_from_the_top_of_the_discard_pile_or_a_village():
    rec = position(castles=[{"S": 4}, {}], villages=[[["10H", "5S", "8D"], [], [], [], []], [[], [], [], [], []]])
    err = rec.reject("build", 0, {"card": "7C", "to": 2}, rule="troubadour.sources")
    assert "still unseen" in err.message
    err = rec.reject("build", 0, {"card": "5S", "to": "castle"}, rule="troubadour.sources")
    assert "only the top card of a village goes to a castle" in err.message


# -- castles -----------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.castle_start")
def test_a_castle_starts_with_an_ace():
    rec = position(discard=[["2S", "AS"], []])
    rec.build(0, "AS", "castle")
    assert "start the spades castle" in rec.describe_last()
    rec.build(0, "2S", "castle")
    rec2 = position(discard=[["2D"], []])
    err = rec2.reject("build", 0, {"card": "2D", "to": "castle"}, rule="troubadour.castle_start")
    assert "starts with an ace" in err.message


@pytest.mark.rule("troubadour.castle_suit")
def test_castles_by_suit_ace_to_ten_complete_at_the_ten():
    rec = position(castles=[{"S": 1, "H": 9}, {}], discard=[["2S", "10H", "3S", "2H"], []])
    err = rec.reject("build", 0, {"card": "2H", "to": "castle"}, rule="troubadour.castle_suit")
    assert "stands at ♥9" in err.message
    rec.build(0, "2H", 1)  # onto an empty village instead
    rec.reject("build", 0, {"card": "3S", "to": "castle"}, rule="troubadour.castle_suit")
    rec.build(0, "3S", 2)
    rec.build(0, "10H", "castle")
    assert "hearts castle is complete" in rec.describe_last()
    assert rec.view()["players"][0]["complete_castles"] == 1
    rec.build(0, "2S", "castle")
    rec.build(0, "3S", "castle")


@pytest.mark.rule("troubadour.castle_final")
def test_castle_cards_never_leave_the_castle():
    rec = position(castles=[{"S": 3}, {}])
    err = rec.reject("build", 0, {"card": "3S", "to": 1}, rule="troubadour.castle_final")
    assert "on the spades castle" in err.message


# -- villages ------------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.village_build")
def test_village_takes_one_lower_of_the_opposite_colour_from_discard_or_another_village():
    rec = position(
        discard=[["6H", "7S", "7H"], []],
        villages=[[["8S"], ["5C"], [], [], []], [[], [], [], [], []]],
    )
    rec.build(0, "7H", 1)  # red on black, one lower
    err = rec.reject("build", 0, {"card": "7S", "to": 1}, rule="troubadour.village_build")
    assert "does not fit on ♥7" in err.message
    rec.reject("build", 0, {"card": "7S", "to": 2}, rule="troubadour.village_build")
    rec.build(0, "7S", 3)
    rec.build(0, "6H", 3)
    rec.reject("build", 0, {"card": "5C", "to": 2}, rule="troubadour.village_build")  # its own village
    rec.build(0, "5C", 3)  # from the top of another village
    v = rec.view()["players"][0]["villages"]
    assert v[:3] == [["8S", "7H"], [], ["7S", "6H", "5C"]]


@pytest.mark.rule("troubadour.empty_village")
def test_any_card_on_an_empty_village_and_always_five_villages():
    rec = position(discard=[["3D"], []], villages=[[["9C", "8H"], [], [], [], []], [[], [], [], [], []]])
    rec.build(0, "3D", 4)
    rec.build(0, "8H", 5)
    rec.build(0, "9C", 2)
    view = rec.view()["players"][0]
    assert view["villages"] == [[], ["9C"], [], ["3D"], ["8H"]]


@pytest.mark.rule("troubadour.run_move")
def test_runs_and_top_parts_of_runs_move_as_one_card():
    rec = position(villages=[[["3D", "10S", "9H", "8S", "7H"], ["10C"], ["10H", "9S", "8C"], [], ["9D"]],
                             [[], [], [], [], []]])
    rec.build(0, "9H", 2)  # the part 9H 8S 7H of the run 10S 9H 8S 7H onto 10C
    v = rec.view()["players"][0]["villages"]
    assert v[0] == ["3D", "10S"] and v[1] == ["10C", "9H", "8S", "7H"]
    assert "the run ♥9–♠8–♥7" in rec.describe_last()
    err = rec.reject("build", 0, {"card": "9S", "to": 4}, rule="troubadour.run_move")  # 9S on 10H is not a run
    assert "not the top of a run" in err.message
    rec.build(0, "8C", 5)  # a single top card onto 9D
    rec.reject("build", 0, {"card": "9H", "to": 3}, rule="troubadour.run_move")  # 9H on 9S does not fit
    rec.build(0, "9H", 4)  # a run onto an empty village
    assert rec.view()["players"][0]["villages"][3] == ["9H", "8S", "7H"]


# -- face-down cards ------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.face_down_turned")
def test_a_face_down_card_that_becomes_the_top_may_be_turned_up_by_its_owner_in_his_turn():
    """Chapter 5: "Een bouwkaart in een dorp met de voorkant omlaag mag omgedraaid worden als deze kaart
    de bovenste kaart van een dorp wordt." It *may* be turned once it is the top card: its owner turns it
    (turn_top, then the turn_up with the card) in his own turn, at the moment he chooses, or leaves it.
    Until then it lies face down, unknown, and nothing is built on it."""
    rec = position(castles=[{"H": 4}, {}], villages=[[["?", "?", "5H"], ["6S"], [], [], []], [["?", "?", "9S"], [], [], [], []]])
    rec.build(0, "5H", "castle")
    # not turned at once: Ann acts on, and the card is unknown to every view
    assert GAME.actors(rec.state) == (0,) and rec.view()["due"] == []
    for viewer in (0, 1, None):
        assert rec.view(viewer)["players"][0]["villages"][0] == [None, None]
    err = rec.reject("build", 0, {"card": "6S", "to": 1}, rule="troubadour.village_build")
    assert "face down" in err.message and "until its owner turns it up" in err.message
    rec.reject("turn_top", 0, {"village": 2}, rule="troubadour.face_down_turned")  # 6S lies face up on top
    rec.reject("turn_top", 0, {"village": 3}, rule="troubadour.face_down_turned")  # empty
    rec.reject("turn_top", 1, {"village": 1}, rule="core.turn")  # only in one's own turn
    assert ("turn_top", {"village": 1}) in GAME.turn_moves(rec.state, 0)
    rec.add("turn_top", 0, {"village": 1})
    assert rec.describe_last() == "Ann turns up the face-down top card of village 1"
    assert GAME.actors(rec.state) == (CHANCE,) and rec.view()["due"] == [{"seat": 0, "village": 1, "slot": 2}]
    rec.reject("end_turn", 0, {}, rule="core.turn")
    rec.reject("turn_up", 0, {"village": 2, "card": "9C"}, rule="troubadour.face_down_turned")
    err = rec.reject("turn_up", 0, {"village": 1, "card": "3H"}, rule="troubadour.unseen_card")
    assert "on the hearts castle" in err.message
    rec.add("turn_up", None, {"village": 1, "card": "9C"})
    assert rec.view()["players"][0]["villages"][0] == [None, "9C"]
    assert GAME.actors(rec.state) == (0,)
    rec.reject("turn_top", 0, {"village": 1}, rule="troubadour.face_down_turned")  # 9C is face up now
    # leaving it is allowed: a face-down top can stay down through the end of the turn and the round
    rec2 = position(villages=[[["?", "?"], [], [], [], []], [[], [], [], [], []]])
    rec2.end(0)
    rec2.end(1)
    assert rec2.view()["players"][0]["villages"][0] == [None, None]


@pytest.mark.rule("troubadour.unseen_card")
def test_a_card_turned_up_must_be_unseen_not_visible_elsewhere():
    rec = position(villages=[[["8S"], [], [], [], []], [[], [], [], [], []]], discard=[["2C", "3C"], []])
    rec.add("turn_over", 0, {})
    for card, where in [("8S", "face up in village 1"), ("2C", "in the discard pile, under 1 card"), ("3C", "the top card of the discard pile")]:
        err = rec.reject("flip", None, {"card": card}, rule="troubadour.unseen_card")
        assert where in err.message and "cannot come from" in err.message
    err = rec.reject("flip", None, {"card": "KH"}, rule="troubadour.unseen_card")
    assert "noble" in err.message
    rec.flip("8C")


# -- the end of the turn and of the game -------------------------------------------------------------

@pytest.mark.rule("troubadour.end_turn")
def test_the_player_declares_the_end_and_then_can_do_nothing_more():
    rec = position(discard=[["9D"], []])
    rec.add("turn_over", 0, {})
    rec.flip("AS")
    assert GAME.actors(rec.state) == (0,)  # nothing ends the turn but the player
    rec.end(0)
    notes = rec.annotate_last()
    assert notes[0]["kind"] == "missed_build" and notes[0]["cards"] == ["AS"]
    rec.reject("build", 0, {"card": "AS", "to": "castle"}, rule="core.turn")
    assert apply_rule(rec, "build", 0, {"card": "AS", "to": "castle"}) == "troubadour.own_turn"
    assert rec.state.current == 1


@pytest.mark.rule("troubadour.own_turn")
def test_only_the_player_in_turn_acts_and_only_on_his_own_cards():
    rec = position(villages=[[[], [], [], [], []], [["AS"], [], [], [], []]])
    rec.reject("build", 1, {"card": "AS", "to": "castle"}, rule="core.turn")
    assert apply_rule(rec, "build", 1, {"card": "AS", "to": "castle"}) == "troubadour.own_turn"
    err = rec.reject("build", 0, {"card": "AS", "to": "castle"}, rule="troubadour.sources")
    assert "still unseen" in err.message  # Ann's own ace of spades; Bob's is not hers to take


@pytest.mark.rule("troubadour.win")
def test_the_game_ends_the_moment_the_fourth_castle_is_complete():
    rec = position(castles=[{"S": 10, "D": 10, "C": 10, "H": 8}, {"S": 4}], discard=[["10H", "9H"], []])
    rec.build(0, "9H", "castle")
    assert rec.ms.result is None
    rec.build(0, "10H", "castle")
    res = rec.ms.result
    assert res.outcome == "win" and res.winners == (0,) and res.scores == (40, 4)
    assert rec.state.phase == OVER and GAME.actors(rec.state) == ()
    assert "wins" in rec.describe_last()
    rec.reject("end_turn", 0, {}, rule="core.finished")
    assert GAME.legal_moves(rec.state, 0) == []
