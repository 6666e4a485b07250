"""Where a page sends the browser next (issue 36): the language switch's
``next``, a sign-in link's ``next`` (made by the API, the pages or
``kroniek user link --next``) are paths of this app, judged by one rule
(``service.next_path``) as a browser reads them: a tab or a line break that
the browser (or Werkzeug) drops, a backslash it reads as a slash, must never
turn ``/\\t/evil.example`` into ``//evil.example``. A bad one is refused
where a person typed it (400, a CLI error) and replaced by home where it is
only followed (the switch, a link stored before the rule), and following it
never fails halfway. On a real Redis (the conftest's)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from service.access import SESSION_COOKIE
from tests.conftest import client_with_token

HERE = "http://localhost"  # the test client's origin

#: what a probe sent, and its kin: each leads off the site once a browser has read it, or holds what no
#: header may (a line break), or is no path at all
OFF_SITE = [
    "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example", "/\t\t/evil.example",
    "\t//evil.example", " //evil.example", "/\\evil.example", "\\/evil.example", "\\\\evil.example",
    "/\\/evil.example", "//evil.example", "///evil.example", "https://evil.example", "HTTPS:evil.example",
    "javascript:alert(1)", "evil.example", "", "/a\r\nSet-Cookie: x=1", "/a\x00b", "/a\x7fb", "/a\x85b",
]
TOO_LONG = "/" + "a" * 200
#: paths of this app, kept as they are
LOCAL = ["/", "/record", "/matches/1b88dec3265a4cd4", "/leagues/abc?tab=rounds#r2", "/%09/evil.example",
         "/%2F/evil.example", "/café", "/a b", "/a ", "/a/ "]


def as_a_browser_reads(location: str) -> str:
    """A Location header as the WHATWG URL parser sees it before it looks for a scheme or a host: C0 controls
    and spaces at either end stripped, every tab and line break removed, a backslash read as a slash."""
    text = location.strip("".join(map(chr, range(0x21))))
    for c in "\t\n\r":
        text = text.replace(c, "")
    return text.replace("\\", "/")


def stays_on_the_site(location: str) -> bool:
    seen = as_a_browser_reads(location)
    return seen.startswith("/") and not seen.startswith("//")


def link_keys(redis_client, prefix: str) -> list[str]:
    return list(redis_client.scan_iter(f"{prefix}:*:link:*"))


# -- the rule ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", OFF_SITE)
def test_the_rule_refuses_what_leads_off_the_site_and_home_replaces_it(path):
    from service.errors import BadRequest
    from service.next_path import PATTERN, check, or_home
    from service.schemas import FullMatch

    with pytest.raises(BadRequest) as refused:
        check(path)
    assert refused.value.details["field"] == "next" and "path of this app" in refused.value.message
    assert or_home(path) == "/"
    # the OpenAPI document's pattern says the same (the schemathesis run holds the API to it)
    from marshmallow import ValidationError

    with pytest.raises(ValidationError):
        FullMatch(PATTERN)(path)


def test_the_rule_refuses_a_path_too_long_to_keep():
    from service.errors import BadRequest
    from service.next_path import MAX_CHARS, check, or_home

    assert check(TOO_LONG[:MAX_CHARS]) == TOO_LONG[:MAX_CHARS]
    with pytest.raises(BadRequest) as refused:
        check(TOO_LONG)
    assert refused.value.details == {"field": "next", "limit": MAX_CHARS} and or_home(TOO_LONG) == "/"


@pytest.mark.parametrize("path", LOCAL)
def test_the_rule_keeps_a_path_of_this_app(path):
    from service.next_path import PATTERN, check, or_home
    from service.schemas import FullMatch

    assert check(path) == path and or_home(path) == path and FullMatch(PATTERN)(path) == path
    assert stays_on_the_site(path)


@given(st.text(alphabet=st.sampled_from("/\\:. \t\n\r\x00\x1f\x7f\x85\x9f\xa0aZé%?#\u2028"), max_size=12))
@settings(max_examples=400, deadline=None)
def test_the_rule_and_the_openapi_pattern_agree(path):
    """The API's schema refuses by the pattern, the rest of the app by the function: the same paths."""
    import re

    from service.next_path import PATTERN, problem

    assert (problem(path) is None) == (re.fullmatch(PATTERN, path) is not None), path
    if problem(path) is None:
        assert stays_on_the_site(path)


def test_home_replaces_what_is_not_text_at_all():
    from service.next_path import or_home

    for value in (None, 3, ["/"], b"/record"):
        assert or_home(value) == "/"


# -- the language switch -------------------------------------------------------------------------------------


def test_the_language_switch_never_leads_off_the_site(anon):
    # the probe's own request, form-encoded as a browser would send it: %09 is a tab once decoded
    r = anon.post("/language", data="lang=nl&next=/%09/evil.example",
                  content_type="application/x-www-form-urlencoded")
    assert r.status_code == 303 and r.headers["Location"] == "/", r.headers["Location"]
    for path in OFF_SITE + [TOO_LONG]:
        r = anon.post("/language", data={"lang": "nl", "next": path})
        assert r.status_code == 303, (path, r.status_code)
        assert r.headers["Location"] == "/" and stays_on_the_site(r.headers["Location"]), (path, r.headers["Location"])
    r = anon.post("/language", data={"lang": "nl", "next": "/leagues/abc?tab=rounds#r2"})
    assert r.headers["Location"] == "/leagues/abc?tab=rounds#r2"


# -- a sign-in link's next -----------------------------------------------------------------------------------


def test_the_api_refuses_a_links_next_that_leads_off_the_site_and_writes_nothing(admin, make_user, redis_client,
                                                                                  prefix):
    name, _ = make_user("ann")
    for path in OFF_SITE:
        r = admin.post(f"/api/users/{name}/sign-in-links", json={"next": path})
        assert r.status_code == 400, (path, r.status_code)
        error = r.get_json()["error"]
        assert error["field"] == "next" and "path of this app" in error["message"], (path, error)
    too_long = admin.post(f"/api/users/{name}/sign-in-links", json={"next": TOO_LONG})
    assert too_long.status_code == 400 and too_long.get_json()["error"]["field"] == "next"
    assert link_keys(redis_client, prefix) == []


def test_kroniek_user_link_refuses_a_next_that_leads_off_the_site_up_front(accounts, make_user, monkeypatch,
                                                                           redis_client, prefix):
    from service.cli import main

    monkeypatch.setenv("KRONIEK_PREFIX", prefix)
    name, _ = make_user("ann")
    runner = CliRunner()
    for path in ["/\r\nb", "/a\r\nb", "/\t/evil.example", "/\\evil.example", "//evil.example", "evil.example",
                 "https://evil.example"]:
        r = runner.invoke(main, ["user", "link", name, "--next", path])
        assert r.exit_code != 0, (path, r.output)
        assert "--next" in r.output and "path of this app" in r.output, (path, r.output)
        assert "/signin" not in r.output, r.output
    assert link_keys(redis_client, prefix) == []  # nothing written
    made = runner.invoke(main, ["user", "link", name, "--next", "/record"])
    assert made.exit_code == 0 and "/signin#" in made.output and len(link_keys(redis_client, prefix)) == 1


def test_kroniek_user_links_next_is_where_the_tap_goes(app, make_user, monkeypatch, prefix):
    from service.cli import main

    monkeypatch.setenv("KRONIEK_PREFIX", prefix)
    name, _ = make_user("ann")
    out = CliRunner().invoke(main, ["user", "link", name, "--next", "/record"], env={"NO_COLOR": "1"}).output
    secret = out.split("/signin#")[1].split()[0]
    r = client_with_token(app, None).post("/signin", data={"secret": secret}, headers={"Origin": HERE})
    assert r.status_code == 303 and r.headers["Location"] == "/record"


@pytest.mark.parametrize("stored", ["/a\r\nb", "/\t/evil.example", "//evil.example", "/\\evil.example", None])
def test_a_link_whose_stored_next_is_bad_signs_in_whole_and_goes_home(app, accounts, make_user, redis_client,
                                                                      prefix, stored):
    """A link stored before the rule (or written by hand) with a bad next: the tap never answers 500 and never
    leaves a spent link with a session no device holds; it signs in and opens home."""
    import orjson

    name, _ = make_user("ann")
    secret, _ = accounts.issue_link(name, "kroniek")
    (key,) = link_keys(redis_client, prefix)
    record = orjson.loads(redis_client.get(key))
    if stored is None:
        record.pop("next")
    else:
        record["next"] = stored
    redis_client.set(key, orjson.dumps(record), keepttl=True)
    browser = client_with_token(app, None)
    r = browser.post(f"/signin/{secret}", headers={"Origin": HERE})
    assert r.status_code == 303 and r.headers["Location"] == "/", (r.status_code, r.headers.get("Location"))
    assert r.headers["Set-Cookie"].startswith(f"{SESSION_COOKIE}=")
    # the one session made is the one this browser holds
    sessions = accounts.sessions(name)
    assert len(sessions) == 1 and browser.get("/api/me").get_json()["session"] == sessions[0]["id"]
    assert browser.post(f"/signin/{secret}", headers={"Origin": HERE}).status_code == 410  # spent, once


def test_a_tap_cut_off_halfway_leaves_the_link_as_it_was_and_no_session(admin, make_user, monkeypatch):
    """The store goes away as the tap writes: the answer is a 503 (never a 500), and nothing of the tap is kept,
    neither a spent link nor a session no device holds; the same link signs in once the store is back."""
    import redis

    name, _ = make_user("ann")
    path = admin.post(f"/api/users/{name}/sign-in-links", json={"next": "/record"}).get_json()["path"]
    real, cut = redis.client.Pipeline.execute, []

    def cut_once(self, *args, **kwargs):
        if not cut:  # the first write of the tap never reaches Redis
            cut.append(True)
            self.reset()
            raise redis.ConnectionError("the network went away")
        return real(self, *args, **kwargs)

    browser = client_with_token(admin.application, None)
    monkeypatch.setattr(redis.client.Pipeline, "execute", cut_once)
    form = {"secret": path.split("#", 1)[1]}  # the tap posts the link's secret, read from its fragment
    r = browser.post("/signin", data=form, headers={"Origin": HERE})
    monkeypatch.undo()
    assert cut and r.status_code == 503 and r.get_json()["error"]["code"] == "store_unavailable"
    assert admin.get(f"/api/users/{name}/sessions").get_json()["sessions"] == []
    assert browser.get("/api/me").get_json()["name"] == "anonymous"
    again = browser.post("/signin", data=form, headers={"Origin": HERE})
    assert again.status_code == 303 and again.headers["Location"] == "/record"
    assert browser.get("/api/me").get_json()["name"] == name
