"""Recorded matches: the Redis event store, its hash chain and the audit."""

from .audit import AuditReport, ChainBreak, ChainCheck, ChainHead, audit_match, check_chain
from .hashing import GENESIS, canonical, commitment, event_hash, seal
from .store import AppendOutcome, EventStore

__all__ = [
    "AppendOutcome",
    "AuditReport",
    "ChainBreak",
    "ChainCheck",
    "ChainHead",
    "EventStore",
    "GENESIS",
    "audit_match",
    "canonical",
    "check_chain",
    "commitment",
    "event_hash",
    "seal",
]
