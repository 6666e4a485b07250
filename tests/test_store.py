"""The event store and the service layer over it, against a real Redis."""

import os
import time

import pytest
import redis
from redis.client import NEVER_DECODE

from replays import audit_match
from replays.hashing import GENESIS, commitment, event_hash
from service.errors import CorruptLog, IdempotencyMismatch, NotFound, SeqConflict
from service.matches import MatchService
from engine.core import RuleViolation
from tests.support.tamper import rewrite_entry
from tests.support.toy import ensure_registered

ensure_registered()


@pytest.fixture
def svc(store, validations):
    return MatchService(store, validations.append, snapshot_every=4)


def new(svc, **kw):
    return svc.create_match("toy", ["Ann", "Bob"], **kw)["id"]


def test_setup_is_seq_1_and_events_chain_by_hash(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2}, expected_seq=1)
    svc.append(mid, "roll", None, {"value": 5}, expected_seq=2)
    events = store.events(mid)
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert events[0]["type"] == "setup" and events[0]["prev_hash"] == GENESIS
    for prev, e in zip(events, events[1:]):
        assert e["prev_hash"] == prev["hash"]
    assert all(event_hash(e) == e["hash"] for e in events)


def test_expected_seq_mismatch_is_409_and_writes_nothing(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 1}, expected_seq=1)
    with pytest.raises(SeqConflict) as err:
        svc.append(mid, "roll", None, {"value": 3}, expected_seq=1)
    assert err.value.details["current_seq"] == 2
    assert len(store.events(mid)) == 2


def test_illegal_move_writes_nothing(svc, store):
    mid = new(svc)
    before = store.head(mid)
    with pytest.raises(RuleViolation):
        svc.append(mid, "add", 0, {"n": 9})
    assert store.head(mid) == before and len(store.events(mid)) == 1


def test_idempotency_key_returns_the_first_answer_and_writes_nothing(svc, store):
    mid = new(svc)
    first = svc.append(mid, "add", 0, {"n": 1}, expected_seq=1, idempotency_key="k1")
    again = svc.append(mid, "add", 0, {"n": 1}, expected_seq=1, idempotency_key="k1")
    assert again["seq"] == first["seq"] and again["hash"] == first["hash"] and again["idempotent_replay"]
    assert len(store.events(mid)) == 2
    ttl = store.r.ttl(store.key(mid, "idem:k1"))
    assert ttl > 24 * 3600
    with pytest.raises(IdempotencyMismatch):
        svc.append(mid, "add", 0, {"n": 2}, expected_seq=1, idempotency_key="k1")


def test_idempotent_retry_through_another_process_cache(svc, store, validations):
    mid = new(svc)
    other = MatchService(store, validations.append)
    first = svc.append(mid, "add", 0, {"n": 1}, idempotency_key="same")
    again = other.append(mid, "add", 0, {"n": 1}, idempotency_key="same")
    assert again["hash"] == first["hash"] and len(store.events(mid)) == 2


def test_two_processes_validate_against_each_others_moves(svc, store, validations):
    """Process B's cache is stale; its append must see A's move, not the old state."""
    mid = new(svc)
    b = MatchService(store, validations.append)
    b.current(mid)  # B caches seq 1
    svc.append(mid, "add", 0, {"n": 3})  # A: now a die must be rolled
    # Against B's stale state seat 0 would be to move; against the real state it is a roll.
    with pytest.raises(RuleViolation) as err:
        b.append(mid, "add", 0, {"n": 1})
    assert err.value.rule == "core.turn"
    res = b.append(mid, "roll", None, {"value": 2})
    assert res["seq"] == 3
    assert [e["type"] for e in store.events(mid)] == ["setup", "add", "roll"]


def test_stale_cache_with_expected_seq_catches_up_first(svc, store, validations):
    mid = new(svc)
    b = MatchService(store, validations.append)
    b.current(mid)
    svc.append(mid, "add", 0, {"n": 3})
    assert b.append(mid, "roll", None, {"value": 2}, expected_seq=2)["seq"] == 3


def test_state_at_any_seq_uses_snapshots_and_matches_a_full_replay(svc, store):
    mid = new(svc)
    for _ in range(5):
        svc.append(mid, "add", svc.current(mid).game.actors(svc.current(mid).state)[0], {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
    assert store.r.zcard(store.key(mid, "snapi")) >= 2
    fresh = MatchService(store)
    for at in range(1, 12):
        assert fresh.state_at(mid, at).state[0].total == (at - 1)


def test_a_new_process_loads_from_snapshot_plus_tail(svc, store):
    mid = new(svc)
    for i in range(3):
        seat = svc.current(mid).game.actors(svc.current(mid).state)[0]
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
    fresh = MatchService(store)
    assert fresh.current(mid).state == svc.current(mid).state
    assert fresh.current(mid).seq == 7


def test_unknown_match_is_not_found(svc):
    with pytest.raises(NotFound):
        svc.append("nope", "add", 0, {"n": 1})
    with pytest.raises(NotFound):
        svc.match("nope")


def test_a_burst_of_moves_queues_one_validation_until_a_job_starts(store, validations):
    """Moves made before a queued job starts need no job of their own (the
    job reads the log after it starts); once it has started, the next move
    queues one. No clock is involved."""
    svc = MatchService(store, validations.append)
    mid = new(svc)
    assert validations == [mid]
    svc.append(mid, "add", 0, {"n": 1})
    svc.append(mid, "roll", None, {"value": 1})
    assert validations == [mid]
    store.take_owed("validation", mid)  # what the job does first
    svc.append(mid, "add", 1, {"n": 1})
    assert validations == [mid, mid]
    svc.append(mid, "roll", None, {"value": 1})
    assert validations == [mid, mid]


def test_a_failed_enqueue_keeps_the_append_and_the_mark(store):
    def broken(match_id):
        raise ConnectionError("queue unavailable")

    svc = MatchService(store, broken)
    mid = new(svc)
    assert svc.append(mid, "add", 0, {"n": 1})["seq"] == 2
    assert store.overdue("validation", time.time() + 1) == [mid]



def test_audit_catches_an_edited_entry_in_the_middle(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2})
    svc.append(mid, "roll", None, {"value": 3})
    assert audit_match(store, mid).valid
    rewrite_entry(store, mid, 2, data={"n": 3})
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 2


def test_audit_catches_an_edit_that_recomputes_its_own_hash(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2})
    svc.append(mid, "roll", None, {"value": 3})
    event = store.events(mid, 2, 2)[0]
    event["data"] = {"n": 3}
    # Only the commitment changed: the hash (over the committed fields) is caught at seq 2.
    rewrite_entry(store, mid, 2, data={"n": 3}, commitment=commitment(event["salt"], event["data"]))
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 2
    # Commitment and hash recomputed: the event itself checks out, the next one no longer points at it.
    event["commitment"] = commitment(event["salt"], event["data"])
    rewrite_entry(store, mid, 2, data={"n": 3}, commitment=event["commitment"], hash=event_hash(event))
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 3  # seq 3 no longer points at it


def test_audit_catches_a_changed_last_entry(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2})
    svc.append(mid, "roll", None, {"value": 3})
    rewrite_entry(store, mid, 3, data={"value": 6})
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 3


def test_audit_catches_a_deleted_entry_in_the_middle_and_at_the_end(svc, store):
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2})
    svc.append(mid, "roll", None, {"value": 3})
    store.r.xdel(store.key(mid, "log"), "3-0")
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 3
    store.r.xdel(store.key(mid, "log"), "2-0")
    assert audit_match(store, mid).first_invalid_seq == 2


def test_undo_deeper_than_a_snapshot_keeps_rebuilds_from_the_log(svc, store):
    """Snapshots keep only the newest undo steps' prior states; undoing further
    back from a process that loaded a snapshot must still be exact."""
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": 10**6})["id"]
    seat = 0
    for _ in range(40):
        svc.append(mid, "add", seat, {"n": 1})
        svc.append(mid, "roll", None, {"value": 1})
        seat = 1 - seat
    fresh = MatchService(store, snapshot_every=4)
    assert fresh.current(mid).seq == 81
    for i in range(50):
        fresh.append(mid, "undo", None, {})
    assert fresh.current(mid).state[0].total == 80 - 50
    # A third process, loading after the undos, agrees.
    assert MatchService(store).current(mid).state == fresh.current(mid).state


def test_a_stored_log_that_no_longer_replays_is_reported_as_corrupt(svc, store):
    from service.errors import CorruptLog

    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 2})
    svc.append(mid, "roll", None, {"value": 3})
    rewrite_entry(store, mid, 2, data={"n": 7})  # an illegal move, written behind the service's back
    fresh = MatchService(store)
    with pytest.raises(CorruptLog) as err:
        fresh.current(mid)
    assert err.value.details["seq"] == 2
    with pytest.raises(CorruptLog):
        fresh.review(mid)


def test_an_append_marks_its_match_owed_in_the_same_round_trip(svc, store):
    """The mark is set after the append and says whether it is new, whatever
    the append's outcome (a refused append that set it must still queue)."""
    mid = new(svc)
    store.take_owed("validation", mid)
    ms = svc.current(mid)
    from replays import seal

    event = seal(2, "add", 0, {"n": 1}, "2026-01-01T00:00:00.000Z", "test", svc._entry(mid).head_hash)
    first = store.append(mid, [event], owe="validation")
    assert first.status == "ok" and first.owed
    again = store.append(mid, [event], owe="validation")
    assert again.status == "conflict" and not again.owed  # still owed from the first
    store.take_owed("validation", mid)
    late = store.append(mid, [event], owe="validation")
    assert late.status == "conflict" and late.owed
    assert store.append("no-such-match", [event], owe="validation").status == "missing"
    assert "no-such-match" not in store.overdue("validation", time.time() + 1)
    assert ms.seq == 1


def test_an_append_to_a_key_that_is_no_stream_raises_and_marks_nothing(svc, store, redis_client):
    """The one-move append (its XADD and the mark in one round trip) tells a
    refused id (a conflict) from any other error, which it raises, taking
    back the mark it set; a mark that was there before stays."""
    import redis

    from replays import seal

    redis_client.set(store.key("not-a-stream", "log"), "text")
    event = seal(2, "add", 0, {"n": 1}, "2026-01-01T00:00:00.000Z", "test", GENESIS)
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        store.append("not-a-stream", [event], owe="validation")
    assert "not-a-stream" not in store.overdue("validation", time.time() + 1)
    assert store.owe("validation", "not-a-stream", 1.0)  # owed already (a job not yet started)
    with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
        store.append("not-a-stream", [event], owe="validation")
    outcome = store.append("no-such-stream", [event], owe="validation")
    assert outcome.status == "missing" and not outcome.owed
    assert store.overdue("validation", time.time() + 1) == ["not-a-stream"]


def test_an_append_whose_script_redis_forgets_before_it_runs_is_sent_again(svc, store, redis_client, monkeypatch):
    """Redis forgets its scripts between the pipeline's SCRIPT LOAD and its
    EVALSHA (a SCRIPT FLUSH or a restart in between, as another test's flush
    did to a concurrent append on a shared Redis): that append did not run,
    is sent once more and written once, with its mark."""
    mid = new(svc)
    store.take_owed("validation", mid)
    load = redis.client.Pipeline.load_scripts
    flushed: list[bool] = []

    def load_then_forget(self):
        load(self)
        if not flushed:
            flushed.append(True)
            redis_client.script_flush()

    monkeypatch.setattr(redis.client.Pipeline, "load_scripts", load_then_forget)
    answer = svc.append(mid, "add", 0, {"n": 1}, idempotency_key="k-2")  # with a key: the pipelined script
    assert flushed and answer["seq"] == 2
    assert [e["seq"] for e in store.events(mid)] == [1, 2]
    assert mid in store.overdue("validation", time.time() + 1)


def test_an_append_after_redis_forgot_its_scripts_loads_them_again(svc, store, redis_client):
    """A server that does not know the store's scripts (restarted, SCRIPT
    FLUSH): a move sends its script whole once, and an append with an
    Idempotency-Key gets its script loaded again; each is written once,
    with its mark."""
    mid = new(svc)
    store.take_owed("validation", mid)
    redis_client.script_flush()
    svc.append(mid, "add", 0, {"n": 1})
    redis_client.script_flush()
    svc.append(mid, "roll", None, {"value": 3}, idempotency_key="k-1")
    assert [e["seq"] for e in store.events(mid)] == [1, 2, 3]
    assert mid in store.overdue("validation", time.time() + 1)


def _recording_pipelines(client, monkeypatch):
    """The commands of every pipeline the client runs (the own connection's
    way back when its connection failed), recorded."""
    sent = []
    make = client.pipeline

    def pipeline(*a, **k):
        pipe = make(*a, **k)
        run = pipe.execute

        def execute(*ea, **ek):
            sent.append([command[0][0] for command in pipe.command_stack])
            return run(*ea, **ek)

        pipe.execute = execute
        return pipe

    monkeypatch.setattr(client, "pipeline", pipeline)
    return sent


def test_a_move_is_sent_on_an_own_connection_not_through_the_pool(svc, store, redis_client, monkeypatch):
    """The one-move append skips the client's pool, pipeline and retry
    layers: it needs neither the client's commands nor its pipelines. The
    connection is lent for the call: the next call, from any thread, takes
    it again."""
    import threading

    mid = new(svc)
    monkeypatch.setattr(redis_client, "execute_command", lambda *a, **k: pytest.fail(f"sent through the client: {a[:1]}"))
    monkeypatch.setattr(redis_client, "pipeline", lambda *a, **k: pytest.fail("a pipeline of the client"))
    svc.append(mid, "add", 0, {"n": 1})
    monkeypatch.undo()
    assert [e["seq"] for e in store.events(mid)] == [1, 2]
    ids = {"main": _own_connection_id(store)}

    def other():
        svc.append(mid, "roll", None, {"value": 4})
        ids["other"] = _own_connection_id(store)

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert ids["other"] == ids["main"]
    assert [e["seq"] for e in store.events(mid)] == [1, 2, 3]


def test_own_connections_are_as_many_as_calls_in_flight_not_as_threads(store, redis_client, monkeypatch):
    """Kept one per thread, every greenlet of the gevent server (one per HTTP
    client) held a Redis connection while its client stayed connected. Now
    two calls at once take two connections, 40 threads one after another
    take one of those, and no more than ``OWN`` exist: a call that finds them
    all lent goes through the client's pool (bounded too)."""
    import threading

    from replays import connection

    key = store.key("own-conns", "probe")
    real_connect = store.send._connect

    def two_at_once():
        inside, release = threading.Event(), threading.Event()

        def slow_connect():  # the first call holds its new connection until told to let go
            conn = real_connect()
            if not inside.is_set():
                inside.set()
                release.wait(10)
            return conn

        monkeypatch.setattr(store.send, "_connect", slow_connect)
        first = threading.Thread(target=store.send, args=(("INCR", key),))
        first.start()
        assert inside.wait(10)
        store.send(("INCR", key))  # while the first is in flight: a second connection
        release.set()
        first.join()
        monkeypatch.setattr(store.send, "_connect", real_connect)

    two_at_once()
    assert len(store.send._idle) == 2 and redis_client.get(key) == "2"
    for _ in range(40):
        thread = threading.Thread(target=store.send, args=(("INCR", key),))
        thread.start()
        thread.join()
    assert len(store.send._idle) == 2 and redis_client.get(key) == "42"
    store.send.close()
    assert store.send._idle == []
    monkeypatch.setattr(connection, "OWN", 1)
    pipelines = _recording_pipelines(redis_client, monkeypatch)
    two_at_once()
    assert pipelines == [["INCR"]]  # the second, while the one own connection was lent
    assert len(store.send._idle) == 1 and redis_client.get(key) == "44"
    redis_client.delete(key)


def test_an_append_on_a_connection_redis_dropped_is_written_once(svc, store, redis_client, monkeypatch):
    """Redis closes the store's own connection (a restart, a timeout, CLIENT
    KILL): the next move goes through the client's pipeline with its
    retries, is written once with its mark, and the move after it
    reconnects."""
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 1})
    redis_client.client_kill_filter(_id=_own_connection_id(store))
    pipelines = _recording_pipelines(redis_client, monkeypatch)
    store.take_owed("validation", mid)
    svc.append(mid, "roll", None, {"value": 4})
    assert pipelines == [["EVALSHA", "ZADD"]]
    assert mid in store.overdue("validation", time.time() + 1)
    svc.append(mid, "add", 1, {"n": 2})
    assert pipelines == [["EVALSHA", "ZADD"]]  # the next one on the own connection again
    monkeypatch.undo()
    assert [e["seq"] for e in store.events(mid)] == [1, 2, 3, 4]
    assert _own_connection_id(store) is not None  # connected again
    assert audit_match(store, mid).to_dict()["valid"] is True


def test_a_forked_process_makes_its_own_connection(svc, store):
    """A connection made before a fork is the parent's: the child makes its own."""
    from replays import connection

    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 1})
    (before,) = store.send._idle
    connection._forked()  # what os.register_at_fork runs in a child
    svc.append(mid, "roll", None, {"value": 4})
    assert store.send._idle and before not in store.send._idle
    assert [e["seq"] for e in store.events(mid)] == [1, 2, 3]


def test_a_client_with_one_connection_for_all_sends_the_move_itself(redis_client, prefix, monkeypatch):
    """A client that is not a plain pool of connections (here one connection
    shared by the whole client) gets the move's commands as a pipeline of
    its own, with the same outcomes."""
    import redis

    from replays import EventStore, seal

    shared = redis.Redis(connection_pool=redis_client.connection_pool, single_connection_client=True)
    pipelines = _recording_pipelines(shared, monkeypatch)
    store = EventStore(shared, prefix)
    svc = MatchService(store)
    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 1})
    assert ["EVALSHA", "ZADD"] in pipelines and not store.send.direct
    assert [e["seq"] for e in store.events(mid)] == [1, 2]
    event = seal(2, "add", 0, {"n": 1}, "2026-01-01T00:00:00.000Z", "test", GENESIS)
    assert store.append(mid, [event], owe="validation").status == "conflict"
    shared.close()


def _own_connection_id(store):
    """The Redis client id of the store's own connection kept for the next call (replays.connection)."""
    (conn,) = store.send._idle
    conn.send_command("CLIENT", "ID")
    return conn.read_response()


def test_an_idempotency_record_keeps_little_and_a_retry_gets_the_same_bytes(svc, store, redis_client):
    """A record keeps the fingerprint, the seqs and the last hash (not the
    answer, whose state view can be kilobytes), expires within
    IDEMPOTENCY_TTL, and a retry's answer, rebuilt from the log, is the first
    answer's bytes with ``"idempotent_replay": true`` added at the end, even
    after more moves and from another process with a cold cache."""
    from replays.store import IDEMPOTENCY_TTL
    from service.matches import MatchService

    mid = new(svc)
    first = svc.append(mid, "add", 0, {"n": 2}, idempotency_key="k-bytes")
    first_bytes = first.json()
    key = store.key(mid, "idem:k-bytes")
    record = redis_client.get(key)
    # the fingerprint's first 128 bits and the hash's first 16 digits: 55 bytes, where the whole of both took 145
    assert len(record) <= 60 and "state" not in record and first["hash"][:16] in record and first["hash"] not in record
    assert 0 < redis_client.ttl(key) <= IDEMPOTENCY_TTL
    expected = first_bytes[:-1] + b',"idempotent_replay":true}'
    assert svc.append(mid, "add", 0, {"n": 2}, idempotency_key="k-bytes").json() == expected
    svc.append(mid, "roll", None, {"value": 3})  # the match moves on
    assert svc.append(mid, "add", 0, {"n": 2}, idempotency_key="k-bytes").json() == expected
    cold = MatchService(store)
    assert cold.append(mid, "add", 0, {"n": 2}, idempotency_key="k-bytes").json() == expected
    with pytest.raises(IdempotencyMismatch):
        cold.append(mid, "add", 0, {"n": 3}, idempotency_key="k-bytes")
    assert [e["seq"] for e in store.events(mid)] == [1, 2, 3]


def test_a_record_written_before_records_were_shortened_still_answers_a_retry(svc, store, redis_client):
    """Records of the last 48 hours kept the whole fingerprint and hash
    (about 150 bytes): a retry still gets its first answer from one, and a
    reused key with other content is still refused."""
    import hashlib

    from replays.hashing import canonical
    from service.matches import MatchService

    mid = new(svc)
    first = svc.append(mid, "add", 0, {"n": 2}, idempotency_key="k-old")
    key = store.key(mid, "idem:k-old")
    fingerprint = hashlib.sha256(canonical({"type": "add", "seat": 0, "data": {"n": 2}, "expected_seq": None}).encode()).hexdigest()
    redis_client.set(key, canonical([fingerprint, first["seq"], first["seq"], first["hash"]]))
    cold = MatchService(store)
    assert cold.append(mid, "add", 0, {"n": 2}, idempotency_key="k-old").json() == \
        first.json()[:-1] + b',"idempotent_replay":true}'
    with pytest.raises(IdempotencyMismatch):
        cold.append(mid, "add", 0, {"n": 3}, idempotency_key="k-old")
    redis_client.set(key, canonical([fingerprint, first["seq"], first["seq"], "0" * 64]))  # a log rewritten since
    with pytest.raises(CorruptLog):
        MatchService(store).append(mid, "add", 0, {"n": 2}, idempotency_key="k-old")


def test_a_simulated_moves_idempotent_retry_gets_the_same_bytes(svc, store):
    """A move with the chance outcomes the server drew for it: the rebuilt
    answer lists every event appended, as the first did."""
    from service.matches import MatchService

    mid = svc.create_match("toy", ["Ann", "Bob"], mode="simulated", seed=7)["id"]
    first = svc.append(mid, "add", 0, {"n": 1}, idempotency_key="sim")
    assert len(first["appended"]) == 2  # the move and its roll
    again = MatchService(store).append(mid, "add", 0, {"n": 1}, idempotency_key="sim")
    assert again.json() == first.json()[:-1] + b',"idempotent_replay":true}'


def _play_to_the_end(svc, mid):
    """Add 1 and roll 1 until the toy game ends (total 20): 21 events."""
    while svc.current(mid).result is None:
        _play_step(svc, mid)


def _snapshot_seqs(store, mid):
    seqs = [int(score) for _, score in store.r.zrange(store.key(mid, "snapi"), 0, -1, withscores=True)]
    assert sorted(int(s) for s in store.r.hkeys(store.key(mid, "snapz"))) == seqs, "a body for each seq, no other"
    return seqs


def test_snapshots_are_bounded_and_pruned_when_the_verdict_is_final(svc, store, monkeypatch):
    """A live match keeps its newest SNAPSHOT_KEEP_LAST snapshots and those at
    a multiple of SNAPSHOT_KEEP_EVERY; once finished and validated to its
    last event, only the latter. Every state still reads as a full replay."""
    import replays.store as S
    from engine import match as M
    from workers.jobs import validate_log

    monkeypatch.setattr(S, "SNAPSHOT_KEEP_EVERY", 8)
    mid = new(svc)
    for _ in range(8):  # seq 9: snapshots were written at 4 and 8
        _play_step(svc, mid)
    assert _snapshot_seqs(store, mid) == [4, 8]
    _play_to_the_end(svc, mid)
    final = svc.current(mid)
    assert final.status == "finished" and final.seq == 21
    assert _snapshot_seqs(store, mid) == [8, 16, 20]  # 12 went: neither newest nor a multiple of 8
    body = store.r.execute_command("HGET", store.key(mid, "snapz"), "20", **{NEVER_DECODE: []})
    assert body.startswith(b"z2:" + store.events(mid, 20, 20)[0]["hash"].encode() + b":") and len(body) < 1000
    validate_log(store, mid)
    assert _snapshot_seqs(store, mid) == [8, 16]
    full = {ms.seq: ms for _, _, ms in M.replay_steps(store.events(mid))}
    fresh = MatchService(store, snapshot_every=4)
    assert fresh.current(mid).state == final.state
    for at in range(1, 22):
        assert fresh.state_at(mid, at).state == full[at].state


def _play_step(svc, mid):
    ms = svc.current(mid)
    if ms.state[0].rolling:
        svc.append(mid, "roll", None, {"value": 1})
    else:
        svc.append(mid, "add", ms.game.actors(ms.state)[0], {"n": 1})


def test_a_verdict_for_part_of_the_log_or_a_live_match_prunes_nothing(svc, store):
    mid = new(svc)
    for _ in range(9):
        _play_step(svc, mid)
    store.save_verdict(mid, {"status": "valid", "seq": 10}, {})  # live: the match is not finished
    assert _snapshot_seqs(store, mid) == [4, 8]
    _play_to_the_end(svc, mid)
    store.save_verdict(mid, {"status": "valid", "seq": 20}, {})  # finished, but the verdict misses seq 21
    assert _snapshot_seqs(store, mid) == [16, 20]


def test_a_snapshot_of_a_head_the_log_no_longer_holds_is_not_read(svc, store):
    """A snapshot taken before the store went back in time names a head the
    log does not hold: loading ignores it and replays, and a new snapshot at
    the same seq replaces it."""
    from engine import match as M

    mid = new(svc)
    for _ in range(4):
        _play_step(svc, mid)
    assert _snapshot_seqs(store, mid) == [4]
    wrong = M.encode(svc.state_at(mid, 3))
    store.save_snapshot(mid, 4, "f" * 64, {**wrong, "seq": 4})  # another head's state, as after a rollback
    assert _snapshot_seqs(store, mid) == [4]
    fresh = MatchService(store, snapshot_every=4)
    assert fresh.current(mid).state == svc.current(mid).state and fresh.state_at(mid, 4).state == svc.state_at(mid, 4).state


def _kept_as_before(seqs, keep_last, every):
    """The snapshots kept after these were written in this order, by the rule the store has always had:
    one per seq (a later one replaces it), the newest ``keep_last`` and those at a multiple of ``every``."""
    held: list[int] = []
    for seq in seqs:
        held = sorted(set(held) | {seq})
        held = [s for i, s in enumerate(held) if i >= len(held) - keep_last or s % every == 0]
    return held


def test_pruning_keeps_the_snapshots_it_always_kept_reading_no_body(store, redis_client, monkeypatch):
    """Snapshots written over a long match (a few at seqs it held before, as
    after the store went back in time) keep exactly the snapshots the rule
    says after every write; each write reads a few seqs of the index,
    however many snapshots are kept, and never a body (issue 36:
    every snapshot, body and all, was read into the script to prune them)."""
    import random

    import replays.store as S

    monkeypatch.setattr(S, "SNAPSHOT_KEEP_EVERY", 8)
    rng = random.Random(36)
    seqs, seq = [], 0
    for _ in range(600):
        seq = max(1, seq - rng.randint(1, 40)) if rng.random() < 0.05 else seq + rng.choice((1, 1, 2, 3))
        seqs.append(seq)

    def calls():
        stats = redis_client.info("commandstats")
        return {name[len("cmdstat_"):]: v["calls"] for name, v in stats.items()}

    state = {"seq": 0, "payload": "x" * 200}
    per_write = []
    for i, seq in enumerate(seqs):
        before = calls()
        store.save_snapshot("long", seq, f"{seq:064x}", state)
        after = calls()
        per_write.append({c: after.get(c, 0) - before.get(c, 0) for c in after if after.get(c, 0) != before.get(c, 0)})
        assert _snapshot_seqs(store, "long") == _kept_as_before(seqs[:i + 1], S.SNAPSHOT_KEEP_LAST, 8), i
    assert len(_snapshot_seqs(store, "long")) > 40
    if os.environ.get("REDIS_URL"):
        return  # a Redis others use too: its command counts are not this test's alone
    read = {"hget", "hmget", "hgetall", "hvals", "hscan", "zrange", "zrangebyscore", "zscan"}
    for used in per_write:
        assert not read & set(used), used
        assert used.get("zrevrange") == 1 and used.get("zrem", 0) <= 2 and used.get("hdel", 0) <= 2


def test_snapshots_of_the_format_before_issue_36_still_load(svc, store, redis_client, monkeypatch):
    """A snapshot written before issue 36 (in the ``snap`` set, its body in
    its member, base64) is read where it is the nearest at or before the
    seq asked for, a newer format's at the same seq first; the new writes
    and the final prune leave those alone."""
    import base64
    import zlib

    import orjson

    import replays.store as S
    from engine import match as M
    from workers.jobs import validate_log

    monkeypatch.setattr(S, "SNAPSHOT_KEEP_EVERY", 8)
    mid = new(svc)
    for _ in range(8):
        _play_step(svc, mid)  # snapshots at 4 and 8
    events = store.events(mid)
    legacy = store.key(mid, "snap")
    for seq in (2, 4, 6):
        old = base64.b64encode(zlib.compress(orjson.dumps(M.encode(svc.state_at(mid, seq))), 6)).decode()
        redis_client.zadd(legacy, {f"z1:{events[seq - 1]['hash']}:{old}": seq})
    redis_client.zadd(legacy, {"z0:something older": 3})
    for at, found in ((1, None), (2, 2), (3, None), (4, 4), (5, 4), (6, 6), (7, 6), (9, 8)):
        got = store.snapshot_at_or_before(mid, at)
        assert (got and got[0]) == found, at
        if got:
            assert got[1] == events[found - 1]["hash"] and M.decode(svc.current(mid).setup, got[2]).seq == found
    full = {ms.seq: ms for _, _, ms in M.replay_steps(store.events(mid))}
    fresh = MatchService(store, snapshot_every=4)
    for at in range(1, 10):
        assert fresh.state_at(mid, at).state == full[at].state
    members = redis_client.zrange(legacy, 0, -1)
    _play_to_the_end(svc, mid)
    validate_log(store, mid)
    assert redis_client.zrange(legacy, 0, -1) == members
    assert _snapshot_seqs(store, mid) == [8, 16]


def test_an_append_after_the_streams_last_entry_was_deleted_is_refused_plainly(svc, store, redis_client):
    """Entries deleted past the head (XDEL: someone changed the stream) leave
    Redis' last-generated id above it, so the next id is refused: the append
    says so (409 corrupt_log) and writes nothing, with or without a key."""
    from service.errors import CorruptLog

    mid = new(svc)
    svc.append(mid, "add", 0, {"n": 1})
    redis_client.xdel(store.key(mid, "log"), "2-0")
    store.take_owed("validation", mid)
    with pytest.raises(CorruptLog, match="deleted"):
        MatchService(store).append(mid, "add", 0, {"n": 1})
    with pytest.raises(CorruptLog, match="deleted"):
        MatchService(store).append(mid, "add", 0, {"n": 1}, idempotency_key="after-xdel")
    assert [e["seq"] for e in store.events(mid)] == [1]


def test_the_review_replays_only_new_events_and_reads_the_same_as_a_fresh_process(svc, store, monkeypatch):
    """A review asked for at every move (the live page does) reuses the lines
    worked out before: after each move, an undo, and an earlier event forged
    in the store (as someone with write access would), it reads exactly as
    one from a process that never saw the match, for the referee and the
    public, and it replays only the events it has not yet described."""
    from engine import match as M
    from tests.support.tamper import forge_entry

    replayed: list[int] = []
    real = M.replay_steps

    def counting(events, ms=None):
        for step in real(events, ms):
            replayed.append(step[0]["seq"])
            yield step

    mid = new(svc)

    def same_as_fresh():
        for viewer in ("referee", None):
            assert svc.review(mid, viewer) == MatchService(store).review(mid, viewer)

    same_as_fresh()
    monkeypatch.setattr(M, "replay_steps", counting)
    for _ in range(5):
        _play_step(svc, mid)
        replayed.clear()
        svc.review(mid, "referee")
        assert replayed == [svc.current(mid).seq], "only the new event is replayed"
        monkeypatch.setattr(M, "replay_steps", real)
        same_as_fresh()
        monkeypatch.setattr(M, "replay_steps", counting)
    monkeypatch.setattr(M, "replay_steps", real)
    svc.append(mid, "undo", None, {})
    same_as_fresh()
    undo = svc.review(mid, "referee")["steps"][-1]
    assert undo["undoes"] and svc.review(mid, "referee")["steps"][undo["undoes"][0] - 1]["undone_by"] == undo["seq"]
    before = svc.review(mid, "referee")["steps"][1]["summary"]
    forge_entry(store, mid, 2, data={"n": 2})
    after = svc.review(mid, "referee")
    assert after["steps"][1]["summary"] != before, "a line of an event the store no longer holds is not reused"
    same_as_fresh()


def test_the_embedded_redis_keeps_a_log_in_16_kb_stream_nodes(tmp_path):
    """Each node of a stream costs its own overhead; at Redis' 4 KB an event's
    ~450 B entry left about 9 a node. The embedded server (``make run``,
    the tests) takes 16 KB nodes: 100 such entries fit in about 3 nodes, not
    11 (docs/architecture.md, "What Redis holds, and what it costs")."""
    from service import embedded

    proc, socket = embedded.start(tmp_path / "var", persistent=False)
    try:
        r = redis.Redis(unix_socket_path=str(socket), decode_responses=True)
        assert r.config_get("stream-node-max-bytes")["stream-node-max-bytes"] == str(embedded.STREAM_NODE_MAX_BYTES)
        for seq in range(1, 101):
            r.xadd("log", {"event": "x" * 380, "hash": "0" * 64}, id=f"{seq}-0")
        nodes = r.xinfo_stream("log")["radix-tree-keys"]
        assert nodes <= 100 * 450 // embedded.STREAM_NODE_MAX_BYTES + 1, nodes
        r.close()
    finally:
        embedded.stop(proc, socket)
