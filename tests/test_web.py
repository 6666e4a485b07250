"""The pages, driven in a real Chromium (Debian's ``chromium`` through
Playwright; never a downloaded browser) against a real ``kroniek run``:
recording by clicking only, watching live, reviewing with the keyboard,
the seat selector's hidden cards (checked in the DOM), a league after a
played Swiss round, and no horizontal scroll on a 390x844 phone.

A browser that cannot start FAILS these tests (``.ci/run`` installs it);
they never skip. The README's screenshots are written here (docs/img).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import pytest
import requests

from engine import match as M

from .support.browser import OPEN_CONTEXTS

ROOT = Path(__file__).resolve().parents[1]
#: Where the screenshots go: KRONIEK_SCREENSHOTS when set (``make screenshots``
#: sets docs/img, to refresh the pictures the README and docs show), else a
#: folder of its own under the system's temporary directory, so a test run
#: leaves the checkout as it found it.
IMG = Path(os.environ.get("KRONIEK_SCREENSHOTS") or tempfile.mkdtemp(prefix="kroniek-screenshots-"))
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}

pytestmark = pytest.mark.slow


def context(browser, token=None, viewport=PHONE, engine=False, **options):
    """A fresh browser context (a phone by default). ``engine``: the match pages run the rules' own engine
    (tests/test_page_engine.py, tests/test_web_offline_tap.py); elsewhere it is turned off as a user turns it
    off on /me, and the pages draw each move from the server's answer, as on a phone without the engine.
    Loading it costs Chromium ~4.5 CPU-seconds per context, and most tests here are not about it."""
    ctx = browser.new_context(viewport=viewport, **options)
    OPEN_CONTEXTS.append(ctx)
    if token:
        ctx.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
    if not engine:
        ctx.add_init_script("if (!localStorage.getItem('kroniek.engine')) localStorage.setItem('kroniek.engine', 'off')")
    return ctx


def page_of(ctx):
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def api(base, token, method, path, **kw):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.request(method, f"{base}/api{path}", headers=headers, timeout=30, **kw)
    return r


def wait_until(check, timeout=60, what="condition", step=0.2):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(step)


def seq_of(page, root="#match"):
    return int(page.get_attribute(root, "data-seq") or 0)


def click_and_wait(page, locator):
    """Click a move; wait until the page shows the next seq (or an error)."""
    before = seq_of(page)
    locator.click()
    wait_for_seq(page, before)


def follow(base, token, match_id, ms=None):
    """The match as the server has it now: the events after ``ms`` (all of
    them when None) fetched and applied, every rule checked again (a whole
    game's log fetched and replayed at every step cost more than the page)."""
    after = 0 if ms is None else ms.seq
    events = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee&from={after + 1}").json()["events"]
    for _, _, ms in M.replay_steps(events, ms):
        pass
    return ms


def no_horizontal_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways: {width} px wide"


def play_braverats_by_api(base, token, match_id):
    """Both seats play their legal cards (Red its highest, Blue its lowest) to the end."""
    for _ in range(40):
        m = api(base, token, "GET", f"/matches/{match_id}").json()
        if m["status"] == "finished":
            return m
        moves = api(base, token, "GET", f"/matches/{match_id}/legal-moves").json()
        seats = [a for a in moves["to_act"] if isinstance(a, int)]
        seat = seats[0]
        options = api(base, token, "GET", f"/matches/{match_id}/legal-moves?seat={seat}").json()["moves"]
        move = options[-1] if seat == 0 else options[0]
        r = api(base, token, "POST", f"/matches/{match_id}/events", json=move)
        assert r.status_code == 201, r.text
    raise AssertionError("the match did not end")


# -- recording ----------------------------------------------------------------------------------


def test_a_move_list_that_fails_to_load_is_asked_for_again(server, browser):
    """A busy server or a dropped connection while the moves load (a 503, then
    none at all): the page asks again in a moment instead of showing no moves
    until the next event; the live stream is cut so only the retry can help."""
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()
    page = page_of(context(browser, token))
    page.route("**/stream*", lambda route: route.abort())
    failures = {"left": 2}

    def flaky(route):
        if failures["left"]:
            failures["left"] -= 1
            if failures["left"]:
                route.fulfill(status=503, content_type="application/json",
                              body='{"error": {"code": "unavailable", "message": "busy"}}')
            else:
                route.abort()
        else:
            route.continue_()

    page.route("**/legal-moves*", flaky)
    page.goto(f"{base}/matches/{match['id']}")
    # the text buttons, folded under the drawing, are fetched when the fold is opened: there once the list came
    page.click("#moves details.fallback > summary")
    page.wait_for_selector("#moves .group[data-seat='0'] button.move", timeout=10_000)
    assert failures["left"] == 0


def test_a_409_refreshes_the_screen_and_says_what_happened(server, browser):
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()
    page = page_of(context(browser, token))
    page.route("**/stream*", lambda route: route.abort())  # a flaky connection: no live updates reach this phone
    page.goto(f"{base}/matches/{match['id']}")
    page.click("#moves details.fallback > summary")  # the text buttons, folded under the drawing
    page.wait_for_selector("#moves .group[data-seat='0'] button.move")
    # someone else records Bob's card first, from another device
    r = api(base, token, "POST", f"/matches/{match['id']}/events",
            json={"type": "play", "seat": 1, "data": {"card": "spy"}, "expected_seq": 1})
    assert r.status_code == 201
    page.locator("#moves .group[data-seat='0'] button.move").first.click()
    page.wait_for_selector("#flash.error:not([hidden])")
    assert "Someone else recorded first" in page.locator("#flash").inner_text()
    page.wait_for_function("() => Number(document.querySelector('#match').dataset.seq) >= 2")
    assert api(base, token, "GET", f"/matches/{match['id']}").json()["seq"] == 2  # nothing recorded twice


def test_a_tap_on_a_stale_drawing_is_a_409_and_the_drawing_is_redrawn(server, browser):
    """The drawing sends through the page's own send: a tap on a table that
    another device moved on from is refused (expected_seq), said so, and the
    drawing redrawn as the match now stands; nothing is recorded twice. A
    watcher without a token sees the same table, with nothing to tap."""
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).json()["id"]
    for event in ({"type": "deal", "data": {"seed": 42}}, {"type": "roles", "data": {"twelves": 0, "first": 0}}):
        assert api(base, token, "POST", f"/matches/{match}/events", json=event).status_code == 201
    page = page_of(context(browser, token))
    page.route("**/stream*", lambda route: route.abort())  # no live updates reach this phone
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#board .scene button.el.hl")
    page.wait_for_selector("#match[data-seq='3']")  # the page whole: the drawing comes before the moves below it
    assert page.locator("#moves details.fallback:not([open])").count() == 1  # the text buttons, folded away
    ms = follow(base, token, match)
    first, second = ms.game.legal_moves(ms.state, 0)[:2]
    # someone else takes the first pair, from another device
    assert api(base, token, "POST", f"/matches/{match}/events", json={**first.to_dict(), "expected_seq": 3}).status_code == 201
    a, b = second.data["columns"]
    page.click(f"#board [data-element='column-{a}']")
    assert page.locator(f"#board [data-element='column-{b}'].target").count() == 1
    page.click(f"#board [data-element='column-{b}']")
    page.wait_for_selector("#flash.error:not([hidden])")
    assert "Someone else recorded first" in page.locator("#flash").inner_text()
    page.wait_for_function("() => Number(document.querySelector('#match').dataset.seq) >= 4")
    assert api(base, token, "GET", f"/matches/{match}").json()["seq"] == 4
    no_horizontal_scroll(page)

    watcher = page_of(context(browser))
    watcher.goto(f"{base}/matches/{match}")
    watcher.wait_for_selector("#board .scene [data-element='column-1']")
    assert watcher.locator("#board .scene button.el").count() == 0
    assert page.errors == [] and watcher.errors == []


def fill_chance(group, turn):
    """Fill a chance picker by tapping: each open slot gets the next value not yet taken."""
    for _ in range(80):
        alts = group.locator("button[data-alt]")
        if alts.count() and not group.locator("button[data-alt].on").count():
            alts.first.click()
            continue
        progressed = False
        for field in group.locator(".seqfield").all():
            m = re.match(r"(\d+) of (\d+)", field.locator(".count").inner_text())
            if m and int(m.group(1)) < int(m.group(2)):
                enabled = field.locator(".picker button.pick:not([disabled])")
                # different dice for different seats, so a tie-break die decides
                enabled.nth(min(int(m.group(1)) + turn, enabled.count() - 1)).click()
                progressed = True
                break
        for picker in group.locator(".picker[data-path]").all():  # one value: a drawn card, a village
            if not picker.locator("button.on").count():
                options = picker.locator("button.pick")  # from the end: cards the deals (from the start) left unseen
                options.nth(max(0, options.count() - 1 - turn)).click()
                progressed = True
                break
        if not progressed:
            return


def test_record_a_troubadour_opening_by_clicking(server, browser):
    base, token = server
    page = page_of(context(browser, token))
    page.goto(f"{base}/record?game=troubadour")
    page.wait_for_selector("#options .field")
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    # the table is drawn above, and the text buttons are folded away under it: opened, they stay open
    page.click("#moves details.fallback summary")
    kinds = []
    for turn in range(40):
        page.wait_for_selector("#moves .group")
        group = page.locator("#moves .group").first
        if group.get_attribute("data-type") == "chance":
            fill_chance(group, turn)
            click_and_wait(page, group.locator("button[data-submit]"))
        else:
            kinds.append(group.get_attribute("data-type"))
            # a decision tree: tap values until the move is whole (it is then sent)
            for _ in range(6):
                before = seq_of(page)
                crumbs = page.locator("#moves .crumb").count()
                group.locator("button.move").first.click()
                page.wait_for_function(
                    f"() => Number(document.querySelector('#match').dataset.seq) > {before}"
                    f" || document.querySelectorAll('#moves .crumb').length > {crumbs}"
                    " || document.querySelector('#flash.error:not([hidden])')", timeout=20_000)
                assert not page.locator("#flash.error:not([hidden])").count(), page.locator("#flash").inner_text()
                if seq_of(page) > before:
                    break
        log = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"]
        if any(e["type"] == "build" for e in log):
            break
    types = [e["type"] for e in log]
    assert types[:3] == ["setup", "deal", "deal"] and "choose" in types and "build" in types, types
    assert page.errors == []


# -- review -------------------------------------------------------------------------------------


def twaalven_with_a_blunder(base, token):
    """A physical Twaalven game in which one take is a pair over its quota
    (the worker annotates it ??); returns (match id, that seq)."""
    options = {"twelves_seat": 0, "first_seat": 0}
    ms = M.start(M.make_setup("twaalven", ["Ann", "Bob"], options, "physical"))
    ms = M.apply_event(ms, 2, "deal", None, M.normalize_event(ms, "deal", None, {"seed": 1}))
    moves, blunder = [], None
    while ms.result is None:
        seat = next(a for a in ms.game.actors(ms.state) if isinstance(a, int))
        pick = None
        for move in ms.game.legal_moves(ms.state, seat):
            data = M.normalize_event(ms, move.type, move.seat, move.data)
            after = M.apply_event(ms, ms.seq + 1, move.type, move.seat, data)
            notes = ms.game.annotate(ms.state, move.type, move.seat, data, after.state)
            if blunder is None and any(n.get("glyph") == "??" for n in notes):
                pick, blunder = move, ms.seq + 1
                break
        pick = pick or ms.game.legal_moves(ms.state, seat)[0]
        ms = M.apply_event(ms, ms.seq + 1, pick.type, pick.seat, M.normalize_event(ms, pick.type, pick.seat, pick.data))
        moves.append(pick.to_dict())
    assert blunder is not None
    match = api(base, token, "POST", "/matches", json={"game": "twaalven", "players": ["Ann", "Bob"],
                                                        "options": options}).json()
    assert api(base, token, "POST", f"/matches/{match['id']}/events",
               json={"type": "deal", "seat": None, "data": {"seed": 1}}).status_code == 201
    for move in moves:
        r = api(base, token, "POST", f"/matches/{match['id']}/events", json=move)
        assert r.status_code == 201, r.text
    return match["id"], blunder


def test_review_steps_with_the_keyboard_and_jumps_to_the_workers_blunder(server, browser):
    base, token = server
    match_id, blunder = twaalven_with_a_blunder(base, token)
    wait_until(lambda: any(a.get("glyph") == "??" and a["source"] == "worker"
                           for s in api(base, None, "GET", f"/matches/{match_id}/review").json()["steps"]
                           for a in s["annotations"]), what="the worker's ?? annotation")
    page = page_of(context(browser, viewport=DESKTOP))
    page.goto(f"{base}/matches/{match_id}/review")
    page.wait_for_selector("#review[data-listed]")
    last = api(base, None, "GET", f"/matches/{match_id}").json()["seq"]
    assert int(page.get_attribute("#review", "data-shown")) == last
    # the page opens at its top: only the move list scrolls to the current step, not the page
    assert page.evaluate("window.scrollY") == 0

    def shown():
        page.wait_for_function("() => document.querySelector('#review').dataset.shown === document.querySelector('#review').dataset.seq")
        return int(page.get_attribute("#review", "data-shown"))

    page.keyboard.press("Home")
    assert shown() == 1
    page.keyboard.press("ArrowRight")
    assert shown() == 2
    page.keyboard.press("j")
    assert shown() == 3
    page.keyboard.press("k")
    page.keyboard.press("ArrowLeft")
    assert shown() == 1
    page.keyboard.press("End")
    assert shown() == last
    page.keyboard.press("Home")
    page.keyboard.press("n")  # the next ?? or ?
    assert shown() == blunder
    current = page.locator("#steps li.current")
    assert "??" in current.get_attribute("data-glyphs") and "taken a third time" in current.inner_text()
    assert page.locator("#board [data-card]").count() >= 20  # the table at that step, cards drawn
    # drawn by its scene as it stood then, with nothing to tap (a review records nothing)
    then = api(base, None, "GET", f"/matches/{match_id}/scene?at={blunder}").json()
    tops = {e["id"]: e["shows"]["card"] for e in then["zones"][0]["elements"]}
    assert page.locator("#board .scene button.el").count() == 0
    for element, card in tops.items():
        top = page.locator(f"#board [data-element='{element}'] [data-card]").last
        assert (top.get_attribute("data-card") if card else None) == card
    page.screenshot(path=str(IMG / "review.png"))
    assert page.locator("#audit-result").inner_text().startswith("✓")
    assert page.errors == []


def test_the_seat_selector_never_puts_the_other_seats_hidden_cards_in_the_dom(server, browser):
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]}).json()
    mid = match["id"]
    for seat, face_up in ((0, ["AS", "2S", "3S", "4S", "5S"]), (1, ["AD", "2D", "3D", "4D", "5D"])):
        r = api(base, token, "POST", f"/matches/{mid}/events", json={"type": "deal", "seat": seat, "data": {"face_up": face_up}})
        assert r.status_code == 201, r.text
    secret = ["JH", "QH", "KH"]
    r = api(base, token, "POST", f"/matches/{mid}/events", json={"type": "choose", "seat": 0, "data": {"nobles": secret}})
    assert r.status_code == 201, r.text
    bob = api(base, token, "POST", "/users", json={"name": f"bob-{mid}"}).json()
    assert api(base, token, "POST", f"/matches/{mid}/roles",
               json={"user": bob["name"], "role": "player", "seat": 1}).status_code == 201

    def hidden_from(page):
        html = page.content()  # the whole DOM, not only what is on screen
        assert not any(f'data-card="{c}"' in html for c in secret), "Ann's secret nobles are in the DOM"
        assert "harten boer" not in html and '"JH"' not in html and "J♥" not in html and "♥J" not in html and "♥B" not in html

    # Bob, seat 1's player, on both pages: his view, and nothing else is his to pick
    ctx = context(browser, bob["token"], viewport=DESKTOP)
    for path in (f"/matches/{mid}/review", f"/matches/{mid}"):
        page = page_of(ctx)
        page.goto(f"{base}{path}?seat=1")
        page.wait_for_selector("#board .scene")  # Troubadour's table, drawn from seat 1's view
        page.wait_for_selector("#steps li, #log li")
        hidden_from(page)
        assert page.errors == []
    # without ?seat= Bob's pages open on his own seat (not the referee's view, which is not his)
    page = page_of(ctx)
    page.goto(f"{base}/matches/{mid}/review")
    page.wait_for_selector("#review[data-listed]")
    assert page.locator("#viewer").input_value() == "1"
    hidden_from(page)
    # the recorder's selector on the review: Ann's view shows them, Bob's and the public's do not
    page = page_of(context(browser, token, viewport=DESKTOP))
    page.goto(f"{base}/matches/{mid}/review?seat=0")
    page.wait_for_selector('#board [data-card="JH"]')
    for viewer in ("1", ""):
        page.select_option("#viewer", viewer)
        page.wait_for_function("() => !document.querySelector('#board [data-card=\"JH\"]')")
        page.wait_for_timeout(500)
        hidden_from(page)
    assert page.errors == []


def test_seat_public_on_the_pages_is_the_public_view_not_nan(server, browser):
    """A user tried ``?seat=public`` (as the pages name the public view): the
    review page asked the API for ``?seat=NaN`` and showed an empty page."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    r = api(base, token, "POST", f"/matches/{mid}/events", json={"type": "round", "data": {"cards": ["spy", "prince"]}})
    assert r.status_code == 201, r.text
    for who in (None, token):  # a reader, and the recorder (whose pages would open on the referee's view)
        for path in (f"/matches/{mid}/review", f"/matches/{mid}"):
            page = page_of(context(browser, who, viewport=DESKTOP))
            asked: list[str] = []
            page.on("request", lambda req: asked.append(req.url))
            page.goto(f"{base}{path}?seat=public")
            page.wait_for_selector("#steps li, #log li")
            page.wait_for_selector("#board .table, #board .scene")
            assert page.locator("#viewer").input_value() == "", path  # "the public" is picked
            assert [url for url in asked if "/api/" in url] and not [url for url in asked if "NaN" in url], asked
            assert page.locator("#flash.error:not([hidden])").count() == 0
            assert page.errors == []


def test_adding_a_glyph_and_comment_from_the_review(server, browser):
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()
    for seat in (0, 1):
        api(base, token, "POST", f"/matches/{match['id']}/events", json={"type": "play", "seat": seat, "data": {"card": "spy"}})
    page = page_of(context(browser, token))
    page.goto(f"{base}/matches/{match['id']}/review")
    page.wait_for_selector("#review[data-listed]")
    page.click("#annotate button[data-glyph='?!']")
    page.fill("#comment", "a Spy this early shows the hand")
    page.click("#save-note")
    page.wait_for_selector("#steps li.current .note[data-source=human]")
    notes = api(base, None, "GET", f"/matches/{match['id']}/annotations").json()["annotations"]
    assert notes[0]["glyph"] == "?!" and notes[0]["comment"] == "a Spy this early shows the hand" and notes[0]["seq"] == 3


# -- leagues ------------------------------------------------------------------------------------


def test_a_league_page_after_a_played_swiss_round(server, browser):
    base, token = server
    league = api(base, token, "POST", "/leagues", json={"name": "Winter Swiss", "game": "braverats", "format": "swiss",
                                                        "rounds": 3, "players": ["Ann", "Bob", "Cy", "Di"]}).json()
    lid = league["id"]
    page = page_of(context(browser, token, viewport=DESKTOP))
    page.goto(f"{base}/leagues/{lid}")
    page.wait_for_selector("#organiser:not([hidden]) #pair")
    page.click("#pair")  # the organiser pairs round 1 from the page…
    page.wait_for_selector(".lg-round[data-round='1'] button[data-start='1-1']")
    page.click("button[data-start='1-1']")  # …and starts board 1's match, which the board then links to
    record = page.locator(".lg-board[data-board='1'] a[data-record]")
    record.wait_for()
    matches = [record.get_attribute("data-record")]
    assert record.get_attribute("href") == f"/matches/{matches[0]}"
    matches.append(api(base, token, "POST", f"/leagues/{lid}/rounds/1/boards/2/match").json()["id"])
    for mid in matches:
        play_braverats_by_api(base, token, mid)
    for mid in matches:
        wait_until(lambda: api(base, None, "GET", f"/matches/{mid}").json()["validation"] == "valid", what="validation")
        r = api(base, token, "POST", f"/leagues/{lid}/results", json={"match": mid})
        assert r.status_code == 201, r.text
    wait_until(lambda: api(base, None, "GET", "/ratings/braverats").json().get("ratings"), what="the worker's ratings")
    page.goto(f"{base}/leagues/{lid}")
    page.wait_for_selector("#standings tbody tr")
    page.wait_for_selector("#ratings tbody tr")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 4
    assert page.locator("#standings thead th").count() > 8  # points, tiebreaks, games, W D L, byes, forfeits
    links = {a.get_attribute("data-match") for a in page.locator(".lg-round[data-round='1'] a[data-match]").all()}
    assert links == set(matches)
    assert page.locator(".lg-round[data-round='1'] .result").count() == 2
    standings = api(base, None, "GET", f"/leagues/{lid}/standings").json()["standings"]
    assert [r.locator("td").nth(1).inner_text() for r in rows.all()] == [s["player"] for s in standings]
    page.wait_for_selector("#audit:not(:empty)")
    page.screenshot(path=str(IMG / "standings.png"), full_page=True)
    phone = page_of(context(browser, token))
    phone.goto(f"{base}/leagues/{lid}")
    phone.wait_for_selector("#standings tbody tr")
    no_horizontal_scroll(phone)
    # each board's match and its review link back to the league, with the round and board
    for board, mid in enumerate(matches, 1):
        for path in (f"/matches/{mid}", f"/matches/{mid}/review"):
            phone.goto(base + path)
            back = phone.locator("#league-board")
            assert back.inner_text() == f"Winter Swiss · round 1, board {board}", path
            assert back.locator("a").get_attribute("href") == f"/leagues/{lid}"
    with phone.expect_navigation():
        phone.locator("#league-board a").click()
    assert phone.url == f"{base}/leagues/{lid}"
    dutch = page_of(context(browser, token))
    dutch.context.set_extra_http_headers({"Accept-Language": "nl"})
    dutch.goto(f"{base}/matches/{matches[1]}")
    assert dutch.locator("#league-board").inner_text() == "Winter Swiss · ronde 1, bord 2"
    # a match of no league has no such line
    plain = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    phone.goto(f"{base}/matches/{plain}")
    phone.wait_for_selector("#title")
    assert phone.locator("#league-board").count() == 0
    assert page.errors == [] and phone.errors == [] and dutch.errors == []


def test_no_page_scrolls_sideways_on_a_phone(server, browser):
    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "stapelen", "players": ["Ann", "Bob"]}).json()
    api(base, token, "POST", f"/matches/{match['id']}/events", json={"type": "deal", "seat": None, "data": {"seed": 7}})
    league = api(base, token, "POST", "/leagues", json={"name": "A league with a rather long name for a phone",
                                                        "game": "braverats", "format": "round_robin",
                                                        "players": ["Ann", "Bob", "Cy"]}).json()
    page = page_of(context(browser, token))
    for path in ("/", "/record", "/record?game=ridder_toernooi", "/record?game=braverats", f"/matches/{match['id']}",
                 f"/matches/{match['id']}/review", "/leagues", f"/leagues/{league['id']}"):
        page.goto(base + path)
        page.wait_for_selector("main")
        page.wait_for_timeout(1000)  # the scripts have drawn the page (a live page never goes network-idle)
        no_horizontal_scroll(page)
    assert page.errors == []


# -- every game, to its end ---------------------------------------------------------------------


def pick_values(page, scope, value, path):
    """Enter ``value`` into the schema form under ``scope`` by tapping only:
    cards and dice in their pickers, one sub-form per item, optional fields opened."""
    import json as _json

    def js(v):
        return _json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    if isinstance(value, dict):
        alts = scope.locator(":scope > button[data-alt], :scope > .picker > button[data-alt]")
        if alts.count():
            key = next(iter(value))
            scope.locator(f"button[data-alt='{key}']").first.click()
        for key, v in value.items():
            opt = scope.locator(f":scope > .optional > button[data-optional='{key}']")
            if opt.count():
                opt.click()
            field = scope.locator(f"[data-field='{key}']").first
            pick_values(page, field, v, f"{path}.{key}" if path else key)
        return
    if isinstance(value, list):
        seq = scope.locator(".seqfield").first
        arr = scope.locator(".arrayfield").first
        if seq.count() and (not arr.count() or seq.evaluate("(s, a) => a.contains(s)", arr.element_handle()) is False):
            for v in value:
                seq.locator(f".picker button[data-value='{js(v)}']").first.click()
            return
        boxes = arr.locator(":scope > .list > .box")
        while boxes.count() < len(value):
            arr.locator(":scope > button").click()
        for i, v in enumerate(value):
            pick_values(page, boxes.nth(i), v, f"{path}[{i}]")
        return
    picker = scope.locator(".picker[data-path]").first
    if picker.count():
        picker.locator(f"button[data-value='{js(value)}']").first.click()
    elif isinstance(value, bool):
        box = scope.locator("input[type=checkbox]").first
        if box.is_checked() != value:
            box.click()
    else:
        scope.locator("input").first.fill(str(value))  # a free number or name, as typed at a table


def click_move(page, move):
    """Tap through a group's decision tree to ``move``."""
    import json as _json

    seat = "table" if move["seat"] is None else str(move["seat"])
    group = page.locator(f"#moves .group[data-type='{move['type']}'][data-seat='{seat}']")
    leaves = {}

    def flatten(v, p=""):
        if isinstance(v, dict) and v:
            for k, x in v.items():
                flatten(x, f"{p}.{k}" if p else k)
        elif isinstance(v, list) and v:
            for i, x in enumerate(v):
                flatten(x, f"{p}[{i}]")
        else:
            leaves[p] = _json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    flatten(move["data"])
    before = seq_of(page)
    for _ in range(12):
        single = group.locator("button.move.big")
        if single.count():
            single.click()  # the move is whole: it is sent
            break
        path = group.locator("button.move").first.get_attribute("data-path")
        crumbs = page.locator("#moves .crumb").count()
        group.locator(f"button.move[data-path='{path}'][data-value='{leaves.get(path, '')}']").click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#match').dataset.seq) > {before}"
            f" || document.querySelectorAll('#moves .crumb').length > {crumbs}"
            " || document.querySelector('#flash.error:not([hidden])')", timeout=20_000)
        if seq_of(page) > before or page.locator("#flash.error:not([hidden])").count():
            break
    wait_for_seq(page, before)


def scene_place(scene, move):
    """Where ``move`` sits on a scene: ("element", id, choice) for a tap
    on one element (``choice``: its index in the picker, None when the tap
    sends it), ("pair", a, b, choice) for a tap on two, or None (fallback)."""
    def same(m):
        return (m["type"], m["seat"], m["data"]) == (move["type"], move["seat"], move["data"])

    for zone in scene["zones"]:
        for e in zone["elements"]:
            hits = [i for i, m in enumerate(e["moves"]) if same(m)]
            if hits:
                return ("element", e["id"], hits[0] if len(e["moves"]) > 1 else None)
            for other, moves in e["targets"].items():
                hits = [i for i, m in enumerate(moves) if same(m)]
                if hits:
                    return ("pair", e["id"], other, hits[0] if len(moves) > 1 else None)
    return None


#: resolves once the page shows a seq past ``before`` or an error: told by the page's own changes (a
#: MutationObserver), not by asking at every frame (wait_for_function's polling kept the browser drawing frames
#: and running the question ~60 times a second through each of a whole game's hundreds of moves)
SEQ_PAST = """([before, ms]) => new Promise((done) => {
  const root = document.querySelector('#match');
  const ready = () => Number(root.dataset.seq) > before || !!document.querySelector('#flash.error:not([hidden])');
  if (ready()) { done(true); return; }
  const stop = (ok) => { watch.disconnect(); clearTimeout(timer); done(ok); };
  const watch = new MutationObserver(() => { if (ready()) stop(true); });
  watch.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-seq', 'hidden', 'class'] });
  const timer = setTimeout(() => stop(ready()), ms);
})"""


def wait_for_seq(page, before, timeout=20_000):
    assert page.evaluate(SEQ_PAST, [before, timeout]), f"the page showed no seq past {before} within {timeout} ms"
    error = page.locator("#flash.error:not([hidden])")
    assert not error.count(), error.inner_text()


#: the element a CSS selector names, once a finger could tap it: the only match, enabled, in view (scrolled
#: there), and the element hit at its centre is it or inside it; then that centre, else null (not yet)
TAPPABLE = """(sel) => {
  const all = document.querySelectorAll(sel);
  if (all.length !== 1 || all[0].disabled) return null;
  const el = all[0];
  el.scrollIntoView({ block: "nearest", inline: "nearest" });
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
  return hit && el.contains(hit) ? [x, y] : null;
}"""


#: a spot on a board too fine for a finger as a whole (an overview, static/scene.js ``zoomable``): first the taps a
#: person makes: "Whole board" where another part of it is zoomed to, then on the board where the spot is, which
#: zooms to that part of it
ZOOM_FIRST = """const one = document.querySelectorAll(sel); const zoomed = one.length === 1 && one[0].closest('svg.hexboard.zoomed');
if (zoomed) { const r = one[0].getBoundingClientRect(), b = zoomed.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < b.left || x > b.right || y < b.top || y > b.bottom) {
    zoomed.closest('.zone, .edboard').querySelector('.wholeboard').click(); return null; } }
const board = one.length === 1 && one[0].closest('svg.hexboard.overview');
if (board) { one[0].scrollIntoView({ block: 'nearest' }); const r = one[0].getBoundingClientRect();
  board.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window,
    clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 })); return null; }"""


#: ``TAPPABLE``, and once it holds, the click on the element hit at its centre, in the same round trip: the
#: browser's own pointer events cost three more round trips a tap, most of a whole game's browser CPU
#: the same for an element already found: its board zoomed to it, if it was an overview (true: it zoomed)
ZOOM_TO = """(el) => { const board = el.closest('svg.hexboard.overview'); if (!board) return false;
  el.scrollIntoView({ block: 'nearest' }); const r = el.getBoundingClientRect();
  board.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window,
    clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 })); return true; }"""


TAP_IT = "(sel) => { " + ZOOM_FIRST + " const at = (" + TAPPABLE + ")(sel); if (!at) return null; " \
    "document.elementFromPoint(at[0], at[1]).dispatchEvent(new MouseEvent('click', " \
    "{ bubbles: true, cancelable: true, view: window, clientX: at[0], clientY: at[1] })); return true; }"


def tap(page, selector, timeout=20_000):
    """A finger on the element ``selector`` names: a click on what is hit at
    its centre, once it is the one element there to hit (``TAPPABLE``),
    checked and clicked in one round trip to the page (``TAP_IT``).
    Playwright's click checks the same and also waits for the element to
    hold still over two animation frames: ~36 ms and ~24 ms of the
    browser's CPU per click, against ~8 ms and ~8 ms with the mouse's own
    events, over the ~1,000 taps of a whole game (nothing on these pages
    moves); dispatched in the page, Troubadour's whole game took 28–30 s
    alone with those events and 21.5–25 s without. The pages act on the
    click alone (their keyboard is tested apart)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(TAP_IT, arg=selector, timeout=timeout)
    except PlaywrightTimeout:
        state = page.evaluate("""(sel) => { const all = document.querySelectorAll(sel); const el = all[0];
          if (!el) return 'missing'; const r = el.getBoundingClientRect(); const b = el.closest('svg');
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return `${all.length} match(es) at ${r.left.toFixed(0)},${r.top.toFixed(0)} ${r.width.toFixed(0)}x${r.height.toFixed(0)}` +
            (b ? ` in ${b.getAttribute('class')} ${b.getAttribute('viewBox')}` : '') + `; hit: ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`; }""", selector)
        raise AssertionError(f"nothing to tap at {selector!r}: missing, not the only match, disabled or covered ({state})") from None


def tap_scene_chance(page, scene, values, holder=None):
    """Enter a chance outcome on the drawing: tap the element that holds the
    picker (``holder``, else the scene's first), each value, then Record."""
    holder = holder or next(e for z in scene["zones"] for e in z["elements"] if e.get("chance"))
    before = seq_of(page)
    tap(page, f"#board [data-element='{holder['id']}']")
    for v in values:
        tap(page, f"#board .scenepanel button.pick[data-value='{v}']")
    tap(page, "#board .scenepanel button[data-scene-submit]")
    wait_for_seq(page, before)


def tap_scene_move(page, place, rng):
    """Enter a move on the drawing (``tap_at``) and wait until the page shows the next seq."""
    before = seq_of(page)
    tap_at(page, place, rng)
    wait_for_seq(page, before)


def tap_at(page, place, rng):
    """The taps on the drawing that enter a move: one tap, or two (either
    order), then the picker's choice when the place stands for several moves."""
    if place[0] == "element":
        taps, choice = [place[1]], place[2]
    else:
        taps, choice = rng.sample([place[1], place[2]], 2), place[3]
    for t in taps:
        tap(page, f"#board [data-element='{t}']")
    if choice is not None:
        # a picker of groups first (a knight's training: how many dice), then the move in its group
        group = page.evaluate(GROUP_OF, choice)
        if group is not None:
            tap(page, f"#board .scenepanel button[data-group='{group}']")
        tap(page, f"#board .scenepanel button[data-choice='{choice}']")


#: the group button of a two-step picker that holds the move ``choice`` (null: a one-step picker)
GROUP_OF = """(choice) => {
  const b = [...document.querySelectorAll("#board .scenepanel button[data-group]")]
    .find((b) => b.dataset.choices.split(",").includes(String(choice)));
  return b ? b.dataset.group : null;
}"""


def mostly_tapped(page, entered: dict[str, int], events: int | None = None, share: float = 0.95) -> None:
    """Issue 35's bar for a whole match recorded on a page: the page's own count of how its moves were entered
    (``#match``'s data-entered-on-drawing and data-entered-otherwise, set by record.js) agrees with the test's,
    matches the log (``events``: the events entered on the page) and says at least ``share`` came from the
    drawing and the pickers it opens."""
    counts = page.evaluate("() => { const d = document.querySelector('#match').dataset;"
                           " return [Number(d.enteredOnDrawing || 0), Number(d.enteredOtherwise || 0)]; }")
    assert counts == [entered["drawing"], entered["buttons"]], (counts, entered)
    total = sum(counts)
    assert total > 3 and (events is None or total == events), (counts, events)
    assert counts[0] >= share * total, f"only {counts[0]} of {total} moves were entered on the drawing"


#: the games drawn by their scene (engine/<game>/scene.py): recorded by tapping the drawing
SCENE_GAMES = {"sir_tommy", "stapelen", "twaalven"}


@pytest.mark.parametrize("game_id", [pytest.param("sir_tommy", marks=pytest.mark.slow(15)), "stapelen", "twaalven"])
def test_a_physical_game_is_recorded_to_its_end_by_tapping(server, browser, game_id):
    """A whole game entered by tapping: the engine draws the chance outcomes
    and picks the moves, the test only taps what it chose. A game with a
    scene is recorded on its drawing (its elements, and the pickers they
    open), and at least 90% of its events must come from there; the rest of
    the games (and any move the drawing has no place for) through the
    generic recorder: legal moves as buttons, chance pickers from the event
    schemas. (BraveRats, Troubadour, the knights' tournament and Catan are
    played to their end in their own tests, tests/test_web_<game>.py.)"""
    import random

    base, token = server
    drawn = game_id in SCENE_GAMES
    page = page_of(context(browser, token, viewport=PHONE if drawn else DESKTOP))
    page.goto(f"{base}/record?game={game_id}")
    page.wait_for_selector("#options .field, #options p")
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    rng = random.Random(7)
    ms = None
    entered = {"drawing": 0, "buttons": 0}
    shot = False
    for step in range(400):
        page.wait_for_function("() => document.querySelector('#match').dataset.seq")
        if page.locator("#status").inner_text().startswith("Finished"):
            break
        ms = follow(base, token, match_id, ms)
        actors = list(ms.game.actors(ms.state))
        scene = M.scene(ms, "referee") if drawn else None  # the page's own drawing, read where the server builds it
        if "chance" in actors:
            move = ms.game.chance_outcome(ms.state, random.Random(step)).to_dict()
            if drawn:
                data = move["data"]  # a deal is tapped as the table lays it out, row by row
                values = [data["columns"][i % 13][i // 13] for i in range(52)] if "columns" in data else data["cards"]
                tap_scene_chance(page, scene, values)
                entered["drawing"] += 1
                continue
            group = page.locator("#moves .group[data-type=chance]")
            if group.locator(f"button[data-chance='{move['type']}']").count():
                group.locator(f"button[data-chance='{move['type']}']").click()
            group.locator(".seatsel").select_option("" if move["seat"] is None else str(move["seat"]))
            pick_values(page, group.locator(".objectfield").first, move["data"], "")
            click_and_wait(page, group.locator("button[data-submit]"))
        else:
            moves = [m.to_dict() for a in actors for m in ms.game.legal_moves(ms.state, None if a == "table" else a)]
            move = rng.choice(moves)
            place = scene_place(scene, move) if drawn else None
            if place:
                if not shot and step >= 6 and place[0] == "pair":  # for docs/ui.md: the first of a pair tapped
                    page.click(f"#board [data-element='{place[1]}']")
                    # its partners, and only they, are marked: the elements it pairs with, either way
                    partners = {b for z in scene["zones"] for e in z["elements"] for b in e["targets"] if e["id"] == place[1]}
                    partners |= {e["id"] for z in scene["zones"] for e in z["elements"] if place[1] in e["targets"]}
                    marked = page.eval_on_selector_all("#board .el.target", "els => els.map((e) => e.dataset.element)")
                    assert sorted(marked) == sorted(partners)
                    page.screenshot(path=str(IMG / f"{game_id}-phone.png"))
                    page.click(f"#board [data-element='{place[1]}']")  # and let go again
                    page.wait_for_selector("#board .el.sel", state="detached")
                    shot = True
                tap_scene_move(page, place, rng)
                entered["drawing"] += 1
                continue
            fold = page.locator("#moves details.fallback")
            if fold.count() and not fold.get_attribute("open"):
                fold.locator("summary").click()
            click_move(page, move)
        entered["buttons"] += 1
    final = api(base, token, "GET", f"/matches/{match_id}").json()
    assert final["status"] == "finished", final
    assert page.errors == []
    if drawn:
        mostly_tapped(page, entered)
        no_horizontal_scroll(page)


# -- Catan: a board game recorded by tapping ---------------------------------------------------


def value_at(data, path):
    """The value at a decision-tree path ("cards.wool", "hex", "a[0]") of a move's data; None when absent."""
    import json as _json

    for part in re.findall(r"[^.[\]]+", path):
        if isinstance(data, list):
            data = data[int(part)] if int(part) < len(data) else None
        elif isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return _json.dumps(data, ensure_ascii=False, separators=(",", ":")) if data is not None else ""


def tap_move(page, move):
    """Tap a move's buttons as the page offers them: at each level the button whose value the move has."""
    seat = "table" if move["seat"] is None else str(move["seat"])
    group = page.locator(f"#moves .group[data-type='{move['type']}'][data-seat='{seat}']")
    before = seq_of(page)
    for _ in range(12):
        single = group.locator("button.move.big")
        if single.count():
            single.click()
            break
        path = group.locator("button.move").first.get_attribute("data-path")
        crumbs = page.locator("#moves .crumb").count()
        group.locator(f"button.move[data-path='{path}'][data-value='{value_at(move['data'], path)}']").click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#match').dataset.seq) > {before}"
            f" || document.querySelectorAll('#moves .crumb').length > {crumbs}"
            " || document.querySelector('#flash.error:not([hidden])')", timeout=20_000)
        if seq_of(page) > before or page.locator("#flash.error:not([hidden])").count():
            break
    wait_for_seq(page, before)


def domestic_trade(ms):
    """A one-for-one trade the player to move could make with someone (from the log's knowledge), or None."""
    from engine.catan.game import MAIN, RES

    s = ms.state
    if s.phase != MAIN:
        return None
    mine = s.hands[s.turn][-1].known
    for other in range(s.cfg.n):
        theirs = s.hands[other][-1].known
        for give in range(5):
            for get in range(5):
                if other != s.turn and give != get and mine[give] and theirs[get]:
                    return {"type": "trade", "seat": s.turn, "data": {"with": other, "give": {RES[give]: 1}, "get": {RES[get]: 1}}}
    return None


def test_a_six_player_catan_match_starts_from_the_page_with_the_turn_model_picked(server, browser):
    """The turn model is a pick of four (null leaves it to the default rule),
    special_building_phase a pick of three: an untouched form leaves both
    null, so six players get the Special Building Phase (an unticked checkbox
    used to send false and turn it off), and picking "paired" gives the paired
    players' turn."""
    base, token = server
    page = page_of(context(browser, token))
    for picked, sbp, paired in ((None, True, False), ("paired", False, True)):
        page.goto(f"{base}/record?game=catan")
        page.wait_for_selector("#options .field")
        for _ in range(3):
            page.click("#add-player")
        assert page.locator("#players input").count() == 6
        if picked:
            choice = page.locator(f"#options [data-path=turn_model] button[data-value='\"{picked}\"']")
            assert choice.inner_text() == "paired players"  # the value in words, never the API's id
            choice.click()
        page.click("#start")
        page.wait_for_url(re.compile(r"/matches/[^/]+$"))
        match_id = page.url.rsplit("/", 1)[1]
        setup = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][0]["data"]
        assert setup["options"]["special_building_phase"] is None  # not a checkbox's false
        assert setup["options"]["turn_model"] == picked
        ms = M.replay(api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"])
        assert (ms.state.cfg.sbp, ms.state.cfg.paired) == (sbp, paired)
    assert page.errors == []


# The whole Catan game recorded by tapping its board is in tests/test_web_catan.py.


# -- Troje: the scenario on Catan's board ----------------------------------------------------------


def troje_poster(base, token, match_id):
    """post(ms, type, seat, data): the event recorded through the API, and the match as it then stands."""
    def post(ms, type_, seat, data):
        r = api(base, token, "POST", f"/matches/{match_id}/events", json={"type": type_, "seat": seat, "data": data})
        assert r.status_code == 201, r.text
        return M.apply_event(ms, ms.seq + 1, type_, seat, M.normalize_event(ms, type_, seat, data))
    return post


def troje_replay(base, token, match_id):
    return M.replay(api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"])


def troje_set_up(ms, post, ann=()):
    """The (rest of the) set-up: every seat's first legal placement, Ann's
    settlements on the intersections ``ann`` where she can."""
    while ms.game.phase_names[ms.state.phase].startswith("setup"):
        (seat,) = ms.game.actors(ms.state)
        moves = ms.game.legal_moves(ms.state, seat)
        move = next((m for m in moves if seat == 0 and m.data.get("vertex") in ann), moves[0])
        ms = post(ms, move.type, move.seat, move.data)
    return ms


# Troje recorded by tapping its table: tests/test_web_troje.py.


# -- issue 19: the defects a new user met -------------------------------------------------------


HASH = re.compile(r"\b[0-9a-f]{64}\b")


def test_the_knights_form_names_card_sets_options_and_choices_in_words(server, browser):
    """Issue 19, the knights' record form, on a phone:
    (a) the card_set option was drawn as knight buttons K01-K10, and starting then failed ("no card-sets
        document 'K03'"): it offers the stored card sets by name, never a hash, and a match starts with the
        one picked;
    (b) checkboxes were labelled with raw option keys: they read as the options' titles;
    (c) help texts were raw schema ("SHA-256 ...", "null: ..."): they are words;
    (d) the deal picker said "0 of undefined–2";
    (e) two training buttons both read "none" (one meant "choose some", the other "no more");
    (f) the seat selector called the seats "seat 0"."""
    base, token = server
    page = page_of(context(browser, token))
    page.goto(f"{base}/record?game=ridder_toernooi")
    sets = page.locator("#options [data-option=card_set] button.document")
    sets.first.wait_for()
    options = page.locator("#options")
    page.wait_for_selector("#options [data-option=bare_knight] .picker")
    text = options.inner_text()
    # (a)
    assert sets.count() == len(api(base, None, "GET", "/games/ridder_toernooi/card-sets").json()["items"])
    assert "Voorlopige kaartset" in sets.first.inner_text() and not HASH.search(text)
    assert not re.search(r"\bK\d\d\b", text), "no knight buttons in the options"
    # (b)
    checks = options.locator("label.check").all_inner_texts()
    assert checks and all("_" not in c for c in checks), checks
    assert "Play with ladies" in [c.strip() for c in checks]
    # (c)
    assert "SHA-256" not in text and "null:" not in text and "GET /api" not in text and "undefined" not in text
    sets.first.click()
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        if page.locator("#players input").count() <= i:
            page.click("#add-player")
        page.fill(f"#players input >> nth={i}", name)
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    setup = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][0]["data"]
    assert setup["players"] == ["Ann", "Bob", "Cy"] and setup["options"]["cards"]["name"].startswith("Voorlopige kaartset")
    # (d)
    page.click("#moves details.fallback > summary")  # the generic form, folded under the drawing
    deal = page.locator("#moves .group[data-type=chance]")
    deal.locator("button[data-alt=knights]").click()  # the deal per player (its other form: the cards as dealt)
    deal.locator(".seqfield .count").first.wait_for()
    counts = deal.locator(".seqfield .count").all_inner_texts()
    assert counts and all(c == "0 of up to 2" for c in counts), counts
    assert "undefined" not in deal.inner_text()
    # (f)
    assert page.locator("#viewer option").all_inner_texts()[1:4] == ["Ann", "Bob", "Cy"]
    r = api(base, token, "POST", f"/matches/{match_id}/events", json={"type": "deal", "seat": None, "data": {
        "knights": [["K01", "K02"], ["K03", "K04"], ["K05", "K06"]], "ladies": [["L01", "L02"], ["L03", "L04"], ["L05", "L06"]]}})
    assert r.status_code == 201, r.text
    # (e) Ann trains her first knight: no extra dice, one covered field
    train = page.locator("#moves .group[data-type=train][data-seat='0']")
    train.locator("button.move[data-value='\"K01\"']").click()
    train.locator("button.move[data-path=dice][data-value='0']").click()
    labels = train.locator("button.move").all_inner_texts()
    assert sorted(labels) == ["fields covered: choose…", "fields covered: none"], labels
    train.locator("button.move[data-path=cover][data-value='']").click()
    train.locator("button.move[data-path='cover[0]'][data-value='1']").click()
    labels = train.locator("button.move").all_inner_texts()
    assert "no more" in labels and len(labels) == len(set(labels)), labels
    click_and_wait(page, train.locator("button.move[data-path='cover[1]'][data-value='']"))
    last = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][-1]
    assert (last["type"], last["seat"], last["data"]["knight"], last["data"]["dice"], last["data"]["cover"]) == ("train", 0, "K01", 0, [1])
    no_horizontal_scroll(page)
    assert page.errors == []


def test_seats_are_players_by_name_and_only_the_matchs_seats_are_offered(server, browser):
    """Issue 19: Catan's trade form offered seats 3-5 in a 3-player game, and its help read
    '{"wool": 2, "ore": 1}'; a seat was called "seat 0". The new-match form names the start player's
    choices by the players as they are typed, and offers only as many as there are players."""
    base, token = server
    page = page_of(context(browser, token))
    page.goto(f"{base}/record?game=catan")
    start = page.locator("#options [data-option=start_seat] .picker button")
    start.first.wait_for()
    assert page.locator("#players input").count() == 3
    assert page.locator("#players").inner_text().count("seat") == 0
    page.fill("#players input >> nth=0", "Ann")
    page.fill("#players input >> nth=1", "Bob")
    page.fill("#players input >> nth=2", "Cy")
    visible = [b.inner_text() for b in start.all() if b.is_visible()]
    assert visible == ["Ann", "Bob", "Cy"], visible
    page.click("#add-player")
    assert [b.inner_text() for b in start.all() if b.is_visible()] == ["Ann", "Bob", "Cy", "Player 4"]
    page.locator("#players .playerrow").last.locator("input").fill("Di")
    start.nth(3).click()
    page.locator("#players .playerrow").last.evaluate("row => row.remove()")  # back to three
    page.locator("#players input").first.dispatch_event("input")
    assert [b.inner_text() for b in start.all() if b.is_visible()] == ["Ann", "Bob", "Cy"]
    # Di was picked to start, and left: the first player starts, not a seat the match will not have
    assert page.locator("#options [data-option=start_seat] button.on").inner_text() == "Ann"
    start.nth(1).click()  # Bob starts
    page.click("#start")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"))
    match_id = page.url.rsplit("/", 1)[1]
    setup = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee").json()["events"][0]["data"]
    assert setup["players"] == ["Ann", "Bob", "Cy"] and setup["options"]["start_seat"] == 1
    # the trade form (one of the moves not listed): with whom, by name, three seats only; under the text
    # buttons, folded below the board (Catan is recorded by tapping its board)
    page.click("#moves details.fallback > summary")
    page.click("#moves details.othermoves summary")
    page.click("#moves button[data-other=trade]")
    form = page.locator("#moves details.othermoves")
    partners = form.locator("[data-field=with] .picker button")
    assert partners.all_inner_texts() == ["Ann", "Bob", "Cy"]
    assert form.locator(".seatsel option").all_inner_texts() == ["Ann", "Bob", "Cy"]
    text = form.inner_text()
    assert '{"' not in text and "`" not in text and "seat" not in text.lower().replace("seatsel", ""), text
    assert "seat 0" not in page.locator("#viewer").inner_text()
    no_horizontal_scroll(page)
    assert page.errors == []


def test_the_review_keeps_its_list_and_notices_to_the_step_shown(server, browser):
    """Issue 19's smaller review defects, on a phone:
    (a) on load the current step sat outside the step list's visible box;
    (b) each step's summary was repeated word for word as a worker note;
    (c) the "No ?? or ? after this move" notice stayed after moving elsewhere;
    (d) the audit said "1 events" for a count of one (checked through K.plural)."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    play_braverats_by_api(base, token, mid)
    wait_until(lambda: api(base, None, "GET", f"/matches/{mid}").json()["validation"] == "valid", what="validation")
    steps = api(base, None, "GET", f"/matches/{mid}/review").json()["steps"]
    repeated = [s["seq"] for s in steps if any(a.get("text") == s["summary"] for a in s["annotations"])]
    assert repeated, "the worker's notes repeat the summaries (what the page must not show twice)"
    page = page_of(context(browser))
    page.goto(f"{base}/matches/{mid}/review")
    page.wait_for_selector("#review[data-listed]")
    # (a) within a moment (rows off screen take their real heights a frame or two after the scroll)
    where = """() => { const list = document.querySelector('#steps'), box = list.getBoundingClientRect();
        const at = document.querySelector('#steps li.current').getBoundingClientRect();
        return {box: [box.top, box.bottom], current: [at.top, at.bottom], scrolls: list.scrollHeight > box.height,
                inside: box.top - 1 <= at.top && at.bottom <= box.bottom + 1}; }"""
    try:
        page.wait_for_function(f"() => ({where})().inside", timeout=3000)  # a function: the CSP refuses eval
    except Exception:
        raise AssertionError(f"the current step is outside the list's box: {page.evaluate(where)}") from None
    assert page.evaluate(where)["scrolls"], "the list is longer than its box (else the check says nothing)"
    # (b) read as text, not as rendered: a row off screen is not rendered (content-visibility: auto), and its
    # rendered text is "" for the summary and every note alike, which the check took for a repeat
    for li in page.locator("#steps li").all():
        summary = (li.locator(".summary").text_content() or "").strip()
        assert summary, "a step without its summary"
        assert summary not in [n.strip() for n in li.locator(".note").all_text_contents()], summary
    # (c) from the last step there is no ?? or ? further on: the notice comes, and goes on stepping back
    page.keyboard.press("n")
    page.wait_for_selector("#flash:not([hidden])")
    assert page.locator("#flash").inner_text() == "No ?? or ? after this move."
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("#flash", state="hidden", timeout=2000)
    # (d)
    assert page.evaluate("[Kroniek.plural(1, 'event'), Kroniek.plural(3, 'event'), Kroniek.counted(1, 'matches')]") == \
        ["1 event", "3 events", "1 match"]
    page.wait_for_selector("#audit-result")
    assert re.search(rf"· {len(steps)} events ·", page.locator("#audit").inner_text())
    assert page.errors == []


def test_home_and_the_table_name_games_and_players_in_words(server, browser):
    """Issue 19's smaller defects on the home page and the generic table, on a phone:
    (a) home listed game ids ("ridder_toernooi:") instead of names;
    (b) "1 events";
    (c) home said Troje is for "4–6 players" (it is 4 or 6);
    (d) a player's box on the table said "seat 0" under the player's name."""
    base, token = server
    rt = api(base, token, "POST", "/matches", json={"game": "ridder_toernooi", "players": ["Ann", "Bob"]}).json()["id"]
    tr = api(base, token, "POST", "/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]}).json()["id"]
    page = page_of(context(browser))
    page.goto(f"{base}/")
    row = page.locator(f"#matches li:has(a[href='/matches/{rt}'])")
    # (a)
    assert row.locator("a").first.inner_text() == "Ridder-toernooi (Ritter ohne Furcht und Tadel): Ann – Bob"
    assert "ridder_toernooi" not in page.locator("#matches").inner_text()
    # (b)
    assert row.locator(".muted").inner_text() == "in progress, 1 event"
    # (c)
    assert page.locator("#games li:has(a[href='/record?game=catan-troje']) .muted").inner_text() == "4 or 6 players"
    no_horizontal_scroll(page)
    # (d)
    page.goto(f"{base}/matches/{tr}")  # Troubadour's table, drawn as a scene: each player's zones by name
    page.wait_for_selector("#board .scene [data-zone='seat-0'] .zonetitle")
    assert page.locator("#board [data-zone='seat-0'] .zonetitle").inner_text() == "Ann"
    assert page.locator("#board [data-zone='villages-1'] .zonetitle").inner_text() == "Villages of Bob"
    assert not re.search(r"\bseat \d", page.locator("main").inner_text())
    assert page.errors == []


def test_start_pressed_before_the_picked_games_form_arrived_starts_that_game(server, browser):
    """A game named in the address is picked at once, but its form comes from
    the API: Start pressed before it arrived waited for it and started the
    match (it said "Pick a game first." though a game was picked; under load a
    whole-game test met this as a 30 s wait for a match page)."""
    base, token = server
    page = page_of(context(browser, token))
    held = []  # the game's definition, held back until Start is pressed
    page.route("**/api/games/braverats", lambda route: held.append(route))
    page.goto(f"{base}/record?game=braverats")
    assert page.locator("#players input").count() == 0 and held  # the form is not there yet
    page.click("#start")
    page.wait_for_timeout(100)
    assert not page.locator("#flash.error:not([hidden])").count(), page.locator("#flash").inner_text()
    for route in held:
        route.continue_()
    page.unroute("**/api/games/braverats")
    page.wait_for_url(re.compile(r"/matches/[^/]+$"), timeout=10_000)
    match = api(base, token, "GET", f"/matches/{page.url.rsplit('/', 1)[1]}").json()
    assert match["game"] == "braverats" and len(match["players"]) == 2
    assert page.errors == []
