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


def forge_entry(store: EventStore, stream_id: str, seq: int, **changes) -> None:
    """Change one event and re-hash it and every later event, as a forger
    with write access to Redis would: the stream's own chain then checks out,
    and only something outside it (a result's match log, the signed tree of
    heads) can tell."""
    from replays.hashing import seal

    key = store.key(stream_id, "log")
    entries = list(store.entries(stream_id))
    store.r.delete(key)
    prev = None
    for entry_id, fields in entries:
        envelope = json.loads(fields["event"])
        if envelope["seq"] == seq:
            envelope.update(changes)
        if envelope["seq"] >= seq:
            envelope = seal(envelope["seq"], envelope["type"], envelope["seat"], envelope["data"],
                            envelope["recorded_at"], envelope["recorded_by"], prev or envelope["prev_hash"])
            fields = {"event": envelope["text"], "hash": envelope["hash"]}
        prev = fields["hash"]
        store.r.xadd(key, fields, id=entry_id)
