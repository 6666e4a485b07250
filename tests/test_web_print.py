"""A league night's paper (issue 38): the pairings of a round and the standings of a 64-player Swiss league
print on one A4 page each, and a round's score sheets six to a page, rendered by Debian's Chromium's own PDF
printing (the same engine as its print dialog) and counted page by page; on screen the sheets pass axe-core
and fit a phone, in English and in Dutch."""

from __future__ import annotations

import math
import re

import pytest

from .test_web import PHONE, api, context, no_horizontal_scroll, page_of
from .test_web_i18n import dutch_context
from .test_web_pages import axe_source, check, watched

pytestmark = pytest.mark.slow

FIRST = ["Maximiliaan", "Wilhelmina", "Hendrik-Jan", "Anne-Marie", "Bartholomeus", "Geertruida", "Jan", "Fenna"]
LAST = ["van Oldenbarnevelt", "Rozenboom", "de Vries-Kuipers", "Bakker", "van der Heijden", "Smit"]
#: 64 names, some long (a name of 33 characters and more must not push a row onto a second line)
NAMES = [f"{FIRST[i % 8]} {LAST[i % 6]} {i + 1}" for i in range(64)]


def pages_of(pdf: bytes) -> int:
    """The pages of a PDF Chromium printed: its page objects (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


@pytest.fixture(scope="module")
def night(server):
    """A Swiss league of 64 players after round 1 (every board decided, some by forfeit) with round 2 paired."""
    base, token = server
    league = api(base, token, "POST", "/leagues", json={"name": "Dinsdagavondcompetitie Het Witte Paard",
                                                         "game": "braverats", "format": "swiss", "rounds": 7,
                                                         "players": NAMES}).json()
    lid = league["id"]
    rnd = api(base, token, "POST", f"/leagues/{lid}/rounds").json()["league"]["rounds"][-1]
    for board in rnd["boards"]:
        loser = board["players"][board["board"] % 2]
        r = api(base, token, "POST", f"/leagues/{lid}/forfeits",
                json={"round": 1, "board": board["board"], "forfeited": [loser], "reason": "not here"})
        assert r.status_code == 201, r.text
    assert api(base, token, "POST", f"/leagues/{lid}/rounds").status_code == 201
    return base, token, lid


@pytest.mark.slow(20)
def test_pairings_and_standings_of_64_players_print_on_one_a4_page_each(night, browser):
    base, token, lid = night
    ctx = context(browser, token, viewport={"width": 794, "height": 1123})
    page = page_of(ctx)
    printed = {}
    for kind, ready in (("pairings", "#print-pairings tbody tr"), ("standings", "#print-standings tbody tr"),
                        ("sheets", "#print-sheets .pr-sheet")):
        page.goto(f"{base}/leagues/{lid}/print/{kind}")
        page.wait_for_selector(ready)
        rows = page.locator(ready).count()
        assert rows == {"pairings": 32, "standings": 64, "sheets": 32}[kind]
        page.emulate_media(media="print")  # page.pdf prints with the media emulated: print, as a print dialog does
        assert page.locator("header.top").is_hidden() and page.locator("#print-button").is_hidden()
        printed[kind] = pages_of(page.pdf(format="A4"))
        page.emulate_media(media="screen")
    assert printed["pairings"] == 1 and printed["standings"] == 1, printed
    assert math.ceil(32 / 6) <= printed["sheets"] <= math.ceil(32 / 6) + 1, printed
    page.goto(f"{base}/leagues/{lid}/print/pairings?round=2")
    first = page.locator("#print-pairings tbody tr").first.locator("td")
    assert first.nth(2).inner_text() == "1" and first.nth(5).inner_text() == "1"  # both won round 1: the top board
    page.goto(f"{base}/leagues/{lid}/print/pairings?round=1")
    assert page.locator("#print-pairings tbody tr").first.locator("td.pr-result").inner_text() in ("1–0", "0–1") or \
        "+" in page.locator("#print-pairings tbody tr").first.locator("td.pr-result").inner_text()
    assert page.goto(f"{base}/leagues/{lid}/print/pairings?round=9").status == 404
    assert page.goto(f"{base}/leagues/{lid}/print/nothing").status == 404


@pytest.mark.slow(20)
def test_the_sheets_for_the_wall_pass_axe_and_fit_a_phone_in_english_and_dutch(night, browser):
    base, token, lid = night
    axe = axe_source()
    problems = []
    for make, words in ((lambda: context(browser, token, viewport=PHONE), "Standings after round 1"),
                        (lambda: dutch_context(browser, token), "Stand na ronde 1")):
        page = watched(page_of(make()))
        page.errors = []
        for kind in ("pairings", "standings", "sheets"):
            page.goto(f"{base}/leagues/{lid}/print/{kind}")
            page.wait_for_selector("#print")
            problems += check(page, axe, f"{kind} ({words})")
            no_horizontal_scroll(page)
        page.goto(f"{base}/leagues/{lid}/print/standings")
        assert words in page.locator(".pr-sub").inner_text()
    assert not problems, "\n".join(problems)
    page = page_of(context(browser, token, viewport=PHONE))
    page.goto(f"{base}/leagues/{lid}")
    page.wait_for_selector("#standings tr")
    assert page.locator("a[href$='/print/standings']").count() == 1
    assert page.locator(f"a[href='/api/leagues/{lid}/trf']").count() == 1
