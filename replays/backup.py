"""``kroniek backup FILE`` and ``kroniek restore FILE``: everything a Kroniek keeps in Redis, in one file,
and back.

The file is JSON lines: a ``header`` (format, version, the key prefix, when, the Redis it came from, the
signing key's public half), one ``keys`` record per group of keys, and a ``footer``. A group is every key of
one match or league (the keys of one hash tag, ``{m:<id>}``, ``{l:<id>}``: one slot on a Redis Cluster),
read in one MULTI (a consistent cut of that match, whatever is appended meanwhile), or one key of its own
(the accounts, the indexes, the transparency log, the data documents, the queues' bookkeeping). Each key is
kept as Redis's own ``DUMP`` of it and its time to live, so a restore writes back exactly the bytes it held:
every read, audit and proof answers as before.

The file holds itself together: each record carries the SHA-256 of the one before it (``prev``), the footer
counts them and is signed with the service's Ed25519 key (``replays.signing``). ``restore`` reads the whole
file and checks that chain and that signature (against the key you pin, else the one the header carries,
which it says) before it writes one key, and refuses a file that does not hold, with the reason; it writes
only into a Redis that holds no key of the prefix; then it audits every match and league it wrote.

Memory stays bounded: a group at a time is held (a match's keys), whatever the number of events.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import IO, Any, Callable, Iterator

FORMAT = "kroniek-backup"
VERSION = 1
#: what a ``keys`` record's group is named after: the hash tag of the keys of one match or league
KINDS = {"m": "match", "l": "league"}


class BackupRefused(Exception):
    """A backup file that does not hold (its chain, its signature, its form), or a target that is not empty."""


def _tag(key: str) -> str | None:
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1:end] if start >= 0 and end > start + 1 else None


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode() + b"\n"


def _digest(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def groups(r: Any, prefix: str, batch: int = 1000) -> Iterator[tuple[str | None, list[str]]]:
    """The keys of ``prefix``, a hash tag's keys together (sorted, so two backups of the same data match)."""
    keys = sorted(k.decode() if isinstance(k, bytes) else k for k in r.scan_iter(match=f"{prefix}:*", count=batch))
    # (names are text: Kroniek's keys are its prefix, an id and a part)
    tagged: dict[str, list[str]] = {}
    for key in keys:
        tag = _tag(key)
        if tag is None:
            yield None, [key]
        else:
            tagged.setdefault(tag, []).append(key)
    for tag in sorted(tagged):
        yield tag, tagged[tag]


def _raw(r: Any) -> Any:
    """A client to the same Redis that answers bytes (a DUMP is binary, and a client that decodes its
    answers cannot read one in a pipeline)."""
    import redis

    kwargs = getattr(getattr(r, "connection_pool", None), "connection_kwargs", None)
    if kwargs is None or not kwargs.get("decode_responses"):
        return r
    if isinstance(r, redis.Redis):
        pool = r.connection_pool
        return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                                **{**kwargs, "decode_responses": False}))
    raise BackupRefused("a backup needs a client that answers bytes")  # pragma: no cover


def _read_group(r: Any, keys: list[str]) -> list[dict[str, Any]]:
    """The keys' DUMPs and times to live, read in one MULTI: one cut of them all."""
    pipe = r.pipeline(transaction=True)
    for key in keys:
        pipe.dump(key)
        pipe.pttl(key)
    replies = pipe.execute()
    out = []
    for i, key in enumerate(keys):
        dumped, ttl = replies[2 * i], replies[2 * i + 1]
        if dumped is None:  # gone between the scan and the read (a key that expired, a job done)
            continue
        out.append({"key": key, "ttl_ms": ttl if ttl and ttl > 0 else 0, "dump": base64.b64encode(dumped).decode()})
    return out


#: what the footer's signature covers, besides the file's last hash: a message no tree head can be (they are
#: JSON objects), so the key that signs tree heads signs nothing a tree head could be mistaken for
SIGNED_AS = b"kroniek backup footer v1\n"


def _signed(footer: dict[str, Any]) -> bytes:
    """The bytes the footer's signature covers: all of the footer but the signature (its ``prev``, the hash of
    the file before it, covers the rest)."""
    return SIGNED_AS + _line({k: v for k, v in footer.items() if k != "signature"})


def _sign(key: Any, footer: dict[str, Any]) -> str:
    return base64.b64encode(key.sign(_signed(footer))).decode()


def _verifies(public_b64: str, footer: dict[str, Any], signature: str) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(base64.b64decode(public_b64)).verify(base64.b64decode(signature),
                                                                                _signed(footer))
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


def write_backup(r: Any, prefix: str, out: IO[bytes], signing_key: Any,
                 progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Write the backup of ``prefix`` to ``out``; the footer's figures."""
    from .hashing import utc_now
    from .signing import public_key_b64

    r = _raw(r)
    info = r.info("server")
    header = {"kind": "header", "format": FORMAT, "version": VERSION, "prefix": prefix, "created_at": utc_now(),
              "redis_version": info.get("redis_version"), "public_key": public_key_b64(signing_key), "prev": None}
    line = _line(header)
    out.write(line)
    prev, records, keys_written, groups_done = _digest(line), 1, 0, 0
    all_groups = list(groups(r, prefix))
    counted = {"match": 0, "league": 0}
    for tag, keys in all_groups:
        entries = _read_group(r, keys)
        if not entries:
            continue
        kind = KINDS.get(tag.split(":", 1)[0]) if tag else None
        if kind:
            counted[kind] += 1
        record = {"kind": "keys", "group": tag, "of": kind, "keys": entries, "prev": prev}
        line = _line(record)
        out.write(line)
        prev, records, keys_written = _digest(line), records + 1, keys_written + len(entries)
        groups_done += 1
        if progress is not None:
            progress(groups_done, len(all_groups))
    footer = {"kind": "footer", "records": records, "keys": keys_written, "matches": counted["match"],
              "leagues": counted["league"], "prev": prev}
    footer["signature"] = _sign(signing_key, footer)
    out.write(_line(footer))
    return footer


def read_backup(source: IO[bytes], public_key: str | None = None) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """Check the whole file (its chain, the footer's count and signature) and return its header and a reader
    of its ``keys`` records (which reads the file again). Raises ``BackupRefused`` with the reason."""
    source.seek(0)
    prev = None
    header = footer = None
    records = 0
    for n, line in enumerate(source, start=1):
        try:
            record = json.loads(line)
        except ValueError:
            raise BackupRefused(f"line {n}: not JSON") from None
        if record.get("prev") != prev:
            raise BackupRefused(f"line {n}: it does not follow the line before it (its hash chain is broken: "
                                "a line was changed, added, removed or moved)")
        kind = record.get("kind")
        if n == 1:
            if kind != "header" or record.get("format") != FORMAT:
                raise BackupRefused("line 1: not a Kroniek backup")
            if record.get("version") != VERSION:
                raise BackupRefused(f"a backup of version {record.get('version')}; this Kroniek reads {VERSION}")
            header = record
        elif kind == "footer":
            footer = record
            if records != record.get("records"):
                raise BackupRefused(f"the footer counts {record.get('records')} records, the file holds {records}")
        elif kind != "keys" or footer is not None:
            raise BackupRefused(f"line {n}: a {kind!r} record where a group of keys or the footer belongs")
        prev = _digest(line if line.endswith(b"\n") else line + b"\n")
        if kind != "footer":
            records += 1
    if header is None:
        raise BackupRefused("the file is empty")
    if footer is None:
        raise BackupRefused("the footer is missing: the file was cut short")
    key = public_key or header["public_key"]
    if not isinstance(footer.get("signature"), str) or not _verifies(key, footer, footer["signature"]):
        raise BackupRefused("the footer's signature does not verify" + (" with the given key" if public_key else ""))

    def keys() -> Iterator[dict[str, Any]]:
        source.seek(0)
        for line in source:
            record = json.loads(line)
            if record.get("kind") == "keys":
                yield record
    return {**header, "footer": footer}, keys()


def restore(r: Any, source: IO[bytes], public_key: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Check the file whole, then write its keys into ``r``, which must hold no key of its prefix."""
    header, records = read_backup(source, public_key)
    prefix = header["prefix"]
    if next(iter(r.scan_iter(match=f"{prefix}:*", count=1000)), None) is not None:
        raise BackupRefused(f"the target Redis holds keys of {prefix!r} already: restore writes into an empty one")
    done, total = 0, header["footer"]["records"] - 1
    matches, leagues = [], []
    for record in records:
        pipe = r.pipeline(transaction=record["group"] is not None)
        for entry in record["keys"]:
            pipe.restore(entry["key"], entry["ttl_ms"], base64.b64decode(entry["dump"]))
        pipe.execute()
        if record["of"] == "match":
            matches.append(record["group"].split(":", 1)[1])
        elif record["of"] == "league":
            leagues.append(record["group"].split(":", 1)[1])
        done += 1
        if progress is not None:
            progress(done, total)
    return {"prefix": prefix, "keys": header["footer"]["keys"], "matches": matches, "leagues": leagues,
            "public_key": header["public_key"], "pinned": public_key is not None}


def audit_restored(r: Any, prefix: str, matches: list[str], leagues: list[str]) -> list[str]:
    """Every match and league written back, audited as ``GET …/audit`` does: the problems found."""
    from . import EventStore, audit_match

    problems = []
    for kind, ids in (("m", matches), ("l", leagues)):
        store = EventStore(r, prefix, kind=kind)
        for stream_id in ids:
            report = audit_match(store, stream_id)
            if not report.valid:
                problems.append(f"{KINDS[kind]} {stream_id}: {report.reason}")
    return problems
