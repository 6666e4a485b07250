"""The ``kroniek`` command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click


@click.group()
def main() -> None:
    """Kroniek: record real games move by move, replay, review and audit them."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="gunicorn worker processes")
@click.option("--threads", default=8, show_default=True, type=int, help="threads per worker process")
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Serve the API with gunicorn (honours REDIS_URL)."""
    from gunicorn.app.base import BaseApplication

    from .app import create_app

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("accesslog", os.environ.get("KRONIEK_ACCESS_LOG") or None)
            self.cfg.set("graceful_timeout", 10)

        def load(self):
            return create_app()

    Server().run()


@main.command()
@click.option("--burst", is_flag=True, help="work until the queue is empty, then exit")
def worker(burst: bool) -> None:
    """Run one RQ worker for validation and annotation jobs (honours REDIS_URL)."""
    from workers.worker import run

    run(burst=burst)


@main.command()
@click.option("--var", "var_dir", default="var", show_default=True, type=click.Path(file_okay=False))
def redis(var_dir: str) -> None:
    """Run the embedded Redis in the foreground, data under VAR."""
    from . import embedded

    proc, socket = embedded.start(Path(var_dir).resolve())
    click.echo(f"embedded Redis on unix://{socket} (data in {Path(var_dir).resolve()})")
    try:
        proc.wait()
    except KeyboardInterrupt:
        embedded.stop(proc, socket)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--var", "var_dir", default="var", show_default=True, type=click.Path(file_okay=False))
def run(host: str, port: int, var_dir: str) -> None:
    """Start everything: the embedded Redis (unless REDIS_URL is set), one
    worker and the API. Ctrl-C stops all three; data stays in VAR."""
    from . import embedded

    env = dict(os.environ)
    redis_proc = socket = None
    if not env.get("REDIS_URL"):
        var = Path(var_dir).resolve()
        redis_proc, socket = embedded.start(var)
        env["REDIS_URL"] = f"unix://{socket}"
        click.echo(f"Embedded Redis: unix://{socket} (data and append-only file in {var})")
    else:
        click.echo(f"Redis: {env['REDIS_URL']}")
    exe = [sys.executable, "-m", "service.cli"]
    children = [
        subprocess.Popen([*exe, "worker"], env=env),
        subprocess.Popen([*exe, "serve", "--host", host, "--port", str(port)], env=env),
    ]
    click.echo(f"API:      http://{host}:{port}/api")
    click.echo(f"API docs: http://{host}:{port}/api/docs  (OpenAPI: http://{host}:{port}/api/openapi.json)")
    click.echo("Press Ctrl-C to stop.")
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping and all(c.poll() is None for c in children):
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
        if redis_proc is not None and socket is not None:
            embedded.stop(redis_proc, socket)
    failed = [c for c in children if c.returncode not in (0, -signal.SIGTERM, None)]
    if failed and not stopping:
        raise SystemExit("a process stopped unexpectedly; see the output above")


if __name__ == "__main__":
    main()
