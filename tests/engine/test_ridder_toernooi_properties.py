"""Simulated tournaments for 2–10 players: they end, replay from their logs to
the same state, keep every knight within 2 covered fields per face and a
non-negative wound count, and conserve premiums."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import match as M
from engine.ridder_toernooi import GAME
from engine.ridder_toernooi.simulate import play_game

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "days": st.integers(2, 5),
        "ladies": st.booleans(),
        "wound_penalty": st.booleans(),
        "woedend": st.sampled_from(["every", "first_only", "cumulative"]),
        "training_optional": st.booleans(),
        "give_up_after_mounted": st.booleans(),
        "day_winner_metric": st.sampled_from(["day", "total", "survivors"]),
        "challenge_required": st.booleans(),
        "final_bonus_ties": st.sampled_from(["all", "none"]),
        "lady_bonus_after_loss": st.booleans(),
        "rejected_lady_next": st.booleans(),
        "woedend_die": st.sampled_from(["required", "optional"]),
        "both_eliminated": st.sampled_from(["no_winner", "attacker_first"]),
    },
)


def _invariants(state) -> None:
    for k in state.knights:
        assert all(0 <= c <= 2 for c in k.cover), k
        assert k.wounds >= 0 and k.premiums >= 0 and k.dice >= 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), options=OPTIONS)
def test_simulated_tournaments_end_replay_and_conserve_premiums(players, seed, options):
    rec = play_game(players, ["random"] * players, seed, options, max_events=20_000, keep_log=True, validate=True)
    assert rec["finished"], "the tournament did not end"
    log = rec["log"]
    # the log replays (every rule checked again, every die the seed's) to the very same state
    ms = M.replay(log)
    assert ms.result is not None and ms.seq == rec["events"]
    assert json.dumps(GAME.encode_state(ms.state), sort_keys=True) == json.dumps(
        GAME.encode_state(GAME.decode_state(json.loads(json.dumps(GAME.encode_state(ms.state))))), sort_keys=True)
    assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(ms.state)))) == ms.state
    # invariants after every event
    state_ms = None
    for _, _, after in M.replay_steps(log):
        state_ms = after
        _invariants(after.state)
    s = state_ms.state
    # premiums conserved: each seat's score is the sum of the premiums awarded to its cards
    owner = {GAME.kid(s, k): kn.owner for k, kn in enumerate(s.knights)}
    owner.update({GAME.lid(s, x): lady.owner for x, lady in enumerate(s.ladies)})
    awarded = [0] * players
    for card, n, _ in s.awards:
        awarded[owner[card]] += n
    assert list(ms.result.scores) == awarded
    # and every duel premium corresponds to a won duel
    duel_awards = sum(1 for card, n, why in s.awards if why.endswith(": duel") and card.startswith("K"))
    assert duel_awards == sum(kn.premiums for kn in s.knights) - sum(
        n for card, n, why in s.awards if card.startswith("K") and not why.endswith(": duel"))
    if not options.get("ladies", True):
        assert s.ladies == ()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_snapshots_decode_exactly_mid_tournament(seed):
    """Every state up to mid-tournament reads back exactly from its JSON, and
    so does the snapshot there with its undo stack (whose states are the
    ones checked at the steps before: encoding the whole stack at every step
    checked each state 17 times over)."""
    rec = play_game(4, ["random"] * 4, seed, keep_log=True)
    after = None
    for _, _, after in M.replay_steps(rec["log"][: len(rec["log"]) // 2]):
        assert GAME.decode_state(json.loads(json.dumps(GAME.encode_state(after.state)))) == after.state
    back = M.decode(after.setup, json.loads(json.dumps(M.encode(after))))
    assert (back.seq, back.depth, back.undone, back.state) == (after.seq, after.depth, after.undone, after.state)
    step, kept = after.stack, back.stack
    for _ in range(M.SNAPSHOT_UNDO_DEPTH):
        if step is None or kept is None or kept.before is M.ELIDED:
            break
        assert (kept.seq, kept.type, kept.chance, kept.before) == (step.seq, step.type, step.chance, step.before)
        step, kept = step.prev, kept.prev
