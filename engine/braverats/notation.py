"""BraveRats in Kroniek's notation (``engine.notation``).

    2. round spy prince          both cards of a round: Red's, then Blue's
    3. Ann: play spion           one seat's card (Dutch names too)
    4. draw spy,wizard,unknown/prince,general,musician      variant B
    5. Bob: choose_variant A C   variant G: the loser picks the next game's variants

A card another seat drew or was dealt (variants B and E) that the exporting
view did not see is written ``unknown``, which the game accepts there.
"""

from ..notation import Syntax

SYNTAX = Syntax(
    positional={
        "round": ("*cards",),
        "exchange": ("*cards",),
        "draft": ("*cards",),
        "draw": ("cards",),
        "deal": ("hands",),
        "choose_variant": ("*variants",),
    },
    unknown_for_hidden=frozenset({"draw", "deal"}),
)
