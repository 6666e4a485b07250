"""What holds in every Stapelen state the rules can reach (``Game.invariants``)."""

from __future__ import annotations

from typing import Any

from ..text import N_
from ..jogledor import invariants as J
from ..jogledor.cards import RANK
from .rules import succ

P = "stapelen."

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("Each of the 52 cards is in exactly one place: left in the tableau or on one "
    "foundation; the cards on the foundations are the ones gone from the tops of the columns."),
    P + "foundations": N_("Every foundation is built in sequence: each card one rank higher than the card below it "
    "(an Ace on a King)."),
    P + "winners": N_("Both players win together, or nobody does."),
}


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out = J.result_ok(game, s, P + "winners")
    piles = [p for seat in s.foundations for p in seat]
    for p in piles:
        if any(RANK[b] != succ(RANK[a]) for a, b in zip(p, p[1:])):
            out.append((P + "foundations", f"a foundation is out of sequence: {list(p)}"))
    built = [c for p in piles for c in p]
    if s.columns is None:
        if built:
            out.append((P + "cards_conserved", "cards were built before the deal"))
        return out
    out += J.tableau_accounted(s.columns, s.heights, built, "foundations", P + "cards_conserved")
    return out
