"""The toy game with a solver analysis that takes its time: each match's
analysis sleeps ``KRONIEK_TEST_ANALYSIS_SECONDS`` (default 2 s), so a test
can keep an analysis worker busy with a backlog behind it. With
``KRONIEK_TEST_ANALYSIS_PROBE`` set to a file, it writes there, as JSON, the
process it ran in: pid, session, process group, niceness and the kernel's
scheduling group (/proc/self/autogroup, where there is one)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from engine import registry

from .toy import Toy


class SlowToy(Toy):
    id = "slow-toy"
    name = "Toy with a slow analysis"

    def analyse_log(self, events, budget, *, progress=None, max_nodes=None, deadline=None):
        probe = os.environ.get("KRONIEK_TEST_ANALYSIS_PROBE")
        if probe:
            group = Path("/proc/self/autogroup")
            Path(probe).write_text(json.dumps({
                "pid": os.getpid(), "sid": os.getsid(0), "pgid": os.getpgid(0), "ppid": os.getppid(),
                "nice": os.getpriority(os.PRIO_PROCESS, 0),
                "autogroup": group.read_text().strip() if group.exists() else None}))
        time.sleep(float(os.environ.get("KRONIEK_TEST_ANALYSIS_SECONDS", "2")))
        return {}


def ensure_registered() -> SlowToy:
    try:
        return registry.get("slow-toy")
    except Exception:
        return registry.register(SlowToy())


ensure_registered()
