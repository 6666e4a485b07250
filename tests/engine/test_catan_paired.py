"""The paired players' turn for 5–6 players (option ``turn_model: "paired"``),
the newer official alternative to the Special Building Phase. Source: the
CATAN Universe FAQ ("What are the rules for a 5 or 6 player match?") and the
rule sheet "The Paired Players Turn Rule for the 5-6 Player Extensions":
two players share each turn; Settler 1 rolls and plays as usual; then
Settler 2, the third player to Settler 1's left, trades with the bank (not
with players) and builds; both may play development cards, only Settler 1 a
knight before the roll. The default stays the Special Building Phase (Troy
predates the paired rule)."""

from __future__ import annotations

import pytest

from engine.catan.game import DEV, MAIN, OVER, PRE_ROLL, ROBBER, SBP, STEAL, ZERO
from engine.core import InvalidOptions, RuleViolation

from .catan_support import G, act, counts, give, hand, main_phase, new, play_setup


def paired(n=6, **options):
    """Set-up done, at the start of seat 0's first (paired) turn."""
    return play_setup(new(n, turn_model="paired", **options))


def refused(rule, fn, *args, **kw):
    with pytest.raises(RuleViolation) as exc:
        fn(*args, **kw)
    assert exc.value.rule == "catan." + rule, (exc.value.rule, exc.value.message)
    return exc.value


def hold(s, seat, cards):
    """``seat`` holds these development cards (bought before this turn): its own
    view and the log's know them, the others see as many unknown cards."""
    known = tuple(cards.get(k, 0) for k in DEV)
    n = s.cfg.n
    row = tuple((known, 0) if v in (seat, n + 1) else (ZERO, sum(known)) for v in range(n + 2))
    pools = tuple(tuple(p - k for p, k in zip(pool, known)) if v in (seat, n + 1) else pool
                  for v, pool in enumerate(s.pools))
    return s._replace(dev=s.dev[:seat] + (row,) + s.dev[seat + 1:], pools=pools, deck=s.deck - sum(known))


def to_settler_2(s):
    """From Settler 1's turn start: roll a non-7 and end Settler 1's part."""
    first = s.turn
    return act(main_phase(s), "end_turn", first)


@pytest.mark.rule("catan.paired_order")
@pytest.mark.parametrize("n", [5, 6])
def test_settler_2_is_the_third_player_to_the_left_and_the_roll_passes_to_settler_1s_left(n):
    s = paired(n)
    assert s.cfg.paired and not s.cfg.sbp
    pairs = []
    for k in range(2 * n):
        first, turn_no = s.turn, s.turn_no
        assert s.phase == PRE_ROLL and G.view(s, None)["paired_turn"] == {
            "settler_1": first, "settler_2": (first + 3) % n, "acting": 1}
        s = to_settler_2(s)
        second = s.turn
        assert second == (first + 3) % n and G.actors(s) == (second,) and s.phase == MAIN
        assert G.view(s, second)["paired_turn"] == {"settler_1": first, "settler_2": second, "acting": 2}
        assert s.turn_no == turn_no, "one turn, two parts"
        refused("roll", act, s, "roll", second)  # the roll was Settler 1's
        with pytest.raises(RuleViolation):
            act(s, "end_turn", first)  # Settler 1's part is over
        s = act(s, "end_turn", second)
        pairs.append((first, second))
        assert s.phase == PRE_ROLL and s.turn == (first + 1) % n and s.turn_no == turn_no + 1
    assert [a for a, _ in pairs[:n]] == list(range(n))
    assert sorted(b for _, b in pairs[:n]) == list(range(n)), "each player is Settler 2 once a round"
    assert pairs[n:] == pairs[:n]


@pytest.mark.rule("catan.paired_order")
def test_the_turn_model_is_an_option_and_the_special_building_phase_stays_the_default():
    assert new(6).cfg.sbp and not new(6).cfg.paired  # Troy predates the paired rule
    assert new(5, special_building_phase=True).cfg.sbp
    assert not new(6, turn_model="standard").cfg.sbp and not new(6, turn_model="standard").cfg.paired
    assert new(4, turn_model="special_building").cfg.sbp and not new(4).cfg.sbp
    assert new(5, turn_model="paired").cfg.paired and new(5, turn_model="paired", special_building_phase=False).cfg.paired
    with pytest.raises(InvalidOptions) as exc:
        new(4, turn_model="paired")
    assert exc.value.details["field"] == "options.turn_model" and exc.value.details["rule"] == "catan.paired_order"
    with pytest.raises(InvalidOptions) as exc:
        new(6, turn_model="paired", special_building_phase=True)
    assert exc.value.details["field"] == "options.special_building_phase"
    with pytest.raises(InvalidOptions):
        new(6, turn_model="standard", special_building_phase=True)


@pytest.mark.rule("catan.paired_trade")
def test_settler_2_builds_and_trades_with_the_bank_but_not_with_other_players():
    s = main_phase(paired(6))
    # in Settler 1's part anyone may trade with Settler 1, the coming Settler 2 too
    s = give(give(s, 0, {"ore": 1}), 3, {"wool": 1})
    s = act(s, "trade", 0, {"with": 3, "give": {"ore": 1}, "get": {"wool": 1}})
    s = act(s, "end_turn", 0)
    s = give(give(s, 3, {"ore": 4, "lumber": 1, "brick": 1, "wool": 1}), 4, {"grain": 1})
    refused("paired_trade", act, s, "trade", 3, {"with": 4, "give": {"wool": 1}, "get": {"grain": 1}})
    refused("paired_trade", act, s, "trade", 3, {"with": 0, "give": {"wool": 1}, "get": {"ore": 1}})
    k = G.ratio(s, 3, 4)  # ore: 4:1, or better with a harbour
    s = act(s, "trade_bank", 3, {"give": "ore", "get": "grain"})
    assert hand(s, 3).known == counts({"ore": 4 - k, "lumber": 1, "brick": 1, "wool": 1, "grain": 1})
    e = G._road_spots(s, 3)[0]
    s = act(s, "build_road", 3, {"edge": e})
    assert s.roads[e] == 3 and s.built[3][2] == 3
    s = give(s, 3, {"ore": 1, "wool": 1, "grain": 1})
    s = act(act(s, "buy_dev", 3), "draw_dev", 3, {"card": "monopoly"})
    assert s.phase == MAIN and s.turn == 3 and sum(s.dev[3][-1][0]) == 1


@pytest.mark.rule("catan.paired_cards")
def test_both_settlers_may_play_a_card_each_and_settler_2_a_knight_after_the_roll():
    s = paired(6)
    for seat in (0, 3):  # each holds a knight and a Year of Plenty bought before this turn
        s = hold(s, seat, {"knight": 1, "year_of_plenty": 1})
    s = act(s, "play_knight", 0)  # Settler 1: a knight before the roll
    assert s.phase == ROBBER
    target = next(h for h in range(len(s.topo.hexes)) if h != s.robber and not G._victims(s, h, 0))
    s = act(s, "move_robber", 0, {"hex": list(s.topo.hexes[target]), "victim": None})
    s = act(act(s, "roll", 0), "dice", None, {"dice": [2, 4]})
    refused("dev_one_per_turn", act, s, "play_year_of_plenty", 0, {"cards": ["ore", "ore"]})
    s = act(s, "end_turn", 0)
    # Settler 2's part comes after the roll; their own card is still theirs to play
    assert s.turn == 3 and not s.dev_played
    s = act(s, "play_knight", 3)
    assert s.phase == ROBBER and G.actors(s) == (3,)
    victims = {h: G._victims(s, h, 3) for h in range(len(s.topo.hexes)) if h != s.robber}
    h, who = next((h, v) for h, v in victims.items() if v)
    s = give(s, who[0], {"wool": 1})
    s = act(s, "move_robber", 3, {"hex": list(s.topo.hexes[h]), "victim": who[0]})
    assert s.phase == STEAL
    s = act(s, "steal", 3, {"card": "wool"})
    assert s.phase == MAIN and s.turn == 3 and hand(s, 3).known[2] >= 1
    refused("dev_one_per_turn", act, s, "play_year_of_plenty", 3, {"cards": ["ore", "ore"]})


@pytest.mark.rule("catan.paired_cards")
def test_a_card_bought_in_settler_2s_part_waits_for_a_later_part():
    s = to_settler_2(paired(6))
    s = give(s, 3, {"ore": 1, "wool": 1, "grain": 1})
    s = act(act(s, "buy_dev", 3), "draw_dev", 3, {"card": "knight"})
    refused("dev_not_same_turn", act, s, "play_knight", 3)
    s = act(s, "end_turn", 3)  # seat 1 rolls next; seat 3's own turn comes two turns later
    while s.turn != 3:
        s = to_settler_2(s)
        s = act(s, "end_turn", s.turn)
    s = act(s, "play_knight", 3)  # bought in an earlier part: playable before its owner's roll
    assert s.phase == ROBBER


@pytest.mark.rule("catan.paired_victory")
def test_settler_2_wins_in_their_part():
    s = to_settler_2(paired(5, victory_points=4))
    assert s.turn == 3 and G.public_vp(s, 3) == 2
    s = give(s, 3, {"ore": 6, "grain": 4})
    mine = [v for v, b in enumerate(s.buildings) if b == 6]
    s = act(s, "build_city", 3, {"vertex": mine[0]})
    assert s.winner == -1
    s = act(s, "build_city", 3, {"vertex": mine[1]})
    assert s.phase == OVER and s.winner == 3


@pytest.mark.rule("catan.paired_victory")
def test_settler_2_who_reached_the_goal_in_another_part_wins_at_the_start_of_theirs():
    s = main_phase(paired(6, victory_points=3))
    s = hold(s, 3, {"victory_point": 1})  # seat 3: 2 + 1 = 3 VP, reached outside their turn
    assert s.winner == -1
    after = act(s, "end_turn", 0)
    assert after.phase == OVER and after.winner == 3
    # under the Special Building Phase the same card waits for seat 3's own turn
    sbp = s._replace(cfg=s.cfg._replace(sbp=True, paired=False))
    sbp = act(sbp, "end_turn", 0)
    assert sbp.phase == SBP and sbp.winner == -1


@pytest.mark.rule("catan.paired_cards")
def test_a_card_bought_in_ones_own_turn_is_playable_in_ones_next_part_as_settler_2():
    s = paired(6)
    while s.turn != 3:  # seats 0, 1, 2 take their turns
        s = to_settler_2(s)
        s = act(s, "end_turn", s.turn)
    s = give(main_phase(s), 3, {"ore": 1, "wool": 1, "grain": 1})
    s = act(act(s, "buy_dev", 3), "draw_dev", 3, {"card": "year_of_plenty"})
    refused("dev_not_same_turn", act, s, "play_year_of_plenty", 3, {"cards": ["ore", "ore"]})
    s = act(s, "end_turn", 3)
    s = act(s, "end_turn", s.turn)  # seat 0 is Settler 2 of seat 3's turn
    while s.turn != 0:
        s = to_settler_2(s)
        s = act(s, "end_turn", s.turn)
    s = to_settler_2(s)  # seat 0 rolls; seat 3 is its Settler 2
    assert s.turn == 3
    s = act(s, "play_year_of_plenty", 3, {"cards": ["ore", "grain"]})
    assert hand(s, 3).known[4] >= 1
