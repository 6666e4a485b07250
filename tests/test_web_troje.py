"""Troje recorded by tapping its table on a phone (issue 19): Catan's board
with the scenario's sea (engine/troje/scene.py drawn by scene.js), the
decision cards entered on each seat's card, ships built and the sea people
moved on the sea tiles, donations, blind draws and battles on the support
stack, the trade chips on their piles, and the reveal on the saga track."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M
from engine.catan.scene import SEAT_COLOURS

from .test_web import (IMG, mostly_tapped, api, context, follow, no_horizontal_scroll, page_of, scene_place, seq_of, tap,
                       tap_scene_chance, tap_scene_move, wait_for_seq)

NAMES = ["Ann", "Bob", "Cor", "Dirk"]
#: the initial support stack the test's form gives (the default's four and a brick)
STACK = {"lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1}
#: the greedy bot's seed, with STACK, whose game holds every kind of Troje event but a trade chip taken (a tap on a
#: pile like any other; tests/engine/test_troje_scene.py reaches it) and ends in 172 events: of the first 400 seeds
#: the shortest game with a chip as well took 245 events, and each event costs the suite a third of a second
SEED = 17


def next_move(ms, step, rng):
    """What the table does next: the engine draws a chance outcome, the
    greedy bot picks a seat's move (the test's game, and ``test_the_seed``'s)."""
    from engine.troje.bots import greedy_bot

    actors = list(ms.game.actors(ms.state))
    if "chance" in actors:
        return ms.game.chance_outcome(ms.state, random.Random(step)).to_dict()
    seat = next(a for a in actors if isinstance(a, int))
    return greedy_bot(ms.game, ms.state, seat, rng).to_dict()


def picked(scene, move):
    """The element holding the picker for the chance ``move`` and the values the table taps there."""
    holder = next(e for z in scene["zones"] for e in z["elements"] if (e.get("chance") or {}).get("type") == move["type"])
    value = move["data"][holder["chance"]["field"]]
    if move["type"] == "dice":
        return holder, [str(d) for d in value]
    if holder["chance"].get("counts"):
        return holder, [r for r, k in value.items() for _ in range(k)]
    return holder, ["unknown" if value is None else value]


#: every kind of event the whole game must hold
KINDS = {"decision_card", "dice", "steal", "ship_tile", "stack_card", "return_card", "battle",
         "build_ship", "move_sea_people", "use_advantage", "donate", "trade_bank", "build_city"}


def test_the_seed_s_game_holds_every_kind_of_event():
    """The browser test's game, played without the browser: it ends, and it
    holds every kind of event (a change to the bot or the engine that
    shortens it is caught here, not as a slow browser failure)."""
    ms = M.start(M.make_setup("catan-troje", NAMES, {"initial_stack": STACK}))
    rng = random.Random(SEED)
    kinds = set()
    for step in range(1000):
        if ms.result:
            break
        move = next_move(ms, step, rng)
        kinds.add(move["type"])
        ms = M.apply_event(ms, ms.seq + 1, move["type"], move["seat"],
                           M.normalize_event(ms, move["type"], move["seat"], move["data"], by_server=True))
    assert ms.result is not None and KINDS <= kinds, sorted(KINDS - kinds)


@pytest.mark.slow(35)
def test_a_whole_troje_game_is_recorded_by_tapping_on_a_phone(server, browser):
    """Four players at 390x844, from the new-match page to the end: every
    event tapped on the drawing or entered with a picker it opens, the
    greedy bot choosing each move. On the way: the board's sea tiles, ship
    symbols and the two cities; a ship in its owner's colour with its
    advantage; the sea people; the review page draws the table at each step."""
    base, token = server
    page = page_of(context(browser, token))
    page.goto(f"{base}/record?game=catan-troje")
    page.wait_for_selector("#options .field")
    assert page.locator("#players input").count() == 4  # the scenario is for 4 or 6
    for i, name in enumerate(NAMES):
        page.fill(f"#players input >> nth={i}", name)
    # the initial support stack: a stepper per resource from the default (one lumber, grain, wool and ore)
    stack = page.locator("#options .counts[data-path=initial_stack]")
    stack.locator("b[data-count]").last.wait_for()
    stack.locator(".count[data-key=brick] button[data-step='1']").click()  # a brick more: five cards
    no_horizontal_scroll(page)
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    setup = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][0]["data"]
    assert setup["options"]["initial_stack"] == STACK
    page.wait_for_selector("#board svg.hexboard")
    view = api(base, token, "GET", f"/matches/{match_id}/state?seat=referee").json()
    board = page.locator("#board svg.hexboard")
    sea = view["troje"]["sea_tiles"]
    assert board.locator(".hex").count() == len(view["layout"]["hexes"]) + len(sea)
    assert board.locator(".hex path.symbol").count() == sum(t["ship_symbol"] for t in sea) > 0
    assert sorted(board.locator("text.hexname").all_text_contents()) == ["Mycenae", "Troy"]
    assert "PLACEHOLDER layout" in page.locator("#board [data-zone=board] .zonetitle").inner_text()
    assert page.locator("#board [data-element=support-stack] .caption").inner_text().startswith("Support stack 5/10")
    # the whole board in the phone's width, nothing scrolls sideways (not even inside the board's box); its hexes
    # at least a finger wide (its spots are tapped zoomed: tests/test_web_fit.py checks every target)
    assert board.bounding_box()["width"] <= 390
    assert board.locator(".hex .tile").first.bounding_box()["width"] >= 24
    no_horizontal_scroll(page)

    rng = random.Random(SEED)
    order = random.Random(7)  # which of a pair is tapped first (apart, so the game stays the seed's)
    entered = {"drawing": 0, "buttons": 0}
    ms = None
    shot = False
    for step in range(1000):
        page.wait_for_function("() => document.querySelector('#match').dataset.seq")
        if page.locator("#status").inner_text().startswith("Finished"):
            break
        ms = follow(base, token, match_id, ms)
        scene = M.scene(ms, "referee")
        move = next_move(ms, step, rng)
        if not shot and any(t.get("ship") for t in ms.view("referee")["troje"]["sea_tiles"]) and ms.state.phase == 7:
            shot = True  # the first ship on the board, the sea people moved: for docs/ui.md, and its drawing checked
            tile = next(t for t in ms.view("referee")["troje"]["sea_tiles"] if t.get("ship"))
            i = ms.view("referee")["troje"]["sea_tiles"].index(tile)
            ship = board.locator(f"[data-element='sea-{i}'] path.ship")
            owner = tile["ship"]["owner"]
            # in its owner's colour, the colour of that player's settlements
            assert ship.get_attribute("fill") == SEAT_COLOURS[owner]
            assert board.locator(f".vertex rect.piece[fill='{SEAT_COLOURS[owner]}']").count() >= 2
            assert board.locator(f"[data-element='sea-{i}'] text.advantage").text_content()
            assert f"{NAMES[owner]}'s ship" in board.locator(f"[data-element='sea-{i}']").evaluate(
                "(g) => g.getAttribute('aria-label') || g.querySelector('title').textContent")
            assert board.locator(".hex path.people").count() == 1
            page.evaluate("() => document.querySelector('#board').scrollIntoView({ block: 'start' })")
            page.screenshot(path=str(IMG / "troje-phone.png"))
        if move["seat"] is None or move["type"] in ("dice", "steal", "decision_card", "ship_tile", "stack_card", "battle"):
            holder, values = picked(scene, move)
            tap_scene_chance(page, scene, values, holder)
            entered["drawing"] += 1
            continue
        place = scene_place(scene, move)
        if place is None:
            raise AssertionError(f"no place on the table for {move}")
        tap_scene_move(page, place, order)
        entered["drawing"] += 1
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    assert KINDS <= {e["type"] for e in log}, sorted(KINDS - {e["type"] for e in log})
    assert shot
    assert page.locator("#log li").evaluate_all("els => els.map((e) => Number(e.dataset.seq))") == list(range(1, len(log) + 1))
    mostly_tapped(page, entered, len(log) - 1)
    no_horizontal_scroll(page)

    # the review draws the table of each step: the ships at the end, none at the start
    review = page_of(context(browser, token))
    review.goto(f"{base}/matches/{match_id}/review")
    review.wait_for_selector("#review[data-listed]")
    review.wait_for_selector("#board svg.hexboard path.ship")
    ships = sum(1 for t in ms.view("referee")["troje"]["sea_tiles"] if t.get("ship"))
    assert review.locator("#board svg.hexboard path.ship").count() == ships
    review.keyboard.press("Home")
    review.wait_for_function("() => document.querySelector('#review').dataset.shown === '1'")
    assert review.locator("#board svg.hexboard path.ship").count() == 0
    no_horizontal_scroll(review)
    assert page.errors == [] and review.errors == []


def test_a_troje_battle_and_the_reveal_are_entered_on_the_table(server, browser):
    """Allegiances unknown until the reveal, a one-field saga track and a full
    support stack from the start: Ann donates a card the recorder did not see
    ("donates, cards not seen", a count), her end of turn brings a battle,
    whose turned-up cards are tapped on the support stack; the battle ends the
    war, and the table lays its decision cards open on the saga track (a side
    may come more than once). The forms under "Other ways" offer the same
    values (resources, or unknown)."""
    from engine.troje import support as SU

    from .test_web import troje_poster, troje_replay, troje_set_up

    base, token = server
    options = {"allegiances": "at_reveal", "saga_track": [6],
               "initial_stack": {"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 2}}
    match = api(base, token, "POST", "/matches", json={"game": "catan-troje", "players": NAMES,
                                                        "options": options}).json()
    match_id = match["id"]
    post = troje_poster(base, token, match_id)
    ms = troje_set_up(troje_replay(base, token, match_id), post)
    ms = post(ms, "roll", 0, {})
    ms = post(ms, "dice", None, {"dice": [1, 2]})
    page = page_of(context(browser, token))
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_selector("#board [data-element=end-turn]")
    assert page.locator("#board [data-element=support-stack] .caption").inner_text().startswith("Support stack 10/10")
    # the forms of the cards a table may enter: the resources (or unknown) as buttons, a donation as steppers
    offered = page.evaluate("""async () => {
      const game = await Kroniek.game("catan-troje"), ctx = { game, labels: new Boards.Labels(game, null), players: ["Ann", "Bob", "Cor", "Dirk"] };
      const form = (type) => SchemaForm.build(game.event_types[type].schema, "", { ...ctx, type }).node;
      const values = (node, path) => [...node.querySelectorAll(`.picker[data-path="${path}"] button.pick`)].map((b) => JSON.parse(b.dataset.value));
      const keys = (node, path) => [...node.querySelectorAll(`.counts[data-path="${path}"] .count`)].map((c) => c.dataset.key);
      const donate = form("donate");
      donate.querySelector("button[data-alt=cards]").click();  // the cards as seen, or (unseen) their count
      return { steal: values(form("steal"), "card"), stack_card: values(form("stack_card"), "card"),
               return_card: values(form("return_card"), "card"), take_chip: values(form("take_chip"), "resource"),
               donate: keys(donate, "cards"), atomic: ["tile", "ship", "hex", "victim"].map((p) => Boards.atomic(game, p)) };
    }""")
    resources = ["lumber", "brick", "wool", "grain", "ore"]
    assert offered == {"steal": resources + [None], "stack_card": resources + [None], "return_card": resources + [None],
                       "take_chip": resources, "donate": resources, "atomic": [True, True, True, False]}
    # Ann lays a card face down on the stack, unseen by the recorder: a count
    assert ms.state.hands[0][-1].size >= 1
    before = seq_of(page)
    tap(page, "#board [data-element=donate-unseen]")
    tap(page, "#board .scenepanel button.pick[data-value='1']")
    tap(page, "#board .scenepanel button[data-scene-submit=donate]")
    wait_for_seq(page, before)
    donation = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][-1]
    assert (donation["type"], donation["seat"], donation["data"]) == ("donate", 0, {"cards": None, "count": 1})
    assert page.locator("#board [data-element=support-stack] .caption").inner_text().startswith("Support stack 11/10")
    assert "trade points 1" in page.locator("#board [data-element=score-0] .caption").inner_text()
    assert page.locator("#board [data-element=donate-unseen]").count() == 0  # once a turn
    before = seq_of(page)
    tap(page, "#board [data-element=end-turn]")
    wait_for_seq(page, before)

    # the stack holds a card nobody saw: the table taps the 7 cards it turned up
    turned = next(c for c in ((2, 2, 2, 1, 0), (2, 1, 2, 2, 0), (0, 2, 1, 2, 2), (2, 2, 0, 2, 1)) if SU.winner(c) == "troy")
    values = [r for r, k in zip(resources, turned) for _ in range(k)]
    tap_scene_chance(page, M.scene(troje_replay(base, token, match_id), "referee"), values,
                     {"id": "support-stack"})
    battle = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][-1]
    assert battle["type"] == "battle" and battle["data"]["revealed"] == {r: k for r, k in zip(resources, turned) if k}
    assert "The war is over: Troy won it" in page.locator("#board [data-element=war] .caption").inner_text()
    assert page.locator("#board [data-element=saga] .track").first.locator("i.on").count() == 1

    # the reveal: the table's move, on the saga track, a side per seat
    sides = ["mycenae", "troy", "troy", "mycenae"]
    tap_scene_chance(page, M.scene(troje_replay(base, token, match_id), "referee"), sides, {"id": "saga"})
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    assert log[-1]["type"] == "reveal_allegiances" and log[-1]["seat"] is None and log[-1]["data"]["sides"] == sides
    assert page.locator("#status").inner_text().startswith("Finished")
    shown = [page.locator(f"#board [data-element=side-{s}] .caption").inner_text() for s in range(4)]
    assert shown == [f"Decision card: {'Troy' if s == 'troy' else 'Mycenae'}" for s in sides]
    no_horizontal_scroll(page)
    assert page.errors == []
