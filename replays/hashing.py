"""The hash chain over a stream's events, and the commitments that keep
hidden data out of it.

Every event is sealed with a fresh 32-byte random ``salt`` and a
``commitment`` to its data::

    commitment = SHA-256(salt bytes || canonical(data) as UTF-8)   (hex)
    hash       = SHA-256(canonical({seq, type, seat, commitment,
                                    recorded_at, recorded_by, prev_hash}))

so the chain (each ``prev_hash`` the previous event's ``hash``) links
commitments, never data. A viewer who may not see an event's data gets it
without its salt: the commitment and the hash then tell nothing about the
data (a guess cannot be checked without the salt), yet the chain still checks.
A viewer shown the data gets the salt too and can check the commitment.

Logs sealed before commitments (the *legacy* scheme) hash the envelope with
its data in the clear: ``hash = SHA-256(canonical({seq, type, seat, data,
recorded_at, recorded_by, prev_hash}))``. An envelope without ``commitment``
is legacy; a log is the scheme of its seq 1 and never mixes them.

Canonical encoding: JSON with keys sorted, no insignificant white space,
UTF-8, no floats (event data never holds floats) — for this data, identical to
RFC 8785 (JCS), so any language can check a chain.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from typing import Any

import orjson

GENESIS = "0" * 64
#: the scheme of a log sealed with commitments, and of one sealed before them
COMMITMENTS = "commitments"
LEGACY = "legacy"
#: the fields the hash covers
COMMITTED_FIELDS = ("seq", "type", "seat", "commitment", "recorded_at", "recorded_by", "prev_hash")
LEGACY_FIELDS = ("seq", "type", "seat", "data", "recorded_at", "recorded_by", "prev_hash")
#: every field of a stored envelope (its text), per scheme
STORED_FIELDS = {
    COMMITMENTS: frozenset((*COMMITTED_FIELDS, "data", "salt")),
    LEGACY: frozenset(LEGACY_FIELDS),
}
SALT_BYTES = 32

_sha256 = hashlib.sha256
_urandom = os.urandom
_dumps = orjson.dumps
_SORT = orjson.OPT_SORT_KEYS


def canonical(obj: Any) -> str:
    """Canonical JSON text. orjson writes exactly what the standard library
    writes with these settings (a property test checks it), twenty times
    faster; the standard library covers what orjson refuses (integers past
    64 bits). Text that is not valid Unicode (a lone surrogate) raises
    ValueError: it has no UTF-8 encoding to hash."""
    try:
        return _dumps(obj, option=_SORT).decode("utf-8")
    except orjson.JSONEncodeError:
        text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")  # raises UnicodeEncodeError (a ValueError) for lone surrogates
        return text


def _canonical_bytes(obj: Any) -> bytes:
    """``canonical(obj)`` encoded as UTF-8, without orjson's bytes going to
    text and back (what a hash reads)."""
    try:
        return _dumps(obj, option=_SORT)
    except orjson.JSONEncodeError:
        return canonical(obj).encode("utf-8")


_second: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """ISO 8601 UTC with milliseconds, e.g. 2026-11-21T20:31:07.412Z: the
    ``recorded_at`` of an envelope, and every other time the service and the
    workers write."""
    global _second
    now = time.time()
    whole = int(now)
    if whole != _second[0]:
        _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return f"{_second[1]}.{int((now - whole) * 1000):03d}Z"


def scheme_of(envelope: dict[str, Any]) -> str:
    return COMMITMENTS if "commitment" in envelope else LEGACY


def commitment(salt: str, data: Any) -> str:
    """hex SHA-256(salt bytes || canonical(data) as UTF-8); ``salt`` is hex.
    Raises ValueError for a salt that is not hex."""
    return _commit(bytes.fromhex(salt), data)


def _commit(salt: bytes, data: Any) -> str:
    return _sha256(salt + _canonical_bytes(data)).hexdigest()


def event_hash(envelope: dict[str, Any]) -> str:
    """The hash of an envelope, by its scheme (see the module's text)."""
    fields = COMMITTED_FIELDS if "commitment" in envelope else LEGACY_FIELDS
    return _sha256(canonical({k: envelope[k] for k in fields}).encode("utf-8")).hexdigest()


def seal(
    seq: int,
    type: str,
    seat: int | None,
    data: dict[str, Any],
    recorded_at: str,
    recorded_by: str,
    prev_hash: str,
) -> dict[str, Any]:
    """A complete envelope with a fresh salt, its commitment and its hash.
    ``text`` is the canonical encoding of the whole envelope (data and salt
    included, hash not): the store keeps exactly that text, and the audit
    checks the stored bytes themselves. Per event: 32 bytes of ``os.urandom``
    (what ``secrets.token_bytes`` returns, without its two calls between),
    two SHA-256 and three canonical encodings. Raises ValueError for text
    that is not valid Unicode."""
    salt = _urandom(SALT_BYTES)
    envelope = {
        "seq": seq,
        "type": type,
        "seat": seat,
        "commitment": _commit(salt, data),
        "recorded_at": recorded_at,
        "recorded_by": recorded_by,
        "prev_hash": prev_hash,
    }
    digest = _sha256(_canonical_bytes(envelope)).hexdigest()
    envelope["data"] = data
    envelope["salt"] = salt.hex()
    envelope["text"] = canonical(envelope)
    envelope["hash"] = digest
    return envelope


def public(envelope: dict[str, Any]) -> dict[str, Any]:
    """The envelope as stored, with its hash (without the stored text): what
    the referee and the archive show."""
    return {k: v for k, v in envelope.items() if k != "text"}
