"""Stapelen (Jogledor, P.D. de Jong, 2014): two players clear an open 13×4
tableau together, in strict turns, each building his own three foundations
one higher at a time, King→Ace wrapping, no length limit. A player who cannot
move loses the game for both. See docs/games/stapelen.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..core import CHANCE, EventType, MalformedEvent, Move, RuleViolation, titled
from ..core import titled_nl
from ..jogledor.cards import CARD_IDS, CARD_SCHEMA, DUTCH_RANKS, RANK, card_name, parse_card, rank_name
from ..jogledor.game import JogledorGame, data_schema, note, options, seat_option, who as _who, who_nl, with_outcome
from ..jogledor.tableau import (
    COLUMNS,
    DEAL_EVENT,
    Columns,
    column_of_top,
    columns_of,
    deal_move,
    normalize_deal,
    view_columns,
    where,
)
from . import invariants as INV
from . import scene as _scene
from .rules import RULES, TERMS, succ

DEAL, PLAY, OVER = "deal", "play", "over"
Piles = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
EMPTY_PILES: Piles = ((), (), ())



def over_text(state: State, nl: bool = False) -> str:
    """How the game ended, in English or Dutch, from the state it ended in:
    every card on the foundations, or the player to move stuck (however the
    partner stands: the rule is strict)."""
    if not state.left:
        return ("alle 52 kaarten liggen op de fundamenten: beide spelers winnen" if nl
                else "all 52 cards are on the foundations: both players win")
    mover = state.turn_seat
    partner = can_move(state, 1 - mover)
    if nl:
        reason = (f"{who_nl(state, mover)} kan geen bovenste kaart op de eigen fundamenten leggen (bovenste kaarten "
                  + ", ".join(DUTCH_RANKS[t - 1] for t in state.tops(mover))
                  + f") met {state.left} kaart(en) over: beide spelers verliezen")
        if partner:
            reason += f" (de regel is streng: dat {who_nl(state, 1 - mover)} had kunnen spelen, helpt niet)"
        return reason
    reason = (f"{_who(state, mover)} cannot put any top card on their own foundations (tops "
              + ", ".join(rank_name(t) for t in state.tops(mover))
              + f") with {state.left} card(s) left: both players lose")
    if partner:
        reason += f" (the rule is strict: that {_who(state, 1 - mover)} could have played does not help)"
    return reason


@dataclass(frozen=True)
class State:
    columns: Columns | None = None
    heights: tuple[int, ...] = (4,) * COLUMNS
    #: the seat that starts
    first: int = 0
    #: each seat's three foundations, bottom to top
    foundations: tuple[Piles, Piles] = (EMPTY_PILES, EMPTY_PILES)
    over: tuple[str, str] | None = None
    #: the players' names, for reviews and results
    names: tuple[str, ...] = ()

    @property
    def phase(self) -> str:
        if self.over is not None:
            return OVER
        return DEAL if self.columns is None else PLAY

    @property
    def left(self) -> int:
        return sum(self.heights)

    @property
    def to_move(self) -> int | None:
        if self.phase != PLAY:
            return None
        return self.turn_seat

    @property
    def turn_seat(self) -> int:
        """Whose turn the cards taken say it is, over or not (who was stuck at the end)."""
        return self.first if (52 - self.left) % 2 == 0 else 1 - self.first

    def top(self, c: int) -> int | None:
        h = self.heights[c]
        return self.columns[c][h - 1] if (self.columns is not None and h) else None

    def tops(self, seat: int) -> tuple[int, int, int]:
        """The rank on top of each of the seat's foundations (0: empty)."""
        return tuple(RANK[p[-1]] if p else 0 for p in self.foundations[seat])  # type: ignore[return-value]


def fits(tops: tuple[int, ...], rank: int) -> list[int]:
    """The foundations (0-based) a card of ``rank`` may go on."""
    return [i for i, t in enumerate(tops) if t == 0 or succ(t) == rank]


def moves_for(state: State, seat: int) -> list[tuple[int, int]]:
    """(column, foundation) for every legal take of ``seat``; equivalent
    foundations (the same top, or all empty) are listed once, the first."""
    tops = state.tops(seat)
    out = []
    for c in range(COLUMNS):
        card = state.top(c)
        if card is None:
            continue
        seen = set()
        for i in fits(tops, RANK[card]):
            if tops[i] not in seen:
                seen.add(tops[i])
                out.append((c, i))
    return out


def can_move(state: State, seat: int) -> bool:
    tops = state.tops(seat)
    if 0 in tops:
        return True
    wanted = {succ(t) for t in tops}
    return any((card := state.top(c)) is not None and RANK[card] in wanted for c in range(COLUMNS))


class Stapelen(JogledorGame):
    id = "stapelen"
    name = "Stapelen"
    #: all 52 cards lie face up
    hidden_information = False
    summary = (
        "Cooperative patience for two (Jogledor): clear an open 13×4 tableau together, one card a turn onto "
        "your own three foundations, one higher each time, King→Ace wrapping; whoever cannot move loses for both."
    )
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset()

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    terms = TERMS

    options_schema = options(first_seat=seat_option("The seat that starts (it has no influence on the game)."))
    options_schema = titled(options_schema, first_seat="Who starts")
    # the pages in Dutch (docs/ui.md, "Languages"): the options, the summary and the moves in the rules text's words
    options_schema = titled_nl(
        options_schema,
        first_seat="Wie begint")
    summary_nl = ("Coöperatief patience voor twee (Jogledor): ruim samen een open tableau van 13×4 op, elke beurt één "
                  "kaart op je eigen drie fundamenten, telkens één hoger, van Koning door naar Aas; wie niet meer kan, "
                  "verliest voor beiden.")

    event_types = {
        "deal": DEAL_EVENT,
        "take": EventType(
            "take",
            "seat",
            data_schema(
                {
                    "column": {"type": "integer", "minimum": 1, "maximum": 13, "description": "1–13 from the left"},
                    "card": CARD_SCHEMA,
                    "foundation": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 3,
                        "description": "which of the mover's own foundations (1–3); may be left out when every "
                        "foundation the card fits is alike",
                    },
                },
                anyOf=[{"required": ["column"]}, {"required": ["card"]}],
            ),
            "The player to move takes a top card and puts it on one of his own foundations. Stored with column, "
            "card and foundation.",
            aliases=("pakken",),
        ),
    }

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        return State(first=options.get("first_seat", 0), names=tuple(players))

    def actors(self, state: State) -> tuple[Any, ...]:
        phase = state.phase
        if phase == DEAL:
            return (CHANCE,)
        if phase == PLAY:
            return (state.to_move,)
        return ()

    # -- normalize --------------------------------------------------------------------
    def normalize(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if type == "deal":
            return normalize_deal(self.id, data, "stapelen.deck")
        if type == "take":
            return self._normalize_take(state, seat, data)
        raise MalformedEvent(f"unknown event type {type!r}", field="type")

    def _normalize_take(self, state: State, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if state.columns is None:
            raise RuleViolation("stapelen.tableau", "no cards have been dealt yet")
        c: int | None = None
        if "column" in data:
            c = data["column"] - 1
            if not state.heights[c]:
                raise RuleViolation("stapelen.no_moving", f"column {c + 1} is empty (an empty column stays empty)")
        if "card" in data:
            card = parse_card(data["card"], "card")
            found = column_of_top(state.columns, state.heights, card)
            if found is None:
                at = where(state.columns, state.heights, card)
                if at is None:
                    raise RuleViolation("stapelen.top_cards", f"the {card_name(card)} is no longer on the tableau")
                raise RuleViolation(
                    "stapelen.top_cards",
                    f"the {card_name(card)} lies in column {at[0] + 1} under {at[1]} card(s); only top cards can be taken",
                )
            if c is not None and c != found:
                raise RuleViolation(
                    "stapelen.top_cards",
                    f"the top card of column {c + 1} is the {card_name(state.top(c))}, not the {card_name(card)}",  # type: ignore[arg-type]
                )
            c = found
        assert c is not None
        card = state.top(c)
        assert card is not None
        if "foundation" in data:
            f = data["foundation"]
        else:
            mover = seat if seat in (0, 1) else state.to_move
            tops = state.tops(mover)  # type: ignore[arg-type]
            options = fits(tops, RANK[card])
            if not options:
                self._refuse(state, mover, card, None)  # type: ignore[arg-type]
            if len({tops[i] for i in options}) > 1:
                raise MalformedEvent(
                    f"say which foundation: the {card_name(card)} fits "
                    + " and ".join(f"foundation {i + 1} ({'empty' if not tops[i] else 'on a ' + rank_name(tops[i])})" for i in options),
                    field="foundation",
                )
            f = options[0] + 1
        return {"column": c + 1, "card": CARD_IDS[card], "foundation": f}

    def _refuse(self, state: State, seat: int, card: int, f: int | None) -> None:
        rank = RANK[card]
        tops = state.tops(seat)
        partner = state.tops(1 - seat)
        if not fits(tops, rank) and fits(partner, rank):
            raise RuleViolation(
                "stapelen.own_foundation",
                f"the {card_name(card)} fits none of {_who(state, seat)}'s own foundations (tops "
                + ", ".join(rank_name(t) if t else "empty" for t in tops)
                + f"); that it fits {_who(state, 1 - seat)}'s does not help: a player builds only on his own",
            )
        if f is None:
            raise RuleViolation(
                "stapelen.build_up",
                f"the {card_name(card)} fits none of {_who(state, seat)}'s foundations (tops "
                + ", ".join(rank_name(t) for t in tops) + "): a card goes on a card one lower, or on an empty foundation",
            )
        top = tops[f]
        if top == 13:
            raise RuleViolation(
                "stapelen.wrap", f"foundation {f + 1} has a King on top: only an Ace goes on a King, not a {rank_name(rank)}"
            )
        raise RuleViolation(
            "stapelen.build_up",
            f"foundation {f + 1} has a {rank_name(top)} on top: only a {rank_name(succ(top))} goes on it, "
            f"not the {card_name(card)}",
        )

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        if type == "deal":
            if state.phase != DEAL:
                raise RuleViolation("stapelen.tableau", "the cards are dealt once, at the start")
            return self._check_stuck(replace(state, columns=columns_of(data)))
        if type == "take":
            return self._apply_take(state, seat, data)
        raise MalformedEvent(f"unknown event type {type!r}", field="type")

    def _apply_take(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            if state.phase == DEAL:
                raise RuleViolation("stapelen.tableau", "no cards have been dealt yet")
            raise RuleViolation("stapelen.loss_strict", "the game is over")
        if seat != state.to_move:
            raise RuleViolation("stapelen.turns", f"it is {_who(state, state.to_move)}'s turn")
        c = data["column"] - 1
        card = state.top(c)
        if card is None:
            raise RuleViolation("stapelen.no_moving", f"column {c + 1} is empty")
        if CARD_IDS[card] != data["card"]:
            raise RuleViolation("stapelen.top_cards", f"the top card of column {c + 1} is {CARD_IDS[card]}")
        f = data["foundation"] - 1
        tops = state.tops(seat)
        top = tops[f]
        if top and succ(top) != RANK[card]:
            self._refuse(state, seat, card, f)
        heights = list(state.heights)
        heights[c] -= 1
        mine = list(state.foundations[seat])
        mine[f] = mine[f] + (card,)
        found = list(state.foundations)
        found[seat] = (mine[0], mine[1], mine[2])
        after = replace(state, heights=tuple(heights), foundations=(found[0], found[1]))
        if not after.left:
            return replace(after, over=("win", over_text(after)))
        return self._check_stuck(after)

    def _check_stuck(self, state: State) -> State:
        mover = state.to_move
        if mover is None or can_move(state, mover):
            return state
        return replace(state, over=("loss", over_text(state)))

    # -- moves ------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int | None) -> list[Move]:
        if state.phase != PLAY or seat != state.to_move:
            return []
        return [self.take_move(state, c, i) for c, i in moves_for(state, seat)]  # type: ignore[arg-type]

    @staticmethod
    def take_move(state: State, c: int, f: int) -> Move:
        return Move("take", state.to_move, {"column": c + 1, "card": CARD_IDS[state.top(c)], "foundation": f + 1})  # type: ignore[index]

    def chance_outcome(self, state: State, rng: random.Random) -> Move | None:
        return deal_move(rng) if state.phase == DEAL else None

    # -- reading ----------------------------------------------------------------------
    def scores(self, state: State) -> tuple[int, int]:
        return (sum(len(p) for p in state.foundations[0]), sum(len(p) for p in state.foundations[1]))

    def view(self, state: State, seat: int | str | None) -> dict[str, Any]:
        # Everything lies face up: every viewer sees the same.
        foundations = []
        for s in (0, 1):
            foundations.append([
                {"cards": [CARD_IDS[c] for c in pile], "top": CARD_IDS[pile[-1]] if pile else None, "count": len(pile)}
                for pile in state.foundations[s]
            ])
        view: dict[str, Any] = {
            "phase": state.phase,
            "columns": view_columns(state.columns, state.heights),
            "tops": [CARD_IDS[t] if (t := state.top(c)) is not None else None for c in range(COLUMNS)],
            "left": state.left if state.columns is not None else 52,
            "first": state.first,
            "to_move": state.to_move,
            "foundations": foundations,
            "collected": [sum(len(p) for p in state.foundations[s]) for s in (0, 1)],
        }
        if state.phase == PLAY:
            view["moves_available"] = len(moves_for(state, state.to_move))  # type: ignore[arg-type]
        return view

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> str:
        return self._describe(before, type, seat, data, after, False)

    def describe_nl(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> str:
        return self._describe(before, type, seat, data, after, True)

    @staticmethod
    def _describe(before: State, type: str, seat: int | None, data: dict[str, Any], after: State, nl: bool) -> str:
        """One line per event, in English or Dutch (rijtjes, fundamenten): one structure for both."""
        if type == "deal":
            return ("De 52 kaarten worden open gelegd in 13 rijtjes van 4" if nl
                    else "The 52 cards are dealt face up in 13 columns of 4")
        if type == "take":
            f = data["foundation"] - 1
            pile = before.foundations[seat][f]  # type: ignore[index]
            top = CARD_IDS[pile[-1]] if pile else None
            if nl:
                on = f"op de {top}" if top else "om het te beginnen"
                text = (f"{who_nl(before, seat)} legt {data['card']} van rijtje {data['column']} op fundament {f + 1} "
                        f"({on})")
            else:
                on = f"on its {top}" if top else "to start it"
                text = (f"{_who(before, seat, True)} takes {data['card']} from column {data['column']} onto "
                        f"foundation {f + 1} ({on})")
            return with_outcome(text, after, (lambda s: over_text(s, True)) if nl else None)
        return type

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        """Cheap notes: a foundation started, and the partner's choice left."""
        if type != "take":
            return []
        f = data["foundation"] - 1
        notes: list[dict[str, Any]] = []
        if not before.foundations[seat][f]:  # type: ignore[index]
            notes.append(note("new_foundation", f"{_who(before, seat)} starts foundation {f + 1} with {data['card']}"))
        if after.phase == "play":
            n = len(moves_for(after, after.to_move))  # type: ignore[arg-type]
            if n == 1:
                notes.append(note("forced", f"leaves {_who(after, after.to_move)} a single move"))
        return notes

    # -- snapshots --------------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        return {
            "columns": None if state.columns is None else [list(c) for c in state.columns],
            "heights": list(state.heights),
            "first": state.first,
            "foundations": [[list(p) for p in state.foundations[s]] for s in (0, 1)],
            "over": None if state.over is None else list(state.over),
            "names": list(state.names),
        }

    def decode_state(self, obj: dict[str, Any]) -> State:
        return State(
            columns=None if obj["columns"] is None else tuple(tuple(c) for c in obj["columns"]),
            heights=tuple(obj["heights"]),
            first=obj["first"],
            foundations=tuple(tuple(tuple(p) for p in obj["foundations"][s]) for s in (0, 1)),  # type: ignore[arg-type]
            over=None if obj["over"] is None else (obj["over"][0], obj["over"][1]),
            names=tuple(obj.get("names", ())),
        )
