"""Simulated Catan games for 3–6 players: they end, replay from their logs to
the same state, conserve the resource cards (bank + hands = total) and the
development cards (deck + hands + played = total), and never put more pieces
on the board than a player owns. With 5–6 players they run under either turn
model: the Special Building Phase (the default) or the paired players' turn."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.catan import GAME
from engine.catan import knowledge as K
from engine.catan.game import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS
from engine.catan.simulate import play_game


def turn_model(players: int, paired: bool) -> dict:
    """The options of a simulated game: the paired players' turn where drawn (5–6 players only)."""
    return {"turn_model": "paired"} if paired and players >= 5 else {}


def check_invariants(s) -> None:
    n = s.cfg.n
    ref = n + 1
    for r in range(5):
        held = sum(s.hands[p][ref].known[r] for p in range(n))
        assert s.bank[r] + held == s.cfg.bank, (r, s.bank, held)
    for p in range(n):
        assert all(h.size == s.hands[p][ref].size for h in s.hands[p]), "every viewer counts the same cards"
        b, c, r = s.built[p]
        assert 0 <= b <= MAX_SETTLEMENTS and 0 <= c <= MAX_CITIES and 0 <= r <= MAX_ROADS
        assert b == sum(1 for x in s.buildings if x == 2 * p) and c == sum(1 for x in s.buildings if x == 2 * p + 1)
        assert r == sum(1 for x in s.roads if x == p)
    in_hands = sum(sum(s.dev[p][ref][0]) + s.dev[p][ref][1] for p in range(n))
    played = sum(s.knights) + sum(s.vp_shown)
    assert s.deck + in_hands + played <= sum(s.cfg.deck)
    assert s.deck + in_hands == sum(s.pools[ref]) + sum(sum(s.dev[p][ref][0]) for p in range(n))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32),
       strategy=st.sampled_from(["random", "greedy"]), mixed=st.booleans(), paired=st.booleans())
@example(players=6, seed=12, strategy="random", mixed=True, paired=True)
@example(players=5, seed=7, strategy="greedy", mixed=False, paired=True)
def test_simulated_games_end_replay_and_conserve(players, seed, strategy, mixed, paired):
    strategies = [strategy if not mixed or p % 2 else ("greedy" if strategy == "random" else "random") for p in range(players)]
    record = play_game(players, strategies, seed, turn_model(players, paired), keep_log=True, max_events=20_000)
    assert record["finished"], "a simulated game ends"
    log = json.loads(json.dumps(record["log"]))  # what the store keeps reads back the same
    final = None
    for event, before, after in M.replay_steps(log):
        check_invariants(after.state)
        final = after
    assert final.result is not None and final.result.winners == (record["winner"],)
    vp = [GAME.public_vp(final.state, p) + GAME.hidden_vp(final.state, p) for p in range(players)]
    assert vp[record["winner"]] >= final.state.cfg.goal and vp == record["vp"]
    # the snapshot form decodes to the same state
    assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(final.state)))) == final.state
    # and the whole log replays to the same state again
    assert M.replay(log).state == final.state


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), paired=st.booleans())
@example(players=6, seed=3, paired=True)
def test_legal_moves_are_exactly_the_places_the_rules_allow_and_each_is_accepted(players, seed, paired):
    log = play_game(players, ["random"] * players, seed, turn_model(players, paired), keep_log=True, max_events=600)["log"]
    head = log[0]["data"]
    s = GAME.setup(tuple(head["players"]), head["options"])
    for i, e in enumerate(log[1:]):
        s = GAME.apply(s, e["type"], e["seat"], e["data"])
        for p in GAME.actors(s):
            if not isinstance(p, int):
                continue
            moves = GAME.legal_moves(s, p)
            if s.phase in (7, 9, 10):  # main, road building, special building
                allowed = [x for x in range(len(s.roads)) if s.roads[x] == -1 and GAME._road_ok(s, p, x)]
                assert GAME._road_spots(s, p) == (allowed if s.built[p][2] < MAX_ROADS else [])
                assert GAME._settlement_spots(s, p) == [v for v in range(len(s.buildings)) if GAME._settlement_ok(s, p, v)]
            if i % 7 == 0:
                for m in moves:
                    GAME.apply(s, m.type, p, GAME.normalize(s, m.type, p, m.data))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), hide=st.floats(0.2, 1.0), paired=st.booleans())
@example(players=6, seed=5, hide=0.6, paired=True)
def test_a_recorder_who_misses_cards_is_never_refused_and_never_wrong(players, seed, hide, paired):
    """Replay a simulated game as a physical recording in which the recorder did
    not see some stolen and drawn cards: every event is still accepted (the
    real cards are one assignment of the unseen ones), and at every step each
    hand's real content lies within what the log knows of it."""
    import random

    record = play_game(players, ["greedy"] * players, seed, turn_model(players, paired), keep_log=True, max_events=1500)
    rng = random.Random(seed)
    truth = M.replay(record["log"][:1])
    seen = M.start({**record["log"][0]["data"], "mode": "physical", "seed": None})
    hidden_vp = False
    for e in record["log"][1:]:
        truth = M.apply_event(truth, e["seq"], e["type"], e["seat"], e["data"])
        data = e["data"]
        if e["type"] in ("steal", "draw_dev") and rng.random() < hide:
            hidden_vp |= e["type"] == "draw_dev" and data["card"] == "victory_point"
            data = {**data, "card": None}
        data = M.normalize_event(seen, e["type"], e["seat"], data)
        seen = M.apply_event(seen, e["seq"], e["type"], e["seat"], data)
        t, k = truth.state, seen.state
        ref = players + 1
        for p in range(players):
            real, known = t.hands[p][ref], k.hands[p][ref]
            assert real.exact and real.size == known.size
            for view in k.hands[p]:
                assert all(view.least(r) <= real.known[r] <= view.most(r) for r in range(5)), (e, p)
                assert K.can_pay(view, real.known)
            real_dev, known_dev = t.dev[p][ref], k.dev[p][ref]
            assert all(known_dev[0][x] <= real_dev[0][x] for x in range(5))
            assert sum(known_dev[0]) + known_dev[1] == sum(real_dev[0])
    if not hidden_vp:
        assert (seen.result is None) == (truth.result is None)
