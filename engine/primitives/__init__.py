"""Small shared helpers for card games: multisets on sorted tuples and a
tracker for hands that are only partly known to the recorder."""

from .hidden_hand import HiddenHand, NotHeld
from .multiset import (
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

__all__ = [
    "HiddenHand",
    "NotHeld",
    "ms",
    "ms_add",
    "ms_add_all",
    "ms_contains",
    "ms_count",
    "ms_distinct",
    "ms_remove",
    "ms_remove_all",
    "ms_sub",
]
