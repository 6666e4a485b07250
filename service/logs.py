"""Logs as JSON lines, and one line per request with its request id.

Every process of the service (the API's gunicorn workers, the RQ workers) writes its log to stderr, one JSON
object a line (``time``, ``level``, ``logger``, ``message``, and the record's own fields), so a log shipper
reads fields, not prose. ``KRONIEK_LOG_FORMAT=text`` gives the old plain lines.

Each request gets an id: the caller's ``X-Request-Id`` when it is a sane one (1–64 letters, digits, ``.``,
``_``, ``-``), else a new random one. The answer echoes it in ``X-Request-Id`` and the request's log line
(``kroniek.request``) carries it, with the method, the route (its rule), the path, the status, the time taken
and who asked (a user's name, never a token). A path whose route holds a secret (an old sign-in link,
``/signin/<secret>``) is logged as its route: no secret is ever written to a log.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from typing import Any

from workers.logs import JsonFormatter, configure, direct

REQUEST_ID = "X-Request-Id"
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: the route variables that hold a secret: a path with one is logged as its route
SECRET_PARTS = ("secret",)

request_log = logging.getLogger("kroniek.request")
__all__ = ["JsonFormatter", "configure", "log_request", "request_id_of"]  # the format is the workers' too


def request_id_of(request: Any) -> str:
    """The request's id: the caller's, when sane, else a new one (kept on the request)."""
    rid = request.environ.get("kroniek.request_id")
    if rid is None:
        given = request.headers.get(REQUEST_ID, "")
        rid = given if _SANE_ID.fullmatch(given) else secrets.token_hex(8)
        request.environ["kroniek.request_id"] = rid
        request.environ.setdefault("kroniek.request_started", time.perf_counter())
    return rid


def logged_path(request: Any) -> str:
    rule = getattr(request, "url_rule", None)
    if rule is not None and any(part in rule.arguments for part in SECRET_PARTS):
        return rule.rule
    if rule is None and request.path.startswith("/signin/"):
        return "/signin/<secret>"
    return request.path


def log_request(request: Any, response: Any) -> Any:
    """The request's line, and its id on the answer."""
    rid = request_id_of(request)
    response.headers[REQUEST_ID] = rid
    started = request.environ.get("kroniek.request_started")
    rule = getattr(request, "url_rule", None)
    user = getattr(request, "kroniek_user", None)
    fields = {"request_id": rid, "method": request.method, "route": rule.rule if rule is not None else None,
              "path": logged_path(request), "status": response.status_code,
              "duration_ms": round((time.perf_counter() - started) * 1000, 2) if started is not None else None,
              "user": getattr(user, "name", None)}
    # every request writes this line: straight, one write, when the log is JSON on stderr (workers.logs.direct)
    if not direct({"logger": "kroniek.request", "message": "request", **fields}):
        request_log.info("request", extra=fields)
    return response
