"""Live streams in one process share their reads and their views (issue 36;
``service.feed``), on a real Redis: every watcher gets every event once, in
order, as its own view shows it, the same bytes as the other watchers of that
view, and never another seat's; an append costs the process one read of the
log, not one per watcher; and a frame worked out at one head is never served
at another (an undone move, a finished match)."""

from __future__ import annotations

import threading
import time

from service import feed as F
from service.feed import feed_of
from service.watch import watcher_for
from tests.conftest import client_with_token
from tests.test_stream import parse


def new_match(client, **body) -> str:
    r = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"], **body})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def play(client, match: str, seat: int, card: str) -> int:
    r = client.post(f"/api/matches/{match}/events", json={"type": "play", "seat": seat, "data": {"card": card}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["seq"]


class Streams:
    """Watchers of one match, each a thread reading its whole stream (``wait`` seconds)."""

    def __init__(self, app, token, match: str, queries: list[str], last: int, wait: int) -> None:
        self.bodies: list[bytes | None] = [None] * len(queries)

        def read(i: int, query: str) -> None:
            watcher = client_with_token(app, token)
            r = watcher.get(f"/api/matches/{match}/stream?wait={wait}{query}", headers={"Last-Event-ID": str(last)})
            assert r.status_code == 200
            self.bodies[i] = r.get_data()

        self.threads = [threading.Thread(target=read, args=(i, q)) for i, q in enumerate(queries)]
        for t in self.threads:
            t.start()

    def join(self) -> list[bytes]:
        for t in self.threads:
            t.join(30)
        assert all(b is not None for b in self.bodies)
        return self.bodies


def wait_for(predicate, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_each_watcher_gets_every_event_once_as_its_seat_sees_it_and_the_process_reads_each_once(
        app, client, store, make_user):
    svc = app.extensions["kroniek"]
    match = new_match(client)
    _, token = make_user("watcher")
    client.post(f"/api/matches/{match}/roles", json={"user": client.user_name, "role": "referee"})
    head = svc.current(match).seq
    per_seat = 8
    queries = ["&seat=0"] * per_seat + ["&seat=1"] * per_seat
    # the recorder's token sees every seat
    streams = Streams(app, client.environ_base["HTTP_AUTHORIZATION"].split()[-1], match, queries, head, 4)
    wait_for(lambda: (feed := feed_of(svc, match)) is not None and feed.watchers == len(queries)
             and watcher_for(store.r).watched() == 1)
    time.sleep(0.3)  # every stream past its first read, waiting
    feed = feed_of(svc, match)
    assert watcher_for(store.r).watched() == 1  # the feed waits on the log's reader, not each watcher
    reads, views = feed.reads, feed.views
    sent: list[str] = []
    send = store.r.execute_command

    def counting(*args, **kwargs):
        if args and args[0] in ("XRANGE", "XREVRANGE"):
            sent.append(args[0])
        return send(*args, **kwargs)

    store.r.execute_command = counting
    try:
        seqs = []
        for seat, card in ((0, "general"), (1, "musician"), (0, "wizard")):  # the last one lies face down
            seqs.append(play(client, match, seat, card))
            time.sleep(0.6)
    finally:
        del store.r.execute_command
    bodies = streams.join()
    # every watcher: every event once, in order
    for body in bodies:
        events, ids, _ = parse(body.decode())
        assert ids == seqs and [e["seq"] for e in events] == seqs
    # the watchers of one view got the same bytes; the two views differ where a card lies face down
    assert len(set(bodies[:per_seat])) == 1 and len(set(bodies[per_seat:])) == 1
    ann, _, _ = parse(bodies[0].decode())
    bob, _, _ = parse(bodies[-1].decode())
    assert ann[0]["data"] == {"card": "general"} and bob[0]["redacted"] and "general" not in bodies[-1].decode()
    assert bob[2]["redacted"] and "wizard" not in bodies[-1].decode() and ann[2]["data"] == {"card": "wizard"}
    # one read of the log a process per append, not one per watcher: 16 watchers, 3 appends
    assert feed.reads - reads == len(seqs), feed.reads - reads
    assert len(sent) <= 2 * len(seqs), sent  # the head and the new events
    assert feed.views - views == 2 * len(seqs)  # each view's frames once per append, not once per watcher


def test_an_undone_move_reaches_a_later_watcher_hidden_not_as_first_sent(app, client, anon, monkeypatch):
    """The public saw Bob's Spy face up when the round was played; once it is undone it is hidden again
    for a watcher that reads it afterwards, even though the process, which still streams to the first
    watcher, sent it face up a moment before (one event a chunk, so the later watcher asks for exactly
    the frames the first one got)."""
    monkeypatch.setattr(F, "CHUNK_EVENTS", 1)
    svc = app.extensions["kroniek"]
    match = new_match(client)
    play(client, match, 0, "general")
    head = svc.current(match).seq
    streams = Streams(app, None, match, [""], head, 4)
    wait_for(lambda: (feed := feed_of(svc, match)) is not None and feed.watchers == 1)
    time.sleep(0.3)
    spy = play(client, match, 1, "spy")  # the round is played: both cards face up
    time.sleep(0.5)
    r = client.post(f"/api/matches/{match}/events", json={"type": "undo"})
    assert r.status_code == 201
    time.sleep(0.5)
    assert feed_of(svc, match) is not None  # the first watcher still watches
    later = anon.get(f"/api/matches/{match}/stream?wait=0", headers={"Last-Event-ID": str(head)}).get_data()
    (live,) = streams.join()
    events, ids, _ = parse(live.decode())
    assert ids == [spy, spy + 1] and events[0]["data"] == {"card": "spy"}  # as it was when it was played
    events, ids, _ = parse(later.decode())
    log = anon.get(f"/api/matches/{match}/events?from={head + 1}").get_json()["events"]
    assert ids == [spy, spy + 1] and events == log
    assert events[0]["redacted"] and events[0]["data"] == {"hidden": True} and "spy" not in later.decode().lower()


def test_the_end_of_a_match_shows_a_later_watcher_what_was_hidden_while_it_ran(app, client, anon, monkeypatch):
    """A simulated match's seed is hidden from the public until it ends; a stream read after the end
    shows it, whatever frames of the setup the process made for a watcher still watching."""
    monkeypatch.setattr(F, "CHUNK_EVENTS", 1)
    svc = app.extensions["kroniek"]
    match = new_match(client, mode="simulated", seed=7)
    streams = Streams(app, None, match, [""], 0, 3)
    wait_for(lambda: (feed := feed_of(svc, match)) is not None and feed.watchers == 1)
    time.sleep(0.3)
    r = client.post(f"/api/matches/{match}/events", json={"type": "round", "data": {"cards": ["prince", "princess"]}})
    assert r.status_code == 201 and r.get_json()["status"] == "finished"
    time.sleep(0.5)
    later, _, _ = parse(anon.get(f"/api/matches/{match}/stream?wait=0").get_data().decode())
    (live,) = streams.join()
    events, _, _ = parse(live.decode())
    assert events[0]["data"]["seed"] == "hidden" and events[0]["redacted"]
    assert later[0]["data"]["seed"] == 7 and "redacted" not in later[0]
    assert later == anon.get(f"/api/matches/{match}/events").get_json()["events"]


def test_a_feed_is_let_go_when_its_last_watcher_leaves(app, client, anon):
    svc = app.extensions["kroniek"]
    match = new_match(client)
    assert anon.get(f"/api/matches/{match}/stream?wait=0").status_code == 200
    assert feed_of(svc, match) is None


def test_moves_another_process_appended_are_read_once_for_every_watcher(app, client, store, redis_url):
    """Appends made by another process: this one reads each new event once (its cached match's refresh
    reads them, and the feed takes them from there), whatever the number of watchers."""
    import redis

    from replays import EventStore
    from service.matches import MatchService

    svc = app.extensions["kroniek"]
    match = new_match(client)
    other_client = redis.Redis.from_url(redis_url, decode_responses=True)
    other = MatchService(EventStore(other_client, store.prefix))
    head = svc.current(match).seq
    token = client.environ_base["HTTP_AUTHORIZATION"].split()[-1]
    streams = Streams(app, token, match, ["", "&seat=0", "&seat=1"] * 3, head, 3)
    wait_for(lambda: (feed := feed_of(svc, match)) is not None and feed.watchers == 9)
    time.sleep(0.3)
    ranges: list[str] = []
    send = store.r.execute_command

    def counting(*args, **kwargs):
        if args and args[0] == "XRANGE" and args[1] == store.key(match, "log"):
            ranges.append(f"{args[2]}..{args[3]}")
        return send(*args, **kwargs)

    store.r.execute_command = counting
    try:
        seqs = []
        for seat, card in ((0, "general"), (1, "musician")):
            seqs.append(other.append(match, "play", seat, {"card": card})["seq"])
            time.sleep(0.6)
    finally:
        del store.r.execute_command
        other_client.close()
    for body in streams.join():
        assert parse(body.decode())[1] == seqs
    assert ranges == [f"{s}-0..{s}-0" for s in seqs], ranges  # each new event read once, by the refresh
