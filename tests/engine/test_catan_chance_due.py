"""A chance outcome is accepted only when it is the one due (rule
catan.chance_due). Found by the legality property over every game: a
``steal`` entered while the dice were due was accepted, skipped the dice, and
with no robber move behind it took from seat -1 (the last seat) or, when the
last seat was the thief, made a card from nowhere."""

from __future__ import annotations

import json

import pytest

from engine import match as M
from engine.catan import GAME as G
from engine.catan.game import DEV_DRAW, DICE, MAIN, STEAL
from engine.core import RuleViolation

from .catan_support import act, give, new, play_setup


def physical(n: int = 3, **options) -> M.MatchState:
    """A physical match (the recorder enters the chance outcomes) after the
    set-up, its first seat to roll."""
    ms = M.start(M.make_setup("catan", ["Ann", "Bob", "Cor", "Dirk"][:n], options, mode="physical"))
    while ms.state.phase in (0, 1):
        seat = ms.state.turn
        move = G.legal_moves(ms.state, seat)[0]
        ms = M.apply_event(ms, ms.seq + 1, move.type, seat, M.normalize_event(ms, move.type, seat, move.data))
    return ms


def enter(ms: M.MatchState, type_: str, seat, data) -> M.MatchState:
    return M.apply_event(ms, ms.seq + 1, type_, seat, M.normalize_event(ms, type_, seat, data))


@pytest.mark.rule("catan.chance_due")
@pytest.mark.parametrize("card", ["grain", None])
def test_a_steal_while_the_dice_are_due_is_refused_and_changes_nothing(card):
    # the last seat starts: the old hole made its stolen card out of nothing
    ms = physical(3, start_seat=2)
    ms = enter(ms, "roll", 2, {})
    assert ms.state.phase == DICE
    before = json.dumps(G.encode_state(ms.state), sort_keys=True)
    with pytest.raises(RuleViolation) as exc:
        enter(ms, "steal", 2, {"card": card})
    assert exc.value.rule == "catan.chance_due" and exc.value.status == 422
    assert "stolen card" in exc.value.message
    assert json.dumps(G.encode_state(ms.state), sort_keys=True) == before
    # the dice are still due, and the invariants hold
    assert M.chance_due(ms) == [{"type": "dice", "seat": None}]
    assert G.invariants(ms.state) == []


@pytest.mark.rule("catan.chance_due")
def test_a_development_card_while_the_dice_are_due_is_refused():
    ms = enter(physical(3), "roll", 0, {})
    with pytest.raises(RuleViolation) as exc:
        enter(ms, "draw_dev", 0, {"card": "knight"})
    assert exc.value.rule == "catan.chance_due"


@pytest.mark.rule("catan.chance_due")
def test_dice_while_a_stolen_card_is_due_are_refused():
    s = play_setup(new(4))
    s = act(s, "roll", 0)
    s = act(s, "dice", None, {"dice": [3, 4]})  # a 7: nobody holds more than 7 cards
    # the robber onto a hex where another seat has a building with cards
    move = next(m for m in G.legal_moves(s, 0) if m.type == "move_robber" and m.data["victim"] is not None)
    s = act(s, "move_robber", 0, move.data)
    assert s.phase == STEAL and s.victim == move.data["victim"]
    with pytest.raises(RuleViolation) as exc:
        act(s, "dice", None, {"dice": [2, 2]})
    assert exc.value.rule == "catan.chance_due"
    with pytest.raises(RuleViolation) as exc:
        act(s, "draw_dev", 0, {"card": "knight"})
    assert exc.value.rule == "catan.chance_due"
    # the steal due is accepted, from the victim named
    after = act(s, "steal", 0, {"card": None})
    assert after.phase == MAIN and after.hands[0][-1].size == s.hands[0][-1].size + 1
    assert G.invariants(after) == []


@pytest.mark.rule("catan.chance_due")
def test_dice_or_a_steal_while_a_development_card_is_due_are_refused():
    s = play_setup(new(4))
    s = act(s, "roll", 0)
    s = act(s, "dice", None, {"dice": [2, 4]})
    s = give(s, 0, {"ore": 1, "wool": 1, "grain": 1})
    s = act(s, "buy_dev", 0)
    assert s.phase == DEV_DRAW
    for type_, data in (("dice", {"dice": [1, 1]}), ("steal", {"card": None})):
        with pytest.raises(RuleViolation) as exc:
            act(s, type_, 0 if type_ == "steal" else None, data)
        assert exc.value.rule == "catan.chance_due", type_


def test_troje_refuses_dice_while_the_sea_peoples_card_is_due():
    """The scenario shares the base game's dice: the same rule holds there."""
    from engine.troje import GAME as T
    from engine.troje.simulate import play_game

    log = play_game(4, ["random"] * 4, 3, keep_log=True, max_events=3000)["log"]
    for _, _, after in M.replay_steps(log):
        if after.state.phase == STEAL:
            ms = M.MatchState(after.game, {**after.setup, "mode": "physical", "seed": None}, after.seq, after.state)
            with pytest.raises(RuleViolation) as exc:
                enter(ms, "dice", None, {"dice": [2, 3]})
            assert exc.value.rule == "catan.chance_due"
            assert T.invariants(after.state) == []
            return
    pytest.fail("no steal in the game")
