"""BraveRats through the HTTP API against a real Redis: the contract, and
hypothesis playing random matches (legal, illegal, undone) through it."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.braverats.cards import CARD_IDS
from replays import audit_match, canonical
from tests.support.draws import fix_secret
from tests.support.tamper import rewrite_entry

VARIANT_SETS = [[], ["C"], ["A"], ["B"], ["E"], ["F"], ["D"], ["A", "B", "C"], ["B", "F"], ["G"]]


def create(client, **body):
    res = client.post("/api/matches", json={"game": "braverats", "players": ["Ann", "Bob"], **body})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def rnd(client, mid, red, blue, **extra):
    return client.post(f"/api/matches/{mid}/events", json={"type": "round", "data": {"cards": [red, blue]}, **extra})


def test_contract_round_status_result_and_validation(client, app, validations, store):
    from workers.jobs import validate_log

    m = create(client)
    assert m["seq"] == 1 and m["status"] == "in_progress"
    body = rnd(client, m["id"], "prince", "spy", expected_seq=1).get_json()
    assert body["seq"] == 2 and body["state"]["score"] == [1, 0] and body["state"]["held"] == 0
    body = rnd(client, m["id"], "Muzikant", 3, expected_seq=2).get_json()  # Dutch name and a number
    assert body["state"]["held"] == 1
    events = client.get(f"/api/matches/{m['id']}/events").get_json()["events"]
    assert events[2]["data"] == {"cards": ["musician", "assassin"]}  # the log stores canonical ids
    # Two rounds on hold, then Blue's General takes all three: Red 1, Blue 3.
    assert rnd(client, m["id"], "princess", "musician").get_json()["state"]["held"] == 2
    body = rnd(client, m["id"], "spy", "general").get_json()
    assert body["state"]["score"] == [1, 3] and body["state"]["held"] == 0
    validate_log(store, m["id"])
    match = client.get(f"/api/matches/{m['id']}").get_json()
    assert match["validation"] == "valid"
    review = client.get(f"/api/matches/{m['id']}/review").get_json()["steps"]
    assert review[1]["summary"] and review[1]["annotations"][0]["source"] == "worker"


def test_princess_catches_prince_finishes_with_result(client):
    m = create(client)
    body = rnd(client, m["id"], "prince", "princess").get_json()
    assert body["status"] == "finished"
    result = client.get(f"/api/matches/{m['id']}").get_json()["result"]
    assert result["outcome"] == "win" and result["winners"] == [1]
    assert result["reason"]
    res = rnd(client, m["id"], "spy", "spy")
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "core.finished"


def test_card_not_in_hand_is_422_naming_the_rule(client, store):
    m = create(client)
    rnd(client, m["id"], "spy", "wizard")
    before = list(store.entries(m["id"]))
    res = rnd(client, m["id"], "spy", "general")
    assert res.status_code == 422
    err = res.get_json()["error"]
    assert err["rule"].startswith("braverats.") and "spy" in err["message"].lower() and err["rule_text"]
    assert list(store.entries(m["id"])) == before


def test_unknown_card_is_400(client, store):
    m = create(client)
    res = rnd(client, m["id"], "joker", "spy")
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "malformed_event"


def test_state_per_seat_and_legal_moves(client):
    m = create(client)
    rnd(client, m["id"], "general", "spy")
    state = client.get(f"/api/matches/{m['id']}/state?at=2&seat=0").get_json()
    assert state["score"] == [1, 0] and state["held"] == 0
    table = client.get(f"/api/matches/{m['id']}/legal-moves").get_json()["moves"]
    assert len(table) == 7 * 7 and all(mv["type"] == "round" for mv in table)
    assert client.get(f"/api/matches/{m['id']}/state?seat=5").status_code == 400


def test_face_down_play_is_hidden_from_the_other_seat_in_state_and_log(client):
    m = create(client)
    res = client.post(f"/api/matches/{m['id']}/events", json={"type": "play", "seat": 0, "data": {"card": "prince"}})
    assert res.status_code == 201, res.get_json()
    for viewer in ("seat=1", ""):
        state = client.get(f"/api/matches/{m['id']}/state?{viewer}").get_json()
        red = state["hands"][0]
        # Red's hand as others see it still holds the face-down card: nothing names it.
        assert red["count"] == 8 and "prince" in red["cards"]
        assert state["table"][0] == {"seat": 0, "played": True, "face_up": False, "card": None}
        log = client.get(f"/api/matches/{m['id']}/events?{viewer}").get_json()["events"]
        assert "prince" not in json.dumps(log[1]), f"the face-down Prince leaks to {viewer or 'the public'}"
    mine = client.get(f"/api/matches/{m['id']}/events?seat=0").get_json()["events"]
    assert mine[1]["data"] == {"card": "prince"}
    res = client.post(f"/api/matches/{m['id']}/events", json={"type": "play", "seat": 1, "data": {"card": "spy"}})
    assert res.get_json()["state"]["score"] == [1, 0]
    log = client.get(f"/api/matches/{m['id']}/events").get_json()["events"]
    assert log[1]["data"] == {"card": "prince"}  # revealed once the round resolved


# -- property tests ------------------------------------------------------------

def current(app, mid):
    return app.extensions["kroniek"].current(mid)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_matches_through_the_api_replay_and_audit(client, app, store, data):
    variants = data.draw(st.sampled_from(VARIANT_SETS), label="variants")
    mode = data.draw(st.sampled_from(["physical", "simulated"]), label="mode")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = random.Random(seed)
    fix_secret(app, seed)  # the same example plays the same match again (else hypothesis finds it flaky)
    m = create(client, options={"variants": variants}, mode=mode, seed=seed if mode == "simulated" else None)
    mid = m["id"]
    for _ in range(80):
        ms = current(app, mid)
        if ms.status == "finished" and rng.random() < 0.7:
            break
        before = list(store.entries(mid))
        choice = rng.random()
        if choice < 0.1 and ms.depth > 0:
            body = {"type": "undo"}
        elif choice < 0.3:
            # Something random: legal or not, the answer must be consistent.
            body = rng.choice([
                {"type": "round", "data": {"cards": [rng.choice(CARD_IDS), rng.choice(CARD_IDS)]}},
                {"type": "play", "seat": rng.randint(0, 1), "data": {"card": rng.choice(CARD_IDS)}},
                {"type": "undo", "data": {"seq": rng.randint(2, ms.seq + 2)}},
                {"type": rng.choice(["round", "draw", "deal", "pick", "exchange", "choose_variant"]), "data": {}},
            ])
        else:
            moves = []
            actors = ms.game.actors(ms.state)
            if "chance" in actors and mode == "physical":
                move = ms.game.chance_outcome(ms.state, rng)
                moves.append(move.to_dict())
            for seat in (None, 0, 1):
                moves += M.legal_moves(ms, seat)
            if not moves:
                assert ms.status == "finished"
                break
            body = rng.choice(moves)
        res = client.post(f"/api/matches/{mid}/events", json=body)
        if res.status_code == 201:
            continue
        assert res.status_code in (400, 422), res.get_json()
        assert list(store.entries(mid)) == before, "a refused move changed the stream"
    # Replaying the stored log from scratch gives the state the service built move by move.
    events = store.events(mid)
    assert canonical(M.encode(M.replay(events))) == canonical(M.encode(current(app, mid)))
    assert audit_match(store, mid).valid
    # Tamper with one stored entry: the audit catches it at that seq.
    victim = data.draw(st.integers(1, len(events)), label="victim")
    recorder = events[victim - 1]["recorded_by"]
    rewrite_entry(store, mid, victim, recorded_by=recorder + "!")
    report = client.get(f"/api/matches/{mid}/audit").get_json()
    assert report["valid"] is False and report["first_invalid_seq"] == victim


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(red=st.sampled_from(CARD_IDS), blue=st.sampled_from(CARD_IDS), steps=st.integers(0, 5), seed=st.integers())
def test_a_round_is_accepted_exactly_when_legal_moves_lists_it(client, app, store, red, blue, steps, seed):
    rng = random.Random(seed)
    m = create(client)
    for _ in range(steps):
        moves = M.legal_moves(current(app, m["id"]), None)
        if not moves:
            break
        client.post(f"/api/matches/{m['id']}/events", json=rng.choice(moves))
    ms = current(app, m["id"])
    listed = {tuple(mv["data"]["cards"]) for mv in M.legal_moves(ms, None)}
    before = list(store.entries(m["id"]))
    res = rnd(client, m["id"], red, blue)
    if (red, blue) in listed:
        assert res.status_code == 201, res.get_json()
    else:
        assert res.status_code == 422, res.get_json()
        assert list(store.entries(m["id"])) == before


def test_an_undone_face_down_play_stays_hidden_from_the_other_seat(client):
    m = create(client)
    post = lambda body: client.post(f"/api/matches/{m['id']}/events", json=body)
    assert post({"type": "play", "seat": 0, "data": {"card": "prince"}}).status_code == 201
    assert post({"type": "undo"}).status_code == 201
    assert post({"type": "round", "data": {"cards": ["spy", "wizard"]}}).status_code == 201
    for viewer in ("?seat=1", ""):
        log = client.get(f"/api/matches/{m['id']}/events{viewer}").get_json()["events"]
        assert log[1]["redacted"] is True and "prince" not in json.dumps(log[1])
        assert log[3]["data"] == {"cards": ["spy", "wizard"]}  # a public reveal stays public
    assert client.get(f"/api/matches/{m['id']}/events?seat=referee").get_json()["events"][1]["data"] == {"card": "prince"}


def test_hint_is_404_for_a_game_without_a_solver(client):
    m = create(client)
    res = client.get(f"/api/matches/{m['id']}/hint?seat=0")
    assert res.status_code == 404 and "no hints" in res.get_json()["error"]["message"]
