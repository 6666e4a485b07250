"""Stapelen through the HTTP API: random legal games replay identically."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_twaalven_api import create, run_random_match


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), mode=st.sampled_from(["physical", "simulated"]))
def test_random_stapelen_games_replay_identically_through_the_api(client, app, store, seed, mode):
    run_random_match(client, app, store, "stapelen", seed, mode)


def test_stapelen_strict_loss_over_http_names_the_rule(client):
    m = create(client, "stapelen")
    res = client.post(f"/api/matches/{m['id']}/events", json={"type": "deal", "data": {"seed": 3}})
    assert res.status_code == 201
    res = client.post(f"/api/matches/{m['id']}/events", json={"type": "take", "seat": 1, "data": {"column": 1}})
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "core.turn"
