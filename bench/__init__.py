"""Benchmarks (``make bench``). Shared here: a Redis for one run, and a
console whose tables do not wrap at 80 columns when the output is a file."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator


def console():
    """A rich Console: the terminal's width, or 200 columns when not a terminal."""
    from rich.console import Console

    return Console() if sys.stdout.isatty() else Console(width=200)


def print_table(title: str, rows: list[tuple[str, ...]]) -> None:
    """A bench's figures as one table: each measure, what was measured, its ratio or figure, and its goal."""
    from rich.table import Table

    table = Table(title=title)
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console().print(table)


@contextlib.contextmanager
def bench_redis(name: str = "bench") -> Iterator[str]:
    """REDIS_URL if set, else a fresh embedded redis-server in a temporary
    directory that is removed afterwards (its log included)."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from service import embedded

    tmp = Path(tempfile.mkdtemp(prefix=f"kroniek-{name}-"))
    proc, socket = embedded.start(tmp, persistent=False)
    try:
        yield f"unix://{socket}"
    finally:
        embedded.stop(proc, socket)
        shutil.rmtree(tmp, ignore_errors=True)


def run_threads(threads: list) -> float:
    """Start the threads, wait for them all: the seconds that took."""
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0
