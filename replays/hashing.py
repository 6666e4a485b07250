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

GENESIS = "0" * 64
ENVELOPE_FIELDS = ("seq", "type", "seat", "data", "recorded_at", "recorded_by", "prev_hash")


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(envelope: dict[str, Any]) -> str:
    body = {k: envelope[k] for k in ENVELOPE_FIELDS}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def seal(
    seq: int,
    type: str,
    seat: int | None,
    data: dict[str, Any],
    recorded_at: str,
    recorded_by: str,
    prev_hash: str,
) -> dict[str, Any]:
    """A complete envelope, hash included."""
    envelope = {
        "seq": seq,
        "type": type,
        "seat": seat,
        "data": data,
        "recorded_at": recorded_at,
        "recorded_by": recorded_by,
        "prev_hash": prev_hash,
    }
    envelope["hash"] = event_hash(envelope)
    return envelope
