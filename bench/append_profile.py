"""Where an HTTP append's time goes, inside one process: the WSGI app called
as gunicorn calls it (a fresh environ per request, the body read from
``wsgi.input``), on the bench's Redis, with process CPU time per append.

- ``kroniek``: ``POST /api/matches/<id>/events`` of ``service.app``, a
  BraveRats round then an undo, again and again, with a token, as bench (d)
  sends them; the validation is queued through RQ as in production.
- ``bare``: the same requests to bench (d)'s bare Flask + one XADD endpoint.

``python -m bench.append_profile [--appends N] [--repeats R] [--profile]
[--instructions]`` prints the CPU µs per append of each (the least of R
runs: other processes on the machine only ever add to it); with
``--profile``, cProfile's table of one Kroniek run by cumulative and by own
time; with ``--instructions``, the user-space instructions per append of
each, counted by valgrind's callgrind (Debian package ``valgrind``) from the
first measured append to the last: the same on a busy machine as on an idle
one (to a percent), so the figure to compare two versions of the code by.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

from bench.http_appends import BODIES


def environ(path: str, body: bytes, token: str) -> dict[str, Any]:
    """The WSGI environ gunicorn's worker would hand the app."""
    return {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "RAW_URI": path,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "40000",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_AUTHORIZATION": f"Bearer {token}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def driver(app: Any, path: str, token: str) -> Callable[[int], None]:
    """``run(n)``: n requests, a round, then an undo once a round went in."""
    state = {"body": BODIES[0]}

    def start_response(status: str, headers: list, exc_info: Any = None) -> None:
        state["status"] = status

    def run(n: int) -> None:
        for _ in range(n):
            chunks = app(environ(path, state["body"], token), start_response)
            raw = b"".join(chunks)
            if hasattr(chunks, "close"):
                chunks.close()
            if not state["status"].startswith("201"):
                raise RuntimeError(f"append failed: {state['status']} {raw[:300]!r}")
            state["body"] = BODIES[1] if b'"type":"round"' in raw else BODIES[0]

    return run


def cpu_per_call(run: Callable[[int], None], n: int, repeats: int) -> float:
    """The least process CPU seconds per request over ``repeats`` runs of ``n``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        run(n)
        best = min(best, (time.process_time() - t0) / n)
    return best


def apps(url: str, prefix: str) -> tuple[Callable[[int], None], Callable[[int], None]]:
    """Drivers of the Kroniek app and the bare app on this Redis and prefix."""
    os.environ.update(REDIS_URL=url, KRONIEK_PREFIX=prefix, KRONIEK_QUEUE=prefix)
    import redis

    from bench.http_appends import bare_app
    from service.accounts import Accounts
    from service.app import create_app

    client = redis.Redis.from_url(url, decode_responses=True)
    _, token = Accounts(client, prefix).add_user(f"profile-{uuid.uuid4().hex[:6]}")
    kroniek = create_app()
    created = kroniek.test_client().post("/api/matches", json={"game": "braverats", "players": ["A", "B"]},
                                         headers={"Authorization": f"Bearer {token}"})
    if created.status_code != 201:
        raise RuntimeError(f"creating a match failed: {created.status_code} {created.get_data(as_text=True)}")
    match_id = created.get_json()["id"]
    bare = bare_app()
    return (driver(kroniek, f"/api/matches/{match_id}/events", token),
            driver(bare, f"/api/matches/{uuid.uuid4().hex[:16]}/events", token))


def _wait_for(path: Path, proc: subprocess.Popen | None = None, timeout: float = 900) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if (proc is not None and proc.poll() is not None) or time.monotonic() > deadline:
            raise RuntimeError(f"the counted process stopped or stalled before {path.name}")
        time.sleep(0.05)


def instructions(which: str, appends: int) -> int | None:
    """User-space instructions per append of ``which`` (kroniek or bare):
    this module runs again under callgrind with counting off, sets up and
    warms up, and counts only while it sends ``appends`` requests. None
    when valgrind is not installed."""
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        return None
    with tempfile.TemporaryDirectory(prefix="kroniek-count-") as tmp:
        flags = Path(tmp)
        proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={flags / 'callgrind.out'}",
             sys.executable, "-m", "bench.append_profile", "--counted", which, "--appends", str(appends),
             "--flags", str(flags)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        try:
            _wait_for(flags / "ready", proc)
            subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], capture_output=True, check=True)
            (flags / "go").touch()
            _wait_for(flags / "done", proc)
            subprocess.run(["callgrind_control", "-i", "off", str(proc.pid)], capture_output=True, check=True)
            (flags / "exit").touch()
            _, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    found = re.search(r"Collected : (\d+)", err)
    if proc.returncode or not found:
        raise RuntimeError(f"callgrind did not count: {err[-500:]}")
    return int(found.group(1)) // appends


def counted(which: str, appends: int, flags: Path) -> None:
    """The process ``instructions`` counts: set up and warm up, then send the
    appends between the flags."""
    from bench import bench_redis

    with bench_redis("count") as url:
        kroniek, bare = apps(url, f"bench-{uuid.uuid4().hex[:8]}")
        run = kroniek if which == "kroniek" else bare
        run(200)
        (flags / "ready").touch()
        _wait_for(flags / "go")
        run(appends)
        (flags / "done").touch()
        _wait_for(flags / "exit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appends", type=int, default=2000, help="requests per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each; the least is shown")
    parser.add_argument("--profile", action="store_true", help="print cProfile's table of one Kroniek run")
    parser.add_argument("--lines", type=int, default=45, help="rows of each profile table")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the user-space instructions per append of each (valgrind's callgrind)")
    parser.add_argument("--counted", choices=("kroniek", "bare"), help=argparse.SUPPRESS)
    parser.add_argument("--flags", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.counted:
        counted(args.counted, args.appends, args.flags)
        return
    from bench import bench_redis

    with bench_redis("profile") as url:
        kroniek, bare = apps(url, f"bench-{uuid.uuid4().hex[:8]}")
        kroniek(200), bare(200)  # warm-up: imports, connections, caches
        k = cpu_per_call(kroniek, args.appends, args.repeats)
        b = cpu_per_call(bare, args.appends, args.repeats)
        load = os.getloadavg()[0]
        print(f"CPU per append, in-process (least of {args.repeats} × {args.appends}; load {load:.2f}): "
              f"Kroniek {k * 1e6:.0f} µs, bare Flask + XADD {b * 1e6:.0f} µs, ratio {b / k:.2f}")
        if args.instructions:
            counts = {which: instructions(which, min(args.appends, 500)) for which in ("kroniek", "bare")}
            if counts["kroniek"] is None:
                print("instructions per append: valgrind is not installed (apt-get install valgrind)")
            else:
                print(f"user-space instructions per append (callgrind, {min(args.appends, 500)} appends): "
                      f"Kroniek {counts['kroniek'] / 1e3:,.0f} k, bare Flask + XADD {counts['bare'] / 1e3:,.0f} k, "
                      f"ratio {counts['bare'] / counts['kroniek']:.2f}")
        if args.profile:
            prof = cProfile.Profile(time.process_time)  # CPU time: a wait on Redis is not the process's work
            prof.enable()
            kroniek(args.appends)
            prof.disable()
            for order in ("cumulative", "tottime"):
                out = io.StringIO()
                stats = pstats.Stats(prof, stream=out)
                stats.sort_stats(order).print_stats(args.lines)
                print(out.getvalue())


if __name__ == "__main__":
    main()
