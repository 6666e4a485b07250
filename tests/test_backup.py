"""``kroniek backup`` and ``kroniek restore`` (replays/backup.py, issue 39), on a real Redis: a backup of
matches of every game, a league, accounts and the transparency log, restored into an empty database, reads
back byte for byte (matches, reviews, audits, proofs, leagues, exports); a file changed anywhere, cut short or
signed by another key is refused before anything is written; a backup taken while appends go on restores to
matches whose chains all audit valid."""

from __future__ import annotations

import io
import json
import threading

import pytest
import redis

from engine import all_games
from replays import EventStore
from replays.backup import BackupRefused, audit_restored, read_backup, restore, write_backup
from tests.conftest import client_with_token
from tests.support.played import play
from tests.support.toy import ensure_registered
from tests.test_leagues_api import play_to_the_end, post
from workers.jobs import validate_log

ensure_registered()


def second_database(redis_client) -> redis.Redis:
    """The same server's database 1: an empty Redis for this test's prefix (its keys are its own)."""
    kwargs = dict(redis_client.connection_pool.connection_kwargs)
    kwargs["db"] = 1
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=redis_client.connection_pool.connection_class,
                                                            **kwargs))


@pytest.fixture
def target(redis_client, prefix):
    client = second_database(redis_client)
    yield client
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        client.delete(key)
    client.close()


def world(admin, store):
    """A match of every game (some finished and validated), a league with results and a forfeit."""
    ids = []
    for n, game in enumerate(g.id for g in all_games() if g.id != "toy"):
        whole = game in ("braverats", "twaalven")  # finished (and validated); the others part-way
        log = play(game, n, mode="physical", limit=3000 if whole else 60, finish=whole)
        from engine import notation as N

        r = admin.post("/api/matches/import", data=N.write(log, []).encode(), content_type="text/plain")
        assert r.status_code == 201, (game, r.get_json())
        ids.append(r.get_json()["id"])
        validate_log(store, ids[-1])  # as a worker does: a finished log is packed, one in play gets its mark
    lid = post(admin, "/api/leagues", {"name": "Club", "game": "braverats", "format": "round_robin",
                                        "players": ["Ann", "Bob", "Cas", "Dee"]})["id"]
    boards = post(admin, f"/api/leagues/{lid}/rounds")["league"]["rounds"][-1]["boards"]
    mid = post(admin, f"/api/leagues/{lid}/rounds/1/boards/1/match")["id"]
    play_to_the_end(admin, mid)
    validate_log(store, mid)
    post(admin, f"/api/leagues/{lid}/results", {"match": mid})
    post(admin, f"/api/leagues/{lid}/forfeits", {"round": 1, "board": 2, "forfeited": [boards[1]["players"][0]],
                                                 "reason": "ill"})
    return ids + [mid], lid


def reads(client, matches, lid) -> dict[str, bytes]:
    urls = [f"/api/leagues/{lid}", f"/api/leagues/{lid}/standings", f"/api/leagues/{lid}/events",
            f"/api/leagues/{lid}/audit", f"/api/leagues/{lid}/plays", f"/api/leagues/{lid}/trf",
            "/api/me", "/api/matches?limit=50"]
    for mid in matches:
        urls += [f"/api/matches/{mid}", f"/api/matches/{mid}/events?seat=referee", f"/api/matches/{mid}/state",
                 f"/api/matches/{mid}/review?seat=referee", f"/api/matches/{mid}/audit",
                 f"/api/matches/{mid}/notation?seat=referee", f"/api/matches/{mid}/events"]
    out = {}
    for url in urls:
        res = client.get(url)
        out[url] = (res.status_code, res.get_data())
    return out


def test_a_backup_restored_into_an_empty_redis_reads_back_byte_for_byte(app, admin, store, signing_key, target,
                                                                        tmp_path):
    from service.app import create_app

    matches, lid = world(admin, store)
    token = admin.environ_base["HTTP_AUTHORIZATION"].split(" ", 1)[1]  # the token, hashed as stored, still signs in
    # compared as a process that has not served them reads them (the one that made a match keeps it as it was
    # given: its options in the order sent, where a fresh read has them in the stored order)
    fresh = create_app(store=EventStore(store.r, store.prefix), enqueue_validation=lambda m: None,
                       enqueue_ratings=lambda g: None, signing_key=signing_key)
    before = reads(client_with_token(fresh, token), matches, lid)
    head_before = admin.get("/api/log/tree-head").get_json()
    path = tmp_path / "kroniek.backup"
    with open(path, "wb") as out:
        footer = write_backup(store.r, store.prefix, out, signing_key)
    assert footer["matches"] == len(matches) and footer["leagues"] == 1
    marks = {mid: store.r.xinfo_groups(store.key(mid, "log")) for mid in matches if store.r.exists(store.key(mid, "log"))}
    assert any(marks.values()), "a match in play carries its verdict's mark (a consumer group)"
    with open(path, "rb") as source:
        done = restore(target, source)
    restored = second_database_text(target)
    assert {mid: restored.xinfo_groups(store.key(mid, "log")) for mid in marks} == marks
    assert sorted(done["matches"]) == sorted(matches) and done["leagues"] == [lid]
    assert audit_restored(target, store.prefix, done["matches"], done["leagues"]) == []
    restored_store = EventStore(second_database_text(target), store.prefix)
    again = create_app(store=restored_store, enqueue_validation=lambda m: None, enqueue_ratings=lambda g: None,
                       signing_key=signing_key)
    after = reads(client_with_token(again, token), matches, lid)
    differ = [url for url in before if before[url] != after[url]]
    import difflib

    def keys_differ(u):
        a, b = json.loads(before[u][1]), json.loads(after[u][1])
        return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
    def where(u):
        a, b = before[u][1], after[u][1]
        i = next(i for i in range(min(len(a), len(b))) if a[i] != b[i])
        return a[max(0, i - 80):i + 80], b[max(0, i - 80):i + 80]
    assert not differ, [(u, keys_differ(u), where(u)) for u in differ[:1]]
    head_after = client_with_token(again, token).get("/api/log/tree-head").get_json()
    assert {k: head_after[k] for k in ("tree_size", "root_hash", "public_key")} == \
        {k: head_before[k] for k in ("tree_size", "root_hash", "public_key")}
    proof_before = admin.get(f"/api/leagues/{lid}/matches/{matches[-1]}/proof").get_json()
    proof_after = client_with_token(again, token).get(f"/api/leagues/{lid}/matches/{matches[-1]}/proof").get_json()
    proof_before.pop("tree_head", None), proof_after.pop("tree_head", None)  # signed when asked: a new time
    assert proof_after == proof_before
    with open(path, "rb") as source:  # the target holds the prefix now: a second restore is refused
        with pytest.raises(BackupRefused, match="holds keys"):
            restore(target, source)


def answering_bytes(client: redis.Redis) -> redis.Redis:
    """The same database, answering bytes (what a key holds need not be text)."""
    from replays.backup import _decoding

    return _decoding(client, False)


def second_database_text(target: redis.Redis) -> redis.Redis:
    kwargs = dict(target.connection_pool.connection_kwargs)
    kwargs["decode_responses"] = True
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=target.connection_pool.connection_class,
                                                            **kwargs))


def test_a_changed_cut_or_foreign_backup_is_refused_with_the_reason_and_nothing_written(admin, store, signing_key,
                                                                                       target, prefix):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from replays.signing import public_key_b64

    world(admin, store)
    out = io.BytesIO()
    write_backup(store.r, store.prefix, out, signing_key)
    lines = out.getvalue().splitlines(keepends=True)
    record = json.loads(lines[2])
    record["keys"][0]["ttl_ms"] = 123456
    changed = lines[:2] + [json.dumps(record, separators=(",", ":"), sort_keys=True).encode() + b"\n"] + lines[3:]
    footer = json.loads(lines[-1])
    footer["keys"] += 1
    forged_footer = lines[:-1] + [json.dumps(footer).encode() + b"\n"]
    cases = [
        (changed, "line 4: it does not follow"),
        (lines[:1] + lines[2:], "line 2: it does not follow"),
        (lines[:-1], "the footer is missing"),
        (forged_footer, "signature does not verify"),
    ]
    for data, said in cases:
        with pytest.raises(BackupRefused, match=said):
            restore(target, io.BytesIO(b"".join(data)))
        assert next(iter(target.scan_iter(match=f"{prefix}:*")), None) is None  # nothing written
    other = public_key_b64(Ed25519PrivateKey.generate())
    with pytest.raises(BackupRefused, match="with the given key"):
        read_backup(io.BytesIO(out.getvalue()), other)
    header, _ = read_backup(io.BytesIO(out.getvalue()), public_key_b64(signing_key))
    assert header["prefix"] == prefix


def test_a_backup_while_appends_go_on_restores_every_chain_valid_at_its_own_cut(admin, store, signing_key, target):
    ids = [admin.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bob"],
                                            "options": {"target": 10**6}}).get_json()["id"] for _ in range(6)]
    stop = threading.Event()
    appended = []

    def keep_appending():
        n = 0
        moves = {mid: 0 for mid in ids}
        while not stop.is_set():
            mid = ids[n % len(ids)]
            step = moves[mid]  # an add by the seat to move, then the die (chance), then the other seat's
            move = {"type": "add", "seat": (step // 2) % 2, "data": {"n": 1}} if step % 2 == 0 else \
                {"type": "roll", "seat": None, "data": {"value": 1}}
            res = admin.post(f"/api/matches/{mid}/events", json=move)
            appended.append(res.status_code)
            moves[mid] += res.status_code == 201
            n += 1

    writer = threading.Thread(target=keep_appending)
    writer.start()
    try:
        backups = []
        while len(backups) < 3 or appended.count(201) < 30:
            out = io.BytesIO()
            write_backup(store.r, store.prefix, out, signing_key)
            backups.append(out)
    finally:
        stop.set()
        writer.join()
    assert appended.count(201) >= 30 and set(appended) == {201}
    for out in backups[:3] + backups[-2:]:
        done = restore(target, io.BytesIO(out.getvalue()))
        assert sorted(done["matches"]) == sorted(ids)
        assert audit_restored(target, store.prefix, done["matches"], done["leagues"]) == []
        for key in list(target.scan_iter(match=f"{store.prefix}:*", count=1000)):
            target.delete(key)


def test_the_commands_back_up_and_restore_and_say_what_they_did(admin, store, target, redis_url, prefix, tmp_path,
                                                                 monkeypatch):
    from click.testing import CliRunner

    from service.cli import main

    matches, lid = world(admin, store)
    monkeypatch.setenv("KRONIEK_PREFIX", prefix)
    monkeypatch.setenv("KRONIEK_VAR", str(tmp_path / "var"))  # the signing key's home
    path = tmp_path / "club.backup"
    # no key there (a backup run without the API's settings): refused, rather than signed by a key made up here
    keyless = CliRunner().invoke(main, ["backup", str(path)], env={"REDIS_URL": redis_url})
    assert keyless.exit_code != 0 and f"no signing key at {tmp_path / 'var' / 'keys' / 'tree-head.pem'}" in \
        keyless.output and "KRONIEK_VAR" in keyless.output
    assert not path.exists() and not (tmp_path / "club.backup.partial").exists()
    from replays.signing import load_or_create_key
    from service.keys import key_path

    load_or_create_key(key_path())  # what the API does as it starts
    made = CliRunner().invoke(main, ["backup", str(path)], env={"REDIS_URL": redis_url})
    assert made.exit_code == 0, made.output
    assert f"{len(matches)} matches, 1 league)" in made.output and path.exists()
    assert not (tmp_path / "club.backup.partial").exists()
    assert path.stat().st_mode & 0o777 == 0o600  # what Redis holds (salts, token hashes): its owner's only
    other = redis_url + ("&db=1" if "?" in redis_url else "?db=1") if redis_url.startswith("unix:") else \
        redis_url.rsplit("/", 1)[0] + "/1"
    from replays.signing import public_key_b64
    from service.keys import signing_key

    key = public_key_b64(signing_key())  # the key the backup was signed with, pinned
    unset = CliRunner().invoke(main, ["restore", str(path), "--public-key", ""], env={"REDIS_URL": other})
    assert unset.exit_code != 0 and "the public key given is empty" in unset.output  # --public-key "$KEY", KEY unset
    done = CliRunner().invoke(main, ["restore", str(path), "--public-key", key], env={"REDIS_URL": other})
    assert done.exit_code == 0, done.output
    assert f"{len(matches)} matches, 1 league " in done.output and "✓ every match and league audits valid" in done.output
    assert "signed by the pinned key" in done.output
    again = CliRunner().invoke(main, ["restore", str(path)], env={"REDIS_URL": other})
    assert again.exit_code != 0 and "refused: the target Redis holds keys" in again.output
    path.write_bytes(path.read_bytes().replace(b'"ttl_ms":0', b'"ttl_ms":1', 1))
    for k in list(target.scan_iter(match=f"{prefix}:*")):
        target.delete(k)
    spoiled = CliRunner().invoke(main, ["restore", str(path)], env={"REDIS_URL": other})
    assert spoiled.exit_code != 0 and "refused: line" in spoiled.output and "does not follow" in spoiled.output
    assert next(iter(target.scan_iter(match=f"{prefix}:*")), None) is None


def rechained(lines: list[bytes], signing_key) -> list[bytes]:
    """``lines`` with each one's ``prev`` made the hash of the one before and the footer signed again: a file
    whose chain and signature hold whatever its records say (what a holder of the key could write)."""
    from replays.backup import _digest, _line, _sign

    out, prev = [], None
    for raw in lines:
        record = json.loads(raw)
        record["prev"] = prev
        if record["kind"] == "footer":
            record.pop("signature")
            record["signature"] = _sign(signing_key, record)
        line = _line(record)
        out.append(line)
        prev = _digest(line)
    return out


def test_a_backup_carries_each_match_as_its_log_with_notation_head_and_proof_and_a_restore_compares_them(
        admin, store, signing_key, target):
    """Issue 39: every match as its log (the raw events and the notation), its chain head, and the
    transparency log's inclusion proof against a signed tree head; after a restore each match's events are
    compared with that log, so a file whose keys and logs disagree is found out."""
    from replays.merkle import proof_from_hex, verify_inclusion
    from replays.signing import public_key_b64, verify_tree_head
    from service.matches import MatchService

    matches, lid = world(admin, store)
    out = io.BytesIO()
    write_backup(store.r, store.prefix, out, signing_key, notation=MatchService(store).notation_at)
    lines = out.getvalue().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["version"] == 2 and header["data_format"] == 1  # this test's store carries no mark yet
    assert verify_tree_head(header["tree_head"], public_key_b64(signing_key))
    root = bytes.fromhex(header["tree_head"]["root_hash"])
    logs = {json.loads(line)["group"].split(":", 1)[1]: json.loads(line)["log"]
            for line in lines[1:-1] if json.loads(line)["of"] == "match"}
    assert sorted(logs) == sorted(matches)
    proved = 0
    for mid, log in logs.items():
        assert log["events"] == store.events(mid)
        assert log["head"] == {"seq": len(log["events"]), "hash": store.events(mid)[-1]["hash"]}
        assert log["notation"] == admin.get(f"/api/matches/{mid}/notation?seat=referee").get_data(as_text=True)
        if "logged" in log:  # a validated finished match: its head is a leaf of the transparency log
            logged = log["logged"]
            assert logged["leaf"] == {"kind": "m", "id": mid, "seq": log["head"]["seq"],
                                      "head": log["head"]["hash"]}
            assert verify_inclusion(bytes.fromhex(logged["leaf_hash"]), logged["leaf_index"],
                                    header["tree_head"]["tree_size"], proof_from_hex(logged["audit_path"]), root)
            proved += 1
    assert proved >= 3  # braverats, twaalven and the league's match were validated
    done = restore(target, io.BytesIO(out.getvalue()))
    assert sorted(done["logs"]) == sorted(matches)
    assert audit_restored(target, store.prefix, done["matches"], done["leagues"], done["logs"]) == []

    # a file, chained and signed, whose log of one match says other than its keys: restored, then found out
    for key in target.scan_iter(match=f"{store.prefix}:*", count=1000):
        target.delete(key)
    n = next(i for i, line in enumerate(lines) if json.loads(line).get("group") == f"m:{matches[0]}")
    record = json.loads(lines[n])
    record["log"]["events"][-1]["data"] = {"forged": True}
    forged = rechained(lines[:n] + [json.dumps(record).encode() + b"\n"] + lines[n + 1:], signing_key)
    done = restore(target, io.BytesIO(b"".join(forged)))
    assert audit_restored(target, store.prefix, done["matches"], done["leagues"], done["logs"]) == \
        [f"match {matches[0]}: its events differ from its log in the file"]


def test_a_signed_file_whose_group_is_malformed_is_refused_before_anything_is_written(admin, store, signing_key,
                                                                                      target):
    """A file can hold together (chained, signed) and still be made wrong by a program with the key: each group's
    form is checked with the chain, so a restore refuses it whole rather than stopping halfway."""
    world(admin, store)
    out = io.BytesIO()
    write_backup(store.r, store.prefix, out, signing_key)
    lines = out.getvalue().splitlines(keepends=True)
    stream = next(i for i, line in enumerate(lines) if '"type":"stream"' in line.decode())

    def entries(r):
        return next(e for e in r["keys"] if e["type"] == "stream")["value"]["entries"]
    for n, spoil in [(-2, lambda r: r.update(keys=[])), (-2, lambda r: r["keys"][0].pop("value")),
                     (-2, lambda r: r.update(log={"events": [], "head": {}})),
                     (-2, lambda r: r["keys"][0].update(ttl_ms="0")), (-2, lambda r: r["keys"][0].update(type="module")),
                     (-2, lambda r: r["keys"][0].update(type="string", value={"b64": "not base64!"})),
                     (stream, lambda r: entries(r)[0].__setitem__(0, "1-0 MAXLEN")),
                     (stream, lambda r: entries(r)[0].__setitem__(1, [])),
                     # what XADD, ZADD or HSET would refuse halfway, or write where it does not belong
                     (stream, lambda r: entries(r).reverse() if len(entries(r)) > 1 else entries(r).append(
                         entries(r)[0])),
                     (stream, lambda r: entries(r)[0].__setitem__(0, f"{2 ** 64}-0")),
                     (stream, lambda r: next(e for e in r["keys"] if e["type"] == "stream")["value"].update(
                         last_id="0-0")),
                     (-2, lambda r: r["keys"][0].update(type="zset", value=[["m", "1_0"]])),
                     (-2, lambda r: r["keys"][0].update(type="zset", value=[["m", "nan"]])),
                     (-2, lambda r: r["keys"][0].update(type="hash", value=[])),
                     (-2, lambda r: r["keys"][0].update(key="elsewhere:" + r["keys"][0]["key"])),
                     (-2, lambda r: r["keys"].append(dict(r["keys"][0])))]:
        n = n % len(lines)
        record = json.loads(lines[n])
        spoil(record)
        bad = rechained(lines[:n] + [json.dumps(record).encode() + b"\n"] + lines[n + 1:], signing_key)
        with pytest.raises(BackupRefused, match=f"line {n + 1}: a group of keys not in the form"):
            restore(target, io.BytesIO(b"".join(bad)))
        assert next(iter(target.scan_iter(match=f"{store.prefix}:*")), None) is None


def test_a_backup_of_a_newer_data_format_is_refused_before_anything_is_written(admin, store, signing_key, target):
    """Data written by a newer Kroniek (its format, in the header) would be misread: refused whole, saying so."""
    world(admin, store)
    store.r.hset(f"{store.prefix}:format", "version", "3")
    out = io.BytesIO()
    write_backup(store.r, store.prefix, out, signing_key)
    with pytest.raises(BackupRefused, match="data of format 3, written by a newer Kroniek"):
        restore(target, io.BytesIO(out.getvalue()))
    assert next(iter(target.scan_iter(match=f"{store.prefix}:*")), None) is None


def test_every_type_of_key_restores_with_its_bytes_ttl_and_stream_ids(store, signing_key, target):
    """A version-2 file keeps each key as its type and value in plain terms, not as Redis's DUMP (whose format
    only the same or a later Redis reads), so it restores into any Redis from 6.2 on: the CI restores a Redis 7's
    backup into the embedded 6.2 (tests/test_cluster.py). Each type comes back with the same bytes (text or
    not), time to live, stream ids and a stream's last id, even for a stream emptied of its entries."""
    raw = answering_bytes(store.r)
    p = store.prefix
    binary = bytes(range(256))
    raw.set(f"{p}:s:text", "zeeën ♞ ☃ 🂡".encode())
    raw.set(f"{p}:s:binary", binary, px=600_000)
    raw.set(f"{p}:s:empty", b"")
    raw.hset(f"{p}:{{m:x}}:h", mapping={b"\xff\x00": binary, "veld": "waarde", "": b""})
    raw.rpush(f"{p}:l", b"b", b"\x80", b"b", b"a")
    raw.sadd(f"{p}:set", *(f"m{i}".encode() for i in range(1200)), b"\xfe")
    raw.zadd(f"{p}:z", {b"low": float("-inf"), b"third": 1 / 3, b"big": 2.0 ** 60 + 1, "\xe9".encode("latin-1"): 0,
                        b"high": float("inf")})
    raw.xadd(f"{p}:{{m:x}}:log", {b"event": b"{}", b"hash": b"ab"}, id="1-0")
    raw.xadd(f"{p}:{{m:x}}:log", {b"f": binary, b"f2": b""}, id="2-5")
    raw.xadd(f"{p}:gappy", {b"a": b"1"}, id="5-0")
    raw.xadd(f"{p}:gappy", {b"a": b"2"}, id="9-0")
    raw.xdel(f"{p}:gappy", "9-0")  # its last id stays 9-0
    raw.xadd(f"{p}:emptied", {b"a": b"1"}, id="3-0")
    raw.xdel(f"{p}:emptied", "3-0")
    raw.xgroup_create(f"{p}:{{m:x}}:log", "kroniek-mark:0a", id="1-0")  # a verdict's mark (replays.store)
    raw.xgroup_create(f"{p}:emptied", "kroniek-mark:0b", id="$")
    raw.expire(f"{p}:l", 3600)

    def contents(client) -> dict:
        out = {}
        for key in sorted(client.scan_iter(match=f"{p}:*")):
            kind = client.type(key).decode()
            value = {"string": lambda: client.get(key), "hash": lambda: sorted(client.hgetall(key).items()),
                     "list": lambda: client.lrange(key, 0, -1), "set": lambda: sorted(client.smembers(key)),
                     "zset": lambda: client.execute_command("ZRANGE", key, 0, -1, "WITHSCORES"),
                     "stream": lambda: (client.execute_command("XRANGE", key, "-", "+"),
                                        client.xinfo_stream(key)["last-generated-id"],
                                        [(g["name"], g["last-delivered-id"]) for g in client.xinfo_groups(key)])
                     }[kind]()
            ttl = client.pttl(key)
            out[key] = (kind, value, ttl > 0 and 500_000 < ttl <= 3_600_000)
        return out

    before = contents(raw)
    assert before[f"{p}:emptied".encode()][1] == ([], b"3-0", [(b"kroniek-mark:0b", b"3-0")])
    assert before[f"{p}:gappy".encode()][1][1] == b"9-0"
    out = io.BytesIO()
    write_backup(store.r, p, out, signing_key)
    assert b'"dump"' not in out.getvalue()
    restore(target, io.BytesIO(out.getvalue()))
    assert contents(answering_bytes(target)) == before
    again = io.BytesIO()  # and a backup of the restored keys says the same of them
    write_backup(target, p, again, signing_key)

    def kept(file: io.BytesIO) -> list:  # (a time to live has run on meanwhile)
        return [[{**entry, "ttl_ms": entry["ttl_ms"] > 0} for entry in json.loads(line)["keys"]]
                for line in file.getvalue().splitlines()[1:-1]]
    assert kept(again) == kept(out)
    # a group that is read from (consumers, entries pending) is not Kroniek's: no file rather than one without it
    raw.xgroup_create(f"{p}:gappy", "someone-else", id="0")
    raw.xreadgroup("someone-else", "reader", {f"{p}:gappy": ">"})
    with pytest.raises(BackupRefused, match=f"{p}:gappy's consumer group someone-else has consumers or pending"):
        write_backup(store.r, p, io.BytesIO(), signing_key)


def test_a_version_1_file_of_dumps_a_redis_cannot_read_is_refused_before_a_key_is_written(store, signing_key,
                                                                                           target):
    """A version-1 file holds Redis DUMPs, which an older Redis cannot read: the restore says so, naming the
    versions, before it writes a key (not stopping halfway, with the keys before it written)."""
    import base64

    from replays.backup import _line, _sign

    p = store.prefix
    store.r.set(f"{p}:a", "1")
    store.r.hset(f"{p}:{{m:b}}:h", "f", "v")
    raw = answering_bytes(store.r)

    def v1_file(spoil) -> bytes:
        header = {"kind": "header", "format": "kroniek-backup", "version": 1, "prefix": p, "created_at": "now",
                  "redis_version": "99.0.0", "public_key": __import__("replays.signing").signing.public_key_b64(
                      signing_key), "prev": None}
        lines = [_line(header)]
        for group, key in ((None, f"{p}:a"), ("m:b", f"{p}:{{m:b}}:h")):
            dump = spoil(raw.dump(key))
            lines.append(_line({"kind": "keys", "group": group, "of": "match" if group else None,
                                "keys": [{"key": key, "ttl_ms": 0, "dump": base64.b64encode(dump).decode()}],
                                "prev": __import__("hashlib").sha256(lines[-1]).hexdigest()}))
        footer = {"kind": "footer", "records": 3, "keys": 2, "matches": 1, "leagues": 0,
                  "prev": __import__("hashlib").sha256(lines[-1]).hexdigest()}
        footer["signature"] = _sign(signing_key, footer)
        return b"".join(lines + [_line(footer)])

    done = restore(target, io.BytesIO(v1_file(lambda d: d)))  # a file of this Redis's DUMPs restores
    assert done["version"] == 1 and target.hget(f"{p}:{{m:b}}:h", "f") in (b"v", "v")
    for key in target.scan_iter(match=f"{p}:*"):
        target.delete(key)
    # the DUMP of a later Redis: its RDB version (the two bytes before the checksum) past this one's
    newer = v1_file(lambda d: d[:-10] + (int.from_bytes(d[-10:-8], "little") + 3).to_bytes(2, "little") + d[-8:])
    with pytest.raises(BackupRefused, match=r"cannot read the file's keys: .*RDB version \d+, from Redis 99\.0\.0"):
        restore(target, io.BytesIO(newer))
    assert next(iter(target.scan_iter(match=f"{p}:*")), None) is None
