"""A league player's page (issue 38): their rounds, their score against each opponent and their rating's
history drawn as a graph, served whole by the server; checked through the API answer it is made of, and in
Debian's Chromium (axe-core, a phone, Dutch)."""

from __future__ import annotations

import time

import pytest

from .test_leagues_api import play_to_the_end
from .test_web import PHONE, api, context, no_horizontal_scroll, page_of
from .test_web_i18n import dutch_context
from .test_web_pages import axe_source, check, watched

pytestmark = pytest.mark.slow

#: two long names: a phone shows a row of Ann's rounds whole, without scrolling its table sideways
PLAYERS = ["Ann", "Bob", "Bartholomeus van Oldenbarnevelt", "Geertruida de Vries-Kuipers"]


def test_a_players_page_shows_their_rounds_head_to_head_and_rating_graph(server, browser):
    base, token = server
    lid = api(base, token, "POST", "/leagues", json={"name": "Vier", "game": "braverats", "format": "round_robin",
                                                      "players": PLAYERS}).json()["id"]
    for rnd in (1, 2):
        boards = api(base, token, "POST", f"/leagues/{lid}/rounds").json()["league"]["rounds"][-1]["boards"]
        for b in boards:
            if rnd == 2 and b["board"] == 2:
                api(base, token, "POST", f"/leagues/{lid}/forfeits", json={"round": 2, "board": 2,
                    "forfeited": [b["players"][1]], "reason": "ill"})
                continue
            mid = api(base, token, "POST", f"/leagues/{lid}/rounds/{rnd}/boards/{b['board']}/match").json()["id"]

            class Client:  # play_to_the_end's client, over HTTP
                def post(self, url, json):
                    r = api(base, token, "POST", url[4:], json=json)
                    r.get_json = r.json
                    return r
            play_to_the_end(Client(), mid)
            deadline = time.monotonic() + 60
            while api(base, token, "GET", f"/matches/{mid}").json()["validation"] != "valid":
                assert time.monotonic() < deadline
                time.sleep(0.2)
            assert api(base, token, "POST", f"/leagues/{lid}/results", json={"match": mid}).status_code == 201
    record = api(base, token, "GET", f"/leagues/{lid}/players/Ann").json()
    assert [r["round"] for r in record["rounds"]] == [1, 2]
    assert all(r["outcome"] in ("win", "loss", "draw", "forfeit won", "forfeit lost") for r in record["rounds"])
    standings = {s["player"]: s for s in api(base, token, "GET", f"/leagues/{lid}/standings").json()["standings"]}
    assert record["points"] == standings["Ann"]["points"] and record["rank"] == standings["Ann"]["rank"]
    h2h = {m["opponent"]: m for m in record["head_to_head"]}
    assert sum(m["wins"] for m in h2h.values()) == standings["Ann"]["wins"]
    assert sum(m["games"] for m in h2h.values()) == 2 and set(h2h) <= set(PLAYERS) - {"Ann"}
    assert api(base, token, "GET", f"/leagues/{lid}/players/Nobody").status_code == 404
    # the rating's history: once the worker has rated the results
    deadline = time.monotonic() + 60
    while api(base, token, "GET", "/ratings/braverats/players/Ann").status_code != 200:
        assert time.monotonic() < deadline, "no rating for Ann"
        time.sleep(0.3)
    history = api(base, token, "GET", "/ratings/braverats/players/Ann").json()["history"]
    axe = axe_source()
    problems = []
    for make, words in ((lambda: context(browser, token, viewport=PHONE), "Head to head"),
                        (lambda: dutch_context(browser, token), "Onderling resultaat")):
        page = watched(page_of(make()))
        page.errors = []
        page.goto(f"{base}/leagues/{lid}/players/Ann")
        page.wait_for_selector("#pl-rounds tbody tr")
        assert words in page.locator("#pl-h2h-title").inner_text()
        assert page.locator("#pl-rounds tbody tr").count() == 2
        assert page.locator("#pl-graph circle").count() == len(history)  # a dot per rated period
        problems += check(page, axe, f"player page ({words})")
        no_horizontal_scroll(page)
        if True:  # both are phones: each table fits its box
            wide = page.evaluate("() => [...document.querySelectorAll('.pr-box')]"
                                 ".filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.querySelector('table').id)")
            assert wide == [], f"{words}: these tables scroll sideways on a phone: {wide}"
        one, many = ("point", "points") if words == "Head to head" else ("punt", "punten")
        said = f"{one if record['points'] == 1 else many}, "
        assert said in page.locator("#pl-summary").inner_text(), page.locator("#pl-summary").inner_text()
        games = history[-1]["games"]
        rated = {("point", True): "rated game (", ("point", False): "rated games (",
                 ("punt", True): "gewaardeerde partij (", ("punt", False): "gewaardeerde partijen ("}[one, games == 1]
        assert f"{games} {rated}" in page.locator("#player").inner_text()
    assert not problems, "\n".join(problems)
    page = page_of(context(browser, token, viewport=PHONE))
    page.goto(f"{base}/leagues/{lid}")
    page.wait_for_selector("#standings tr")
    page.click("#standings a[href$='/players/Bob']")
    page.wait_for_selector("#pl-rounds")
    assert page.locator("h1").inner_text() == "Bob"
