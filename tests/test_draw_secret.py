"""Draws no seat can predict (issue 20, item 5).

A simulated match's draws mix its seed with a server secret of 256 bits
(``engine.match.chance_rng``): the service draws the secret when it creates
the match, the setup event commits it, and only the referee view shows it
until the match ends. Before secrets every draw was ``Random(f"{seed}:{depth}")``,
and a creator's small seed could be found from the public deal (in a
Troubadour match with a seed below 1,000 the deal pinned the seed, and with it
every face-down card to come). Logs recorded so still replay as they were.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import random
import re
from pathlib import Path

import pytest

import engine.troubadour  # noqa: F401  (registers the game)
from engine import match as M
from engine import notation as N
from engine.core import MalformedEvent, RuleViolation
from engine.simulation import Table
from engine.troubadour.simulate import SIMULATOR
from replays import ChainCheck, canonical, commitment
from replays.hashing import COMMITMENTS
from service.app import create_app
from tests.conftest import client_with_token
from tests.support.toy import ensure_registered
from workers.jobs import validate_log

ensure_registered()

FIXTURE = Path(__file__).parent / "fixtures" / "legacy_simulated_toy.json"
#: A fixed secret, for the tests that must know the draws in advance.
SECRET = "5ec2e7" + "0f" * 29
SEEDS = range(1000)


def post(client, url, body, status=201):
    res = client.post(url, json=body)
    assert res.status_code == status, res.get_json()
    return res.get_json()


def get(client, url, **query):
    res = client.get(url, query_string=query)
    assert res.status_code == 200, (url, query, res.get_json())
    return res.get_json()


def play_toy_to_the_end(client, mid):
    for _ in range(100):
        state = get(client, f"/api/matches/{mid}/state")
        if state["status"] == "finished":
            return
        post(client, f"/api/matches/{mid}/events", {"type": "add", "seat": state["to_act"][0], "data": {"n": 3}})
    raise AssertionError("the toy match did not end")


# -- the engine: the construction, and logs recorded before it ------------------------------

@pytest.mark.rule("core.simulated_chance")
def test_a_log_recorded_before_secrets_still_replays_draw_for_draw():
    """The fixture was recorded by the code before secrets (its setup has no
    secret): it replays, every roll is the one ``Random(f"{seed}:{depth}")``
    drew, the redone move after its undo drew the same roll, and it audits."""
    events = json.loads(FIXTURE.read_text())
    assert "secret" not in events[0]["data"]
    seed = events[0]["data"]["seed"]
    rolls = 0
    for event, before, after in M.replay_steps(events):
        if before is not None and event["type"] == "roll":
            old = before.game.chance_outcome(before.state, random.Random(f"{seed}:{before.depth}"))
            assert (old.type, old.seat, old.data) == (event["type"], event["seat"], event["data"])
            rolls += 1
    assert rolls == 5 and after.status == "finished"
    undone_roll, redone_roll = events[6], events[9]  # seq 7 (undone with its move at seq 8) and seq 10
    assert events[7]["type"] == M.UNDO and undone_roll["data"] == redone_roll["data"]
    check = ChainCheck(complete=True)
    assert all(check.step(e) is None for e in events) and check.scheme == COMMITMENTS
    # The secret is really mixed in: the same log under a secret is not what it draws.
    with_secret = [{**events[0], "data": {**events[0]["data"], "secret": SECRET}}, *events[1:]]
    with pytest.raises(RuleViolation) as refused:
        M.replay(with_secret)
    assert refused.value.details["rule"] == "core.simulated_chance"


@pytest.mark.rule("core.simulated_chance")
def test_a_draw_is_seeded_with_hmac_sha256_of_seed_and_depth_under_the_secret():
    """The construction docs/architecture.md states, byte for byte."""
    setup = M.make_setup("toy", ["Ann", "Bob"], {}, mode="simulated", seed=7, secret=SECRET)
    assert setup["secret"] == SECRET
    for depth in range(4):
        mac = hmac.new(bytes.fromhex(SECRET), f"7:{depth}".encode("utf-8"), hashlib.sha256).digest()
        expected = random.Random(int.from_bytes(mac, "big"))
        got = M.chance_rng(setup, depth)
        assert [got.random() for _ in range(3)] == [expected.random() for _ in range(3)]
    legacy = M.make_setup("toy", ["Ann", "Bob"], {}, mode="simulated", seed=7)
    assert "secret" not in legacy  # a setup without a secret keeps exactly the fields it had
    assert M.chance_rng(legacy, 3).random() == random.Random("7:3").random()
    assert M.chance_rng(setup, 3).random() != M.chance_rng(legacy, 3).random()


def rolls_of(setup, adds=12):
    table = Table(setup)
    for _ in range(adds):
        if table.ms.result is not None:
            break
        table.enter("add", table.game.actors(table.state)[0], {"n": 1})
    return table


@pytest.mark.rule("core.simulated_chance")
def test_with_a_secret_a_replay_and_a_redone_move_draw_the_same_and_another_secret_does_not():
    setup = M.make_setup("toy", ["Ann", "Bob"], {"target": 1000}, mode="simulated", seed=3, secret=SECRET)
    table = rolls_of(setup)
    assert canonical(M.encode(M.replay(table.log))) == canonical(M.encode(table.ms))
    roll = table.log[-1]
    assert roll["type"] == "roll"
    table.apply(M.UNDO, None, {})  # takes back the roll and the add before it
    table.enter("add", table.game.actors(table.state)[0], {"n": 1})
    assert table.log[-1]["data"] == roll["data"]  # no reroll by undoing
    assert canonical(M.encode(M.replay(table.log))) == canonical(M.encode(table.ms))
    other = rolls_of({**setup, "secret": "a1" * 32})
    values = [[e["data"]["value"] for e in t.log if e["type"] == "roll"] for t in (rolls_of(setup), other)]
    assert len(values[0]) == len(values[1]) == 12 and values[0] != values[1]


@pytest.mark.parametrize("secret", ["ab" * 15, "AB" * 32, "a" * 63, "zz" * 32, "ab" * 65, 12, "", None])
def test_a_setup_refuses_a_secret_that_is_not_128_to_512_bits_of_lowercase_hex(secret):
    if secret is None:  # a physical match has no draws to key
        with pytest.raises(MalformedEvent) as refused:
            M.make_setup("toy", ["Ann", "Bob"], {}, mode="physical", seed=1, secret=SECRET)
    else:
        with pytest.raises(MalformedEvent) as refused:
            M.make_setup("toy", ["Ann", "Bob"], {}, mode="simulated", seed=1, secret=secret)
    assert refused.value.details["field"] == "secret"
    assert SECRET not in refused.value.message and (not isinstance(secret, str) or not secret
                                                    or secret not in refused.value.message)
    if isinstance(secret, str):  # a stored setup with such a secret is refused as the log's fault, not a crash
        good = M.make_setup("toy", ["Ann", "Bob"], {}, mode="simulated", seed=1, secret=SECRET)
        with pytest.raises(MalformedEvent):
            M.start({**good, "secret": secret})


# -- the service: who sees the secret, and who can reproduce the match -----------------------

def test_each_simulated_match_gets_its_own_secret_seen_by_the_referee_and_by_all_after_the_end(
        app, client, anon, make_user, store):
    mids = [post(client, "/api/matches", {"game": "toy", "players": ["Ann", "Bob"], "mode": "simulated",
                                          "seed": 5, "options": {"target": 12}})["id"] for _ in range(2)]
    setups = [get(client, f"/api/matches/{mid}/events", seat="referee")["events"][0] for mid in mids]
    secrets = [s["data"]["secret"] for s in setups]
    assert all(re.fullmatch("[0-9a-f]{64}", s) for s in secrets) and secrets[0] != secrets[1]
    mid, secret = mids[0], secrets[0]
    name, token = make_user("seat0")
    post(client, f"/api/matches/{mid}/roles", {"user": name, "role": "player", "seat": 0})
    ann = client_with_token(app, token)
    post(client, f"/api/matches/{mid}/events", {"type": "add", "seat": 0, "data": {"n": 1}})

    def readable(viewer, seat):
        q = {} if seat is None else {"seat": seat}
        base = f"/api/matches/{mid}"
        notation = viewer.get(f"{base}/notation", query_string=q).get_data(as_text=True)
        assert '[Secret "hidden"]' in notation and '[Seed "hidden"]' in notation
        return canonical({
            "events": get(viewer, f"{base}/events", **q), "state": get(viewer, f"{base}/state", **q),
            "review": get(viewer, f"{base}/review", **q), "match": get(viewer, base),
            "audit": get(viewer, f"{base}/audit"), "listing": get(viewer, "/api/matches"), "notation": notation,
            "stream": viewer.get(f"{base}/stream", query_string={**q, "wait": 0}).get_data(as_text=True),
        })

    validate_log(store, mid)  # the worker's verdict and notes are read by everyone
    for viewer, seat in ((anon, None), (ann, 0), (client, 1)):
        text = readable(viewer, seat)
        assert secret not in text and '"secret":"hidden"' in text
        setup = get(viewer, f"/api/matches/{mid}/events", **({} if seat is None else {"seat": seat}))["events"][0]
        assert setup["redacted"] is True and "salt" not in setup
    assert secret not in canonical([store.verdict(mid), store.auto_annotations(mid)])
    referee_text = client.get(f"/api/matches/{mid}/notation", query_string={"seat": "referee"}).get_data(as_text=True)
    assert f'[Secret "{secret}"]' in referee_text
    # The referee reproduces the match from its log; the seed alone does not (a Troubadour match here: one die
    # could fall the same way by chance, three deals of five cards all but never).
    log = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
    assert canonical(M.encode(M.replay(log))) == canonical(M.encode(app.extensions["kroniek"].current(mid)))
    deals = post(client, "/api/matches", {"game": "troubadour", "players": ["A", "B", "C"], "mode": "simulated",
                                          "seed": 5})["id"]
    dealt = get(client, f"/api/matches/{deals}/events", seat="referee")["events"]
    assert canonical(M.encode(M.replay(dealt))) == canonical(M.encode(app.extensions["kroniek"].current(deals)))
    without = {k: v for k, v in dealt[0]["data"].items() if k != "secret"}
    with pytest.raises(RuleViolation) as refused:
        M.replay([{**dealt[0], "data": without}, *dealt[1:]])
    assert refused.value.details["rule"] == "core.simulated_chance"
    # Over: everyone sees seed and secret, with the setup's salt, and checks its commitment.
    play_toy_to_the_end(client, mid)
    public = get(anon, f"/api/matches/{mid}/events")["events"]
    assert public[0]["data"]["secret"] == secret and public[0]["data"]["seed"] == 5
    assert commitment(public[0]["salt"], public[0]["data"]) == public[0]["commitment"]
    check = ChainCheck(complete=True)
    assert all(check.step(e) is None for e in public)
    assert M.replay(public).status == "finished"


def test_a_fixed_secret_gives_the_service_the_engines_draws(store, validations, signing_key, make_user):
    """The engine stays pure: the secret reaches it only through the setup, so
    a service given a fixed secret deals what the engine deals with it."""
    app = create_app(store=store, enqueue_validation=validations.append, enqueue_ratings=lambda game: None,
                     signing_key=signing_key, secret_source=lambda: SECRET)
    _, token = make_user("fixed")
    client = client_with_token(app, token)
    m = post(client, "/api/matches", {"game": "troubadour", "players": ["A", "B", "C"], "mode": "simulated",
                                      "seed": 11})
    log = get(client, f"/api/matches/{m['id']}/events", seat="referee")["events"]
    table = Table(M.make_setup("troubadour", ["A", "B", "C"], {}, mode="simulated", seed=11, secret=SECRET))
    assert log[0]["data"] == table.setup
    assert [(e["type"], e["seat"], e["data"]) for e in log] == [(e["type"], e["seat"], e["data"]) for e in table.log]
    # A whole bot game played with the secret (as bench/workers records them) goes through the service move by
    # move, the service drawing every outcome itself, and ends as it did.
    game = SIMULATOR.play_game(2, ["greedy", "greedy"], 12, keep_log=True, secret=SECRET)
    assert game["finished"] and game["log"][0]["data"]["secret"] == SECRET
    mid = post(client, "/api/matches", {"game": "troubadour", "players": game["log"][0]["data"]["players"],
                                        "mode": "simulated", "seed": 12})["id"]
    seq = 1 + sum(1 for e in game["log"][1:] if e["type"] == "deal")
    while seq < len(game["log"]):
        event = game["log"][seq]
        seq = post(client, f"/api/matches/{mid}/events", {k: event[k] for k in ("type", "seat", "data")})["latest_seq"]
    served = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
    assert [(e["type"], e["seat"], e["data"]) for e in served] == [(e["type"], e["seat"], e["data"])
                                                                   for e in game["log"]]
    assert get(client, f"/api/matches/{mid}")["status"] == "finished"
    assert SIMULATOR.play_game(2, ["greedy", "greedy"], 12, keep_log=True)["log"][1:] != game["log"][1:]


def test_the_referees_notation_imports_with_its_secret_and_a_public_one_as_a_physical_match(client):
    mid = post(client, "/api/matches", {"game": "toy", "players": ["Ann", "Bob"], "mode": "simulated", "seed": 9})["id"]
    post(client, f"/api/matches/{mid}/events", {"type": "add", "seat": 0, "data": {"n": 2}})
    referee = client.get(f"/api/matches/{mid}/notation", query_string={"seat": "referee"}).get_data(as_text=True)
    imported = post(client, "/api/matches/import", {"notation": referee})
    log = get(client, f"/api/matches/{imported['id']}/events", seat="referee")["events"]
    original = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
    assert log[0]["data"] == original[0]["data"] and [e["data"] for e in log] == [e["data"] for e in original]
    # Another secret (one whose roll differs, as five in six do): the text's roll is not the one it draws.
    before_roll = M.replay(original[:2])

    def roll_under(secret):
        rng = M.chance_rng({**original[0]["data"], "secret": secret}, before_roll.depth)
        return before_roll.game.chance_outcome(before_roll.state, rng).data

    assert original[2]["type"] == "roll" and roll_under(original[0]["data"]["secret"]) == original[2]["data"]
    other_secret = next(s for s in (f"{i:02x}" * 32 for i in range(256)) if roll_under(s) != original[2]["data"])
    other = referee.replace(original[0]["data"]["secret"], other_secret)
    res = client.post("/api/matches/import", json={"notation": other})
    assert res.status_code == 422 and res.get_json()["error"]["rule"] == "core.simulated_chance"
    # A seed shown with its secret hidden (or both hidden): the draws are taken as written.
    seen_seed = referee.replace(original[0]["data"]["secret"], "hidden")
    for text in (seen_seed, client.get(f"/api/matches/{mid}/notation").get_data(as_text=True)):
        again = post(client, "/api/matches/import", {"notation": text})
        assert again["mode"] == "physical"


def test_a_notations_bad_secret_is_refused_at_its_tag_without_being_quoted():
    text = '[Game "toy"]\n[Players "Ann" "Bob"]\n[Mode "simulated"]\n[Seed "5"]\n[Secret "C0FFEE"]\n'
    with pytest.raises(N.NotationError) as refused:
        N.read(text)
    details = refused.value.details
    assert (details["line"], details["rule"], details["cause"]) == (5, "notation.header", "malformed_event")
    assert "C0FFEE" not in refused.value.message


# -- the brute force: small seeds through the service --------------------------------------

def candidates(public_log, setup_without_seed):
    """The seeds 0..999 whose draws, by the derivation before secrets, are
    exactly the server's draws right after the setup as the public saw them
    (every seat's five face-up cards)."""
    drawn = [(e["type"], e["seat"], e["data"]) for e in public_log[1:]]
    assert drawn and all(e["type"] == "deal" and "redacted" not in e for e in public_log[1:])
    start = M.start({**setup_without_seed, "seed": 0})
    found = []
    for seed in SEEDS:
        ms = dataclasses.replace(start, setup={**setup_without_seed, "seed": seed})
        first = start.game.chance_outcome(start.state, random.Random(f"{seed}:0"))  # the old derivation
        if M.normalize_event(ms, first.type, first.seat, first.data, by_server=True) != drawn[0][2]:
            continue  # the first deal rules most seeds out; the rest are drawn whole
        if M.draw_chance(ms, 2)[0] == drawn:
            found.append(seed)
    return found


@pytest.mark.parametrize("players,seeds", [(2, (0, 999)), (3, (7, 421)), (4, (1, 600))])
def test_a_small_seed_no_longer_tells_the_public_the_deal_or_the_cards_to_come(client, anon, players, seeds):
    """An attacker who knows the seed is below 1,000 and reads the public log
    tries every seed with the engine. Before secrets the public deal pinned
    the seed (checked here on setups without a secret: the seed is found, and
    only it), and the seed gave every card to come. A match the service
    creates draws with a secret: no seed in the range gives its deal, its own
    seed included."""
    names = [f"P{i}" for i in range(players)]
    base = M.make_setup("troubadour", names, {}, mode="simulated", seed=0)
    for seed in seeds:
        old = Table({**base, "seed": seed})
        assert candidates(old.log, base) == [seed]  # the attack as it was: the seed is pinned
        mid = post(client, "/api/matches", {"game": "troubadour", "players": names, "mode": "simulated",
                                            "seed": seed})["id"]
        public = get(anon, f"/api/matches/{mid}/events")["events"]
        assert public[0]["data"]["seed"] == public[0]["data"]["secret"] == "hidden"
        assert len(public) == 1 + players  # one public deal per seat, and nothing else yet
        assert candidates(public, base) == []
        # Not even the true seed with the old derivation foretells the server's next draw:
        # the referee's log shows what it drew, and the seed alone draws otherwise.
        referee = get(client, f"/api/matches/{mid}/events", seat="referee")["events"]
        assert referee[0]["data"]["seed"] == seed and [e["data"] for e in referee[1:]] != [
            e["data"] for e in old.log[1:]]
