"""Simulated matches in hypothesis examples that go through the API.

The service gives every simulated match a fresh random server secret, which
its draws mix in; a hypothesis example must play the same match each time it
is run (when hypothesis replays it to shrink a failure, or to show it), so an
example fixes the secret from its own seed."""

from __future__ import annotations

import hashlib
from typing import Any


def secret_for(seed: int) -> str:
    """A 256-bit secret (64 lowercase hex digits) that only ``seed`` decides."""
    return hashlib.sha256(f"kroniek-test-secret:{seed}".encode()).hexdigest()


def fix_secret(app: Any, seed: int) -> str:
    """Make the app's service give its next simulated matches ``secret_for(seed)``."""
    secret = secret_for(seed)
    app.extensions["kroniek"].secret_source = lambda: secret
    return secret
