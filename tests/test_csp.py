"""Every page says what it may load and run (Content-Security-Policy), and
holds nothing the policy would refuse: no inline script, no event handler
or style written in the HTML, nothing loaded from another site. (The
browser tests read the header on every page too, and report any refusal
the browser logs.)"""

from html.parser import HTMLParser

from service.web import CSP


class Inline(HTMLParser):
    """What the policy forbids in a page's HTML, as readable lines."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script_without_src = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>: an inline event handler")
            if name == "style":
                self.found.append(f"<{tag} style={value!r}>: an inline style")
            if name in ("src", "href", "action") and value and "//" in value.split("?")[0][:8]:
                self.found.append(f"<{tag} {name}={value!r}>: from another site")
        if tag == "style":
            self.found.append("<style>: an inline stylesheet")
        self._script_without_src = tag == "script" and not names.get("src")

    def handle_data(self, data):
        if self._script_without_src and data.strip():
            self.found.append(f"an inline script: {data.strip()[:60]!r}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script_without_src = False


def pages(client) -> list[str]:
    match = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).get_json()["id"]
    league = client.post("/api/leagues", json={"name": "Club", "game": "braverats", "format": "swiss",
                                               "players": ["Ann", "Bob", "Cor", "Dirk"], "rounds": 1}).get_json()["id"]
    return ["/", "/record", "/record?game=troubadour", "/leagues", f"/leagues/{league}", f"/matches/{match}",
            f"/matches/{match}/review", "/api/docs", "/games/ridder_toernooi/card-sets/new",
            "/games/catan-troje/boards/new", "/me",
            client.post(f"/api/users/{client.user_name}/sign-in-links", json={}).get_json()["path"]]


def test_every_page_sends_a_strict_policy_and_holds_nothing_inline(client):
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP and "*" not in CSP
    assert "script-src 'self'" in CSP and "style-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    for lang in ("en", "nl"):
        client.set_cookie("kroniek_lang", lang)
        for path in pages(client):
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.status_code)
            assert answer.headers["Content-Security-Policy"] == CSP, path
            assert answer.headers["X-Content-Type-Options"] == "nosniff", path
            assert not answer.headers.getlist("Set-Cookie"), path  # a page sets no cookie; those that do, below
            parser = Inline()
            parser.feed(answer.get_data(as_text=True))
            assert not parser.found, (path, lang, parser.found)


def test_an_inline_script_is_found(client):
    """The check above can fail: a page with a script in it is caught."""
    parser = Inline()
    parser.feed('<p style="color: red" onclick="x()">a</p><script>Kroniek.matchPage();</script>'
                '<script src="https://cdn.example/x.js"></script>')
    assert len(parser.found) == 4, parser.found


def test_every_cookie_the_pages_set_is_http_only_same_site_and_secure_over_https(client, app):
    """The cookies the pages set: the language switch's and the session's (a sign-in link's tap)."""
    from tests.conftest import client_with_token

    link = client.post(f"/api/users/{client.user_name}/sign-in-links", json={}).get_json()["path"]
    second = client.post(f"/api/users/{client.user_name}/sign-in-links", json={}).get_json()["path"]
    # a link's tap posts its secret (from the link's fragment) in the form
    for https, path, form in ((False, "/language", {"lang": "nl", "next": "/"}),
                              (False, "/signin", {"secret": link.split("#", 1)[1]}),
                              (True, "/language", {"lang": "en", "next": "/"}),
                              (True, "/signin", {"secret": second.split("#", 1)[1]})):
        headers = {"Origin": ("https" if https else "http") + "://localhost"}
        if https:
            headers["X-Forwarded-Proto"] = "https"
        answer = client_with_token(app, None).post(path, data=form, headers=headers)
        assert answer.status_code == 303, (path, answer.status_code)
        (cookie,) = answer.headers.getlist("Set-Cookie")
        flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert {"httponly", "samesite", "path"} <= flags and "SameSite=Lax" in cookie, cookie
        assert ("secure" in flags) is https, cookie
