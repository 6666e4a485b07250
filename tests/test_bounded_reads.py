"""Reads in proportion to what they return (issue 36), on a real Redis: the
state at any step, the events after a seq and the review of a range read
only that range of the stream (and replay from the nearest checkpoint or
snapshot), and answer exactly what a replay of the whole log, and the whole
log filtered as before, answer."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import REFEREE
from service.matches import CHECKPOINT_EVERY, MatchService

VIEWERS = (None, 0, 1, REFEREE)


def record(svc: MatchService, rng: random.Random, length: int, variants: list[str]) -> str:
    """A BraveRats match of random legal moves (each seat's play, or the round as the table's move, or
    the chance outcomes a variant asks for) with an undo now and then, until ``length`` events or its end."""
    mid = svc.create_match("braverats", ["Ann", "Bob"], {"variants": variants})["id"]
    while True:
        ms = svc.current(mid)
        if ms.seq >= length:
            return mid
        if ms.depth and (rng.random() < 0.2 or ms.result is not None):
            svc.append(mid, "undo", None, {})
            continue
        if ms.result is not None:
            return mid
        due = M.chance_due(ms)
        if due:
            move = ms.game.chance_outcome(ms.state, rng)
            svc.append(mid, move.type, move.seat, move.data)
            continue
        actors = [a for a in ms.game.actors(ms.state) if a != "chance"]
        seat = rng.choice(actors)
        moves = M.legal_moves(ms, None if seat == "table" else seat)
        move = rng.choice(moves)
        svc.append(mid, move["type"], move["seat"], move["data"])


def essence(ms: M.MatchState) -> str:
    """What a state at a step is, whatever it was rebuilt from: its seq, the state, the effective line's
    length, what the step undid, every undone seq, and every view of it (its undo stack's older steps are
    another matter: a snapshot keeps the newest 16, and an undo past them replays the log)."""
    snap = M.encode(ms, marks=True)
    return json.dumps({"seq": ms.seq, "depth": ms.depth, "undone": snap["undone"], "state": snap["state"],
                       "marks": snap["marks"], "views": [ms.view(v) for v in VIEWERS]}, default=repr, sort_keys=True)


def whole_log_views(svc: MatchService, mid: str, viewer) -> list[dict]:
    """The log as the code before issue 36 filtered it: the whole log read, undone moves from undone_seqs."""
    ms = svc.current(mid)
    events = svc.store.events(mid, 1, ms.seq)
    if viewer == REFEREE:
        return events
    undone = M.undone_seqs(events)
    return [M.event_view(ms, e, viewer, undone) for e in events]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), variants=st.sampled_from([[], ["B"], ["E"], ["A", "C"]]),
       steps=st.lists(st.integers(1, 10_000), min_size=6, max_size=6))
def test_the_state_at_any_step_is_the_replay_of_the_log_to_it(store, seed, variants, steps):
    # snapshots every 8 events and checkpoints every 16: each read starts from one of them, or from seq 1
    writer = MatchService(store, snapshot_every=8)
    mid = record(writer, random.Random(seed), 90, variants)
    log = store.events(mid, 1, None)
    warm = MatchService(store, snapshot_every=8)
    warm.current(mid)
    for k in [1 + s % len(log) for s in steps]:
        expected = essence(M.replay(log[:k]))
        for svc in (writer, warm, MatchService(store, snapshot_every=8)):  # a process that has not seen it: cold
            assert essence(svc.state_at(mid, k)) == expected
    near = warm._checkpoint_at_or_before(mid, len(log))  # it kept checkpoints on the way
    assert near is None or near[0] % CHECKPOINT_EVERY == 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), variants=st.sampled_from([[], ["B"], ["E"]]),
       froms=st.lists(st.integers(1, 10_000), min_size=4, max_size=4))
def test_events_after_a_seq_are_the_whole_log_filtered_as_before(store, seed, variants, froms):
    svc = MatchService(store, snapshot_every=8)
    mid = record(svc, random.Random(seed), 70, variants)
    head = svc.current(mid).seq
    for viewer in VIEWERS:
        whole = whole_log_views(svc, mid, viewer)
        assert svc.events(mid, 1, None, viewer) == whole
        for f in [1 + x % head for x in froms]:
            for reader in (svc, MatchService(store, snapshot_every=8)):
                assert reader.events(mid, f, None, viewer) == whole[f - 1:]
                assert reader.events(mid, f, f + 3, viewer) == whole[f - 1:f + 3]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), variants=st.sampled_from([[], ["B"], ["E"]]),
       firsts=st.lists(st.integers(1, 10_000), min_size=4, max_size=4))
def test_a_review_range_is_the_slice_of_the_whole_review(store, seed, variants, firsts):
    svc = MatchService(store, snapshot_every=8)
    mid = record(svc, random.Random(seed), 70, variants)
    head = svc.current(mid).seq
    svc.annotate(mid, head // 2, comment="a note", glyph="?")
    whole = {viewer: MatchService(store).review(mid, viewer) for viewer in VIEWERS}
    for viewer in VIEWERS:
        assert svc.review(mid, viewer) == whole[viewer]
        for f in sorted(1 + x % head for x in firsts):
            # a process that reviewed nothing yet, one that reviewed the whole match, one that reviewed
            # from another seq: each the same steps
            for reader in (MatchService(store), svc):
                got = reader.review(mid, viewer, first=f)
                # (the evaluation, for the whole match, comes with a review from its first event only)
                rest = {k: v for k, v in whole[viewer].items() if k != "evaluation" or f == 1}
                assert got == {**rest, "steps": whole[viewer]["steps"][f - 1:]}


def test_a_review_asked_at_every_move_replays_only_the_new_events(store, monkeypatch):
    svc = MatchService(store)
    mid = record(svc, random.Random(7), 30, [])
    svc.review(mid, None, first=20)
    replayed: list[int] = []
    steps = svc._steps

    def counting(match_id, events, ms=None):
        replayed.extend(e["seq"] for e in events)
        return steps(match_id, events, ms)

    monkeypatch.setattr(svc, "_steps", counting)
    ms = svc.current(mid)
    if ms.result is not None:
        svc.append(mid, "undo", None, {})
    else:
        move = M.legal_moves(ms, None)[0] if "table" in ms.game.actors(ms.state) else \
            M.legal_moves(ms, ms.game.actors(ms.state)[0])[0]
        svc.append(mid, move["type"], move["seat"], move["data"])
    head = svc.current(mid).seq
    assert [s["seq"] for s in svc.review(mid, None, first=head - 4)["steps"]] == list(range(head - 4, head + 1))
    assert replayed == [head]


def test_a_read_of_the_tail_of_a_long_log_reads_only_the_tail(store):
    """The events after a seq and the review of the last steps of a log of 600 round/undo pairs read the
    stream from that seq on, never from seq 1 (the XRANGEs sent are counted)."""
    svc = MatchService(store)
    mid = svc.create_match("braverats", ["Ann", "Bob"])["id"]
    for i in range(600):
        svc.append(mid, *(("round", None, {"cards": ["spy", "prince"]}) if i % 2 == 0 else ("undo", None, {})))
    head = svc.current(mid).seq
    whole = whole_log_views(svc, mid, None)
    ranges: list[tuple[str, str]] = []
    xrange = store.r.xrange

    def spy(key, lo="-", hi="+", count=None):
        if key == store.key(mid, "log"):
            ranges.append((lo, hi))
        return xrange(key, lo, hi, count=count)

    store.r.xrange = spy
    try:
        for reader in (svc, MatchService(store)):
            ranges.clear()
            assert reader.events(mid, head - 9, None, None) == whole[head - 10:]
            review = reader.review(mid, None, first=head - 9)
            assert review["steps"][-2]["undone_by"] == head
            # the setup (seq 1, to decode a snapshot with), and from the nearest snapshot on at most
            lows = [int(lo.lstrip("(").split("-")[0]) for lo, hi in ranges if (lo, hi) != ("1-0", "1-0")]
            assert lows and min(lows) >= head - 600 // 2, ranges
            assert ("-", "+") not in ranges and ("1-0", f"{head}-0") not in ranges
    finally:
        del store.r.xrange
