"""Multisets of cards as sorted tuples.

A sorted tuple is immutable, hashable, JSON-able as a list and compares equal
exactly when the two multisets are equal, which is what game states need.
Every helper returns a new tuple and leaves its arguments alone. Items only
need to be orderable (ints, or strings of one kind).
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from typing import Hashable, Iterable, TypeVar

T = TypeVar("T", bound=Hashable)


def ms(items: Iterable[T]) -> tuple[T, ...]:
    """The multiset of ``items`` (a sorted tuple)."""
    return tuple(sorted(items))


def ms_count(bag: tuple[T, ...], item: T) -> int:
    return bag.count(item)


def ms_contains(bag: tuple[T, ...], items: Iterable[T]) -> bool:
    """Whether ``items`` (with multiplicity) is a sub-multiset of ``bag``."""
    need = Counter(items)
    if not need:
        return True
    have = Counter(bag)
    return all(have[k] >= n for k, n in need.items())


def ms_add(bag: tuple[T, ...], item: T) -> tuple[T, ...]:
    out = list(bag)
    insort(out, item)
    return tuple(out)


def ms_add_all(bag: tuple[T, ...], items: Iterable[T]) -> tuple[T, ...]:
    return tuple(sorted((*bag, *items)))


def ms_remove(bag: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``bag`` with one ``item`` less; ValueError if it holds none."""
    i = bisect_left(bag, item)
    if i == len(bag) or bag[i] != item:
        raise ValueError(f"{item!r} is not in the multiset")
    return bag[:i] + bag[i + 1 :]


def ms_remove_all(bag: tuple[T, ...], items: Iterable[T]) -> tuple[T, ...]:
    """``bag`` minus ``items``; ValueError unless ``items`` is a sub-multiset."""
    out = list(bag)
    for item in items:
        try:
            out.remove(item)
        except ValueError:
            raise ValueError(f"{item!r} is not in the multiset (often enough)") from None
    return tuple(out)


def ms_sub(bag: tuple[T, ...], items: Iterable[T]) -> tuple[T, ...]:
    """Saturating difference: ``bag`` minus ``items``, ignoring what it lacks."""
    left = Counter(items)
    out = []
    for item in bag:
        if left[item]:
            left[item] -= 1
        else:
            out.append(item)
    return tuple(out)


def ms_distinct(bag: Iterable[T]) -> tuple[T, ...]:
    """The distinct items, sorted."""
    return tuple(sorted(set(bag)))
