"""What holds in every Sir Tommy state the rules can reach (``Game.invariants``)."""

from __future__ import annotations

from typing import Any

from ..text import N_
from ..jogledor import invariants as J
from ..jogledor.cards import RANK

P = "sir_tommy."

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("Every card drawn from the stock is in exactly one place: in front of the player to "
    "move, on a leftover row or on a foundation; no card is drawn twice."),
    P + "foundations": N_("The Aces' player builds each foundation up from an Ace, the other player down from a King, "
    "one rank at a time."),
    P + "rows": N_("There are four leftover rows."),
    P + "winners": N_("Both players win together, or nobody does."),
}


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out = J.result_ok(game, s, P + "winners")
    out += J.deck_once("drawn cards", {"order": s.order}, P + "cards_conserved", complete=False)
    placed = [*s.drawn, *(c for r in s.rows for c in r), *(c for seat in s.foundations for p in seat for c in p)]
    if sorted(placed) != sorted(s.order):
        out.append((P + "cards_conserved", f"{len(s.order)} cards drawn, {len(placed)} in front of the player, on "
                    "the rows and on the foundations, or not the same cards"))
    if len(s.rows) != 4:
        out.append((P + "rows", f"{len(s.rows)} leftover rows"))
    for seat in (0, 1):
        up = seat == s.up
        for p in s.foundations[seat]:
            ranks = [RANK[c] for c in p]
            want = list(range(1, len(p) + 1)) if up else list(range(13, 13 - len(p), -1))
            if ranks != want:
                out.append((P + "foundations", f"seat {seat}'s foundation holds ranks {ranks}"))
    return out
