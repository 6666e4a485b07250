"""What holds in every Catan state the rules can reach (``Game.invariants``).

Checked by the worker's verdict after every event of a log and by the
property tests; never by ``apply`` (the reducer stays as fast as it is).
Each check reads only the state, so a scenario (Troje) reuses them with its
own totals: ``check(state, total=..., gone=...)``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..text import N_
from .pieces import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, STEAL

P = "catan."

INVARIANTS: dict[str, str] = {
    P + "cards_conserved": N_("The resource cards are conserved: per resource, the bank plus every hand (as far as "
    "the log knows it) holds the bank's size, and all of them together hold five times it."),
    P + "never_negative": N_("No count is negative: the bank, the known cards of a hand, the development deck, the "
    "cards to discard."),
    P + "hand_sizes": N_("Every viewer counts the same number of cards in a hand (a hand's size is public)."),
    P + "pieces": N_("Each player's settlements, cities and roads on the board are the ones the board shows, within "
    "5 settlements, 4 cities and 15 roads."),
    P + "dev_cards": N_("The development cards are conserved: the deck, the hands and the played cards hold at most "
    "the deck's size, and the cards the log has not seen are the deck's plus the unseen ones in hands."),
    P + "robber": N_("The robber is on a land hex of the board; a victim is named only while a steal is due."),
    P + "winners": N_("At most one winner, a seat of the match."),
}


def check(game: Any, s: Any, total: int | None = None, gone: tuple[int, ...] = (0, 0, 0, 0, 0),
          holders: int | None = None) -> list[tuple[str, str]]:
    """The invariants broken in ``s`` as (invariant id, what is wrong).
    ``total``: the cards of each resource (default the bank's size);
    ``gone``: cards out of the game per resource; ``holders``: how many rows
    of ``hands`` hold cards (default all of them)."""
    # Run after every event of every log the worker judges (two thirds of a Catan verdict's time, as first
    # written with a generator per count): each hand and each board list is walked once.
    out: list[tuple[str, str]] = []
    n = s.cfg.n
    ref = n + 1
    total = s.cfg.bank if total is None else total
    rows = s.hands if holders is None else s.hands[:holders]
    # conservation per resource and in all: what the referee's view of each hand holds at least and at most
    least = [s.bank[r] + gone[r] for r in range(5)]
    most = least[:]
    held = sum(s.bank) + sum(gone)
    for row in rows:
        hand = row[ref]
        for r, k in enumerate(hand.known):
            least[r] += k
            most[r] += k
        for mask, _ in hand.unseen:
            for r in range(5):
                if mask >> r & 1:
                    most[r] += 1
                    if mask == 1 << r:
                        least[r] += 1
        held += sum(hand.known) + len(hand.unseen)
    for r in range(5):
        if not least[r] <= total <= most[r]:
            out.append((P + "cards_conserved", f"resource {r}: bank {s.bank[r]} and hands hold {least[r]}–{most[r]} "
                        f"cards, not {total}"))
    if held != 5 * total:
        out.append((P + "cards_conserved", f"bank and hands hold {held} cards, not {5 * total}"))
    # never negative
    if any(b < 0 for b in s.bank):
        out.append((P + "never_negative", f"the bank holds {list(s.bank)}"))
    if s.deck < 0:
        out.append((P + "never_negative", f"the development deck holds {s.deck} cards"))
    if any(k < 0 for k in s.pending):
        out.append((P + "never_negative", f"cards to discard: {list(s.pending)}"))
    for p, row in enumerate(rows):
        for v, h in enumerate(row):
            if min(h.known) < 0:
                out.append((P + "never_negative", f"holder {p} as viewer {v} knows {list(h.known)}"))
                break
        sizes = {sum(h.known) + len(h.unseen) for h in row}
        if len(sizes) > 1:
            out.append((P + "hand_sizes", f"the viewers count {sorted(sizes)} cards in holder {p}'s hand"))
    # pieces
    bld, roads = s.buildings, s.roads
    buildings_of, roads_of = Counter(bld), Counter(roads)
    for p in range(n):
        b, c, r = s.built[p]
        on_board = (buildings_of[2 * p], buildings_of[2 * p + 1], roads_of[p])
        if (b, c, r) != on_board:
            out.append((P + "pieces", f"seat {p} is counted {(b, c, r)} pieces, the board shows {on_board}"))
        if not (0 <= b <= MAX_SETTLEMENTS and 0 <= c <= MAX_CITIES and 0 <= r <= MAX_ROADS):
            out.append((P + "pieces", f"seat {p} has {b} settlements, {c} cities and {r} roads"))
    if any(x >= 2 * n or x < -1 for x in buildings_of) or any(x >= n or x < -1 for x in roads_of):
        out.append((P + "pieces", "a piece on the board belongs to no seat"))
    # development cards
    deck_size = sum(s.cfg.deck)
    in_hands = sum(sum(s.dev[p][ref][0]) + s.dev[p][ref][1] for p in range(n))
    unseen = sum(s.dev[p][ref][1] for p in range(n))
    if any(k < 0 for p in range(n) for k in s.dev[p][ref][0]) or any(k < 0 for k in s.pools[ref]):
        out.append((P + "never_negative", "a development card count is negative"))
    if s.deck + in_hands + sum(s.knights) + sum(s.vp_shown) > deck_size:
        out.append((P + "dev_cards", f"deck {s.deck}, hands {in_hands} and played cards exceed the {deck_size} cards"))
    if s.deck + unseen != sum(s.pools[ref]):
        out.append((P + "dev_cards", f"the log has not seen {sum(s.pools[ref])} cards, but the deck holds {s.deck} "
                    f"and the hands {unseen} unseen"))
    # robber and victim
    if s.ext is None:  # a scenario may have no robber on land (Troje)
        if not 0 <= s.robber < len(s.topo.hexes):
            out.append((P + "robber", f"the robber is on hex {s.robber}"))
        if (s.phase == STEAL) != (0 <= s.victim < n):
            out.append((P + "robber", f"victim {s.victim} in phase {game.phase_names[s.phase]}"))
    # winners
    if not -1 <= s.winner < n:
        out.append((P + "winners", f"winner {s.winner} is no seat"))
    return out
