"""A league's players in registration order: an immutable sequence whose
``plus`` (one more name) is O(1) amortised.

The league reducer is pure: ``_register`` returns a new state and leaves the
old one as it was. With a tuple that meant copying every name registered so
far for each registration, so registering n players cost O(n²) (4,096
players: 8 million copies, and each ``name in players`` a scan). A
``Roster`` is instead a view of the first ``n`` names of a list shared with
the rosters it grew from and into: ``plus`` on the newest of them appends to
that list, and each older roster still sees only its own ``n`` names, so
nothing anyone holds changes. ``plus`` on an older roster (a branch: a write
retried after another writer got in) copies its names into a list of its
own, as a tuple would have.

Membership and positions come from an index kept beside the list, and so do
lookups by a derived key (``find``: a name ignoring case, as the service
compares names at a table), each index built on first use and then kept up
to date by the appends. The items may be anything hashable: a league's
links are a Roster of (match, round, board), found by match.
"""

from __future__ import annotations

import threading
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar, overload

T = TypeVar("T")


class _Shared:
    """The list the rosters of one line of states share, and its indexes."""

    __slots__ = ("names", "first", "keyed", "lock")

    def __init__(self, names: list[Any]) -> None:
        self.names = names
        self.first: dict[Any, int] = {}  # name -> its first position
        for i, name in enumerate(names):
            self.first.setdefault(name, i)
        #: key function -> (key -> the first position of a name with that key)
        self.keyed: dict[Callable[[Any], Any], dict[Any, int]] = {}
        self.lock = threading.Lock()


class Roster(Sequence[T]):
    """Names (items) in order; equal to a Roster or tuple of the same ones."""

    __slots__ = ("_shared", "_n")

    def __init__(self, names: Iterable[T] = ()) -> None:
        self._shared = _Shared(list(names))
        self._n = len(self._shared.names)

    @classmethod
    def _view(cls, shared: _Shared, n: int) -> Roster[T]:
        roster = cls.__new__(cls)
        roster._shared = shared
        roster._n = n
        return roster

    def plus(self, name: T) -> Roster[T]:
        """These names and ``name`` after them (this roster is unchanged)."""
        shared = self._shared
        with shared.lock:
            if len(shared.names) == self._n:  # the newest roster of its list: append, O(1) amortised
                position = self._n
                shared.names.append(name)
                shared.first.setdefault(name, position)
                for key, index in shared.keyed.items():
                    index.setdefault(key(name), position)
                return Roster._view(shared, position + 1)
        return Roster([*self, name])  # a branch from an older roster: a list of its own

    def position(self, name: T) -> int | None:
        """Where ``name`` first stands (0-based), or None if it is not here."""
        i = self._shared.first.get(name)
        return i if i is not None and i < self._n else None

    def find(self, key: Callable[[T], Any], value: Any) -> T | None:
        """The first name whose ``key(name)`` is ``value``, or None. ``key`` must be
        a pure function of the name (one function object per key: its index
        is kept by it)."""
        shared = self._shared
        with shared.lock:
            index = shared.keyed.get(key)
            if index is None:
                index = {}
                for i, name in enumerate(shared.names):
                    index.setdefault(key(name), i)
                shared.keyed[key] = index
            i = index.get(value)
        return shared.names[i] if i is not None and i < self._n else None

    # -- Sequence --------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __contains__(self, name: object) -> bool:
        try:
            i = self._shared.first.get(name)
        except TypeError:  # unhashable: never an item
            return False
        return i is not None and i < self._n

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[T, ...]: ...

    def __getitem__(self, i: int | slice) -> T | tuple[T, ...]:
        if isinstance(i, slice):
            return tuple(self)[i]
        if not -self._n <= i < self._n:
            raise IndexError("roster index out of range")
        return self._shared.names[i % self._n]

    def __iter__(self) -> Iterator[T]:
        # appends past _n by a newer roster never move the names before it
        return islice(self._shared.names, self._n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Roster):
            if other._n != self._n:
                return False
            if other._shared is self._shared:
                return True
            return self._shared.names[:self._n] == other._shared.names[:other._n]
        if isinstance(other, tuple):
            return len(other) == self._n and tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Roster({tuple(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Roster, (tuple(self),))


def roster(names: Sequence[T] | Roster[T]) -> Roster[T]:
    """``names`` as a Roster (a Roster as it is)."""
    return names if isinstance(names, Roster) else Roster(names)
