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
