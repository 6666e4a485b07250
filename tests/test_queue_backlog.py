"""The queues under a backlog, with a real Redis and real ``kroniek worker``
processes: the overdue re-queue gives a job again only to a mark whose job is
gone, so a busy analysis worker with matches waiting behind it never finds
two jobs for one match on its queue.

Time is compressed honestly: the re-queue looks every second
(``KRONIEK_MAINTENANCE_SECONDS=1``) for marks older than a second
(``KRONIEK_OVERDUE_SECONDS=1``), so the run sees far more re-queue rounds than
two idle minutes at the defaults (every 5 s, marks older than 30 s: four
rounds per mark)."""

import json
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from service.matches import MatchService
from tests.support import slow_analysis  # noqa: F401  (registers slow-toy here too)
from tests.test_worker_faults import stop_worker, wait_until

ROUNDS_SECONDS = 12


def waiting_jobs(prefix: str) -> Counter:
    """(function, match) of every job queued or scheduled on the prefix's queues."""
    from rq import Queue
    from rq.job import Job
    from rq.registry import ScheduledJobRegistry

    from workers.connection import queue_client

    conn = queue_client()
    ids = []
    for name in (prefix, f"{prefix}-analysis"):
        q = Queue(name, connection=conn)
        ids += q.get_job_ids() + ScheduledJobRegistry(queue=q).get_job_ids(cleanup=False)
    jobs = [j for j in Job.fetch_many(ids, connection=conn) if j is not None]
    return Counter((j.func_name.rsplit(".", 1)[1], j.args[1]) for j in jobs)


@pytest.mark.redis
@pytest.mark.slow(22)
def test_a_busy_analysis_worker_gets_no_duplicate_jobs(store, anon, prefix, redis_url, tmp_path, monkeypatch):
    svc = MatchService(store)  # no enqueue: the worker's start-up sweep queues what is owed
    matches = []
    for _ in range(6):
        mid = svc.create_match("slow-toy", ["Ann", "Bob"], {"target": 5})["id"]
        svc.append(mid, "add", 0, {"n": 3})
        svc.append(mid, "roll", None, {"value": 6})
        matches.append(mid)
    env = {**os.environ, "REDIS_URL": redis_url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix,
           "KRONIEK_PLUGINS": "tests.support.toy,tests.support.slow_analysis",
           "KRONIEK_TEST_ANALYSIS_SECONDS": "3", "KRONIEK_OVERDUE_SECONDS": "1", "KRONIEK_MAINTENANCE_SECONDS": "1"}
    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    log = tmp_path / "worker.log"
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env, start_new_session=True,
                              stdout=log.open("a"), stderr=subprocess.STDOUT, cwd=Path(__file__).parent.parent)
    try:
        wait_until(lambda: all(store.verdict(m) for m in matches), 60, what="the verdicts")
        wait_until(lambda: store.r.zcard(store.owed_key("analysis")) >= 4, 10, what="the analyses owed")
        # The analysis worker now works through six 3 s analyses, one at a time,
        # while the idle validation worker runs the re-queue every second.
        most = Counter()
        rounds = 0
        t0 = time.monotonic()
        while time.monotonic() - t0 < ROUNDS_SECONDS:
            seen = waiting_jobs(prefix)
            most |= seen
            rounds += 1
            time.sleep(0.25)
            if rounds == 8:  # two seconds in: health shows the backlog
                health = anon.get("/api/health").get_json()
        assert health["owed"]["analysis"]["count"] >= 3, health
        assert health["queues"]["analysis"]["queued"] >= 2 and health["queues"]["analysis"]["started"] == 1, health
        assert health["queues"]["analysis"]["oldest_waiting_seconds"] > 0, health
        assert health["workers"]["seen_last_minute"] == 2, health
        assert most, "no job was ever seen waiting: the backlog did not form"
        assert max(most.values()) == 1, f"duplicate jobs waited: {[k for k, n in most.items() if n > 1]}"
        assert sum(1 for f, _ in most if f == "analyse_match") >= 3
        # Every match is analysed in the end, and nothing stays owed.
        wait_until(lambda: all(store.analysis(m)[0] for m in matches), 60, what="every analysis")
        wait_until(lambda: store.r.zcard(store.owed_key("analysis")) == 0, 10, what="no analysis owed")
        assert not waiting_jobs(prefix)
        # Every job let its live key go as it started.
        from workers.connection import queue_client

        assert not list(queue_client().scan_iter(match=f"rq:kroniek-live:{prefix}*"))
    finally:
        stop_worker(worker)
        print(log.read_text()[-3000:])


@pytest.mark.redis
def test_one_waiting_job_per_match_and_kind(store, prefix, monkeypatch):
    from rq.job import Job

    from workers.connection import queue_client
    from workers.jobs import requeue_overdue
    from workers.queue import VALIDATE, enqueue_analysis, enqueue_validation, get_queue, live_key

    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    first = enqueue_validation(prefix, "m1")
    assert first is not None
    assert enqueue_validation(prefix, "m1") is None and enqueue_validation(prefix, "m1", delay=5) is None
    assert enqueue_analysis(prefix, "m1") is not None  # another kind: a job of its own
    assert enqueue_validation(prefix, "m2") is not None
    assert sorted(j.args[1] for j in get_queue().get_jobs()) == ["m1", "m2"]

    # A mark past its time whose job still waits is left alone, clock and all.
    store.owe("validation", "m1", time.time() - 100)
    assert requeue_overdue(prefix, ("validation",), older=30) == 0
    assert time.time() - store.oldest_owed("validation")[1] >= 100
    # Its job lost (deleted here; a Redis that went back in time): the mark gets one again.
    first.delete()
    assert requeue_overdue(prefix, ("validation",), older=30) == 1
    assert [j.args[1] for j in get_queue().get_jobs()].count("m1") == 1
    assert time.time() - store.oldest_owed("validation")[1] < 5

    # A claim, which an enqueue of an earlier release wrote while it queued its job (and left if it died half-way),
    # stands 10 s, then is taken over.
    key = live_key(prefix, VALIDATE, (prefix, "m3"))
    queue_client().set(key, f"claim:dead {time.time():.3f}")
    assert enqueue_validation(prefix, "m3") is None
    queue_client().set(key, f"claim:dead {time.time() - 11:.3f}")
    job = enqueue_validation(prefix, "m3")
    assert job is not None and queue_client().get(key).decode() == job.id
    assert Job.fetch(job.id, connection=queue_client()).get_status() == "queued"


@pytest.mark.redis
def test_a_job_no_queue_holds_is_not_taken_for_waiting(store, prefix, monkeypatch):
    """A worker's pop that Redis wrote just before it was killed, the reply
    never read: the job's status still says queued, but no queue holds it
    (and a scheduled job the scheduled registry lost likewise). It is lost,
    not waiting: the next move queues a job, and so does the overdue
    re-queue. (Taken for waiting, it kept its match without a verdict in
    the Redis-killed test of tests/test_worker_faults.py.)"""
    from rq.registry import ScheduledJobRegistry

    from workers.connection import queue_client
    from workers.jobs import requeue_overdue
    from workers.queue import LIVE_GRACE, VALIDATE, enqueue_validation, get_queue, is_waiting

    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    popped = enqueue_validation(prefix, "m1")
    assert is_waiting(VALIDATE, (prefix, "m1"))
    queue_client().lrem(get_queue().key, 0, popped.id)  # the pop, as Redis logged it
    assert popped.get_status(refresh=True) == "queued"
    assert is_waiting(VALIDATE, (prefix, "m1"))  # for all it knows, a worker is starting it (the test below)
    first_seen = f"rq:kroniek-unlisted:{popped.id}"
    queue_client().set(first_seen, f"{time.time() - LIVE_GRACE - 1:.3f}")  # and so it stayed, LIVE_GRACE long
    assert not is_waiting(VALIDATE, (prefix, "m1"))
    again = enqueue_validation(prefix, "m1")
    assert again is not None and [j.id for j in get_queue().get_jobs()] == [again.id]

    scheduled = enqueue_validation(prefix, "m2", delay=60)
    assert scheduled.get_status(refresh=True) == "scheduled" and is_waiting(VALIDATE, (prefix, "m2"))
    queue_client().zrem(ScheduledJobRegistry(get_queue().name, connection=queue_client()).key, scheduled.id)
    assert not is_waiting(VALIDATE, (prefix, "m2"))
    store.owe("validation", "m2", time.time() - 100)
    assert requeue_overdue(prefix, ("validation",), older=30) == 1
    assert [j.args[1] for j in get_queue().get_jobs()] == ["m1", "m2"]


@pytest.mark.redis
def test_a_job_that_starts_while_the_requeue_looks_gets_no_second_job(store, prefix, monkeypatch):
    """The overdue re-queue reads the marks, then each one's live key. A job
    that starts between the two takes its mark and then lets its key go: the
    re-queue sees no job waiting, and queued a second job that waited, owed
    by no mark, after every analysis was done (the busy-worker test above
    failed on it once in a full run). The mark is read again after the key."""
    import workers.jobs as jobs
    from workers.queue import VALIDATE, enqueue_validation, get_queue, is_waiting, live_key

    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    store.owe("validation", "m1", time.time() - 100)
    first = enqueue_validation(prefix, "m1")
    real = jobs.is_waiting

    def the_job_starts_meanwhile(function, args, queue=None):
        store.take_owed("validation", "m1")  # the job's take, then its key let go (workers.queue.started)
        get_queue().remove(first.id)
        get_queue().connection.delete(live_key(get_queue().name, VALIDATE, args))
        return real(function, args, queue)

    monkeypatch.setattr(jobs, "is_waiting", the_job_starts_meanwhile)
    assert jobs.requeue_overdue(prefix, ("validation",), older=30) == 0
    assert get_queue().get_job_ids() == [] and not is_waiting(VALIDATE, (prefix, "m1"))
    # a mark whose job is truly gone still gets one
    monkeypatch.setattr(jobs, "is_waiting", real)
    store.owe("validation", "m2", time.time() - 100)
    assert jobs.requeue_overdue(prefix, ("validation",), older=30) == 1
    assert [j.args[1] for j in get_queue().get_jobs()] == ["m2"]


@pytest.mark.redis
def test_a_job_popped_but_not_yet_started_gets_no_second_job(store, prefix, monkeypatch):
    """A worker on two queues pops a job with BLPOP; until its work horse
    marks it started, the job's status says queued and no list holds it.
    Taken for lost then, the overdue re-queue queued a second job for a
    match whose analysis was about to run, and the busy-worker test above
    found a live key left over (the same match analysed twice)."""
    from workers.connection import queue_client
    from workers.jobs import requeue_overdue
    from workers.queue import VALIDATE, enqueue_validation, get_queue, is_waiting, live_key

    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    store.owe("validation", "m1", time.time() - 100)
    job = enqueue_validation(prefix, "m1")
    assert queue_client().blpop([get_queue().key], timeout=1)[1].decode() == job.id  # a worker's pop, as RQ's
    assert job.get_status(refresh=True) == "queued"
    for _ in range(3):  # the re-queue looks every second while the horse forks
        assert requeue_overdue(prefix, ("validation",), older=30) == 0
    assert get_queue().get_job_ids() == [] and is_waiting(VALIDATE, (prefix, "m1"))
    assert queue_client().get(live_key(get_queue().name, VALIDATE, (prefix, "m1"))).decode() == job.id


@pytest.mark.redis
def test_a_job_started_but_not_yet_at_its_mark_counts_as_live(store, prefix, monkeypatch):
    """RQ marks a job started before the job takes its mark and lets its key
    go: in between, the job looked gone, and the overdue re-queue queued a
    second one for the work it was about to do (the busy-worker test failed
    on that too). Such a job is live for LIVE_GRACE seconds; one that never
    got to its mark in that time was abandoned, and its work gets a job."""
    from rq.utils import utcformat

    from workers.jobs import requeue_overdue
    from workers.queue import LIVE_GRACE, VALIDATE, enqueue_validation, get_queue, is_waiting

    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    store.owe("validation", "m1", time.time() - 100)
    job = enqueue_validation(prefix, "m1")
    get_queue().remove(job.id)  # a worker popped it and marked it started, as RQ does before the job runs
    job.connection.hset(job.key, mapping={"status": "started", "started_at": utcformat(datetime.now(timezone.utc))})
    assert is_waiting(VALIDATE, (prefix, "m1"))
    assert requeue_overdue(prefix, ("validation",), older=30) == 0 and get_queue().get_job_ids() == []
    long_ago = datetime.now(timezone.utc) - timedelta(seconds=LIVE_GRACE + 5)
    job.connection.hset(job.key, "started_at", utcformat(long_ago))
    assert not is_waiting(VALIDATE, (prefix, "m1"))
    assert requeue_overdue(prefix, ("validation",), older=30) == 1
    assert [j.args[1] for j in get_queue().get_jobs()] == ["m1"]


@pytest.mark.redis
def test_an_analysis_runs_at_a_lower_priority_in_a_session_of_its_own(store, prefix, redis_url, tmp_path):
    """A solver analysis may search for its whole deadline (a Sir Tommy game
    took its 120 s): it must yield the cores to the API and the verdicts. Its
    work horse runs at niceness 10, in a session of its own, which Linux
    schedules as a group of its own (a niceness ranks a process only within
    its session's group); the worker that forked it keeps its priority."""
    svc = MatchService(store)
    mid = svc.create_match("slow-toy", ["Ann", "Bob"], {"target": 5})["id"]
    svc.append(mid, "add", 0, {"n": 3})
    probe = tmp_path / "probe.json"
    env = {**os.environ, "REDIS_URL": redis_url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix,
           "KRONIEK_PLUGINS": "tests.support.toy,tests.support.slow_analysis",
           "KRONIEK_TEST_ANALYSIS_SECONDS": "0", "KRONIEK_TEST_ANALYSIS_PROBE": str(probe)}
    env.pop("KRONIEK_ANALYSIS_NICE", None)
    log = tmp_path / "worker.log"
    worker = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "validation,analysis"],
                              env=env, start_new_session=True, stdout=log.open("a"), stderr=subprocess.STDOUT,
                              cwd=Path(__file__).parent.parent)
    try:
        wait_until(lambda: store.analysis(mid)[0], 60, what="the analysis")
        horse = json.loads(probe.read_text())
        assert horse["ppid"] == worker.pid, horse  # forked by the worker itself
        assert horse["sid"] == horse["pid"] and horse["pgid"] == horse["pid"], horse  # a session of its own
        assert horse["nice"] == 10, horse
        if Path("/proc/self/autogroup").exists():
            assert horse["autogroup"].endswith("nice 10"), horse
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == 0  # the worker keeps its priority
        assert os.getsid(worker.pid) != horse["sid"]
    finally:
        stop_worker(worker)
        print(log.read_text()[-3000:])
