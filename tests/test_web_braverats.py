"""A whole BraveRats match recorded on a 390x844 phone by tapping its table
(engine/braverats/scene.py) while the public watches it live in a second
browser: a round is a tap on Red's card and one on Blue's, a card played
alone a tap on the card and one on its seat's place on the table. Every
event's way in is counted: at least 90% must come from the drawing."""

from __future__ import annotations

import random
import re

import pytest

from engine import match as M

from .test_web import (
    IMG,
    mostly_tapped,
    api,
    click_and_wait,
    context,
    follow,
    no_horizontal_scroll,
    page_of,
    scene_place,
    seq_of,
    tap_scene_chance,
    tap_scene_move,
)

pytestmark = pytest.mark.slow


def test_record_a_whole_braverats_match_by_tapping_the_table_while_another_browser_watches(server, browser):
    base, token = server
    recorder = page_of(context(browser, token))
    posts: list[dict] = []
    recorder.on("request", lambda r: posts.append(r.headers) if r.method == "POST" and r.url.endswith("/events") else None)
    recorder.goto(f"{base}/record")
    recorder.click("text=BraveRats")
    recorder.wait_for_selector("#options .field")
    no_horizontal_scroll(recorder)
    recorder.fill("#players input >> nth=0", "Ann")
    recorder.fill("#players input >> nth=1", "Bob")
    recorder.click("#start")
    recorder.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = recorder.url.rsplit("/", 1)[1]
    recorder.wait_for_selector("#board .scene button.el.hl")
    recorder.wait_for_selector("#match[data-seq='1']")  # the page whole: the drawing comes before the moves below it
    assert recorder.locator("#moves details.fallback:not([open])").count() == 1  # the text buttons, folded away

    watcher = page_of(context(browser))  # the public, no token
    watcher.goto(f"{base}/matches/{match_id}")
    watcher.wait_for_selector("#live[data-state=live]")
    watcher.wait_for_selector("#board .scene [data-element='hand-0-prince']")
    assert watcher.locator("#recorder").is_hidden()
    assert watcher.locator("#board .scene button.el").count() == 0  # nothing to tap for the public

    rng = random.Random(3)
    entered = {"drawing": 0, "buttons": 0}
    seen: list[int] = []
    ms = None
    shot = False
    for turn in range(40):
        recorder.wait_for_function("() => document.querySelector('#match').dataset.seq")
        if recorder.locator("#status").inner_text().startswith("Finished"):
            break
        ms = follow(base, token, match_id, ms)
        scene = M.scene(ms, "referee")  # the recorder's drawing, read where the server builds it
        move = choose(ms).to_dict()
        place = scene_place(scene, move)
        assert place is not None and place[0] == "pair", (move, place)
        if not shot and len(ms.state.rounds) >= 3 and move["type"] == "round":
            # for docs/ui.md: Ann's card tapped, the places it may go marked (Bob's cards, her own place)
            first = place[1] if place[1].startswith("hand-0-") else place[2]
            recorder.click(f"#board [data-element='{first}']")
            marked = recorder.eval_on_selector_all("#board .el.target", "els => els.map((e) => e.dataset.element)")
            assert "place-0" in marked and place[2 if first == place[1] else 1] in marked
            assert all(m.startswith("hand-1-") or m == "place-0" for m in marked), marked
            recorder.locator("#board").screenshot(path=str(IMG / "braverats-phone.png"))  # the whole table
            recorder.click(f"#board [data-element='{first}']")  # and let go again
            recorder.wait_for_selector("#board .el.sel", state="detached")
            shot = True
        tap_scene_move(recorder, place, rng)
        entered["drawing"] += 1
        seq = seq_of(recorder)
        watcher.wait_for_selector(f"#log li[data-seq='{seq}']", timeout=10_000)  # the move appears live
        seen.append(seq)
        if turn == 3:
            recorder.evaluate("window.scrollTo(0, 0)")
            recorder.screenshot(path=str(IMG / "record-phone.png"))
    assert shot
    assert recorder.locator("#status").inner_text().startswith("Finished")
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished" and final["seq"] == seen[-1] == len(seen) + 1
    ms = follow(base, token, match_id, ms)
    kinds = {e["type"] for e in api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]}
    assert {"round", "play"} <= kinds  # both ways onto the table were tapped
    mostly_tapped(recorder, entered, len(seen))
    watcher.wait_for_selector(f"#match[data-seq='{seen[-1]}']")
    assert watcher.locator("#status").inner_text() == recorder.locator("#status").inner_text()
    # the watcher's table shows every round played, face up
    assert watcher.locator("#board [data-zone='rounds'] .el.trick").count() == len(ms.state.rounds)
    assert posts and all(h.get("idempotency-key") for h in posts), "every move carries an Idempotency-Key"
    assert len({h["idempotency-key"] for h in posts}) == len(posts)
    no_horizontal_scroll(recorder)
    no_horizontal_scroll(watcher)
    # the last move was a recording mistake: undo is still one tap after the end
    click_and_wait(recorder, recorder.locator("#undo"))
    assert recorder.locator("#status").inner_text().startswith("In progress")
    watcher.wait_for_selector(f"#log li[data-seq='{seen[-1] + 1}']", timeout=10_000)
    watcher.wait_for_selector(f"#log li[data-seq='{seen[-1]}'].undone")
    recorder.wait_for_selector("#board .scene button.el.hl")  # the table is tappable again
    assert recorder.errors == [] and watcher.errors == []


def choose(ms):
    """The next event as the table makes it: Ann plays her highest card
    left, Bob his lowest; in even rounds both cards are turned over together
    (one ``round``), in odd rounds laid down one by one (two ``play``s, the
    seat a Spy makes play first going first)."""
    hands = {s: ms.game.legal_moves(ms.state, s) for s in (0, 1)}
    pick = {0: lambda moves: moves[-1], 1: lambda moves: moves[0]}
    if ms.state.pending != (None, None):  # one card lies face down: the other's is due
        seat = 0 if hands[0] else 1
        return pick[seat](hands[seat])
    if len(ms.state.rounds) % 2 == 0:
        cards = [pick[s](hands[s]).data["card"] for s in (0, 1)]
        return next(m for m in ms.game.legal_moves(ms.state, None) if m.data["cards"] == cards)
    first = ms.state.spy_first if ms.state.spy_first is not None else 0
    return pick[first](hands[first])


def test_a_draw_pile_match_is_recorded_with_the_piles_picker_and_unseen_cards(server, browser):
    """Variant B on a phone: each draw is entered on the draw piles' picker,
    Red's cards then Blue's (one list per seat); Bob's first three are
    entered unknown, so his cards are the hand's face-down cards, named in
    the picker a tap on them and a partner opens. The whole match comes
    from the drawing."""
    base, token = server
    match_id = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"],
                                                          "options": {"variants": ["B"]}}).json()["id"]
    page = page_of(context(browser, token))
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_selector("#match[data-seq='1']")
    rng = random.Random(5)
    entered = {"drawing": 0, "buttons": 0}
    ms = None
    unseen_taps = 0
    for step in range(60):
        page.wait_for_function("() => document.querySelector('#match').dataset.seq")
        if page.locator("#status").inner_text().startswith("Finished"):
            break
        ms = follow(base, token, match_id, ms)
        scene = M.scene(ms, "referee")
        if "chance" in ms.game.actors(ms.state):
            cards = ms.game.chance_outcome(ms.state, random.Random(step)).data["cards"]
            if step == 0:
                cards = [cards[0], ["unknown"] * len(cards[1])]
            holder = next(e for z in scene["zones"] for e in z["elements"] if e.get("chance"))
            assert holder["chance"]["groups"] == [len(c) for c in cards]
            tap_scene_chance(page, scene, cards[0] + cards[1])
        else:
            moves = [m.to_dict() for a in ms.game.actors(ms.state)
                     for m in ms.game.legal_moves(ms.state, None if a == "table" else a)]
            move = rng.choice(moves)
            place = scene_place(scene, move)
            assert place is not None, move
            unseen_taps += "unseen-1" in place
            tap_scene_move(page, place, rng)
        entered["drawing"] += 1
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    events = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
    draws = [e["data"]["cards"] for e in events if e["type"] == "draw"]
    assert draws[0][1] == ["unknown"] * 3 and len(draws[0][0]) == 3 and all(len(d[0]) == 1 for d in draws[1:])
    assert unseen_taps, "no card was named from Bob's face-down cards"
    mostly_tapped(page, entered, len(events) - 1)
    no_horizontal_scroll(page)
    assert page.errors == []
