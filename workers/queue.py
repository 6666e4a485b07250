"""The RQ queue that validation and annotation jobs go through."""

from __future__ import annotations

import os

from rq import Queue, Retry

from .connection import queue_client

#: Retries with back-off; RQ also retries a job whose worker died mid-job
#: (the job is found abandoned in the started registry) while retries remain.
RETRY = Retry(max=5, interval=[1, 5, 15, 60, 300])


def queue_name() -> str:
    return os.environ.get("KRONIEK_QUEUE", "kroniek")


def get_queue() -> Queue:
    return Queue(queue_name(), connection=queue_client())


def enqueue_validation(prefix: str, match_id: str) -> None:
    get_queue().enqueue(
        "workers.jobs.validate_match",
        prefix,
        match_id,
        retry=RETRY,
        job_timeout=600,
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
        description=f"validate match {match_id}",
    )
