"""The log's (referee's) knowledge decides whether a move on the support stack
is possible, even when a seat knows exactly as much and is reached first:
the per-viewer loops of ``engine.troje.support`` share work between viewers
with equal knowledge, and a seat's failure (reset to the size alone) must
not stand in for the referee's refusal."""

from __future__ import annotations

import pytest

from engine.catan import knowledge as K
from engine.core import RuleViolation
from engine.troje import support as S

from .troje_support import counts, ref, table

N = 4


@pytest.mark.rule("troje.hidden_cards")
def test_a_donation_of_a_card_the_log_knows_the_donor_lacks_is_refused():
    # seat 0 holds exactly lumber, 2 wool, ore: known so to itself and to the log alike
    hands = table([counts(lumber=1, wool=2, ore=1), counts(), counts(), counts()])
    assert hands[0][0] == ref(hands, 0)
    with pytest.raises(RuleViolation) as e:
        S.to_stack(hands, N, 0, counts(grain=1), 1, origin=7)
    assert e.value.rule == "troje.hidden_cards"
    # a card it holds is laid down, seen by the donor and the log
    after = S.to_stack(hands, N, 0, counts(wool=1), 1, origin=7)
    assert ref(after, 0) == K.exact(counts(lumber=1, wool=1, ore=1))


@pytest.mark.rule("troje.hidden_cards")
def test_a_battle_turning_up_cards_the_log_knows_are_not_there_is_refused():
    # nothing donated: every viewer knows the initial stack (lumber, wool, grain, ore) exactly, as the log does
    hands = table([counts()] * N, initial=counts(lumber=3, wool=3, grain=2, ore=2))
    assert len({hands[N][v] for v in range(N + 2)}) == 1
    with pytest.raises(RuleViolation) as e:
        S.battle(hands, N, counts(wool=4, ore=2, grain=1), 7, origin=3)
    assert e.value.rule == "troje.hidden_cards"
    after = S.battle(hands, N, counts(wool=3, ore=2, grain=2), 7, origin=3)
    assert all(after[N][v] == K.exact(counts(lumber=3)) for v in range(N + 2))
