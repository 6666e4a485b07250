"""Check a stream's events against their hash chain and commitments.

One checker (``ChainCheck``) serves the audit of a stream in Redis
(``check_chain``), the offline check of a league archive
(``leagues.archive``) and anyone checking the log a view shows them, and one
wording of what a break means (``break_text``) serves the audit's reason and
the archive check's problem alike. It trusts
nothing but the hashes: seqs run 1, 2, 3 … without a gap, each event points at
its predecessor's hash, each event's hash is the hash of its committed fields
and, where the salt is there, its commitment is the commitment to its data
(``replays.hashing``). A log keeps the scheme of its seq 1. The audit also
checks that each stored text is the canonical form of its envelope and that
the last event is the last one the stream ever held. An edited, removed or
reordered entry is reported with the first seq where the chain breaks. Undo
events are ordinary events here.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Iterable

from .hashing import COMMITMENTS, GENESIS, LEGACY, STORED_FIELDS, canonical, commitment, event_hash, scheme_of
from .compact import CorruptBlock
from .store import EventStore, decode_entry

_SALT = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class ChainBreak:
    """Where and how a chain breaks. ``kind``: ``seq`` (an event removed,
    added or moved), ``link`` (not pointing at its predecessor), ``content``
    (the hash or the commitment does not match: edited), ``scheme`` (a log
    mixing schemes), ``unsalted`` (a whole event of a log with commitments
    without its salt), ``malformed`` (not an event; ``detail`` says why)."""

    seq: int
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class ChainHead:
    """An event a check continues after: its seq and hash, and the log's
    scheme. Every event up to it was checked before, and its hash, which
    the next event must point at, pins them all."""

    seq: int
    hash: str
    scheme: str | None


class ChainCheck:
    """Feed a stream's events in order to ``step``; the first break is
    returned (what follows it cannot be trusted, so stop there). ``after``:
    the events fed continue a log checked up to that event.

    ``complete``: every event must carry exactly its scheme's stored fields,
    salt included (a stored log, an archive); otherwise an event without its
    salt (a redacted one, as a view shows it) has its hash checked and its
    data left unchecked, and keys a view adds (``redacted``) are allowed.
    """

    def __init__(self, complete: bool = True, after: ChainHead | None = None) -> None:
        self.complete = complete
        self.prev = GENESIS if after is None else after.hash
        self.seq = 0 if after is None else after.seq
        self.scheme: str | None = None if after is None else after.scheme
        #: events whose data was checked against their commitment (or, in the legacy scheme, their hash)
        self.data_checked = 0

    @property
    def head(self) -> str | None:
        return self.prev if self.seq else None

    def step(self, event: Any, text: str | None = None) -> ChainBreak | None:
        """``text``: the stored text of the envelope, checked to be its canonical form."""
        expected = self.seq + 1
        try:
            if type(event["seq"]) is not int or event["seq"] != expected:
                return ChainBreak(expected, "seq", f"found seq {event['seq']}")
            if event["prev_hash"] != self.prev:
                return ChainBreak(expected, "link")
            scheme = scheme_of(event)
            if self.scheme is None:
                self.scheme = scheme
            elif scheme != self.scheme:
                return ChainBreak(expected, "scheme", f"seq {expected} is sealed with the {scheme} scheme, "
                                                      f"seq 1 with the {self.scheme} scheme")
            problem = self._content(event, scheme, text)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            return ChainBreak(expected, "malformed", f"{type(exc).__name__}: {exc}")
        if problem is not None:
            return problem if isinstance(problem, ChainBreak) else ChainBreak(expected, "content", problem)
        self.prev = event["hash"]
        self.seq = expected
        return None

    def _content(self, event: dict[str, Any], scheme: str, text: str | None) -> str | ChainBreak | None:
        keys = set(event) - {"hash"}
        wanted = STORED_FIELDS[scheme]
        has_salt = "salt" in event
        if self.complete or text is not None:
            if scheme == COMMITMENTS and keys == wanted - {"salt"}:
                return ChainBreak(event["seq"], "unsalted")
            if keys != wanted:
                odd = sorted(keys ^ wanted)
                return ChainBreak(event["seq"], "malformed", f"fields {', '.join(odd)} missing or unexpected")
        elif not (wanted - {"salt", "data"}) <= keys or "data" not in keys:
            return ChainBreak(event["seq"], "malformed", f"fields {', '.join(sorted(wanted - keys))} missing")
        if not isinstance(event["hash"], str) or event_hash(event) != event["hash"]:
            return "the hash does not match the committed fields"
        if text is not None:
            if canonical({k: event[k] for k in wanted}) != text:
                return "the stored text is not the canonical form of its envelope"
            if scheme == LEGACY and hashlib.sha256(text.encode("utf-8")).hexdigest() != event["hash"]:
                return "the stored text does not hash to the stored hash"
        if scheme == COMMITMENTS:
            if has_salt:
                salt = event["salt"]
                if not isinstance(salt, str) or not _SALT.fullmatch(salt):
                    return ChainBreak(event["seq"], "malformed", "its salt is not 64 lowercase hex digits")
                if not isinstance(event["commitment"], str) or commitment(salt, event["data"]) != event["commitment"]:
                    return "the commitment does not match the data and salt"
                self.data_checked += 1
        else:
            self.data_checked += 1
        return None


@dataclass
class AuditReport:
    valid: bool
    length: int
    head: str | None
    first_invalid_seq: int | None
    reason: str | None = None
    #: the log's scheme (``commitments`` or ``legacy``; None for an empty or unreadable log)
    scheme: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "length": self.length,
            "head": self.head,
            "first_invalid_seq": self.first_invalid_seq,
            "reason": self.reason,
            "scheme": self.scheme,
        }


#: what a chain break means, after where it is: ``seq N`` in the audit's
#: reason, ``<league or match> ID seq N`` in the archive check's problem
BREAKS = {
    "seq": "expected seq {n} here ({detail}): an event was removed, added or moved",
    "link": "does not point at seq {p}'s hash: the log was reordered or cut",
    "content": "its hash does not match its content: the event was edited ({detail})",
    "scheme": "{detail}: a log does not mix them",
    "unsalted": "has no salt: its data cannot be checked against its commitment",
    "malformed": "is not a well-formed event ({detail})",
}


def break_text(brk: ChainBreak) -> str:
    """A break in words (see ``BREAKS``)."""
    return BREAKS[brk.kind].format(n=brk.seq, p=brk.seq - 1, detail=brk.detail)


def check_chain(
    entries: Iterable[tuple[str, dict[str, str]]],
    last_generated: int | None = None,
    after: ChainHead | None = None,
) -> AuditReport:
    """``last_generated`` is the highest seq the stream ever held (Redis keeps
    a stream's last-generated id when entries are deleted), so removing the
    newest entries is caught too. ``after``: the entries continue a log
    checked up to that event (the report is the one the whole log would
    get, if the events up to it are still those that were checked)."""
    check = ChainCheck(complete=True, after=after)

    def broken(seq: int, reason: str) -> AuditReport:
        return AuditReport(False, check.seq, check.prev, seq, reason, check.scheme)

    for entry_id, fields in entries:
        expected = check.seq + 1
        try:
            event = decode_entry(fields)
        except (KeyError, TypeError, ValueError) as exc:
            return broken(expected, f"seq {expected}: entry {entry_id} is unreadable ({exc})")
        seq = event.get("seq") if isinstance(event, dict) else None
        if seq != expected or entry_id != f"{seq}-0":
            return broken(expected, f"seq {expected}: " + break_text(ChainBreak(expected, "seq", f"found entry {entry_id} with seq {seq}")))
        brk = check.step(event, fields["event"])
        if brk is not None:
            return broken(brk.seq, f"seq {brk.seq}: {break_text(brk)}")
    if last_generated is not None and check.seq < last_generated:
        reason = f"the stream held seq {last_generated} but now ends at seq {check.seq}"
        return AuditReport(False, check.seq, check.head, check.seq + 1, reason, check.scheme)
    return AuditReport(True, check.seq, check.head, None, None, check.scheme)


def audit_match(store: EventStore, match_id: str) -> AuditReport:
    """The audit of a match's stored log (a compacted one read back first:
    a block that does not read back is reported, from seq 1)."""
    try:
        return check_chain(store.entries(match_id), store.last_generated_seq(match_id))
    except CorruptBlock as exc:
        return AuditReport(False, 0, None, 1, f"seq 1: {exc.message}", None)
