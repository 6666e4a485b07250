"""GET /api/matches/<id>/stream: the log as server-sent events, filtered for
the viewer exactly as GET /events filters it, resumable with Last-Event-ID,
and bounded (it ends after `wait` seconds with a retry hint)."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.conftest import client_with_token


def parse(body: str) -> tuple[list[dict], list[int], int | None]:
    """The events, their ids, and the retry hint of an SSE body."""
    events, ids, retry = [], [], None
    for block in body.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            fields[key] = value.strip()
        if "retry" in fields:
            retry = int(fields["retry"])
        if fields.get("event") == "event":
            events.append(json.loads(fields["data"]))
            ids.append(int(fields["id"]))
    return events, ids, retry


def braverats(client) -> str:
    match = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()
    for card in ("musician", "princess"):  # seq 2-5: two rounds on hold
        for seat in (0, 1):
            r = client.post(f"/api/matches/{match['id']}/events", json={"type": "play", "seat": seat, "data": {"card": card}})
            assert r.status_code == 201, r.get_json()
    return match["id"]


def test_the_stream_is_the_log_as_each_viewer_sees_it(client, anon):
    match = braverats(client)
    client.post(f"/api/matches/{match}/events", json={"type": "play", "seat": 0, "data": {"card": "general"}})
    for who, seat in ((client, "referee"), (client, "1"), (client, "0"), (anon, None)):
        query = f"?wait=0&seat={seat}" if seat else "?wait=0"
        r = who.get(f"/api/matches/{match}/stream{query}")
        assert r.status_code == 200 and r.mimetype == "text/event-stream"
        events, ids, retry = parse(r.get_data(as_text=True))
        log = who.get(f"/api/matches/{match}/events" + (f"?seat={seat}" if seat else "")).get_json()["events"]
        assert events == log and ids == [e["seq"] for e in log] and retry == 1000
    # the face-down General (seq 6) is hidden from the public and from Bob, not from Ann
    public, _, _ = parse(anon.get(f"/api/matches/{match}/stream?wait=0").get_data(as_text=True))
    assert public[-1]["redacted"] is True and "general" not in json.dumps(public[-1])
    ann, _, _ = parse(client.get(f"/api/matches/{match}/stream?wait=0&seat=0").get_data(as_text=True))
    assert ann[-1]["data"] == {"card": "general"}


def test_last_event_id_resumes_after_it(client):
    match = braverats(client)
    r = client.get(f"/api/matches/{match}/stream?wait=0", headers={"Last-Event-ID": "3"})
    _, ids, _ = parse(r.get_data(as_text=True))
    assert ids == [4, 5]
    r = client.get(f"/api/matches/{match}/stream?wait=0&from=2")
    assert parse(r.get_data(as_text=True))[1][0] == 2
    for bad in ("x1", "", "-1", "1" * 16):
        assert client.get(f"/api/matches/{match}/stream?wait=0", headers={"Last-Event-ID": bad}).status_code == 400


def test_an_append_reaches_an_open_stream_and_the_stream_ends_on_time(app, client, make_user):
    match = braverats(client)
    last = client.get(f"/api/matches/{match}").get_json()["seq"]
    watcher = client_with_token(app, None)

    def append_later():
        time.sleep(0.5)
        client.post(f"/api/matches/{match}/events", json={"type": "play", "seat": 0, "data": {"card": "spy"}})

    thread = threading.Thread(target=append_later)
    start = time.monotonic()
    thread.start()
    r = watcher.get(f"/api/matches/{match}/stream?wait=2", headers={"Last-Event-ID": str(last)})
    body = r.get_data(as_text=True)
    took = time.monotonic() - start
    thread.join()
    events, ids, _ = parse(body)
    assert ids == [last + 1] and events[0]["type"] == "play"
    assert 1.5 <= took < 10, took  # held open for `wait`, then ended


def test_the_server_caps_how_long_a_stream_stays_open(client, monkeypatch):
    match = braverats(client)
    monkeypatch.setenv("KRONIEK_STREAM_SECONDS", "0")
    start = time.monotonic()
    r = client.get(f"/api/matches/{match}/stream?wait=300")
    assert r.status_code == 200 and parse(r.get_data(as_text=True))[1][-1] == 5
    assert time.monotonic() - start < 3


@pytest.mark.parametrize("signed_in, query, status", [(True, "?seat=5", 400), (False, "?seat=referee", 401),
                                                      (False, "?seat=1", 401), (False, "?wait=301", 400)])
def test_a_bad_or_unauthorised_stream_is_refused_before_it_starts(client, anon, signed_in, query, status):
    match = braverats(client)
    r = (client if signed_in else anon).get(f"/api/matches/{match}/stream{query}")
    assert r.status_code == status and r.get_json()["error"]["code"]
    assert anon.get("/api/matches/nope/stream").status_code == 404


@pytest.mark.parametrize("socket_timeout", [0.6, None])
def test_a_quiet_stream_outlives_the_redis_clients_socket_timeout(redis_url, prefix, validations, signing_key,
                                                                 socket_timeout):
    """A watcher waits longer than one socket timeout with nothing appended:
    each XREAD blocks for less than the client's socket timeout, so the stream
    ends on time with its retry hint instead of a Redis TimeoutError that cuts
    the response off (redis-py 8 gives connections a 5 s timeout by default)."""
    import redis as redis_py

    from replays import EventStore
    from service.app import create_app
    from service.stream_api import longest_block_ms

    kwargs = {} if socket_timeout is None else {"socket_timeout": socket_timeout}
    client = redis_py.Redis.from_url(redis_url, decode_responses=True, **kwargs)
    if socket_timeout is not None:
        assert longest_block_ms(client) <= socket_timeout * 1000 / 2
    app = create_app(store=EventStore(client, prefix), enqueue_validation=validations.append,
                     enqueue_ratings=lambda game: None, signing_key=signing_key)
    from service.accounts import Accounts

    _, token = Accounts(client, prefix).add_user(f"recorder-{prefix}", False)
    match = braverats(client_with_token(app, token))
    wait = 2 if socket_timeout is not None else 6
    start = time.monotonic()
    r = client_with_token(app, None).get(f"/api/matches/{match}/stream?wait={wait}")
    body = r.get_data(as_text=True)
    took = time.monotonic() - start
    assert r.status_code == 200
    events, ids, retry = parse(body)
    assert ids == [1, 2, 3, 4, 5] and retry is not None
    assert wait - 0.5 <= took < wait + 5, took
    client.close()
