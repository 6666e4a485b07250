"""Troubadour (Dutch rules text, "dubbel patience"): 2–4 players, each with a deck
of his own, race to build four castles ace–ten by suit, helped and hindered by
three nobles chosen in secret every round.

The engine follows a physical table: a face-down card is unknown until it is
turned, and every card turned face up is checked against what can be there (see
``state.py``). A simulated match runs through the very same events; the server
draws each turned card uniformly from what it can be, which is the same as
shuffling up front. docs/games/troubadour.md lists the events and the readings
chosen where the text leaves room.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ..core import CHANCE, REFEREE, EventType, Game, MalformedEvent, Move, Result, RuleViolation, titled
from ..core import worded
from ..text import N_, Text, say, say_n
from .cards import (
    ALIASES,
    CARD_IDS,
    CARD_INDEX,
    CASTLE_SAID,
    JC,
    JD,
    JH,
    JS,
    KC,
    KD,
    KH,
    KS,
    NOBLE_IDS,
    NOBLE_INDEX,
    NOBLE_SAID,
    POWER_SAID,
    POWERS,
    QC,
    QD,
    QH,
    QS,
    SUITS,
    card_face,
    card_faces,
    face_of,
    mask_cards,
    parse_any,
    parse_card_id,
    parse_power,
    parse_suit,
)
from .describe import annotate as _annotate, describe as _describe
from .rules import RULES
from . import invariants as INV
from . import scene as _scene
from .state import (
    CHOOSE,
    DEAL,
    EXTRA,
    FACE_DOWN,
    FLIP_NAMES,
    JACK,
    NAMED,
    NO_TURN,
    ORDERED,
    OVER,
    PHASE_NAMES,
    PLAY,
    STD,
    TIE,
    UNORDERED,
    Player,
    State,
    Turn,
    cons_list,
    cons_reversed,
    decode,
    encode,
    fits_castle,
    fits_on,
    fits_village,
    run_start,
)

TABLE = "table"
ALL_40 = (1 << 40) - 1
_new = tuple.__new__
_STATE_IDX = {name: i for i, name in enumerate(State._fields)}
_TRIOS = tuple(combinations(range(12), 3))


def _set(s: State, **changes: Any) -> State:
    """``_replace`` without its overhead (the apply path builds a state per event)."""
    values = list(s)
    for name, value in changes.items():
        values[_STATE_IDX[name]] = value
    return _new(State, values)


_PLAYERS, _TURN = _STATE_IDX["players"], _STATE_IDX["turn"]


def _set_pt(s: State, players: tuple, turn: Turn) -> State:
    """The state with new players and turn (the hot path: flips and builds)."""
    values = list(s)
    values[_PLAYERS] = players
    values[_TURN] = turn
    return _new(State, values)


def _set_t(s: State, turn: Turn) -> State:
    values = list(s)
    values[_TURN] = turn
    return _new(State, values)


def _player(p: Player, villages=None, castles=None, discard=..., ndiscard=None, draw=None, ndraw=None, pool=None) -> Player:
    return _new(
        Player,
        (
            p[0] if villages is None else villages,
            p[1] if castles is None else castles,
            p[2] if discard is ... else discard,
            p[3] if ndiscard is None else ndiscard,
            p[4] if draw is None else draw,
            p[5] if ndraw is None else ndraw,
            p[6] if pool is None else pool,
        ),
    )


def _kth_bit(mask: int, k: int) -> int:
    """The card of the k-th lowest set bit of ``mask`` (a uniform pick when k is)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _put(tup: tuple, i: int, value: Any) -> tuple:
    return tup[:i] + (value,) + tup[i + 1 :]


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


CARD = {"type": "string", "description": N_('a card: "7H", "10S", "AD" … (also "harten 7", "7♥", "seven of hearts")')}
NOBLE = {"type": "string", "description": N_('a noble: "JS", "QD", "KH" … (also "schoppen boer", "J♠", "jack of spades")')}
VILLAGE = {"type": "integer", "minimum": 1, "maximum": 5, "description": N_("village 1–5")}
SEAT_FIELD = {"type": "integer", "minimum": 0, "maximum": 3}
REVEAL = {"type": "integer", "minimum": 0,
          "description": N_("filled in by the server: which secret reveal this pick belongs to")}


def _who(s: State, seat: int) -> str | Text:
    """A seat as a sentence names it: its player's name ("seat 2" only for a seat the match has not)."""
    if seat is None or not isinstance(seat, int) or not 0 <= seat < s.n or not s.names:
        return say("seat {seat}", seat=str(seat))
    return s.names[seat]


def _face(x: str) -> Any:
    """A card or noble id as a sentence names it: "♥7", a noble "♠J" (Dutch "♠B")."""
    return face_of(x)


def castle_cards(p: Player) -> int:
    return sum(p.castles)


class Troubadour(Game):
    id = "troubadour"
    name = "Troubadour"
    version = "2"
    min_players = 2
    max_players = 4
    summary = N_(
        "Double patience for 2–4 players with a deck each: build four castles ace–ten by suit first, "
        "with three nobles chosen in secret each round to attack, protect, turn extra cards or build from hiding."
    )
    says = True
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset({"choose", "counter_pick", "build", "turn_over", "turn_top", "attack", "extra_card",
                                "extra_draw", "hearts_queen", "name_card", "end_turn"})

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    aliases = ALIASES

    options_schema = {
        "type": "object",
        "properties": {
            "tie_break": {
                "type": "string",
                "enum": ["die", "nobles"],
                "default": "die",
                "description": N_("When players chose exactly the same three nobles: they roll a die and the lowest "
                                  "roll starts, or each picks one more noble in secret (the queen beats the jack, the "
                                  "king the queen, the jack the king; the beaten player starts)."),
            },
            "protected_attack": {
                "type": "string",
                "enum": ["stopped", "refused"],
                "default": "stopped",
                "description": N_("An attack on a player who chose the diamonds noble that protects against it: it "
                                  "is made and stopped, and the attacker's spades nobles are spent; or it may not be "
                                  "made at all."),
            },
            "turn_order": {
                "type": "string",
                "enum": ["rank", "clockwise"],
                "default": "rank",
                "description": N_("With three or four players: everyone plays in the order of the chosen nobles, "
                                  "lowest first; or the lowest starts and the turn passes clockwise."),
            },
        },
        "additionalProperties": False,
    }
    options_schema = titled(options_schema, tie_break=N_("Tie-break between equal trios"),
                            protected_attack=N_("An attack on a protected player"), turn_order=N_("Turn order with 3–4 players"))
    options_schema = worded(
        options_schema,
        tie_break={"die": N_("a die"), "nobles": N_("another noble")},
        protected_attack={"stopped": N_("stopped"), "refused": N_("refused")},
        turn_order={"rank": N_("by rank"), "clockwise": N_("clockwise")})

    event_types = {
        "deal": EventType(
            "deal",
            CHANCE,
            _obj({"face_up": {"type": "array", "items": CARD, "minItems": 5, "maxItems": 5}}, ["face_up"]),
            N_("The set-up of one player's five villages: the face-up third card of villages 1–5; the two cards under "
               "each stay face down and unknown."),
            ("kastelen en dorpen klaarleggen",),
        ),
        "choose": EventType(
            "choose",
            "seat",
            _obj(
                {"nobles": {"type": "array", "items": NOBLE, "minItems": 3, "maxItems": 3}, "reveal": REVEAL},
                ["nobles"],
            ),
            N_("A player chooses three nobles in secret for this round; the others see them only when every player "
               "has chosen, and then all together."),
            ("drie edelen kiezen",),
        ),
        "reveal": EventType(
            "reveal",
            TABLE,
            _obj(
                {
                    "nobles": {
                        "type": "array",
                        "items": {"type": "array", "items": NOBLE, "minItems": 3, "maxItems": 3},
                        "minItems": 2,
                        "maxItems": 4,
                    }
                },
                ["nobles"],
            ),
            N_("The three nobles every player laid open, in seat order: how the table records the choice at once."),
            ("edelen openleggen",),
        ),
        "die": EventType(
            "die",
            CHANCE,
            _obj(
                {
                    "rolls": {
                        "type": "array",
                        "items": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
                        "minItems": 2,
                        "maxItems": 4,
                    }
                },
                ["rolls"],
            ),
            N_("Equal trios, when the table breaks ties with a die: the roll of each tied player (none for the others)."),
            ("dobbelsteen gooien",),
        ),
        "counter_pick": EventType(
            "counter_pick",
            "seat",
            _obj({"noble": NOBLE, "reveal": REVEAL}, ["noble"]),
            N_("Equal trios, when the table breaks ties with one more noble: a tied player picks one noble outside his "
               "trio in secret."),
            ("edele tegenkiezen",),
        ),
        "counter_reveal": EventType(
            "counter_reveal",
            TABLE,
            _obj(
                {
                    "nobles": {
                        "type": "array",
                        "items": {"anyOf": [NOBLE, {"type": "null"}]},
                        "minItems": 2,
                        "maxItems": 4,
                    }
                },
                ["nobles"],
            ),
            N_("Equal trios, broken with one more noble: the picks laid open (none for the players not tied)."),
            ("tegenkeuze openleggen",),
        ),
        "turn_over": EventType(
            "turn_over",
            "seat",
            _obj({"clubs_jack": {"type": "boolean", "default": False}}, []),
            N_("The standard turn-over: one card from the draw pile onto the discard pile (which card it is follows); "
               "with the clubs jack it goes on until a card fits."),
            ("standaardkaartdraai",),
        ),
        "flip": EventType(
            "flip",
            CHANCE,
            _obj({"card": CARD}, ["card"]),
            N_("The card turned from the player's draw pile onto his discard pile. When the draw pile is empty, the "
               "discard pile is first turned over, unshuffled."),
            ("kaart draaien",),
        ),
        "turn_up": EventType(
            "turn_up",
            CHANCE,
            _obj({"village": VILLAGE, "card": CARD}, ["village", "card"]),
            N_("A face-down village card turned face up, after its owner turned up the top card of the village or "
               "played the queen of hearts."),
            ("kaart omdraaien (dorp)",),
        ),
        "shuffled": EventType(
            "shuffled",
            CHANCE,
            _obj({}, []),
            N_("Only at a real table, when something went wrong: the player's draw pile was shuffled against the "
               "rules (say the discard pile was turned over shuffled), so the log forgets the order it knew and "
               "keeps which cards are in it."),
            ("geschud (tegen de regels)",),
        ),
        "build": EventType(
            "build",
            "seat",
            _obj(
                {
                    "card": CARD,
                    "to": {"anyOf": [VILLAGE, {"type": "string"}], "description": N_('"castle" or a village 1–5')},
                    "hearts_jack": {"type": "boolean"},
                },
                ["card", "to"],
            ),
            N_("Move a face-up card (from the top of the discard pile or from a village) to its castle or onto a "
               "village; a card inside a village takes the run above it along, or moves alone with the hearts jack."),
            ("bouwen",),
        ),
        "attack": EventType(
            "attack",
            "seat",
            _obj(
                {
                    "power": {"type": "string", "description": N_("JS (one village), QS (every village's top), JQKS (one castle)")},
                    "target": SEAT_FIELD,
                    "village": VILLAGE,
                    "castle": {"type": "string", "description": N_("the castle's suit: S, D, C or H")},
                },
                ["power", "target"],
            ),
            N_("A spades attack on one opponent; stopped (and the nobles spent) when he is protected by the matching "
               "diamonds noble."),
            ("aanval",),
        ),
        "extra_draw": EventType(
            "extra_draw",
            "seat",
            _obj({"power": {"type": "string", "description": N_("QC (2 cards) or KC (3 cards)")}}, ["power"]),
            N_("Queen or king of clubs: 2 or 3 extra cards after the standard turn-over; the first is turned now, each "
               "next one when the player turns it."),
            ("extra kaarten draaien",),
        ),
        "extra_card": EventType(
            "extra_card",
            "seat",
            _obj({}, []),
            N_("Queen or king of clubs: turn the next of their extra cards; each extra card may be used before the next "
               "is turned."),
            ("volgende extra kaart draaien",),
        ),
        "turn_top": EventType(
            "turn_top",
            "seat",
            _obj({"village": VILLAGE}, ["village"]),
            N_("In his own turn, when he chooses, the player turns up the face-down card on top of one of his "
               "villages; which card it is follows."),
            ("bovenste kaart omdraaien",),
        ),
        "hearts_queen": EventType(
            "hearts_queen",
            "seat",
            _obj({"village": VILLAGE, "slot": {"type": "integer", "minimum": 1, "description": N_("1 = bottom card")}}, ["village"]),
            N_("Queen of hearts: turn up one face-down card of a village (counted from the bottom; if none is given, the "
               "highest face-down card); which card it is follows."),
            ("kaart omdraaien met harten vrouw",),
        ),
        "name_card": EventType(
            "name_card",
            "seat",
            _obj({"card": CARD}, ["card"]),
            N_("Queen+king of hearts: name a building card that is not in a village; cards are turned until it appears "
               "(instead of the standard turn-over)."),
            ("kaart noemen",),
        ),
        "end_turn": EventType("end_turn", "seat", _obj({}, []), N_("The player declares his turn over."), ("beurt voorbij",)),
    }

    # -- set-up ---------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        n = len(players)
        fresh = Player(
            villages=((FACE_DOWN, FACE_DOWN),) * 5,
            castles=(0, 0, 0, 0),
            discard=None,
            ndiscard=0,
            draw=((UNORDERED, 0, 25, 25),),
            ndraw=25,
            pool=ALL_40,
        )
        return State(
            n=n,
            tie_break=options.get("tie_break", "die"),
            turn_order=options.get("turn_order", "rank"),
            phase=DEAL,
            round=0,
            players=(fresh,) * n,
            secret=(None,) * n,
            trios=None,
            reveals=(),
            order=(),
            pos=0,
            turn=NO_TURN,
            due=(),
            winner=None,
            start_castles=(0,) * n,
            names=tuple(players),
            protected_attack=options.get("protected_attack", "stopped"),
        )

    # -- normalize ------------------------------------------------------------------------
    def normalize(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        f = _NORMALIZE.get(type)
        if f is None:
            raise MalformedEvent(say("unknown event type {type} for Troubadour", type=repr(type)), field="type")
        return f(self, state, seat, data)

    @staticmethod
    def _parse_trio(row, field: str) -> list[str]:
        """A trio of nobles in canonical ids, in rank order."""
        parsed = sorted((parse_any(x, f"{field}[{i}]") for i, x in enumerate(row)), key=lambda k: (k[0] != "noble", k[1]))
        return [NOBLE_IDS[x] if k == "noble" else CARD_IDS[x] for k, x in parsed]

    @staticmethod
    def _reveal_number(state, data) -> int:
        """The secret reveal a pick belongs to (stored with it, so the log's
        view knows when the pick became public)."""
        reveal = len(state.reveals)
        if "reveal" in data and data["reveal"] != reveal:
            raise RuleViolation(
                "troubadour.secret_choice",
                say("this pick is for secret reveal {pick}, but the match is at reveal {reveal}", pick=data["reveal"],
                    reveal=reveal),
            )
        return reveal

    def _n_choose(self, state, seat, data):
        return {"nobles": self._parse_trio(data["nobles"], "nobles"), "reveal": self._reveal_number(state, data)}

    def _n_reveal(self, state, seat, data):
        rows = data["nobles"]
        if len(rows) != state.n:
            raise MalformedEvent(say("nobles: one trio per player, {n} in all, not {got}", n=state.n, got=len(rows)),
                                 field="nobles")
        return {"nobles": [self._parse_trio(row, f"nobles[{s}]") for s, row in enumerate(rows)]}

    def _n_counter_pick(self, state, seat, data):
        return {"noble": parse_card_id(data["noble"], "noble"), "reveal": self._reveal_number(state, data)}

    def _n_counter_reveal(self, state, seat, data):
        rows = data["nobles"]
        if len(rows) != state.n:
            raise MalformedEvent(say("nobles: one entry per player (null if not tied), {n} in all", n=state.n),
                                 field="nobles")
        return {"nobles": [None if x is None else parse_card_id(x, f"nobles[{i}]") for i, x in enumerate(rows)]}

    def _n_die(self, state, seat, data):
        rolls = data["rolls"]
        if len(rolls) != state.n:
            raise MalformedEvent(say("rolls: one entry per player (null if not tied), {n} in all", n=state.n),
                                 field="rolls")
        return {"rolls": list(rolls)}

    def _n_deal(self, state, seat, data):
        return {"face_up": [parse_card_id(x, f"face_up[{i}]") for i, x in enumerate(data["face_up"])]}

    def _n_card(self, state, seat, data):
        return {"card": parse_card_id(data["card"], "card")}

    def _n_turn_up(self, state, seat, data):
        return {"village": data["village"], "card": parse_card_id(data["card"], "card")}

    def _n_empty(self, state, seat, data):
        return {}

    def _n_village(self, state, seat, data):
        return {"village": data["village"]}

    def _n_turn_over(self, state, seat, data):
        return {"clubs_jack": bool(data.get("clubs_jack", False))}

    def _n_build(self, state, seat, data):
        to = data["to"]
        if isinstance(to, str):
            key = to.strip().lower()
            if key in ("castle", "kasteel"):
                to = "castle"
            elif key.isdigit() and 1 <= int(key) <= 5:
                to = int(key)
            else:
                raise MalformedEvent(say('to: "castle" or a village 1–5, not {to}', to=repr(data["to"])), field="to")
        out = {"card": parse_card_id(data["card"], "card"), "to": to}
        if data.get("hearts_jack"):
            out["hearts_jack"] = True
        return out

    def _n_attack(self, state, seat, data):
        power = parse_power(data["power"], "power", ("JS", "QS", "JQKS"))
        target = data["target"]
        if not 0 <= target < state.n:
            raise MalformedEvent(say("target: a seat 0–{last}", last=state.n - 1), field="target")
        out: dict[str, Any] = {"power": power, "target": target}
        if power == "JS":
            if "village" not in data or "castle" in data:
                raise MalformedEvent(say("the spades jack attacks one village: give village (1–5), no castle"),
                                     field="village")
            out["village"] = data["village"]
        elif power == "JQKS":
            if "castle" not in data or "village" in data:
                raise MalformedEvent(say("jack+queen+king of spades attack one castle: give castle (S, D, C or H), no "
                                         "village"), field="castle")
            out["castle"] = parse_suit(data["castle"], "castle")
        elif "village" in data or "castle" in data:
            raise MalformedEvent(say("the spades queen takes the top card of every village: give only the target"),
                                 field="power")
        return out

    def _n_extra(self, state, seat, data):
        return {"power": parse_power(data["power"], "power", ("QC", "KC"))}

    def _n_hearts_queen(self, state, seat, data):
        v = data["village"]
        out = {"village": v}
        if "slot" in data:
            out["slot"] = data["slot"]
            return out
        who = state.current if seat is None else seat
        if who is None or state.phase != PLAY:
            raise RuleViolation("troubadour.own_turn", say("the hearts queen is played in the player's own turn"))
        village = state.players[who].villages[v - 1]
        downs = [i for i, c in enumerate(village) if c == FACE_DOWN]
        if not downs:
            raise RuleViolation("troubadour.hearts_queen", say("village {village} of {who} has no face-down card to turn",
                                                             village=v, who=_who(state, who)))
        out["slot"] = downs[-1] + 1
        return out

    # -- apply ------------------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        handler = _APPLY.get(type)
        if handler is None:
            raise MalformedEvent(say("unknown event type {type} for Troubadour", type=repr(type)), field="type")
        return handler(self, state, seat, data)


    # set-up ---------------------------------------------------------------------------------
    def _a_deal(self, s: State, seat, data):
        if s.phase != DEAL:
            raise RuleViolation("troubadour.setup", say("the villages are dealt once, at the start; they are all dealt"))
        if seat is None:
            seat = next(i for i, p in enumerate(s.players) if len(p.villages[0]) == 2)
        p = s.players[seat]
        if len(p.villages[0]) != 2:
            raise RuleViolation("troubadour.setup", say("the villages of {who} are already dealt", who=_who(s, seat)))
        pool = p.pool
        cards = []
        for i, x in enumerate(data["face_up"]):
            c = self._building(x, "troubadour.unseen_card")
            bit = 1 << c
            if not pool & bit:
                raise RuleViolation(
                    "troubadour.unseen_card",
                    say("{card} appears twice among the face-up cards of {who}'s villages; each card is once in a deck",
                        card=card_face(c), who=_who(s, seat)),
                )
            pool ^= bit
            cards.append(c)
        villages = tuple((FACE_DOWN, FACE_DOWN, c) for c in cards)
        p = _player(p, villages=villages, pool=pool)
        players = _put(s.players, seat, p)
        if all(len(q.villages[0]) == 3 for q in players):
            return self._new_round(_set(s, players=players))
        return _set(s, players=players)

    def _building(self, x: str, rule: str) -> int:
        c = CARD_INDEX.get(x)
        if c is None:
            if x in NOBLE_INDEX:
                raise RuleViolation(rule, say("{noble} is a noble; the piles and villages hold only building cards, ace "
                                              "to ten", noble=NOBLE_SAID[NOBLE_INDEX[x]]))
            raise MalformedEvent(say("{card} is not a card", card=repr(x)), field="card")
        return c

    def _new_round(self, s: State) -> State:
        n = s.n
        return _set(
            s, phase=CHOOSE, round=s.round + 1, secret=(None,) * n, trios=None, order=(), pos=0, turn=NO_TURN
        )

    # nobles -------------------------------------------------------------------------------------
    def _trio(self, names: list[str], who: str | Text) -> tuple[int, int, int]:
        out = []
        for x in names:
            nb = NOBLE_INDEX.get(x)
            if nb is None:
                raise RuleViolation("troubadour.choose", say("{who}: {card} is a building card; the nobles are the jacks, "
                                                             "queens and kings", who=who, card=_face(x)))
            out.append(nb)
        if len(set(out)) != 3:
            raise RuleViolation("troubadour.choose", say("{who}: three different nobles, not {nobles}", who=who,
                                                         nobles=[_face(x) for x in names]))
        return tuple(sorted(out))  # type: ignore[return-value]

    def _a_choose(self, s: State, seat, data):
        if s.phase != CHOOSE:
            raise RuleViolation("troubadour.rounds", say("nobles are chosen at the start of a round, not now"))
        if s.secret[seat] is not None:
            raise RuleViolation("troubadour.secret_choice", say("{who} has already chosen his nobles this round",
                                                                 who=_who(s, seat)))
        trio = self._trio(data["nobles"], _who(s, seat))
        secret = _put(s.secret, seat, trio)
        if any(x is None for x in secret):
            return _set(s, secret=secret)
        return self._revealed(s, secret)

    def _a_reveal(self, s: State, seat, data):
        if s.phase != CHOOSE:
            raise RuleViolation("troubadour.rounds", say("nobles are revealed at the start of a round, not now"))
        chosen = [i for i, x in enumerate(s.secret) if x is not None]
        if chosen:
            raise RuleViolation(
                "troubadour.secret_choice",
                say("{players} already chose in secret; enter the others' choices one by one, each in secret",
                    players=[_who(s, i) for i in chosen]),
            )
        secret = tuple(self._trio(row, _who(s, i)) for i, row in enumerate(data["nobles"]))
        return self._revealed(s, secret)

    def _revealed(self, s: State, trios: tuple) -> State:
        reveals = s.reveals + (trios,)
        # lowest trio first: compare lowest nobles, then the second, then the third
        seats = sorted(range(s.n), key=lambda i: trios[i])
        slots: list[tuple[int, ...]] = []
        for i in seats:
            if slots and trios[slots[-1][0]] == trios[i]:
                slots[-1] = slots[-1] + (i,)
            else:
                slots.append((i,))
        s = _set(
            s,
            trios=trios,
            secret=(None,) * s.n,
            reveals=reveals,
            order=tuple(slots),
            start_castles=tuple(castle_cards(p) for p in s.players),
        )
        return self._ordered(s)

    def _tie_slot(self, s: State) -> int | None:
        order = s.order
        last = 1 if s.turn_order == "clockwise" else len(order)
        for i in range(last):
            if len(order[i]) > 1:
                return i
        return None

    def _ordered(self, s: State) -> State:
        i = self._tie_slot(s)
        if i is not None:
            return _set(s, phase=TIE, secret=(None,) * s.n)
        order = s.order
        if s.turn_order == "clockwise":
            first = order[0][0]
            order = tuple(((first + k) % s.n,) for k in range(s.n))
        return _set(s, phase=PLAY, order=order, pos=0, turn=NO_TURN, secret=(None,) * s.n)

    def _a_die(self, s: State, seat, data):
        i = self._tie_slot(s) if s.phase == TIE else None
        if i is None or s.tie_break != "die":
            raise RuleViolation("troubadour.tie_die", say("a die is rolled only when trios are exactly equal and the "
                                                         "table breaks ties with a die"))
        group = s.order[i]
        rolls = data["rolls"]
        for t in range(s.n):
            if (rolls[t] is None) != (t not in group):
                raise RuleViolation("troubadour.tie_die", say("the tied players {players} roll, and only they: give a roll "
                                                              "for each of them and none for the others",
                                                              players=[_who(s, x) for x in group]))
        values = sorted({rolls[t] for t in group})
        parts = tuple(tuple(t for t in group if rolls[t] == v) for v in values)
        order = s.order[:i] + parts + s.order[i + 1 :]
        return self._ordered(_set(s, order=order))

    def _counter_check(self, s: State, t: int, x: str) -> int:
        nb = NOBLE_INDEX.get(x)
        if nb is None:
            raise RuleViolation("troubadour.tie_nobles", say("{card} is a building card; pick a noble", card=_face(x)))
        if nb in s.trios[t]:  # type: ignore[index]
            raise RuleViolation(
                "troubadour.tie_nobles",
                say("{who} picks from the nine nobles outside his trio; {noble} is in it", who=_who(s, t),
                    noble=NOBLE_SAID[nb]),
            )
        return nb

    def _a_counter_pick(self, s: State, seat, data):
        i = self._tie_slot(s) if s.phase == TIE else None
        if i is None or s.tie_break != "nobles":
            raise RuleViolation("troubadour.tie_nobles", say("a noble is picked against a tie only when trios are exactly "
                                                            "equal and the table breaks ties with one more noble"))
        group = s.order[i]
        if seat not in group:
            raise RuleViolation("troubadour.tie_nobles", say("only the tied players ({players}) pick now",
                                                            players=[_who(s, x) for x in group]))
        if s.secret[seat] is not None:
            raise RuleViolation("troubadour.secret_choice", say("{who} has already picked", who=_who(s, seat)))
        nb = self._counter_check(s, seat, data["noble"])
        secret = _put(s.secret, seat, nb)
        if any(secret[t] is None for t in group):
            return _set(s, secret=secret)
        return self._counter_resolve(s, i, group, secret)

    def _a_counter_reveal(self, s: State, seat, data):
        i = self._tie_slot(s) if s.phase == TIE else None
        if i is None or s.tie_break != "nobles":
            raise RuleViolation("troubadour.tie_nobles", say("a noble is picked against a tie only when trios are exactly "
                                                            "equal and the table breaks ties with one more noble"))
        group = s.order[i]
        if any(x is not None for x in s.secret):
            raise RuleViolation("troubadour.secret_choice", say("some tied players already picked in secret; enter "
                                                                 "the others' picks one by one, each in secret"))
        picks = data["nobles"]
        secret = []
        for t in range(s.n):
            if (picks[t] is None) != (t not in group):
                raise RuleViolation("troubadour.tie_nobles", say("the tied players ({players}) pick, and only they",
                                                                players=[_who(s, x) for x in group]))
            secret.append(None if picks[t] is None else self._counter_check(s, t, picks[t]))
        return self._counter_resolve(s, i, group, tuple(secret))

    def _counter_resolve(self, s: State, i: int, group: tuple[int, ...], secret: tuple) -> State:
        reveals = s.reveals + (secret,)
        ranks = {secret[t] % 3 for t in group}
        if len(ranks) == 2:
            # queen beats jack, king beats queen, jack beats king: the beaten rank starts
            beaten = {frozenset((0, 1)): 0, frozenset((1, 2)): 1, frozenset((0, 2)): 2}[frozenset(ranks)]
            losers = tuple(t for t in group if secret[t] % 3 == beaten)
            winners = tuple(t for t in group if secret[t] % 3 != beaten)
            order = s.order[:i] + (losers, winners) + s.order[i + 1 :]
            return self._ordered(_set(s, order=order, reveals=reveals, secret=(None,) * s.n))
        return _set(s, reveals=reveals, secret=(None,) * s.n)  # pick again

    # the turn ---------------------------------------------------------------------------------
    def _mine(self, s: State, seat) -> tuple[Player, Turn]:
        if s.phase != PLAY:
            if s.phase == OVER:
                raise RuleViolation("troubadour.win", say("the game is over"))
            raise RuleViolation("troubadour.rounds", say("not now: the round's nobles are not yet chosen and revealed"))
        cur = s.order[s.pos][0]
        if seat != cur:
            raise RuleViolation("troubadour.own_turn", say("it is {who}'s turn, not {other}'s", who=_who(s, cur),
                                                           other=_who(s, seat)))
        if s.due:
            d = s.due[0]
            raise RuleViolation(
                "troubadour.face_down_turned",
                say("first record the face-down card of village {village} of {who} that is turned up", village=d[1] + 1,
                    who=_who(s, d[0])),
            )
        if s.turn.flip:
            raise RuleViolation("troubadour.no_more_flips", say("cards are still being turned; record them first"))
        return s.players[seat], s.turn

    def _noble(self, s: State, seat: int, t: Turn, nobles: tuple[int, ...], label: Text) -> int:
        """The ``used`` mask after playing ``nobles``; RuleViolation when not chosen or used."""
        trio = s.trios[seat]  # type: ignore[index]
        for nb in nobles:
            if nb not in trio:
                raise RuleViolation(
                    "troubadour.nobles_chosen",
                    say("{who} did not choose {noble} this round (chose {nobles})", who=_who(s, seat), noble=NOBLE_SAID[nb],
                        nobles=[_face(NOBLE_IDS[x]) for x in trio]),
                )
        used = t.used
        for nb in nobles:
            if used >> nb & 1:
                if nb in (JS, QS) and (len(nobles) == 3 or used >> KS & 1):
                    raise RuleViolation(
                        "troubadour.spades_either_or",
                        say("{power}: {noble} was already used alone this turn; the spades jack and queen act either "
                            "alone or in the trio", power=label, noble=NOBLE_SAID[nb]) if len(nobles) == 3 else
                        say("{power}: {noble} was already used in jack+queen+king of spades this turn; the spades jack "
                            "and queen act either alone or in the trio", power=label, noble=NOBLE_SAID[nb]),
                    )
                raise RuleViolation(
                    "troubadour.once_per_turn",
                    say("{power}: {noble} has already exerted its power this turn; a noble acts once per turn",
                        power=label, noble=NOBLE_SAID[nb]),
                )
        for nb in nobles:
            used |= 1 << nb
        return used

    def _a_turn_over(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        if t.std:
            raise RuleViolation("troubadour.standard_turn_over", say(
                "one standard turn-over per turn, and queen+king of hearts replaced it this turn") if t.used >> KH & 1
                else say("one standard turn-over per turn, and it was done this turn"))
        if p.ndraw + p.ndiscard == 0:
            raise RuleViolation("troubadour.standard_turn_over", say("the draw pile and the discard pile are both empty: "
                                                                     "there is no card to turn"))
        used = t.used
        if data["clubs_jack"]:
            used = self._noble(s, seat, t, (JC,), NOBLE_SAID[JC])
        turn = Turn(used, True, (JACK if data["clubs_jack"] else STD, 0), None, t.flipped, t.extra)
        return _set_t(s, turn)

    def _a_flip(self, s: State, seat, data):
        t = s.turn
        if s.phase != PLAY or t.flip is None:
            raise RuleViolation("troubadour.no_more_flips", say("no card is to be turned now"))
        if s.due:
            raise RuleViolation("troubadour.face_down_turned", say("first record the face-down village card that was "
                                                                   "turned up"))
        cur = s.order[s.pos][0]
        if seat is not None and seat != cur:
            raise RuleViolation("troubadour.own_turn", say("the cards are turned from {who}'s draw pile, not {other}'s",
                                                           who=_who(s, cur), other=_who(s, seat)))
        c = self._building(data["card"], "troubadour.unseen_card")
        p = s.players[cur]
        p = self._pop_draw(s, cur, p, c)
        mode, arg = t.flip
        flip: tuple[int, int] | None = t.flip
        if mode == STD or mode == EXTRA:  # one card: an extra card is usable before the next is turned
            flip = None
        elif mode == NAMED:
            if c == arg:
                flip = None
        elif fits_castle(p.castles, c) or fits_village(p.villages, c):
            flip = None
        elif p.ndraw == 0 and not self._any_fits(p):
            flip = None  # clubs jack: nothing left that could fit (reading)
        turn = _new(Turn, (t.used, t.std, flip, None, t.flipped + 1, t.extra))
        return _set_pt(s, _put(s.players, cur, p), turn)

    @staticmethod
    def _any_fits(p: Player) -> bool:
        lst = p.discard
        castles, villages = p.castles, p.villages
        while lst is not None:
            c = lst[0]
            if fits_castle(castles, c) or fits_village(villages, c):
                return True
            lst = lst[1]
        return False

    def _pop_draw(self, s: State, seat: int, p: Player, c: int) -> Player:
        draw, ndraw, discard, ndiscard = p.draw, p.ndraw, p.discard, p.ndiscard
        if ndraw == 0:  # the discard pile is turned over, unshuffled
            if ndiscard == 0:
                raise RuleViolation("troubadour.standard_turn_over", say("the draw pile and the discard pile are empty"))
            draw = ((ORDERED, cons_reversed(discard), 0, ndiscard),)
            ndraw, discard, ndiscard = ndiscard, None, 0
        kind, a, b, n = draw[0]
        pool = p.pool
        bit = 1 << c
        if kind == ORDERED:
            if a[0] != c:
                raise RuleViolation(
                    "troubadour.recycle",
                    say("the next card of {who}'s draw pile is {next}, not {card}: it is the discard pile turned over "
                        "unshuffled, so its order is known", who=_who(s, seat), next=card_face(a[0]), card=card_face(c)),
                )
            seg = (ORDERED, a[1], 0, n - 1)
        elif a & bit:
            seg = (UNORDERED, a ^ bit, b, n - 1)
        elif b and pool & bit:
            pool ^= bit
            seg = (UNORDERED, a, b - 1, n - 1)
        else:
            raise RuleViolation(*self._not_there(s, seat, p, c, draw))
        draw = (seg,) + draw[1:] if n > 1 else draw[1:]
        return _new(Player, (p.villages, p.castles, (c, discard), ndiscard + 1, draw, ndraw - 1, pool))

    def _not_there(self, s: State, seat: int, p: Player, c: int, draw) -> tuple[str, Text]:
        who = _who(s, seat)
        kind, a, b, n = draw[0]
        where = self._where(p, c)[1]
        if b == 0:
            return (
                "troubadour.attack_under_pile",
                say_n(n, "the next card of {who}'s draw pile is the card an attack put under it ({cards}); {card} is not "
                      "it: it is {where}", "the next {n} cards of {who}'s draw pile are the cards an attack put under it "
                      "({cards}), in unknown order; {card} is not among them: it is {where}", who=who,
                      cards=card_faces(mask_cards(a)), card=card_face(c), where=where),
            )
        can = sorted(set(mask_cards(a)) | set(mask_cards(p.pool)))
        if len(can) <= 12:
            return "troubadour.unseen_card", say("{card} cannot come from {who}'s draw pile: it is {where}; the next card "
                                                 "can be {cards}", card=card_face(c), who=who, where=where,
                                                 cards=card_faces(can))
        return "troubadour.unseen_card", say("{card} cannot come from {who}'s draw pile: it is {where}; the next card can "
                                             "be any of the {n} cards not yet seen or located", card=card_face(c), who=who,
                                             where=where, n=len(can))

    def _where(self, p: Player, c: int) -> tuple[str, Text]:
        """Where a player's card is, as a kind ("castle", "discard_top", "discard", "village", "recycled",
        "attacked", "unseen", "nowhere") and as a sentence says it."""
        suit, rank = divmod(c, 10)
        if p.castles[suit] > rank:
            return "castle", say("on {castle}", castle=CASTLE_SAID[suit])
        lst, depth = p.discard, 0
        while lst is not None:
            if lst[0] == c:
                if depth == 0:
                    return "discard_top", say("the top card of the discard pile")
                return "discard", say_n(depth, "in the discard pile, under {n} card", "in the discard pile, under {n} cards")
            lst, depth = lst[1], depth + 1
        for v, village in enumerate(p.villages):
            if c in village:
                return "village", say("face up in village {village}", village=v + 1)
        above = 0
        for kind, a, b, n in p.draw:
            if kind == ORDERED:
                lst, k = a, 0
                while lst is not None:
                    if lst[0] == c:
                        return "recycled", say_n(above + k, "in the draw pile (the turned-over discard pile), {n} card "
                                                 "from the top", "in the draw pile (the turned-over discard pile), {n} "
                                                 "cards from the top")
                    lst, k = lst[1], k + 1
            elif a >> c & 1:
                return "attacked", say_n(above, "in the draw pile among the cards an attack put under it, below {n} card",
                                         "in the draw pile among the cards an attack put under it, below {n} cards")
            above += n
        if p.pool >> c & 1:
            return "unseen", say("still unseen (face down in a village or in the draw pile)")
        return "nowhere", say("nowhere: it is not a building card")

    def _a_turn_up(self, s: State, seat, data):
        v = data["village"] - 1
        match = [d for d in s.due if d[1] == v and (seat is None or d[0] == seat)]
        if not match:
            line = say("no face-down card of village {village} is to be turned up now", village=v + 1) if seat is None \
                else say("no face-down card of village {village} of {who} is to be turned up now", village=v + 1,
                         who=_who(s, seat))
            if s.due:
                line = say("{line}; to be turned up: {due}", line=line, due=[
                    say("village {village} of {who}", village=d[1] + 1, who=_who(s, d[0])) for d in s.due])
            raise RuleViolation("troubadour.face_down_turned", line)
        if len(match) > 1:
            raise RuleViolation("troubadour.face_down_turned", say("village {village} of several players is to be "
                                                                   "turned up; say whose", village=v + 1))
        d = match[0]
        owner, _, slot, by_queen = d
        c = self._building(data["card"], "troubadour.unseen_card")
        p = s.players[owner]
        if not p.pool >> c & 1:
            raise RuleViolation(
                "troubadour.unseen_card",
                say("{card} cannot lie face down in village {village} of {who}: it is {where}; the unseen cards are "
                    "{cards}", card=card_face(c), village=v + 1, who=_who(s, owner), where=self._where(p, c)[1],
                    cards=card_faces(mask_cards(p.pool))),
            )
        villages = _put(p.villages, v, _put(p.villages[v], slot, c))
        p = _player(p, villages=villages, pool=p.pool ^ (1 << c))
        due = tuple(x for x in s.due if x is not d)
        t = s.turn
        if by_queen and c % 10 == 0:
            t = t._replace(hq_ace=(v, slot))
        return _set(s, players=_put(s.players, owner, p), due=due, turn=t)

    def _a_shuffled(self, s: State, seat, data):
        cur = s.current
        if cur is None or s.turn.flip is None:
            raise RuleViolation("troubadour.recycle", say("a shuffled draw pile is recorded only when a card is to be "
                                                          "turned from it"))
        if seat is not None and seat != cur:
            raise RuleViolation("troubadour.own_turn", say("only {who}'s draw pile is being turned now", who=_who(s, cur)))
        p = s.players[cur]
        if p.ndraw == 0:  # the discard pile was turned over shuffled
            known = 0
            for c in cons_list(p.discard):
                known |= 1 << c
            p = _player(p, draw=((UNORDERED, known, 0, p.ndiscard),), ndraw=p.ndiscard, discard=None, ndiscard=0)
            return _set(s, players=_put(s.players, cur, p))
        if len(p.draw) == 1 and p.draw[0][0] == UNORDERED:
            raise RuleViolation(
                "troubadour.recycle",
                say("the log knows nothing of the order of {who}'s draw pile; a shuffle changes nothing",
                    who=_who(s, cur)),
            )
        known, unknown = 0, 0
        for kind, a, b, n in p.draw:
            if kind == ORDERED:
                for c in cons_list(a):
                    known |= 1 << c
            else:
                known |= a
                unknown += b
        p = _player(p, draw=((UNORDERED, known, unknown, p.ndraw),))
        return _set(s, players=_put(s.players, cur, p))

    def _a_build(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        c = self._building(data["card"], "troubadour.sources")
        to = data["to"]
        hj = data.get("hearts_jack", False)
        villages = p.villages
        used = t.used
        discard, ndiscard = p.discard, p.ndiscard
        src = -1
        if discard is not None and discard[0] == c:
            if hj:
                raise RuleViolation("troubadour.hearts_jack", say("the hearts jack takes a card from inside a village; {card} "
                                                              "is the top of the discard pile", card=card_face(c)))
            moved: tuple[int, ...] = (c,)
            discard, ndiscard = discard[1], ndiscard - 1
        else:
            idx = -1
            for v in range(5):
                village = villages[v]
                if c in village:
                    src, idx = v, village.index(c)
                    break
            if src < 0:
                kind, where = self._where(p, c)
                rule = "troubadour.castle_final" if kind == "castle" else (
                    "troubadour.discard_top" if kind in ("discard", "recycled") else "troubadour.sources")
                raise RuleViolation(rule, say("{card} cannot be taken: it is {where}; cards come from the top of the "
                                              "discard pile or of a village", card=card_face(c), where=where))
            village = villages[src]
            top = len(village) - 1
            if idx == top:
                if hj:
                    raise RuleViolation("troubadour.hearts_jack", say("{card} is the top card of village {village}: it needs no "
                                                                  "hearts jack", card=card_face(c), village=src + 1))
                moved = (c,)
                rest = village[:idx]
            elif hj:
                used = self._noble(s, seat, t, (JH,), NOBLE_SAID[JH])
                moved = (c,)
                rest = village[:idx] + village[idx + 1 :]
            elif t.hq_ace == (src, idx) and to == "castle":
                moved = (c,)
                rest = village[:idx] + village[idx + 1 :]
            else:
                if to == "castle":
                    raise RuleViolation(
                        "troubadour.sources",
                        say_n(top - idx, "only the top card of a village goes to a castle; {card} has {n} card on it in "
                              "village {village} (the hearts jack could take it)", "only the top card of a village goes "
                              "to a castle; {card} has {n} cards on it in village {village} (the hearts jack could take "
                              "it)", card=card_face(c), village=src + 1),
                    )
                if run_start(village) > idx:
                    raise RuleViolation(
                        "troubadour.run_move",
                        say("{card} is not the top of a run in village {village} ({cards} does not descend one by one in "
                            "alternating colour); only the top card, a run or a top part of a run moves",
                            card=card_face(c), village=src + 1, cards=card_faces(village[idx:])),
                    )
                moved = village[idx:]
                rest = village[:idx]
            villages = _put(villages, src, rest)
        castles = p.castles
        won = False
        if to == "castle":
            suit, rank = divmod(c, 10)
            h = castles[suit]
            if h != rank:
                if rank == 0:
                    raise RuleViolation("troubadour.castle_start", say("impossible: a second ace"))  # pragma: no cover
                if h == 0:
                    raise RuleViolation("troubadour.castle_start", say("{castle} has not been started: a castle starts with "
                                                                      "an ace", castle=CASTLE_SAID[suit]))
                raise RuleViolation(
                    "troubadour.castle_suit",
                    say("{castle} stands at {top}: only {next} goes on it, not {card}", castle=CASTLE_SAID[suit],
                        top=card_face(suit * 10 + h - 1), next=card_face(suit * 10 + h), card=card_face(c)),
                )
            castles = _put(castles, suit, h + 1)
            won = h == 9 and castles == (10, 10, 10, 10)
        else:
            w = to - 1
            if w == src and not hj:
                # the hearts jack may lay a card from inside a village on top of that same
                # village ("als bovenste kaart op een dorp"); nothing else moves onto its own village
                raise RuleViolation("troubadour.village_build", say("{card} is already in village {village}", card=card_face(c),
                                                                   village=to))
            dest = villages[w]
            if dest:
                top_card = dest[-1]
                if top_card == FACE_DOWN:
                    raise RuleViolation(
                        "troubadour.village_build",
                        say("the top card of village {village} lies face down: nothing goes on it until its owner turns "
                            "it up", village=to),
                    )
                if not fits_on(top_card, c):
                    rule = "troubadour.run_move" if len(moved) > 1 else "troubadour.village_build"
                    raise RuleViolation(
                        rule,
                        say("{card} does not fit on {top} (village {village}): a village takes a card one lower and of "
                            "the opposite colour", card=card_face(c), top=card_face(top_card), village=to),
                    )
            villages = _put(villages, w, dest + moved)
        p = _new(Player, (villages, castles, discard, ndiscard, p.draw, p.ndraw, p.pool))
        # a face-down card that became the top stays face down until its owner turns it (turn_top)
        turn = _new(Turn, (used, t.std, None, None, t.flipped, t.extra))
        if won:
            return _set(s, players=_put(s.players, seat, p), turn=turn, due=(), phase=OVER, winner=seat)
        return _set_pt(s, _put(s.players, seat, p), turn)

    def _a_attack(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        power = data["power"]
        target = data["target"]
        if target == seat:
            raise RuleViolation("troubadour.attack_one_opponent", say("an attack is aimed at an opponent, not at one's own "
                                                                      "cards"))
        used = self._noble(s, seat, t, POWERS[power], POWER_SAID[power])
        q = s.players[target]
        taken: list[int] = []
        down = 0
        villages = q.villages
        castles = q.castles
        rule = {"JS": "troubadour.spades_jack", "QS": "troubadour.spades_queen", "JQKS": "troubadour.spades_trio"}[power]
        if power == "JS":
            v = data["village"] - 1
            village = villages[v]
            if not village:
                raise RuleViolation(rule, say("village {village} of {who} is empty: there is nothing to take", village=v + 1,
                                              who=_who(s, target)))
            taken = [c for c in village if c >= 0]
            down = len(village) - len(taken)
            villages = _put(villages, v, ())
        elif power == "QS":
            if not any(villages):
                raise RuleViolation(rule, say("all villages of {who} are empty: there is nothing to take", who=_who(s, target)))
            new = []
            for village in villages:
                if village:
                    if village[-1] == FACE_DOWN:  # a top its owner has not turned up yet
                        down += 1
                    else:
                        taken.append(village[-1])
                    village = village[:-1]  # a face-down card that becomes the top stays face down
                new.append(village)
            villages = tuple(new)
        else:
            suit = SUITS.index(data["castle"])
            h = castles[suit]
            if h == 0:
                raise RuleViolation(rule, say("{who} has no cards on {castle}: there is nothing to take", who=_who(s, target),
                                              castle=CASTLE_SAID[suit]))
            taken = list(range(suit * 10, suit * 10 + h))
            castles = _put(castles, suit, 0)
        guard = {"JS": JD, "QS": QD, "JQKS": KD}[power]
        turn = _new(Turn, (used, t.std, None, None, t.flipped, t.extra))
        if guard in s.trios[target]:  # type: ignore[index]
            if s.protected_attack == "refused":
                raise RuleViolation(
                    {JD: "troubadour.diamonds_jack", QD: "troubadour.diamonds_queen", KD: "troubadour.diamonds_king"}[guard],
                    say("{who} chose {guard}, which protects against {power}; at this table such an attack is not "
                        "made", who=_who(s, target), guard=NOBLE_SAID[guard], power=POWER_SAID[power]),
                )
            return _set(s, turn=turn)  # stopped by protection: the nobles are spent
        mask = 0
        for c in taken:
            mask |= 1 << c
        k = len(taken) + down
        q = _player(q, villages=villages, castles=castles, draw=q.draw + ((UNORDERED, mask, down, k),), ndraw=q.ndraw + k)
        return _set_pt(s, _put(s.players, target, q), turn)

    def _a_extra(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        power = data["power"]
        if not t.std:
            raise RuleViolation(
                "troubadour.clubs_after_turn_over",
                say("{power} is played only after the standard turn-over (or after queen+king of hearts)",
                    power=POWER_SAID[power]),
            )
        if power == "KC":
            others = [o for o in range(s.n) if o != seat and (JC in s.trios[o] or QC in s.trios[o])]  # type: ignore[index]
            if not others:
                raise RuleViolation(
                    "troubadour.clubs_king",
                    say("the king of clubs gives extra cards only when an opponent chose the clubs jack or the clubs "
                        "queen this round"),
                )
        used = self._noble(s, seat, t, POWERS[power], POWER_SAID[power])
        # "Ieder van de extra gedraaide kaarten mag gebruikt worden": the extra cards are
        # turned one at a time; the first now, each next one with extra_card, so that each
        # can be built before the next covers it. The king's add to the queen's.
        extra = t.extra + (2 if power == "QC" else 3)
        if p.ndraw + p.ndiscard:
            return _set(s, turn=_new(Turn, (used, True, (EXTRA, 0), None, t.flipped, extra - 1)))
        return _set(s, turn=_new(Turn, (used, True, None, None, t.flipped, extra)))

    def _a_extra_card(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        if not t.extra:
            raise RuleViolation("troubadour.no_more_flips", say(
                "no extra card is left to turn this turn: the clubs queen and king turned all their extra cards")
                if t.used & ((1 << QC) | (1 << KC)) else
                say("no extra card is left to turn this turn: no clubs queen or king was played"))
        if p.ndraw + p.ndiscard == 0:
            raise RuleViolation(
                "troubadour.no_more_flips",
                say("the draw pile and the discard pile of {who} are both empty: there is no card to turn",
                    who=_who(s, seat)),
            )
        return _set_t(s, _new(Turn, (t.used, t.std, (EXTRA, 0), None, t.flipped, t.extra - 1)))

    def _a_turn_top(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        v = data["village"] - 1
        village = p.villages[v]
        if not village or village[-1] != FACE_DOWN:
            raise RuleViolation(
                "troubadour.face_down_turned",
                say("village {village} of {who} is empty: only a face-down card that is the top card of its village is "
                    "turned up this way", village=v + 1, who=_who(s, seat)) if not village else
                say("village {village} of {who} has {card} face up on top: only a face-down card that is the top card "
                    "of its village is turned up this way", village=v + 1, who=_who(s, seat),
                    card=card_face(village[-1])),
            )
        turn = _new(Turn, (t.used, t.std, None, None, t.flipped, t.extra))
        return _set(s, turn=turn, due=s.due + ((seat, v, len(village) - 1, False),))

    def _a_hearts_queen(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        v = data["village"] - 1
        slot = data["slot"] - 1
        village = p.villages[v]
        if slot >= len(village) or village[slot] != FACE_DOWN:
            raise RuleViolation(
                "troubadour.hearts_queen",
                say_n(len(village), "card {slot} from the bottom of village {village} is not a face-down card (the "
                      "village has {n} card; face down, counted from the bottom: {down})", "card {slot} from the bottom "
                      "of village {village} is not a face-down card (the village has {n} cards; face down, counted from "
                      "the bottom: {down})", slot=slot + 1, village=v + 1,
                      down=[i + 1 for i, c in enumerate(village) if c == FACE_DOWN] or say("none")),
            )
        used = self._noble(s, seat, t, (QH,), NOBLE_SAID[QH])
        return _set(s, turn=_new(Turn, (used, t.std, None, None, t.flipped, t.extra)), due=s.due + ((seat, v, slot, True),))

    def _a_name_card(self, s: State, seat, data):
        p, t = self._mine(s, seat)
        c = self._building(data["card"], "troubadour.hearts_queen_king")
        if t.std:
            raise RuleViolation(
                "troubadour.hearts_queen_king",
                say("queen+king of hearts replace the standard turn-over, which was already done this turn"),
            )
        used = self._noble(s, seat, t, (QH, KH), POWER_SAID["QKH"])
        if any(x == FACE_DOWN for village in p.villages for x in village):
            raise RuleViolation(
                "troubadour.hearts_queen_king",
                say("queen+king of hearts may be used only when no village card lies face down"),
            )
        kind, where = self._where(p, c)
        if kind in ("village", "castle"):
            raise RuleViolation(
                "troubadour.hearts_queen_king",
                say("name a card that can still be turned up: {card} is {where}", card=card_face(c), where=where),
            )
        return _set(s, turn=_new(Turn, (used, True, (NAMED, c), None, t.flipped, t.extra)))

    def _a_end_turn(self, s: State, seat, data):
        self._mine(s, seat)
        pos = s.pos + 1
        if pos < len(s.order):
            return _set(s, pos=pos, turn=NO_TURN)
        return self._new_round(s)

    # -- who acts ---------------------------------------------------------------------------
    def actors(self, state: State) -> tuple[Any, ...]:
        ph = state.phase
        if ph == PLAY:
            if state.due or state.turn.flip:
                return (CHANCE,)
            return (state.order[state.pos][0],)
        if ph == CHOOSE:
            waiting = tuple(i for i, x in enumerate(state.secret) if x is None)
            return waiting + (TABLE,) if len(waiting) == state.n else waiting
        if ph == TIE:
            if state.tie_break == "die":
                return (CHANCE,)
            group = state.order[self._tie_slot(state)]  # type: ignore[index]
            waiting = tuple(t for t in group if state.secret[t] is None)
            return waiting + (TABLE,) if len(waiting) == len(group) else waiting
        if ph == DEAL:
            return (CHANCE,)
        return ()

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self, state: State, seat: int | None) -> list[Move]:
        ph = state.phase
        if seat is None:
            return []  # a table reveal has too many combinations to list; see each seat's moves
        if ph == CHOOSE:
            if state.secret[seat] is not None:
                return []
            return [Move("choose", seat, {"nobles": [NOBLE_IDS[x] for x in trio], "reveal": len(state.reveals)}) for trio in _TRIOS]
        if ph == TIE:
            if seat not in self.actors(state):
                return []
            trio = state.trios[seat]  # type: ignore[index]
            return [Move("counter_pick", seat, {"noble": NOBLE_IDS[x], "reveal": len(state.reveals)}) for x in range(12) if x not in trio]
        if ph != PLAY or self.actors(state) != (seat,):
            return []
        return [Move(type_, seat, data) for type_, data in self.turn_moves(state, seat)]

    def turn_moves(self, s: State, seat: int) -> list[tuple[str, dict[str, Any]]]:
        """Every legal move of the player in turn (type, canonical data)."""
        p, t = s.players[seat], s.turn
        trio = s.trios[seat]  # type: ignore[index]
        used = t.used
        free = {nb for nb in trio if not used >> nb & 1}
        out: list[tuple[str, dict[str, Any]]] = []
        if t.hq_ace is not None:
            v, slot = t.hq_ace
            out.append(("build", {"card": CARD_IDS[p.villages[v][slot]], "to": "castle"}))
        if not t.std and p.ndraw + p.ndiscard:
            out.append(("turn_over", {"clubs_jack": False}))
            if JC in free:
                out.append(("turn_over", {"clubs_jack": True}))
        out.extend(("build", d) for d in self.build_moves(p, JH in free))
        out.extend(("turn_top", {"village": v + 1}) for v, village in enumerate(p.villages) if village and village[-1] == FACE_DOWN)
        refused = s.protected_attack == "refused"
        for o in range(s.n):
            if o == seat:
                continue
            q = s.players[o]
            # with protected_attack "refused", an attack on a player who chose its diamonds guard is no move at all
            guards = s.trios[o] if refused else ()  # type: ignore[index]
            if JS in free and JD not in guards:
                out.extend(("attack", {"power": "JS", "target": o, "village": v + 1}) for v in range(5) if q.villages[v])
            if QS in free and QD not in guards and any(q.villages):
                out.append(("attack", {"power": "QS", "target": o}))
            if JS in free and QS in free and KS in free and KD not in guards:
                out.extend(("attack", {"power": "JQKS", "target": o, "castle": SUITS[x]}) for x in range(4) if q.castles[x])
        if t.extra and p.ndraw + p.ndiscard:
            out.append(("extra_card", {}))
        if t.std:
            if QC in free:
                out.append(("extra_draw", {"power": "QC"}))
            if KC in free and any(JC in s.trios[o] or QC in s.trios[o] for o in range(s.n) if o != seat):  # type: ignore[index]
                out.append(("extra_draw", {"power": "KC"}))
        if QH in free:
            for v, village in enumerate(p.villages):
                out.extend(("hearts_queen", {"village": v + 1, "slot": i + 1}) for i, c in enumerate(village) if c == FACE_DOWN)
        if QH in free and KH in free and not t.std and not any(c == FACE_DOWN for v in p.villages for c in v):
            for c in self.nameable(p):
                out.append(("name_card", {"card": CARD_IDS[c]}))
        out.append(("end_turn", {}))
        return out

    @staticmethod
    def nameable(p: Player) -> list[int]:
        """Cards hearts queen+king may name: those in the draw or discard pile."""
        mask = ALL_40
        for village in p.villages:
            for c in village:
                if c >= 0:
                    mask &= ~(1 << c)
        for suit in range(4):
            for r in range(p.castles[suit]):
                mask &= ~(1 << (suit * 10 + r))
        return mask_cards(mask)

    @staticmethod
    def build_moves(p: Player, hearts_jack: bool) -> list[dict[str, Any]]:
        """Every legal build of ``p`` (canonical data)."""
        out: list[dict[str, Any]] = []
        villages, castles = p.villages, p.castles
        # (card, source village or -1, "top" | "run" | "hj")
        sources: list[tuple[int, int, str]] = []
        if p.discard is not None:
            sources.append((p.discard[0], -1, "top"))
        for v, village in enumerate(villages):
            if not village:
                continue
            top = len(village) - 1
            start = run_start(village)
            for i in range(start, top + 1):
                sources.append((village[i], v, "top" if i == top else "run"))
            if hearts_jack:
                sources.extend((village[i], v, "hj") for i in range(top) if village[i] >= 0)
        for c, v, how in sources:
            if how != "run" and fits_castle(castles, c):
                out.append({"card": CARD_IDS[c], "to": "castle", "hearts_jack": True} if how == "hj" else {"card": CARD_IDS[c], "to": "castle"})
            for w in range(5):
                if w == v and how != "hj":  # the hearts jack may lay the card on its own village's top
                    continue
                dest = villages[w]
                if not dest or fits_on(dest[-1], c):
                    out.append({"card": CARD_IDS[c], "to": w + 1, "hearts_jack": True} if how == "hj" else {"card": CARD_IDS[c], "to": w + 1})
        return out

    # -- chance -----------------------------------------------------------------------------
    def chance_outcome(self, state: State, rng: random.Random) -> Move | None:
        ph = state.phase
        if ph == DEAL:
            seat = next(i for i, p in enumerate(state.players) if len(p.villages[0]) == 2)
            cards = rng.sample(mask_cards(state.players[seat].pool), 5)
            return Move("deal", seat, {"face_up": [CARD_IDS[c] for c in cards]})
        if ph == TIE and state.tie_break == "die":
            group = state.order[self._tie_slot(state)]  # type: ignore[index]
            return Move("die", None, {"rolls": [rng.randint(1, 6) if t in group else None for t in range(state.n)]})
        if ph != PLAY:
            return None
        if state.due:
            owner, v, _, _ = state.due[0]
            pool = state.players[owner].pool
            c = _kth_bit(pool, rng.randrange(pool.bit_count()))
            return Move("turn_up", owner, {"village": v + 1, "card": CARD_IDS[c]})
        if state.turn.flip is None:
            return None
        seat = state.order[state.pos][0]
        p = state.players[seat]
        if p.ndraw == 0:
            lst = p.discard
            while lst[1] is not None:
                lst = lst[1]
            return Move("flip", seat, {"card": CARD_IDS[lst[0]]})
        kind, a, b, n = p.draw[0]
        if kind == ORDERED:
            c = a[0]
        else:
            k = rng.randrange(n)
            known = a.bit_count()
            c = _kth_bit(a, k) if k < known else _kth_bit(p.pool, rng.randrange(p.pool.bit_count()))
        return Move("flip", seat, {"card": CARD_IDS[c]})

    # -- reading ------------------------------------------------------------------------------
    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts: int = 2000) -> dict[str, Any]:
        """Estimated: games played on by this game's own bots (``engine.evaluation.estimate_log``)."""
        from ..evaluation import estimate_log
        from ..simulation import simulator_of

        return estimate_log(self, events, simulator_of(self), playouts, deadline)

    def result(self, state: State) -> Result | None:
        if state.winner is None:
            return None
        w = state.winner
        scores = tuple(castle_cards(p) for p in state.players)
        return Result("win", (w,), scores, say("{who} completed four castles in round {round}", who=_who(state, w),
                                               round=state.round))

    def view(self, state: State, seat: int | str | None) -> dict[str, Any]:
        referee = seat == REFEREE
        s = state
        players = []
        for i, p in enumerate(s.players):
            entry: dict[str, Any] = {
                "seat": i,
                "villages": [[None if c < 0 else CARD_IDS[c] for c in v] for v in p.villages],
                "castles": {SUITS[x]: (CARD_IDS[x * 10 + p.castles[x] - 1] if p.castles[x] else None) for x in range(4)},
                "castle_cards": castle_cards(p),
                "complete_castles": sum(1 for h in p.castles if h == 10),
                "draw_pile": p.ndraw,
                "discard_pile": {"count": p.ndiscard, "top": CARD_IDS[p.discard[0]] if p.discard is not None else None},
                "unseen": p.pool.bit_count(),
            }
            if s.trios is not None:
                entry["nobles"] = [NOBLE_IDS[x] for x in s.trios[i]]
            elif s.phase == CHOOSE:
                mine = s.secret[i]
                entry["chosen"] = mine is not None
                entry["nobles"] = [NOBLE_IDS[x] for x in mine] if mine is not None and (referee or seat == i) else None
            if referee:
                entry["discard_pile"]["cards"] = [CARD_IDS[c] for c in reversed(cons_list(p.discard))]
                entry["draw_segments"] = [
                    {"order": [CARD_IDS[c] for c in cons_list(a)]} if k == ORDERED else {"set": [CARD_IDS[c] for c in mask_cards(a)], "unknown": b}
                    for k, a, b, n in p.draw
                ]
                entry["unseen_cards"] = [CARD_IDS[c] for c in mask_cards(p.pool)]
            players.append(entry)
        out: dict[str, Any] = {"phase": PHASE_NAMES[s.phase], "round": s.round, "players": players}
        if s.phase in (TIE, PLAY, OVER) and s.order:
            out["order"] = [list(slot) for slot in s.order]
        if s.phase == TIE:
            group = s.order[self._tie_slot(s)]  # type: ignore[index]
            tie: dict[str, Any] = {"method": s.tie_break, "tied": list(group)}
            if s.tie_break == "nobles":
                tie["picked"] = [t for t in group if s.secret[t] is not None]
                tie["picks"] = {
                    str(t): NOBLE_IDS[s.secret[t]] for t in group if s.secret[t] is not None and (referee or seat == t)
                }
            out["tie"] = tie
        if s.phase == PLAY:
            t = s.turn
            out["turn"] = {
                "seat": s.order[s.pos][0],
                "turned_over": t.std,
                "used": [NOBLE_IDS[x] for x in range(12) if t.used >> x & 1],
                "turning": None if t.flip is None else {
                    "for": FLIP_NAMES[t.flip[0]],
                    **({"named": CARD_IDS[t.flip[1]]} if t.flip[0] == NAMED else {}),
                },
                "extra_cards_left": t.extra,
                "ace_to_castle": None if t.hq_ace is None else {"village": t.hq_ace[0] + 1, "slot": t.hq_ace[1] + 1},
            }
            out["due"] = [{"seat": d[0], "village": d[1] + 1, "slot": d[2] + 1} for d in s.due]
        if s.winner is not None:
            out["winner"] = s.winner
        return out

    def event_view(self, state: State, event: dict[str, Any], viewer: int | str | None) -> dict[str, Any]:
        type_ = event["type"]
        if type_ not in ("choose", "counter_pick"):
            return event
        seat = event["seat"]
        if viewer == seat and viewer is not None:
            return event
        data = event["data"]
        k = data.get("reveal")
        if isinstance(k, int) and k < len(state.reveals):
            shown = state.reveals[k][seat] if seat is not None and seat < len(state.reveals[k]) else None
            if type_ == "choose" and shown is not None and isinstance(shown, tuple):
                if [NOBLE_IDS[x] for x in shown] == data.get("nobles"):
                    return event
            if type_ == "counter_pick" and isinstance(shown, int) and NOBLE_IDS[shown] == data.get("noble"):
                return event
        hidden = {"reveal": k}
        if type_ == "choose":
            hidden["nobles"] = None
        else:
            hidden["noble"] = None
        return {**event, "data": hidden, "redacted": True}

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    # -- describing -------------------------------------------------------------------------
    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        return _describe(self, before, type, seat, data, after)

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        return _annotate(self, before, type, seat, data, after)

    # -- snapshots --------------------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode_state(self, obj: dict[str, Any]) -> State:
        return decode(obj)


_NORMALIZE = {
    "deal": Troubadour._n_deal,
    "choose": Troubadour._n_choose,
    "reveal": Troubadour._n_reveal,
    "die": Troubadour._n_die,
    "counter_pick": Troubadour._n_counter_pick,
    "counter_reveal": Troubadour._n_counter_reveal,
    "turn_over": Troubadour._n_turn_over,
    "flip": Troubadour._n_card,
    "turn_up": Troubadour._n_turn_up,
    "shuffled": Troubadour._n_empty,
    "build": Troubadour._n_build,
    "attack": Troubadour._n_attack,
    "extra_draw": Troubadour._n_extra,
    "extra_card": Troubadour._n_empty,
    "turn_top": Troubadour._n_village,
    "hearts_queen": Troubadour._n_hearts_queen,
    "name_card": Troubadour._n_card,
    "end_turn": Troubadour._n_empty,
}

_APPLY = {
    "deal": Troubadour._a_deal,
    "choose": Troubadour._a_choose,
    "reveal": Troubadour._a_reveal,
    "die": Troubadour._a_die,
    "counter_pick": Troubadour._a_counter_pick,
    "counter_reveal": Troubadour._a_counter_reveal,
    "turn_over": Troubadour._a_turn_over,
    "flip": Troubadour._a_flip,
    "turn_up": Troubadour._a_turn_up,
    "shuffled": Troubadour._a_shuffled,
    "build": Troubadour._a_build,
    "attack": Troubadour._a_attack,
    "extra_draw": Troubadour._a_extra,
    "extra_card": Troubadour._a_extra_card,
    "turn_top": Troubadour._a_turn_top,
    "hearts_queen": Troubadour._a_hearts_queen,
    "name_card": Troubadour._a_name_card,
    "end_turn": Troubadour._a_end_turn,
}
