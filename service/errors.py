"""Errors of the service layer; each becomes a JSON 4xx answer."""

from __future__ import annotations

from typing import Any

from engine.core import KroniekError
from engine.text import ENGLISH, Catalog


def error_body(exc: KroniekError, catalog: Catalog = ENGLISH) -> dict[str, Any]:
    """What an answer says of an error: its code, message and details, and
    the text of the rule it names (``rule_text``), in ``catalog``'s language."""
    from engine.match import rule_text

    body = exc.to_dict(catalog)
    rule = body.get("rule")
    if rule:
        text = rule_text(rule)
        if text:
            body["rule_text"] = catalog.gettext(text)
    return body


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


class StoreWentBack(SeqConflict):
    """The store's head is behind (or beside) the head this process had seen:
    Redis lost its last writes (restarted from an older append-only file).
    The move was made against events the store no longer holds, so nothing
    is written, whether or not the client sent ``expected_seq``: the client
    reads the match again (``current_seq``) and decides."""

    def __init__(self, expected_seq: int | None, current_seq: int, known_seq: int) -> None:
        KroniekError.__init__(
            self,
            f"the store went back: this server had seen the match at seq {known_seq}, it now holds seq "
            f"{current_seq} (events after that were lost); nothing was written, read the match again",
            expected_seq=expected_seq,
            current_seq=current_seq,
            known_seq=known_seq,
        )


class Busy(KroniekError):
    """Too many writers changed the same match, league or accounts at once (or
    a fresh id collided): nothing was written, and the same request may be
    sent again."""

    code = "busy"
    status = 409


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


class MalformedRequest(KroniekError):
    """A value the OpenAPI document refuses, checked by the view itself rather
    than its schema (a header the view reads): the answer the schema would give."""

    code = "malformed_request"
    status = 400


class Unauthorized(KroniekError):
    """No token, or one that is not (or no longer) valid."""

    code = "unauthorized"
    status = 401


class Forbidden(KroniekError):
    """A valid token whose user lacks the role this write (or view) needs."""

    code = "forbidden"
    status = 403


class CrossSite(Forbidden):
    """A write the session cookie carried from another site's page (or with no sign of its origin)."""

    code = "cross_site"


class LimitExceeded(KroniekError):
    """A value past one of the API's limits (``service.limits``): ``field``
    is its JSON path (``data.cards[2]``) or the query or path parameter,
    ``location`` says which (body, query, path, header), ``limit`` the bound."""

    code = "limit_exceeded"
    status = 400

    def __init__(self, message: str, field: str, limit: int | str, location: str = "body") -> None:
        super().__init__(message, field=field, location=location, limit=limit)


class InvalidValue(LimitExceeded):
    """A value no endpoint takes: a number with a fraction or an exponent, NaN
    or Infinity, text that is not valid Unicode; ``limit`` names what is taken."""

    code = "invalid_value"


class MalformedJson(LimitExceeded):
    """The body is not JSON text in UTF-8 (or names a member twice)."""

    code = "malformed_json"


class NoSuchPath(LimitExceeded):
    """A path value past the limits (a 1,001-character id, round 10^20): it
    can name nothing that exists, so the answer is a 404 that says why."""

    code = "not_found"
    status = 404


class PayloadTooLarge(LimitExceeded):
    code = "payload_too_large"
    status = 413


class UnsupportedMediaType(LimitExceeded):
    """A body that is not sent as ``Content-Type: application/json``."""

    code = "unsupported_media_type"
    status = 415
