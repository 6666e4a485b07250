"""A finished match's log as one compressed block (``P:{m:ID}:packed``).

Once the verdict of a finished match is final, the worker replaces its stream
by one Redis string (``EventStore.compact``): a header in plain text that the
append scripts read, then one zstandard frame (with its content checksum)::

    K1 <n> <hash of seq n>\\n<zstd frame>

The frame holds only what cannot be derived: a letter for the scheme (``c``:
commitments, ``l``: legacy), for a log with commitments the 32 random bytes
of each event's salt (raw, not hex), then one JSON object of columns, per
event its ``type``, ``seat``, ``recorded_at``
(milliseconds since the previous event's, or the text itself where that
would not give the same text back), ``recorded_by`` and ``data``. Everything
else is computed again on reading, exactly as ``replays.hashing.seal``
computed it: ``seq`` (1 … n), each ``commitment`` (SHA-256 of the salt and
the canonical data), each ``hash`` (of the committed fields), each
``prev_hash`` (the hash before it), and the stored text (the canonical JSON of
the envelope). So every entry reads back with the same id, fields, field order
and bytes as the stream held, and the block checks itself: the hash computed
for seq n must be the header's, and that hash depends on every byte of every
event before it. A block that does not decompress, parse, or reach that hash
is ``CorruptBlock`` (409 ``corrupt_log``): never served.

``pack`` refuses (``NotCompactable``) a log it could not give back byte for
byte: a stored text that is not the canonical form of its envelope, a hash
that is not the hash of its fields, a broken chain, a log mixing schemes.
Those stay streams, where the audit shows them.
"""

from __future__ import annotations

import calendar
import hashlib
import re
import time
from typing import Any

import orjson
import zstandard

from engine.core import KroniekError

from .hashing import COMMITTED_FIELDS, COMMITMENTS, GENESIS, LEGACY, LEGACY_FIELDS, STORED_FIELDS, _commit, canonical

#: the format of the header (and so of what follows it)
MAGIC = b"K1"
#: zstandard's level: compaction runs once per match, in the worker
LEVEL = 19
#: the longest header: magic, a seq of up to 20 digits, a hash, spaces and the newline
HEADER_MAX = 2 + 1 + 20 + 1 + 64 + 1
_HEADER = re.compile(rb"K1 ([0-9]{1,20}) ([0-9a-f]{64})\n")
_SALT = 32
#: the body's first byte: the scheme (with commitments, n salts of 32 bytes follow)
_SCHEMES = {COMMITMENTS: b"c", LEGACY: b"l"}
_FROM_LETTER = {letter: scheme for scheme, letter in _SCHEMES.items()}
_STAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")
_sha256 = hashlib.sha256
_dumps = orjson.dumps


class CorruptBlock(KroniekError):
    """A compacted log that does not read back as what was written."""

    code = "corrupt_log"
    status = 409


class NotCompactable(ValueError):
    """A log ``pack`` could not give back byte for byte (it stays a stream)."""


def _ms(stamp: str) -> int | None:
    """``2026-11-21T20:31:07.412Z`` as milliseconds since the epoch, if the
    milliseconds give that very text back (``_stamp``); else None."""
    if type(stamp) is not str or not _STAMP.fullmatch(stamp):
        return None
    try:
        ms = calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")) * 1000 + int(stamp[20:23])
    except ValueError:
        return None
    return ms if _stamp(ms) == stamp else None


def _stamp(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def _rebuild(scheme: str, salts: bytes, columns: dict[str, list[Any]], n: int) -> list[tuple[str, dict[str, str]]]:
    """The stream entries (id, fields) the columns and salts stand for."""
    types, seats, stamps, by, data = (columns[k] for k in ("type", "seat", "at", "by", "data"))
    if not all(len(col) == n for col in (types, seats, stamps, by, data)):
        raise ValueError("columns of different lengths")
    out: list[tuple[str, dict[str, str]]] = []
    prev, clock = GENESIS, 0
    for i in range(n):
        at = stamps[i]
        if type(at) is int:
            clock += at
            at = _stamp(clock)
        envelope: dict[str, Any] = {"seq": i + 1, "type": types[i], "seat": seats[i], "recorded_at": at,
                                    "recorded_by": by[i], "prev_hash": prev, "data": data[i]}
        if scheme == COMMITMENTS:
            salt = salts[i * _SALT:(i + 1) * _SALT]
            envelope["commitment"] = _commit(salt, data[i])
            envelope["salt"] = salt.hex()
            fields = COMMITTED_FIELDS
        else:
            fields = LEGACY_FIELDS
        digest = _sha256(canonical({k: envelope[k] for k in fields}).encode("utf-8")).hexdigest()
        out.append((f"{i + 1}-0", {"event": canonical(envelope), "hash": digest}))
        prev = digest
    return out


def pack(entries: list[tuple[str, dict[str, str]]]) -> bytes:
    """The block of a whole log (its stream entries, seq 1 … n, in order).
    Raises NotCompactable unless the block reads back as exactly these entries."""
    if not entries:
        raise NotCompactable("an empty log")
    salts: list[bytes] = []
    columns: dict[str, list[Any]] = {"type": [], "seat": [], "at": [], "by": [], "data": []}
    scheme: str | None = None
    clock = 0
    for number, (entry_id, fields) in enumerate(entries, start=1):
        try:
            envelope = orjson.loads(fields["event"])
            kind = COMMITMENTS if "commitment" in envelope else LEGACY
        except (KeyError, TypeError, ValueError) as exc:
            raise NotCompactable(f"seq {number}: unreadable ({exc})") from None
        if entry_id != f"{number}-0" or list(fields) != ["event", "hash"]:
            raise NotCompactable(f"seq {number}: entry {entry_id} with fields {', '.join(fields)}")
        if scheme is None:
            scheme = kind
        if kind != scheme or set(envelope) != STORED_FIELDS[scheme]:
            raise NotCompactable(f"seq {number}: not an envelope of the log's {scheme} scheme")
        if kind == COMMITMENTS:
            salt = envelope["salt"]
            try:
                salts.append(bytes.fromhex(salt) if type(salt) is str and len(salt) == 2 * _SALT else b"")
            except ValueError:
                salts.append(b"")
            if len(salts[-1]) != _SALT:
                raise NotCompactable(f"seq {number}: its salt is not 32 bytes in hex")
        ms = _ms(envelope["recorded_at"])
        columns["at"].append(envelope["recorded_at"] if ms is None else ms - clock)
        if ms is not None:
            clock = ms
        columns["type"].append(envelope["type"])
        columns["seat"].append(envelope["seat"])
        columns["by"].append(envelope["recorded_by"])
        columns["data"].append(envelope["data"])
    assert scheme is not None
    body = _SCHEMES[scheme] + b"".join(salts) + _dumps(columns)
    frame = zstandard.ZstdCompressor(level=LEVEL, write_checksum=True).compress(body)
    last = entries[-1][1]["hash"]
    if type(last) is not str or not re.fullmatch(r"[0-9a-f]{64}", last):
        raise NotCompactable(f"seq {len(entries)}: its hash is not 64 lowercase hex digits")
    block = MAGIC + f" {len(entries)} {last}\n".encode("ascii") + frame
    try:
        again = unpack(block)
    except CorruptBlock as exc:
        raise NotCompactable(f"the log does not read back: {exc.message}") from None
    for (entry_id, fields), (got_id, got) in zip(entries, again):
        if (entry_id, list(fields.items())) != (got_id, list(got.items())):
            raise NotCompactable(f"seq {entry_id.split('-')[0]} would not read back byte for byte (a stored text "
                                 "not canonical, or a hash or prev_hash not the one its event has)")
    return block


def header(block: bytes) -> tuple[int, str] | None:
    """The seq and hash of a block's last event, from its header (None: unreadable)."""
    found = _HEADER.match(block[:HEADER_MAX])
    return (int(found[1]), found[2].decode("ascii")) if found else None


def unpack(block: bytes) -> list[tuple[str, dict[str, str]]]:
    """The stream entries of a block, checked (``CorruptBlock`` if it does
    not read back to its header's hash)."""
    found = _HEADER.match(block[:HEADER_MAX])
    if found is None:
        raise CorruptBlock("the compacted log has an unreadable header")
    n, last = int(found[1]), found[2].decode("ascii")
    try:
        body = zstandard.ZstdDecompressor().decompress(block[found.end():])
        scheme = _FROM_LETTER[body[:1]]
        offset = 1 + (n * _SALT if scheme == COMMITMENTS else 0)
        salts, columns = body[1:offset], orjson.loads(body[offset:])
        if len(salts) != offset - 1 or not isinstance(columns, dict):
            raise ValueError("a body of another shape")
        entries = _rebuild(scheme, salts, columns, n)
    except (zstandard.ZstdError, ValueError, KeyError, TypeError) as exc:
        raise CorruptBlock(f"the compacted log does not read back ({type(exc).__name__}: {exc})") from None
    if not entries or entries[-1][1]["hash"] != last:
        raise CorruptBlock(f"the compacted log does not read back to the hash of seq {n} it was written with")
    return entries
