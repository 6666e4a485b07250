"""Check a match's stream against its hash chain.

The audit trusts nothing but the hashes: it recomputes every event's hash,
checks that each event points at its predecessor's hash and that seqs run
1, 2, 3 … without a gap, and that the last event is the head the match
advertises. An edited, removed or reordered entry is reported with the first
seq where the chain breaks. Undo events are ordinary events here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterable

from .hashing import GENESIS, event_hash
from .store import EventStore, decode_entry


@dataclass
class AuditReport:
    valid: bool
    length: int
    head: str | None
    first_invalid_seq: int | None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "length": self.length,
            "head": self.head,
            "first_invalid_seq": self.first_invalid_seq,
            "reason": self.reason,
        }


def check_chain(
    entries: Iterable[tuple[str, dict[str, str]]],
    last_generated: int | None = None,
) -> AuditReport:
    """``last_generated`` is the highest seq the stream ever held (Redis keeps
    a stream's last-generated id when entries are deleted), so removing the
    newest entries is caught too."""
    prev_hash = GENESIS
    seq = 0
    for entry_id, fields in entries:
        expected_seq = seq + 1
        try:
            event = decode_entry(fields)
        except (KeyError, ValueError) as exc:
            return AuditReport(False, seq, prev_hash, expected_seq, f"entry {entry_id} is unreadable: {exc}")
        if event["seq"] != expected_seq or entry_id != f"{event['seq']}-0":
            return AuditReport(
                False, seq, prev_hash, expected_seq,
                f"expected seq {expected_seq} next, found entry {entry_id} with seq {event['seq']}",
            )
        if event["prev_hash"] != prev_hash:
            return AuditReport(False, seq, prev_hash, expected_seq, f"seq {expected_seq} does not point at seq {seq}'s hash")
        if event_hash(event) != event["hash"] or hashlib.sha256(fields["event"].encode()).hexdigest() != event["hash"]:
            return AuditReport(False, seq, prev_hash, expected_seq, f"seq {expected_seq} was changed after it was recorded")
        prev_hash = event["hash"]
        seq = expected_seq
    head = prev_hash if seq else None
    if last_generated is not None and seq < last_generated:
        return AuditReport(
            False, seq, head, seq + 1, f"the stream held seq {last_generated} but now ends at seq {seq}"
        )
    return AuditReport(True, seq, head, None)


def audit_match(store: EventStore, match_id: str) -> AuditReport:
    return check_chain(store.entries(match_id), store.last_generated_seq(match_id))
