"""One Redis connection per API process for every open live stream.

A live stream (``GET /api/matches/<id>/stream``) waits between events for the
match's log to grow. Blocking on ``XREAD`` itself, each open stream held a
Redis connection of its own: a worker process serves up to a thousand
connections (gevent), so a thousand watchers were a thousand Redis clients,
past what a small Redis allows (the embedded one takes as many as its file
limit; a hosted one often a few hundred). Then every request of every user
failed, not just the watchers'.

Here one reader per process (a thread, which is a greenlet under gevent)
blocks on ``XREAD`` over every watched log at once, each from the entry its
watchers have already seen, and wakes the watchers whose log grew. A watcher
waits on an event, holding no connection. Nothing is missed: the reader asks
for what follows the lowest seq a watcher has seen, so an entry appended
before the reader's next ``XREAD`` still wakes it at once. A log watched
first in this process joins at the reader's next ``XREAD``, at most
``JOIN_MS`` later. On a Redis Cluster, whose ``XREAD`` takes keys of one
slot only, each watcher blocks on its own log as before.

The watchers here are the live streams' feeds (``service.feed``), one per
watched match and process, each of which wakes all the streams of its match;
a stream itself waits on its feed.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

#: The longest one XREAD of the reader blocks (ms): a log watched first in
#: this process waits at most this long to join, and the reader sees its
#: watchers leave this often.
JOIN_MS = 200


class _Watch:
    __slots__ = ("after", "woken")

    def __init__(self, after: int) -> None:
        self.after = after
        self.woken = threading.Event()


class LogWatcher:
    """The process's reader over ``client``: ``wait(key, after, timeout)``
    returns once the stream ``key`` holds an entry past seq ``after``, or
    when ``timeout`` (seconds) has passed."""

    def __init__(self, client: Any, block_ms: int = JOIN_MS) -> None:
        import redis

        self._block_ms = max(1, min(JOIN_MS, block_ms))
        self._reader = redis.Redis(connection_pool=client.connection_pool, single_connection_client=True)
        self._lock = threading.Lock()
        self._watches: dict[str, set[_Watch]] = {}
        self._any = threading.Event()
        self._thread: threading.Thread | None = None
        self.reads = 0  # XREADs made (a test reads it)

    def wait(self, key: str, after: int, timeout: float) -> bool:
        """True if woken by an entry past ``after``; False if the time ran out."""
        watch = _Watch(after)
        with self._lock:
            self._watches.setdefault(key, set()).add(watch)
            self._any.set()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="kroniek-log-watcher", daemon=True)
                self._thread.start()
        try:
            return watch.woken.wait(timeout)
        finally:
            with self._lock:
                watching = self._watches.get(key)
                if watching is not None:
                    watching.discard(watch)
                    if not watching:
                        del self._watches[key]

    def watched(self) -> int:
        """Watchers waiting now."""
        with self._lock:
            return sum(len(w) for w in self._watches.values())

    def _run(self) -> None:
        while True:
            with self._lock:
                # a woken watcher is reading the log and leaves soon: asking again for what woke it would spin
                streams = {key: f"{min(w.after for w in waiting)}-0" for key, watching in self._watches.items()
                           if (waiting := [w for w in watching if not w.woken.is_set()])}
                if not streams:
                    self._any.clear()  # a new watcher sets it
            if not streams:
                self._any.wait(60)
                continue
            try:
                self.reads += 1
                found = self._reader.xread(streams, count=1, block=self._block_ms) or []
            except Exception:  # noqa: BLE001 - Redis away: wake everyone; each watcher's own read then fails or goes on
                log.warning("the live streams' reader could not read Redis; waking every watcher", exc_info=True)
                self._wake_all()
                time.sleep(self._block_ms / 1000)
                continue
            if isinstance(found, dict):  # RESP3 answers a map
                found = list(found.items())
            with self._lock:
                for key, entries in found:
                    key = key.decode() if isinstance(key, bytes) else key
                    entry_id = entries[0][0]
                    seq = int((entry_id.decode() if isinstance(entry_id, bytes) else entry_id).split("-")[0])
                    for watch in self._watches.get(key, ()):
                        if watch.after < seq:
                            watch.woken.set()

    def _wake_all(self) -> None:
        with self._lock:
            for watching in self._watches.values():
                for watch in watching:
                    watch.woken.set()


_watchers: dict[tuple[int, int], LogWatcher] = {}
_watchers_lock = threading.Lock()


def watcher_for(client: Any, block_ms: int = JOIN_MS) -> LogWatcher:
    """The reader of this process for ``client`` (a new one after a fork)."""
    key = (os.getpid(), id(client))
    with _watchers_lock:
        found = _watchers.get(key)
        if found is None:
            found = _watchers[key] = LogWatcher(client, block_ms)
        return found
