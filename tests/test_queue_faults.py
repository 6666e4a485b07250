"""One waiting job per match and kind through what a Redis restart leaves
behind (issue 36): after redis-server was killed over and over while jobs
were queued, the analysis queue held 83 jobs for 79 matches, and an entry
whose job record was gone.

Each test runs its own redis-server (the embedded one, persistent, in a
temporary directory), which it kills with SIGKILL and starts again from its
append-only file, as a crash and a restart would."""

from __future__ import annotations

import time
from collections import Counter

import pytest
import redis

from service import embedded

pytestmark = pytest.mark.redis


@pytest.fixture
def private_redis(tmp_path, monkeypatch):
    """A redis-server of this test's own that every client of ``workers.connection``
    uses; ``server["restart"]()`` starts it again on the same files."""
    from workers import connection

    var = tmp_path / "redis"
    proc, sock = embedded.start(var, persistent=True)
    server = {"proc": proc, "socket": sock}

    def kill():
        server["proc"].kill()  # SIGKILL: no shutdown, no last write
        server["proc"].wait(timeout=10)

    def restart():
        server["proc"], server["socket"] = embedded.start(var, persistent=True)

    server.update(kill=kill, restart=restart)
    monkeypatch.setenv("REDIS_URL", f"unix://{sock}")
    monkeypatch.setenv("KRONIEK_QUEUE", "qf")
    connection._cached.cache_clear()
    yield server
    connection._cached.cache_clear()
    if server["proc"].poll() is None:
        embedded.stop(server["proc"], server["socket"])


def waiting(prefix: str = "qf") -> tuple[Counter, list[str]]:
    """Per (function, match), the jobs queued or scheduled on the prefix's
    queues; and the entries of those whose job record is gone."""
    from rq import Queue
    from rq.job import Job
    from rq.registry import ScheduledJobRegistry

    from workers.connection import queue_client

    conn = queue_client()
    ids = []
    for name in (prefix, f"{prefix}-analysis"):
        q = Queue(name, connection=conn)
        ids += q.get_job_ids() + ScheduledJobRegistry(queue=q).get_job_ids(cleanup=False)
    jobs = Job.fetch_many(ids, connection=conn)
    dead = [i for i, j in zip(ids, jobs) if j is None]
    return Counter((j.func_name.rsplit(".", 1)[1], j.args[1]) for j in jobs if j is not None), dead


class KillAfter:
    """Kills the private Redis right after the n-th reply a client reads:
    Redis applied every command up to it, and the caller sees the next one fail."""

    def __init__(self, server, monkeypatch):
        self.server, self.armed, self.replies, self.at = server, False, 0, 0
        self.killed = False
        real = redis.connection.AbstractConnection.read_response
        hook = self

        def read_response(conn, *args, **kwargs):
            reply = real(conn, *args, **kwargs)
            if hook.armed:
                hook.replies += 1
                if hook.replies == hook.at:
                    hook.armed, hook.killed = False, True
                    hook.server["kill"]()
            return reply

        monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", read_response)

    def arm(self, at: int) -> None:
        self.armed, self.replies, self.at, self.killed = True, 0, at, False


def test_redis_killed_at_every_step_of_an_enqueue_leaves_one_job_per_match(private_redis, monkeypatch):
    """Redis is killed right after each reply of an enqueue in turn (the
    claim of the match's live key, RQ's writes of the job, the key's hand-over
    to the job...) and restarted from its files; then the match's work is
    asked for again, as the next move and the overdue re-queue ask (a claim
    left behind counts for LIVE_GRACE, so that has passed). Each match ends
    with exactly one waiting job, and no queue entry without its job record.
    Before, a kill between RQ's write of the job and the hand-over left the
    key with a claim and the job queued: past the claim's grace, a second
    job was queued beside the first."""
    import workers.queue as wq
    from replays import EventStore
    from workers.connection import queue_client, store_client
    from workers.jobs import requeue_overdue

    store = EventStore(store_client(), "qf")
    hook = KillAfter(private_redis, monkeypatch)
    step = 0
    while True:
        step += 1
        assert step < 60, "an enqueue that never ends"
        match = f"m{step}"
        store.owe("validation", match, time.time() - 100)  # what the append marked
        hook.arm(step)
        try:
            wq.enqueue_validation("qf", match, 1.0)  # as the API queues it: a second later
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            pass
        hook.armed = False
        if not hook.killed:
            break  # the enqueue's replies are all behind us: every step has been cut short once
        private_redis["restart"]()
        with monkeypatch.context() as later:
            later.setattr(wq, "LIVE_GRACE", 0.0)  # LIVE_GRACE later
            for _ in range(3):  # connections of the killed server fail once; the work is asked for again
                try:
                    wq.enqueue_validation("qf", match, 1.0)  # the next move
                    requeue_overdue("qf", ("validation",), older=0.0)  # a worker's maintenance
                    break
                except (redis.ConnectionError, redis.TimeoutError, OSError):
                    time.sleep(0.1)
        jobs, dead = waiting()
        assert jobs[("validate_match", match)] == 1, (step, jobs, queue_client().keys("rq:kroniek-live:*"))
        assert not dead, (step, dead)
    assert step > 3  # the enqueue took several replies, and each was cut short once
    jobs, dead = waiting()
    assert set(jobs.values()) == {1} and len(jobs) == step and not dead, jobs


def abandoned(job) -> None:
    """``job`` as a worker that was killed mid-job leaves it: popped,
    started, its live key let go (as a job does once it took its mark), in
    the started registry with an execution that no longer beats."""
    from rq.job import JobStatus
    from rq.registry import ScheduledJobRegistry, StartedJobRegistry

    from workers.queue import get_queue, live_key

    conn, q = job.connection, get_queue(job.origin)
    q.remove(job.id)
    conn.zrem(ScheduledJobRegistry(queue=q).key, job.id)
    job.set_status(JobStatus.STARTED)
    conn.zadd(StartedJobRegistry(queue=q).key, {f"{job.id}:dead": 0})
    conn.delete(live_key(q.name, job.func_name, tuple(job.args)))


def maintenance():
    """One round of a worker's maintenance, as ``kroniek worker`` runs it."""
    from workers.connection import queue_client
    from workers.queue import queue_names
    from workers.worker import KroniekWorker

    KroniekWorker(queue_names(["validation", "analysis"]), connection=queue_client(),
                  prefix="qf").run_maintenance_tasks()


@pytest.mark.parametrize("order", ["retried first", "queued first"])
def test_a_retried_job_and_a_new_one_for_the_same_match_are_one_job(private_redis, order):
    """Jobs that failed with Redis (its connections went with the kill, or
    their worker was killed) are retried by RQ; the sweep after the restart,
    the next move or the overdue re-queue ask for the same match's work. The
    retry and the new job waited side by side (the probe's 83 jobs for 79
    matches: every extra one a retry with one retry used); now whichever
    comes second finds the other waiting, and the waiting one is brought
    forward to the sooner start."""
    from rq.registry import ScheduledJobRegistry

    from workers.queue import enqueue_analysis, enqueue_validation, get_queue

    first = enqueue_analysis("qf", "m1")
    private_redis["kill"]()
    private_redis["restart"]()
    for _ in range(3):  # the old connections fail once
        try:
            abandoned(first)
            break
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            time.sleep(0.1)
    if order == "queued first":
        again = enqueue_analysis("qf", "m1")
        assert again is not None
        maintenance()  # the abandoned job is found and retried
    else:
        maintenance()
        assert enqueue_analysis("qf", "m1") is None  # its retry waits: it reads the log when it starts
    jobs, dead = waiting()
    assert jobs == Counter({("analyse_match", "m1"): 1}) and not dead, (jobs, dead)
    if order == "retried first":  # the retry, brought forward from its back-off to now
        q = get_queue("qf-analysis")
        (job_id, when), = q.connection.zrange(ScheduledJobRegistry(queue=q).key, 0, -1, withscores=True)
        assert job_id.decode() == first.id and when <= time.time() + 1
    # the validation queue the same way, with the API's delay
    job = enqueue_validation("qf", "m2", 1.0)
    abandoned(job)
    assert enqueue_validation("qf", "m2", 1.0) is not None
    maintenance()
    jobs, dead = waiting()
    assert jobs[("validate_match", "m2")] == 1 and not dead, (jobs, dead)


def test_a_queue_entry_whose_job_record_is_gone_is_dropped(private_redis):
    """A queue entry names a job whose record Redis no longer has (lost in a
    restart, or a job pushed twice that ran and was deleted): a worker's
    maintenance drops it, with any entry pushed twice or of a job no longer
    queued, and the match owed the work gets a job again."""
    from replays import EventStore
    from rq.job import Job

    from workers.connection import queue_client, store_client
    from workers.queue import enqueue_analysis, get_queue

    store = EventStore(store_client(), "qf")
    # the three records must outlive the kill: under load, everysec may hold a write back past it, and the
    # record of m3 came back as the status alone (set below), which is not what this test is about
    store_client().config_set("appendfsync", "always")
    q = get_queue("qf-analysis")
    lost = enqueue_analysis("qf", "m1")
    kept = enqueue_analysis("qf", "m2")
    done = enqueue_analysis("qf", "m3")
    store.owe("analysis", "m1", time.time() - 100)
    private_redis["kill"]()
    private_redis["restart"]()
    conn = queue_client()
    for _ in range(3):  # the old connections fail once
        try:
            conn.ping()
            break
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            time.sleep(0.1)
    conn.delete(Job.key_for(lost.id))  # its record gone
    conn.rpush(q.key, kept.id)  # pushed twice (two schedulers moved it)
    done.set_status("finished")  # ran, yet still listed
    conn.rpush(q.key, done.id)
    assert waiting()[1] == [lost.id]
    maintenance()
    ids = q.get_job_ids()
    assert lost.id not in ids and ids.count(kept.id) == 1 and done.id not in ids, ids
    jobs, dead = waiting()
    assert not dead and jobs == Counter({("analyse_match", "m1"): 1, ("analyse_match", "m2"): 1}), jobs
