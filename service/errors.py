"""Errors of the service layer; each becomes a JSON 4xx answer."""

from __future__ import annotations

from engine.core import KroniekError


class NotFound(KroniekError):
    code = "not_found"
    status = 404


class SeqConflict(KroniekError):
    code = "seq_conflict"
    status = 409

    def __init__(self, expected_seq: int, current_seq: int) -> None:
        super().__init__(
            f"expected_seq {expected_seq} is not the latest event; the match is at seq {current_seq}",
            expected_seq=expected_seq,
            current_seq=current_seq,
        )


class IdempotencyMismatch(KroniekError):
    code = "idempotency_key_reused"
    status = 422

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was already used for a different request")


class CorruptLog(KroniekError):
    """The stored log no longer replays: someone changed the stream."""

    code = "corrupt_log"
    status = 409


class BadRequest(KroniekError):
    code = "bad_request"
    status = 400


class Unauthorized(KroniekError):
    """No token, or one that is not (or no longer) valid."""

    code = "unauthorized"
    status = 401


class Forbidden(KroniekError):
    """A valid token whose user lacks the role this write (or view) needs."""

    code = "forbidden"
    status = 403
