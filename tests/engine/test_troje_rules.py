"""Troje's rules, one marked test per rule of the catalogue that the scenario's
own mechanics apply (the rules the Catan engine's turn flow applies are
tested through the registered game in test_troje_game.py), and the text's
worked examples: the battle of 11 cards with 4 players, and the Mycenae
marker to the third field.

The placeholder board with 4 players (see troje_support.topologies): sea
tile 3 at [-1, -2] shows a ship symbol, has intersections 28, 40, 41 on its
corners and touches ship-symbol tile 9 at [-1, -1], which touches no land;
tile 6 at [-4, -1] shows a ship symbol and has intersections 51, 61, 62, 70,
78 on its corners.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.catan import board as B
from engine.catan import knowledge as K
from engine.core import InvalidOptions, RuleViolation
from engine.troje import board as TB
from engine.troje import rules as R
from engine.troje import saga as SG
from engine.troje import ships as SH
from engine.troje import support as S
from engine.troje.saga import Saga

from .troje_support import cfg, could_be, counts, ref, table, topologies

TOPO, SEA = topologies(4)
T3, T9, T6 = SEA.index[(-1, -2)], SEA.index[(-1, -1)], SEA.index[(-4, -1)]
NO_BUILDINGS = (-1,) * len(TOPO.vertices)
NO_SHIPS = (None,) * len(SEA.tiles)
N = 4
PUBLIC, REF = N, N + 1


def settle(buildings, vertex, seat, city=False):
    return buildings[:vertex] + (seat * 2 + int(city),) + buildings[vertex + 1:]


def test_the_sea_tiles_named_above_are_as_described():
    assert SEA.ship_symbol[T3] and SEA.ship_symbol[T9] and SEA.ship_symbol[T6]
    assert SEA.corners[T3] == (28, 40, 41) and SEA.corners[T9] == () and T9 in SEA.adj[T3]


def test_every_rule_id_has_a_marked_test(rules_covered):
    marked = set(rules_covered)
    for name in ("test_troje_rules.py", "test_troje_game.py"):
        marked |= set(re.findall(r'mark\.rule\("([^"]+)"\)', (Path(__file__).parent / name).read_text()))
    missing = sorted(set(R.RULES) - marked)
    assert not missing, missing
    assert set(R.SOURCES) <= set(R.RULES)


def test_dutch_terms_name_english_ones():
    for dutch in ("grondstoffen", "steunstapel", "ondersteuningsstapel", "beslissingskaart", "zeevolk", "sagaspoor",
                  "handelsfiches", "handelspunt", "scheepsfiche"):
        assert R.TERMS[dutch]


# -- players, allegiances, board ------------------------------------------------------------

@pytest.mark.rule("troje.players")
def test_four_or_six_players():
    assert cfg(4).n == 4 and cfg(6).n == 6
    for n in (3, 5):
        with pytest.raises(InvalidOptions) as e:
            cfg(n)
        assert e.value.details["field"] == "players"


@pytest.mark.rule("troje.allegiance")
def test_a_secret_decision_card_each():
    deal = ("troy", "mycenae", "mycenae", "troy")
    assert SG.known_to(deal, 0, revealed=False)[0] == "troy"
    assert SG.known_to(deal, 0, revealed=False)[1:] == (None, None, None)
    assert SG.known_to(deal, PUBLIC, revealed=False) == (None,) * 4
    assert SG.known_to(deal, REF, revealed=False) == deal
    assert SG.known_to(deal, PUBLIC, revealed=True) == deal
    assert SG.side("Mykene") == "mycenae" and SG.side("Troje") == "troy"
    with pytest.raises(RuleViolation) as e:
        SG.side("Athens")
    assert e.value.rule == "troje.allegiance"


@pytest.mark.rule("troje.allegiance_teams")
def test_the_sides_are_equal():
    SG.check_deal(("troy", None, "troy", "mycenae"))
    with pytest.raises(RuleViolation) as e:
        SG.check_deal(("troy", "troy", "troy", None))
    assert e.value.rule == "troje.allegiance_teams"
    assert len(SG.possible((None,) * 4)) == 6 and len(SG.possible((None,) * 6)) == 20
    assert all(d.count("troy") == 3 for d in SG.possible((None,) * 6))
    # with six, a seat that knows it is Troy sees 2 more Troy among the 5 others: nothing forced
    assert SG.known_to(("troy", "troy", "troy", "mycenae", "mycenae", "mycenae"), 0, False)[1:] == (None,) * 5
    # the referee told three Mycenae seats knows the rest are Troy
    assert set(SG.possible((None, "mycenae", None, "mycenae", None, "mycenae"))) == {
        ("troy", "mycenae", "troy", "mycenae", "troy", "mycenae")}


@pytest.mark.rule("troje.board_cut")
def test_four_players_leave_out_the_right_third():
    c = cfg(6)
    six, four = B.topology(c.board, 6), B.topology(c.board, 4)
    east = {tuple(h["at"]) for h in c.board["hexes"] if "east" in h.get("region", [])}
    assert east & set(six.hexes) and not east & set(four.hexes)
    assert set(four.hexes) < set(six.hexes)
    sea6, sea4 = TB.sea_topology(c.board, 6), TB.sea_topology(c.board, 4)
    assert east & set(sea6.tiles) and not east & set(sea4.tiles)
    doc = {k: v for k, v in c.board.items() if k != "variants"}
    with pytest.raises(B.BoardError) as e:
        TB.check_board(doc)
    assert e.value.details["field"] == "variants"


@pytest.mark.rule("troje.numberless_land")
def test_land_without_a_number_yields_nothing():
    numberless = [i for i, (t, k) in enumerate(zip(TOPO.terrain, TOPO.number)) if t in B.PRODUCES and not k]
    assert numberless, "the placeholder board has producing terrain without a number"
    for i in numberless:
        assert TOPO.resource[i] == -1
        assert all(i != h for sites in TOPO.number_sites.values() for h, _, _ in sites)


@pytest.mark.rule("troje.board_placeholder")
def test_the_shipped_board_and_tiles_say_they_are_placeholders():
    (board,) = TB.builtin_boards().values()
    assert board["provenance"] == "placeholder" and "placeholder" in board["name"].lower()
    assert str(B.summary(board)["label"]).startswith("PLACEHOLDER")
    (tiles,) = TB.builtin_ship_tiles().values()
    summary = TB.ship_tiles_summary(tiles)
    assert summary["placeholder"] and str(summary["label"]).startswith("PLACEHOLDER")
    assert cfg(4).board_hash == TB.default_board_hash()


# -- donations ------------------------------------------------------------------------------

@pytest.mark.rule("troje.donate")
def test_once_per_turn_one_to_three_cards():
    S.check_donation(3, donated_this_turn=False, own_turn=True, in_sbp=False, donations_in_sbp=False, hand_size=5)
    bad = [dict(count=0), dict(count=4), dict(donated_this_turn=True), dict(own_turn=False),
           dict(own_turn=False, in_sbp=True), dict(hand_size=1)]
    for change in bad:
        args = dict(count=2, donated_this_turn=False, own_turn=True, in_sbp=False, donations_in_sbp=False,
                    hand_size=5) | change
        with pytest.raises(RuleViolation) as e:
            S.check_donation(**args)
        assert e.value.rule == "troje.donate", change
    S.check_donation(1, donated_this_turn=False, own_turn=False, in_sbp=True, donations_in_sbp=True, hand_size=1)


@pytest.mark.rule("troje.donate_face_down")
def test_donated_cards_are_seen_by_the_donor_only():
    hands = table([counts(wool=2, ore=1), counts(lumber=2), counts(), counts(grain=1)])
    after = S.to_stack(hands, N, 0, counts(wool=1, ore=1), 2, origin=7)
    stack = after[N]
    assert stack[0].known == (1, 0, 2, 1, 2) and stack[0].exact  # the donor knows all six
    assert stack[REF] == stack[0]
    for viewer in (1, 2, 3, PUBLIC):
        assert stack[viewer].known == (1, 0, 1, 1, 1) and len(stack[viewer].unseen) == 2
        assert after[0][viewer].size == 1  # one card left, which they do not know
    assert after[0][REF].known == (0, 0, 1, 0, 0)
    # unseen by the recorder: nobody but the table's sizes
    blind = S.to_stack(hands, N, 0, None, 2, origin=7)
    assert len(blind[N][REF].unseen) == 2 and blind[N][REF].size == 6


@pytest.mark.rule("troje.donate_any")
def test_any_resource_may_be_donated():
    assert S.counts({"steen": 1, "hout": 1}) == counts(brick=1, lumber=1)
    hands = table([counts(brick=3), counts(), counts(), counts()])
    after = S.to_stack(hands, N, 0, counts(brick=3), 3, origin=1)
    assert ref(after, N).known == (1, 3, 1, 1, 1)
    with pytest.raises(RuleViolation) as e:
        S.resource("gold")
    assert e.value.rule == "troje.donate_any"


@pytest.mark.rule("troje.trade_point")
def test_one_trade_point_per_donation_not_per_card():
    hands = table([counts(wool=3), counts(ore=1), counts(), counts()])
    hands, tp = S.donate(hands, (0, 0, 0, 0), N, 0, counts(wool=3), 3, origin=1)
    hands, tp = S.donate(hands, tp, N, 1, counts(ore=1), 1, origin=2)
    assert tp == (1, 1, 0, 0)
    assert ref(hands, N).size == 4 + 4


@pytest.mark.rule("troje.initial_stack")
def test_the_initial_stack_is_known_to_all():
    hands = table([counts()] * 4, initial=cfg(4).initial_stack)
    assert all(h == K.exact((1, 0, 1, 1, 1)) for h in hands[N])
    assert S.score((1, 0, 1, 1, 1)) == (2, 2)  # two cards for each side
    with pytest.raises(InvalidOptions) as e:
        cfg(4, initial_stack={"ore": 20})
    assert e.value.details["field"] == "options.initial_stack.ore"


# -- the battle ------------------------------------------------------------------------------

@pytest.mark.rule("troje.battle_trigger")
def test_a_battle_when_the_stack_holds_ten_or_thirteen():
    four, six = cfg(4), cfg(6)
    assert (four.battle_size, six.battle_size) == (10, 13)
    assert not S.battle_due(9, four.battle_size) and S.battle_due(10, four.battle_size)
    assert S.battle_due(11, four.battle_size)
    assert not S.battle_due(12, six.battle_size) and S.battle_due(13, six.battle_size)


@pytest.mark.rule("troje.battle_reveal")
def test_seven_or_ten_cards_are_turned_up():
    assert (cfg(4).battle_reveal, cfg(6).battle_reveal) == (7, 10)
    S.check_reveal(counts(lumber=3, ore=4), 11, 7)
    with pytest.raises(RuleViolation) as e:
        S.check_reveal(counts(lumber=3, ore=3), 11, 7)
    assert e.value.rule == "troje.battle_reveal"
    S.check_reveal(counts(grain=10), 13, 10)


@pytest.mark.rule("troje.battle_remainder")
@pytest.mark.rule("troje.battle_score")
def test_the_texts_example_battle():
    """4 players; at the end of a turn the stack holds 11 cards; 7 are turned up,
    3–2 for Mycenae (two bricks, neutral); the other 4 stay as the next stack."""
    hands = table([counts(lumber=2, grain=1, wool=1, ore=1, brick=2), counts(), counts(), counts()])
    hands = S.to_stack(hands, N, 0, counts(lumber=2, grain=1, brick=2, wool=1, ore=1), 7, origin=1)
    assert ref(hands, N).size == 11 and S.battle_due(11, cfg(4).battle_size)
    revealed = counts(lumber=2, grain=1, wool=1, ore=1, brick=2)
    assert S.score(revealed) == (2, 3) and S.winner(revealed) == "mycenae"
    after = S.battle(hands, N, revealed, 7, origin=2)
    assert ref(after, N) == K.exact((1, 0, 1, 1, 1))  # the remainder: 4 cards, face down
    assert all(h.size == 4 for h in after[N])


@pytest.mark.rule("troje.battle_score")
def test_ore_and_wool_for_troy_lumber_and_grain_for_mycenae_brick_neutral():
    assert S.score(counts(ore=2, wool=1)) == (3, 0)
    assert S.score(counts(lumber=1, grain=2)) == (0, 3)
    assert S.score(counts(brick=7)) == (0, 0) and S.winner(counts(brick=7)) is None
    assert S.winner(counts(ore=4, lumber=3)) == "troy"


@pytest.mark.rule("troje.battle_cards")
def test_the_turned_up_cards_go_to_the_bank_or_out():
    bank = (10, 10, 10, 10, 10)
    assert S.bank_after_battle(bank, counts(ore=3, wool=4), True) == (10, 10, 14, 10, 13)
    assert S.bank_after_battle(bank, counts(ore=3, wool=4), False) == bank
    assert cfg(4).revealed_to_bank and not cfg(4, revealed_cards="removed").revealed_to_bank


@pytest.mark.rule("troje.saga_move")
def test_the_winner_moves_its_own_card():
    assert SG.advance(Saga(), "troy") == Saga(troy=1, mycenae=0)
    assert SG.advance(Saga(troy=1), "mycenae") == Saga(troy=1, mycenae=1)


@pytest.mark.rule("troje.saga_tie")
def test_a_tie_moves_nothing():
    assert SG.advance(Saga(2, 3), S.winner(counts(ore=2, lumber=2, brick=3))) == Saga(2, 3)


@pytest.mark.rule("troje.saga_vp")
def test_the_worked_example_mycenae_to_the_third_field():
    """'Mykene heeft met 3-2 gewonnen. De overwinningspunt-kaart van Mykene wordt
    naar het derde veld verplaatst. Iedere speler met een beslissingskaart van
    Mykene heeft nu drie extra overwinningspunten.'"""
    before = Saga(troy=1, mycenae=2)
    revealed = counts(lumber=2, grain=1, wool=1, ore=1, brick=2)
    assert S.score(revealed) == (2, 3)
    after = SG.advance(before, S.winner(revealed))
    assert after.mycenae == 3
    assert SG.side_vp(after, "mycenae") == 3 and SG.side_vp(after, "troy") == 1
    deal = ("mycenae", "troy", "mycenae", "troy")
    assert [SG.total_vp(5, a, after) for a in deal] == [8, 6, 8, 6]


def test_the_saga_fields_are_worth_1_2_3_4_6():
    s = Saga()
    vps = []
    for _ in range(5):
        s = SG.advance(s, "troy")
        vps.append(SG.side_vp(s, "troy"))
    assert vps == [1, 2, 3, 4, 6] and SG.side_vp(s, "mycenae") == 0
    assert SG.side_vp(Saga(mycenae=2), "mycenae", (2, 5, 9)) == 5


# -- ships ---------------------------------------------------------------------------------

@pytest.mark.rule("troje.ship_cost")
def test_a_ship_costs_wool_lumber_and_two_trade_points():
    assert SH.SHIP_COST == counts(wool=1, lumber=1)
    SH.check_payment(2)
    with pytest.raises(RuleViolation) as e:
        SH.check_payment(1)
    assert e.value.rule == "troje.ship_cost"


@pytest.mark.rule("troje.ship_tile")
def test_the_top_tile_of_ones_colour_is_turned_over():
    c = cfg(4)
    stack = TB.tile_counts(c.ship_tiles, 0)
    assert sum(stack) == 7
    after = SH.turn_tile(stack, SH.SWAP)
    assert after[SH.SWAP] == stack[SH.SWAP] - 1 and sum(after) == 6
    with pytest.raises(RuleViolation) as e:
        SH.turn_tile(after, SH.SWAP)  # the placeholder has one swap tile per colour
    assert e.value.rule == "troje.ship_tiles"
    assert SH.tile_odds(stack)["harbour_3to1"] == pytest.approx(2 / 7)
    assert SH.draw_tile(random.Random(1), after) != SH.SWAP


@pytest.mark.rule("troje.ship_symbol")
def test_ships_only_on_tiles_with_a_ship_symbol():
    plain = next(t for t in range(len(SEA.tiles)) if not SEA.ship_symbol[t] and SEA.corners[t])
    b = settle(NO_BUILDINGS, SEA.corners[plain][0], 0)
    with pytest.raises(RuleViolation) as e:
        SH.check_site(SEA, NO_SHIPS, b, 0, plain)
    assert e.value.rule == "troje.ship_symbol"
    assert plain not in SH.sites(SEA, NO_SHIPS, b, 0)


@pytest.mark.rule("troje.ship_one_per_tile")
def test_one_ship_per_tile():
    b = settle(settle(NO_BUILDINGS, 28, 0), 40, 1)
    ships = SH.place(NO_SHIPS, T3, 1, SH.VP)
    with pytest.raises(RuleViolation) as e:
        SH.check_site(SEA, ships, b, 0, T3)
    assert e.value.rule == "troje.ship_one_per_tile"


@pytest.mark.rule("troje.ship_connect")
def test_a_ship_needs_ones_settlement_on_a_corner_or_ones_ship_next_door():
    b = settle(NO_BUILDINGS, 28, 0)
    SH.check_site(SEA, NO_SHIPS, b, 0, T3)
    for seat, tile in ((1, T3), (0, T9), (0, T6)):
        with pytest.raises(RuleViolation) as e:
            SH.check_site(SEA, NO_SHIPS, b, seat, tile)
        assert e.value.rule == "troje.ship_connect"
    ships = SH.place(NO_SHIPS, T3, 0, SH.HARBOUR)
    SH.check_site(SEA, ships, b, 0, T9)  # a chain: next to his own ship
    with pytest.raises(RuleViolation):
        SH.check_site(SEA, SH.place(NO_SHIPS, T3, 1, SH.HARBOUR), b, 0, T9)  # another's ship is no link
    city = settle(NO_BUILDINGS, 28, 0, city=True)
    SH.check_site(SEA, NO_SHIPS, city, 0, T3)
    with pytest.raises(RuleViolation):
        SH.check_site(SEA, NO_SHIPS, city, 0, T3, city_counts=False)


@pytest.mark.rule("troje.ship_on_sea_people")
def test_a_ship_may_go_where_the_sea_people_stand_and_they_move_on():
    b = settle(NO_BUILDINGS, 28, 0)
    SH.check_site(SEA, NO_SHIPS, b, 0, T3)  # the sea people's place is no argument: allowed wherever they are
    assert T3 in SH.sites(SEA, NO_SHIPS, b, 0)
    assert T3 not in SH.targets(SEA, T3)  # and they must leave that tile
    with pytest.raises(RuleViolation) as e:
        SH.check_target(SEA, T3, T3)
    assert e.value.rule == "troje.sea_people_tile"


@pytest.mark.rule("troje.ship_advantage")
def test_each_advantage_is_permanent_and_its_owners():
    ships = SH.place(SH.place(NO_SHIPS, T3, 0, SH.HARBOUR), T6, 0, SH.VP)
    for _ in range(3):  # nothing wears off
        assert SH.ratios(0, ships, (), sea_people=-1) == (3, 3, 3, 3, 3)
        assert SH.ship_vp(0, ships, sea_people=-1) == 1
    assert SH.ratios(1, ships, (), -1) == (4, 4, 4, 4, 4) and SH.ship_vp(1, ships, -1) == 0


@pytest.mark.rule("troje.adv_harbor")
def test_a_3to1_ship():
    assert SH.ratios(2, SH.place(NO_SHIPS, T6, 2, SH.HARBOUR), (), -1) == (3,) * 5


@pytest.mark.rule("troje.adv_vp")
def test_a_vp_ship():
    ships = SH.place(SH.place(NO_SHIPS, T3, 1, SH.VP), T6, 1, SH.VP)
    assert SH.ship_vp(1, ships, -1) == 2


@pytest.mark.rule("troje.adv_swap")
def test_swap_draw_blind_and_put_one_back():
    ships = SH.place(NO_SHIPS, T3, 0, SH.SWAP)
    SH.check_stack_advantage(0, T3, SH.SWAP, ships, -1, frozenset())
    with pytest.raises(RuleViolation) as e:
        SH.check_stack_advantage(0, T3, SH.DRAW, ships, -1, frozenset())
    assert e.value.rule == "troje.adv_draw"
    hands = table([counts(wool=1), counts(), counts(), counts()])
    drawn = S.from_stack(hands, N, 0, 4, origin=3)  # an ore, which the recorder saw
    assert ref(drawn, 0).known == (0, 0, 1, 0, 1) and ref(drawn, N).known == (1, 0, 1, 1, 0)
    assert drawn[0][1].size == 2 and drawn[N][1].size == 3 and not drawn[N][1].exact  # seat 1 saw no card
    back = S.to_stack(drawn, N, 0, counts(ore=1), 1, origin=4)  # the same card may go back
    assert ref(back, N) == K.exact((1, 0, 1, 1, 1)) and ref(back, 0) == K.exact(counts(wool=1))


@pytest.mark.rule("troje.adv_chip")
def test_a_chip_ship_gives_a_2to1_trade_chip():
    supply = SH.take_chip(SH.CHIPS, 2)
    assert supply == (2, 2, 1, 2, 2)
    ships = SH.place(NO_SHIPS, T6, 3, SH.CHIP)
    assert SH.ratios(3, ships, (SH.Chip(2, T6),), -1) == (4, 4, 2, 4, 4)


@pytest.mark.rule("troje.adv_draw")
def test_draw_without_putting_one_back():
    ships = SH.place(NO_SHIPS, T3, 0, SH.DRAW)
    SH.check_stack_advantage(0, T3, SH.DRAW, ships, -1, frozenset())
    hands = table([counts(), counts(), counts(), counts()], initial=counts(grain=1))
    hands = S.from_stack(hands, N, 0, None, origin=5)
    assert ref(hands, N).size == 0 and ref(hands, 0).size == 1 and ref(hands, 0).could_be() == 1 << 3
    with pytest.raises(RuleViolation) as e:
        S.from_stack(hands, N, 0, None, origin=6)
    assert e.value.rule == "troje.adv_draw"
    with pytest.raises(RuleViolation):
        SH.check_stack_advantage(1, T3, SH.DRAW, ships, -1, frozenset())  # not his ship


@pytest.mark.rule("troje.ship_tiles")
def test_ship_tiles_per_colour_as_data():
    (doc,) = TB.builtin_ship_tiles().values()
    assert [len(c["tiles"]) for c in doc["colours"]] == [7] * 6
    bad = {**doc, "colours": [{"colour": "red", "tiles": ["kraken"]}] + doc["colours"][1:]}
    with pytest.raises(TB.ShipTilesError) as e:
        TB.check_ship_tiles(bad)
    assert e.value.details["field"] == "colours[0].tiles[0]"
    four = {**doc, "provenance": "user", "colours": doc["colours"][:4]}
    canon = TB.check_ship_tiles(four)
    cfg(4, ship_tiles_doc=canon)
    with pytest.raises(InvalidOptions) as e:
        cfg(6, ship_tiles_doc=canon)
    assert e.value.details["field"] == "options.ship_tiles"
    assert TB.check_ship_tiles({**four, "colours": [{"colour": "Red", "tiles": ["haven", "vp"]}] * 1 +
                                four["colours"][1:]})["colours"][0] == {"colour": "red",
                                                                       "tiles": ["harbour_3to1", "victory_point"]}


@pytest.mark.rule("troje.trade_chips")
def test_ten_chips_two_per_resource():
    assert sum(SH.CHIPS) == 10
    supply = SH.take_chip(SH.take_chip(SH.CHIPS, 4), 4)
    with pytest.raises(RuleViolation) as e:
        SH.take_chip(supply, 4)
    assert e.value.rule == "troje.trade_chips"


@pytest.mark.rule("troje.advantage_use")
def test_swap_and_draw_once_per_turn_per_ship():
    ships = SH.place(SH.place(NO_SHIPS, T3, 0, SH.DRAW), T6, 0, SH.DRAW)
    SH.check_stack_advantage(0, T6, SH.DRAW, ships, -1, frozenset({T3}))
    with pytest.raises(RuleViolation) as e:
        SH.check_stack_advantage(0, T3, SH.DRAW, ships, -1, frozenset({T3}))
    assert e.value.rule == "troje.advantage_use"
    with pytest.raises(RuleViolation) as e:  # option stack_draws: per_player
        SH.check_stack_advantage(0, T6, SH.DRAW, ships, -1, frozenset({T3}), draws_per_ship=False)
    assert e.value.rule == "troje.advantage_use"
    with pytest.raises(RuleViolation):
        SH.check_stack_advantage(0, T3, SH.DRAW, ships, -1, frozenset(), own_turn=False)


# -- the sea people --------------------------------------------------------------------------

@pytest.mark.rule("troje.sea_people_tile")
def test_the_sea_people_go_to_another_sea_tile():
    anywhere = SH.targets(SEA, T3)
    assert len(anywhere) == len(SEA.tiles) - 1 and T3 not in anywhere
    symbols = SH.targets(SEA, -1, any_sea=False)
    assert symbols == tuple(t for t in range(len(SEA.tiles)) if SEA.ship_symbol[t])
    plain = next(t for t in range(len(SEA.tiles)) if not SEA.ship_symbol[t])
    SH.check_target(SEA, T3, plain)
    with pytest.raises(RuleViolation) as e:
        SH.check_target(SEA, T3, plain, any_sea=False)
    assert e.value.rule == "troje.sea_people_tile"


@pytest.mark.rule("troje.sea_people_steal")
def test_steal_from_a_settlement_on_a_corner_or_a_ship_on_the_tile():
    b = settle(settle(NO_BUILDINGS, 28, 1), 40, 2, city=True)
    ships = SH.place(NO_SHIPS, T3, 3, SH.VP)
    sizes = (5, 2, 1, 4)
    assert SH.victims(SEA, T3, ships, b, 0, sizes) == (1, 2, 3)
    assert SH.victims(SEA, T3, ships, b, 1, sizes) == (2, 3)  # never the mover
    assert SH.victims(SEA, T3, ships, b, 0, (5, 0, 1, 4)) == (2, 3)  # trade points are no cards to take
    assert SH.victims(SEA, T3, ships, b, 0, sizes, city_counts=False) == (1, 3)
    assert SH.victims(SEA, T6, ships, b, 0, sizes) == ()


@pytest.mark.rule("troje.sea_people_choose")
def test_with_several_the_mover_chooses_one():
    """"Indien de speler bij meer dan een medespeler een kaartje kan trekken, moet hij een medespeler uitkiezen
    en bij hem een kaartje trekken": with several he must choose one; with one he *may* draw."""
    SH.check_victim((1, 2, 3), 2)
    with pytest.raises(RuleViolation) as e:
        SH.check_victim((1, 2, 3), None)
    assert e.value.rule == "troje.sea_people_choose"
    SH.check_victim((2,), None)  # one player there: "mag" (may)
    SH.check_victim((), None)
    with pytest.raises(RuleViolation) as e:
        SH.check_victim((1, 2), 3)
    assert e.value.rule == "troje.sea_people_steal"


@pytest.mark.rule("troje.sea_people_block")
def test_the_sea_people_block_a_ships_advantages():
    """The text's example: the figure moves to White's 3:1 ship; White no longer trades 3:1."""
    white = 2
    ships = SH.place(SH.place(NO_SHIPS, T3, white, SH.HARBOUR), T6, white, SH.CHIP)
    chips = (SH.Chip(0, T6),)
    assert SH.ratios(white, ships, chips, sea_people=-1) == (2, 3, 3, 3, 3)
    assert SH.ratios(white, ships, chips, sea_people=T3) == (2, 4, 4, 4, 4)
    assert SH.ratios(white, ships, chips, sea_people=T6) == (3, 3, 3, 3, 3)
    assert SH.ratios(white, ships, chips, sea_people=T6, blocked_blocks_chip=False) == (2, 3, 3, 3, 3)
    vp = SH.place(NO_SHIPS, T3, white, SH.VP)
    assert SH.ship_vp(white, vp, T3) == 1 and SH.ship_vp(white, vp, T3, blocked_keeps_vp=False) == 0
    draw = SH.place(NO_SHIPS, T3, white, SH.DRAW)
    with pytest.raises(RuleViolation) as e:
        SH.check_stack_advantage(white, T3, SH.DRAW, draw, T3, frozenset())
    assert e.value.rule == "troje.sea_people_block"


@pytest.mark.rule("troje.sea_people_start")
def test_where_the_sea_people_start():
    assert cfg(4).sea_people_start is None
    assert cfg(4, sea_people_start=[-1, -2]).sea_people_start == (-1, -2)
    for bad, rule in (([-7, -1], "troje.sea_people_start"), ([8, -3], "troje.sea_people_start")):
        with pytest.raises(InvalidOptions) as e:
            cfg(4, sea_people_start=bad)  # Mycenae (land); a tile of the cut third
        assert e.value.details == {"field": "options.sea_people_start", "rule": rule}
    plain = next(list(t) for i, t in enumerate(SEA.tiles) if not SEA.ship_symbol[i])
    cfg(4, sea_people_start=plain)
    with pytest.raises(InvalidOptions) as e:
        cfg(4, sea_people_start=plain, sea_people_tiles="ship_symbol")
    assert e.value.details["rule"] == "troje.sea_people_tile"


@pytest.mark.rule("troje.trade_points_not_resources")
def test_trade_points_are_no_resource():
    for name in ("handelspunt", "trade_point", "Handelspunten"):
        with pytest.raises(RuleViolation) as e:
            S.counts({name: 1})
        assert e.value.rule == "troje.trade_points_not_resources"


# -- the end -------------------------------------------------------------------------------

@pytest.mark.rule("troje.win_15")
def test_fifteen_in_ones_own_turn():
    saga = Saga(troy=2, mycenae=1)
    assert SG.wins_on_turn(13, "troy", saga) and not SG.wins_on_turn(13, "mycenae", saga)
    assert SG.wins_on_turn(9, "troy", saga, goal=10)
    assert SG.could_win(13, saga) and not SG.could_win(12, saga)


@pytest.mark.rule("troje.war_end")
def test_the_card_on_the_six_ends_the_war():
    s = Saga(troy=3, mycenae=4)
    assert SG.war_won(s) is None
    s = SG.advance(s, "mycenae")
    assert SG.war_won(s) == "mycenae" and SG.side_vp(s, "mycenae") == 6
    with pytest.raises(RuleViolation) as e:
        SG.advance(s, "troy")
    assert e.value.rule == "troje.war_end"
    assert SG.war_winners((9, 12, 11, 8), (5, 0, 9, 1)) == (1,)  # the most VP, whatever the trade points


@pytest.mark.rule("troje.war_tiebreak")
def test_equal_vp_the_most_trade_points_win():
    assert SG.war_winners((12, 12, 11, 8), (2, 3, 9, 1)) == (1,)
    assert SG.war_winners((12, 12, 11, 12), (3, 3, 9, 1)) == (0, 1)


# -- recording --------------------------------------------------------------------------------

@pytest.mark.rule("troje.hidden_cards")
def test_unseen_donations_narrow_only_when_a_battle_shows_them():
    hands = table([counts(ore=3), counts(lumber=1, grain=2), counts(wool=2), counts(brick=2)],
                  initial=counts(lumber=1, grain=1, wool=1, ore=1))
    hands = S.to_stack(hands, N, 0, None, 3, origin=2)  # the recorder did not see these
    hands = S.to_stack(hands, N, 1, counts(lumber=1, grain=2), 3, origin=3)
    hands = S.to_stack(hands, N, 3, counts(brick=2), 2, origin=4)
    assert ref(hands, N).size == 12 and len(ref(hands, N).unseen) == 3  # the log: seat 0's three as unseen
    assert could_be(ref(hands, N), counts(lumber=2, grain=3, wool=1, ore=4, brick=2))
    assert hands[N][2].known == (1, 0, 1, 1, 1)  # seat 2 saw none of the donations
    # a battle shows 4 ore: only seat 0's cards can be the fourth ore
    after = S.battle(hands, N, counts(ore=4, lumber=2, brick=1), 7, origin=5)
    assert ref(after, N).size == 5 and could_be(ref(after, N), counts(grain=3, wool=1, brick=1))
    # 5 ore cannot be there: the log knows seat 0 gave at most 3 and the stack held 1
    with pytest.raises(RuleViolation) as e:
        S.battle(hands, N, counts(ore=5, lumber=2), 7, origin=5)
    assert e.value.rule == "troje.hidden_cards" and "2" in str(e.value)


@pytest.mark.rule("troje.allegiance_knowledge")
def test_saga_vp_shown_only_to_who_knows_the_side():
    deal = ("mycenae", "troy", "mycenae", "troy")
    saga = Saga(troy=1, mycenae=3)
    assert SG.saga_vp_view(deal, PUBLIC, False, saga) == (None,) * 4
    assert SG.saga_vp_view(deal, 1, False, saga) == (None, 1, None, None)
    assert SG.saga_vp_view(deal, REF, False, saga) == (3, 1, 3, 1)
    assert SG.saga_vp_view(deal, PUBLIC, True, saga) == (3, 1, 3, 1)
    unknown = (None,) * 4  # option allegiances: at_reveal
    assert SG.saga_vp_view(unknown, REF, False, saga) == (None,) * 4
    SG.check_claim(12, "mycenae", saga)  # claimed at 12 + 3, checked at the reveal
    with pytest.raises(RuleViolation) as e:
        SG.check_claim(12, "troy", saga)
    assert e.value.rule == "troje.win_15"
    assert cfg(4).private_allegiances and not cfg(4, allegiances="at_reveal").private_allegiances


def test_the_refusals_and_summaries_say_cities_and_a_3_to_1_harbour_in_words():
    """Issue 19's wordings, mended once and reverted: a ship-site refusal said "citys", a ship tile's
    summary "harbour 3to1"."""
    b = settle(NO_BUILDINGS, 28, 0)
    with pytest.raises(RuleViolation) as e:
        SH.check_site(SEA, NO_SHIPS, b, 1, T3)
    assert "settlements or cities" in e.value.message and "citys" not in e.value.message
    with pytest.raises(RuleViolation) as e:
        SH.check_site(SEA, NO_SHIPS, b, 1, T3, city_counts=False)
    assert "settlements on a corner" in e.value.message
    from engine.troje.describe import ADVANTAGE_WORDS

    assert str(ADVANTAGE_WORDS["harbour_3to1"]) == "a 3:1 harbour"
    assert all("_" not in str(w) and "3to1" not in str(w) for w in ADVANTAGE_WORDS.values())
