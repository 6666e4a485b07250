"""``GET /api/health``: is the store reachable, are the queues moving, is a
worker there, how old is the oldest verdict still to come, how much work is
owed. Reads a few keys of RQ's own bookkeeping (queue lengths, registries,
worker heartbeats) and the first entries of the owed sets; it never scans
the matches.

Every Redis call it makes goes through a client of its own with a short
timeout (``TIMEOUT`` per call, no retries), so a Redis that hangs (frozen,
swapping, a network that drops packets) gives an answer within about two
seconds that says so, not a request that hangs with it.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any

import redis
from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields
from rq import Queue, Worker
from rq.job import Job
from rq.registry import FailedJobRegistry, ScheduledJobRegistry, StartedJobRegistry

from .gate import Blueprint
from .outage import RETRY_AFTER, STORE_ERRORS

health = Blueprint("health", __name__, url_prefix="/api", description="Is the service well")

#: a worker whose last heartbeat is older than this is not counted as seen
SEEN_WITHIN = 60.0
#: a verdict pending longer than this makes the service "degraded"
STALE_AFTER = 60.0
#: an analysis owed (or its job waiting) longer than this makes the service "degraded"
ANALYSIS_BEHIND = 900.0
#: more jobs than this waiting (queued or scheduled) on one queue make the service "degraded"
QUEUE_DEPTH = 1000
#: seconds each Redis call made by the health check may take (connect, send, read)
TIMEOUT = 0.5
#: how many of the oldest queued, scheduled and running jobs are looked at
PEEK = 20
VALIDATION_JOB = "workers.jobs.validate_match"


def queue_names() -> dict[str, str]:
    """The queues a worker serves: validation (``KRONIEK_QUEUE``, default
    ``kroniek``) and analysis (the same name with ``-analysis``)."""
    from workers.queue import ROLES, queue_names as names

    return dict(zip(ROLES, names(ROLES)))


def queue_connection():
    connection = current_app.extensions.get("kroniek.queue_connection")
    if connection is None:
        from workers.connection import queue_client

        connection = queue_client()
    return connection


def quick(client: Any) -> Any:
    """A client to the same Redis as ``client`` whose every call gives up
    after ``TIMEOUT`` seconds, without retries (one per app and client). A
    client this cannot copy (a Cluster, a test double) is used as it is."""
    if type(client) is not redis.Redis or client.connection_pool is None:
        return client
    cache = current_app.extensions.setdefault("kroniek.health_clients", {})
    quick_client = cache.get(id(client))
    if quick_client is None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        pool = client.connection_pool
        kwargs = {**pool.connection_kwargs, "socket_timeout": TIMEOUT, "socket_connect_timeout": TIMEOUT,
                  "retry": Retry(NoBackoff(), 0)}
        quick_client = redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                                        max_connections=8, **kwargs),
                                   retry=Retry(NoBackoff(), 0))
        cache[id(client)] = quick_client
    return quick_client


class RedisOut(Schema):
    reachable = fields.Boolean(required=True)
    latency_ms = fields.Float(allow_none=True, metadata={"description": "one PING, round trip"})
    error = fields.String(metadata={"description": "why it is not reachable"})


class QueueOut(Schema):
    name = fields.String(required=True)
    queued = fields.Integer(required=True, metadata={"description": "jobs waiting for a worker"})
    scheduled = fields.Integer(required=True, metadata={"description": "jobs waiting for their start time (delays, retries)"})
    started = fields.Integer(required=True, metadata={"description": "jobs running now"})
    failed = fields.Integer(required=True, metadata={"description": "jobs that failed every retry (kept 7 days)"})
    oldest_pending_seconds = fields.Float(allow_none=True, metadata={
        "description": "age of the oldest job queued, scheduled or running (null: none)"})
    oldest_waiting_seconds = fields.Float(allow_none=True, metadata={
        "description": "age of the oldest job queued or scheduled, not yet started (null: none)"})


class WorkersOut(Schema):
    registered = fields.Integer(required=True, metadata={"description": "workers registered on these queues"})
    seen_last_minute = fields.Integer(required=True, metadata={"description": "of them, with a heartbeat in the last 60 s"})


class OwedOut(Schema):
    count = fields.Integer(required=True, metadata={"description": "matches owed this work (a job waits or is due)"})
    oldest_seconds = fields.Float(allow_none=True, metadata={
        "description": "how long the match owed it the longest has waited (null: none)"})


class ThresholdsOut(Schema):
    verdict_pending_seconds = fields.Float(required=True)
    analysis_behind_seconds = fields.Float(required=True)
    queue_depth = fields.Integer(required=True)


class AnalysisBudgetsOut(Schema):
    seconds_per_match = fields.Float(required=True, metadata={
        "description": "no solver call of a match's analysis starts after these (KRONIEK_ANALYSIS_SECONDS)"})
    nodes_per_match = fields.Integer(required=True, metadata={
        "description": "solver nodes of a match's analysis, all calls together (KRONIEK_ANALYSIS_NODES)"})
    nodes_per_solver_call = fields.Integer(required=True, metadata={
        "description": "past these a solver says unknown (KRONIEK_SOLVER_BUDGET)"})
    playouts_per_match = fields.Integer(required=True, metadata={
        "description": "games an estimate plays on per match, all its points together (KRONIEK_ANALYSIS_PLAYOUTS)"})
    nice = fields.Integer(required=True, metadata={
        "description": "the priority an analysis runs at, 0-19, below the verdicts (KRONIEK_ANALYSIS_NICE)"})


class PendingVerdictOut(Schema):
    match = fields.String(allow_none=True)
    age_seconds = fields.Float(required=True, metadata={
        "description": "since the append that owes it (or the validation job was queued)"})


class HealthOut(Schema):
    status = fields.String(required=True, metadata={
        "description": "ok; degraded (see problems: no live worker, a verdict pending over 60 s, an analysis "
                       "behind over 15 min, over 1000 jobs waiting on a queue); unavailable (Redis unreachable)"})
    checked_at = fields.String(required=True)
    redis = fields.Nested(RedisOut, required=True, metadata={"description": "the event store"})
    queue_redis = fields.Nested(RedisOut, required=True, metadata={
        "description": "the job queue's Redis (the same server unless RQ_REDIS_URL is set)"})
    queues = fields.Dict(keys=fields.String(), values=fields.Nested(QueueOut), metadata={
        "description": "validation and analysis"})
    workers = fields.Nested(WorkersOut, allow_none=True)
    analysis_budgets = fields.Nested(AnalysisBudgetsOut, allow_none=True, metadata={
        "description": "what one match's analysis may take, as configured (it never delays a verdict: its own "
                       "queue and a lower priority); null when Redis is unreachable, or when a setting is no "
                       "number (a problem says which)"})
    oldest_pending_verdict = fields.Nested(PendingVerdictOut, allow_none=True, metadata={
        "description": "the oldest validation still to run (null: none)"})
    owed = fields.Dict(keys=fields.String(), values=fields.Nested(OwedOut), metadata={
        "description": "matches owed a validation and an analysis"})
    thresholds = fields.Nested(ThresholdsOut, metadata={"description": "beyond these the status is degraded"})
    problems = fields.List(fields.String(), required=True)


def _ping(client) -> dict[str, Any]:
    start = time.perf_counter()
    try:
        client.ping()
    except STORE_ERRORS as exc:
        return {"reachable": False, "latency_ms": None, "error": f"{type(exc).__name__}: {exc}"}
    return {"reachable": True, "latency_ms": round((time.perf_counter() - start) * 1000, 3)}


def _age(job: Job | None, now: datetime) -> float | None:
    if job is None or job.created_at is None:
        return None
    created = job.created_at if job.created_at.tzinfo else job.created_at.replace(tzinfo=timezone.utc)
    return max(0.0, (now - created).total_seconds())


def _queue_report(queue: Queue, now: datetime) -> tuple[dict[str, Any], list[Job]]:
    """Counts, and the oldest few jobs that are still to finish."""
    scheduled = ScheduledJobRegistry(queue=queue)
    started = StartedJobRegistry(queue=queue)
    ids = (queue.get_job_ids(0, PEEK - 1)
           + scheduled.get_job_ids(0, PEEK - 1, cleanup=False)
           + started.get_job_ids(0, PEEK - 1, cleanup=False))
    jobs = [j for j in Job.fetch_many(list(dict.fromkeys(ids)), connection=queue.connection) if j is not None]
    ages = [a for a in (_age(j, now) for j in jobs) if a is not None]
    waiting = set(queue.get_job_ids(0, PEEK - 1)) | set(scheduled.get_job_ids(0, PEEK - 1, cleanup=False))
    waiting_ages = [a for a in (_age(j, now) for j in jobs if j.id in waiting) if a is not None]
    report = {
        "name": queue.name,
        "queued": queue.count,
        "scheduled": scheduled.get_job_count(cleanup=False),
        "started": started.get_job_count(cleanup=False),
        "failed": FailedJobRegistry(queue=queue).get_job_count(cleanup=False),
        "oldest_pending_seconds": round(max(ages), 3) if ages else None,
        "oldest_waiting_seconds": round(max(waiting_ages), 3) if waiting_ages else None,
    }
    return report, jobs


def _oldest_verdict(jobs: list[Job], now: datetime, owed: tuple[str, float] | None) -> dict[str, Any] | None:
    """The older of: the match owed a validation the longest (an append that
    no job has read yet, queued or lost) and the oldest validation job still
    queued, scheduled or running."""
    oldest: dict[str, Any] | None = None
    if owed is not None:
        oldest = {"match": owed[0], "age_seconds": round(max(0.0, now.timestamp() - owed[1]), 3)}
    for job in jobs:
        try:
            if job.func_name != VALIDATION_JOB:
                continue
            match = job.args[1] if len(job.args) > 1 else None
        except Exception:  # a job this code cannot read is not a verdict it can name
            continue
        age = _age(job, now)
        if age is not None and (oldest is None or age > oldest["age_seconds"]):
            oldest = {"match": match, "age_seconds": round(age, 3)}
    return oldest


def _owed(client: Any, store: Any, now: datetime) -> dict[str, dict[str, Any]]:
    """Per kind of work: how many matches are owed it, and the longest wait."""
    pipe = client.pipeline(transaction=False)
    for work in ("validation", "analysis"):
        pipe.zcard(store.owed_key(work))
        pipe.zrange(store.owed_key(work), 0, 0, withscores=True)
    replies = pipe.execute()
    out = {}
    for i, work in enumerate(("validation", "analysis")):
        count, first = replies[2 * i], replies[2 * i + 1]
        oldest = round(max(0.0, now.timestamp() - float(first[0][1])), 3) if first else None
        out[work] = {"count": count, "oldest_seconds": oldest,
                     "_match": (first[0][0].decode() if isinstance(first[0][0], bytes) else first[0][0]) if first else None}
    return out


def health_report() -> tuple[dict[str, Any], int]:
    from workers.queue import analysis_budgets

    now = datetime.now(timezone.utc)
    store = current_app.extensions["kroniek"].store
    store_client, connection = quick(store.r), quick(queue_connection())
    report: dict[str, Any] = {
        "status": "ok",
        "checked_at": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
        "redis": _ping(store_client),
        "queue_redis": None,
        "queues": {},
        "workers": None,
        "analysis_budgets": None,
        "oldest_pending_verdict": None,
        "owed": {},
        "thresholds": {"verdict_pending_seconds": STALE_AFTER, "analysis_behind_seconds": ANALYSIS_BEHIND,
                       "queue_depth": QUEUE_DEPTH},
        "problems": [],
    }
    # One Redis that does not answer is enough: the other is not tried when it is the same client.
    report["queue_redis"] = (report["redis"] if connection is store_client
                             else _ping(connection))
    problems = report["problems"]
    for which in ("redis", "queue_redis"):
        if not report[which]["reachable"]:
            problems.append(f"{'the store' if which == 'redis' else 'the job queue'} (Redis) is unavailable: "
                            f"{report[which]['error']}")
    if problems:
        report["status"] = "unavailable"
        return report, 503
    try:
        report["analysis_budgets"] = analysis_budgets()
    except ValueError as exc:  # a setting that is no number: the workers refuse to start with it too
        problems.append(f"an analysis budget is not a number: {exc}")
    try:
        owed = _owed(store_client, store, now)
        queues = {kind: Queue(name, connection=connection) for kind, name in queue_names().items()}
        validation_jobs: list[Job] = []
        for kind, queue in queues.items():
            report["queues"][kind], jobs = _queue_report(queue, now)
            if kind == "validation":
                validation_jobs = jobs
        first = owed["validation"]
        report["oldest_pending_verdict"] = _oldest_verdict(
            validation_jobs, now, (first["_match"], now.timestamp() - first["oldest_seconds"])
            if first["_match"] is not None else None)
        report["owed"] = {work: {k: v for k, v in o.items() if k != "_match"} for work, o in owed.items()}
        workers: dict[str, Worker] = {}
        for queue in queues.values():
            for worker in Worker.all(queue=queue):
                workers[worker.name] = worker
    except STORE_ERRORS as exc:  # gone between the ping and now
        report["status"] = "unavailable"
        problems.append(f"Redis became unavailable: {type(exc).__name__}: {exc}")
        return report, 503
    seen = [w for w in workers.values()
            if w.last_heartbeat is not None and (now - w.last_heartbeat.replace(tzinfo=timezone.utc)).total_seconds() <= SEEN_WITHIN]
    report["workers"] = {"registered": len(workers), "seen_last_minute": len(seen)}
    if not workers:
        problems.append("no worker is registered on the queues: verdicts wait until one starts (kroniek worker)")
    elif not seen:
        problems.append(f"no worker has shown a heartbeat in the last {SEEN_WITHIN:.0f} s")
    pending = report["oldest_pending_verdict"]
    if pending is not None and pending["age_seconds"] > STALE_AFTER:
        problems.append(f"a verdict has been pending for {pending['age_seconds']:.0f} s")
    behind = max(filter(None, (report["owed"]["analysis"]["oldest_seconds"],
                               report["queues"]["analysis"]["oldest_waiting_seconds"])), default=None)
    if behind is not None and behind > ANALYSIS_BEHIND:
        problems.append(f"the analysis is behind: a match has waited {behind:.0f} s for one "
                        f"({report['owed']['analysis']['count']} owed)")
    for kind, queue_report in report["queues"].items():
        depth = queue_report["queued"] + queue_report["scheduled"]
        if depth > QUEUE_DEPTH:
            problems.append(f"{depth} jobs wait on the {kind} queue (over {QUEUE_DEPTH})")
    if problems:
        report["status"] = "degraded"
    return report, 200


@health.route("/health")
class Health(MethodView):
    @health.response(200, HealthOut)
    @health.alt_response(503, schema=HealthOut, headers={"Retry-After": {
        "description": "seconds to wait", "schema": {"type": "integer"}}},
        description="Redis is unreachable (status unavailable)")
    def get(self):
        """The service's health: Redis reachable (latency), queue depths, workers seen in the last minute, the oldest pending verdict

        200 when the store answers (status `ok`, or `degraded` with the
        problems named); 503 with the same JSON when Redis is unreachable."""
        report, status = health_report()
        headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else {}
        return report, status, headers
