"""The toy game with a solver analysis that takes its time: each match's
analysis sleeps ``KRONIEK_TEST_ANALYSIS_SECONDS`` (default 2 s), so a test
can keep an analysis worker busy with a backlog behind it."""

from __future__ import annotations

import os
import time

from engine import registry

from .toy import Toy


class SlowToy(Toy):
    id = "slow-toy"
    name = "Toy with a slow analysis"

    def analyse_log(self, events, budget, *, progress=None, max_nodes=None, deadline=None):
        time.sleep(float(os.environ.get("KRONIEK_TEST_ANALYSIS_SECONDS", "2")))
        return {}


def ensure_registered() -> SlowToy:
    try:
        return registry.get("slow-toy")
    except Exception:
        return registry.register(SlowToy())


ensure_registered()
