"""Compaction of finished matches (``EventStore.compact``, ``replays.compact``):
a compacted match answers every read, review, audit, proof and export byte
for byte as before, for every game; an undo after it behaves as documented;
an append racing with it is neither lost nor doubled; a corrupt block is
reported, never served. The store's own checks run on fakeredis (fast) and
on a real Redis; the API's on a real Redis."""

from __future__ import annotations

import random
import threading

import fakeredis
import pytest

from engine import registry
from engine.core import REFEREE
from replays import EventStore, audit_match, seal
from replays import compact as packing
from replays.compact import CorruptBlock
from replays.hashing import GENESIS
from service.app import create_app
from service.matches import MatchService
from tests.support.toy import ensure_registered
from workers.jobs import compact_final, sweep, validate_log

ensure_registered()

GAMES = sorted(g.id for g in registry.all_games())


@pytest.fixture(params=["fakeredis", "redis"])
def any_store(request):
    """The event store on fakeredis and on the real Redis of the tests."""
    if request.param == "fakeredis":
        return EventStore(fakeredis.FakeRedis(decode_responses=True), "kf")
    return request.getfixturevalue("store")


def raw(store: EventStore, match_id: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The log's entries as stored: ids, field names in order, values."""
    return [(entry_id, list(fields.items())) for entry_id, fields in store.entries(match_id)]


def sealed(n: int, prev: str = GENESIS, first: int = 1) -> list[dict]:
    events = []
    for seq in range(first, first + n):
        event = seal(seq, "setup" if seq == 1 else "move", None if seq % 3 else seq % 2, {"n": seq, "s": "ü"},
                     f"2026-11-2{seq % 7}T10:00:0{seq % 10}.{seq:03d}Z", "rec", prev)
        events.append(event)
        prev = event["hash"]
    return events


def play(svc: MatchService, game_id: str, seed: int, cap: int) -> str:
    """A simulated match of random legal moves through the service, with an
    undo now and then, to its end or ``cap`` events."""
    rng = random.Random(seed)
    game = registry.get(game_id)
    mid = svc.create_match(game_id, [f"P{i}" for i in range(min(game.player_counts))], mode="simulated",
                           seed=seed)["id"]
    while True:
        ms = svc.current(mid)
        if ms.result is not None or ms.seq >= cap:
            return mid
        moves = svc.legal_moves(mid, REFEREE)["moves"]
        if not moves:
            return mid
        if ms.seq > 3 and rng.random() < 0.05:
            svc.append(mid, "undo", None, {})
            continue
        move = rng.choice(moves)
        svc.append(mid, move["type"], move.get("seat"), move.get("data", {}),
                   idempotency_key=f"k{ms.seq}" if rng.random() < 0.5 else None)


# -- the store ----------------------------------------------------------------------


def test_a_compacted_log_reads_back_byte_for_byte_and_a_new_event_starts_a_stream_after_it(any_store):
    store = any_store
    events = sealed(30)
    assert store.create("m1", events[:1], {"game": "toy", "status": "finished"}, 1.0)
    assert store.append("m1", events[1:]).status == "ok"
    before = raw(store, "m1")
    head, last = store.head_seq("m1"), store.last_generated_seq("m1")
    assert store.compact("m1") == "ok"
    assert not store.r.exists(store.key("m1", "log")) and store.compacted("m1") and store.exists("m1")
    assert raw(store, "m1") == before
    assert raw(store, "m1")[4:9] == [e for e in before[4:9]] == [(i, list(f.items()))
                                                                  for i, f in store.entries("m1", 5, 9)]
    assert store.events("m1", 29) == [{k: v for k, v in e.items() if k != "text"} for e in events[28:]]
    assert (store.head_seq("m1"), store.last_generated_seq("m1")) == (head, last)
    assert audit_match(store, "m1").to_dict() == {"valid": True, "length": 30, "head": events[-1]["hash"],
                                                  "first_invalid_seq": None, "reason": None,
                                                  "scheme": "commitments"}
    assert store.compact("m1") == "nothing"

    # A new event follows the block's head: it starts a stream of its own after seq 30.
    more = sealed(3, events[-1]["hash"], 31)
    stale = sealed(1, events[-2]["hash"], 30)
    assert store.append("m1", stale).status == "conflict"  # the head check reads the block's header
    assert store.append("m1", more[:1]).status == "ok"
    assert store.append("m1", more[1:2], idem_key="k", idem_value="v").status == "ok"
    assert store.append("m1", more[2:], owe="validation").status == "ok"
    assert [i for i, _ in store.r.xrange(store.key("m1", "log"))] == ["31-0", "32-0", "33-0"]
    assert raw(store, "m1") == before + [(f"{e['seq']}-0", [("event", e["text"]), ("hash", e["hash"])])
                                         for e in more]
    assert store.head_seq("m1") == (33, more[-1]["hash"]) and store.last_generated_seq("m1") == 33
    assert audit_match(store, "m1").valid
    # Compacted again: one block of all 33.
    all_33 = raw(store, "m1")
    assert store.compact("m1") == "ok"
    assert raw(store, "m1") == all_33 and packing.header(store.r.execute_command(
        "GET", store.key("m1", "packed"), NEVER_DECODE=[]))[0] == 33


def test_a_legacy_log_compacts_and_a_log_that_would_not_read_back_is_refused(any_store):
    store = any_store
    import orjson

    from replays.hashing import canonical, event_hash

    prev, legacy = GENESIS, []
    for seq in range(1, 6):
        envelope = {"seq": seq, "type": "move", "seat": 0, "data": {"n": seq}, "recorded_at": "x",
                    "recorded_by": "r", "prev_hash": prev}
        prev = event_hash(envelope)
        legacy.append({**envelope, "text": canonical(envelope), "hash": prev})
    store.create("old", legacy, {"game": "toy"}, 1.0)
    before = raw(store, "old")
    assert store.compact("old") == "ok" and raw(store, "old") == before
    # A stored text that is not canonical (white space) reads the same as JSON, not as bytes: refused.
    events = sealed(4)
    spaced = dict(events[2])
    spaced["text"] = orjson.dumps(orjson.loads(events[2]["text"]), option=orjson.OPT_INDENT_2).decode()
    store.create("odd", [events[0]], {"game": "toy"}, 1.0)
    store.append("odd", [events[1], spaced, events[3]])
    outcome = store.compact("odd")
    assert outcome.startswith("refused:") and "seq 3" in outcome
    assert store.r.exists(store.key("odd", "log")) and not store.compacted("odd")


def test_a_corrupt_block_is_reported_never_served(any_store):
    store = any_store
    events = sealed(12)
    store.create("c", events, {"game": "toy"}, 1.0)
    assert store.compact("c") == "ok"
    key = store.key("c", "packed")
    block = store.r.execute_command("GET", key, NEVER_DECODE=[])
    body = packing.unpack(block)
    # One flipped byte anywhere past the header: the frame's checksum or the chain's end says so.
    for at in (len(block) // 2, len(block) - 1, block.index(b"\n") + 5):
        broken = bytearray(block)
        broken[at] ^= 0x01
        store.r.set(key, bytes(broken))
        store._blocks.clear()
        with pytest.raises(CorruptBlock):
            store.events("c")
        report = audit_match(store, "c")
        assert not report.valid and report.first_invalid_seq == 1 and "compacted log" in report.reason
    # A well-formed block of other events under this header: the hash it reaches is not the header's.
    other = packing.pack([(f"{e['seq']}-0", {"event": e["text"], "hash": e["hash"]}) for e in sealed(12)])
    store.r.set(key, block[:block.index(b"\n") + 1] + other[other.index(b"\n") + 1:])
    store._blocks.clear()
    with pytest.raises(CorruptBlock, match="hash of seq 12"):
        store.entries("c").__next__()
    store.r.set(key, b"K1 0 " + block[block.index(b" ", 3) + 1:])  # a header that names no event
    store._blocks.clear()
    with pytest.raises(CorruptBlock):
        store.events("c")
    store.r.set(key, b"K2 garbage")
    with pytest.raises(CorruptBlock):
        store.head_seq("c")
    store.r.set(key, block)
    store._blocks.clear()
    assert [(i, list(f.items())) for i, f in body] == raw(store, "c")


def test_an_append_racing_with_compaction_is_neither_lost_nor_doubled(any_store, monkeypatch):
    store = any_store
    events = sealed(20)
    store.create("r", events[:10], {"game": "toy"}, 1.0)
    # The append lands between compaction's read and its write: nothing is written, the append stands.
    real_pack = packing.pack

    def pack_then_append(entries):
        block = real_pack(entries)
        assert store.append("r", events[10:11]).status == "ok"
        return block

    monkeypatch.setattr(packing, "pack", pack_then_append)
    assert store.compact("r") == "moved"
    monkeypatch.setattr(packing, "pack", real_pack)
    assert [i for i, _ in store.entries("r")] == [f"{s}-0" for s in range(1, 12)]
    assert store.compact("r") == "ok"

    # Threads: one appends event after event while another compacts again and again.
    done = threading.Event()
    outcomes: list[str] = []

    def compactor():
        while not done.is_set():
            outcomes.append(store.compact("r"))

    thread = threading.Thread(target=compactor)
    thread.start()
    try:
        for event in events[11:]:
            assert store.append("r", [event]).status == "ok"
            seen = len(outcomes)
            while len(outcomes) < seen + 2 and thread.is_alive():  # a compaction wholly after this append
                done.wait(0.001)
    finally:
        done.set()
        thread.join()
    assert store.compact("r") in ("ok", "nothing")
    assert raw(store, "r") == [(f"{e['seq']}-0", [("event", e["text"]), ("hash", e["hash"])]) for e in events]
    assert audit_match(store, "r").valid and "ok" in outcomes


def test_a_stream_whose_newest_entries_were_deleted_is_not_compacted(any_store):
    store = any_store
    store.create("d", sealed(6), {"game": "toy"}, 1.0)
    store.r.xdel(store.key("d", "log"), "6-0")
    assert store.compact("d").startswith("refused: the stream held seq 6")
    assert store.last_generated_seq("d") == 6 and not audit_match(store, "d").valid


# -- every game, through the API --------------------------------------------------------


def answers(admin, mid: str, seq: int, players: int) -> dict[str, tuple[int, bytes]]:
    """What the API answers about the match: every read, review, audit, export
    and proof a client can ask for, as status and body bytes."""
    paths = [f"/api/matches/{mid}", f"/api/matches/{mid}/audit", f"/api/matches/{mid}/annotations",
             f"/api/matches/{mid}/stream?wait=0&seat=referee", f"/api/matches?limit=500"]
    for seat in ("referee", "public", *range(players)):
        paths += [f"/api/matches/{mid}/events?seat={seat}", f"/api/matches/{mid}/review?seat={seat}",
                  f"/api/matches/{mid}/notation?seat={seat}", f"/api/matches/{mid}/scene?seat={seat}",
                  f"/api/matches/{mid}/state?seat={seat}"]
    for at in sorted({1, 2, seq // 3, seq // 2, seq - 1, seq} - {0}):
        paths += [f"/api/matches/{mid}/state?seat=referee&at={at}", f"/api/matches/{mid}/scene?seat=public&at={at}",
                  f"/api/matches/{mid}/events?seat=referee&from={at}&to={min(seq, at + 5)}"]
    out = {path: (res.status_code, res.get_data()) for path in paths if (res := admin.get(path))}
    proof = admin.get(f"/api/log/proofs/inclusion?kind=m&id={mid}")
    body = proof.get_json()
    if proof.status_code == 200:  # the tree head is signed now: its time and signature differ
        body["tree_head"] = {k: v for k, v in body["tree_head"].items() if k not in ("timestamp", "signature")}
    out["proof"] = (proof.status_code, repr(body).encode())
    return out


@pytest.mark.slow(60)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_answers_the_same_after_compaction(game_id, app, store, admin, signing_key, validations,
                                                      monkeypatch):
    svc = app.extensions["kroniek"]
    mid = play(svc, game_id, 7, cap=120)
    ms = svc.current(mid)
    annotate = admin.post(f"/api/matches/{mid}/annotations", json={"seq": 2, "glyph": "!?", "comment": "hm"})
    assert annotate.status_code == 201, annotate.get_json()
    # The worker's verdict, its compaction held back until the answers before it are taken.
    held: list[tuple] = []
    monkeypatch.setattr("workers.jobs.compact_final", lambda *a: held.append(a))
    verdict = validate_log(store, mid)
    monkeypatch.undo()
    assert verdict["status"] == "valid", verdict
    assert bool(held) == (ms.status == "finished")  # the worker compacts the finished ones

    def fresh_client():  # a new app: no state cached from before
        client = create_app(store=store, enqueue_validation=validations.append, enqueue_ratings=lambda game: None,
                            signing_key=signing_key).test_client()
        client.environ_base.update(admin.environ_base)
        return client

    stored = raw(store, mid)
    auto = store.auto_annotations(mid)
    before = answers(fresh_client(), mid, ms.seq, len(ms.players))
    if held:
        assert compact_final(*held[0]) == "ok"
    else:
        assert store.compact(mid) == "ok"
    assert not store.r.exists(store.key(mid, "log")) and store.compacted(mid)
    assert not store.r.exists(store.key(mid, "auto")) or not auto
    assert raw(store, mid) == stored and store.auto_annotations(mid) == auto
    after = answers(fresh_client(), mid, ms.seq, len(ms.players))
    assert after.keys() == before.keys()
    for path in before:
        assert after[path] == before[path], path
    assert sum(status == 200 for status, _ in before.values()) > len(before) // 2
    if ms.status == "finished":
        assert before["proof"][0] == 200  # the final head was logged; its proof reads the same


def test_the_worker_compacts_a_finished_match_and_an_undo_after_it_behaves_as_before(store, admin, validations):
    svc = MatchService(store, validations.append)
    mid = play(svc, "braverats", 3, cap=200)
    assert svc.current(mid).status == "finished"
    assert validate_log(store, mid)["status"] == "valid" and store.compacted(mid)
    assert not store.r.exists(store.key(mid, "log"))
    seq = svc.current(mid).seq
    undone = svc.append(mid, "undo", None, {})
    assert undone["seq"] == seq + 1 and svc.current(mid).status == "in_progress"
    assert [i for i, _ in store.r.xrange(store.key(mid, "log"))] == [f"{seq + 1}-0"]
    assert store.r.exists(store.key(mid, "autoz")) and not store.r.exists(store.key(mid, "auto"))
    assert audit_match(store, mid).valid and validate_log(store, mid)["status"] == "valid"
    assert store.compacted(mid) and store.r.exists(store.key(mid, "log"))  # not finished: not compacted again
    # The new verdict's annotations replace the compacted ones (the undo is a recording correction).
    assert not store.r.exists(store.key(mid, "autoz"))
    assert store.auto_annotations(mid)[seq + 1][0]["kind"] == "correction"
    fresh = MatchService(store)
    assert fresh.current(mid).seq == seq + 1 and fresh.review(mid, REFEREE)["steps"][seq - 1]["undone_by"] == seq + 1


def test_the_sweep_compacts_finished_matches_left_uncompacted(store, prefix, monkeypatch, validations):
    svc = MatchService(store, validations.append)
    mid = play(svc, "braverats", 5, cap=200)
    monkeypatch.setattr("workers.jobs.compact_final", lambda *a: "skipped")
    assert validate_log(store, mid)["status"] == "valid" and not store.compacted(mid)
    monkeypatch.undo()
    before = raw(store, mid)
    monkeypatch.setattr("workers.jobs.store_client", lambda: store.r)
    queued: list[tuple] = []
    analyses: list[tuple] = []
    monkeypatch.setattr("workers.jobs.enqueue_validation", lambda *a: queued.append(a))
    monkeypatch.setattr("workers.jobs.enqueue_analysis", lambda *a: analyses.append(a))
    monkeypatch.setattr("workers.jobs.stale_rating_games", lambda p: [])
    sweep(prefix)
    assert store.compacted(mid) and not store.r.exists(store.key(mid, "log")) and raw(store, mid) == before
    sweep(prefix)  # again: a compacted match is left as it is, and owes no verdict (only its analysis)
    assert raw(store, mid) == before and queued == [] and {a[1] for a in analyses} == {mid}


def test_a_leagues_exports_of_a_compacted_match_read_the_same(app, client, anon, store, monkeypatch):
    """The league's archive (checked offline), its plays (JSON and CSV),
    standings and the match's proof in the league, before and after."""
    import orjson

    from leagues.archive import verify_archive
    from tests.test_translog import play_to_the_end

    lid = client.post("/api/leagues", json={"name": "Duel", "game": "braverats", "format": "round_robin",
                                             "players": ["Ann", "Bob"]}).get_json()["id"]
    assert client.post(f"/api/leagues/{lid}/rounds").status_code == 201
    mid = client.post(f"/api/leagues/{lid}/rounds/1/boards/1/match").get_json()["id"]
    play_to_the_end(client, mid)
    held: list[tuple] = []
    monkeypatch.setattr("workers.jobs.compact_final", lambda *a: held.append(a))
    assert validate_log(store, mid)["status"] == "valid" and held
    monkeypatch.undo()
    assert client.post(f"/api/leagues/{lid}/results", json={"match": mid}).status_code == 201

    def exported() -> dict[str, bytes]:
        out = {path: anon.get(path).get_data() for path in (
            f"/api/leagues/{lid}/plays", f"/api/leagues/{lid}/plays?format=csv", f"/api/leagues/{lid}/standings",
            f"/api/leagues/{lid}/audit")}
        records = [orjson.loads(line) for line in anon.get(f"/api/leagues/{lid}/export").get_data().splitlines()]
        report = verify_archive(records)
        assert not report.problems and report.checked["matches"] == 1, report.problems
        for record in records:  # signed now: the time of the export and of the tree head, and the signature
            for moment in ("exported_at", "timestamp", "signature"):
                record.pop(moment, None)
        out["export"] = orjson.dumps(records)
        proof = anon.get(f"/api/leagues/{lid}/matches/{mid}/proof").get_json()
        proof.pop("tree_head")
        out["proof"] = orjson.dumps(proof, option=orjson.OPT_SORT_KEYS)
        return out

    before = exported()
    assert compact_final(*held[0]) == "ok" and store.compacted(mid)
    app.extensions["kroniek"]._cache.clear()
    assert exported() == before


def test_a_corrupt_block_is_a_409_corrupt_log_over_http_and_an_invalid_verdict(app, admin, store):
    from tests.test_translog import finished_toy_match

    mid = finished_toy_match(app)
    assert validate_log(store, mid)["status"] == "valid" and store.compacted(mid)
    key = store.key(mid, "packed")
    block = bytearray(store.r.execute_command("GET", key, NEVER_DECODE=[]))
    block[-3] ^= 0x40
    store.r.set(key, bytes(block))
    app.extensions["kroniek"]._cache.clear()
    store._blocks.clear()
    res = admin.get(f"/api/matches/{mid}/events?seat=referee")
    assert res.status_code == 409 and res.get_json()["error"]["code"] == "corrupt_log", res.get_json()
    # The audit's endpoint loads the match first, as for a log that no longer replays: 409 too;
    # the worker's audit reports it, from seq 1.
    assert admin.get(f"/api/matches/{mid}/audit").get_json()["error"]["code"] == "corrupt_log"
    report = audit_match(store, mid)
    assert not report.valid and report.first_invalid_seq == 1 and "compacted log" in report.reason
    verdict = validate_log(store, mid)
    assert verdict["status"] == "invalid" and verdict["first_invalid_seq"] == 1
