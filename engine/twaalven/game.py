"""Twaalven en veertienen (Jogledor, P.D. de Jong, 2014): two players clear an
open 13×4 tableau together, one taking pairs of twelve, the other pairs of
fourteen, in strict alternation. See docs/games/twaalven-en-veertienen.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..core import CHANCE, EventType, InvalidOptions, MalformedEvent, Move, RuleViolation, titled
from ..jogledor.cards import CARD_IDS, CARD_SCHEMA, RANK, card_face, card_name, parse_card, rank_said
from ..jogledor.game import JogledorGame, data_schema, note, options, seat_option, who as _who
from ..text import N_, Text, Words, say, say_n
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
from .rules import FOURTEEN, PAIR_NAMES, PAIR_TYPES, QUOTA, RULES, TERMS, TWELVE, TYPE

TABLE = "table"
DEAL, ROLES, PLAY, OVER = "deal", "roles", "play", "over"



def over_text(state: State) -> Text:
    """How the game ended, from the state it ended in: every card taken, or the player to move unable to
    take a pair."""
    if not state.left:
        return say("all 52 cards are taken: both players win")
    mover = state.turn_seat
    kind = state.kind(mover)
    return say_n(state.left, "{who} ({collects}) cannot take a pair of {kind} from the top cards, with {n} card left: "
                 "both players lose", "{who} ({collects}) cannot take a pair of {kind} from the top cards, with {n} "
                 "cards left: both players lose", who=_who(state, mover), kind=str(kind), collects=COLLECTS[kind])


def _dutch_ranks(text: str) -> str:
    """Rank letters as a Dutch table writes them: B(oer), V(rouw), H(eer) for J, Q, K."""
    return "-".join(", ".join({"J": "B", "Q": "V", "K": "H"}.get(r, r) for r in part.split(", "))
                    for part in text.split("-"))


def pair_said(text: str) -> Words:
    """A pair ("Q-K") or a list of pairs, in each language's rank letters ("V-H")."""
    return Words(en=text, nl=_dutch_ranks(text))


#: what a seat collects, as a sentence says it
COLLECTS = {TWELVE: say("collects twelves"), FOURTEEN: say("collects fourteens")}


@dataclass(frozen=True)
class State:
    #: the 13 columns as dealt, bottom to top (None before the deal)
    columns: Columns | None = None
    #: cards left in each column
    heights: tuple[int, ...] = (4,) * COLUMNS
    #: the seat that collects the twelves, and the seat that starts (None until chosen)
    twelves: int | None = None
    first: int | None = None
    #: the pairs each seat took, in order: ((card, card), ...)
    taken: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = ((), ())
    #: (outcome, reason) once the game is over
    over: tuple[str, str] | None = None
    #: roles fixed by the options (skip the roles event)
    fixed: tuple[int, int] | None = None
    #: the players' names, for reviews and results
    names: tuple[str, ...] = ()

    @property
    def phase(self) -> str:
        if self.over is not None:
            return OVER
        if self.columns is None:
            return DEAL
        if self.first is None:
            return ROLES
        return PLAY

    @property
    def turns(self) -> int:
        return len(self.taken[0]) + len(self.taken[1])

    @property
    def to_move(self) -> int | None:
        if self.first is None or self.over is not None:
            return None
        return self.turn_seat

    @property
    def turn_seat(self) -> int:
        """Whose turn the turns say it is, over or not (who was stuck at the end)."""
        return self.first if self.turns % 2 == 0 else 1 - self.first

    def kind(self, seat: int) -> int:
        """The sum this seat collects: 12 or 14."""
        return TWELVE if seat == self.twelves else FOURTEEN

    def top(self, c: int) -> int | None:
        h = self.heights[c]
        return self.columns[c][h - 1] if (self.columns is not None and h) else None

    @property
    def left(self) -> int:
        return sum(self.heights)


def pairs_for(state: State, kind: int) -> list[tuple[int, int]]:
    """Every (column, column), left < right, whose top cards form a pair of ``kind``."""
    tops = [(c, RANK[state.columns[c][h - 1]]) for c, h in enumerate(state.heights) if h]  # type: ignore[index]
    table = TYPE[kind]
    out = []
    for i, (a, ra) in enumerate(tops):
        row = table[ra]
        for b, rb in tops[i + 1 :]:
            if row[rb] >= 0:
                out.append((a, b))
    return out


class Twaalven(JogledorGame):
    id = "twaalven"
    name = "Twaalven en veertienen"
    #: all 52 cards lie face up
    hidden_information = False
    summary = N_(
        "Cooperative patience for two (Jogledor): clear an open 13×4 tableau together, one player taking pairs "
        "of twelve and the other pairs of fourteen, in turn, top cards only."
    )
    says = True
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset({"roles", "take"})

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    terms = TERMS

    options_schema = options(
        twelves_seat=seat_option(N_("The player collecting the pairs of twelve; if not set, chosen at the table after the "
                                    "deal. Set both or neither of this and who starts."), default=None),
        first_seat=seat_option(N_("The player who starts; if not set, chosen at the table after the deal."),
                               default=None),
    )
    options_schema = titled(options_schema, twelves_seat=N_("Who collects the twelves"), first_seat=N_("Who starts"))
    event_types = {
        "deal": DEAL_EVENT,
        "roles": EventType(
            "roles",
            TABLE,
            data_schema(
                {
                    "twelves": {"type": "integer", "enum": [0, 1], "description": N_("the seat that collects twelves")},
                    "first": {"type": "integer", "enum": [0, 1], "description": N_("the seat that starts")},
                },
                required=("twelves", "first"),
            ),
            N_("After the deal the table agrees who collects twelves and who starts (may depend on the tableau)."),
            aliases=("rollen",),
        ),
        "take": EventType(
            "take",
            "seat",
            data_schema(
                {
                    "columns": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 13},
                        "minItems": 2,
                        "maxItems": 2,
                        "description": N_("the two columns, numbered 1–13 from the left"),
                    },
                    "cards": {"type": "array", "items": CARD_SCHEMA, "minItems": 2, "maxItems": 2},
                },
                minProperties=1,
            ),
            N_("The player to move takes a pair: two top cards of different columns summing to his number; give the "
               "columns, the cards, or both. Stored as both, columns ascending."),
            aliases=("pakken",),
        ),
    }

    # -- set-up ---------------------------------------------------------------------
    def check_options(self, options: dict[str, Any], players: int) -> None:
        if (options.get("twelves_seat") is None) != (options.get("first_seat") is None):
            raise InvalidOptions(
                say("choose both “Who collects the twelves” and “Who starts”, or neither (then the table chooses after "
                    "the deal)"),
                field="options",
                rule="twaalven.roles",
            )

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        tw, first = options.get("twelves_seat"), options.get("first_seat")
        return State(fixed=None if tw is None or first is None else (tw, first), names=tuple(players))

    # -- who acts ---------------------------------------------------------------------
    def actors(self, state: State) -> tuple[Any, ...]:
        phase = state.phase
        if phase == DEAL:
            return (CHANCE,)
        if phase == ROLES:
            return (TABLE,)
        if phase == PLAY:
            return (state.to_move,)
        return ()

    # -- normalize --------------------------------------------------------------------
    def normalize(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if type == "deal":
            return normalize_deal(self.id, data, "twaalven.deck")
        if type == "roles":
            return {"twelves": data["twelves"], "first": data["first"]}
        if type == "take":
            return self._normalize_take(state, data)
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    def _normalize_take(self, state: State, data: dict[str, Any]) -> dict[str, Any]:
        if state.columns is None:
            raise RuleViolation("twaalven.tableau", say("no cards have been dealt yet"))
        cols: list[int] | None = None
        if "columns" in data:
            cols = [c - 1 for c in data["columns"]]
            if cols[0] == cols[1]:
                raise RuleViolation(
                    "twaalven.different_columns",
                    say("both cards would come from column {column}; a pair comes from two different columns",
                        column=cols[0] + 1)
                )
            for c in cols:
                if not state.heights[c]:
                    raise RuleViolation("twaalven.no_moving",
                                        say("column {column} is empty (an empty column stays empty)", column=c + 1))
        if "cards" in data:
            cards = [parse_card(v, f"cards[{i}]") for i, v in enumerate(data["cards"])]
            if cards[0] == cards[1]:
                raise MalformedEvent(say("the two cards of a pair are two different cards"), field="cards")
            found = []
            for card in cards:
                c = column_of_top(state.columns, state.heights, card)
                if c is None:
                    at = where(state.columns, state.heights, card)
                    if at is None:
                        raise RuleViolation("twaalven.top_cards",
                                            say("the {card} is no longer on the tableau", card=card_name(card)))
                    raise RuleViolation(
                        "twaalven.top_cards",
                        say_n(at[1], "the {card} lies in column {column} under {n} card; only top cards can be taken",
                              "the {card} lies in column {column} under {n} cards; only top cards can be taken",
                              card=card_name(card), column=at[0] + 1),
                    )
                found.append(c)
            if cols is not None and sorted(cols) != sorted(found):
                tops = [say("{column} ({card})", column=c + 1, card=card_face(state.top(c))) for c in cols]  # type: ignore[arg-type]
                raise RuleViolation(
                    "twaalven.top_cards",
                    say("the cards named are not the top cards of the columns named: the tops of columns {a} and {b}",
                        a=tops[0], b=tops[1]),
                )
            cols = found
        assert cols is not None
        a, b = sorted(cols)
        return {"columns": [a + 1, b + 1], "cards": [CARD_IDS[state.top(a)], CARD_IDS[state.top(b)]]}  # type: ignore[index]

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        if type == "deal":
            if state.phase != DEAL:
                raise RuleViolation("twaalven.tableau", say("the cards are dealt once, at the start"))
            after = replace(state, columns=columns_of(data))
            if state.fixed is not None:
                after = replace(after, twelves=state.fixed[0], first=state.fixed[1])
                return self._check_stuck(after)
            return after
        if type == "roles":
            if state.phase != ROLES:
                if state.phase == DEAL:
                    raise RuleViolation("twaalven.first", say("the roles are chosen after the deal"))
                raise RuleViolation("twaalven.roles", say("the roles were already chosen"))
            return self._check_stuck(replace(state, twelves=data["twelves"], first=data["first"]))
        if type == "take":
            return self._apply_take(state, seat, data)
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    def _apply_take(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            if state.phase == DEAL:
                raise RuleViolation("twaalven.tableau", say("no cards have been dealt yet"))
            if state.phase == ROLES:
                raise RuleViolation("twaalven.roles", say("first choose who collects twelves and who starts (roles)"))
            raise RuleViolation("twaalven.loss", say("the game is over"))
        if seat != state.to_move:
            raise RuleViolation("twaalven.turns", say("it is {who}'s turn", who=_who(state, state.to_move)))
        a, b = (c - 1 for c in data["columns"])
        if a == b:
            raise RuleViolation("twaalven.different_columns", say("a pair comes from two different columns"))
        ca, cb = state.top(a), state.top(b)
        if ca is None or cb is None:
            raise RuleViolation("twaalven.no_moving", say("an empty column has no card to take"))
        if [CARD_IDS[ca], CARD_IDS[cb]] != list(data["cards"]):
            raise RuleViolation("twaalven.top_cards", say("the cards are not the top cards of those columns"))
        kind = state.kind(seat)
        ra, rb = RANK[ca], RANK[cb]
        if TYPE[kind][ra][rb] < 0:
            rule = "twaalven.pairs_twelve" if kind == TWELVE else "twaalven.pairs_fourteen"
            other = TYPE[FOURTEEN if kind == TWELVE else TWELVE][ra][rb] >= 0
            pairs = pair_said("Q-K, A-J, 2-10, 3-9, 4-8, 5-7, 6-6" if kind == TWELVE else "A-K, 2-Q, 3-J, 4-10, 5-9, 6-8, 7-7")
            values = dict(a=rank_said(ra), b=rank_said(rb), kind=str(kind), who=_who(state, seat),
                          collects=COLLECTS[kind], pairs=pairs)
            raise RuleViolation(rule, say("{a} and {b} are no pair of {kind} (it is a pair of {other}, the other "
                                          "player's); {who} {collects}: {pairs}", other=str(26 - kind), **values)
                                if other else say("{a} and {b} are no pair of {kind}; {who} {collects}: {pairs}", **values))
        heights = list(state.heights)
        heights[a] -= 1
        heights[b] -= 1
        taken = list(state.taken)
        taken[seat] = taken[seat] + ((ca, cb),)
        after = replace(state, heights=tuple(heights), taken=(taken[0], taken[1]))
        if not after.left:
            return replace(after, over=("win", str(over_text(after))))
        return self._check_stuck(after)

    def _check_stuck(self, state: State) -> State:
        mover = state.to_move
        if mover is None or pairs_for(state, state.kind(mover)):
            return state
        return replace(state, over=("loss", str(over_text(state))))  # (kept in English: the snapshots hold it)

    def over_said(self, state: State) -> Text:
        return over_text(state)

    # -- moves ------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int | None) -> list[Move]:
        phase = state.phase
        if phase == ROLES and seat is None:
            return [Move("roles", None, {"twelves": t, "first": f}) for t in (0, 1) for f in (0, 1)]
        if phase != PLAY or seat != state.to_move:
            return []
        return [self.take_move(state, a, b) for a, b in pairs_for(state, state.kind(seat))]

    @staticmethod
    def take_move(state: State, a: int, b: int) -> Move:
        if a > b:
            a, b = b, a
        return Move(
            "take",
            state.to_move,
            {"columns": [a + 1, b + 1], "cards": [CARD_IDS[state.top(a)], CARD_IDS[state.top(b)]]},  # type: ignore[index]
        )

    def chance_outcome(self, state: State, rng: random.Random) -> Move | None:
        if state.phase == DEAL:
            return deal_move(rng)
        return None

    # -- reading ----------------------------------------------------------------------
    def scores(self, state: State) -> tuple[int, int]:
        return (2 * len(state.taken[0]), 2 * len(state.taken[1]))

    def pair_counts(self, state: State, seat: int) -> dict[str, int]:
        """How often the seat took each pair type of its sum."""
        kind = state.kind(seat)
        counts = {PAIR_NAMES[t]: 0 for t, (_, _, k) in enumerate(PAIR_TYPES) if k == kind}
        for a, b in state.taken[seat]:
            counts[PAIR_NAMES[TYPE[kind][RANK[a]][RANK[b]]]] += 1
        return counts

    def view(self, state: State, seat: int | str | None) -> dict[str, Any]:
        # Everything lies face up: every viewer sees the same.
        view: dict[str, Any] = {
            "phase": state.phase,
            "columns": view_columns(state.columns, state.heights),
            "tops": [CARD_IDS[t] if (t := state.top(c)) is not None else None for c in range(COLUMNS)],
            "left": state.left if state.columns is not None else 52,
            "twelves": state.twelves,
            "fourteens": None if state.twelves is None else 1 - state.twelves,
            "first": state.first,
            "to_move": state.to_move,
            "taken": [[[CARD_IDS[a], CARD_IDS[b]] for a, b in state.taken[s]] for s in (0, 1)],
        }
        if state.twelves is not None:
            view["pair_counts"] = [self.pair_counts(state, s) for s in (0, 1)]
            view["quota"] = {name: QUOTA[t] for t, name in enumerate(PAIR_NAMES)}
        if state.phase == PLAY:
            view["pairs_available"] = len(pairs_for(state, state.kind(state.to_move)))  # type: ignore[arg-type]
        return view

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        """One line per event, in the rules text's words (rijtjes, twaalven, veertienen)."""
        if type == "deal":
            return say("The 52 cards are dealt face up in 13 columns of 4")
        if type == "roles":
            tw, first = data["twelves"], data["first"]
            return say("{twelves} collects the twelves, {fourteens} the fourteens; {first} starts",
                       twelves=_who(before, tw, True), fourteens=_who(before, 1 - tw), first=_who(before, first))
        if type == "take":
            a, b = data["columns"]
            c0, c1 = (parse_card(c, "cards") for c in data["cards"])
            text = say("{who} takes {card0} (column {a}) and {card1} (column {b}): {kind}", who=_who(before, seat, True),
                       card0=card_face(c0), a=a, card1=card_face(c1), b=b, kind=str(before.kind(seat)))  # type: ignore[arg-type]
            return text if after.over is None else say("{first}; {then}", first=text, then=over_text(after))
        return say("{type}", type=type)

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        """Cheap, exact notes: the pair type and how often it was taken; a pair
        taken beyond its quota (each player takes every pair type exactly twice,
        6-6 and 7-7 once, in every won game) makes the deal unwinnable."""
        if type != "take":
            return []
        kind = before.kind(seat)  # type: ignore[arg-type]
        a, b = after.taken[seat][-1]  # type: ignore[index]
        t = TYPE[kind][RANK[a]][RANK[b]]
        count = sum(1 for x, y in after.taken[seat] if TYPE[kind][RANK[x]][RANK[y]] == t)  # type: ignore[index]
        notes = [note("pair", say("{pair} ({kind}), taken {count} of {quota}", pair=pair_said(PAIR_NAMES[t]), kind=str(kind),
                                  count=count, quota=QUOTA[t]),
                      pair=PAIR_NAMES[t], sum=kind, count=count, quota=QUOTA[t])]
        if count == QUOTA[t] + 1:
            notes.append(note(
                "over_quota",
                (say("{pair} taken a second time: the game can no longer come out (in every won game each player takes "
                     "each pair exactly twice, 6-6 and 7-7 once)", pair=pair_said(PAIR_NAMES[t])) if QUOTA[t] == 1 else
                 say("{pair} taken a third time: the game can no longer come out (in every won game each player takes "
                     "each pair exactly twice, 6-6 and 7-7 once)", pair=pair_said(PAIR_NAMES[t]))),
                glyph="??", pair=PAIR_NAMES[t],
            ))
        return notes

    # -- snapshots --------------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        return {
            "columns": None if state.columns is None else [list(c) for c in state.columns],
            "heights": list(state.heights),
            "twelves": state.twelves,
            "first": state.first,
            "taken": [[list(p) for p in state.taken[s]] for s in (0, 1)],
            "over": None if state.over is None else list(state.over),
            "fixed": None if state.fixed is None else list(state.fixed),
            "names": list(state.names),
        }

    def decode_state(self, obj: dict[str, Any]) -> State:
        return State(
            columns=None if obj["columns"] is None else tuple(tuple(c) for c in obj["columns"]),
            heights=tuple(obj["heights"]),
            twelves=obj["twelves"],
            first=obj["first"],
            taken=tuple(tuple((p[0], p[1]) for p in obj["taken"][s]) for s in (0, 1)),  # type: ignore[arg-type]
            over=None if obj["over"] is None else (obj["over"][0], obj["over"][1]),
            fixed=None if obj["fixed"] is None else (obj["fixed"][0], obj["fixed"][1]),
            names=tuple(obj.get("names", ())),
        )
