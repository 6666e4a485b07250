"""What holds in every BraveRats state the rules can reach
(``Game.invariants``). Checked by the worker's verdict and the property
tests, never by ``apply``."""

from __future__ import annotations

from typing import Any

from ..text import N_
from .state import DEAL, DRAFT

P = "braverats."

#: cards each seat plays a game with
HAND = 8

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("Each seat plays a game with 8 cards: those in its hand and draw pile, the ones it "
    "played in the game's rounds and the one face down now add up to 8 (once the cards are dealt)."),
    P + "hands": N_("What the log knows of a hand adds up: its unseen cards are the ones known to be its own plus "
    "those from the shared face-down pool, and no count is negative."),
    P + "score": N_("No score is negative."),
    P + "winners": N_("At most one winner, a seat of the match; a draw has none."),
}


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if s.phase not in (DRAFT, DEAL):
        for seat in (0, 1):
            h = s.hands[seat]
            played = sum(1 for r in s.rounds) + (s.pending[seat] is not None)
            if h.size + h.pile + played != HAND:
                out.append((P + "cards_conserved", f"seat {seat}: {h.size} in hand, {h.pile} in the draw pile and "
                            f"{played} played add up to {h.size + h.pile + played}, not {HAND}"))
    for seat, h in enumerate(s.hands):
        if min(h.unknown, h.pile, h.shared) < 0 or h.unknown + h.pile != len(h.own) + h.shared:
            out.append((P + "hands", f"seat {seat}: {h.unknown} unseen in hand and {h.pile} in the pile, for "
                        f"{len(h.own)} own and {h.shared} from the pool"))
    if sum(h.shared for h in s.hands) > len(s.pool):
        out.append((P + "hands", f"{sum(h.shared for h in s.hands)} cards drawn on a pool of {len(s.pool)}"))
    if min(s.score) < 0:
        out.append((P + "score", f"score {list(s.score)}"))
    result = game.result(s)
    if result is not None and (len(result.winners) > 1 or any(w not in (0, 1) for w in result.winners)
                               or (result.outcome == "draw") == bool(result.winners)):
        out.append((P + "winners", f"{result.outcome} with winners {list(result.winners)}"))
    return out
