"""Troje's support stack and battles under Hypothesis: scoring, conservation
(cards in = cards out + remainder; bank + hands + stack + turned up = total),
every viewer's knowledge always allowing the true cards, and nothing hidden
reaching a viewer (two games that differ only in what a viewer did not see
look the same to it)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catan import knowledge as K
from engine.troje import saga as SG
from engine.troje import support as S

from .troje_support import could_be, size_only, table

cards5 = st.tuples(*[st.integers(0, 4)] * 5)


@given(cards5)
def test_battle_score_counts_every_card_once(revealed):
    troy, myc = S.score(revealed)
    assert troy + myc + revealed[1] == sum(revealed)
    assert troy == revealed[2] + revealed[4] and myc == revealed[0] + revealed[3]
    mirrored = (revealed[4], revealed[1], revealed[3], revealed[2], revealed[0])  # ore<->lumber, wool<->grain
    assert S.score(mirrored) == (myc, troy)
    w = S.winner(revealed)
    assert w == ("troy" if troy > myc else "mycenae" if myc > troy else None)
    saga = SG.advance(SG.Saga(1, 1), w)
    assert sum(saga) == 2 + (w is not None)


OPS = st.lists(st.tuples(st.sampled_from(["donate", "draw", "gain"]), st.integers(0, 5), st.integers(1, 3),
                         st.booleans()), max_size=40)


def _play(n, seed, ops, battles=True, fixed=None, bank_size=None):
    """Run ``ops`` on an n-player table with cards drawn from ``seed``; seat
    ``fixed`` (if given) gets the same cards whatever the seed. Returns the
    hands table, the truth and the tallies."""
    rng = random.Random(seed)
    same = random.Random(12345)
    bank_size = bank_size or (19 if n == 4 else 24)
    bank = [bank_size] * 5
    initial = (1, 0, 1, 1, 1)
    bank = [b - i for b, i in zip(bank, initial)]
    truth = []
    for seat in range(n):
        r = same if seat == fixed else rng
        h = [0] * 5
        for _ in range(4):
            k = r.randrange(5)
            h[k] += 1
            bank[k] -= 1
        truth.append(h)
    hands = table([tuple(h) for h in truth], initial)
    stack = list(initial)
    tally = {"in": sum(initial), "drawn": 0, "revealed": 0, "total": bank_size * 5}
    reveal, size = (7, 10) if n == 4 else (10, 13)
    for origin, (kind, seat, k, seen) in enumerate(ops, start=1):
        seat %= n
        r = same if seat == fixed else rng
        if kind == "gain":  # production, seen by all
            res = origin % 5
            if bank[res]:
                bank[res] -= 1
                truth[seat][res] += 1
                hands = hands[:seat] + (tuple(K.add_one(h, res) for h in hands[seat]),) + hands[seat + 1:]
        elif kind == "donate" and sum(truth[seat]) >= k:
            pool = [x for x in range(5) for _ in range(truth[seat][x])]
            given_ = [0] * 5
            for x in r.sample(pool, k):
                given_[x] += 1
                truth[seat][x] -= 1
                stack[x] += 1
            hands = S.to_stack(hands, n, seat, tuple(given_) if seen else None, k, origin)
            tally["in"] += k
        elif kind == "draw" and sum(stack):
            card = S.draw_blind(r if seat == fixed else rng, tuple(stack))
            stack[card] -= 1
            truth[seat][card] += 1
            hands = S.from_stack(hands, n, seat, card if seen else None, origin)
            tally["drawn"] += 1
        if battles and S.battle_due(sum(stack), size):
            before = sum(stack)
            revealed = S.draw_reveal(rng, tuple(stack), reveal)
            hands = S.battle(hands, n, revealed, reveal, origin)
            stack = [a - b for a, b in zip(stack, revealed)]
            bank = list(S.bank_after_battle(tuple(bank), revealed, True))
            tally["revealed"] += sum(revealed)
            assert sum(stack) == before - reveal
        yield hands, truth, stack, bank, tally


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(0, 10**6), OPS)
def test_stack_conservation_and_sound_knowledge(n, seed, ops):
    for hands, truth, stack, bank, tally in _play(n, seed, ops):
        # cards in = cards out + remainder
        assert tally["in"] == tally["drawn"] + tally["revealed"] + sum(stack)
        # bank + hands + stack = total (turned-up cards went back to the bank)
        assert sum(bank) + sum(map(sum, truth)) + sum(stack) == tally["total"]
        # every viewer's knowledge allows the true cards of every holder, stack included
        for holder, cards in enumerate(truth + [stack]):
            for viewer in range(n + 2):
                assert could_be(hands[holder][viewer], tuple(cards)), (holder, viewer)
        # the public never learns a donated card: what it knows of the stack is the initial stack at most
        assert all(k <= i for k, i in zip(hands[n][n].known, (1, 0, 1, 1, 1)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 6]), st.integers(0, 10**6), st.integers(0, 10**6), OPS)
def test_nothing_hidden_reaches_a_viewer(n, seed_a, seed_b, ops):
    """Two games whose hidden cards differ (all seats but seat 0 hold and give
    other cards) but whose public events are the same look the same to the
    public and to seat 0, move by move."""
    ops = [op for op in ops if not (op[0] == "draw" and op[1] % n == 0)]  # seat 0 would draw other cards
    a = list(_play(n, seed_a, ops, battles=False, fixed=0, bank_size=100))
    b = list(_play(n, seed_b, ops, battles=False, fixed=0, bank_size=100))
    for (ha, ta, *_), (hb, tb, *_) in zip(a, b):
        assert ta[0] == tb[0]
        for holder in range(n + 1):
            assert ha[holder][n] == hb[holder][n], ("public", holder)
            assert ha[holder][0] == hb[holder][0], ("seat 0", holder)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=10, max_size=20), st.integers(0, 10**6))
def test_a_battle_turns_up_reveal_cards_and_keeps_the_rest(stack_cards, seed):
    stack = tuple(stack_cards.count(r) for r in range(5))
    revealed = S.draw_reveal(random.Random(seed), stack, 7)
    assert sum(revealed) == 7 and all(r <= s for r, s in zip(revealed, stack))
    hands = table([(0,) * 5] * 4, stack)
    after = S.battle(hands, 4, revealed, 7, origin=1)
    assert all(h == K.exact(tuple(s - r for s, r in zip(stack, revealed))) for h in after[4])
    # a viewer who knew nothing of the stack but its size learns exactly what was shown, no more
    blind = hands[:4] + ((size_only(len(stack_cards)),) * 6,)
    seen = S.battle(blind, 4, revealed, 7, origin=1)
    assert seen[4][4].size == len(stack_cards) - 7 and seen[4][4].known == (0,) * 5


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([4, 6]), st.randoms(use_true_random=False), st.integers(0, 7), st.booleans())
def test_allegiances_known_as_brute_force_says(n, rnd, viewer, revealed):
    """What a viewer is shown of the deal is exactly what holds in every deal of
    the decision cards (all orders of the physical cards) that agrees with
    what the viewer saw: its own card, or nothing (public), or all (referee,
    or after the reveal)."""
    from itertools import permutations

    viewer %= n + 2
    cards = ["troy"] * (n // 2) + ["mycenae"] * (n // 2)
    rnd.shuffle(cards)
    deal = tuple(cards)
    shown = SG.known_to(deal, viewer, revealed)
    if revealed or viewer == n + 1:
        assert shown == deal
        return
    worlds = {p for p in permutations(deal) if viewer >= n or p[viewer] == deal[viewer]}
    for i in range(n):
        values = {w[i] for w in worlds}
        assert shown[i] == (values.pop() if len(values) == 1 else None)
    vp = SG.saga_vp_view(deal, viewer, revealed, SG.Saga(2, 3))
    assert all((v is None) == (s is None) for v, s in zip(vp, shown))
