"""The immutable state of a BraveRats match (one game, or a series in variant G).

Cards are stored as their values 0–7; the canonical names live in the log and
the views. States are frozen dataclasses of tuples: ``evolve`` builds the next
state without copying anything but the changed fields.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from ..primitives import HiddenHand
from .resolve import Flags

#: phases of a match
DRAFT, DEAL, EXCHANGE, DRAW, PLAY, CHOOSE, OVER = "draft", "deal", "exchange", "draw", "play", "choose", "over"

#: why a game ended
BY_PRINCESS, BY_ROUNDS, BY_CARDS = "princess", "rounds", "cards"


@dataclass(frozen=True)
class Config:
    """What stays the same for the whole match (from the options)."""

    flags: Flags = Flags()
    series: bool = False  # variant G
    series_draw: str = "replay"
    names: tuple[str, ...] = ()  # the players' names, for reviews and results


class Spec(NamedTuple):
    """The set-up of one game: its variants (letters A–F) and who does what."""

    variants: tuple[str, ...] = ()
    attack_seat: int = 0  # F: the seat that gives up its Prince for the other's Princess
    draft_first: int = 0  # D: the seat that draws the first 4 cards

    @property
    def target(self) -> int:
        return 3 if "C" in self.variants else 4

    @property
    def hands_hidden(self) -> bool:
        """Whether a hand is secret from the other seat (B, D, E); otherwise
        both hands are common knowledge (the same 8 cards, all exchanges seen)."""
        return "B" in self.variants or "D" in self.variants or "E" in self.variants


class Round(NamedTuple):
    """A resolved round: the cards, the General bonuses in force, held rounds before it."""

    cards: tuple[int, int]
    bonus: tuple[bool, bool]
    held_before: int


class GameRecord(NamedTuple):
    """A finished game of a series."""

    winner: int | None
    score: tuple[int, int]
    reason: str
    variants: tuple[str, ...]
    rounds: tuple[Round, ...]


EMPTY_HAND = HiddenHand()


@dataclass(frozen=True)
class State:
    cfg: Config
    spec: Spec
    phase: str
    hands: tuple[HiddenHand, HiddenHand] = (EMPTY_HAND, EMPTY_HAND)
    pool: tuple[int, ...] = ()  # cards dealt face down whose owner is unknown (E, physical)
    deck: tuple[int, ...] = ()  # D: cards not yet drawn for the draft
    offer: tuple[int, ...] = ()  # D: cards on offer to the seat that picks now
    score: tuple[int, int] = (0, 0)  # rounds won in the current game
    held: int = 0  # rounds on hold now
    bonus: tuple[bool, bool] = (False, False)  # General +2 in the coming round
    spy_first: int | None = None  # seat that must play first, face up, this round
    pending: tuple[int | None, int | None] = (None, None)  # face-down plays of this round
    rounds: tuple[Round, ...] = ()  # resolved rounds of the current game
    ended: tuple[int | None, str] | None = None  # (winner or None, reason) of the current game
    games: tuple[GameRecord, ...] = ()  # G: finished games
    chooser: int | None = None  # G: the seat that chooses the next game's variants

    # -- derived ----------------------------------------------------------------
    @property
    def game_no(self) -> int:
        """G: the number of the game being played (or about to be chosen)."""
        return len(self.games) + (0 if self.phase == OVER and self.cfg.series else 1)

    @property
    def draft_draws(self) -> int:
        """How many sets of 4 have been drawn for the draft so far."""
        return (16 - len(self.deck)) // 4

    @property
    def drafter(self) -> int:
        """D: the seat that drew (or draws next) the current 4 cards."""
        n = self.draft_draws - (1 if self.offer else 0)
        return self.spec.draft_first ^ (n & 1)

    @property
    def picker(self) -> int | None:
        """D: the seat that picks from the offer now."""
        if not self.offer:
            return None
        return self.drafter if len(self.offer) in (4, 2) else 1 - self.drafter


_FIELDS = tuple(f.name for f in fields(State))


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-running ``__init__``: the apply path
    creates a state per event, and this is several times faster. The result is
    as frozen as any other State."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    return new


# -- snapshots ---------------------------------------------------------------------

def encode(state: State) -> dict[str, Any]:
    cfg = state.cfg
    return {
        "cfg": {
            "flags": list(cfg.flags), "series": cfg.series, "series_draw": cfg.series_draw, "names": list(cfg.names)
        },
        "spec": [list(state.spec.variants), state.spec.attack_seat, state.spec.draft_first],
        "phase": state.phase,
        "hands": [h.encode() for h in state.hands],
        "pool": list(state.pool),
        "deck": list(state.deck),
        "offer": list(state.offer),
        "score": list(state.score),
        "held": state.held,
        "bonus": list(state.bonus),
        "spy_first": state.spy_first,
        "pending": list(state.pending),
        "rounds": _encode_rounds(state.rounds),
        "ended": list(state.ended) if state.ended is not None else None,
        "games": [[g.winner, list(g.score), g.reason, list(g.variants), _encode_rounds(g.rounds)] for g in state.games],
        "chooser": state.chooser,
    }


def decode(obj: dict[str, Any]) -> State:
    c = obj["cfg"]
    variants, attack_seat, draft_first = obj["spec"]
    return State(
        cfg=Config(
            flags=Flags(*c["flags"]), series=c["series"], series_draw=c["series_draw"], names=tuple(c.get("names", ()))
        ),
        spec=Spec(tuple(variants), attack_seat, draft_first),
        phase=obj["phase"],
        hands=tuple(HiddenHand.decode(h) for h in obj["hands"]),  # type: ignore[arg-type]
        pool=tuple(obj["pool"]),
        deck=tuple(obj["deck"]),
        offer=tuple(obj["offer"]),
        score=tuple(obj["score"]),  # type: ignore[arg-type]
        held=obj["held"],
        bonus=tuple(obj["bonus"]),  # type: ignore[arg-type]
        spy_first=obj["spy_first"],
        pending=tuple(obj["pending"]),  # type: ignore[arg-type]
        rounds=_decode_rounds(obj["rounds"]),
        ended=tuple(obj["ended"]) if obj["ended"] is not None else None,  # type: ignore[arg-type]
        games=tuple(
            GameRecord(w, tuple(s), r, tuple(v), _decode_rounds(rounds))  # type: ignore[arg-type]
            for w, s, r, v, rounds in obj["games"]
        ),
        chooser=obj["chooser"],
    )


def _encode_rounds(rounds: tuple[Round, ...]) -> list[Any]:
    return [[list(r.cards), list(r.bonus), r.held_before] for r in rounds]


def _decode_rounds(obj: list[Any]) -> tuple[Round, ...]:
    return tuple(Round(tuple(cards), tuple(bonus), held) for cards, bonus, held in obj)  # type: ignore[arg-type]
