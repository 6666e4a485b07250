"""Many writers on one match: no gaps, no duplicates, no stale validation.

Writers send moves without expected_seq, each picking what looks legal from
its own (possibly stale) view. Whatever the server accepted must form a log
that replays from scratch, which is only possible if every accepted move was
checked against the state that included every earlier accepted move.
"""

import multiprocessing as mp
import random
import threading

import redis

from engine import match as M
from replays import EventStore, audit_match
from service.matches import MatchService
from engine.core import KroniekError
from tests.support.tamper import run_threads
from tests.support.toy import ensure_registered

ensure_registered()

MOVES = [("add", 0, {"n": 1}), ("add", 1, {"n": 2}), ("roll", None, {"value": 3}), ("undo", None, {})]


def hammer(svc: MatchService, mid: str, n: int, seed: int) -> int:
    rng = random.Random(seed)
    accepted = 0
    for _ in range(n):
        type_, seat, data = rng.choice(MOVES)
        try:
            svc.append(mid, type_, seat, data, recorded_by=f"writer-{seed}")
            accepted += 1
        except KroniekError:
            pass
    return accepted


def _process_writer(url: str, prefix: str, mid: str, n: int, seed: int, out) -> None:
    ensure_registered()
    svc = MatchService(EventStore(redis.Redis.from_url(url, decode_responses=True), prefix))
    out.put(hammer(svc, mid, n, seed))


def check_log(store: EventStore, mid: str, accepted: int) -> None:
    events = store.events(mid)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), "gap or duplicate seq"
    assert len(events) == accepted + 1, "an accepted append is missing, or one was written twice"
    M.replay(events)  # raises if any move was validated against a stale state
    assert audit_match(store, mid).valid


def test_threads_sharing_one_service(store):
    svc = MatchService(store)
    mid = svc.create_match("toy", ["A", "B"], {"target": 10**6})["id"]
    counts = []
    run_threads([lambda s=s: counts.append(hammer(svc, mid, 150, s)) for s in range(8)])
    assert sum(counts) > 100
    check_log(store, mid, sum(counts))


def test_threads_each_with_its_own_service_cache(store):
    """Like separate API processes: every writer's cache goes stale."""
    mid = MatchService(store).create_match("toy", ["A", "B"], {"target": 10**6})["id"]
    counts = []
    run_threads([lambda s=s: counts.append(hammer(MatchService(store), mid, 150, s)) for s in range(8)])
    assert sum(counts) > 100
    check_log(store, mid, sum(counts))


def test_separate_processes(store, redis_url):
    mid = MatchService(store).create_match("toy", ["A", "B"], {"target": 10**6})["id"]
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_process_writer, args=(redis_url, store.prefix, mid, 200, s, out)) for s in range(4)]
    for p in procs:
        p.start()
    counts = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sum(counts) > 50
    check_log(store, mid, sum(counts))


def test_idempotent_retries_racing_write_once(store):
    mid = MatchService(store).create_match("toy", ["A", "B"])["id"]
    results = []
    barrier = threading.Barrier(8)

    def retry():
        svc = MatchService(store)
        barrier.wait()
        results.append(svc.append(mid, "add", 0, {"n": 1}, idempotency_key="same-key"))

    run_threads([retry] * 8)
    assert len(results) == 8, "every retry gets the first answer, none an error"
    assert len({r["hash"] for r in results}) == 1
    assert len(store.events(mid)) == 2


def _simultaneous_retries(app_for, store, mid, token, n=20, rounds=10):
    """``n`` threads post the same body with one Idempotency-Key at once,
    ``rounds`` times (a new key and the next seq each round), each through
    ``app_for(i)``; every answer of a round must be the first answer's
    replay: 201, the same bytes (``idempotent_replay`` added)."""
    from tests.conftest import client_with_token

    answers = []
    seq = 1
    for r in range(rounds):
        barrier = threading.Barrier(n)
        got = [None] * n
        body = {"type": "add", "seat": r % 2, "data": {"n": 1}, "expected_seq": seq}

        def post(i, body=body, key=f"outbox-{r}"):
            client = client_with_token(app_for(i), token)
            barrier.wait()
            res = client.post(f"/api/matches/{mid}/events", json=body, headers={"Idempotency-Key": key})
            got[i] = (res.status_code, res.get_data())

        run_threads([lambda i=i: post(i) for i in range(n)])
        answers.append(got)
        assert len(store.events(mid)) == seq + 1, "one write per key"
        # the roll the add calls for, so the next round's add is legal
        roll = client_with_token(app_for(0), token).post(
            f"/api/matches/{mid}/events", json={"type": "roll", "data": {"value": 1}, "expected_seq": seq + 1})
        assert roll.status_code == 201, roll.get_json()
        seq += 2
    for got in answers:
        firsts = [body for status, body in got if status == 201 and b"idempotent_replay" not in body]
        assert len(firsts) == 1, got
        replay = firsts[0][:-1] + b',"idempotent_replay":true}'
        wrong = [(status, body) for status, body in got if status != 201 or body not in (firsts[0], replay)]
        assert not wrong, f"{len(wrong)} of {len(got)} answers were not the first answer's replay: {wrong[:3]}"


def test_simultaneous_retries_in_one_process_all_get_the_first_answer(app, make_user, store):
    """20 copies of one request (one Idempotency-Key, the same body with its
    expected_seq) at once in one API process, as an offline outbox resending
    may: one write, and every answer the first one's replay, none a 409
    seq_conflict (the copies that waited for the first one's lock found the
    cache at the next seq and answered 409 before looking at the key)."""
    from tests.conftest import client_with_token

    _, token = make_user("outbox", admin=True)
    created = client_with_token(app, token).post("/api/matches", json={"game": "toy", "players": ["A", "B"]})
    mid = created.get_json()["id"]
    _simultaneous_retries(lambda i: app, store, mid, token)


def test_simultaneous_retries_across_processes_all_get_the_first_answer(store, make_user, signing_key):
    """The same through four API processes' caches (four apps on one store):
    a copy whose process had already read the first one's event answered 409."""
    from service.app import create_app
    from tests.conftest import client_with_token

    apps = [create_app(store=EventStore(store.r, store.prefix), enqueue_validation=lambda m: None,
                       enqueue_ratings=lambda game: None, signing_key=signing_key) for _ in range(4)]
    _, token = make_user("outbox", admin=True)
    mid = client_with_token(apps[0], token).post("/api/matches", json={"game": "toy", "players": ["A", "B"]}) \
        .get_json()["id"]
    for other in apps[1:]:  # each process has the match cached, as a busy server would
        assert client_with_token(other, token).get(f"/api/matches/{mid}").status_code == 200
    _simultaneous_retries(lambda i: apps[i % 4], store, mid, token)
