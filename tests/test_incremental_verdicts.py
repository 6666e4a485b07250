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
    mark, _ = store.mark_log(mid)
    cps.put((store.prefix, mid), Checkpoint(6, "0" * 64, other, "commitments", mark))
    replayed.clear()
    verdict = validate_log(store, mid, checkpoints=cps)
    assert replayed == [1]
    assert verdict == validate_log(store, mid, checkpoints=None)
    assert cps._items[(store.prefix, mid)].seq == 12


def test_checkpoints_are_bounded_by_their_number_the_least_recently_used_going_first():
    """A checkpoint's size does not depend on its log's length (a state and
    its newest undo steps), so they are bounded by their number; one of any
    seq is kept (issue 36: those past 50,000 events were not)."""
    cps = Checkpoints(2)
    for name, seq in (("a", 40), ("b", 40), ("c", 300_000)):
        cps.put(("p", name), Checkpoint(seq, "h", None, "commitments", "m"))
    assert list(cps._items) == [("p", "b"), ("p", "c")]
    assert cps.take(("p", "b")).seq == 40 and cps.take(("p", "b")) is None
    cps.put(("p", "d"), Checkpoint(1, "h", None, "commitments", "m"))
    cps.put(("p", "c"), Checkpoint(300_001, "h", None, "commitments", "m"))  # used again: the newest
    cps.put(("p", "e"), Checkpoint(1, "h", None, "commitments", "m"))
    assert list(cps._items) == [("p", "c"), ("p", "e")] and cps._items[("p", "c")].seq == 300_001


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
    the worker still holds its checkpoint: it keeps no annotations (they
    would grow with the log), so the verdict is made from seq 1 and writes
    every annotation, the checkpoint's included."""
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
    assert replayed == [21, 1]
    got = stored(store, mid)
    assert got[1] and min(got[1]) < 21  # the checkpoint's annotations, written again
    validate_log(store, mid, checkpoints=None)
    assert got == stored(store, mid)


def toy_match(svc, moves: int, target: int = 20) -> str:
    from tests.support.toy import ensure_registered

    ensure_registered()
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": target})["id"]
    for _ in range(moves):
        seat = svc.current(mid).game.actors(svc.current(mid).state)[0]
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
    return mid


def test_a_move_after_the_checkpoint_costs_only_what_is_new(svc, store, replayed, monkeypatch):
    """The verdict after one more move reads, checks and replays the
    checkpoint's event and the new ones, and sends Redis only the new
    annotations (issue 36: the whole chain was read and hashed again, and
    every annotation went through the worker each time)."""
    checked, added = [], []
    check, add = jobs.check_chain, store.add_to_verdict
    monkeypatch.setattr(jobs, "check_chain", lambda entries, *a, **k: (checked.append(len(entries := list(entries))),
                                                                        check(entries, *a, **k))[1])
    monkeypatch.setattr(store, "add_to_verdict", lambda m, v, since, notes: (added.append((since, sorted(notes))),
                                                                          add(m, v, since, notes))[1])
    mid = toy_match(svc, 8, target=100)
    cps = Checkpoints(10)
    validate_log(store, mid, checkpoints=cps)
    assert checked == [17]
    for seq in range(18, 22):
        if svc.current(mid).state[0].rolling:
            svc.append(mid, "roll", None, {"value": 2})
        else:
            svc.append(mid, "add", svc.current(mid).game.actors(svc.current(mid).state)[0], {"n": 1})
        replayed.clear()
        checked.clear()
        verdict = validate_log(store, mid, checkpoints=cps)
        assert verdict == {"status": "valid", "seq": seq, "events": seq}
        assert replayed == [seq] and checked == [2]
        assert added[-1][0] == seq - 1 and added[-1][1] in ([], [seq])
    assert {seq for _, notes in added for seq in notes} == {s for s in store.auto_annotations(mid) if s >= 18} != set()
    incremental = stored(store, mid)
    validate_log(store, mid, checkpoints=None)
    assert incremental == stored(store, mid)


def append_sealed(store, mid, type_, seat, data):
    """One event sealed onto the stored head and appended, as the service would."""
    from replays.hashing import seal, utc_now

    seq, head = store.head_seq(mid)
    assert store.append(mid, [seal(seq + 1, type_, seat, data, utc_now(), "anonymous", head)]).status == "ok"


def _edited(store, mid):
    from tests.support.tamper import rewrite_entry

    rewrite_entry(store, mid, 3, data={"value": 2})  # commitment, hash and chain as they were
    return 3


def _rehashed(store, mid):
    from replays.hashing import event_hash
    from tests.support.tamper import rewrite_entry

    event = store.events(mid, 4, 4)[0]
    rewrite_entry(store, mid, 4, hash=event_hash({**event, "recorded_by": "mallory"}), recorded_by="mallory")
    return 5  # its own hash fits its text; seq 5 no longer points at it


def _deleted(store, mid):
    store.r.xdel(store.key(mid, "log"), "3-0")
    return 3


def _forged(store, mid):
    forge_entry(store, mid, 3, data={"value": 9})  # re-hashed onwards: the checkpoint's hash is not the log's
    return 3


@pytest.mark.parametrize("tamper", [_edited, _rehashed, _deleted, _forged])
def test_an_event_changed_before_the_checkpoint_is_still_found(svc, store, tamper):
    """Someone with write access changes an event before the checkpoint
    (its data with its hashes left as they were, its text with its own hash
    recomputed, or deletes it, or forges it and re-hashes the rest) and a
    move is recorded after it: the verdict is the one from seq 1, invalid
    at the same seq for the same reason. (Entries of a stream are never
    changed in place: such a change deletes entries, which the stream's
    length shows, or writes the stream again, which takes the worker's mark
    off it.)"""
    mid = toy_match(svc, 4, target=100)
    cps = Checkpoints(10)
    assert validate_log(store, mid, checkpoints=cps)["status"] == "valid"
    assert cps._items[(store.prefix, mid)].seq == 9
    first_invalid = tamper(store, mid)
    append_sealed(store, mid, "add", 0, {"n": 1})  # past the service, which would refuse a log that no longer replays
    verdict = validate_log(store, mid, checkpoints=cps)
    assert verdict["status"] == "invalid" and verdict["first_invalid_seq"] == first_invalid
    assert verdict == validate_log(store, mid, checkpoints=None)
    assert (store.prefix, mid) not in cps._items


def test_a_stream_written_again_unchanged_is_no_alarm(svc, store, replayed):
    """The stream written again entry for entry, as it was (a copy put
    back): the mark is gone, so the verdict is made from seq 1, and it is
    valid, with the checkpoint made again from it."""
    mid = toy_match(svc, 4, target=100)
    cps = Checkpoints(10)
    validate_log(store, mid, checkpoints=cps)
    key = store.key(mid, "log")
    entries = list(store.entries(mid))
    store.r.delete(key)
    for entry_id, fields in entries:
        store.r.xadd(key, fields, id=entry_id)
    svc.append(mid, "add", 0, {"n": 1})
    replayed.clear()
    assert validate_log(store, mid, checkpoints=cps) == {"status": "valid", "seq": 10, "events": 10}
    assert replayed == [1] and cps._items[(store.prefix, mid)].seq == 10
    svc.append(mid, "roll", None, {"value": 1})
    replayed.clear()
    assert validate_log(store, mid, checkpoints=cps)["status"] == "valid" and replayed == [11]


def test_a_checkpoint_keeps_16_undo_steps_and_an_undo_past_them_is_a_verdict_from_seq_1(svc, store, replayed):
    """The checkpoint's state keeps only its newest 16 undo steps, whatever
    the log's length. Undos one by one, each validated: each names the move
    it took back (one before the checkpoint: from the undo stack, not the
    events), and the one that reaches past the kept steps is replayed from
    seq 1; every verdict and annotation is the one from seq 1."""
    mid = toy_match(svc, 15, target=1000)  # 31 events, 30 of them undoable
    cps = Checkpoints(10)
    validate_log(store, mid, checkpoints=cps)
    steps, step = 0, cps._items[(store.prefix, mid)].ms.stack
    while step.before is not M.ELIDED:
        steps, step = steps + 1, step.prev
    assert steps == M.SNAPSHOT_UNDO_DEPTH
    starts = []
    for _ in range(M.SNAPSHOT_UNDO_DEPTH + 2):
        svc.append(mid, "undo", None, {})
        replayed.clear()
        verdict = validate_log(store, mid, checkpoints=cps)
        starts.append(replayed[-1])
        got = stored(store, mid)
        assert verdict == validate_log(store, mid, checkpoints=None) and got == stored(store, mid)
    assert 1 in starts and starts[0] != 1
    notes = store.auto_annotations(mid)
    assert notes[32][0]["undone"] == [31] and "roll" in str(notes[32][0]["text"])


@pytest.mark.slow(25)
def test_a_checkpoint_past_50000_events_is_used(store, replayed):
    """Issue 36: a worker kept no checkpoint past 50,000 events, so every
    verdict of a longer log replayed it from seq 1. A BraveRats match of
    50,004 events (rounds and their undos, written as the service seals
    them): its next verdict replays the one new event."""
    from replays.hashing import seal

    svc = MatchService(store)
    mid = svc.create_match("braverats", ["A", "B"])["id"]
    head = store.events(mid)[-1]
    seq, prev, at = head["seq"], head["hash"], head["recorded_at"]
    while seq < 50_004:
        batch = []
        for _ in range(1_000):
            seq += 1
            type_, data = ("round", {"cards": ["spy", "prince"]}) if seq % 2 == 0 else ("undo", {})
            batch.append(seal(seq, type_, None, data, at, "anonymous", prev))
            prev = batch[-1]["hash"]
        assert store.append(mid, batch).status == "ok"
    cps = Checkpoints(10)
    assert validate_log(store, mid, checkpoints=cps)["status"] == "valid"
    assert cps._items[(store.prefix, mid)].seq == seq == 51_001
    svc.append(mid, "round", None, {"cards": ["spy", "prince"]})
    replayed.clear()
    assert validate_log(store, mid, checkpoints=cps) == {"status": "valid", "seq": seq + 1, "events": seq + 1}
    assert replayed == [seq + 1] and cps._items[(store.prefix, mid)].seq == seq + 1
