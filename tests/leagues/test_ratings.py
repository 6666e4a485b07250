"""Ratings: Glickman's worked example, and recomputation independent of order."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.ratings import GAME, GLICKO2_SCALE, Glicko2, glicko2_ratings, glicko2_update, openskill_ratings, rate
from leagues.standings import LeagueResult


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (Glickman, 2013): 1500/200/0.06 against
    # 1400/30 (won), 1550/100 (lost), 1700/300 (lost), tau = 0.5.
    player = Glicko2(1500, 200, 0.06)
    games = [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)]
    new = glicko2_update(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation():
    new = glicko2_update(Glicko2(1600, 100, 0.06), [])
    assert new.rating == 1600
    assert new.rd == pytest.approx(math.hypot(100 / GLICKO2_SCALE, 0.06) * GLICKO2_SCALE)
    assert glicko2_update(Glicko2(1600, 349.9, 0.06), []).rd == 350  # capped


def two(rnd, a, b, ranks, match):
    return LeagueResult(round=rnd, players=(a, b), ranks=ranks, match=match)


def test_glicko2_pool_history_per_round():
    results = [
        two(1, "a", "b", (1, 2), "m1"), two(1, "c", "d", (1, 1), "m2"),
        two(2, "a", "c", (2, 1), "m3"),
        LeagueResult(round=2, players=("b",), bye=True, match="bye"),  # not a game
        LeagueResult(round=2, players=("d", "e"), forfeit="late", forfeited=("e",), match="f"),  # not a game
    ]
    table = glicko2_ratings(results)
    assert [h.period for h in table.history["a"]] == [1, 2]
    assert [h.period for h in table.history["b"]] == [1]
    assert "e" not in table.current
    # Round 1: two new players, a wins: symmetric about 1500.
    a1, b1 = table.history["a"][0], table.history["b"][0]
    assert a1.rating - 1500 == pytest.approx(1500 - b1.rating)
    # A draw between equals changes nothing but the deviation.
    assert table.history["c"][0].rating == pytest.approx(1500)
    # b sat out round 2: same rating, wider deviation than after round 1.
    assert table.current["b"].rating == b1.rating and table.current["b"].deviation > b1.deviation


def test_glicko2_refuses_multi_player_games():
    with pytest.raises(ValueError):
        glicko2_ratings([LeagueResult(round=1, players=("a", "b", "c"), ranks=(1, 2, 3))])


def test_openskill_multi_player_and_cooperative():
    results = [
        LeagueResult(round=1, players=("a", "b", "c", "d"), ranks=(1, 2, 3, 4), match="m1"),
        LeagueResult(round=2, players=("a", "b", "c"), team_won=True, match="m2"),
        LeagueResult(round=3, players=("c", "d"), team_won=False, match="m3"),
    ]
    table = openskill_ratings(results)
    first = {p: table.history[p][0].rating for p in "abcd"}
    assert first["a"] > first["b"] > first["c"] > first["d"]
    # A cooperative win lifts every teammate and lowers the game's rating;
    # losing to the game lowers the team and lifts the game again.
    for p in "abc":
        assert table.history[p][1].rating > table.history[p][0].rating
    assert [h.match for h in table.history[GAME]] == ["m2", "m3"]
    assert table.history[GAME][0].rating < 25 < table.history[GAME][1].rating + 1
    assert table.current["d"].rating < first["d"]
    assert table.current["a"].volatility is None


results_strategy = st.lists(
    st.tuples(
        st.integers(1, 6),  # round
        st.permutations(list("abcdefgh")),  # the round's seating
        st.lists(st.sampled_from([(1, 2), (2, 1), (1, 1)]), min_size=4, max_size=4),
    ),
    min_size=1,
    max_size=8,
    unique_by=lambda t: t[0],
)


def as_results(rounds, multi: bool):
    out = []
    for rnd, seating, outcomes in rounds:
        if multi:
            out.append(LeagueResult(round=rnd, players=tuple(seating[:4]), ranks=(1, 2, 2, 4), match=f"{rnd}-x"))
            out.append(LeagueResult(round=rnd, players=tuple(seating[4:]), ranks=(3, 1, 2, 4), match=f"{rnd}-y"))
        else:
            for k, ranks in enumerate(outcomes):
                pair = tuple(seating[2 * k:2 * k + 2])
                out.append(LeagueResult(round=rnd, players=pair, ranks=ranks, match=f"{rnd}-{k}"))
    return out


@settings(max_examples=40, deadline=None)
@given(rounds=results_strategy, multi=st.booleans(), data=st.data())
def test_recomputation_is_the_same_in_any_order(rounds, multi, data):
    results = as_results(rounds, multi)
    shuffled = data.draw(st.permutations(results))
    system = "openskill-pl" if multi else "glicko2"
    a, b = rate(results, system), rate(shuffled, system)
    assert a == b  # identical histories, float for float
    assert a.current.keys() == {p for r in results for p in r.players}


# -- several leagues of one game ------------------------------------------------------

from leagues.ratings import LeagueRound, RatedLeague, as_team_result, rate_leagues, system_for  # noqa: E402


def test_the_system_follows_the_game():
    assert system_for(2, 2) == "glicko2"
    assert system_for(2, 4) == "openskill-pl"
    assert system_for(3, 6) == "openskill-pl"
    assert system_for(2, 2, cooperative=True) == "openskill-pl"


def test_a_cooperative_result_as_the_league_records_it_is_a_team_result():
    won = LeagueResult(round=1, players=("a", "b"), ranks=(1, 1), match="m")
    lost = LeagueResult(round=1, players=("a", "b"), ranks=(2, 2), match="n")
    assert as_team_result(won).team_won is True and as_team_result(lost).team_won is False
    apart = LeagueResult(round=1, players=("a", "b"), ranks=(1, 2), match="o")
    forfeit = LeagueResult(round=1, players=("a", "b"), forfeit="late", forfeited=("b",))
    assert as_team_result(apart) is apart and as_team_result(forfeit) is forfeit


def test_leagues_rated_together_order_rounds_by_league_start_then_id():
    # Two leagues with the same players and round numbers: league "y" started
    # first, so its rounds are the first periods, whatever order they come in.
    x = RatedLeague("x", "2026-02-01T00:00:00.000Z", (two(1, "a", "b", (1, 2), "x1"), two(2, "a", "b", (1, 2), "x2")))
    y = RatedLeague("y", "2026-01-01T00:00:00.000Z", (two(1, "a", "b", (2, 1), "y1"),))
    table = rate_leagues([x, y], "glicko2")
    assert [h.period for h in table.history["a"]] == [
        LeagueRound(y.started, "y", 1), LeagueRound(x.started, "x", 1), LeagueRound(x.started, "x", 2)]
    assert table == rate_leagues([y, x], "glicko2")
    assert rate_leagues([x, y], "glicko2") != rate_leagues([x, RatedLeague("y", "2026-03-01T00:00:00.000Z", y.results)],
                                                           "glicko2")


@settings(max_examples=30, deadline=None)
@given(rounds=results_strategy, multi=st.booleans(), data=st.data())
def test_leagues_rated_together_are_the_same_in_any_order(rounds, multi, data):
    results = as_results(rounds, multi)
    split = data.draw(st.integers(0, len(results)))
    leagues = [RatedLeague("l1", "2026-01-01T00:00:00.000Z", tuple(results[:split])),
               RatedLeague("l2", "2026-01-01T00:00:00.000Z", tuple(results[split:]))]
    shuffled = [RatedLeague(lg.league, lg.started, tuple(data.draw(st.permutations(lg.results))))
                for lg in data.draw(st.permutations(leagues))]
    system = "openskill-pl" if multi else "glicko2"
    assert rate_leagues(leagues, system) == rate_leagues(shuffled, system)


def test_cooperative_leagues_rate_the_team_against_the_game():
    lg = RatedLeague("c", "2026-01-01T00:00:00.000Z", (
        LeagueResult(round=1, players=("a", "b"), ranks=(1, 1), match="m1"),
        LeagueResult(round=2, players=("a", "c"), ranks=(2, 2), match="m2"),
    ))
    table = rate_leagues([lg], "openskill-pl", cooperative=True)
    assert set(table.current) == {"a", "b", "c", GAME}
    assert table.current["b"].rating > 25 > table.current["c"].rating
