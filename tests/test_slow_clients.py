"""``kroniek serve`` against clients that send slowly or not at all: real
gunicorn processes on a real Redis. Stalled uploads hold no thread and
delay no other request; their sockets get a 408 and are closed within the
body deadline (``KRONIEK_BODY_SECONDS``), and a client that never ends its
headers is dropped after gunicorn's keep-alive deadline."""

import socket
import threading
import time
import uuid

import pytest
import requests

from bench.http_appends import Server, connections_per_worker, wait_serving, worker_pids
from service.accounts import Accounts
from replays.connection import OWN
from service.gunicorn_worker import LINGER_SECONDS, Spread
from workers.connection import POOL_SIZE
from tests.support.served import start_served, stop_served

BODY_SECONDS = 3
#: gunicorn worker processes ``kroniek serve`` runs by default
WORKERS = 2


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def served(redis_url, tmp_path_factory):
    prefix = f"kt-slow-{uuid.uuid4().hex[:10]}"
    var = tmp_path_factory.mktemp("slow-var")
    port = free_port()
    proc, base, log, client = start_served(redis_url, var, prefix, port, {"KRONIEK_BODY_SECONDS": str(BODY_SECONDS)})
    try:
        _, token = Accounts(client, prefix).add_user(f"rec-{uuid.uuid4().hex[:6]}")
        yield {"base": base, "port": port, "token": token, "log": log, "prefix": prefix, "client": client}
    finally:
        stop_served(proc, log, client, prefix)


def stalled_upload(port: int, path: str, token: str) -> socket.socket:
    """Headers that promise 5000 bytes of body, then 20 of them, then nothing."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall((f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               f"Authorization: Bearer {token}\r\nContent-Length: 5000\r\n\r\n").encode() + b'{"type": "round", "da')
    return s


def read_to_close(s: socket.socket) -> bytes:
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


@pytest.mark.slow(8)
def test_stalled_uploads_delay_nothing_and_are_closed(served):
    base, auth = served["base"], {"Authorization": f"Bearer {served['token']}"}
    match = requests.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]},
                          headers=auth, timeout=10)
    assert match.status_code == 201, match.text
    path = f"/api/matches/{match.json()['id']}/events"
    t0 = time.monotonic()
    stalled = [stalled_upload(served["port"], path, served["token"]) for _ in range(64)]
    # One more that keeps sending, a byte every half second: the deadline is on the whole body.
    trickle = stalled_upload(served["port"], path, served["token"])
    trickled: list[float] = []

    def drip():
        try:
            while True:
                time.sleep(0.5)
                trickle.sendall(b" ")
                trickled.append(time.monotonic() - t0)
        except OSError:  # closed by the server
            pass

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    # A client that never finishes its headers.
    headless = socket.create_connection(("127.0.0.1", served["port"]), timeout=30)
    headless.sendall(b"GET /api HTTP/1.1\r\nHost: x\r\n")
    # Meanwhile others are served at once: reads, and a whole write.
    slowest = 0.0
    seq = 0
    while time.monotonic() - t0 < BODY_SECONDS - 0.5:
        for method, url, body in (("GET", f"{base}/api/health", None),
                                  ("POST", f"{base}{path}", {"type": "round", "data": {"cards": ["spy", "prince"]}}),
                                  ("POST", f"{base}{path}", {"type": "undo", "data": {}})):
            start = time.monotonic()
            answer = requests.request(method, url, json=body, headers=auth, timeout=10)
            slowest = max(slowest, time.monotonic() - start)
            assert answer.status_code in (200, 201), answer.text
            if method == "POST":
                seq = answer.json().get("seq", seq) or seq
    assert slowest < 2.0, f"a request waited {slowest:.2f} s behind the stalled uploads"
    # Every stalled upload gets its 408 and is closed within the deadline.
    for s in stalled:
        answer = read_to_close(s)
        s.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert b'"code": "request_timeout"' in answer and f"within {BODY_SECONDS} s".encode() in answer, answer
    answer = read_to_close(trickle)
    closed_after = time.monotonic() - t0  # the server's end of each is shut: an answer, then end of file
    assert answer.startswith(b"HTTP/1.1 408 ") and len(trickled) >= 3, (answer[:200], trickled)
    # It still reads (and drops) what a client sends for a moment (a lingering close), then closes for good.
    dripper.join(timeout=LINGER_SECONDS + 3)
    assert not dripper.is_alive(), "the server never closed the trickling upload's socket"
    trickle.close()
    assert closed_after < BODY_SECONDS + 1.5, f"the stalled sockets were closed after {closed_after:.1f} s"
    assert read_to_close(headless) == b""  # dropped after gunicorn's keep-alive deadline (2 s)
    headless.close()
    # None of the stalled bodies was appended: the match holds the writes made above only.
    events = requests.get(f"{base}/api/matches/{match.json()['id']}/events", headers=auth, timeout=10)
    assert events.status_code == 200
    assert all(e["type"] in ("setup", "round", "undo") for e in events.json()["events"]), events.text


def test_a_slow_but_steady_upload_is_served(served):
    """A body that trickles in, complete within the deadline, is appended as usual."""
    base, auth = served["base"], {"Authorization": f"Bearer {served['token']}"}
    match = requests.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]},
                          headers=auth, timeout=10).json()
    body = b'{"type": "round", "data": {"cards": ["spy", "prince"]}}'
    s = socket.create_connection(("127.0.0.1", served["port"]), timeout=30)
    s.sendall((f"POST /api/matches/{match['id']}/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               f"Authorization: Bearer {served['token']}\r\nConnection: close\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode())
    for i in range(0, len(body), 10):
        s.sendall(body[i:i + 10])
        time.sleep(0.1)
    answer = read_to_close(s)
    s.close()
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]


def _our_connections(served) -> int:
    """Redis connections the served processes hold now (each names itself ``kroniek.<prefix>``)."""
    name = "kroniek." + served["prefix"]
    return sum(1 for c in served["client"].client_list() if c.get("name") == name)


def open_stream(port: int, match_id: str, token: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall((f"GET /api/matches/{match_id}/stream?wait=20 HTTP/1.1\r\nHost: x\r\n"
               f"Authorization: Bearer {token}\r\n\r\n").encode())
    return s


def read_until(s: socket.socket, marker: bytes, seconds: float) -> bytes:
    got = b""
    s.settimeout(seconds)
    deadline = time.monotonic() + seconds
    while marker not in got and time.monotonic() < deadline:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


@pytest.mark.slow(10)
def test_watchers_and_busy_clients_share_a_few_redis_connections(served):
    """200 open live streams and 100 clients recording a move every half
    second hold at most a few dozen Redis connections between them: a stream
    waits on the process's one reader (service.watch), and a move borrows a
    connection for its round trip only (replays.connection). Kept one per
    stream and one per client, they took over 300, and a Redis that allows
    fewer refused everyone. Each stream still gets the next event at once."""
    base, port, token = served["base"], served["port"], served["token"]
    auth = {"Authorization": f"Bearer {token}"}
    matches = [requests.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]},
                             headers=auth, timeout=10).json()["id"] for _ in range(100)]
    streams = [(m, open_stream(port, m, token)) for m in matches[:20] for _ in range(10)]
    for _, s in streams:
        assert b"retry:" in read_until(s, b"retry:", 10)
    stop = time.monotonic() + 4
    failures: list[str] = []

    def record(match_id: str) -> None:
        session = requests.Session()  # one keep-alive connection
        bodies = ({"type": "round", "data": {"cards": ["spy", "prince"]}}, {"type": "undo", "data": {}})
        n = 0
        while time.monotonic() < stop or n % 2:  # ends on an undo: the round after it is legal
            answer = session.post(f"{base}/api/matches/{match_id}/events", json=bodies[n % 2], headers=auth,
                                  timeout=10)
            if answer.status_code != 201:
                failures.append(answer.text)
                return
            n += 1
            time.sleep(0.5)
        session.close()

    recorders = [threading.Thread(target=record, args=(m,)) for m in matches]
    for t in recorders:
        t.start()
    most = 0
    while any(t.is_alive() for t in recorders):
        most = max(most, _our_connections(served))
        time.sleep(0.05)
    for t in recorders:
        t.join()
    assert not failures, failures[0]
    # per gunicorn worker: the store's pool and the moves' own connections, and a few of RQ's client
    bound = WORKERS * (POOL_SIZE + OWN + 4)
    assert most <= bound, f"{most} Redis connections for 200 streams and 100 recorders (at most {bound})"
    # Every stream gets the next event of its match.
    seqs = {}
    for m in matches[:20]:
        answer = requests.post(f"{base}/api/matches/{m}/events",
                               json={"type": "round", "data": {"cards": ["spy", "prince"]}}, headers=auth, timeout=10)
        assert answer.status_code == 201, answer.text
        seqs[m] = answer.json()["seq"]
    for m, s in streams:
        got = read_until(s, f"id: {seqs[m]}\n".encode(), 3)
        s.close()
        assert f"id: {seqs[m]}\n".encode() in got, got[-300:]


# -- connections spread over the worker processes --------------------------------------
def test_the_connection_table_says_which_worker_is_busier():
    """``Spread``: a worker leaves a new connection to another only while it
    holds more than that one; free slots (no worker, or one still loading
    the app) count for nothing."""
    table = Spread(slots=4)
    assert table.free_slot(set()) == 0 and table.free_slot({0, 1}) == 2 and table.free_slot({0, 1, 2, 3}) is None
    table.claim(0)
    assert not table.busier_than_another(0)  # alone
    table.add(0, 3)
    assert not table.busier_than_another(0)  # slot 1 is free: no worker there to leave it to
    table.claim(1)
    table.add(1, 2)
    assert table.busier_than_another(0) and not table.busier_than_another(1)
    table.add(1, 1)
    assert not table.busier_than_another(0) and not table.busier_than_another(1)  # a tie: either takes it
    assert (table.connections(0), table.connections(1)) == (3, 3)
    table.release(1)  # its worker exited
    assert not table.busier_than_another(0) and table.connections(1) == 0


def _keep_alive(port: int) -> socket.socket:
    """A connection that made one request and stays open."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"GET /api HTTP/1.1\r\nHost: x\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(65536)
    assert head.startswith(b"HTTP/1.1 200 "), head[:200]
    return s


@pytest.mark.slow(8)
def test_keep_alive_connections_are_spread_evenly_over_the_workers(redis_url, tmp_path):
    """8 keep-alive connections, opened one after the other, land 4 and 4 on
    the 2 worker processes (left to chance they landed 2/6 or worse a quarter
    of the time, and the process with 6 queued them all on one core)."""
    prefix = f"kt-spread-{uuid.uuid4().hex[:10]}"
    port = free_port()
    # A generous wait, so that a busy test machine cannot make the less busy worker miss its turn.
    proc, base, log, client = start_served(redis_url, tmp_path, prefix, port, {"KRONIEK_SPREAD_SECONDS": "5"})
    opened: list[socket.socket] = []
    try:
        host = Server(f"127.0.0.1:{port}")
        host.pid = proc.pid
        wait_serving(host, WORKERS)  # the worker that answered first may be alone for a while
        time.sleep(0.5)  # the connections that found out are closed and counted out
        for _ in range(8):
            opened.append(_keep_alive(port))
        held = connections_per_worker(port, worker_pids(proc.pid))
        assert sorted(held.values()) == [4, 4], held
    finally:
        for s in opened:
            s.close()
        stop_served(proc, log, client, prefix)
