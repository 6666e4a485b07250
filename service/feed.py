"""A live stream's events, worked out once per process for all its watchers.

Every watcher of ``GET /api/matches/<id>/stream`` used to wait for the log
itself and then read and filter it itself after each append: the head, the
events, their views, once per watcher. With a thousand watchers an append
cost a thousand reads and a thousand views of the same event (issue 36).
Here a process keeps one ``Feed`` per watched match:

- **One wait and one read per append.** The feed's pump (a thread: a
  greenlet under gevent) waits on the process's one reader of every watched
  log (``service.watch``) for the log to grow, then reads the head (through
  the service's cached state, which reads only the events it has not seen)
  and the new events, once, and wakes the feed's watchers all at once (one
  event, set and replaced). A watcher waits on that event alone: it holds
  no Redis connection and is no entry of its own in the reader's list. A
  stream that starts reads the head itself (it must see what is logged now).
- **One view per viewer.** The frames a watcher needs (``id:``, ``event:``,
  ``data:``: the event exactly as ``GET /events`` shows it to that viewer)
  are worked out once for each viewer and run of seqs, and handed as the
  same bytes to every watcher of that view.

What a frame shows depends on the match as it is when it is read: an undone
move is hidden, a face-down card may be turned up later, and everything is
shown once the match has ended. So frames are kept under the viewer, the
run of seqs and the head they were read at (its seq and hash, which pins
every event before it): a watcher gets the bytes it would have got reading
the log itself at that head, and never another viewer's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from typing import Any, Iterator

from engine import match as M

from .gunicorn_worker import stopping

log = logging.getLogger(__name__)

#: the newest stored events a feed keeps, so the watchers an append or two behind need no read
RECENT_EVENTS = 256
#: the chunks of frames a feed keeps (each of a viewer, a run of seqs and a head)
FRAMES_KEPT = 64
#: the most events in one chunk of frames: a watcher far behind (one that resumes from seq 1) gets several
CHUNK_EVENTS = 256
#: the longest the pump waits for the log to grow before it reads the head anyway (seconds): a wake the
#: reader lost costs a watcher no more than this
RECHECK_SECONDS = 5.0
#: the longest the pump waits at a time, to see whether anyone still watches (seconds)
PUMP_SLICE_SECONDS = 1.0
#: a feed's watchers are woken in this many groups, the event loop free to serve other connections (a
#: move being appended) between two: under gevent one event wakes all its waiters in one go, and a thousand
#: watchers held up every other request of the process for the whole of their writes
GROUPS = 32


def _cooperative() -> bool:
    """Whether threads are greenlets here (``kroniek serve``: gevent's patched standard library)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return False
    return monkey.is_module_patched("threading")


def _let_others_run() -> None:
    """Under gevent: let the event loop poll its sockets (and serve what came in) before going on."""
    import gevent

    gevent.sleep(0.0001)


def frame(event: dict[str, Any]) -> str:
    """One event as a server-sent event: ``id:`` its seq, ``data:`` its JSON."""
    return f"id: {event['seq']}\nevent: event\ndata: {json.dumps(event, ensure_ascii=False, separators=(',', ':'))}\n\n"


class Feed:
    """One match's live events in this process (see the module's docstring)."""

    def __init__(self, svc: Any, match_id: str, wait: Any) -> None:
        """``wait(after, timeout)``: block until the match's log holds an entry past seq ``after`` (True) or
        ``timeout`` seconds have passed (False)."""
        self.svc, self.match_id, self._wait = svc, match_id, wait
        self.lock = threading.Lock()
        #: (the match at the head last read, that head's hash, the events set when the head moves on: one
        #: per group of watchers)
        self.now: tuple[M.MatchState, str, list[threading.Event]] | None = None
        self.groups = [0] * GROUPS  # watchers per group
        self._joined = 0
        #: the stored events up to the head, consecutive seqs (the newest ``RECENT_EVENTS``)
        self.recent: list[dict[str, Any]] = []
        self.chunks: dict[tuple[Any, ...], bytes] = {}
        self.watchers = 0
        self.reads = 0  # heads read (a test counts them)
        self.views = 0  # chunks of frames worked out (a test counts them)
        self._pump: threading.Thread | None = None

    # -- watchers and the head ------------------------------------------------
    def join(self) -> int:
        """A new watcher's group (they take turns)."""
        with self.lock:
            group = self._joined % GROUPS
            self._joined += 1
            self.groups[group] += 1
            return group

    def leave(self, group: int) -> None:
        with self.lock:
            self.groups[group] -= 1

    def start(self, group: int) -> tuple[int, threading.Event]:
        """For a stream that starts: the head as the store has it now, and
        the event of the watcher's ``group`` that is set when it moves on."""
        with self.lock:
            woken = self._read()
            if self._pump is None or not self._pump.is_alive():
                self._pump = threading.Thread(target=self._run, name=f"kroniek-feed-{self.match_id}", daemon=True)
                self._pump.start()
            ms, _, moved = self.now
        self._wake(woken, False)
        return ms.seq, moved[group]

    def head(self, group: int) -> tuple[int, threading.Event]:
        """The head last read and the event of ``group`` set when it moves on (no read)."""
        ms, _, moved = self.now
        return ms.seq, moved[group]

    def _read(self) -> list[threading.Event]:
        """Read the head (and the new events) once for every watcher; the
        events to set if it moved (the caller sets them, ``_wake``, without
        the lock, which watchers need for their frames)."""
        ms, head_hash, read = self.svc.current_head(self.match_id)
        self.reads += 1
        old = self.now
        if old is not None and (ms.seq, head_hash) == (old[0].seq, old[1]):
            return []
        if old is not None:
            old_ms, old_hash, _ = old
            recent: list[dict[str, Any]] = []
            if ms.seq > old_ms.seq:  # the new events, once: the watchers an append behind need no read
                first = max(old_ms.seq + 1, ms.seq - RECENT_EVENTS + 1)
                if read and read[0]["seq"] <= first and read[-1]["seq"] == ms.seq:
                    new = read[first - read[0]["seq"]:]  # the service read them just now (another process's)
                else:
                    new = self.svc.store.events(self.match_id, first, ms.seq)
                if new and new[-1]["hash"] == head_hash and len(new) == new[-1]["seq"] - new[0]["seq"] + 1:
                    follows = (self.recent and self.recent[-1]["hash"] == old_hash
                               and new[0]["seq"] == old_ms.seq + 1 and new[0].get("prev_hash") == old_hash)
                    recent = (self.recent + new)[-RECENT_EVENTS:] if follows else new
            self.recent = recent  # else the store went back in time: a watcher's events are read when it asks
        self.now = (ms, head_hash, [threading.Event() for _ in range(GROUPS)])
        return old[2] if old is not None else []

    def _wake(self, events: list[threading.Event], pause: bool) -> None:
        """Every watcher of the head before, a group at a time (``pause``: under gevent, the loop serves
        other connections between two groups)."""
        if not events:
            return
        waiting = [i for i, n in enumerate(self.groups) if n > 0]
        for k, i in enumerate(waiting):
            events[i].set()
            if pause and k + 1 < len(waiting):
                _let_others_run()
        for event in events:  # a watcher that joined a group just now
            event.set()

    def _run(self) -> None:
        """The pump: while anyone watches, wait for the log to grow and read it once for them all."""
        pause = _cooperative()
        read_at = time.monotonic()
        while self.watchers > 0:
            ms = self.now[0]
            try:
                # in slices, so that it leaves the log's reader soon after the last watcher left
                grown = self._wait(ms.seq, PUMP_SLICE_SECONDS)
                if self.watchers <= 0:
                    break
                if stopping.is_set():  # the worker stops: every watcher ends its stream, whole, now
                    for event in self.now[2]:
                        event.set()
                    break
                if not grown and time.monotonic() - read_at < RECHECK_SECONDS:
                    continue
                read_at = time.monotonic()
                with self.lock:
                    woken = self._read()
                self._wake(woken, pause)
            except Exception:  # noqa: BLE001 - Redis away: the watchers go on waiting; the pump tries again
                log.warning("match %s: the live feed could not read the log; trying again", self.match_id,
                            exc_info=True)
                time.sleep(1)

    # -- frames ---------------------------------------------------------------
    def frames(self, viewer: Any, after: int) -> tuple[bytes, int]:
        """The frames of the events after ``after`` (at most ``CHUNK_EVENTS``
        of them) as ``viewer`` sees them at the head last read, as bytes, and
        the last seq among them. Worked out once per viewer, run and head."""
        ms, head_hash, _ = self.now
        upto = min(ms.seq, after + CHUNK_EVENTS)
        key = (viewer, after, upto, ms.seq, head_hash)
        chunk = self.chunks.get(key)
        if chunk is not None:
            return chunk, upto
        with self.lock:
            chunk = self.chunks.get(key)
            if chunk is not None:
                return chunk, upto
            first = after + 1
            recent = self.recent
            start = recent[0]["seq"] if recent else None
            stored = None
            # the events kept, if they run from ``first`` to this head (its hash there pins those before it)
            if start is not None and start <= first and ms.seq - start < len(recent) \
                    and recent[ms.seq - start]["hash"] == head_hash:
                stored = recent[first - start:upto - start + 1]
            events = self.svc.viewed(self.match_id, ms, first, upto, viewer, stored)
            chunk = "".join(frame(e) for e in events).encode()
            self.views += 1
            self.chunks[key] = chunk
            while len(self.chunks) > FRAMES_KEPT:
                del self.chunks[next(iter(self.chunks))]
            return chunk, upto


_feeds: dict[tuple[int, str], Feed] = {}
_feeds_lock = threading.Lock()


@contextlib.contextmanager
def watching(svc: Any, match_id: str, wait: Any) -> Iterator[tuple[Feed, int]]:
    """The process's feed of ``match_id`` (through the service ``svc``) for
    one watcher while it watches, and the watcher's group; a feed nobody
    watches any more is let go (its pump ends at its next wake). ``wait``:
    how its pump waits for the log to grow (``Feed``)."""
    key = (id(svc), match_id)
    with _feeds_lock:
        feed = _feeds.get(key)
        if feed is None or feed.svc is not svc:
            feed = _feeds[key] = Feed(svc, match_id, wait)
        feed.watchers += 1
    group = feed.join()
    try:
        yield feed, group
    finally:
        feed.leave(group)
        with _feeds_lock:
            feed.watchers -= 1
            if feed.watchers <= 0 and _feeds.get(key) is feed:
                del _feeds[key]


def feed_of(svc: Any, match_id: str) -> Feed | None:
    """The feed of ``match_id`` in this process while someone watches it (a test looks)."""
    with _feeds_lock:
        return _feeds.get((id(svc), match_id))
