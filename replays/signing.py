"""Ed25519 signed tree heads (STH): a Merkle root that its log vouches for.

Why: a root alone proves nothing to someone who did not compute it. Signed
with the log's key, together with the tree size and a time, it becomes a
commitment: the log cannot later show anyone a different tree of that size
without the two signed heads contradicting each other, and consistency
proofs (:mod:`replays.merkle`) tie every later head to it.

The private key lives in a file (PEM, PKCS #8, mode 0600), never in Redis: a
copy of the database must not be enough to forge heads.

Signed message, version 1 — an offline verifier must rebuild these exact
bytes::

    UTF-8 of compact JSON with sorted keys and no white space:
    {"root_hash":"<64 lowercase hex>","timestamp":<ms since epoch>,"tree_size":<n>,"v":1}

e.g. ``{"root_hash":"e3b0…b855","timestamp":1767225600000,"tree_size":0,"v":1}``.
The signature is plain Ed25519 (RFC 8032) over those bytes. Keys and
signatures travel as standard base64 (with padding); the key id is the
lowercase hex SHA-256 of the raw 32-byte public key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

MESSAGE_VERSION = 1
_HEX64 = re.compile(r"[0-9a-f]{64}")


def load_or_create_key(path: Path) -> Ed25519PrivateKey:
    """The log's signing key from ``path``; a new one is written there if the
    file does not exist (file 0600; a missing parent directory is created 0700).

    The new key is written to a temporary file and hard-linked into place, so
    a reader never sees half a key, and when two processes race the first
    link wins and both end up with the same key."""
    path = Path(path)
    if not path.exists():
        _create_key(path)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} holds a {type(key).__name__}, not an Ed25519 private key")
    return key


def _create_key(path: Path) -> None:
    parent = path.parent
    if not parent.exists():
        parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(parent, 0o700)  # mkdir's mode is masked by the umask
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".tmp")  # created 0600
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(pem)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process created it first: use theirs
    finally:
        os.unlink(tmp)


def _raw_public(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def public_key_b64(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The raw 32-byte public key, base64: what a verifier pins."""
    return base64.b64encode(_raw_public(key)).decode("ascii")


def key_id(pub_raw: bytes) -> str:
    """Lowercase hex SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(pub_raw).hexdigest()


def tree_head_message(tree_size: int, root_hex: str, timestamp_ms: int) -> bytes:
    """The exact bytes that are signed (see the module docstring). ValueError
    unless the size and time are integers ≥ 0 and the root is 64 lowercase
    hex digits, so no two different heads share an encoding."""
    if not _is_count(tree_size) or not _is_count(timestamp_ms):
        raise ValueError("tree_size and timestamp are integers ≥ 0")
    if not isinstance(root_hex, str) or not _HEX64.fullmatch(root_hex):
        raise ValueError("root_hash is 64 lowercase hex digits")
    head = {"root_hash": root_hex, "timestamp": timestamp_ms, "tree_size": tree_size, "v": MESSAGE_VERSION}
    return json.dumps(head, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("utf-8")


def sign_tree_head(key: Ed25519PrivateKey, tree_size: int, root_hex: str, timestamp_ms: int) -> dict[str, Any]:
    """A signed tree head: the signed fields plus the signature, the public
    key and its id (unsigned conveniences: trust comes from pinning the key)."""
    message = tree_head_message(tree_size, root_hex, timestamp_ms)
    raw = _raw_public(key)
    return {
        "tree_size": tree_size,
        "root_hash": root_hex,
        "timestamp": timestamp_ms,
        "signature": base64.b64encode(key.sign(message)).decode("ascii"),
        "key_id": key_id(raw),
        "public_key": base64.b64encode(raw).decode("ascii"),
    }


def verify_tree_head(sth: dict[str, Any], public_key_b64: str | None = None) -> bool:
    """True if ``sth`` is signed by the given public key (base64 of the raw 32
    bytes), or by the key it carries when none is given. Only the first says
    *who* signed: without a pinned key this checks integrity, not origin. A
    ``key_id`` in the head, if present, must name the key used. False on any
    malformed input; never raises."""
    try:
        if not isinstance(sth, dict):
            return False
        encoded = public_key_b64 if public_key_b64 is not None else sth.get("public_key")
        raw = _b64(encoded)
        signature = _b64(sth.get("signature"))
        if raw is None or len(raw) != 32 or signature is None or len(signature) != 64:
            return False
        if "key_id" in sth and sth["key_id"] != key_id(raw):
            return False
        message = tree_head_message(sth.get("tree_size"), sth.get("root_hash"), sth.get("timestamp"))  # type: ignore[arg-type]
        Ed25519PublicKey.from_public_bytes(raw).verify(signature, message)
        return True
    except (InvalidSignature, ValueError, TypeError):
        return False


def _b64(value: object) -> bytes | None:
    if not isinstance(value, str):
        return None
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
