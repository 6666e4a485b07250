"""The service layer: matches as a thin layer over the event store.

An append is validated in Python against the latest state this process holds,
then written by one atomic script that succeeds only if the stream's head is
still the one that state was computed from (seq and hash). If another process
got there first, we read what it wrote, validate again and retry, so no move
is ever validated against a stale state, and a move costs one round trip.
States are cached per match and snapshotted into Redis every
``snapshot_every`` events (a bounded set per match: ``replays.store``), so
neither an append nor ``state?at=N`` replays a long log whole; a process also
keeps the match at every ``CHECKPOINT_EVERY``-th step it has computed
(``checkpoints`` of them in all), so that ``state?at=N`` replays a few events
from the nearest one. A read of part of the log (the events after a seq, the
review of a range) reads only that range of the stream: the undone moves it
must hide are known from the state's undo marks (``MatchState.marks``), not
from the whole log.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import json
import logging
import os
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import orjson

from engine import match as M
from engine import notation as N
from engine.core import REFEREE, KroniekError, MalformedEvent
from engine.text import Words, from_json, say
from replays import EventStore, audit_match, canonical, seal
from replays.store import StoreError
from replays.hashing import GENESIS, utc_now

from .game_data import GameDataStore
from .errors import BadRequest, Busy, CorruptLog, IdempotencyMismatch, NotFound, SeqConflict, StoreWentBack
from .gate import check_value
from .limits import CREATE_ATTEMPTS, MAX_COMMENT, MAX_SAFE_INTEGER

log = logging.getLogger("kroniek.matches")
GLYPHS = ("!!", "!", "!?", "?!", "?", "??")
MAX_ATTEMPTS = 100
#: What ``MatchService._refresh`` found: the cache was the store's head, was
#: behind it (now advanced), or was ahead of or beside it (the store went back
#: in time; now re-read from the store).
SAME, BEHIND, WENT_BACK = 0, 1, 2
#: The bytes of a simulated match's server secret (``engine.match.make_setup``): 256 bits.
SECRET_BYTES = 32
#: A process keeps the match at every this many steps it computes (``MatchService.checkpoints``), so that
#: ``state?at=N`` replays fewer events than this from the nearest one below N.
CHECKPOINT_EVERY = 16
#: The checkpoints a process keeps, all matches together (those of the matches least recently used go first):
#: about 15 KiB each for a Catan or Troje match (the states of one replay share what they have in common).
CHECKPOINTS = 10_000
#: A checkpoint this close below the step asked for is used without asking Redis for a nearer snapshot.
CHECKPOINT_NEAR = 256


def snapshot_blob(ms: M.MatchState) -> dict[str, Any]:
    """What the service keeps in a snapshot: the match and its undo marks (so a process that loads it knows
    which events are undone without the log)."""
    return M.encode(ms, marks=True)


class _Checkpoints:
    """One match's checkpoints in a process: seq -> (hash of that seq's event, the match there)."""

    __slots__ = ("seqs", "states")

    def __init__(self) -> None:
        self.seqs: list[int] = []
        self.states: dict[int, tuple[str, M.MatchState]] = {}


def new_secret() -> str:
    """A fresh server secret for a simulated match: 32 bytes from the OS's
    CSPRNG, as 64 lowercase hex digits."""
    return secrets.token_hex(SECRET_BYTES)


class Appended(Mapping[str, Any]):
    """The answer to an append. Its public view of the new state is rendered
    when first read (by the HTTP layer), not on the service's hot path, and
    ``json()`` encodes it once, straight to the bytes the HTTP answer sends.

    ``replay``: the answer rebuilt for a retry with the same Idempotency-Key
    (from the stored events and the state after them): the same fields in the
    same order with the same values, so the same bytes, and then
    ``"idempotent_replay": true``."""

    def __init__(self, match_id: str, events: list[dict[str, Any]], after: M.MatchState,
                 replay: bool = False) -> None:
        self._match_id, self._events, self._after, self._replay = match_id, events, after, replay
        self._dict: dict[str, Any] | None = None

    @property
    def game_id(self) -> str:
        return self._after.game.id

    @property
    def count(self) -> int:
        """The events this answer appended (none: a retry answered again)."""
        return 0 if self._replay else len(self._events)

    def json(self, default: Callable[[Any], Any] | None = None) -> bytes:
        """``default``: how a value JSON has no form for is encoded (the API says an engine's message in the
        answer's language)."""
        return orjson.dumps(self._render(), default=default)

    def _render(self) -> dict[str, Any]:
        if self._dict is None:
            first, last = self._events[0], self._events[-1]
            self._dict = {
                "match": self._match_id,
                "seq": first["seq"],
                "hash": first["hash"],
                "latest_seq": last["seq"],
                "appended": [{k: e[k] for k in ("seq", "type", "seat", "hash")} for e in self._events],
                "status": self._after.status,
                "state": self._after.view(None),
            }
            if self._replay:
                self._dict["idempotent_replay"] = True
        return self._dict

    def __getitem__(self, key: str) -> Any:
        return self._render()[key]

    def __iter__(self):
        return iter(self._render())

    def __len__(self) -> int:
        return len(self._render())


#: hex digits of the last appended event's hash an idempotency record keeps: enough to tell the log it
#: recorded from one rewritten since (a store restored from an older file), at a quarter of the bytes
RECORD_HASH_DIGITS = 16


def record_fingerprint(fingerprint: str) -> str:
    """The request's SHA-256 fingerprint as a record keeps it: its first 128
    bits, base64url (22 characters, not 64): a retry with other content under
    the same key still cannot pass for the first."""
    return base64.urlsafe_b64encode(bytes.fromhex(fingerprint)[:16]).rstrip(b"=").decode()


def idempotency_record(fingerprint: str, events: list[dict[str, Any]]) -> str:
    """What an Idempotency-Key keeps (``store.IDEMPOTENCY_TTL``): the request's
    fingerprint (``record_fingerprint``), the first and last seq it appended
    and the start of the last one's hash, about 55 bytes; the answer is
    rebuilt from the log when a retry comes. (Records written before kept
    the whole fingerprint and hash, about 150 bytes; they still read.)"""
    return canonical([record_fingerprint(fingerprint), events[0]["seq"], events[-1]["seq"],
                      events[-1]["hash"][:RECORD_HASH_DIGITS]])


class _Rewritten(Exception):
    """The store's events after a cached head do not follow on from it."""


@dataclass
class _Cached:
    ms: M.MatchState
    head_hash: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the review's per-event lines of the seqs from ``described_from`` on, as (hash, summary, Dutch summary
    #: or None, seqs undone), and the match after the last of them: a review asked for at every move then
    #: replays only the new events (an event's hash chains all before it, so its line stays right as long as
    #: the stored event keeps its hash)
    described: list[tuple[str, str, str | None, tuple[int, ...]]] = field(default_factory=list)
    described_from: int = 1
    described_ms: M.MatchState | None = None


class MatchService:
    def __init__(
        self,
        store: EventStore,
        enqueue_validation: Callable[[str], None] | None = None,
        clock: Callable[[], str] = utc_now,
        snapshot_every: int = 256,
        cache_size: int = 2048,
        secret_source: Callable[[], str] = new_secret,
        checkpoints: int | None = None,
    ) -> None:
        """``enqueue_validation(match_id)`` must queue a job that calls
        ``store.take_owed("validation", match_id)`` before it reads the log
        (``workers.jobs.validate_match`` does): a move is then read by the
        job its append queued, or by a job queued earlier that has not yet
        started, so a burst of moves costs one job, not one each, whatever
        delay the queue applies.

        ``secret_source()`` gives each new simulated match its server secret
        (``new_secret``; a test may fix it to know the draws in advance).

        ``checkpoints``: the states kept in this process for ``state?at=``
        (``KRONIEK_CHECKPOINTS``, default ``CHECKPOINTS``)."""
        self.store = store
        self.secret_source = secret_source
        self.enqueue_validation = enqueue_validation or (lambda match_id: None)
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_lock = threading.Lock()
        if checkpoints is None:
            checkpoints = int(os.environ.get("KRONIEK_CHECKPOINTS") or CHECKPOINTS)
        self.checkpoints = checkpoints
        self._checkpoints: OrderedDict[str, _Checkpoints] = OrderedDict()
        self._checkpoints_held = 0
        self._checkpoints_lock = threading.Lock()
        #: the latest scenes worked out, by (match, viewer): the match state each was made from, and the
        #: scene. Every watcher of a board (a multiboard, a match page) asks for the same scene after a move:
        #: worked out once per move and viewer, not once per watcher
        self._scenes: OrderedDict[tuple[str, Any], tuple[M.MatchState, dict[str, Any] | None]] = OrderedDict()
        self._scenes_lock = threading.Lock()

    #: the scenes kept (``_scenes``): a board and a view each
    SCENES_KEPT = 256

    # -- creating -----------------------------------------------------------
    def create_match(
        self,
        game: str,
        players: list[str],
        options: dict[str, Any] | None = None,
        mode: str = "physical",
        seed: int | None = None,
        recorded_by: str = "anonymous",
        acl: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """``acl``: who holds which role on the new match, written with it.

        A simulated match gets a fresh server secret besides its seed (the
        given one, or a random one): its draws mix both, so a small seed its
        creator chose tells no seat the next draw. The secret is in the setup
        event, committed with it, and every view but the referee's hides it
        until the match ends (``engine.match.event_view``)."""
        secret = None
        if mode == "simulated":
            if seed is None:
                seed = secrets.randbelow(MAX_SAFE_INTEGER + 1)  # a seed anyone may type in again
            secret = self.secret_source()
        count = len(players) if isinstance(players, list) else None
        options = GameDataStore(self.store.r, self.store.prefix).embed(game, options, count)  # named card sets, boards
        setup = M.make_setup(game, players, options, mode, seed, secret)
        check_value(setup)  # what reaches the stream is within the API's limits, whoever calls
        ms = M.start(setup)
        now = self.clock()
        events = [seal(1, M.SETUP, None, setup, now, recorded_by, GENESIS)]
        for type_, seat, data in M.chance_events(ms, 2):
            ms = M.apply_event(ms, events[-1]["seq"] + 1, type_, seat, data)
            events.append(seal(ms.seq, type_, seat, data, now, "server:rng", events[-1]["hash"]))
        match_id = self._create(setup, events, ms, now, acl)
        self._owe_validation(match_id)
        return self.match(match_id)

    def _create(self, setup: dict[str, Any], events: list[dict[str, Any]], ms: M.MatchState, now: str,
                acl: dict[str, str] | None) -> str:
        """Write a new match's sealed events in one atomic step under a fresh id."""
        head = {
            "game": setup["game"],
            "players": canonical(setup["players"]),
            "created_at": now,
            "status": ms.status,
            "result": canonical(ms.result_kept),
        }
        for _ in range(CREATE_ATTEMPTS):
            match_id = secrets.token_hex(8)
            if self.store.create(match_id, events, head, time.time(), acl):
                break
        else:  # 64 random bits collided every time: the store is not what it seems
            raise StoreError(f"no free match id in {CREATE_ATTEMPTS} tries; nothing was created")
        self._remember(match_id, _Cached(ms, events[-1]["hash"]))
        return match_id

    # -- notation -----------------------------------------------------------
    def import_notation(self, text: str, recorded_by: str = "anonymous",
                        acl: dict[str, str] | None = None) -> dict[str, Any]:
        """A new match from a notation (``engine.notation``). The whole text is
        read and every event checked in memory first; only a text that reads
        to its end is written, its events in one atomic create, so a bad line
        writes nothing. Its glyphs and comments become human annotations."""
        imported = N.read(text, embed=GameDataStore(self.store.r, self.store.prefix).embed,
                          snapshot_every=self.snapshot_every)
        setup = imported.setup
        try:
            check_value(setup)
        except KroniekError as exc:
            raise N.NotationError(exc.message, 1, 1, "notation.limit", cause=exc.code) from None
        for event in imported.events:
            try:
                check_value(event.data, "data")
            except KroniekError as exc:
                raise N.NotationError(exc.message, event.line, event.column, "notation.limit",
                                      cause=exc.code) from None
        now = self.clock()
        events = [seal(1, M.SETUP, None, setup, now, recorded_by, GENESIS)]
        for seq, event in enumerate(imported.events, start=2):
            by = "server:rng" if event.by_server else recorded_by
            events.append(seal(seq, event.type, event.seat, event.data, now, by, events[-1]["hash"]))
        match_id = self._create(setup, events, imported.final, now, acl)
        # What follows the create is a cache (snapshots) and the annotations, which never touch the log.
        for seq, ms in imported.snapshots.items():
            self.store.save_snapshot(match_id, seq, events[seq - 1]["hash"], snapshot_blob(ms))
        notes = 0
        for seq, glyph, comment, _line, _col in imported.notes:
            self.store.add_note(match_id, {"seq": seq, "comment": comment, "glyph": glyph, "author": recorded_by,
                                           "created_at": now})
            notes += 1
        self._owe_validation(match_id)
        return {**self.match(match_id), "annotations": notes}

    def notation(self, match_id: str, viewer: Any = None) -> str:
        """The match in the notation, as ``viewer`` sees its log (a seat,
        None for the public, REFEREE), with its human annotations."""
        events = self.events(match_id, 1, None, viewer)
        ms = self.current(match_id)
        return N.write(events, self.store.notes(match_id), viewer, match_id, ms.result_english)

    def notation_at(self, match_id: str, events: list[dict[str, Any]], result: dict[str, Any] | None) -> str:
        """The referee's notation of the log up to its event ``events[-1]`` (the stored events from the first),
        whose result was ``result`` then (as kept, ``result_kept``): a backup's cut of a match, with the
        annotations made by then. Nothing is replayed: a backup of a million events writes every notation."""
        seq = events[-1]["seq"]
        notes = [n for n in self.store.notes(match_id) if n["seq"] <= seq]
        english = {k: v for k, v in result.items() if k != "reason_said"} if result else None
        return N.write(events, notes, REFEREE, match_id, english)

    def _owe_validation(self, match_id: str) -> None:
        """Queue a validation unless one is owed already: a job queued for
        this match that has not started yet will read this append. If
        queueing fails the append still stands and the mark stays: a worker
        queues the job of a mark left unclaimed (``workers.jobs.requeue_overdue``)."""
        if self.store.owe("validation", match_id, time.time()):
            self._queue_validation(match_id)

    def _queue_validation(self, match_id: str) -> None:
        try:
            self.enqueue_validation(match_id)
        except Exception:
            log.warning("could not queue the validation of match %s; a worker will", match_id, exc_info=True)

    # -- appending ----------------------------------------------------------
    def append(
        self,
        match_id: str,
        type: Any,
        seat: Any,
        data: Any,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        recorded_by: str = "anonymous",
        data_checked: bool = False,
    ) -> dict[str, Any]:
        """``data_checked``: the caller held ``data`` to the API's limits
        already (the HTTP layer: the input gate checked the whole body, which
        holds it one level deeper); anyone else's is checked here."""
        if not data_checked:
            check_value(data, "data")
        fingerprint = None
        if idempotency_key is not None:
            fingerprint = hashlib.sha256(
                canonical({"type": type, "seat": seat, "data": data, "expected_seq": expected_seq}).encode()
            ).hexdigest()
            prior = self._prior_answer(match_id, idempotency_key, fingerprint)
            if prior is not None:
                return prior
        entry = self._entry(match_id)
        with entry.lock:
            fresh = False
            for _ in range(MAX_ATTEMPTS):
                ms = entry.ms
                if expected_seq is not None and expected_seq != ms.seq:
                    if idempotency_key is not None:
                        # A copy of this very request may have moved the match on (an outbox resending while
                        # the first copy was being written): its record and the head are read in one step.
                        stored, head = self._record_or_head(match_id, idempotency_key)
                        if stored is not None:
                            return self._replayed(match_id, stored, fingerprint)
                        # No copy had been written when this head was read; a copy is written only at
                        # expected_seq, which this head is not: a true conflict.
                        if self._refresh(match_id, entry, head) == WENT_BACK:
                            raise StoreWentBack(expected_seq, entry.ms.seq, ms.seq)
                        if entry.ms.seq == expected_seq:  # the cache was behind
                            fresh = True
                            continue
                        raise SeqConflict(expected_seq, entry.ms.seq)
                    if expected_seq > ms.seq and not fresh:
                        if self._refresh(match_id, entry) == WENT_BACK:
                            raise StoreWentBack(expected_seq, entry.ms.seq, ms.seq)
                        fresh = True
                        continue
                    raise SeqConflict(expected_seq, ms.seq)
                type = M.canonical_type(ms.game, type)  # a Dutch alias is logged as its event type
                try:
                    norm = M.normalize_event(ms, type, seat, data)
                    after = M.apply_event(ms, ms.seq + 1, type, seat, norm)
                    drawn = M.chance_events(after, ms.seq + 2)
                except M.HistoryElided:
                    # An undo past what the snapshot kept: rebuild from the log.
                    entry.ms = self._replay_all(match_id, ms.seq)
                    continue
                except KroniekError:
                    # A copy of this request that got in first answers it, whatever the state is now (read
                    # with the head in one step: see above).
                    stored, head = self._record_or_head(match_id, idempotency_key)
                    if stored is not None:
                        return self._replayed(match_id, stored, fingerprint)
                    # An error against a cached state counts only once we know
                    # the cache was the latest state.
                    if not fresh:
                        found = self._refresh(match_id, entry, head)
                        if found == WENT_BACK:
                            raise StoreWentBack(expected_seq, entry.ms.seq, ms.seq) from None
                        if found:
                            fresh = True
                            continue
                    raise
                now = self.clock()
                try:
                    events = [seal(after.seq, type, seat, norm, now, recorded_by, entry.head_hash)]
                except ValueError:
                    raise MalformedEvent("the event holds text that is not valid Unicode", field="data") from None
                for type_, seat_, data_ in drawn:
                    after = M.apply_event(after, events[-1]["seq"] + 1, type_, seat_, data_)
                    events.append(seal(after.seq, type_, seat_, data_, now, "server:rng", events[-1]["hash"]))
                last = events[-1]
                response = Appended(match_id, events, after)
                idem_value = idempotency_record(fingerprint, events) if fingerprint else ""
                changed = after.status != ms.status
                outcome = self.store.append(
                    match_id,
                    events,
                    after.status if changed else "",
                    canonical(after.result_kept) if changed else "",
                    idem_key=idempotency_key,
                    idem_value=idem_value,
                    owe="validation",  # marked in the append's round trip: see _owe_validation
                )
                if outcome.owed:
                    self._queue_validation(match_id)
                if outcome.status == "ok":
                    entry.ms, entry.head_hash = after, last["hash"]
                    if last["seq"] // CHECKPOINT_EVERY != ms.seq // CHECKPOINT_EVERY:
                        self._keep(match_id, after, last["hash"])
                    if last["seq"] // self.snapshot_every != ms.seq // self.snapshot_every:
                        self.store.save_snapshot(match_id, last["seq"], last["hash"], snapshot_blob(after))
                    return response
                if outcome.status == "duplicate":
                    return self._replayed(match_id, outcome.stored, fingerprint)
                if outcome.status == "missing":
                    raise NotFound(f"no match {match_id!r}")
                if outcome.status == "deleted":
                    raise CorruptLog(f"match {match_id}: events after seq {ms.seq} were deleted from its stream "
                                     "(the audit names them); nothing can be appended", seq=ms.seq + 1)
                stored, head = self._record_or_head(match_id, idempotency_key)
                if stored is not None:
                    return self._replayed(match_id, stored, fingerprint)
                if self._refresh(match_id, entry, head) == WENT_BACK:
                    # The move was made against events the store lost: never write it elsewhere.
                    raise StoreWentBack(expected_seq, entry.ms.seq, ms.seq)
                fresh = True
            raise Busy("too many concurrent writers on this match; try again")

    def _prior_answer(self, match_id: str, key: str | None, fingerprint: str | None) -> Any:
        """The first answer to this Idempotency-Key, if a request with it got in
        (possibly this very request, retried, racing itself): it stands,
        whatever the state is now."""
        if key is None:
            return None
        stored = self.store.idempotent_response(match_id, key)
        return None if stored is None else self._replayed(match_id, stored, fingerprint)

    def _record_or_head(self, match_id: str, key: str | None) -> tuple[str | None, tuple[int, str] | None]:
        """The record of Idempotency-Key ``key``, or else the head, read in one
        atomic step (``EventStore.record_or_head``); without a key, no record
        and no head (``_refresh`` reads it)."""
        if key is None:
            return None, None
        stored, head = self.store.record_or_head(match_id, key)
        if stored is None and head is None:
            raise NotFound(f"no match {match_id!r}")
        return stored, head

    def _replayed(self, match_id: str, stored: str, fingerprint: str | None) -> Any:
        """The first answer again, rebuilt from the idempotency record: the
        events it appended, read from the log, and the state after them (the
        cached one if it is still that head, else loaded as ``state?at``
        loads it). Called with the match's cache entry's lock held or not,
        so it takes no lock."""
        value = json.loads(stored)
        if isinstance(value, dict):  # a record written before answers were rebuilt: the whole answer
            if value["fingerprint"] != fingerprint:
                raise IdempotencyMismatch()
            return {**value["response"], "idempotent_replay": True}
        recorded, first, latest, last_hash = value
        if recorded != (fingerprint if len(recorded) == 64 else record_fingerprint(fingerprint)):
            raise IdempotencyMismatch()
        events = self.store.events(match_id, first, latest)
        if (len(events) != latest - first + 1 or len(last_hash) < RECORD_HASH_DIGITS
                or events[-1]["hash"][:len(last_hash)] != last_hash):
            raise CorruptLog(f"match {match_id}: the log no longer holds the events seq {first}–{latest} an "
                             "Idempotency-Key recorded", seq=first)
        with self._cache_lock:
            entry = self._cache.get(match_id)
        if entry is not None and entry.ms.seq == latest and entry.head_hash == last_hash:
            after = entry.ms
        else:
            after = self._load(match_id, latest)
        return Appended(match_id, events, after, replay=True)

    # -- loading ------------------------------------------------------------
    def _remember(self, match_id: str, entry: _Cached) -> None:
        with self._cache_lock:
            self._cache[match_id] = entry
            self._cache.move_to_end(match_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def game_of_cached(self, match_id: str) -> str | None:
        """The game of a match this process holds (a metric's label after a refusal), without a read."""
        with self._cache_lock:
            entry = self._cache.get(match_id)
        return entry.ms.game.id if entry is not None else None

    def _entry(self, match_id: str) -> _Cached:
        with self._cache_lock:
            entry = self._cache.get(match_id)
            if entry is not None:
                self._cache.move_to_end(match_id)
                return entry
        head = self.store.head_seq(match_id)
        if head is None:
            raise NotFound(f"no match {match_id!r}")
        ms = self._load(match_id, head[0])
        entry = _Cached(ms, head[1])
        with self._cache_lock:
            existing = self._cache.get(match_id)
            if existing is not None:
                return existing
        self._remember(match_id, entry)
        return entry

    def _setup(self, match_id: str) -> dict[str, Any]:
        with self._cache_lock:
            entry = self._cache.get(match_id)
        if entry is not None:  # the setup never changes: the cached match has it
            return entry.ms.setup
        first = self.store.events(match_id, 1, 1)
        if not first or first[0]["type"] != M.SETUP:
            raise CorruptLog(f"match {match_id} has no setup event")
        return first[0]["data"]

    # -- checkpoints --------------------------------------------------------
    def _keep(self, match_id: str, ms: M.MatchState, head_hash: str) -> None:
        """Keep ``ms`` (the match after the event whose hash is ``head_hash``) as a checkpoint of this process."""
        if self.checkpoints <= 0:
            return
        with self._checkpoints_lock:
            table = self._checkpoints.get(match_id)
            if table is None:
                table = self._checkpoints[match_id] = _Checkpoints()
            else:
                self._checkpoints.move_to_end(match_id)
            if ms.seq not in table.states:
                bisect.insort(table.seqs, ms.seq)
                self._checkpoints_held += 1
            table.states[ms.seq] = (head_hash, ms)
            while self._checkpoints_held > self.checkpoints:
                oldest = next(iter(self._checkpoints))
                if oldest == match_id and len(self._checkpoints) == 1:
                    # one match holds them all: drop its lowest half, away from where it is being read
                    dropped, table.seqs = table.seqs[: len(table.seqs) // 2 + 1], table.seqs[len(table.seqs) // 2 + 1:]
                    for seq in dropped:
                        del table.states[seq]
                    self._checkpoints_held -= len(dropped)
                else:
                    self._checkpoints_held -= len(self._checkpoints.pop(oldest).seqs)

    def _checkpoint_at_or_before(self, match_id: str, at: int) -> tuple[int, str, M.MatchState] | None:
        with self._checkpoints_lock:
            table = self._checkpoints.get(match_id)
            if table is None:
                return None
            i = bisect.bisect_right(table.seqs, at)
            if not i:
                return None
            seq = table.seqs[i - 1]
            head_hash, ms = table.states[seq]
            return seq, head_hash, ms

    def _forget_checkpoint(self, match_id: str, seq: int) -> None:
        with self._checkpoints_lock:
            table = self._checkpoints.get(match_id)
            if table is not None and table.states.pop(seq, None) is not None:
                table.seqs.remove(seq)
                self._checkpoints_held -= 1

    def _load(self, match_id: str, at: int) -> M.MatchState:
        """The match at seq ``at``: the nearest checkpoint of this process or
        snapshot, then the events after it (read from the stream by their
        seqs, no others). Either counts only if the log still holds the head
        it was taken at (its hash): one taken before the store went back in
        time is not."""
        setup = self._setup(match_id)
        near = self._checkpoint_at_or_before(match_id, at)
        if near is None or at - near[0] > CHECKPOINT_NEAR:
            snap = self.store.snapshot_at_or_before(match_id, at)
            if snap is not None and (near is None or snap[0] > near[0]):
                seq, head_hash, blob = snap
                events = self.store.events(match_id, seq, at)
                if events and events[0]["hash"] == head_hash:
                    ms = M.decode(setup, blob)
                    if M.marks_unknown(ms):  # a snapshot from before the marks: they come from its log, once
                        ms = M.with_marks(ms, M.undone_seqs(self.store.events(match_id, 1, seq)))
                    return self._through(match_id, ms, events[1:], at)
                log.warning("match %s: the snapshot at seq %d is not of the stored log; replayed", match_id, seq)
        while near is not None:
            seq, head_hash, ms = near
            events = self.store.events(match_id, seq, at)
            if events and events[0]["hash"] == head_hash:
                return self._through(match_id, ms, events[1:], at)
            self._forget_checkpoint(match_id, seq)  # of a log the store no longer holds
            near = self._checkpoint_at_or_before(match_id, at)
        return self._advance(match_id, M.start(setup), at)

    def _steps(self, match_id: str, events: list[dict[str, Any]], ms: M.MatchState | None = None):
        """``replay_steps`` over stored events: a log that no longer replays
        (someone changed the stream) is a CorruptLog, not the caller's error."""
        seq = ms.seq if ms is not None else 0
        try:
            for step in M.replay_steps(events, ms):
                seq = step[2].seq
                yield step
        except KroniekError as exc:
            raise CorruptLog(
                f"match {match_id}: the stored log no longer replays at seq {seq + 1}: {exc.message}", seq=seq + 1
            ) from None

    def _replay_all(self, match_id: str, to: int) -> M.MatchState:
        """The match at ``to`` from its whole log, with its full undo history."""
        ms = None
        for event, _, ms in self._steps(match_id, self.store.events(match_id, 1, to)):
            if ms.seq % CHECKPOINT_EVERY == 0:
                self._keep(match_id, ms, event["hash"])
        if ms is None or ms.seq != to:
            raise CorruptLog(f"match {match_id}: the log does not reach seq {to}", seq=(ms.seq if ms else 0) + 1)
        return ms

    def _advance(self, match_id: str, ms: M.MatchState, to: int, follows: str | None = None,
                 read: list[dict[str, Any]] | None = None) -> M.MatchState:
        """``ms`` brought to seq ``to`` with the stored events after it.
        ``follows``: the hash of ``ms``'s head; if the first event read does
        not follow on from it, raises ``_Rewritten`` (the store no longer
        holds the head ``ms`` was computed from). ``read``: a list to hand
        the events read in (a live feed needs them too)."""
        if to <= ms.seq:
            return ms
        events = self.store.events(match_id, ms.seq + 1, to)
        if follows is not None and events and events[0].get("prev_hash") != follows:
            raise _Rewritten()
        ms = self._through(match_id, ms, events, to)
        if read is not None:
            read.extend(events)
        return ms

    def _through(self, match_id: str, ms: M.MatchState, events: list[dict[str, Any]], to: int) -> M.MatchState:
        """``ms`` with ``events`` (the stored ones after it, up to ``to``) applied; every
        ``CHECKPOINT_EVERY``-th step on the way is kept as a checkpoint."""
        try:
            for event, _, ms in self._steps(match_id, events, ms):
                if ms.seq % CHECKPOINT_EVERY == 0:
                    self._keep(match_id, ms, event["hash"])
        except M.HistoryElided:
            return self._replay_all(match_id, to)
        if ms.seq != to:
            raise CorruptLog(f"match {match_id}: the log ends at seq {ms.seq}, expected {to}", seq=ms.seq + 1)
        return ms

    def _refresh(self, match_id: str, entry: _Cached, head: tuple[int, str] | None = None,
                 read: list[dict[str, Any]] | None = None) -> int:
        """Bring the cached state to the stored head (``head``, the seq and
        hash just read, if the caller read it; else read now). ``SAME`` (0)
        if it was the head; ``BEHIND`` if the store had more events (read
        now, and handed to ``read`` if given); ``WENT_BACK`` if the store no
        longer holds the cached head (it is behind it, or holds other events
        up to or beyond its seq: Redis lost writes), and the state is read
        from the store again."""
        if head is None:
            head = self.store.head_seq(match_id)
        if head is None:
            raise NotFound(f"no match {match_id!r}")
        seq, head_hash = head
        if seq == entry.ms.seq and head_hash == entry.head_hash:
            return SAME
        found = BEHIND if seq > entry.ms.seq else WENT_BACK
        if found == BEHIND:
            try:
                entry.ms = self._advance(match_id, entry.ms, seq, follows=entry.head_hash, read=read)
            except _Rewritten:
                found = WENT_BACK
        if found == WENT_BACK:
            log.warning("match %s: the store went back from seq %d to %d; re-read", match_id, entry.ms.seq, seq)
            entry.ms = self._load(match_id, seq)
        entry.head_hash = head_hash
        return found

    def actor_of(self, match_id: str, type: Any) -> str | None:
        """Who enters events of ``type`` (or its Dutch alias) in this match's
        game: ``"seat"``, ``"table"`` or ``"chance"``; None for a type the game
        has not (its rules refuse it). The game never changes, so the cached
        match will do, as it is."""
        game = self._entry(match_id).ms.game
        event_type = game.event_types.get(M.canonical_type(game, type))
        return None if event_type is None else event_type.actor

    def current(self, match_id: str) -> M.MatchState:
        entry = self._entry(match_id)
        with entry.lock:
            self._refresh(match_id, entry)
            return entry.ms

    def current_head(self, match_id: str) -> tuple[M.MatchState, str, list[dict[str, Any]]]:
        """``current``, the hash of the head it is the match after, and the
        stored events this call read to get there (none if the cached match
        was the head: its events came through this process)."""
        entry = self._entry(match_id)
        read: list[dict[str, Any]] = []
        with entry.lock:
            if self._refresh(match_id, entry, read=read) != BEHIND:
                read = []
            return entry.ms, entry.head_hash, read

    def state_at(self, match_id: str, at: int | None = None) -> M.MatchState:
        ms = self.current(match_id)
        if at is None or at == ms.seq:
            return ms
        if not 1 <= at <= ms.seq:
            raise BadRequest(f"at must be between 1 and {ms.seq}", field="at", location="query")
        return self._load(match_id, at)

    # -- reading ------------------------------------------------------------
    def match(self, match_id: str, said: bool = False) -> dict[str, Any]:
        """The match as the API shows it. ``said``: its result's reason as the engine says it (a Text, for the
        API to say in the reader's language); else in English, as it is kept (a league's result)."""
        ms = self.current(match_id)
        head = self.store.head(match_id) or {}
        verdict = self.store.verdict(match_id)
        if verdict is None or verdict["seq"] < ms.seq:
            validation = "pending"
        else:
            validation = verdict["status"]
        return {
            "id": match_id,
            "game": ms.game.id,
            "players": list(ms.players),
            "options": ms.setup["options"],
            "mode": ms.setup["mode"],
            "engine_version": ms.setup["engine_version"],
            "created_at": head.get("created_at"),
            "seq": ms.seq,
            "status": ms.status,
            "result": ms.result_dict if said else ms.result_english,
            "validation": validation,
            "validation_details": said_verdict(self._public_verdict(match_id, ms, verdict)),
            "analysis": self._analysis(match_id, ms, verdict),
        }

    def _public_verdict(self, match_id: str, ms: M.MatchState, verdict: dict[str, Any] | None) -> dict[str, Any] | None:
        """The verdict as anyone may read it: while the match runs, the message
        of a rule broken by an event the public may not see (it could name a
        face-down card) is replaced by one that does not."""
        if not verdict or verdict.get("status") != "invalid" or ms.result is not None:
            return verdict
        bad = verdict.get("first_invalid_seq")
        if not isinstance(bad, int) or not 1 <= bad <= ms.seq or ("message" not in verdict and "rule" not in verdict):
            return verdict
        try:
            (event,) = self.store.events(match_id, bad, bad)
            hidden = bool(M.event_view(ms, event, None, M.undone_between(ms, bad, bad)).get("redacted"))
        except (KroniekError, KeyError, TypeError, ValueError, IndexError):
            hidden = True  # an event the game cannot even show (or the log no longer holds): say nothing of it
        if not hidden:
            return verdict
        public = {k: v for k, v in verdict.items() if k not in ("rule", "said")}
        public["message"] = say("seq {seq} breaks a rule of the game; the event's data is hidden from the public "
                                "until the match ends (the referee's log shows it)", seq=bad)
        return public

    def _analysis(self, match_id: str, ms: M.MatchState, verdict: dict[str, Any] | None) -> str:
        """The analysis job's state for the log as it is now: ``none`` (the
        game has no analysis, or the log is invalid), ``pending``, ``running
        k/n`` (k of n positions decided), ``done`` or ``failed``."""
        if not ms.game.has_analysis:
            return "none"
        if verdict is not None and verdict["seq"] >= ms.seq and verdict["status"] != "valid":
            return "none"
        record, progress = self.store.analysis(match_id)
        if record is not None and record["seq"] >= ms.seq:
            return record["status"]
        if progress and int(progress.get("seq", 0)) >= ms.seq:
            return f"running {progress.get('done', 0)}/{progress.get('total', 0)}"
        return "pending"

    def list_matches(self, offset: int = 0, limit: int = 50) -> dict[str, Any]:
        ids = self.store.match_ids(offset, limit)
        matches = []
        for match_id in ids:
            head = self.store.head(match_id)
            last = self.store.head_seq(match_id)
            if head is None or last is None:
                continue
            matches.append(
                {
                    "id": match_id,
                    "game": head.get("game"),
                    "players": json.loads(head.get("players", "[]")),
                    "seq": last[0],
                    "status": head.get("status"),
                    "result": kept_result(head.get("result")),
                    "created_at": head.get("created_at"),
                }
            )
        return {"matches": matches, "total": self.store.match_count(), "offset": offset, "limit": limit}

    def events(self, match_id: str, start: int = 1, end: int | None = None, viewer: Any = None) -> list[dict[str, Any]]:
        """The log as ``viewer`` may see it: a seat, None (the public) or REFEREE."""
        ms = self.current(match_id)
        check_viewer(ms, viewer)
        return self.viewed(match_id, ms, max(start, 1), min(end, ms.seq) if end else ms.seq, viewer)

    def viewed(self, match_id: str, ms: M.MatchState, first: int, last: int, viewer: Any,
               stored: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The events ``first`` to ``last`` as ``viewer`` sees them while the
        match is ``ms`` (its head, ``last`` or after): read by their seqs
        (or ``stored``, those events as the store holds them), and which of
        them are undone taken from the match's undo marks, not the whole log."""
        if first > last:
            return []
        if stored is None:
            stored = self.store.events(match_id, first, last)
        if viewer == REFEREE:
            return stored
        undone = M.undone_between(ms, first, last)
        return [M.event_view(ms, e, viewer, undone) for e in stored]

    def table_moves_hidden(self, match_id: str) -> bool:
        """Whether the table's moves now depend on what the public may not see."""
        ms = self.current(match_id)
        return ms.result is None and ms.game.table_moves_hidden(ms.state)

    def legal_moves(self, match_id: str, seat: Any) -> dict[str, Any]:
        """The moves ``seat`` may enter now: a seat's, the table's (None), or
        every move anyone may enter now (REFEREE: the table's, then each
        acting seat's, in seat order)."""
        ms = self.current(match_id)
        if isinstance(seat, int) and not 0 <= seat < len(ms.players):
            raise BadRequest(f"seat must be 0–{len(ms.players) - 1}, 'referee' or 'public'", field="seat",
                             location="query")
        to_act = list(ms.game.actors(ms.state))
        if seat == REFEREE:
            seats = sorted(a for a in to_act if isinstance(a, int) and not isinstance(a, bool))
            moves = [m for s in (None, *seats) for m in M.legal_moves(ms, s)]
        else:
            moves = M.legal_moves(ms, seat)
        return {"seq": ms.seq, "seat": seat, "to_act": to_act, "moves": moves, "chance": M.chance_due(ms)}

    def scene(self, match_id: str, viewer: Any, at: int | None = None) -> dict[str, Any]:
        """The match's table for ``viewer`` (``engine.scene``) at seq ``at`` (default the latest)."""
        ms = self.state_at(match_id, at)
        if isinstance(viewer, int) and not 0 <= viewer < len(ms.players):
            raise BadRequest(f"seat must be 0–{len(ms.players) - 1}, 'referee' or 'public'", field="seat",
                             location="query")
        if at is None or at == ms.seq:
            key = (match_id, viewer)
            with self._scenes_lock:
                kept = self._scenes.get(key)
            if kept is not None and kept[0] is ms:  # the same state object: nothing logged since
                scene = kept[1]
            else:
                scene = M.scene(ms, viewer)
                with self._scenes_lock:
                    self._scenes[key] = (ms, scene)
                    self._scenes.move_to_end(key)
                    while len(self._scenes) > self.SCENES_KEPT:
                        self._scenes.popitem(last=False)
        else:
            scene = M.scene(ms, viewer)
        if scene is None:
            raise NotFound(f"{ms.game.name} has no scene yet: the pages draw it another way", game=ms.game.id)
        return {"match": match_id, **scene}

    def hint(self, match_id: str, seat: int, budget: int) -> dict[str, Any]:
        """A solver's judgement of the seat's moves, from what that seat can see."""
        ms = self.current(match_id)
        if not 0 <= seat < len(ms.players):
            raise BadRequest(f"seat must be 0–{len(ms.players) - 1}", field="seat", location="query")
        hint = ms.game.hint(ms.state, seat, budget)
        if hint is None:
            raise NotFound(f"{ms.game.name} offers no hints", game=ms.game.id)
        return {"match": match_id, "seq": ms.seq, "seat": seat, **hint}

    def _describe(self, match_id: str, events: list[dict[str, Any]]) -> list[tuple[str, str, str | None, tuple[int, ...]]]:
        """Each event's line for the review, (hash, summary as the referee
        reads it, Dutch summary or None, seqs it undoes), for ``events``
        (stored events, consecutive seqs). The lines already worked out for
        this match are used where the stored events still have their hashes,
        and only the events after them are replayed (a whole log replayed at
        every move made a live page's review cost grow with the square of the
        game's length); lines not known yet are replayed from the match just
        before the first of them (``_load``: the nearest checkpoint or
        snapshot), never from seq 1 unless asked from there."""
        first, last = events[0]["seq"], events[-1]["seq"]
        entry = self._entry(match_id)
        with entry.lock:
            lo, known, ms = entry.described_from, entry.described, entry.described_ms
            hi = lo + len(known) - 1
            if (known and ms is not None and lo <= first <= hi + 1
                    and all(known[s - lo][0] == events[s - first]["hash"] for s in range(first, min(hi, last) + 1))):
                if last <= hi:
                    return known[first - lo:last - lo + 1]
                new = events[hi + 1 - first:]
                if new[0]["prev_hash"] == known[-1][0]:  # the new events follow on from the last line known
                    more, after = self._lines(match_id, new, ms)
                    entry.described, entry.described_ms = known + more, after
                    return entry.described[first - lo:]
            # Not known (or of a log the store no longer holds): from the match just before ``first``.
            lines, after = self._lines(match_id, events, None if first == 1 else self._load(match_id, first - 1))
            entry.described_from, entry.described, entry.described_ms = first, lines, after
            return lines

    def _lines(self, match_id: str, events: list[dict[str, Any]], ms: M.MatchState | None
               ) -> tuple[list[tuple[str, str, str | None, tuple[int, ...]]], M.MatchState | None]:
        """The review's lines of ``events``, replayed from ``ms`` (the match before the first; None: from the
        setup), and the match after the last."""
        lines = []
        for event, before, after in self._steps(match_id, events, ms):
            data = event["data"]
            game = after.game
            summary_nl = None
            if before is None:
                mode = say("physical") if data["mode"] == "physical" else say("simulated")
                summary = say("Setup: {game} for {players} ({mode})", game=game.name, players=list(after.players),
                              mode=mode)
                if note := game.describe_setup(after.state):
                    note_nl = game.describe_setup_nl(after.state) if game.speaks_dutch else None
                    summary = say("{line}, {note}", line=summary,
                                  note=note if not isinstance(note, str) else Words(en=note, nl=note_nl or note))
            elif event["type"] == M.UNDO:
                summary = say("Undo of {seqs}", seqs=[say("seq {seq}", seq=str(s)) for s in after.undone])
            else:
                summary = game.describe(before.state, event["type"], event["seat"], data, after.state)
                summary_nl = game.describe_nl(before.state, event["type"], event["seat"], data, after.state)
            lines.append((event["hash"], summary, summary_nl, tuple(after.undone) if event["type"] == M.UNDO else ()))
            ms = after
        return lines, ms

    def review(self, match_id: str, viewer: Any = None, first: int = 1) -> dict[str, Any]:
        """Every event with its one-line summary and annotations, undone moves
        included (marked), so a reader sees the game as it was recorded.

        Filtered for ``viewer`` (a seat, None for the public, REFEREE) as the
        log is: an event whose data the viewer may not see gets a summary that
        names only who and what kind (``M.hidden_summary``) and none of the
        worker's annotations (they are computed from the data). From seq
        ``first`` on only (an undo's ``undoes`` names the earlier steps it
        marks as undone): only those events are read, with their annotations."""
        ms_now = self.current(match_id)
        check_viewer(ms_now, viewer)
        first = max(first, 1)
        if first > ms_now.seq:
            return {"match": match_id, "seq": ms_now.seq, "status": ms_now.status, "steps": []}
        events = self.store.events(match_id, first, ms_now.seq)
        undone = M.undone_between(ms_now, first, ms_now.seq) if viewer != REFEREE else frozenset()
        auto = self.store.auto_annotations(match_id, first, ms_now.seq)
        human: dict[int, list[dict[str, Any]]] = {}
        for note in self.store.notes(match_id):
            if note["seq"] >= first:
                human.setdefault(note["seq"], []).append({"source": "human", **note})
        lines = self._describe(match_id, events)
        steps: list[dict[str, Any]] = []
        hidden_seqs: set[int] = set()
        for event, (_, summary, summary_nl, undoes) in zip(events, lines):
            seq, type_ = event["seq"], event["type"]
            hidden = viewer != REFEREE and bool(M.event_view(ms_now, event, viewer, undone).get("redacted"))
            if hidden and type_ not in (M.SETUP, M.UNDO):
                summary, summary_nl = M.hidden_summary(ms_now, event), None
            step = {
                "seq": seq,
                "type": type_,
                "seat": event["seat"],
                "summary": summary,
                "summary_nl": summary_nl,
                "recorded_by": event["recorded_by"],
                "recorded_at": event["recorded_at"],
                "undone_by": None,
                "undoes": list(undoes),
                # a worker's note keeps an engine's message as JSON (engine.text.to_json): a Text again, to be
                # said in the reader's language
                "annotations": [{"source": "worker", **{k: from_json(v) for k, v in a.items()}}
                                for a in ([] if hidden else auto.get(seq, []))]
                + human.get(seq, []),
            }
            for s in undoes:
                if s >= first:
                    steps[s - first]["undone_by"] = seq
            if hidden:
                hidden_seqs.add(seq)
            steps.append(step)
        out = {"match": match_id, "seq": ms_now.seq, "status": ms_now.status, "steps": steps}
        if first == 1 and ms_now.game.has_evaluation:
            out["evaluation"] = self._evaluation(match_id, ms_now, hidden_seqs)
        return out

    def _evaluation(self, match_id: str, ms: M.MatchState, hidden: set[int]) -> dict[str, Any] | None:
        """The analysis's evaluation as this reader may see it: no point or judged move at an event hidden
        from them (None: none stored yet). Its messages are Texts again, said in the reader's language."""
        stored = self.store.evaluation(match_id)
        if stored is None:
            return None
        shown = lambda seq: seq <= ms.seq and seq not in hidden  # noqa: E731
        ev = {k: from_json(v) for k, v in stored.items()}
        ev["points"] = [p for p in stored.get("points", []) if shown(p["seq"])]
        ev["moves"] = [{**m, "glyph_said": GLYPH_NAMES.get(m.get("glyph"))} for m in stored.get("moves", [])
                       if shown(m["seq"])]
        ev["method_said"] = METHOD_NAMES.get(ev.get("method"))
        return ev

    def audit(self, match_id: str) -> dict[str, Any]:
        self._entry(match_id)
        return audit_match(self.store, match_id).to_dict()

    # -- human annotations --------------------------------------------------
    def annotate(self, match_id: str, seq: Any, comment: Any = None, glyph: Any = None, author: str = "anonymous") -> dict[str, Any]:
        ms = self.current(match_id)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= ms.seq:
            raise BadRequest(f"seq must be an event of this match (1–{ms.seq})", field="seq", location="body")
        if glyph is not None and glyph not in GLYPHS:
            raise BadRequest(f"glyph must be one of {' '.join(GLYPHS)}", field="glyph", location="body")
        if comment is not None and (not isinstance(comment, str) or len(comment) > MAX_COMMENT):
            raise BadRequest(f"comment must be a string of at most {MAX_COMMENT:,} characters", field="comment",
                             location="body", limit=MAX_COMMENT)
        if comment is None and glyph is None:
            raise BadRequest("an annotation needs a comment, a glyph or both", field="comment", location="body")
        note = {"seq": seq, "comment": comment, "glyph": glyph, "author": author, "created_at": self.clock()}
        try:
            canonical(note)
        except ValueError:
            raise BadRequest("the comment holds text that is not valid Unicode", field="comment", location="body") from None
        note_id = self.store.add_note(match_id, note)
        return {"id": note_id, **note}

    def annotations(self, match_id: str) -> dict[str, Any]:
        self._entry(match_id)
        return {"match": match_id, "annotations": self.store.notes(match_id)}


#: how an evaluation was obtained (``Game.evaluate_log``), as a reader reads it
METHOD_NAMES = {"exact": say("exact (solved)"), "exact_odds": say("exact odds"),
                "estimate": say("estimated (Monte Carlo)")}
#: a judged move's glyph, named (the thresholds: docs/review.md)
GLYPH_NAMES = {"?!": say("inaccuracy"), "?": say("mistake"), "??": say("blunder")}


def check_viewer(ms: M.MatchState, viewer: Any) -> None:
    """A seat beyond the match's players is a 400, as every read of a view says."""
    if isinstance(viewer, int) and not 0 <= viewer < len(ms.players):
        raise BadRequest(f"seat must be 0–{len(ms.players) - 1}, 'referee' or 'public'", field="seat",
                         location="query")


def kept_result(stored: str | None) -> dict[str, Any] | None:
    """A list entry's result as it was kept: its reason a message (a Text, said in the reader's language where
    it is shown) when the entry kept one, else the English it kept (entries written before messages)."""
    result = json.loads(stored or "null")
    if result and "reason_said" in result:
        result["reason"] = from_json(result.pop("reason_said"))
    return result


def said_verdict(verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """A verdict as its reader reads it: the message the engine said (``said``: a Text kept as JSON, said in the
    reader's language where it is served), else the English it kept (verdicts written before messages)."""
    if not verdict or "said" not in verdict:
        return verdict
    out = {k: v for k, v in verdict.items() if k != "said"}
    out["message"] = from_json(verdict["said"])
    return out
