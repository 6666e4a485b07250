"""What holds in every Troje state the rules can reach (``Game.invariants``):
the base game's, with the scenario's totals (the support stack is a holder
of cards; with option revealed_cards removed a battle puts its cards out of
the game), and the scenario's own. Checked by the worker's verdict and the
property tests, never by ``apply``."""

from __future__ import annotations

from typing import Any

from ..text import N_
from ..catan import invariants as CI
from ..catan.pieces import OVER

P = "catan-troje."

INVARIANTS: dict[str, str] = {
    **CI.INVARIANTS,
    CI.P + "cards_conserved": N_("The resource cards are conserved: per resource, the bank, every hand and the "
    "support stack (as far as the log knows them) and, where revealed cards leave the game, the cards battles put "
    "out of the game hold the bank's size."),
    P + "trade_points": N_("Trade points are never negative."),
    P + "sides": N_("At most half the seats are known to be on each side (Troy, Mycenae)."),
    P + "winners": N_("The winners are distinct seats, named only when the match is over."),
}


def out_of_game(s: Any) -> tuple[int, ...]:
    """Cards the battles put out of the game (option revealed_cards removed)."""
    out = [0] * 5
    if not s.ext.tcfg.revealed_to_bank:
        for revealed, _ in s.ext.battles:
            out = [a + b for a, b in zip(out, revealed)]
    return tuple(out)


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out = CI.check(game, s, total=s.ext.tcfg.bank, gone=out_of_game(s))
    x = s.ext
    n = s.cfg.n
    if any(tp < 0 for tp in x.trade_points):
        out.append((P + "trade_points", f"trade points {list(x.trade_points)}"))
    for side in ("troy", "mycenae"):
        if sum(1 for a in x.allegiances if a == side) > n // 2:
            out.append((P + "sides", f"more than {n // 2} seats are on {side}'s side"))
    w = x.winners
    if len(set(w)) != len(w) or any(not 0 <= p < n for p in w) or (w and s.phase != OVER):
        out.append((P + "winners", f"winners {list(w)} in phase {game.phase_names[s.phase]}"))
    return out
