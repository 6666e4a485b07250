"""The Merkle tree (RFC 6962 / RFC 9162) and the signed tree heads.

Three kinds of check: the published Certificate Transparency test vectors; a
naive recursive reference written here straight from RFC 6962's definitions
(MTH, PATH, PROOF/SUBPROOF), which the incremental tree must agree with at
every size; and the verifiers against tampered proofs.
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from functools import lru_cache

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from replays.merkle import (
    EMPTY_ROOT,
    MerkleTree,
    leaf_hash,
    proof_from_hex,
    proof_to_hex,
    verify_consistency,
    verify_inclusion,
)
from replays.signing import (
    key_id,
    load_or_create_key,
    public_key_b64,
    sign_tree_head,
    tree_head_message,
    verify_tree_head,
)

# -- published vectors --------------------------------------------------------
# From github.com/transparency-dev/merkle (the Go library that grew out of
# google/certificate-transparency and trillian): leaves and roots in
# testonly/constants.go (LeafInputs, RootHashes, NodeHashes); inclusion and
# consistency proofs in proof/verify_test.go (inclusionProofs, whose leaf
# numbers are 1-based there and 0-based here, and consistencyProofs).

LEAVES = [bytes.fromhex(h) for h in (
    "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f",
)]

ROOTS = [bytes.fromhex(h) for h in (
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # empty tree
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
)]

LEAF_HASHES = [bytes.fromhex(h) for h in (
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
    "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
    "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
)]

#: (index, size, proof)
INCLUSION_VECTORS = [
    (0, 1, []),
    (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]

#: (old size, new size, proof)
CONSISTENCY_VECTORS = [
    (1, 1, []),
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (6, 7, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
]


def vector_tree() -> MerkleTree:
    return MerkleTree(leaf_hash(d) for d in LEAVES)


def test_leaf_hashes_and_empty_root_match_the_vectors():
    assert [leaf_hash(d) for d in LEAVES] == LEAF_HASHES
    assert EMPTY_ROOT == ROOTS[0] == MerkleTree().root()


def test_roots_match_the_vectors_for_every_size():
    tree = vector_tree()
    assert [tree.root(n) for n in range(9)] == ROOTS
    grown = MerkleTree()
    for n, h in enumerate(LEAF_HASHES, start=1):
        assert grown.append(h) == n - 1
        assert grown.root() == ROOTS[n]


@pytest.mark.parametrize(("index", "size", "proof"), INCLUSION_VECTORS)
def test_inclusion_proofs_match_the_vectors(index, size, proof):
    tree = vector_tree()
    assert proof_to_hex(tree.inclusion_proof(index, size)) == proof
    assert verify_inclusion(LEAF_HASHES[index], index, size, proof_from_hex(proof), ROOTS[size])


@pytest.mark.parametrize(("old", "new", "proof"), CONSISTENCY_VECTORS)
def test_consistency_proofs_match_the_vectors(old, new, proof):
    tree = vector_tree()
    assert proof_to_hex(tree.consistency_proof(old, new)) == proof
    assert verify_consistency(old, new, ROOTS[old], ROOTS[new], proof_from_hex(proof))


# -- a naive reference, straight from RFC 6962 section 2.1 ------------------------
# Leaves are the raw entries d(i). Proof items carry the leaf range [a, b) that
# their subtree covers, so tests can reason about a proof's shape.


def ref_split(n: int) -> int:
    """k: the largest power of two smaller than n."""
    k = 1
    while 2 * k < n:
        k *= 2
    return k


def ref_mth(d: list[bytes]) -> bytes:
    n = len(d)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return hashlib.sha256(b"\x00" + d[0]).digest()
    k = ref_split(n)
    return hashlib.sha256(b"\x01" + ref_mth(d[:k]) + ref_mth(d[k:])).digest()


def ref_path(m: int, d: list[bytes], at: int = 0) -> list[tuple[tuple[int, int], bytes]]:
    n = len(d)
    if n == 1:
        return []
    k = ref_split(n)
    if m < k:
        return ref_path(m, d[:k], at) + [((at + k, at + n), ref_mth(d[k:]))]
    return ref_path(m - k, d[k:], at + k) + [((at, at + k), ref_mth(d[:k]))]


def ref_subproof(m: int, d: list[bytes], b: bool, at: int = 0) -> list[tuple[tuple[int, int], bytes]]:
    n = len(d)
    if m == n:
        return [] if b else [((at, at + n), ref_mth(d))]
    k = ref_split(n)
    if m <= k:
        return ref_subproof(m, d[:k], b, at) + [((at + k, at + n), ref_mth(d[k:]))]
    return ref_subproof(m - k, d[k:], False, at + k) + [((at, at + k), ref_mth(d[:k]))]


def ref_proof(m: int, d: list[bytes]) -> list[tuple[tuple[int, int], bytes]]:
    return ref_subproof(m, d, True) if 0 < m < len(d) else []


def _expr(size: int, known: dict[tuple[int, int], object]) -> object:
    """MTH(D[0:size]) as a formula over the ``known`` subtrees."""
    def go(a: int, b: int) -> object:
        if (a, b) in known:
            return known[(a, b)]
        assert b - a > 1, "a proof always covers the whole tree"
        k = ref_split(b - a)
        return (go(a, a + k), go(a + k, b))
    return go(0, size)


@lru_cache(maxsize=None)
def inclusion_shape(index: int, size: int) -> object:
    """How a verifier must combine the leaf (``"leaf"``) and the proof items
    (by position) to get the root, per RFC 6962 PATH. The verifier never learns
    anything but the index and size, so two claims with the same shape are
    indistinguishable to it: a proof verifies for a claimed (index, size)
    exactly when that claim's shape is the true one's."""
    known: dict[tuple[int, int], object] = {(index, index + 1): "leaf"}
    for pos, (span, _) in enumerate(ref_path(index, [b""] * size)):
        known[span] = pos
    return _expr(size, known)


@lru_cache(maxsize=None)
def consistency_shape(old: int, new: int) -> object:
    """The same for consistency proofs: the formulas for the old root and the
    new one over the proof items (and the old root itself, which RFC 6962
    leaves out of the proof when the old tree is a complete subtree)."""
    known: dict[tuple[int, int], object] = {}
    if old & (old - 1) == 0:
        known[(0, old)] = "old"
    for pos, (span, _) in enumerate(ref_proof(old, [b""] * new)):
        known[span] = pos
    return (_expr(old, known), _expr(new, known))


MAX = 70
DATA = [f"entry {i}".encode() for i in range(MAX)]
TREE = MerkleTree(leaf_hash(d) for d in DATA)
REF_ROOTS = [ref_mth(DATA[:n]) for n in range(MAX + 1)]


def test_the_reference_agrees_with_the_vectors():
    assert [ref_mth(LEAVES[:n]) for n in range(9)] == ROOTS
    for index, size, proof in INCLUSION_VECTORS:
        assert [h.hex() for _, h in ref_path(index, LEAVES[:size])] == proof
    for old, new, proof in CONSISTENCY_VECTORS:
        assert [h.hex() for _, h in ref_proof(old, LEAVES[:new])] == proof


def test_roots_equal_the_reference_at_every_size():
    assert [TREE.root(n) for n in range(MAX + 1)] == REF_ROOTS


def test_inclusion_proofs_equal_the_reference_everywhere():
    for size in range(1, MAX + 1):
        for index in range(size):
            proof = TREE.inclusion_proof(index, size)
            assert proof == [h for _, h in ref_path(index, DATA[:size])], (index, size)
            assert verify_inclusion(TREE.leaf(index), index, size, proof, REF_ROOTS[size])


def test_consistency_proofs_equal_the_reference_everywhere():
    for new in range(MAX + 1):
        for old in range(new + 1):
            proof = TREE.consistency_proof(old, new)
            assert proof == [h for _, h in ref_proof(old, DATA[:new])], (old, new)
            assert verify_consistency(old, new, REF_ROOTS[old], REF_ROOTS[new], proof)


def test_a_misclaimed_index_or_size_verifies_only_when_indistinguishable():
    """Every claim (index', size') against every true proof of a small tree:
    accepted exactly when RFC 6962 gives both the same shape. A wrong index
    never is (the shape fixes the leaf's place); a wrong size sometimes is —
    e.g. leaf 0 of 3 and of 4 have the proof [h(1), h(2..)] alike — which is
    why the size is signed in the tree head, not trusted from the proof."""
    n = 20
    for size in range(1, n + 1):
        for index in range(size):
            proof = TREE.inclusion_proof(index, size)
            for claimed_size in range(1, n + 4):
                for claimed in range(claimed_size):
                    ok = verify_inclusion(TREE.leaf(index), claimed, claimed_size, proof, REF_ROOTS[size])
                    assert ok == (inclusion_shape(claimed, claimed_size) == inclusion_shape(index, size)), \
                        (index, size, claimed, claimed_size)
                    if claimed_size == size and claimed != index:
                        assert not ok
    assert verify_inclusion(TREE.leaf(0), 0, 4, TREE.inclusion_proof(0, 3), REF_ROOTS[3])


def test_misclaimed_sizes_verify_a_consistency_proof_only_when_indistinguishable():
    n = 18
    for new in range(1, n + 1):
        for old in range(1, new):
            proof = TREE.consistency_proof(old, new)
            for claimed_new in range(1, n + 4):
                for claimed_old in range(1, claimed_new):
                    ok = verify_consistency(claimed_old, claimed_new, REF_ROOTS[old], REF_ROOTS[new], proof)
                    same = consistency_shape(claimed_old, claimed_new) == consistency_shape(old, new)
                    assert ok == same, (old, new, claimed_old, claimed_new)


# -- hypothesis: random logs, random tampering ---------------------------------

logs = st.lists(st.binary(max_size=12), min_size=1, max_size=MAX, unique=True)
some_hash = st.binary(min_size=32, max_size=32)


def flip(proof: list[bytes], pos: int, byte: int, bit: int) -> list[bytes]:
    item = bytearray(proof[pos])
    item[byte] ^= 1 << bit
    return [*proof[:pos], bytes(item), *proof[pos + 1:]]


@settings(max_examples=150, deadline=None)
@given(logs, st.data())
def test_inclusion_proofs_agree_with_the_reference_and_resist_tampering(data_, draw):
    tree = MerkleTree(leaf_hash(d) for d in data_)
    size = draw.draw(st.integers(1, len(data_)), label="size")
    index = draw.draw(st.integers(0, size - 1), label="index")
    root = ref_mth(data_[:size])
    leaf = leaf_hash(data_[index])
    assert tree.root(size) == root
    proof = tree.inclusion_proof(index, size)
    assert proof == [h for _, h in ref_path(index, data_[:size])]
    assert verify_inclusion(leaf, index, size, proof, root)

    if proof:
        pos = draw.draw(st.integers(0, len(proof) - 1), label="position")
        tampered = flip(proof, pos, draw.draw(st.integers(0, 31)), draw.draw(st.integers(0, 7)))
        assert not verify_inclusion(leaf, index, size, tampered, root)
        assert not verify_inclusion(leaf, index, size, proof[:pos] + proof[pos + 1:], root)
    extra = draw.draw(st.sampled_from([*proof, root, leaf]) | some_hash, label="extra item")
    at = draw.draw(st.integers(0, len(proof)), label="inserted at")
    assert not verify_inclusion(leaf, index, size, proof[:at] + [extra] + proof[at:], root)

    if size > 1:
        other = draw.draw(st.integers(0, size - 1).filter(lambda i: i != index), label="wrong index")
        assert not verify_inclusion(leaf, other, size, proof, root)
        assert not verify_inclusion(leaf_hash(data_[other]), index, size, proof, root)
    wrong_size = draw.draw(st.integers(index + 1, 2 * MAX).filter(lambda s: s != size), label="wrong size")
    assert verify_inclusion(leaf, index, wrong_size, proof, root) == (
        inclusion_shape(index, wrong_size) == inclusion_shape(index, size))
    assert not verify_inclusion(leaf, index, index, proof, root)  # the leaf is not in a tree that small
    wrong_root = draw.draw(some_hash.filter(lambda h: h != root), label="wrong root")
    assert not verify_inclusion(leaf, index, size, proof, wrong_root)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=12), min_size=2, max_size=MAX, unique=True), st.data())
def test_consistency_proofs_agree_with_the_reference_and_resist_tampering(data_, draw):
    tree = MerkleTree(leaf_hash(d) for d in data_)
    new = draw.draw(st.integers(2, len(data_)), label="new size")
    old = draw.draw(st.integers(1, new - 1), label="old size")
    old_root, new_root = ref_mth(data_[:old]), ref_mth(data_[:new])
    proof = tree.consistency_proof(old, new)
    assert proof == [h for _, h in ref_proof(old, data_[:new])]
    assert verify_consistency(old, new, old_root, new_root, proof)
    assert proof  # 0 < old < new always needs at least one hash

    pos = draw.draw(st.integers(0, len(proof) - 1), label="position")
    tampered = flip(proof, pos, draw.draw(st.integers(0, 31)), draw.draw(st.integers(0, 7)))
    assert not verify_consistency(old, new, old_root, new_root, tampered)
    assert not verify_consistency(old, new, old_root, new_root, proof[:pos] + proof[pos + 1:])
    extra = draw.draw(st.sampled_from([*proof, old_root, new_root]) | some_hash, label="extra item")
    at = draw.draw(st.integers(0, len(proof)), label="inserted at")
    assert not verify_consistency(old, new, old_root, new_root, proof[:at] + [extra] + proof[at:])

    assert not verify_consistency(old, new, new_root, old_root, proof)
    assert not verify_consistency(new, old, old_root, new_root, proof)
    other_old = draw.draw(st.integers(1, new - 1).filter(lambda m: m != old), label="other old") if new > 2 else None
    if other_old is not None:  # a wrong old size, claimed with its true root
        assert not verify_consistency(other_old, new, ref_mth(data_[:other_old]), new_root, proof)
    claimed_new = draw.draw(st.integers(old + 1, 2 * MAX).filter(lambda n: n != new), label="claimed new size")
    assert verify_consistency(old, claimed_new, old_root, new_root, proof) == (
        consistency_shape(old, claimed_new) == consistency_shape(old, new))
    wrong = draw.draw(some_hash, label="wrong root")
    assert not verify_consistency(old, new, wrong, new_root, proof) or wrong == old_root
    assert not verify_consistency(old, new, old_root, wrong, proof) or wrong == new_root


def test_trivial_consistency():
    tree = vector_tree()
    for n in range(9):
        assert tree.consistency_proof(0, n) == [] == tree.consistency_proof(n, n)
        assert verify_consistency(0, n, EMPTY_ROOT, ROOTS[n], [])
        assert verify_consistency(n, n, ROOTS[n], ROOTS[n], [])
        assert not verify_consistency(n, n, ROOTS[n], ROOTS[n], [ROOTS[n]])
    assert not verify_consistency(0, 3, ROOTS[1], ROOTS[3], [])  # the empty tree has one root
    assert not verify_consistency(0, 0, EMPTY_ROOT, ROOTS[1], [])
    assert not verify_consistency(3, 3, ROOTS[3], ROOTS[4], [])
    assert not verify_consistency(1, 2, ROOTS[1], ROOTS[2], [])


garbage = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.binary(max_size=40), st.text(max_size=5),
    st.lists(st.binary(max_size=40), max_size=4), st.lists(st.integers(), max_size=3), st.floats(),
)


@given(garbage, garbage, garbage, garbage, garbage)
def test_verifiers_never_raise(a, b, c, d, e):
    assert isinstance(verify_inclusion(a, b, c, d, e), bool)
    assert isinstance(verify_consistency(a, b, c, d, e), bool)


@given(st.integers(-(2**70), 2**70), st.integers(-(2**70), 2**70), st.lists(some_hash, max_size=70), some_hash, some_hash)
def test_verifiers_never_raise_on_well_typed_nonsense(i, n, proof, h1, h2):
    assert isinstance(verify_inclusion(h1, i, n, proof, h2), bool)
    assert isinstance(verify_consistency(i, n, h1, h2, proof), bool)


def test_bad_arguments_to_the_tree_raise():
    tree = vector_tree()
    with pytest.raises(ValueError):
        tree.append(b"short")
    with pytest.raises(ValueError):
        tree.root(9)
    with pytest.raises(ValueError):
        tree.inclusion_proof(8)
    with pytest.raises(ValueError):
        tree.inclusion_proof(0, 0)
    with pytest.raises(ValueError):
        tree.consistency_proof(5, 4)
    with pytest.raises(ValueError):
        proof_from_hex(["00" * 31])
    with pytest.raises(ValueError):
        proof_from_hex([" " + "00" * 31 + " "])


def test_a_large_tree_answers_for_earlier_sizes_without_rebuilding():
    tree = MerkleTree(leaf_hash(i.to_bytes(4, "big")) for i in range(5000))
    snapshot = MerkleTree(tree.leaf(i) for i in range(3001))
    assert tree.root(3001) == snapshot.root()
    assert tree.inclusion_proof(1234, 3001) == snapshot.inclusion_proof(1234)
    proof = tree.consistency_proof(3001, 5000)
    assert verify_consistency(3001, 5000, snapshot.root(), tree.root(), proof)
    assert len(proof) <= 2 * 13  # O(log n)
    assert tree.root(4096) == tree._levels[12][0]  # a complete subtree is stored, not recomputed


# -- signed tree heads -----------------------------------------------------------


@pytest.fixture
def key(tmp_path):
    return load_or_create_key(tmp_path / "keys" / "log.pem")


def test_tree_head_message_is_the_documented_encoding():
    assert tree_head_message(3, "ab" * 32, 1767225600000) == (
        b'{"root_hash":"' + b"ab" * 32 + b'","timestamp":1767225600000,"tree_size":3,"v":1}')
    for bad in ((-1, "ab" * 32, 0), (1, "AB" * 32, 0), (1, "ab" * 31, 0), (True, "ab" * 32, 0), (1, "ab" * 32, 1.5)):
        with pytest.raises(ValueError):
            tree_head_message(*bad)


def test_signed_tree_head_round_trip(key):
    sth = sign_tree_head(key, 8, ROOTS[8].hex(), 1767225600000)
    assert set(sth) == {"tree_size", "root_hash", "timestamp", "signature", "key_id", "public_key"}
    raw = base64.b64decode(sth["public_key"])
    assert len(raw) == 32 and sth["key_id"] == key_id(raw) == hashlib.sha256(raw).hexdigest()
    assert sth["public_key"] == public_key_b64(key) == public_key_b64(key.public_key())
    assert len(base64.b64decode(sth["signature"])) == 64
    assert verify_tree_head(sth)
    assert verify_tree_head(sth, public_key_b64(key))
    # what an offline verifier does, from the documented encoding alone
    message = tree_head_message(sth["tree_size"], sth["root_hash"], sth["timestamp"])
    key.public_key().verify(base64.b64decode(sth["signature"]), message)


def test_any_change_to_a_signed_tree_head_fails(key):
    sth = sign_tree_head(key, 8, ROOTS[8].hex(), 1767225600000)
    sig = bytearray(base64.b64decode(sth["signature"]))
    sig[10] ^= 1
    for change in (
        {"tree_size": 9}, {"tree_size": 7}, {"root_hash": ROOTS[7].hex()}, {"timestamp": 1767225600001},
        {"signature": base64.b64encode(bytes(sig)).decode()}, {"key_id": "00" * 32},
    ):
        assert not verify_tree_head({**sth, **change}), change


def test_another_key_fails(key):
    sth = sign_tree_head(key, 8, ROOTS[8].hex(), 1767225600000)
    other = Ed25519PrivateKey.generate()
    assert not verify_tree_head(sth, public_key_b64(other))
    forged = sign_tree_head(other, 8, ROOTS[8].hex(), 1767225600000)
    assert verify_tree_head(forged)  # self-consistent only…
    assert not verify_tree_head(forged, public_key_b64(key))  # …the pinned key is what says who signed
    assert not verify_tree_head({**sth, "public_key": forged["public_key"]})


def test_key_file_is_private_and_reloads_the_same_key(tmp_path):
    path = tmp_path / "state" / "keys" / "log.pem"
    key = load_or_create_key(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert public_key_b64(load_or_create_key(path)) == public_key_b64(key)
    assert [p.name for p in path.parent.iterdir()] == ["log.pem"]  # no temporary files left behind


def test_a_file_that_is_not_an_ed25519_key_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = tmp_path / "ec.pem"
    path.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with pytest.raises(ValueError):
        load_or_create_key(path)


@pytest.mark.parametrize("sth", [
    None, [], "sth", {}, {"tree_size": 1},
    {"tree_size": 1, "root_hash": "00" * 32, "timestamp": 0, "signature": "!!", "public_key": "AAAA"},
    {"tree_size": "1", "root_hash": "00" * 32, "timestamp": 0, "signature": "A" * 88, "public_key": "A" * 44},
    {"tree_size": 1, "root_hash": None, "timestamp": 0, "signature": "A" * 86 + "==", "public_key": "A" * 43 + "="},
    {"tree_size": 1, "root_hash": "00" * 32, "timestamp": 0, "signature": 5, "public_key": b"x"},
])
def test_malformed_tree_heads_are_false_without_raising(sth):
    assert verify_tree_head(sth) is False  # type: ignore[arg-type]
    assert verify_tree_head(sth, "not base64!") is False  # type: ignore[arg-type]


@given(st.dictionaries(st.sampled_from(["tree_size", "root_hash", "timestamp", "signature", "key_id", "public_key"]),
                       garbage), st.none() | st.text(max_size=50))
def test_verify_tree_head_never_raises(sth, pinned):
    assert verify_tree_head(sth, pinned) is False
