"""Recorded matches: the Redis event store, its hash chain and the audit."""

from .audit import AuditReport, audit_match, check_chain
from .hashing import GENESIS, canonical, event_hash, seal
from .store import AppendOutcome, EventStore

__all__ = [
    "AppendOutcome",
    "AuditReport",
    "EventStore",
    "GENESIS",
    "audit_match",
    "canonical",
    "check_chain",
    "event_hash",
    "seal",
]
