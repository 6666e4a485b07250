"""Signing in without a token (issue 22): one-time sign-in links, session
cookies, the devices a user can see and end, writes from other sites
refused, and a player who enters their own seat's moves and nothing else.
On a real Redis (the conftest's)."""

import time

import pytest

from service.access import SESSION_COOKIE
from service.accounts import LINK_SECONDS
from tests.support.toy import ensure_registered

ensure_registered()

HERE = "http://localhost"  # the test client's origin


def cookie_client(app):
    """A fresh browser: no token, its own cookies."""
    from tests.conftest import client_with_token

    return client_with_token(app, None)


def secret_of(path):
    """A link's secret: in its fragment (``/signin#<secret>``), or its path's last part (a link made before)."""
    return path.split("#", 1)[1] if "#" in path else path.rsplit("/", 1)[1]


def peek(browser, path, origin=HERE):
    """What the link's page asks when opened (the secret from the fragment, in a POST): whom, or why not."""
    return browser.post("/signin/peek", json={"secret": secret_of(path)}, headers={"Origin": origin})


def tap(browser, path, headers=None):
    """The link page's button: the secret posted in the form (the old links: posted to their path)."""
    headers = {"Origin": HERE} if headers is None else headers
    if "#" in path:
        return browser.post("/signin", data={"secret": secret_of(path)}, headers=headers)
    return browser.post(path, headers=headers)


def sign_in(app, path):
    """Open a sign-in link in a fresh browser and tap its button; the browser and the answer."""
    browser = cookie_client(app)
    page = browser.get(path.split("#", 1)[0])
    assert page.status_code == 200, page.get_data(as_text=True)
    assert peek(browser, path).status_code == 200
    answer = tap(browser, path)
    return browser, answer


def new_toy(client):
    answer = client.post("/api/matches", json={"game": "toy", "players": ["Ann", "Bob"]})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def test_a_link_signs_one_device_in_once_and_its_secret_is_stored_only_as_a_hash(admin, make_user, redis_client,
                                                                                  prefix):
    name, _ = make_user("ann")
    made = admin.post(f"/api/users/{name}/sign-in-links", json={"next": "/record"})
    assert made.status_code == 201, made.get_json()
    link = made.get_json()
    secret = secret_of(link["path"])
    assert link["path"] == "/signin#" + secret  # in the fragment: a browser never sends it, no log records it
    assert link["url"] == HERE + link["path"] and link["qr"].startswith("data:image/svg+xml;base64,")
    stored = {k: redis_client.get(k) for k in redis_client.scan_iter(f"{prefix}:*link*")}
    assert stored and not any(secret in k or secret in (v or "") for k, v in stored.items())
    assert 0 < redis_client.ttl(next(iter(stored))) <= LINK_SECONDS
    # Opening it names whom it signs in and spends nothing (a chat app's preview opens it too).
    viewer = cookie_client(admin.application)
    for _ in range(2):
        page = viewer.get("/signin")
        assert page.status_code == 200 and secret not in page.get_data(as_text=True)
        assert page.headers["Cache-Control"] == "no-store"
        asked = peek(viewer, link["path"])
        assert asked.status_code == 200 and asked.get_json() == {"user": name}
        assert asked.headers["Cache-Control"] == "no-store"
    browser, answer = sign_in(admin.application, link["path"])
    assert answer.status_code == 303 and answer.headers["Location"] == "/record"
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # served over http here
    me = browser.get("/api/me").get_json()
    assert me["name"] == name and me["admin"] is False
    # Another link opened in the same browser replaces its session: the first one ends, none is left behind.
    second = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
    assert tap(browser, second).status_code == 303
    assert len(admin.get(f"/api/users/{name}/sessions").get_json()["sessions"]) == 1
    assert browser.get("/api/me").get_json()["name"] == name
    # The same link again, in this browser or another: refused, and the page says who can make a new one.
    again = peek(cookie_client(admin.application), link["path"])
    assert again.status_code == 200 and again.get_json() == {"why": "used"}
    text = tap(browser, link["path"]).get_data(as_text=True)
    assert "used already" in text and "organiser or recorder who added you" in text
    assert tap(browser, link["path"]).status_code == 410
    # a link made before, with its secret in its path, still opens (links live a day)
    old = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
    page = cookie_client(admin.application).get("/signin/" + secret_of(old))
    assert page.status_code == 200 and name in page.get_data(as_text=True)
    assert cookie_client(admin.application).post("/signin/" + secret_of(old), headers={"Origin": HERE}).status_code == 303


def test_over_https_the_cookie_is_secure(admin, make_user):
    name, _ = make_user("ann")
    path = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
    browser = cookie_client(admin.application)
    answer = tap(browser, path, {"Origin": "https://localhost", "X-Forwarded-Proto": "https"})
    assert answer.status_code == 303 and "Secure" in answer.headers["Set-Cookie"]


def test_an_expired_link_is_refused(admin, make_user, redis_client, prefix):
    name, _ = make_user("ann")
    path = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
    (key,) = redis_client.scan_iter(f"{prefix}:*link*")
    redis_client.pexpire(key, 1)  # as if its 24 hours had passed
    time.sleep(0.01)
    asked = peek(cookie_client(admin.application), path)
    assert asked.status_code == 200 and asked.get_json() == {"why": "expired"}
    assert tap(cookie_client(admin.application), path).status_code == 410
    assert "expired" in cookie_client(admin.application).get("/signin/kl_not-a-link").get_data(as_text=True)
    assert peek(cookie_client(admin.application), "/signin#kl_not-a-link").get_json() == {"why": "expired"}


def test_writes_carried_by_the_cookie_from_another_site_are_refused(client, make_user, admin):
    name, _ = make_user("ann")
    path = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
    # A sign-in form posted from another site's page is refused (it would sign this browser in to its account).
    fresh = cookie_client(admin.application)
    refused = tap(fresh, path, {"Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "cross_site"
    assert peek(fresh, path, "https://evil.example").status_code == 403  # nor asked whom it signs in
    browser, _ = sign_in(admin.application, path)
    body = {"game": "toy", "players": ["Ann", "Bob"]}
    for headers in ({"Origin": "https://evil.example"}, {}, {"Sec-Fetch-Site": "cross-site"}):
        answer = browser.post("/api/matches", json=body, headers=headers)
        assert answer.status_code == 403 and answer.get_json()["error"]["code"] == "cross_site", headers
    assert browser.post("/api/matches", json=body, headers={"Origin": HERE}).status_code == 201
    assert browser.post("/api/matches", json=body, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 201
    # Reads need no origin; bearer tokens are judged as before, whatever the cookie.
    assert browser.get("/api/me").get_json()["name"] == name
    assert client.post("/api/matches", json=body).status_code == 201


def test_a_user_sees_and_ends_their_devices_and_an_admin_ends_anyones(admin, make_user):
    name, token = make_user("ann")
    app = admin.application
    phone, _ = sign_in(app, admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"])
    tablet, _ = sign_in(app, admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"])
    listed = phone.get(f"/api/users/{name}/sessions").get_json()["sessions"]
    assert len(listed) == 2 and [s["current"] for s in listed].count(True) == 1
    mine = next(s for s in listed if s["current"])
    other = next(s for s in listed if not s["current"])
    assert "digest" not in mine and mine["agent"]
    # The phone ends the tablet: the tablet is signed out at its next request.
    assert phone.delete(f"/api/users/{name}/sessions/{other['id']}", headers={"Origin": HERE}).status_code == 200
    assert tablet.get("/api/me").get_json()["name"] == "anonymous"
    assert tablet.post("/api/matches", json={"game": "toy", "players": ["A", "B"]},
                       headers={"Origin": HERE}).status_code == 401
    # Someone else may not see or end them; an admin may.
    _, stranger = make_user("stranger")
    from tests.conftest import client_with_token

    assert client_with_token(app, stranger).get(f"/api/users/{name}/sessions").status_code == 403
    assert admin.delete(f"/api/users/{name}/sessions").get_json()["ended"] == 1
    assert phone.get("/api/me").get_json()["name"] == "anonymous"
    # Signing out ends the session on the server, not only the cookie.
    laptop, _ = sign_in(app, admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"])
    assert len(admin.get(f"/api/users/{name}/sessions").get_json()["sessions"]) == 1
    out = laptop.post("/signout", headers={"Origin": HERE})
    assert out.status_code == 303 and f"{SESSION_COOKIE}=;" in out.headers["Set-Cookie"]
    assert admin.get(f"/api/users/{name}/sessions").get_json()["sessions"] == []
    # The token made with the account is untouched by all this.
    assert client_with_token(app, token).get("/api/me").get_json()["name"] == name


@pytest.mark.rule("match.append")
def test_a_player_added_with_a_link_enters_only_their_own_seats_moves(client, app):
    """The recorder adds Ann as seat 0's player: her account is made, and her
    link signs her in on a phone and opens the match. She enters seat 0's
    move; seat 1's move, the die (chance), an undo, and any move of another
    match are refused (403), whatever the page sends."""
    match, elsewhere = new_toy(client), new_toy(client)
    added = client.post(f"/api/matches/{match}/people", json={"user": f"ann-{match[:6]}", "role": "player",
                                                               "seat": 0})
    assert added.status_code == 201, added.get_json()
    body = added.get_json()
    assert body["created"] is True and body["roles"] == ["player:0"] and body["sign_in"]["qr"]
    phone, opened = sign_in(app, body["sign_in"]["path"])
    assert opened.headers["Location"] == f"/matches/{match}"
    post = lambda m, event: phone.post(f"/api/matches/{m}/events", json=event, headers={"Origin": HERE})  # noqa: E731
    mine = post(match, {"type": "add", "seat": 0, "data": {"n": 2}})
    assert mine.status_code == 201, mine.get_json()
    for event in ({"type": "roll", "seat": None, "data": {"value": 3}}, {"type": "undo", "data": {}}):
        refused = post(match, event)
        assert refused.status_code == 403, (event, refused.get_json())
        assert "own seat" in refused.get_json()["error"]["message"]
    assert client.post(f"/api/matches/{match}/events", json={"type": "roll", "data": {"value": 3}}).status_code == 201
    theirs = post(match, {"type": "add", "seat": 1, "data": {"n": 1}})
    assert theirs.status_code == 403 and "seat 1's move" in theirs.get_json()["error"]["message"]
    assert post(elsewhere, {"type": "add", "seat": 0, "data": {"n": 1}}).status_code == 403
    # Nothing refused was written.
    events = client.get(f"/api/matches/{match}/events").get_json()["events"]
    assert [e["type"] for e in events] == ["setup", "add", "roll"] and events[1]["recorded_by"] == body["user"]


def test_who_may_add_people_and_make_their_links(client, app, make_user, admin):
    from tests.conftest import client_with_token

    match = new_toy(client)
    _, outsider = make_user("outsider")
    refused = client_with_token(app, outsider).post(f"/api/matches/{match}/people",
                                                    json={"user": "eve-x", "role": "player", "seat": 0})
    assert refused.status_code == 403
    # A bad role or seat makes no account.
    bad = client.post(f"/api/matches/{match}/people", json={"user": f"bo-{match[:6]}", "role": "player", "seat": 5})
    assert bad.status_code == 400
    assert f"bo-{match[:6]}" not in [u["name"] for u in admin.get("/api/users").get_json()["users"]]
    # Someone with an account already gets the role, but the recorder may not make their link.
    existing, _ = make_user("cor")
    answer = client.post(f"/api/matches/{match}/people", json={"user": existing, "role": "referee"}).get_json()
    assert answer["created"] is False and answer["sign_in"] is None and "admin" in answer["sign_in_note"]
    assert client.post(f"/api/users/{existing}/sign-in-links", json={}).status_code == 403
    # Whoever added a person may make a new link later, until that person first signs in: then the account is
    # theirs (a link made by the one who added them would let that one act as them); an admin still may.
    added = client.post(f"/api/matches/{match}/people", json={"user": f"dee-{match[:6]}", "role": "recorder"})
    dee = added.get_json()["user"]
    again = client.post(f"/api/users/{dee}/sign-in-links", json={})
    assert again.status_code == 201
    sign_in(app, again.get_json()["path"])
    assert client.post(f"/api/users/{dee}/sign-in-links", json={}).status_code == 403
    assert admin.post(f"/api/users/{dee}/sign-in-links", json={}).status_code == 201
    assert client.post(f"/api/users/{admin.user_name}/sign-in-links", json={}).status_code == 403
    assert client.post(f"/api/users/{client.user_name}/sign-in-links", json={"next": "//evil.example"}).status_code == 400


def test_a_device_is_named_by_its_browser_and_system_not_its_raw_user_agent(admin, make_user):
    """/me lists the devices as their users know them ("Chrome Mobile op Android"), read by ua-parser."""
    name, _ = make_user("ann")
    app = admin.application
    phones = {
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile "
        "Safari/537.36": {"browser": "Chrome Mobile", "os": "Android"},
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
        "Mobile/15E148 Safari/604.1": {"browser": "Mobile Safari", "os": "iOS"},
        "curl/8.5.0": {"browser": "curl", "os": None},
        "": {"browser": None, "os": None},
    }
    for agent in phones:
        browser = cookie_client(app)
        browser.environ_base["HTTP_USER_AGENT"] = agent
        path = admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]
        browser.get("/signin")
        assert tap(browser, path).status_code in (200, 303)
    listed = admin.get(f"/api/users/{name}/sessions").get_json()["sessions"]
    assert {s["agent"]: s["device"] for s in listed} == phones


@pytest.mark.parametrize("how", ["api", "cli"])
def test_revoking_a_user_ends_their_sessions_and_their_unused_links_too(admin, make_user, monkeypatch, prefix,
                                                                         redis_client, how):
    """Issue 36: after ``DELETE /api/users/<name>/tokens`` (or ``kroniek user revoke``) the person's phones
    could still write. Revoking takes every way in: their tokens, their signed-in devices, and the sign-in
    links made for them that nobody tapped yet; a link made afterwards signs in again."""
    from click.testing import CliRunner

    from service.cli import main
    from tests.conftest import client_with_token

    app = admin.application
    name, token = make_user("ann")

    def link():
        return admin.post(f"/api/users/{name}/sign-in-links", json={}).get_json()["path"]

    phone, _ = sign_in(app, link())
    tablet, _ = sign_in(app, link())
    unused = link()
    body = {"game": "toy", "players": ["Ann", "Bob"]}
    assert phone.post("/api/matches", json=body, headers={"Origin": HERE}).status_code == 201
    if how == "api":
        answer = admin.delete(f"/api/users/{name}/tokens")
        assert answer.status_code == 200 and answer.get_json() == {"name": name, "revoked": 1, "ended": 2}
    else:
        monkeypatch.setenv("KRONIEK_PREFIX", prefix)
        answer = CliRunner().invoke(main, ["user", "revoke", name])
        assert answer.exit_code == 0, answer.output
        assert "revoked 1 token(s)" in answer.output and "ended 2 signed-in device(s)" in answer.output
    for device in (phone, tablet):
        assert device.get("/api/me").get_json()["name"] == "anonymous"
        refused = device.post("/api/matches", json=body, headers={"Origin": HERE})
        assert refused.status_code == 401, refused.get_json()
    assert client_with_token(app, token).get("/api/me").status_code == 401
    assert admin.get(f"/api/users/{name}/sessions").get_json()["sessions"] == []
    # the link nobody tapped yet signs no one in: its page says so, the tap is refused and makes no session
    assert peek(cookie_client(app), unused).get_json() == {"why": "revoked"}
    page = tap(cookie_client(app), unused)
    assert page.status_code == 410 and "revoked" in page.get_data(as_text=True)
    assert admin.get(f"/api/users/{name}/sessions").get_json()["sessions"] == []
    # a link made after the revocation is a new way in
    again, answer = sign_in(app, link())
    assert answer.status_code == 303 and again.get("/api/me").get_json()["name"] == name


@pytest.mark.rule("match.append")
def test_a_player_enters_no_chance_outcome_not_even_for_their_own_seat(client, app):
    """Issue 36: a seated player's session recorded Sir Tommy's draw (a chance outcome: its actor is chance) for
    its own seat. What the stock deals is the recorder's or referee's to enter, as README and docs/ui.md say: a
    403 that says why, by its name or its Dutch alias, and the log unchanged; the player's own moves still go in."""
    match = client.post("/api/matches", json={"game": "sir_tommy", "players": ["Ann", "Bob"]}).get_json()["id"]
    added = client.post(f"/api/matches/{match}/people", json={"user": f"ann-{match[:6]}", "role": "player",
                                                               "seat": 0}).get_json()
    phone, _ = sign_in(app, added["sign_in"]["path"])
    post = lambda event: phone.post(f"/api/matches/{match}/events", json=event, headers={"Origin": HERE})  # noqa: E731
    draw = {"seat": 0, "data": {"cards": ["AS", "2H", "KD"]}}
    for kind in ("draw", "trekken"):
        refused = post({"type": kind, **draw})
        assert refused.status_code == 403, (kind, refused.get_json())
        error = refused.get_json()["error"]
        assert error["code"] == "forbidden" and error["needs"] == ["recorder", "referee"]
        assert "chance outcome" in error["message"] and "recorder or referee" in error["message"], error
    assert [e["type"] for e in client.get(f"/api/matches/{match}/events").get_json()["events"]] == ["setup"]
    # the recorder enters the draw; the player then builds with it
    assert client.post(f"/api/matches/{match}/events", json={"type": "draw", **draw}).status_code == 201
    built = post({"type": "build", "seat": 0, "data": {"card": "AS"}})
    assert built.status_code == 201, built.get_json()
    # the toy's die, rolled "for" the player's seat: refused as well
    toy = new_toy(client)
    toy_player = client.post(f"/api/matches/{toy}/people", json={"user": f"bo-{toy[:6]}", "role": "player",
                                                                  "seat": 0}).get_json()
    toy_phone, _ = sign_in(app, toy_player["sign_in"]["path"])
    toy_post = lambda event: toy_phone.post(f"/api/matches/{toy}/events", json=event,  # noqa: E731
                                            headers={"Origin": HERE})
    assert toy_post({"type": "add", "seat": 0, "data": {"n": 2}}).status_code == 201
    rolled = toy_post({"type": "roll", "seat": 0, "data": {"value": 6}})
    assert rolled.status_code == 403 and "chance outcome" in rolled.get_json()["error"]["message"]
    assert len(client.get(f"/api/matches/{toy}/events").get_json()["events"]) == 2
