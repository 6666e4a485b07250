"""Event store on Redis Streams: one stream per match, append-only.

Key layout (``P`` is the configurable prefix; ``{m:ID}`` is a hash tag, so all
keys of one match share a Cluster slot and the scripts may touch them together;
a league's stream is laid out the same way under ``{l:ID}``):

- ``P:{m:ID}:log``    the stream; entry id ``<seq>-0``, fields ``event`` (the
                      canonical envelope text) and ``hash`` (its SHA-256);
                      once validated, one consumer group ``kroniek-mark:…``,
                      never read from: the worker's mark (``mark_log``)
- ``P:{m:ID}:packed`` a finished match's log, compacted (``compact``): one
                      zstandard block of its events, seq 1 … n, that reads
                      back byte for byte (``replays.compact``); the stream is
                      then gone, until a new event starts it again after n.
                      Only this class knows: ``entries``, ``head_seq`` and
                      the rest read both
- ``P:{m:ID}:head``   hash of what a listing shows: game, players, created_at,
                      status, result (the latest seq and hash are the stream's
                      last entry; Redis keeps the stream's last-generated id
                      even when entries are deleted, which the audit uses)
- ``P:{m:ID}:idem:K`` what a retry with Idempotency-Key K needs to get the
                      first answer again: the request's fingerprint (its
                      first 128 bits), the seqs it appended and the start
                      of the last one's hash (a JSON list, about 55 bytes;
                      ``IDEMPOTENCY_TTL``)
- ``P:{m:ID}:snapi``  the seqs of the match's state snapshots (a cache), a
                      sorted set (each seq scored by itself); a live match
                      keeps its newest ``SNAPSHOT_KEEP_LAST`` and those at a
                      multiple of ``SNAPSHOT_KEEP_EVERY``, a finished one
                      with its final verdict only the latter
- ``P:{m:ID}:snapz``  their bodies, a hash by seq: ``z2:<head hash>:`` and
                      the zlib of the JSON (bytes). Apart from the index, so
                      that pruning them reads no body (``lua.SAVE_SNAPSHOT``)
- ``P:{m:ID}:snap``   snapshots written before issue 36: a sorted set by seq
                      of ``z1:<head hash>:<base64 of zlib of the JSON>``; still
                      read, never written
- ``P:{m:ID}:notes``  stream of human annotations (never part of the log)
- ``P:{m:ID}:verdict`` / ``P:{m:ID}:auto``  the worker's verdict and annotations
- ``P:{m:ID}:autoz``  those annotations of a compacted match, in one
                      zstandard block (the ``auto`` hash as JSON); a new
                      verdict deletes it and writes ``auto`` again
- ``P:{m:ID}:analysis`` / ``P:{m:ID}:deep`` / ``P:{m:ID}:analysing``  the
                      analysis job's record, its (solver) annotations and its
                      progress while it runs
- ``P:{m:ID}:evaluation`` the analysis's evaluation (``Game.evaluate_log``:
                      the chances after each move, each move judged), JSON;
                      apart from the record, which every read of the match
                      reads for the analysis's status
- ``P:matches:owed:W`` sorted set of matches owed work W (validation,
                      analysis) by a job that has not started yet
- ``P:{m:ID}:acl``    who holds which role on the match (``service.accounts``)
- ``P:matches``       sorted set of match ids by creation time (an index)
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Any, Iterator

import orjson
import redis
import zstandard
from redis.cluster import RedisCluster

from redis.client import NEVER_DECODE

from . import compact as packing
from . import lua
from .connection import shared as shared_connections
from .compact import CorruptBlock, NotCompactable
from .hashing import canonical

#: Seconds an idempotency record is kept (written with the append by
#: lua.APPEND_IDEMPOTENT; fixed, so records never pile up): a client retries
#: a request whose answer it lost within minutes, and two days cover a phone
#: that was offline over a weekend night.
IDEMPOTENCY_TTL = 48 * 3600
CHUNK = 1000
#: Snapshots a live match keeps: the newest few, and one per so many events
#: (a finished match with its final verdict keeps only those).
SNAPSHOT_KEEP_LAST = 2
SNAPSHOT_KEEP_EVERY = 1024
#: The prefix of a snapshot's body: its format (zlib-compressed JSON, as bytes;
#: ``z1``, before issue 36: in base64, in the member of the ``snap`` set).
_SNAP_FORMAT = b"z2"
#: A command's option for redis-py: its reply as bytes (a compacted block is binary).
_BYTES = {NEVER_DECODE: []}
#: Events of compacted blocks each process keeps decoded (a block is read back
#: only if its bytes changed; about 1 KB an event).
BLOCK_CACHE_EVENTS = 20_000


class StoreError(RuntimeError):
    """Redis answered something the store cannot have asked for: a client it
    cannot work with, or a script's reply it does not know. Never retried."""


def check_client(client: Any) -> None:
    """Refuse a client whose replies are bytes: every comparison with a
    script's text answer (``"ok"``) would fail and look like "try again".
    ``redis.Redis`` and ``RedisCluster`` both say through ``get_encoder()``."""
    try:
        decodes = client.get_encoder().decode_responses
    except AttributeError:
        raise StoreError(
            f"the event store needs a redis-py client (Redis or RedisCluster), not {type(client).__name__}"
        ) from None
    if decodes is not True:
        raise StoreError(
            f"the event store needs a client made with decode_responses=True; this {type(client).__name__} "
            "returns bytes (e.g. redis.Redis.from_url(url, decode_responses=True))"
        )


@dataclass(frozen=True)
class LogTail:
    """A stream's entries from some seq on, read with what tells whether
    the entries before them are still those once read (``EventStore.log_after``)."""

    length: int  # the stream's entries, then
    last_generated: int  # the highest seq it ever held, then
    top: int  # its last entry's seq, then
    entries: list[tuple[str, dict[str, str]]]  # from the seq asked for (more may follow ``top``)


#: The names of the worker's marks on a stream (``EventStore.mark_log``).
MARK_PREFIX = "kroniek-mark:"


@dataclass(frozen=True)
class AppendOutcome:
    status: str  # ok | conflict | duplicate | missing | deleted (entries past the head were deleted)
    stored: str | None = None
    owed: bool = False  # append(owe=W) marked the stream owed W: the caller must queue a job


#: the outcomes of the one-command append, made once (they are frozen)
_ONE_OWED = {(status, owed): AppendOutcome(status, owed=owed) for status in ("ok", "conflict") for owed in (False, True)}
_MISSING = AppendOutcome("missing")
_DELETED_OWED = {owed: AppendOutcome("deleted", owed=owed) for owed in (False, True)}


def _flatten(events: list[dict[str, Any]]) -> list[Any]:
    args: list[Any] = []
    for e in events:
        args += [e["seq"], e["text"], e["hash"]]
    return args


def decode_entry(fields: dict[str, str]) -> dict[str, Any]:
    """A stream entry (fields ``event`` and ``hash``) back to its envelope.
    Raises KeyError or ValueError if unreadable."""
    envelope = orjson.loads(fields["event"])
    envelope["hash"] = fields["hash"]
    return envelope


class EventStore:
    #: the kinds of stream: matches and leagues, each with its own index
    KINDS = {"m": "matches", "l": "leagues"}

    def __init__(self, client: redis.Redis, prefix: str = "kroniek", kind: str = "m") -> None:
        if kind not in self.KINDS:
            raise ValueError(f"kind must be one of {', '.join(self.KINDS)}")
        check_client(client)
        self.r = client
        self.prefix = prefix
        self.kind = kind
        self._append_one_script = client.register_script(lua.APPEND_ONE)
        self._append = client.register_script(lua.APPEND)
        self._append_idem = client.register_script(lua.APPEND_IDEMPOTENT)
        self._record_or_head = client.register_script(lua.RECORD_OR_HEAD)
        self._create = client.register_script(lua.CREATE)
        self._create_indexed = client.register_script(lua.CREATE_INDEXED)
        self._save_verdict = client.register_script(lua.SAVE_VERDICT)
        self._save_analysis = client.register_script(lua.SAVE_ANALYSIS)
        self._add_to_verdict = client.register_script(lua.ADD_TO_VERDICT)
        self._save_snapshot = client.register_script(lua.SAVE_SNAPSHOT)
        self._read_snapshot = client.register_script(lua.READ_SNAPSHOT)
        self._mark_log = client.register_script(lua.MARK_LOG)
        self._log_after = client.register_script(lua.LOG_AFTER)
        self._prune_snapshots = client.register_script(lua.PRUNE_FINISHED_SNAPSHOTS)
        self._compact = client.register_script(lua.COMPACT)
        #: decoded blocks: key -> (block bytes, entries), least recently used first
        self._blocks: dict[str, tuple[bytes, list[tuple[str, dict[str, str]]]]] = {}
        self._blocks_lock = threading.Lock()
        # On a Cluster the owed mark (another slot) can ride neither in the append's script nor in its pipeline.
        self._cluster = isinstance(client, RedisCluster)
        #: the one-move append's commands, sent on a connection lent to the call alone (see replays.connection)
        self.send = shared_connections(client)

    @property
    def cluster(self) -> bool:
        """Whether Redis is a Cluster, where a command's keys must share a slot."""
        return self._cluster

    # -- keys ---------------------------------------------------------------
    def key(self, match_id: str, part: str) -> str:
        return f"{self.prefix}:{{{self.kind}:{match_id}}}:{part}"

    @property
    def index_key(self) -> str:
        return f"{self.prefix}:{self.KINDS[self.kind]}"

    # -- writing ------------------------------------------------------------
    def create(
        self,
        match_id: str,
        events: list[dict[str, Any]],
        head: dict[str, str],
        created_ts: float,
        acl: dict[str, str] | None = None,
    ) -> bool:
        """Write a new stream's first events, listing fields and roles (``acl``)
        and its entry in the index atomically (on a Cluster, where the index
        is in another slot, the entry right after); False if the id exists
        (nothing written). Any other answer raises StoreError: a caller
        retrying on False must never loop on it."""
        fields: list[Any] = []
        for name, value in head.items():
            fields += [name, value]
        roles: list[Any] = []
        for name, value in (acl or {}).items():
            roles += [name, value]
        keys = [self.key(match_id, "head"), self.key(match_id, "log"), self.key(match_id, "acl")]
        args = [len(head), len(events), len(roles) // 2, *fields, *_flatten(events), *roles]
        if self._cluster:
            res = self._create(keys=keys, args=args)
        else:
            res = self._create_indexed(keys=[*keys, self.index_key], args=[*args, match_id, created_ts])
        answer = res[0] if isinstance(res, list) and res else res
        if answer == "exists":
            return False
        if answer != "ok":
            raise StoreError(f"unexpected answer from the create script: {res!r}")
        if self._cluster:
            self.r.zadd(self.index_key, {match_id: created_ts})
        return True

    def exists(self, stream_id: str) -> bool:
        return bool(self.r.exists(self.key(stream_id, "log"), self.key(stream_id, "packed")))

    def append(
        self,
        match_id: str,
        events: list[dict[str, Any]],
        status: str = "",
        result: str = "",
        idem_key: str | None = None,
        idem_value: str = "",
        owe: str | None = None,
    ) -> AppendOutcome:
        """Append ``events`` (seqs following on the stream's last entry) or nothing.

        Every append is one script that checks the stream's head and writes
        in one atomic step: the last entry must be the event the first new
        one follows (its seq, and its hash equal to the new event's
        ``prev_hash``), else nothing is written (``conflict``). So an append
        never writes past a hole, even when the stream went back in time (a
        Redis restarted from an append-only file that lost its last writes),
        and never onto a head other than the one its state was computed
        from. One move is ``lua.APPEND_ONE`` (with ``owe``, on one Redis, sent
        with the mark's ZADD in one round trip on a lent own
        connection: ``_append_one``); several events at once (a move and the
        chance outcomes drawn for it), or an Idempotency-Key to record with
        them, go through ``lua.APPEND``/``APPEND_IDEMPOTENT``.
        ``status``/``result``, when not empty, are then written to the head
        for listings (a derived field; the worker rewrites it too).

        ``owe``: mark the stream owed that work (``owe``) after the append,
        in the same round trip (on a Cluster, the next); ``owed`` in the
        outcome says the mark was new, whatever the append's outcome.
        """
        single = len(events) == 1 and not idem_key
        if single and owe and not self._cluster:
            # The usual move: its XADD and the mark, in one round trip.
            outcome = self._append_one(match_id, events[0], owe)
        else:
            outcome, owed = self._append_other(match_id, events, single, idem_key, idem_value, owe)
            outcome = AppendOutcome(outcome.status, outcome.stored if outcome.status != "ok" else None, owed)
        if outcome.status == "ok" and status:
            self.r.hset(self.key(match_id, "head"), mapping={"status": status, "result": result})
        return outcome

    def _append_one(self, match_id: str, event: dict[str, Any], owe: str) -> AppendOutcome:
        """One event and the owed mark: the head-checking script
        (``lua.APPEND_ONE``, by its SHA) and then ``ZADD NX`` of the mark,
        written together on a lent own connection (``self.send``: one
        round trip, neither the client's pipeline nor its pool). A Redis
        that does not know the script (restarted, or its scripts flushed)
        gets it whole, once. The mark is set whatever the append's outcome
        (a refused append that set it must still queue), except where the
        append wrote nothing for another reason than the head: no such
        stream, or an error, which is raised; a mark new there is taken
        back (nothing to validate)."""
        args = (2, self.key(match_id, "log"), self.key(match_id, "packed"), event["seq"], event["text"],
                event["hash"], event["prev_hash"])
        added, marked = self.send(
            ("EVALSHA", self._append_one_script.sha, *args),
            ("ZADD", self.owed_key(owe), "NX", time.time(), match_id),
        )
        if isinstance(added, redis.exceptions.NoScriptError) or (
                isinstance(added, redis.ResponseError) and str(added).startswith("NOSCRIPT")):
            (added,) = self.send(("EVAL", lua.APPEND_ONE, *args))
        if isinstance(marked, Exception):
            raise marked
        new_mark = marked == 1
        if added == "missing" or isinstance(added, Exception):
            if new_mark:
                self.take_owed(owe, match_id)
            if added == "missing":
                return _MISSING
            raise added
        if added == "deleted":
            return _DELETED_OWED[new_mark]
        if added not in ("ok", "conflict"):
            raise StoreError(f"unexpected answer from the append script: {added!r}")
        return _ONE_OWED[added, new_mark]

    def _append_other(self, match_id: str, events: list[dict[str, Any]], single: bool, idem_key: str | None,
                      idem_value: str, owe: str | None) -> tuple[AppendOutcome, bool]:
        """An append that is not a single event with a mark on one Redis:
        several events or an Idempotency-Key (a script), with the mark in
        the same pipeline; or on a Cluster, the mark after the append."""

        def issue(client: Any) -> Any:
            keys = [self.key(match_id, "log"), self.key(match_id, "packed")]
            if single:
                event = events[0]
                return self._append_one_script(
                    keys=keys, args=[event["seq"], event["text"], event["hash"], event["prev_hash"]], client=client)
            args = [len(events), events[0]["prev_hash"], *_flatten(events)]
            if idem_key:
                keys.append(self.key(match_id, f"idem:{idem_key}"))
                return self._append_idem(keys=keys, args=[*args, IDEMPOTENCY_TTL, idem_value], client=client)
            return self._append(keys=keys, args=args, client=client)

        owed = False
        if owe and not self._cluster:
            for _ in range(2):
                pipe = self.r.pipeline(transaction=False)
                issue(pipe)
                pipe.zadd(self.owed_key(owe), {match_id: time.time()}, nx=True)  # after the append: see owe()
                res, added = pipe.execute(raise_on_error=False)
                owed = owed or added == 1
                # Redis forgot the scripts between the pipeline's SCRIPT LOAD and its EVALSHA (a SCRIPT FLUSH, a
                # restart): the append did not run, so it is sent once more, the script loaded again
                if not isinstance(res, redis.exceptions.NoScriptError):
                    break
        else:
            try:
                res = issue(self.r)
            except redis.ResponseError as exc:
                res = exc
        outcome = self._outcome(res, single)
        if owe and self._cluster and outcome.status == "ok":
            owed = self.owe(owe, match_id, time.time())
        if owed and outcome.status == "missing":
            self.take_owed(owe, match_id)  # nothing to validate there
            owed = False
        return outcome, owed

    @staticmethod
    def _outcome(res: Any, single: bool) -> AppendOutcome:
        """The outcome of an append from its XADD's or script's reply."""
        if isinstance(res, Exception):
            raise res
        if single:
            if res not in ("ok", "conflict", "missing", "deleted"):
                raise StoreError(f"unexpected answer from the append script: {res!r}")
            return AppendOutcome(res)
        if res[0] == "dup":
            return AppendOutcome("duplicate", stored=res[1])
        if res[0] != "ok":
            return AppendOutcome(res[0])
        return AppendOutcome("ok")

    def set_summary(self, match_id: str, status: str, result: str) -> None:
        self.r.hset(self.key(match_id, "head"), mapping={"status": status, "result": result})

    def save_snapshot(self, match_id: str, seq: int, head_hash: str, state: dict[str, Any]) -> None:
        """Snapshots are a cache derived from the log: written apart from the
        append, never trusted by the worker or the audit, and read only if
        the log still holds the head they were taken at (``head_hash``). The
        JSON is compressed (a state and its undo history repeat themselves:
        a Catan snapshot of 75 KB keeps about 3 KB) and the snapshots are
        pruned as one is written (``lua.SAVE_SNAPSHOT``: by their seqs,
        whatever their number, never reading a body)."""
        body = b"%s:%s:%s" % (_SNAP_FORMAT, head_hash.encode("ascii"), zlib.compress(orjson.dumps(state), 6))
        self._save_snapshot(keys=[self.key(match_id, "snapi"), self.key(match_id, "snapz")],
                            args=[seq, body, SNAPSHOT_KEEP_LAST, SNAPSHOT_KEEP_EVERY])

    def prune_finished_snapshots(self, match_id: str, verdict_seq: int) -> int:
        """A finished match whose verdict (for ``verdict_seq``) covers its
        whole log keeps only its snapshots at a multiple of
        ``SNAPSHOT_KEEP_EVERY``; how many were removed."""
        return int(self._prune_snapshots(keys=[self.key(match_id, "snapi"), self.key(match_id, "snapz"),
                                               self.key(match_id, "log"), self.key(match_id, "head"),
                                               self.key(match_id, "packed")],
                                         args=[verdict_seq, SNAPSHOT_KEEP_EVERY, SNAPSHOT_KEEP_LAST]))

    def idempotent_response(self, match_id: str, idem_key: str) -> str | None:
        return self.r.get(self.key(match_id, f"idem:{idem_key}"))

    def record_or_head(self, match_id: str, idem_key: str) -> tuple[str | None, tuple[int, str] | None]:
        """In one atomic step (``lua.RECORD_OR_HEAD``): the idempotency record
        of ``idem_key`` if there is one (``(record, None)``), else the log's
        head as ``head_seq`` gives it (``(None, (seq, hash))``, or
        ``(None, None)``: no such match). With no record, the head read is the
        head at a moment when no request with that key had been written."""
        res = self._record_or_head(keys=[self.key(match_id, "log"), self.key(match_id, "packed"),
                                         self.key(match_id, f"idem:{idem_key}")])
        if res[0] == "dup":
            return res[1], None
        if res[0] == "missing":
            return None, None
        if res[0] != "head":
            raise StoreError(f"unexpected answer from the idempotency script: {res!r}")
        return None, (int(res[1].split("-", 1)[0]), res[2])

    # -- reading ------------------------------------------------------------
    def head(self, match_id: str) -> dict[str, str] | None:
        head = self.r.hgetall(self.key(match_id, "head"))
        return head or None

    def head_seq(self, match_id: str) -> tuple[int, str] | None:
        """The seq and hash of the log's last entry (None: no such match)."""
        last = self.r.xrevrange(self.key(match_id, "log"), "+", "-", count=1)
        if not last:
            return self._packed_head(match_id)
        entry_id, fields = last[0]
        return int(entry_id.split("-", 1)[0]), fields.get("hash", "")

    def _packed_head(self, match_id: str) -> tuple[int, str] | None:
        """The seq and hash the header of the match's block names (None: no block)."""
        start = self.r.execute_command("GETRANGE", self.key(match_id, "packed"), 0, packing.HEADER_MAX - 1, **_BYTES)
        if not start:
            return None
        head = packing.header(start)
        if head is None:
            raise CorruptBlock(f"match {match_id}: the compacted log has an unreadable header")
        return head

    def last_generated_seq(self, match_id: str) -> int | None:
        """The highest seq ever appended to the log, deleted or not (Redis
        keeps a stream's last-generated id; a compacted match's is the last
        seq of its block, unless a stream was started after it)."""
        try:
            info = self.r.xinfo_stream(self.key(match_id, "log"))
        except redis.ResponseError:
            head = self._packed_head(match_id)
            return head[0] if head is not None else None
        return int(str(info["last-generated-id"]).split("-", 1)[0])

    def entries(self, match_id: str, start: int = 1, end: int | None = None) -> Iterator[tuple[str, dict[str, str]]]:
        """Raw entries (id, fields) from seq ``start`` to ``end``, in chunks:
        the stream's, and before them, where the stream does not start at
        ``start``, those of the match's compacted block (checked as it is
        read: ``CorruptBlock`` rather than entries it was not written with)."""
        key = self.key(match_id, "log")
        start = max(start, 1)
        lo = f"{start}-0"
        hi = f"{end}-0" if end is not None else "+"
        first = True
        while True:
            chunk = self.r.xrange(key, lo, hi, count=CHUNK)
            if first:
                first = False
                if not chunk or chunk[0][0] != lo:
                    # Before the stream's first entry (all of it, if there is no stream): the block's.
                    below = int(chunk[0][0].split("-", 1)[0]) if chunk else None
                    for entry_id, fields in self._block_entries(match_id):
                        seq = int(entry_id.split("-", 1)[0])
                        if seq >= start and (end is None or seq <= end) and (below is None or seq < below):
                            yield entry_id, dict(fields)
            yield from chunk
            if len(chunk) < CHUNK:
                return
            lo = "(" + chunk[-1][0]

    def _block_entries(self, match_id: str) -> list[tuple[str, dict[str, str]]]:
        """The entries of the match's compacted block (none without one),
        decoded once per process while its bytes stay the same."""
        key = self.key(match_id, "packed")
        block = self.r.execute_command("GET", key, **_BYTES)
        if block is None:
            return []
        with self._blocks_lock:
            cached = self._blocks.pop(key, None)
            if cached is not None and cached[0] == block:
                self._blocks[key] = cached  # the most recently used
                return cached[1]
        try:
            entries = packing.unpack(block)
        except CorruptBlock as exc:
            raise CorruptBlock(f"match {match_id}: {exc.message}") from None
        with self._blocks_lock:
            self._blocks[key] = (block, entries)
            held = sum(len(e) for _, e in self._blocks.values())
            while held > BLOCK_CACHE_EVENTS and len(self._blocks) > 1:
                oldest = next(iter(self._blocks))
                held -= len(self._blocks.pop(oldest)[1])
        return entries

    def compacted(self, match_id: str) -> bool:
        """Whether (part of) the match's log is a compacted block."""
        return bool(self.r.exists(self.key(match_id, "packed")))

    def compact(self, match_id: str) -> str:
        """Replace the match's stream by one compressed block (with the
        block it has, if any), and the worker's annotations by one
        compressed string (``autoz``), in one atomic step (``lua.COMPACT``) that
        writes only if the stream is still exactly what was read: an append
        racing with it is never lost (the block is not written; the next
        compaction takes it) and never doubled. Returns ``ok``, ``moved``
        (the log changed meanwhile: nothing written), ``nothing`` (no
        stream to compact) or ``refused: <why>`` (a log that would not read
        back byte for byte, or whose hash chain is broken: it stays as it
        is, for the audit to show). Raises CorruptBlock if the block it has
        is corrupt."""
        key = self.key(match_id, "log")
        pipe = self.r.pipeline(transaction=False)
        pipe.execute_command("GET", self.key(match_id, "packed"), **_BYTES)
        pipe.xrange(key, "-", "+")
        pipe.get(self.key(match_id, "verdict"))
        pipe.hgetall(self.key(match_id, "auto"))
        old, stream, verdict, auto = pipe.execute()
        if not stream:
            return "nothing"
        before = packing.unpack(old) if old is not None else []
        entries = [(i, f) for i, f in before if int(i.split("-", 1)[0]) < int(stream[0][0].split("-", 1)[0])]
        entries += stream
        top, held = int(stream[-1][0].split("-", 1)[0]), self.last_generated_seq(match_id)
        if held != top:  # entries past the head were deleted: the stream's last-generated id shows it
            return f"refused: the stream held seq {held} but now ends at seq {top}"
        try:  # a broken chain would not read back: the block derives every hash and prev_hash
            block = packing.pack(entries)
        except NotCompactable as exc:
            return f"refused: {exc}"
        ids: list[str] = []
        for entry_id, fields in stream:
            ids += [entry_id, fields.get("hash", "")]
        # The worker's annotations go with it (written only with the verdict, which must stay the same).
        notes = zstandard.ZstdCompressor(level=packing.LEVEL, write_checksum=True).compress(orjson.dumps(auto)) \
            if auto else b""
        return str(self._compact(keys=[key, self.key(match_id, "packed"), self.key(match_id, "verdict"),
                                       self.key(match_id, "auto"), self.key(match_id, "autoz")],
                                 args=[block, len(old) if old is not None else -1, verdict or "", notes, *ids]))

    def mark_log(self, match_id: str) -> tuple[str, int] | None:
        """Mark the match's stream (``lua.MARK_LOG``: a consumer group, made
        once, that goes if the stream is ever written again) and say its
        last-generated seq, in one atomic step: a reader that marks a stream
        before it reads and checks it can later tell, by the mark, that the
        entries it read are still there as they were (``log_after``). None
        for a match with no stream or a compacted part (not marked)."""
        res = self._mark_log(keys=[self.key(match_id, "log"), self.key(match_id, "packed")],
                             args=[MARK_PREFIX, MARK_PREFIX + secrets.token_hex(8)])
        if not res:
            return None
        return res[0], int(str(res[1]).split("-", 1)[0])

    def log_after(self, match_id: str, mark: str, seq: int) -> LogTail | None:
        """The stream's entries from ``seq`` on, and in the same atomic step
        (``lua.LOG_AFTER``) its length, last-generated seq and last entry;
        None unless it still carries ``mark`` (``mark_log``) and has no
        compacted part. A stream that still carries the mark of a read that
        found seq 1 … n has those entries yet unless some were deleted, which
        its length then shows: so a check that continues at ``seq`` is the
        check of the whole log, at the cost of the entries after it."""
        res = self._log_after(keys=[self.key(match_id, "log"), self.key(match_id, "packed")],
                              args=[mark, f"{seq}-0", CHUNK])
        if not res:
            return None
        length, last, top, chunk = res
        entries = [(entry_id, dict(zip(fields[::2], fields[1::2]))) for entry_id, fields in chunk]
        if len(chunk) == CHUNK:  # the rest, after the script: entries appended meanwhile come too
            key = self.key(match_id, "log")
            lo = "(" + entries[-1][0]
            while True:
                more = self.r.xrange(key, lo, "+", count=CHUNK)
                entries += more
                if len(more) < CHUNK:
                    break
                lo = "(" + more[-1][0]
        return LogTail(int(length), int(str(last).split("-", 1)[0]), int(str(top).split("-", 1)[0]) if top else 0,
                       entries)

    def events(self, match_id: str, start: int = 1, end: int | None = None) -> list[dict[str, Any]]:
        return [decode_entry(fields) for _, fields in self.entries(match_id, start, end)]

    def snapshot_at_or_before(self, match_id: str, seq: int) -> tuple[int, str, dict[str, Any]] | None:
        """The nearest snapshot at or before ``seq``: its seq, the hash of the
        head it was taken at (the caller checks the log still has it) and
        the state, in one round trip (``lua.READ_SNAPSHOT``). Those written
        before issue 36 (the ``snap`` set, format ``z1``) are read too; one
        of a format this code does not know is not (None)."""
        keys = [self.key(match_id, "snapi"), self.key(match_id, "snapz"), self.key(match_id, "snap")]
        found = self._script_bytes(self._read_snapshot, keys, [seq])
        if not found:
            return None
        where, at, body = found
        form, _, rest = body.partition(b":")
        head_hash, _, packed = rest.partition(b":")
        if where == b"z1" and form == b"z1":  # before issue 36: the member itself, its body in base64
            return int(float(at)), head_hash.decode("ascii"), orjson.loads(zlib.decompress(base64.b64decode(packed)))
        if where == b"z2" and form == _SNAP_FORMAT:
            return int(at), head_hash.decode("ascii"), orjson.loads(zlib.decompress(packed))
        return None

    def _script_bytes(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run a registered script by its SHA (loading it where Redis does not
        know it) with its reply as bytes: it carries compressed bodies."""
        try:
            return self.r.execute_command("EVALSHA", script.sha, len(keys), *keys, *args, **_BYTES)
        except redis.exceptions.NoScriptError:
            return self.r.execute_command("EVAL", script.script, len(keys), *keys, *args, **_BYTES)

    def id_pages(self, size: int = 500) -> Iterator[list[str]]:
        """Every id in the index, oldest first, a page at a time (for sweeps)."""
        offset = 0
        while ids := self.r.zrange(self.index_key, offset, offset + size - 1):
            yield ids
            offset += len(ids)

    def match_ids(self, offset: int = 0, limit: int = 50) -> list[str]:
        return self.r.zrevrange(self.index_key, offset, offset + limit - 1)

    def match_count(self) -> int:
        return self.r.zcard(self.index_key)

    # -- validation bookkeeping (the worker's) -----------------------------
    def save_verdict(self, match_id: str, verdict: dict[str, Any], annotations: dict[int, list[dict[str, Any]]]) -> bool:
        """Store a verdict unless a newer one (for a longer log) is already there.
        A verdict for the whole log of a finished match prunes its snapshots
        (``prune_finished_snapshots``)."""
        flat: list[Any] = []
        for seq, notes in annotations.items():
            flat += [str(seq), canonical(notes)]
        saved = bool(
            self._save_verdict(
                keys=[self.key(match_id, "verdict"), self.key(match_id, "auto"), self.key(match_id, "autoz")],
                args=[verdict["seq"], canonical(verdict), *flat],
            )
        )
        return self._after_verdict(match_id, verdict, saved)

    def add_to_verdict(self, match_id: str, verdict: dict[str, Any], since: int,
                       annotations: dict[int, list[dict[str, Any]]]) -> bool | None:
        """Store a verdict that continues one at seq ``since`` (or later),
        adding the annotations of the events after ``since`` to those stored;
        False if a newer verdict is there; None if the stored annotations do
        not reach ``since`` (or are compacted): nothing written, and the
        caller saves them all (``save_verdict``)."""
        flat: list[Any] = []
        for seq, notes in annotations.items():
            if seq > since:
                flat += [str(seq), canonical(notes)]
        done = self._add_to_verdict(
            keys=[self.key(match_id, "verdict"), self.key(match_id, "auto"), self.key(match_id, "autoz")],
            args=[verdict["seq"], canonical(verdict), since, *flat],
        )
        if done == -1:
            return None
        return self._after_verdict(match_id, verdict, bool(done))

    def _after_verdict(self, match_id: str, verdict: dict[str, Any], saved: bool) -> bool:
        if saved and self.kind == "m":
            self.prune_finished_snapshots(match_id, verdict["seq"])  # a final verdict: the match's states are done
        return saved

    def verdict(self, match_id: str) -> dict[str, Any] | None:
        raw = self.r.get(self.key(match_id, "verdict"))
        return json.loads(raw) if raw else None

    def auto_annotations(self, match_id: str, first: int | None = None,
                         last: int | None = None) -> dict[int, list[dict[str, Any]]]:
        """The worker's annotations: the validation job's, then the analysis job's.
        With ``first`` and ``last``: those of the seqs from ``first`` to
        ``last`` only, read by their seqs (a compacted match's are one block,
        read whole)."""
        if first is not None and last is not None:
            return self._auto_annotations_of(match_id, first, last)
        pipe = self.r.pipeline(transaction=False)
        pipe.hgetall(self.key(match_id, "auto"))
        pipe.hgetall(self.key(match_id, "deep"))
        pipe.execute_command("GET", self.key(match_id, "autoz"), **_BYTES)
        auto, deep, packed = pipe.execute()
        if packed is not None and not auto:
            try:
                auto = orjson.loads(zstandard.ZstdDecompressor().decompress(packed))
            except (zstandard.ZstdError, ValueError) as exc:
                raise CorruptBlock(f"match {match_id}: the compacted annotations do not read back ({exc})") from None
        out = {int(k): json.loads(v) for k, v in auto.items()}
        for k, v in deep.items():
            out.setdefault(int(k), []).extend(json.loads(v))
        return dict(sorted(out.items()))

    def _auto_annotations_of(self, match_id: str, first: int, last: int) -> dict[int, list[dict[str, Any]]]:
        if first > last:
            return {}
        seqs = [str(seq) for seq in range(first, last + 1)]
        pipe = self.r.pipeline(transaction=False)
        pipe.hmget(self.key(match_id, "auto"), seqs)
        pipe.hmget(self.key(match_id, "deep"), seqs)
        pipe.exists(self.key(match_id, "auto"))
        pipe.exists(self.key(match_id, "autoz"))
        auto, deep, has_auto, has_autoz = pipe.execute()
        if has_autoz and not has_auto:  # a compacted match's: one block, holding them all
            whole = self.auto_annotations(match_id)
            return {seq: notes for seq, notes in whole.items() if first <= seq <= last}
        out: dict[int, list[dict[str, Any]]] = {}
        for seq, raw in zip(range(first, last + 1), auto):
            if raw is not None:
                out[seq] = json.loads(raw)
        for seq, raw in zip(range(first, last + 1), deep):
            if raw is not None:
                out.setdefault(seq, []).extend(json.loads(raw))
        return dict(sorted(out.items()))

    def save_analysis(self, match_id: str, record: dict[str, Any], annotations: dict[int, list[dict[str, Any]]],
                      evaluation: dict[str, Any] | None = None) -> bool:
        """Store an analysis (``record["seq"]``: the log it read), its
        annotations and its evaluation (None: none) unless one of a longer
        log is already there."""
        flat: list[Any] = []
        for seq, notes in annotations.items():
            flat += [str(seq), canonical(notes)]
        return bool(
            self._save_analysis(
                keys=[self.key(match_id, "analysis"), self.key(match_id, "deep"), self.key(match_id, "evaluation")],
                args=[record["seq"], canonical(record), "" if evaluation is None else canonical(evaluation), *flat],
            )
        )

    def evaluation(self, match_id: str) -> dict[str, Any] | None:
        """The evaluation the latest analysis stored (None: none)."""
        raw = self.r.get(self.key(match_id, "evaluation"))
        return json.loads(raw) if raw else None

    def evaluations(self, match_ids: list[str]) -> list[dict[str, Any] | None]:
        """``evaluation`` of each match, in one round trip (a pipeline: the keys lie in other slots)."""
        pipe = self.r.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.get(self.key(match_id, "evaluation"))
        return [json.loads(raw) if raw else None for raw in pipe.execute()] if match_ids else []

    def analysis(self, match_id: str) -> tuple[dict[str, Any] | None, dict[str, str]]:
        """The latest stored analysis record, and the progress of a running one."""
        pipe = self.r.pipeline(transaction=False)
        pipe.get(self.key(match_id, "analysis"))
        pipe.hgetall(self.key(match_id, "analysing"))
        raw, progress = pipe.execute()
        return (json.loads(raw) if raw else None), progress

    def analysis_progress(self, match_id: str, seq: int, done: int, total: int, ttl: int = 120) -> None:
        """A running analysis of the log up to ``seq``: ``done`` of ``total``
        positions decided. Expires unless refreshed (a job that died)."""
        key = self.key(match_id, "analysing")
        pipe = self.r.pipeline(transaction=False)
        pipe.hset(key, mapping={"seq": seq, "done": done, "total": total})
        pipe.expire(key, ttl)
        pipe.execute()

    def analysis_finished(self, match_id: str) -> None:
        self.r.delete(self.key(match_id, "analysing"))

    # -- work owed to the workers --------------------------------------------
    # An append marks its match owed a validation (``owe``); only the append
    # that finds it not owed queues a job, and the job un-marks the match
    # (``take_owed``) before it reads the log. An append that finds the mark
    # came before a job's take_owed, so that job reads it: no window of time
    # is trusted, whatever delay the queue applies.
    def owed_key(self, work: str) -> str:
        return f"{self.index_key}:owed:{work}"

    def owe(self, work: str, stream_id: str, now: float) -> bool:
        """Mark ``work`` owed on the stream; True if it was not owed already
        (then the caller must queue a job for it)."""
        return bool(self.r.zadd(self.owed_key(work), {stream_id: now}, nx=True))

    def take_owed(self, work: str, stream_id: str) -> None:
        """A job is about to read the log: what is appended after this is owed anew."""
        self.r.zrem(self.owed_key(work), stream_id)

    def overdue(self, work: str, marked_before: float, limit: int = 1000) -> list[str]:
        """Streams owed ``work`` since before ``marked_before`` (a lost job)."""
        return self.r.zrangebyscore(self.owed_key(work), "-inf", marked_before, start=0, num=limit)

    def still_owed(self, work: str, stream_ids: list[str]) -> list[str]:
        """Those of ``stream_ids`` marked owed ``work`` now, in their order."""
        if not stream_ids:
            return []
        scores = self.r.zmscore(self.owed_key(work), stream_ids)
        return [i for i, score in zip(stream_ids, scores) if score is not None]

    def oldest_owed(self, work: str) -> tuple[str, float] | None:
        """The stream owed ``work`` the longest, with the time it was marked."""
        first = self.r.zrange(self.owed_key(work), 0, 0, withscores=True)
        return (first[0][0], float(first[0][1])) if first else None

    def reowe(self, work: str, stream_ids: list[str], now: float) -> None:
        """Restart the clock of streams still owed ``work`` (a job was queued again)."""
        if stream_ids:
            self.r.zadd(self.owed_key(work), {i: now for i in stream_ids}, xx=True)

    # -- human annotations --------------------------------------------------
    def add_note(self, match_id: str, note: dict[str, Any]) -> str:
        return self.r.xadd(self.key(match_id, "notes"), {"note": canonical(note)})

    def notes(self, match_id: str) -> list[dict[str, Any]]:
        out = []
        for entry_id, fields in self.r.xrange(self.key(match_id, "notes")):
            out.append({"id": entry_id, **json.loads(fields["note"])})
        return out
