"""When Redis is away: every request that needs it answers 503
``store_unavailable`` with ``Retry-After``, and nothing half-written is
reported as failed.

redis-py reconnects by itself on the next command once the server is back, so
the service needs no restart; ``GET /api/health`` says when it is.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

import redis.exceptions as rex
from flask import jsonify

log = logging.getLogger("kroniek.outage")

#: Errors that mean "the store (or the queue's Redis) cannot answer now", not
#: "the request is wrong": the connection is refused, lost or timed out, the
#: server is still loading its append-only file (BusyLoadingError is a
#: ConnectionError), or a Redis Cluster has no master for a slot.
STORE_ERRORS: tuple[type[BaseException], ...] = (
    rex.ConnectionError,
    rex.TimeoutError,
    rex.ClusterDownError,
    rex.TryAgainError,
)

#: seconds a client should wait before it tries again
RETRY_AFTER = 5


def unavailable_body(exc: BaseException | None = None) -> dict[str, Any]:
    reason = "the store (Redis) is unavailable"
    written = "nothing was written by this request unless its answer said so"
    if isinstance(exc, rex.BusyLoadingError):
        reason = "the store (Redis) is still loading its data"
    elif isinstance(exc, rex.TimeoutError):
        # Redis took the request and did not answer in time (it hangs): it may still carry it out when it wakes
        reason = "the store (Redis) is unavailable: it did not answer in time"
        written = "a write this request sent may still be made, whole, when it answers again"
    return {
        "error": {
            "code": "store_unavailable",
            "message": f"{reason}; {written}. "
            f"Try again in {RETRY_AFTER} s (an append with the same Idempotency-Key is safe to retry)",
        }
    }


def store_unavailable(exc: BaseException):
    """The Flask error handler for :data:`STORE_ERRORS`."""
    log.warning("store unavailable: %s: %s", type(exc).__name__, exc)
    return jsonify(unavailable_body(exc)), 503, {"Retry-After": str(RETRY_AFTER)}


def best_effort(what: str, fn: Callable[..., None]) -> Callable[..., None]:
    """``fn`` for a step that follows a write which already succeeded (queueing
    a job, adding a transparency-log leaf): if Redis fails it, the write still
    stands and the request still answers success. The step is logged; the
    worker's sweep makes it good (it queues a validation for every match whose
    verdict is behind its head, recomputes stale ratings and adds missing
    transparency-log heads)."""

    def call(*args: Any) -> None:
        try:
            fn(*args)
        except STORE_ERRORS as exc:
            log.warning("%s %s failed (%s: %s); the worker's sweep will make it good", what, args, type(exc).__name__, exc)

    return call
