"""Issue 37: estimates hold to their stated error where an exact value exists too, and the shared glyph and
accuracy steps (engine/evaluation.py, docs/review.md)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import match as M
from engine import registry
from engine.braverats.equilibrium import Position, Solver, position_of, unpack
from engine.evaluation import GLYPHS, accuracy, glyph, playout_shares, standard_error
from engine.jogledor.simulate import play_random
from engine.sir_tommy import solver as tommy
from tests.support.played import play

#: an estimate is within this many of its standard errors of the exact value (seeded: each run the same)
SIGMAS = 4


def within(estimate: float, exact: float, stderr: float, samples: int) -> bool:
    """``estimate`` within SIGMAS standard errors of ``exact`` (an estimate of 0 or 1 has no spread of its
    own: then within SIGMAS of the error the exact share would give those samples)."""
    spread = max(stderr, standard_error(exact, samples))
    return abs(estimate - exact) <= SIGMAS * spread + 1e-12


def test_glyphs_are_lichess_steps_on_the_chance_of_winning():
    assert [step for step, _ in GLYPHS] == [0.15, 0.10, 0.05]
    assert [glyph(x) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15, 1.0)] == \
        [None, None, "?!", "?!", "?", "?", "??", "??"]
    assert accuracy(0) == pytest.approx(100.0, abs=1e-3) and accuracy(100) == 0.0
    assert accuracy(5) > accuracy(10) > accuracy(15) > 0  # the less a move cost, the more accurate


def _sir_tommy_endgames(unseen: int):
    """States of recorded Sir Tommy games with ``unseen`` cards still in the stock, one per game."""
    for seed in range(60):
        log = play_random("sir_tommy", seed, mode="physical").log
        for _, _, after in M.replay_steps(log):
            s = after.state
            if s.phase == tommy.PLAY and s.stock == unseen:
                yield s
                break


def test_a_patience_endgames_estimate_holds_to_its_error_against_every_order_of_the_unseen_cards():
    """Sir Tommy with 4 cards unseen (the stock goes down by three): the share of their 24 orders that still
    win, each solved, against the sampled estimate the review shows (its standard error from the orders it
    decided). Endgames the solver decides within 5,000 nodes an order; ten of them."""
    checked, shares = 0, set()
    for state in _sir_tommy_endgames(4):
        statuses = [tommy.solve_known(state, order, 5_000).status for order in itertools.permutations(tommy.unseen(state))]
        if tommy.UNKNOWN in statuses:
            continue  # a position past this budget: the next game's
        exact = statuses.count(tommy.WIN) / len(statuses)
        est = tommy.estimate(state, samples=40, budget=5_000, seed=checked)
        decided = est["wins"] + est["losses"]
        assert decided == 40 and not est["exact"]
        assert within(est["p"], exact, standard_error(est["p"], decided), decided), (exact, est)
        checked += 1
        shares.add(exact)
        if checked == 6:
            break
    assert checked == 6 and shares == {0.0, 1.0}  # won and lost endgames alike


def _random_bot(game, state, seat, rng):
    return rng.choice(game.legal_moves(state, seat))


def _expected_under_random_play(solver: Solver, pos: Position) -> float:
    """Red's share (a draw half) when both sides play a card at random each round: every pair of cards equally
    likely, exactly, through the solver's own model of a round (checked against the engine's elsewhere)."""
    rows, cols = [c for c in range(8) if unpack(pos.hands[0])[c]], [c for c in range(8) if unpack(pos.hands[1])[c]]
    total = 0.0
    for c0 in rows:
        for c1 in cols:
            nxt = solver.outcome(pos, c0, c1)
            total += (1.0 + nxt) / 2.0 if isinstance(nxt, float) else _expected_under_random_play(solver, nxt)
    return total / (len(rows) * len(cols))


def test_playouts_hold_to_their_error_against_the_exact_chance_under_the_same_play():
    """The estimator the review's estimates come from (``playout_shares``), on BraveRats positions of three and
    four cards a hand played on by random bots, against the exact chance under random play (every pair of
    cards equally likely, enumerated)."""
    game = registry.get("braverats")
    bots = [_random_bot, _random_bot]
    checked = 0
    for seed in range(30):
        log = play("braverats", seed, mode="physical")
        for _, _, after in M.replay_steps(log):
            pos = position_of(after.state)
            if pos is not None and sum(unpack(pos.hands[0])) in (3, 4):
                exact = _expected_under_random_play(Solver(), pos)
                shares, done = playout_shares(game, after.state, 2, bots, random.Random(seed), 300)
                assert done == 300 and abs(sum(shares) - 1) < 1e-9
                assert within(shares[0], exact, standard_error(shares[0], done), done), (pos, exact, shares)
                checked += 1
                break
    assert checked >= 20


@pytest.mark.parametrize("game_id,players", [("ridder_toernooi", 3), ("troubadour", 2), ("catan", 3),
                                             ("catan-troje", 4)])
def test_a_finished_match_is_estimated_by_playouts_and_a_live_one_is_not(game_id, players):
    """The games with bots: each point's shares sum to 1 with a standard error that matches its samples; the
    result is the last point, exact; the same log gives the same estimate; a match still running is not
    estimated (its playouts would see what some seat cannot), and says so."""
    log = play(game_id, 3, players=players, mode="physical")
    game = registry.get(game_id)
    ev = game.evaluate_log(log, playouts=24)  # 3 points of 8 games (the default, 2,000: 25 points of 80)
    assert ev["method"] == "estimate" and len(ev["points"]) == 4
    *estimates, last = ev["points"]
    for p in estimates:
        assert p["method"] == "estimate" and abs(sum(p["chances"]) - 1) < 1e-5 and p["samples"] == 8
        assert p["stderr"] == pytest.approx(max(standard_error(c, p["samples"]) for c in p["chances"]), abs=1e-6)
    result = M.replay(log).result
    assert last["method"] == "exact" and last["seq"] == log[-1]["seq"]
    assert [i for i, c in enumerate(last["chances"]) if c > 0] == sorted(result.winners)
    assert ev == game.evaluate_log(log, playouts=24)
    live = game.evaluate_log(log[:-5], playouts=24)
    assert live["method"] is None and live["points"] == [] and "over" in str(live["note"])


@pytest.mark.parametrize("game_id,players", [("catan", 3), ("catan-troje", 4)])
def test_catan_luck_is_each_rolls_production_minus_what_every_other_roll_would_have_paid(game_id, players):
    """Luck after a roll: the cards it paid each player minus the mean, over the eleven sums weighted by their
    chances (7 pays nothing), of what the engine itself pays for each sum on the board as it stood; summed up
    over the game (the first 15 rolls checked so, while the bank is full)."""
    log = play(game_id, 5, players=players, mode="physical")
    game = registry.get(game_id)
    ev = game.evaluate_log(log, playouts=24)
    series = {p["seq"]: p["values"] for p in ev["luck"]["series"]}
    ways = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
    running, checked = [0.0] * players, 0
    for event, before, after in M.replay_steps(log):
        if before is None or event["type"] != "dice":
            continue
        b = before.state
        expected = [0.0] * players
        for t in range(2, 13):
            if t == 7:
                continue
            rolled = game.apply(b, "dice", event["seat"], {"dice": [max(1, t - 6), t - max(1, t - 6)]})
            for p in range(players):
                expected[p] += ways[t - 2] / 36 * (sum(rolled.produced[p]) - sum(b.produced[p]))
        for p in range(players):
            running[p] += sum(after.state.produced[p]) - sum(b.produced[p]) - expected[p]
        assert series[event["seq"]] == pytest.approx(running, abs=2e-3), event["seq"]
        checked += 1
        if checked == 15:
            break
    assert checked == 15
    summary = {s["seat"]: s for s in ev["summary"]}
    final = M.replay(log).state
    assert [summary[p]["robber"] for p in range(players)] == [
        {"stolen": final.lost[p], "withheld": final.blocked[p]} for p in range(players)]
    assert [summary[p]["luck"] for p in range(players)] == pytest.approx(ev["luck"]["series"][-1]["values"], abs=2e-3)


def test_the_knights_luck_is_the_analysiss_wounds_dealt_minus_expected_and_points_follow_the_duels():
    log = play("ridder_toernooi", 3, players=3, mode="physical")
    game = registry.get("ridder_toernooi")
    notes = game.analyse_log(log, 100_000)
    ev = game.evaluate_log(log, playouts=400, notes=notes)
    match_luck = next(n for ns in notes.values() for n in ns if n.get("kind") == "luck_summary" and n["scope"] == "match")
    players = M.replay(log).players
    assert [s["luck"] for s in ev["summary"]] == pytest.approx(
        [match_luck["wounds_dealt_minus_expected"][name] for name in players], abs=0.02)
    decided = [e["seq"] for e, b, a in M.replay_steps(log) if b is not None and b.state.duel is not None and a.state.duel is None]
    assert [p["seq"] for p in ev["points"][:-1]] == [s for s in decided if s != log[-1]["seq"]]  # every duel


@pytest.mark.parametrize("variant", ["D", "E"])
def test_drafted_and_dealt_hands_are_known_to_both_players_so_solved_but_shown_once_the_match_is_over(variant):
    """Variants D and E deal all 16 cards: each hand is the other's complement (and a drafting player sees
    what the other keeps), so the position is one of known hands, as the solver takes it; onlookers do not
    see the hands, so a running match gets no evaluation yet, and says why."""
    from engine.braverats.equilibrium import hand_of, pack

    log = play("braverats", 4, mode="physical", options={"variants": [variant]})
    started = next(a.state for _, b, a in M.replay_steps(log) if b is not None and position_of(a.state) is not None)
    pos = position_of(started)
    assert pos.hands == (hand_of(started.hands[0].known), hand_of(started.hands[1].known))
    assert pos.hands[0] + pos.hands[1] == pack([2] * 8)  # together: both sets of eight
    live = registry.get("braverats").evaluate_log(log[:-1])
    assert live["method"] is None and live["points"] == [] and "over" in str(live["note"])


@pytest.mark.rule("braverats.variant_b")
def test_a_draw_pile_game_is_exact_once_both_piles_are_empty_and_says_why_not_before():
    """Variant B: each hand is three cards of its owner's shuffled pile, unknown to the other player, until
    both piles are empty (after round 5's draw): each hand is then what its owner has not played, which
    everyone can count, so from there on the position is one of known hands and solved exactly, live too.
    A game over before that gets no point, and the note says why."""
    from engine.braverats.equilibrium import FULL, hand_of

    game = registry.get("braverats")
    long_game = short_game = None
    for seed in range(40):
        log = play("braverats", seed, mode="physical", options={"variants": ["B"]})
        steps = list(M.replay_steps(log))
        known = [a.state for _, _, a in steps if position_of(a.state) is not None]
        if known and long_game is None:
            long_game = (log, steps, known)
        if not known and short_game is None:
            short_game = log
        if long_game and short_game:
            break
    log, steps, known = long_game
    for state in known:
        assert all(h.pile == 0 and h.unknown == 0 for h in state.hands)
        for s in (0, 1):  # the hand is the complement of what its owner played: all eight, once each
            assert hand_of(state.hands[s].known) + hand_of([r.cards[s] for r in state.rounds]) == FULL
    assert all(position_of(a.state) is None for _, _, a in steps if any(h.pile for h in a.state.hands))
    ev = game.evaluate_log(log)
    assert ev["method"] == "exact" and ev["points"] and "draw piles are empty" in str(ev["note"])
    first_known = next(e["seq"] for e, _, a in steps if position_of(a.state) is not None)
    assert min(p["seq"] for p in ev["points"]) > first_known  # points after rounds played from a known start
    assert all(abs(sum(p["chances"]) - 1) < 1e-9 for p in ev["points"])
    live = game.evaluate_log(log[:-1])  # public once the piles are empty: shown while the match runs
    assert live["method"] == "exact" and live["points"] == ev["points"][:len(live["points"])]
    for part in (short_game, short_game[:-1]):
        ev = game.evaluate_log(part)
        assert ev["method"] is None and ev["points"] == [] and "piles are empty" in str(ev["note"])