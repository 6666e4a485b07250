"""Leagues over the event store: a league's stream has the same hash chain
as a match's, and its state is the pure reducer in ``leagues.league``.

Leagues see a few events a round, so each write replays the league's log
(no cache): simple, and never stale. Appends are compare-and-set on the seq,
as for matches, and retried when another writer got in first.
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
from typing import Any, Callable

from marshmallow import Schema, ValidationError, fields, validate

from engine.core import MalformedEvent, RuleViolation
from engine.match import REFUSED_IN_NAMES, check_player_name, check_player_names, name_key
from leagues import league as L
from leagues.archive import ranks_from_result
from leagues.standings import TIEBREAKS
from replays import EventStore, audit_match, seal
from replays.hashing import GENESIS, utc_now

from .errors import Busy, LimitExceeded, NotFound
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


class LeagueService:
    def __init__(self, store: EventStore, matches: MatchService,
                 on_results_changed: Callable[[str], None] | None = None,
                 on_head: Callable[[str, int, str], None] | None = None) -> None:
        assert store.kind == "l"
        self.store = store
        self.matches = matches
        self.on_results_changed = on_results_changed  # called with the game after a result, forfeit or correction
        self.on_head = on_head  # called with (league id, seq, hash) after every write: the transparency log's leaf
        #: league id -> (the hashes of the events replayed, the league after them): a request replays only the
        #: events since (a Swiss league's every request re-ran the pairing of every round paired so far)
        self._replayed: OrderedDict[str, tuple[tuple[str, ...], L.LeagueState]] = OrderedDict()
        self._replayed_lock = threading.Lock()

    # -- the log -----------------------------------------------------------------
    def _log(self, league_id: str) -> list[dict[str, Any]]:
        events = self.store.events(league_id)
        if not events:
            raise NotFound(f"no league {league_id!r}")
        return events

    #: leagues whose replayed state a process keeps
    REPLAYED_KEPT = 512

    def replayed(self, league_id: str, events: list[dict[str, Any]]) -> L.LeagueState:
        """``L.replay(events)``, from the league this process replayed before
        if the stored events still begin with the ones it replayed (every
        hash the same), else from the start."""
        hashes = tuple(e["hash"] for e in events)
        with self._replayed_lock:
            known = self._replayed.get(league_id)
        if known is not None and known[0] == hashes[:len(known[0])]:
            state = known[1]
            for event in events[len(known[0]):]:
                state = L.apply(state, event["type"], event["data"])
        else:
            state = L.replay(events)
        with self._replayed_lock:
            self._replayed[league_id] = (hashes, state)
            self._replayed.move_to_end(league_id)
            while len(self._replayed) > self.REPLAYED_KEPT:
                self._replayed.popitem(last=False)
        return state

    def state(self, league_id: str) -> L.LeagueState:
        return self.replayed(league_id, self._log(league_id))

    def board_of(self, league_id: str, match_id: str) -> dict[str, Any] | None:
        """Where the league plays the match: its name, round and board
        (None: no board of the league links it, or no such league)."""
        try:
            state = self.state(league_id)
        except NotFound:
            return None
        for r in state.rounds:
            for i, b in enumerate(r.boards):
                if b.match == match_id:
                    return {"id": league_id, "name": state.name, "round": r.number, "board": i + 1}
        return None

    def _append(self, league_id: str, type: str, data: dict[str, Any], recorded_by: str,
                check: Callable[[L.LeagueState], None] | None = None) -> dict[str, Any]:
        """``check(state)``: a service-level check against the league as it is
        before the event (limits the reducer does not know)."""
        check_value(data, "data")
        for _ in range(20):
            events = self._log(league_id)
            before = self.replayed(league_id, events)
            if check is not None:
                check(before)
            state = L.apply(before, type, data)
            event = seal(len(events) + 1, type, None, data, utc_now(), recorded_by, events[-1]["hash"])
            if self.store.append(league_id, [event]).status == "ok":
                if self.on_head is not None:
                    self.on_head(league_id, event["seq"], event["hash"])
                if self.on_results_changed is not None and type in ("result", "forfeit", "correction"):
                    self.on_results_changed(state.game)
                return {"seq": event["seq"], "hash": event["hash"], "league": L.view(state)}
        raise Busy("too many concurrent writers on this league; try again")

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

    def register(self, league_id: str, player: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        check_player_name(player, "player")

        def room_and_distinct(state: L.LeagueState) -> None:
            # the league's players meet at boards, where make_setup wants distinct names
            taken = {name_key(p): p for p in state.players}
            if name_key(player) in taken and not state.rounds:
                raise RuleViolation("league.register", f"{player!r} is registered already (as {taken[name_key(player)]!r})")
            if len(state.players) >= MAX_LEAGUE_PLAYERS and not state.rounds:
                raise LimitExceeded(f"a league has at most {MAX_LEAGUE_PLAYERS} players", "player", MAX_LEAGUE_PLAYERS)

        return self._append(league_id, "register", {"player": player}, recorded_by, check=room_and_distinct)

    def withdraw(self, league_id: str, player: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        return self._append(league_id, "withdraw", {"player": player}, recorded_by)

    def pair_next_round(self, league_id: str, recorded_by: str = "anonymous") -> dict[str, Any]:
        return self._append(league_id, "pair", L.next_pairing(self.state(league_id)), recorded_by)

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
        where = [(r.number, i + 1) for r in state.rounds for i, b in enumerate(r.boards) if b.match == match_id]
        if not where:
            raise RuleViolation("league.result", f"match {match_id} is not linked to a board of this league")
        (round_no, board_no), = where
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
        events = self._log(league_id)
        state = self.replayed(league_id, events)
        return {"id": league_id, "seq": len(events), **L.view(state)}

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
