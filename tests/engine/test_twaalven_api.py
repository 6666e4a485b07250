"""The Jogledor games through the HTTP API against a real Redis: random legal
games (with undos, and refused moves mixed in) replay identically from the
stored log. The helper is shared with the Stapelen and Sir Tommy API tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.sir_tommy  # noqa: F401
import engine.stapelen  # noqa: F401
import engine.twaalven  # noqa: F401
from engine import match as M
from engine.jogledor.simulate import builder_policy
from replays import audit_match, canonical
from tests.support.draws import fix_secret


def create(client, game_id, **body):
    res = client.post("/api/matches", json={"game": game_id, "players": ["Ann", "Bob"], **body})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def run_random_match(client, app, store, game_id: str, seed: int, mode: str, limit: int = 400) -> M.MatchState:
    rng = random.Random(seed)
    fix_secret(app, seed)  # the same example plays the same match again
    m = create(client, game_id, mode=mode, seed=seed if mode == "simulated" else None)
    mid = m["id"]
    svc = app.extensions["kroniek"]
    for _ in range(limit):
        ms = svc.current(mid)
        if ms.status == "finished":
            break
        before = list(store.entries(mid))
        actors = ms.game.actors(ms.state)
        roll = rng.random()
        if roll < 0.05 and ms.depth > 1:
            body = {"type": "undo"}
        elif roll < 0.12:
            body = rng.choice([
                {"type": "take", "seat": rng.randint(0, 1), "data": {"columns": [1, 1]}},
                {"type": "build", "seat": rng.randint(0, 1), "data": {"card": "QH"}},
                {"type": "deal", "data": {"seed": 1}},
                {"type": "end_turn", "seat": rng.randint(0, 1), "data": {}},
            ])
        elif "chance" in actors:
            body = ms.game.chance_outcome(ms.state, rng).to_dict()
        else:
            actor = rng.choice(actors)
            moves = M.legal_moves(ms, None if actor == "table" else actor)
            assert moves, f"no legal move for {actor}"
            body = builder_policy(ms.state, moves, rng)
        res = client.post(f"/api/matches/{mid}/events", json=body)
        if res.status_code == 201:
            continue
        assert res.status_code in (400, 422), res.get_json()
        err = res.get_json()["error"]
        if res.status_code == 422 and err["rule"].split(".")[0] == game_id:
            assert err["rule_text"]
        assert list(store.entries(mid)) == before, "a refused move changed the stream"
    events = store.events(mid)
    replayed = M.replay(events)
    assert canonical(M.encode(replayed)) == canonical(M.encode(svc.current(mid)))
    assert audit_match(store, mid).valid
    state = client.get(f"/api/matches/{mid}/state").get_json()
    # past the deal and roles, or ended there: a Twaalven deal whose first player has no move ends at once
    # (seed 1345223, simulated, roles twelves 1 and first 1)
    assert state["seq"] == replayed.seq and (replayed.seq > 3 or replayed.status == "finished")
    return replayed


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), mode=st.sampled_from(["physical", "simulated"]))
def test_random_twaalven_games_replay_identically_through_the_api(client, app, store, seed, mode):
    run_random_match(client, app, store, "twaalven", seed, mode)


def test_twaalven_deal_roles_and_a_take_over_http(client):
    m = create(client, "twaalven")
    post = lambda body: client.post(f"/api/matches/{m['id']}/events", json=body)
    assert post({"type": "deal", "data": {"seed": 12}}).status_code == 201
    moves = client.get(f"/api/matches/{m['id']}/legal-moves").get_json()["moves"]
    assert len(moves) == 4 and {mv["type"] for mv in moves} == {"roles"}
    assert post({"type": "roles", "data": {"twelves": 0, "first": 0}}).status_code == 201
    res = post({"type": "take", "seat": 0, "data": {"columns": [1, 1]}})
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "twaalven.different_columns"
    legal = client.get(f"/api/matches/{m['id']}/legal-moves?seat=0").get_json()["moves"]
    if legal:
        body = post(legal[0]).get_json()
        assert body["seq"] == 4 and body["state"]["left"] == 50
    info = client.get("/api/games/twaalven").get_json()
    assert "twaalven.pairs_twelve" in info["rules"] and info["aliases"]["harten vrouw"] == "QH"
