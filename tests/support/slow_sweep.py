"""A worker plugin (``KRONIEK_PLUGINS=tests.support.slow_sweep``) whose start-up sweep takes
``KRONIEK_TEST_SWEEP_SECONDS`` (default 3 s) and first writes the file ``KRONIEK_TEST_SWEEP_PROBE``: a test can
signal a worker while it is starting, as a supervisor that dies then does."""

from __future__ import annotations

import os
import time
from pathlib import Path

from workers import worker

_sweep = worker.sweep


def slow_sweep(prefix: str, *args, **kwargs):
    probe = os.environ.get("KRONIEK_TEST_SWEEP_PROBE")
    if probe:
        Path(probe).write_text(str(os.getpid()))
    time.sleep(float(os.environ.get("KRONIEK_TEST_SWEEP_SECONDS", "3")))
    return _sweep(prefix, *args, **kwargs)


worker.sweep = slow_sweep
