"""The log's form for every process of the service (the RQ workers, the API's gunicorn workers): JSON lines on
stderr (``time``, ``level``, ``logger``, ``message`` and the record's own fields), or plain lines with
``KRONIEK_LOG_FORMAT=text``. ``service.logs`` adds the API's line per request."""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import datetime, timezone
from typing import Any

#: a LogRecord's own attributes: the rest are the fields a call passed (``extra``)
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: the record's time (UTC), level, logger and message, and its extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


#: where a JSON line may be written straight, one ``os.write`` a line (``direct``): the log's file descriptor
#: once ``configure`` has made the log JSON lines on stderr, else None
DIRECT_FD: int | None = None


def direct(record: dict[str, Any]) -> bool:
    """Write ``record`` (with ``time``, ``level`` and ``logger`` added) as one JSON line, past the logging
    module's handlers and locks: one ``os.write``, whole (a line under the pipe's atomic size is never cut by
    another process's). For the API's line per request, on every request. False when the log is not JSON on
    stderr (``configure`` not run, or ``KRONIEK_LOG_FORMAT=text``): log it the usual way then."""
    if DIRECT_FD is None:
        return False
    import orjson

    now = datetime.now(timezone.utc)
    line = orjson.dumps({"time": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
                         "level": "info", **record}, default=str)
    try:
        os.write(DIRECT_FD, line + b"\n")
    except OSError:  # the log is gone (a closed pipe): the request is not the worse for it
        pass
    return True


def configure(level: int = logging.INFO) -> None:
    """The process's log: JSON lines on stderr (unless ``KRONIEK_LOG_FORMAT=text``), once."""
    root = logging.getLogger()
    if getattr(root, "_kroniek_configured", False):
        return
    global DIRECT_FD
    handler = logging.StreamHandler(sys.stderr)
    if os.environ.get("KRONIEK_LOG_FORMAT", "json").lower() == "text":
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    else:
        handler.setFormatter(JsonFormatter())
        sys.stderr.flush()
        DIRECT_FD = sys.stderr.fileno()
    root.handlers[:] = [handler]
    root.setLevel(level)
    root._kroniek_configured = True  # type: ignore[attr-defined]
