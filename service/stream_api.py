"""``GET /api/matches/<id>/stream``: a match's events as server-sent events.

Each event is the log entry exactly as ``GET /api/matches/<id>/events`` shows
it to the same viewer (the same ``MatchService.viewed`` filters both), with
``id:`` its seq, so a client that reconnects with ``Last-Event-ID`` gets what
it missed and nothing twice.

A stream holds one of gunicorn's connections (a greenlet) while it is open,
but no Redis connection while it waits: one reader per process blocks on
every watched log at once (``service.watch``). It is bounded: it stays open
``wait`` seconds (at most ``KRONIEK_STREAM_SECONDS``, default 30), then ends
after telling the client (``retry:``) to reconnect a second later.
Between events it waits for the match's Redis stream to grow (``XREAD
BLOCK``, by that reader), so an append reaches the watcher in about one round
trip, not a polling interval. The log is read and each event's view worked
out once per process for all the watchers of a match (``service.feed``), not
once per watcher: each gets the same bytes as the others of its view.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any, Callable, Iterator

from flask import Response, request, stream_with_context
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from . import schemas as S
from .api import _doc_errors, _doc_only, guard_view, service
from .errors import MalformedRequest
from .feed import frame, watching
from .gate import Blueprint
from .gunicorn_worker import stopping
from .matches import MatchService, check_viewer
from .watch import watcher_for

stream = Blueprint("stream", __name__, url_prefix="/api/matches", description="Recorded matches, live")
__all__ = ["frame", "stream"]  # frame: what a stream sends per event (service.feed makes them)

#: the longest a stream may stay open, whatever ``wait`` asks (seconds)
DEFAULT_MAX_SECONDS = 30
#: what the client is told to wait before it reconnects (ms)
RETRY_MS = 1000
#: a comment line this often keeps proxies from closing a quiet stream (seconds)
KEEPALIVE_SECONDS = 15
#: the longest one XREAD blocks (ms): the stream's end is checked this often
BLOCK_MS = 5000


def longest_block_ms(client: Any) -> int:
    """How long one XREAD may block on ``client``: at most half its socket
    timeout, since a read that outlives the timeout fails and cuts the stream
    off mid-response (redis-py 8 gives every connection a 5 s timeout unless
    told otherwise; an unknown one is taken as that)."""
    pool = getattr(client, "connection_pool", None) or getattr(client, "nodes_manager", None)
    kwargs = getattr(pool, "connection_kwargs", None) or {}
    timeout = kwargs["socket_timeout"] if "socket_timeout" in kwargs else kwargs.get("orig_socket_timeout", 5.0)
    if timeout is None:  # no timeout: a read may block as long as it likes
        return BLOCK_MS
    return max(1, min(BLOCK_MS, int(timeout * 500)))


def max_seconds() -> int:
    try:
        return max(0, int(os.environ.get("KRONIEK_STREAM_SECONDS", DEFAULT_MAX_SECONDS)))
    except ValueError:
        return DEFAULT_MAX_SECONDS


class StreamArgs(Schema):
    seat = S.SeatOrReferee(load_default=None, allow_none=True, metadata={
        "description": "the events as a seat sees them; 'referee' for all of them; 'public' or absent: the public view"})
    from_ = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=S.MAX_SEQ),
                           metadata={"description": "the first seq to send (a Last-Event-ID header overrides it)"})
    wait = fields.Integer(load_default=25, validate=validate.Range(min=0, max=300), metadata={
        "description": "seconds to stay open for new events (capped by the server, default 30 s at most); "
                       "0 sends what is there and ends"})


class StreamHeaders(Schema):
    """The stream's header, documented (the view reads it itself: ``_last_event_id``)."""

    last_event_id = fields.String(data_key="Last-Event-ID", validate=S.FullMatch("^[0-9]{1,15}$"), metadata={
        "description": "the seq of the last event received: the stream resumes after it (`from` is then ignored)"})


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 15):
        raise MalformedRequest("Last-Event-ID must be the seq of the last event received (an integer)",
                               field="Last-Event-ID", location="header")
    return int(raw)


def _events(svc: MatchService, match_id: str, start: int, viewer: Any, seconds: float) -> Iterator[bytes]:
    deadline = time.monotonic() + seconds
    last = start - 1
    quiet_since = time.monotonic()
    with watching(svc, match_id, _log_grows(svc, match_id)) as (feed, group), watcher_counted():
        yield f"retry: {RETRY_MS}\n\n".encode()
        head, moved = feed.start(group)  # what is logged now, whoever read it before
        while True:
            while head > last:  # the frames every watcher of this view gets, worked out once
                chunk, last = feed.frames(viewer, last)
                quiet_since = time.monotonic()
                yield chunk
            left = deadline - time.monotonic()
            if left <= 0 or stopping.is_set():
                return
            if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                quiet_since = time.monotonic()
                yield b": keep-alive\n\n"
            # Woken with every other watcher of the match as soon as the feed has read an entry past
            # ``head`` (or on time out, for the keep-alive and the deadline).
            moved.wait(min(left, KEEPALIVE_SECONDS))
            head, moved = feed.head(group)


@contextlib.contextmanager
def watcher_counted() -> Iterator[None]:
    """A live watcher while the stream is open (``kroniek_live_watchers``)."""
    from .metrics import WATCHERS

    WATCHERS.inc()
    try:
        yield
    finally:
        WATCHERS.dec()


def _log_grows(svc: MatchService, match_id: str) -> Callable[[int, float], bool]:
    """How a feed's pump waits for the match's log to grow past a seq: on the process's one reader of
    every watched log (service.watch); on a Redis Cluster, whose XREAD takes one slot's keys only, with
    an XREAD of its own."""
    key = svc.store.key(match_id, "log")
    block_ms = longest_block_ms(svc.store.r)
    if svc.store.cluster:
        def wait(after: int, timeout: float) -> bool:
            return bool(svc.store.r.xread({key: f"{after}-0"}, count=1,
                                          block=max(1, int(min(timeout * 1000, block_ms)))))
        return wait
    watcher = watcher_for(svc.store.r, block_ms)
    return lambda after, timeout: watcher.wait(key, after, min(timeout, block_ms / 1000))


def sse_answer(description: str, event: str, data: str, what: str, with_id: bool = False) -> dict[str, Any]:
    """The OpenAPI 200 answer of a stream of server-sent events named ``event``, whose ``data`` is ``data``
    (``what``: what a ``data`` is, as JSON text); ``with_id``: each carries an ``id:`` (a seq)."""
    properties: dict[str, Any] = {"id": {"type": "string", "description": "the event's seq"}} if with_id else {}
    properties.update({"event": {"type": "string", "enum": [event]},
                       "data": {"type": "string", "description": data},
                       "retry": {"type": "integer"}})
    return {200: {"description": description, "content": {"text/event-stream": {"schema": {
        "type": "object", "description": f"one server-sent event; `data` is {what} as JSON text",
        "properties": properties}}}}}


@stream.route("/<match_id>/stream")
class Stream(MethodView):
    @stream.arguments(StreamArgs, location="query", error_status_code=400)
    @stream.doc(responses=sse_answer(
        "text/event-stream: one `event` per log entry (`id:` its seq, `data:` the entry as GET /events shows it "
        "to this viewer), comments as keep-alives; it ends after `wait` seconds with a `retry:` hint, and a "
        "client reconnects with `Last-Event-ID`", "event", "the entry as GET /events shows it", "the log entry",
        with_id=True))
    @_doc_only(stream.arguments(StreamHeaders, location="headers", error_status_code=400))
    @_doc_errors(stream, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The match's events as server-sent events, live, filtered for the viewer as the log is

        Resume with the `Last-Event-ID` header (or `from`). The stream is
        bounded: it ends after `wait` seconds (the server caps it) and the
        client reconnects; `wait=0` sends what is logged and ends."""
        guard_view(match_id, args["seat"])
        svc = service()
        resume = _last_event_id()
        start = resume + 1 if resume is not None else args["from_"]
        viewer = args["seat"]
        check_viewer(svc.current(match_id), viewer)  # no match: a 404, a seat beyond the players: a 400, now
        seconds = min(args["wait"], max_seconds())
        body = stream_with_context(_events(svc, match_id, start, viewer, seconds))
        return Response(body, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
