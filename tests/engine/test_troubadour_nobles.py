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
    # village 5 now shows a face-down card on top: it stays face down in Ann's turn
    assert GAME.actors(rec.state) == (0,) and rec.view()["due"] == []
    rec.end(0)
    rec.add("turn_top", 1, {"village": 5})  # Bob turns it up in his own turn
    assert GAME.actors(rec.state) == (CHANCE,)
    err = rec.reject("turn_up", 1, {"village": 5, "card": "6C"}, rule="troubadour.unseen_card")
    assert "attack put under it" in err.message
    rec.add("turn_up", 1, {"village": 5, "card": "7D"})
    assert GAME.actors(rec.state) == (1,)


@pytest.mark.rule("troubadour.face_down_turned")
@pytest.mark.rule("troubadour.spades_queen")
def test_cards_a_spades_queen_lays_bare_stay_face_down_while_the_attacker_chooses_his_jack():
    """Chapter 5: "Een bouwkaart in een dorp met de voorkant omlaag mag omgedraaid worden als deze kaart
    de bovenste kaart van een dorp wordt." Only the owner may turn his card, and only in his own turn:
    after a spades queen the attacker chooses the village of his spades jack without seeing the cards
    his queen laid bare. A top left face down is taken face down by a later spades queen."""
    rec = attack_position(trios=[["JS", "QS", "JC"], ["JC", "QC", "KC"]])
    rec.add("attack", 0, {"power": "QS", "target": 1})
    for viewer in (0, None):
        villages = rec.view(viewer)["players"][1]["villages"]
        assert villages[0] == [None, None, "5H"] and villages[4] == [None, None]
    assert GAME.actors(rec.state) == (0,)
    assert all(m.type != "turn_top" for m in GAME.legal_moves(rec.state, 0))  # not Ann's to turn
    rec.reject("turn_up", None, {"village": 5, "card": "7D"}, rule="core.chance")
    unseen = rec.state.players[1].pool
    rec.add("attack", 0, {"power": "JS", "target": 1, "village": 5})  # chosen blind: two unknown cards
    assert segments(rec, 1)[-1] == {"set": [], "unknown": 2} and rec.state.players[1].pool == unseen
    # a face-down top the owner left down goes under his draw pile face down, unknown
    rec2 = attack_position(target_villages=[["?", "?"], ["9C", "8D"], [], [], ["?", "?", "6C"]])
    rec2.add("attack", 0, {"power": "QS", "target": 1})
    assert rec2.view()["players"][1]["villages"] == [[None], ["9C"], [], [], [None, None]]
    assert segments(rec2, 1)[-1] == {"set": ["8D", "6C"], "unknown": 1}
    note = rec2.annotate_last()[0]
    assert note["cards"] == ["8D", "6C"] and note["face_down"] == 1


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
    assert "no cards on the spades castle" in err.message


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
    assert "(♠4, ♥5)" in err.message
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
    def protected():
        return attack_position(trios=[["JS", "QS", "KS"], ["JD", "QC", "KC"]], options={"protected_attack": "refused"})

    rec = protected()
    err = rec.reject("attack", 0, {"power": "JS", "target": 1, "village": 1}, rule="troubadour.diamonds_jack")
    assert "protects against the jack of spades" in err.message
    # what is refused is not offered either: no jack attack on him is a legal move, the queen's still is (a
    # listed move the engine refused was found by the scene property with four players)
    attacks = [m for m in M.legal_moves(rec.ms, 0) if m["type"] == "attack"]
    assert attacks and not any(a["data"]["power"] == "JS" for a in attacks), attacks
    assert any(a["data"]["power"] == "QS" for a in attacks)
    for a in attacks:
        protected().add("attack", 0, a["data"])


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
    assert rec.view()["turn"]["turning"] == {"for": "extra cards"} and rec.view()["turn"]["extra_cards_left"] == 1
    rec.flip("4S")
    assert GAME.actors(rec.state) == (0,)
    rec.add("extra_card", 0, {})
    rec.flip("2H")
    assert GAME.actors(rec.state) == (0,) and rec.view()["turn"]["extra_cards_left"] == 0
    rec.build(0, "2H", "castle")
    rec.build(0, "4S", "castle")  # the first extra card, left under the second, is the top again
    rec.reject("extra_draw", 0, {"power": "QC"}, rule="troubadour.once_per_turn")
    rec.reject("extra_card", 0, {}, rule="troubadour.no_more_flips")


@pytest.mark.rule("troubadour.clubs_queen")
def test_clubs_queen_each_extra_card_may_be_used_as_it_is_turned_before_the_next():
    """Chapter 6: "Klaver vrouw: bovenop de standaardkaartdraai mag men twee extra kaarten van de
    draaistapel op de raapstapel draaien (...) Ieder van de extra gedraaide kaarten mag gebruikt worden om
    op de dorpen of kastelen te bouwen, mits deze kaart natuurlijk passend is." Each extra card may be
    used as it is turned: the player acts between the extra cards, so a first card that fits is not
    buried by a second that does not. One he does not use stays on the discard pile under the next
    (chapter 8: "De passende c.q. vooraf gewenste kaart blijft dan bovenop de raapstapel liggen")."""
    trios = [["JC", "QC", "KC"], ["JD", "QD", "KD"]]
    rec = position(castles=[{"S": 3}, {}], villages=[ACE_TOPS, EMPTY], trios=trios)
    rec.add("turn_over", 0, {})
    rec.flip("9C")
    rec.add("extra_draw", 0, {"power": "QC"})
    rec.flip("4S")  # the first extra card fits the spades castle
    assert GAME.actors(rec.state) == (0,)  # the player acts before the second is turned …
    rec.reject("flip", None, {"card": "7D"}, rule="core.chance")  # … and it is not turned by itself
    assert ("extra_card", {}) in GAME.turn_moves(rec.state, 0)
    rec.build(0, "4S", "castle")  # used as it is turned
    rec.add("extra_card", 0, {})
    assert rec.describe_last() == "Ann turns the next extra card (0 left after it)"
    rec.flip("7D")  # the second fits nothing
    assert rec.view()["players"][0]["castles"]["S"] == "4S"
    assert rec.view()["players"][0]["discard_pile"] == {"count": 2, "top": "7D"}
    # unused, an extra card stays on the discard pile and the next one covers it
    rec2 = position(castles=[{"S": 3}, {}], villages=[ACE_TOPS, EMPTY], trios=trios)
    rec2.add("turn_over", 0, {})
    rec2.flip("9C")
    rec2.add("extra_draw", 0, {"power": "QC"})
    rec2.flip("8D")
    rec2.add("extra_card", 0, {})
    rec2.flip("4S")
    assert rec2.view("referee")["players"][0]["discard_pile"]["cards"] == ["9C", "8D", "4S"]
    rec2.build(0, "4S", "castle")
    assert rec2.view()["players"][0]["discard_pile"]["top"] == "8D"
    # between the extra cards the player may do anything else; at the end of the turn the rest is spent
    rec3 = position(castles=[{"S": 3}, {}], villages=[ACE_TOPS, EMPTY], trios=trios)
    rec3.add("turn_over", 0, {})
    rec3.flip("9C")
    rec3.add("extra_draw", 0, {"power": "QC"})
    rec3.flip("8D")
    rec3.end(0)
    assert rec3.state.turn.extra == 0 and GAME.actors(rec3.state) == (1,)
    rec3.reject("extra_card", 1, {}, rule="troubadour.no_more_flips")


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
    rec2.flip("2C")
    rec2.add("extra_card", 0, {})
    rec2.flip("3C")
    rec2.add("extra_draw", 0, {"power": "KC"})  # adds up with the queen's two
    rec2.flip("4C")
    for c in ("5C", "6C"):
        rec2.add("extra_card", 0, {})
        rec2.flip(c)
    assert GAME.actors(rec2.state) == (0,) and rec2.state.turn.flipped == 6
    rec2.reject("extra_card", 0, {}, rule="troubadour.no_more_flips")


@pytest.mark.rule("troubadour.clubs_king")
def test_clubs_king_each_of_its_three_cards_may_be_used_as_it_is_turned():
    """Chapter 6: "Klaver heer: (...) drie extra kaarten van de draaistapel op de raapstapel draaien (...)
    Ieder van de extra gedraaide kaarten mag gebruikt worden om op de dorpen of kastelen te bouwen, mits
    deze kaart natuurlijk passend is." and "De extra kaarten van de klaver heer tellen gewoon op bij de
    extra kaarten van de klaver vrouw": played while a queen's card is still to come, the king's three
    add to it, and every one is turned on its own."""
    rec = position(castles=[{"S": 3}, {}], villages=[ACE_TOPS, EMPTY], trios=[["JC", "QC", "KC"], ["JD", "QD", "QC"]])
    rec.add("turn_over", 0, {})
    rec.flip("9C")
    rec.add("extra_draw", 0, {"power": "QC"})
    rec.flip("4S")
    rec.build(0, "4S", "castle")
    rec.add("extra_draw", 0, {"power": "KC"})  # one of the queen's left, three of the king's
    rec.flip("5S")
    assert rec.view()["turn"]["extra_cards_left"] == 3 and GAME.actors(rec.state) == (0,)
    rec.build(0, "5S", "castle")
    for c in ("7D", "6S", "8H"):
        rec.add("extra_card", 0, {})
        rec.flip(c)
        if c == "6S":
            rec.build(0, "6S", "castle")
    assert rec.view()["players"][0]["castles"]["S"] == "6S" and rec.state.turn.flipped == 6
    rec.reject("extra_card", 0, {}, rule="troubadour.no_more_flips")


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


@pytest.mark.rule("troubadour.hearts_jack")
def test_hearts_jack_may_lay_a_card_on_top_of_its_own_village():
    """Chapter 6: "Harten boer: één passende bouwkaart mag op een kasteel of als bovenste kaart op een dorp
    gelegd worden vanuit een willekeurige tussenliggende plek in één dorp, mits de kaart wel met de
    voorkant omhoog ligt." "Op een dorp", not "op een ander dorp": the card may go on top of the very
    village it comes from, if it fits there ("De kaart moet wel passen (...) op het dorp waar het op gelegd
    wordt")."""
    villages = [[["?", "9C", "6H", "8H", "7C"], [], [], [], []], EMPTY]
    trios = [["JH", "QC", "KC"], ["JD", "QD", "KD"]]
    rec = position(villages=villages, trios=trios)
    build = {"card": "6H", "to": 1, "hearts_jack": True}
    assert build in GAME.build_moves(rec.state.players[0], True)
    rec.reject("build", 0, {"card": "9C", "to": 1, "hearts_jack": True}, rule="troubadour.village_build")  # 9C on 7C: no
    rec.build(0, "6H", 1, hearts_jack=True)  # red six on the black seven of its own village
    assert rec.view()["players"][0]["villages"][0] == [None, "9C", "8H", "7C", "6H"]
    assert rec.describe_last() == "Ann builds ♥6 from inside village 1 with the hearts jack onto village 1"
    # without the hearts jack nothing moves onto its own village
    rec2 = position(villages=villages, trios=[["JC", "QC", "KC"], ["JD", "QD", "KD"]])
    rec2.reject("build", 0, {"card": "7C", "to": 1}, rule="troubadour.village_build")
    rec2.reject("build", 0, {"card": "6H", "to": 1}, rule="troubadour.run_move")
    assert not any(b["to"] == 1 for b in GAME.build_moves(rec2.state.players[0], False))


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


@pytest.mark.rule("troubadour.hearts_queen_king")
def test_hearts_queen_king_naming_the_discard_top_turns_it_before_the_cards_of_the_same_run():
    """Chapter 6: "De speler mag vervolgens i.p.v. de standaardkaartdraai net zolang kaarten van de
    draaistapel op de raapstapel draaien totdat de vooraf gewenste kaart gedraaid wordt. Raakt hierbij de
    draaistapel op, dan wordt de raapstapel in zijn geheel ongeschud omgedraaid". Named, the top of the
    discard pile comes up after the rest of the draw pile and the discard cards under it, but before the
    cards turned in this run, which lie on top of it when the pile is turned over."""
    rest = [c for c in CARD_IDS if c not in ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "9D", "8C")]
    rec = position(castles=[{"H": 3}, {}], discard=[["4H", "5H", "6H", "7H"], []],
                   villages=[[rest[:12], rest[12:24], rest[24:], [], []], EMPTY],
                   draw=[[("order", ["9D", "8C"])], ["rest"]], trios=[["QH", "KH", "QC"], ["JD", "QD", "KD"]])
    rec.add("name_card", 0, {"card": "7H"})
    rec.flip("9D")
    rec.flip("8C")  # the draw pile has run out: the discard pile 4H 5H 6H 7H 9D 8C is turned over
    rec.reject("flip", None, {"card": "9D"}, rule="troubadour.recycle")
    for c in ("4H", "5H", "6H"):
        rec.flip(c)
        assert GAME.actors(rec.state) == (CHANCE,)
    rec.flip("7H")
    assert GAME.actors(rec.state) == (0,)  # found before 9D and 8C, turned in this run
    assert rec.view("referee")["players"][0]["draw_segments"] == [{"order": ["9D", "8C"]}]


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
    rec.add("extra_card", 0, {})
    rec.flip("4D")
    rec.reject("extra_draw", 0, {"power": "QC"}, rule="troubadour.once_per_turn")
    rec.end(0)
    rec.end(1)
    assert rec.state.turn.used == 0  # a new round (and turn) frees the nobles again
