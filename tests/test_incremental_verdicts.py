"""A live match's verdicts continue from the worker's checkpoint
(``workers.jobs.Checkpoints``): only the events since the last verdict are
replayed, yet every verdict is the one a replay from seq 1 gives, and no
change to the stored log slips through. Against the real (embedded) Redis
of the ``store`` fixture."""

from __future__ import annotations

import signal

import pytest

from engine import match as M
from service.matches import MatchService
from tests.support.tamper import forge_entry
from workers import jobs
from workers.jobs import Checkpoint, Checkpoints, validate_log


@pytest.fixture
def svc(store):
    return MatchService(store)


@pytest.fixture
def replayed(monkeypatch):
    """The first seq of each stretch of events the verdicts replay (1: from the setup)."""
    starts: list[int] = []
    steps = M.replay_steps

    def spy(events, ms=None):
        events = list(events)
        starts.append(events[0]["seq"] if events else (ms.seq + 1 if ms else 1))
        return steps(events, ms)

    monkeypatch.setattr(jobs.M, "replay_steps", spy)
    return starts


def stored(store, mid):
    return store.verdict(mid), store.auto_annotations(mid)


def physical_log(game: str, seed: int):
    from engine.jogledor.simulate import play_random

    rec = play_random(game, seed, mode="physical")
    return rec.setup, rec.log


def test_each_verdict_from_a_checkpoint_is_the_verdict_from_seq_1(svc, store, replayed):
    """A physical Stapelen match recorded move by move, with a recording
    mistake taken back every third move: after each append the verdict
    from the checkpoint, then one from seq 1; the two stored verdicts and
    annotations are the same, and the first replayed only the new events."""
    setup, log = physical_log("stapelen", 6)  # 33 events
    mid = svc.create_match(setup["game"], setup["players"], setup["options"])["id"]
    cps = Checkpoints(10_000)
    undos = 0
    for i, event in enumerate(log[1:], start=1):
        svc.append(mid, event["type"], event["seat"], event["data"])
        if i % 3 == 0 and svc.current(mid).status != "finished":
            svc.append(mid, "undo", None, {})  # taken back, and entered again
            svc.append(mid, event["type"], event["seat"], event["data"])
            undos += 1
        head = svc.current(mid).seq
        before = cps._items.get((store.prefix, mid))
        replayed.clear()
        incremental = validate_log(store, mid, checkpoints=cps)
        if before is not None:
            assert replayed == [before.seq + 1], "only the events after the checkpoint are replayed"
        got = stored(store, mid)
        full = validate_log(store, mid, checkpoints=None)
        assert replayed[-1] == 1
        assert incremental == full and incremental["status"] == "valid" and incremental["seq"] == head
        if svc.current(mid).status == "finished":
            break  # compacted now: the stored annotations are packed, compared below
        assert got == stored(store, mid)
    assert undos >= 3
    corrections = [s for s, notes in store.auto_annotations(mid).items() if notes[0]["kind"] == "correction"]
    assert len(corrections) == undos


def test_an_event_forged_before_the_checkpoint_is_still_found(svc, store, replayed):
    """A forger rewrites an early move and re-hashes the rest of the chain,
    so the chain checks out: the hash at the checkpoint's seq is not the one
    the checkpoint was taken at, the verdict replays from seq 1 and finds
    the move the rules forbid."""
    from tests.support.toy import ensure_registered

    ensure_registered()
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": 20})["id"]
    for _ in range(3):
        seat = svc.current(mid).game.actors(svc.current(mid).state)[0]
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
    cps = Checkpoints(1_000)
    assert validate_log(store, mid, checkpoints=cps)["status"] == "valid"
    assert cps._items[(store.prefix, mid)].seq == 7
    forge_entry(store, mid, 3, data={"value": 9})  # a die of 9 (rule toy.die)
    replayed.clear()
    verdict = validate_log(store, mid, checkpoints=cps)
    assert replayed == [1]
    assert verdict["status"] == "invalid" and verdict["first_invalid_seq"] == 3 and verdict["rule"] == "toy.die"
    assert (store.prefix, mid) not in cps._items, "an invalid log leaves no checkpoint"


def test_a_checkpoint_the_stored_log_does_not_hold_is_not_used(svc, store, replayed):
    """A checkpoint of another history at the same seq (the store went
    back and other moves were recorded since): its hash is not the log's,
    and the verdict is the one from seq 1."""
    setup, log = physical_log("stapelen", 2)  # 50 events
    mid = svc.create_match(setup["game"], setup["players"], setup["options"])["id"]
    for event in log[1:12]:
        svc.append(mid, event["type"], event["seat"], event["data"])
    cps = Checkpoints(1_000)
    other = M.replay(store.events(mid, 1, 6))
    cps.put((store.prefix, mid), Checkpoint(6, "0" * 64, other, {}))
    replayed.clear()
    verdict = validate_log(store, mid, checkpoints=cps)
    assert replayed == [1]
    assert verdict == validate_log(store, mid, checkpoints=None)
    assert cps._items[(store.prefix, mid)].seq == 12


def test_checkpoints_stay_within_their_events():
    """The least recently used checkpoints go first once the events they
    stand for pass the limit; one larger than the limit is not kept."""
    cps = Checkpoints(100)
    ms = None
    for name, seq in (("a", 40), ("b", 40), ("c", 30)):
        cps.put(("p", name), Checkpoint(seq, "h", ms, {}))
    assert [k[1] for k in cps._items] == ["b", "c"] and cps.held == 70
    assert cps.take(("p", "b")).seq == 40 and cps.held == 30
    cps.put(("p", "big"), Checkpoint(101, "h", ms, {}))
    assert ("p", "big") not in cps._items and cps.held == 30


def test_the_worker_runs_a_validation_itself_and_keeps_its_checkpoint(svc, store, prefix):
    """An RQ worker of ``kroniek worker`` performs a validation job in its own
    process (no work horse): the checkpoint stays with it for the match's
    next verdict. Run here, in this process, so its checkpoints can be read."""
    from workers.connection import queue_client
    from workers.queue import enqueue_validation, queue_names
    from workers.worker import KroniekWorker

    setup, log = physical_log("stapelen", 2)
    mid = svc.create_match(setup["game"], setup["players"], setup["options"])["id"]
    for event in log[1:6]:
        svc.append(mid, event["type"], event["seat"], event["data"])
    jobs.CHECKPOINTS.take((prefix, mid))
    enqueue_validation(prefix, mid)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        worker = KroniekWorker(queue_names(["validation"]), connection=queue_client(), prefix=prefix)
        assert worker.work(burst=True)
    finally:
        for s, h in handlers.items():
            signal.signal(s, h)
    assert store.verdict(mid)["status"] == "valid" and store.verdict(mid)["seq"] == 6
    assert jobs.CHECKPOINTS._items[(prefix, mid)].seq == 6


def test_annotations_lost_from_the_store_are_written_whole_again(svc, store, replayed):
    """The stored verdict and annotations are gone (Redis lost them) while
    the worker still holds its checkpoint: the next verdict replays only the
    new events, but writes every annotation, the checkpoint's included."""
    setup, log = physical_log("stapelen", 2)
    mid = svc.create_match(setup["game"], setup["players"], setup["options"])["id"]
    for event in log[1:20]:
        svc.append(mid, event["type"], event["seat"], event["data"])
    cps = Checkpoints(1_000)
    validate_log(store, mid, checkpoints=cps)
    for event in log[20:24]:
        svc.append(mid, event["type"], event["seat"], event["data"])
    store.r.delete(store.key(mid, "verdict"), store.key(mid, "auto"))
    replayed.clear()
    validate_log(store, mid, checkpoints=cps)
    assert replayed == [21]
    got = stored(store, mid)
    assert got[1] and min(got[1]) < 21  # the checkpoint's annotations, written again
    validate_log(store, mid, checkpoints=None)
    assert got == stored(store, mid)
