"""The multiboard (issue 38): every board of a league round on one screen, live. A Swiss round of 8 BraveRats
boards is recorded through the API while a TV (1920x1080) and a phone (390x844) watch, in Debian's Chromium;
each move shows on both within a second (measured from the append's answer to the drawing of that seq), a
result entered shows on its board, axe-core finds nothing, and nothing scrolls sideways on the phone. The
screenshot in docs/leagues.md is written here (KRONIEK_SCREENSHOTS)."""

from __future__ import annotations

import time

import pytest

from .test_leagues_api import ROUNDS
from .test_web import IMG, PHONE, api, context, no_horizontal_scroll, page_of
from .test_web_pages import axe_source, check, watched

pytestmark = pytest.mark.slow

TV = {"width": 1920, "height": 1080}
NAMES = ["Ann", "Bob", "Cas", "Dirk", "Eva", "Fien", "Gijs", "Hans", "Ilse", "Joost", "Kim", "Lotte",
         "Maarten", "Noor", "Otto", "Pien"]
#: the most a move may take to show on the multiboard (the issue's figure)
WITHIN = 1.0


def drawn(page, board: int, seq: int, timeout_ms: int = 5000) -> None:
    page.wait_for_function(f"() => (document.querySelector('.mb-board[data-board=\"{board}\"]') || {{}}).dataset"
                           f"?.seq === '{seq}'", timeout=timeout_ms)


@pytest.mark.slow(30)
def test_a_round_of_eight_boards_shows_every_move_live_on_a_tv_and_a_phone(server, browser):
    base, token = server
    lid = api(base, token, "POST", "/leagues", json={"name": "Clubavond", "game": "braverats", "format": "swiss",
                                                      "rounds": 3, "players": NAMES}).json()["id"]
    boards = api(base, token, "POST", f"/leagues/{lid}/rounds").json()["league"]["rounds"][-1]["boards"]
    assert len(boards) == 8
    matches = {b["board"]: api(base, token, "POST", f"/leagues/{lid}/rounds/1/boards/{b['board']}/match").json()["id"]
               for b in boards}
    pages = {}
    for name, viewport in (("tv", TV), ("phone", PHONE)):
        page = watched(page_of(context(browser, token, viewport=viewport)))
        page.errors = []
        page.goto(f"{base}/leagues/{lid}/live")
        for board in matches:
            drawn(page, board, 1, 20_000)  # each board drawn from its match's set-up
        pages[name] = page
    late = []
    for turn in range(2):
        for board, mid in matches.items():
            red, blue = ROUNDS[turn]
            r = api(base, token, "POST", f"/matches/{mid}/events", json={"type": "round", "data": {"cards": [red, blue]}})
            assert r.status_code == 201, r.text
            seq, sent = r.json()["seq"], time.monotonic()
            for name, page in pages.items():
                drawn(page, board, seq)
                took = time.monotonic() - sent
                if took > WITHIN:
                    late.append(f"{name} board {board} seq {seq}: {took:.2f} s")
    assert not late, late
    tile = pages["tv"].locator(".mb-board[data-board='1']")
    last = tile.locator(".mb-last").inner_text()
    assert last.startswith("3 ") and "Round 2" in last and "General" in last, last  # the latest move, in words
    # a board played to its end and its result entered: the board says it
    mid = matches[1]
    for red, blue in ROUNDS[2:]:
        body = api(base, token, "POST", f"/matches/{mid}/events", json={"type": "round", "data": {"cards": [red, blue]}}).json()
        if body["status"] == "finished":
            break
    deadline = time.monotonic() + 60
    while api(base, token, "GET", f"/matches/{mid}").json()["validation"] != "valid":
        assert time.monotonic() < deadline, "the worker did not validate the match"
        time.sleep(0.2)
    assert api(base, token, "POST", f"/leagues/{lid}/results", json={"match": mid}).status_code == 201
    for page in pages.values():
        page.wait_for_function("() => /[10½]–[10½]/.test(document.querySelector(\".mb-board[data-board='1'] "
                               ".mb-result\").textContent)", timeout=5000)
    pages["tv"].screenshot(path=str(IMG / "multiboard-tv.png"))
    axe = axe_source()
    problems = check(pages["tv"], axe, "multiboard on a TV") + check(pages["phone"], axe, "multiboard on a phone")
    assert not problems, "\n".join(problems)
    no_horizontal_scroll(pages["phone"])
    assert pages["tv"].evaluate("() => getComputedStyle(document.querySelector('.mb-boards')).gridTemplateColumns"
                                ".split(' ').length") >= 4  # four boards across a TV
