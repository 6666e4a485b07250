"""Stopping a ``kroniek serve`` a test started on a shared Redis, and
removing what it wrote there (its key prefix and its RQ keys)."""

from __future__ import annotations

import subprocess
from typing import IO, Any


def stop_served(proc: subprocess.Popen, log: IO[Any], client: Any, prefix: str) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000)) + list(
        client.scan_iter(match=f"rq:*{prefix}*", count=1000))
    for i in range(0, len(keys), 500):
        client.delete(*keys[i: i + 500])
    client.close()
