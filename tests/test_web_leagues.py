"""A league run from a phone (issue 19, part 3): at 390x844, in Debian's
Chromium, a league is created on /leagues, players registered, two Swiss
rounds paired, their matches started and recorded by tapping the record
page's move buttons, their results entered (and one board forfeited) from
the league's page, until the league is finished; the API's refusals are
shown on the page; the standings fit the phone and never break a name
inside a word.

The fixtures (one server and one browser per module) are tests/test_web.py's.
"""

from __future__ import annotations

import re
import secrets

import pytest

from .test_web import IMG, PHONE, api, click_and_wait, context, no_horizontal_scroll, page_of

pytestmark = pytest.mark.slow

#: names with long words, and one of several, so a narrow column would have to break them
PLAYERS = ["Maximiliaan van Oldenbarnevelt", "Wilhelmina Rozenboom", "Hans Andersen", "Bo"]

#: the words of every .lg-name in ``scope`` that the layout splits over two lines (a word's
#: text as a Range: its client rects lie on more than one line when it is broken inside)
BROKEN_WORDS = """(scope) => [...document.querySelectorAll(scope + ' .lg-name')].flatMap((el) => {
  const text = el.firstChild, out = [];
  for (const m of text.data.matchAll(/\\S+/g)) {
    const r = document.createRange();
    r.setStart(text, m.index);
    r.setEnd(text, m.index + m[0].length);
    const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
    if (lines.size > 1) out.push(m[0]);
  }
  return out;
})"""


#: the visible controls in ``scope`` that have no accessible name (a label, its text, aria-label or -labelledby)
#: or that the keyboard cannot reach (disabled ones aside)
UNLABELLED = """(scope) => [...document.querySelectorAll(scope + ' :is(input, select, textarea, button, a, summary)')]
  .filter((el) => el.getClientRects().length && !el.disabled)
  .filter((el) => el.tabIndex < 0 || !((el.labels && el.labels.length) || el.getAttribute('aria-label')
    || el.getAttribute('aria-labelledby') || (el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && el.tagName !== 'TEXTAREA' && el.textContent.trim())))
  .map((el) => el.outerHTML.slice(0, 120))"""


def record_braverats_by_tapping(page):
    """The match page's move buttons, one tap a card: the first seat its highest
    card left, the second its lowest, until the match has finished."""
    page.click("#moves details.fallback > summary")  # the text buttons, folded under the drawing
    page.wait_for_selector("#moves .group[data-type=play]")
    for turn in range(40):
        if page.locator("#status").inner_text().startswith("Finished"):
            return
        groups = page.locator("#moves .group")
        group = groups.nth(0) if turn % 2 == 0 else groups.nth(1 if groups.count() > 1 else 0)
        buttons = group.locator("button.move")
        click_and_wait(page, buttons.nth(buttons.count() - 1 if turn % 2 == 0 else 0))
    raise AssertionError("the match did not end")


def refused(page):
    """The API's refusal as the page shows it (its flash)."""
    page.wait_for_selector("#flash.error:not([hidden])")
    text = page.locator("#flash").inner_text()
    page.evaluate("document.getElementById('flash').hidden = true")
    return text


@pytest.mark.slow(25)
def test_a_league_is_created_run_for_two_rounds_and_finished_from_a_phone(server, browser):
    base, token = server
    page = page_of(context(browser, token))  # 390x844
    page.goto(f"{base}/leagues")
    page.wait_for_selector("#new-league:not([hidden])")
    no_horizontal_scroll(page)

    # -- create: the API's refusal first (a Swiss league says how many rounds), beside the form
    page.fill("#lg-name", "Autumn Swiss")
    page.select_option("#lg-game", "braverats")
    page.select_option("#lg-format", "swiss")
    page.fill("#lg-rounds", "")
    page.fill("#lg-players", "\n".join(PLAYERS[:3]))
    page.click("#create-league")
    assert "says how many rounds it plays" in refused(page)
    assert "says how many rounds it plays" in page.locator("#new-league-error").inner_text()
    assert page.get_attribute("#lg-rounds", "aria-invalid") == "true"
    page.fill("#lg-rounds", "2")
    # the tiebreaks, with the keyboard: Buchholz before Buchholz cut 1, no direct encounter
    page.click(".lg-rules summary")
    page.focus("button[aria-label='Move down Buchholz cut 1']")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Move down Buchholz cut 1"  # focus kept
    page.focus("#lg-tb-direct_encounter")
    page.keyboard.press("Space")
    assert page.evaluate(UNLABELLED, "#new-league") == []
    page.click("#create-league")
    page.wait_for_url(re.compile(r"/leagues/[0-9a-f]+$"))
    lid = page.url.rsplit("/", 1)[1]

    # -- register the fourth player; the same name again is refused, as the API words it
    page.wait_for_selector("#register:not([hidden])")
    page.fill("#register-name", PLAYERS[3])
    page.click("#register-submit")
    page.wait_for_selector(f"#players li[data-player='{PLAYERS[3]}']")
    page.fill("#register-name", "hans andersen")
    page.click("#register-submit")
    assert "registered already" in refused(page)
    league = api(base, None, "GET", f"/leagues/{lid}").json()
    assert league["players"] == PLAYERS and league["format"] == "swiss" and league["total_rounds"] == 2
    # -- a referee for the club: a name that cannot be an account's is refused, a known user gets the role, and
    # someone new gets an account and a sign-in link to pass on
    referee = f"ref-{secrets.token_hex(3)}"
    assert api(base, token, "POST", "/users", json={"name": referee}).status_code == 201
    page.fill("#grant-user", referee + " x")
    page.click("#grant-submit")
    assert "user name" in refused(page)
    page.fill("#grant-user", referee)
    page.select_option("#grant-role", "referee")
    page.click("#grant-submit")
    page.wait_for_selector(f"#roles li[data-user='{referee}']")
    assert api(base, None, "GET", f"/leagues/{lid}/roles").json()["roles"][referee] == ["referee"]
    newcomer = f"new-{secrets.token_hex(3)}"
    page.fill("#grant-user", newcomer)
    page.select_option("#grant-role", "organiser")
    page.click("#grant-submit")
    page.wait_for_selector(f"#grant-link .signin-link:has-text('{newcomer}') .link-url")  # not the referee's link
    assert page.get_attribute("#grant-link .link-url", "href").startswith(f"{base}/signin#kl_")
    assert api(base, None, "GET", f"/leagues/{lid}/roles").json()["roles"][newcomer] == ["organiser"]
    tiebreaks = list(api(base, None, "GET", f"/leagues/{lid}/standings").json()["standings"][0]["tiebreaks"])
    assert tiebreaks == ["buchholz", "buchholz_cut1", "sonneborn_berger", "wins"]

    # -- two rounds: pair, start every match, record them by tapping, enter their results
    for rnd in (1, 2):
        page.focus("#pair")
        page.keyboard.press("Enter")
        rnd_box = page.locator(f".lg-round[data-round='{rnd}']")
        rnd_box.wait_for()
        assert page.locator("#register").is_hidden()  # registration closes with round 1
        page.click(f"button[data-start-all='{rnd}']")
        page.wait_for_function(f"() => document.querySelectorAll(\".lg-round[data-round='{rnd}'] a[data-record]\").length == 2")
        boards = api(base, None, "GET", f"/leagues/{lid}").json()["rounds"][rnd - 1]["boards"]
        assert all(b["match"] for b in boards)
        for b in boards:
            board = rnd_box.locator(f".lg-board[data-board='{b['board']}']")
            if rnd == 2 and b["board"] == 2:
                # a forfeit: refused without a player named, then recorded with one
                board.locator("summary").click()
                assert page.evaluate(UNLABELLED, "#league") == []
                board.locator("input[type=text]").fill("did not show")
                board.locator("button[type=submit]").click()
                assert "forfeited" in refused(page)
                assert "forfeited" in board.locator(".lg-error").inner_text()
                board.locator("input[type=checkbox]").nth(1).check()
                board.locator("button[type=submit]").click()
                board.locator(".forfeit").wait_for()
                continue
            board.locator("a[data-record]").click()  # the match's record page
            page.wait_for_url(re.compile(rf"/matches/{b['match']}$"))
            record_braverats_by_tapping(page)
            page.go_back()
            # the page looks again until the worker has validated the log, then offers the result
            board.locator(f"button[data-result='{b['match']}']").click(timeout=60_000)
            board.locator(".result").wait_for()
        page.wait_for_selector(f".lg-round[data-round='{rnd}'] h3 >> text=complete")

    # -- finished: said so, no round left to pair, and the standings are the API's
    page.wait_for_selector("#finished:not([hidden])")
    assert page.locator("#pair").is_hidden()
    league = api(base, None, "GET", f"/leagues/{lid}").json()
    assert league["finished"] and len(league["rounds"]) == 2
    standings = api(base, None, "GET", f"/leagues/{lid}/standings").json()["standings"]
    winners = [s["player"] for s in standings if s["rank"] == 1]
    assert all(w in page.locator("#finished").inner_text() for w in winners), (page.locator("#finished").inner_text(), winners)
    rows = page.locator("#standings tbody tr")
    assert [r.get_attribute("data-player") for r in rows.all()] == [s["player"] for s in standings]
    assert [r.locator(".lg-main").inner_text().split()[0] for r in rows.all()] == [str(s["points"]) for s in standings]
    assert sum(s["forfeits"] for s in standings) == 2 and sum(s["games"] for s in standings) == 8

    # -- readable at 390 px: nothing wider than the phone, no name broken inside a word
    page.evaluate("window.scrollTo(0, 0)")
    no_horizontal_scroll(page)
    assert page.evaluate("(() => { const b = document.getElementById('standings-box'); return b.scrollWidth <= b.clientWidth; })()")
    assert page.evaluate(f"Math.max(...[...document.querySelectorAll('#standings tr')].map((r) => r.getBoundingClientRect().right))") <= PHONE["width"]
    assert page.evaluate(BROKEN_WORDS, "#standings") == []
    assert page.evaluate(BROKEN_WORDS, "#rounds") == []
    page.wait_for_selector("#audit >> text=✓ audit holds")  # every result checked against its match's log
    page.screenshot(path=str(IMG / "league-phone.png"), full_page=True)
    # the check above can fail: names broken anywhere, as the old table did ("H an s"), are caught
    page.evaluate("""() => {  // through the CSSOM: the page's CSP refuses an injected style sheet
      document.querySelectorAll('#standings .lg-name').forEach((n) => { n.style.wordBreak = 'break-all'; });
      document.querySelectorAll('#standings td.lg-player').forEach((n) => { n.style.flex = '0 0 3em'; }); }""")
    assert page.evaluate(BROKEN_WORDS, "#standings")
    assert page.errors == []
