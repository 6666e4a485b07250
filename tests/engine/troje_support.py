"""Helpers for the Troje tests: the shipped placeholder board's topologies and
hands tables as the Catan engine keeps them (hands[holder][viewer])."""

from __future__ import annotations

from engine.catan import board as B
from engine.catan import knowledge as K
from engine.troje import board as TB
from engine.troje import options as O
from engine.troje import support as S

RES = B.RESOURCES


def cfg(n: int = 4, **options) -> O.Config:
    return O.check_options(options, n)


def topologies(n: int = 4):
    c = cfg(n)
    return B.topology(c.board, n), TB.sea_topology(c.board, n)


def counts(**cards: int) -> tuple[int, ...]:
    return tuple(cards.get(r, 0) for r in RES)


def size_only(size: int) -> K.Hand:
    return K.Hand(K.ZERO, tuple(sorted(((K.FULL, 0),) * size)))


def table(hands: list[tuple[int, ...]], initial: tuple[int, ...] = (1, 0, 1, 1, 1)) -> tuple:
    """Seats holding ``hands`` (exact to themselves and the referee, sizes only
    to everyone else) and the initial support stack appended."""
    n = len(hands)
    rows = []
    for seat, cards in enumerate(hands):
        row = [size_only(sum(cards))] * (n + 2)
        row[seat] = row[n + 1] = K.exact(cards)
        rows.append(tuple(row))
    return S.with_stack(tuple(rows), initial)


def ref(hands: tuple, holder: int) -> K.Hand:
    return hands[holder][len(hands)]  # n + 1 viewers after n seats and the stack: index n + 1 == len(hands)


def could_be(h: K.Hand, cards: tuple[int, ...]) -> bool:
    """Whether ``cards`` is one of the hands ``h`` allows (same size, some assignment)."""
    return h.size == sum(cards) and K.can_pay(h, cards)
