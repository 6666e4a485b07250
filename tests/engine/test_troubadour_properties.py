"""Troubadour properties over random games: logs replay to the same state,
snapshots round-trip, the reducer never mutates a state, a physical recording of
the same events reaches the same state, and a card revealed where it cannot be
is refused with a reason while nothing changes."""


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.core import RuleViolation
from engine.troubadour.cards import CARD_IDS, NOBLE_IDS, mask_cards
from engine.troubadour.simulate import play_game
from engine.troubadour.state import ORDERED, State, cons_list

from .test_troubadour_support import GAME, Rec

STRATEGIES = st.sampled_from(["greedy", "random", "both"])


def strategies_for(mix: str, players: int) -> list[str]:
    return {"greedy": ["greedy"] * players, "random": ["random"] * players, "both": (["random", "greedy"] * 2)[:players]}[mix]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 100_000), mix=STRATEGIES, validate=st.booleans())
def test_bot_games_replay_to_the_same_state_and_snapshots_round_trip(players, seed, mix, validate):
    # validate=False is how simulate() plays: the log must still pass every check of a replay
    rec = play_game(players, strategies_for(mix, players), seed, keep_log=True, max_events=1500, validate=validate)
    log = rec["log"]
    ms = M.replay(log)
    assert ms.seq == rec["events"] and ms.state.round == rec["rounds"]
    assert [sum(p.castles) for p in ms.state.players] == rec["castle_cards"]
    again = M.replay(log)
    assert again.state == ms.state
    assert GAME.decode_state(GAME.encode_state(ms.state)) == ms.state
    snap = M.decode(log[0]["data"], M.encode(ms))
    assert snap.state == ms.state and snap.seq == ms.seq
    for _, before, after in list(M.replay_steps(log))[1::37]:
        assert GAME.decode_state(GAME.encode_state(after.state)) == after.state
    if rec["finished"]:
        assert ms.result is not None and ms.result.winners == (rec["winner"],)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 100_000), mix=STRATEGIES)
def test_apply_never_mutates_its_input(players, seed, mix):
    rec = play_game(players, strategies_for(mix, players), seed, keep_log=True, max_events=500)
    for event, before, after in M.replay_steps(rec["log"]):
        if before is None:
            continue
        frozen = GAME.encode_state(before.state)
        GAME.apply(before.state, event["type"], event["seat"], event["data"])
        assert GAME.encode_state(before.state) == frozen


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 100_000), mix=STRATEGIES)
def test_a_simulated_game_recorded_at_a_physical_table_reaches_the_same_state(players, seed, mix):
    rec = play_game(players, strategies_for(mix, players), seed, keep_log=True, max_events=800)
    sim = M.replay(rec["log"])
    physical = Rec(players)
    for event in rec["log"][1:]:
        physical.add(event["type"], event["seat"], event["data"])
    # same game state; only the setup (mode, seed) differs
    assert physical.state._replace(names=()) == sim.state._replace(names=())


def possible_flips(state: State) -> set[int]:
    p = state.players[state.current]
    if p.ndraw == 0:
        return {cons_list(p.discard)[-1]}
    kind, a, b, n = p.draw[0]
    if kind == ORDERED:
        return {a[0]}
    return set(mask_cards(a)) | (set(mask_cards(p.pool)) if b else set())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 100_000), mix=STRATEGIES, data=st.data())
@pytest.mark.rule("troubadour.unseen_card")
def test_a_card_revealed_where_it_cannot_be_is_refused_with_a_reason_and_nothing_changes(players, seed, mix, data):
    rec = play_game(players, strategies_for(mix, players), seed, keep_log=True, max_events=600)
    physical = Rec(players)
    tried = 0
    for event in rec["log"][1:]:
        type_ = event["type"]
        if type_ in ("flip", "turn_up", "deal") and data.draw(st.booleans()):
            state = physical.state
            if type_ == "flip":
                can = possible_flips(state)
                wrong = data.draw(st.sampled_from([c for c in range(40) if c not in can]))
                bad = {"card": CARD_IDS[wrong]}
            elif type_ == "turn_up":
                owner = event["seat"]
                pool = state.players[owner].pool
                wrong = data.draw(st.sampled_from([c for c in range(40) if not pool >> c & 1]))
                bad = {**event["data"], "card": CARD_IDS[wrong]}
            else:
                cards = list(event["data"]["face_up"])
                cards[data.draw(st.integers(0, 4))] = data.draw(st.sampled_from([cards[0], cards[1], "QH", "KS"]))
                if len(set(cards)) == 5 and not any(c in NOBLE_IDS for c in cards):
                    cards[1] = cards[0]
                bad = {"face_up": cards}
            err = physical.reject(type_, event["seat"], bad)
            assert err.rule in ("troubadour.unseen_card", "troubadour.recycle", "troubadour.attack_under_pile")
            assert any(word in err.message for word in ("cannot", "next card", "not among", "noble", "twice"))
            tried += 1
        physical.add(type_, event["seat"], event["data"])
    assert physical.log[1:] == rec["log"][1:]


def test_undo_restores_the_shared_state():
    rec = play_game(2, ["greedy", "greedy"], 5, keep_log=True, max_events=120)
    physical = Rec(2)
    for event in rec["log"][1:60]:
        physical.add(event["type"], event["seat"], event["data"])
    before = physical.state
    frozen = GAME.encode_state(before)
    nxt = rec["log"][60]
    physical.add(nxt["type"], nxt["seat"], nxt["data"])
    physical.add("undo", None, {})
    assert physical.state is before and GAME.encode_state(before) == frozen


def test_simulated_chance_is_checked_on_replay():
    rec = play_game(2, ["greedy", "greedy"], 8, keep_log=True, max_events=200)
    log = [dict(e) for e in rec["log"]]
    i = next(i for i, e in enumerate(log) if e["type"] == "flip" and i > 20)
    other = next(c for c in CARD_IDS if c != log[i]["data"]["card"])
    log[i] = {**log[i], "data": {"card": other}}
    with pytest.raises(RuleViolation):
        M.replay(log)


def _candidates(state: State) -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = [("turn_over", {"clubs_jack": False}), ("turn_over", {"clubs_jack": True}), ("end_turn", {})]
    for c in CARD_IDS:
        out.append(("name_card", {"card": c}))
        for to in ["castle", 1, 2, 3, 4, 5]:
            out += [("build", {"card": c, "to": to}), ("build", {"card": c, "to": to, "hearts_jack": True})]
    for o in range(state.n):
        out += [("attack", {"power": "JS", "target": o, "village": v}) for v in range(1, 6)]
        out += [("attack", {"power": "JQKS", "target": o, "castle": s}) for s in "SDCH"]
        out.append(("attack", {"power": "QS", "target": o}))
    out += [("extra_draw", {"power": p}) for p in ("QC", "KC")]
    out += [("extra_card", {})] + [("turn_top", {"village": v}) for v in range(1, 6)]
    out += [("hearts_queen", {"village": v, "slot": k}) for v in range(1, 6) for k in range(1, 8)]
    return out


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_legal_moves_are_exactly_the_moves_the_reducer_accepts(players, seed):
    rec = play_game(players, ["random"] * players, seed, keep_log=True, max_events=300)
    for i, (event, before, after) in enumerate(M.replay_steps(rec["log"])):
        state = after.state
        seat = state.current
        if i % 9 or seat is None or GAME.actors(state) != (seat,):
            continue
        legal = {(m.type, tuple(sorted(m.data.items()))) for m in GAME.legal_moves(state, seat)}
        for type_, data in _candidates(state):
            try:
                GAME.apply(state, type_, seat, data)
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == ((type_, tuple(sorted(data.items()))) in legal), (type_, data)
