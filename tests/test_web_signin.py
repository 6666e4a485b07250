"""Signing in at the table without a token (issue 22), in Debian's Chromium on
a phone: an organiser adds a player to a match from the match page and gets
a one-time link with its QR code; a fresh browser opens the link, taps once,
and records that seat's move, never seeing a token. The link does not work
twice, the server refuses the player's moves for another seat or match,
another site's form cannot use the session, and a device an admin ends is
signed out at its next request."""

from __future__ import annotations

import random
import uuid

import pytest

from .test_web import PHONE, api, context, page_of, scene_place, tap_scene_move

pytestmark = pytest.mark.slow


def twaalven_match(base, token):
    """A Twaalven match of the organiser's, dealt, seat 0 to move."""
    match = api(base, token, "POST", "/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).json()["id"]
    for event in ({"type": "deal", "data": {"seed": 42}}, {"type": "roles", "data": {"twelves": 0, "first": 0}}):
        assert api(base, token, "POST", f"/matches/{match}/events", json=event).status_code == 201
    return match


def test_a_player_signs_in_from_a_link_and_records_their_seats_move(server, browser):
    base, admin_token = server
    organiser = f"org-{uuid.uuid4().hex[:6]}"
    org_token = api(base, admin_token, "POST", "/users", json={"name": organiser}).json()["token"]
    match, other = twaalven_match(base, org_token), twaalven_match(base, org_token)

    # The organiser adds Ann as seat 0's player on the match page: her account and a link with its QR code.
    org = page_of(context(browser, org_token))
    org.goto(f"{base}/matches/{match}")
    org.wait_for_selector("#people:not([hidden]) #person-role option[value='player:0']", state="attached", timeout=20_000)
    ann = f"ann-{uuid.uuid4().hex[:6]}"
    org.select_option("#person-role", "player:0")
    org.fill("#person-name", ann)
    org.click("#add-person-submit")
    org.wait_for_selector("#person-link .link-url", timeout=20_000)
    link = org.get_attribute("#person-link .link-url", "href")
    assert link.startswith(f"{base}/signin#kl_")
    assert org.evaluate("() => document.querySelector('#person-link img.qr').naturalWidth") > 0
    org.wait_for_selector(f"#people-list li[data-user='{ann}']")
    assert "player of Ann" in org.inner_text(f"#people-list li[data-user='{ann}']")
    # a new link for her from the list (the first one stays good too): a different secret, shown in its place
    org.click(f"#people-list li[data-user='{ann}'] .newlink")
    org.wait_for_function("(first) => document.querySelector('#person-link .link-url').href !== first", arg=link)

    # A fresh browser (no token, nothing stored) opens the link: one tap signs it in and opens the match.
    phone_ctx = browser.new_context(viewport=PHONE)
    phone = page_of(phone_ctx)
    phone.goto(link)
    phone.wait_for_selector("#signin-button")  # shown once the page has asked whom the link signs in
    assert ann in phone.inner_text("#signin-button")
    phone.click("#signin-button")
    phone.wait_for_url(f"{base}/matches/{match}", timeout=20_000)
    phone.wait_for_selector("#match[data-seq='3'] #board .scene button.el.hl", timeout=30_000)
    assert phone.inner_text("#who") == ann and phone.input_value("#viewer") == "0"
    # Ann taps a move of her seat on the drawing (one the engine lists for seat 0).
    move = api(base, org_token, "GET", f"/matches/{match}/legal-moves?seat=0").json()["moves"][0]
    scene = api(base, org_token, "GET", f"/matches/{match}/scene?seat=0").json()
    tap_scene_move(phone, scene_place(scene, move), random.Random(1))
    events = api(base, org_token, "GET", f"/matches/{match}/events").json()["events"]
    assert events[-1]["seq"] == 4 and events[-1]["seat"] == 0 and events[-1]["recorded_by"] == ann
    # She never saw a token: none stored, none on the page; the cookie is out of the scripts' reach.
    assert phone.evaluate("() => localStorage.getItem('kroniek.token')") is None
    assert "kr_" not in phone.content()
    (cookie,) = [c for c in phone_ctx.cookies() if c["name"] == "kroniek_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]  # http here

    # On her "Signed in" page Ann sees this device and makes a link for another one.
    phone.goto(f"{base}/me")
    phone.wait_for_selector("#devices li[data-session] strong")
    phone.click("#new-link")
    phone.wait_for_selector("#link-out .link-url")
    assert phone.get_attribute("#link-out .link-url", "href").startswith(f"{base}/signin#kl_")
    phone.goto(f"{base}/matches/{match}")

    # The server decides: another seat's move, an undo, or a move in another match is refused, whatever is sent.
    send = """async ([path, body]) => (await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                                           body: JSON.stringify(body)})).status"""
    seat1 = {"type": move["type"], "seat": 1, "data": move["data"]}
    assert phone.evaluate(send, [f"/api/matches/{match}/events", seat1]) == 403
    assert phone.evaluate(send, [f"/api/matches/{match}/events", {"type": "undo", "data": {}}]) == 403
    assert phone.evaluate(send, [f"/api/matches/{other}/events", move]) == 403
    assert len(api(base, org_token, "GET", f"/matches/{match}/events").json()["events"]) == 4

    # The same link again, in yet another browser: refused, with who can make a new one.
    again = page_of(context(browser))
    again.goto(link)
    again.wait_for_selector("#signin-why")  # shown once the page has asked about the link
    assert "used already" in again.inner_text("#signin-why") and not again.locator("#signin-button").is_visible()
    assert "#" not in again.url  # the secret taken out of the address bar

    # Another site's form cannot use Ann's session: the browser keeps the cookie back (SameSite=Lax), and the
    # server would refuse a write whose Origin is not its own (tests/test_signin.py).
    evil = "http://evil.example/"
    phone.route(evil, lambda route: route.fulfill(
        content_type="text/html", body=f'<form method="post" action="{base}/signout"><button id="go">go</button></form>'))
    phone.goto(evil)
    with phone.expect_navigation():
        phone.click("#go")
    sessions = api(base, admin_token, "GET", f"/users/{ann}/sessions").json()["sessions"]
    assert len(sessions) == 1, sessions

    # An admin ends her device: she is signed out at her next request.
    assert api(base, admin_token, "DELETE", f"/users/{ann}/sessions/{sessions[0]['id']}").status_code == 200
    phone.goto(f"{base}/matches/{match}")
    phone.wait_for_selector("#sign-in-link", timeout=20_000)
    assert phone.evaluate("() => document.body.dataset.user") == ""
    assert phone.evaluate(send, [f"/api/matches/{match}/events", move]) == 401
    assert not phone.errors and not org.errors, (phone.errors, org.errors)
    phone_ctx.close()
