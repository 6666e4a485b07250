"""The undone seqs a match keeps as it goes (``MatchState.marks``): after
every event they are what ``undone_seqs`` works out from the whole log, for
any range asked, through snapshots (``encode(marks=True)``) and in simulated
matches, where an undo takes back the server's draws too."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import match as M
from tests.support.toy import ensure_registered

ensure_registered()


def seal(seq, type_, seat, data):
    return {"seq": seq, "type": type_, "seat": seat, "data": data}


def grow(ms, log, choice):
    """One more event: an undo when ``choice`` says so and one can be made, else the move (and, in a
    simulated match, the draws) due now."""
    if choice == 0 and ms.depth > 0:
        ms = M.apply_event(ms, ms.seq + 1, "undo", None, {})
        log.append(seal(ms.seq, "undo", None, {}))
        return ms
    if ms.result is not None:
        return ms
    actors = ms.game.actors(ms.state)
    if M.CHANCE in actors:
        type_, seat, data = "roll", None, {"value": choice % 6 + 1}
    else:
        type_, seat, data = "add", actors[0], {"n": choice % 3 + 1}
    ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
    log.append(seal(ms.seq, type_, seat, data))
    for type_, seat, data in M.chance_events(ms, ms.seq + 1):
        ms = M.apply_event(ms, ms.seq + 1, type_, seat, data)
        log.append(seal(ms.seq, type_, seat, data))
    return ms


@settings(max_examples=150, deadline=None)
@given(simulated=st.booleans(), choices=st.lists(st.integers(0, 5), min_size=1, max_size=120),
       snapshot_at=st.integers(0, 119), ranges=st.lists(st.tuples(st.integers(1, 130), st.integers(0, 20)),
                                                         min_size=1, max_size=5))
def test_the_marks_are_the_undone_seqs_of_the_whole_log_for_any_range(simulated, choices, snapshot_at, ranges):
    setup = M.make_setup("toy", ["Ann", "Bob"], {"target": 100}, "simulated" if simulated else "physical",
                         7 if simulated else None)
    ms = M.start(setup)
    log = [seal(1, "setup", None, setup)]
    for i, choice in enumerate(choices):
        ms = grow(ms, log, choice)
        if i == snapshot_at:  # the service's snapshot, as Redis keeps it, and the match goes on from there
            ms = M.decode(setup, json.loads(json.dumps(M.encode(ms, marks=True))))
        whole = M.undone_seqs(log)
        assert M.undone_between(ms, 1, ms.seq) == whole
        for lo, width in ranges:
            assert M.undone_between(ms, lo, lo + width) == {s for s in whole if lo <= s <= lo + width}


def test_a_snapshot_without_marks_knows_it_and_takes_them_from_the_log():
    setup = M.make_setup("toy", ["Ann", "Bob"], {"target": 100})
    ms, log = M.start(setup), [seal(1, "setup", None, setup)]
    for choice in (1, 0, 2, 3, 0, 1):
        ms = grow(ms, log, choice)
    old = M.decode(setup, M.encode(ms))  # as a snapshot from before the marks, or a page's
    assert M.marks_unknown(old)
    with pytest.raises(ValueError):
        M.undone_between(old, 1, old.seq)
    assert M.undone_between(old, old.seq, old.seq) == frozenset()  # nothing before it is asked
    fixed = M.with_marks(old, M.undone_seqs(log))
    assert not M.marks_unknown(fixed) and M.undone_between(fixed, 1, fixed.seq) == M.undone_seqs(log)
    assert M.encode(fixed) == M.encode(ms)


def test_an_undo_costs_no_copy_of_the_marks():
    """Each undo adds one link to the marks it was given: a log of 20,000 round-and-undo pairs keeps
    them without copying 10,000 seqs at each undo, and a range near the head walks a few links."""
    setup = M.make_setup("toy", ["Ann", "Bob"], {"target": 10**9})
    ms = M.start(setup)
    for _ in range(10_000):
        before = ms.marks
        ms = M.apply_event(ms, ms.seq + 1, "add", 0, {"n": 1})
        ms = M.apply_event(ms, ms.seq + 1, "undo", None, {})
        assert ms.marks.prev is before and ms.marks.seqs == (ms.seq - 1,)
    assert M.undone_between(ms, ms.seq - 3, ms.seq) == {ms.seq - 3, ms.seq - 1}
