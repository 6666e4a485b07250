"""The gunicorn worker ``kroniek serve`` runs: gunicorn's gevent worker, made
for slow clients, with two additions.

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

The app is imported in the worker after gevent patched the standard library
(``serve_app`` takes a loader), so every lock and socket the app makes
cooperates with the other connections' greenlets.
"""

from __future__ import annotations

import gc
import io
import json
import os
import socket
import threading
from typing import Any, Callable

from gunicorn import util
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


try:
    import gevent
    from gunicorn.workers.ggevent import GeventWorker
except RuntimeError:  # gevent missing or too old: gunicorn says which
    GeventWorker = None  # type: ignore[assignment,misc]


if GeventWorker is not None:
    class JsonErrorsGeventWorker(GeventWorker):
        _quitting = False

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


def serve_app(load: Callable[[], Any], host: str, port: int, workers: int = 2,
              connections: int = CONNECTIONS) -> None:
    """Serve the WSGI app ``load()`` makes as ``kroniek serve`` does: gevent
    workers with the body deadline and JSON error answers above. ``load`` is
    called in each worker, after gevent's patching: import the app in it.
    The benchmark serves its bare endpoint through here too, so both run
    with the same settings."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_connections", connections)
            self.cfg.set("worker_class", f"{__name__}.JsonErrorsGeventWorker")
            self.cfg.set("accesslog", os.environ.get("KRONIEK_ACCESS_LOG") or None)
            self.cfg.set("graceful_timeout", 10)

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
