"""Troubadour recorded on its table (issue 19): a whole physical game entered
on a 390x844 phone by tapping the drawing (engine/troubadour/scene.py) and
the pickers it opens, in Debian's Chromium against a real ``kroniek run``."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M

from .test_web import (
    IMG,
    mostly_tapped,
    api,
    context,
    follow,
    no_horizontal_scroll,
    page_of,
    scene_place,
    seq_of,
    tap_scene_chance,
    tap_scene_move,
    wait_for_seq,
)

pytestmark = pytest.mark.slow


def lucky_chance(ms, rng):
    """A chance outcome the table could have seen that helps the player it
    falls to: a deal with the four aces face up, then each turned card the
    lowest one its castles need, if that card can be the one (else the lowest
    card that can). The engine refuses what cannot be, so every outcome is
    legal; a game of such luck ends in ~340 events instead of ~1,600."""
    from engine.troubadour.cards import CARD_IDS

    move = ms.game.chance_outcome(ms.state, rng)
    if move.type == "deal":
        return move.type, move.seat, {"face_up": ["AS", "AD", "AC", "AH", "2S"]}
    if move.type not in ("flip", "turn_up"):
        return move.type, move.seat, move.data
    castles = ms.state.players[move.seat].castles
    for c in sorted(range(40), key=lambda c: (castles[c // 10] != c % 10, c % 10, c)):
        data = {**move.data, "card": CARD_IDS[c]}
        try:
            M.apply_event(ms, ms.seq + 1, move.type, move.seat, M.normalize_event(ms, move.type, move.seat, data))
        except Exception:  # noqa: BLE001 - not a card that can be turned here
            continue
        return move.type, move.seat, data
    return move.type, move.seat, move.data


def elements(scene):
    return {e["id"]: e for z in scene["zones"] for e in z["elements"]}


def partners(scene, element):
    """The elements ``element`` makes a pair with, either way."""
    out = set(elements(scene)[element]["targets"])
    return out | {e["id"] for e in elements(scene).values() if element in e["targets"]}


def tap_picker(page, scene, type_, seat, values):
    """Enter ``values`` with the picker for an event ``type_`` of ``seat``:
    tap the element that holds it, each value, then Record. False when the
    drawing has no such picker."""
    holder = next((e for e in elements(scene).values() if e.get("chance") and e["chance"]["type"] == type_
                   and (type_ == "die" or e["chance"]["seat"] == seat)), None)
    if holder is None:
        return False
    tap_scene_chance(page, scene, values, holder)
    return True


def tap_place(page, scene, place, rng):
    """Enter a move on the drawing: a tap on its element, or on its two
    elements in either order; then the picker's choice where the place
    stands for several moves (or for one, on an element that is also one
    of a pair: a tap there opens its moves, and a tap on a partner would
    still make the pair)."""
    if place[0] == "element" and place[2] is None and partners(scene, place[1]):
        place = (place[0], place[1], 0)
    tap_scene_move(page, place, rng)


@pytest.mark.slow(60)
def test_a_physical_troubadour_game_is_recorded_to_its_end_by_tapping(server, browser):
    """Two players, every event tapped on a 390x844 phone, on the drawing:
    the deals and the turned cards in the pickers on the draw piles, the
    turned-up village cards in the picker on their village, the secret trios
    in the picker on each player's nobles, the die of equal trios, every
    build as a card and where it goes, the nobles, the end of each turn.
    Once the text buttons: a discard pile turned over shuffled, against the
    rules (the log forgets its order), which has no place on the table. The
    engine's greedy bot picks the moves; the chance outcomes are the
    luckiest the table could have seen (``lucky_chance``), so the game ends
    in a few hundred events instead of ~1,600. At least 90% of the events
    must come from the drawing."""
    from engine.troubadour.bots import greedy_bot

    base, token = server
    page = page_of(context(browser, token))
    refreshes = []  # the match page's fetches of the state: one per move (its answer and its echo on the stream)
    page.on("request", lambda r: refreshes.append(r.url) if re.search(r"/api/matches/[^/]+/state", r.url) else None)
    page.goto(f"{base}/record?game=troubadour")
    page.wait_for_selector("#options .field")
    assert page.locator("#players input").count() == 2
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#board .scene [data-element='draw-0']")
    rng = random.Random(5)  # a seed whose game turns a discard pile over (so a shuffle can be entered): 380 events
    order = random.Random(7)  # which of a pair is tapped first (apart, so the game stays the one of seed 5)
    entered = {"drawing": 0, "buttons": 0}
    shuffled = shot = False
    ms = None
    for step in range(1200):
        ms = follow(base, token, match_id, ms)  # what the page shows: each tap below waits for its whole new seq
        if ms.result is not None:
            break
        scene = M.scene(ms, "referee")  # the page's own drawing, read where the server builds it
        actors = list(ms.game.actors(ms.state))
        if "chance" in actors:
            s = ms.state
            if not shuffled and s.current is not None and s.turn.flip is not None and s.players[s.current].ndraw == 0:
                # the discard pile is turned over to be the draw pile, and the table shuffled it: the text buttons
                fold = page.locator("#moves details.fallback")
                if not fold.get_attribute("open"):
                    fold.locator("summary").click()
                group = page.locator("#moves .group[data-type=chance]")
                group.locator("button[data-chance=shuffled]").click()
                group.locator(".seatsel").select_option(str(s.current))
                before = seq_of(page)
                group.locator("button[data-submit=shuffled]").click()
                wait_for_seq(page, before)
                fold.locator("summary").click()  # folded away again
                shuffled = True
                entered["buttons"] += 1
                continue
            type_, seat, data = lucky_chance(ms, rng)
            values = data["face_up"] if type_ == "deal" else data["rolls"] if type_ == "die" else [data["card"]]
            assert tap_picker(page, scene, type_, seat, values), (ms.seq, type_)
            entered["drawing"] += 1
            continue
        seat = next(a for a in actors if isinstance(a, int))
        move = greedy_bot(ms.state, seat, rng).to_dict()
        if move["type"] == "choose":  # the secret trio: the picker on the player's nobles
            assert tap_picker(page, scene, "choose", seat, move["data"]["nobles"]), ms.seq
            entered["drawing"] += 1
            continue
        place = scene_place(scene, move)
        assert place, (ms.seq, move)  # every move has its place on the table
        if not shot and step >= 20 and place[0] == "pair" and place[1].startswith(("discard-", "village-")):
            # for docs/ui.md: a card tapped, and the places it may go marked
            page.click(f"#board [data-element='{place[1]}']")
            marked = page.eval_on_selector_all("#board .el.target", "els => els.map((e) => e.dataset.element)")
            assert sorted(marked) == sorted(partners(scene, place[1]))
            no_horizontal_scroll(page)
            page.locator("#board").screenshot(path=str(IMG / "troubadour-phone.png"))
            page.click(f"#board [data-element='{place[1]}']")  # and let go again
            page.wait_for_selector("#board .el.sel", state="detached")
            shot = True
        tap_place(page, scene, place, order)
        entered["drawing"] += 1
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Finished')")
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    types = [e["type"] for e in log]
    for kind in ("deal", "choose", "turn_over", "flip", "turn_up", "shuffled", "build", "end_turn"):
        assert kind in types, f"no {kind} was recorded: {sorted(set(types))}"
    assert sum(1 for e in log if e["type"] == "build" and e["data"]["to"] == "castle") >= 40  # four whole castles
    mostly_tapped(page, entered, len(log) - 1)  # every event but the setup
    assert shot and len(log) > 300  # a whole game, not a shortened one
    # each move fetched and drawn once (both refreshed once, the second again after the first: 1.8 per move)
    assert len(refreshes) <= 1.05 * len(log) + 5, (len(refreshes), len(log))
    no_horizontal_scroll(page)
    assert page.errors == []
