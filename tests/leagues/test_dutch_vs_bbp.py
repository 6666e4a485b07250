"""Kroniek's Dutch system against bbpPairings v6 (FIDE C.04.3 as approved in
2025) on the committed random tournaments (tests/leagues/fixtures/bbp_dutch,
made by make_bbp_fixtures.py): never an illegal pairing, and at least the
measured share of rounds identical to bbp's (same boards, same colours, same
bye). The floors sit just under what this implementation reaches; raise them
when the pairing improves, never lower them to make a change pass."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.leagues.bbp_fixtures import FIXTURES, load, replay, summary

#: identical rounds / all rounds, per field size, as measured (see the module docstring)
FLOORS = {16: 1.0, 64: 1.0, 256: 1.0, 1024: 0.94}  # measured: 171/171, 91/91, 45/45, 18/19
OVERALL_FLOOR = 0.995  # measured: 325/326 (pairing system 4; v3 reached 323/326, v2 300/326)


@pytest.fixture(scope="module")
def checks():
    return [c for data in load() for c in replay(data)]


def test_the_fixtures_cover_the_brief():
    data = load()
    sizes = Counter(d["players"] for d in data)
    assert set(sizes) == {16, 64, 256, 1024}
    assert sum(len(d["round_data"]) for d in data) >= 300
    assert all(5 <= d["rounds"] <= 9 for d in data)
    assert any(r["absent"] for d in data for r in d["round_data"])
    assert any(r["bye"] is not None for d in data for r in d["round_data"])
    assert all(d["engine"].startswith("bbpPairings v6") for d in data)


@pytest.mark.rule("C.04.3-C.1-C.3")
def test_no_round_breaks_an_absolute_criterion(checks):
    bad = [(c.players, c.round, c.illegal) for c in checks if c.illegal]
    assert not bad


@pytest.mark.rule("C.04.3")
def test_identical_to_bbp_in_at_least_the_measured_share(checks):
    s = summary(checks)
    for players, (same, total) in s["by_players"].items():
        assert same / total >= FLOORS[players], (players, same, total)
    assert s["identical"] / s["rounds"] >= OVERALL_FLOOR, s


# -- rounds that show one criterion each (each differed from bbp at some point
#    of the work on pairing system 3; each note says what the rules decide) ---

def _round(stem: str, number: int):
    data = json.loads((FIXTURES / f"{stem}.json").read_text())
    checks = replay(data)
    return checks[number - 1], data["round_data"][number - 1]


@pytest.mark.rule("C.04.3-C.6")
def test_a_mixed_bracket_pairs_its_highest_scores_and_floats_the_lowest():
    """16 players, round 7: p1 (5.5), p4 (5.0) and p5 (4.0) move down into
    the 3.5 bracket of p2 and p3, where only two of them can pair: C.6 pairs
    p1 and p4 (p1-p3, p4-p2) and p5 floats on."""
    check, rd = _round("n0016_s16001", 7)
    assert check.identical, check.differences
    assert {frozenset(b) for b in rd["boards"]} >= {frozenset((0, 2)), frozenset((3, 1))}


@pytest.mark.rule("C.04.3-C.9")
def test_the_bye_is_handed_after_the_higher_brackets_are_paired():
    """16 players (15 present), round 5: giving the bye first (to p15, who
    had not floated down) would leave p16 and p11 of the 2.0 and 1.5
    brackets unable to meet; the brackets pair first (C.5, C.6), so p16
    meets p11 and the bye goes to p14."""
    check, rd = _round("n0016_s16014", 5)
    assert check.identical, check.differences
    assert rd["bye"] == 13 and [15, 10] in rd["boards"]


@pytest.mark.rule("C.04.3-C.7")
def test_the_player_who_must_take_the_bye_is_nobodys_opponent_in_the_next_bracket():
    """16 players (15 present), round 9: p8 (3.0) is the only one who can
    take the bye, so floating p12 (who cannot meet p8) from the 3.5 bracket
    costs nothing under C.7; the bracket then pairs in its own order."""
    check, _ = _round("n0016_s16016", 9)
    assert check.identical, check.differences


@pytest.mark.rule("C.04.3-C.12")
def test_a_large_bracket_keeps_the_colour_minimum_without_an_exchange():
    """1,024 players, round 2: the 308 players on 0.5 points can pair S1
    against S2 with one denied preference and no exchange; the greedy
    transpositions must not spend that one denial early."""
    check, _ = _round("n1024_s1024001", 2)
    assert check.identical, check.differences


@pytest.mark.rule("C.04.3-C.10")
def test_final_round_topscorers_avoid_a_colour_difference_beyond_two():
    """256 players, final round 7: among the topscorers who may meet with the
    same absolute preference (C.3's exception), C.10 and C.11 come before
    C.12."""
    check, _ = _round("n0256_s256000", 7)
    assert check.identical, check.differences


#: A fresh tournament as bench/swiss_fresh.py makes it (BBP_SEEDS=3, the sixth of 16 players), paired by
#: bbpPairings v6: per round (absent, boards (white, black) by player index, bye, results of the boards).
FRESH_16_S3_5 = [
    ([1], [(0, 8), (9, 2), (3, 10), (11, 4), (5, 12), (13, 6), (7, 14)], 15, "1111=0="),
    ([], [(9, 0), (15, 3), (6, 11), (14, 5), (12, 7), (8, 1), (2, 10), (4, 13)], None, "==1===11"),
    ([], [(3, 6), (0, 15), (5, 9), (7, 2), (12, 4), (11, 14), (1, 13), (10, 8)], None, "1=1=01=1"),
    ([4], [(0, 3), (6, 5), (15, 11), (9, 7), (2, 1), (10, 12), (14, 8)], 13, "=100=10"),
    ([11], [(3, 7), (6, 0), (5, 2), (4, 10), (13, 15), (1, 9), (8, 12)], 14, "0=00==1"),
    ([14], [(7, 6), (10, 0), (2, 3), (8, 11), (15, 4), (1, 5), (13, 9)], 12, "100=0=0"),
    ([5, 6, 11], [(0, 7), (3, 8), (4, 2), (9, 10), (14, 15), (12, 13)], 1, "101010"),
    ([11], [(4, 0), (7, 10), (3, 1), (8, 6), (2, 13), (9, 14), (15, 12)], 5, "010===="),
    ([9], [(0, 1), (7, 8), (6, 4), (13, 3), (10, 5), (2, 15), (12, 14)], 11, "=0100=1"),
]


def _fresh(players: int, rounds: int, played: list) -> dict:
    """A tournament in the fixtures' form from its rounds as listed above."""
    return {"players": players, "rounds": rounds, "round_data": [
        {"round": k + 1, "absent": absent, "boards": [list(b) for b in boards], "bye": bye, "results": list(results),
         "bbp_seconds": 0.0}
        for k, (absent, boards, bye, results) in enumerate(played)]}


@pytest.mark.rule("C.04.3-C.7")
def test_pairs_of_moved_down_players_among_themselves_do_not_count_for_the_next_bracket():
    """16 players (15 present), final round 9: p04 and p11 move down into the
    3.5 bracket, which pairs two games and floats three to p16 (3) and p13
    (2.5). Floating p03, p06, p12 would let p03 meet p12 in the next bracket
    besides p06-p16, but moved-down players pair with that bracket's
    residents, not with each other (C.7 counts p16's games only): either
    set gives one, and C.14 then keeps p06, who floated down last round, in
    the bracket: p11-p06, and p03, p12, p15 float (p03-p16, p13-p15, the
    bye to p12)."""
    data = _fresh(16, 9, FRESH_16_S3_5)
    check = replay(data)[-1]
    assert check.identical, check.differences
    assert [10, 5] in data["round_data"][-1]["boards"] and data["round_data"][-1]["bye"] == 11


#: BBP_SEEDS=3, the eighth tournament of 16 players, its first seven rounds (as FRESH_16_S3_5).
FRESH_16_S3_7 = [
    ([7, 13], [(0, 8), (9, 1), (2, 10), (11, 3), (4, 12), (14, 5), (6, 15)], None, "1010=01"),
    ([15], [(3, 0), (1, 6), (5, 2), (7, 4), (12, 9), (8, 11), (10, 13)], 14, "0=1===="),
    ([], [(0, 5), (2, 1), (6, 12), (4, 14), (13, 3), (11, 7), (9, 8), (15, 10)], None, "==01=0=="),
    ([], [(1, 0), (5, 4), (12, 2), (3, 6), (8, 7), (10, 9), (14, 13), (15, 11)], None, "00==0000"),
    ([15], [(0, 4), (7, 5), (13, 12), (2, 6), (9, 3), (11, 1), (10, 14)], 8, "11=1001"),
    ([5], [(7, 0), (1, 12), (3, 2), (4, 13), (6, 9), (8, 10), (14, 11)], 15, "0111==0"),
    ([11], [(12, 0), (4, 1), (3, 7), (2, 8), (5, 9), (13, 6), (14, 15)], 10, "0==1101"),
]


@pytest.mark.rule("C.04.3-C.9")
def test_the_bye_left_over_in_a_bracket_above_the_last_goes_to_the_player_with_the_most_games():
    """16 players (15 present), round 7: the bye is on 2.5 points (p15 and
    p16 below have had one), and the 2.5 bracket leaves one player over, who
    gets it: p10 could meet p16 there, but not with the round completed
    (p15 must meet p16), so that game does not count for C.7, and C.9 gives
    the bye to a player who has played every round (p11, not p14, a game
    short): p10 meets p06 and p14 p07."""
    check = replay(_fresh(16, 9, FRESH_16_S3_7))[-1]
    assert check.identical, check.differences
    assert FRESH_16_S3_7[-1][2] == 10


#: BBP_SEEDS=1, the fourth tournament of 64 players (9 rounds), its first two rounds.
FRESH_64_S1_3 = [
    ([27, 34], [(0, 32), (33, 1), (2, 35), (36, 3), (4, 37), (38, 5), (6, 39), (40, 7), (8, 41), (42, 9), (10, 43),
                (44, 11), (12, 45), (46, 13), (14, 47), (48, 15), (16, 49), (50, 17), (18, 51), (52, 19), (20, 53),
                (54, 21), (22, 55), (56, 23), (24, 57), (58, 25), (26, 59), (60, 28), (29, 61), (62, 30), (31, 63)],
     None, "1=1==011=0====1010101010==10101"),
    ([61], [(19, 0), (20, 2), (5, 22), (21, 6), (9, 26), (23, 14), (15, 29), (28, 16), (17, 31), (30, 18), (1, 40),
            (3, 33), (41, 4), (37, 8), (45, 10), (11, 36), (57, 12), (13, 44), (43, 24), (25, 46), (7, 58), (27, 50),
            (32, 52), (51, 34), (35, 54), (53, 38), (39, 56), (55, 42), (47, 60), (59, 48), (49, 62)], 63,
     "00101=1=0=110==1=100110110101=1"),
]


@pytest.mark.rule("C.04.3-C.9")
def test_a_large_last_bracket_pairs_its_moved_down_player_before_its_bye_is_chosen():
    """64 players (63 present), round 2: p59 (0.5) moves down into the last
    bracket of 22 players on 0, too many to pair exactly. He pairs first
    (with p08); the bye is then the player the residents' own S1 against
    S2 leaves over, p64, with every preference granted. Weighing him in
    one homogeneous group with the residents moved the halves' border and
    gave the bye to p63."""
    check = replay(_fresh(64, 9, FRESH_64_S1_3))[-1]
    assert check.identical, check.differences
    assert FRESH_64_S1_3[-1][2] == 63


#: BBP_SEEDS=777, the first tournament of 256 players (8 rounds), its first two rounds.
FRESH_256_S777_0 = [
    ([31, 42, 53, 73, 102, 108, 146, 152, 156, 162, 168, 178, 199, 214, 232], [(0, 126), (127, 1), (2, 128),
     (129, 3), (4, 130), (131, 5), (6, 132), (133, 7), (8, 134), (135, 9), (10, 136), (137, 11), (12, 138),
     (139, 13), (14, 140), (141, 15), (16, 142), (143, 17), (18, 144), (145, 19), (20, 147), (148, 21), (22, 149),
     (150, 23), (24, 151), (153, 25), (26, 154), (155, 27), (28, 157), (158, 29), (30, 159), (160, 32), (33, 161),
     (163, 34), (35, 164), (165, 36), (37, 166), (167, 38), (39, 169), (170, 40), (41, 171), (172, 43), (44, 173),
     (174, 45), (46, 175), (176, 47), (48, 177), (179, 49), (50, 180), (181, 51), (52, 182), (183, 54), (55, 184),
     (185, 56), (57, 186), (187, 58), (59, 188), (189, 60), (61, 190), (191, 62), (63, 192), (193, 64), (65, 194),
     (195, 66), (67, 196), (197, 68), (69, 198), (200, 70), (71, 201), (202, 72), (74, 203), (204, 75), (76, 205),
     (206, 77), (78, 207), (208, 79), (80, 209), (210, 81), (82, 211), (212, 83), (84, 213), (215, 85), (86, 216),
     (217, 87), (88, 218), (219, 89), (90, 220), (221, 91), (92, 222), (223, 93), (94, 224), (225, 95), (96, 226),
     (227, 97), (98, 228), (229, 99), (100, 230), (231, 101), (103, 233), (234, 104), (105, 235), (236, 106),
     (107, 237), (238, 109), (110, 239), (240, 111), (112, 241), (242, 113), (114, 243), (244, 115), (116, 245),
     (246, 117), (118, 247), (248, 119), (120, 249), (250, 121), (122, 251), (252, 123), (124, 253), (254, 125)],
     255, "101==01==0=0=0==1=====1=0=00==10101010===1=0=01=10=0101=1=1000011=10100=1=1010101==010===01010=0==10"
     "1=101=10=010101=1010"),
    ([20, 139, 159, 244, 248], [(81, 0), (1, 80), (83, 2), (5, 82), (87, 6), (9, 84), (11, 88), (13, 89), (93, 16),
     (95, 22), (27, 94), (97, 30), (32, 96), (99, 33), (34, 103), (104, 35), (36, 105), (109, 37), (38, 107),
     (45, 110), (47, 112), (113, 48), (115, 50), (51, 116), (54, 118), (117, 55), (56, 120), (119, 57), (123, 59),
     (125, 61), (62, 122), (64, 124), (151, 67), (154, 69), (70, 172), (192, 71), (72, 195), (194, 76), (203, 78),
     (79, 255), (3, 133), (134, 4), (7, 129), (130, 8), (138, 10), (136, 12), (144, 14), (15, 143), (17, 141),
     (140, 18), (19, 148), (21, 145), (23, 153), (25, 150), (147, 28), (29, 170), (157, 39), (40, 158), (169, 41),
     (171, 44), (173, 46), (49, 187), (175, 52), (58, 179), (60, 197), (68, 189), (75, 206), (77, 204), (85, 221),
     (182, 86), (216, 90), (91, 215), (220, 92), (222, 98), (228, 100), (101, 236), (106, 231), (111, 250),
     (230, 114), (121, 240), (243, 24), (188, 26), (190, 31), (42, 191), (43, 193), (196, 53), (198, 63), (199, 65),
     (66, 200), (201, 73), (205, 74), (102, 202), (207, 108), (126, 208), (209, 127), (128, 210), (211, 131),
     (132, 212), (213, 135), (214, 137), (142, 217), (218, 146), (149, 219), (152, 223), (224, 155), (156, 225),
     (226, 160), (161, 227), (162, 229), (232, 163), (164, 234), (233, 165), (166, 238), (235, 167), (237, 168),
     (239, 174), (241, 176), (177, 242), (245, 178), (180, 246), (247, 181), (249, 183), (184, 252), (251, 185),
     (186, 254)],
     253, "===10110=00=001==011==01=0=000====10=0010=1=001111111101=000=101001110010=0111010===1=1=100=0=1=11=1"
     "==11==011010=00=010==000="),
]


@pytest.mark.rule("C.04.3-C.9")
def test_a_last_bracket_too_large_to_weigh_exactly_gives_the_bye_its_first_transposition_leaves_over():
    """256 players (255 present), round 2: the last bracket holds 90 players
    on 0 and p244 moved down, who meets p25 first. Of the 89 residents left,
    S1 (the top 44) takes S2 player by player, each the first who grants
    both preferences, and p254 is left over for the bye, as bbpPairings v6
    gives it; choosing the bye as simply the lowest ranked gave it to p255."""
    check = replay(_fresh(256, 8, FRESH_256_S777_0))[-1]
    assert check.identical, check.differences
    assert FRESH_256_S777_0[-1][2] == 253


#: BBP_SEEDS=4, the third tournament of 8 players (5 rounds), its first four rounds.
FRESH_8_S4_18 = [
    ([], [(0, 4), (5, 1), (2, 6), (7, 3)], None, "=0=0"),
    ([7], [(1, 3), (6, 0), (4, 2)], 5, "10="),
    ([], [(0, 1), (2, 5), (3, 4), (6, 7)], None, "=010"),
    ([], [(1, 7), (5, 0), (3, 2), (4, 6)], None, "10=="),
]


@pytest.mark.rule("C.04.3-C.8")
def test_the_next_brackets_best_pairing_of_moved_down_players_is_searched_not_taken_greedily():
    """8 players, round 4: p02 (2.5) has met everyone on 2 points, so he and
    one of p01, p04, p06 float to the 1-point bracket of p03, p05, p08. With
    p04 floated both floaters can meet someone there with the round
    completed (p02-p08, p04-p03, p05-p07 below), as with p06 floated: C.8 is
    even, and C.16 keeps p06, who floated down two rounds ago, in the
    bracket. Giving p02 his first possible opponent there (p05) left p04
    none, which counted against floating p04 and floated p06."""
    check = replay(_fresh(8, 5, FRESH_8_S4_18))[-1]
    assert check.identical, check.differences


#: BBP_SEEDS=5, the 16th tournament of 16 players (8 rounds), its first seven rounds.
FRESH_16_S5_15 = [
    ([6, 15], [(0, 8), (9, 1), (2, 10), (11, 3), (4, 12), (13, 5), (7, 14)], None, "=01==1="),
    ([], [(1, 2), (3, 13), (12, 0), (14, 4), (8, 7), (5, 11), (10, 6), (15, 9)], None, "1=00010="),
    ([], [(0, 1), (4, 13), (7, 3), (2, 5), (6, 8), (9, 12), (11, 14), (10, 15)], None, "1=11=111"),
    ([1], [(7, 0), (13, 2), (6, 4), (11, 9), (3, 8), (5, 10), (12, 15)], 14, "00====="),
    ([], [(0, 2), (4, 7), (1, 11), (9, 6), (14, 13), (10, 3), (15, 5), (8, 12)], None, "=010000="),
    ([], [(13, 0), (2, 7), (6, 1), (5, 4), (3, 9), (8, 11), (12, 10), (15, 14)], None, "0=0111=1"),
    ([15], [(0, 5), (7, 1), (2, 3), (13, 6), (4, 8), (11, 12), (14, 9)], 10, "1010100"),
]


@pytest.mark.rule("C.04.3-C.9")
def test_the_first_moved_down_player_pairs_first_when_either_could_take_the_bye():
    """16 players (15 present), round 7: p10 and p11 (2 points, the bye's
    score) float into the last bracket, where only p15 (1.5, had the bye)
    stays: one of them meets p15, the other takes the bye, and every
    criterion is even (both played six games; either game denies one
    colour preference).
    The MDP-pairing's order decides: the first moved-down player, p10,
    meets p15 and p11 gets the bye, as bbpPairings v6 gives it; ordering by
    the opponents alone, whoever paired, gave the bye to p10."""
    check = replay(_fresh(16, 8, FRESH_16_S5_15))[-1]
    assert check.identical, check.differences
    assert FRESH_16_S5_15[-1][2] == 10
