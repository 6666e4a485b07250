"""The pages in Dutch, in a real Chromium (issue 19, point 4): the language
switch in the header is reached by the keyboard, and what it chose is
remembered from page to page, over what the browser asks for; the moves of a
game are listed in Dutch. That every page is in Dutch for a browser that asks
for it (``<html lang="nl">``, no English word, axe and the pages' own checks)
is tests/test_web_dutch_crawl.py's phone pass."""

from __future__ import annotations

import re

import pytest

from .test_web import api, context, page_of
from .test_web_pages import NAMES, PHONE, site, visit, watched  # noqa: F401  (fixtures)

#: English words that a Dutch page never shows in its own text
ENGLISH = {"the", "and", "with", "from", "move", "moves", "player", "players", "match", "matches", "record", "recorded",
           "league", "leagues", "round", "rounds", "review", "sign", "none", "more", "table", "cards", "seat", "turn",
           "finished", "progress", "chance", "choose", "enter", "undo", "last", "next", "previous", "game", "games",
           "points", "yes", "nobody", "nothing", "standings", "starts", "who", "which", "default", "unknown"}

#: The words of the page's own text: every visible text node and the names a screen reader says (aria-label,
#: title, placeholder), less what is marked as another language (lang="en": an engine's English text) and
#: less the players' names.
WORDS_JS = """(names) => {
  // not the page's own words: what is marked as another language, and names (translate="no": a stored document's)
  const own = (el) => { const l = el.closest("[lang]"); return (!l || l.getAttribute("lang").toLowerCase().startsWith("nl")) && !el.closest("[translate=no]"); };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || !own(el) || el.closest("script, style, code")) continue;
    if (!el.checkVisibility({ visibilityProperty: true }) && !el.closest("details, option")) continue;
    out.push([node.textContent.trim(), el.outerHTML.slice(0, 100)]);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!own(el)) continue;
    for (const a of ["aria-label", "title", "placeholder"]) if (el.getAttribute(a)) out.push([el.getAttribute(a), `${a} of ${el.outerHTML.slice(0, 80)}`]);
  }
  return out.map(([t, where]) => [names.reduce((s, n) => s.split(n).join(" "), t), where]);
}"""


def english_in(page) -> list[str]:
    found = []
    for text, where in page.evaluate(WORDS_JS, NAMES):
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)}
        hit = sorted(words & ENGLISH)
        if hit:
            found.append(f"{hit} in {text[:80]!r} ({where})")
    return found


def pick_game(page, game: str) -> None:
    """Pick ``game`` on the new-match form and wait until its options are drawn (not the last game's)."""
    page.evaluate("() => document.getElementById('options').append(document.createElement('var'))")
    page.locator(f"#game-choices input[value='{game}']").check()
    page.wait_for_function("() => !document.querySelector('#options > var') && document.querySelector('#options > *')",
                           timeout=10_000)


def dutch_context(browser, token, viewport=PHONE):
    """A browser that asks for Dutch: Chromium sends Accept-Language nl-NL,nl."""
    ctx = context(browser, token, viewport=viewport)
    ctx.set_extra_http_headers({"Accept-Language": "nl-NL,nl;q=0.9"})
    return ctx


# Every page in Dutch (<html lang="nl">, no English, axe-core, the solver's notes on a review): the phone pass of
# tests/test_web_dutch_crawl.py, which opens every fold and form as it reads them.


@pytest.mark.slow(10)
def test_the_switch_is_reached_by_keyboard_remembered_and_beats_the_browser(server, browser, site):
    base, token = server
    page = watched(page_of(dutch_context(browser, token)))
    visit(page, base, "/", "main h1")
    assert page.evaluate("document.documentElement.lang") == "nl"
    switch = page.locator("form.langswitch button")
    assert switch.count() == 1 and switch.get_attribute("lang") == "en" and switch.inner_text() == "English"
    # Tab reaches it (after the brand and the pages), and Enter takes it
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.focus(); }")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.id") == "lang-en":
            break
    else:
        pytest.fail("Tab never reaches the language switch")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == base + "/" and page.evaluate("document.documentElement.lang") == "en"
    # remembered on the other pages, though the browser still asks for Dutch
    for _, path, ready in site["pages"][:6]:
        visit(page, base, path, ready)
        assert page.evaluate("document.documentElement.lang") == "en", path
        assert page.locator("#lang-nl").inner_text() == "Nederlands"
    league = f"/leagues/{site['league']}"
    visit(page, base, league, "#standings tr")
    assert page.locator("#standings th").nth(1).inner_text() == "Player"
    with page.expect_navigation():
        page.locator("#lang-nl").click()
    assert page.url == base + league  # back on the page it was on, now in Dutch
    page.wait_for_selector("#standings tr")
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.locator("#standings th").nth(1).inner_text() == "Speler"
    assert page.locator("header nav a[href='/leagues']").inner_text() == "Competities"
    assert not page.errors, page.errors


def test_the_moves_of_a_game_that_speaks_dutch_are_listed_in_dutch(server, browser, site):
    """A BraveRats match's review and record pages list each move in Dutch,
    the engine's own line (``summary_nl``, the rules text's card names), not
    its English marked as such; the step shown says it in Dutch too."""
    base, token = server
    match = site["matches"]["braverats"]
    steps = api(base, token, "GET", f"/matches/{match}/review?seat=referee").json()["steps"]
    assert len(steps) > 1 and all(s["summary_nl"] for s in steps)
    page = watched(page_of(dutch_context(browser, token)))
    visit(page, base, f"/matches/{match}/review?seat=referee", "#steps li")
    lines = page.locator("#steps li .summary")
    assert lines.evaluate_all("els => els.map((e) => e.textContent)") == [s["summary_nl"] for s in steps]
    assert lines.evaluate_all("els => els.filter((e) => e.lang === 'en').length") == 0
    assert page.locator("#step-title").inner_text().endswith(steps[-1]["summary_nl"])
    visit(page, base, f"/matches/{match}", "#log li")
    assert page.locator("#log li").evaluate_all("els => els.map((e) => e.lastChild.textContent)") == \
        [s["summary_nl"] for s in steps]
    assert english_in(page) == [] and page.errors == []


def test_the_page_says_an_engines_message_as_the_server_does(server, browser):
    """K.say (what the page's own engine says, in the page's language) renders a message exactly as the API
    does from the same catalogue: words, plurals, numbers, nested messages, names in each language."""
    from engine.braverats.cards import NAMES as CARD_NAMES
    from engine.text import Words, say, say_n, to_json
    from service.web.i18n import language

    base, token = server
    texts = [
        say("{who} has no {card} left in hand; {held}", who=say("{name} ({colour})", name="Ann", colour=say("Red")),
            card=CARD_NAMES[7], held=say("the cards still in {name}'s hand are {cards}", name="Ann",
                                         cards=[CARD_NAMES[0], CARD_NAMES[3]])),
        say_n(1, "{n} unseen card", "{n} unseen cards"), say_n(1234, "{n} unseen card", "{n} unseen cards"),
        say("{a} vs {b}", a=0.5, b=12), say("{What} (hidden from this view)", What=Words(en="Draw", nl="Kaarten trekken")),
    ]
    for lang, headers in (("nl", {"Accept-Language": "nl-NL,nl;q=0.9"}), ("en", {"Accept-Language": "en"})):
        ctx = context(browser, token)
        ctx.set_extra_http_headers(headers)
        page = page_of(ctx)
        page.goto(f"{base}/")
        page.wait_for_function("() => typeof Kroniek !== 'undefined' && Kroniek.say")
        said = page.evaluate("(texts) => texts.map((t) => Kroniek.say(t))", [to_json(t) for t in texts])
        assert said == [t.render(language(lang)) for t in texts], lang
        ctx.close()
    assert said[0].startswith("Ann (Red) has no Prince") and said[2] == "1234 unseen cards"


def test_a_dutch_page_gets_a_refusal_in_dutch(server, browser):
    """The pages ask the API in their own language (K.api's Accept-Language): a refused move reads Dutch."""
    base, token = server
    mid = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    api(base, token, "POST", f"/matches/{mid}/events", json={"type": "round", "data": {"cards": ["prince", "spy"]}})
    page = page_of(dutch_context(browser, token))
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-seq='2']")
    answer = page.evaluate(f"""() => Kroniek.api("POST", "/api/matches/{mid}/events",
        {{ type: "round", data: {{ cards: ["prince", "spy"] }} }}).then((r) => Kroniek.errorText(r))""")
    assert answer.startswith("Ann (Rood) heeft geen Prins meer in de hand"), answer
    assert "Een speler kan alleen een kaart spelen die nog in zijn hand is" in answer


def test_cards_read_in_the_page_language_and_knights_by_name(server, browser):
    """A card on a Dutch page is named as a Dutch table names it, largest and in what a screen reader says
    (BraveRats' Prinses, ♥V for the queen of hearts, suit first as the engine's lines write it), and a knight
    by the name on his card, never K01."""
    base, token = server
    rats = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    labels = """() => { const of = (game, view, v) => new Boards.Labels(game, view).of(v);
      return [of({ id: "twaalven", aliases: { "harten vrouw": "QH" } }, null, "QH"),
              of({ id: "ridder_toernooi", aliases: {} }, { knights: [{ id: "K01", name: "Apollonius" }] }, "K01")]; }"""
    for lang, headers, princess, queen in (("nl", {"Accept-Language": "nl-NL,nl;q=0.9"}, "1 Prinses", "♥V"),
                                           ("en", {"Accept-Language": "en"}, "1 Princess", "♥Q")):
        ctx = context(browser, token)
        ctx.set_extra_http_headers(headers)
        page = page_of(ctx)
        page.goto(f"{base}/matches/{rats}")
        page.wait_for_selector("#board .card[data-card='princess']")
        chip = page.locator("#board .card[data-card='princess']").first
        assert chip.inner_text().splitlines()[0] == princess, lang
        if lang == "nl":
            assert chip.get_attribute("title") == "Prinses" and "Princess" not in chip.inner_text()
        card, knight = page.evaluate(labels)
        assert card["text"] == queen and knight["text"] == "Apollonius", (lang, card, knight)
        assert card["title"] == ("harten vrouw" if lang == "nl" else "queen of hearts")
        ctx.close()
