"""``kroniek worker``: an RQ worker (and scheduler) that keeps going.

RQ's own worker gives up on a Redis outage, leaves a killed scheduler's lock
to expire on its own (a minute) and finds a killed worker's job abandoned
only once its lease runs out; and it checks for either only between jobs or
after blocking up to seven minutes for one. Here:

- the worker blocks at most ``DEQUEUE_TIMEOUT`` seconds, then runs its
  maintenance (every ``MAINTENANCE_INTERVAL`` s): a lock held by a scheduler
  whose heartbeat stopped ``STALE_AFTER`` s ago is taken over; a started job
  whose execution has not had a heartbeat for ``STALE_AFTER`` s is handed to
  RQ's own abandoned-job handling (retried, or failed once out of retries);
  queue entries whose job is gone are dropped (``queue.tidy_queue``);
  matches owed a job for too long get one (``jobs.requeue_overdue``); after
  Redis restarted, or every ``SWEEP_INTERVAL`` s, the whole store is swept;
- the scheduler runs in every worker, with or without its lock, retries
  taking it every few seconds, rides out Redis outages, and stops when its
  worker is gone;
- losing Redis ends one work loop, not the process: ``run`` waits for Redis
  with back-off, sweeps, and starts a new loop;
- ``kroniek worker`` with no ``--queues`` runs two of these (``supervise``):
  one on the validation queue, one on validation then analysis, so a
  solver analysis of minutes never holds up a verdict of milliseconds;
- an analysis runs at a lower CPU priority (``ANALYSIS_NICE``), in a session
  of its own: a solver that runs to its deadline yields the cores to the
  API, the verdicts and whatever else the machine runs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from datetime import datetime, timezone

import redis
from rq import Worker
from rq.exceptions import StopRequested
from rq.worker import WorkerStatus
from rq.registry import StartedJobRegistry
from rq.scheduler import RQScheduler
from rq.scripts import release_lock

from .connection import key_prefix, load_plugins, queue_client, store_client, worker_queue_client
from .jobs import OVERDUE, requeue_overdue, sweep
from .queue import ANALYSE, ROLES, VALIDATE, KroniekJob, analysis_nice, queue_names, tidy_queue

log = logging.getLogger("kroniek.worker")

#: How often (s) an idle worker runs its maintenance (``KRONIEK_MAINTENANCE_SECONDS``):
#: lost jobs found, overdue marks given a job again.
MAINTENANCE_INTERVAL = max(1, int(os.environ.get("KRONIEK_MAINTENANCE_SECONDS") or 5))
#: Longest blocking wait for a job: between waits the worker heartbeats and
#: runs its maintenance when due.
DEQUEUE_TIMEOUT = min(5, MAINTENANCE_INTERVAL)
#: A scheduler or a job execution silent this long (s) is taken as dead.
#: Schedulers beat every second, executions every ``JOB_MONITORING`` s.
STALE_AFTER = 10
JOB_MONITORING = 3
#: The niceness of an analysis's work horse (``KRONIEK_ANALYSIS_NICE``, 0 to 19):
#: a Sir Tommy analysis may search for its whole ``KRONIEK_ANALYSIS_SECONDS``.
ANALYSIS_NICE = analysis_nice()
#: Retry the scheduler locks this often (s) while some are held elsewhere.
LOCK_RETRY = 3
#: A full sweep of the store at least this often (s), by one worker.
SWEEP_INTERVAL = int(os.environ.get("KRONIEK_SWEEP_INTERVAL", "300"))
REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError, OSError)


def _age(raw: bytes | str | None) -> float:
    """Seconds since an RQ heartbeat field (ISO 8601 or a unix time); inf if absent."""
    if raw is None:
        return float("inf")
    text = raw.decode() if isinstance(raw, bytes) else raw
    try:
        then = float(text)
    except ValueError:
        try:
            then = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            return float("inf")
    return time.time() - then


class Scheduler(RQScheduler):
    """RQ's scheduler, made to keep going (see the module docstring)."""

    def break_stale_locks(self) -> None:
        """Release locks whose holder has stopped refreshing them (it was
        killed): a live holder sets the lock's TTL back to ``interval + 60``
        s every ``interval`` s. Each is released only if still held by that
        same holder."""
        full = self.interval + 60
        for name in self._queue_names:
            key = self.get_locking_key(name)
            pipe = self.connection.pipeline()
            pipe.get(key)
            pipe.ttl(key)
            holder, ttl = pipe.execute()
            if holder is None or holder.decode() == self.name or ttl < 0:
                continue
            silent = full - ttl
            if silent > STALE_AFTER and release_lock(self.connection, key, holder.decode()):
                self.log.warning("Scheduler lock for %s was held by a scheduler silent for %d s; taken over",
                                 name, silent)

    def acquire_locks(self, auto_start: bool = False):
        self.break_stale_locks()
        return super().acquire_locks(auto_start)

    @property
    def should_reacquire_locks(self) -> bool:
        if self._queue_names == self.acquired_locks:
            return False
        return not self.lock_acquisition_time or (datetime.now() - self.lock_acquisition_time).total_seconds() > LOCK_RETRY

    def stop(self) -> None:
        with contextlib.suppress(*REDIS_ERRORS):
            super().stop()

    def work(self) -> None:
        self._install_signal_handlers()
        parent = os.getppid()
        born = False
        wait = 1.0
        while not self._stop_requested and os.getppid() == parent:
            try:
                if not born:
                    self.register_birth()
                    born = True
                if self.should_reacquire_locks:
                    self.acquire_locks()
                self.heartbeat()
                if self._acquired_locks:
                    self.enqueue_scheduled_jobs()
                wait = 1.0
                time.sleep(self.interval)
            except REDIS_ERRORS as exc:
                self.log.warning("Scheduler: Redis unavailable (%s); trying again in %.0f s", exc, wait)
                time.sleep(wait)
                wait = min(wait * 2, 10.0)
        self.stop()


class QuietMaintenance(logging.Filter):
    """Drops RQ's INFO line for each registry clean-up: ours runs every
    ``MAINTENANCE_INTERVAL`` s (that is how lost jobs come back quickly), and
    three such lines a worker every few seconds buried what ``kroniek run``
    has to say. Warnings and errors from the clean-up still show."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno <= logging.INFO and isinstance(record.msg, str)
                    and "cleaning" in record.msg and "registries" in record.msg)


class KroniekWorker(Worker):
    """RQ's worker with the recovery described in the module docstring."""

    def __init__(self, *args, prefix: str, **kwargs) -> None:
        kwargs.setdefault("worker_ttl", DEQUEUE_TIMEOUT + 15)  # RQ blocks worker_ttl - 15 s at most
        kwargs.setdefault("job_monitoring_interval", JOB_MONITORING)
        kwargs.setdefault("maintenance_interval", MAINTENANCE_INTERVAL)
        kwargs.setdefault("job_class", KroniekJob)  # its retries keep one waiting job per match and kind
        super().__init__(*args, **kwargs)
        if not any(isinstance(f, QuietMaintenance) for f in self.log.filters):
            self.log.addFilter(QuietMaintenance())
        self.prefix = prefix
        self.max_connection_wait_time = 10.0
        self.stopping = False
        self._redis_run_id: str | None = None
        self._swept_at = time.monotonic()

    # -- the work horse -----------------------------------------------------------
    def execute_job(self, job, queue) -> None:
        """A validation runs here, in the worker, as RQ's SimpleWorker runs
        every job: it keeps the checkpoints of the matches it validated
        (``jobs.CHECKPOINTS``), so a live match's next verdict replays only
        the moves since, and it is spared a fork (~12 ms of CPU, more than a
        short log's whole verdict). Its job timeout still holds (RQ's alarm,
        here). Every other job gets a work horse of its own, as RQ's."""
        if job.func_name != VALIDATE:
            return super().execute_job(job, queue)
        execution = self.prepare_execution(job)
        self.perform_job(job, queue, execution)
        self.set_state(WorkerStatus.IDLE)

    def fork_work_horse(self, job, queue) -> None:
        """As RQ's, but an analysis's horse starts a session of its own
        (also a process group of its own, which is what RQ signals) and
        lowers its priority there (``lower_priority``). Linux schedules each
        session as one group (autogroup), so a nice value alone would only
        rank the horse against its own worker, which sleeps while it runs."""
        if job.func_name != ANALYSE or not ANALYSIS_NICE:
            return super().fork_work_horse(job, queue)
        child_pid = os.fork()
        os.environ["RQ_WORKER_ID"] = self.name
        os.environ["RQ_JOB_ID"] = job.id
        if child_pid == 0:
            os.setsid()
            lower_priority(ANALYSIS_NICE)
            self.main_work_horse(job, queue)
            os._exit(0)  # as RQ's: main_work_horse exits itself
        self._horse_pid = child_pid
        self.procline(f"Forked {child_pid} at {time.time()}")

    # -- stopping -----------------------------------------------------------
    def request_stop(self, signum, frame):
        self.stopping = True
        super().request_stop(signum, frame)

    def unsubscribe(self) -> None:
        """As RQ's, but never waiting on the listener thread for long. RQ starts it with a 60 s wait; a burst
        that ends before the thread saw its subscription confirmed left it in that wait, and redis-py 8's
        ``stop()`` joins the thread: the worker hung up to a minute at its exit (seen under load). It is a
        daemon thread; a second is all it gets."""
        thread = self.pubsub_thread
        if thread is None:
            return
        with contextlib.suppress(Exception):
            self.pubsub.unsubscribe()
        try:
            thread.stop(timeout=1)  # redis-py >= 8: stop, and join at most this long
        except TypeError:  # an older redis-py: stop() does not join
            thread.stop()
            thread.join(timeout=1)
        with contextlib.suppress(Exception):
            self.pubsub.close()

    def teardown(self) -> None:
        """As RQ's, but a Redis that is gone does not stop the clean-up."""
        if self.is_horse:
            return
        if self.scheduler:
            self.stop_scheduler()
        with contextlib.suppress(*REDIS_ERRORS):
            self.register_death()
        self.unsubscribe()

    # -- scheduling -----------------------------------------------------------
    def _start_scheduler(self, burst=False, logging_level="INFO", date_format=None, log_format=None):
        """Start the scheduler process whether or not its locks are free now:
        it keeps trying for them itself."""
        options = {k: v for k, v in (("date_format", date_format), ("log_format", log_format)) if v}
        self.scheduler = Scheduler(self.queues, connection=self.connection,
                                   logging_level=logging_level or self.log.level, serializer=self.serializer,
                                   **options)
        self.scheduler.acquire_locks()
        if burst:
            if self.scheduler.acquired_locks:
                try:
                    self.scheduler.register_birth()
                    self.scheduler.enqueue_scheduled_jobs()
                finally:
                    self.scheduler.release_locks()
                    self.scheduler.register_death()
        else:
            self.scheduler.start()

    # -- maintenance ------------------------------------------------------------
    def check_for_suspension(self, burst: bool) -> None:
        with contextlib.suppress(*REDIS_ERRORS):
            super().check_for_suspension(burst)

    def run_maintenance_tasks(self) -> None:
        parent = int(os.environ.get("KRONIEK_WORKER_PARENT") or 0)
        if parent and os.getppid() != parent:  # started by supervise(), which is gone
            self.log.warning("Worker %s: its supervisor is gone; stopping", self.name)
            self.stopping = True
            raise StopRequested()
        try:
            process = self.scheduler._process if self.scheduler else None
            if self.last_cleaned_at and process is not None and not process.is_alive():
                self.scheduler.start()  # it died: a new one (it takes its locks itself)
            self.recover_abandoned()
            self.clean_registries()
            self.clean_group_registries()
            self.tidy_queues()
            requeue_overdue(self.prefix)
            self.maybe_sweep()
        except REDIS_ERRORS as exc:
            self.log.warning("Worker %s: maintenance skipped, Redis unavailable (%s)", self.name, exc)
            self.last_cleaned_at = None  # try again at the next chance

    def recover_abandoned(self) -> None:
        """Hand the started jobs whose execution stopped beating (its worker
        was killed) to RQ's abandoned-job handling now, not when their lease
        ends (a minute or more later)."""
        for queue in self.queues:
            registry = StartedJobRegistry(queue=queue, job_class=self.job_class)
            entries = self.connection.zrange(registry.key, 0, -1)
            stale = []
            for entry in entries:
                composite = entry.decode()
                beat = self.connection.hget(f"rq:execution:{composite}", "last_heartbeat")
                if _age(beat) > STALE_AFTER:
                    stale.append(composite)
            if stale:
                self.log.warning("Worker %s: %d job(s) on %s abandoned by a worker that stopped; retrying them",
                                 self.name, len(stale), queue.name)
                self.connection.zadd(registry.key, {c: 0 for c in stale}, xx=True)
                registry.cleanup(exception_handlers=self._exc_handlers)

    def tidy_queues(self) -> None:
        """Drop the queue entries whose job is gone or no longer queued
        (``queue.tidy_queue``), before the overdue re-queue looks."""
        for queue in self.queues:
            dropped = tidy_queue(queue)
            if dropped:
                self.log.warning("Worker %s: dropped %d entr%s of %s whose job was gone or not queued",
                                 self.name, dropped, "y" if dropped == 1 else "ies", queue.name)

    def maybe_sweep(self) -> None:
        """Sweep the store when Redis restarted (jobs may be lost with it) or
        when no worker has for ``SWEEP_INTERVAL`` s."""
        run_id = store_client().info("server").get("run_id")
        restarted = self._redis_run_id is not None and run_id != self._redis_run_id
        self._redis_run_id = run_id
        due = time.monotonic() - self._swept_at > SWEEP_INTERVAL
        if restarted or (due and store_client().set(f"{self.prefix}:sweep-lock", self.name, nx=True, ex=SWEEP_INTERVAL)):
            self._swept_at = time.monotonic()
            queued = sweep(self.prefix, trust_marks=OVERDUE)
            self.log.info("Worker %s: swept the store%s; %d job(s) queued", self.name,
                          " (Redis restarted)" if restarted else "", queued)


def lower_priority(nice: int) -> None:
    """Run this process (and its session's group, where the kernel groups
    sessions: /proc/self/autogroup) at niceness ``nice``. Raising niceness
    needs no privilege; where either cannot be set the process goes on as it is."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    with contextlib.suppress(OSError):
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))


def wait_for_redis(stopping: list[bool], wait: float = 1.0, longest: float = 10.0) -> bool:
    """Block until both Redis connections answer (back-off up to ``longest``
    seconds); False if asked to stop meanwhile."""
    while not stopping[0]:
        try:
            store_client().ping()
            queue_client().ping()
            return True
        except REDIS_ERRORS as exc:
            log.warning("Redis unavailable (%s); trying again in %.0f s", exc, wait)
            time.sleep(wait)
            wait = min(wait * 2, longest)
        except redis.BusyLoadingError:
            time.sleep(0.5)
    return False


#: a worker's exit code where the store is in a format this code does not serve: starting it again would not
#: help, so ``supervise`` stops (``replays.format``)
WRONG_FORMAT = 3


def serves_format(prefix: str) -> None:
    """Exit with ``WRONG_FORMAT`` (and why, in the log) unless the store is in this code's format."""
    from replays.format import FormatMismatch, check

    try:
        check(store_client(), prefix, by="kroniek worker")
    except FormatMismatch as exc:
        log.error("%s", exc)
        raise SystemExit(WRONG_FORMAT) from None


#: What ``kroniek worker`` runs by default: two RQ workers in two processes,
#: so a long analysis never holds up a verdict: one serves validation only,
#: the other validation first and analysis when there is no validation.
DEFAULT_SPLIT = (("validation",), ("validation", "analysis"))


def supervise(split: tuple[tuple[str, ...], ...] = DEFAULT_SPLIT, restart_after: float = 1.0) -> None:
    """Run one ``kroniek worker --queues …`` process per entry of ``split``;
    pass SIGINT/SIGTERM on to them (a second one: they abandon their jobs),
    and start again one that stops by itself. Returns when they are all stopped."""
    import subprocess
    import sys

    from .lifeline import tied_to_parent

    from .logs import configure

    configure()  # JSON lines on stderr (workers.logs)
    signals = [0]

    def forward(*_: object) -> None:
        signals[0] += 1
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)

    def spawn(roles: tuple[str, ...]) -> subprocess.Popen:
        # A process group of its own: a Ctrl-C reaches only this process,
        # which passes it on once (a second signal would abandon the jobs).
        return subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", ",".join(roles)],
                                process_group=0, env={**os.environ, "KRONIEK_WORKER_PARENT": str(os.getpid())},
                                preexec_fn=tied_to_parent())

    children: list[subprocess.Popen] = []
    signal.signal(signal.SIGINT, forward)
    signal.signal(signal.SIGTERM, forward)
    children.extend(spawn(roles) for roles in split)
    while True:
        time.sleep(0.2)
        if signals[0]:
            if all(c.poll() is not None for c in children):
                return
            continue
        if any(c.poll() == WRONG_FORMAT for c in children):
            forward()
            for child in children:
                child.wait()
            raise SystemExit(WRONG_FORMAT)
        for i, child in enumerate(children):
            if child.poll() is not None:
                log.warning("worker for %s stopped (%s); starting it again", ",".join(split[i]), child.returncode)
                time.sleep(restart_after)
                if not signals[0]:
                    children[i] = spawn(split[i])


def run(queues: list[str] | tuple[str, ...] = ROLES, burst: bool = False) -> None:
    """Serve ``queues`` (roles ``validation``, ``analysis`` or queue names,
    in order of priority) in this process until stopped by SIGINT or SIGTERM
    (or, with ``burst``, until they are empty)."""
    from .logs import configure

    configure()  # JSON lines on stderr (workers.logs); RQ's own lines go through it too
    load_plugins()
    prefix = key_prefix()
    names = queue_names(list(queues))
    stopping = [False]

    def stop(*_: object) -> None:
        stopping[0] = True

    wait = 1.0
    while True:
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        if not wait_for_redis(stopping):
            return
        worker = None
        started = time.monotonic()
        try:
            serves_format(prefix)
            # Before taking jobs, queue whatever is owed (a job lost between
            # an append and its enqueue, or with a Redis that crashed).
            sweep(prefix)
            # RQ's blocking pop waits up to DEQUEUE_TIMEOUT: on a client of its own, whose reads may last that long
            worker = KroniekWorker(names, connection=worker_queue_client(DEQUEUE_TIMEOUT), prefix=prefix)
            if stopping[0]:
                # a stop asked for while it started (the sweep of a large store takes seconds): work() would put
                # RQ's handlers in place of ``stop`` and serve on, the signal spent (a supervisor's child whose
                # parent died then, told so by SIGTERM, served on for ever)
                return
            worker.work(with_scheduler=True, burst=burst)
        except REDIS_ERRORS as exc:
            log.warning("Redis went away (%s); the worker carries on when it is back", exc)
        if burst or stopping[0] or (worker is not None and worker.stopping):
            return
        wait = 1.0 if time.monotonic() - started > 60 else min(wait * 2, 10.0)
        time.sleep(wait)
