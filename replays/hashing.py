"""The hash chain over a match's events.

Each event's ``hash`` is SHA-256 over the canonical encoding of its envelope
(everything but the hash itself, including ``prev_hash``), so changing,
removing or reordering any event breaks every hash after it.

Canonical encoding: JSON with keys sorted, no insignificant white space,
UTF-8, no floats (event data never holds floats) — for this data, identical to
RFC 8785 (JCS), so any language can check a chain.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

GENESIS = "0" * 64
ENVELOPE_FIELDS = ("seq", "type", "seat", "data", "recorded_at", "recorded_by", "prev_hash")


def canonical(obj: Any) -> str:
    """Canonical JSON text. orjson writes exactly what the standard library
    writes with these settings (a property test checks it), twenty times
    faster; the standard library covers what orjson refuses (integers past
    64 bits). Text that is not valid Unicode (a lone surrogate) raises
    ValueError: it has no UTF-8 encoding to hash."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode("utf-8")
    except orjson.JSONEncodeError:
        text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")  # raises UnicodeEncodeError (a ValueError) for lone surrogates
        return text


def event_hash(envelope: dict[str, Any]) -> str:
    return hashlib.sha256(canonical({k: envelope[k] for k in ENVELOPE_FIELDS}).encode("utf-8")).hexdigest()


def seal(
    seq: int,
    type: str,
    seat: int | None,
    data: dict[str, Any],
    recorded_at: str,
    recorded_by: str,
    prev_hash: str,
) -> dict[str, Any]:
    """A complete envelope, hash included. ``text`` is the canonical encoding
    the hash was computed over: the store keeps exactly that text, so the audit
    hashes the stored bytes themselves."""
    envelope = {
        "seq": seq,
        "type": type,
        "seat": seat,
        "data": data,
        "recorded_at": recorded_at,
        "recorded_by": recorded_by,
        "prev_hash": prev_hash,
    }
    text = canonical(envelope)
    envelope["hash"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    envelope["text"] = text
    return envelope


def public(envelope: dict[str, Any]) -> dict[str, Any]:
    """The envelope as the API shows it (without the stored text)."""
    return {k: envelope[k] for k in (*ENVELOPE_FIELDS, "hash")}
