"""Catan recorded by tapping its table on a phone (issue 19): the board is a
hex board (engine/catan/scene.py drawn by scene.js), each settlement, city
and road tapped on its intersection or path, the robber on its hex, the dice
on the dice pad, the development cards on the deck and in the hand, a
maritime trade as one's own resource then the bank's pile, a trade with
another player on that player's hand. A whole game and
the opening placements of a 4- and a 6-player game, at 390x844."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M

from .test_web import (IMG, mostly_tapped, ZOOM_TO, api, click_and_wait, context, domestic_trade, follow, no_horizontal_scroll, page_of,
                       scene_place, seq_of, tap, tap_scene_chance, tap_scene_move, wait_for_seq)

NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]
RESOURCES = ("lumber", "brick", "wool", "grain", "ore")


def start(page, base, players=3):
    """A new Catan match from the record page's form, with ``players`` seats."""
    page.goto(f"{base}/record?game=catan")
    page.wait_for_selector("#options .field")
    while page.locator("#players input").count() < players:
        page.click("#add-player")
    assert page.locator("#players input").count() == players
    no_horizontal_scroll(page)
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    page.wait_for_selector("#board svg.hexboard")
    return page.url.rsplit("/", 1)[1]


def tap_move(page, ms, move, rng):
    """Tap ``move`` on the drawing (True), or say that it has no place there (False)."""
    place = scene_place(M.scene(ms, "referee"), move)
    if place is None:
        return False
    tap_scene_move(page, place, rng)
    return True


def open_fold(page):
    fold = page.locator("#moves details.fallback")
    if fold.count() and not fold.get_attribute("open"):
        fold.locator(":scope > summary").click()


def enter_trade(page, trade):
    """A domestic trade on the drawing: a tap on the other player's hand, the cards given (the picker's first
    row), the cards got (its second), Record."""
    before = seq_of(page)
    tap(page, f"#board [data-element='hand-{trade['data']['with']}']")
    for part, side in enumerate(("give", "get")):
        for res, n in trade["data"][side].items():
            for _ in range(n):
                tap(page, f"#board .scenepanel button.pick[data-part='{part}'][data-value='{res}']")
    tap(page, "#board .scenepanel button[data-scene-submit=trade]")
    wait_for_seq(page, before)


@pytest.mark.slow(40)
def test_a_physical_catan_game_is_recorded_to_its_end_by_tapping_on_a_phone(server, browser):
    """Three players, every event tapped on a 390x844 screen: set-up spots and
    roads on their intersections and paths (only the legal ones drawn as tap
    targets), dice on the dice pad, steals on the robbed hand and development
    cards on the deck (the first steal entered as unknown, as a table that did
    not see it would), the robber on its hex, maritime trades as a resource
    then the bank's pile, and one domestic trade picked on the other player's
    hand. The engine's greedy bot chooses each move
    (it plays to win; with this seed the game ends in 230 events); the
    test only taps what the page offers. At least 95% of the events come from the
    drawing and its pickers."""
    from engine.catan.bots import greedy_bot

    base, token = server
    page = page_of(context(browser, token))
    match_id = start(page, base)
    assert page.locator("#board svg.hexboard .hex").count() == 19
    # the 9 printed harbours, each labelled with what it trades (no tooltip needed on a phone)
    labels = page.locator("#board svg.hexboard text.harbour").evaluate_all("els => els.map((e) => e.textContent)")
    assert sorted(labels) == sorted(["3:1"] * 4 + [f"2:1 {r}" for r in RESOURCES])
    # the set-up's spots: every intersection a tap target, named by its hexes
    spots = page.locator("#board svg.hexboard .vertex[role=button]")
    assert spots.count() == 54
    first = spots.first.get_attribute("aria-label")
    assert re.match(r"Intersection \d+: (forest|hills|pasture|fields|mountains|desert|sea)", first), first
    assert page.locator("#board svg.hexboard .edge").count() == 0  # no path is a target before a road is due
    no_horizontal_scroll(page)
    # a seed whose game has every kind of event below and ends in 230 events (the first seeds' games took 210 to
    # 540, seed 11's 412): each event is a tap the browser, the page and the server all pay for
    rng = random.Random(42)
    unknown_steal = traded = shot = False
    entered = {"drawing": 0, "buttons": 0}
    ms = None
    for step in range(900):
        page.wait_for_function("() => document.querySelector('#match').dataset.seq")
        if page.locator("#status").inner_text().startswith("Finished"):
            break
        ms = follow(base, token, match_id, ms)
        actors = list(ms.game.actors(ms.state))
        if "chance" in actors:
            move = ms.game.chance_outcome(ms.state, random.Random(step)).to_dict()
            if move["type"] == "dice":
                values = [str(d) for d in move["data"]["dice"]]
            else:
                card = move["data"]["card"]
                if move["type"] == "steal" and card is not None and not unknown_steal:
                    card, unknown_steal = None, True  # the table did not see which card went
                values = ["unknown" if card is None else card]
            tap_scene_chance(page, M.scene(ms, "referee"), values)
            entered["drawing"] += 1
            continue
        trade = None if traded or step < 40 else domestic_trade(ms)
        if trade:
            enter_trade(page, trade)
            entered["drawing"] += 1
            traded = True
            continue
        seat = next(a for a in actors if isinstance(a, int))
        move = greedy_bot(ms.game, ms.state, seat, rng).to_dict()
        if step >= 60 and not shot and move["type"] in ("build_road", "build_settlement"):
            # for docs/ui.md: the board with the spots the player may build on outlined
            shot = True
            no_horizontal_scroll(page)
            page.evaluate("() => document.querySelector('#board').scrollIntoView({ block: 'start' })")
            page.screenshot(path=str(IMG / "catan-phone.png"))
        if tap_move(page, ms, move, rng):
            entered["drawing"] += 1
        else:
            from .test_web import click_move

            open_fold(page)
            click_move(page, move)
            entered["buttons"] += 1
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    types = [e["type"] for e in log]
    for kind in ("dice", "steal", "draw_dev", "trade_bank", "trade", "build_city", "move_robber"):
        assert kind in types, f"no {kind} was recorded: {sorted(set(types))}"
    trade = next(e for e in log if e["type"] == "trade")
    assert sum(trade["data"]["give"].values()) == 1 and sum(trade["data"]["get"].values()) == 1
    assert any(e["type"] == "steal" and e["data"]["card"] is None for e in log), "the unknown steal"
    assert page.locator("#board svg.hexboard rect.city").count() >= 1
    assert shot and len(log) > 200  # a whole game, not a shortened one
    # the move list, grown from the review's new steps at each move, holds every event once, in order
    assert page.locator("#log li").evaluate_all("els => els.map((e) => Number(e.dataset.seq))") == list(range(1, len(log) + 1))
    mostly_tapped(page, entered, len(log) - 1)
    no_horizontal_scroll(page)
    assert page.errors == []


@pytest.mark.slow(25)
@pytest.mark.parametrize("players", [4, 6])
def test_the_opening_placements_are_tapped_on_the_board(server, browser, players):
    """The set-up of a 3–4-player and a 5–6-player game (the larger board),
    each settlement on its intersection and each road on its path, two rounds
    (the second in reverse order); only the legal spots are tap targets, and
    then the first turn's dice are due on the dice pad."""
    base, token = server
    page = page_of(context(browser, token))
    match_id = start(page, base, players)
    assert page.locator("#board svg.hexboard .hex").count() == (19 if players == 4 else 30)
    rng = random.Random(players)
    ms = None
    order = []
    for _ in range(4 * players):
        ms = follow(base, token, match_id, ms)
        moves = [m for m in M.legal_moves(ms, ms.state.turn)]
        kind = moves[0]["type"]
        targets = page.locator(f"#board svg.hexboard .{'vertex' if kind == 'build_settlement' else 'edge'}[role=button]")
        assert targets.count() == len(moves)  # a tap target where a move is legal, nowhere else
        # big enough for a finger though the spots lie close: the whole board on a phone is an overview, which
        # zooms where it is tapped; there an intersection and a path are 24 px across (tests/test_web_fit.py)
        targets.first.evaluate(ZOOM_TO)
        width = targets.first.locator(".spot").bounding_box()["width"]
        assert width >= 23.5, width
        assert page.locator("#board svg.hexboard [role=button]").count() == len(moves)
        move = rng.choice(moves)
        order.append(move["seat"])
        assert tap_move(page, ms, move, rng)
    assert order == [s for s in [*range(players), *reversed(range(players))] for _ in (0, 1)]
    view = api(base, token, "GET", f"/matches/{match_id}/state?seat=referee").json()
    assert len(view["buildings"]) == len(view["roads"]) == 2 * players
    assert page.locator("#board svg.hexboard rect.settlement").count() == 2 * players
    assert page.locator("#board svg.hexboard line.road").count() == 2 * players
    before = seq_of(page)
    page.click("#board [data-element=dice]")  # the first roll, then the dice pad
    page.wait_for_function(f"() => Number(document.querySelector('#match').dataset.seq) > {before}")
    page.click("#board [data-element=dice]")
    panel = page.locator("#board .scenepanel")
    for v in ("3", "3"):
        panel.locator(f"button.pick[data-value='{v}']").click()
    click_and_wait(page, panel.locator("button[data-scene-submit=dice]"))
    log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    assert log[-1]["type"] == "dice" and log[-1]["data"]["dice"] == [3, 3]
    no_horizontal_scroll(page)
    assert page.errors == []
