"""The RQ queue that validation, annotation and ratings jobs go through."""

from __future__ import annotations

import os
from datetime import timedelta

from rq import Queue, Retry

from .connection import queue_client

#: Retries with back-off; RQ also retries a job whose worker died mid-job
#: (the job is found abandoned in the started registry) while retries remain.
RETRY = Retry(max=5, interval=[1, 5, 15, 60, 300])


def queue_name() -> str:
    return os.environ.get("KRONIEK_QUEUE", "kroniek")


def get_queue() -> Queue:
    return Queue(queue_name(), connection=queue_client())


def _enqueue(job: str, args: tuple, description: str, delay: float) -> None:
    """Queue ``job`` with retries, starting ``delay`` seconds from now at the
    soonest (RQ's scheduler, which every kroniek worker runs, moves it to the
    queue then)."""
    options = dict(retry=RETRY, job_timeout=600, result_ttl=3600, failure_ttl=7 * 24 * 3600, description=description)
    queue = get_queue()
    if delay > 0:
        queue.enqueue_in(timedelta(seconds=delay), job, *args, **options)
    else:
        queue.enqueue(job, *args, **options)


def enqueue_validation(prefix: str, match_id: str, delay: float = 0.0) -> None:
    """Queue a validation of the match's whole log."""
    _enqueue("workers.jobs.validate_match", (prefix, match_id), f"validate match {match_id}", delay)


def enqueue_ratings(prefix: str, game: str, delay: float = 0.0) -> None:
    """Queue a recomputation of ``game``'s ratings from every league result
    (``workers.jobs.recompute_ratings``). Any job that starts after a result
    was appended covers it, so a burst of results may queue several jobs;
    each rates from scratch and the stored table does not depend on which
    ran or finished first."""
    _enqueue("workers.jobs.recompute_ratings", (prefix, game), f"recompute {game} ratings", delay)
