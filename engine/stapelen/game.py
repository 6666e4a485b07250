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
from ..jogledor.cards import CARD_IDS, CARD_SCHEMA, RANK, card_face, card_name, parse_card, rank_said
from ..jogledor.game import JogledorGame, data_schema, note, options, seat_option, who as _who
from ..text import N_, Text, say, say_n
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



def over_text(state: State) -> Text:
    """How the game ended, from the state it ended in: every card on the foundations, or the player to move
    stuck (however the partner stands: the rule is strict)."""
    if not state.left:
        return say("all 52 cards are on the foundations: both players win")
    mover = state.turn_seat
    reason = say_n(state.left, "{who} cannot put any top card on their own foundations (tops {tops}) with {n} card "
                   "left: both players lose", "{who} cannot put any top card on their own foundations (tops {tops}) "
                   "with {n} cards left: both players lose", who=_who(state, mover), tops=_tops(state.tops(mover)))
    if can_move(state, 1 - mover):
        reason = say("{reason} (the rule is strict: that {partner} could have played does not help)", reason=reason,
                     partner=_who(state, 1 - mover))
    return reason


def _tops(tops: tuple[int, ...]) -> list[Text | str]:
    """A player's foundations by their top ranks, an empty one as empty."""
    return [rank_said(t) if t else say("empty") for t in tops]


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
    summary = N_(
        "Cooperative patience for two (Jogledor): clear an open 13×4 tableau together, one card a turn onto "
        "your own three foundations, one higher each time, King→Ace wrapping; whoever cannot move loses for both."
    )
    says = True
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset()

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    terms = TERMS

    options_schema = options(first_seat=seat_option(N_("The seat that starts (it has no influence on the game).")))
    options_schema = titled(options_schema, first_seat=N_("Who starts"))
    event_types = {
        "deal": DEAL_EVENT,
        "take": EventType(
            "take",
            "seat",
            data_schema(
                {
                    "column": {"type": "integer", "minimum": 1, "maximum": 13, "description": N_("1–13 from the left")},
                    "card": CARD_SCHEMA,
                    "foundation": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 3,
                        "description": N_("which of the mover's own foundations (1–3); may be left out when every "
                                          "foundation the card fits is alike"),
                    },
                },
                anyOf=[{"required": ["column"]}, {"required": ["card"]}],
            ),
            N_("The player to move takes a top card and puts it on one of his own foundations. Stored with column, "
               "card and foundation."),
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
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    def _normalize_take(self, state: State, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if state.columns is None:
            raise RuleViolation("stapelen.tableau", say("no cards have been dealt yet"))
        c: int | None = None
        if "column" in data:
            c = data["column"] - 1
            if not state.heights[c]:
                raise RuleViolation("stapelen.no_moving",
                                    say("column {column} is empty (an empty column stays empty)", column=c + 1))
        if "card" in data:
            card = parse_card(data["card"], "card")
            found = column_of_top(state.columns, state.heights, card)
            if found is None:
                at = where(state.columns, state.heights, card)
                if at is None:
                    raise RuleViolation("stapelen.top_cards",
                                        say("the {card} is no longer on the tableau", card=card_name(card)))
                raise RuleViolation(
                    "stapelen.top_cards",
                    say_n(at[1], "the {card} lies in column {column} under {n} card; only top cards can be taken",
                          "the {card} lies in column {column} under {n} cards; only top cards can be taken",
                          card=card_name(card), column=at[0] + 1),
                )
            if c is not None and c != found:
                raise RuleViolation(
                    "stapelen.top_cards",
                    say("the top card of column {column} is the {top}, not the {card}", column=c + 1,
                        top=card_name(state.top(c)), card=card_name(card)),  # type: ignore[arg-type]
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
                fitting = [say("foundation {n} (empty)", n=i + 1) if not tops[i] else
                           say("foundation {n} (on a {rank})", n=i + 1, rank=rank_said(tops[i])) for i in options]
                raise MalformedEvent(
                    say("say which foundation: the {card} fits {a} and {b}", card=card_name(card), a=fitting[0],
                        b=fitting[1:]),
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
                say("the {card} fits none of {who}'s own foundations (tops {tops}); that it fits {partner}'s does not "
                    "help: a player builds only on his own", card=card_name(card), who=_who(state, seat),
                    tops=_tops(tops), partner=_who(state, 1 - seat)),
            )
        if f is None:
            raise RuleViolation(
                "stapelen.build_up",
                say("the {card} fits none of {who}'s foundations (tops {tops}): a card goes on a card one lower, or on "
                    "an empty foundation", card=card_name(card), who=_who(state, seat), tops=_tops(tops)),
            )
        top = tops[f]
        if top == 13:
            raise RuleViolation(
                "stapelen.wrap", say("foundation {n} has a King on top: only an Ace goes on a King, not a {rank}",
                                     n=f + 1, rank=rank_said(rank))
            )
        raise RuleViolation(
            "stapelen.build_up",
            say("foundation {n} has a {top} on top: only a {next} goes on it, not the {card}", n=f + 1,
                top=rank_said(top), next=rank_said(succ(top)), card=card_name(card)),
        )

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        if type == "deal":
            if state.phase != DEAL:
                raise RuleViolation("stapelen.tableau", say("the cards are dealt once, at the start"))
            return self._check_stuck(replace(state, columns=columns_of(data)))
        if type == "take":
            return self._apply_take(state, seat, data)
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    def _apply_take(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            if state.phase == DEAL:
                raise RuleViolation("stapelen.tableau", say("no cards have been dealt yet"))
            raise RuleViolation("stapelen.loss_strict", say("the game is over"))
        if seat != state.to_move:
            raise RuleViolation("stapelen.turns", say("it is {who}'s turn", who=_who(state, state.to_move)))
        c = data["column"] - 1
        card = state.top(c)
        if card is None:
            raise RuleViolation("stapelen.no_moving", say("column {column} is empty", column=c + 1))
        if CARD_IDS[card] != data["card"]:
            raise RuleViolation("stapelen.top_cards",
                                say("the top card of column {column} is {card}", column=c + 1, card=card_face(card)))
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
            return replace(after, over=("win", str(over_text(after))))
        return self._check_stuck(after)

    def _check_stuck(self, state: State) -> State:
        mover = state.to_move
        if mover is None or can_move(state, mover):
            return state
        return replace(state, over=("loss", str(over_text(state))))  # (kept in English: the snapshots hold it)

    def over_said(self, state: State) -> Text:
        return over_text(state)

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

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        """One line per event, in the rules text's words (rijtjes, fundamenten)."""
        if type == "deal":
            return say("The 52 cards are dealt face up in 13 columns of 4")
        if type == "take":
            f = data["foundation"] - 1
            pile = before.foundations[seat][f]  # type: ignore[index]
            card = card_face(parse_card(data["card"], "card"))
            if pile:
                text = say("{who} takes {card} from column {column} onto foundation {n} (on its {top})",
                           who=_who(before, seat, True), card=card, column=data["column"], n=f + 1, top=card_face(pile[-1]))
            else:
                text = say("{who} takes {card} from column {column} onto foundation {n} (to start it)",
                           who=_who(before, seat, True), card=card, column=data["column"], n=f + 1)
            return text if after.over is None else say("{first}; {then}", first=text, then=over_text(after))
        return say("{type}", type=type)

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        """Cheap notes: a foundation started, and the partner's choice left."""
        if type != "take":
            return []
        f = data["foundation"] - 1
        notes: list[dict[str, Any]] = []
        if not before.foundations[seat][f]:  # type: ignore[index]
            notes.append(note("new_foundation", say("{who} starts foundation {n} with {card}", who=_who(before, seat),
                                                    n=f + 1, card=card_face(parse_card(data["card"], "card")))))
        if after.phase == "play":
            n = len(moves_for(after, after.to_move))  # type: ignore[arg-type]
            if n == 1:
                notes.append(note("forced", say("leaves {who} a single move", who=_who(after, after.to_move))))
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
