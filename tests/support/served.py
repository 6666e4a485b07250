"""A ``kroniek serve`` a test starts on a shared Redis (keys and a queue of
its own), and stopping it again, removing what it wrote there."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest
import redis
import requests

ROOT = Path(__file__).resolve().parents[2]


def start_served(redis_url: str, var: Path, prefix: str, port: int, env: dict[str, str] | None = None,
                 args: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str, IO[Any], Any]:
    """``kroniek serve`` on ``port``, answering: (process, base URL, its log, a Redis client)."""
    full_env = {**os.environ, "REDIS_URL": redis_url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix,
                "KRONIEK_VAR": str(var), **(env or {})}
    log = open(var / "serve.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), *args],
                            env=full_env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/api", timeout=1).status_code == 200:
                return proc, base, log, client
        except (requests.ConnectionError, requests.Timeout):  # a worker still importing the app
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            output = log.read()
            stop_served(proc, log, client, prefix)
            pytest.fail(f"kroniek serve did not come up:\n{output}")
        time.sleep(0.2)


def stop_served(proc: subprocess.Popen, log: IO[Any], client: Any, prefix: str) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    forget_prefix(client, prefix)
    client.close()


def forget_prefix(client: Any, name: str) -> None:
    """Delete a test's keys: its own (``name:*``), its queues' and registries'
    (``rq:*name*``), and the hashes, results and executions of the jobs those
    still hold (queued or scheduled and never run), which carry no prefix."""
    keys = list(client.scan_iter(match=f"{name}:*", count=1000))
    queued = list(client.scan_iter(match=f"rq:*{name}*", count=1000))
    jobs: set[str] = set()
    for key in queued:
        kind = client.type(key)
        members = client.lrange(key, 0, -1) if kind == "list" else client.zrange(key, 0, -1) if kind == "zset" else []
        jobs.update(m.split(":", 1)[0] for m in members)
    keys += queued + [f"rq:{part}:{job}" for job in jobs for part in ("job", "results", "executions")]
    for i in range(0, len(keys), 500):
        client.delete(*keys[i: i + 500])
