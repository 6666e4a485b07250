"""``kroniek worker``: one RQ worker on the kroniek queue."""

from __future__ import annotations

from rq import Worker

from .connection import key_prefix, load_plugins, queue_client
from .jobs import sweep
from .queue import get_queue


def run(burst: bool = False, maintenance_interval: int = 30) -> None:
    # Before taking jobs, queue whatever validation is owed (a job lost
    # between an append and its enqueue, or queued on a Redis that was reset).
    load_plugins()
    sweep(key_prefix())
    worker = Worker([get_queue()], connection=queue_client(), maintenance_interval=maintenance_interval)
    worker.work(with_scheduler=True, burst=burst)
