"""The immutable state of a Troubadour match.

Everything is a tuple (NamedTuples and plain tuples of small ints) so an event
builds only the few small tuples it changes and shares the rest with the state
before it: no deck is ever copied whole.

What the log knows about a player's cards (his own deck of 40):

- ``villages``: five tuples, bottom card first; ``FACE_DOWN`` (-1) is a card
  lying face down, whose identity nobody at the table has seen.
- ``castles``: four heights, one per suit (S, D, C, H): a castle is always
  ace…n of its suit, so its height says everything.
- ``discard``: the discard pile as a linked list ``(top, rest)`` (``None`` when
  empty), so turning a card onto it and taking the top are O(1).
- ``draw``: the draw pile as segments, top segment first:
  ``(ORDERED, linked list top first, 0, n)`` for a turned-over discard pile
  (its order is known) and ``(UNORDERED, known mask, unknown count, n)`` for
  the shuffled deal and for cards an attack put under the pile (known as a set).
- ``pool``: a bitmask of the cards the log has not located: exactly the cards
  that fill the unknown places (face-down village cards and the unknown cards
  of unordered segments). A card turned face up from an unknown place must be
  in the pool; the places are exchangeable, so any card of the pool can be in
  any of them, and the check is exact.
"""

from __future__ import annotations

from typing import Any, NamedTuple

FACE_DOWN = -1
ORDERED, UNORDERED = 0, 1

#: phases
DEAL, CHOOSE, TIE, PLAY, OVER = range(5)
PHASE_NAMES = ("deal", "choose", "tie", "play", "over")

#: what a pending run of turned cards is for (Turn.flip[0]); EXTRA is one extra card
#: of the clubs queen/king (the player turns each one with extra_draw / extra_card)
STD, JACK, EXTRA, NAMED = range(4)
FLIP_NAMES = ("standard turn-over", "clubs jack", "extra cards", "hearts queen+king")


class Player(NamedTuple):
    villages: tuple[tuple[int, ...], ...]
    castles: tuple[int, int, int, int]
    discard: Any  # linked list (top, rest) or None
    ndiscard: int
    draw: tuple[tuple[int, Any, int, int], ...]
    ndraw: int
    pool: int


class Turn(NamedTuple):
    """The turn in progress."""

    used: int = 0  # bitmask of the nobles that have exerted their power
    std: bool = False  # the standard turn-over has been done (or replaced by hearts queen+king)
    flip: tuple[int, int] | None = None  # (mode, argument) while cards are still to be turned
    hq_ace: tuple[int, int] | None = None  # (village, slot) of an ace just turned by the hearts queen
    flipped: int = 0  # cards turned this turn (for the annotations)
    extra: int = 0  # extra cards of the clubs queen/king still to be turned, one at a time (extra_card)


NO_TURN = Turn()


class State(NamedTuple):
    n: int
    tie_break: str  # "die" | "nobles"
    turn_order: str  # "rank" | "clockwise"
    phase: int
    round: int
    players: tuple[Player, ...]
    secret: tuple[Any, ...]  # per seat: the pending secret pick (trio tuple / noble int) or None
    trios: tuple[tuple[int, int, int], ...] | None  # this round's revealed trios (sorted)
    reveals: tuple[tuple[Any, ...], ...]  # every completed secret reveal: per seat its pick (or None)
    order: tuple[tuple[int, ...], ...]  # turn order as slots; a slot of several seats is an unresolved tie
    pos: int  # index in ``order`` of the player to move
    turn: Turn
    due: tuple[tuple[int, int, int, bool], ...]  # face-down village cards to turn up: (seat, village, slot, by hearts queen)
    winner: int | None
    start_castles: tuple[int, ...]  # castle cards per player when this round's turns began
    names: tuple[str, ...] = ()  # the players' names, for descriptions
    protected_attack: str = "stopped"  # option: an attack on a protected player is "stopped" or "refused"

    @property
    def current(self) -> int | None:
        if self.phase != PLAY:
            return None
        return self.order[self.pos][0]


# -- linked lists -------------------------------------------------------------------

# -- where a card fits (pure rules over the state, for the engine, its reviews and bots) --
def fits_castle(castles: tuple[int, ...], c: int) -> bool:
    return castles[c // 10] == c % 10


def fits_on(top: int, c: int) -> bool:
    """Whether ``c`` may go on a village whose top card is ``top``."""
    return top >= 0 and top % 10 == c % 10 + 1 and ((top // 10) ^ (c // 10)) & 1 == 1


def fits_village(villages: tuple[tuple[int, ...], ...], c: int) -> bool:
    for v in villages:
        if not v or fits_on(v[-1], c):
            return True
    return False


def fits(p: Player, c: int) -> bool:
    return fits_castle(p.castles, c) or fits_village(p.villages, c)


def run_start(v: tuple[int, ...]) -> int:
    """Index of the lowest card of the run at the top of village ``v`` (len(v) when empty)."""
    i = len(v) - 1
    if i < 0 or v[i] < 0:
        return len(v)
    while i > 0:
        below, above = v[i - 1], v[i]
        if below < 0 or not fits_on(below, above):
            break
        i -= 1
    return i


def cons_from(seq: Any) -> Any:
    """Linked list whose head is ``seq[0]``."""
    out = None
    for x in reversed(list(seq)):
        out = (x, out)
    return out


def cons_list(lst: Any) -> list[int]:
    out = []
    while lst is not None:
        out.append(lst[0])
        lst = lst[1]
    return out


def cons_reversed(lst: Any) -> Any:
    out = None
    while lst is not None:
        out = (lst[0], out)
        lst = lst[1]
    return out


# -- snapshots ------------------------------------------------------------------------

def _enc_player(p: Player) -> list[Any]:
    draw = [[k, cons_list(a) if k == ORDERED else a, b, n] for k, a, b, n in p.draw]
    return [[list(v) for v in p.villages], list(p.castles), cons_list(p.discard), p.ndiscard, draw, p.ndraw, p.pool]


def _dec_player(obj: list[Any]) -> Player:
    villages, castles, discard, ndiscard, draw, ndraw, pool = obj
    return Player(
        tuple(tuple(v) for v in villages),
        tuple(castles),  # type: ignore[arg-type]
        cons_from(discard),
        ndiscard,
        tuple((k, cons_from(a) if k == ORDERED else a, b, n) for k, a, b, n in draw),
        ndraw,
        pool,
    )


def _enc_pick(x: Any) -> Any:
    return list(x) if isinstance(x, tuple) else x


def _dec_pick(x: Any) -> Any:
    return tuple(x) if isinstance(x, list) else x


def encode(s: State) -> dict[str, Any]:
    t = s.turn
    return {
        "n": s.n,
        "tie_break": s.tie_break,
        "turn_order": s.turn_order,
        "phase": s.phase,
        "round": s.round,
        "players": [_enc_player(p) for p in s.players],
        "secret": [_enc_pick(x) for x in s.secret],
        "trios": None if s.trios is None else [list(t3) for t3 in s.trios],
        "reveals": [[_enc_pick(x) for x in r] for r in s.reveals],
        "order": [list(slot) for slot in s.order],
        "pos": s.pos,
        "turn": [t.used, t.std, list(t.flip) if t.flip else None, list(t.hq_ace) if t.hq_ace else None, t.flipped, t.extra],
        "due": [list(d) for d in s.due],
        "winner": s.winner,
        "start_castles": list(s.start_castles),
        "names": list(s.names),
        "protected_attack": s.protected_attack,
    }


def decode(obj: dict[str, Any]) -> State:
    used, std, flip, hq_ace, flipped, extra = obj["turn"]
    return State(
        n=obj["n"],
        tie_break=obj["tie_break"],
        turn_order=obj["turn_order"],
        phase=obj["phase"],
        round=obj["round"],
        players=tuple(_dec_player(p) for p in obj["players"]),
        secret=tuple(_dec_pick(x) for x in obj["secret"]),
        trios=None if obj["trios"] is None else tuple(tuple(t3) for t3 in obj["trios"]),  # type: ignore[misc]
        reveals=tuple(tuple(_dec_pick(x) for x in r) for r in obj["reveals"]),
        order=tuple(tuple(slot) for slot in obj["order"]),
        pos=obj["pos"],
        turn=Turn(used, std, tuple(flip) if flip else None, tuple(hq_ace) if hq_ace else None, flipped, extra),  # type: ignore[arg-type]
        due=tuple(tuple(d) for d in obj["due"]),  # type: ignore[misc]
        winner=obj["winner"],
        start_castles=tuple(obj["start_castles"]),
        names=tuple(obj.get("names", ())),
        protected_attack=obj.get("protected_attack", "stopped"),
    )
