"""A transparency log of stream heads: one Merkle tree (RFC 6962, see
:mod:`replays.merkle`) over the heads of every match and league stream.

Why: a stream's hash chain shows an edit to anyone who reads the stream, but
a stream deleted and rewritten whole, hashes recomputed, passes every check
made inside Redis. The log commits to each head once, in an append-only list
whose Merkle root the service signs (:mod:`replays.signing`); a rewritten
stream then contradicts a leaf that a signed tree head already covers, and an
inclusion proof lets anyone check a head against a signed root with
O(log n) hashes.

Leaves. A leaf is the record ``{"kind": "m" | "l", "id": <stream id>,
"seq": <int>, "head": <64 hex: the hash of that seq's event>}``; its bytes are
the canonical JSON of the record (:func:`leaf_bytes`), its hash
``SHA-256(0x00 || bytes)``. Leaves are added for a match's final head once the
worker has validated the finished match, and for a league's head after every
append to the league.

Keys, all under one hash tag so the script may touch them together on a
Cluster (``P`` is the prefix):

- ``P:{log}:leaves``    list of the leaf records (canonical JSON), in order
- ``P:{log}:index``     hash ``kind:id:seq`` -> leaf index (idempotence)
- ``P:{log}:latest``    hash ``kind:id`` -> index of that stream's highest-seq leaf
- ``P:{log}:conflicts`` list of refused records: a second, different head for
                        a (kind, id, seq) already in the log (the stream was
                        rewritten); never written over the first

The tree itself is not stored: each process keeps a :class:`MerkleTree` over
the list and reads only the leaves added since it last looked, so a proof at
100,000 leaves costs O(log n) hashes once the cache is warm.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable
from typing import Any

import orjson
import redis
from redis.cluster import RedisCluster

from engine.core import KroniekError

from .hashing import canonical
from .merkle import MerkleTree, leaf_hash, proof_to_hex
from .store import StoreError, check_client

log = logging.getLogger(__name__)

KINDS = ("m", "l")
CHUNK = 10_000  # leaves read per LRANGE when the cache catches up
_HEX64 = re.compile(r"[0-9a-f]{64}")

#: KEYS: leaves, index, latest, conflicts. ARGV: the index field
#: (kind:id:seq), the record, the latest field (kind:id), the seq.
#: Returns {"new"|"dup"|"conflict", index, stored record or ""}.
ADD = """
local found = redis.call('HGET', KEYS[2], ARGV[1])
if found then
  local stored = redis.call('LINDEX', KEYS[1], tonumber(found))
  if stored == ARGV[2] then return {'dup', tonumber(found), ''} end
  redis.call('RPUSH', KEYS[4], ARGV[2])
  return {'conflict', tonumber(found), stored or ''}
end
local index = redis.call('RPUSH', KEYS[1], ARGV[2]) - 1
redis.call('HSET', KEYS[2], ARGV[1], index)
local latest = redis.call('HGET', KEYS[3], ARGV[3])
local replace = true
if latest then
  local current = redis.call('LINDEX', KEYS[1], tonumber(latest))
  if current and tonumber(cjson.decode(current)['seq']) > tonumber(ARGV[4]) then replace = false end
end
if replace then redis.call('HSET', KEYS[3], ARGV[3], index) end
return {'new', index, ''}
"""


class LogError(KroniekError):
    code = "transparency_log"
    status = 400


class OutOfRange(LogError):
    """A leaf index or tree size the log does not have (yet)."""

    code = "out_of_range"
    status = 400


class LeafConflict(LogError):
    """A second, different head offered for a (kind, id, seq) the log holds."""

    code = "leaf_conflict"
    status = 409


class NoSuchTree(OutOfRange):
    """A tree size the log has not reached: that tree does not exist (yet)."""

    status = 404


class LogCorrupt(LogError):
    """The stored leaves no longer match what this process has seen: the list
    shrank, or a leaf's text changed under its index."""

    code = "log_corrupt"
    status = 409


def make_record(kind: str, object_id: str, seq: int, head: str) -> dict[str, Any]:
    """A leaf record, checked: ValueError for a bad kind, id, seq or head."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    if not isinstance(object_id, str) or not object_id:
        raise ValueError("id must be a non-empty string")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise ValueError("seq must be an integer ≥ 1")
    if not isinstance(head, str) or not _HEX64.fullmatch(head):
        raise ValueError("head must be 64 lowercase hex digits")
    return {"kind": kind, "id": object_id, "seq": seq, "head": head}


def leaf_bytes(record: dict[str, Any]) -> bytes:
    """The bytes a leaf hashes: UTF-8 of the record's canonical JSON (sorted
    keys, no white space), e.g. ``{"head":"…","id":"ab12","kind":"m","seq":7}``."""
    return canonical(record).encode("utf-8")


def record_leaf_hash(record: dict[str, Any]) -> bytes:
    """``SHA-256(0x00 || leaf_bytes(record))``: what an offline verifier recomputes."""
    return leaf_hash(leaf_bytes(record))


class TransparencyLog:
    """The log on ``client`` (a text-mode client, ``decode_responses=True``,
    as the event store's) under key prefix ``prefix``."""

    def __init__(self, client: redis.Redis, prefix: str = "kroniek") -> None:
        check_client(client)  # a bytes client would read 'conflict' as something else
        self.r = client
        self.prefix = prefix
        self._add = client.register_script(ADD)
        self._tree = MerkleTree()
        self._lock = threading.Lock()

    # -- keys ----------------------------------------------------------------------
    def key(self, part: str) -> str:
        return f"{self.prefix}:{{log}}:{part}"

    def _keys(self) -> list[str]:
        return [self.key("leaves"), self.key("index"), self.key("latest"), self.key("conflicts")]

    @staticmethod
    def _args(record: dict[str, Any]) -> list[Any]:
        kind, object_id, seq = record["kind"], record["id"], record["seq"]
        return [f"{kind}:{object_id}:{seq}", canonical(record), f"{kind}:{object_id}", seq]

    # -- writing -------------------------------------------------------------------
    def add(self, kind: str, object_id: str, seq: int, head: str) -> int:
        """Add the head ``head`` of stream ``kind``/``object_id`` at ``seq``;
        returns the leaf's index. The same head again returns the first index
        and adds nothing; a different head for a (kind, id, seq) in the log is
        recorded under ``conflicts`` and refused (:class:`LeafConflict`)."""
        record = make_record(kind, object_id, seq, head)
        status, index, stored = self._add(keys=self._keys(), args=self._args(record))
        return self._outcome(record, status, int(index), stored)

    def add_many(self, records: Iterable[dict[str, Any]]) -> list[int]:
        """:meth:`add` for many records (dicts with kind, id, seq, head), in one
        pipeline per thousand (one call each on a Cluster); each is atomic on
        its own. Raises
        :class:`LeafConflict` for the first conflict, after all were tried."""
        return [index for _, index in self._add_records(records, raise_conflict=True)]

    def _add_records(self, records: Iterable[dict[str, Any]], raise_conflict: bool) -> list[tuple[str, int]]:
        checked = [make_record(r["kind"], r["id"], r["seq"], r["head"]) for r in records]
        out: list[tuple[str, int]] = []
        conflict: LeafConflict | None = None
        for i in range(0, len(checked), 1000):
            chunk = checked[i : i + 1000]
            if isinstance(self.r, RedisCluster):  # redis-py refuses scripts in a cluster pipeline
                replies = [self._add(keys=self._keys(), args=self._args(record)) for record in chunk]
            else:
                pipe = self.r.pipeline(transaction=False)
                for record in chunk:
                    self._add(keys=self._keys(), args=self._args(record), client=pipe)
                replies = pipe.execute()
            for record, (status, index, stored) in zip(chunk, replies):
                try:
                    self._outcome(record, status, int(index), stored)
                except LeafConflict as exc:
                    conflict = conflict or exc
                out.append((status, int(index)))
        if conflict is not None and raise_conflict:
            raise conflict
        return out

    def _outcome(self, record: dict[str, Any], status: str, index: int, stored: str) -> int:
        if status not in ("new", "dup", "conflict"):
            raise StoreError(f"unexpected answer from the transparency log's script: {status!r}")
        if status == "conflict":
            try:
                stored_head = orjson.loads(stored)["head"] if stored else None
            except (ValueError, KeyError, TypeError):
                stored_head = None
            log.error("transparency log: refused head %s for %s %s seq %s; leaf %d holds %s",
                      record["head"], record["kind"], record["id"], record["seq"], index, stored_head)
            raise LeafConflict(
                f"the log holds a different head for {record['kind']}:{record['id']} seq {record['seq']} "
                f"(leaf {index}): the stream was rewritten after its head was logged",
                leaf_index=index, logged_head=stored_head, offered_head=record["head"],
            )
        return index

    # -- reading -------------------------------------------------------------------
    def size(self) -> int:
        """How many leaves the log holds now."""
        return int(self.r.llen(self.key("leaves")))

    def record(self, index: int) -> dict[str, Any]:
        """The leaf record at ``index`` (:class:`OutOfRange` if there is none)."""
        raw = self.r.lindex(self.key("leaves"), index) if index >= 0 else None
        if raw is None:
            raise OutOfRange(f"no leaf {index}: the log has {self.size()} leaves")
        return orjson.loads(raw)

    def records(self, start: int = 0, limit: int = 100) -> list[tuple[int, dict[str, Any], str]]:
        """Leaves ``start`` … ``start + limit - 1``: (index, record, leaf hash hex)."""
        if start < 0 or limit < 1:
            return []
        raw = self.r.lrange(self.key("leaves"), start, start + limit - 1)
        return [(start + i, orjson.loads(text), leaf_hash(text.encode("utf-8")).hex()) for i, text in enumerate(raw)]

    def index_of(self, kind: str, object_id: str, seq: int | None = None) -> int | None:
        """The index of the stream's leaf at ``seq``, or of its highest-seq leaf
        (``seq`` None); None if the log has no such leaf."""
        if seq is None:
            found = self.r.hget(self.key("latest"), f"{kind}:{object_id}")
        else:
            found = self.r.hget(self.key("index"), f"{kind}:{object_id}:{seq}")
        return int(found) if found is not None else None

    def conflicts(self) -> list[dict[str, Any]]:
        """The records refused because the log held a different head."""
        return [orjson.loads(text) for text in self.r.lrange(self.key("conflicts"), 0, -1)]

    # -- the tree (a process-local cache of the list) ------------------------------
    def sync(self) -> int:
        """Bring this process's tree up to the list, reading only the leaves
        added since the last call; returns the tree's size."""
        with self._lock:
            return self._sync()

    def _sync(self) -> int:
        tree = self._tree
        have = tree.size
        total = self.size()
        if total < have:
            log.error("transparency log: %s holds %d leaves, this process has seen %d", self.key("leaves"), total, have)
            raise LogCorrupt(f"the log holds {total} leaves but {have} were seen before: it was truncated")
        while have < total:
            end = min(have + CHUNK, total) - 1
            chunk = self.r.lrange(self.key("leaves"), have, end)
            if not chunk:
                break
            for text in chunk:
                tree.append(leaf_hash(text.encode("utf-8")))
            have = tree.size
        return tree.size

    def _check_size(self, size: int | None, current: int) -> int:
        if size is None:
            return current
        if not isinstance(size, int) or size < 0:
            raise OutOfRange("a tree size is an integer ≥ 0")
        if size > current:
            raise NoSuchTree(f"no tree of size {size} (yet): the log has {current} leaves", tree_size=current)
        return size

    def tree_head(self, signing_key: Any, size: int | None = None) -> dict[str, Any]:
        """The signed tree head of the first ``size`` leaves (default: all),
        timestamped now (see :func:`replays.signing.sign_tree_head`)."""
        from .signing import sign_tree_head

        with self._lock:
            size = self._check_size(size, self._sync())
            root = self._tree.root(size).hex()
        return sign_tree_head(signing_key, size, root, int(time.time() * 1000))

    def root(self, size: int | None = None) -> str:
        """The root (hex) of the first ``size`` leaves (default: all)."""
        with self._lock:
            size = self._check_size(size, self._sync())
            return self._tree.root(size).hex()

    def inclusion(self, index: int, size: int | None = None) -> dict[str, Any]:
        """The RFC 6962 audit path of leaf ``index`` in the tree of the first
        ``size`` leaves (default: all), with the leaf record and its hash."""
        with self._lock:
            size = self._check_size(size, self._sync())
            if not isinstance(index, int) or not 0 <= index < size:
                raise OutOfRange(f"leaf {index} is not in the tree of size {size}", tree_size=size)
            cached = self._tree.leaf(index)
            path = self._tree.inclusion_proof(index, size)
        raw = self.r.lindex(self.key("leaves"), index)
        if raw is None or leaf_hash(raw.encode("utf-8")) != cached:
            log.error("transparency log: leaf %d changed in Redis after this process hashed it", index)
            raise LogCorrupt(f"leaf {index} in Redis no longer matches the hash this log committed to",
                             leaf_index=index)
        return {
            "leaf_index": index,
            "tree_size": size,
            "leaf": orjson.loads(raw),
            "leaf_hash": cached.hex(),
            "audit_path": proof_to_hex(path),
        }

    def consistency(self, first: int, second: int | None = None) -> dict[str, Any]:
        """The RFC 6962 proof that the tree of ``first`` leaves is a prefix of
        the tree of ``second`` (default: all), with both roots."""
        with self._lock:
            second = self._check_size(second, self._sync())
            if not isinstance(first, int) or not 0 <= first <= second:
                raise OutOfRange(f"first must be between 0 and second ({second})")
            return {
                "first": first,
                "second": second,
                "first_root": self._tree.root(first).hex(),
                "second_root": self._tree.root(second).hex(),
                "proof": proof_to_hex(self._tree.consistency_proof(first, second)),
            }

    # -- reconciliation --------------------------------------------------------------
    def sync_streams(self, match_store: Any, league_store: Any) -> int:
        """Make sure every league's current head, and the final head of every
        finished match whose verdict is valid for its whole log, is a leaf
        (run at worker start: covers an add lost to a crash). Idempotent;
        returns how many leaves it added. A head that conflicts with the log
        is recorded under ``conflicts`` and logged, not raised."""
        records: list[dict[str, Any]] = []
        for league_id in (i for page in league_store.id_pages() for i in page):
            head = league_store.head_seq(league_id)
            if head and _HEX64.fullmatch(head[1] or ""):
                records.append({"kind": "l", "id": league_id, "seq": head[0], "head": head[1]})
        for match_id in (i for page in match_store.id_pages() for i in page):
            head = match_store.head_seq(match_id)
            verdict = match_store.verdict(match_id)
            if not head or not verdict or verdict.get("status") != "valid" or verdict.get("seq") != head[0]:
                continue
            listing = match_store.head(match_id) or {}
            if listing.get("status") == "finished" and _HEX64.fullmatch(head[1] or ""):
                records.append({"kind": "m", "id": match_id, "seq": head[0], "head": head[1]})
        # a conflict is logged and recorded by _outcome; the other records are added
        return sum(status == "new" for status, _ in self._add_records(records, raise_conflict=False))
