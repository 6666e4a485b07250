"""Leagues over the event store: a league's stream has the same hash chain
as a match's, and its state is the pure reducer in ``leagues.league``.

The log is the source of truth; each process holds each league it reads as
the reducer's state at a head (seq and hash), and brings it up to date by
reading the log from that head on (one round trip when nothing is new) and
applying only the events after it; a log that no longer holds the head is
replayed from the start. A write is computed against the held league and
appended compare-and-set on that head's seq and hash, as for matches, so it
never lands on a head the process did not see; when another writer got in
first, the events since are read and the write is tried again. So neither a
read nor a write reads the whole log, and a league of 4,096 players registers
in O(1) amortised time per player (``make bench``, l5).
"""

from __future__ import annotations

import csv
import io
import re
import secrets
import threading
import time
from collections import OrderedDict
import unicodedata
from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping

from marshmallow import Schema, ValidationError, fields, validate

from engine.core import KroniekError, MalformedEvent, RuleViolation
from engine.match import REFUSED_IN_NAMES, check_player_name, check_player_names, name_key
from leagues import league as L
from leagues.archive import ranks_from_result
from leagues.standings import TIEBREAKS
from replays import EventStore, audit_match, seal
from replays.hashing import GENESIS, utc_now

from .errors import Busy, CorruptLog, LimitExceeded, NotFound
from .gate import check_value
from .limits import MAX_LEAGUE_NAME, MAX_LEAGUE_PLAYERS, MAX_POINTS, MAX_RANK_POINTS
from .matches import MatchService

#: an exact point value as text: up to six digits, then a fraction (a
#: denominator that is not 0) or decimals; or 1000000 (for MAX_POINTS 10^6). Whatever matches is
#: within ±MAX_POINTS, so the OpenAPI pattern says exactly what is taken.
_DIGITS = len(str(MAX_POINTS)) - 1
assert MAX_POINTS == 10**_DIGITS, "the pattern below needs MAX_POINTS to be a power of ten"
_EXACT = re.compile(rf"-?(?:[0-9]{{1,{_DIGITS}}}(?:/0*[1-9][0-9]{{0,{_DIGITS - 1}}}|\.[0-9]{{1,{_DIGITS}}})?|{MAX_POINTS})")


class Points(fields.Field):
    """League points: an integer, or an exact string ("1/2", "0.5"), within
    ±MAX_POINTS; kept as given, so the stream holds what was sent."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_POINTS:
                raise ValidationError(f"points are at most {MAX_POINTS:,} in size")
            return value
        if isinstance(value, str) and _EXACT.fullmatch(value):
            try:
                exact = Fraction(value)
            except ZeroDivisionError:
                raise ValidationError("points divide by a number other than 0") from None
            if abs(exact) > MAX_POINTS:
                raise ValidationError(f"points are at most {MAX_POINTS:,} in size")
            return value
        raise ValidationError('points are an integer or an exact string such as "1/2" or "0.5" (no floats)')


_POINTS_DOC = {"oneOf": [{"type": "integer", "minimum": -MAX_POINTS, "maximum": MAX_POINTS},
                         {"type": "string", "pattern": "^" + _EXACT.pattern + "$"}]}


class RulesSchema(Schema):
    """A league's ``rules``: its points and tiebreaks (``leagues.standings.Rules``);
    nothing else, so what the stream holds is what the standings read."""

    win = Points(metadata=_POINTS_DOC)
    draw = Points(metadata=_POINTS_DOC)
    loss = Points(metadata=_POINTS_DOC)
    bye = Points(metadata=_POINTS_DOC)
    forfeit_win = Points(metadata=_POINTS_DOC)
    forfeit_loss = Points(metadata=_POINTS_DOC)
    rank_points = fields.List(Points(metadata=_POINTS_DOC), allow_none=True,
                              validate=validate.Length(max=MAX_RANK_POINTS),
                              metadata={"description": "multi-player games: points for 1st, 2nd, …"})
    tiebreaks = fields.List(fields.String(validate=validate.OneOf(TIEBREAKS)),
                            validate=validate.Length(max=len(TIEBREAKS)))
    unplayed = fields.String(validate=validate.OneOf(["own", "zero"]))


def _first_error(messages: Any, path: str) -> tuple[str, str]:
    """(field path, message) of the first marshmallow error in ``messages``."""
    while isinstance(messages, dict):
        key, messages = next(iter(messages.items()))
        path = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"
    if isinstance(messages, list):
        messages = " ".join(str(m) for m in messages)
    return path, str(messages)


def check_league_setup(name: Any, players: Any, rules: Any) -> None:
    """A new league's name, players and rules, within the API's limits;
    checked before anything is written."""
    if not isinstance(name, str) or not name.strip():
        raise MalformedEvent("a league needs a name", field="name")
    if len(name) > MAX_LEAGUE_NAME:
        raise LimitExceeded(f"a league's name has at most {MAX_LEAGUE_NAME} characters, not {len(name):,}",
                            "name", MAX_LEAGUE_NAME)
    if any(unicodedata.category(ch) in REFUSED_IN_NAMES for ch in name):
        raise MalformedEvent("a league's name may not hold control characters or line breaks", field="name")
    check_player_names(players)
    if len(players) > MAX_LEAGUE_PLAYERS:
        raise LimitExceeded(f"a league has at most {MAX_LEAGUE_PLAYERS} players, not {len(players):,}",
                            "players", MAX_LEAGUE_PLAYERS)
    if not isinstance(rules, dict):
        raise MalformedEvent("rules is an object", field="rules")
    errors = RulesSchema().validate(rules)
    if errors:
        field, message = _first_error(errors, "rules")
        raise MalformedEvent(f"{field}: {message}", field=field)


class Written(Mapping[str, Any]):
    """The answer to a league write: ``seq``, ``hash`` and ``league`` (the
    league's view after it). The view is rendered when first read (by the
    HTTP layer), not by the write itself: it is the whole league, and a
    caller that registers 4,096 players one by one (``create``) reads none."""

    __slots__ = ("_seq", "_hash", "_state", "_dict")

    def __init__(self, seq: int, hash: str, state: L.LeagueState) -> None:
        self._seq, self._hash, self._state = seq, hash, state
        self._dict: dict[str, Any] | None = None

    def render(self) -> dict[str, Any]:
        if self._dict is None:
            self._dict = {"seq": self._seq, "hash": self._hash, "league": L.view(self._state)}
        return self._dict

    def __getitem__(self, key: str) -> Any:
        if key == "seq":
            return self._seq
        if key == "hash":
            return self._hash
        return self.render()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(("seq", "hash", "league"))

    def __len__(self) -> int:
        return 3


class _Held:
    """A league as this process last read it: ``state`` is the league after
    the stored event ``seq``, whose hash is ``head``. ``lock``: one writer or
    refresher of it at a time in this process."""

    __slots__ = ("state", "seq", "head", "lock")

    def __init__(self, state: L.LeagueState, seq: int, head: str) -> None:
        self.state, self.seq, self.head = state, seq, head
        self.lock = threading.Lock()


class LeagueService:
    def __init__(self, store: EventStore, matches: MatchService,
                 on_results_changed: Callable[[str], None] | None = None,
                 on_head: Callable[[str, int, str], None] | None = None) -> None:
        assert store.kind == "l"
        self.store = store
        self.matches = matches
        self.on_results_changed = on_results_changed  # called with the game after a result, forfeit or correction
        self.on_head = on_head  # called with (league id, seq, hash) after every write: the transparency log's leaf
        #: league id -> the league as this process last read it (least recently used first)
        self._held: OrderedDict[str, _Held] = OrderedDict()
        self._held_lock = threading.Lock()

    #: leagues whose state a process keeps
    HELD = 512
    #: tries of a write that another writer got in before
    WRITE_ATTEMPTS = 20

    # -- the log and the league this process holds -----------------------------------
    def _log(self, league_id: str) -> list[dict[str, Any]]:
        events = self.store.events(league_id)
        if not events:
            raise NotFound(f"no league {league_id!r}")
        return events

    def _entry(self, league_id: str) -> _Held:
        """The league as this process holds it (read and replayed from the
        whole log if it holds none); not brought up to date."""
        with self._held_lock:
            held = self._held.get(league_id)
            if held is not None:
                self._held.move_to_end(league_id)
                return held
        events = self._log(league_id)
        held = _Held(L.replay(events), len(events), events[-1]["hash"])
        with self._held_lock:
            held = self._held.setdefault(league_id, held)
            self._held.move_to_end(league_id)
            while len(self._held) > self.HELD:
                self._held.popitem(last=False)
        return held

    def _refresh(self, league_id: str, held: _Held) -> bool:
        """Bring ``held`` (its lock held) to the stored head: read the log
        from the held head on, one round trip while nothing is new, and apply
        only the events after it. If the log no longer holds that head (it
        went back, as after a Redis restore, or was rewritten from there on),
        the league is replayed from its whole log. True if anything changed."""
        events = self.store.events(league_id, held.seq)
        if not events or events[0]["seq"] != held.seq or events[0]["hash"] != held.head:
            events = self._log(league_id)
            held.state, held.seq, held.head = L.replay(events), len(events), events[-1]["hash"]
            return True
        if len(events) == 1:
            return False
        state = held.state
        for event in events[1:]:
            state = L.apply(state, event["type"], event["data"])
        held.state, held.seq, held.head = state, held.seq + len(events) - 1, events[-1]["hash"]
        return True

    def _current(self, league_id: str) -> _Held:
        held = self._entry(league_id)
        with held.lock:
            self._refresh(league_id, held)
        return held

    def replayed(self, league_id: str, events: list[dict[str, Any]]) -> L.LeagueState:
        """The league after ``events`` (its stored log, read by the caller):
        the state this process holds, brought to the stored head, if that is
        their last event; else ``L.replay(events)``."""
        held = self._entry(league_id)
        with held.lock:
            if not (len(events) == held.seq and events[-1]["hash"] == held.head):
                self._refresh(league_id, held)  # behind them, most likely: brought to the stored head
            if len(events) == held.seq and events[-1]["hash"] == held.head:
                return held.state
        return L.replay(events)  # the log moved on (or back) since the caller read it

    def state(self, league_id: str) -> L.LeagueState:
        return self._current(league_id).state

    def board_of(self, league_id: str, match_id: str) -> dict[str, Any] | None:
        """Where the league plays the match: its name, round and board
        (None: no board of the league links it, or no such league)."""
        try:
            state = self.state(league_id)
        except NotFound:
            return None
        where = state.board_of(match_id)
        if where is None:
            return None
        return {"id": league_id, "name": state.name, "round": where[0], "board": where[1]}

    def _append(self, league_id: str, type: str, data: dict[str, Any] | Callable[[L.LeagueState], dict[str, Any]],
                recorded_by: str, check: Callable[[L.LeagueState], None] | None = None,
                items: int | None = None) -> Written:
        """Write one event, computed against the league this process holds
        and appended only onto the head that league is at (the store's
        compare-and-set on seq and hash): so it never needs the whole log,
        and never writes onto a head it did not see. If another writer got
        in first, the events since are read and the write is tried again.
        An event refused against the held league counts only once the league
        is known to be at the stored head.

        ``data``: the event's data, or a function of the league that makes it
        (a round's pairing). ``check(state)``: a service-level check against
        the league as it is before the event (limits the reducer does not
        know). ``items``: the most items an array of the data may hold (the
        API's limit if None)."""
        if not callable(data):
            check_value(data, "data")
        held = self._entry(league_id)
        with held.lock:
            fresh = False
            for _ in range(self.WRITE_ATTEMPTS):
                before = held.state
                try:
                    if check is not None:
                        check(before)
                    event_data = data(before) if callable(data) else data
                    if callable(data):
                        check_value(event_data, "data", items=items)
                    state = L.apply(before, type, event_data)
                except KroniekError:
                    if not fresh and self._refresh(league_id, held):
                        fresh = True
                        continue
                    raise
                event = seal(held.seq + 1, type, None, event_data, utc_now(), recorded_by, held.head)
                outcome = self.store.append(league_id, [event])
                if outcome.status == "ok":
                    held.state, held.seq, held.head = state, event["seq"], event["hash"]
                    break
                if outcome.status == "missing":
                    raise NotFound(f"no league {league_id!r}")
                if outcome.status == "deleted":
                    raise CorruptLog(f"league {league_id}: events after seq {held.seq} were deleted from its "
                                     "stream (the audit names them); nothing can be appended", seq=held.seq + 1)
                self._refresh(league_id, held)  # another writer got in first: read what it wrote
                fresh = True
            else:
                raise Busy("too many concurrent writers on this league; try again")
        if self.on_head is not None:
            self.on_head(league_id, event["seq"], event["hash"])
        if self.on_results_changed is not None and type in ("result", "forfeit", "correction"):
            self.on_results_changed(state.game)
        return Written(event["seq"], event["hash"], state)

    # -- writing -------------------------------------------------------------------
    def create(self, name: str, game: str, format: str, rounds: int | None, rules: dict[str, Any],
               players: list[str], recorded_by: str = "anonymous",
               acl: dict[str, str] | None = None) -> dict[str, Any]:
        """``acl``: the roles on the new league (its organisers), written with it."""
        from engine import registry

        registry.get(game)  # 404 for an unknown game
        check_league_setup(name, players, rules)
        data = {"name": name, "game": game, "format": format, "rounds": rounds, "rules": rules,
                "pairing_system": L.PAIRING_SYSTEM}
        check_value(data)
        L.start(data)  # refuse a bad setup before writing anything
        league_id = secrets.token_hex(8)
        setup = seal(1, "setup", None, data, utc_now(), recorded_by, GENESIS)
        if not self.store.create(league_id, [setup], {"name": name, "game": game, "format": format}, time.time(), acl):
            raise Busy("league id collision; try again")
        if self.on_head is not None:
            self.on_head(league_id, setup["seq"], setup["hash"])
        for player in players:
            self.register(league_id, player, recorded_by)
        return self.get(league_id)

    def import_trf(self, text: str, game: str, name: str | None = None, recorded_by: str = "anonymous",
                   acl: dict[str, str] | None = None, tiebreaks: list[str] | None = None) -> dict[str, Any]:
        """A Swiss league from a TRF file (``leagues.trf``): its players in pairing-number order, the rounds
        played elsewhere as ``import_round`` events; all of it replayed here first and then written at once
        with the setup, so a file refused is refused whole. Paired here from the next round on."""
        from engine import registry
        from leagues import trf

        played_by = registry.get(game)  # 404 for an unknown game
        if 2 not in played_by.player_counts:
            raise RuleViolation("league.setup", f"a TRF tournament is played by two; {played_by.name} is not")
        tournament = trf.read(text)
        name = name or tournament.name
        players = [tournament.players[n] for n in sorted(tournament.players)]
        rules = tournament.rules()
        if tiebreaks is not None:
            rules["tiebreaks"] = list(tiebreaks)
        check_league_setup(name, players, rules)
        data = {"name": name, "game": game, "format": "swiss",
                "rounds": tournament.planned_rounds or max(1, len(tournament.rounds)), "rules": rules,
                "pairing_system": L.PAIRING_SYSTEM}
        check_value(data)
        steps = [("register", {"player": p}) for p in players]
        steps += [("import_round", r) for r in trf.import_rounds(tournament)]
        state = L.start(data)
        for type_, step in steps:  # refused here, before anything is written
            check_value(step, "data", items=MAX_LEAGUE_PLAYERS)
            state = L.apply(state, type_, step)
        events, head, at = [], GENESIS, utc_now()
        for seq, (type_, step) in enumerate([("setup", data), *steps], start=1):
            events.append(seal(seq, type_, None, step, at, recorded_by, head))
            head = events[-1]["hash"]
        league_id = secrets.token_hex(8)
        if not self.store.create(league_id, events, {"name": name, "game": game, "format": "swiss"}, time.time(),
                                 acl):
            raise Busy("league id collision; try again")
        if self.on_head is not None:
            self.on_head(league_id, events[-1]["seq"], events[-1]["hash"])
        if self.on_results_changed is not None and tournament.rounds:
            self.on_results_changed(game)
        return self.get(league_id)

    def trf(self, league_id: str) -> str:
        """The league as TRF after its last complete round (``leagues.trf.write``)."""
        from leagues import trf

        state = self.state(league_id)
        return trf.write(state, state.standings())

    def register(self, league_id: str, player: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        check_player_name(player, "player")

        def room_and_distinct(state: L.LeagueState) -> None:
            # the league's players meet at boards, where make_setup wants distinct names
            taken = state.players.find(name_key, name_key(player))
            if taken is not None and not state.rounds:
                raise RuleViolation("league.register", f"{player!r} is registered already (as {taken!r})")
            if len(state.players) >= MAX_LEAGUE_PLAYERS and not state.rounds:
                raise LimitExceeded(f"a league has at most {MAX_LEAGUE_PLAYERS} players", "player", MAX_LEAGUE_PLAYERS)

        return self._append(league_id, "register", {"player": player}, recorded_by, check=room_and_distinct)

    def withdraw(self, league_id: str, player: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        return self._append(league_id, "withdraw", {"player": player}, recorded_by)

    def pair_next_round(self, league_id: str, recorded_by: str = "anonymous", relax: tuple[str, ...] = ()) -> Written:
        """Pair the next round (against the league the write is appended onto). Where no pairing keeps the
        absolute criteria, none is made, as bbpPairings makes none: the refusal says so and which rule
        could be relaxed; ``relax`` names the rules the organiser chooses to relax, and the round's event
        names the choice (``chosen``)."""
        from leagues.pairing import PairingImpossible

        def pairing(state: L.LeagueState) -> dict[str, Any]:
            data = L.next_pairing(state)
            relaxed = list(data.get("relaxed") or ())
            if relaxed and not set(relaxed) <= set(relax):
                raise PairingImpossible(
                    f"No valid pairing exists for round {data['round']}: the players cannot all be paired while "
                    "keeping the absolute criteria (C.3: two players with the same absolute colour preference "
                    "never meet), as bbpPairings finds too. A pairing that relaxes that colour rule exists: "
                    "pair again with relax=colour to choose it, and the league's log will name the choice.",
                    round=data["round"], relax=relaxed)
            return {**data, "chosen": relaxed} if relaxed else data

        return self._append(league_id, "pair", pairing, recorded_by, items=MAX_LEAGUE_PLAYERS)

    def start_match(self, league_id: str, round: int, board: int, recorded_by: str = "anonymous",
                    acl: dict[str, str] | None = None) -> dict[str, Any]:
        """Create the match of a board and link it: its players are the board's,
        in seat order. ``acl``: the match's roles (the league's organisers and
        referees are its referees through the league)."""
        state = self.state(league_id)
        _, _, b = L._board(state, {"round": round, "board": board})
        if b.match is not None:
            raise RuleViolation("league.link", f"round {round} board {board} has match {b.match} already")
        if b.outcome is not None:  # checked here, not in the reducer: leagues logged before still replay
            raise RuleViolation("league.link", f"round {round} board {board} has its result already "
                                               f"({'a forfeit' if b.outcome.forfeit else 'entered'}): "
                                               "a match started now could never count")
        match = self.matches.create_match(state.game, list(b.players), recorded_by=recorded_by, acl=acl)
        self._append(league_id, "link", {"round": round, "board": board, "match": match["id"],
                                         "players": list(b.players)}, recorded_by)
        return match

    def record_result(self, league_id: str, match_id: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        """Enter a finished match's result: only once the worker has validated
        its whole log, and with the log's final hash, so an auditor can check
        the result against the moves."""
        state = self.state(league_id)
        where = state.board_of(match_id)
        if where is None:
            raise RuleViolation("league.result", f"match {match_id} is not linked to a board of this league")
        round_no, board_no = where
        match = self.matches.match(match_id)
        if match["status"] != "finished":
            raise RuleViolation("league.result", f"match {match_id} has not finished")
        if match["validation"] != "valid":
            raise RuleViolation(
                "league.result",
                f"match {match_id} is {match['validation']}: a result enters the standings only from a validated log",
            )
        result = match["result"]
        players = match["players"]
        ranks = ranks_from_result(result, len(players))
        head = self.matches.store.head_seq(match_id)
        data = {"round": round_no, "board": board_no, "match": match_id, "players": players, "ranks": ranks,
                "scores": result["scores"], "reason": result["reason"], "seq": head[0], "head": head[1]}
        return self._append(league_id, "result", data, recorded_by)

    def forfeit(self, league_id: str, round: int, board: int, forfeited: list[str], reason: str,
                recorded_by: str = "anonymous") -> dict[str, Any]:
        return self._append(league_id, "forfeit", {"round": round, "board": board, "forfeited": forfeited,
                                                   "reason": reason}, recorded_by)

    # -- reading -------------------------------------------------------------------
    def get(self, league_id: str) -> dict[str, Any]:
        held = self._current(league_id)
        return {"id": league_id, "seq": held.seq, **L.view(held.state)}

    def standings(self, league_id: str) -> list[dict[str, Any]]:
        state = self.state(league_id)
        return [s.to_dict(state.rules.tiebreaks) for s in state.standings()]

    def standings_csv(self, league_id: str) -> str:
        rows = self.standings(league_id)
        out = io.StringIO()
        if rows:
            fields = [k for k in rows[0] if k != "tiebreaks"]
            tiebreaks = list(rows[0].get("tiebreaks", {}))
            writer = csv.writer(out)
            writer.writerow(fields + [f"tiebreak_{t}" for t in tiebreaks])
            for row in rows:
                writer.writerow([row[k] for k in fields] + [row["tiebreaks"][t] for t in tiebreaks])
        return out.getvalue()

    def events(self, league_id: str) -> list[dict[str, Any]]:
        return self._log(league_id)

    def audit(self, league_id: str) -> dict[str, Any]:
        self._log(league_id)
        return audit_match(self.store, league_id).to_dict()
