"""Troje's chance outcomes and the card laid back are taken only when due.
Found by the legality property over every game: a battle, a ship tile or a
blind draw from the support stack entered while the dice were due was
accepted and skipped the roll; a card could be laid back on the support stack
at any time, without a swap behind it."""

from __future__ import annotations

import json

import pytest

from engine import match as M
from engine.catan.pieces import DICE, MAIN
from engine.troje.phases import BATTLE
from engine.core import KroniekError, RuleViolation
from engine.troje import GAME
from engine.troje.simulate import play_game


def position(phase: int, seed: int = 3) -> M.MatchState:
    """The first position of a simulated 4-player game in ``phase`` after the
    set-up, as a physical match (the recorder enters the chance outcomes)."""
    log = play_game(4, ["greedy"] * 4, seed, keep_log=True, max_events=3000)["log"]
    for _, _, after in M.replay_steps(log):
        if after.state.phase == phase and after.state.turn_no > 2:
            return M.MatchState(after.game, {**after.setup, "mode": "physical", "seed": None}, after.seq,
                                after.state)
    raise AssertionError("no such position")


def refused(ms: M.MatchState, type_: str, seat, data) -> RuleViolation:
    before = json.dumps(GAME.encode_state(ms.state), sort_keys=True)
    with pytest.raises(KroniekError) as exc:
        M.apply_event(ms, ms.seq + 1, type_, seat, M.normalize_event(ms, type_, seat, data))
    assert json.dumps(GAME.encode_state(ms.state), sort_keys=True) == before
    assert isinstance(exc.value, RuleViolation), exc.value.to_dict()
    return exc.value


@pytest.mark.rule("troje.battle_reveal")
def test_a_battle_while_the_dice_are_due_is_refused():
    ms = position(DICE)
    assert refused(ms, "battle", None, {"revealed": {"wool": 4, "ore": 3}}).rule == "troje.battle_reveal"


@pytest.mark.rule("troje.ship_tile")
def test_a_ship_tile_while_the_dice_are_due_is_refused():
    ms = position(DICE)
    exc = refused(ms, "ship_tile", ms.state.turn, {"advantage": "victory_point"})
    assert exc.rule == "troje.ship_tile"


@pytest.mark.rule("troje.adv_draw")
def test_a_blind_draw_from_the_support_stack_while_the_dice_are_due_is_refused():
    ms = position(DICE)
    assert refused(ms, "stack_card", ms.state.turn, {"card": None}).rule == "troje.adv_draw"


@pytest.mark.rule("troje.adv_swap")
def test_a_card_is_laid_back_on_the_support_stack_only_after_a_swap():
    ms = position(MAIN)
    seat = ms.state.turn
    assert ms.state.hands[seat][-1].size, "the seat holds a card it could lay back"
    assert refused(ms, "return_card", seat, {"card": None}).rule == "troje.adv_swap"
    assert not any(m["type"] == "return_card" for m in M.legal_moves(ms, seat))


def test_the_dice_due_are_still_taken():
    ms = position(DICE)
    after = M.apply_event(ms, ms.seq + 1, "dice", None, M.normalize_event(ms, "dice", None, {"dice": [2, 3]}))
    assert after.state.phase != DICE and GAME.invariants(after.state) == []


@pytest.mark.rule("troje.hidden_cards")
def test_a_battle_turning_up_more_of_a_resource_than_can_be_left_unseen_is_refused():
    """Found by the invariant catan.cards_conserved on a physical line whose
    recorder missed cards: the stack could hold 4 wool as far as its own
    knowledge went, but the bank and the known cards left only 1 wool for all
    the unseen cards (the stack's and a donation still in a hand's view)."""
    from .legality_support import random_positions, setup_for

    ms = None
    for _, ms in random_positions(setup_for("catan-troje", 6, {}, 9), 9, 284, hide=0.5):
        pass
    assert ms.state.phase == BATTLE and GAME.invariants(ms.state) == []
    ms = M.MatchState(ms.game, ms.setup, ms.seq, ms.state)
    exc = refused(ms, "battle", None, {"revealed": {"lumber": 5, "brick": 1, "wool": 3, "ore": 1}})
    assert exc.rule == "troje.hidden_cards" and "-1 wool" in exc.message
    # what the cards allow is taken, and keeps the cards conserved
    fits = {"lumber": 7, "brick": 1, "wool": 1, "ore": 1}
    after = M.apply_event(ms, ms.seq + 1, "battle", None, M.normalize_event(ms, "battle", None, {"revealed": fits}))
    assert GAME.invariants(after.state) == []
