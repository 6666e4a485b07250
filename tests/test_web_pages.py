"""Every page, in a real Chromium, at a phone's 390x844 and a desktop's
1280x900 (issue 19, "Every page"): home, the new-match form with each game
picked, each game's match just started (its chance form open) and with some
moves in, a match seen by one seat, two reviews, the leagues, a league, the
API docs, and any page one of these links to. On each:

- axe-core finds no serious or critical violation (axe-core is the npm
  package pinned in tests/browser/package-lock.json, installed by
  ``make install``; the test injects it, the app never serves it);
- nothing scrolls sideways, and no text, control or picture runs past the
  right edge of the window or of a box that hides its overflow;
- no "undefined" or "NaN" in the visible text;
- no console error and no uncaught exception.

And Tab reaches every control on home (signed in and out), the new-match
form, match pages, a review and a league.
"""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from engine import all_games
from service.web import CSP

from .test_web import api, context, follow, page_of

ROOT = Path(__file__).resolve().parents[1]
AXE = Path(os.environ.get("KRONIEK_AXE") or ROOT / "tests/browser/node_modules/axe-core/axe.min.js")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
NAMES = ["Ann", "Bob", "Cor", "Dirk", "Eva", "Fien"]
#: how many events each game's match gets before its page is checked
MOVES = 12


def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"no axe-core at {AXE}: run `make install` (npm ci in tests/browser) to install the pinned axe-core")
    return AXE.read_text()


def play_some(base, token, match_id, n, seed):
    """``n`` events by the API: the chance outcomes and moves the engine itself draws and picks."""
    rng = random.Random(seed)
    ms = None
    for step in range(n):
        ms = follow(base, token, match_id, ms)
        actors = list(ms.game.actors(ms.state))
        if not actors:
            return
        if "chance" in actors:
            move = ms.game.chance_outcome(ms.state, random.Random(seed * 1000 + step)).to_dict()
        else:
            moves = [m.to_dict() for a in actors for m in ms.game.legal_moves(ms.state, None if a == "table" else a)]
            if not moves:
                return
            move = rng.choice(moves)
        r = api(base, token, "POST", f"/matches/{match_id}/events", json=move)
        assert r.status_code == 201, (match_id, move, r.text)


@pytest.fixture(scope="module")
def site(server):
    """A match of every game with some moves in, a league, and the list of pages to visit."""
    base, token = server
    # The games the server knows: this process may have registered more for its other tests
    # (tests.support.slow_analysis's slow-toy), which the server never heard of.
    served = {g["id"] for g in api(base, token, "GET", "/games").json()["games"]}
    games = [g.info() for g in all_games() if g.id in served]
    matches, fresh = {}, {}
    for n, g in enumerate(games):
        players = NAMES[:min(g["player_counts"])]
        for into in (fresh, matches):
            r = api(base, token, "POST", "/matches", json={"game": g["id"], "players": players})
            assert r.status_code == 201, (g["id"], r.text)
            into[g["id"]] = r.json()["id"]
        play_some(base, token, matches[g["id"]], MOVES, n + 1)
    league = api(base, token, "POST", "/leagues", json={"name": "De Dinsdagclub, de lange naam van een club",
                                                        "game": "braverats", "format": "swiss", "rounds": 3,
                                                        "players": NAMES[:4]}).json()
    assert "id" in league, league
    r = api(base, token, "POST", f"/leagues/{league['id']}/rounds")
    assert r.status_code == 201, r.text
    board_match = api(base, token, "POST", f"/leagues/{league['id']}/rounds/1/boards/1/match").json()["id"]
    pages = [("home", "/", "main h1"), ("leagues", "/leagues", "main h1"),
             ("league", f"/leagues/{league['id']}", "#standings tr"),
             ("review", f"/matches/{matches['twaalven']}/review", "#steps li"),
             ("review of Troje", f"/matches/{matches['catan-troje']}/review", "#steps li"),
             ("a match seen by seat 0", f"/matches/{matches['troubadour']}?seat=0", "#log li"),
             ("a league's match", f"/matches/{board_match}", "#league-board"),
             ("the knights' card-set editor", "/games/ridder_toernooi/card-sets/new", "#ed-status.good"),
             ("Troje's board editor", "/games/catan-troje/boards/new", "#ed-status.good"),
             ("Troje's ship-tile editor", "/games/catan-troje/ship-tiles/new", "#ed-status.good"),
             ("api docs", "/api/docs", ".swagger-ui .info"),
             ("signed-in devices", "/me", "#devices li"),
             ("a used or expired sign-in link", "/signin#kl_" + "x" * 43, "#signin-why"),
             ("a sign-in link made before, by its path", "/signin/kl_" + "x" * 43, "#signin-why")]
    me = api(base, token, "GET", "/me").json()["name"]
    link = api(base, token, "POST", f"/users/{me}/sign-in-links", json={}).json()
    pages.append(("a sign-in link", link["path"], "#signin-button"))
    # each game's match just started (most open with a chance form: the deal, the first draw) and some moves in
    pages += [(f"new match {gid}", f"/matches/{mid}", "#log li") for gid, mid in fresh.items()]
    pages += [(f"match {gid}", f"/matches/{mid}", "#log li") for gid, mid in matches.items()]
    return {"base": base, "token": token, "games": [g["id"] for g in games], "matches": matches, "fresh": fresh,
            "league": league["id"], "pages": pages}


# -- the checks, in the page ---------------------------------------------------------------------

#: What runs past the right edge: the document's own width, and each visible
#: text, control or picture whose box ends right of the window or of an
#: ancestor that hides its overflow (the pages' body hides it: what is cut off
#: there is simply lost). A box that scrolls is fine: what is in it can be reached;
#: so is a board zoomed to a part of it (its "Whole board" shows the rest).
OVERFLOW_JS = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  const sw = document.documentElement.scrollWidth;
  if (sw > vw) out.push(`the page is ${sw} px wide in a ${vw} px window`);
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.classList.length ? "." + [...el.classList].join(".") : "");
  /** where el (or, with own, el's text: a box that hides its overflow cuts its own text) is cut off on the
      right, and by what; null inside a box that scrolls */
  const edgeOf = (el, own = false) => {
    let edge = vw, by = "the window";
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (a !== document.body && a !== document.documentElement && (s.overflowX === "auto" || s.overflowX === "scroll")) return null;
      if (a.matches("svg.zoomed")) return null;
      if ((own || a !== el) && a !== document.body && a !== document.documentElement && (s.overflowX === "hidden" || s.overflowX === "clip")) {
        const r = a.getBoundingClientRect();
        if (r.right < edge) { edge = r.right; by = describe(a); }
      }
    }
    return { edge, by };
  };
  const past = (what, el, right, own = false) => {
    const e = edgeOf(el, own);
    if (e && right > e.edge + 1) out.push(`${what} (in ${describe(el)}) ends at ${Math.round(right)} px, past ${e.by} at ${Math.round(e.edge)} px`);
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node && out.length < 15; node = walker.nextNode()) {
    const text = node.textContent.trim(), el = node.parentElement;
    if (!text || !el || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) continue;  // text for screen readers only (.sronly): never seen
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (rects.length) past(`"${text.slice(0, 40)}"`, el, Math.max(...rects.map((r) => r.right)), true);
  }
  for (const el of document.body.querySelectorAll("svg, img, canvas, video, button, input, select, textarea, table")) {
    if (out.length >= 15 || el.closest("svg") !== el && el.closest("svg")) continue;
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) past(`a ${el.tagName.toLowerCase()} ${r.width > 1 ? Math.round(r.width) + " px wide" : ""}`, el, r.right);
  }
  return out;
}"""

#: "undefined" or "NaN" in what the page shows: its text and its fields' values.
WORDS_JS = r"""() => {
  const bad = /\b(undefined|NaN)\b/;
  const out = [];
  for (const line of document.body.innerText.split("\n")) if (bad.test(line)) out.push(line.trim().slice(0, 120));
  for (const f of document.querySelectorAll("input, select, textarea"))
    if (f.checkVisibility() && bad.test(f.value)) out.push(`a field's value: ${f.value.slice(0, 80)}`);
  return out;
}"""

AXE_JS = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
                                             why: (n.failureSummary || "").split("\\n").slice(1).join("; ").slice(0, 240) })),
    more: Math.max(0, v.nodes.length - 6),
  }));
}"""


def axe_text(violations) -> list[str]:
    out = []
    for v in violations:
        out.append(f"axe {v['impact']} {v['id']}: {v['help']}")
        out += [f"    {n['target']}  {n['html']}\n      {n['why']}" for n in v["nodes"]]
        if v["more"]:
            out.append(f"    … and {v['more']} more")
    return out


def check(page, axe: str, where: str) -> list[str]:
    """Every check on the page as it stands; the problems found, each a readable line."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(axe + "\n;0")  # by the devtools protocol: the page's CSP refuses an injected inline script
    problems = [f"overflow: {p}" for p in page.evaluate(OVERFLOW_JS)]
    problems += [f"shows {p!r}" for p in page.evaluate(WORDS_JS)]
    problems += axe_text(page.evaluate(AXE_JS))
    problems += [f"console: {e}" for e in page.errors]
    page.errors.clear()
    return [f"{where}: {p}" for p in problems]


def watched(page):
    """A page whose console errors and uncaught exceptions land in ``page.errors``, and whose
    fetches in flight (but a live page's stream) are in ``page.fetching``."""
    page.on("console", lambda m: page.errors.append(f"{m.text} ({m.location.get('url', '')})") if m.type == "error" else None)
    page.fetching = set()

    def asked(r):
        if r.resource_type in ("fetch", "xhr") and "/stream" not in r.url:
            page.fetching.add(r)
    def done(r):
        page.fetching.discard(r)
    page.on("request", asked)
    page.on("requestfinished", done)
    page.on("requestfailed", done)
    return page


def settle(page, quiet=0.1, limit=10.0):
    """Until no fetch has been in flight for ``quiet`` seconds: what the scripts fetched is drawn (a live page
    never goes network-idle; a fixed 300 ms wait cost each page visited more and promised less)."""
    start = time.monotonic()
    since = None
    while time.monotonic() - start < limit:
        page.wait_for_timeout(25)
        if page.fetching:
            since = None
        elif since is None:
            since = time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
    raise AssertionError(f"{page.url}: still fetching after {limit} s: {[r.url for r in page.fetching]}")


def visit(page, base, path, ready):
    answer = page.goto(base + path)
    # every page says what it may load and run: nothing inline, nothing from elsewhere (a refusal of the
    # page's own is a console error, which check() reports)
    assert answer.headers.get("content-security-policy") == CSP, (path, answer.headers)
    assert answer.headers.get("x-content-type-options") == "nosniff", path
    page.wait_for_selector(ready, timeout=20_000)
    page.wait_for_function("() => !document.querySelector('.loading, [aria-busy=true]')", timeout=10_000)
    settle(page)


def route(url: str, base: str) -> str | None:
    """The page a link leads to, ids left out ("/matches/:id/review", "/record?game"); None for
    what is not a page: another site, the API (but its docs), the scripts and styles."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != base:
        return None
    path = parts.path.rstrip("/") or "/"
    if (path.startswith("/api") and path != "/api/docs") or path.startswith("/assets") or path == "/favicon.ico":
        return None
    path = "/".join(":id" if re.fullmatch(r"[0-9a-f]{8,}|\d+", seg) else seg for seg in path.split("/"))
    keys = sorted({kv.split("=")[0] for kv in parts.query.split("&") if kv})
    return path + ("?" + "&".join(keys) if keys else "")


#: the links on a page, but downloads
LINKS_JS = "() => [...document.querySelectorAll('a[href]')].filter((a) => !a.hasAttribute('download')).map((a) => a.href)"


@pytest.mark.slow(50)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_passes_axe_fits_the_window_and_says_no_undefined(server, browser, site, viewport):
    axe = axe_source()
    base, token = server
    page = watched(page_of(context(browser, token, viewport=viewport)))
    problems: list[str] = []
    size = f"{viewport['width']}x{viewport['height']}"
    todo = list(site["pages"])
    seen = {route(base + path, base) for _, path, _ in todo} | {"/record", "/record?game"}
    while todo:
        name, path, ready = todo.pop(0)
        visit(page, base, path, ready)
        problems += check(page, axe, f"{name} ({path}) at {size}")
        # a page linked from one visited and not in the list (a page added since) is visited too
        for url in page.evaluate(LINKS_JS):
            key = route(url, base)
            if key and key not in seen:
                seen.add(key)
                todo.append((f"linked page {key}", url[len(base):], "main"))
    visit(page, base, "/record", "#game-choices")
    problems += check(page, axe, f"/record at {size}")
    for game in site["games"]:
        # a mark the form's redraw removes: the options shown are the game's just picked
        page.evaluate("() => document.getElementById('options').append(document.createElement('var'))")
        page.locator(f"#game-choices input[value='{game}']").check()
        page.wait_for_function("() => !document.querySelector('#options > var') && document.querySelector('#options > *')",
                               timeout=10_000)
        problems += check(page, axe, f"/record, {game} picked, at {size}")
    assert not problems, "\n".join(problems)


# -- the keyboard --------------------------------------------------------------------------------

#: Mark every visible control the user could operate (a radio group counts
#: once: Tab enters it, the arrows move within it); their number.
CONTROLS_JS = """() => {
  const sel = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1']), [role=button], [role=link], [contenteditable=true]";
  const shown = (el) => {
    if (el.disabled || !el.checkVisibility({ visibilityProperty: true }) || el.closest("[inert]")) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1;
  };
  // what the mouse is told it can click (cursor: pointer, as the drawings' tap targets) counts too,
  // unless it is a control, sits in one or holds one (a label around its radio)
  const pointers = [...document.querySelectorAll("body *")].filter((el) =>
    getComputedStyle(el).cursor === "pointer" && !(el.parentElement && getComputedStyle(el.parentElement).cursor === "pointer")
    && !el.closest(sel) && !el.querySelector(sel) && !(el.tagName === "LABEL" && el.control));
  const groups = new Set();
  let n = 0;
  pointers.forEach((el) => { el.dataset.kbPointer = "1"; });
  for (const el of [...document.querySelectorAll(sel), ...pointers]) {
    if (!shown(el)) continue;
    let key = "c" + n;
    if (el.type === "radio" && el.name) { key = "radio:" + el.name; if (groups.has(key)) { el.dataset.kb = key; continue; } groups.add(key); }
    el.dataset.kb = key;
    n++;
  }
  return n;
}"""

UNREACHED_JS = """(seen) => [...document.querySelectorAll("[data-kb]")].filter((el) => !seen.includes(el.dataset.kb))
  .filter((el, i, all) => all.findIndex((o) => o.dataset.kb === el.dataset.kb) === i)
  .map((el) => el.outerHTML.slice(0, 140) + (el.dataset.kbPointer ? " (it looks clickable: cursor: pointer)" : ""))"""


def tab_through(page) -> list[str]:
    """Press Tab until the focus comes round again; the controls it never reached."""
    count = page.evaluate(CONTROLS_JS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.focus(); }")
    seen: list[str] = []
    for _ in range(count + 20):
        page.keyboard.press("Tab")
        key = page.evaluate("() => document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.kb || '' : ''")
        if key and key in seen and key == seen[0]:
            break
        if key and key not in seen:
            seen.append(key)
    return page.evaluate(UNREACHED_JS, seen)


@pytest.mark.slow(15)
def test_every_control_is_reached_with_the_tab_key(server, browser, site):
    base, token = server
    page = watched(page_of(context(browser, token, viewport=PHONE)))
    problems: list[str] = []
    targets = [("home", "/", "main h1"), ("/record", "/record", "#game-choices"),
               ("/record with catan picked", "/record?game=catan", "#options .field"),
               ("a Catan match", f"/matches/{site['matches']['catan']}", "#board svg.hexboard"),
               # Troubadour is drawn: its table's elements are the controls (the text buttons stay folded)
               ("a Troubadour match", f"/matches/{site['matches']['troubadour']}", "#board .scene button.el"),
               ("a new Troubadour match (the deal's picker on a draw pile)", f"/matches/{site['fresh']['troubadour']}",
                "#board .scene button.el"),
               ("a review", f"/matches/{site['matches']['twaalven']}/review", "#steps li"),
               ("a league", f"/leagues/{site['league']}", "#standings tr"),
               ("the knights' card-set editor", "/games/ridder_toernooi/card-sets/new", "#ed-status.good"),
               ("Troje's board editor (its hexes are the controls)", "/games/catan-troje/boards/new", "#ed-status.good")]
    for name, path, ready in targets:
        visit(page, base, path, ready)
        problems += [f"{name}: Tab never reaches {html}" for html in tab_through(page)]
    public = watched(page_of(context(browser, viewport=PHONE)))  # no token: the header's sign-in box
    visit(public, base, "/", "#sign-in-link")
    problems += [f"home, signed out: Tab never reaches {html}" for html in tab_through(public)]
    visit(public, base, "/me", "#me-out:not([hidden])")  # how to sign in, and the token box in a fold
    problems += [f"/me, signed out: Tab never reaches {html}" for html in tab_through(public)]
    problems += check(public, axe_source(), "/me, signed out")
    problems += [f"console: {e}" for e in page.errors + public.errors]
    assert not problems, "\n".join(problems)
