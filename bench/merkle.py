"""Merkle tree goals (RFC 6962 proofs), measured on one core (no Redis needed).

(m1) building a tree of 100,000 leaves, each the leaf hash of a small match
     head record (canonical JSON), appended one by one       no goal, for scale
(m2) inclusion proofs at 1,000 random indices in the full tree: path length,
     size as raw hashes (32 bytes × length) and as hex JSON, time to produce
     and verify (median, p99)             goal: O(log n) hashes, under 5 KB
(m3) consistency proofs between 1,000 random pairs of sizes ≤ 100,000: the
     same figures (the roots of both sizes are taken from the tree first, as
     a verifier would hold them from signed tree heads)
                                          goal: O(log n) hashes, under 5 KB
(m4) the root of a random earlier size (what signing an old head, or
     checking one, costs)                                     no goal
(m5) the transparency log (``replays.translog``) in Redis: 100,000 leaves
     added (pipelined), then the first proof request's catch-up of the
     process's tree cache                                       no goal
(m6) inclusion proofs served by ``GET /api/log/proofs/inclusion`` (Flask
     test client, signed tree head included) at 1,000 random matches of the
     100,000: bytes of the JSON answer, time per request
                                          goal: O(log n) hashes, under 5 KB
     (m5)–(m6) need a Redis: REDIS_URL, else a fresh embedded one; they are
     skipped, with a row saying so, if the fill takes 30 s or more.

O(log n) is checked as the RFC's bounds: at most ⌈log2 n⌉ hashes in an
inclusion proof, ⌈log2 n⌉ + 1 in a consistency proof.

``measure()`` returns the rows ``(measure, measured, ratio/figure, goal)`` that
``make bench`` prints; ``python -m bench.merkle`` prints them alone.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time

from replays.hashing import canonical
from replays.merkle import MerkleTree, leaf_hash, proof_to_hex, verify_consistency, verify_inclusion

LEAVES = 100_000
SAMPLES = 1_000
LIMIT_BYTES = 5 * 1024


def head_record(i: int) -> dict:
    """A match head like the ones a log would commit to."""
    return {
        "match": f"m-{i:08d}", "game": "braverats", "players": ["Alice", "Bob"], "seq": 40 + i % 60,
        "hash": f"{i * 2654435761 % 2**256:064x}", "recorded_at": "2026-01-01T00:00:00.000Z",
    }


def _wire(index: int, size: int, proof: list[bytes]) -> int:
    """Bytes of the proof as an API would send it: hex JSON with its coordinates."""
    return len(json.dumps({"index": index, "tree_size": size, "proof": proof_to_hex(proof)},
                          separators=(",", ":")).encode())


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


def _p99(values: list[float]) -> float:
    return sorted(values)[max(0, math.ceil(len(values) * 0.99) - 1)]


def measure(n: int = LEAVES, samples: int = SAMPLES, seed: int = 5) -> list[tuple[str, str, str, str]]:
    rng = random.Random(seed)
    log_n = math.log2(n)
    depth = math.ceil(log_n)
    rows = []

    # (m1) ----------------------------------------------------------------
    t0 = time.perf_counter()
    hashes = [leaf_hash(canonical(head_record(i)).encode()) for i in range(n)]
    t_leaves = time.perf_counter() - t0
    tree = MerkleTree()
    t0 = time.perf_counter()
    for h in hashes:
        tree.append(h)
    t_append = time.perf_counter() - t0
    t0 = time.perf_counter()
    root = tree.root()
    t_root = time.perf_counter() - t0
    rows.append((
        f"(m1) Merkle tree of {n:,} leaves (append one by one)",
        f"append {t_append:.3f} s ({t_append / n * 1e6:.2f} µs/leaf); leaf hashing of the JSON {t_leaves:.3f} s",
        f"{n / t_append:,.0f} appends/s; root {_ms(t_root)}",
        "—",
    ))

    # (m2) ----------------------------------------------------------------
    lengths, wire, times = [], [], []
    for _ in range(samples):
        index = rng.randrange(n)
        t0 = time.perf_counter()
        proof = tree.inclusion_proof(index)
        ok = verify_inclusion(tree.leaf(index), index, n, proof, root)
        times.append(time.perf_counter() - t0)
        if not ok:
            raise AssertionError(f"inclusion proof for {index} did not verify")
        lengths.append(len(proof))
        wire.append(_wire(index, n, proof))
    passed = max(lengths) <= depth and max(wire) < LIMIT_BYTES
    rows.append((
        f"(m2) inclusion proof, {samples:,} random leaves of {n:,} (log2 n = {log_n:.2f})",
        f"{min(lengths)}–{max(lengths)} hashes = {32 * max(lengths)} B raw, ≤ {max(wire):,} B hex JSON",
        f"prove+verify median {_ms(statistics.median(times))}, p99 {_ms(_p99(times))}",
        f"O(log n) (≤ {depth}), < 5 KB: {'PASS' if passed else 'FAIL'}",
    ))

    # (m3) ----------------------------------------------------------------
    lengths, wire, times = [], [], []
    for _ in range(samples):
        old, new = sorted(rng.sample(range(1, n + 1), 2))
        old_root, new_root = tree.root(old), tree.root(new)
        t0 = time.perf_counter()
        proof = tree.consistency_proof(old, new)
        ok = verify_consistency(old, new, old_root, new_root, proof)
        times.append(time.perf_counter() - t0)
        if not ok:
            raise AssertionError(f"consistency proof {old} → {new} did not verify")
        lengths.append(len(proof))
        wire.append(_wire(old, new, proof))
    passed = max(lengths) <= depth + 1 and max(wire) < LIMIT_BYTES
    rows.append((
        f"(m3) consistency proof, {samples:,} random size pairs ≤ {n:,}",
        f"{min(lengths)}–{max(lengths)} hashes = {32 * max(lengths)} B raw, ≤ {max(wire):,} B hex JSON",
        f"prove+verify median {_ms(statistics.median(times))}, p99 {_ms(_p99(times))}",
        f"O(log n) (≤ {depth + 1}), < 5 KB: {'PASS' if passed else 'FAIL'}",
    ))

    # (m4) ----------------------------------------------------------------
    times = []
    for _ in range(samples):
        size = rng.randrange(1, n + 1)
        t0 = time.perf_counter()
        tree.root(size)
        times.append(time.perf_counter() - t0)
    rows.append((
        f"(m4) root of a random earlier size ≤ {n:,}",
        f"{samples:,} sizes",
        f"median {_ms(statistics.median(times))}, p99 {_ms(_p99(times))}",
        "—",
    ))
    return rows + measure_log(n, samples, seed)


FILL_LIMIT_S = 30.0


def measure_log(n: int = LEAVES, samples: int = SAMPLES, seed: int = 5) -> list[tuple[str, str, str, str]]:
    """(m5) and (m6): the transparency log against Redis."""
    import os
    import tempfile
    import uuid
    from pathlib import Path

    import redis
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from replays import EventStore
    from replays.translog import TransparencyLog
    from service.app import create_app

    rng = random.Random(seed)
    proc = socket = None
    url = os.environ.get("REDIS_URL")
    if not url:
        from service import embedded

        proc, socket = embedded.start(Path(tempfile.mkdtemp(prefix="kroniek-bench-log-")), persistent=False)
        url = f"unix://{socket}"
    client = redis.Redis.from_url(url, decode_responses=True)
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    try:
        log = TransparencyLog(client, prefix)
        records = [{"kind": "m", "id": f"{i:016x}", "seq": 40 + i % 60, "head": f"{i * 2654435761 % 2**256:064x}"}
                   for i in range(n)]
        t0 = time.perf_counter()
        for i in range(0, n, 10_000):
            log.add_many(records[i : i + 10_000])
            if time.perf_counter() - t0 >= FILL_LIMIT_S:
                return [(f"(m5)–(m6) transparency log of {n:,} leaves in Redis",
                         f"skipped: {i + 10_000:,} leaves took ≥ {FILL_LIMIT_S:.0f} s", "—", "—")]
        t_fill = time.perf_counter() - t0
        app = create_app(store=EventStore(client, prefix), enqueue_validation=lambda m: None,
                         enqueue_ratings=lambda g: None, signing_key=Ed25519PrivateKey.generate())
        http = app.test_client()
        served = app.extensions["kroniek.log"]
        t0 = time.perf_counter()
        served.sync()  # what the first request after a start pays
        t_sync = time.perf_counter() - t0
        rows = [(
            f"(m5) transparency log: {n:,} leaves added to Redis (pipelined, 1,000 per round trip)",
            f"fill {t_fill:.2f} s ({n / t_fill:,.0f} adds/s)",
            f"cold tree cache catch-up {t_sync:.3f} s",
            "—",
        )]
        sizes, lengths, times = [], [], []
        for _ in range(samples):
            index = rng.randrange(n)
            t0 = time.perf_counter()
            res = http.get(f"/api/log/proofs/inclusion?kind=m&id={index:016x}")
            times.append(time.perf_counter() - t0)
            body = res.get_json()
            if res.status_code != 200 or not verify_inclusion(
                bytes.fromhex(body["leaf_hash"]), index, n, [bytes.fromhex(x) for x in body["audit_path"]],
                bytes.fromhex(body["tree_head"]["root_hash"]),
            ):
                raise AssertionError(f"served inclusion proof for leaf {index} did not verify")
            sizes.append(len(res.get_data()))
            lengths.append(len(body["audit_path"]))
        depth = math.ceil(math.log2(n))
        passed = max(lengths) <= depth and max(sizes) < LIMIT_BYTES
        rows.append((
            f"(m6) GET /api/log/proofs/inclusion, {samples:,} random matches of {n:,} leaves (with its signed head)",
            f"{min(lengths)}–{max(lengths)} hashes; answer {min(sizes):,}–{max(sizes):,} B JSON",
            f"per request median {_ms(statistics.median(times))}, p99 {_ms(_p99(times))}",
            f"O(log n) (≤ {depth}), < 5 KB: {'PASS' if passed else 'FAIL'}",
        ))
        return rows
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i : i + 500])
        client.close()
        if proc is not None:
            import shutil

            from service import embedded

            embedded.stop(proc, socket)
            shutil.rmtree(socket.parent, ignore_errors=True)  # its redis.log too


if __name__ == "__main__":
    for row in measure():
        print(" | ".join(row))
