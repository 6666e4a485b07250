"""A table's own knights' cards, entered in the pages (issue 19, point 2),
in a real Chromium on a 390x844 phone: from the new-match form to the
card-set editor, a knight changed there, a value the rules refuse shown at
its field with the API's own message, the set saved, picked by its name on
the new-match form, and a match recorded with it (the deal tapped on the
table's deck). It writes docs/ui.md's picture of the editor."""

from __future__ import annotations

import random
import re
import uuid

import pytest

from engine import match as M

from .test_web import IMG, PHONE, api, context, follow, no_horizontal_scroll, page_of, tap_scene_chance
from .test_web_pages import axe_source, check, watched
from .test_web_ridder_toernooi import picked


@pytest.mark.slow(20)
def test_a_card_set_is_entered_saved_picked_by_name_and_played_with(server, browser):
    base, token = server
    page = watched(page_of(context(browser, token, viewport=PHONE)))
    page.goto(f"{base}/record?game=ridder_toernooi")
    page.click("#options a[data-editor=card_set]")
    page.wait_for_url(re.compile(r"/games/ridder_toernooi/card-sets/new$"))
    page.wait_for_selector("#ed-status.good")  # the shipped set, renamed as ours: valid as it stands
    assert "Starting from:" in page.inner_text("#ed-from") and "Placeholder" in page.inner_text("#ed-from")
    name = f"Onze doos {uuid.uuid4().hex[:6]}"
    page.fill("#editor input[data-field='/name']:not(.edcard *)", name)
    k01 = page.locator("#editor .edcard[data-card='K01']")
    k01.locator("input[data-field='/name']").fill("Sir Tristan van Kroniek")
    # a value the rules refuse: the API's message at the field, and nothing to save
    dice = k01.locator("input[data-field='/attackDice']")
    dice.fill("12")
    page.wait_for_selector("#editor .edcard[data-card='K01'] input[data-field='/attackDice'][aria-invalid=true]")
    message = page.inner_text("#ed-error")
    assert message == "card K01, /attackDice: must be an integer 1–11, not 12", message
    assert page.locator("#ed-status.bad").count() == 1 and page.is_disabled("#ed-save")
    assert page.evaluate("document.getElementById('ed-error').previousElementSibling.contains("
                         "document.querySelector(\"#editor .edcard[data-card='K01'] input[data-field='/attackDice']\"))")
    dice.fill("7")
    k01.locator("select[data-field='/red/mounted/2']").select_option("2")
    page.wait_for_selector("#ed-status.good")
    assert page.locator("#editor [aria-invalid]").count() == 0 and not page.is_disabled("#ed-save")
    preview = k01.locator(".cardpreview").inner_text()
    assert "Sir Tristan van Kroniek" in preview and "7 attack dice" in preview and "2■■" in preview.replace("\n", "")
    assert name in page.inner_text("#ed-status")
    no_horizontal_scroll(page)
    problems = check(page, axe_source(), "the card-set editor, a knight changed")
    assert not problems, "\n".join(problems)
    k01.scroll_into_view_if_needed()
    page.screenshot(path=str(IMG / "card-set-editor-phone.png"))
    page.click("#ed-save")
    page.wait_for_selector("#ed-record")
    listed = api(base, token, "GET", "/games/ridder_toernooi/card-sets").json()["items"]
    ours = next(it for it in listed if it["name"] == name)
    assert ours["builtin"] is False and ours["knights"] == 10
    # the new-match form names it, and it is the one chosen
    page.click("#ed-record")
    page.wait_for_selector("#options button.document.on")
    chosen = page.locator("#options button.document.on")
    assert chosen.get_attribute("data-name") == name and json_value(chosen.get_attribute("data-value")) == ours["hash"]
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#board .scene")
    ms = follow(base, token, match_id)
    assert ms.setup["options"]["card_set"] == ours["hash"]
    # the deal, tapped on the deck's picker, with our cards
    outcome = ms.game.chance_outcome(ms.state, random.Random(1)).to_dict()
    assert outcome["type"] == "deal"
    tap_scene_chance(page, M.scene(ms, "referee"), picked(outcome))
    ms = follow(base, token, match_id, ms)
    knight = ms.state.cards.knights[ms.state.cards.knight_index("K01")]
    assert knight.name == "Sir Tristan van Kroniek" and knight.dice == 7 and knight.red[1] == 2
    assert ms.seq == 2 and not page.errors


def json_value(text: str):
    import json

    return json.loads(text)
