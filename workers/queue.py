"""The RQ queues: validation (and ratings) jobs on ``KRONIEK_QUEUE``, the
solver analysis on ``KRONIEK_QUEUE-analysis``, so a long analysis never
holds up a verdict."""

from __future__ import annotations

import os
import time
import uuid
from datetime import timedelta

import redis
from rq import Queue, Retry
from rq.job import Job, JobStatus
from rq.registry import DeferredJobRegistry, ScheduledJobRegistry
from rq.results import Result
from rq.utils import now as rq_now, str_to_date

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


def analysis_playouts() -> int:
    """Games an estimate may play on per match analysis, all points together (KRONIEK_ANALYSIS_PLAYOUTS)."""
    return int(os.environ.get("KRONIEK_ANALYSIS_PLAYOUTS", "2000"))


def analysis_nice() -> int:
    """The nice value an analysis's work horse runs at, 0-19 (KRONIEK_ANALYSIS_NICE; 0: the worker's own)."""
    return min(19, max(0, int(os.environ.get("KRONIEK_ANALYSIS_NICE") or 10)))


def analysis_budgets() -> dict[str, float | int]:
    """What one match's analysis may take, as this process's environment sets it (``kroniek run`` gives its
    workers and its API the same)."""
    return {"seconds_per_match": analysis_seconds(), "nodes_per_match": analysis_nodes(),
            "nodes_per_solver_call": solver_budget(), "playouts_per_match": analysis_playouts(),
            "nice": analysis_nice()}


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
    return Queue(name or queue_name(), connection=queue_client(), job_class=KroniekJob)


# -- one waiting job per piece of work ------------------------------------------------
# Each job is queued under a "live" key named by its function and arguments
# (``live_key``) that holds the job's id: a job for the same work is queued
# only while none waits (queued, scheduled or deferred: it would read the log
# anyway when it starts). A job lets its key go as it starts (``started``),
# just after it takes its owed mark, so work owed after that gets a job of its
# own. A job RQ marked started still holds its key for the moment before its
# take, and counts as live then (for ``LIVE_GRACE`` at most). A key naming a
# job that RQ no longer has waiting (it ran, failed for good, or was lost) is
# taken over; one a worker popped that is not yet started counts as waiting
# for ``LIVE_GRACE`` from when it was first seen in no queue.
#
# The key and the job it names are written in one transaction (``_enqueue``:
# WATCH on the key, then RQ's writes of the job and the key in one
# MULTI/EXEC), so a Redis killed mid-way keeps both or neither. (Written one
# after the other, a kill between them left the job queued and the key a
# claim that, past its grace, let a second job be queued beside the first.)
# A job RQ retries takes the key the same way, or gives its turn to the job
# that holds it (``KroniekJob.retry``); and a worker drops queue entries
# whose job is gone or no longer queued (``tidy_queue``).

#: how long (s) a job just popped or started counts as live before its take;
#: also how long a claim (``claim:<id> <time>``, which an enqueue of an
#: earlier release wrote while it queued the job) stands
LIVE_GRACE = 10.0
#: a live key expires after this long (s) even if its job never started
LIVE_TTL = 7 * 24 * 3600
WAITING = {JobStatus.QUEUED.value, JobStatus.SCHEDULED.value, JobStatus.DEFERRED.value}

#: KEYS[1]: the live key; ARGV[1]: the job id that lets it go
_RELEASE = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] or (held and string.sub(held, 1, string.len(ARGV[1]) + 7) == 'claim:' .. ARGV[1] .. ' ') then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def live_key(queue: str, job: str, args: tuple) -> str:
    """The key naming the job that waits to do ``job(*args)`` on ``queue``."""
    return f"rq:kroniek-live:{queue}:{job}:" + "|".join(str(a) for a in args)


def _live(connection, held: bytes | None, now: float) -> bool:
    """Whether the live key's value ``held`` names a job that still waits (or has just started)."""
    if held is None:
        return False
    text = held.decode()
    if text.startswith("claim:"):
        since = text.rpartition(" ")[2]
        try:
            return now - float(since) < LIVE_GRACE
        except ValueError:
            return False
    return _waits_where_its_status_says(connection, text)


def _waits_where_its_status_says(connection, job_id: str) -> bool:
    """Whether the job waits: its status is queued, scheduled or deferred AND
    it is in that queue or registry, or it was popped moments ago (below). A
    job whose status says queued but which no queue has held for LIVE_GRACE
    was lost: a worker's pop that Redis wrote to its log just before it died,
    the reply never read. Taken for waiting, it held its match's live key
    for a week, and no move of that match got a verdict."""
    key = Job.key_for(job_id)
    status, origin, started_at = connection.hmget(key, "status", "origin", "started_at")
    if status is not None and status.decode() == JobStatus.STARTED.value and started_at:
        # Started but still holding its key: it has not taken its mark yet (a job takes it and lets its key go as
        # it begins), so it will read the log after all that is owed now. Taken for gone, the overdue re-queue
        # queued a second job for that work. Past LIVE_GRACE it was abandoned before the take.
        return time.time() - str_to_date(started_at).timestamp() < LIVE_GRACE
    if status is None or status.decode() not in WAITING or origin is None:
        return False
    name = origin.decode()
    if status.decode() == JobStatus.QUEUED.value:
        there = connection.lpos(Queue(name, connection=connection).key, job_id) is not None
    elif status.decode() == JobStatus.SCHEDULED.value:
        there = connection.zscore(ScheduledJobRegistry(name, connection=connection).key, job_id) is not None
    else:
        there = connection.zscore(DeferredJobRegistry(name, connection=connection).key, job_id) is not None
    if there:
        return True
    # moved on meanwhile (the scheduler queued it, a worker took it): waiting if its status still says so, or
    # started just now (before its take, as above)
    now = connection.hget(key, "status")
    if now is not None and now != status:
        return now.decode() in WAITING or now.decode() == JobStatus.STARTED.value
    if status.decode() != JobStatus.QUEUED.value:
        return False
    # Queued, yet in no queue: a worker popped it and its work horse has not marked it started yet (a worker on
    # two queues pops with BLPOP, and the job is then in no list while the horse forks), or the pop was the last
    # thing a dying worker did. Taken for lost at once, the first looked gone, and the overdue re-queue queued a
    # second job for the work it was about to do (the busy-worker test failed on it). It waits for LIVE_GRACE
    # from when it was first seen so; a pop whose worker died never starts, and then its work gets a job.
    missing = f"rq:kroniek-unlisted:{job_id}"
    # one round trip (SET … NX GET would be one command, but the embedded Redis is 6.2, which refuses it)
    pipe = connection.pipeline(transaction=False)
    pipe.set(missing, f"{time.time():.3f}", nx=True, ex=3600)  # an hour: long past any pop
    pipe.get(missing)
    _, since = pipe.execute()
    return since is not None and time.time() - float(since) < LIVE_GRACE


def is_waiting(job: str, args: tuple, queue: str | None = None) -> bool:
    """Whether a job for ``job(*args)`` waits on ``queue`` (a started one does not count)."""
    q = get_queue(queue)
    return _live(q.connection, q.connection.get(live_key(q.name, job, args)), time.time())


def started(job: str, args: tuple) -> None:
    """Called by a job once it took its owed mark: its live key goes, so what
    is owed from now on gets a job of its own. Not before the take: between
    the two, the overdue re-queue saw the old mark with no job waiting and
    queued a second job for work the first was about to do."""
    from rq import get_current_job

    current = get_current_job()
    if current is None:  # called outside a worker (a test, a sweep run by hand)
        return
    current.connection.eval(_RELEASE, 1, live_key(current.origin, job, args), current.id)


#: tries of an enqueue whose live key changed under it (another caller, a job starting)
ENQUEUE_ATTEMPTS = 5


def _enqueue(job: str, args: tuple, description: str, delay: float, queue: str | None = None,
             timeout: int = 600) -> Job | None:
    """Queue ``job`` with retries, starting ``delay`` seconds from now at the
    soonest (RQ's scheduler, which every kroniek worker runs, moves it to the
    queue then; RQ counts in whole seconds, so it may start up to a second
    sooner: nothing relies on the delay but batching). None, and nothing
    queued, if a job for the same function and arguments waits already (a
    scheduled one is brought forward to start by then).

    The job and its live key are written in one MULTI/EXEC, under a WATCH of
    the key: if the key changed since it was read, nothing is written and it
    is read again."""
    q = get_queue(queue)
    connection = q.connection
    key = live_key(q.name, job, args)
    for _ in range(ENQUEUE_ATTEMPTS):
        with connection.pipeline() as pipe:
            try:
                pipe.watch(key)
                held = pipe.get(key)
                now = time.time()
                if _live(connection, held, now):
                    _bring_forward(q, held, now + delay)
                    return None
                pipe.multi()
                # A job's work is in the store (a verdict, annotations); its return value is read by nothing.
                # Kept an hour, a finished job cost ~6.7 KB (its hash and a result stream): over HTTP, 223 B of
                # every live event's 679 (bench.bytes_per_event). A failed one stays a week, for `rq info` and
                # health.
                options = dict(retry=RETRY, job_timeout=timeout, result_ttl=0, failure_ttl=7 * 24 * 3600,
                               description=description, job_id=uuid.uuid4().hex, pipeline=pipe)
                if delay > 0:
                    queued = q.enqueue_in(timedelta(seconds=delay), job, *args, **options)
                else:
                    queued = q.enqueue(job, *args, **options)
                pipe.set(key, queued.id, ex=LIVE_TTL)
                pipe.execute()
                return queued
            except redis.WatchError:
                continue  # the key changed meanwhile: read it again
    return None  # others kept changing it: their jobs cover this work


def _bring_forward(q: Queue, held: bytes | None, when: float) -> None:
    """The job ``held`` names, if it waits in the scheduled registry to start
    after ``when`` (a retry's back-off), starts by then: the work asked for
    now is not held up behind it."""
    if held is None or held.startswith(b"claim:"):
        return
    q.connection.zadd(ScheduledJobRegistry(queue=q).key, {held: int(when)}, xx=True, lt=True)


#: KEYS: the live key, the job's key, where it goes (the scheduled registry or
#: the queue), the queue, the scheduled registry, RQ's set of queues
#: ARGV: job id, 'S' (scheduled) | 'Q' (queued) | 'F' (queued at the front),
#: when (for 'S'), the live key's TTL, the prefix of job keys, the job's results
#: key, then the job's fields (name, value, ...)
#: The job takes the live key and waits again, unless another job for the
#: same work waits (queued, scheduled, or started and not yet at its mark):
#: that one reads the log when it starts, so this one is deleted instead (and
#: the other brought forward to this one's start). Returns 1 if it waits, 0
#: if it gave way.
_RETRY = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] and string.sub(held, 1, 6) ~= 'claim:' then
  local status = redis.call('HGET', ARGV[5] .. held, 'status')
  local waits = status == 'started'
  if status == 'queued' then
    waits = redis.call('LPOS', KEYS[4], held) ~= false
  elseif status == 'scheduled' then
    waits = redis.call('ZSCORE', KEYS[5], held) ~= false
    if waits then redis.call('ZADD', KEYS[5], 'XX', 'LT', ARGV[3], held) end
  end
  if waits then
    redis.call('DEL', KEYS[2], ARGV[6])
    return 0
  end
end
redis.call('HSET', KEYS[2], unpack(ARGV, 7))
if ARGV[2] == 'S' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
  redis.call('SADD', KEYS[6], KEYS[4])
elseif ARGV[2] == 'F' then
  redis.call('LPUSH', KEYS[3], ARGV[1])
else
  redis.call('RPUSH', KEYS[3], ARGV[1])
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
return 1
"""


class KroniekJob(Job):
    """RQ's job, whose retry keeps the queue at one waiting job per piece of
    work. RQ retries a job that failed (Redis went away under it) or whose
    worker was killed; meanwhile the work may have got a job of its own (a
    move, the sweep after Redis restarted, the overdue re-queue). Both
    waited, one beside the other: after Redis was killed again and again the
    analysis queue held 83 jobs for 79 matches. A retry now goes through the
    live key as a new job does, in one script (``_RETRY``) in the caller's
    pipeline: it waits only if no other job for its work does, and then
    holds the key, so what is asked for later finds it (and brings it
    forward from its back-off)."""

    def retry(self, queue: Queue, pipeline) -> None:
        interval = self.get_retry_interval()
        self.retries_left = (self.retries_left or 1) - 1
        when = int(time.time() + interval)
        registry = ScheduledJobRegistry(queue=queue)
        if interval:
            self._status, mode, target = JobStatus.SCHEDULED, "S", registry.key
        else:  # as RQ's: queued again at once (at the front if asked)
            self._status = JobStatus.QUEUED
            self.enqueued_at = rq_now()
            mode, target = ("F" if self.enqueue_at_front_on_retry else "Q"), queue.key
        self.origin = queue.name
        fields: list = []
        for name, value in self.to_dict().items():
            if value is not None:
                fields += [name, value]
        key = live_key(queue.name, self.func_name, tuple(self.args))
        pipeline.eval(_RETRY, 6, key, self.key, target, queue.key, registry.key, Queue.redis_queues_keys,
                      self.id, mode, when, LIVE_TTL, Job.redis_job_namespace_prefix, Result.get_key(self.id),
                      *fields)


#: KEYS[1]: a queue; ARGV[1]: the prefix of job keys
#: Drops the entries whose job is gone or not queued (it ran, or runs, and was
#: pushed again), and every entry of a job but its first; the others keep
#: their order. Returns how many were dropped.
_TIDY = """
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
local keep, seen = {}, {}
for _, id in ipairs(ids) do
  if not seen[id] and redis.call('HGET', ARGV[1] .. id, 'status') == 'queued' then
    keep[#keep + 1] = id
  end
  seen[id] = true
end
local dropped = #ids - #keep
if dropped > 0 then
  redis.call('DEL', KEYS[1])
  for i = 1, #keep, 1000 do
    redis.call('RPUSH', KEYS[1], unpack(keep, i, math.min(i + 999, #keep)))
  end
end
return dropped
"""


def tidy_queue(q: Queue) -> int:
    """Drop the entries of queue ``q`` whose job record is gone (lost in a
    Redis restart, or deleted as it finished while a second entry of it
    waited), or whose job is no longer queued, and every entry of a job but
    its first, in one atomic step; how many were dropped. A worker would skip
    a gone job as it reached it, but behind a backlog such entries stayed
    for long, counted as waiting."""
    return int(q.connection.eval(_TIDY, 1, q.key, Job.redis_job_namespace_prefix))


VALIDATE = "workers.jobs.validate_match"
ANALYSE = "workers.jobs.analyse_match"
RATE = "workers.jobs.recompute_ratings"


def enqueue_validation(prefix: str, match_id: str, delay: float = 0.0) -> Job | None:
    """Queue a validation of the match's whole log (replay, rules, chain)."""
    return _enqueue(VALIDATE, (prefix, match_id), f"validate match {match_id}", delay)


def enqueue_analysis(prefix: str, match_id: str) -> Job | None:
    """Queue the solver analysis of the match's log on the analysis queue;
    its job may run up to the analysis time budget (and a margin)."""
    return _enqueue(ANALYSE, (prefix, match_id), f"analyse match {match_id}", 0.0,
             queue=analysis_queue_name(), timeout=int(analysis_seconds()) + 120)


def enqueue_ratings(prefix: str, game: str, delay: float = 0.0) -> Job | None:
    """Queue a recomputation of ``game``'s ratings from every league result
    (``workers.jobs.recompute_ratings``). Any job that starts after a result
    was appended covers it, so a burst of results queues one job while it
    waits; each rates from scratch and the stored table does not depend on
    which ran or finished first."""
    return _enqueue(RATE, (prefix, game), f"recompute {game} ratings", delay)
