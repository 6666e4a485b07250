"""While Redis is away the API answers 503 ``store_unavailable`` with
``Retry-After`` (never a 500), ``/api/health`` says so, and when Redis is back
the same app serves again without a restart. An append whose write succeeded
is a success even if queueing its validation failed; the validation is queued
later.

Real redis-server processes throughout: each outage test starts its own
embedded server in a temporary directory, so stopping it disturbs no other
test.
"""

from __future__ import annotations

import logging
import signal
import uuid
from datetime import timedelta

import pytest
import redis
from rq import Queue
from rq.registry import ScheduledJobRegistry

from replays import EventStore
from service import embedded
from service.accounts import RECENT, Accounts
from service.app import create_app
from service.outage import RETRY_AFTER
from tests.conftest import client_with_token
from workers.connection import quick_retry


def stop_serving(proc, client) -> None:
    """A `kroniek serve` stopped as a service manager would (killed if it hangs), and the test's client closed."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except Exception:
        proc.kill()
    client.close()


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own (persistent: a restart keeps the data)."""
    var = tmp_path / "redis"
    proc, sock = embedded.start(var, persistent=True)
    server = {"var": var, "proc": proc, "socket": sock}
    yield server
    if server["proc"].poll() is None:
        embedded.stop(server["proc"], server["socket"])


def stop(server):
    embedded.stop(server["proc"], server["socket"])
    assert server["proc"].poll() is not None


def restart(server):
    server["proc"], server["socket"] = embedded.start(server["var"], persistent=True)


def unavailable(res):
    assert res.status_code == 503, (res.status_code, res.get_data(as_text=True))
    assert res.headers["Retry-After"] == str(RETRY_AFTER)
    error = res.get_json()["error"]
    assert error["code"] == "store_unavailable" and "Redis" in error["message"]
    return error


@pytest.mark.redis
def test_store_down_answers_503_and_the_app_recovers_by_itself(own_redis, signing_key):
    sock = str(own_redis["socket"])
    # clients made as workers.connection makes the service's
    store_client = redis.Redis(unix_socket_path=sock, decode_responses=True, retry=quick_retry())
    queue_client = redis.Redis(unix_socket_path=sock, retry=quick_retry())  # RQ wants byte replies
    queue = Queue("outage", connection=queue_client)

    def enqueue_validation(match_id):  # what workers.queue does: a delayed RQ job
        queue.enqueue_in(timedelta(seconds=1), "workers.jobs.validate_match", "ko", match_id)

    app = create_app(store=EventStore(store_client, "ko"), enqueue_validation=enqueue_validation,
                     enqueue_ratings=lambda game: None, signing_key=signing_key, queue_connection=queue_client)
    _, token = Accounts(store_client, "ko").add_user("ann", admin=True)
    ann, anon = client_with_token(app, token), client_with_token(app, None)
    created = ann.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]})
    assert created.status_code == 201
    mid = created.get_json()["id"]
    assert ScheduledJobRegistry(queue=queue).count == 1
    health = anon.get("/api/health")
    assert health.status_code == 200 and health.get_json()["redis"]["reachable"] is True

    stop(own_redis)
    # A token is looked up at every request; what the process keeps (role tables read in the last
    # TRUST_SECONDS) is forgotten too, so nothing below is answered from memory.
    RECENT.forget()
    # Reads, writes, a bad token's check and the queue: 503, JSON, Retry-After.
    unavailable(anon.get(f"/api/matches/{mid}/state"))
    unavailable(anon.get("/api/matches"))
    unavailable(anon.get("/api/leagues/abc"))
    unavailable(ann.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "prince"]}}))
    unavailable(ann.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}))
    unavailable(ann.get("/api/me"))  # the token cannot be looked up
    # What needs no Redis still answers.
    assert anon.get("/api/games").status_code == 200
    down = anon.get("/api/health")
    assert down.status_code == 503 and down.headers["Retry-After"] == str(RETRY_AFTER)
    report = down.get_json()
    assert report["status"] == "unavailable" and report["redis"]["reachable"] is False
    assert report["queue_redis"]["reachable"] is False and report["problems"]

    restart(own_redis)  # same directory: the append-only file brings the match back
    # The same app, the same clients: no restart of the service.
    state = anon.get(f"/api/matches/{mid}/state")
    assert state.status_code == 200, state.get_json()
    appended = ann.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "prince"]}})
    assert appended.status_code == 201, appended.get_json()
    assert anon.get(f"/api/matches/{mid}/audit").get_json()["valid"] is True
    up = anon.get("/api/health")
    assert up.status_code == 200 and up.get_json()["redis"]["reachable"] is True
    assert up.get_json()["queues"]["validation"]["name"]  # read from RQ's keys again
    store_client.close()
    queue_client.close()


@pytest.mark.redis
def test_an_append_stands_when_queueing_its_validation_fails(own_redis, store, prefix, signing_key, caplog, tmp_path):
    """The store is up, the queue's Redis is not (RQ_REDIS_URL elsewhere, or
    gone between the write and the enqueue): the append answers 201, the
    validation is queued with the next enqueue once the queue is back, and
    the worker's sweep would queue it too."""
    queue_sock = str(own_redis["socket"])
    queue = Queue(prefix, connection=redis.Redis(unix_socket_path=queue_sock, retry=quick_retry()))
    queued: list[str] = []

    def enqueue_validation(match_id):
        queue.enqueue("workers.jobs.validate_match", store.prefix, match_id)
        queued.append(match_id)

    app = create_app(store=store, enqueue_validation=enqueue_validation, enqueue_ratings=lambda game: None,
                     signing_key=signing_key)
    _, token = Accounts(store.r, store.prefix).add_user(f"ann-{uuid.uuid4().hex[:6]}", admin=True)
    ann = client_with_token(app, token)
    stop(own_redis)
    with caplog.at_level(logging.WARNING, logger="kroniek.matches"):
        created = ann.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]})
        assert created.status_code == 201, created.get_json()
        mid = created.get_json()["id"]
        appended = ann.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "prince"]}})
        assert appended.status_code == 201, appended.get_json()
    assert f"could not queue the validation of match {mid}" in caplog.text
    assert store.head_seq(mid)[0] == 2  # written, whatever the queue did
    assert queued == []

    # The worker's start-up sweep finds the verdict behind the head and queues it.
    from workers.jobs import sweep
    from workers.queue import get_queue

    assert sweep(prefix) >= 1
    assert any(job.args[1] == mid for job in get_queue().get_jobs())

    # The append left its match marked owed a validation: a worker queues
    # the job of a mark left unclaimed past its time.
    from workers.jobs import requeue_overdue

    assert store.oldest_owed("validation")[0] == mid
    get_queue().empty()
    assert requeue_overdue(prefix, ("validation",), older=0.0) == 1
    assert [job.args[1] for job in get_queue().get_jobs()] == [mid]


@pytest.mark.redis
def test_health_answers_within_two_seconds_while_redis_is_frozen(own_redis, signing_key):
    """Redis stopped with SIGSTOP: it accepts connections and reads nothing,
    the way a hung or swapping server does. Health's own calls time out, so
    it answers within 2 s that the store is unavailable; after SIGCONT it is
    well again, with the same app."""
    import os
    import time

    sock = str(own_redis["socket"])
    # clients made as workers.connection makes the service's: no socket timeout of their own
    store_client = redis.Redis(unix_socket_path=sock, decode_responses=True, retry=quick_retry())
    queue_client = redis.Redis(unix_socket_path=sock, retry=quick_retry())
    app = create_app(store=EventStore(store_client, "fz"), enqueue_validation=lambda m: None,
                     enqueue_ratings=lambda game: None, signing_key=signing_key, queue_connection=queue_client)
    anon = client_with_token(app, None)
    assert anon.get("/api/health").status_code == 200  # its connections are open now
    os.kill(own_redis["proc"].pid, signal.SIGSTOP)
    try:
        start = time.monotonic()
        frozen = anon.get("/api/health")
        took = time.monotonic() - start
        assert took < 2.0, f"health took {took:.2f} s with Redis frozen"
        assert frozen.status_code == 503 and frozen.headers["Retry-After"] == str(RETRY_AFTER)
        report = frozen.get_json()
        assert report["status"] == "unavailable" and report["redis"]["reachable"] is False
        assert "Timeout" in report["redis"]["error"] and report["queue_redis"]["reachable"] is False
        assert any("the store (Redis) is unavailable" in p for p in report["problems"])
    finally:
        os.kill(own_redis["proc"].pid, signal.SIGCONT)
    well = anon.get("/api/health")
    assert well.status_code == 200 and well.get_json()["redis"]["reachable"] is True, well.get_json()


def _serve(redis_socket, prefix):
    """``kroniek serve`` (real gunicorn) on the given Redis, one worker
    process, so every request meets the same per-process cache."""
    import os
    import subprocess
    import sys
    import time as _time

    import requests

    from tests.test_run import free_port

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("RQ_REDIS_URL", "REDIS_CLUSTER")}
    env.update(REDIS_URL=f"unix://{redis_socket}", KRONIEK_PREFIX=prefix, KRONIEK_QUEUE=prefix,
               KRONIEK_PLUGINS="tests.support.toy")
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "1"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = _time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/api", timeout=5).status_code == 200:
                return proc, base
        except (requests.ConnectionError, requests.Timeout):
            pass
        if proc.poll() is not None or _time.monotonic() > deadline:
            proc.kill()
            pytest.fail("kroniek serve did not come up")
        _time.sleep(0.2)


@pytest.mark.slow(4)
def test_a_store_that_went_back_in_time_gets_no_hole(own_redis):
    """Redis loses its last writes (restarted from an append-only file copied
    before them, as ``appendfsync everysec`` allows after a crash) while the
    API, a real gunicorn, keeps its cache of the later head. A stale append,
    with or without an Idempotency-Key, gets 409 with the store's true
    ``current_seq`` and writes nothing; the next append follows on at the
    store's head, so the log has no hole and its audit stays valid."""
    import os
    import shutil

    import requests

    prefix = f"ko{uuid.uuid4().hex[:6]}"
    sock = str(own_redis["socket"])
    client = redis.Redis(unix_socket_path=sock, decode_responses=True)
    _, token = Accounts(client, prefix).add_user("ann", admin=True)
    auth = {"Authorization": f"Bearer {token}"}
    proc, base = _serve(sock, prefix)
    try:
        def add(mid, seat, **headers):
            return requests.post(f"{base}/api/matches/{mid}/events", json={"type": "add", "seat": seat, "data": {"n": 1}},
                                 headers={**auth, **headers}, timeout=10)

        def roll(mid, value, **headers):
            return requests.post(f"{base}/api/matches/{mid}/events",
                                 json={"type": "roll", "data": {"value": value}}, headers={**auth, **headers},
                                 timeout=10)

        mids = []
        for _ in range(2):
            created = requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]},
                                    headers=auth, timeout=10)
            assert created.status_code == 201, created.text
            mid = created.json()["id"]
            assert add(mid, 0).status_code == 201  # seq 2
            mids.append(mid)
        # Every acknowledged write is in the append-only file (written before the reply; fsync later):
        # this copy is the store as a crash 0.5 s from now could leave it.
        var, old = own_redis["var"], own_redis["var"].parent / "aof-copy"
        old.mkdir()
        aof = [p for p in var.iterdir() if p.name.startswith("appendonly")]  # a file (Redis 6) or a folder (7)
        assert aof, "the embedded Redis keeps an append-only file"
        for p in aof:
            (shutil.copytree if p.is_dir() else shutil.copy2)(p, old / p.name)
        for mid in mids:
            assert roll(mid, 2).status_code == 201  # seq 3
            appended = add(mid, 1)  # seq 4 (seat 1's turn), the head the API now caches
            assert appended.status_code == 201 and appended.json()["seq"] == 4
        os.kill(own_redis["proc"].pid, signal.SIGKILL)
        own_redis["proc"].wait(timeout=10)
        for p in aof:
            shutil.rmtree(p) if p.is_dir() else p.unlink()
            (shutil.copytree if (old / p.name).is_dir() else shutil.copy2)(old / p.name, p)
        for stale in var.glob("*.rdb"):
            stale.unlink()
        restart(own_redis)
        assert [e[0] for e in client.xrange(f"{prefix}:{{m:{mids[0]}}}:log")] == ["1-0", "2-0"]

        # The API still caches seq 4: a move after it (a roll) is refused, never written as seq 5.
        plain = roll(mids[0], 3)
        assert plain.status_code == 409, plain.text
        assert plain.json()["error"]["code"] == "seq_conflict"
        assert plain.json()["error"]["current_seq"] == 2 and plain.json()["current_seq"] == 2
        keyed = roll(mids[1], 3, **{"Idempotency-Key": "after-crash"})
        assert keyed.status_code == 409 and keyed.json()["current_seq"] == 2, keyed.text
        for mid in mids:
            assert [e[0] for e in client.xrange(f"{prefix}:{{m:{mid}}}:log")] == ["1-0", "2-0"]
        # The cache re-read the store: the state says seq 2, and the next move follows on from it.
        assert requests.get(f"{base}/api/matches/{mids[0]}/state", timeout=10).json()["seq"] == 2
        assert roll(mids[0], 2).json()["seq"] == 3
        again = roll(mids[1], 2, **{"Idempotency-Key": "after-crash-2"})
        assert again.status_code == 201 and again.json()["seq"] == 3, again.text
        for mid in mids:
            assert [e[0] for e in client.xrange(f"{prefix}:{{m:{mid}}}:log")] == ["1-0", "2-0", "3-0"]
            audit = requests.get(f"{base}/api/matches/{mid}/audit", timeout=10).json()
            assert audit["valid"] is True, audit
    finally:
        stop_serving(proc, client)


@pytest.mark.slow(8)
def test_every_route_answers_503_within_two_seconds_while_redis_is_frozen(own_redis):
    """Redis stopped with SIGSTOP (hung, swapping, a network dropping packets:
    it takes connections and answers nothing) under a real ``kroniek serve``:
    creating a match, appending, reading a match, the list, the token's own
    page and the audit each answer 503 ``store_unavailable`` (JSON,
    ``Retry-After``) within 2 s; they hung for 15 s (redis-py's 5 s timeout,
    tried three times). After SIGCONT the same server serves again, and
    nothing is half-written, though Redis runs, as it wakes, what the frozen
    requests had sent it: the log is whole (its audit valid), a match is
    listed if and only if it was created (with its roles), and the append
    sent while Redis was frozen, retried with its Idempotency-Key, is
    written exactly once."""
    import os
    import threading
    import time

    import requests

    prefix = f"fz{uuid.uuid4().hex[:6]}"
    sock = str(own_redis["socket"])
    client = redis.Redis(unix_socket_path=sock, decode_responses=True)
    accounts = Accounts(client, prefix)
    auth = {"Authorization": f"Bearer {accounts.add_user('ann', admin=True)[1]}"}
    other = {"Authorization": f"Bearer {accounts.add_user('bob', admin=True)[1]}"}
    proc, base = _serve(sock, prefix)
    pid = own_redis["proc"].pid
    try:
        created = requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]},
                                headers=auth, timeout=10)
        assert created.status_code == 201, created.text
        mid = created.json()["id"]
        move = {"type": "add", "seat": 0, "data": {"n": 1}, "expected_seq": 1}
        keyed = {**other, "Idempotency-Key": "frozen-1"}
        answers, slow = {}, []

        def timed(what, call):
            start = time.monotonic()
            try:
                res = call()
            except requests.Timeout:
                slow.append(f"{what}: no answer in 10 s")
                return
            took = time.monotonic() - start
            if took >= 2.5:
                slow.append(f"{what}: {took:.1f} s")
            answers[what] = res

        # Both tokens read just now: the server trusts them for a second, so the writes below reach Redis.
        for headers in (auth, other):
            assert requests.get(f"{base}/api/me", headers=headers, timeout=10).status_code == 200
        os.kill(pid, signal.SIGSTOP)
        try:
            writes = [
                ("POST a match", lambda: requests.post(f"{base}/api/matches", headers=auth, timeout=10,
                                                       json={"game": "toy", "players": ["Cas", "Dee"]})),
                ("POST an event", lambda: requests.post(f"{base}/api/matches/{mid}/events", json=move,
                                                        headers=keyed, timeout=10)),
            ]
            threads = [threading.Thread(target=timed, args=w) for w in writes]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for what, call in [
                ("GET a match", lambda: requests.get(f"{base}/api/matches/{mid}", timeout=10)),
                ("GET the list", lambda: requests.get(f"{base}/api/matches", timeout=10)),
                ("GET /api/me", lambda: requests.get(f"{base}/api/me", headers=auth, timeout=10)),
                ("GET the audit", lambda: requests.get(f"{base}/api/matches/{mid}/audit", timeout=10)),
            ]:
                timed(what, call)
        finally:
            os.kill(pid, signal.SIGCONT)
        assert not slow, f"with Redis frozen, answers took too long: {slow}"
        assert len(answers) == 6, answers
        for what, res in answers.items():
            assert res.status_code == 503, (what, res.status_code, res.text)
            assert res.headers["Retry-After"] == str(RETRY_AFTER), what
            error = res.json()["error"]
            assert error["code"] == "store_unavailable" and "Redis" in error["message"], (what, error)
            assert "did not answer in time" in error["message"], (what, error)  # and a write may still be made

        # The same server serves again.
        deadline = time.monotonic() + 10
        while requests.get(f"{base}/api/matches/{mid}", timeout=10).status_code != 200:
            assert time.monotonic() < deadline, "the server did not serve again after SIGCONT"
            time.sleep(0.1)
        # Every match whose log exists is listed, and every listed match has its log, listing and roles.
        logs = {key.split("{m:")[1].split("}")[0] for key in client.scan_iter(match=f"{prefix}:{{m:*}}:log")}
        listed = set(client.zrange(f"{prefix}:matches", 0, -1))
        assert logs == listed, f"matches not listed: {logs - listed}; listed without a log: {listed - logs}"
        for m in listed:
            assert client.exists(f"{prefix}:{{m:{m}}}:head", f"{prefix}:{{m:{m}}}:acl") == 2, m
        # The append, retried with its key, is written once (by the frozen request, which Redis ran as it woke,
        # or by this one), and the log stays whole.
        again = requests.post(f"{base}/api/matches/{mid}/events", json=move, headers=keyed, timeout=10)
        assert again.status_code == 201, again.text
        log = client.xrange(f"{prefix}:{{m:{mid}}}:log")
        assert [e[0] for e in log] == ["1-0", "2-0"], log
        assert requests.get(f"{base}/api/matches/{mid}/audit", timeout=10).json()["valid"] is True
    finally:
        stop_serving(proc, client)


def test_commands_time_out_quickly_and_blocking_reads_still_fit(redis_url, monkeypatch):
    """The API's, the CLI's and the jobs' clients wait ``KRONIEK_REDIS_TIMEOUT``
    (1 s) for an answer and never send a timed-out command again; the reads
    that block longer on purpose stay within their client's timeout: a live
    stream's XREAD blocks at most half of it, and a worker's wait for a job
    (RQ's blocking pop, DEQUEUE_TIMEOUT) has a client whose timeout outlasts
    it, which RQ leaves as it is."""
    import redis.exceptions as rex
    from rq import Queue

    from service.stream_api import longest_block_ms
    from service.watch import JOIN_MS
    from workers import connection
    from workers.worker import DEQUEUE_TIMEOUT, KroniekWorker

    connection._cached.cache_clear()
    connection._cached_worker.cache_clear()
    try:
        for client in (connection.store_client(), connection.queue_client()):
            kwargs = client.connection_pool.connection_kwargs
            assert kwargs["socket_timeout"] == kwargs["socket_connect_timeout"] == connection.redis_timeout() == 1.0
            retry = kwargs["retry"]
            assert rex.ConnectionError in retry._supported_errors
            assert not any(issubclass(e, (rex.TimeoutError, TimeoutError)) for e in retry._supported_errors)
        assert 2 * longest_block_ms(connection.store_client()) <= 1000 * connection.redis_timeout()
        assert JOIN_MS < 1000 * connection.redis_timeout()

        waiting = connection.worker_queue_client(DEQUEUE_TIMEOUT)
        worker = KroniekWorker(["kt-blocking"], connection=waiting, prefix="kt-blocking")
        assert waiting.connection_pool.connection_kwargs["socket_timeout"] == worker.connection_timeout > DEQUEUE_TIMEOUT
        # A two-second wait for a job on an empty queue: it ends empty (RQ says so), where the short client times out.
        from rq.exceptions import DequeueTimeout

        with pytest.raises(DequeueTimeout):
            Queue.dequeue_any([Queue("kt-blocking", connection=waiting)], 2, connection=waiting)
        with pytest.raises(rex.TimeoutError):
            Queue.dequeue_any([Queue("kt-blocking", connection=connection.queue_client())], 2,
                              connection=connection.queue_client())
        monkeypatch.setenv("KRONIEK_REDIS_TIMEOUT", "2.5")
        connection._cached.cache_clear()
        assert connection.store_client().connection_pool.connection_kwargs["socket_timeout"] == 2.5
    finally:
        connection._cached.cache_clear()
        connection._cached_worker.cache_clear()
