"""A page opened once keeps working without a network (issue 23, its first
part): the service worker (static/sw.js) keeps what the server last said,
and every page says when it is offline. In Debian's Chromium on a phone,
the network cut by the browser context's offline switch."""

from __future__ import annotations

import time

import pytest

from .test_web import api, context, page_of

pytestmark = pytest.mark.slow

KEPT = "async (url) => !!(await caches.match(url))"


def test_a_match_page_opened_once_reloads_offline_and_says_it_is_offline(server, browser):
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).json()["id"]
    for event in ({"type": "deal", "data": {"seed": 42}}, {"type": "roles", "data": {"twelves": 0, "first": 0}}):
        assert api(base, token, "POST", f"/matches/{match}/events", json=event).status_code == 201
    ctx = context(browser, token)
    page = page_of(ctx)
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#match[data-seq='3'] #board .scene", timeout=30_000)
    assert page.is_hidden("#net")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    deadline = time.monotonic() + 20
    while not (page.evaluate(KEPT, f"/matches/{match}") and page.evaluate(KEPT, f"/api/matches/{match}")):
        assert time.monotonic() < deadline, "the page and its answers were never kept"
        page.wait_for_timeout(100)

    ctx.set_offline(True)
    page.reload()
    page.wait_for_selector("#match[data-seq='3'] #board .scene", timeout=30_000)
    assert page.locator("#log li").count() == 3
    assert "Twaalven" in page.inner_text("#title")
    page.wait_for_selector("#net:not([hidden])")
    assert "offline" in page.inner_text("#net")

    ctx.set_offline(False)
    page.wait_for_selector("#net", state="hidden", timeout=10_000)
    assert not page.errors, page.errors


def test_signing_out_drops_what_the_device_kept(server, browser):
    """Another person on the same device must not read one seat's view offline."""
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    ctx = context(browser, token)
    page = page_of(ctx)
    page.goto(f"{base}/matches/{match}")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
    deadline = time.monotonic() + 20
    while not page.evaluate(KEPT, f"/api/matches/{match}"):
        assert time.monotonic() < deadline, "nothing was kept"
        page.wait_for_timeout(100)
    page.set_content("")  # the worker sees the sign-out's POST, whoever's page sends it
    page.goto(f"{base}/me")
    page.evaluate("""() => { const f = document.createElement('form'); f.method = 'post'; f.action = '/signout';
                             document.body.append(f); f.submit(); }""")
    page.wait_for_url(f"{base}/")
    deadline = time.monotonic() + 10
    while page.evaluate(KEPT, f"/api/matches/{match}"):
        assert time.monotonic() < deadline, "what was kept is still there after signing out"
        page.wait_for_timeout(100)
