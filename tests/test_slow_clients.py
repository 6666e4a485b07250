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

from service.accounts import Accounts
from service.gunicorn_worker import LINGER_SECONDS
from tests.support.served import start_served, stop_served

BODY_SECONDS = 3


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
        yield {"base": base, "port": port, "token": token, "log": log}
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
