"""Players for simulated matches: pure functions ``choose(state, seat, rng) -> Move``.

- ``random``: a uniformly random legal move.
- ``greedy``: turns up its face-down village tops, builds whatever fits a
  castle, digs through its villages and discard pile, turns every card its
  nobles allow (using each extra card of the clubs queen/king before turning
  the next), attacks the leader and protects what is at risk.

Both only read what the seat could know at the table (its own choice, the
revealed trios, face-up cards, counts): they never look at the unseen pool or at
the order of a turned-over draw pile.
"""

from __future__ import annotations

import random
from typing import Callable

from ..core import Move
from .cards import CARD_IDS, JC, JD, JH, JS, KC, KD, KH, KS, NOBLE_IDS, QC, QD, QH, QS, SUITS
from .game import Troubadour
from .state import CHOOSE, FACE_DOWN, PLAY, TIE, State, fits_castle, fits_on, run_start

Bot = Callable[[State, int, random.Random], Move]

_GAME = Troubadour()


def random_bot(state: State, seat: int, rng: random.Random) -> Move:
    moves = _GAME.legal_moves(state, seat)
    return rng.choice(moves)


# -- greedy ------------------------------------------------------------------------

SPEED_TRIOS = ((JC, QC, KC), (JC, QC, QH), (JC, QC, JH), (JC, QC, KC))


def _trio_move(state: State, seat: int, trio: tuple[int, ...]) -> Move:
    return Move("choose", seat, {"nobles": [NOBLE_IDS[x] for x in sorted(trio)], "reveal": len(state.reveals)})


def greedy_nobles(state: State, seat: int, rng: random.Random) -> tuple[int, ...]:
    me = state.players[seat]
    mine = sum(me.castles)
    others = [(sum(q.castles), max(q.castles), o) for o, q in enumerate(state.players) if o != seat]
    lead_cards, lead_top, _ = max(others)
    face_down = sum(1 for v in me.villages for c in v if c == FACE_DOWN)
    if lead_top >= 6 or (lead_cards >= 16 and lead_cards >= mine + 6):
        return (JS, QS, KS)  # attack the leader's castles
    if max(me.castles) >= 6 or mine >= 18:
        pick = [KD, JC, QC]  # protect the castles, keep the speed
        if face_down and rng.random() < 0.5:
            pick[2] = QH
        return tuple(pick)
    trio = list(rng.choice(SPEED_TRIOS))
    if face_down >= 3 and QH not in trio:
        trio[2] = QH
    elif not face_down and rng.random() < 0.3:
        trio = [JC, QH, KH]  # nothing face down: queen+king of hearts can name a card
    return tuple(trio)


def greedy_bot(state: State, seat: int, rng: random.Random) -> Move:
    ph = state.phase
    if ph == CHOOSE:
        return _trio_move(state, seat, greedy_nobles(state, seat, rng))
    if ph == TIE:
        trio = state.trios[seat]  # type: ignore[index]
        return Move("counter_pick", seat, {"noble": NOBLE_IDS[rng.choice([x for x in range(12) if x not in trio])], "reveal": len(state.reveals)})
    if ph != PLAY:
        return random_bot(state, seat, rng)
    return _greedy_turn(state, seat, rng)


def _build(c: int, to, hearts_jack: bool = False) -> dict:
    d = {"card": CARD_IDS[c], "to": to}
    if hearts_jack:
        d["hearts_jack"] = True
    return d


def _greedy_turn(state: State, seat: int, rng: random.Random) -> Move:
    p = state.players[seat]
    t = state.turn
    trio = state.trios[seat]  # type: ignore[index]
    free = ((1 << trio[0]) | (1 << trio[1]) | (1 << trio[2])) & ~t.used
    villages, castles = p.villages, p.castles
    if t.hq_ace is not None:
        v, slot = t.hq_ace
        return Move("build", seat, _build(villages[v][slot], "castle"))
    # 0. a face-down card on top of a village (left by a build or an opponent's spades queen): turn it up
    for v, village in enumerate(villages):
        if village and village[-1] == FACE_DOWN:
            return Move("turn_top", seat, {"village": v + 1})
    # 1. whatever fits a castle
    top = p.discard[0] if p.discard is not None else -1
    if top >= 0 and castles[top // 10] == top % 10:
        return Move("build", seat, _build(top, "castle"))
    for village in villages:
        if village:
            c = village[-1]
            if c >= 0 and castles[c // 10] == c % 10:
                return Move("build", seat, _build(c, "castle"))
    if free >> JH & 1:
        for village in villages:
            for c in village[:-1]:
                if c >= 0 and castles[c // 10] == c % 10:
                    return Move("build", seat, _build(c, "castle", True))
    # 2. digging: free a castle card or a face-down card under a run
    empty = -1
    for w in range(5):
        if not villages[w]:
            empty = w
            break
    for v in range(5):
        village = villages[v]
        if len(village) < 2:
            continue
        i = run_start(village)
        if i == 0:
            continue
        below = village[i - 1]
        if below == FACE_DOWN or castles[below // 10] == below % 10:
            c = village[i]
            for w in range(5):
                if w != v and villages[w] and fits_on(villages[w][-1], c):
                    return Move("build", seat, _build(c, w + 1))
            if empty >= 0:
                return Move("build", seat, _build(c, empty + 1))
    # 3. the discard pile onto the villages
    if top >= 0:
        for w in range(5):
            if villages[w] and fits_on(villages[w][-1], top):
                return Move("build", seat, _build(top, w + 1))
        if empty >= 0 and (top % 10 >= 6 or _wanted_below(p.discard[1], castles)):
            return Move("build", seat, _build(top, empty + 1))
    # 4. turn cards
    cards_left = p.ndraw + p.ndiscard
    if not t.std and cards_left:
        if free >> QH & 1 and free >> KH & 1 and not any(c == FACE_DOWN for v in villages for c in v):
            nameable = set(Troubadour.nameable(p))
            wanted = [c for c in (s * 10 + castles[s] for s in range(4) if castles[s] < 10) if c in nameable]
            if wanted:
                return Move("name_card", seat, {"card": CARD_IDS[rng.choice(wanted)]})
        return Move("turn_over", seat, {"clubs_jack": bool(free >> JC & 1)})
    if t.extra and cards_left:
        # the clubs queen/king turn their cards one at a time: the one just turned was used above
        return Move("extra_card", seat, {})
    if t.std and cards_left:
        if free >> QC & 1:
            return Move("extra_draw", seat, {"power": "QC"})
        if free >> KC & 1 and any(JC in state.trios[o] or QC in state.trios[o] for o in range(state.n) if o != seat):  # type: ignore[index]
            return Move("extra_draw", seat, {"power": "KC"})
    if free >> QH & 1 and not (free >> KH & 1 and not t.std):
        best = None
        for v, village in enumerate(villages):
            if FACE_DOWN in village and (best is None or len(village) > best[2]):
                downs = [i for i, c in enumerate(village) if c == FACE_DOWN]
                best = (v, downs[-1], len(village))
        if best is not None:
            return Move("hearts_queen", seat, {"village": best[0] + 1, "slot": best[1] + 1})
    # 5. attack the leader
    if free & ((1 << JS) | (1 << QS)):
        attack = _attack(state, seat, {nb for nb in trio if free >> nb & 1})
        if attack is not None:
            return attack
    if state.round > 40 and rng.random() < 0.25:
        # a long game may be stuck in a cycle of known cards: shake it with a random build
        builds = Troubadour.build_moves(p, False)
        if builds:
            return Move("build", seat, rng.choice(builds))
    return Move("end_turn", seat, {})


def _wanted_below(lst, castles) -> bool:
    """Whether a card the player saw go onto his discard pile (below its top) fits a castle."""
    while lst is not None:
        if fits_castle(castles, lst[0]):
            return True
        lst = lst[1]
    return False


def _attack(state: State, seat: int, free: set[int]) -> Move | None:
    others = sorted(((sum(q.castles), o) for o, q in enumerate(state.players) if o != seat), reverse=True)
    for _, o in others:
        q = state.players[o]
        guard = state.trios[o]  # type: ignore[index]
        if JS in free and QS in free and KS in free and KD not in guard:
            h = max(q.castles)
            if h >= 3:
                return Move("attack", seat, {"power": "JQKS", "target": o, "castle": SUITS[q.castles.index(h)]})
        if JS in free and JD not in guard and not (QS in free and KS in free and max(q.castles) >= 3 and KD not in guard):
            sizes = [len(v) for v in q.villages]
            if max(sizes) >= 2:
                return Move("attack", seat, {"power": "JS", "target": o, "village": sizes.index(max(sizes)) + 1})
        if QS in free and QD not in guard and sum(1 for v in q.villages if v) >= 3 and not (JS in free and KS in free):
            return Move("attack", seat, {"power": "QS", "target": o})
    return None


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}
