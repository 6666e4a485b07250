"""Sir Tommy through the HTTP API: random legal games replay identically, and
the stock stays hidden in every view and log."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_twaalven_api import create, run_random_match


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), mode=st.sampled_from(["physical", "simulated"]))
def test_random_sir_tommy_games_replay_identically_through_the_api(client, app, store, seed, mode):
    run_random_match(client, app, store, "sir_tommy", seed, mode)


def test_sir_tommy_simulated_stock_is_hidden_over_http(client, app):
    m = create(client, "sir_tommy", mode="simulated", seed=77)
    ms = app.extensions["kroniek"].current(m["id"])
    drawn = set(ms.state.order)
    assert len(drawn) == 3
    for viewer in ("", "?seat=0", "?seat=1"):
        state = client.get(f"/api/matches/{m['id']}/state{viewer}").get_json()
        log = client.get(f"/api/matches/{m['id']}/events{viewer}").get_json()["events"]
        assert state["stock"] == 49
        assert log[0]["data"]["seed"] == log[0]["data"]["secret"] == "hidden"  # they decide every future draw
        shown = {c for c in json.dumps(state).replace('"', " ").replace(",", " ").split() if len(c) <= 3}
        from engine.jogledor.cards import CARD_IDS

        assert {c for c in shown if c in CARD_IDS} == {CARD_IDS[c] for c in drawn}
