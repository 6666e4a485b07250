"""What holds in every Troubadour state the rules can reach
(``Game.invariants``). Checked by the worker's verdict and the property
tests, never by ``apply``."""

from __future__ import annotations

from typing import Any

from ..text import N_
from .state import DEAL, FACE_DOWN, ORDERED, UNORDERED, cons_list

P = "troubadour."

#: the building cards of one player's deck
CARDS = 40

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("Each player's 40 building cards are conserved: villages, castles, discard pile and "
    "draw pile hold 40 cards together, each card the log has located in one place only, and the cards it has "
    "not located are exactly as many as the unknown places."),
    P + "never_negative": N_("No pile or castle holds a negative number of cards; a castle holds at most its suit's "
    "10 cards."),
    P + "winners": N_("At most one winner, a seat of the match."),
}


def check(game: Any, s: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for seat, p in enumerate(s.players):
        located: list[int] = []
        unknown = 0
        for v in p.villages:
            for c in v:
                if c == FACE_DOWN:
                    unknown += 1
                else:
                    located.append(c)
        for suit, h in enumerate(p.castles):
            if not 0 <= h <= 10:
                out.append((P + "never_negative", f"seat {seat}'s castle {suit} holds {h} cards"))
            located.extend(range(suit * 10, suit * 10 + max(0, min(h, 10))))
        discard = cons_list(p.discard)
        if len(discard) != p.ndiscard:
            out.append((P + "cards_conserved", f"seat {seat}'s discard pile holds {len(discard)} cards, counted "
                        f"{p.ndiscard}"))
        located.extend(discard)
        in_draw = 0
        for kind, cards, hidden, k in p.draw:
            if k < 0 or hidden < 0:
                out.append((P + "never_negative", f"seat {seat}'s draw pile has a segment of {k} cards"))
            if kind == ORDERED:
                seg = cons_list(cards)
                if len(seg) != k:
                    out.append((P + "cards_conserved", f"seat {seat}'s draw pile: {len(seg)} cards counted {k}"))
                located.extend(seg)
            elif kind == UNORDERED:
                seg = [c for c in range(CARDS) if cards >> c & 1]
                if len(seg) + hidden != k:
                    out.append((P + "cards_conserved", f"seat {seat}'s draw pile: {len(seg)} known and {hidden} "
                                f"unknown cards counted {k}"))
                located.extend(seg)
                unknown += hidden
            in_draw += k
        if in_draw != p.ndraw:
            out.append((P + "cards_conserved", f"seat {seat}'s draw pile holds {in_draw} cards, counted {p.ndraw}"))
        total = sum(len(v) for v in p.villages) + sum(p.castles) + p.ndiscard + p.ndraw
        undealt = CARDS - total  # before the deal: the villages' face-up cards are still to come
        if undealt != 0 and not (s.phase == DEAL and undealt > 0):
            out.append((P + "cards_conserved", f"seat {seat} has {total} building cards, not {CARDS}"))
        if len(set(located)) != len(located) or any(not 0 <= c < CARDS for c in located):
            out.append((P + "cards_conserved", f"seat {seat}: a card is located in two places"))
        pool = [c for c in range(CARDS) if p.pool >> c & 1]
        if set(pool) & set(located):
            out.append((P + "cards_conserved", f"seat {seat}: a located card is also among the unlocated ones"))
        if len(pool) != unknown + max(undealt, 0):
            out.append((P + "cards_conserved", f"seat {seat}: {len(pool)} cards not located for {unknown} unknown "
                        "places"))
    if s.winner is not None and not 0 <= s.winner < s.n:
        out.append((P + "winners", f"winner {s.winner} is no seat"))
    return out
