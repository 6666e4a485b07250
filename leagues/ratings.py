"""Ratings per game: Glicko-2 for two-player games, openskill (Plackett-Luce)
for multi-player and cooperative games, each with every player's history.

A rating table is a pure function of the *set* of results: they are put in a
canonical order (rating period, then match id) before anything is computed,
so a worker that recomputes after each result gets the same numbers whatever
order the results were produced, submitted or processed in.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from engine import registry

from .standings import LeagueResult

#: Glicko-2's scale factor between the Glicko scale and its internal one.
GLICKO2_SCALE = 173.7178
#: The pseudo-player a cooperative team plays against ("the deal").
GAME = "(game)"


def default_period(result: LeagueResult) -> Any:
    """Rating periods are league rounds. Several leagues of one game rated
    together need a key that orders their rounds, e.g. (date, league, round)."""
    return result.round


def _canonical(results: Iterable[LeagueResult], period: Callable[[LeagueResult], Any]) -> list[LeagueResult]:
    return sorted(results, key=lambda r: (period(r), r.match, r.players))


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after a period (Glicko-2) or a match (openskill).

    ``rating``/``deviation`` are the Glicko rating and RD, or openskill's
    mu and sigma; ``volatility`` is Glicko-2's sigma (None for openskill);
    ``games``: games in that period."""

    period: Any
    match: str | None
    rating: float
    deviation: float
    volatility: float | None
    games: int

    @property
    def conservative(self) -> float:
        """What leaderboards show: rating - 2 RD (Glicko) or mu - 3 sigma (openskill)."""
        return self.rating - (3 if self.volatility is None else 2) * self.deviation

    def to_dict(self) -> dict[str, Any]:
        return {
            "period": self.period,
            "match": self.match,
            "rating": self.rating,
            "deviation": self.deviation,
            "volatility": self.volatility,
            "games": self.games,
        }


@dataclass(frozen=True)
class RatingTable:
    system: str  # "glicko2" | "openskill-pl"
    current: Mapping[str, RatingPoint]
    history: Mapping[str, tuple[RatingPoint, ...]]


# -- Glicko-2 ---------------------------------------------------------------------

@dataclass(frozen=True)
class Glicko2:
    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def glicko2_update(
    player: Glicko2,
    games: Sequence[tuple[Glicko2, float]],
    tau: float = 0.5,
    epsilon: float = 1e-6,
    max_rd: float = 350.0,
) -> Glicko2:
    """One rating period of Glickman's "Example of the Glicko-2 system" (2013):
    ``games`` are (opponent at the start of the period, score 1/½/0). With no
    games only the deviation grows (step 6), capped at ``max_rd``."""
    mu = (player.rating - 1500.0) / GLICKO2_SCALE
    phi = player.rd / GLICKO2_SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko2(player.rating, min(phi_star * GLICKO2_SCALE, max_rd), sigma)

    v_inv = 0.0
    gain = 0.0
    for opp, s in games:
        mu_j = (opp.rating - 1500.0) / GLICKO2_SCALE
        g = _g(opp.rd / GLICKO2_SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        gain += g * (s - e)
    v = 1.0 / v_inv
    delta = v * gain

    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)

    phi_star = math.sqrt(phi2 + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Glicko2(GLICKO2_SCALE * mu_new + 1500.0, min(GLICKO2_SCALE * phi_new, max_rd), sigma_new)


def _two_player_score(res: LeagueResult) -> float:
    r0, r1 = res.ranks
    return 1.0 if r0 < r1 else 0.5 if r0 == r1 else 0.0


def glicko2_ratings(
    results: Iterable[LeagueResult],
    *,
    tau: float = 0.5,
    initial: Glicko2 = Glicko2(),
    period: Callable[[LeagueResult], Any] = default_period,
) -> RatingTable:
    """Glicko-2 over a two-player game's results; one rating period per league
    round (``period``). Within a period every game uses the ratings from its
    start, as Glicko-2 prescribes. Byes and forfeits are not games and are left
    out; so are cooperative results. A player's deviation grows in each period
    after their first in which they do not play. History: one point per
    period in which the player played."""
    rated = [r for r in results if r.played and r.team_won is None]
    for r in rated:
        if len(r.players) != 2:
            raise ValueError(f"Glicko-2 rates two-player games; match {r.match!r} has {len(r.players)} players")
    by_period: dict[Any, list[LeagueResult]] = defaultdict(list)
    for r in _canonical(rated, period):
        by_period[period(r)].append(r)

    state: dict[str, Glicko2] = {}
    history: dict[str, list[RatingPoint]] = defaultdict(list)
    for key in sorted(by_period):
        games: dict[str, list[tuple[Glicko2, float]]] = defaultdict(list)
        for res in by_period[key]:
            a, b = res.players
            s = _two_player_score(res)
            games[a].append((state.get(b, initial), s))
            games[b].append((state.get(a, initial), 1.0 - s))
        new: dict[str, Glicko2] = {}
        for p in sorted(set(state) | set(games)):
            played = games.get(p, [])
            new[p] = glicko2_update(state.get(p, initial), played, tau)
            if played:
                history[p].append(RatingPoint(key, None, new[p].rating, new[p].rd, new[p].volatility, len(played)))
        state = new
    current = {p: history[p][-1] if history[p] else None for p in state}
    # The current point carries the latest deviation (grown while inactive).
    current = {
        p: RatingPoint(h.period, None, state[p].rating, state[p].rd, state[p].volatility, h.games)
        for p, h in current.items() if h is not None
    }
    return RatingTable("glicko2", current, {p: tuple(h) for p, h in history.items()})


# -- openskill (Plackett-Luce) ------------------------------------------------------

def openskill_ratings(
    results: Iterable[LeagueResult],
    *,
    model: Any = None,
    period: Callable[[LeagueResult], Any] = default_period,
    game: str = GAME,
) -> RatingTable:
    """openskill's Plackett-Luce model over a multi-player game's results, one
    update per match in canonical order (period, then match id). Each seat is
    a team of one ranked by the result's ranks (ties allowed).

    Cooperative results (``team_won`` set): all seats are one team against a
    pseudo-player ``game`` (default ``"(game)"``) standing for the deal; the
    team ranks first when it won. The game's own rating is learned like a
    player's, so a hard game gives its winners more; it is in the table and
    its history under that name. Byes and forfeits are left out.
    """
    if model is None:
        from openskill.models import PlackettLuce

        model = PlackettLuce()
    state: dict[str, tuple[float, float]] = {}
    history: dict[str, list[RatingPoint]] = defaultdict(list)

    def rating(p: str) -> Any:
        mu, sigma = state.get(p, (None, None))
        return model.rating(mu=mu, sigma=sigma, name=p)

    for res in _canonical((r for r in results if r.played), period):
        if res.team_won is not None:
            teams = [list(res.players), [game]]
            ranks = [1, 2] if res.team_won else [2, 1]
        else:
            teams = [[p] for p in res.players]
            ranks = list(res.ranks)
        out = model.rate([[rating(p) for p in team] for team in teams], ranks=ranks)
        key = period(res)
        for team, new_team in zip(teams, out):
            for p, r in zip(team, new_team):
                state[p] = (r.mu, r.sigma)
                history[p].append(RatingPoint(key, res.match, r.mu, r.sigma, None, 1))
    current = {p: h[-1] for p, h in history.items()}
    return RatingTable("openskill-pl", current, {p: tuple(h) for p, h in history.items()})


def rate(results: Iterable[LeagueResult], system: str, **kw: Any) -> RatingTable:
    """``system``: "glicko2" (two-player games) or "openskill-pl" (the rest)."""
    if system == "glicko2":
        return glicko2_ratings(results, **kw)
    if system == "openskill-pl":
        return openskill_ratings(results, **kw)
    raise ValueError(f"unknown rating system {system!r}")


# -- several leagues of one game ----------------------------------------------------

#: League events that change a league's results, and so its game's ratings.
RESULT_EVENTS = ("result", "forfeit", "correction")


def system_for(min_players: int, max_players: int, cooperative: bool = False) -> str:
    """The rating system of a game: Glicko-2 for a game only ever played by
    two (and not cooperative), openskill's Plackett-Luce for the rest —
    multi-player games, and cooperative ones (the team against the game)."""
    if not cooperative and min_players == max_players == 2:
        return "glicko2"
    return "openskill-pl"


def is_cooperative(game: Any) -> bool:
    """A game whose seats play together against the game. A game says so
    with a ``cooperative = True`` attribute (the three Jogledor patiences
    have it from their shared base, ``JogledorGame``)."""
    return bool(getattr(game, "cooperative", False))


def rating_system(game_id: str) -> tuple[str, bool]:
    """(system, cooperative) of a registered game; UnknownGame (404) otherwise."""
    game = registry.get(game_id)
    info = game.info()
    coop = is_cooperative(game)
    return system_for(info["min_players"], info["max_players"], coop), coop


class LeagueRound(NamedTuple):
    """The rating period of several leagues rated together: a league's round,
    ordered by when the league was set up (its setup's ``recorded_at``, from
    its log), then the league id, then the round number. A pure function of
    the logs, so every recomputation orders the periods alike; within one
    league the rounds keep their own order."""

    started: str
    league: str
    round: int


@dataclass(frozen=True)
class RatedLeague:
    """One league's contribution: its id, its setup's ``recorded_at`` and its results."""

    league: str
    started: str
    results: tuple[LeagueResult, ...]


def as_team_result(res: LeagueResult) -> LeagueResult:
    """A cooperative game's result as a league records it — every seat ranked
    1 when the team won, every seat ranked 2 when the game beat them — as a
    team result (``team_won``). Byes, forfeits, results already marked and
    results whose seats are ranked apart are returned as they are."""
    if not res.played or res.team_won is not None or len(set(res.ranks)) != 1:
        return res
    return replace(res, team_won=res.ranks[0] == 1)


def rate_leagues(
    leagues: Iterable[RatedLeague], system: str, *, cooperative: bool = False, **kw: Any
) -> RatingTable:
    """Rate the results of several leagues of one game together, one period
    per league round (``LeagueRound``). With ``cooperative``, every played
    result is the team against the game (``as_team_result``). The table is a
    pure function of the set of leagues and their results."""
    results: list[LeagueResult] = []
    periods: dict[int, LeagueRound] = {}
    for lg in leagues:
        for res in lg.results:
            if cooperative:
                res = as_team_result(res)
            results.append(res)  # kept alive, so id() stays unique while rating
            periods[id(res)] = LeagueRound(lg.started, lg.league, res.round)
    return rate(results, system, period=lambda r: periods[id(r)], **kw)
