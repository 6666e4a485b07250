"""A league as an event stream: a pure reducer, like the games.

Events (``type`` → ``data``):

- ``setup``: ``name``, ``game``, ``format`` (``round_robin``,
  ``double_round_robin``, ``swiss`` or ``tables``), ``rounds`` (Swiss and
  tables), ``rules`` (points and tiebreaks, see ``standings.Rules``).
- ``register`` / ``withdraw``: ``player``. Registration closes when round 1
  is paired; a withdrawn player is left out of later pairings.
- ``pair``: the next round's pairing. The reducer computes the pairing itself
  from the league's state and refuses any other, so every round in the log
  can be checked by replaying it. ``chosen``: the rules the organiser chose
  to relax where no pairing keeps them all (``relaxed``).
- ``link``: ``round``, ``board``, ``match`` — the match played on a board.
- ``result``: ``round``, ``board``, ``match``, ``players``, ``ranks``,
  ``scores``, ``head`` and ``seq`` (the match log's final hash and length,
  so an auditor can check the result against the log).
- ``forfeit``: ``round``, ``board``, ``forfeited`` (players), ``reason`` —
  a referee's decision when a board is not played.
- ``correction``: the same fields as ``result`` or ``forfeit`` plus
  ``reason``: replaces a board's recorded outcome.
- ``import_round``: ``round``, ``boards`` (``players`` white first, and
  ``ranks`` or ``forfeited``), ``bye``, ``source``: a Swiss round played
  before the league came here, from a TRF file (``leagues.trf``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Sequence

from engine.core import MalformedEvent, RuleViolation

from . import pairing_v1, pairing_v2, pairing_v3
from .pairing import Pairings, berger_round, swiss_pairings, table_groups
from .roster import Roster, roster

#: The pairing system a new league records in its setup: 4 is the FIDE Dutch
#: system (C.04.3, 2025) as ``leagues.pairing`` now pairs it (the last bracket
#: paired exactly, its moved-down players first), with the Berger tables'
#: double round robin seam swap; 3 is the second Dutch-system release, kept in
#: ``pairing_v3``; 2 the first, kept in ``pairing_v2``; 1 (a setup that names
#: none) is the system of the first releases, kept in ``pairing_v1``. Each
#: league replays and verifies with the system it recorded.
PAIRING_SYSTEM = 4
PAIRING_SYSTEMS = (1, 2, 3, 4)
from .standings import LeagueResult, Rules, Standing, Table, player_points, standings

FORMATS = ("round_robin", "double_round_robin", "swiss", "tables")

RULES = {
    "league.setup": "A league starts with its setup: a name, a game, a format and its rules.",
    "league.register": "Players register before round 1 is paired, each name once.",
    "league.withdraw": "Only a registered player who has not withdrawn can withdraw.",
    "league.pair": "A round is paired only when the previous round is complete, and only as the league's "
    "system pairs it (Berger tables, the Dutch system, or tables grouped by score).",
    "league.rounds": "A league plays the rounds its format gives, no more.",
    "league.link": "A board gets one match, whose players are the board's players in seat order, and none once "
    "its result is in (a forfeit).",
    "league.result": "A result comes from the match linked to its board, once, for the board's players.",
    "league.forfeit": "A referee may record a forfeit, with a reason, for a board without a result.",
    "league.correction": "A correction, with a reason, replaces the outcome of a board that has one.",
    "league.import": "A Swiss league may begin with rounds played elsewhere (a TRF file): in order, before any "
    "round paired here, each player once a round.",
    "league.trf": "A league is written as TRF only where TRF can say it: two-player games, points in tenths, a "
    "forfeit win worth a win, names that stay distinct in TRF's 33 columns.",
}


@dataclass(frozen=True)
class Board:
    players: tuple[str, ...]
    match: str | None = None
    outcome: LeagueResult | None = None


class Boards(Sequence[Board]):
    """A round's boards: a tuple kept in chunks, so a new round with one board
    changed (a link, a result) copies one chunk and the list of chunks, not
    every board (2,048 a round at 4,096 players, twice a board). Equal to a
    Boards or tuple of the same boards."""

    __slots__ = ("_chunks", "_n")
    CHUNK = 64

    def __init__(self, boards: Iterable[Board] = ()) -> None:
        items = tuple(boards)
        self._chunks = tuple(items[i:i + self.CHUNK] for i in range(0, len(items), self.CHUNK))
        self._n = len(items)

    def replaced(self, i: int, board: Board) -> Boards:
        """These boards with the one at ``i`` (0-based) replaced by ``board``."""
        if not 0 <= i < self._n:
            raise IndexError("board index out of range")
        k, j = divmod(i, self.CHUNK)
        chunk = self._chunks[k]
        out = Boards.__new__(Boards)
        out._chunks = (*self._chunks[:k], (*chunk[:j], board, *chunk[j + 1:]), *self._chunks[k + 1:])
        out._n = self._n
        return out

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return tuple(self)[i]
        if not -self._n <= i < self._n:
            raise IndexError("board index out of range")
        k, j = divmod(i % self._n, self.CHUNK)
        return self._chunks[k][j]

    def __iter__(self) -> Iterator[Board]:
        for chunk in self._chunks:
            yield from chunk

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Boards):
            return self._chunks == other._chunks
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Boards({tuple(self)!r})"


@dataclass(frozen=True)
class Round:
    number: int
    boards: Boards
    bye: str | None = None
    pairings: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.boards, Boards):
            object.__setattr__(self, "boards", Boards(self.boards))

    @property
    def complete(self) -> bool:
        return all(b.outcome is not None for b in self.boards)


class _Counted:
    """The standings of one line of states, kept result by result (a
    ``Table``, made when first read): ``version`` counts the changes to its
    results, and a state whose ``counted_at`` is that version reads it. A
    state that changes the results moves it on, if it was at its version; a
    state left behind (an older one, or a sibling of the one that moved it
    on) works its standings out from its results instead."""

    __slots__ = ("table", "version", "lock")

    def __init__(self) -> None:
        self.table: Table | None = None
        self.version = 0
        self.lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:  # a copy starts a line of its own, made when read
        return (_Counted, ())


@dataclass(frozen=True)
class LeagueState:
    name: str
    game: str
    format: str
    planned_rounds: int | None
    rules: Rules
    #: in registration order (their pairing numbers); a tuple given is kept as a Roster
    players: Roster = field(default_factory=Roster)
    withdrawn: frozenset[str] = frozenset()
    rounds: tuple[Round, ...] = ()
    pairing_system: int = 1
    #: (match, round, board) of each board's match, in the order they were linked: an index of ``rounds``
    #: (``board_of``), carried from state to state like the players (not compared: ``rounds`` says it all)
    links: Roster = field(default_factory=Roster, repr=False, compare=False)
    #: the standings kept result by result, and the version of them this state reads (not compared either)
    counted: _Counted = field(default_factory=_Counted, repr=False, compare=False)
    counted_at: int = field(default=0, repr=False, compare=False)
    #: what was computed from this state (its standings): the state never changes, so neither does it.
    #: Not a field of the state (not compared, not copied by ``replace``)
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.players, Roster):
            object.__setattr__(self, "players", roster(self.players))

    def board_of(self, match: str) -> tuple[int, int] | None:
        """(round, board) of the board whose match ``match`` is, or None."""
        found = self.links.find(_match_of, match)
        return None if found is None else (found[1], found[2])

    @property
    def active(self) -> list[str]:
        return [p for p in self.players if p not in self.withdrawn]

    @property
    def total_rounds(self) -> int:
        n = len(self.players)
        if self.format in ("round_robin", "double_round_robin"):
            per = n - 1 if n % 2 == 0 else n
            return per * (2 if self.format == "double_round_robin" else 1)
        return self.planned_rounds or 0

    @property
    def finished(self) -> bool:
        return bool(self.rounds) and len(self.rounds) == self.total_rounds and self.rounds[-1].complete

    def results(self) -> list[LeagueResult]:
        out = []
        for rnd in self.rounds:
            if rnd.bye is not None:
                out.append(LeagueResult(round=rnd.number, players=(rnd.bye,), bye=True))
            out += [b.outcome for b in rnd.boards if b.outcome is not None]
        return out

    def keyed_results(self) -> list[tuple[tuple[int, int], LeagueResult]]:
        """``results()``, each with its (round, board); a round's bye is its board 0."""
        out: list[tuple[tuple[int, int], LeagueResult]] = []
        for rnd in self.rounds:
            if rnd.bye is not None:
                out.append(((rnd.number, 0), LeagueResult(round=rnd.number, players=(rnd.bye,), bye=True)))
            out += [((rnd.number, i), b.outcome) for i, b in enumerate(rnd.boards, 1) if b.outcome is not None]
        return out

    def _counted_table(self, read: Callable[[Table], Any]) -> Any:
        """``read`` of the standings kept result by result, if this state is at
        their version (they are made from its results if not made yet); else None."""
        line = self.counted
        with line.lock:
            if line.version != self.counted_at:
                return None
            if line.table is None:
                line.table = Table.of(self.keyed_results(), self.rules)
            return read(line.table)

    def standings(self) -> list[Standing]:
        """The table (``leagues.standings``), from the standings kept result by
        result, or worked out from the results by a state they have moved on
        from; once per state, so a round's pairing and a read of the
        standings after the same results share it."""
        table = self._memo.get("standings")
        if table is None:
            table = self._counted_table(lambda t: t.standings(self.players))
            if table is None:
                table = standings(self.results(), self.rules, self.players)
            self._memo["standings"] = table
        return list(table)

    def points(self) -> dict[str, Fraction]:
        """Each player's points (the standings' without their tiebreaks), once per state."""
        table = self._memo.get("standings")
        if table is not None:
            return {s.player: s.points for s in table}
        points = self._memo.get("points")
        if points is None:
            points = self._counted_table(lambda t: t.player_points(self.players))
            if points is None:
                points = player_points(self.results(), self.rules, self.players)
            self._memo["points"] = points
        return dict(points)


def _recounted(state: LeagueState, key: tuple[int, int], old: LeagueResult | None,
               new: LeagueResult | None) -> dict[str, Any]:
    """The ``counted`` and ``counted_at`` of a state whose result ``key`` is
    ``new`` where ``state``'s is ``old``: the standings moved on by one result
    if ``state`` is at their version, else a line of its own (made when read)."""
    line = state.counted
    with line.lock:
        if line.version == state.counted_at and line.table is not None and (new is None or line.table.fits(new)):
            if old is not None:
                line.table.remove(key)
            if new is not None:
                line.table.add(key, new)
            line.version += 1
            return {"counted": line, "counted_at": line.version}
    return {"counted": _Counted(), "counted_at": 0}


def start(data: dict[str, Any]) -> LeagueState:
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise MalformedEvent(f"format must be one of {', '.join(FORMATS)}", field="format")
    rounds = data.get("rounds")
    if fmt in ("swiss", "tables") and (not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1):
        raise MalformedEvent("a Swiss or tables league says how many rounds it plays", field="rounds")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise MalformedEvent("a league needs a name", field="name")
    system = data.get("pairing_system", 1)
    if isinstance(system, bool) or system not in PAIRING_SYSTEMS:
        raise MalformedEvent(f"pairing_system must be one of {PAIRING_SYSTEMS}", field="pairing_system")
    return LeagueState(
        pairing_system=system,
        name=data["name"],
        game=data["game"],
        format=fmt,
        planned_rounds=rounds if fmt in ("swiss", "tables") else None,
        rules=Rules.from_dict(data.get("rules") or {}),
    )


def next_pairing(state: LeagueState) -> dict[str, Any]:
    """The pairing of the next round, as the league's system gives it:
    worked out once per state (a round is paired by the service and then
    checked by the reducer against the same state, which never changes;
    a replay pairs every round afresh from states of its own). Each call
    gets its own copy, so what one caller does to it reaches no other."""
    paired = state._memo.get("pairing")
    if paired is None:
        paired = state._memo["pairing"] = _next_pairing(state)
    return _copy(paired)


def _copy(value: Any) -> Any:
    """A copy of a pairing's JSON value, to any depth."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _next_pairing(state: LeagueState) -> dict[str, Any]:
    number = len(state.rounds) + 1
    if number > state.total_rounds:
        raise RuleViolation("league.rounds", f"the league has {state.total_rounds} rounds; all are paired")
    if state.rounds and not state.rounds[-1].complete:
        raise RuleViolation("league.pair", f"round {number - 1} still has boards without a result")
    if len(state.active) < 2:
        raise RuleViolation("league.pair", "a round needs at least two active players")
    if state.format in ("round_robin", "double_round_robin"):
        # as berger_round_robin (system 2 on) or pairing_v1's (system 1) give it: the seam swapped or not
        this_round = berger_round(list(state.players), number, double=state.format == "double_round_robin",
                                  seam_swap=state.pairing_system >= 2)
        boards, bye = [], None
        for a, b in this_round:
            if a is None or b is None:
                bye = a or b
            elif a in state.withdrawn or b in state.withdrawn:
                continue  # a withdrawn player's games are not played
            else:
                boards.append([a, b])
        return {"round": number, "boards": boards, "bye": bye if bye not in state.withdrawn else None}
    points = state.points()
    order = [(p, points.get(p, 0)) for p in state.active]
    if state.format == "swiss":
        history = [Pairings.from_dict(r.pairings) for r in state.rounds]
        if state.pairing_system == 1:
            return pairing_v1.swiss_pairings(order, history, number).to_dict()
        numbers = {p: k + 1 for k, p in enumerate(state.players)}  # registration order = pairing numbers
        dutch = {2: pairing_v2.swiss_pairings, 3: pairing_v3.swiss_pairings}.get(state.pairing_system, swiss_pairings)
        return dutch(order, history, number, rounds=state.total_rounds, pairing_numbers=numbers,
                     win_points=max(state.rules.win, state.rules.draw)).to_dict()
    history_tables = [[list(b.players) for b in r.boards] for r in state.rounds]
    return {"round": number, "boards": table_groups(order, history_tables), "bye": None}


def apply(state: LeagueState, type: str, data: dict[str, Any]) -> LeagueState:
    handler = _HANDLERS.get(type)
    if handler is None:
        raise MalformedEvent(f"unknown league event {type!r}; known: {', '.join(sorted(_HANDLERS))}", field="type")
    return handler(state, data)


def _register(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    player = data.get("player")
    if not isinstance(player, str) or not player.strip():
        raise MalformedEvent("player must be a non-empty name", field="player")
    if state.rounds:
        raise RuleViolation("league.register", "registration closed when round 1 was paired")
    if player in state.players:
        raise RuleViolation("league.register", f"{player} is registered already")
    return replace(state, players=state.players.plus(player))  # O(1): the old state keeps its own players


def _withdraw(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    player = data.get("player")
    if player not in state.players or player in state.withdrawn:
        raise RuleViolation("league.withdraw", f"{player!r} is not an active player of this league")
    return replace(state, withdrawn=state.withdrawn | {player})


def _pair(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    expected = next_pairing(state)
    chosen = data.get("chosen")  # the rules an organiser chose to relax (service.leagues): named in the log
    if {k: v for k, v in data.items() if k != "chosen"} != expected:
        raise RuleViolation("league.pair", f"round {expected['round']} is not paired as the league's system pairs it")
    if "chosen" in data and (not chosen or chosen != expected.get("relaxed")):
        raise RuleViolation("league.pair", "a choice to relax names the rules the pairing relaxes")
    boards = Boards(Board(players=tuple(b)) for b in expected["boards"])
    rnd = Round(number=expected["round"], boards=boards, bye=expected.get("bye"), pairings=expected)
    counted = {} if rnd.bye is None else _recounted(
        state, (rnd.number, 0), None, LeagueResult(round=rnd.number, players=(rnd.bye,), bye=True))
    return replace(state, rounds=(*state.rounds, rnd), **counted)


def _import_round(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    """A Swiss round played before the league came here (``leagues.trf``): its pairing and results as the
    other program's file gives them, in round order and before any round paired here. The floats the Dutch
    system reads next are worked out from the points before the round, as a pairing program reads them
    from a file."""
    if state.format != "swiss":
        raise RuleViolation("league.import", "only a Swiss league takes rounds played elsewhere")
    number = len(state.rounds) + 1
    if data.get("round") != number:
        raise RuleViolation("league.import", f"the next round is {number}; rounds are imported in order")
    if any(not r.pairings.get("imported") for r in state.rounds):
        raise RuleViolation("league.import", "rounds played elsewhere come before the rounds paired here")
    if number > state.total_rounds:
        raise RuleViolation("league.rounds", f"the league has {state.total_rounds} rounds")
    boards, bye = data.get("boards"), data.get("bye")
    if not isinstance(boards, list):
        raise MalformedEvent("boards must be a list", field="boards")
    seen: set[str] = set()
    for board in boards:
        players = board.get("players") if isinstance(board, dict) else None
        if not isinstance(players, list) or len(players) != 2:
            raise MalformedEvent("each board has two players", field="boards")
        for p in players:
            if p not in state.players:
                raise RuleViolation("league.import", f"{p!r} is not a player of this league")
            if p in seen:
                raise RuleViolation("league.import", f"{p} is paired twice in round {number}")
            seen.add(p)
        if "forfeited" in board:
            if not board["forfeited"] or not set(board["forfeited"]) <= set(players):
                raise RuleViolation("league.forfeit", "a forfeit names who forfeited, among the board's players")
        elif board.get("ranks") not in ([1, 2], [2, 1], [1, 1]):
            raise MalformedEvent("a two-player board's ranks are [1, 2], [2, 1] or [1, 1]", field="ranks")
    if bye is not None and (bye not in state.players or bye in seen):
        raise RuleViolation("league.import", f"the bye {bye!r} is not an unpaired player of this league")
    points = state.points()
    down = {max(b["players"], key=lambda p: points.get(p, 0)) for b in boards
            if points.get(b["players"][0], 0) != points.get(b["players"][1], 0)}
    up = {min(b["players"], key=lambda p: points.get(p, 0)) for b in boards
          if points.get(b["players"][0], 0) != points.get(b["players"][1], 0)}
    pairing = {"round": number, "boards": [list(b["players"]) for b in boards], "bye": bye,
               "downfloaters": sorted(down | ({bye} if bye is not None else set())), "upfloaters": sorted(up),
               "relaxed": [], "imported": True, "source": str(data.get("source", ""))}
    rnd = Round(number=number, boards=Boards(Board(players=tuple(b["players"])) for b in boards), bye=bye,
                pairings=pairing)
    counted = {} if bye is None else _recounted(
        state, (number, 0), None, LeagueResult(round=number, players=(bye,), bye=True))
    state = replace(state, rounds=(*state.rounds, rnd), **counted)
    for i, board in enumerate(boards, start=1):
        outcome = {"forfeit": "played elsewhere: a forfeit", "forfeited": board["forfeited"]} \
            if "forfeited" in board else None
        found = state.rounds[-1].boards[i - 1]
        if outcome is not None:
            result = _outcome(state, outcome, number, found)
        else:
            result = LeagueResult(round=number, players=found.players, ranks=tuple(board["ranks"]))
        state = _with_board(state, number, i, replace(found, outcome=result))
    return state


def _match_of(link: tuple[str, int, int]) -> str:
    return link[0]


def _board(state: LeagueState, data: dict[str, Any]) -> tuple[int, int, Board]:
    r, b = data.get("round"), data.get("board")
    if not isinstance(r, int) or not 1 <= r <= len(state.rounds):
        raise MalformedEvent(f"round must be a paired round (1–{len(state.rounds)})", field="round")
    boards = state.rounds[r - 1].boards
    if not isinstance(b, int) or not 1 <= b <= len(boards):
        raise MalformedEvent(f"board must be 1–{len(boards)} in round {r}", field="board")
    return r, b, boards[b - 1]


def _with_board(state: LeagueState, r: int, b: int, board: Board) -> LeagueState:
    rnd = state.rounds[r - 1]
    boards = rnd.boards.replaced(b - 1, board)
    rounds = (*state.rounds[: r - 1], replace(rnd, boards=boards), *state.rounds[r:])
    before = rnd.boards[b - 1].outcome
    counted = {} if board.outcome is before else _recounted(state, (r, b), before, board.outcome)
    return replace(state, rounds=rounds, **counted)


def _link(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    r, b, board = _board(state, data)
    if board.match is not None:
        raise RuleViolation("league.link", f"round {r} board {b} has match {board.match} already")
    if list(board.players) != list(data.get("players", board.players)):
        raise RuleViolation("league.link", "the match's players are not the board's players in seat order")
    match = str(data["match"])
    state = replace(state, links=state.links.plus((match, r, b)))
    return _with_board(state, r, b, replace(board, match=match))


def _outcome(state: LeagueState, data: dict[str, Any], r: int, board: Board) -> LeagueResult:
    if data.get("forfeit") is not None or "forfeited" in data:
        forfeited = tuple(data.get("forfeited") or ())
        reason = data.get("forfeit") or data.get("reason")
        if not reason:
            raise MalformedEvent("a forfeit gives its reason", field="reason")
        if not forfeited or not set(forfeited) <= set(board.players):
            raise RuleViolation("league.forfeit", "a forfeit names who forfeited, among the board's players")
        ranks = tuple(2 if p in forfeited else 1 for p in board.players)
        return LeagueResult(round=r, players=board.players, ranks=ranks, match=board.match or "",
                            forfeit=reason, forfeited=forfeited)
    if board.match is None or data.get("match") != board.match:
        raise RuleViolation("league.result", "a result comes from the match linked to its board")
    if tuple(data.get("players", ())) != board.players:
        raise RuleViolation("league.result", "the result's players are not the board's players in seat order")
    return LeagueResult.from_dict({**data, "round": r, "players": list(board.players)})


def _result(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    r, b, board = _board(state, data)
    if board.outcome is not None:
        raise RuleViolation("league.result", f"round {r} board {b} has its result; send a correction to change it")
    return _with_board(state, r, b, replace(board, outcome=_outcome(state, data, r, board)))


def _forfeit(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    r, b, board = _board(state, data)
    if board.outcome is not None:
        raise RuleViolation("league.forfeit", f"round {r} board {b} has its result already")
    return _with_board(state, r, b, replace(board, outcome=_outcome(state, {**data, "forfeit": data.get("reason")}, r, board)))


def _correction(state: LeagueState, data: dict[str, Any]) -> LeagueState:
    r, b, board = _board(state, data)
    if board.outcome is None:
        raise RuleViolation("league.correction", f"round {r} board {b} has no result to correct")
    if not data.get("reason"):
        raise MalformedEvent("a correction gives its reason", field="reason")
    return _with_board(state, r, b, replace(board, outcome=_outcome(state, data, r, board)))


_HANDLERS = {
    "register": _register,
    "withdraw": _withdraw,
    "pair": _pair,
    "link": _link,
    "result": _result,
    "forfeit": _forfeit,
    "correction": _correction,
    "import_round": _import_round,
}


def replay(events: list[dict[str, Any]]) -> LeagueState:
    """The league from its log; every event is checked again."""
    if not events or events[0]["type"] != "setup":
        raise MalformedEvent("a league log starts with its setup", field="type")
    state = start(events[0]["data"])
    for event in events[1:]:
        state = apply(state, event["type"], event["data"])
    return state


def view(state: LeagueState) -> dict[str, Any]:
    return {
        "name": state.name,
        "game": state.game,
        "format": state.format,
        "players": list(state.players),
        "withdrawn": sorted(state.withdrawn),
        "total_rounds": state.total_rounds,
        "finished": state.finished,
        "rounds": [
            {
                "round": r.number,
                "bye": r.bye,
                "complete": r.complete,
                "boards": [
                    {
                        "board": i + 1,
                        "players": list(b.players),
                        "match": b.match,
                        "outcome": b.outcome.to_dict() if b.outcome else None,
                    }
                    for i, b in enumerate(r.boards)
                ],
            }
            for r in state.rounds
        ],
    }
