"""Troubadour: the nobles. Spades attack, diamonds protect, clubs turn extra
cards, hearts build from hiding; each once per turn, only when chosen."""

import pytest

from engine import match as M
from engine.core import CHANCE, MalformedEvent
from engine.troubadour.cards import CARD_IDS

from .test_troubadour_support import GAME, position

EMPTY = [[], [], [], [], []]


def others(*used: str) -> list[str]:
    return [c for c in CARD_IDS if c not in used]


def attack_position(players=2, target_villages=None, target_castles=None, trios=None, **kw):
    villages = [EMPTY] + [target_villages or [["?", "?", "5H", "4S"], ["9C", "8D"], [], ["2S"], ["?", "?", "6C"]]] * (players - 1)
    castles = [{}] + [target_castles or {"H": 4}] * (players - 1)
    trios = trios or [["JS", "QS", "KS"]] + [["JC", "QC", "KC"]] * (players - 1)
    return position(players=players, villages=villages, castles=castles, trios=trios, **kw)


def segments(rec, seat):
    return rec.view("referee")["players"][seat]["draw_segments"]


# -- spades ----------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.spades_jack")
def test_spades_jack_takes_a_whole_village_under_the_opponents_draw_pile():
    rec = attack_position()
    before = rec.state.players[1].ndraw
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    p = rec.view()["players"][1]
    assert p["villages"][0] == [] and p["draw_pile"] == before + 4
    assert segments(rec, 1)[-1] == {"set": ["4S", "5H"], "unknown": 2}
    note = rec.annotate_last()[0]
    assert note["kind"] == "cards_lost" and note["cards"] == ["4S", "5H"] and note["face_down"] == 2
    assert "2 face-down cards" in rec.describe_last()
    err = rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 3})
    assert err.rule in ("troubadour.once_per_turn", "troubadour.spades_jack")


@pytest.mark.rule("troubadour.spades_jack")
def test_spades_jack_needs_a_village_with_cards():
    rec = attack_position()
    err = rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 3}, rule="troubadour.spades_jack")
    assert "empty" in err.message
    with pytest.raises(MalformedEvent):
        M.normalize_event(rec.ms, "attack", 0, {"power": "JS", "target": 1})


@pytest.mark.rule("troubadour.spades_queen")
def test_spades_queen_takes_the_top_card_of_every_village():
    rec = attack_position()
    rec.add("attack", 0, {"power": "QS", "target": 1})
    v = rec.view()["players"][1]["villages"]
    assert v == [[None, None, "5H"], ["9C"], [], [], [None, None]]
    assert segments(rec, 1)[-1] == {"set": ["2S", "4S", "8D", "6C"], "unknown": 0}
    # village 5 now shows a face-down card on top: Bob turns it up before anything else
    assert GAME.actors(rec.state) == (CHANCE,)
    err = rec.reject("turn_up", 1, {"village": 5, "card": "6C"}, rule="troubadour.unseen_card")
    assert "attack put under it" in err.message
    rec.add("turn_up", 1, {"village": 5, "card": "7D"})
    assert GAME.actors(rec.state) == (0,)


@pytest.mark.rule("troubadour.spades_trio")
def test_spades_jack_queen_king_take_a_castle_and_the_king_alone_has_no_power():
    rec = attack_position()
    rec.add("attack", 0, {"power": "JQKS", "target": 1, "castle": "harten"})
    p = rec.view()["players"][1]
    assert p["castles"]["H"] is None and p["castle_cards"] == 0
    assert segments(rec, 1)[-1] == {"set": ["AH", "2H", "3H", "4H"], "unknown": 0}
    for bad in ("KS", "schoppen heer"):
        with pytest.raises(MalformedEvent):
            M.normalize_event(rec.ms, "attack", 0, {"power": bad, "target": 1})
    rec2 = attack_position()
    err = rec2.reject("attack", 0, {"power": "JQKS", "target": 1, "castle": "S"}, rule="troubadour.spades_trio")
    assert "no spades castle" in err.message


@pytest.mark.rule("troubadour.spades_either_or")
def test_spades_jack_or_queen_alone_excludes_the_trio_and_the_trio_excludes_them():
    rec = attack_position()
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 2})
    err = rec.reject("attack", 0, {"power": "JQKS", "target": 1, "castle": "H"}, rule="troubadour.spades_either_or")
    assert "already used alone" in err.message
    rec.add("attack", 0, {"power": "QS", "target": 1})  # the queen alone is still free
    rec2 = attack_position()
    rec2.add("attack", 0, {"power": "JQKS", "target": 1, "castle": "H"})
    rec2.reject("attack", 0, {"power": "QS", "target": 1}, rule="troubadour.spades_either_or")
    rec2.reject("attack", 0, {"power": "JS", "target": 1, "village": 1}, rule="troubadour.spades_either_or")


@pytest.mark.rule("troubadour.attack_one_opponent")
def test_each_attack_aims_at_one_opponent_jack_and_queen_at_different_ones():
    rec = attack_position(players=3)
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    rec.add("attack", 0, {"power": "QS", "target": 2})
    assert rec.view()["players"][1]["villages"][0] == [] and rec.view()["players"][2]["villages"][1] == ["9C"]
    rec2 = attack_position(players=3)
    rec2.reject("attack", 0, {"power": "JS", "target": 0, "village": 1}, rule="troubadour.attack_one_opponent")


@pytest.mark.rule("troubadour.attack_under_pile")
def test_attacked_cards_come_up_only_after_the_cards_above_them_known_as_a_set():
    rec = attack_position()
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    rec.end(0)
    # Bob's turn: his draw pile still has its unknown cards on top of the attacked ones
    rec.add("turn_over", 1, {})
    err = rec.reject("flip", None, {"card": "5H"}, rule="troubadour.unseen_card")
    assert "among the cards an attack put under it" in err.message
    rec.flip("7D")
    # a pile that is only the attacked set: the next card must be one of them
    rec2 = position(draw=[["rest"], [("set", ["4S", "5H"], 0)]], current=1,
                    villages=[EMPTY, [others("4S", "5H")[:38], [], [], [], []]])
    rec2.add("turn_over", 1, {})
    err = rec2.reject("flip", None, {"card": "7H"}, rule="troubadour.attack_under_pile")
    assert "(4S, 5H)" in err.message
    rec2.flip("5H")


# -- diamonds --------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.diamonds_jack")
def test_diamonds_jack_stops_the_spades_jack_and_the_noble_is_spent():
    rec = attack_position(trios=[["JS", "QS", "KS"], ["JD", "QC", "KC"]])
    before = rec.state.players[1]
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    assert rec.state.players[1] == before
    note = rec.annotate_last()[0]
    assert note["kind"] == "attack_stopped" and note["protected_by"] == "JD"
    assert "stopped by the jack of diamonds" in rec.describe_last()
    rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 2}, rule="troubadour.once_per_turn")
    rec.add("attack", 0, {"power": "QS", "target": 1})  # the jack of diamonds does not stop the queen
    assert rec.state.players[1] != before


@pytest.mark.rule("troubadour.diamonds_jack")
def test_option_refused_refuses_an_attack_on_a_protected_player():
    rec = attack_position(trios=[["JS", "QS", "KS"], ["JD", "QC", "KC"]], options={"protected_attack": "refused"})
    err = rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 1}, rule="troubadour.diamonds_jack")
    assert "protects against the jack of spades" in err.message


@pytest.mark.rule("troubadour.diamonds_queen")
def test_diamonds_queen_stops_the_spades_queen():
    rec = attack_position(trios=[["JS", "QS", "KS"], ["QD", "QC", "KC"]])
    before = rec.state.players[1]
    rec.add("attack", 0, {"power": "QS", "target": 1})
    assert rec.state.players[1] == before and rec.annotate_last()[0]["protected_by"] == "QD"
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    assert rec.state.players[1].villages[0] == ()


@pytest.mark.rule("troubadour.diamonds_king")
def test_diamonds_king_alone_stops_the_spades_trio_but_not_the_jack():
    rec = attack_position(trios=[["JS", "QS", "KS"], ["KD", "QC", "KC"]])
    before = rec.state.players[1]
    rec.add("attack", 0, {"power": "JQKS", "target": 1, "castle": "H"})
    assert rec.state.players[1] == before and rec.annotate_last()[0]["protected_by"] == "KD"
    rec2 = attack_position(trios=[["JS", "QS", "KS"], ["KD", "QC", "KC"]])
    rec2.add("attack", 0, {"power": "JS", "target": 1, "village": 1})
    assert rec2.state.players[1].villages[0] == ()


@pytest.mark.rule("troubadour.protection_all_opponents")
def test_diamonds_protect_against_every_opponent():
    trios = [["JS", "QS", "KS"], ["JS", "QS", "KS"], ["JD", "QD", "KD"]]
    for attacker in (0, 1):
        villages = [[["9C", "8D"], [], [], [], []] for _ in range(3)]
        rec = position(players=3, villages=villages, trios=trios, current=attacker, castles=[{"S": 2}] * 3)
        before = rec.state.players[2]
        rec.add("attack", attacker, {"power": "JS", "target": 2, "village": 1})
        rec.add("attack", attacker, {"power": "QS", "target": 2})
        assert rec.state.players[2] == before
        assert [n["kind"] for n in GAME.annotate(rec.steps[-1][0], "attack", attacker, rec.steps[-1][3], rec.state)] == ["attack_stopped"]


# -- clubs -------------------------------------------------------------------------------------

# only 4S can fit: the village tops are aces and red twos whose black aces are gone
ACE_TOPS = [["AH"], ["AD"], ["AC"], ["2H"], ["2D"]]


@pytest.mark.rule("troubadour.clubs_jack")
def test_clubs_jack_turns_until_a_card_fits():
    rec = position(castles=[{"S": 3}, {}], villages=[ACE_TOPS, EMPTY], trios=[["JC", "QC", "KC"], ["JD", "QD", "KD"]],
                   draw=[[("order", ["9D", "7C", "4S", "8H"])], ["rest"]])
    rec.add("turn_over", 0, {"clubs_jack": True})
    rec.flip("9D")
    rec.flip("7C")
    assert GAME.actors(rec.state) == (CHANCE,)
    rec.flip("4S")
    assert GAME.actors(rec.state) == (0,)  # 4S fits the spades castle: the turn-over is over
    rec.reject("flip", None, {"card": "8H"}, rule="core.chance")
    rec.reject("turn_over", 0, {"clubs_jack": True}, rule="troubadour.standard_turn_over")


@pytest.mark.rule("troubadour.clubs_jack")
def test_clubs_jack_with_an_empty_village_the_first_card_fits():
    rec = position(villages=[[["AH"], ["AD"], ["AC"], ["2H"], []], EMPTY], trios=[["JC", "QC", "KC"], ["JD", "QD", "KD"]])
    rec.add("turn_over", 0, {"clubs_jack": True})
    rec.flip("9D")
    assert GAME.actors(rec.state) == (0,)


@pytest.mark.rule("troubadour.clubs_jack")
def test_clubs_jack_turns_the_discard_pile_over_and_stops_when_nothing_can_fit():
    rest = others("AH", "AD", "AC", "2H", "2D", "AS", "2S", "3S", "9D", "4S", "7C")
    base = dict(castles=[{"S": 3}, {}], trios=[["JC", "QC", "KC"], ["JD", "QD", "KD"]])
    rec = position(villages=[ACE_TOPS[:4] + [rest + ["2D"]], EMPTY], discard=[["4S", "7C"], []],
                   draw=[[("order", ["9D"])], ["rest"]], **base)
    rec.add("turn_over", 0, {"clubs_jack": True})
    rec.flip("9D")
    assert GAME.actors(rec.state) == (CHANCE,)  # 4S waits in the discard pile: turn it over and go on
    rec.reject("flip", None, {"card": "9D"}, rule="troubadour.recycle")
    rec.flip("4S")
    assert GAME.actors(rec.state) == (0,)
    # nothing in the draw or discard pile can fit: the extension stops (reading)
    rest = others("AH", "AD", "AC", "2H", "2D", "AS", "2S", "3S", "9D", "4S", "7C")
    rec2 = position(villages=[ACE_TOPS[:4] + [rest + ["4S", "2D"]], EMPTY], discard=[["7C"], []],
                    draw=[[("order", ["9D"])], ["rest"]], **base)
    rec2.add("turn_over", 0, {"clubs_jack": True})
    rec2.flip("9D")
    assert GAME.actors(rec2.state) == (0,)
    assert "clubs jack stops" in rec2.describe_last()


@pytest.mark.rule("troubadour.clubs_queen")
def test_clubs_queen_two_extra_cards_each_usable():
    rec = position(castles=[{"S": 3, "H": 1}, {}], trios=[["JC", "QC", "KC"], ["JD", "QD", "KD"]])
    rec.add("turn_over", 0, {})
    rec.flip("9C")
    rec.add("extra_draw", 0, {"power": "klaver vrouw"})
    assert rec.view()["turn"]["turning"] == {"for": "extra cards", "left": 2}
    rec.flip("4S")
    rec.flip("2H")
    assert GAME.actors(rec.state) == (0,)
    rec.build(0, "2H", "castle")
    rec.build(0, "4S", "castle")  # the first extra card, under the second
    rec.reject("extra_draw", 0, {"power": "QC"}, rule="troubadour.once_per_turn")


@pytest.mark.rule("troubadour.clubs_king")
def test_clubs_king_three_extra_only_if_an_opponent_chose_a_clubs_jack_or_queen():
    rec = position(trios=[["JC", "QC", "KC"], ["JD", "QD", "KC"]])
    rec.add("turn_over", 0, {})
    rec.flip("9C")
    err = rec.reject("extra_draw", 0, {"power": "KC"}, rule="troubadour.clubs_king")
    assert "clubs jack or the clubs queen" in err.message
    rec2 = position(trios=[["JC", "QC", "KC"], ["JD", "QD", "QC"]])
    rec2.add("turn_over", 0, {})
    rec2.flip("9C")
    rec2.add("extra_draw", 0, {"power": "QC"})
    for c in ("2C", "3C"):
        rec2.flip(c)
    rec2.add("extra_draw", 0, {"power": "KC"})  # adds up with the queen's two
    for c in ("4C", "5C", "6C"):
        rec2.flip(c)
    assert GAME.actors(rec2.state) == (0,) and rec2.state.turn.flipped == 6


@pytest.mark.rule("troubadour.clubs_after_turn_over")
def test_clubs_queen_and_king_only_after_the_standard_turn_over_or_hearts_queen_king():
    rec = position(trios=[["JC", "QC", "KC"], ["JC", "QD", "KD"]])
    rec.reject("extra_draw", 0, {"power": "QC"}, rule="troubadour.clubs_after_turn_over")
    rec.reject("extra_draw", 0, {"power": "KC"}, rule="troubadour.clubs_after_turn_over")
    rec2 = position(trios=[["QH", "KH", "QC"], ["JC", "QD", "KD"]])
    rec2.add("name_card", 0, {"card": "5D"})
    rec2.flip("5D")
    rec2.add("extra_draw", 0, {"power": "QC"})


# -- hearts ---------------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.hearts_jack")
def test_hearts_jack_takes_one_face_up_card_from_inside_a_village():
    villages = [[["9C", "5S", "8H", "7C"], ["10S"], [], [], []], EMPTY]
    rec = position(castles=[{"S": 4}, {}], villages=villages, trios=[["JH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec.reject("build", 0, {"card": "5S", "to": "castle"}, rule="troubadour.sources")
    rec.reject("build", 0, {"card": "7C", "to": "castle", "hearts_jack": True}, rule="troubadour.hearts_jack")
    rec.build(0, "5S", "castle", hearts_jack=True)
    assert rec.view()["players"][0]["villages"][0] == ["9C", "8H", "7C"]
    assert "with the hearts jack" in rec.describe_last()
    rec.reject("build", 0, {"card": "9C", "to": 2, "hearts_jack": True}, rule="troubadour.once_per_turn")
    rec2 = position(castles=[{"S": 4}, {}], villages=villages, trios=[["JH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec2.build(0, "9C", 5, hearts_jack=True)  # from the bottom of a village onto an empty one
    rec3 = position(castles=[{"S": 4}, {}], villages=villages)
    rec3.reject("build", 0, {"card": "5S", "to": "castle", "hearts_jack": True}, rule="troubadour.nobles_chosen")


@pytest.mark.rule("troubadour.hearts_queen")
def test_hearts_queen_turns_a_face_down_card_in_place_an_ace_may_start_a_castle_at_once():
    villages = [[["?", "?", "7C"], ["?", "9D"], [], [], []], EMPTY]
    rec = position(villages=villages, trios=[["QH", "QC", "KC"], ["JD", "QD", "KD"]])
    data = rec.add("hearts_queen", 0, {"village": 1})
    assert data == {"village": 1, "slot": 2}  # the highest face-down card unless a slot is given
    assert GAME.actors(rec.state) == (CHANCE,)
    rec.add("turn_up", None, {"village": 1, "card": "4D"})
    assert rec.view()["players"][0]["villages"][0] == [None, "4D", "7C"]  # back in its place, face up
    rec.reject("hearts_queen", 0, {"village": 2}, rule="troubadour.once_per_turn")
    rec2 = position(villages=villages, trios=[["QH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec2.add("hearts_queen", 0, {"village": 1, "slot": 1})
    rec2.add("turn_up", 0, {"village": 1, "card": "AH"})
    assert rec2.view()["turn"]["ace_to_castle"] == {"village": 1, "slot": 1}
    rec2.build(0, "AH", "castle")
    assert rec2.view()["players"][0]["villages"][0] == [None, "7C"] and rec2.view()["players"][0]["castles"]["H"] == "AH"
    # not at once: the chance is gone
    rec3 = position(villages=villages, trios=[["QH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec3.add("hearts_queen", 0, {"village": 1, "slot": 1})
    rec3.add("turn_up", 0, {"village": 1, "card": "AH"})
    rec3.add("turn_over", 0, {})
    rec3.flip("5C")
    rec3.reject("build", 0, {"card": "AH", "to": "castle"}, rule="troubadour.sources")
    rec4 = position(villages=villages, trios=[["QH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec4.reject("hearts_queen", 0, {"village": 1, "slot": 3}, rule="troubadour.hearts_queen")
    rec4.reject("hearts_queen", 0, {"village": 3}, rule="troubadour.hearts_queen")


@pytest.mark.rule("troubadour.hearts_queen_king")
def test_hearts_queen_king_names_a_card_and_turns_until_it_appears_instead_of_the_turn_over():
    trios = [["QH", "KH", "QC"], ["JD", "QD", "KD"]]
    rec = position(villages=[[["?", "9D"], [], [], [], []], EMPTY], trios=trios)
    err = rec.reject("name_card", 0, {"card": "5D"}, rule="troubadour.hearts_queen_king")
    assert "face down" in err.message
    rec = position(villages=[[["9D"], [], [], [], []], EMPTY], castles=[{"S": 2}, {}], trios=trios)
    rec.reject("name_card", 0, {"card": "9D"}, rule="troubadour.hearts_queen_king")
    rec.reject("name_card", 0, {"card": "2S"}, rule="troubadour.hearts_queen_king")
    rec.add("name_card", 0, {"card": "3S"})
    assert rec.view()["turn"]["turning"] == {"for": "hearts queen+king", "named": "3S"}
    for c in ("7H", "8C", "10D"):
        rec.flip(c)
        assert GAME.actors(rec.state) == (CHANCE,)
    rec.flip("3S")
    assert GAME.actors(rec.state) == (0,)
    rec.reject("turn_over", 0, {}, rule="troubadour.standard_turn_over")  # it replaced the standard turn-over
    rec.build(0, "3S", "castle")
    rec2 = position(trios=trios)
    rec2.add("turn_over", 0, {})
    rec2.flip("7H")
    rec2.reject("name_card", 0, {"card": "3S"}, rule="troubadour.hearts_queen_king")


# -- nobles in general ------------------------------------------------------------------------------

@pytest.mark.rule("troubadour.nobles_chosen")
def test_only_chosen_nobles_can_be_played():
    rec = attack_position(trios=[["JD", "QD", "KD"], ["JC", "QC", "KC"]])
    err = rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 1}, rule="troubadour.nobles_chosen")
    assert "did not choose the jack of spades" in err.message
    rec.reject("turn_over", 0, {"clubs_jack": True}, rule="troubadour.nobles_chosen")


@pytest.mark.rule("troubadour.once_per_turn")
def test_a_noble_acts_once_per_turn_also_inside_a_combination():
    rec = position(villages=[[["?", "9D"], [], [], [], []], EMPTY], trios=[["QH", "KH", "QC"], ["JD", "QD", "KD"]])
    rec.add("hearts_queen", 0, {"village": 1})
    rec.add("turn_up", 0, {"village": 1, "card": "5C"})
    err = rec.reject("name_card", 0, {"card": "3S"}, rule="troubadour.once_per_turn")
    assert "queen of hearts" in err.message
    rec.add("turn_over", 0, {})
    rec.flip("2D")
    rec.add("extra_draw", 0, {"power": "QC"})
    rec.flip("3D")
    rec.flip("4D")
    rec.reject("extra_draw", 0, {"power": "QC"}, rule="troubadour.once_per_turn")
    rec.end(0)
    rec.end(1)
    assert rec.state.turn.used == 0  # a new round (and turn) frees the nobles again
