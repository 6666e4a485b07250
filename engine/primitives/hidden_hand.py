"""A hand the recorder of a physical game may only partly see.

In a physical match a drawn or dealt card can be entered as *unknown*. The
tracker keeps, per seat:

- ``known``: cards certainly in the hand (a sorted tuple);
- ``unknown``: how many hand cards were not seen;
- ``pile``: how many cards are in the seat's personal draw pile (0 if none);
- ``own``: cards certainly among this seat's *unseen* cards (its unknown hand
  cards plus its pile), e.g. the seat's own cards shuffled into its pile;
- ``shared``: how many of the unseen cards come from a *shared pool* (cards
  whose owner is not known, e.g. a deal the recorder could not see). The pool
  itself is passed in and handed back, because several seats draw on it.

Invariant: ``unknown + pile == len(own) + shared``.

A card is accepted as played when it is known to be in the hand, or when the
hand has an unknown card and the card could be one (it is in ``own`` or, with
``shared`` > 0, in the pool). When a card could be either, it is taken from
``own`` first: that keeps every possibility the other choice allows, so the
check never refuses a play the real cards permit and never accepts one they
forbid. Cards are any orderable values; a game stores them as small ints.
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable, NamedTuple

from .multiset import ms, ms_add, ms_add_all, ms_distinct, ms_remove

Pool = tuple[Any, ...]


class NotHeld(ValueError):
    """The card cannot be in the hand (or the pile) as far as the log knows."""


class HiddenHand(NamedTuple):
    known: tuple[Any, ...] = ()
    unknown: int = 0
    pile: int = 0
    own: tuple[Any, ...] = ()
    shared: int = 0

    # -- construction ---------------------------------------------------------
    @classmethod
    def of(cls, cards: Iterable[Hashable]) -> HiddenHand:
        """A hand whose cards are all known."""
        return cls(known=ms(cards))

    @classmethod
    def dealt(cls, known: Iterable[Hashable], unknown: int) -> HiddenHand:
        """A dealt hand: ``known`` cards plus ``unknown`` cards from the shared pool."""
        return cls(known=ms(known), unknown=unknown, shared=unknown)

    # -- reading ----------------------------------------------------------------
    @property
    def size(self) -> int:
        """Cards in the hand."""
        return len(self.known) + self.unknown

    def could_hold(self, card: Hashable, pool: Pool = ()) -> bool:
        if card in self.known:
            return True
        return self.unknown > 0 and self._unseen_could_be(card, pool)

    def candidates(self, pool: Pool = ()) -> tuple[Any, ...]:
        """The distinct cards the hand could play now."""
        if not self.unknown:
            return ms_distinct(self.known)
        extra = (*self.own, *pool) if self.shared else self.own
        return ms_distinct((*self.known, *extra))

    def pile_candidates(self, pool: Pool = ()) -> tuple[Any, ...]:
        """The distinct cards the next draw from the pile could be."""
        if not self.pile:
            return ()
        return ms_distinct((*self.own, *pool) if self.shared else self.own)

    def _unseen_could_be(self, card: Hashable, pool: Pool) -> bool:
        return card in self.own or (self.shared > 0 and card in pool)

    def _take_unseen(self, card: Hashable, pool: Pool) -> tuple[tuple[Any, ...], int, Pool]:
        if card in self.own:
            return ms_remove(self.own, card), self.shared, pool
        if self.shared > 0 and card in pool:
            return self.own, self.shared - 1, ms_remove(pool, card)
        raise NotHeld(f"{card!r} cannot be among the unseen cards")

    # -- changes (each returns a new hand, and the pool where it may change) ----
    def remove(self, card: Hashable, pool: Pool = ()) -> tuple[HiddenHand, Pool]:
        """The hand after ``card`` leaves it (played, given away)."""
        if card in self.known:
            return HiddenHand(ms_remove(self.known, card), self.unknown, self.pile, self.own, self.shared), pool
        if self.unknown <= 0:
            raise NotHeld(f"{card!r} is not in the hand")
        own, shared, pool = self._take_unseen(card, pool)
        return HiddenHand(self.known, self.unknown - 1, self.pile, own, shared), pool

    def draw(self, card: Hashable | None, pool: Pool = ()) -> tuple[HiddenHand, Pool]:
        """The hand after drawing one card from its pile; ``None`` = not seen."""
        if self.pile <= 0:
            raise NotHeld("the draw pile is empty")
        if card is None:
            return self._replace(unknown=self.unknown + 1, pile=self.pile - 1), pool
        own, shared, pool = self._take_unseen(card, pool)
        return HiddenHand(ms_add(self.known, card), self.unknown, self.pile - 1, own, shared), pool

    def receive(self, card: Hashable) -> HiddenHand:
        """The hand after a known card arrives from outside (a pick, a gift)."""
        return self._replace(known=ms_add(self.known, card))

    def to_pile(self) -> HiddenHand:
        """Shuffle the whole hand into the seat's draw pile."""
        return HiddenHand(
            known=(),
            unknown=0,
            pile=self.pile + len(self.known) + self.unknown,
            own=ms_add_all(self.own, self.known),
            shared=self.shared,
        )

    # -- snapshots ----------------------------------------------------------------
    def encode(self) -> list[Any]:
        return [list(self.known), self.unknown, self.pile, list(self.own), self.shared]

    @classmethod
    def decode(cls, obj: list[Any]) -> HiddenHand:
        known, unknown, pile, own, shared = obj
        return cls(tuple(known), unknown, pile, tuple(own), shared)
