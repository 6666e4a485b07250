"""Faults with real processes: a real Redis, real RQ scheduling, real worker
processes killed with SIGKILL, a Redis killed mid-burst, `kroniek run`
stopped with Ctrl-C (SIGINT) and started again. Every loop is bounded in
count and time."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
import requests

from replays import EventStore, audit_match
from service.matches import MatchService
from tests.support.toy import ensure_registered
from tests.test_run import ctrl_c, free_port, start, stop

ensure_registered()
ROOT = Path(__file__).resolve().parents[1]


def worker_env(prefix: str, url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(REDIS_URL=url, KRONIEK_PREFIX=prefix, KRONIEK_QUEUE=prefix, KRONIEK_PLUGINS="tests.support.toy")
    return env


def start_worker(prefix: str, url: str, log: Path, *args: str) -> subprocess.Popen:
    """A `kroniek worker` in a session of its own (so its scheduler and work
    horses can be killed with it)."""
    return subprocess.Popen([sys.executable, "-m", "service.cli", "worker", *args], env=worker_env(prefix, url),
                            start_new_session=True, stdout=log.open("a"), stderr=subprocess.STDOUT)


def session_pids(sid: int) -> list[int]:
    """Every process of session ``sid`` (a worker, its scheduler and work horse)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                pids.append(int(entry.name))
    return pids


def kill_session(proc: subprocess.Popen) -> None:
    """SIGKILL the worker and everything it started, no clean-up anywhere."""
    for pid in session_pids(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(timeout=10)


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            kill_session(proc)


def wait_until(check, timeout: float, step: float = 0.1, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout:.0f} s"
        time.sleep(step)


def scheduling(prefix: str) -> bool:
    """A worker's scheduler holds the queue's lock."""
    from workers.connection import queue_client

    return queue_client().get(f"rq:scheduler-lock:{prefix}") is not None


def finished(job) -> bool:
    """The job ran to its end: a finished job is deleted at once (``result_ttl=0``), so its key is gone."""
    from rq.job import JobStatus

    status = job.connection.hget(job.key, "status")
    return status is None or status.decode() == JobStatus.FINISHED.value


def verdict_current(store: EventStore, match_id: str) -> bool:
    head = store.head_seq(match_id)
    verdict = store.verdict(match_id)
    return bool(head and verdict and verdict["seq"] >= head[0])


def finish_toy(svc: MatchService, match_id: str) -> None:
    svc.append(match_id, "add", 0, {"n": 3})
    svc.append(match_id, "roll", None, {"value": 6})


# -- 1. no append without a verdict job that reads it -------------------------

@pytest.mark.slow
def test_a_move_just_inside_the_old_delay_window_still_gets_its_verdict(store, prefix, redis_url, tmp_path):
    """The miss of issue 9: a match created at t, one move at t + 0.6…0.95 s,
    with the API's real 1 s delayed enqueue. RQ files the job under whole
    seconds, so the job can start before t + 1 s, and a move that a window
    of "covered until t + 1" trusted went unread. Created just before a
    second boundary, as here, that happened in most tries."""
    from workers.queue import enqueue_validation

    svc = MatchService(store, lambda mid: enqueue_validation(prefix, mid, 1.0))
    worker = start_worker(prefix, redis_url, tmp_path / "worker.log")
    try:
        wait_until(lambda: scheduling(prefix), 30, what="the worker starting")
        late = []
        for attempt in range(8):
            # create at about x.9 s and move at about (x+1).8 s: the job is due at x+1
            wait_until(lambda: 0.88 < time.time() % 1 < 0.93, 2, step=0.005)
            mid = svc.create_match("toy", ["Ann", "Bob"])["id"]
            time.sleep(random.uniform(0.8, 0.95))
            svc.append(mid, "add", 0, {"n": 1})
            t0 = time.monotonic()
            try:
                wait_until(lambda: verdict_current(store, mid), 8, what=f"try {attempt}: the verdict at seq 2")
            except AssertionError:
                late.append(attempt)
            else:
                assert store.verdict(mid)["status"] == "valid", store.verdict(mid)
                assert time.monotonic() - t0 < 8
        assert late == [], f"no verdict for the move in tries {late} (the worker's log: {tmp_path / 'worker.log'})"
    finally:
        stop_worker(worker)


@pytest.mark.slow
def test_racing_writers_end_with_the_verdict_at_the_head(store, prefix, redis_url, tmp_path):
    """Four writers on one match (each its own service, as API processes
    would be), moves at random intervals: the verdict reaches the head."""
    from workers.queue import enqueue_validation

    mid = MatchService(store).create_match("toy", ["Ann", "Bob"], {"target": 10**9})["id"]
    worker = start_worker(prefix, redis_url, tmp_path / "worker.log")
    errors = []

    def write(n: int) -> None:
        svc = MatchService(store, lambda m: enqueue_validation(prefix, m, 1.0))
        rng = random.Random(n)
        for _ in range(40):
            ms = svc.current(mid)
            try:
                if ms.state[0].rolling:
                    svc.append(mid, "roll", None, {"value": 1}, expected_seq=ms.seq)
                else:
                    svc.append(mid, "add", ms.state[0].to_move, {"n": 1}, expected_seq=ms.seq)
            except Exception as exc:  # a conflict with another writer: read again
                if "seq" not in str(exc).lower() and "expected" not in str(exc).lower():
                    errors.append(exc)
            time.sleep(rng.uniform(0, 0.1))

    try:
        threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not errors, errors
        head = store.head_seq(mid)[0]
        assert head > 20
        try:
            wait_until(lambda: verdict_current(store, mid), 15, what=f"the verdict reaching seq {head}")
        except AssertionError as exc:  # it failed once in a full run, unexplained: say what the queues held
            raise AssertionError(f"{exc}\n{queue_report(store, prefix, mid)}\nworker log:\n"
                                 f"{(tmp_path / 'worker.log').read_text()[-4000:]}") from None
        assert store.verdict(mid)["status"] == "valid"
    finally:
        stop_worker(worker)


def queue_report(store: EventStore, prefix: str, match_id: str) -> str:
    """What the queues and marks held for ``match_id``'s validation: the
    owed mark, the verdict, the live key and the job it names, the queue,
    the scheduled jobs and the scheduler's lock."""
    from rq import Queue
    from rq.registry import ScheduledJobRegistry

    from workers.connection import queue_client
    from workers.queue import VALIDATE, get_queue, live_key

    conn, q = queue_client(), get_queue(prefix)
    held = conn.get(live_key(q.name, VALIDATE, (prefix, match_id)))
    job = conn.hgetall(f"rq:job:{held.decode()}") if held and not held.startswith(b"claim:") else {}
    return "\n".join([
        f"head {store.head_seq(match_id)}, verdict seq {(store.verdict(match_id) or {}).get('seq')}, "
        f"owed since {store.r.zscore(store.owed_key('validation'), match_id)} (now {time.time():.3f})",
        f"live key: {held!r}; its job: { {k: v for k, v in job.items() if k in (b'status', b'enqueued_at', b'started_at', b'ended_at', b'origin')} }",
        f"queue {q.name}: {Queue(q.name, connection=conn).get_job_ids()}",
        f"scheduled: {conn.zrange(ScheduledJobRegistry(q.name, connection=conn).key, 0, -1, withscores=True)}",
        f"scheduler lock: {conn.get(f'rq:scheduler-lock:{q.name}')!r}",
    ])


# -- 2. a worker killed with SIGKILL ---------------------------------------------

@pytest.mark.slow
def test_a_killed_worker_is_replaced_within_30_s_scheduler_and_jobs_included(store, prefix, redis_url, tmp_path):
    from rq.job import Job, JobStatus

    from workers.connection import queue_client
    from workers.queue import enqueue_validation

    svc = MatchService(store)
    # A log long enough that validating it takes a few seconds.
    long_ = svc.create_match("toy", ["Ann", "Bob"], {"target": 10**9})["id"]
    seat = 0
    for _ in range(4000):
        svc.append(long_, "add", seat, {"n": 1})
        svc.append(long_, "roll", None, {"value": 1})
        seat = 1 - seat
    log = tmp_path / "worker.log"
    first = start_worker(prefix, redis_url, log)  # its start-up sweep queues the long match's validation
    second = None
    try:
        wip = f"rq:wip:{prefix}"
        entry = wait_until(lambda: queue_client().zrange(wip, 0, -1), 60, step=0.01, what="the job starting")
        job = Job.fetch(entry[0].decode().split(":")[0], connection=queue_client())
        wait_until(lambda: job.get_status(refresh=True) == JobStatus.STARTED, 10, step=0.01, what="the job starting")
        kill_session(first)  # worker, scheduler and work horse, mid-job
        killed = time.monotonic()
        assert store.verdict(long_) is None
        # Delayed jobs queued while no worker runs wait for a scheduler.
        waiting = [svc.create_match("toy", ["Ann", "Bob"], {"target": 5})["id"] for _ in range(5)]
        delayed = []
        for mid in waiting:
            finish_toy(svc, mid)
            delayed.append(enqueue_validation(prefix, mid, 1.0))
        second = start_worker(prefix, redis_url, log)
        restarted = time.monotonic()
        wait_until(lambda: all(finished(j) for j in delayed), 30, step=0.2,
                   what="the delayed jobs running (a scheduler took over)")
        # the abandoned job is retried, or (when another job for the match already waits: the new worker's
        # start-up sweep) dropped in favour of that one: either way the match's verdict comes (its key gone is not)
        wait_until(lambda: finished(job) and verdict_current(store, long_), 30 - (time.monotonic() - restarted),
                   step=0.2, what="the abandoned job's verdict")
        took = time.monotonic() - restarted
        assert took < 30, took
        assert store.verdict(long_)["status"] == "valid" and store.verdict(long_)["seq"] == 8001
        assert all(store.verdict(m)["status"] == "valid" for m in waiting)
        assert queue_client().get(f"rq:scheduler-lock:{prefix}") is not None
        print(f"killed at 0 s; new worker at {restarted - killed:.1f} s; all verdicts {took:.1f} s after")
    finally:
        if first.poll() is None:
            kill_session(first)
        if second is not None:
            stop_worker(second)


def test_a_worker_told_to_stop_while_it_starts_stops(store, prefix, redis_url, tmp_path):
    """SIGTERM while a worker sweeps the store at its start (seconds on a large one), as a supervisor's child
    gets it when the supervisor dies then: it stops. It used to go on into RQ's loop, whose own handlers took
    the place of the one the signal had set a flag in, and serve for ever (a test left such a worker running)."""
    probe = tmp_path / "sweeping"
    env = {**worker_env(prefix, redis_url), "KRONIEK_PLUGINS": "tests.support.toy,tests.support.slow_sweep",
           "KRONIEK_TEST_SWEEP_PROBE": str(probe), "KRONIEK_TEST_SWEEP_SECONDS": "3"}
    log = tmp_path / "worker.log"
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "worker", "--queues", "validation"], env=env,
                            start_new_session=True, stdout=log.open("a"), stderr=subprocess.STDOUT)
    try:
        wait_until(probe.exists, 60, step=0.05, what="the worker's start-up sweep")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()[-2000:]
    finally:
        if proc.poll() is None:
            kill_session(proc)


# -- 3. Redis killed with SIGKILL mid-burst --------------------------------------------

@pytest.mark.slow
def test_redis_killed_mid_burst_the_worker_carries_on_and_every_match_gets_its_verdict(tmp_path, monkeypatch):
    from service import embedded
    from workers import connection

    var = tmp_path / "redis"
    proc, socket = embedded.start(var, persistent=True)
    url = f"unix://{socket}"
    prefix = "faults"
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("KRONIEK_QUEUE", prefix)
    connection._cached.cache_clear()
    from workers.queue import enqueue_validation

    client = redis.Redis.from_url(url, decode_responses=True)
    store = EventStore(client, prefix)
    svc = MatchService(store, lambda m: enqueue_validation(prefix, m, 1.0))
    worker = start_worker(prefix, url, tmp_path / "worker.log")
    acknowledged: dict[str, int] = {}
    try:
        wait_until(lambda: scheduling(prefix), 30, what="the worker starting")
        matches = [svc.create_match("toy", ["Ann", "Bob"], {"target": 10**6})["id"] for _ in range(20)]
        acknowledged.update({m: 1 for m in matches})
        failures = 0

        def move(mid: str) -> None:
            ms = svc.current(mid)
            if ms.state[0].rolling:
                out = svc.append(mid, "roll", None, {"value": 1})
            else:
                out = svc.append(mid, "add", ms.state[0].to_move, {"n": 1})
            acknowledged[mid] = out["latest_seq"]

        for step in range(150):
            move(matches[step % len(matches)])
        proc.kill()  # SIGKILL: no shutdown, no last write
        proc.wait()
        outage = time.monotonic() + 6
        for step in range(1000):  # appends while Redis is gone: refused, none acknowledged
            if time.monotonic() > outage:
                break
            try:
                move(matches[step % len(matches)])
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                failures += 1
                time.sleep(0.02)
        proc, socket = embedded.start(var, persistent=True)
        for step in range(150):
            mid = matches[step % len(matches)]
            for _ in range(20):  # a connection or two may still be the old one
                try:
                    move(mid)
                    break
                except (redis.ConnectionError, redis.TimeoutError, OSError):
                    time.sleep(0.1)
            else:
                pytest.fail("Redis is back but appends fail")
        assert failures > 0
        wait_until(lambda: all(verdict_current(store, m) for m in matches), 120, step=0.5,
                   what="a verdict for every match after the restart")
        assert worker.poll() is None, "the worker died with Redis"
        for mid in matches:
            assert store.head_seq(mid)[0] >= acknowledged[mid], "an acknowledged append is missing"
            assert store.verdict(mid)["status"] == "valid"
            assert audit_match(store, mid).valid
        text = (tmp_path / "worker.log").read_text()
        assert "could not connect" in text or "unavailable" in text  # it saw the outage, and kept going
    finally:
        stop_worker(worker)
        connection._cached.cache_clear()
        embedded.stop(proc, socket)


# -- 4. `kroniek run` stopped with Ctrl-C and started again ----------------------------------

def finish_over_http(base: str, auth: dict[str, str]) -> tuple[str, float]:
    m = requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"], "options": {"target": 5}},
                      headers=auth, timeout=5).json()
    for move in ({"type": "add", "seat": 0, "data": {"n": 3}}, {"type": "roll", "seat": None, "data": {"value": 6}}):
        r = requests.post(f"{base}/api/matches/{m['id']}/events", json=move, headers=auth, timeout=5)
        assert r.status_code == 201, r.text
    assert r.json()["status"] == "finished"
    return m["id"], time.monotonic()


@pytest.mark.slow
def test_run_stopped_with_ctrl_c_is_quiet_and_verdicts_come_within_5_s_after_a_restart(tmp_path):
    var = tmp_path / "var"
    port = free_port()
    proc, base, token = start(var, port)
    auth = {"Authorization": f"Bearer {token}"}
    try:
        mid, t0 = finish_over_http(base, auth)
        wait_until(lambda: requests.get(f"{base}/api/matches/{mid}", timeout=5).json()["validation"] == "valid", 10,
                   what="the first verdict")
    finally:
        out = ctrl_c(proc)
    assert "Traceback" not in out, out
    assert "Stopped." in out

    proc, base, _ = start(var, port)
    try:
        mid, t0 = finish_over_http(base, auth)
        wait_until(lambda: requests.get(f"{base}/api/matches/{mid}", timeout=5).json()["validation"] == "valid", 5,
                   step=0.05, what="the verdict within 5 s of the last move after a restart")
        print(f"verdict {time.monotonic() - t0:.2f} s after the last move")
    finally:
        out = ctrl_c(proc)
    assert "Traceback" not in out, out


# -- 5. the worked Swiss example, 20 times over --------------------------------------------

#: how many times the worked Swiss example runs: 8 in the suite (two waves of four; every run's work is CPU on
#: a 2-core machine, so 20 took a quarter of the suite's time), 20 in `make test-deep`
SWISS_RUNS = int(os.environ.get("KRONIEK_SWISS_RUNS", "8"))


@pytest.mark.slow(60)
def test_the_swiss_league_example_completes_every_time_four_leagues_at_a_time(tmp_path):
    """The docs' whole Swiss league (docs/leagues.md's worked example:
    accounts, 8 players, 3 rounds, 11 matches each waiting for its worker
    verdict, a forfeit, standings, exports, ratings, the archive verified
    offline with `kroniek audit verify`) must never fail: SWISS_RUNS runs against one `kroniek run`, four
    at a time, so the server and its worker also serve four leagues at once.
    (Run one after another, the runs spent most of their time waiting for
    verdicts.)"""
    from concurrent.futures import ThreadPoolExecutor

    port = free_port()
    proc, base, token = start(tmp_path / "var", port)
    script = ROOT / "docs" / "examples" / "swiss-league.sh"

    def one_run(n: int) -> tuple[float, str | None]:
        out = tmp_path / f"run-{n}"
        out.mkdir()
        env = {**os.environ, "ADMIN_TOKEN": token, "OUT": str(out), "WAIT": "60",
               "KRONIEK": str(Path(sys.executable).with_name("kroniek"))}
        t0 = time.monotonic()
        run = subprocess.run(["bash", str(script), f"{base}/api"], env=env, capture_output=True, text=True,
                             timeout=300)
        failed = None
        text = " ".join(run.stdout.split())
        plays = list(out.glob("plays-*.csv"))
        # 8 players, 3 Swiss rounds: 11 games and a forfeit, a row per player in the plays, the audit valid
        if (run.returncode != 0 or "✓ the archive verifies" not in text or '"valid":true' not in text
                or "✓ the TRF imports as a league with the same standings" not in text
                or "11 results checked against their logs" not in text
                or len(plays) != 1 or len(plays[0].read_text().splitlines()) != 1 + 12 * 2
                # the app exports: the 11 games played, the forfeit no play
                or len(json.loads(next(out.glob("league-*.bgsplay")).read_text())["plays"]) != 11
                or len(next(out.glob("bgg-plays-*.csv")).read_text().splitlines()) != 1 + 11 * 2):
            failed = f"run {n}: {run.stdout}{run.stderr}"
        return time.monotonic() - t0, failed

    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            outcomes = list(pool.map(one_run, range(SWISS_RUNS)))
    finally:
        server = stop(proc)
    failures = [failed for _, failed in outcomes if failed]
    assert not failures, "\n".join(failures) + "\nkroniek run said:\n" + "\n".join(server.splitlines()[-150:])
    assert "Traceback" not in server
    times = [t for t, _ in outcomes]
    print(f"{SWISS_RUNS} runs: {sum(times):.0f} s of runs, slowest {max(times):.1f} s")
