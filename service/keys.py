"""The transparency log's signing key (Ed25519), kept out of the data store.

The key is a PEM file (PKCS #8, mode 0600), read once per process, on first
use: ``KRONIEK_SIGNING_KEY`` names it, else ``<KRONIEK_VAR or ./var>/keys/
tree-head.pem``. If the file does not exist a new key is written there (see
:func:`replays.signing.load_or_create_key`), so a development setup needs
nothing; every process (API servers, CLI) must then see the same file.
``kroniek serve`` makes it as it starts; ``kroniek backup`` never makes one
(a file signed by a key no one publishes verifies against nothing).

Never in Redis: a copy of the database must not be enough to forge a signed
tree head. In production keep the key on another disk than Redis's data and
backups, or in a secret store mounted as a file (a Kubernetes/Docker secret, a
tmpfs filled from Vault), point ``KRONIEK_SIGNING_KEY`` at it, and publish its
public key (``GET /api/log/public-key``) where verifiers can pin it. Only the
API process signs; the worker only adds leaves and needs no key.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Mapping

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from replays.signing import load_or_create_key

_key: Ed25519PrivateKey | None = None
_lock = threading.Lock()


def key_path(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the signing key is (whether or not it exists yet), for a process with ``environ``."""
    explicit = environ.get("KRONIEK_SIGNING_KEY")
    if explicit:
        return Path(explicit)
    return Path(environ.get("KRONIEK_VAR", "var")).resolve() / "keys" / "tree-head.pem"


def signing_key() -> Ed25519PrivateKey:
    """The process's signing key, loaded (or created) once, on first use."""
    global _key
    if _key is None:
        with _lock:
            if _key is None:
                _key = load_or_create_key(key_path())
    return _key
