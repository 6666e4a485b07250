"""The engine in the page (issue 34): the match page runs the project's own
engine/ under Pyodide in a Web Worker. These tests hold it to the server's.

- ``engine.page_table`` natively: its payload leaves out what the page must
  not have, it follows events and lays waiting moves on top exactly as the
  server records them, and says which move the rules refuse.
- Parity, in Debian's Chromium: for every game, a seeded random match (chance
  outcomes entered, undos among the moves) is played by the page's engine,
  and at every step the state, the scene and the legal moves it shows each
  viewer (the referee, the public, a seat) equal the server's. Midway the
  page starts again from a snapshot and follows the server's events, as the
  match page does when another phone records.
- The snapshot endpoint: a recorder's in a game with hidden cards, anyone's
  in a game with nothing hidden, never with a simulated match's seed.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import match as M
from engine.page_table import PageTable, dumps, page_payload
from tests.support.games import project_games
from tests.support.played import play

#: steps of each game's match checked in the browser, and seeds (one match per game)
STEPS = 50


def native(ms: M.MatchState, viewer) -> dict:
    """What the server answers for ``viewer`` at ``ms``: the state (its view), the scene, the legal moves."""
    return json.loads(dumps(PageTable.show(ms, viewer)))


def viewers(ms: M.MatchState, step: int) -> list:
    seats = len(ms.players)
    return ["referee", None, step % seats]


def match_log(game_id: str, seed: int, limit: int = STEPS) -> list[dict]:
    return play(game_id, seed, mode="physical", undo_rate=0.06, limit=limit, finish=False)


# -- natively --------------------------------------------------------------------------------------


def test_the_page_gets_no_seed_and_no_secret_of_a_simulated_match():
    log = play("braverats", 3, mode="simulated", finish=False, limit=5)
    setup = {**log[0]["data"], "secret": "ab" * 32}
    ms = M.start(setup)
    payload = page_payload("m1", ms)
    assert payload["setup"]["seed"] is None and "secret" not in payload["setup"]
    assert payload["setup"]["mode"] == "simulated"
    table = PageTable(json.dumps(payload))
    assert table.seq == 1


def test_waiting_moves_are_applied_as_the_server_applies_them_and_a_refused_one_is_named():
    log = match_log("troubadour", 5, limit=30)
    setup, moves = log[0]["data"], [{k: e[k] for k in ("type", "seat", "data")} for e in log[1:]]
    table = PageTable(json.dumps(page_payload("m", M.start(setup))))
    server = M.replay(log)
    shown = json.loads(table.play(json.dumps(moves), json.dumps("referee")))
    assert shown["seq"] == server.seq and "refused" not in shown
    assert shown == native(server, "referee")
    # a move the rules refuse: the table before it, the move's index, the rule and its text
    bad = moves[:5] + [dict(moves[5], seat=(moves[5]["seat"] or 0) + 1 if moves[5]["seat"] is not None else 0)] + moves[6:]
    out = json.loads(table.play(json.dumps(bad), json.dumps("referee")))
    if "refused" in out:
        assert out["refused"]["index"] == 5 and out["seq"] == 6
        assert out["refused"]["code"] in ("illegal_move", "malformed_event")
        if "rule" in out["refused"]:
            assert out["refused"]["rule_text"]


def test_following_the_servers_events_and_starting_again_from_a_snapshot_agree():
    log = match_log("catan", 11, limit=60)
    table = PageTable(json.dumps(page_payload("m", M.start(log[0]["data"]))))
    assert json.loads(table.advance(json.dumps(log[1:30]))) == {"seq": 30}
    assert json.loads(table.advance(json.dumps(log[30:]))) == {"seq": len(log)}
    server = M.replay(log)
    assert json.loads(table.play("[]", "null")) == native(server, None)
    again = PageTable(table.payload())
    assert json.loads(again.play("[]", "0")) == native(server, 0)
    # events that do not follow on are refused, and the table stays where it was
    out = json.loads(again.advance(json.dumps([dict(log[-1], seq=len(log) + 2)])))
    assert out["error"]["code"] == "malformed_event" and out["seq"] == len(log)


# -- the snapshot endpoint -------------------------------------------------------------------------


def test_the_snapshot_is_a_recorders_where_cards_are_hidden_and_anyones_where_nothing_is(client, anon):
    hidden = client.post("/api/matches", json={"game": "troubadour", "players": ["Ann", "Bob"]}).get_json()["id"]
    assert anon.get(f"/api/matches/{hidden}/snapshot").status_code == 401
    own = client.get(f"/api/matches/{hidden}/snapshot")
    assert own.status_code == 200 and own.get_json()["seq"] == 1
    open_ = client.post("/api/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).get_json()["id"]
    public = anon.get(f"/api/matches/{open_}/snapshot")
    assert public.status_code == 200
    body = public.get_json()
    assert body["setup"]["game"] == "twaalven" and body["setup"]["seed"] is None
    PageTable(json.dumps(body))  # the page's engine starts from it


# -- parity in the browser -------------------------------------------------------------------------

PARITY_JS = """async ({ runs }) => {
  const K = Kroniek;
  await K.engine.start();
  const out = [];
  for (const run of runs) {
    const t = K.engine.table("parity-" + run.key);
    await t.open(run.payload);
    const shown = [];
    for (const [n, viewer] of run.steps) shown.push(await t.play(run.moves.slice(0, n), viewer));
    let followed = null;
    if (run.resume) {
      const u = K.engine.table("resume-" + run.key);
      await u.open(run.resume.payload);
      const adv = await u.advance(run.resume.events);
      followed = { adv, shown: await u.play([], run.resume.viewer) };
      await u.close();
    }
    await t.close();
    out.push({ key: run.key, shown, followed });
  }
  return out;
}"""


@pytest.mark.slow(40)
def test_the_page_engine_shows_what_the_server_shows_at_every_step_of_every_game(server, browser):
    from tests.test_web import api, context, page_of

    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "twaalven", "players": ["Ann", "Bob"]}).json()["id"]
    page = page_of(context(browser, token, engine=True))
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#match[data-engine='ready']", timeout=60_000)

    runs, expected = [], {}
    for game in project_games():
        n = game.min_players if game.id != "catan-troje" else 4
        seed = random.Random(game.id).randrange(10_000)
        log = play(game.id, seed, players=n, mode="physical", undo_rate=0.06, limit=STEPS, finish=False)
        moves = [{k: e[k] for k in ("type", "seat", "data")} for e in log[1:]]
        states = [ms for _, _, ms in M.replay_steps(log)]
        steps = [(i, viewers(states[i], i)[i % 3]) for i in range(len(states))]
        half = len(log) // 2
        resume = {"payload": page_payload("resume", states[half - 1]), "events": log[half:],
                  "viewer": "referee"}
        runs.append({"key": game.id, "payload": page_payload(game.id, states[0]), "moves": moves, "steps": steps,
                     "resume": resume})
        expected[game.id] = ([native(states[i], v) for i, v in steps], native(states[-1], "referee"))
    results = page.evaluate(PARITY_JS, {"runs": runs})
    assert not page.errors, page.errors
    for result in results:
        shown, last = expected[result["key"]]
        got = [json.loads(json.dumps(s)) for s in result["shown"]]
        for i, (want, have) in enumerate(zip(shown, got)):
            have.pop("engine_ms", None)
            assert have == want, f"{result['key']}: step {i} differs from the server's"
        assert len(got) == len(shown)
        followed = result["followed"]
        assert followed["adv"] == {"seq": last["seq"]}, f"{result['key']}: {followed['adv']}"
        followed["shown"].pop("engine_ms", None)
        assert followed["shown"] == last, f"{result['key']}: following the server's events differs"


# -- what the page does around its engine ----------------------------------------------------------


@pytest.mark.slow(10)
@pytest.mark.parametrize("how", ["no WebAssembly", "no Pyodide on the server"])
def test_a_page_whose_engine_cannot_start_says_why_and_records_through_the_server(server, browser, how):
    from tests.test_web import api, context, follow, page_of, scene_place, tap_scene_move

    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    ctx = context(browser, token, engine=True)
    if how == "no WebAssembly":  # an old phone's browser
        ctx.add_init_script("delete globalThis.WebAssembly")
        said = "this browser cannot run WebAssembly"
    else:  # a server installed without npm: /engine/worker.js answers 404
        ctx.route("**/engine/worker.js", lambda route: route.fulfill(status=404, body='{"error": {}}', content_type="application/json"))
        said = "this server has no page engine installed"
    page = page_of(ctx)
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#match[data-engine='failed']", timeout=30_000)
    assert said in page.inner_text("#engine-note")
    ms = follow(base, token, match)
    move = M.legal_moves(ms, 0)[0]
    tap_scene_move(page, scene_place(M.scene(ms, "referee"), move), random.Random(1))  # drawn from the server's answer
    events = api(base, token, "GET", f"/matches/{match}/events?seat=referee").json()["events"]
    assert [{k: events[-1][k] for k in ("type", "seat", "data")}] == [move]
    assert not page.errors, page.errors


@pytest.mark.slow(10)
def test_a_tap_the_server_refuses_is_rolled_back_to_the_servers_match_and_says_why(server, browser):
    """The page's engine drew the tap at once; the server had a move the page had not seen yet (its live stream
    held back here), so it answers 409: the page says so, follows the server's move and draws its match."""
    from tests.test_web import api, context, follow, page_of, scene_place, tap_at

    base, token = server
    match = api(base, token, "POST", "/matches", json={"game": "braverats", "players": ["Ann", "Bob"]}).json()["id"]
    ctx = context(browser, token, engine=True)
    ctx.route("**/stream*", lambda route: route.abort())  # the other phone's move does not reach this page live
    page = page_of(ctx)
    page.goto(f"{base}/matches/{match}")
    page.wait_for_selector("#match[data-engine='ready'][data-shown='1']", timeout=60_000)
    ms = follow(base, token, match)
    theirs, mine = M.legal_moves(ms, 0)[0], M.legal_moves(ms, 0)[-1]
    assert theirs != mine
    assert api(base, token, "POST", f"/matches/{match}/events", json=theirs).status_code == 201  # the other phone
    tap_at(page, scene_place(M.scene(ms, "referee"), mine), random.Random(1))
    page.wait_for_selector("#flash.error:not([hidden])", timeout=20_000)
    assert "Someone else recorded first" in page.inner_text("#flash")
    page.wait_for_selector("#match[data-seq='2'][data-shown='2']", timeout=20_000)  # the server's match, drawn
    events = api(base, token, "GET", f"/matches/{match}/events?seat=referee").json()["events"]
    assert [{k: e[k] for k in ("type", "seat", "data")} for e in events[1:]] == [theirs]
    after = follow(base, token, match)
    drawn = page.evaluate("() => [...document.querySelectorAll('#board [data-element]')].map((e) => e.dataset.element)")
    assert drawn == [e["id"] for z in M.scene(after, "referee")["zones"] for e in z["elements"]]
    assert not page.errors, page.errors
