"""Variants A–G of the rules text, their combinations and simulated matches."""

import json
import random

import pytest

from engine import match as M
from engine.core import CHANCE, REFEREE, InvalidOptions, RuleViolation

from .braverats_support import CARDS, GAME, Rec, play_random


def direct_violation(rec: Rec, type_, seat, data) -> RuleViolation:
    """The game's own rule for an event the framework would already refuse."""
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(rec.state, type_, seat, GAME.normalize(rec.state, type_, seat, data))
    return exc.value


def framework_violation(rec: Rec, type_, seat, data) -> RuleViolation:
    with pytest.raises(RuleViolation) as exc:
        rec.add(type_, seat, data)
    return exc.value


# -- A: the traitor -------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_a")
def test_traitor_exchanges_one_card_each_before_the_game():
    rec = Rec({"variants": ["A"]})
    assert GAME.actors(rec.state) == (CHANCE,)
    rec.add("exchange", None, {"cards": ["prins", 0]})  # Red gives the Prince, Blue the Musician
    assert rec.describe_last() == "The traitor: Ann (Red) gives the Prince to Bob and Bob (Blue) gives the Musician to Ann"
    v = rec.ms.view(None)
    assert v["hands"][0]["cards"] == ["musician", "musician", "princess", "spy", "assassin", "ambassador", "wizard", "general"]
    assert v["hands"][1]["cards"] == ["princess", "spy", "assassin", "ambassador", "wizard", "general", "prince", "prince"]
    rec.round("musician", "prince")
    rec.round("musician", "prince")
    err = framework_violation(rec, "round", None, {"cards": ["prince", "spy"]})
    assert err.rule == "braverats.card_in_hand" and "Ann (Red) has no Prince" in err.message


@pytest.mark.rule("braverats.variant_a")
def test_traitor_cannot_give_a_card_the_hand_lacks():
    rec = Rec({"variants": ["A", "E"]})
    rec.add("deal", None, {"hands": [["musician", "musician", "princess", "princess", "spy", "spy", "assassin", "assassin"],
                                     ["unknown"] * 8]})
    err = framework_violation(rec, "exchange", None, {"cards": ["prince", "prince"]})
    assert err.rule == "braverats.variant_a" and "Ann (Red) has no Prince to give" in err.message
    rec.add("exchange", None, {"cards": ["spy", "prince"]})  # Blue's unseen hand can hold a Prince
    assert rec.state.hands[0].known.count(7) == 1 and rec.state.hands[1].known == (2,)


# -- B: the draw pile -------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_b")
def test_draw_pile_three_then_one_after_each_round_until_empty():
    rec = Rec({"variants": ["B"]})
    assert rec.state.phase == "draw" and GAME.actors(rec.state) == (CHANCE,)
    assert rec.ms.view(None)["hands"][0]["pile"] == 8
    err = framework_violation(rec, "draw", None, {"cards": [["spy"], ["spy", "prince", "wizard"]]})
    assert err.rule == "braverats.variant_b" and "Ann (Red) draws 3" in err.message
    rec.add("draw", None, {"cards": [["spy", "prince", "wizard"], ["musician", "general", "assassin"]]})
    assert rec.describe_last() == "Each player draws 3 cards from his pile"
    err = framework_violation(rec, "round", None, {"cards": ["general", "musician"]})
    assert err.rule == "braverats.card_in_hand" and "Spy, Wizard, Prince" in err.message
    rec.round("prince", "general")
    assert rec.state.phase == "draw"
    assert direct_violation(rec, "round", None, {"cards": ["spy", "musician"]}).rule == "braverats.variant_b"
    err = framework_violation(rec, "draw", None, {"cards": [["prince"], ["spy"]]})
    assert err.rule == "braverats.variant_b" and "Ann (Red)'s draw pile cannot hold a Prince" in err.message
    rec.add("draw", None, {"cards": [["general"], ["prince"]]})
    assert rec.state.hands[0].pile == 4 and rec.state.hands[0].size == 3
    assert rec.describe_last() == "Each player draws 1 card from his pile"
    # play the lowest card each round and draw the lowest left: 4 more draws empty the piles
    draws = 1
    while rec.ms.result is None:
        red, blue = (CARDS[h.known[0]] for h in rec.state.hands)
        rec.round(red, blue)
        if rec.state.phase == "draw":
            rec.add("draw", None, {"cards": [[CARDS[rec.state.hands[s].own[0]]] for s in (0, 1)]})
            draws += 1
        elif rec.ms.result is None:
            assert rec.state.hands[0].pile == 0 and rec.state.phase == "play"
    assert draws == 5 and rec.state.hands[0].pile == 0


@pytest.mark.rule("braverats.variant_b")
@pytest.mark.rule("braverats.card_in_hand")
def test_unknown_draws_accept_possible_cards_and_reject_impossible_ones():
    rec = Rec({"variants": ["B"]})
    rec.add("draw", None, {"cards": [["unknown", "onbekend", "?"], ["spy", "prince", "general"]]})
    assert rec.log[-1]["data"] == {"cards": [["unknown", "unknown", "unknown"], ["spy", "general", "prince"]]}
    assert rec.state.hands[0].unknown == 3
    rec.round("spy", "general")  # Red's Spy is one of its unseen cards
    rec.add("draw", None, {"cards": [["unknown"], ["wizard"]]})
    err = framework_violation(rec, "round", None, {"cards": ["spy", "prince"]})
    assert err.rule == "braverats.card_in_hand"
    assert "Ann (Red) has no Spy left in hand" in err.message and "3 unseen cards" in err.message
    # Red's three unseen cards can be anything but the Spy
    assert {m["data"]["cards"][0] for m in M.legal_moves(rec.ms, None)} == set(CARDS) - {"spy"}


@pytest.mark.rule("braverats.setup_order")
def test_setup_order_exchange_before_first_draw():
    rec = Rec({"variants": ["B", "A"]})
    assert rec.state.phase == "exchange"
    assert direct_violation(rec, "draw", None, {"cards": [["spy"] * 3, ["spy"] * 3]}).rule == "braverats.setup_order"
    err = direct_violation(rec, "round", None, {"cards": ["spy", "spy"]})
    assert err.rule == "braverats.setup_order" and "traitor's exchange" in err.message
    assert framework_violation(rec, "round", None, {"cards": ["spy", "spy"]}).rule == "core.turn"
    rec.add("exchange", None, {"cards": ["spy", "prince"]})
    assert rec.state.phase == "draw"
    assert rec.state.hands[0].own == (0, 1, 3, 4, 5, 6, 7, 7)
    rec = Rec({"variants": ["D", "A", "B"]})
    assert rec.state.phase == "draft"
    assert direct_violation(rec, "exchange", None, {"cards": ["spy", "spy"]}).rule == "braverats.setup_order"


# -- C: quick rat -------------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_c")
@pytest.mark.rule("braverats.win")
def test_quick_rat_three_rounds_win():
    rec = Rec({"variants": ["C"]})
    assert rec.ms.view(None)["target"] == 3
    rec.round("prince", "spy")
    rec.round("ambassador", "princess")
    assert rec.ms.result.winners == (0,) and rec.ms.result.scores == (3, 0)


# -- D: draft -----------------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_d")
def test_draft_four_pick_pass_three_pick_two_back_pick_last_to_other():
    rec = Rec({"variants": ["D"]})
    assert GAME.actors(rec.state) == (CHANCE,)
    err = framework_violation(rec, "draft", None, {"cards": ["prince", "prince", "prince", "spy"]})
    assert err.rule == "braverats.variant_d" and "cannot hold" in err.message
    assert direct_violation(rec, "draft", 1, {"cards": ["spy"] * 2 + ["prince"] * 2}).rule == "braverats.variant_d"
    rec.add("draft", 0, {"cards": ["prince", "spion", "prince", 0]})
    assert rec.describe_last() == "Ann (Red) draws 4 cards for the draft"
    assert GAME.actors(rec.state) == (0,)
    assert rec.ms.view(0)["draft"]["offer"] == ["musician", "spy", "prince", "prince"]
    assert rec.ms.view(1)["draft"]["offer"] is None and rec.ms.view(None)["draft"]["offer_count"] == 4
    assert framework_violation(rec, "pick", 1, {"card": "spy"}).rule == "core.turn"
    assert direct_violation(rec, "pick", 1, {"card": "spy"}).rule == "braverats.variant_d"
    err = framework_violation(rec, "pick", 0, {"card": "wizard"})
    assert err.rule == "braverats.variant_d" and "Musician, Spy, Prince, Prince" in err.message
    rec.add("pick", 0, {"card": "prince"})
    assert rec.describe_last() == "Ann (Red) keeps a card and passes 3 to Bob"
    assert rec.ms.view(1)["draft"]["offer"] == ["musician", "spy", "prince"]
    assert rec.ms.view(0)["draft"]["offer"] is None
    rec.add("pick", 1, {"card": "spy"})
    rec.add("pick", 0, {"card": "prince"})
    assert rec.describe_last() == "Ann (Red) keeps a card; the last card goes to Bob"
    assert rec.state.hands[0].known == (7, 7) and rec.state.hands[1].known == (0, 2)
    # the next 4 are Blue's to draw and to pick from first
    assert rec.state.drafter == 1 and GAME.actors(rec.state) == (CHANCE,)
    assert direct_violation(rec, "draft", 0, {"cards": ["spy", "wizard", "wizard", "general"]}).rule == "braverats.variant_d"
    rec.add("draft", None, {"cards": ["spy", "wizard", "wizard", "general"]})
    assert GAME.actors(rec.state) == (1,)


@pytest.mark.rule("braverats.variant_d")
def test_draft_alternates_until_both_hold_eight_and_hands_may_repeat_ranks():
    rec = Rec({"variants": ["D"], "draft_first_seat": 1}, mode="simulated", seed=7)
    drafters = []
    while rec.state.phase == "draft":
        if rec.state.offer and len(rec.state.offer) == 4:
            drafters.append(rec.state.drafter)
        seat = GAME.actors(rec.state)[0]
        rec.add("pick", seat, M.legal_moves(rec.ms, seat)[0]["data"])
    assert drafters == [1, 0, 1, 0]
    assert rec.state.phase == "play"
    assert [h.size for h in rec.state.hands] == [8, 8]
    assert sorted(rec.state.hands[0].known + rec.state.hands[1].known) == sorted(list(range(8)) * 2)
    # picking the lowest card each time gives Blue (first drafter) both Musicians
    assert rec.state.hands[1].known.count(0) == 2


# -- E: random ----------------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_e")
def test_random_deal_with_unseen_hands():
    rec = Rec({"variants": ["E"]})
    assert rec.state.phase == "deal"
    err = framework_violation(rec, "deal", None, {"hands": [["prince"] * 3 + ["spy"] * 5, ["unknown"] * 8]})
    assert err.rule == "braverats.variant_e" and "3 Princes" in err.message and "5 Spies" in err.message
    red = ["musician", "musician", "princess", "princess", "spy", "spy", "prince", "prince"]
    rec.add("deal", None, {"hands": [red, ["unknown"] * 8]})
    assert rec.describe_last() == "The 16 cards are shuffled and each player is dealt 8"
    # Blue's hand must be the other 8 cards: two each of Assassin, Ambassador, Wizard, General
    assert {m["data"]["card"] for m in M.legal_moves(rec.ms, 1)} == {"assassin", "ambassador", "wizard", "general"}
    err = framework_violation(rec, "round", None, {"cards": ["spy", "prince"]})
    assert err.rule == "braverats.card_in_hand" and "Bob (Blue) has no Prince" in err.message
    rec.round("spy", "wizard")
    rec.round("spy", "wizard")
    err = framework_violation(rec, "round", None, {"cards": ["prince", "wizard"]})
    assert err.rule == "braverats.card_in_hand"


@pytest.mark.rule("braverats.variant_e")
def test_random_deal_hides_hands_from_the_opponent():
    rec = Rec({"variants": ["E"]}, mode="simulated", seed=3)
    assert rec.state.phase == "play"
    red_cards = [CARDS[c] for c in rec.state.hands[0].known]
    assert rec.ms.view(0)["hands"][0]["cards"] == red_cards
    assert rec.ms.view(1)["hands"][0]["cards"] is None and rec.ms.view(1)["hands"][0]["count"] == 8
    assert rec.ms.view(None)["hands"][1]["cards"] is None
    assert rec.ms.view(REFEREE)["hands"][1]["cards"] is not None


# -- F: the Princess's attack --------------------------------------------------------------

@pytest.mark.rule("braverats.variant_f")
def test_princess_attack_swaps_prince_for_princess():
    rec = Rec({"variants": ["F"]})
    assert rec.state.phase == "play"
    assert rec.state.hands[0].known == (0, 1, 1, 2, 3, 4, 5, 6)
    assert rec.state.hands[1].known == (0, 2, 3, 4, 5, 6, 7, 7)
    err = framework_violation(rec, "round", None, {"cards": ["prince", "spy"]})
    assert err.rule == "braverats.card_in_hand"
    rec.round("princess", "prince")
    assert rec.ms.result.winners == (0,)
    rec = Rec({"variants": ["F"], "princess_attack_seat": 1})
    assert rec.state.hands[1].known.count(1) == 2 and rec.state.hands[0].known.count(7) == 2


# -- G: the true ruler ---------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_g")
def test_series_loser_chooses_next_variants_first_to_two_games():
    rec = Rec({"variants": ["G", "C"]})
    assert rec.ms.view(None)["series"]["game"] == 1 and rec.ms.view(None)["target"] == 3
    rec.round("princess", "prince")  # game 1: Red
    assert rec.ms.result is None and rec.state.phase == "choose"
    v = rec.ms.view(None)
    assert v["series"]["games_won"] == [1, 0] and v["series"]["game"] == 2 and v["series"]["chooser"] == 1
    assert GAME.actors(rec.state) == (1,)
    assert framework_violation(rec, "round", None, {"cards": ["spy", "spy"]}).rule == "core.turn"
    assert direct_violation(rec, "round", None, {"cards": ["spy", "spy"]}).rule == "braverats.variant_g"
    assert framework_violation(rec, "choose_variant", 0, {"variants": []}).rule == "core.turn"
    assert direct_violation(rec, "choose_variant", 0, {"variants": []}).rule == "braverats.variant_g"
    assert framework_violation(rec, "choose_variant", 1, {"variants": ["G"]}).rule == "braverats.variant_g"
    err = framework_violation(rec, "choose_variant", 1, {"variants": ["d", "E"]})
    assert err.rule == "braverats.variant_combinations" and "D+E" in err.message
    assert len(M.legal_moves(rec.ms, 1)) == 32
    rec.add("choose_variant", 1, {"variants": ["f"], "princess_attack_seat": 1})
    assert rec.log[-1]["data"] == {"variants": ["F"], "princess_attack_seat": 1}
    assert rec.describe_last() == "Bob (Blue), who lost game 1, chooses variant F for game 2"
    assert rec.state.spec.variants == ("F",) and rec.state.score == (0, 0) and rec.state.rounds == ()
    assert rec.state.hands[1].known.count(1) == 2  # Blue attacks with two Princesses
    rec.round("prince", "princess")  # game 2: Blue
    assert rec.ms.view(None)["series"]["games_won"] == [1, 1] and rec.state.chooser == 0
    rec.add("choose_variant", 0, {"variants": []})
    assert rec.state.spec.target == 4
    rec.round("prince", "spy")
    rec.round("ambassador", "princess")
    rec.round("general", "musician")
    rec.round("wizard", "assassin")  # the Wizard ignores the Assassin: Red wins 1 + 1 held, 5-0
    res = rec.ms.result
    assert res is not None and res.outcome == "win" and res.winners == (0,) and res.scores == (2, 1)
    assert "true ruler" in str(res.reason)
    v = rec.ms.view(None)["series"]
    assert [g["winner"] for g in v["games"]] == [0, 1, 0] and v["game"] == 3


DRAWN_GAME = [
    ("prince", "spy"), ("spy", "prince"), ("ambassador", "general"), ("general", "musician"),
    ("wizard", "princess"), ("princess", "wizard"), ("assassin", "assassin"), ("musician", "ambassador"),
]


@pytest.mark.rule("braverats.house.series_draw")
@pytest.mark.rule("braverats.variant_g")
def test_series_drawn_game_is_replayed_by_default():
    rec = Rec({"variants": ["G", "A"]})
    rec.add("exchange", None, {"cards": ["spy", "spy"]})
    for red, blue in DRAWN_GAME:
        rec.round(red, blue)
    assert "a draw" in rec.describe_last() and "series 0–0" in rec.describe_last()
    # nobody lost: no choice; the same variants again, and the draw is not one of the 3 games
    assert rec.state.phase == "exchange" and rec.state.spec.variants == ("A",)
    v = rec.ms.view(None)["series"]
    assert v["games_won"] == [0, 0] and v["game"] == 2 and v["games"][0]["winner"] is None
    assert rec.ms.view(None)["rounds"] == []
    rec.add("exchange", None, {"cards": ["spy", "spy"]})
    for _ in range(2):
        for red, blue in DRAWN_GAME:
            rec.round(red, blue)
        if rec.state.phase == "exchange":
            rec.add("exchange", None, {"cards": ["spy", "spy"]})
    assert rec.ms.result is None and len(rec.state.games) == 3


@pytest.mark.rule("braverats.house.series_draw")
def test_series_draw_counts_as_one_of_three_games():
    rec = Rec({"variants": ["G"], "series_draw": "counts"})
    rec.round("princess", "prince")  # Red 1-0
    rec.add("choose_variant", 1, {"variants": []})
    for red, blue in DRAWN_GAME:
        rec.round(red, blue)
    assert rec.state.phase == "play" and len(rec.state.games) == 2
    for red, blue in DRAWN_GAME:
        rec.round(red, blue)
    res = rec.ms.result
    assert (res.outcome, res.winners, res.scores) == ("win", (0,), (1, 0))
    rec = Rec({"variants": ["G"], "series_draw": "counts"})
    rec.round("princess", "prince")  # Red
    rec.add("choose_variant", 1, {"variants": []})
    rec.round("prince", "princess")  # Blue
    rec.add("choose_variant", 0, {"variants": []})
    for red, blue in DRAWN_GAME:
        rec.round(red, blue)
    res = rec.ms.result
    assert (res.outcome, res.winners, res.scores) == ("draw", (), (1, 1))


# -- combinations ----------------------------------------------------------------------------

@pytest.mark.rule("braverats.variant_combinations")
@pytest.mark.parametrize("variants,named", [(["D", "E"], "D+E"), (["F", "D"], "D+F"), (["E", "F", "A"], "E+F"), (["G", "D", "E"], "D+E")])
def test_incompatible_variants_are_refused(variants, named):
    with pytest.raises(InvalidOptions) as exc:
        M.make_setup("braverats", ["a", "b"], {"variants": variants})
    assert named in exc.value.message


COMBOS = [[], ["A"], ["B"], ["C"], ["D"], ["E"], ["F"], ["G"], ["A", "B"], ["B", "D"], ["A", "B", "E"],
          ["A", "D"], ["B", "C", "E"], ["A", "B", "F"], ["G", "B"], ["G", "D", "A"], ["G", "E", "B", "C"]]


@pytest.mark.rule("braverats.variant_a")
@pytest.mark.rule("braverats.variant_b")
@pytest.mark.rule("braverats.variant_c")
@pytest.mark.rule("braverats.variant_d")
@pytest.mark.rule("braverats.variant_e")
@pytest.mark.rule("braverats.variant_f")
@pytest.mark.rule("braverats.variant_g")
@pytest.mark.parametrize("variants", COMBOS, ids=lambda v: "+".join(v) or "base")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_simulated_match_runs_to_the_end_and_replays_identically(variants, seed):
    rec = Rec({"variants": variants}, mode="simulated", seed=seed)
    play_random(rec, random.Random(seed * 101))
    res = rec.ms.result
    assert res is not None and res.outcome in ("win", "draw")
    if "G" not in variants:
        target = 3 if "C" in variants else 4
        if res.outcome == "draw":
            assert max(res.scores) < target and all(h.size == 0 for h in rec.state.hands)
        else:
            (w,) = res.winners
            assert res.scores[w] >= target or rec.state.ended[1] == "princess"
    else:
        assert max(res.scores) == 2 or res.outcome == "draw"
    replayed = rec.replayed()
    assert replayed.state == rec.state and replayed.result == res
    for _, _, _, _, after in rec.steps:  # snapshots round-trip exactly, through JSON
        assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(after)))) == after
    # the chance draws were the server's: a tampered draw does not replay
    chance = [i for i, e in enumerate(rec.log) if e["type"] in ("deal", "draft", "draw", "exchange")]
    if chance:
        i = chance[0]
        log = [dict(e) for e in rec.log]
        other = dict(log[i]["data"])
        key = next(iter(other))
        other[key] = list(reversed(other[key]))
        log[i] = {**log[i], "data": other}
        if other != rec.log[i]["data"]:
            with pytest.raises(Exception):
                M.replay(log)


def test_simulated_undo_redraws_the_same_chance():
    rec = Rec({"variants": ["B"]}, mode="simulated", seed=11)
    red, blue = rec.state.hands[0].known[0], rec.state.hands[1].known[0]
    rec.round(CARDS[red], CARDS[blue])
    drawn = rec.log[-1]
    assert drawn["type"] == "draw"
    rec.undo()
    rec.round(CARDS[red], CARDS[blue])
    assert rec.log[-1]["data"] == drawn["data"]
    assert rec.replayed().state == rec.state
