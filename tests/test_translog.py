"""The transparency log (replays.translog) against a real Redis, and its
endpoints: every proof the API serves is checked with replays.merkle's
verifiers against the root of a signed tree head, whose signature is checked
with the public key the API publishes."""

from __future__ import annotations

import hashlib
import threading
import uuid

import pytest

from replays import seal
from replays.hashing import GENESIS
from replays.merkle import MerkleTree, proof_from_hex, verify_consistency, verify_inclusion
from replays.signing import load_or_create_key, verify_tree_head
from replays.translog import LeafConflict, LogCorrupt, OutOfRange, TransparencyLog, leaf_bytes, record_leaf_hash
from service.leagues import LeagueService
from tests.support.toy import ensure_registered
from workers import jobs
from workers.jobs import validate_log

ensure_registered()


def h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def signing_key(tmp_path):
    return load_or_create_key(tmp_path / "keys" / "tree-head.pem")


@pytest.fixture
def tlog(store):
    return TransparencyLog(store.r, store.prefix)


@pytest.fixture
def pinned(anon):
    body = anon.get("/api/log/public-key").get_json()
    assert body["algorithm"] == "Ed25519" and len(body["key_id"]) == 64
    return body["public_key"]


def get(client, url, status=200):
    res = client.get(url)
    assert res.status_code == status, res.get_json()
    return res.get_json()


def check_inclusion(proof, sth, pinned):
    """What an offline verifier does with an inclusion proof and its head."""
    assert verify_tree_head(sth, pinned)
    assert proof["tree_size"] == sth["tree_size"]
    leaf = record_leaf_hash(proof["leaf"])
    assert leaf.hex() == proof["leaf_hash"]
    assert verify_inclusion(leaf, proof["leaf_index"], sth["tree_size"], proof_from_hex(proof["audit_path"]),
                            bytes.fromhex(sth["root_hash"]))


def finished_toy_match(app, target=5):
    svc = app.extensions["kroniek"]
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": target})["id"]
    while svc.current(mid).status != "finished":
        seat = svc.current(mid).game.actors(svc.current(mid).state)[0]
        svc.append(mid, "add", seat, {"n": 3})
        if svc.current(mid).status != "finished":
            svc.append(mid, "roll", None, {"value": 6})
    return mid


# -- the log itself -------------------------------------------------------------------


def test_add_is_idempotent_and_a_different_head_for_a_logged_seq_is_refused(tlog):
    assert tlog.size() == 0
    assert tlog.add("m", "abc", 5, h("five")) == 0
    assert tlog.add("m", "abc", 5, h("five")) == 0
    assert tlog.add("l", "abc", 5, h("five")) == 1  # another kind is another stream
    assert tlog.size() == 2
    with pytest.raises(LeafConflict) as err:
        tlog.add("m", "abc", 5, h("rewritten"))
    assert err.value.details["leaf_index"] == 0 and err.value.details["logged_head"] == h("five")
    assert tlog.size() == 2 and tlog.record(0)["head"] == h("five")  # never overwritten
    assert tlog.conflicts() == [{"kind": "m", "id": "abc", "seq": 5, "head": h("rewritten")}]
    # The latest leaf of a stream is its highest seq, whatever the order of the adds.
    assert tlog.add("m", "abc", 3, h("three")) == 2
    assert tlog.index_of("m", "abc") == 0
    assert tlog.add("m", "abc", 9, h("nine")) == 3
    assert tlog.index_of("m", "abc") == 3 and tlog.index_of("m", "abc", 3) == 2
    assert tlog.index_of("m", "nope") is None and tlog.index_of("m", "abc", 4) is None
    assert tlog.record(3) == {"kind": "m", "id": "abc", "seq": 9, "head": h("nine")}
    for bad in [("x", "abc", 1, h("a")), ("m", "", 1, h("a")), ("m", "a", 0, h("a")), ("m", "a", 1, "ABC")]:
        with pytest.raises(ValueError):
            tlog.add(*bad)
    with pytest.raises(OutOfRange):
        tlog.record(4)


def test_leaf_bytes_are_the_canonical_json_of_the_record():
    record = {"seq": 7, "kind": "m", "id": "ab12", "head": "0" * 64}
    assert leaf_bytes(record) == b'{"head":"' + b"0" * 64 + b'","id":"ab12","kind":"m","seq":7}'
    assert record_leaf_hash(record) == hashlib.sha256(b"\x00" + leaf_bytes(record)).digest()


def test_the_keys_share_one_hash_tag(tlog, store):
    tlog.add("m", "a", 1, h("a"))
    keys = set(store.r.scan_iter(match=f"{store.prefix}:*"))
    assert keys == {f"{store.prefix}:{{log}}:leaves", f"{store.prefix}:{{log}}:index", f"{store.prefix}:{{log}}:latest"}


def test_concurrent_adds_from_several_writers_give_a_gap_free_list_of_unique_leaves(store):
    shared = [("m", f"shared-{i}", 1, h(f"s{i}")) for i in range(100)]
    barrier = threading.Barrier(8)
    results: dict[int, dict[tuple, int]] = {}

    def writer(n: int) -> None:
        log = TransparencyLog(store.r, store.prefix)  # one per writer, as in separate processes
        own = [("l", f"w{n}", seq, h(f"{n}:{seq}")) for seq in range(1, 51)]
        items = [x for pair in zip(shared, own + own) for x in pair]  # interleaved; shared ones raced by all
        barrier.wait()
        results[n] = {item[:3]: log.add(*item) for item in items}

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = TransparencyLog(store.r, store.prefix)
    assert log.size() == 100 + 8 * 50
    records = [r for _, r, _ in log.records(0, 1000)]
    keys = [(r["kind"], r["id"], r["seq"]) for r in records]
    assert len(set(keys)) == len(keys) == 500
    index = store.r.hgetall(f"{store.prefix}:{{log}}:index")
    assert sorted(int(v) for v in index.values()) == list(range(500))
    # Every writer was told the same index for a shared record, and it is where the record is.
    for key, i in results[0].items():
        assert all(results[n][key] == i for n in range(8) if key in results[n])
        assert keys[i] == key
    for n in range(8):
        assert log.index_of("l", f"w{n}") == keys.index(("l", f"w{n}", 50))


def test_proofs_of_the_log_verify_and_the_cache_follows_another_process(tlog, store, signing_key):
    for i in range(37):
        tlog.add("m", f"m{i}", 10, h(str(i)))
    first = tlog.tree_head(signing_key)
    assert first["tree_size"] == 37 and verify_tree_head(first)
    other = TransparencyLog(store.r, store.prefix)  # another process: appends behind this one's cache
    for i in range(37, 100):
        other.add("l", f"l{i}", 2, h(str(i)))
    second = tlog.tree_head(signing_key)
    assert second["tree_size"] == 100
    fresh = MerkleTree(record_leaf_hash(r) for _, r, _ in tlog.records(0, 1000))
    assert second["root_hash"] == fresh.root().hex() == other.root()
    assert tlog.tree_head(signing_key, 37)["root_hash"] == first["root_hash"]
    proof = tlog.consistency(37, 100)
    assert verify_consistency(37, 100, bytes.fromhex(first["root_hash"]), bytes.fromhex(second["root_hash"]),
                              proof_from_hex(proof["proof"]))
    for index in (0, 36, 64, 99):
        inc = tlog.inclusion(index)
        assert verify_inclusion(record_leaf_hash(inc["leaf"]), index, 100, proof_from_hex(inc["audit_path"]),
                                bytes.fromhex(second["root_hash"]))
    with pytest.raises(OutOfRange):
        tlog.inclusion(100)
    with pytest.raises(OutOfRange):
        tlog.inclusion(40, 37)
    with pytest.raises(OutOfRange):
        tlog.consistency(50, 37)
    with pytest.raises(OutOfRange):
        tlog.tree_head(signing_key, 101)


def test_a_leaf_edited_or_a_list_truncated_in_redis_is_reported_not_served(tlog, store):
    for i in range(4):
        tlog.add("m", f"m{i}", 1, h(str(i)))
    tlog.sync()
    store.r.lset(f"{store.prefix}:{{log}}:leaves", 2, '{"head":"' + h("forged") + '","id":"m2","kind":"m","seq":1}')
    with pytest.raises(LogCorrupt):
        tlog.inclusion(2)
    store.r.rpop(f"{store.prefix}:{{log}}:leaves", 2)
    with pytest.raises(LogCorrupt):
        tlog.root()


# -- where leaves come from -----------------------------------------------------------


def test_a_finished_match_validated_by_the_worker_gets_its_final_head_logged(app, store, anon, pinned):
    tlog = app.extensions["kroniek.log"]
    mid = finished_toy_match(app)
    err = get(anon, f"/api/log/proofs/inclusion?kind=m&id={mid}", 404)["error"]
    assert err["code"] == "not_found" and "validated" in err["message"] and err["validation"] == "pending"
    unfinished = app.extensions["kroniek"].create_match("toy", ["Ann", "Bob"], {"target": 20})["id"]
    validate_log(store, unfinished)
    assert tlog.index_of("m", unfinished) is None  # valid but not finished: no leaf
    assert get(anon, "/api/log/proofs/inclusion?kind=m&id=nope", 404)["error"]["message"] == "no match 'nope'"

    assert validate_log(store, mid)["status"] == "valid"
    seq, head = store.head_seq(mid)
    index = tlog.index_of("m", mid)
    assert tlog.record(index) == {"kind": "m", "id": mid, "seq": seq, "head": head}
    validate_log(store, mid)  # again: nothing new
    assert tlog.index_of("m", mid) == index and tlog.size() == index + 1

    body = get(anon, f"/api/log/proofs/inclusion?kind=m&id={mid}")
    assert body["leaf"] == {"kind": "m", "id": mid, "seq": seq, "head": head}
    check_inclusion(body, body["tree_head"], pinned)
    assert get(anon, f"/api/log/proofs/inclusion?kind=m&id={mid}&seq={seq}")["leaf_index"] == index
    err = get(anon, f"/api/log/proofs/inclusion?kind=m&id={mid}&seq={seq - 1}", 404)["error"]
    assert f"seq {seq - 1}" in err["message"]


def test_a_stream_rewritten_after_its_head_was_logged_is_invalid(app, store):
    mid = finished_toy_match(app)
    validate_log(store, mid)
    # Rewrite the whole stream with recomputed hashes: the audit cannot tell, the log can.
    events = store.events(mid)
    store.r.delete(store.key(mid, "log"))
    prev = GENESIS
    for e in events:
        forged = seal(e["seq"], e["type"], e["seat"], e["data"], e["recorded_at"],
                      "mallory" if e["seq"] == 2 else e["recorded_by"], prev)
        store.r.xadd(store.key(mid, "log"), {"event": forged["text"], "hash": forged["hash"]}, id=f"{e['seq']}-0")
        prev = forged["hash"]
    assert app.extensions["kroniek"].audit(mid)["valid"] is True
    verdict = validate_log(store, mid)
    assert verdict["status"] == "invalid" and "rewritten" in verdict["message"]
    assert verdict["transparency_log"]["offered_head"] == prev
    log = app.extensions["kroniek.log"]
    assert log.record(log.index_of("m", mid))["head"] == events[-1]["hash"]  # the first head stays
    assert log.conflicts()[-1]["head"] == prev


def test_league_writes_add_the_league_head(app, client, anon, pinned):
    tlog = app.extensions["kroniek.log"]
    res = client.post("/api/leagues", json={"name": "L", "game": "braverats", "format": "round_robin",
                                             "players": ["A", "B", "C"]})
    assert res.status_code == 201, res.get_json()
    lid = res.get_json()["id"]
    assert tlog.size() == 4  # the setup and three registrations
    assert [r["seq"] for _, r, _ in tlog.records(0, 10)] == [1, 2, 3, 4]
    assert client.post(f"/api/leagues/{lid}/players", json={"player": "D"}).status_code == 201
    events = anon.get(f"/api/leagues/{lid}/events").get_json()["events"]
    assert tlog.record(tlog.index_of("l", lid)) == {"kind": "l", "id": lid, "seq": 5, "head": events[-1]["hash"]}
    body = get(anon, f"/api/log/proofs/inclusion?kind=l&id={lid}")
    assert body["leaf"]["seq"] == 5
    check_inclusion(body, body["tree_head"], pinned)


def test_sync_streams_fills_in_missing_heads_once(app, store, monkeypatch):
    tlog = app.extensions["kroniek.log"]
    monkeypatch.setattr(jobs, "log_final_head", lambda *args: None)  # a worker that died before the add
    mid = finished_toy_match(app)
    assert validate_log(store, mid)["status"] == "valid"
    unfinished = app.extensions["kroniek"].create_match("toy", ["Ann", "Bob"], {"target": 20})["id"]
    validate_log(store, unfinished)
    unvalidated = finished_toy_match(app)
    quiet = LeagueService(app.extensions["kroniek.leagues"].store, app.extensions["kroniek"])  # no on_head
    lid = quiet.create("Q", "braverats", "round_robin", None, {}, ["A", "B"])["id"]
    assert tlog.size() == 0
    league_store = app.extensions["kroniek.leagues"].store
    assert tlog.sync_streams(store, league_store) == 2
    seq, head = store.head_seq(mid)
    assert tlog.record(tlog.index_of("m", mid)) == {"kind": "m", "id": mid, "seq": seq, "head": head}
    assert tlog.record(tlog.index_of("l", lid))["seq"] == 3
    assert tlog.index_of("m", unfinished) is None and tlog.index_of("m", unvalidated) is None
    assert tlog.sync_streams(store, league_store) == 0 and tlog.size() == 2


def test_the_worker_sweep_at_start_syncs_the_log(app, store, prefix, monkeypatch):
    tlog = app.extensions["kroniek.log"]
    monkeypatch.setattr(jobs, "log_final_head", lambda *args: None)
    mid = finished_toy_match(app)
    validate_log(store, mid)
    assert tlog.index_of("m", mid) is None
    jobs.sweep(prefix)
    assert tlog.index_of("m", mid) is not None


# -- the endpoints --------------------------------------------------------------------


def test_tree_heads_and_a_consistency_proof_between_two_of_them(app, anon, pinned):
    tlog = app.extensions["kroniek.log"]
    empty = get(anon, "/api/log/tree-head")
    assert empty["tree_size"] == 0 and empty["root_hash"] == hashlib.sha256(b"").hexdigest()
    assert verify_tree_head(empty, pinned)
    for i in range(5):
        tlog.add("m", f"m{i}", 3, h(str(i)))
    before = get(anon, "/api/log/tree-head")
    assert before["tree_size"] == 5 and verify_tree_head(before, pinned)
    for i in range(5, 23):
        tlog.add("l", f"l{i}", 1, h(str(i)))
    after = get(anon, "/api/log/tree-head")
    assert after["tree_size"] == 23 and verify_tree_head(after, pinned)
    assert get(anon, "/api/log/tree-head?size=5")["root_hash"] == before["root_hash"]

    body = get(anon, f"/api/log/proofs/consistency?first={before['tree_size']}&second={after['tree_size']}")
    assert body["first_root"] == before["root_hash"] and body["second_root"] == after["root_hash"]
    assert verify_tree_head(body["first_tree_head"], pinned) and verify_tree_head(body["second_tree_head"], pinned)
    assert verify_consistency(5, 23, bytes.fromhex(before["root_hash"]), bytes.fromhex(after["root_hash"]),
                              proof_from_hex(body["proof"]))
    assert get(anon, "/api/log/proofs/consistency?first=5")["second"] == 23  # default: the current tree
    # A forged head does not verify.
    assert not verify_tree_head({**after, "tree_size": 22}, pinned)

    # An inclusion proof in an earlier tree.
    old = get(anon, "/api/log/proofs/inclusion?kind=m&id=m2&size=5")
    assert old["tree_size"] == 5 and old["tree_head"]["root_hash"] == before["root_hash"]
    check_inclusion(old, old["tree_head"], pinned)

    # A tree the log has not reached does not exist (yet): 404, saying how large the log is.
    for url in ("/api/log/tree-head?size=24", "/api/log/proofs/consistency?first=1&second=24"):
        err = get(anon, url, 404)["error"]
        assert err["code"] == "out_of_range" and err["tree_size"] == 23, url
    for url in ("/api/log/proofs/consistency?first=9&second=5",
                "/api/log/proofs/inclusion?kind=l&id=l20&size=10", "/api/log/proofs/consistency",
                "/api/log/proofs/inclusion?kind=x&id=m1", "/api/log/leaves?limit=1001", "/api/log/tree-head?size=-1"):
        err = get(anon, url, 400)["error"]
        assert set(err) >= {"code", "message"}, url


def test_leaves_are_listed_in_pages_with_their_hashes(app, anon):
    tlog = app.extensions["kroniek.log"]
    for i in range(7):
        tlog.add("m", f"m{i}", 1, h(str(i)))
    body = get(anon, "/api/log/leaves?from=2&limit=3")
    assert body["tree_size"] == 7 and body["from"] == 2 and body["limit"] == 3
    assert [leaf["index"] for leaf in body["leaves"]] == [2, 3, 4]
    for leaf in body["leaves"]:
        assert leaf["leaf"] == tlog.record(leaf["index"])
        assert leaf["leaf_hash"] == record_leaf_hash(leaf["leaf"]).hex()
    assert get(anon, "/api/log/leaves?from=7")["leaves"] == []
    assert len(get(anon, "/api/log/leaves")["leaves"]) == 7


ROUNDS = [("prince", "spy"), ("general", "assassin"), ("ambassador", "musician"), ("wizard", "wizard"),
          ("spy", "princess"), ("musician", "general"), ("assassin", "ambassador"), ("princess", "prince")]


def play_to_the_end(client, match_id):
    for red, blue in ROUNDS:
        res = client.post(f"/api/matches/{match_id}/events", json={"type": "round", "data": {"cards": [red, blue]}})
        assert res.status_code == 201, res.get_json()
        if res.get_json()["status"] == "finished":
            return
    raise AssertionError("the match did not finish")


def test_a_league_matchs_final_head_and_the_league_head_under_one_signed_root(app, client, anon, store, pinned):
    lid = client.post("/api/leagues", json={"name": "Duel", "game": "braverats", "format": "round_robin",
                                             "players": ["Ann", "Bob"]}).get_json()["id"]
    assert client.post(f"/api/leagues/{lid}/rounds").status_code == 201
    mid = client.post(f"/api/leagues/{lid}/rounds/1/boards/1/match").get_json()["id"]
    url = f"/api/leagues/{lid}/matches/{mid}/proof"
    assert "validated" in get(anon, url, 404)["error"]["message"]  # not finished yet
    play_to_the_end(client, mid)
    assert "validated" in get(anon, url, 404)["error"]["message"]  # finished, not validated
    validate_log(store, mid)

    before_result = get(anon, url)
    assert before_result["result"] is None
    for part in ("match", "league"):
        check_inclusion(before_result[part], before_result["tree_head"], pinned)

    assert client.post(f"/api/leagues/{lid}/results", json={"match": mid}).status_code == 201
    body = get(anon, url)
    seq, head = store.head_seq(mid)
    assert body["match"]["leaf"] == {"kind": "m", "id": mid, "seq": seq, "head": head}
    assert body["result"]["match_seq"] == seq and body["result"]["match_head"] == head
    league_seq = len(anon.get(f"/api/leagues/{lid}/events").get_json()["events"])
    assert body["league"]["leaf"]["seq"] == league_seq == body["result"]["seq"]
    for part in ("match", "league"):
        check_inclusion(body[part], body["tree_head"], pinned)

    other = app.extensions["kroniek"].create_match("braverats", ["Ann", "Bob"])["id"]
    assert "not linked" in get(anon, f"/api/leagues/{lid}/matches/{other}/proof", 404)["error"]["message"]
    assert get(anon, f"/api/leagues/nope/matches/{mid}/proof", 404)["error"]["code"] == "not_found"


def test_the_log_endpoints_are_in_the_openapi_document(anon):
    paths = get(anon, "/api/openapi.json")["paths"]
    for path in ("/api/log/tree-head", "/api/log/public-key", "/api/log/leaves", "/api/log/proofs/inclusion",
                 "/api/log/proofs/consistency", "/api/leagues/{league_id}/matches/{match_id}/proof"):
        assert path in paths and paths[path]["get"]["summary"], path


def test_the_process_key_comes_from_its_file_never_from_redis(tmp_path, monkeypatch, store):
    from service import keys

    monkeypatch.setattr(keys, "_key", None)
    monkeypatch.setenv("KRONIEK_SIGNING_KEY", str(tmp_path / "secret" / "sth.pem"))
    key = keys.signing_key()
    assert keys.signing_key() is key and (tmp_path / "secret" / "sth.pem").stat().st_mode & 0o777 == 0o600
    monkeypatch.delenv("KRONIEK_SIGNING_KEY")
    monkeypatch.setenv("KRONIEK_VAR", str(tmp_path / "var"))
    assert keys.key_path() == (tmp_path / "var" / "keys" / "tree-head.pem").resolve()
    assert not any("key" in k for k in store.r.scan_iter(match=f"{store.prefix}:*"))


# -- on a Redis Cluster -----------------------------------------------------------------

from tests.test_cluster import cluster  # noqa: E402,F401  (the module's three-node cluster fixture)


@pytest.mark.redis
def test_the_log_on_a_cluster_adds_syncs_and_proves(cluster, signing_key):
    prefix = f"kc-{uuid.uuid4().hex[:8]}"
    log = TransparencyLog(cluster, prefix)
    assert log.add("m", "a", 3, h("a")) == 0 and log.add("m", "a", 3, h("a")) == 0
    assert log.add_many([{"kind": "l", "id": f"l{i}", "seq": 1, "head": h(str(i))} for i in range(20)]) == list(range(1, 21))
    with pytest.raises(LeafConflict):
        log.add("m", "a", 3, h("b"))
    sth = log.tree_head(signing_key)
    assert sth["tree_size"] == 21 and verify_tree_head(sth)
    proof = log.inclusion(7)
    assert verify_inclusion(record_leaf_hash(proof["leaf"]), 7, 21, proof_from_hex(proof["audit_path"]),
                            bytes.fromhex(sth["root_hash"]))
    for key in (log.key("leaves"), log.key("index"), log.key("latest"), log.key("conflicts")):
        cluster.delete(key)
