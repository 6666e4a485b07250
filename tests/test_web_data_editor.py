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

from .test_web import IMG, PHONE, api, context, follow, no_horizontal_scroll, page_of, tap, tap_scene_chance
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
    assert "Starting from:" in page.inner_text("#ed-from") and "PLACEHOLDER" in page.inner_text("#ed-from")
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


@pytest.mark.slow(20)
def test_a_troje_board_is_entered_by_tapping_its_hexes_saved_and_played_on(server, browser):
    """Troje's board editor on a phone: a hex tapped opens its terrain,
    number and ship-symbol choices; Troy renamed is refused (the scenario
    needs a hex named Troy) with the API's message under the board, and
    named back; a number changed and a ship symbol added; the board saved,
    picked by its name and a match started on it, its first move entered."""
    import json
    from pathlib import Path

    import engine.troje as troje

    placeholder = json.loads((Path(troje.__file__).parent / "boards" / "troje-placeholder.json").read_text("utf-8"))
    numbered = next(x for x in placeholder["hexes"] if x.get("number") in (3, 4, 5))
    sea = next(x for x in placeholder["hexes"] if x["terrain"] == "sea" and not x.get("ship_symbol")
               and "east" not in x.get("region", []))
    hex_of = lambda x: f"#editor g.edtile[data-hex='{x['at'][0]},{x['at'][1]}']"  # noqa: E731
    base, token = server
    page = watched(page_of(context(browser, token, viewport=PHONE)))
    page.goto(f"{base}/record?game=catan-troje")
    page.click("#options a[data-editor=board]")
    page.wait_for_url(re.compile(r"/games/catan-troje/boards/new$"))
    page.wait_for_selector("#ed-status.good")
    assert page.locator("#editor g.edtile").count() == len(placeholder["hexes"])
    name = f"Ons Troje {uuid.uuid4().hex[:6]}"
    page.fill("#editor input[data-field='name']", name)
    # Troy renamed: the scenario refuses the board, and says why under it
    tap(page, "#editor g.edtile[data-hex='2,-2']")  # (the board on a phone is an overview: a tap zooms first)
    city = page.locator("#editor .edhex input[type=text]")
    assert city.input_value() == "Troy"
    city.fill("Ilion")
    page.wait_for_selector("#ed-status.bad")
    assert "needs exactly one special hex named Troy (found 0)" in page.inner_text("#ed-error")
    assert page.evaluate("document.getElementById('ed-error').previousElementSibling.classList.contains('edboard')")
    assert page.is_disabled("#ed-save")
    city.fill("Troy")
    page.wait_for_selector("#ed-status.good")
    # a number token changed, a ship symbol added, each by a tap on the hex and one on the choice
    tap(page, hex_of(numbered))
    assert page.get_attribute(hex_of(numbered), "aria-pressed") == "true"
    page.click("#editor .edhex button[data-number='9']")
    assert page.locator(hex_of(numbered) + " text.number").text_content() == "9"
    tap(page, hex_of(sea))
    page.check("#editor .edhex input[type=checkbox]")
    page.wait_for_selector(hex_of(sea) + " path.shipsym")
    page.wait_for_selector("#ed-status.good")
    no_horizontal_scroll(page)
    problems = check(page, axe_source(), "Troje's board editor, a hex tapped")
    assert not problems, "\n".join(problems)
    page.locator("#editor .edboard").scroll_into_view_if_needed()
    page.screenshot(path=str(IMG / "board-editor-phone.png"))
    page.click("#ed-save")
    page.wait_for_selector("#ed-record")
    ours = next(it for it in api(base, token, "GET", "/games/catan-troje/boards").json()["items"] if it["name"] == name)
    page.click("#ed-record")
    page.wait_for_selector("#options .picker[data-path=board] button.document.on")
    assert page.get_attribute("#options .picker[data-path=board] button.document.on", "data-name") == name
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    view = api(base, token, "GET", f"/matches/{match_id}/state?seat=referee").json()
    assert view["board"]["hash"] == ours["hash"]
    assert next(x for x in view["layout"]["hexes"] if x["at"] == numbered["at"])["number"] == 9
    # the first move, the first player's decision card, tapped on the table; the changed number is drawn
    page.wait_for_selector("#board svg.hexboard")
    tap_scene_chance(page, {}, ["troy"], {"id": "side-0"})
    events = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    assert [e["type"] for e in events] == ["setup", "decision_card"] and events[-1]["data"]["side"] == "troy"
    assert "9" in page.locator("#board svg.hexboard .hex text.number").all_text_contents()
    assert not page.errors


@pytest.mark.slow(8)
def test_troje_ship_tiles_are_counted_per_colour_and_saved(server, browser):
    """The ship-tile editor: per colour a stepper per advantage; a colour
    named twice is refused at its field; the counts saved are the document's."""
    base, token = server
    page = watched(page_of(context(browser, token, viewport=PHONE)))
    page.goto(f"{base}/games/catan-troje/ship-tiles/new")
    page.wait_for_selector("#ed-status.good")
    name = f"Onze tegels {uuid.uuid4().hex[:6]}"
    page.fill("#editor input[data-field='name']", name)
    red = page.locator("#editor fieldset[data-colour='0']")
    red.locator(".edstep:has([data-advantage=victory_point]) button[data-step='1']").click()
    red.locator(".edstep:has([data-advantage=draw]) button[data-step='-1']").click()
    assert red.locator("[data-advantage=victory_point]").inner_text() == "3"
    blue = page.locator("#editor input[data-field='colours[1].colour']")
    blue.fill("Red")
    page.wait_for_selector("#editor input[data-field='colours[1].colour'][aria-invalid=true]")
    assert "colour 'Red' is listed twice" in page.inner_text("#ed-error")
    blue.fill("blue")
    page.wait_for_selector("#ed-status.good")
    problems = check(page, axe_source(), "Troje's ship-tile editor")
    assert not problems, "\n".join(problems)
    page.click("#ed-save")
    page.wait_for_selector("#ed-record")
    ours = next(it for it in api(base, token, "GET", "/games/catan-troje/ship-tiles").json()["items"] if it["name"] == name)
    doc = api(base, token, "GET", f"/games/catan-troje/ship-tiles/{ours['hash']}").json()["document"]
    assert doc["colours"][0] == {"colour": "red", "tiles": ["harbour_3to1", "harbour_3to1", "victory_point", "victory_point",
                                                            "victory_point", "swap", "trade_chip"]}
    page.click("#ed-record")
    page.wait_for_selector("#options .picker[data-path=ship_tiles] button.document.on")
    assert page.get_attribute("#options .picker[data-path=ship_tiles] button.document.on", "data-name") == name
