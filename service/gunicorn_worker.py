"""The gunicorn worker ``kroniek serve`` runs: gunicorn's threaded worker,
whose own error answers (a request line over the limit: 414, a malformed
request or header: 400, too many or too large headers: 431, …) are Kroniek's
JSON error instead of gunicorn's HTML page.

gunicorn decides the status and logs the error as usual; only the answer it
writes is replaced, so its access and error logs stay what they were.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Callable

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker


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


def error_answer(status: int, reason: str, exc: BaseException) -> bytes:
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


class JsonErrorsThreadWorker(ThreadWorker):
    def handle_exit(self, sig: int, frame: Any) -> None:
        stopping.set()
        super().handle_exit(sig, frame)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        capture = _Capture(client)
        super().handle_error(req, capture, addr, exc)  # gunicorn's status, logging and access log
        if capture.status is None:
            return
        try:
            util.write_nonblock(client, error_answer(*capture.status, exc))
        except Exception:
            self.log.debug("Failed to send error message.")


def serve_app(load: Callable[[], Any], host: str, port: int, workers: int = 2, threads: int = 8) -> None:
    """Serve the WSGI app ``load()`` makes as ``kroniek serve`` does: gthread
    workers with these JSON error answers. The benchmark serves its bare
    endpoint through here too, so both run with the same settings."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", f"{__name__}.JsonErrorsThreadWorker")
            self.cfg.set("accesslog", os.environ.get("KRONIEK_ACCESS_LOG") or None)
            self.cfg.set("graceful_timeout", 10)

        def load(self):
            return load()

    Server().run()
