"""The pages' speed goals, in a real Chromium (Debian's, as the browser tests):

(w1) the review page of a 1,000-event match: from navigation to the first
     step drawn (move list and table shown)            goal under 300 ms
(w2) live delay: an append over HTTP until the event is in a watching
     browser's move list, p95                          goal under 200 ms
(w3) a tap on the record page's drawing (the second card of a Twaalven pair,
     on a phone) until the move is appended and the drawing shows it, p95,
     without the page's engine (a phone that has none) goal under 150 ms
(w4) with the page's engine (issue 34): the same tap until the drawing
     shows the move the engine worked out, before the server's answer,
     online and offline, p95                           goal ≤ 50 ms
(w5) the engine ready: from navigation to the page's engine loaded (Pyodide
     and engine/), on a first visit (nothing cached)   goal ≤ 3 s
     and from the service worker's cache               goal ≤ 1 s
(w6) the engine's bytes on a first visit, as sent (gzip) goal ≤ 6 MB

Against ``kroniek serve`` (gunicorn, as in production) on a Redis of its own.
Printed, never asserted. ``python -m bench --only web``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import uuid

import redis

from bench import bench_redis
from replays import EventStore
from service.matches import MatchService

CHROMIUM = os.environ.get("KRONIEK_CHROMIUM", "/usr/bin/chromium")
ROUND = ("round", None, {"cards": ["spy", "prince"]})
UNDO = ("undo", None, {})


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def measure(loads: int = 15, appends: int = 60, taps: int = 40) -> list[tuple[str, str, str, str]]:
    if not os.path.exists(CHROMIUM):
        return [("(w1/w2) pages in a browser", f"no Chromium at {CHROMIUM}", "not measured", "—")]
    with bench_redis("web") as url:
        return _measure(url, loads, appends, taps)


#: in the page: select the pair's first card, tap the second and time until the page shows the next seq in the
#: attribute named (w3: data-seq, set last once the drawing, the move list and the moves are drawn from the server's
#: answer; w4: data-shown, the table its own engine worked out) and the browser painted it
TAP_JS = """async ([a, b, attr]) => {
  const root = document.querySelector('#match'), before = Number(root.dataset[attr]);
  document.querySelector(`#board [data-element='${a}']`).click();
  const t0 = performance.now();
  document.querySelector(`#board [data-element='${b}']`).click();
  await new Promise((done) => { const check = () => (Number(root.dataset[attr]) > before ? done() : requestAnimationFrame(check)); check(); });
  await new Promise((done) => requestAnimationFrame(() => done()));
  return performance.now() - t0;
}"""
#: (w5) when the page's engine was ready, from the navigation's start
READY_AT = """async () => {
  await new Promise((done) => { const check = () => (document.querySelector('#match').dataset.engine ? done() : setTimeout(check, 20)); check(); });
  return { at: performance.now(), engine: Kroniek.engine.readyMs, state: document.querySelector('#match').dataset.engine,
           why: Kroniek.engine.why, from: Kroniek.engine.from, phases: Kroniek.engine.phases };
}"""
ENGINE_KEPT = "async () => (await (await caches.open('kroniek-engine')).keys()).length"
#: whether the device keeps the engine's memory snapshot (engine-worker.js)
SNAPSHOT_KEPT = """() => new Promise((done) => { const rq = indexedDB.open('kroniek-engine', 1);
  rq.onupgradeneeded = () => rq.result.createObjectStore('snapshots');
  rq.onsuccess = () => { const t = rq.result.transaction('snapshots').objectStore('snapshots').count();
    t.onsuccess = () => { done(t.result); rq.result.close(); }; }; })"""


def _pair_taps(page, s, base: str, match: str, taps: int, attr: str, undo) -> list[float]:
    """The first Twaalven pair of the drawing tapped ``taps`` times (after two warm-ups), each taken back by
    ``undo(pair)``: the ms from the second tap until the page shows the next seq in ``attr`` (TAP_JS)."""
    scene = s.get(f"{base}/api/matches/{match}/scene", timeout=10).json()
    pair = next((e["id"], other) for z in scene["zones"] for e in z["elements"] for other in e["targets"])
    times = []
    for i in range(taps + 2):
        elapsed = page.evaluate(TAP_JS, [*pair, attr])
        if i >= 2:  # two warm-ups
            times.append(elapsed)
        undo(pair)
    return times


def _twaalven(s, base) -> str:
    match = s.post(f"{base}/api/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}, timeout=10).json()["id"]
    for event in ({"type": "deal", "data": {"seed": 42}}, {"type": "roles", "data": {"twelves": 0, "first": 0}}):
        assert s.post(f"{base}/api/matches/{match}/events", json=event, timeout=10).status_code == 201
    return match


def _engine(browser, base: str, token: str, s, taps: int, visits: int = 3) -> list[tuple[str, str, str, str]]:
    """(w4)–(w6): the page's own engine."""
    rows = []
    firsts, cached, engine_first, engine_cached, sent = [], [], [], [], []
    for _ in range(visits):
        match = _twaalven(s, base)
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        ctx.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
        engine_bytes = []

        def count(request):
            if "/engine/" in request.url:
                sizes = request.sizes()
                engine_bytes.append(sizes["responseBodySize"] + sizes["responseHeadersSize"])

        ctx.on("requestfinished", count)
        page = ctx.new_page()
        page.goto(f"{base}/matches/{match}")
        first = page.evaluate(READY_AT)
        if first["state"] != "ready":
            ctx.close()
            return [("(w4–w6) the page's engine", f"did not start: {first['why']}", "not measured", "—")]
        firsts.append(first["at"])
        print("  first visit:", first["from"], first["phases"], f"ready at {first['at']:.0f} ms")
        engine_first.append(first["engine"])
        sent.append(sum(engine_bytes))
        deadline = time.monotonic() + 30
        while (page.evaluate(ENGINE_KEPT) < 7 or not page.evaluate(SNAPSHOT_KEPT)) and time.monotonic() < deadline:
            time.sleep(0.1)
        page.goto(f"{base}/matches/{match}")
        again = page.evaluate(READY_AT)
        cached.append(again["at"])
        print("  again:", again["from"], again["phases"], f"ready at {again['at']:.0f} ms")
        engine_cached.append(again["engine"])
        ctx.close()
    rows.append((f"(w5) the page's engine ready, first visit: navigation → ready ({visits} visits; its worker alone: "
                 f"median {statistics.median(engine_first):.0f} ms)", f"median {statistics.median(firsts):.0f} ms",
                 f"max {max(firsts):.0f} ms", "≤ 3 s"))
    rows.append((f"(w5) … from the service worker's cache (its worker alone: median {statistics.median(engine_cached):.0f} ms)",
                 f"median {statistics.median(cached):.0f} ms", f"max {max(cached):.0f} ms", "≤ 1 s"))
    rows.append(("(w6) the engine's bytes on a first visit, as sent (gzip)", f"{statistics.median(sent) / 1e6:.2f} MB",
                 f"{max(sent):,} B at most", "≤ 6 MB"))
    # (w4) ------------------------------------------------------------------------
    for offline in (False, True):
        match = _twaalven(s, base)
        ctx = browser.new_context(viewport={"width": 390, "height": 844})
        ctx.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
        page = ctx.new_page()
        page.goto(f"{base}/matches/{match}")
        page.wait_for_selector("#match[data-engine='ready'][data-shown='3']", timeout=60_000)
        if offline:
            ctx.set_offline(True)
        def undo(pair, page=page, match=match, offline=offline):
            if offline:  # taken back before it was sent: the Undo button
                page.click("#undo")
                page.wait_for_selector("#match[data-shown='3'] #board [data-element='%s']" % pair[0], timeout=30_000)
                return
            page.wait_for_function("() => { const r = document.querySelector('#match'); "
                                   "return r.dataset.seq === r.dataset.shown; }", timeout=30_000)  # confirmed
            seq = s.post(f"{base}/api/matches/{match}/events", json={"type": "undo", "seat": None, "data": {}},
                         timeout=10).json()["seq"]
            page.wait_for_selector(f"#match[data-seq='{seq}'][data-shown='{seq}'] #board [data-element='{pair[0]}']",
                                   timeout=30_000)

        times = _pair_taps(page, s, base, match, taps, "shown", undo)
        ctx.close()
        rows.append((f"(w4) a tap on the drawing (the same pair) → drawn by the page's engine, {'offline' if offline else 'online'} "
                     f"({len(times)} taps)", f"median {statistics.median(times):.0f} ms", f"p95 {_p(times, 0.95):.0f} ms",
                     "p95 ≤ 50 ms"))
    return rows


def _measure(url: str, loads: int, appends: int, taps: int) -> list[tuple[str, str, str, str]]:
    import requests
    from playwright.sync_api import sync_playwright

    client = redis.Redis.from_url(url, decode_responses=True)
    prefix = f"bench-web-{uuid.uuid4().hex[:8]}"
    svc = MatchService(EventStore(client, prefix))
    long_match = svc.create_match("braverats", ["Ann", "Bob"])["id"]
    ms = svc.current(long_match)
    while ms.seq < 1000:
        type_, seat, data = ROUND if ms.depth == 0 else UNDO
        svc.append(long_match, type_, seat, data)
        ms = svc.current(long_match)
    from service.accounts import Accounts

    _, token = Accounts(client, prefix).add_user("bench-web-recorder")
    port = _free_port()
    env = {**os.environ, "REDIS_URL": url, "KRONIEK_PREFIX": prefix, "KRONIEK_QUEUE": prefix}
    server = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    rows = []
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(f"{base}/api", timeout=1)
                break
            except (requests.ConnectionError, requests.Timeout):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            # (w1) ------------------------------------------------------------------
            firsts, lists = [], []
            for i in range(loads + 2):
                page = ctx.new_page()
                page.goto(f"{base}/matches/{long_match}/review")
                page.wait_for_function("() => window.kroniekListShown", timeout=30_000)
                if i >= 2:  # two warm-ups (the server's state cache, the browser's script cache)
                    firsts.append(page.evaluate("window.kroniekFirstStep"))
                    lists.append(page.evaluate("window.kroniekListShown"))
                page.close()
            rows.append((f"(w1) review of a {ms.seq:,}-event match: navigation → first step drawn ({loads} loads)",
                         f"median {statistics.median(firsts):.0f} ms", f"p95 {_p(firsts, 0.95):.0f} ms", "< 300 ms"))
            rows.append((f"(w1) … → all {ms.seq:,} moves listed too",
                         f"median {statistics.median(lists):.0f} ms", f"p95 {_p(lists, 0.95):.0f} ms", "—"))
            # (w2) ------------------------------------------------------------------
            s = requests.Session()
            s.headers["Authorization"] = f"Bearer {token}"
            live = s.post(f"{base}/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}, timeout=10).json()["id"]
            page = ctx.new_page()
            page.goto(f"{base}/matches/{live}")
            page.wait_for_selector("#live[data-state=live]", timeout=30_000)
            page.evaluate("""() => { window.seen = {}; new MutationObserver(() => {
                for (const li of document.querySelectorAll('#log li')) if (!(li.dataset.seq in window.seen)) window.seen[li.dataset.seq] = Date.now();
              }).observe(document.querySelector('#log'), {childList: true, subtree: true}); }""")
            sent: dict[int, float] = {}
            depth = 0
            for i in range(appends):
                type_, seat, data = ROUND if depth == 0 else UNDO
                t = time.time() * 1000
                r = s.post(f"{base}/api/matches/{live}/events", json={"type": type_, "seat": seat, "data": data}, timeout=10)
                sent[r.json()["seq"]] = t
                depth = 1 - depth
                time.sleep(0.25)
            last = max(sent)
            page.wait_for_function(f"() => window.seen['{last}']", timeout=30_000)
            seen = page.evaluate("window.seen")
            delays = [seen[str(q)] - t for q, t in sent.items() if str(q) in seen]
            rows.append((f"(w2) live delay: HTTP append → event in a watching browser ({len(delays)} appends)",
                         f"median {statistics.median(delays):.0f} ms", f"p95 {_p(delays, 0.95):.0f} ms", "p95 < 200 ms"))
            # (w3) ------------------------------------------------------------------
            tapped = s.post(f"{base}/api/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}, timeout=10).json()["id"]
            for event in ({"type": "deal", "data": {"seed": 42}}, {"type": "roles", "data": {"twelves": 0, "first": 0}}):
                assert s.post(f"{base}/api/matches/{tapped}/events", json=event, timeout=10).status_code == 201
            phone = browser.new_context(viewport={"width": 390, "height": 844})
            phone.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
            phone.add_init_script("localStorage.setItem('kroniek.engine', 'off')")  # (w3): a phone without the engine
            page = phone.new_page()
            page.goto(f"{base}/matches/{tapped}")
            page.wait_for_selector("#match[data-seq='3'] #board .scene button.el.hl", timeout=30_000)
            def undo(pair):
                seq = s.post(f"{base}/api/matches/{tapped}/events", json={"type": "undo", "seat": None, "data": {}}, timeout=10).json()["seq"]
                page.wait_for_selector(f"#match[data-seq='{seq}'] #board [data-element='{pair[0]}']", timeout=30_000)

            times = _pair_taps(page, s, base, tapped, taps, "seq", undo)
            rows.append((f"(w3) a tap on the drawing (a Twaalven pair, phone, no page engine) → appended and drawn ({len(times)} taps)",
                         f"median {statistics.median(times):.0f} ms", f"p95 {_p(times, 0.95):.0f} ms", "p95 < 150 ms"))
            rows += _engine(browser, base, token, s, taps)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=15)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for i in range(0, len(keys), 500):
            client.delete(*keys[i:i + 500])
        client.close()
    return rows


if __name__ == "__main__":
    from rich.table import Table

    from bench import console

    table = Table(title="Kroniek pages in a browser")
    for col in ("measure", "measured", "ratio / figure", "goal"):
        table.add_column(col)
    for row in measure():
        table.add_row(*row)
    console().print(table)
