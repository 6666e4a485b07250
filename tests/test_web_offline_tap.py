"""Every game recorded offline by tapping its drawing only (issue 34): the
page's own engine (Pyodide, engine.page_table) draws each tap at once and
keeps the drawing live for move after move without a network.

In Debian's Chromium at 390x844, for each of the 8 games: a fresh match is
opened once online (the service worker keeps the pages and the engine), the
network is cut with the browser context's offline switch, and at least 20
moves are tapped on the drawing, chance outcomes in its pickers (Catan: a
whole turn with the robber; the knights: a duel with its dice). After ten
moves the page is reloaded, still offline, on localhost (a secure context,
as https would be): it opens from the service worker, starts its engine from
the kept snapshot and the outbox, and goes on. Back online, every move
reaches the server exactly once and in order, and the audit holds.
"""

from __future__ import annotations

import random

import pytest

from engine import match as M
from engine.core import CHANCE

from .support.games import project_games
from .support.played import bot_of
from .support.tapping import chance_place
from .test_web import PHONE, api, follow, page_of, scene_place, tap, tap_at
from .test_web_offline import KEPT_JS, logged
from .test_web_troubadour import partners

pytestmark = pytest.mark.slow(30)

#: each game's table: players, options; at least this many moves; what must have happened before it stops
GAMES = {
    "braverats": ({"variants": ["G"]}, 2),
    "catan": ({}, 3),
    "catan-troje": ({}, 4),
    "ridder_toernooi": ({}, 2),
    "sir_tommy": ({}, 2),
    "stapelen": ({}, 2),
    "troubadour": ({}, 2),
    "twaalven": ({}, 2),
}
MOVES = 20
RELOAD_AT = 10

#: the page shows the table ``n`` events on from the server's: tapped moves drawn by its engine
SHOWN = "(n) => Number(document.querySelector('#match').dataset.shown) === n"
#: everything a match page needs to open offline and start its engine there: the engine's files too
ENGINE_KEPT = """async (n) => (await (await caches.open('kroniek-engine')).keys()).length >= n"""


def wait_shown(page, n: int, timeout: int = 20_000, what: object = None) -> None:
    """Until the page shows the table ``n`` events on; else what it says instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(SHOWN, arg=n, timeout=timeout)
    except PlaywrightTimeout:
        said = page.evaluate("""() => ({ shown: document.querySelector('#match').dataset.shown,
          engine: document.querySelector('#match').dataset.engine,
          flash: document.querySelector('#flash').hidden ? '' : document.querySelector('#flash').textContent,
          note: (document.querySelector('#engine-note') || {}).textContent, status: document.querySelector('#status').textContent,
          flashes: window.flashes, viewer: document.querySelector('#viewer').value,
          board: [...document.querySelectorAll('#board [data-element]')].filter((e) => e.matches('button')).map((e) => e.dataset.element + (e.disabled ? '(off)' : '')).join(' ') })""")
        raise AssertionError(f"the page does not show seq {n} after {what}: {said}; errors {page.errors}") from None


def choose(ms: M.MatchState, rng: random.Random, state: dict) -> dict:
    """The next event, as the table would play it: a chance outcome the engine draws (Catan's first roll
    after the set-up a 7: the robber), else a legal move of whoever acts, the game's bot's where it has one,
    among those the drawing has a place for."""
    game = ms.game
    actors = game.actors(ms.state)
    if CHANCE in actors:
        move = game.chance_outcome(ms.state, rng).to_dict()
        if game.id == "catan" and move["type"] == "dice" and not state.get("robber"):
            move["data"] = {"dice": [3, 4]}
            state["robber"] = True
        return move
    scene = M.scene(ms, "referee")
    placed = lambda m: scene_place(scene, m) or chance_place(scene, m)  # noqa: E731
    seats = [a for a in actors if a != CHANCE]
    rng.shuffle(seats)
    bot = bot_of(game.id)
    for actor in seats:
        seat = None if actor == "table" else actor
        legal = [m for m in M.legal_moves(ms, seat) if placed(m)]
        if not legal:
            continue
        if bot is not None and seat is not None and rng.random() < 0.7:
            mine = bot(game, ms.state, seat, rng).to_dict()
            if placed(mine):
                return mine
        return rng.choice(legal)
    raise AssertionError(f"{game.id} at seq {ms.seq}: no move with a place on the drawing")


def tap_move(page, ms: M.MatchState, move: dict, rng: random.Random) -> None:
    """Enter ``move`` on the drawing: its element (or pair), its picker's choice, or a chance picker's values."""
    scene = M.scene(ms, "referee")
    place = scene_place(scene, move)
    if place is None:  # a chance outcome, or a seat's pick of several values (Troubadour's nobles): a picker
        found = chance_place(scene, move)
        assert found, f"{move} has no place and no picker on the drawing"
        holder, values = found
        tap(page, f"#board [data-element='{holder['id']}']")
        for v in values:
            tap(page, f"#board .scenepanel button.pick[data-value='{v}']")
        tap(page, "#board .scenepanel button[data-scene-submit]")
        return
    if place[0] == "element" and place[2] is None and partners(scene, place[1]):
        place = (*place[:2], 0)  # an element that is also one of a pair opens its one move in a picker
    tap_at(page, place, rng)


def done(game_id: str, entered: list[dict]) -> bool:
    """Enough recorded: 20 moves, and for Catan a whole turn with the robber (the 7, the robber moved, the turn
    ended), for the knights a duel's dice."""
    if len(entered) < MOVES:
        return False
    types = [m["type"] for m in entered]
    if game_id == "catan":
        return "move_robber" in types and "end_turn" in types[types.index("move_robber"):]
    if game_id == "ridder_toernooi":
        return "roll" in types
    return True


@pytest.fixture(scope="module")
def phone(server, browser):
    """One phone for the games of this module (per test process), as a recorder's phone records match after
    match: its second page already has the engine its first page kept (from the service worker, and the
    interpreter's snapshot), as it would at a club."""
    base, token = server
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_init_script(f"localStorage.setItem('kroniek.token', {token!r})")
    # every message the page flashes, kept (a flash leaves the screen after a while)
    ctx.add_init_script("""addEventListener('DOMContentLoaded', () => { window.flashes = [];
      new MutationObserver(() => { const f = document.querySelector('#flash'); if (!f.hidden) window.flashes.push(f.textContent); })
        .observe(document.querySelector('#flash'), { attributes: true, childList: true, characterData: true, subtree: true }); })""")
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_is_recorded_offline_by_tapping_its_drawing_and_reaches_the_server_once(server, phone, game_id):
    assert set(GAMES) == {g.id for g in project_games()}
    base, token = server
    options, players = GAMES[game_id]
    names = ["Ann", "Bob", "Cor", "Dirk"][:players]
    mid = api(base, token, "POST", "/matches", json={"game": game_id, "players": names, "options": options}).json()["id"]
    ctx = phone
    ctx.set_offline(False)
    for old in ctx.pages:
        old.close()
    page = page_of(ctx)
    page.goto(f"{base}/matches/{mid}")
    page.wait_for_selector("#match[data-engine='ready']", timeout=60_000)
    page.wait_for_function(SHOWN, arg=1)
    paths = [f"/api/matches/{mid}", f"/api/matches/{mid}/roles", f"/api/matches/{mid}/state?seat=referee",
             f"/api/matches/{mid}/review?seat=referee&from=1", "/api/me", f"/api/matches/{mid}/snapshot"]
    page.wait_for_function(KEPT_JS, arg=[f"/matches/{mid}", paths], timeout=30_000)
    page.wait_for_function(ENGINE_KEPT, arg=7, timeout=30_000)

    ctx.set_offline(True)
    ms = follow(base, token, mid)
    rng = random.Random(f"offline:{game_id}")
    entered: list[dict] = []
    state: dict = {}
    reloaded = False
    while not done(game_id, entered):
        assert ms.result is None, f"{game_id} ended after {len(entered)} moves"
        assert len(entered) < 400
        if len(entered) == RELOAD_AT and not reloaded:
            page.reload()
            page.wait_for_selector("#match[data-engine='ready']", timeout=60_000)
            wait_shown(page, ms.seq, 30_000)
            assert page.locator("#outbox-list li").count() == RELOAD_AT
            reloaded = True
        move = choose(ms, rng, state)
        tap_move(page, ms, move, rng)
        before = ms
        data = M.normalize_event(ms, move["type"], move["seat"], move["data"])
        ms = M.apply_event(ms, ms.seq + 1, move["type"], move["seat"], data)
        entered.append({"type": move["type"], "seat": move["seat"], "data": data})
        wait_shown(page, ms.seq, what=(move, scene_place(M.scene(before, "referee"), move)))
    assert not page.locator("#flash.error:not([hidden])").count(), page.inner_text("#flash")
    assert api(base, token, "GET", f"/matches/{mid}").json()["seq"] == 1, "nothing reached the server while offline"

    ctx.set_offline(False)
    page.wait_for_selector(f"#match[data-seq='{ms.seq}']", timeout=60_000)
    assert logged(base, token, mid, 1) == entered
    assert api(base, token, "GET", f"/matches/{mid}/audit").json()["valid"] is True
    assert not page.errors, page.errors
