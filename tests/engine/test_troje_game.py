"""Troje wired into the Catan engine's turn flow: one marked test per rule the
turn flow applies (the rules the pure mechanics could not show before the
wiring), and the scenario's flows through the registered game: donations,
battles at the end of a turn (with 4 and with 6 players, before and after
the Special Building Phase), ships with their tiles, chips and the sea
people, the advantages on the support stack, the two ends of the game and
what each viewer is shown.

The placeholder board with 4 players: sea tile [-1, -2] shows a ship symbol
and has intersections 28, 40 and 41 on its corners; sea tile [-4, -1] has
51, 61, 62, 70 and 78.
"""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.catan import knowledge as K
from engine.catan.pieces import MAIN, OVER, PRE_ROLL, ROBBER, SBP, SETUP_R, SETUP_S, STEAL
from engine.core import CHANCE, MalformedEvent, RuleViolation
from engine.troje import saga as SG
from engine.troje import ships as SH
from engine.troje.game import BATTLE, CHIP, DEAL, REVEAL, SHIP_TILE, STACK_DRAW, SWAP_BACK, Troje

G = registry.get("catan-troje")
NAMES = ("Ann", "Bob", "Cor", "Dirk", "Eva", "Fien")
T3, T6 = [-1, -2], [-4, -1]
DEAL4 = ("troy", "mycenae", "troy", "mycenae")


def step(s, type_, seat, data):
    return G.apply(s, type_, seat, G.normalize(s, type_, seat, data))


def refused(s, type_, seat, data, rule):
    with pytest.raises(RuleViolation) as e:
        step(s, type_, seat, data)
    assert e.value.rule == rule, e.value
    return e.value


def set_up(n=4, seed=3, sides=None, **options):
    """A game past the set-up (random placements), at the start player's roll."""
    rng = random.Random(seed)
    s = G.setup(NAMES[:n], options)
    sides = sides or (DEAL4 if n == 4 else ("troy", "mycenae") * 3)
    while s.phase in (DEAL, SETUP_S, SETUP_R):
        if s.phase == DEAL:
            s = step(s, "decision_card", s.ext.dealt, {"side": sides[s.ext.dealt]})
            continue
        (seat,) = G.actors(s)
        m = rng.choice(G.legal_moves(s, seat))
        s = step(s, m.type, m.seat, m.data)
    assert s.phase == PRE_ROLL
    return s


def roll(s, dice=(1, 2)):
    s = step(s, "roll", s.turn, {})
    return step(s, "dice", None, {"dice": list(dice)})


def give(s, seat, **cards):
    """Seat ``seat`` holds exactly ``cards`` (known to all), the bank pays for it."""
    c = tuple(cards.get(r, 0) for r in ("lumber", "brick", "wool", "grain", "ore"))
    row = s.hands[seat]
    old = row[-1].known
    bank = tuple(b + o - k for b, o, k in zip(s.bank, old, c))
    hands = s.hands[:seat] + ((K.exact(c),) * len(row),) + s.hands[seat + 1:]
    return s._replace(hands=hands, bank=bank)


def ext(s, **changes):
    return s._replace(ext=s.ext._replace(**changes))


def settle(s, vertex, seat, city=False):
    return s._replace(buildings=s.buildings[:vertex] + (seat * 2 + int(city),) + s.buildings[vertex + 1:])


def stack_size(s):
    return s.hands[s.cfg.n][s.cfg.n + 1].size


def main4(**options):
    s = roll(set_up(4, **options))
    assert s.phase == MAIN and s.turn == 0
    return s


# -- the rules the turn flow applies ----------------------------------------------------

@pytest.mark.rule("troje.base_rules")
def test_the_base_rules_apply_and_with_six_players_the_special_building_phase():
    s = main4()
    s = give(s, 0, lumber=1, brick=1)
    spots = [m for m in G.legal_moves(s, 0) if m.type == "build_road"]
    assert spots, "roads are built as in the base game"
    after = step(s, "build_road", 0, spots[0].data)
    assert after.hands[0][-1].known == (0, 0, 0, 0, 0) and after.built[0][2] == s.built[0][2] + 1
    assert step(s, "end_turn", 0, {}).phase == PRE_ROLL  # four players: no Special Building Phase
    six = roll(set_up(6))
    after = step(six, "end_turn", 0, {})
    assert after.phase == SBP and after.step == 1
    assert six.cfg.bank == 24 and main4().cfg.bank == 19  # the 5–6 extension's bank


@pytest.mark.rule("troje.production")
def test_the_roll_pays_resources_as_in_the_base_game():
    s = set_up(4)
    topo = s.topo
    for total in range(2, 13):
        if total == 7:
            continue
        dice = (1, total - 1) if total <= 7 else (6, total - 6)
        after = roll(s, dice)
        want = [[0] * 5 for _ in range(4)]
        for h, r, verts in topo.number_sites.get(total, ()):
            for v in verts:
                b = s.buildings[v]
                if b >= 0:
                    want[b >> 1][r] += 1 + (b & 1)
        got = [[a - b for a, b in zip(after.hands[p][-1].known, s.hands[p][-1].known)] for p in range(4)]
        assert got == want, total


@pytest.mark.rule("troje.no_development_cards")
def test_development_cards_cannot_be_bought():
    s = give(main4(), 0, wool=1, grain=1, ore=1)
    assert not any(m.type.endswith("_dev") or m.type.startswith("play_") for m in G.legal_moves(s, 0))
    refused(s, "buy_dev", 0, {}, "troje.no_development_cards")
    assert "play_knight" not in G.event_types


@pytest.mark.rule("troje.turn_options")
def test_besides_building_the_player_may_donate_build_ships_and_bring_about_a_battle():
    s = settle(give(main4(), 0, lumber=2, wool=2, ore=1), 28, 0)
    s = ext(s, trade_points=(2, 0, 0, 0))
    kinds = {m.type for m in G.legal_moves(s, 0)}
    assert {"donate", "build_ship", "end_turn"} <= kinds
    ship = [m for m in G.legal_moves(s, 0) if m.type == "build_ship"]
    assert {"tile": T3} in [m.data for m in ship]
    # a full stack at the end of the turn brings the battle
    full = ext(s)._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 2, 2)),) * 6,))
    assert step(full, "end_turn", 0, {}).phase == BATTLE


@pytest.mark.rule("troje.seven")
def test_a_seven_discards_as_in_the_base_game_then_the_sea_people_move_not_a_robber():
    s = set_up(4)
    s = give(s, 1, lumber=4, wool=4)  # 8 cards: discards 4
    s = step(s, "roll", 0, {})
    s = step(s, "dice", None, {"dice": [3, 4]})
    assert s.pending[1] == 4
    refused(s, "move_sea_people", 0, {"tile": T3, "victim": None}, "troje.seven")
    s = step(s, "discard", 1, {"cards": {"lumber": 2, "wool": 2}})
    assert s.phase == ROBBER and G.view(s, None)["phase"] == "sea_people"
    refused(s, "move_robber", 0, {"hex": [0, 0], "victim": None}, "troje.seven")
    after = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    assert after.phase == MAIN and G.view(after, None)["troje"]["sea_people"] == T6


@pytest.mark.rule("troje.sea_people_when")
def test_the_sea_people_move_only_on_a_seven_and_after_a_ship():
    s = main4()
    refused(s, "move_sea_people", 0, {"tile": T6, "victim": None}, "troje.sea_people_when")
    s = ship_built(s)
    assert s.phase == ROBBER and G.actors(s) == (0,)


def ship_built(s, seat=0, tile=T3, advantage="victory_point"):
    s = settle(give(s, seat, lumber=1, wool=1), 28, seat)
    s = ext(s, trade_points=tuple(2 if p == seat else t for p, t in enumerate(s.ext.trade_points)))
    s = step(s, "build_ship", seat, {"tile": tile})
    assert s.phase == SHIP_TILE and G.actors(s) == (CHANCE,)
    return step(s, "ship_tile", seat, {"advantage": advantage})


@pytest.mark.rule("troje.ship_moves_sea_people")
@pytest.mark.rule("troje.ship_on_sea_people")
def test_after_a_ship_the_builder_must_move_the_sea_people_even_from_the_new_ships_tile():
    s = ext(main4(), sea_people=G.sea(main4()).index[tuple(T3)])
    s = ship_built(s)  # on the tile the sea people stand on: allowed, they move next
    refused(s, "end_turn", 0, {}, "catan.phase")
    refused(s, "move_sea_people", 0, {"tile": T3, "victim": None}, "troje.sea_people_tile")
    after = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    assert after.phase == MAIN
    assert after.ext.ships[G.sea(s).index[tuple(T3)]] == (0, SH.VP)
    assert after.ext.trade_points[0] == 0 and after.hands[0][-1].known == (0, 0, 0, 0, 0)


@pytest.mark.rule("troje.longest_road_roads_only")
def test_ships_do_not_lengthen_the_trade_route():
    s = main4()
    before = G.road_length(s, 0)
    s = ship_built(s)
    s = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    assert G.road_length(s, 0) == before and s.road_len[0] == before


# -- donations and the battle ------------------------------------------------------------

@pytest.mark.rule("troje.donate")
@pytest.mark.rule("troje.trade_point")
def test_one_donation_per_trade_and_build_phase_for_one_trade_point():
    s = give(main4(), 0, lumber=2, ore=3)
    a = step(s, "donate", 0, {"cards": {"erts": 2, "hout": 1}})
    assert a.ext.trade_points[0] == 1 and stack_size(a) == stack_size(s) + 3
    assert a.hands[0][-1].known == (1, 0, 0, 0, 1)
    refused(a, "donate", 0, {"cards": {"ore": 1}}, "troje.donate")
    refused(s, "donate", 0, {"cards": {"ore": 2, "lumber": 2}}, "troje.donate")  # four cards
    with pytest.raises(RuleViolation):
        step(s, "donate", 0, {"cards": {"brick": 1}})  # not in the hand
    # the next turn: again
    nxt = roll(step(a, "end_turn", 0, {}))
    assert not nxt.ext.donated[1]


@pytest.mark.rule("troje.donate_face_down")
def test_a_donation_is_seen_by_the_donor_and_the_log_only():
    s = give(main4(), 0, lumber=2, ore=3)
    s = s._replace(hands=s.hands[:0] + (tuple(K.exact((2, 0, 0, 0, 3)) if v in (0, 5) else
                                              K.Hand(K.ZERO, ((K.FULL, 0),) * 5) for v in range(6)),) + s.hands[1:])
    a = step(s, "donate", 0, {"cards": {"ore": 2}})
    n = 4
    assert K.describe(a.hands[n][0]) != K.describe(a.hands[n][1])  # the donor knows, Bob does not
    assert a.hands[n][1].size == a.hands[n][n + 1].size
    ev = {"seq": 9, "type": "donate", "seat": 0, "data": {"cards": {"ore": 2}, "count": 2}}
    assert G.event_view(a, ev, 1)["data"] == {"cards": None, "count": 2}
    assert G.event_view(a, ev, None)["redacted"] and G.event_view(a, ev, 0) == ev


@pytest.mark.rule("troje.hidden_cards")
def test_an_unseen_donation_and_an_unseen_blind_draw_stay_unseen_until_a_battle_shows_them():
    s = give(main4(), 0, lumber=2, ore=3)
    a = step(s, "donate", 0, {"cards": None, "count": 2})
    ref = a.hands[4][5]
    assert ref.size == stack_size(s) + 2 and len(ref.unseen) == 2


@pytest.mark.rule("troje.battle_trigger")
@pytest.mark.rule("troje.battle_reveal")
@pytest.mark.rule("troje.battle_remainder")
def test_the_battle_comes_at_the_end_of_a_turn_with_ten_cards_and_turns_up_seven():
    s = main4()
    nine = s._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 2, 1)),) * 6,))
    assert step(nine, "end_turn", 0, {}).phase == PRE_ROLL  # 9 cards: no battle
    ten = s._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 2, 2)),) * 6,))
    b = step(ten, "end_turn", 0, {})
    assert b.phase == BATTLE and G.actors(b) == (CHANCE,)
    refused(b, "roll", 1, {}, "troje.battle_reveal")
    with pytest.raises(RuleViolation):
        step(b, "battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 2}})  # 6, not 7
    after = step(b, "battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 2, "brick": 1}})
    assert after.hands[4][5].known == (0, 1, 0, 2, 0)  # the rest stays face down as the next stack
    assert after.ext.saga == SG.Saga(troy=1) and after.phase == PRE_ROLL and after.turn == 1


@pytest.mark.rule("troje.battle_score")
@pytest.mark.rule("troje.saga_move")
@pytest.mark.rule("troje.saga_vp")
def test_the_worked_example_mycenae_wins_three_two_and_its_marker_goes_to_the_third_field():
    """4 players, 11 cards at the end of a turn; 7 turned up; 3–2 for Mycenae;
    Mycenae's marker to the third field: every Mycenae player has 3 VP more."""
    s = ext(main4(), saga=SG.Saga(troy=0, mycenae=2))
    s = s._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 3, 2)),) * 6,))  # 11 cards
    b = step(s, "end_turn", 0, {})
    before = [G.total_vp(b, p) for p in range(4)]
    a = step(b, "battle", None, {"revealed": {"lumber": 2, "grain": 1, "wool": 1, "ore": 1, "brick": 2}})
    assert a.ext.saga == SG.Saga(troy=0, mycenae=3) and stack_size(a) == 4
    gained = [G.total_vp(a, p) - before[p] for p in range(4)]
    assert gained == [0, 1, 0, 1]  # from field 2 (2 VP) to field 3 (3 VP) for Bob and Dirk (Mycenae)
    assert SG.side_vp(a.ext.saga, "mycenae") == 3


@pytest.mark.rule("troje.battle_cards")
def test_the_turned_up_cards_go_back_to_the_bank_or_out_of_the_game():
    for option, back in (("bank", True), ("removed", False)):
        s = main4(revealed_cards=option)
        s = s._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 2, 3)),) * 6,))
        b = step(s, "end_turn", 0, {})
        a = step(b, "battle", None, {"revealed": {"ore": 3, "wool": 2, "lumber": 2}})
        assert (a.bank[4] - b.bank[4] == 3) == back


def test_with_six_players_the_battle_comes_before_the_special_building_phase_or_after_it():
    for timing in ("before_sbp", "after_sbp"):
        s = roll(set_up(6, battle_timing=timing))
        s = s._replace(hands=s.hands[:6] + ((K.exact((3, 3, 3, 2, 2)),) * 8,))  # 13 cards
        s = step(s, "end_turn", 0, {})
        if timing == "before_sbp":
            assert s.phase == BATTLE
            s = step(s, "battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 3, "grain": 2, "brick": 1}})
            assert s.phase == SBP and s.step == 1
        else:
            for seat in range(1, 6):
                assert s.phase == SBP and s.step == seat
                s = step(s, "end_turn", seat, {})
            assert s.phase == BATTLE
            s = step(s, "battle", None, {"revealed": {"ore": 2, "wool": 2, "lumber": 3, "grain": 2, "brick": 1}})
            assert s.phase == PRE_ROLL and s.turn == 1
        assert s.ext.saga == SG.Saga(mycenae=1)


def test_no_donation_in_the_special_building_phase_unless_the_option_allows_it():
    for allowed in (False, True):
        s = roll(set_up(6, donations_in_sbp=allowed))
        s = step(s, "end_turn", 0, {})
        s = give(s, 1, ore=2)
        if allowed:
            assert step(s, "donate", 1, {"cards": {"ore": 1}}).ext.trade_points[1] == 1
        else:
            refused(s, "donate", 1, {"cards": {"ore": 1}}, "troje.donate")


# -- ships, advantages, the sea people ------------------------------------------------------

@pytest.mark.rule("troje.ship_cost")
def test_a_ship_needs_two_trade_points_and_lumber_and_wool():
    s = settle(give(main4(), 0, lumber=1, wool=1), 28, 0)
    refused(s, "build_ship", 0, {"tile": T3}, "troje.ship_cost")  # no trade points
    s = ext(s, trade_points=(2, 0, 0, 0))
    refused(give(s, 0, lumber=1), "build_ship", 0, {"tile": T3}, "troje.ship_cost")


@pytest.mark.rule("troje.adv_chip")
@pytest.mark.rule("troje.trade_chips")
def test_a_trade_chip_ship_gives_the_chosen_chip_and_2_to_1_until_the_sea_people_block_it():
    s = ship_built(main4(), advantage="trade_chip")
    assert s.phase == CHIP and [m.data for m in G.legal_moves(s, 0)][0] == {"resource": "lumber"}
    s = step(s, "take_chip", 0, {"resource": "wol"})
    assert s.ext.chip_supply == (2, 2, 1, 2, 2) and s.phase == ROBBER
    s = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    assert G.ratios(s, 0)[2] == 2
    blocked = ext(s, sea_people=G.sea(s).index[tuple(T3)])
    assert G.ratios(blocked, 0)[2] > 2
    assert G.ratios(ext(blocked, tcfg=blocked.ext.tcfg._replace(blocked_blocks_chip=False)), 0)[2] == 2


@pytest.mark.rule("troje.adv_swap")
@pytest.mark.rule("troje.advantage_use")
def test_a_swap_ship_draws_blind_then_lays_a_card_back_once_per_turn():
    s = ship_built(main4(), advantage="swap")
    s = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    s = give(s, 0, ore=1)
    size = stack_size(s)
    s = step(s, "use_advantage", 0, {"ship": T3})
    assert s.phase == STACK_DRAW
    s = step(s, "stack_card", 0, {"card": None})  # not seen by the recorder
    assert s.phase == SWAP_BACK and s.hands[0][5].size == 2
    s = step(s, "return_card", 0, {"card": "ore"})
    assert s.phase == MAIN and stack_size(s) == size
    refused(s, "use_advantage", 0, {"ship": T3}, "troje.advantage_use")


@pytest.mark.rule("troje.adv_draw")
@pytest.mark.rule("troje.sea_people_block")
def test_a_draw_ship_draws_without_laying_back_unless_the_sea_people_stand_on_it():
    s = ship_built(main4(), advantage="draw")
    s = step(s, "move_sea_people", 0, {"tile": T6, "victim": None})
    blocked = ext(s, sea_people=G.sea(s).index[tuple(T3)])
    refused(blocked, "use_advantage", 0, {"ship": T3}, "troje.sea_people_block")
    s = step(s, "use_advantage", 0, {"ship": T3})
    size = stack_size(s)
    s = step(s, "stack_card", 0, {"card": "grain"} if s.hands[4][5].known[3] else {"card": None})
    assert s.phase == MAIN and stack_size(s) == size - 1


@pytest.mark.rule("troje.adv_vp")
@pytest.mark.rule("troje.adv_harbor")
def test_a_vp_ship_counts_and_a_harbour_ship_trades_3_to_1():
    s = main4()
    vp = G.public_vp(s, 0)
    s = step(ship_built(s), "move_sea_people", 0, {"tile": T6, "victim": None})
    assert G.public_vp(s, 0) == vp + 1
    h = step(ship_built(main4(), advantage="harbour_3to1"), "move_sea_people", 0, {"tile": T6, "victim": None})
    assert max(G.ratios(h, 0)) <= 3


@pytest.mark.rule("troje.sea_people_steal")
def test_the_mover_draws_from_a_player_with_a_settlement_on_the_tiles_corner():
    s = settle(main4(), 40, 1)
    s = give(s, 1, grain=2)
    s = step(s, "roll", 0, {}) if s.phase == PRE_ROLL else s
    s = s._replace(phase=ROBBER, ret=MAIN)
    moves = [m.data for m in G.legal_moves(s, 0) if m.data["tile"] == T3]
    assert {"tile": T3, "victim": 1} in moves
    a = step(s, "move_sea_people", 0, {"tile": T3, "victim": 1})
    assert a.phase == STEAL
    a = step(a, "steal", 0, {"card": "graan"})
    assert a.hands[1][-1].known[3] == 1 and a.phase == MAIN


def test_a_ship_built_in_the_special_building_phase_lets_its_builder_move_the_sea_people_and_draw():
    s = roll(set_up(6))
    s = step(s, "end_turn", 0, {})
    assert s.phase == SBP and s.step == 1
    n = 6
    sea = G.sea(s)
    tile = next(t for t in range(len(sea.tiles)) if sea.ship_symbol[t] and sea.corners[t])
    v = sea.corners[tile][0]
    s = ext(settle(give(s, 1, lumber=1, wool=1), v, 1), trade_points=(0, 2, 0, 0, 0, 0))
    s = step(s, "build_ship", 1, {"tile": list(sea.tiles[tile])})
    s = step(s, "ship_tile", 1, {"advantage": "victory_point"})
    assert s.phase == ROBBER and G.actors(s) == (1,)
    victim = 2
    other = next(t for t in range(len(sea.tiles)) if t != tile and sea.corners[t])
    s = settle(give(s, victim, ore=1), sea.corners[other][0], victim)
    s = step(s, "move_sea_people", 1, {"tile": list(sea.tiles[other]), "victim": victim})
    s = step(s, "steal", 1, {"card": "ore"})
    assert s.phase == SBP and s.step == 1 and s.turn == 0 and s.hands[1][n + 1].known[4] == 1


# -- the end --------------------------------------------------------------------------------

@pytest.mark.rule("troje.win_15")
def test_fifteen_vp_win_in_ones_own_turn_only():
    s = main4()
    s = ext(s, saga=SG.Saga(troy=5 - 1, mycenae=0))  # Troy's players: 4 VP
    s = give(s, 0, grain=2, ore=3)
    s = s._replace(built=((5, 4, 8),) + s.built[1:])  # 5 + 8 = 13 VP + 4 saga
    assert G.total_vp(s, 0) >= 15
    a = step(s, "end_turn", 0, {})  # Bob's turn begins: Ann's 17 VP do not count now
    assert a.phase == PRE_ROLL and a.winner < 0
    a = step(s, "donate", 0, {"cards": {"ore": 1}})  # any event in her own turn: the win counts
    assert a.phase == OVER and a.ext.winners == (0,) and G.result(a).winners == (0,)


@pytest.mark.rule("troje.war_end")
@pytest.mark.rule("troje.war_tiebreak")
def test_the_war_ends_on_the_six_and_the_most_vp_then_the_most_trade_points_win():
    s = ext(main4(), saga=SG.Saga(troy=4, mycenae=0), trade_points=(1, 0, 3, 0))
    s = s._replace(built=((3, 0, 5), (2, 0, 4), (3, 0, 5), (5, 0, 6)))  # Ann 3+6, Cor 3+6, Dirk 5 (Mycenae)
    s = s._replace(hands=s.hands[:4] + ((K.exact((2, 2, 2, 2, 3)),) * 6,), longest=-1)
    b = step(s, "end_turn", 0, {})
    a = step(b, "battle", None, {"revealed": {"ore": 3, "wool": 2, "lumber": 2}})
    assert a.ext.war == "troy" and a.phase == OVER
    assert G.result(a).winners == (2,), G.result(a)  # Ann and Cor 9 VP each; Cor has more trade points
    assert "war is over" in str(G.result(a).reason)


@pytest.mark.rule("troje.allegiance_knowledge")
def test_a_claimed_win_with_unknown_sides_is_checked_at_the_reveal():
    s = roll(set_up(4, allegiances="at_reveal"))
    assert s.ext.allegiances == (None,) * 4
    s = ext(s, saga=SG.Saga(troy=5 - 1, mycenae=1))
    s = s._replace(built=((5, 4, 8),) + s.built[1:])  # 13 VP: 17 with Troy, 14 with Mycenae
    assert {m.type for m in G.legal_moves(s, 0)} >= {"claim_win"}
    c = step(s, "claim_win", 0, {})
    assert c.phase == REVEAL and G.actors(c) == ("table",)
    refused(c, "reveal_allegiances", None, {"sides": ["mycenae", "troy", "troy", "mycenae"]}, "troje.win_15")
    with pytest.raises(RuleViolation):
        step(c, "reveal_allegiances", None, {"sides": ["troy", "troy", "troy", "mycenae"]})
    a = step(c, "reveal_allegiances", None, {"sides": ["troje", "mykene", "troy", "mycenae"]})
    assert a.phase == OVER and G.result(a).winners == (0,) and a.ext.revealed


@pytest.mark.rule("troje.allegiance")
def test_a_seat_sees_its_own_decision_card_the_public_none_the_referee_all_and_everyone_at_the_end():
    s = main4()
    sides = lambda v: [p["side"] for p in G.view(s, v)["players"]]  # noqa: E731
    assert sides(0) == ["troy", None, None, None]
    assert sides(None) == [None] * 4
    assert sides("referee") == list(DEAL4)
    ev = {"seq": 1, "type": "decision_card", "seat": 1, "data": {"side": "mycenae"}}
    assert G.event_view(s, ev, 0)["data"]["side"] is None and G.event_view(s, ev, 1) == ev
    assert all(G.view(s, v)["players"][1].get("saga_vp") is None for v in (0, 2, 3, None))
    refused(s, "reveal_allegiances", None, {"sides": list(DEAL4)}, "troje.allegiance")


def test_decision_cards_are_dealt_in_seat_order_before_the_set_up_and_never_unequal():
    s = G.setup(NAMES[:4], {})
    assert s.phase == DEAL
    refused(s, "build_settlement", 0, {"vertex": 0}, "troje.allegiance")
    with pytest.raises(MalformedEvent):
        step(s, "decision_card", 2, {"side": "troy"})
    s = step(s, "decision_card", 0, {"side": "troy"})
    s = step(s, "decision_card", 1, {"side": "troy"})
    refused(s, "decision_card", 2, {"side": "troy"}, "troje.allegiance_teams")
    s = step(s, "decision_card", 2, {"side": None})  # not seen by the recorder
    s = step(s, "decision_card", 3, {"side": "mykene"})
    assert s.phase == SETUP_S and s.ext.allegiances == ("troy", "troy", None, "mycenae")


@pytest.mark.rule("troje.hidden_cards")
def test_a_card_the_log_knows_is_not_there_is_refused_even_when_a_viewer_knows_the_hand_as_the_log_does():
    """Regression: a viewer whose knowledge equals the log's failed first and its
    fallback was reused for the log, so a donation of a card not in the hand
    and a battle turning up cards not on the stack went through."""
    s = give(main4(), 0, lumber=2, ore=3)  # every viewer knows Ann's hand exactly, as the log does
    with pytest.raises(RuleViolation) as e:
        step(s, "donate", 0, {"cards": {"brick": 1}})
    assert e.value.rule == "troje.hidden_cards"
    full = s._replace(hands=s.hands[:4] + ((K.exact((3, 2, 2, 3, 0)),) * 6,))
    b = step(full, "end_turn", 0, {})
    with pytest.raises(RuleViolation) as e:
        step(b, "battle", None, {"revealed": {"ore": 1, "wool": 2, "lumber": 3, "grain": 1}})
    assert e.value.rule == "troje.hidden_cards"


def test_a_ship_tiles_summary_names_its_advantage_in_words():
    """Issue 19: a ship tile's summary read "harbour 3to1" (mended once, then reverted)."""
    s = settle(give(main4(), 0, lumber=1, wool=1), 28, 0)
    s = ext(s, trade_points=tuple(2 if p == 0 else t for p, t in enumerate(s.ext.trade_points)))
    s = step(s, "build_ship", 0, {"tile": T3})
    data = G.normalize(s, "ship_tile", 0, {"advantage": "harbour_3to1"})
    text = str(G.describe(s, "ship_tile", 0, data, G.apply(s, "ship_tile", 0, data)))
    assert text.endswith("ship tile shows a 3:1 harbour") and "3to1" not in text, text
