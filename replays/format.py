"""The format of what Kroniek keeps in Redis, and the upgrades from one format to the next.

Why: a deployment keeps its data across versions of the code. A version that reads a store written by a later
one, or writes into one whose format it does not know, can misread it without anyone noticing; so the store
says which format it is in (``P:format``, a hash: ``version``, and who wrote it when), every process that
serves it checks that first (``check``), and a store is moved forward one step at a time (``UPGRADES``), each
step recorded in the hash. A step that the old code and the new can run beside (``online``: it leaves what
the old code reads as it was) is taken by ``check`` itself, as the new code starts; any other only by
``kroniek upgrade``, and until then the new code refuses the store. docs/ops.md ("Upgrades") says how.

Formats:

1. what Kroniek wrote before the store carried a format (up to commit e895dd1, release 0.1): no ``P:format``.
   ``tests/fixtures/upgrade/format-1`` holds such a store, as a Redis dump and a backup file.
2. the same keys, with ``P:format``. Nothing else changed, so the step from 1 writes the mark only: old
   matches, leagues and logs are read as they are (every event keeps the scheme it was sealed with, a league
   the pairing system it recorded).
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any, Callable

from engine.core import KroniekError

#: the format this code writes, and reads without an upgrade
FORMAT = 2

log = logging.getLogger(__name__)


class FormatMismatch(KroniekError):
    """The store is in a format this code does not serve as it is."""


def _key(prefix: str) -> str:
    return f"{prefix}:format"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _holds_data(r: Any, prefix: str) -> bool:
    return next(iter(r.scan_iter(match=f"{prefix}:*", count=1000)), None) is not None


def stored(r: Any, prefix: str) -> int | None:
    """The store's format: its mark, 1 for data written before there was a mark, None for an empty store."""
    version = r.hget(_key(prefix), "version")
    if version is not None:
        text = version.decode() if isinstance(version, bytes) else version
        if not text.isdigit():
            raise FormatMismatch(f"{_key(prefix)} says format {text!r}, which is not a number")
        return int(text)
    return 1 if _holds_data(r, prefix) else None


def _mark(r: Any, prefix: str, version: int, how: str, by: str) -> None:
    r.hset(_key(prefix), mapping={"version": str(version), how: _now(), f"{how}_by": by})


def check(r: Any, prefix: str, by: str = "kroniek", online: bool = True) -> int:
    """Before serving ``prefix``: an empty store is marked with this format; an older one is moved on by its
    ``online`` steps (unless ``online`` is False); a store then in this format passes, any other raises
    ``FormatMismatch`` with what to do. The format it serves."""
    version = stored(r, prefix)
    if version is None:
        # two processes starting on an empty store both get here: the first mark stands (HSETNX)
        if r.hsetnx(_key(prefix), "version", str(FORMAT)):
            r.hset(_key(prefix), mapping={"created": _now(), "created_by": by})
        version = stored(r, prefix)
    if version is not None and version > FORMAT:
        raise FormatMismatch(f"the data under {prefix!r} is in format {version}, written by a newer Kroniek; this "
                             f"one knows formats up to {FORMAT}. Run the newer version (or restore a backup made "
                             "before the upgrade)")
    while online and version is not None and version < FORMAT and UPGRADES[version].online:
        version = _step(r, prefix, version, by, log.warning)
    if version == FORMAT:
        return version
    raise FormatMismatch(f"the data under {prefix!r} is in format {version}; this Kroniek serves format {FORMAT}. "
                         "Back it up (`kroniek backup FILE`), then run `kroniek upgrade`")


@dataclass(frozen=True)
class Step:
    """A step from one format to the next. It is safe to run again if it was interrupted (the mark moves
    after it). ``online``: the code of both formats can serve the store while and after it runs."""

    run: Callable[[Any, str], None]
    online: bool
    what: str


def _to_2(r: Any, prefix: str) -> None:
    """Format 2 adds the mark only (see the module's docstring)."""


#: step n -> n + 1, in order
UPGRADES: dict[int, Step] = {1: Step(_to_2, online=True, what="the store is marked; nothing else changed")}


def _step(r: Any, prefix: str, version: int, by: str, say: Callable[[str], None]) -> int:
    step = UPGRADES.get(version)
    if step is None:  # pragma: no cover - every format below FORMAT has its step
        raise FormatMismatch(f"no upgrade from format {version}")
    step.run(r, prefix)
    _mark(r, prefix, version + 1, "upgraded", by)
    say(f"upgraded the store under {prefix!r} from format {version} to {version + 1}: {step.what}")
    return version + 1


def upgrade(r: Any, prefix: str, by: str = "kroniek", say: Callable[[str], None] = lambda text: None) -> list[int]:
    """Move the store under ``prefix`` to ``FORMAT``, a step at a time: the formats it passed through."""
    version = stored(r, prefix)
    if version is None:
        check(r, prefix, by)
        say(f"the store under {prefix!r} was empty: marked format {FORMAT}")
        return []
    if version > FORMAT:
        check(r, prefix, by)  # raises, saying why
    passed = []
    while version < FORMAT:
        passed.append(version)
        version = _step(r, prefix, version, by, say)
    return passed
