"""``kroniek worker``: one RQ worker on the kroniek queue."""

from __future__ import annotations

import importlib
import os

from rq import Worker

from .connection import key_prefix, queue_client
from .jobs import sweep
from .queue import get_queue


def load_plugins() -> None:
    """Import the modules named in KRONIEK_PLUGINS (comma-separated), so games
    defined outside this package register themselves in this process too."""
    for name in filter(None, (n.strip() for n in os.environ.get("KRONIEK_PLUGINS", "").split(","))):
        importlib.import_module(name)


def run(burst: bool = False, maintenance_interval: int = 30) -> None:
    # Before taking jobs, queue whatever validation is owed (a job lost
    # between an append and its enqueue, or queued on a Redis that was reset).
    load_plugins()
    sweep(key_prefix())
    worker = Worker([get_queue()], connection=queue_client(), maintenance_interval=maintenance_interval)
    worker.work(with_scheduler=True, burst=burst)
