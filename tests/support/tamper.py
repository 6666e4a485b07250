"""Tampering as someone with write access to Redis would, for audit tests."""

import json

from replays import EventStore, canonical


def rewrite_entry(store: EventStore, match_id: str, seq: int, hash: str | None = None, **changes) -> None:
    """Rebuild a match's stream with one entry's envelope changed (and its
    stored hash, if given); entry ids stay as they were."""
    key = store.key(match_id, "log")
    entries = list(store.entries(match_id))
    store.r.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"{seq}-0":
            envelope = {**json.loads(fields["event"]), **changes}
            fields = {"event": canonical(envelope), "hash": hash or fields["hash"]}
        store.r.xadd(key, fields, id=entry_id)


def run_threads(targets) -> None:
    """Start every target in its own thread and wait for all of them."""
    import threading

    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
