"""The shared card primitives: multisets on sorted tuples and the hidden-hand tracker."""

import pytest

from engine.primitives import (
    HiddenHand,
    NotHeld,
    ms,
    ms_add,
    ms_add_all,
    ms_contains,
    ms_count,
    ms_distinct,
    ms_remove,
    ms_remove_all,
    ms_sub,
)


def test_multiset_helpers_keep_sorted_tuples_and_leave_inputs_alone():
    bag = ms([3, 1, 2, 1])
    assert bag == (1, 1, 2, 3)
    assert ms_add(bag, 2) == (1, 1, 2, 2, 3)
    assert ms_add_all(bag, [0, 3]) == (0, 1, 1, 2, 3, 3)
    assert ms_remove(bag, 1) == (1, 2, 3)
    assert ms_remove_all(bag, [1, 1, 3]) == (2,)
    assert ms_sub(bag, [1, 4, 4]) == (1, 2, 3)
    assert ms_count(bag, 1) == 2
    assert ms_distinct(bag) == (1, 2, 3)
    assert ms_contains(bag, [1, 1]) and not ms_contains(bag, [1, 1, 1]) and ms_contains(bag, [])
    assert bag == (1, 1, 2, 3)


def test_multiset_remove_refuses_what_is_not_there():
    with pytest.raises(ValueError):
        ms_remove((1, 2), 3)
    with pytest.raises(ValueError):
        ms_remove_all((1, 2), [2, 2])


def test_known_hand_plays_only_its_cards():
    hand = HiddenHand.of([5, 1, 1])
    hand2, pool = hand.remove(1)
    assert hand2.known == (1, 5) and pool == ()
    assert hand.known == (1, 1, 5)  # unchanged
    with pytest.raises(NotHeld):
        hand.remove(2)
    assert hand.candidates() == (1, 5)


def test_pile_with_unknown_draws_accepts_possible_cards_and_rejects_impossible_ones():
    # a seat shuffles its own cards 0..3 into a pile and draws two it does not show
    hand = HiddenHand.of([0, 1, 2, 3]).to_pile()
    assert (hand.known, hand.pile, hand.own) == ((), 4, (0, 1, 2, 3))
    hand, _ = hand.draw(None)
    hand, _ = hand.draw(None)
    assert (hand.unknown, hand.pile) == (2, 2)
    assert hand.could_hold(3) and hand.candidates() == (0, 1, 2, 3)
    hand, _ = hand.remove(3)
    assert not hand.could_hold(3)  # only one 3 among the seat's cards
    with pytest.raises(NotHeld):
        hand.remove(3)
    hand, _ = hand.draw(2)  # a seen draw
    assert hand.known == (2,) and hand.own == (0, 1) and hand.pile == 1
    with pytest.raises(NotHeld):
        hand.draw(3)
    assert hand.pile_candidates() == (0, 1)


def test_shared_pool_is_exact_across_seats():
    # two seats dealt 2 unseen cards each from the pool {4, 4, 5, 6}
    pool = (4, 4, 5, 6)
    a, b = HiddenHand.dealt([], 2), HiddenHand.dealt([], 2)
    a, pool = a.remove(4, pool)
    b, pool = b.remove(4, pool)
    assert pool == (5, 6)
    assert not a.could_hold(4, pool) and not b.could_hold(4, pool)
    with pytest.raises(NotHeld):
        a.remove(4, pool)
    a, pool = a.remove(5, pool)
    assert b.candidates(pool) == (6,)


def test_own_cards_are_used_before_the_shared_pool():
    # own (certain) 1 and one card from a pool {1, 2}: playing 1 keeps "1 or 2" possible
    hand = HiddenHand(known=(), unknown=2, pile=0, own=(1,), shared=1)
    hand, pool = hand.remove(1, (1, 2))
    assert pool == (1, 2) and hand.own == () and hand.shared == 1
    assert hand.could_hold(1, pool) and hand.could_hold(2, pool)


def test_hidden_hand_encode_round_trip():
    hand = HiddenHand(known=(1, 2), unknown=1, pile=3, own=(0, 4, 5), shared=1)
    assert HiddenHand.decode(hand.encode()) == hand
    assert hand.size == 3
