"""League standings: a pure reducer over the league's results.

The stream holds only results the worker has validated (or a referee's
forfeit); this module turns that set into points and tiebreaks. Everything is
exact (``Fraction``), so two players tied on paper are tied here too, and the
same set of results gives the same table whatever order it arrived in.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import lcm
from typing import Any, Callable, Container, Hashable, Iterable, Mapping, Sequence

from engine.core import MalformedEvent

TIEBREAKS = ("buchholz", "buchholz_cut1", "sonneborn_berger", "direct_encounter", "wins")


@dataclass(frozen=True)
class LeagueResult:
    """One finished match (or bye, or forfeit) of a league round.

    ``players`` in seat order; ``ranks`` per seat, 1 = first, equal ranks tie
    (a two-player draw is ``(1, 1)``). ``scores`` are the game's own scores,
    kept for display. ``forfeit`` is the referee's reason; ``forfeited`` the
    players who forfeited (the others won by forfeit). ``bye``: one player,
    no game. ``team_won`` marks a cooperative game (all seats one team
    against the game): True if they won, False if the game beat them.
    """

    round: int
    players: tuple[str, ...]
    ranks: tuple[int, ...] = ()
    match: str = ""
    scores: tuple[Any, ...] | None = None
    forfeit: str | None = None
    forfeited: tuple[str, ...] = ()
    bye: bool = False
    team_won: bool | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.round, int) or isinstance(self.round, bool) or self.round < 1:
            raise MalformedEvent("round must be a positive integer", field="round")
        if not self.players or len(set(self.players)) != len(self.players):
            raise MalformedEvent("players must be distinct and non-empty", field="players")
        if self.bye:
            if len(self.players) != 1:
                raise MalformedEvent("a bye has exactly one player", field="players")
            return
        if len(self.players) < 2:
            raise MalformedEvent("a game has at least two players", field="players")
        if self.team_won is not None:
            return
        if self.forfeit is not None:
            if not self.forfeited or not set(self.forfeited) <= set(self.players):
                raise MalformedEvent("a forfeit names who forfeited, among the players", field="forfeited")
            return
        if len(self.ranks) != len(self.players) or not all(isinstance(r, int) and r >= 1 for r in self.ranks):
            raise MalformedEvent("ranks: one positive integer per seat", field="ranks")

    @property
    def played(self) -> bool:
        """A game really played over the board (not a bye, not a forfeit)."""
        return not self.bye and self.forfeit is None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> LeagueResult:
        """From the stream's JSON: ``ranks``, or ``winner`` (a player; absent
        or null with neither ranks nor scores: a draw), or ``scores`` (higher
        is better; the ranks follow)."""
        players = tuple(d["players"])
        ranks = d.get("ranks")
        if ranks is None and not d.get("bye") and d.get("team_won") is None:
            if d.get("winner") is not None:
                if d["winner"] not in players:
                    raise MalformedEvent("the winner is not one of the players", field="winner")
                ranks = [1 if p == d["winner"] else 2 for p in players]
            elif d.get("scores") is not None:
                scores = list(d["scores"])
                ranks = [1 + sum(1 for t in scores if t > s) for s in scores]
            else:
                ranks = [1] * len(players)
        forfeited = tuple(d.get("forfeited") or ())
        if d.get("forfeit") is not None and not forfeited and ranks is not None:
            forfeited = tuple(p for p, r in zip(players, ranks) if r != 1)
        return cls(
            round=d["round"],
            players=players,
            ranks=tuple(ranks or ()),
            match=str(d.get("match", "")),
            scores=tuple(d["scores"]) if d.get("scores") is not None else None,
            forfeit=d.get("forfeit"),
            forfeited=forfeited,
            bye=bool(d.get("bye", False)),
            team_won=d.get("team_won"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "match": self.match, "players": list(self.players)}
        if self.ranks:
            out["ranks"] = list(self.ranks)
        if self.scores is not None:
            out["scores"] = list(self.scores)
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit
            out["forfeited"] = list(self.forfeited)
        if self.bye:
            out["bye"] = True
        if self.team_won is not None:
            out["team_won"] = self.team_won
        return out


@dataclass(frozen=True)
class Rules:
    """A league's scoring and tiebreaks.

    Two-player points: ``win``/``draw``/``loss``. Multi-player games score
    the same pairwise, averaged: against each opponent at the table a player
    gets win/draw/loss by finishing above/level/below, and the table's points
    are the mean over the opponents (so a two-player game scores exactly
    win/draw/loss); or, with ``rank_points`` (points for 1st, 2nd, ...),
    the points of the place, tied players sharing the mean of their places'.
    Cooperative games give everyone ``win`` or ``loss``.

    ``unplayed``: how a round without a game (bye, forfeit) counts for
    Buchholz and Sonneborn-Berger: ``"own"`` as a game against a dummy
    opponent with the player's own final points, ``"zero"`` as an opponent
    with none.
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(1)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    rank_points: tuple[Fraction, ...] | None = None
    tiebreaks: tuple[str, ...] = ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins")
    unplayed: str = "own"

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss"):
            object.__setattr__(self, name, Fraction(getattr(self, name)))
        if self.rank_points is not None:
            object.__setattr__(self, "rank_points", tuple(Fraction(x) for x in self.rank_points))
        unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if unknown:
            raise MalformedEvent(f"unknown tiebreak {unknown[0]!r}; known: {', '.join(TIEBREAKS)}", field="tiebreaks")
        if self.unplayed not in ("own", "zero"):
            raise MalformedEvent("unplayed must be 'own' or 'zero'", field="unplayed")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        kw = {k: d[k] for k in ("win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss", "unplayed") if k in d}
        kw = {k: (Fraction(str(v)) if k != "unplayed" else v) for k, v in kw.items()}
        if d.get("rank_points") is not None:
            kw["rank_points"] = tuple(Fraction(str(x)) for x in d["rank_points"])
        if "tiebreaks" in d:
            kw["tiebreaks"] = tuple(d["tiebreaks"])
        return cls(**kw)


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: Fraction
    tiebreaks: tuple[Fraction, ...]  # in the order of ``Rules.tiebreaks``
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    forfeits: int  # games decided by forfeit, won or lost

    def to_dict(self, names: Sequence[str] = ()) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "points": _num(self.points),
            "tiebreaks": dict(zip(names, map(_num, self.tiebreaks))) if names else [_num(t) for t in self.tiebreaks],
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "forfeits": self.forfeits,
        }


def _num(x: Fraction) -> int | float | str:
    """JSON form: an int when whole, a float when exact in binary, else "p/q"."""
    if x.denominator == 1:
        return int(x)
    if x.denominator & (x.denominator - 1) == 0:
        return float(x)
    return str(x)


# -- the reducer ------------------------------------------------------------------

def apply_result(results: tuple[LeagueResult, ...], result: LeagueResult, replace: bool = False) -> tuple[LeagueResult, ...]:
    """The league's results after one more: a match id counts once (a
    correction must say ``replace``), a player plays once per round."""
    if result.match:
        same = [r for r in results if r.match == result.match]
        if same and not replace:
            raise MalformedEvent(f"match {result.match} is already in the standings", field="match")
        results = tuple(r for r in results if r.match != result.match)
    busy = {p for r in results if r.round == result.round for p in r.players}
    clash = busy & set(result.players)
    if clash:
        raise MalformedEvent(f"{sorted(clash)[0]} already has a result in round {result.round}", field="players")
    return results + (result,)


def _pair_points(rules: Rules, mine: int, theirs: int) -> Fraction:
    return rules.win if mine < theirs else rules.draw if mine == theirs else rules.loss


def _points(rules: Rules, res: LeagueResult) -> dict[str, Fraction]:
    """Each player's points from one result."""
    if res.bye:
        return {res.players[0]: rules.bye}
    if res.forfeit is not None:
        return {p: rules.forfeit_loss if p in res.forfeited else rules.forfeit_win for p in res.players}
    if res.team_won is not None:
        return {p: rules.win if res.team_won else rules.loss for p in res.players}
    k = len(res.players)
    if k == 2 and rules.rank_points is None:  # the pairwise mean over one opponent: that game's points
        (p, r), (q, r2) = zip(res.players, res.ranks)
        return {p: _pair_points(rules, r, r2), q: _pair_points(rules, r2, r)}
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


def standings(results: Iterable[LeagueResult], rules: Rules = Rules(), players: Sequence[str] = ()) -> list[Standing]:
    """The table: points, then the league's tiebreaks in order; players tied
    on everything share a rank and are listed by ``players`` order (then by
    the order of their first result, by round and match). ``players`` adds
    entrants without results yet.

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

    Exact, and in integers: every point value is a whole multiple of ``1/D``
    (D: the least common multiple of the denominators of the rules' values
    and of each result's points), a table's share of a game of ``1/W`` (W:
    of the tables' k-1), so points are counted in units of 1/D, Buchholz in
    units of 1/(D·W) and Sonneborn-Berger in 1/(D²·W), and only the table's
    values are made Fractions. (With Fractions throughout, a league of 4,096
    players after 8 rounds took 2.8 s of CPU; ``make bench``, l5.)
    """
    results = list(results)
    pos: dict[str, int] = {}
    for p in players:
        pos.setdefault(p, len(pos))
    if any(p not in pos for res in results for p in res.players):
        # players without a registration: after the registered, in the order of their first result
        for res in sorted(results, key=lambda r: (r.round, r.match, r.players)):
            for p in res.players:
                pos.setdefault(p, len(pos))
    names = list(pos)

    per_result = [_points(rules, res) for res in results]
    unit = _unit(rules, per_result)
    share = 1  # W: one game against each of the k-1 opponents at a table counts 1/(k-1)
    for res in results:
        if res.played and res.team_won is None and share % (len(res.players) - 1):
            share = lcm(share, len(res.players) - 1)

    def whole(x: Fraction) -> int:  # x in units of 1/D
        return x.numerator * (unit // x.denominator)

    points: dict[str, int] = dict.fromkeys(names, 0)
    counts = {p: _Tally() for p in names}
    for res, got in zip(results, per_result):
        for p, x in got.items():
            points[p] += whole(x)
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

    # Per player: each round's opponents' points (units of 1/(D·W)), and Sonneborn-Berger (units of 1/(D²·W))
    rounds: dict[str, list[int]] = {p: [] for p in names}
    sonneborn: dict[str, int] = dict.fromkeys(names, 0)
    encounters: dict[tuple[str, str], int] = defaultdict(int)  # (p, q) -> p's points vs q, in units of 1/D
    vs_points = {(mine, theirs): whole(_pair_points(rules, mine, theirs))
                 for mine in (1, 2) for theirs in (1, 2)}  # the two-player ranks; others are worked out as met
    for res, got in zip(results, per_result):
        if res.team_won is not None:
            continue
        if not res.played:
            for p in res.players:
                dummy = points[p] if rules.unplayed == "own" else 0
                rounds[p].append(dummy * share)
                sonneborn[p] += whole(got[p]) * dummy * share
            continue
        k = len(res.players)
        weight = share // (k - 1)
        for p, r in zip(res.players, res.ranks):
            opponents = 0
            for q, r2 in zip(res.players, res.ranks):
                if q == p:
                    continue
                vs = vs_points.get((r, r2))
                if vs is None:
                    vs = vs_points[r, r2] = whole(_pair_points(rules, r, r2))
                opponents += points[q]
                sonneborn[p] += vs * points[q] * weight
                encounters[(p, q)] += vs
            rounds[p].append(opponents * weight)

    return _ranked(names, pos, points, counts, rules, unit, share, lambda p: rounds[p], sonneborn, encounters,
                   encounters)


def _ranked(names: list[str], pos: Mapping[str, int], points: Mapping[str, int], counts: Mapping[str, _Tally],
            rules: Rules, unit: int, share: int, rounds: Callable[[str], Iterable[int]],
            sonneborn: Mapping[str, int], encounters: Mapping[tuple[str, str], int],
            met: Container[tuple[str, str]]) -> list[Standing]:
    """The table from the counts ``standings`` and ``Table`` keep: points in
    units of 1/D (``unit``), each player's rounds' opponent points in units
    of 1/(D·W) (``share``: W), Sonneborn-Berger in 1/(D²·W), the points each
    scored against each other (1/D) and which pairs ``met`` in a played game."""
    scale = {"buchholz": unit * share, "buchholz_cut1": unit * share, "sonneborn_berger": unit * unit * share,
             "direct_encounter": unit, "wins": 1}

    def static(p: str, name: str) -> int:
        if name == "buchholz":
            return sum(rounds(p))
        if name == "buchholz_cut1":
            values = list(rounds(p))
            return sum(values) - min(values) if values else 0
        if name == "sonneborn_berger":
            return sonneborn[p]
        if name == "wins":
            return counts[p].wins
        raise AssertionError(name)

    values: dict[str, list[int]] = {p: [0] * len(rules.tiebreaks) for p in names}
    for k, name in enumerate(rules.tiebreaks):
        if name != "direct_encounter":
            for p in names:
                values[p][k] = static(p, name)

    # Refine groups of tied players criterion by criterion.
    groups: list[list[str]] = _split(sorted(names, key=lambda p: (-points[p], pos[p])), points.__getitem__)
    for k, name in enumerate(rules.tiebreaks):
        refined = []
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if name == "direct_encounter":
                complete = all((a, b) in met for a, b in combinations(g, 2))
                for p in g:
                    values[p][k] = sum(encounters[(p, q)] for q in g if q != p) if complete else 0
            g = sorted(g, key=lambda p: (-values[p][k], pos[p]))
            refined += _split(g, lambda p: values[p][k])
        groups = refined

    exact: dict[tuple[int, int], Fraction] = {}  # the table's values hold few distinct numbers

    def fraction(n: int, d: int) -> Fraction:
        x = exact.get((n, d))
        if x is None:
            x = exact[n, d] = Fraction(n, d)
        return x

    scales = [scale[name] for name in rules.tiebreaks]
    table = []
    rank = 1
    for g in groups:
        for p in g:
            c = counts[p]
            tiebreaks = tuple(fraction(v, d) for v, d in zip(values[p], scales))
            table.append(Standing(rank, p, fraction(points[p], unit), tiebreaks, c.games, c.wins, c.draws, c.losses,
                                  c.byes, c.forfeits))
        rank += len(g)
    return table


def player_points(results: Iterable[LeagueResult], rules: Rules = Rules(),
                  players: Sequence[str] = ()) -> dict[str, Fraction]:
    """Each player's points, as ``standings`` gives them, without the
    tiebreaks and ranks (what a pairing needs); ``players`` adds entrants
    without results yet."""
    per_result = [_points(rules, res) for res in results]
    unit = _unit(rules, per_result)
    total: dict[str, int] = dict.fromkeys(players, 0)
    for got in per_result:
        for p, x in got.items():
            total[p] = total.get(p, 0) + x.numerator * (unit // x.denominator)
    exact: dict[int, Fraction] = {}
    out = {}
    for p, n in total.items():
        x = exact.get(n)
        if x is None:
            x = exact[n] = Fraction(n, unit)
        out[p] = x
    return out


class Table:
    """The standings kept up to date result by result: ``add`` and ``remove``
    a result (by a key of the caller's: a league's round and board) in time
    that does not grow with the league, and ``standings`` reads the table
    the ``standings`` function gives for the same results, exactly.

    It keeps what ``standings`` counts, in the same integer units: each
    player's points, tallies, each round's opponent points (Buchholz), and
    Sonneborn-Berger; and, per player, who counts their points (their
    opponents, and their own unplayed rounds when those count as a game
    against their own points). A result moves its players' points, and each
    move updates the rounds that count them, so adding a result costs
    O(table size² + rounds) and a read O(players · log players + players ·
    rounds), not O(results). Units are fixed when it is made (``of``): a
    result that needs finer ones (``fits`` says) is not added; the caller
    makes a new table of all its results."""

    def __init__(self, rules: Rules, unit: int | None = None, share: int = 1) -> None:
        self.rules = rules
        self.unit = unit if unit is not None else _unit(rules, [])
        self.share = share
        self.own = rules.unplayed == "own"
        self.results: dict[Hashable, tuple[LeagueResult, dict[str, int]]] = {}
        self.points: dict[str, int] = defaultdict(int)
        self.counts: dict[str, _Tally] = defaultdict(_Tally)
        self.rounds: dict[str, dict[Hashable, int]] = defaultdict(dict)  # p -> key -> opponents' points, 1/(D·W)
        self.sonneborn: dict[str, int] = defaultdict(int)  # 1/(D²·W)
        #: q -> (p, key) -> (weight, p's points vs q): p met q in the result ``key``
        self.counted_by: dict[str, dict[tuple[str, Hashable], tuple[int, int]]] = defaultdict(dict)
        self.unplayed: dict[str, dict[Hashable, int]] = defaultdict(dict)  # p -> key -> p's points there, 1/D
        self.encounters: dict[tuple[str, str], int] = defaultdict(int)
        self.met: dict[tuple[str, str], int] = {}  # played games of p against q
        self.seats: dict[str, int] = {}  # p -> the results p is in: the players of the table

    @classmethod
    def of(cls, results: Iterable[tuple[Hashable, LeagueResult]], rules: Rules) -> Table:
        """A table of these (key, result) pairs, in units fine enough for them."""
        results = list(results)
        per_result = [_points(rules, res) for _, res in results]
        share = 1
        for _, res in results:
            if res.played and res.team_won is None and share % (len(res.players) - 1):
                share = lcm(share, len(res.players) - 1)
        table = cls(rules, _unit(rules, per_result), share)
        for (key, res), got in zip(results, per_result):
            table._add(key, res, got)
        return table

    def fits(self, result: LeagueResult) -> bool:
        """Whether ``result`` can be counted in this table's units."""
        if any(self.unit % x.denominator for x in _points(self.rules, result).values()):
            return False
        return not (result.played and result.team_won is None and self.share % (len(result.players) - 1))

    def add(self, key: Hashable, result: LeagueResult) -> None:
        """Count ``result`` (it ``fits``; ``key`` is not counted yet)."""
        assert key not in self.results and self.fits(result)
        self._add(key, result, _points(self.rules, result))

    def _whole(self, x: Fraction) -> int:
        return x.numerator * (self.unit // x.denominator)

    def _vs(self, mine: int, theirs: int) -> int:
        return self._whole(_pair_points(self.rules, mine, theirs))

    def _add(self, key: Hashable, res: LeagueResult, got: dict[str, Fraction]) -> None:
        gained = {p: self._whole(x) for p, x in got.items()}
        self.results[key] = (res, gained)
        for p in res.players:
            self.seats[p] = self.seats.get(p, 0) + 1
        self._count(res, 1)
        points, share = self.points, self.share
        if res.team_won is None and not res.played:
            for p in res.players:
                dummy = points[p] if self.own else 0
                self.rounds[p][key] = dummy * share
                self.sonneborn[p] += gained[p] * dummy * share
                self.unplayed[p][key] = gained[p]
        elif res.team_won is None:
            weight = share // (len(res.players) - 1)
            for p, r in zip(res.players, res.ranks):
                opponents = 0
                for q, r2 in zip(res.players, res.ranks):
                    if q == p:
                        continue
                    vs = self._vs(r, r2)
                    opponents += points[q] * weight
                    self.sonneborn[p] += vs * points[q] * weight
                    self.counted_by[q][(p, key)] = (weight, vs)
                    self.encounters[(p, q)] += vs
                    self.met[(p, q)] = self.met.get((p, q), 0) + 1
                self.rounds[p][key] = opponents
        for p, x in gained.items():
            self._move(p, x)

    def remove(self, key: Hashable) -> None:
        """Count the result ``key`` no more."""
        res, gained = self.results.pop(key)
        for p, x in gained.items():
            self._move(p, -x)
        self._count(res, -1)
        points = self.points
        if res.team_won is None and not res.played:
            for p in res.players:
                dummy = points[p] if self.own else 0
                del self.rounds[p][key]
                self.sonneborn[p] -= gained[p] * dummy * self.share
                del self.unplayed[p][key]
        elif res.team_won is None:
            for p, r in zip(res.players, res.ranks):
                for q, r2 in zip(res.players, res.ranks):
                    if q == p:
                        continue
                    weight, vs = self.counted_by[q].pop((p, key))
                    self.sonneborn[p] -= vs * points[q] * weight
                    self.encounters[(p, q)] -= vs
                    self.met[(p, q)] -= 1
                    if not self.met[(p, q)]:
                        del self.met[(p, q)]
                del self.rounds[p][key]
        for p in res.players:
            self.seats[p] -= 1
            if not self.seats[p]:  # in no result now: nothing of theirs is left but zeros
                del self.seats[p]
                for kept in (self.points, self.counts, self.rounds, self.sonneborn, self.counted_by, self.unplayed):
                    kept.pop(p, None)

    def _move(self, p: str, delta: int) -> None:
        """p's points move by ``delta``, and so does every count of them."""
        if not delta:
            return
        self.points[p] += delta
        rounds, sonneborn = self.rounds, self.sonneborn
        for (other, key), (weight, vs) in self.counted_by[p].items():
            moved = delta * weight
            rounds[other][key] += moved
            sonneborn[other] += vs * moved
        if self.own:
            moved = delta * self.share
            for key, gained in self.unplayed[p].items():
                rounds[p][key] += moved
                sonneborn[p] += gained * moved

    def _count(self, res: LeagueResult, sign: int) -> None:
        for p in res.players:
            c = self.counts[p]
            if res.bye:
                c.byes += sign
                continue
            c.games += sign
            if res.forfeit is not None:
                c.forfeits += sign
            if _won(res, p):
                c.wins += sign
            elif res.played and res.team_won is None and _drew(res, p):
                c.draws += sign
            else:
                c.losses += sign

    def standings(self, players: Sequence[str]) -> list[Standing] | None:
        """The table with ``players`` (their order breaks full ties, and those
        without results are in it); None if a result's player is not among
        them (``standings`` orders those by their results)."""
        pos: dict[str, int] = {}
        for p in players:
            pos.setdefault(p, len(pos))
        if any(p not in pos for p in self.seats):
            return None
        names = list(pos)
        points = {p: self.points.get(p, 0) for p in names}
        counts = {p: self.counts.get(p) or _Tally() for p in names}
        rounds = self.rounds
        return _ranked(names, pos, points, counts, self.rules, self.unit, self.share,
                       lambda p: rounds[p].values() if p in rounds else (), self.sonneborn, self.encounters, self.met)

    def player_points(self, players: Sequence[str]) -> dict[str, Fraction]:
        """``player_points`` of the results counted."""
        exact: dict[int, Fraction] = {}
        out = {}
        for p in [*players, *(q for q in self.seats if q not in players)]:
            n = self.points.get(p, 0)
            x = exact.get(n)
            if x is None:
                x = exact[n] = Fraction(n, self.unit)
            out[p] = x
        return out


def _unit(rules: Rules, per_result: list[dict[str, Fraction]]) -> int:
    """D: the least common multiple of the denominators of the two-player
    points and of every result's points, so each is a whole number of 1/D."""
    unit = 1
    for x in (rules.win, rules.draw, rules.loss):
        unit = lcm(unit, x.denominator)
    for got in per_result:
        for x in got.values():
            if unit % x.denominator:
                unit = lcm(unit, x.denominator)
    return unit


class _Tally:
    __slots__ = ("games", "wins", "draws", "losses", "byes", "forfeits")

    def __init__(self) -> None:
        self.games = self.wins = self.draws = self.losses = self.byes = self.forfeits = 0


def _won(res: LeagueResult, p: str) -> bool:
    if res.team_won is not None:
        return res.team_won
    if res.forfeit is not None:
        return p not in res.forfeited
    r = res.ranks[res.players.index(p)]
    return r == 1 and res.ranks.count(1) == 1


def _drew(res: LeagueResult, p: str) -> bool:
    """Shared first place (a two-player draw)."""
    r = res.ranks[res.players.index(p)]
    return r == 1 and res.ranks.count(1) > 1


def _split(ordered: list[str], key) -> list[list[str]]:
    groups: list[list[str]] = []
    for p in ordered:
        if groups and key(groups[-1][0]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups
