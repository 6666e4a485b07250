"""Where the recorder did not see some cards (a stolen card, a development
card drawn), ``legal_moves`` lists exactly the moves the reducer takes (rule
catan.hand: accepted if some assignment of the unseen cards allows it).
Found by the legality property over every game on physical lines with
unseen cards:

- a seat that had to discard with unseen cards was listed no discard at
  all, so nobody could move;
- a knight, Road Building or Year of Plenty bought unseen (before this turn)
  could be played, but was not listed;
- a build the seat's own hand could pay but no joint assignment of all
  hands allows (one stolen card cannot be in two hands) was listed, and
  refused when entered.
"""

from __future__ import annotations

import pytest

from engine import match as M
from engine.catan import GAME as G
from engine.catan.pieces import DISCARD, MAIN, PRE_ROLL

from .legality_support import random_positions, setup_for


def line(seed: int, n: int, until: int):
    """The positions of a physical line whose recorder missed half the drawn cards."""
    for _, ms in random_positions(setup_for("catan", n, {}, seed), seed, until, hide=0.5):
        yield ms


def accepted(ms: M.MatchState, move: dict) -> M.MatchState:
    data = M.normalize_event(ms, move["type"], move["seat"], move["data"])
    return M.apply_event(ms, ms.seq + 1, move["type"], move["seat"], data)


@pytest.mark.rule("catan.hand")
@pytest.mark.rule("catan.seven_discard")
def test_a_seat_with_unseen_cards_is_listed_every_discard_it_could_make():
    def short(s, p):  # fewer known cards than it must discard: the rest are unseen
        return s.hands[p][-1].unseen and sum(s.hands[p][-1].known) < s.pending[p]

    ms = next(ms for ms in line(5, 4, 1300)
              if ms.state.phase == DISCARD and any(short(ms.state, p) for p in G.actors(ms.state)))
    s = ms.state
    seat = next(p for p in G.actors(s) if short(s, p))
    moves = M.legal_moves(ms, seat)
    assert moves, "a discard is possible: the unseen cards are some cards"
    for move in moves:
        assert sum(move["data"]["cards"].values()) == s.pending[seat]
        after = accepted(ms, move)
        assert G.invariants(after.state) == []


@pytest.mark.rule("catan.hand")
@pytest.mark.rule("catan.knight")
def test_a_development_card_bought_unseen_can_be_played_and_is_listed():
    ms = next(ms for ms in line(0, 3, 300)
              if ms.state.phase in (PRE_ROLL, MAIN)
              and ms.state.dev[ms.state.turn][-1][1] > ms.state.fresh[ms.state.turn][1]  # unseen, from before
              and not ms.state.dev_played and not any(ms.state.dev[ms.state.turn][-1][0][:4]))
    s = ms.state
    seat = s.turn
    listed = [m for m in M.legal_moves(ms, seat) if m["type"].startswith("play_")]
    assert listed
    for move in listed:
        accepted(ms, move)
    # and what is not listed is refused
    for type_ in ("play_knight", "play_road_building"):
        if not any(m["type"] == type_ for m in listed):
            with pytest.raises(Exception):
                accepted(ms, {"type": type_, "seat": seat, "data": {}})


@pytest.mark.rule("catan.hand")
def test_with_the_joint_worlds_of_unseen_cards_every_listed_move_is_accepted():
    checked = 0
    for ms in line(0, 3, 700):
        if ms.state.worlds is None or ms.result is not None:
            continue
        for a in G.actors(ms.state):
            if isinstance(a, int):
                for move in M.legal_moves(ms, a):
                    accepted(ms, move)
                    checked += 1
    assert checked > 100
