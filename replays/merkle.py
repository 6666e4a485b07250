"""Merkle trees over a log, as in Certificate Transparency (RFC 6962 / RFC 9162).

Why: a hash chain proves a log was not changed, but only to someone who reads
all of it. A Merkle tree over the same entries lets anyone holding a signed
root check, with O(log n) hashes, that one entry is in the log (an *inclusion
proof*) and that a later log only appended to an earlier one (a *consistency
proof*), without being sent the log.

The hashing is exactly RFC 6962's, so proofs can be checked with any CT
library: a leaf is ``SHA-256(0x00 || data)``, an inner node
``SHA-256(0x01 || left || right)`` (the prefixes keep a leaf from passing as a
node), the empty tree's root is ``SHA-256("")``, and a tree of n > 1 leaves
splits at the largest power of two k < n.

Pure and I/O-free: the caller decides what the leaves are and where roots and
proofs go.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

HASH_SIZE = 32

#: The root of the tree with no leaves (RFC 6962 2.1: the hash of the empty string).
EMPTY_ROOT = hashlib.sha256(b"").digest()

_sha256 = hashlib.sha256


def leaf_hash(data: bytes) -> bytes:
    """The hash of one entry: ``SHA-256(0x00 || data)``."""
    return _sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of two subtrees: ``SHA-256(0x01 || left || right)``."""
    return _sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2): where RFC 6962 splits."""
    return 1 << ((n - 1).bit_length() - 1)


class MerkleTree:
    """An append-only Merkle tree over leaf hashes.

    Besides the leaves it keeps every *complete* subtree hash, level by level
    (``levels[h][i]`` covers leaves ``[i·2^h, (i+1)·2^h)``), each computed once
    when its last leaf arrives: one node hash per append on average. Every
    subtree that RFC 6962's recursion reaches for a tree of any size ≤ ``size``
    is either one of these or a right edge made of O(log n) of them, so roots
    and proofs for the current *and every earlier* size cost O(log n) hashes,
    never a pass over the leaves. Memory: about two hashes per leaf.
    """

    __slots__ = ("_levels",)

    def __init__(self, leaf_hashes: Iterable[bytes] = ()) -> None:
        self._levels: list[list[bytes]] = [[]]
        self.extend(leaf_hashes)

    @property
    def size(self) -> int:
        """The number of leaves."""
        return len(self._levels[0])

    def __len__(self) -> int:
        return len(self._levels[0])

    def leaf(self, index: int) -> bytes:
        """The leaf hash at ``index``."""
        if not 0 <= index < self.size:
            raise IndexError(f"leaf {index} is not in a tree of {self.size}")
        return self._levels[0][index]

    def append(self, leaf_hash: bytes) -> int:
        """Add a leaf hash (see :func:`leaf_hash`); returns its index."""
        if not isinstance(leaf_hash, bytes) or len(leaf_hash) != HASH_SIZE:
            raise ValueError("a leaf hash is 32 bytes")
        levels = self._levels
        index = len(levels[0])
        levels[0].append(leaf_hash)
        # An odd index completes a pair, whose parent may complete a pair above.
        level, i = 0, index
        while i & 1:
            row = levels[level]
            parent = _sha256(b"\x01" + row[i - 1] + row[i]).digest()
            level += 1
            if level == len(levels):
                levels.append([])
            levels[level].append(parent)
            i >>= 1
        return index

    def extend(self, leaf_hashes: Iterable[bytes]) -> None:
        """Append each leaf hash in order."""
        for h in leaf_hashes:
            self.append(h)

    def root(self, size: int | None = None) -> bytes:
        """The Merkle Tree Hash of the first ``size`` leaves (default: all)."""
        size = self._size(size)
        return self._hash(0, size) if size else EMPTY_ROOT

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """RFC 6962 2.1.1 ``PATH(index, D[size])``: the sibling hashes from the
        leaf up to the root of the tree of the first ``size`` leaves."""
        size = self._size(size)
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size}")
        path: list[bytes] = []
        start, end = 0, size
        while end - start > 1:  # top-down; the RFC lists bottom-up
            k = _split(end - start)
            if index < start + k:
                path.append(self._hash(start + k, end))
                end = start + k
            else:
                path.append(self._hash(start, start + k))
                start += k
        path.reverse()
        return path

    def consistency_proof(self, old_size: int, new_size: int | None = None) -> list[bytes]:
        """RFC 6962 2.1.2 ``PROOF(old_size, D[new_size])``: the hashes that show
        the tree of ``old_size`` leaves is a prefix of the one of ``new_size``.
        Empty when ``old_size`` is 0 or equal to ``new_size``."""
        new_size = self._size(new_size)
        if not 0 <= old_size <= new_size:
            raise ValueError(f"no consistency proof from {old_size} to {new_size}")
        if old_size in (0, new_size):
            return []
        # SUBPROOF(m, D[start:end], whole) unrolled; m == end - start ⇔ old_size == end.
        proof: list[bytes] = []
        start, end, whole = 0, new_size, True
        while old_size != end:
            k = _split(end - start)
            if old_size - start <= k:
                proof.append(self._hash(start + k, end))
                end = start + k
            else:
                proof.append(self._hash(start, start + k))
                start += k
                whole = False
        if not whole:  # the old tree's root is not in the proof unless this subtree is needed
            proof.append(self._hash(start, end))
        proof.reverse()
        return proof

    # -- internals ---------------------------------------------------------

    def _size(self, size: int | None) -> int:
        if size is None:
            return self.size
        if not 0 <= size <= self.size:
            raise ValueError(f"size {size} is outside 0..{self.size}")
        return size

    def _hash(self, start: int, end: int) -> bytes:
        """MTH(D[start:end]) for 0 ≤ start < end ≤ size: a stored complete
        subtree when the range is one, else split as RFC 6962 does (the left
        part is then complete; only the right edge recurses)."""
        n = end - start
        if n & (n - 1) == 0 and start % n == 0:
            height = n.bit_length() - 1
            return self._levels[height][start >> height]
        k = _split(n)
        return node_hash(self._hash(start, start + k), self._hash(start + k, end))


# -- verification (RFC 9162 2.1.3.2 and 2.1.4.2) ----------------------------
#
# These take untrusted input: any wrong count, size, hash or proof gives False,
# never an exception.


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == HASH_SIZE


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_proof(value: object) -> bool:
    return isinstance(value, (list, tuple)) and all(_is_hash(h) for h in value)


def verify_inclusion(leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    """True if ``proof`` shows the leaf hash is leaf ``index`` of the tree of
    ``size`` leaves whose root is ``root`` (RFC 9162 2.1.3.2)."""
    if not (_is_hash(leaf_hash) and _is_hash(root) and _is_count(index) and _is_count(size) and _is_proof(proof)):
        return False
    if index >= size:
        return False
    fn, sn = index, size - 1
    r = leaf_hash
    for p in proof:
        if sn == 0:
            return False  # the proof is longer than the path
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn:  # skip the levels where the path has no sibling
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
    """True if ``proof`` shows the tree of ``old_size`` leaves with root
    ``old_root`` is a prefix of the tree of ``new_size`` leaves with root
    ``new_root`` (RFC 9162 2.1.4.2). Equal sizes need equal roots and an empty
    proof; the empty tree (whose root must be :data:`EMPTY_ROOT`) is a prefix
    of every tree, with an empty proof."""
    if not (_is_count(old_size) and _is_count(new_size) and _is_hash(old_root) and _is_hash(new_root)
            and _is_proof(proof)):
        return False
    if old_size > new_size:
        return False
    if old_size == 0:
        return not proof and old_root == EMPTY_ROOT and (new_size > 0 or new_root == EMPTY_ROOT)
    if old_size == new_size:
        return not proof and old_root == new_root
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # the old tree is a complete subtree: its root is left out of the proof
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False  # the proof is longer than the sizes allow
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            while not fn & 1 and fn:
                fn >>= 1
                sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == old_root and sr == new_root


# -- hex, for JSON ----------------------------------------------------------


def proof_to_hex(proof: Iterable[bytes]) -> list[str]:
    """A proof as lowercase hex strings (how it travels in JSON)."""
    return [h.hex() for h in proof]


def proof_from_hex(items: Iterable[str]) -> list[bytes]:
    """The inverse of :func:`proof_to_hex`; ValueError unless every item is
    64 hex digits."""
    out = []
    for item in items:
        h = bytes.fromhex(item) if isinstance(item, str) else b""
        if len(h) != HASH_SIZE or len(item) != 2 * HASH_SIZE:
            raise ValueError("a proof item is 64 hex digits")
        out.append(h)
    return out
