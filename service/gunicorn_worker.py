"""The gunicorn worker ``kroniek serve`` runs: gunicorn's gevent worker, made
for slow clients, with three additions.

- **A deadline on the request body.** gevent gives every connection a
  greenlet, not a thread, so a client that sends slowly or not at all holds
  no thread; but gunicorn itself never gives up on a body. Here the whole
  body is read before the app sees the request, within ``KRONIEK_BODY_SECONDS``
  (default 10 s, counted from the end of the headers): a body not in by then
  gets a 408 JSON error and its connection is closed. The headers have
  gunicorn's own deadline on this worker, ``keepalive`` (2 s): a client that
  sends no complete request line and headers within it is disconnected.
- **JSON errors.** gunicorn's own error answers (a request line over the
  limit: 414, a malformed request or header: 400, too many or too large
  headers: 431, …) are Kroniek's JSON error instead of gunicorn's HTML page.
  gunicorn decides the status and logs the error as usual; only the answer
  it writes is replaced, so its access and error logs stay what they were.
- **Connections spread evenly over the processes** (``Spread``): a process
  holding more connections than another leaves a new one to the other, for
  up to ``KRONIEK_SPREAD_SECONDS`` (0.05 s). A keep-alive connection stays
  with the process that accepted it, and a gevent process serves its
  connections on one core, one request's computing at a time.

The app is imported in the worker after gevent patched the standard library
(``serve_app`` takes a loader), so every lock and socket the app makes
cooperates with the other connections' greenlets.
"""

from __future__ import annotations

import gc
import io
import json
import mmap
import os
import socket
import threading
import time
from typing import Any, Callable

from gunicorn import util
from gunicorn.glogging import Logger
from gunicorn.http.body import Body, ChunkedReader, LengthReader

#: The default deadline (seconds) on receiving a request's whole body.
BODY_SECONDS = 10.0
#: Bodies are read ahead up to this many bytes (the API's own limit, whose
#: 413 the app gives); a longer one is handed on unread past it.
BODY_AHEAD = 1024 * 1024 + 1
#: after a 408, how long the server still reads (and drops) what the client sends before it closes
LINGER_SECONDS = 2.0
#: connections one worker process serves at once (gunicorn's default)
CONNECTIONS = 1000
#: A worker holding more connections than another leaves a new one to the
#: other for up to this long (seconds; ``KRONIEK_SPREAD_SECONDS``), looking
#: again every ``SPREAD_STEP``; past it, it takes the connection itself (the
#: other may be busy computing).
SPREAD_SECONDS = 0.05
SPREAD_STEP = 0.001


def spread_seconds() -> float:
    """How long a busier worker leaves a new connection to a less busy one
    (``KRONIEK_SPREAD_SECONDS``; 0: connections go to whichever accepts first)."""
    return float(os.environ.get("KRONIEK_SPREAD_SECONDS") or SPREAD_SECONDS)


class Spread:
    """How many connections each worker process of one server holds, in
    memory the processes share (made by the master before it forks them).

    The workers all accept from one listening socket, and a keep-alive
    connection stays with the process that accepted it; which one that is was
    left to chance. 8 clients connecting at once landed 4/4 a quarter of the
    time, 2/6 or worse another quarter: the process with 6 queued all of them
    on its one core while the other sat half idle, and the append's p99 rose
    with it (bench (d): 13 ms at 4/4, 47 ms at 1/7 on the same machine). Here
    a process holding more connections than another leaves a new connection
    to the least busy one (``SpreadServer``).

    A slot holds 1 + the connections of the worker using it, 0 when free.
    Only its own worker writes a slot, so no lock is needed."""

    def __init__(self, slots: int = 64) -> None:
        self.slots = slots
        self._mem = mmap.mmap(-1, 8 * slots)  # anonymous and shared: the forked workers see one table
        self._counts = memoryview(self._mem).cast("q")

    def free_slot(self, taken: set[int]) -> int | None:
        return next((i for i in range(self.slots) if i not in taken), None)

    def claim(self, slot: int) -> None:
        self._counts[slot] = 1

    def release(self, slot: int) -> None:
        self._counts[slot] = 0

    def add(self, slot: int, n: int) -> None:
        self._counts[slot] += n

    def connections(self, slot: int) -> int:
        return max(self._counts[slot] - 1, 0)

    def busier_than_another(self, slot: int) -> bool:
        """Does this worker hold more connections than some other live one?"""
        mine = self._counts[slot]
        return any(0 < count < mine for count in self._counts.tolist())


def body_seconds() -> float:
    """The deadline on a request body (``KRONIEK_BODY_SECONDS``)."""
    return float(os.environ.get("KRONIEK_BODY_SECONDS") or BODY_SECONDS)


class _Capture:
    """Stands in for the client socket while gunicorn writes its HTML error:
    keeps the status line, sends nothing."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.status: tuple[int, str] | None = None

    def sendall(self, data: bytes) -> None:
        if self.status is None:
            line = data.split(b"\r\n", 1)[0].decode("latin-1")  # HTTP/1.1 414 URI Too Long
            _, code, reason = (line.split(" ", 2) + [""])[:3]
            self.status = (int(code), reason)

    def send(self, data: bytes) -> int:
        self.sendall(data)
        return len(data)

    def gettimeout(self) -> float | None:
        return 0.0  # write_nonblock then calls sendall directly

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def error_answer(status: int, reason: str, exc: BaseException | str) -> bytes:
    """The raw HTTP answer: Kroniek's JSON error shape, connection closed."""
    code = reason.lower().replace(" ", "_") or "error"
    if status >= 500:
        message = "the server could not handle this request"
    else:
        detail = str(exc).strip()
        message = f"{reason.lower()}: {detail}" if detail else reason.lower()
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    return head + body


#: Set when this worker process is told to stop (SIGTERM): open live streams
#: then end (a client reconnects with Last-Event-ID), so a stop waits for no
#: watcher's stream to run out its ``wait`` (up to the graceful timeout).
stopping = threading.Event()


class _Chain:
    """A body reader: the bytes read ahead, then the rest from gunicorn's reader."""

    def __init__(self, ahead: bytes, rest: Body) -> None:
        self._ahead = io.BytesIO(ahead)
        self._rest = rest

    def read(self, size: int) -> bytes:
        return self._ahead.read(size) or self._rest.read(size)


#: The master's table of connections per worker (``serve_app`` makes it), and
#: this worker process's slot in it.
spread: Spread | None = None
slot: int | None = None

try:
    import gevent
    from gevent.server import StreamServer
    from gunicorn.workers import ggevent
    from gunicorn.workers.ggevent import GeventWorker
except RuntimeError:  # gevent missing or too old: gunicorn says which
    GeventWorker = None  # type: ignore[assignment,misc]


if GeventWorker is not None:
    def next_turn() -> None:
        """Wait for the next turn of gevent's loop, after it polled for I/O: every greenlet whose
        socket is ready runs first. (``gevent.sleep(0)`` may resume this one before the loop polls,
        so the connections waiting on a socket, all of them here, would not get their turn: bench
        (d)'s p99 was 24-28 ms with it, 17-21 ms with this, in the same runs.)"""
        hub = gevent.get_hub()
        with hub.loop.timer(0) as turn:
            hub.wait(turn)

    class SpreadServer(StreamServer):
        """gevent's server, which leaves a new connection to a worker process
        holding fewer (``Spread``); it counts its own connections there."""

        _deferred_first = _deferred_last = 0.0
        wait = SPREAD_SECONDS

        def _do_read(self) -> None:
            if self.wait > 0 and spread is not None and slot is not None and spread.busier_than_another(slot):
                now = time.monotonic()
                if now - self._deferred_last > 2 * SPREAD_STEP + 0.005:  # a new wait, not the same one going on
                    self._deferred_first = now
                self._deferred_last = now
                if now - self._deferred_first < self.wait:
                    self.stop_accepting()
                    self._timer = self.loop.timer(SPREAD_STEP)
                    self._timer.start(self._start_accepting_if_started)
                    return
                # Waited long enough: this one is taken here, and the next waits afresh (a burst of
                # connections while the other was off the CPU all landed here once the wait ran out).
                self._deferred_last = 0.0
            super()._do_read()

        def do_handle(self, *args: Any) -> None:
            if spread is not None and slot is not None:
                spread.add(slot, 1)
            super().do_handle(*args)  # when it fails, it closes the connection: do_close counts it out

        def do_close(self, *args: Any) -> None:
            if spread is not None and slot is not None:
                spread.add(slot, -1)
            super().do_close(*args)

    class JsonErrorsGeventWorker(GeventWorker):
        _quitting = False

        def run(self) -> None:
            global slot
            slot = getattr(self, "spread_slot", None)
            if spread is not None and slot is not None:
                spread.claim(slot)
            SpreadServer.wait = spread_seconds()
            ggevent.StreamServer = SpreadServer  # what GeventWorker.run builds its servers from
            super().run()

        def handle_exit(self, sig: int, frame: Any) -> None:
            stopping.set()
            super().handle_exit(sig, frame)

        def handle_quit(self, sig: int, frame: Any) -> None:
            """Ctrl-C in a terminal reaches a worker twice: the terminal's
            SIGINT and the master's SIGQUIT. The first ends it; the second's
            greenlet then ran while the interpreter shut down, and gevent
            printed its SystemExit as a traceback."""
            if self._quitting:
                return
            self._quitting = True
            stopping.set()
            super().handle_quit(sig, frame)

        def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
            capture = _Capture(client)
            super().handle_error(req, capture, addr, exc)  # gunicorn's status, logging and access log
            if capture.status is None:
                return
            try:
                with gevent.Timeout(1.0):
                    util.write_nonblock(client, error_answer(*capture.status, exc))
            except BaseException:
                self.log.debug("Failed to send error message.")

        def handle_request(self, listener_name: str, req: Any, sock: Any, addr: Any) -> bool:
            if not self.read_body_in_time(req, sock, addr):
                raise StopIteration()  # gunicorn closes the connection
            # Every request lets the process's other connections go first: a greenlet yields only where
            # it waits, and a keep-alive client and a Redis that answer quickly never make it wait (it
            # served request after request while the others starved).
            next_turn()
            return super().handle_request(listener_name, req, sock, addr)

        def read_body_in_time(self, req: Any, sock: Any, addr: Any) -> bool:
            """Read the request's body ahead (up to ``BODY_AHEAD`` bytes)
            within the deadline; False (a 408 sent) if it did not come."""
            reader = req.body.reader
            length = reader.length if isinstance(reader, LengthReader) else None
            if length == 0 or (length is None and not isinstance(reader, ChunkedReader)):
                return True  # no body
            if length is not None and length >= BODY_AHEAD:
                return True  # over the API's limit: its 413 reads none of it
            seconds = body_seconds()
            parts: list[bytes] = []
            size = 0
            try:
                with gevent.Timeout(seconds):
                    while size < BODY_AHEAD:
                        part = req.body.read(min(65536, BODY_AHEAD - size))
                        if not part:
                            break
                        parts.append(part)
                        size += len(part)
            except gevent.Timeout:
                self.log.info("%s %s: the body did not arrive within %g s (%d of %s bytes); 408, closed",
                              req.method, req.path, seconds, size, length if length is not None else "?")
                try:
                    with gevent.Timeout(1.0):
                        sock.sendall(error_answer(408, "Request Timeout", f"the request body did not arrive "
                                                  f"within {seconds:g} s"))
                    # A lingering close: closing with the client's bytes still unread sends a reset,
                    # which can reach the client before it read the 408 and throws the answer away.
                    sock.shutdown(socket.SHUT_WR)
                    with gevent.Timeout(LINGER_SECONDS):
                        while sock.recv(65536):
                            pass
                except BaseException:
                    pass
                return False
            req.body = Body(_Chain(b"".join(parts), req.body))
            return True


class JsonLinesLogger(Logger):
    """gunicorn's own lines (a worker booted, a worker stopped …) in the form of the service's others: JSON lines
    on stderr, unless ``KRONIEK_LOG_FORMAT=text`` (workers.logs)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if os.environ.get("KRONIEK_LOG_FORMAT", "json").lower() != "text":
            from workers.logs import JsonFormatter

            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(JsonFormatter())


def serve_app(load: Callable[[], Any], host: str, port: int, workers: int = 2,
              connections: int = CONNECTIONS) -> None:
    """Serve the WSGI app ``load()`` makes as ``kroniek serve`` does: gevent
    workers with the body deadline and JSON error answers above. ``load`` is
    called in each worker, after gevent's patching: import the app in it.
    The benchmark serves its bare endpoint through here too, so both run
    with the same settings."""
    from gunicorn.app.base import BaseApplication

    global spread
    spread = Spread()

    def pre_fork(server: Any, worker: Any) -> None:
        """The master, before it forks a worker: the worker's slot in the table."""
        worker.spread_slot = spread.free_slot({getattr(w, "spread_slot", None) for w in server.WORKERS.values()})

    def child_exit(server: Any, worker: Any) -> None:
        if getattr(worker, "spread_slot", None) is not None:
            spread.release(worker.spread_slot)
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # its live gauges (watchers) no longer count
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(worker.pid)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_connections", connections)
            self.cfg.set("worker_class", f"{__name__}.JsonErrorsGeventWorker")
            self.cfg.set("accesslog", os.environ.get("KRONIEK_ACCESS_LOG") or None)
            self.cfg.set("graceful_timeout", 10)
            # gunicorn's control socket (for gunicornc, which Kroniek does not use) sits at one path per user,
            # $HOME/.gunicorn/gunicorn.ctl: every server on the machine claimed the same one
            self.cfg.set("control_socket_disable", True)
            self.cfg.set("logger_class", f"{__name__}.JsonLinesLogger")
            self.cfg.set("pre_fork", pre_fork)
            self.cfg.set("child_exit", child_exit)

        def load(self):
            app = load()
            # What the worker holds from here to its end (the app, the engines, the schemas: about 92,000
            # objects) is taken out of the collector's sight. A full collection walked it all, about 40 ms of
            # CPU on the shared 2-core machine, and held every connection of the process meanwhile: with a
            # thousand live streams opening and closing, every few seconds.
            gc.collect()
            gc.freeze()
            return app

    Server().run()
