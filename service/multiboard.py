"""``GET /api/leagues/<id>/rounds/<r>/stream``: every board of a league round, live, in one stream.

A multiboard (the league night's screen) watches a round's boards at once. A browser gives a page six
connections to a server, so a stream per board would leave boards 7 and on waiting: this stream
multiplexes them. It rides the matches' live feeds (``service.feed``): each board's match is watched
through the process's one feed of it, which reads the log once per append for every watcher; a board's
message is made from what that feed read (its head's seq, status and result): no read of its own. The
round's boards themselves (a match started on a board, a result entered) are read from the league once a
second. The page draws a board that moved from its public scene and review step.

A message is ``event: board`` with ``data`` ``{"board", "players", "match", "seq", "status", "result",
"outcome"}``, sent when the stream opens and whenever something in it changes. Like a match's
stream it is bounded (``wait`` seconds, the server's cap) and ends with a ``retry:`` hint.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any, Iterator

from .feed import watching
from .gunicorn_worker import stopping

#: how often the stream looks at its boards' feeds (seconds): a look reads memory only
LOOK_SECONDS = 0.1
#: how often it reads the league for boards that got a match or a result (seconds)
LEAGUE_SECONDS = 1.0
KEEPALIVE_SECONDS = 15
RETRY_MS = 1000


def _outcome(board: Any) -> dict[str, Any] | None:
    out = board.outcome
    if out is None:
        return None
    return {"ranks": list(out.ranks), "forfeit": out.forfeit, "forfeited": list(out.forfeited)}


def round_events(leagues: Any, matches: Any, league_id: str, number: int, seconds: float,
                 log_grows: Any) -> Iterator[bytes]:
    """The stream's bytes. ``log_grows(svc, match_id)``: how a feed's pump waits for a log to grow."""
    deadline = time.monotonic() + seconds
    sent: dict[int, tuple[Any, Any]] = {}  # each board's (league board, match state) its last message said
    feeds: dict[str, tuple[Any, int]] = {}
    quiet_since = time.monotonic()
    from .stream_api import watcher_counted

    with contextlib.ExitStack() as stack, watcher_counted():
        yield f"retry: {RETRY_MS}\n\n".encode()
        boards: list[Any] = []
        read_at = 0.0
        while True:
            if time.monotonic() - read_at >= LEAGUE_SECONDS:
                read_at = time.monotonic()
                boards = list(leagues.state(league_id).rounds[number - 1].boards)
            out = []
            for i, board in enumerate(boards, start=1):
                ms = None
                if board.match is not None:
                    if board.match not in feeds:
                        feed, group = stack.enter_context(
                            watching(matches, board.match, log_grows(matches, board.match)))
                        feed.start(group)
                        feeds[board.match] = (feed, group)
                    ms = feeds[board.match][0].now[0]
                # a message only when the board (a new object when it gets a match or an outcome) or its match's
                # state (a new object after every append) is another than the last one sent
                last = sent.get(i)
                if last is not None and last[0] is board and last[1] is ms:
                    continue
                sent[i] = (board, ms)  # held, so that an object's identity is never another's
                message: dict[str, Any] = {"board": i, "players": list(board.players), "match": board.match,
                                           "seq": 0, "status": None, "result": None, "outcome": _outcome(board)}
                if ms is not None:
                    result = ms.result_dict
                    message.update(seq=ms.seq, status=ms.status,
                                   result=None if result is None else {k: result.get(k) for k in
                                                                       ("outcome", "winners", "scores")})
                text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                out.append(f"event: board\ndata: {text}\n\n")
            if out:
                quiet_since = time.monotonic()
                yield "".join(out).encode()
            if time.monotonic() >= deadline or stopping.is_set():
                return
            if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                quiet_since = time.monotonic()
                yield b": keep-alive\n\n"
            time.sleep(LOOK_SECONDS)
