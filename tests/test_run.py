"""`kroniek run` (what `make run` starts): embedded Redis, worker and API
together; stopping and starting again keeps every match."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_answering(url, proc, seconds=60.0) -> bool:
    """Poll ``url`` until it answers 200 (True); False once ``proc`` has
    ended or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if requests.get(url, timeout=5).status_code == 200:
                return True
        except requests.RequestException:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.2)


def start(var, port, *args, env=None, command=None):
    """``kroniek run`` on ``port`` with its data in ``var`` (``args``: more options; ``command``: another
    command line that starts it, such as the Makefile's), up to the line that says it is ready."""
    env = {**{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "KRONIEK_QUEUE", "KRONIEK_PREFIX")},
           **(env or {})}
    env["KRONIEK_PLUGINS"] = "tests.support.toy"
    proc = subprocess.Popen(
        command or [sys.executable, "-m", "service.cli", "run", "--port", str(port), "--var", str(var), *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,  # a process group of its own, as a shell gives it (see ctrl_c)
    )
    base = f"http://127.0.0.1:{port}"
    token = None
    proc.head = ""
    for line in proc.stdout:  # up to the line that says it is ready
        proc.head += line
        if line.startswith("Admin token"):
            token = line.rsplit(" ", 1)[1].strip()
        if line.startswith("Press Ctrl-C") or line.startswith("Accounts:"):
            break
    # Keep reading what it prints: a pipe nobody reads fills up (64 KB of
    # worker logs) and then blocks every process that writes to it.
    proc.lines = []
    proc.reader = threading.Thread(target=lambda: proc.lines.extend(proc.stdout), daemon=True)
    proc.reader.start()
    if wait_until_answering(f"{base}/api", proc):
        return proc, base, token
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # it stops its Redis, workers and API (kill would leave them)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.reader.join(timeout=10)
    pytest.fail(f"kroniek run did not come up:\n{proc.head}{''.join(proc.lines)}")


def _output(proc):
    proc.wait(timeout=60)
    proc.reader.join(timeout=10)
    return proc.head + "".join(proc.lines)


def ctrl_c(proc):
    """What Ctrl-C in a terminal does: SIGINT to the whole foreground process group."""
    os.killpg(proc.pid, signal.SIGINT)
    return _output(proc)


def stop(proc):
    proc.send_signal(signal.SIGINT)
    return _output(proc)


@pytest.mark.slow
def test_run_serves_validates_and_keeps_matches_across_a_restart(tmp_path):
    var = tmp_path / "var"
    port = free_port()
    proc, base, token = start(var, port)
    try:
        assert token, "the first start prints an admin token"
        auth = {"Authorization": f"Bearer {token}"}
        assert requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]}, timeout=5).status_code == 401
        m = requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]}, headers=auth, timeout=5).json()
        r = requests.post(f"{base}/api/matches/{m['id']}/events", json={"type": "add", "seat": 0, "data": {"n": 2}},
                          headers=auth, timeout=5)
        assert r.status_code == 201
        assert r.json()["seq"] == 2 and requests.get(f"{base}/api/me", headers=auth, timeout=5).json()["admin"] is True
        deadline = time.monotonic() + 30
        while requests.get(f"{base}/api/matches/{m['id']}", timeout=5).json()["validation"] != "valid":
            assert time.monotonic() < deadline, "the worker never validated the match"
            time.sleep(0.2)
        assert requests.get(f"{base}/api/docs", timeout=5).status_code == 200
        # ... and the first admin's sign-in link with its QR code as text: one tap on a phone signs it in
        link = re.search(rf"^  ({re.escape(base)}/signin#kl_[\w-]+)$", proc.head, re.M).group(1)
        assert proc.head.count("█") > 100, proc.head
        phone = requests.Session()
        page, secret = link.split("#", 1)  # what a browser asks for: the page, without the fragment
        assert phone.get(page, timeout=5).status_code == 200
        asked = phone.post(f"{base}/signin/peek", json={"secret": secret}, headers={"Origin": base}, timeout=5)
        assert asked.json() == {"user": "admin"}
        tapped = phone.post(f"{base}/signin", data={"secret": secret}, headers={"Origin": base}, timeout=5)
        assert tapped.status_code == 200  # followed to the home page
        assert phone.get(f"{base}/api/me", timeout=5).json()["name"] == "admin"
    finally:
        out = stop(proc)
    assert "API docs: http://127.0.0.1" in out
    assert (var / "appendonlydir").exists() or (var / "appendonly.aof").exists()

    proc, base, second_token = start(var, port)
    try:
        assert second_token is None, "a restart makes no second admin"
        assert "kroniek user link admin" in proc.head and "/signin" not in proc.head
        assert requests.get(f"{base}/api/me", headers=auth, timeout=5).json()["name"] == "admin"
        again = requests.get(f"{base}/api/matches/{m['id']}", timeout=5).json()
        assert again["seq"] == 2 and again["validation"] == "valid"
        assert requests.get(f"{base}/api/matches/{m['id']}/audit", timeout=5).json()["valid"] is True
    finally:
        stop(proc)


# docs/examples/swiss-league.sh against a real `kroniek run`, its output and files checked: run 8 times, four at a
# time, by tests/test_worker_faults.py::test_the_swiss_league_example_completes_every_time_four_leagues_at_a_time


@pytest.mark.slow(8)
def test_a_stop_ends_an_open_live_stream_cleanly(tmp_path):
    """A watcher's live stream ends, whole, when the server is told to stop:
    the worker does not wait out the stream's ``wait`` until gunicorn's
    graceful timeout kills it mid-response (the client then saw a cut
    connection, and every stop with a page open took its 10 s)."""
    proc, base, token = start(tmp_path / "var", free_port())
    auth = {"Authorization": f"Bearer {token}"}
    outcome: dict = {}
    opened = threading.Event()
    try:
        m = requests.post(f"{base}/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]}, headers=auth,
                          timeout=5).json()

        def watch():
            try:
                with requests.get(f"{base}/api/matches/{m['id']}/stream?wait=60", headers=auth, stream=True,
                                  timeout=30) as r:
                    outcome["status"] = r.status_code
                    for line in r.iter_lines(decode_unicode=True):
                        opened.set()
                        outcome.setdefault("lines", []).append(line)
                outcome["ended"] = "whole"
            except requests.RequestException as exc:
                outcome["ended"] = f"cut: {exc!r}"

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        assert opened.wait(10), "the stream never opened"
    finally:
        out = stop(proc)
    watcher.join(timeout=30)
    assert outcome.get("status") == 200
    assert outcome.get("ended") == "whole", outcome
    assert "WORKER TIMEOUT" not in out and "Worker was sent SIGKILL" not in out, out[-2000:]


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (children of children too), from /proc."""
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                kids = {int(k) for k in (task / "children").read_text().split()}
            except OSError:
                continue
            todo += kids - out
            out |= kids
    return out


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for its (gone) parent to read its status."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_run_killed_outright_takes_redis_the_workers_and_the_api_with_it(tmp_path):
    """SIGKILL (the out-of-memory killer, a kill -9) gives ``kroniek run`` no
    chance to stop anything: its Redis, workers and API used to run on,
    holding ./var and the port, so the next start failed. They now stop by
    themselves (PR_SET_PDEATHSIG), and the same port and data serve again."""
    var = tmp_path / "var"
    port = free_port()
    proc, base, token = start(var, port)
    below = descendants(proc.pid)
    try:
        # Redis, the API (gunicorn and its workers), the worker supervisor and its two workers
        assert len(below) >= 6, below
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 30
        while any(alive(p) for p in below):
            assert time.monotonic() < deadline, f"still running 30 s after kroniek run was killed: {[p for p in below if alive(p)]}"
            time.sleep(0.2)
    finally:
        for p in below:
            if alive(p):
                os.kill(p, signal.SIGKILL)
    proc, base, _ = start(var, port)  # the port and the data are free again
    try:
        assert requests.get(f"{base}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=5).json()["name"] == "admin"
    finally:
        stop(proc)


@pytest.mark.slow(8)
def test_ctrl_c_on_kroniek_serve_stops_every_process_without_a_traceback(redis_url, prefix):
    """Ctrl-C in a terminal signals the whole process group: gunicorn's master
    and each worker get SIGINT, and the master then sends each worker SIGQUIT.
    A worker that acted on both printed gevent's traceback of its SystemExit.
    Three times, as the two signals race. Nothing warns on the way either."""
    env = {k: v for k, v in os.environ.items() if k not in ("RQ_REDIS_URL", "REDIS_CLUSTER")}
    env.update(REDIS_URL=redis_url, KRONIEK_PREFIX=prefix, KRONIEK_QUEUE=prefix)
    for attempt in range(3):
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        try:
            assert wait_until_answering(f"http://127.0.0.1:{port}/api/health", proc), "kroniek serve did not come up"
            time.sleep(0.5)  # both workers booted
            os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
            out, _ = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        assert "Traceback" not in out and "SystemExit" not in out, f"attempt {attempt + 1}:\n{out}"
        # the master checks the data format in a child of its own: a Redis client made in the master imported
        # ssl before each gevent worker patched it, and every worker warned so as it started
        assert "MonkeyPatchWarning" not in out, out
        assert "Shutting down: Master" in out
        with pytest.raises(ProcessLookupError):
            os.killpg(proc.pid, 0)  # no worker left behind
