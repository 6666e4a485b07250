"""Sir Tommy voor twee (Jogledor, P.D. de Jong, 2014): the two-player
cooperative Sir Tommy. One player builds four foundations up from the Aces,
the other four down from the Kings; each turn a player draws three cards from
the face-down stock, builds what he wants from them and from the tops of the
four rows, and puts the rest on the rows. See docs/games/sir-tommy.md.

The state only ever holds cards that were drawn: the stock is a count, so no
view (and no solver) can see a card before it is drawn. In a simulated match
the server draws from the unseen cards with the match's seeded RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..core import CHANCE, EventType, MalformedEvent, Move, RuleViolation, titled
from ..jogledor.cards import CARD_IDS, CARD_SCHEMA, DECK, RANK, card_face, card_name, parse_card, rank_name, rank_said
from ..jogledor.game import JogledorGame, data_schema, note, options, seat_option, who as _who
from ..text import N_, Text, say, say_n
from . import invariants as INV
from . import scene as _scene
from .rules import RULES, SUPER, TERMS

DRAW, PLAY, END, OVER = "draw", "play", "end", "over"
ROWS = 4
Piles = tuple[tuple[int, ...], ...]
EMPTY4: Piles = ((), (), (), ())


@dataclass(frozen=True)
class State:
    #: the seat that builds up from the Aces (and starts)
    up: int = 0
    #: option: building may go on after a leftover was placed this turn
    interleave: bool = False
    #: every card drawn so far, in draw order (each draw sorted)
    order: tuple[int, ...] = ()
    #: the drawn cards in front of the player to move, not yet built nor placed
    drawn: tuple[int, ...] = ()
    rows: Piles = EMPTY4
    #: each seat's four foundations, bottom to top
    foundations: tuple[Piles, Piles] = (EMPTY4, EMPTY4)
    to_move: int = 0
    phase: str = DRAW
    #: a leftover was placed this turn
    placing: bool = False
    #: a card was built this turn
    built: bool = False
    #: turns in a row that ended without a build, once the stock is empty
    passes: int = 0
    over: tuple[str, str] | None = None
    #: the players' names, for reviews and results
    names: tuple[str, ...] = ()

    @property
    def stock(self) -> int:
        return 52 - len(self.order)

    @property
    def draw_size(self) -> int:
        return min(3, self.stock)

    def collected(self, seat: int) -> int:
        return sum(len(p) for p in self.foundations[seat])

    def needs(self, seat: int) -> tuple[int, int, int, int]:
        """The rank each of the seat's foundations takes next (0: complete)."""
        return needs_of(self.foundations[seat], seat == self.up)  # type: ignore[return-value]


def needs_of(piles: Piles, up: bool) -> tuple[int, ...]:
    out = []
    for p in piles:
        if not p:
            out.append(1 if up else 13)
        else:
            t = RANK[p[-1]]
            out.append((t + 1 if t < 13 else 0) if up else (t - 1 if t > 1 else 0))
    return tuple(out)


def row_tops(state: State) -> list[int | None]:
    return [r[-1] if r else None for r in state.rows]


def can_build_from_rows(state: State, seat: int) -> bool:
    need = state.needs(seat)
    return any(r and RANK[r[-1]] in need for r in state.rows)



def over_text(state: State) -> Text:
    """How the game ended, from the state it ended in: all cards on the foundations (and a super-winner), two
    passes in a row, or an empty stock with nothing on the rows that fits."""
    counts = (state.collected(0), state.collected(1))
    if sum(counts) == 52:
        sw = super_winner(state)
        text = say("all 52 cards are on the foundations ({a}–{b}): both players win", a=counts[0], b=counts[1])
        if sw is None:
            return text
        return say("{text}; {who} is the super-winner with {n} cards", text=text, who=_who(state, sw), n=counts[sw])
    left = sum(map(len, state.rows))
    if state.passes >= 2:
        return say_n(left, "both players passed in succession with {n} card left on the tableau: nobody will build "
                     "on, both players lose", "both players passed in succession with {n} cards left on the tableau: "
                     "nobody will build on, both players lose")
    return say_n(left, "the stock is empty and the {n} card on top of the rows fits no foundation of either player: "
                 "both players lose", "the stock is empty and none of the {n} cards on top of the rows fits a "
                 "foundation of either player: both players lose")


class SirTommy(JogledorGame):
    id = "sir_tommy"
    name = "Sir Tommy voor twee"
    #: the stock is hidden from everyone alike; every drawn card lies face up
    hidden_information = False
    summary = N_(
        "Cooperative patience for two (Jogledor): one builds up from the Aces, the other down from the Kings, "
        "drawing three cards a turn from a hidden stock onto four shared rows; 30+ cards makes a super-winner."
    )
    says = True
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset({"place", "end_turn"})

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    terms = TERMS

    options_schema = options(
        up_seat=seat_option(N_("The seat that builds up from the Aces; it starts. The other builds down from the Kings.")),
        interleave_placing={
            "type": "boolean",
            "default": False,
            "description": N_("Reading: off (default) = once a drawn card is put on a row the player builds no "
                              "more this turn; on = building and placing may alternate within a turn."),
        },
    )
    options_schema = titled(options_schema, up_seat=N_("Who builds up from the Aces"),
                            interleave_placing=N_("Building and placing may alternate"))
    event_types = {
        "draw": EventType(
            "draw",
            CHANCE,
            data_schema({"cards": {"type": "array", "items": CARD_SCHEMA, "minItems": 1, "maxItems": 3}},
                        required=("cards",)),
            N_("The cards the player to move draws from the stock, face up: 3, the last time 1 (seat: the drawing "
               "player, if known). Stored sorted."),
            aliases=("trekken",),
        ),
        "build": EventType(
            "build",
            "seat",
            data_schema(
                {
                    "card": CARD_SCHEMA,
                    "from": {"type": "string", "enum": ["drawn", "row"]},
                    "row": {"type": "integer", "minimum": 1, "maximum": 4},
                    "foundation": {"type": "integer", "minimum": 1, "maximum": 4},
                },
                required=("card",),
            ),
            N_("The player to move puts a drawn card or a row's top card on one of his own foundations. Where it "
               "comes from and the foundation are filled in when left out."),
            aliases=("opbouwen",),
        ),
        "place": EventType(
            "place",
            "seat",
            data_schema({"card": CARD_SCHEMA, "row": {"type": "integer", "minimum": 1, "maximum": 4}},
                        required=("card", "row")),
            N_("The player to move puts a drawn card he did not build on a row (1–4), on any card or an empty row. "
               "When the last drawn card is placed the turn passes."),
            aliases=("leggen",),
        ),
        "end_turn": EventType(
            "end_turn",
            "seat",
            data_schema(),
            N_("The player to move ends his turn: after building all drawn cards, or, with the stock empty, after "
               "any number of builds (none: a pass)."),
            aliases=("klaar", "passen"),
        ),
    }

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        up = options.get("up_seat", 0)
        return State(up=up, to_move=up, interleave=bool(options.get("interleave_placing", False)), names=tuple(players))

    def actors(self, state: State) -> tuple[Any, ...]:
        if state.phase == DRAW:
            return (CHANCE,)
        if state.phase in (PLAY, END):
            return (state.to_move,)
        return ()

    # -- normalize --------------------------------------------------------------------
    def normalize(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if type == "draw":
            cards = [parse_card(v, f"cards[{i}]") for i, v in enumerate(data["cards"])]
            if len(set(cards)) != len(cards):
                raise RuleViolation("sir_tommy.deck", say("a draw names the same card twice"))
            return {"cards": [CARD_IDS[c] for c in sorted(cards)]}
        if type == "build":
            return self._normalize_build(state, seat, data)
        if type == "place":
            return {"card": CARD_IDS[parse_card(data["card"], "card")], "row": data["row"]}
        if type == "end_turn":
            return {}
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    def _locate(self, state: State, card: int) -> tuple[str, int | None]:
        if card in state.drawn:
            return "drawn", None
        for r, row in enumerate(state.rows):
            if row and row[-1] == card:
                return "row", r
        for r, row in enumerate(state.rows):
            if card in row:
                depth = len(row) - 1 - row.index(card)
                raise RuleViolation(
                    "sir_tommy.rows",
                    say_n(depth, "the {card} lies in row {row} under {n} card; only a row's top card can be taken",
                          "the {card} lies in row {row} under {n} cards; only a row's top card can be taken",
                          card=card_name(card), row=r + 1)
                )
        for s in (0, 1):
            if any(card in p for p in state.foundations[s]):
                raise RuleViolation("sir_tommy.no_moving", say("the {card} is already on a foundation", card=card_name(card)))
        if card in state.order:  # pragma: no cover - every drawn card is somewhere
            raise RuleViolation("sir_tommy.build_sources", say("the {card} cannot be taken now", card=card_name(card)))
        raise RuleViolation(
            "sir_tommy.build_sources",
            say("the {card} has not been drawn: a player builds from the cards he drew this turn and the top cards "
                "of the rows", card=card_name(card)),
        )

    def _normalize_build(self, state: State, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        card = parse_card(data["card"], "card")
        source, row = self._locate(state, card)
        if "from" in data and data["from"] != source or "row" in data and data["row"] - 1 != row:
            raise RuleViolation("sir_tommy.build_sources",
                                say("the {card} is among the drawn cards", card=card_name(card)) if source == "drawn"
                                else say("the {card} is on top of row {row}", card=card_name(card), row=row + 1))  # type: ignore[operator]
        mover = seat if seat in (0, 1) else state.to_move
        if "foundation" in data:
            f = data["foundation"]
        else:
            need = state.needs(mover)  # type: ignore[arg-type]
            if RANK[card] not in need:
                self._refuse(state, mover, card, None)  # type: ignore[arg-type]
            f = need.index(RANK[card]) + 1
        out: dict[str, Any] = {"card": CARD_IDS[card], "from": source}
        if row is not None:
            out["row"] = row + 1
        out["foundation"] = f
        return out

    def _refuse(self, state: State, seat: int, card: int, f: int | None) -> None:
        rank = RANK[card]
        up = seat == state.up
        need = state.needs(seat)
        if f is not None and not state.foundations[seat][f]:
            raise RuleViolation(
                "sir_tommy.up_down",
                say("foundation {n} is empty: it starts with an Ace ({who} builds up from the Aces), not the {card}",
                    n=f + 1, who=_who(state, seat), card=card_name(card)) if up else
                say("foundation {n} is empty: it starts with a King ({who} builds down from the Kings), not the {card}",
                    n=f + 1, who=_who(state, seat), card=card_name(card)),
            )
        if f is not None and need[f] == 0:
            raise RuleViolation("sir_tommy.max_thirteen", say("foundation {n} is complete: it holds 13 cards", n=f + 1))
        if f is None and rank not in need and rank in state.needs(1 - seat):
            raise RuleViolation(
                "sir_tommy.build_sources",
                say("the {card} fits only {who}'s foundations; a player builds only on his own", card=card_name(card),
                    who=_who(state, 1 - seat)),
            )
        wants = [rank_said(n) if n else say("complete") for n in need]
        which = say("foundation {n}", n=f + 1) if f is not None else say("any foundation")
        raise RuleViolation(
            "sir_tommy.up_down",
            say("the {card} does not fit {which} of {who}, who builds up (the foundations take: {wants})",
                card=card_name(card), which=which, who=_who(state, seat), wants=wants) if up else
            say("the {card} does not fit {which} of {who}, who builds down (the foundations take: {wants})",
                card=card_name(card), which=which, who=_who(state, seat), wants=wants),
        )

    # -- apply ------------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        handler = {"draw": self._draw, "build": self._build, "place": self._place, "end_turn": self._end}.get(type)
        if handler is None:
            raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")
        if state.phase == OVER:
            raise RuleViolation("sir_tommy.win" if state.over[0] == "win" else "sir_tommy.loss", say("the game is over"))  # type: ignore[index]
        if type != "draw":
            if state.phase == DRAW:
                raise RuleViolation("sir_tommy.draw_three",
                                    say("{who} first draws from the stock", who=_who(state, state.to_move)))
            if seat != state.to_move:
                raise RuleViolation("sir_tommy.turns", say("it is {who}'s turn", who=_who(state, state.to_move)))
        return handler(state, seat, data)

    def _draw(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAW:
            if state.stock == 0:
                raise RuleViolation("sir_tommy.after_stock", say("the stock is empty"))
            raise RuleViolation("sir_tommy.draw_three", say("a player draws once, at the start of his turn"))
        if seat is not None and seat != state.to_move:
            raise RuleViolation("sir_tommy.turns", say("it is {who} who draws now", who=_who(state, state.to_move)))
        cards = [parse_card(v, "cards") for v in data["cards"]]
        want = state.draw_size
        if len(cards) != want:
            raise RuleViolation(
                "sir_tommy.draw_three",
                say_n(want, "{who} draws {n} card now ({left} left in the stock), not {drawn}",
                      "{who} draws {n} cards now ({left} left in the stock), not {drawn}", who=_who(state, state.to_move),
                      left=state.stock, drawn=len(cards)),
            )
        again = [c for c in cards if c in state.order]
        if again or len(set(cards)) != len(cards):
            raise RuleViolation(
                "sir_tommy.deck",
                say("already drawn: {cards}", cards=[card_face(c) for c in again]) if again
                else say("a draw names the same card twice"),
            )
        return replace(state, order=state.order + tuple(cards), drawn=tuple(cards), phase=PLAY, placing=False, built=False)

    def _build(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        assert seat is not None
        if state.phase == PLAY and state.placing and not state.interleave:
            raise RuleViolation(
                "sir_tommy.place_last",
                say("a drawn card was already put on a row this turn: the turn ends by placing the other drawn cards"),
            )
        card = parse_card(data["card"], "card")
        drawn, rows = state.drawn, list(state.rows)
        if data.get("from") == "drawn":
            if card not in drawn:
                raise RuleViolation("sir_tommy.build_sources",
                                    say("the {card} is not among the drawn cards", card=card_name(card)))
            drawn = tuple(c for c in drawn if c != card)
        else:
            r = data.get("row", 0) - 1
            if not 0 <= r < ROWS or not rows[r] or rows[r][-1] != card:
                raise RuleViolation("sir_tommy.rows", say("the {card} is not the top card of that row", card=card_name(card)))
            rows[r] = rows[r][:-1]
        f = data["foundation"] - 1
        if state.needs(seat)[f] != RANK[card]:
            self._refuse(state, seat, card, f)
        piles = list(state.foundations[seat])
        piles[f] = piles[f] + (card,)
        found = list(state.foundations)
        found[seat] = tuple(piles)
        after = replace(state, drawn=drawn, rows=tuple(rows), foundations=(found[0], found[1]), built=True)
        if after.collected(0) + after.collected(1) == 52:
            return replace(after, phase=OVER, over=("win", str(over_text(after))))  # (English: the snapshots hold it)
        if after.phase == END:
            return self._check_stuck(after)
        return after

    def _place(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        card = parse_card(data["card"], "card")
        if state.phase != PLAY or card not in state.drawn:
            raise RuleViolation(
                "sir_tommy.place_leftovers",
                say("only a card drawn this turn and not built goes on a row; the {card} is not one (tableau cards never "
                    "move to another row)", card=card_name(card)) if any(card in r for r in state.rows) else
                say("only a card drawn this turn and not built goes on a row; the {card} is not one", card=card_name(card)),
            )
        r = data["row"] - 1
        rows = list(state.rows)
        rows[r] = rows[r] + (card,)
        after = replace(state, drawn=tuple(c for c in state.drawn if c != card), rows=tuple(rows), placing=True)
        if not after.drawn:
            return self._next_turn(after)
        return after

    def _end(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase == PLAY and state.drawn:
            raise RuleViolation(
                "sir_tommy.place_leftovers",
                say("the drawn cards not built must first be put on the rows: {cards}",
                    cards=[card_face(c) for c in state.drawn]),
            )
        if state.phase == END:
            passes = 0 if state.built else state.passes + 1
            if passes >= 2:
                ended = replace(state, passes=passes, phase=OVER)
                return replace(ended, over=("loss", str(over_text(ended))))
            return self._check_stuck(replace(state, passes=passes, to_move=1 - state.to_move, built=False))
        return self._next_turn(state)

    def _next_turn(self, state: State) -> State:
        nxt = 1 - state.to_move
        if state.stock:
            return replace(state, to_move=nxt, phase=DRAW, placing=False, built=False)
        return self._check_stuck(replace(state, to_move=nxt, phase=END, placing=False, built=False, passes=0))

    def _check_stuck(self, state: State) -> State:
        if can_build_from_rows(state, 0) or can_build_from_rows(state, 1):
            return state
        ended = replace(state, phase=OVER)
        return replace(ended, over=("loss", str(over_text(ended))))

    def over_said(self, state: State) -> Text:
        return over_text(state)

    # -- moves ------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int | None) -> list[Move]:
        if state.phase not in (PLAY, END) or seat != state.to_move:
            return []
        moves: list[Move] = []
        need = state.needs(seat)
        if not (state.phase == PLAY and state.placing and not state.interleave):
            for card in state.drawn:
                if RANK[card] in need:
                    moves.append(Move("build", seat, {"card": CARD_IDS[card], "from": "drawn",
                                                      "foundation": need.index(RANK[card]) + 1}))
            for r, row in enumerate(state.rows):
                if row and RANK[row[-1]] in need:
                    moves.append(Move("build", seat, {"card": CARD_IDS[row[-1]], "from": "row", "row": r + 1,
                                                      "foundation": need.index(RANK[row[-1]]) + 1}))
        for card in state.drawn:
            for r in range(ROWS):
                moves.append(Move("place", seat, {"card": CARD_IDS[card], "row": r + 1}))
        if state.phase == END or not state.drawn:
            moves.append(Move("end_turn", seat, {}))
        return moves

    def chance_outcome(self, state: State, rng: random.Random) -> Move | None:
        if state.phase != DRAW:
            return None
        seen = set(state.order)
        unseen = [c for c in DECK if c not in seen]
        cards = sorted(rng.sample(unseen, state.draw_size))
        return Move("draw", state.to_move, {"cards": [CARD_IDS[c] for c in cards]})

    # -- reading ----------------------------------------------------------------------
    def scores(self, state: State) -> tuple[int, int]:
        return (state.collected(0), state.collected(1))

    def view(self, state: State, seat: int | str | None) -> dict[str, Any]:
        # Drawn cards lie face up for both; the stock is only a count for everyone.
        foundations = []
        for s in (0, 1):
            need = state.needs(s)
            foundations.append([
                {"cards": [CARD_IDS[c] for c in p], "top": CARD_IDS[p[-1]] if p else None,
                 "next": rank_name(need[i]) if need[i] else None}
                for i, p in enumerate(state.foundations[s])
            ])
        return {
            "phase": state.phase,
            "up_seat": state.up,
            "down_seat": 1 - state.up,
            "to_move": state.to_move if state.phase != OVER else None,
            "stock": state.stock,
            "draws_left": (state.stock + 2) // 3,
            "drawn": [CARD_IDS[c] for c in state.drawn],
            "rows": [[CARD_IDS[c] for c in r] for r in state.rows],
            "row_tops": [CARD_IDS[r[-1]] if r else None for r in state.rows],
            "foundations": foundations,
            "collected": [state.collected(0), state.collected(1)],
            "placing": state.placing,
            "passes": state.passes,
            "interleave_placing": state.interleave,
            "super_winner": super_winner(state) if state.over and state.over[0] == "win" else None,
        }

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        """One line per event, in the rules text's words (raapstapel, rij, fundament)."""
        face = lambda card: card_face(parse_card(card, "card"))  # noqa: E731
        if type == "draw":
            return say("{who} draws {cards} ({left} left in the stock)", who=_who(before, before.to_move, True),
                       cards=[face(c) for c in data["cards"]], left=after.stock)
        who = _who(before, seat, True)
        if type == "build":
            if data["from"] == "drawn":
                text = say("{who} builds {card} from a drawn card on foundation {n}", who=who, card=face(data["card"]),
                           n=data["foundation"])
            else:
                text = say("{who} builds {card} from row {row} on foundation {n}", who=who, card=face(data["card"]),
                           row=data["row"], n=data["foundation"])
        elif type == "place":
            text = say("{who} puts {card} on row {row}", who=who, card=face(data["card"]), row=data["row"])
        elif type == "end_turn":
            passed = before.phase == END and not before.built
            text = say("{who} passes", who=who) if passed else say("{who} ends the turn", who=who)
        else:
            text = say("{type}", type=type)
        return text if after.over is None else say("{first}; {then}", first=text, then=over_text(after))

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        """Cheap notes: the race for the super-win, passes, and a card built
        from the rows that the partner could also have used."""
        notes: list[dict[str, Any]] = []
        if type == "build" and data.get("from") == "row":
            card = parse_card(data["card"], "card")
            if RANK[card] in before.needs(1 - seat):  # type: ignore[operator]
                notes.append(note("contested", say("{card} also fitted {who}'s foundations", card=card_face(card),
                                                   who=_who(before, 1 - seat))))  # type: ignore[operator]
        if type == "end_turn" and before.phase == END and not before.built:
            notes.append(note("pass", say("{who} passes ({n} in a row)", who=_who(before, seat), n=after.passes)))
        if after.over is not None and after.over[0] == "win":
            sw = super_winner(after)
            if sw is not None:
                notes.append(note("super_winner", say("{who} is the super-winner", who=_who(after, sw)), seat=sw))
        return notes

    # -- snapshots --------------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        return {
            "up": state.up, "interleave": state.interleave, "order": list(state.order), "drawn": list(state.drawn),
            "rows": [list(r) for r in state.rows],
            "foundations": [[list(p) for p in state.foundations[s]] for s in (0, 1)],
            "to_move": state.to_move, "phase": state.phase, "placing": state.placing, "built": state.built,
            "passes": state.passes, "over": None if state.over is None else list(state.over),
            "names": list(state.names),
        }

    def decode_state(self, obj: dict[str, Any]) -> State:
        return State(
            up=obj["up"], interleave=obj["interleave"], order=tuple(obj["order"]), drawn=tuple(obj["drawn"]),
            rows=tuple(tuple(r) for r in obj["rows"]),
            foundations=tuple(tuple(tuple(p) for p in obj["foundations"][s]) for s in (0, 1)),  # type: ignore[arg-type]
            to_move=obj["to_move"], phase=obj["phase"], placing=obj["placing"], built=obj["built"],
            passes=obj["passes"], over=None if obj["over"] is None else (obj["over"][0], obj["over"][1]),
            names=tuple(obj.get("names", ())),
        )


def super_winner(state: State) -> int | None:
    for s in (0, 1):
        if state.collected(s) >= SUPER:
            return s
    return None
