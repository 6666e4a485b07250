"""Ridder-toernooi recorded on its drawing (issue 19), in a real Chromium on
a 390x844 phone: a whole tournament entered by tapping the table the engine
draws (engine/ridder_toernooi/scene.py): the deal on the deck's picker, the
start roll and every duel roll on the dice pads, training and who rides
today from the pickers a knight or a player's area opens, a kerchief by a
tap on the lady and one on the knight, a challenge by a tap on the knight
challenged. The test counts how each event was entered: at least 90% from
the drawing. It writes docs/ui.md's phone picture (a duel, the attacker's
dice on the table and the defender's still to come) and checks that the
review draws the same table, with nothing to tap."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M
from engine.ridder_toernooi.bots import random_bot

from .test_web import (
    IMG,
    mostly_tapped,
    PHONE,
    api,
    context,
    follow,
    no_horizontal_scroll,
    page_of,
    scene_place,
    tap,
    tap_scene_chance,
    tap_scene_move,
)
from .test_web_pages import axe_source, check


def picked(outcome: dict) -> list:
    """The values the table taps on a picker for the engine's outcome: the
    deal's cards seat by seat, the dice of the players rolling for the
    start, a roll's faces."""
    data = outcome["data"]
    if outcome["type"] == "deal":
        return [c for i, row in enumerate(data["knights"]) for c in row + (data["ladies"][i] if data["ladies"] else [])]
    if outcome["type"] == "start_roll":
        return [f for f in data["faces"] if f is not None]
    return data["faces"]


@pytest.mark.slow(60)
def test_a_whole_tournament_is_recorded_by_tapping_its_table_on_a_phone(server, browser):
    base, token = server
    page = page_of(context(browser, token, viewport=PHONE))
    page.goto(f"{base}/record?game=ridder_toernooi")
    page.wait_for_selector("#options .field, #options p")
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    rng = random.Random(3)
    axe = axe_source()
    ms = None
    entered = {"drawing": 0, "buttons": 0}
    kinds: dict[str, int] = {}
    shot = paired = grouped = False
    for step in range(1500):
        page.wait_for_function("() => document.querySelector('#match').dataset.seq")
        ms = follow(base, token, match_id, ms)
        if ms.result is not None:
            break
        actors = list(ms.game.actors(ms.state))
        scene = M.scene(ms, "referee")  # the page's own drawing, built where the server builds it
        if "chance" in actors:
            outcome = ms.game.chance_outcome(ms.state, random.Random(step)).to_dict()
            if not shot and outcome["type"] == "roll" and ms.state.duel.a_faces is not None:
                # for docs/ui.md: a duel on the table, the attacker's dice shown, the defender's pad lit
                page.locator("#board [data-zone='duel']").scroll_into_view_if_needed()
                page.evaluate("document.querySelector('#board').scrollIntoView({block: 'start'})")
                assert page.locator("#board [data-element='attacker-roll'] .die.t-hit, "
                                    "#board [data-element='attacker-roll'] .die.t-miss, "
                                    "#board [data-element='attacker-roll'] .die.t-blocked").count() == len(ms.state.duel.a_faces)
                no_horizontal_scroll(page)
                page.screenshot(path=str(IMG / "ridder_toernooi-phone.png"))
                # the duel's table, and its dice pad open: axe-clean, nothing past the edge, no "undefined"
                assert check(page, axe, "a duel") == []
                page.click("#board [data-element='dice']")
                page.wait_for_selector("#board .scenepanel button.pick")
                assert check(page, axe, "the dice pad") == []
                page.click("#board .scenepanel button.close")
                shot = True
            tap_scene_chance(page, scene, picked(outcome))
            entered["drawing"] += 1
            kinds[outcome["type"]] = kinds.get(outcome["type"], 0) + 1
            continue
        seat = rng.choice([a for a in actors if M.legal_moves(ms, a)])
        move = random_bot(ms.game, ms.state, seat, rng).to_dict()
        place = scene_place(scene, move)
        assert place, f"{move} has no place on the table"
        if not paired and place[0] == "pair":
            # the first of a pair tapped (a lady): her partners, and only they, are marked (the knights she may go to)
            page.click(f"#board [data-element='{place[1]}']")
            problems = check(page, axe, "a lady tapped")
            assert problems == [], "\n".join(problems)
            partners = {b for z in scene["zones"] for e in z["elements"] for b in e["targets"] if e["id"] == place[1]}
            partners |= {e["id"] for z in scene["zones"] for e in z["elements"] if place[1] in e["targets"]}
            marked = page.eval_on_selector_all("#board .el.target", "els => els.map((e) => e.dataset.element)")
            assert sorted(marked) == sorted(partners)
            page.click(f"#board [data-element='{place[1]}']")  # and let go again
            page.wait_for_selector("#board .el.sel", state="detached")
            paired = True
        if not grouped and move["type"] == "train" and place[2] is not None:
            # a knight's ways to train, picked in two steps: how many dice (with how many ways each), then the fields
            knight = next(e for z in scene["zones"] for e in z["elements"] if e["id"] == place[1])
            groups = {}
            for m in knight["moves"]:
                groups[m["group"]["en"]] = groups.get(m["group"]["en"], 0) + 1
            if len(groups) > 1:
                tap(page, f"#board [data-element='{place[1]}']")
                page.wait_for_selector("#board .scenepanel button[data-group]", timeout=5000)
                shown = page.locator("#board .scenepanel button[data-group]").all_inner_texts()
                assert shown == [f"{g} ({n})" for g, n in groups.items()], shown
                assert check(page, axe, "the training picker") == []
                page.click("#board .scenepanel button.close")
                grouped = True
        tap_scene_move(page, place, rng)
        entered["drawing"] += 1
        kinds[move["type"]] = kinds.get(move["type"], 0) + 1
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Finished')")
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    mostly_tapped(page, entered, len(api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]) - 1)
    # the whole tournament: dealt, rolled for, trained, ridden, kerchiefs laid, knights challenged and duels rolled
    assert {"deal", "start_roll", "train", "participate", "kerchief", "challenge", "roll"} <= set(kinds), kinds
    assert shot and paired and grouped
    no_horizontal_scroll(page)
    assert page.errors == []
    # the review draws the same table, as it stood, with nothing to tap
    review = page_of(context(browser, token, viewport=PHONE))
    review.goto(f"{base}/matches/{match_id}/review")
    review.wait_for_selector("#board .scene [data-element^='knight-']")
    assert review.locator("#board .scene button.el").count() == 0
    no_horizontal_scroll(review)
    assert review.errors == []
