"""The RQ queues: validation (and ratings) jobs on ``KRONIEK_QUEUE``, the
solver analysis on ``KRONIEK_QUEUE-analysis``, so a long analysis never
holds up a verdict."""

from __future__ import annotations

import os
from datetime import timedelta

from rq import Queue, Retry
from rq.job import Job

from .connection import queue_client

#: Retries with back-off; RQ also retries a job whose worker died mid-job
#: (the job is found abandoned in the started registry) while retries remain.
RETRY = Retry(max=5, interval=[1, 5, 15, 60, 300])

#: The roles ``kroniek worker --queues`` accepts, in the order a worker serves them.
ROLES = ("validation", "analysis")


# -- the analysis job's budget (read where it is queued and where it runs) ------------
def solver_budget() -> int:
    """Nodes per solver call (KRONIEK_SOLVER_BUDGET); past it a solver says unknown."""
    return int(os.environ.get("KRONIEK_SOLVER_BUDGET", "500000"))


def analysis_nodes() -> int:
    """Solver nodes per match analysis, all calls together (KRONIEK_ANALYSIS_NODES)."""
    return int(os.environ.get("KRONIEK_ANALYSIS_NODES", "20000000"))


def analysis_seconds() -> float:
    """Seconds per match analysis (KRONIEK_ANALYSIS_SECONDS): no solver call
    starts after it; the positions left are undecided."""
    return float(os.environ.get("KRONIEK_ANALYSIS_SECONDS", "120"))


def queue_name() -> str:
    """The validation queue (validation and ratings jobs)."""
    return os.environ.get("KRONIEK_QUEUE", "kroniek")


def analysis_queue_name() -> str:
    """The analysis queue: the validation queue's name + ``-analysis``."""
    return f"{queue_name()}-analysis"


def queue_names(roles: list[str] | tuple[str, ...] = ROLES) -> list[str]:
    """Queue names for roles (``validation``, ``analysis``) or names as given."""
    names = {"validation": queue_name(), "analysis": analysis_queue_name()}
    return [names.get(role, role) for role in roles]


def get_queue(name: str | None = None) -> Queue:
    return Queue(name or queue_name(), connection=queue_client())


def _enqueue(job: str, args: tuple, description: str, delay: float, queue: str | None = None,
             timeout: int = 600) -> Job:
    """Queue ``job`` with retries, starting ``delay`` seconds from now at the
    soonest (RQ's scheduler, which every kroniek worker runs, moves it to the
    queue then; RQ counts in whole seconds, so it may start up to a second
    sooner: nothing relies on the delay but batching)."""
    options = dict(retry=RETRY, job_timeout=timeout, result_ttl=3600, failure_ttl=7 * 24 * 3600,
                   description=description)
    q = get_queue(queue)
    if delay > 0:
        return q.enqueue_in(timedelta(seconds=delay), job, *args, **options)
    return q.enqueue(job, *args, **options)


def enqueue_validation(prefix: str, match_id: str, delay: float = 0.0) -> Job:
    """Queue a validation of the match's whole log (replay, rules, chain)."""
    return _enqueue("workers.jobs.validate_match", (prefix, match_id), f"validate match {match_id}", delay)


def enqueue_analysis(prefix: str, match_id: str) -> Job:
    """Queue the solver analysis of the match's log on the analysis queue;
    its job may run up to the analysis time budget (and a margin)."""
    return _enqueue("workers.jobs.analyse_match", (prefix, match_id), f"analyse match {match_id}", 0.0,
             queue=analysis_queue_name(), timeout=int(analysis_seconds()) + 120)


def enqueue_ratings(prefix: str, game: str, delay: float = 0.0) -> Job:
    """Queue a recomputation of ``game``'s ratings from every league result
    (``workers.jobs.recompute_ratings``). Any job that starts after a result
    was appended covers it, so a burst of results may queue several jobs;
    each rates from scratch and the stored table does not depend on which
    ran or finished first."""
    return _enqueue("workers.jobs.recompute_ratings", (prefix, game), f"recompute {game} ratings", delay)
