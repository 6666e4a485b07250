"""What holds in every Ridder-toernooi state the rules can reach
(``Game.invariants``). Checked by the worker's verdict and the property
tests, never by ``apply``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..text import N_
from .state import ELIMINATED

P = "ridder_toernooi."

INVARIANTS: dict[str, str] = {
    P + "premiums_conserved": N_("Premiums are conserved: every knight's and lady's premiums are the premiums awarded "
    "to that card, and a day's premiums are part of the knight's premiums."),
    P + "never_negative": N_("No count is negative: wounds, premiums, training points, dice lost; a knight keeps at "
    "least one die and covers at most 2 fields per face."),
    P + "wounds": N_("A knight still in the tournament has fewer wounds than put it out (10)."),
    P + "kerchiefs": N_("A knight wears a lady's kerchief exactly when that lady's kerchief is on that knight."),
    P + "winners": N_("The winners are distinct seats."),
}

#: wounds that put a knight out of the tournament (``game.ELIMINATED_AT``)
OUT_AT = 10


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    awarded: Counter[str] = Counter()
    for card, k, _ in s.awards:
        awarded[card] += k
    for i, kn in enumerate(s.knights):
        card = s.cards.knights[kn.card].id
        if kn.premiums != awarded[card]:
            out.append((P + "premiums_conserved", f"knight {card} holds {kn.premiums} premiums, "
                        f"{awarded[card]} were awarded"))
        if not 0 <= kn.day_premiums <= kn.premiums:
            out.append((P + "premiums_conserved", f"knight {card}: {kn.day_premiums} premiums today of {kn.premiums}"))
        if kn.wounds < 0 or kn.premiums < 0 or kn.penalty < 0 or kn.dice < 1 or any(not 0 <= c <= 2 for c in kn.cover):
            out.append((P + "never_negative", f"knight {card}: wounds {kn.wounds}, premiums {kn.premiums}, dice "
                        f"{kn.dice}, penalty {kn.penalty}, cover {list(kn.cover)}"))
        if kn.status != ELIMINATED and kn.wounds >= OUT_AT and s.duel is None and s.ended is None:
            out.append((P + "wounds", f"knight {card} has {kn.wounds} wounds and is still in"))
        if kn.kerchief != -1 and not (0 <= kn.kerchief < len(s.ladies) and s.ladies[kn.kerchief].knight == i):
            out.append((P + "kerchiefs", f"knight {card} wears kerchief {kn.kerchief}, which is not on it"))
    for x, lady in enumerate(s.ladies):
        card = s.cards.ladies[lady.card].id
        if lady.premiums != awarded[card] or lady.premiums < 0:
            out.append((P + "premiums_conserved", f"lady {card} holds {lady.premiums} premiums, "
                        f"{awarded[card]} were awarded"))
        if lady.knight != -1 and not (0 <= lady.knight < len(s.knights) and s.knights[lady.knight].kerchief == x):
            out.append((P + "kerchiefs", f"lady {card}'s kerchief is on knight {lady.knight}, who does not wear it"))
    if any(p < 0 for p in s.points):
        out.append((P + "never_negative", f"training points {list(s.points)}"))
    if s.ended is not None:
        winners = tuple(s.ended[1])
        if len(set(winners)) != len(winners) or any(not 0 <= w < s.n for w in winners):
            out.append((P + "winners", f"winners {list(winners)}"))
    return out
