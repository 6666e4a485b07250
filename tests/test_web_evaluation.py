"""The review's evaluation graph (issue 37) in Debian's Chromium: drawn for a finished match of every game
with an evaluation, at a phone's 390x844 and a desktop's 1280x900; a click on a point moves the review to
that step, the keyboard reaches it, and axe-core finds nothing serious. Its screenshot is docs/img's."""

from __future__ import annotations

import pytest

from engine import match as M
from engine import notation as N
from engine import registry
from tests.support.played import play

from .test_web import IMG, api, context, wait_until
from .test_web_pages import PHONE, axe_source, check, watched

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 900}
EVALUATED = sorted(g.id for g in registry.all_games() if g.has_evaluation)


def finished_match(base, token, game_id):
    """A whole game the engine's own players played, imported as one notation (its id and last seq)."""
    log = play(game_id, 11, mode="physical")
    assert M.replay(log).result is not None
    r = api(base, token, "POST", "/matches/import", json={"notation": N.write(log)})
    assert r.status_code == 201, r.text
    return r.json()["id"], log[-1]["seq"]


def evaluated(base, game_id, mid, last):
    """The match's evaluation once the worker has stored it for the whole log."""
    return wait_until(lambda: (e := api(base, None, "GET", f"/matches/{mid}/review").json().get("evaluation"))
                    and e["seq"] == last and e, timeout=180, what=f"the {game_id} match's evaluation of its whole log")


def test_every_game_with_an_evaluation_has_it_drawn_and_a_click_on_a_point_moves_the_review(server, browser):
    assert "braverats" in EVALUATED
    base, token = server
    axe = axe_source()
    problems: list[str] = []
    matches = {game_id: finished_match(base, token, game_id) for game_id in EVALUATED}  # analysed meanwhile
    for game_id, (mid, last) in matches.items():
        ev = evaluated(base, game_id, mid, last)
        assert len(ev["points"]) >= 2, ev  # (the suite's server gives an analysis 15 s: Sir Tommy decides few)
        for viewport in (PHONE, DESKTOP):
            where = f"{game_id} at {viewport['width']}x{viewport['height']}"
            page = context(browser, viewport=viewport).new_page()
            page.errors = []
            watched(page)
            page.goto(f"{base}/matches/{mid}/review")
            page.wait_for_selector("#review[data-listed] .evalgraph .point")
            graph = page.locator(".evalgraph")
            assert graph.locator(".point").count() == len(ev["points"]), where
            assert graph.locator("polyline").count() >= 1
            marked = [m for m in ev["moves"] if m.get("glyph")]
            assert graph.locator(".glyph").count() == len(marked), where
            graph.scroll_into_view_if_needed()
            box = graph.bounding_box()
            assert box["width"] <= viewport["width"] and box["height"] >= 40, (where, box)
            # a click on a point (the second, then the first): the review goes to that step
            for point in (ev["points"][1], ev["points"][0]):
                dot = graph.locator(f".point[data-seq='{point['seq']}']").bounding_box()
                page.mouse.click(dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2)
                page.wait_for_function(f"() => document.querySelector('#review').dataset.shown === '{point['seq']}'")
                assert page.locator("#steps li.current").get_attribute("data-seq") == str(point["seq"])
                assert f"{int(point['chances'][0] * 100 + 0.5)}%" in graph.get_attribute("aria-valuetext")  # as Math.round
            # the keyboard: the graph takes focus, and PageDown goes to the next evaluated point
            graph.focus()
            page.keyboard.press("PageDown")
            page.wait_for_function(f"() => document.querySelector('#review').dataset.shown === '{ev['points'][1]['seq']}'")
            summary = page.locator(".evalsummary tbody tr")
            says = any(x["accuracy"] is not None or x["luck"] is not None or x.get("robber") or any(x["glyphs"].values())
                       for x in ev["summary"])  # a table with nothing to say (Troubadour's) is left out
            assert summary.count() == (len(ev["summary"]) if says else 0), where
            # accuracy where moves were judged, luck where chance rules: a column only where something fills it
            for column in ("accuracy", "luck"):
                filled = [said[column] is not None for said in ev["summary"]]
                assert summary.locator(f".{column}").count() == (len(filled) if any(filled) else 0), (where, column)
                for row, said in zip(summary.all(), ev["summary"]) if any(filled) else ():
                    shown = row.locator(f".{column}").inner_text()
                    assert shown != "—" if said[column] is not None else shown == "—", (where, said, shown)
            problems += check(page, axe, where)
            if viewport is PHONE and game_id == "braverats":
                page.locator("#evaluation").scroll_into_view_if_needed()
                page.screenshot(path=str(IMG / "review-evaluation-phone.png"))
            page.context.close()
    assert problems == []
