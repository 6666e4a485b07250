"""Troubadour bot games played through the HTTP API (simulated matches: the
server deals and turns the cards), for 2, 3 and 4 players: the stream replays
from scratch to the state the service built move by move, and audits clean."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import CHANCE
from engine.troubadour.bots import BOTS
from replays import audit_match, canonical
from tests.support.draws import fix_secret


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), greedy=st.booleans())
def test_bot_games_through_the_api_replay_to_the_same_state(client, app, store, players, seed, greedy):
    fix_secret(app, seed)  # the same example plays the same match again
    res = client.post("/api/matches", json={
        "game": "troubadour", "players": [f"P{i}" for i in range(players)], "mode": "simulated", "seed": seed,
    })
    assert res.status_code == 201, res.get_json()
    mid = res.get_json()["id"]
    svc = app.extensions["kroniek"]
    rng = random.Random(seed)
    bots = [BOTS["greedy" if greedy or s == 0 else "random"] for s in range(players)]
    for _ in range(3000):
        ms = svc.current(mid)
        if ms.result is not None:
            break
        seat = next(a for a in ms.game.actors(ms.state) if a not in (CHANCE, "table"))
        move = bots[seat](ms.state, seat, rng)
        res = client.post(f"/api/matches/{mid}/events", json={"type": move.type, "seat": seat, "data": move.data})
        assert res.status_code == 201, res.get_json()
    ms = svc.current(mid)
    assert ms.seq > 50
    rebuilt = M.replay(store.events(mid))
    assert canonical(M.encode(rebuilt)) == canonical(M.encode(ms))
    assert audit_match(store, mid).valid
    # Each seat's view through the API is what the engine gives for that seat.
    for seat in range(players):
        view = client.get(f"/api/matches/{mid}/state?seat={seat}").get_json()
        assert view["seq"] == ms.seq
