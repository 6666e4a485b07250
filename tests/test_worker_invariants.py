"""The worker's verdict checks the game's invariants after every event
(``Game.invariants``): a log the reducer accepts through a hole of its own
but that breaks conservation is judged invalid, naming the step and the
invariant. Against the real (embedded) Redis of the ``store`` fixture."""

from __future__ import annotations

import pytest

from engine import match as M
from engine.catan import GAME as CATAN
from engine.catan import game as catan_game
from engine.catan.game import DICE, STEAL
from engine.core import RuleViolation
from engine.text import from_json, render
from service.matches import MatchService
from service.web import i18n
from workers.jobs import validate_log


@pytest.fixture
def svc(store):
    return MatchService(store)


def catan_to_the_dice(svc) -> str:
    """A physical 3-player Catan match through its set-up, the last seat
    (the start player) having rolled: the dice are due."""
    mid = svc.create_match("catan", ["Ann", "Bob", "Cor"], {"start_seat": 2})["id"]
    while svc.current(mid).state.phase in (0, 1):
        s = svc.current(mid).state
        move = CATAN.legal_moves(s, s.turn)[0]
        svc.append(mid, move.type, s.turn, move.data)
    svc.append(mid, "roll", 2, {})
    assert svc.current(mid).state.phase == DICE
    return mid


def reopen_the_steal_hole(monkeypatch) -> None:
    """The reducer made to accept a steal while the dice are due, as it did
    before rule catan.chance_due: no victim (-1), the thief the last seat."""
    steal = catan_game.Catan._a_steal

    def hole(self, s, seat, data):
        return steal(self, s._replace(phase=STEAL), seat, data)

    monkeypatch.setitem(catan_game._APPLY, "steal", hole)


def test_the_steal_hole_is_closed(svc):
    mid = catan_to_the_dice(svc)
    with pytest.raises(RuleViolation) as exc:
        svc.append(mid, "steal", 2, {"card": "lumber"})
    assert exc.value.rule == "catan.chance_due"


def test_a_log_the_reducer_accepts_but_that_makes_a_card_from_nowhere_is_invalid(svc, store, monkeypatch):
    mid = catan_to_the_dice(svc)
    reopen_the_steal_hole(monkeypatch)
    cards = next(r for r, k in zip(("lumber", "brick", "wool", "grain", "ore"), svc.current(mid).state.hands[2][-1].known) if k)
    seq = svc.append(mid, "steal", 2, {"card": cards})["seq"]
    # the reducer took it: the log replays
    assert M.replay(store.events(mid)).seq == seq
    verdict = validate_log(store, mid)
    assert verdict["status"] == "invalid"
    assert verdict["first_invalid_seq"] == seq
    assert verdict["invariant"] == "catan.cards_conserved"
    assert f"seq {seq}" in verdict["message"] and "conserved" in verdict["message"]
    assert store.verdict(mid)["status"] == "invalid" and store.verdict(mid)["invariant"] == "catan.cards_conserved"
    assert svc.match(mid)["validation"] == "invalid"
    # the verdict keeps what the engine said, and says it in the reader's language: the invariant's statement,
    # never its id
    nl = i18n.language("nl")
    said = render(from_json(store.verdict(mid)["said"]), nl)
    assert said.startswith(f"nr. {seq}: na deze zet") and "grondstofkaarten" in said and "catan." not in said
    served = svc.match(mid)["validation_details"]
    assert "said" not in served and render(served["message"], nl).startswith(f"nr. {seq} ")


def test_a_log_whose_every_state_keeps_the_invariants_is_valid(svc, store):
    mid = catan_to_the_dice(svc)
    svc.append(mid, "dice", None, {"dice": [2, 4]})
    verdict = validate_log(store, mid)
    assert verdict["status"] == "valid" and "invariant" not in verdict


def test_a_broken_invariant_is_named_even_in_a_game_without_hidden_cards(svc, store, monkeypatch):
    """Stapelen: a take that loses its card (the foundation not built)."""
    from engine.stapelen import game as stapelen_game

    mid = svc.create_match("stapelen", ["Ann", "Bob"], {}, mode="simulated", seed=7)["id"]
    ms = svc.current(mid)
    first = M.legal_moves(ms, ms.game.actors(ms.state)[0])[0]
    apply = stapelen_game.Stapelen.apply

    def lose_the_card(self, state, type, seat, data):
        after = apply(self, state, type, seat, data)
        return after if type != "take" else stapelen_game.replace(after, foundations=state.foundations)

    monkeypatch.setattr(stapelen_game.Stapelen, "apply", lose_the_card)
    seq = svc.append(mid, first["type"], first["seat"], first["data"])["seq"]
    verdict = validate_log(store, mid)
    assert verdict["status"] == "invalid" and verdict["first_invalid_seq"] == seq
    assert verdict["invariant"] == "stapelen.cards_conserved"
