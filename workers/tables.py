"""Solved tables an analysis reads instead of solving again (issue 37: BraveRats's base game is solved once).

A table is bytes a game's engine makes and reads (``Game.evaluate_log`` asks for one by name, with the
function that builds it). Kept as a file under ``KRONIEK_TABLES`` (default ``<KRONIEK_VAR or ./var>/tables``):
an analysis runs in a work horse forked for its job, so a table kept in memory would die with it. The first
analysis that needs a table builds it under a lock, so that processes asking at once build it once; the others
wait for it and read it. A file that does not read back (another format, cut short, its checksum wrong) is
built again, never trusted.

Each machine that runs analysis workers keeps its own (a table is derived data: it is rebuilt, not backed up).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

#: a table's name: what the file is called (no path, nothing a shell or a file system reads specially)
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,120}$")
MAGIC = b"kroniek-table 1\n"


def tables_dir() -> Path:
    found = os.environ.get("KRONIEK_TABLES")
    if found:
        return Path(found).resolve()
    return Path(os.environ.get("KRONIEK_VAR", "var")).resolve() / "tables"


class FileTables:
    """Tables kept as files in ``root``: ``get(name, build)`` the bytes, built and kept on first use."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or tables_dir()
        self.built: list[str] = []  # the names this object built (not read): what an analysis record says

    def path(self, name: str) -> Path:
        if not NAME.match(name):
            raise ValueError(f"a table's name is lower-case letters, digits and . _ - only: {name!r}")
        return self.root / f"{name}.table"

    def read(self, name: str) -> bytes | None:
        """The table's bytes as they were written, or None (none kept, or a file that does not check out)."""
        path = self.path(name)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        if not raw.startswith(MAGIC):
            log.warning("table %s: not a table this version writes; built again", path)
            return None
        head, sep, body = raw[len(MAGIC):].partition(b"\n")
        try:
            meta = json.loads(head)
        except ValueError:
            meta = None
        if not sep or not isinstance(meta, dict) or meta.get("name") != name or meta.get("bytes") != len(body) \
                or meta.get("sha256") != hashlib.sha256(body).hexdigest():
            log.warning("table %s: does not read back as written (cut short or changed); built again", path)
            return None
        return body

    def get(self, name: str, build: Callable[[], bytes]) -> bytes:
        """The table ``name``: read, or built by ``build()`` and kept (one builder at a time per name)."""
        found = self.read(name)
        if found is not None:
            return found
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.path(name).with_suffix(".lock"), "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it: wait, then read what it kept
            try:
                found = self.read(name)
                if found is not None:
                    return found
                t0 = time.monotonic()
                body = build()
                self._write(name, body)
                self.built.append(name)
                log.info("table %s built in %.1f s (%d bytes)", name, time.monotonic() - t0, len(body))
                return body
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _write(self, name: str, body: bytes) -> None:
        path = self.path(name)
        meta = {"name": name, "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            f.write(MAGIC + json.dumps(meta, sort_keys=True).encode() + b"\n" + body)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # readers see the whole file or none
