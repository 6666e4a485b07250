"""The standings as ``leagues.standings`` computed them before they were
counted in integers (in Fractions throughout): the oracle that the faster,
integer version must agree with exactly (tests/leagues/test_standings.py)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import combinations
from typing import Iterable, Sequence

from leagues.standings import LeagueResult, Rules, Standing, _drew, _pair_points, _split, _Tally, _won


def _points(rules: Rules, res: LeagueResult) -> dict[str, Fraction]:
    """Each player's points from one result."""
    if res.bye:
        return {res.players[0]: rules.bye}
    if res.forfeit is not None:
        return {p: rules.forfeit_loss if p in res.forfeited else rules.forfeit_win for p in res.players}
    if res.team_won is not None:
        return {p: rules.win if res.team_won else rules.loss for p in res.players}
    k = len(res.players)
    if rules.rank_points is not None:
        table = list(rules.rank_points) + [Fraction(0)] * max(0, k - len(rules.rank_points))
        out = {}
        for p, r in zip(res.players, res.ranks):
            tied = sum(1 for x in res.ranks if x == r)
            out[p] = sum(table[r - 1:r - 1 + tied], Fraction(0)) / tied
        return out
    return {
        p: sum((_pair_points(rules, r, r2) for q, r2 in zip(res.players, res.ranks) if q != p), Fraction(0)) / (k - 1)
        for p, r in zip(res.players, res.ranks)
    }


def reference_standings(results: Iterable[LeagueResult], rules: Rules = Rules(), players: Sequence[str] = ()) -> list[Standing]:
    """The table: points, then the league's tiebreaks in order; players tied
    on everything share a rank and are listed by ``players`` order (then by
    name). ``players`` adds entrants without results yet.

    Tiebreaks (for multi-player tables a "game" against the k-1 others counts
    as 1/(k-1) of a game against each):
    - buchholz: sum of the final points of each round's opponents (unplayed
      rounds: see ``Rules.unplayed``; cooperative games have no opponents);
    - buchholz_cut1: the same less its lowest round;
    - sonneborn_berger: sum over rounds of the points scored against an
      opponent times that opponent's final points;
    - direct_encounter: among the players still tied when it is reached, the
      points scored in played games against each other, used only when each
      pair of them has met (otherwise 0 for all of them);
    - wins: games won alone in first place, forfeit wins and cooperative wins
      included, byes not.
    """
    results = sorted(results, key=lambda r: (r.round, r.match, r.players))
    names: list[str] = list(dict.fromkeys(list(players) + [p for r in results for p in r.players]))
    pos = {p: i for i, p in enumerate(names)}
    points: dict[str, Fraction] = {p: Fraction(0) for p in names}
    counts = {p: _Tally() for p in names}
    per_result = []
    for res in results:
        got = _points(rules, res)
        per_result.append(got)
        for p, x in got.items():
            points[p] += x
            c = counts[p]
            if res.bye:
                c.byes += 1
                continue
            c.games += 1
            if res.forfeit is not None:
                c.forfeits += 1
            if _won(res, p):
                c.wins += 1
            elif res.played and res.team_won is None and _drew(res, p):
                c.draws += 1
            else:
                c.losses += 1

    # Per player, per round: (weight, opponent points, points scored vs them)
    contributions: dict[str, list[list[tuple[Fraction, Fraction]]]] = defaultdict(list)
    encounters: dict[tuple[str, str], Fraction] = defaultdict(Fraction)  # (p, q) -> p's points vs q
    met: set[tuple[str, str]] = set()
    for res, got in zip(results, per_result):
        if res.team_won is not None:
            continue
        if not res.played:
            for p in res.players:
                dummy = points[p] if rules.unplayed == "own" else Fraction(0)
                contributions[p].append([(dummy, got[p] * dummy)])
            continue
        k = len(res.players)
        for p, r in zip(res.players, res.ranks):
            row = []
            for q, r2 in zip(res.players, res.ranks):
                if q == p:
                    continue
                vs = _pair_points(rules, r, r2)
                row.append((points[q] / (k - 1), vs * points[q] / (k - 1)))
                encounters[(p, q)] += vs
                met.add((p, q))
            contributions[p].append(row)

    def static(p: str, name: str) -> Fraction:
        rounds = [sum((o for o, _ in row), Fraction(0)) for row in contributions[p]]
        if name == "buchholz":
            return sum(rounds, Fraction(0))
        if name == "buchholz_cut1":
            return sum(rounds, Fraction(0)) - min(rounds) if rounds else Fraction(0)
        if name == "sonneborn_berger":
            return sum((sb for row in contributions[p] for _, sb in row), Fraction(0))
        if name == "wins":
            return Fraction(counts[p].wins)
        raise AssertionError(name)

    values: dict[str, list[Fraction]] = {p: [Fraction(0)] * len(rules.tiebreaks) for p in names}
    for p in names:
        for k, name in enumerate(rules.tiebreaks):
            if name != "direct_encounter":
                values[p][k] = static(p, name)

    # Refine groups of tied players criterion by criterion.
    groups: list[list[str]] = _split(sorted(names, key=lambda p: (-points[p], pos[p])), lambda p: points[p])
    for k, name in enumerate(rules.tiebreaks):
        refined = []
        for g in groups:
            if len(g) > 1 and name == "direct_encounter":
                complete = all((a, b) in met for a, b in combinations(g, 2))
                for p in g:
                    values[p][k] = sum((encounters[(p, q)] for q in g if q != p), Fraction(0)) if complete else Fraction(0)
            g = sorted(g, key=lambda p: (-values[p][k], pos[p]))
            refined += _split(g, lambda p: values[p][k])
        groups = refined

    table = []
    rank = 1
    for g in groups:
        for p in g:
            c = counts[p]
            table.append(Standing(rank, p, points[p], tuple(values[p]), c.games, c.wins, c.draws, c.losses, c.byes, c.forfeits))
        rank += len(g)
    return table


