"""Recording at a table without a network (issue 23; docs/ui.md, "Recording
offline"): a match page opened once opens again offline (static/sw.js), the
moves entered go into the device's outbox (static/offline.js) and reach the
server in order, each exactly once, when the network is back; a conflict or
a refusal stops the sending until the recorder chooses. In Debian's Chromium
on a 390x844 phone, the network cut by the browser context's offline switch."""

from __future__ import annotations

import time

import pytest

from engine import match as M

from .support.browser import CHROMIUM
from .test_web import IMG, PHONE, api, context, follow, page_of, pick_values, scene_place, tap, wait_until
from .test_web_pages import axe_source, check

pytestmark = pytest.mark.slow

#: what a match page needs to open again offline: its HTML (the service worker's) and the API answers the
#: page keeps (offline.js), the recorder's (the referee's view)
KEPT_JS = """async ([page, paths]) => !!(await caches.match(page)) &&
  (await Promise.all(paths.map((p) => Kroniek.offline.kept(p)))).every(Boolean)"""


def no_problems(problems):
    assert not problems, "\n".join(problems)


def kept_for_offline(page, match_id):
    paths = [f"/api/matches/{match_id}", f"/api/matches/{match_id}/roles", f"/api/matches/{match_id}/state?seat=referee",
             f"/api/matches/{match_id}/review?seat=referee&from=1", "/api/me"]
    deadline = time.monotonic() + 30
    while not page.evaluate(KEPT_JS, [f"/matches/{match_id}", paths]):
        assert time.monotonic() < deadline, "the page and its answers were never kept on the device"
        page.wait_for_timeout(100)


def waiting(page):
    return page.locator("#outbox-list li").count()


def wait_waiting(page, n, timeout=20_000):
    page.wait_for_function(f"() => document.querySelectorAll('#outbox-list li').length === {n}", timeout=timeout)


def enter(page, move):
    """Enter ``move`` with the pickers built from its event type's schema (what the page offers while moves
    wait that the server has not seen), then wait for it in the outbox's list."""
    before = waiting(page)
    if not page.locator(f"#moves button[data-entry='{move['type']}'].on").count():
        tap(page, f"#moves button[data-entry='{move['type']}']")
    if move["seat"] is not None:
        page.select_option("#entry-seat", str(move["seat"]))
    form = page.locator("#moves .entry .objectfield").first
    if move["data"] and form.count():
        pick_values(page, form, move["data"], "")
    tap(page, f"#moves button[data-submit-entry='{move['type']}']")
    wait_waiting(page, before + 1)


def tap_offline(page, place):
    """A move tapped on the drawing while offline: it goes into the outbox (the page shows no new seq)."""
    before = waiting(page)
    taps = [place[1]] if place[0] == "element" else [place[1], place[2]]
    for t in taps:
        tap(page, f"#board [data-element='{t}']")
    choice = place[2] if place[0] == "element" else place[3]
    if choice is not None:
        tap(page, f"#board .scenepanel button[data-choice='{choice}']")
    wait_waiting(page, before + 1)


def braverats_offline(server, browser, first, **options):
    """A new BraveRats match opened once on a phone, then the network cut and ``first`` tapped on its drawing
    (the page knows the legal moves at the state the server last sent). Returns the match, the context and
    the page."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    ctx = context(browser, token, **options)
    page = page_of(ctx)
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='1'] #board .scene button.el.hl")
    kept_for_offline(page, mid)
    ctx.set_offline(True)
    tap_offline(page, scene_place(M.scene(follow(base, token, mid), "referee"), first))
    return mid, ctx, page


def braverats_series() -> list[dict]:
    """A BraveRats series (variant G) of two games, 21 moves: each game's eight cards played one by one (Red
    its highest, Blue its lowest), the loser choosing no variant for the second game."""
    ms = M.start(M.make_setup("braverats", ["Ann", "Bob"], {"variants": ["G"]}))
    moves, seq = [], 1
    while ms.result is None:
        move = None
        for seat in (0, 1):
            legal = [m for m in M.legal_moves(ms, seat) if m["type"] != "undo"]
            if legal:
                plain = [m for m in legal if m["type"] == "choose_variant" and m["data"]["variants"] == []]
                move = plain[0] if plain else legal[-1] if seat == 0 else legal[0]
                break
        assert move is not None, "a chance event: not in this series"
        seq += 1
        ms = M.apply_event(ms, seq, move["type"], move["seat"], move["data"])
        moves.append(move)
    return moves


def catan_at_the_dice(base, token) -> tuple[str, list[dict]]:
    """A physical 3-player Catan match through its set-up (by the API), and the turns to record offline: a
    roll, its dice, the end of the turn, twice (the dice never a 7: no robber here)."""
    mid = api(base, token, "POST", "/matches", json={"game": "catan", "players": ["Ann", "Bob", "Cor"]}).json()["id"]
    for _ in range(40):
        legal = api(base, token, "GET", f"/matches/{mid}/legal-moves").json()
        seat = next(a for a in legal["to_act"] if isinstance(a, int))
        moves = api(base, token, "GET", f"/matches/{mid}/legal-moves?seat={seat}").json()["moves"]
        if any(m["type"] == "roll" for m in moves):
            break
        assert api(base, token, "POST", f"/matches/{mid}/events", json=moves[0]).status_code == 201
    ms = follow(base, token, mid)
    turns, seq = [], ms.seq
    for dice in ([2, 3], [4, 4]):
        seat = next(s for s in range(3) if any(m["type"] == "roll" for m in M.legal_moves(ms, s)))
        for move in ({"type": "roll", "seat": seat, "data": {}}, None, {"type": "end_turn", "seat": seat, "data": {}}):
            if move is None:
                due = M.chance_due(ms)[0]
                move = {"type": due["type"], "seat": due.get("seat"), "data": {"dice": dice}}
            seq += 1
            ms = M.apply_event(ms, seq, move["type"], move["seat"], move["data"])
            turns.append(move)
    return mid, turns


def logged(base, token, match_id, after):
    events = api(base, token, "GET", f"/matches/{match_id}/events?seat=referee&from={after + 1}").json()["events"]
    return [{"type": e["type"], "seat": e["seat"], "data": e["data"]} for e in events]


def test_a_table_records_offline_reloads_offline_and_every_move_reaches_the_server_once_in_order(server, browser):
    base, token = server
    series = braverats_series()
    assert len(series) >= 20
    rats = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"],
                                                      "options": {"variants": ["G"]}}).json()["id"]
    catan, turns = catan_at_the_dice(base, token)
    catan_seq = api(base, token, "GET", f"/matches/{catan}").json()["seq"]
    ctx = context(browser, token)
    page = page_of(ctx)
    posts: list[dict] = []
    page.on("request", lambda r: posts.append(r.headers) if r.method == "POST" and r.url.endswith("/events") else None)
    for mid in (catan, rats):  # both opened once with the network up
        page.goto(f"{base}/matches/{mid}")
        page.wait_for_selector("#match[data-seq] #board .scene button.el.hl")
        kept_for_offline(page, mid)
    assert page.is_hidden("#sync")

    ctx.set_offline(True)
    page.wait_for_selector("#sync[data-state=offline]")
    assert "Offline" in page.inner_text("#sync")
    # the first move on the drawing (the page knows the legal moves at the last state the server sent) …
    ms = follow(base, token, rats)
    tap_offline(page, scene_place(M.scene(ms, "referee"), series[0]))
    # … the rest with the pickers: the drawing is from before the moves that wait (the outbox's list shows the
    # move before the refresh that follows it has marked the drawing: wait for that refresh, not for the list)
    page.wait_for_selector("#board.stale", timeout=10_000)
    assert page.locator("#board .scene button.el.hl").count() == 0
    for move in series[1:10]:
        enter(page, move)
    # a move entered by mistake is taken back before it was ever sent
    enter(page, {"type": "play", "seat": 0, "data": {"card": "spy"}})
    page.click("#undo")
    wait_waiting(page, 10)
    assert "10" in page.inner_text("#sync")

    page.reload()  # still offline: the page and what it knew come from this device
    page.wait_for_selector("#match[data-seq='1']")
    wait_waiting(page, 10)
    assert page.locator("#outbox-list li .mark").first.inner_text() == "not sent yet"
    for move in series[10:]:
        enter(page, move)
    assert page.inner_text("#sync") == f"Offline · {len(series)} moves waiting"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(IMG / "offline-phone.png"))  # for docs/ui.md: the pickers above the drawing
    assert [int(li.get_attribute("data-seq")) for li in page.locator("#outbox-list li").all()] == list(range(2, len(series) + 2))

    # a Catan turn at another table, on the same device, still offline
    page.goto(f"{base}/matches/{catan}")
    page.wait_for_selector(f"#match[data-seq='{catan_seq}'] #board .scene")
    ms = follow(base, token, catan)
    tap_offline(page, scene_place(M.scene(ms, "referee"), turns[0]))
    for move in turns[1:]:
        enter(page, move)
    page.reload()
    wait_waiting(page, len(turns))
    assert api(base, token, "GET", f"/matches/{rats}").json()["seq"] == 1  # nothing reached the server
    assert api(base, token, "GET", f"/matches/{catan}").json()["seq"] == catan_seq

    ctx.set_offline(False)  # this page sends both tables' moves
    page.wait_for_selector(f"#match[data-seq='{catan_seq + len(turns)}']", timeout=30_000)
    wait_until(lambda: api(base, token, "GET", f"/matches/{rats}").json()["seq"] == 1 + len(series), what="BraveRats synced")
    page.wait_for_selector("#sync", state="hidden")
    assert logged(base, token, rats, 1) == series
    assert logged(base, token, catan, catan_seq) == turns
    for mid in (rats, catan):
        assert api(base, token, "GET", f"/matches/{mid}/audit").json()["valid"] is True
    keys = [h["idempotency-key"] for h in posts]
    assert len(keys) == len(set(keys)) == len(series) + len(turns)  # one POST each: nothing sent twice
    assert api(base, token, "GET", f"/matches/{rats}").json()["status"] == "finished"
    assert not page.errors, page.errors


def test_a_move_recorded_elsewhere_meanwhile_stops_the_sending_until_the_recorder_chooses(server, browser):
    base, token = server
    mid, ctx, page = braverats_offline(server, browser, {"type": "play", "seat": 0, "data": {"card": "prince"}})
    enter(page, {"type": "play", "seat": 1, "data": {"card": "musician"}})
    # a second phone at the table records Bob's card while this one is offline
    assert api(base, token, "POST", f"/matches/{mid}/events",
               json={"type": "play", "seat": 1, "data": {"card": "musician"}, "expected_seq": 1}).status_code == 201

    ctx.set_offline(False)
    page.wait_for_selector("#outbox-block:not([hidden]) #theirs li")
    assert page.locator("#theirs li").count() == 1 and "Bob" in page.inner_text("#theirs")
    assert page.locator("#mine li").count() == 2
    assert page.inner_text("#sync").startswith("Sending stopped at move 2")
    page.wait_for_timeout(1000)
    assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 2  # nothing written past the conflict
    assert page.locator("#moves button").count() == 0  # nothing more entered until the recorder chooses

    # the recorder puts this phone's moves after the other's: Ann's prince is fine, Bob's musician (his card on
    # the other phone, so a second time here) is not
    page.click("#add-mine")
    page.wait_for_selector("#outbox-block:not([hidden]) #drop-tail")
    assert logged(base, token, mid, 2) == [{"type": "play", "seat": 0, "data": {"card": "prince"}}]
    assert "rule" in page.inner_text("#outbox-block")
    page.click("#drop-tail")
    wait_waiting(page, 0)
    page.wait_for_selector("#outbox-block", state="hidden")
    assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 3
    assert not page.errors, page.errors


def test_an_illegal_move_in_the_outbox_stops_there_and_the_moves_before_it_are_on_the_server(server, browser):
    base, token = server
    good = [{"type": "play", "seat": 0, "data": {"card": "prince"}}, {"type": "play", "seat": 1, "data": {"card": "musician"}}]
    bad = {"type": "play", "seat": 0, "data": {"card": "prince"}}  # the Prince was played in round 1
    tail = {"type": "play", "seat": 1, "data": {"card": "spy"}}
    mid, ctx, page = braverats_offline(server, browser, good[0])
    for move in (good[1], bad, tail):
        enter(page, move)

    ctx.set_offline(False)
    page.wait_for_selector("#outbox-block:not([hidden]) #correct-move")
    block = page.inner_text("#outbox-block")
    assert "Move 4 was not recorded" in block and "rule braverats." in block, block
    no_problems(check(page, axe_source(), "a refused move in the outbox"))
    assert page.inner_text("#sync").startswith("Sending stopped at move 4")
    assert logged(base, token, mid, 1) == good  # the moves before it are on the server
    page.wait_for_timeout(1000)
    assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 3  # nothing sent past it
    assert page.locator("#outbox-list li.blocked .mark").inner_text() == "refused"

    # corrected: the move is entered again where it belongs (the server's legal moves at hand), then the tail goes
    page.click("#correct-move")
    page.wait_for_selector("#outbox-list li.replace")
    page.wait_for_selector("#board .scene button.el.hl")
    ms = follow(base, token, mid)
    fixed = {"type": "play", "seat": 0, "data": {"card": "general"}}
    place = scene_place(M.scene(ms, "referee"), fixed)
    for t in ([place[1]] if place[0] == "element" else [place[1], place[2]]):
        tap(page, f"#board [data-element='{t}']")
    page.wait_for_selector(f"#match[data-seq='5']")
    wait_waiting(page, 0)
    assert logged(base, token, mid, 1) == good + [fixed, tail]
    assert api(base, token, "GET", f"/matches/{mid}/audit").json()["valid"] is True
    assert not page.errors, page.errors


def test_a_lost_answer_is_sent_again_and_written_once(server, browser):
    """The server wrote the move, its answer never reached the phone: the page sends it again with the same
    key, and the server answers as the first time without writing it again."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    page = page_of(context(browser, token, service_workers="block"))  # routed below
    sent: list[str] = []

    def lose_the_first_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        sent.append(route.request.headers["idempotency-key"])
        if len(sent) == 1:
            route.fetch()  # the server writes it …
            return route.abort("connectionreset")  # … and the answer is lost on the way back
        return route.continue_()

    page.route("**/api/matches/*/events", lose_the_first_answer)
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='1'] #board .scene button.el.hl")
    ms = follow(base, token, mid)
    place = scene_place(M.scene(ms, "referee"), {"type": "play", "seat": 0, "data": {"card": "wizard"}})
    for t in ([place[1]] if place[0] == "element" else [place[1], place[2]]):
        tap(page, f"#board [data-element='{t}']")
    page.wait_for_selector("#match[data-seq='2']", timeout=20_000)
    wait_waiting(page, 0)
    assert len(sent) == 2 and sent[0] == sent[1]
    assert logged(base, token, mid, 1) == [{"type": "play", "seat": 0, "data": {"card": "wizard"}}]
    assert page.locator("#log li").count() == 2
    assert not page.errors, page.errors


def test_the_outbox_survives_closing_and_reopening_the_browser(server, browser, tmp_path):
    """Closing the browser (its context, with the same storage on disk) loses no move waiting to be sent."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    moves = [{"type": "play", "seat": 0, "data": {"card": "ambassador"}}, {"type": "play", "seat": 1, "data": {"card": "spy"}}]
    profile = tmp_path / "profile"
    if True:
        def open_browser(offline):
            ctx = browser.browser_type.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=["--no-sandbox"],
                                                       viewport=PHONE, offline=offline)
            ctx.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
            ctx.add_init_script("localStorage.setItem('kroniek.engine', 'off')")  # the pickers' path (context()'s default)
            return ctx, page_of(ctx)

        ctx, page = open_browser(offline=False)
        page.goto(f"{base}/matches/{mid}")
        page.wait_for_selector("#match[data-seq='1'] #board .scene button.el.hl")
        kept_for_offline(page, mid)
        ctx.set_offline(True)
        ms = follow(base, token, mid)
        tap_offline(page, scene_place(M.scene(ms, "referee"), moves[0]))
        enter(page, moves[1])
        ctx.close()

        ctx, page = open_browser(offline=True)
        page.goto(f"{base}/matches/{mid}")
        wait_waiting(page, 2)
        assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 1
        ctx.set_offline(False)
        page.wait_for_selector("#match[data-seq='3']", timeout=30_000)
        wait_waiting(page, 0)
        assert logged(base, token, mid, 1) == moves
        assert not page.errors, page.errors
        ctx.close()


def test_signing_out_drops_what_the_device_kept(server, browser):
    """Another person on the same device must not open one seat's view offline."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    page = page_of(context(browser))
    page.goto(f"{base}/")
    page.evaluate(f"localStorage.setItem('kroniek.token', {token!r})")  # once: an init script would sign in again
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='1']")
    kept_for_offline(page, mid)
    page.click("#sign-out")
    page.wait_for_selector("#sign-in-link")
    for path in (f"/api/matches/{mid}/state?seat=referee", f"/api/matches/{mid}/review?seat=referee&from=1"):
        assert not page.evaluate(f"async () => !!(await Kroniek.offline.kept('{path}'))"), path


def test_the_review_page_opened_once_opens_offline_and_says_how_many_moves_wait(server, browser):
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    for move in ({"type": "play", "seat": 0, "data": {"card": "spy"}}, {"type": "play", "seat": 1, "data": {"card": "wizard"}}):
        assert api(base, token, "POST", f"/matches/{mid}/events", json=move).status_code == 201
    ctx = context(browser, token)
    page = page_of(ctx)
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='3'] #board .scene button.el.hl")
    kept_for_offline(page, mid)
    page.goto(f"{base}/matches/{mid}/review")
    page.wait_for_function("() => document.querySelectorAll('#steps li').length === 3")
    deadline = time.monotonic() + 30
    while not page.evaluate(KEPT_JS, [f"/matches/{mid}/review", [f"/api/matches/{mid}/review?seat=referee"]]):
        assert time.monotonic() < deadline, "the review page was never kept"
        page.wait_for_timeout(100)

    ctx.set_offline(True)
    page.goto(f"{base}/matches/{mid}")
    ms = follow(base, token, mid)
    tap_offline(page, scene_place(M.scene(ms, "referee"), {"type": "play", "seat": 0, "data": {"card": "prince"}}))
    page.click("#review-link")
    page.wait_for_function("() => document.querySelectorAll('#steps li').length === 3")
    page.wait_for_selector("#sync[data-state=offline]")
    assert page.inner_text("#sync") == "Offline · 1 move waiting"
    assert not page.errors, page.errors


def test_the_offline_states_speak_dutch_and_pass_axe(server, browser):
    """Waiting moves, the pickers and a conflict on a Dutch phone: in Dutch, and nothing axe-core calls
    serious or critical."""
    base, token = server
    mid, ctx, page = braverats_offline(server, browser, {"type": "play", "seat": 0, "data": {"card": "spy"}}, locale="nl-NL")
    enter(page, {"type": "play", "seat": 1, "data": {"card": "wizard"}})
    assert page.inner_text("#sync") == "Offline · 2 zetten wachten"
    assert page.locator("#outbox-list li .mark").first.inner_text() == "nog niet verstuurd"
    axe = axe_source()
    no_problems(check(page, axe, "offline, two moves waiting, in Dutch"))
    assert api(base, token, "POST", f"/matches/{mid}/events",
               json={"type": "play", "seat": 0, "data": {"card": "prince"}, "expected_seq": 1}).status_code == 201
    ctx.set_offline(False)
    page.wait_for_selector("#outbox-block:not([hidden]) #keep-theirs")
    assert "Iemand anders legde eerder vast" in page.inner_text("#outbox-block")
    assert page.inner_text("#sync").startswith("Versturen gestopt bij zet 2")
    no_problems(check(page, axe, "a conflict, in Dutch"))
    page.click("#keep-theirs")
    wait_waiting(page, 0)
    page.wait_for_selector("#sync", state="hidden")
    assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 2
    assert not page.errors, page.errors


def test_the_pickers_take_equal_braverats_cards_and_stapelen_takes_and_the_status_clears(server, browser):
    """Issue 34's defects of the pickers (a phone without the page's engine): Wizard against Wizard in one
    BraveRats round (the second Wizard is not greyed out), Stapelen's take entered as its column (it was
    sent as text: "json.data: Not a valid mapping type"), and once all is sent nothing is said to wait."""
    base, token = server
    good = [{"type": "play", "seat": 0, "data": {"card": "prince"}}, {"type": "play", "seat": 1, "data": {"card": "musician"}}]
    wizards = {"type": "round", "seat": None, "data": {"cards": ["wizard", "wizard"]}}
    mid, ctx, page = braverats_offline(server, browser, good[0])
    enter(page, good[1])
    enter(page, wizards)
    assert page.locator("#outbox-list li").last.inner_text().count("Wizard") == 2

    stapelen = api(base, token, "POST", "/matches", json={"game": "stapelen", "players": ["Ann", "Bob"]}).json()["id"]
    assert api(base, token, "POST", f"/matches/{stapelen}/events", json={"type": "deal", "data": {"seed": 42}}).status_code == 201
    ctx.set_offline(False)
    page.goto(f"{base}/matches/{stapelen}")
    page.wait_for_selector("#match[data-seq='2'] #board .scene button.el.hl")
    kept_for_offline(page, stapelen)
    ctx.set_offline(True)
    ms = follow(base, token, stapelen)
    takes = []
    for i in range(4):
        move = next(m for m in M.legal_moves(ms, ms.game.actors(ms.state)[0]) if m["type"] == "take")
        entered = {**move, "data": {"column": move["data"]["column"]}}  # as the table says it: the column
        if i == 0:
            tap_offline(page, scene_place(M.scene(ms, "referee"), move))
            entered = move
        else:
            enter(page, entered)
        data = M.normalize_event(ms, entered["type"], entered["seat"], entered["data"])
        ms = M.apply_event(ms, ms.seq + 1, entered["type"], entered["seat"], data)
        takes.append({**entered, "data": data})

    ctx.set_offline(False)
    page.wait_for_selector(f"#match[data-seq='{ms.seq}']", timeout=30_000)
    wait_waiting(page, 0)
    assert logged(base, token, stapelen, 2) == takes
    assert [e["data"] for e in logged(base, token, mid, 1)][1:] == [good[1]["data"], wizards["data"]]
    page.wait_for_function("() => document.querySelector('#sync').hidden")
    assert "wait" not in page.inner_text("#status") and "wacht" not in page.inner_text("#status")
    assert not page.errors, page.errors


def test_a_file_that_fails_while_the_worker_installs_is_fetched_again_and_the_page_kept(server, browser):
    """A phone at a table on a shaky network: one of the pages' files the service worker fetches as it installs
    does not come. That install fails and the worker is gone; the page registers it again a moment later, so
    the page and its answers are kept for offline all the same (before, the device kept nothing until another
    page was opened)."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    ctx = context(browser)
    refused = []

    def first_from_the_worker(route):
        if not refused and route.request.service_worker is not None:
            refused.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()
    ctx.route("**/assets/kroniek.css*", first_from_the_worker)
    page = page_of(ctx)
    page.goto(f"{base}/")
    page.evaluate(f"localStorage.setItem('kroniek.token', {token!r})")
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='1']")
    kept_for_offline(page, mid)
    assert refused, "the worker's install fetched the file through the route"
    ctx.set_offline(True)
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='1']")
    assert not page.errors, page.errors
