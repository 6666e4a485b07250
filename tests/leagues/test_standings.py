"""Standings and tiebreaks on hand-computed tables, and the same tables as
the Fractions the integer count replaced gave them (reference_standings)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import MalformedEvent
from leagues.standings import TIEBREAKS, LeagueResult, Rules, Table, apply_result, player_points, standings
from tests.leagues.reference_standings import reference_standings


def game(rnd, white, black, result, match=None):
    """result: "1-0", "0-1" or "½-½"."""
    ranks = {"1-0": (1, 2), "0-1": (2, 1), "½-½": (1, 1)}[result]
    return LeagueResult(round=rnd, players=(white, black), ranks=ranks, match=match or f"r{rnd}-{white}-{black}")


# A four-player round robin:
#   R1: A-D 1-0, B-C ½-½   R2: D-C 0-1, A-B 0-1   R3: B-D ½-½, C-A 0-1
# Points: A 1+0+1 = 2, B ½+1+½ = 2, C ½+1+0 = 1½, D 0+0+½ = ½.
ROUND_ROBIN = [
    game(1, "A", "D", "1-0"), game(1, "B", "C", "½-½"),
    game(2, "D", "C", "0-1"), game(2, "A", "B", "0-1"),
    game(3, "B", "D", "½-½"), game(3, "C", "A", "0-1"),
]


def by_player(table):
    return {s.player: s for s in table}


def test_round_robin_points_and_every_tiebreak():
    rules = Rules(tiebreaks=("buchholz", "buchholz_cut1", "sonneborn_berger", "wins"))
    t = by_player(standings(ROUND_ROBIN, rules))
    assert {p: s.points for p, s in t.items()} == {"A": 2, "B": 2, "C": F(3, 2), "D": F(1, 2)}
    # Buchholz: A: D ½ + B 2 + C 1½ = 4      B: C 1½ + A 2 + D ½ = 4
    #           C: B 2 + D ½ + A 2 = 4½      D: A 2 + C 1½ + B 2 = 5½
    # Cut-1 (less the lowest opponent): A 4-½ = 3½, B 4-½ = 3½, C 4½-½ = 4, D 5½-1½ = 4
    # Sonneborn-Berger (opponent's points × points scored against them):
    #   A: 1×½ (D) + 0×2 (B) + 1×1½ (C) = 2
    #   B: ½×1½ (C) + 1×2 (A) + ½×½ (D) = ¾ + 2 + ¼ = 3
    #   C: ½×2 (B) + 1×½ (D) + 0×2 (A) = 1½
    #   D: 0×2 (A) + 0×1½ (C) + ½×2 (B) = 1
    # Wins: A 2 (D, C), B 1 (A), C 1 (D), D 0.
    assert t["A"].tiebreaks == (4, F(7, 2), 2, 2)
    assert t["B"].tiebreaks == (4, F(7, 2), 3, 1)
    assert t["C"].tiebreaks == (F(9, 2), 4, F(3, 2), 1)
    assert t["D"].tiebreaks == (F(11, 2), 4, 1, 0)
    # A and B tie on points, Buchholz and cut-1; Sonneborn-Berger puts B first.
    assert [s.player for s in standings(ROUND_ROBIN, rules)] == ["B", "A", "C", "D"]
    assert (t["A"].games, t["A"].wins, t["A"].draws, t["A"].losses) == (3, 2, 0, 1)
    assert (t["B"].wins, t["B"].draws, t["B"].losses) == (1, 2, 0)


def test_tiebreak_order_is_the_leagues_choice():
    # Wins first: A (2 wins) ahead of B (1 win).
    assert [s.player for s in standings(ROUND_ROBIN, Rules(tiebreaks=("wins",)))][:2] == ["A", "B"]
    # Direct encounter: B beat A.
    table = standings(ROUND_ROBIN, Rules(tiebreaks=("direct_encounter",)))
    assert [s.player for s in table][:2] == ["B", "A"]
    assert table[0].tiebreaks == (1,) and table[1].tiebreaks == (0,)


def test_players_tied_on_everything_share_a_rank():
    table = standings(ROUND_ROBIN, Rules(tiebreaks=("buchholz",)), players=["B", "A", "C", "D"])
    assert [(s.rank, s.player) for s in table] == [(1, "B"), (1, "A"), (3, "C"), (4, "D")]


def test_direct_encounter_needs_all_tied_players_to_have_met():
    # A and B both win once, never meet: direct encounter is 0 for both.
    results = [game(1, "A", "C", "1-0"), game(1, "B", "D", "1-0")]
    table = standings(results, Rules(tiebreaks=("direct_encounter",)), players=["A", "B", "C", "D"])
    assert [(s.rank, s.player, s.tiebreaks) for s in table[:2]] == [(1, "A", (0,)), (1, "B", (0,))]


# A Swiss with a bye and a forfeit (five players, two rounds):
#   R1: A-B 1-0, C-D ½-½, E bye       R2: A-C forfeited by C ("no show"), E-D 0-1, B bye
# Points: A 1+1 = 2, B 0+1 = 1, C ½+0 = ½, D ½+1 = 1½, E 1+0 = 1.
SWISS = [
    game(1, "A", "B", "1-0"), game(1, "C", "D", "½-½"),
    LeagueResult(round=1, players=("E",), bye=True, match="r1-bye"),
    LeagueResult(round=2, players=("A", "C"), forfeit="no show", forfeited=("C",), match="r2-A-C"),
    game(2, "E", "D", "0-1"),
    LeagueResult(round=2, players=("B",), bye=True, match="r2-bye"),
]


def test_unplayed_rounds_count_against_a_dummy_with_ones_own_points():
    rules = Rules(tiebreaks=("buchholz", "buchholz_cut1", "sonneborn_berger", "wins"))
    t = by_player(standings(SWISS, rules))
    assert {p: s.points for p, s in t.items()} == {"A": 2, "B": 1, "C": F(1, 2), "D": F(3, 2), "E": 1}
    # Buchholz, an unplayed round counting as an opponent with one's own points:
    #   A: B 1 + dummy 2 = 3      B: A 2 + dummy 1 = 3     C: D 1½ + dummy ½ = 2
    #   D: C ½ + E 1 = 1½         E: dummy 1 + D 1½ = 2½
    # Cut-1: A 3-1 = 2, B 3-1 = 2, C 2-½ = 1½, D 1½-½ = 1, E 2½-1 = 1½
    # Sonneborn-Berger: A 1×1 + 1×2 = 3; B 0×2 + 1×1 = 1; C ½×1½ + 0×½ = ¾;
    #   D ½×½ + 1×1 = 1¼; E 1×1 + 0×1½ = 1
    # Wins (forfeit wins count, byes do not): A 2, B 0, C 0, D 1, E 0.
    assert t["A"].tiebreaks == (3, 2, 3, 2)
    assert t["B"].tiebreaks == (3, 2, 1, 0)
    assert t["C"].tiebreaks == (2, F(3, 2), F(3, 4), 0)
    assert t["D"].tiebreaks == (F(3, 2), 1, F(5, 4), 1)
    assert t["E"].tiebreaks == (F(5, 2), F(3, 2), 1, 0)
    assert (t["A"].games, t["A"].wins, t["A"].forfeits) == (2, 2, 1)
    assert (t["B"].games, t["B"].losses, t["B"].byes) == (1, 1, 1)
    assert (t["C"].games, t["C"].draws, t["C"].losses, t["C"].forfeits) == (2, 1, 1, 1)
    # B and E tie on 1 point; cut-1 2 against 1½ puts B ahead.
    assert [s.player for s in standings(SWISS, Rules())] == ["A", "D", "B", "E", "C"]


def test_unplayed_rounds_as_zero():
    rules = Rules(tiebreaks=("buchholz", "sonneborn_berger"), unplayed="zero")
    t = by_player(standings(SWISS, rules))
    # Buchholz: A 1+0 = 1, B 2+0 = 2, C 1½+0 = 1½, D ½+1 = 1½, E 0+1½ = 1½
    # Sonneborn-Berger: A 1×1 = 1, B 0, C ½×1½ = ¾, D ¼+1 = 1¼, E 0
    assert {p: s.tiebreaks for p, s in t.items()} == {
        "A": (1, 1), "B": (2, 0), "C": (F(3, 2), F(3, 4)), "D": (F(3, 2), F(5, 4)), "E": (F(3, 2), 0)}


def test_league_points_for_win_draw_loss_bye_and_forfeit():
    rules = Rules(win=3, draw=1, loss=0, bye=1, forfeit_win=3, forfeit_loss=-1)
    t = by_player(standings(SWISS, rules))
    # A 3+3 = 6, B 0+1 = 1, C 1-1 = 0, D 1+3 = 4, E 1+0 = 1
    assert {p: s.points for p, s in t.items()} == {"A": 6, "B": 1, "C": 0, "D": 4, "E": 1}


def test_multi_player_points_pairwise_and_by_place():
    res = LeagueResult(round=1, players=("w", "x", "y", "z"), ranks=(1, 2, 2, 4), match="m1")
    t = by_player(standings([res]))
    # Pairwise, averaged over the 3 opponents: w beats all: 3/3 = 1;
    # x: loses to w, draws y, beats z: (0 + ½ + 1)/3 = ½; y the same; z 0.
    assert {p: s.points for p, s in t.items()} == {"w": 1, "x": F(1, 2), "y": F(1, 2), "z": 0}
    # Place points 3/2/1/0: x and y share 2nd and 3rd: (2 + 1)/2 = 1½.
    t = by_player(standings([res], Rules(rank_points=(3, 2, 1, 0))))
    assert {p: s.points for p, s in t.items()} == {"w": 3, "x": F(3, 2), "y": F(3, 2), "z": 0}


def test_multi_player_buchholz_averages_the_table():
    # R1: (a 1st, b 2nd, c 3rd); R2: (c 1st, a 2nd, b 3rd), pairwise points.
    # Points: a 1 + ½ = 1½, b ½ + 0 = ½, c 0 + 1 = 1.
    # Buchholz of a: R1 mean(b ½, c 1) = ¾, R2 mean(c 1, b ½) = ¾ -> 1½.
    # Sonneborn-Berger of a: R1 (1×½ + 1×1)/2 = ¾; R2 (0×1 + 1×½)/2 = ¼ -> 1.
    results = [
        LeagueResult(round=1, players=("a", "b", "c"), ranks=(1, 2, 3), match="m1"),
        LeagueResult(round=2, players=("c", "a", "b"), ranks=(1, 2, 3), match="m2"),
    ]
    t = by_player(standings(results, Rules(tiebreaks=("buchholz", "sonneborn_berger"))))
    assert t["a"].points == F(3, 2)
    assert t["a"].tiebreaks == (F(3, 2), 1)


def test_cooperative_games_give_everyone_the_teams_result():
    results = [
        LeagueResult(round=1, players=("a", "b", "c"), team_won=True, match="m1"),
        LeagueResult(round=2, players=("a", "b"), team_won=False, match="m2"),
    ]
    t = by_player(standings(results))
    assert {p: (s.points, s.wins, s.losses) for p, s in t.items()} == {
        "a": (1, 1, 1), "b": (1, 1, 1), "c": (1, 1, 0)}


def test_the_table_does_not_depend_on_the_order_of_results():
    shuffled = SWISS[:]
    random.Random(5).shuffle(shuffled)
    assert standings(shuffled) == standings(SWISS)


def test_from_dict_reads_winner_scores_or_draw():
    assert LeagueResult.from_dict({"round": 1, "players": ["a", "b"], "winner": "b"}).ranks == (2, 1)
    assert LeagueResult.from_dict({"round": 1, "players": ["a", "b", "c"], "scores": [10, 30, 10]}).ranks == (2, 1, 2)
    assert LeagueResult.from_dict({"round": 1, "players": ["a", "b"]}).ranks == (1, 1)
    forfeit = LeagueResult.from_dict({"round": 1, "players": ["a", "b"], "winner": "a", "forfeit": "late"})
    assert forfeit.forfeited == ("b",) and not forfeit.played
    again = LeagueResult.from_dict(forfeit.to_dict())
    assert again == forfeit


def test_malformed_results_are_refused():
    with pytest.raises(MalformedEvent):
        LeagueResult(round=1, players=("a", "a"), ranks=(1, 2))
    with pytest.raises(MalformedEvent):
        LeagueResult(round=1, players=("a", "b"), ranks=(1,))
    with pytest.raises(MalformedEvent):
        LeagueResult(round=0, players=("a", "b"), ranks=(1, 2))
    with pytest.raises(MalformedEvent):
        LeagueResult(round=1, players=("a", "b"), bye=True)
    with pytest.raises(MalformedEvent):
        Rules(tiebreaks=("koya",))


def test_apply_result_counts_a_match_once_and_a_player_once_a_round():
    state: tuple[LeagueResult, ...] = ()
    state = apply_result(state, game(1, "A", "B", "1-0", match="m1"))
    with pytest.raises(MalformedEvent):
        apply_result(state, game(1, "A", "B", "0-1", match="m1"))
    corrected = apply_result(state, game(1, "A", "B", "0-1", match="m1"), replace=True)
    assert [r.ranks for r in corrected] == [(2, 1)]
    with pytest.raises(MalformedEvent):
        apply_result(state, game(1, "A", "C", "1-0", match="m2"))
    assert len(apply_result(state, game(2, "A", "C", "1-0", match="m2"))) == 2


# -- the integer count agrees with the Fractions it replaced ------------------------------------

_NAMES = [f"p{i}" for i in range(9)]
_POINT = st.fractions(min_value=-3, max_value=5, max_denominator=7)


@st.composite
def _league(draw):
    """Rounds of results among a few players: games of 2 to 5 players with
    any ranks, byes, forfeits, cooperative games; rules with any points
    (fractions with odd denominators too), place points or not, any
    tiebreak order, unplayed rounds as 'own' or 'zero'; some players
    registered (in any order), others only in the results."""
    results = []
    for rnd in range(1, draw(st.integers(1, 5)) + 1):
        free = draw(st.permutations(_NAMES))
        while len(free) >= 1:
            kind = draw(st.sampled_from(["game", "game", "game", "bye", "forfeit", "team", "stop"]))
            if kind == "stop":
                break
            if kind == "bye":
                results.append(LeagueResult(round=rnd, players=(free.pop(),), bye=True, match=f"b{rnd}-{len(free)}"))
                continue
            k = draw(st.integers(2, 5))
            if len(free) < k:
                break
            table = tuple(free.pop() for _ in range(k))
            match = f"m{rnd}-{len(free)}"
            if kind == "team":
                results.append(LeagueResult(round=rnd, players=table, team_won=draw(st.booleans()), match=match))
            elif kind == "forfeit":
                out = tuple(p for p in table if draw(st.booleans())) or table[:1]
                results.append(LeagueResult(round=rnd, players=table, forfeit="absent", forfeited=out,
                                            ranks=tuple(2 if p in out else 1 for p in table), match=match))
            else:
                ranks = tuple(draw(st.integers(1, k)) for _ in table)
                results.append(LeagueResult(round=rnd, players=table, ranks=ranks, match=match))
    rules = Rules(win=draw(_POINT), draw=draw(_POINT), loss=draw(_POINT), bye=draw(_POINT),
                  forfeit_win=draw(_POINT), forfeit_loss=draw(_POINT),
                  rank_points=draw(st.none() | st.lists(_POINT, max_size=4).map(tuple)),
                  tiebreaks=tuple(draw(st.permutations(TIEBREAKS))[:draw(st.integers(0, len(TIEBREAKS)))]),
                  unplayed=draw(st.sampled_from(["own", "zero"])))
    players = draw(st.lists(st.sampled_from(_NAMES), unique=True, max_size=6))
    return results, rules, players


@settings(max_examples=300, deadline=None)
@given(_league())
def test_the_integer_count_gives_the_table_the_fractions_gave(league):
    results, rules, players = league
    table = reference_standings(results, rules, players)
    assert standings(results, rules, players) == table
    assert player_points(results, rules, players) == {s.player: s.points for s in table}


def test_a_table_of_many_tied_players_agrees_with_the_fractions_too():
    rng = random.Random(11)
    names = [f"p{i:03d}" for i in range(300)]
    results = []
    for rnd in range(1, 6):
        rng.shuffle(names)
        results += [game(rnd, names[i], names[i + 1], rng.choice(["1-0", "0-1", "½-½"])) for i in range(0, 298, 2)]
        results.append(LeagueResult(round=rnd, players=(names[-1],), bye=True))
        # one more a round wins by forfeit against someone never registered
        results.append(LeagueResult(round=rnd, players=(names[-2], "ghost"), forfeit="late", forfeited=("ghost",),
                                    match=f"f{rnd}"))
    for rules in (Rules(), Rules(win=3, draw=1, tiebreaks=("direct_encounter", "sonneborn_berger", "buchholz_cut1")),
                  Rules(unplayed="zero", draw=F(1, 3))):
        assert standings(results, rules, sorted(names)) == reference_standings(results, rules, sorted(names))


# -- the table kept result by result agrees with the table of all the results --------------------

@settings(max_examples=200, deadline=None)
@given(_league(), st.data())
def test_a_table_kept_result_by_result_reads_as_the_table_of_its_results(league, data):
    """Results added, removed and replaced in any order (a correction is a
    remove and an add); after each change the kept table reads exactly as
    the table of the results it holds. A result that needs finer units is
    not added (``fits``): the table is made again from all of them."""
    results, rules, players = league
    table = Table(rules)
    held: dict[int, LeagueResult] = {}
    for i, res in enumerate(results):
        if held and data.draw(st.integers(0, 3)) == 0:  # take one out, or put another result in its place
            key = data.draw(st.sampled_from(sorted(held)))
            table.remove(key)
            del held[key]
            if data.draw(st.booleans()):
                res = LeagueResult(round=res.round, players=res.players, ranks=tuple(reversed(res.ranks)),
                                   match=res.match) if res.played and res.team_won is None else res
        if table.fits(res):
            table.add(i, res)
        else:
            table = Table.of([*held.items(), (i, res)], rules)
        held[i] = res
        everyone = [*players, *(p for r in held.values() for p in r.players if p not in players)]
        expected = reference_standings(list(held.values()), rules, everyone)
        assert table.standings(everyone) == expected
        assert table.player_points(everyone) == {s.player: s.points for s in expected}
    if any(p not in players for r in held.values() for p in r.players):
        assert table.standings(players) is None  # the unregistered are ordered by their results: the caller's
