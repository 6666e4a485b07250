"""One marked test (or more) per rule of the Ridder-toernooi, and the two printed examples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import match as M
from engine.core import InvalidOptions, MalformedEvent, RuleViolation
from engine.ridder_toernooi import GAME
from engine.ridder_toernooi.game import contest, hits, matches

from .ridder_support import DEAL2, Table, day_with_all, started

P = "ridder_toernooi."


def refused(rule: str, t: Table, type: str, seat, **data):
    with pytest.raises(RuleViolation) as exc:
        t.ev(type, seat, **data)
    assert exc.value.rule == rule, exc.value.message
    return exc.value


def test_every_rule_id_has_a_marked_test(rules_covered):
    marked = set(rules_covered) | set(re.findall(r'mark\.rule\("([^"]+)"\)', Path(__file__).read_text()))
    missing = {r for r in GAME.rules if r not in marked}
    assert not missing, f"rules without a marked test: {sorted(missing)}"
    ids = {f"{P}R{i}" for i in range(1, 28)} | {f"{P}E{i}" for i in range(1, 4)}
    assert ids <= set(GAME.rules)


# -- the two printed examples ------------------------------------------------------------------

@pytest.mark.rule("ridder_toernooi.R6")
def test_printed_kerchief_example_ilsa_displaces_podica():
    t = started()
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    assert t.s.phase == "kerchief" and t.s.turn == 0
    # Podica: mollig and terughoudend match Apollonius's preferences (2); Ilsa: bruin as well (3)
    apollonius = t.s.cards.knights[0].prefs
    assert len(matches(apollonius, t.s.cards.ladies[1].attrs)) == 2
    assert len(matches(apollonius, t.s.cards.ladies[0].attrs)) == 3
    t.ev("kerchief", 0, lady="Podica", knight="Apollonius")
    assert t.knight("K01")["kerchief"] == "L02"
    t.ev("kerchief", 1, lady="Ilsa", knight="Apollonius")
    assert t.knight("K01")["kerchief"] == "L01"
    assert t.lady("L02")["knight"] is None and t.lady("L02")["rejected_by"] == ["K01"]
    # Podica offers again on her player's next turn, to another knight
    assert t.s.turn == 0
    refused(P + "R6", t, "kerchief", 0, lady="L02", knight="K01")
    t.ev("kerchief", 0, lady="L02", knight="K02")
    assert t.knight("K02")["kerchief"] == "L02"


@pytest.mark.rule("ridder_toernooi.R9")
@pytest.mark.rule("ridder_toernooi.R10")
@pytest.mark.rule("ridder_toernooi.R14")
def test_printed_duel_example_apollonius_against_harald():
    t = Table()
    t.ev("deal", None, **DEAL2)
    # Apollonius: 3 dice, red 1/2/3; trains one die and a second 1 (the rules' training example)
    t.ev("train", 0, knight="K01", dice=1, cover=[1])
    assert t.knight("K01")["dice"] == 4 and t.knight("K01")["cover"]["mounted"] == {"1": 2, "2": 1, "3": 1}
    t.train_nothing()
    t.ev("start_roll", None, faces=[5, 2])
    day_with_all(t)
    t.ev("challenge", 0, knight="Apollonius", target="Harald")
    assert t.view()["duel"]["dice_to_roll"] == 4
    t.roll(1, 3, 3, 6)
    assert t.view()["duel"]["dice_to_roll"] == 5
    t.roll(1, 2, 5, 5, 6)
    assert t.knight("K02")["wounds"] == 2  # the 1 is blocked, both 3s hit, the 6 never hits mounted
    assert t.knight("K01")["wounds"] == 0  # the 1 and the 2 are blocked
    assert t.knight("K02")["status"] == "out_today"
    assert t.knight("K01")["premiums"] == 1
    lady = t.knight("K01")["kerchief"]
    assert lady is not None and t.lady(lady)["premiums"] == 1
    assert t.s.duel is None


# -- set-up -------------------------------------------------------------------------------------

@pytest.mark.rule("ridder_toernooi.R1")
def test_deal_two_each_up_to_five_players_one_each_above():
    t = Table(5)
    bad = {"knights": [["K01"], ["K02"], ["K03"], ["K04"], ["K05"]], "ladies": [["L01"]] * 5}
    refused(P + "R1", t, "deal", None, **bad)
    t6 = Table(6)
    ok = {"knights": [[f"K{i:02d}"] for i in range(1, 7)], "ladies": [[f"L{i:02d}"] for i in range(1, 7)]}
    t6.ev("deal", None, **ok)
    assert len(t6.s.knights) == 6 and len(t6.s.ladies) == 6
    twice = {"knights": [["K01", "K02"], ["K02", "K03"]], "ladies": DEAL2["ladies"]}
    refused(P + "R1", Table(2), "deal", None, **twice)
    with pytest.raises(MalformedEvent):
        Table(2).ev("deal", None, knights=[["K01", "K99"], ["K02", "K03"]], ladies=DEAL2["ladies"])


@pytest.mark.rule("ridder_toernooi.R1")
def test_simulated_deal_draws_from_the_set_without_repeats():
    for n in (2, 5, 6, 10):
        setup = M.make_setup(GAME.id, [f"p{i}" for i in range(n)], {}, mode="simulated", seed=n)
        ms = M.start(setup)
        for type_, seat, data in M.chance_events(ms, 2):
            ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
            break
        per = 2 if n <= 5 else 1
        assert len(ms.state.knights) == per * n and len({k.card for k in ms.state.knights}) == per * n
        assert all(sum(1 for k in ms.state.knights if k.owner == s) == per for s in range(n))


@pytest.mark.rule("ridder_toernooi.R2")
def test_knights_start_on_their_card_values():
    t = Table()
    t.ev("deal", None, **DEAL2)
    for k in t.view()["knights"]:
        card = next(c for c in t.s.cards.knights if c.id == k["id"])
        assert k["dice"] == card.dice and k["wounds"] == 0 and k["premiums"] == 0
        assert [k["cover"]["mounted"][f] for f in "123"] + [k["cover"]["foot"][f] for f in "456"] == list(card.red)
    assert all(x["premiums"] == 0 and x["knight"] is None for x in t.view()["ladies"])
    assert [x["owner"] for x in t.view()["ladies"]] == [0, 0, 1, 1]


@pytest.mark.rule("ridder_toernooi.R3")
def test_training_before_day_one():
    t = Table()
    t.ev("deal", None, **DEAL2)
    assert t.s.phase == "train" and all(p == 2 for p in t.s.points)
    refused(P + "R3", t, "train", 0, knight="K01", dice=2, cover=[1])  # 3 points
    refused(P + "R3", t, "train", 1, knight="K01", dice=1)  # not his knight
    refused(P + "R3", t, "train", 0, knight="K01", cover=[1, 1])  # a third field of face 1
    t.ev("train", 0, knight="K01", dice=2)
    assert t.knight("K01")["dice"] == 5
    refused(P + "R3", t, "train", 0, knight="K01", dice=1)  # points spent
    t.ev("train", 0, knight="K03", cover=[4, 6])
    assert t.knight("K03")["cover"]["foot"] == {"4": 2, "5": 1, "6": 1}
    t.ev("train", 1, knight="K02", dice=1, cover=[3])
    assert t.knight("K02")["dice"] == 6 and t.knight("K02")["cover"]["mounted"]["3"] == 1


@pytest.mark.rule("ridder_toernooi.R3")
def test_mandatory_training_option_refuses_unspent_points():
    t = Table(2, {"training_optional": False})
    t.ev("deal", None, **DEAL2)
    refused(P + "R3", t, "train", 0, knight="K01", dice=1)
    t.ev("train", 0, knight="K01", dice=1, cover=[5])


@pytest.mark.rule("ridder_toernooi.R4")
def test_highest_start_roll_starts_ties_roll_again():
    t = Table(3)
    t.ev("deal", None, knights=[["K01", "K02"], ["K03", "K04"], ["K05", "K06"]],
         ladies=[["L01", "L02"], ["L03", "L04"], ["L05", "L06"]])
    t.train_nothing()
    t.ev("start_roll", None, faces=[3, 5, 5])
    assert t.s.phase == "start_roll" and t.s.rolling == (1, 2)
    refused(P + "R4", t, "start_roll", None, faces=[4, 2, 6])  # seat 0 does not roll again
    t.ev("start_roll", None, faces=[None, 2, 6])
    assert t.s.first == 2 and t.s.start == 2 and t.s.turn == 2 and t.s.phase == "participate"


# -- each day -----------------------------------------------------------------------------------

@pytest.mark.rule("ridder_toernooi.R5")
def test_participation_any_subset_including_none():
    t = started(3, deal={"knights": [["K01", "K02"], ["K03", "K04"], ["K05", "K06"]],
                         "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]})
    refused(P + "R5", t, "participate", 0, knights=["K03"])
    t.ev("participate", 0, knights=[])
    t.ev("participate", 1, knights=["K04"])
    t.ev("participate", 2, knights=["K05", "K06"])
    assert [k["status"] for k in t.view()["knights"]] == ["idle", "idle", "idle", "fit", "fit", "fit"]


@pytest.mark.rule("ridder_toernooi.R6")
def test_kerchief_rank_tie_break_and_knights_choice():
    g = GAME
    prefs = (("hair", "bruin"), ("temperament", "terughoudend"), ("figure", "mollig"), ("height", "klein"))
    a = (("hair", "bruin"), ("height", "groot"))  # one match, rank 0
    b = (("figure", "mollig"), ("height", "groot"))  # one match, rank 2
    assert contest(prefs, a, b, "lexicographic") < 0 and contest(prefs, b, a, "lexicographic") > 0
    assert contest(prefs, a, a, "lexicographic") == 0
    c = (("hair", "bruin"), ("figure", "mollig"))  # ranks 0, 2
    d = (("hair", "bruin"), ("height", "klein"))  # ranks 0, 3
    assert contest(prefs, d, c, "lexicographic") > 0
    assert contest(prefs, d, c, "best_match") == 0  # same best match
    assert contest(prefs, d, c, "rank_sum") > 0
    # identical matches at the table: the knight's player chooses
    t = started()
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    # Minne 3 (blond, mollig, klein, plagerig) and Minne 4 (blond, slank, groot, terughoudend) on Harald
    # (blond, plagerig, slank, groot): 2 matches [0,1] against 3 matches [0,2,3] -> Minne 4 wins
    t.ev("kerchief", 0, lady="L03", knight="K02")
    t.ev("kerchief", 1, lady="L04", knight="K02")
    assert t.knight("K02")["kerchief"] == "L04" and t.lady("L03")["rejected_by"] == ["K02"]
    assert g.id == "ridder_toernooi"


@pytest.mark.rule("ridder_toernooi.R6")
def test_identical_matches_the_knights_player_chooses():
    t = started(2, deal={"knights": [["K01", "K03"], ["K02", "K04"]], "ladies": [["L06", "L03"], ["L10", "L04"]]})
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    # Minne 6 (zwart slank klein terughoudend) and Minne 10 (bruin slank klein terughoudend)
    # on Ridder 3 (zwart, slank, terughoudend, groot): ranks [0,1,2] vs [1,2]: Minne 6 wins.
    # on Ridder 4 (mollig, blond, klein, plagerig): both match only klein (rank 2): identical.
    t.ev("kerchief", 0, lady="L06", knight="K04")
    t.ev("kerchief", 1, lady="L10", knight="K04")
    assert t.s.phase == "prefer" and t.s.turn == 1  # Ridder 4 is seat 1's
    refused(P + "R6", t, "prefer", 1, lady="L03")
    t.ev("prefer", 1, lady="L10")
    assert t.knight("K04")["kerchief"] == "L10" and t.lady("L06")["rejected_by"] == ["K04"]
    assert t.s.phase == "kerchief" and t.s.turn == 0


@pytest.mark.rule("ridder_toernooi.R7")
def test_day_one_every_participating_knight_gets_a_kerchief():
    t = started()
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    t.ev("kerchief", 0, lady="L02", knight="K01")
    t.ev("kerchief", 1, lady="L01", knight="K01")  # Podica rejected: 3 knights bare, 3 ladies free
    assert t.s.phase == "kerchief"
    day_with_all(t)
    assert t.s.phase == "challenge"
    assert all(k["kerchief"] is not None for k in t.view()["knights"] if k["status"] == "fit")


@pytest.mark.rule("ridder_toernooi.R8")
def test_challenges_only_fit_foreign_knights():
    t = day_with_all(started())
    refused(P + "R8", t, "challenge", 0, knight="K01", target="K03")  # own knight
    refused(P + "R8", t, "challenge", 0, knight="K02", target="K01")  # not his knight
    with pytest.raises(RuleViolation):
        M.normalize_event(t.ms, "challenge", 1, {"knight": "K02", "target": "K01"})
    t.ev("challenge", 0, knight="K01", target="K04")
    assert t.s.phase == "roll" and t.view()["duel"]["attacker"] == "K01" and t.view()["duel"]["defender"] == "K04"


@pytest.mark.rule("ridder_toernooi.R9")
def test_mounted_hits_only_1_2_3_each_field_blocks_one_die():
    cover = (2, 1, 0, 0, 0, 0)
    assert hits([1, 1, 1], cover, 1) == 1  # the rules' "Belangrijk": the third 1 hits
    assert hits([2, 2, 3, 4, 5, 6], cover, 1) == 2
    assert hits([4, 5, 6, 6], cover, 1) == 0
    assert hits([4, 5, 6, 6], (0,) * 6, 4) == 4


@pytest.mark.rule("ridder_toernooi.R11")
def test_woedend_reroll_with_one_more_die_for_that_round_only():
    t = day_with_all(started())
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(4, 5, 6).roll(4, 5, 6, 6, 4)
    duel = t.view()["duel"]
    assert duel["woedend"] and duel["dice_to_roll"] == 4
    with pytest.raises(RuleViolation) as exc:
        t.roll(4, 5, 6)
    assert exc.value.rule == P + "dice"
    t.roll(4, 4, 5, 6).roll(6, 6, 6, 6, 6, 6)  # no hit again: again +1 (option woedend=every)
    assert t.view()["duel"]["dice_to_roll"] == 4 and t.view()["duel"]["rerolls"] == 2
    t.roll(3, 3, 4, 5)  # Harald covers no 3: 2 wounds
    t.roll(6, 6, 6, 6, 6, 6)
    assert t.knight("K02")["wounds"] == 2 and t.knight("K01")["premiums"] == 1


@pytest.mark.rule("ridder_toernooi.R11")
def test_woedend_cumulative_and_first_only_options():
    t = day_with_all(started(options={"woedend": "cumulative"}))
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(4, 5, 6).roll(4, 5, 6, 6, 4).roll(4, 4, 5, 6).roll(6, 6, 6, 6, 6, 6)
    assert t.view()["duel"]["dice_to_roll"] == 5
    t = day_with_all(started(options={"woedend": "first_only"}))
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(4, 5, 6).roll(4, 5, 6, 6, 4).roll(4, 4, 5, 6).roll(6, 6, 6, 6, 6, 6)
    assert t.view()["duel"]["dice_to_roll"] == 3


@pytest.mark.rule("ridder_toernooi.R12")
def test_both_fall_fight_on_foot_until_one_gives_up():
    t = day_with_all(started())
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(3, 4, 4).roll(3, 4, 4, 4, 4)  # both hit with a 3 (neither covers a second 3... K02 none, K01 one)
    assert t.knight("K01")["wounds"] == 0 and t.knight("K02")["wounds"] == 1
    t = day_with_all(started())
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(3, 6, 6).roll(3, 3, 6, 6, 6)  # Apollonius covers one 3: one hit each way
    assert t.view()["duel"]["mode"] == "foot" and t.s.phase == "give_up"
    assert GAME.actors(t.s) == (0,)  # the attacker declares first
    t.ev("fight_on", 0)
    assert GAME.actors(t.s) == (1,)
    t.ev("fight_on", 1)
    # on foot only 4, 5, 6 hit: Apollonius covers 4, 5, 6 once, Harald 4 and 5
    t.roll(1, 2, 6).roll(4, 4, 5, 1, 1)
    assert t.knight("K02")["wounds"] == 1 + 1 and t.knight("K01")["wounds"] == 1 + 1
    t.ev("give_up", 0)
    assert t.knight("K02")["premiums"] == 1 and t.knight("K01")["status"] == "out_today"


@pytest.mark.rule("ridder_toernooi.R13")
def test_ten_wounds_out_of_the_tournament():
    t = day_with_all(started())
    s = t.s._replace(knights=tuple(k._replace(wounds=9) if i == 2 else k for i, k in enumerate(t.s.knights)))
    t.ms = t.ms.__class__(t.ms.game, t.ms.setup, t.ms.seq, s)
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(3, 6, 6).roll(4, 4, 4, 4, 4)
    assert t.knight("K02")["wounds"] == 10 and t.knight("K02")["status"] == "out_of_tournament"
    assert t.knight("K01")["premiums"] == 1


@pytest.mark.rule("ridder_toernooi.R13")
def test_both_at_ten_in_one_round_nobody_wins():
    t = day_with_all(started())
    s = t.s._replace(knights=tuple(k._replace(wounds=9) if i in (0, 2) else k for i, k in enumerate(t.s.knights)))
    t.ms = t.ms.__class__(t.ms.game, t.ms.setup, t.ms.seq, s)
    t.ev("challenge", 0, knight="K01", target="K02")
    t.roll(3, 6, 6).roll(3, 3, 6, 6, 6)
    assert t.knight("K01")["status"] == t.knight("K02")["status"] == "out_of_tournament"
    assert t.knight("K01")["premiums"] == t.knight("K02")["premiums"] == 0
    # the eliminated cannot take part again
    assert not any(a[0] in ("K01", "K02") for a in t.s.awards)


@pytest.mark.rule("ridder_toernooi.R15")
@pytest.mark.rule("ridder_toernooi.R16")
def test_loser_out_for_the_day_and_next_player_clockwise_challenges():
    t = day_with_all(started(3, deal={"knights": [["K01", "K02"], ["K03", "K04"], ["K05", "K06"]],
                                      "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}))
    assert t.s.turn == 0
    t.duel(0, "K01", "K03", [1, 1, 1], [6, 6, 6, 6])  # K03 (cover 1 once) takes 2
    assert t.knight("K03")["status"] == "out_today"
    assert t.s.turn == 1  # the left neighbour
    refused(P + "R15", t, "challenge", 1, knight="K03", target="K05")
    t.duel(1, "K04", "K05", [6, 6, 6, 6], [3, 3, 3, 6, 6, 6])
    assert t.s.turn == 2
    refused(P + "R15", t, "challenge", 2, knight="K05", target="K03")  # nor can he be challenged
    lady = t.knight("K03")  # his lady got nothing
    assert lady["premiums"] == 0


@pytest.mark.rule("ridder_toernooi.R17")
@pytest.mark.rule("ridder_toernooi.R18")
@pytest.mark.rule("ridder_toernooi.R19")
def test_day_ends_when_one_player_is_left_day_winner_bonus_kerchiefs_back():
    t = day_with_all(started())
    t.duel(0, "K01", "K02", [3, 3, 6], [6, 6, 6, 6, 6])
    t.duel(1, "K04", "K01", [6, 6, 6, 6], [3, 3, 3])  # K04: cover 1,2 -> 3s hit; K01 wins again
    # only seat 0's knights are fit: the day is over; Apollonius won 2 today: day 1 bonus +1
    assert t.s.day == 2 or t.s.phase in ("train", "participate")
    k01 = t.knight("K01")
    assert k01["premiums"] == 2 + 1
    awards = [a for a in t.s.awards if a[2] == "day 1: day winner"]
    assert awards == [("K01", 1, "day 1: day winner")]
    ladies = [a for a in t.s.awards if a[2] == "day 1: lady of the day winner"]
    assert len(ladies) == 1
    assert all(x["knight"] is None for x in t.view()["ladies"])  # R19
    assert all(k["kerchief"] is None for k in t.view()["knights"])


@pytest.mark.rule("ridder_toernooi.R18")
def test_day_winner_ties_same_player_chooses_different_players_none():
    t = day_with_all(started(3, deal={"knights": [["K01", "K03"], ["K02", "K04"], ["K05", "K06"]],
                                      "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}))
    t.duel(0, "K01", "K02", [3, 3, 6], [6, 6, 6, 6, 6])  # K01 beats K02
    t.duel(1, "K04", "K05", [6, 6, 6, 6], [1, 1, 1, 3, 3, 3])  # K05 beats K04
    t.duel(2, "K06", "K03", [6, 6, 6, 6, 6, 6], [3, 3, 3, 3])  # K03 beats K06 -> seat 1 out; seat 0 and 2 left
    t.duel(0, "K03", "K05", [3, 3, 3, 3], [6, 6, 6, 6, 6, 6])  # K03 beats K05: only seat 0 fit
    # K01 and K03 both won ... K01 once, K03 twice: K03 is the day winner
    assert ("K03", 1, "day 1: day winner") in t.s.awards
    # a tie between knights of one player: he chooses
    t2 = day_with_all(started(3, deal={"knights": [["K01", "K03"], ["K02", "K04"], ["K05", "K06"]],
                                       "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}))
    t2.duel(0, "K01", "K02", [3, 3, 6], [6, 6, 6, 6, 6])
    t2.duel(1, "K04", "K05", [6, 6, 6, 6], [1, 1, 1, 3, 3, 3])
    t2.duel(2, "K05", "K03", [6] * 6, [3, 3, 3, 3])  # K03 beats K05
    t2.duel(0, "K03", "K06", [3, 3, 3, 3], [6] * 6)  # K03 beats K06: K01 1, K03 2 -> no tie; use total option
    assert t2.s.phase != "day_winner"
    t3 = day_with_all(started())
    t3.duel(0, "K01", "K02", [3, 3, 6], [6] * 5)
    t3.duel(1, "K04", "K03", [3, 3, 3, 3], [6] * 4)  # K04 beats K03 (no 3 covered? K03 covers 3 once)
    # one win each for K01 (seat 0) and K04 (seat 1): fit K01 vs K04
    t3.duel(0, "K01", "K04", [6, 6, 6], [3, 3, 3, 3])  # K04 wins: 2 wins, seat 1 alone
    assert ("K04", 1, "day 1: day winner") in t3.s.awards


@pytest.mark.rule("ridder_toernooi.R18")
def test_tie_between_players_no_day_winner_and_same_player_chooses():
    t = day_with_all(started(3, deal={"knights": [["K01", "K03"], ["K02", "K04"], ["K05", "K06"]],
                                      "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}))
    s = t.s
    # hand-made end of day: K01 (seat 0) and K02 (seat 1) each won once today
    knights = tuple(k._replace(day_premiums=1, premiums=1) if i in (0, 2) else k for i, k in enumerate(s.knights))
    after = GAME._end_day(s._replace(knights=knights))
    assert not any("day winner" in a[2] for a in after.awards)
    knights = tuple(k._replace(day_premiums=1, premiums=1) if i in (0, 1) else k for i, k in enumerate(s.knights))
    after = GAME._end_day(s._replace(knights=knights))
    assert after.phase == "day_winner" and GAME.actors(after) == (0,)
    with pytest.raises(RuleViolation):
        GAME.apply(after, "day_winner", 0, {"knight": "K02"})
    done = GAME.apply(after, "day_winner", 0, {"knight": "K03"})
    assert ("K03", 1, "day 1: day winner") in done.awards


@pytest.mark.rule("ridder_toernooi.R20")
@pytest.mark.rule("ridder_toernooi.R21")
@pytest.mark.rule("ridder_toernooi.R22")
@pytest.mark.rule("ridder_toernooi.R23")
def test_night_heals_three_trains_by_wounds_and_start_moves_left():
    t = day_with_all(started(3, deal={"knights": [["K01", "K03"], ["K02", "K04"], ["K05", "K06"]],
                                      "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}))
    s = t.s
    wounds = {0: 2, 1: 5, 2: 3, 3: 0, 4: 4, 5: 7}
    knights = tuple(k._replace(wounds=wounds[i]) for i, k in enumerate(s.knights))
    after = GAME._end_day(s._replace(knights=knights))
    assert [k.wounds for k in after.knights] == [0, 2, 0, 0, 1, 4]  # R20
    assert after.points == (2, 1, 2, 2, 1, 0)  # R21: 0 -> 2, 1-3 -> 1, more -> 0
    t.ms = t.ms.__class__(t.ms.game, t.ms.setup, t.ms.seq, after)
    with pytest.raises(RuleViolation) as exc:
        t.ev("train", 0, knight="K03", dice=1, cover=[1])
    assert exc.value.rule == P + "R21"
    t.train_nothing()
    assert t.s.day == 2 and t.s.start == 1 and t.s.turn == 1  # R22
    # R23: a wounded knight may sit the day out
    t.ev("participate", 1, knights=["K04"])
    assert t.knight("K02")["status"] == "idle"


@pytest.mark.rule("ridder_toernooi.R24")
@pytest.mark.rule("ridder_toernooi.E1")
def test_days_option_two_to_twenty():
    for bad in (1, 21):
        with pytest.raises(InvalidOptions):
            M.make_setup(GAME.id, ["a", "b"], {"days": bad})
    t = day_with_all(started(options={"days": 5}))
    s = t.s._replace(day=5)
    knights = tuple(k._replace(day_premiums=1, premiums=1) if i == 0 else k for i, k in enumerate(s.knights))
    after = GAME._end_day(s._replace(knights=knights))
    assert ("K01", 5, "day 5: day winner") in after.awards  # E1: the bonus rises with the day
    assert after.phase in ("over", "duel_knight")


@pytest.mark.rule("ridder_toernooi.R25")
@pytest.mark.rule("ridder_toernooi.R26")
def test_final_bonus_and_scores():
    t = day_with_all(started(options={"days": 2}))
    s = t.s._replace(day=2)
    prem = {0: 3, 1: 1, 2: 3, 3: 0}
    knights = tuple(k._replace(premiums=prem[i]) for i, k in enumerate(s.knights))
    ladies = tuple(x._replace(premiums=[2, 0, 1, 0][i]) for i, x in enumerate(s.ladies))
    after = GAME._close_day(s._replace(knights=knights, ladies=ladies))
    # K01 and K02 tie on 3: both +4; Podica (L02) has most lady premiums: +4
    assert [k.premiums for k in after.knights] == [7, 1, 7, 0]
    assert [x.premiums for x in after.ladies] == [6, 0, 1, 0]
    assert GAME.scores(after) == (7 + 1 + 6 + 0, 7 + 0 + 1 + 0)
    assert after.phase == "over" and GAME.result(after).winners == (0,)


@pytest.mark.rule("ridder_toernooi.R27")
def test_deciding_duel_no_giving_up_foot_to_ten():
    t = day_with_all(started(options={"days": 2}))
    s = t.s._replace(day=2, start=1)
    knights = tuple(k._replace(premiums=[2, 0, 2, 0][i], wounds=[8, 0, 8, 0][i]) for i, k in enumerate(s.knights))
    after = GAME._close_day(s._replace(knights=knights))
    assert after.phase == "duel_knight" and after.tied == (1, 0)  # the last start player (seat 1) first
    t.ms = t.ms.__class__(t.ms.game, t.ms.setup, t.ms.seq, after)
    t.ev("duel_knight", 1, knight="K02").ev("duel_knight", 0, knight="K01")
    assert t.view()["duel"]["attacker"] == "K02" and t.view()["duel"]["deciding"]
    t.roll(3, 3, 6, 6, 6).roll(3, 6, 6)  # both fall: no give-up phase, straight on foot
    assert t.s.phase == "roll" and t.view()["duel"]["mode"] == "foot"
    with pytest.raises(RuleViolation):
        t.ev("give_up", 1)
    t.roll(6, 6, 6, 6, 6).roll(1, 1, 1)  # K01 covers one 6: 4 hits -> 9 + 4 >= 10
    assert t.ms.result is not None and t.ms.result.winners == (1,)
    assert t.ms.result.scores == (2 + 4, 2 + 4)  # the final bonus; ladies without premiums get none


@pytest.mark.rule("ridder_toernooi.E2")
def test_wound_penalty_expansion():
    for opt, lost in (({"wound_penalty": True}, 3), ({"wound_penalty": True, "e2_penalty_7_9": 2}, 2)):
        t = day_with_all(started(options=opt))
        s = t.s
        knights = tuple(k._replace(wounds=[5 + 3, 9 + 3, 0, 0][i]) for i, k in enumerate(s.knights))
        after = GAME._close_day(s._replace(knights=knights))
        t.ms = t.ms.__class__(t.ms.game, t.ms.setup, t.ms.seq, after)
        t.train_nothing()
        # K01: 8 -> 5 after the night: one die less; K03: 12 -> 9: dice min 1 after -3 / -2
        assert t.knight("K01")["dice_today"] == 3 - 1
        assert t.knight("K03")["dice_today"] == max(1, 4 - lost)
    t = day_with_all(started())
    assert t.knight("K01")["penalty"] == 0


@pytest.mark.rule("ridder_toernooi.E3")
def test_without_ladies():
    t = started(options={"ladies": False})
    assert t.s.ladies == ()
    t.ev("participate", 0, knights=["K01", "K03"]).ev("participate", 1, knights=["K02", "K04"])
    assert t.s.phase == "challenge"  # no kerchief phase
    t.duel(0, "K01", "K02", [3, 3, 6], [6] * 5)
    assert t.knight("K01")["premiums"] == 1 and all("L" not in a[0] for a in t.s.awards)
    with pytest.raises(RuleViolation) as exc:
        Table(2, {"ladies": False}).ev("deal", None, **DEAL2)
    assert exc.value.rule == P + "E3"


@pytest.mark.rule("ridder_toernooi.card_set")
def test_embedded_card_set_must_hash_to_the_recorded_hash():
    from engine.ridder_toernooi.cards import card_set_hash, placeholder_doc

    doc = placeholder_doc()
    h = card_set_hash(doc)
    setup = M.make_setup(GAME.id, ["a", "b"], {"card_set": h, "cards": doc})
    assert setup["options"]["card_set"] == h
    with pytest.raises(InvalidOptions) as exc:
        M.make_setup(GAME.id, ["a", "b"], {"card_set": "0" * 64, "cards": doc})
    assert "hashes to" in exc.value.message
    with pytest.raises(InvalidOptions):
        M.make_setup(GAME.id, ["a", "b"], {"card_set": "1" * 64})  # neither shipped nor embedded


@pytest.mark.rule("ridder_toernooi.dice")
def test_a_roll_has_exactly_the_knights_dice():
    t = day_with_all(started())
    t.ev("challenge", 0, knight="K01", target="K02")
    for faces in ([1, 2], [1, 2, 3, 4]):
        with pytest.raises(RuleViolation) as exc:
            t.roll(*faces)
        assert exc.value.rule == P + "dice"
    with pytest.raises(MalformedEvent):
        t.roll(0, 7, 2)
    with pytest.raises(RuleViolation):
        t.ev("roll", None, faces=[1, 2, 3], knight="K02")  # the attacker rolls first
