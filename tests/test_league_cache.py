"""The league each process holds (``service.leagues``), against a real Redis:
a write is computed against the held league and appended only onto the head
it holds, a read brings the league to the stored head first, and neither
reads the whole log unless the log no longer holds that head. Two services
on one store stand for two processes (each holds its own leagues)."""

from __future__ import annotations

import pytest

from engine.core import RuleViolation
from leagues import league as L
from replays import EventStore
from service.errors import CorruptLog
from service.leagues import LeagueService
from service.matches import MatchService
from tests.support.tamper import forge_entry


@pytest.fixture
def leagues_store(store):
    return EventStore(store.r, store.prefix, kind="l")


@pytest.fixture
def two(store, leagues_store):
    """Two processes' league services over one Redis."""
    return LeagueService(leagues_store, MatchService(store)), LeagueService(leagues_store, MatchService(store))


def replayed(service, lid):
    return L.replay(service.events(lid))


def test_a_write_after_another_process_appended_sees_what_it_wrote(two):
    a, b = two
    lid = a.create("L", "braverats", "swiss", 3, {}, ["Ann"])["id"]
    b.register(lid, "Bob")  # a still holds the league with Ann alone
    with pytest.raises(RuleViolation, match="registered already"):
        a.register(lid, "bob")  # checked against the stored league, where Bob is
    written = a.register(lid, "Cas")
    assert written["seq"] == 4 and written["league"]["players"] == ["Ann", "Bob", "Cas"]
    assert a.state(lid) == b.state(lid) == replayed(a, lid)
    # refused against the held league (Dirk is not registered there), written once it is read again
    b.register(lid, "Dirk")
    assert a.withdraw(lid, "Dirk")["league"]["withdrawn"] == ["Dirk"]
    assert b.get(lid)["withdrawn"] == ["Dirk"] and b.get(lid)["seq"] == 6


def test_a_read_never_serves_a_head_older_than_the_stored_one(two):
    a, b = two
    lid = a.create("L", "braverats", "round_robin", None, {}, ["Ann", "Bob", "Cas", "Dirk"])["id"]
    assert a.get(lid)["seq"] == 5
    b.pair_next_round(lid)
    b.forfeit(lid, 1, 1, [b.state(lid).rounds[0].boards[0].players[1]], "ill")
    got = a.get(lid)
    assert got["seq"] == 7 and len(got["rounds"]) == 1 and got["rounds"][0]["boards"][0]["outcome"] is not None
    assert [s["points"] for s in a.standings(lid)] == [s["points"] for s in b.standings(lid)]
    assert sum(s["points"] for s in a.standings(lid)) == 1
    assert a.state(lid) == replayed(b, lid)


def test_writes_read_only_the_events_after_the_held_head(two, leagues_store, monkeypatch):
    a, b = two
    lid = a.create("L", "braverats", "swiss", 3, {}, [])["id"]
    b.state(lid)  # the other process holds the league too
    reads: list[tuple[int, int | None]] = []
    real = leagues_store.events

    def events(stream_id, start=1, end=None):
        reads.append((start, end))
        return real(stream_id, start, end)

    monkeypatch.setattr(leagues_store, "events", events)
    for i in range(40):
        a.register(lid, f"P{i}")
    assert reads == [], "a write onto the head the process holds reads no event"
    b.register(lid, "Other")  # reads the 40 registrations after the setup it holds
    assert reads == [(1, None)]
    a.register(lid, "Last")  # refused onto the old head, then read from there and written again
    assert reads == [(1, None), (41, None)]
    assert a.get(lid)["players"][-2:] == ["Other", "Last"] and reads[-1] == (43, None)


def test_a_log_rewritten_behind_the_process_is_read_again(two, leagues_store):
    """A forger who re-hashes the stream from an event on (or a Redis restored
    to other events at the same seqs): the held head is no longer the
    stored one, so the league is replayed from the log as it is now."""
    a, b = two
    lid = a.create("L", "braverats", "swiss", 3, {}, ["Ann", "Bob", "Cas"])["id"]
    assert "Cas" in a.state(lid).players
    forge_entry(leagues_store, lid, 4, data={"player": "Zed"})
    assert a.get(lid)["players"] == ["Ann", "Bob", "Zed"] and a.state(lid) == replayed(b, lid)
    assert a.register(lid, "Cas")["seq"] == 5


def test_a_log_that_went_back_is_read_again_and_refuses_writes(two, leagues_store, store):
    a, b = two
    lid = a.create("L", "braverats", "swiss", 3, {}, ["Ann", "Bob", "Cas"])["id"]
    assert a.get(lid)["seq"] == 4
    key = leagues_store.key(lid, "log")
    store.r.xdel(key, "4-0")  # the last registration lost
    assert a.get(lid)["players"] == ["Ann", "Bob"] and a.get(lid)["seq"] == 3
    with pytest.raises(CorruptLog):  # Redis remembers it held seq 4: nothing is written past the hole
        a.register(lid, "Dirk")
    assert len(a.events(lid)) == 3


def test_the_league_after_a_log_a_caller_read_is_the_held_one_brought_up_to_it(two, monkeypatch):
    """``replayed(events)`` (the proof endpoint reads the log itself): a
    process behind those events reads the ones it lacks rather than
    replaying the whole log; events the log has moved on from are replayed."""
    a, b = two
    lid = a.create("L", "braverats", "swiss", 3, {}, ["Ann", "Bob", "Cas"])["id"]
    b.register(lid, "Dirk")
    events = b.events(lid)
    expected = L.replay(events)
    replays = []
    real = L.replay
    monkeypatch.setattr(L, "replay", lambda evs: replays.append(len(evs)) or real(evs))
    assert a.replayed(lid, events) == expected and replays == []
    b.register(lid, "Eva")
    assert a.replayed(lid, events) == expected and replays == []  # a holds the league at them still
    assert a.get(lid)["seq"] == 6
    assert a.replayed(lid, events) == expected and replays == [5]  # behind the head a holds: replayed
