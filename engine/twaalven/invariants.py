"""What holds in every Twaalven state the rules can reach (``Game.invariants``)."""

from __future__ import annotations

from typing import Any

from ..text import N_
from ..jogledor import invariants as J
from ..jogledor.cards import RANK
from .rules import FOURTEEN, TWELVE, TYPE

P = "twaalven."

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("Each of the 52 cards is in exactly one place: left in the tableau or in one pair "
    "a player took; the cards taken are the ones gone from the tops of the columns."),
    P + "pairs": N_("Every pair a player took is a pair of that player's own sum."),
    P + "winners": N_("Both players win together, or nobody does."),
}


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out = J.result_ok(game, s, P + "winners")
    if s.columns is None:
        if any(s.taken):
            out.append((P + "cards_conserved", "pairs were taken before the deal"))
        return out
    taken = [c for pairs in s.taken for pair in pairs for c in pair]
    out += J.tableau_accounted(s.columns, s.heights, taken, "pairs taken", P + "cards_conserved")
    if s.twelves is not None:
        for seat in (0, 1):
            kind = TWELVE if seat == s.twelves else FOURTEEN
            for a, b in s.taken[seat]:
                if TYPE[kind][RANK[a]][RANK[b]] < 0:
                    out.append((P + "pairs", f"seat {seat} took a pair that is not of {kind}"))
    elif any(s.taken):
        out.append((P + "pairs", "pairs were taken before the roles were fixed"))
    return out
