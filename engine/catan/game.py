"""Catan, the base game for 3–6 players (5–6 with the Special Building Phase
and the larger bank), as a recorder sees it.

Dice, steals and development-card draws are chance events: entered at a
physical table (a stolen or drawn card may be entered as unknown), drawn from
the seeded RNG in a simulated match. Every hand is kept per viewer as known
cards plus unseen ones (``knowledge``): each seat, the public and the
referee (the log) know different things of the same hand, and each view
shows only its own. docs/games/catan.md lists the events and options.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from operator import attrgetter
from typing import Any, NamedTuple

from ..core import CHANCE, REFEREE, EventType, Game, InvalidOptions, MalformedEvent, Move, Result, RuleViolation, titled
from ..core import worded
from ..game_data import DataKind, check_embedded, kind_info
from . import board as B
from . import knowledge as K
from . import invariants as INV
from ..text import N_, Text, say, say_n, to_json, from_json
from . import words as W
from .knowledge import Contradiction, Hand
from .rules import RULES

from .pieces import (  # noqa: F401  (names the game module has always offered)
    P, RES, RES_ALIASES, DEV, DEV_ALIASES, KNIGHT, ROADS, PLENTY, MONOPOLY, VP, DECKS, ROAD_COST,
    SETTLEMENT_COST, CITY_COST, DEV_COST, ZERO, MAX_SETTLEMENTS, MAX_CITIES, MAX_ROADS, SETUP_S, SETUP_R,
    PRE_ROLL, DICE, DISCARD, ROBBER, STEAL, MAIN, DEV_DRAW, ROAD_BUILDING, SBP, OVER, PHASES, OWN_TURN,
)


class Config(NamedTuple):
    n: int
    goal: int
    discard_limit: int
    bank: int
    sbp: bool
    deck: tuple[int, ...]
    start: int
    board_hash: str
    board_doc: Any
    #: the paired players' turn (5–6 players): Settler 2, three seats to the
    #: roller's left, takes a part of every turn (``State.step`` says when)
    paired: bool = False
    topo: Any = None  # derived from the board (not encoded)


class Origins(NamedTuple):
    """What made cards unseen, as a refusal names them ("unseen cards from:
    the steal by Ann from Bob in turn 12"): a steal the log did not see, a
    monopoly; in Troje a donation, a blind draw, a battle. They are numbered
    1, 2, 3 … as they happen (``count``: how many so far), and an unseen card
    in a hand (``knowledge.Hand``) keeps the number of the one that made it
    unseen.

    Only the texts a refusal can still name are kept (``kept``: number and
    text, oldest first): the newest origin's, those of the unseen cards in
    the referee's hands (a hand's own refusal quotes them) and, while the
    log's worlds last, every origin from their first on
    (``Catan._worlds_step`` names them all). A card's number only ever moves
    to an older origin's or to the newest one's (``knowledge``), so what was
    not kept when an origin was added is never named again. Until issue 36
    the state kept every text, one per steal: a long match's states and
    snapshots grew with its history (a snapshot, with its 16 undo steps, held
    17 copies of the list)."""

    count: int = 0
    kept: tuple[tuple[int, Text], ...] = ()

    def text(self, number: int) -> Text | None:
        for o, text in self.kept:
            if o == number:
                return text
        return None

    def texts(self, numbers: Any) -> list[Text]:
        """The texts of these origins, in their order (numbers not kept, 0 among them, left out)."""
        by = dict(self.kept)
        return [by[o] for o in numbers if o in by]

    def since(self, first: int) -> list[Text]:
        """The texts of origin ``first`` and every later one."""
        return [text for o, text in self.kept if o >= first]


def _named(s: Any) -> set[int]:
    """The origins of the unseen cards in the referee's hands (every holder's:
    a scenario's own holders too)."""
    return {o for row in s.hands for _, o in row[-1].unseen}


def add_origin(s: Any, text: Text) -> tuple[Any, int]:
    """``s`` with one more origin (``text``) and its number. The texts no
    refusal can name any more are dropped (see ``Origins``): those of
    ``s``'s referee hands and, while its worlds last, from their first on,
    stay."""
    origins = s.origins
    named = _named(s)
    worlds_from = s.worlds_from if s.worlds is not None else None
    kept = tuple(e for e in origins.kept if e[0] in named or (worlds_from is not None and e[0] >= worlds_from))
    number = origins.count + 1
    return s._replace(origins=Origins(number, kept + ((number, text),))), number


def _kept_origins(s: Any, origins: Origins) -> Origins:
    """``origins`` with only what ``s`` can still name (a state read from a
    snapshot of the format that kept them all)."""
    named = _named(s)
    worlds_from = s.worlds_from if s.worlds is not None else None
    return origins._replace(kept=tuple(
        e for e in origins.kept
        if e[0] == origins.count or e[0] in named or (worlds_from is not None and e[0] >= worlds_from)))


class State(NamedTuple):
    cfg: Config
    names: tuple[str, ...]
    phase: int
    turn: int  # the seat whose turn it is (in set-up: the seat placing)
    step: int  # set-up: placements so far; SBP: the builder; paired turns: 1 + Settler 1 while Settler 2 acts
    turn_no: int
    ret: int  # the phase a robber / draw / road building returns to
    robber: int
    buildings: tuple[int, ...]  # per vertex: -1, or owner*2 (+1 for a city)
    roads: tuple[int, ...]  # per edge: -1 or owner
    built: tuple[tuple[int, int, int], ...]  # per seat: settlements, cities, roads on the board
    bank: tuple[int, ...]
    #: hands[holder][viewer]: what each viewer knows of each holder's resource cards.
    #: Holders 0..n-1 are the seats (a scenario may append its own, e.g. Troje's
    #: face-down support stack); viewers 0..n-1 are the seats, n the public,
    #: n+1 the referee (the log). A seat sees its own hand as the referee does.
    hands: tuple[tuple[Hand, ...], ...]
    #: dev[seat][viewer]: (known counts per kind, unseen count); pools[viewer]: kinds unseen by that viewer
    dev: tuple[tuple[tuple[tuple[int, ...], int], ...], ...]
    pools: tuple[tuple[int, ...], ...]
    deck: int
    fresh: tuple[tuple[tuple[int, ...], int], ...]  # per seat: dev cards bought since its turn began
    dev_played: bool
    vp_shown: tuple[int, ...]
    knights: tuple[int, ...]
    army: int
    road_len: tuple[int, ...]
    longest: int
    pending: tuple[int, ...]  # cards each seat still has to discard
    victim: int
    free_roads: int
    last_placed: int
    dice: tuple[int, ...]
    winner: int
    origins: Origins  # what made cards unseen, as a refusal names it (the texts it can still name)
    # statistics for the annotations
    hist: tuple[int, ...]
    produced: tuple[tuple[int, ...], ...]
    blocked: tuple[int, ...]
    lost: tuple[int, ...]
    hex_yield: tuple[int, ...]  # cards each hex paid out
    #: the log's exact knowledge once a stolen card went unseen: every joint
    #: assignment of all hands still possible (None: the referee's hands are
    #: exact, or too many worlds and the per-hand knowledge stands alone)
    worlds: Any = None
    worlds_from: int = 0  # the first origin the worlds cover
    #: a scenario's own part of the state (Troje's ``Ext``); None in the base game
    ext: Any = None

    @property
    def actor(self) -> int:
        return self.step if self.phase == SBP or (self.ret == SBP and self.phase == DEV_DRAW) else self.turn

    #: the board's topology (``cfg.topo``; read through a C-level getter, as
    #: most events ask for it)
    topo = property(attrgetter("cfg.topo"))


_FIELD = {name: i for i, name in enumerate(State._fields)}
#: positions of fields that the most frequent events set in place (``_a_dice``, ``_begin_turn``)
_F_PHASE, _F_DICE, _F_HIST, _F_BLOCKED, _F_HANDS, _F_BANK, _F_PRODUCED, _F_HEX_YIELD = (
    _FIELD[name] for name in ("phase", "dice", "hist", "blocked", "hands", "bank", "produced", "hex_yield"))
_F_TURN, _F_TURN_NO, _F_DEV_PLAYED, _F_FRESH = (_FIELD[name] for name in ("turn", "turn_no", "dev_played", "fresh"))
_new_state = _new_hand = tuple.__new__


def _fast_replace(self: State, **changes: Any) -> State:
    """``State._replace`` without the generic namedtuple machinery (a state
    has 40 fields and every event replaces a few; the stock one rebuilds the
    tuple through a dict per call and was the reducer's largest single cost)."""
    values = list(self)
    try:
        for name, value in changes.items():
            values[_FIELD[name]] = value
    except KeyError:
        raise ValueError(f"State has no field {name!r}") from None
    return _new_state(State, values)


State._replace = _fast_replace  # type: ignore[method-assign]  # NamedTuple forbids defining it in the body


def _put(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _add(a: tuple[int, ...], b: tuple[int, ...], k: int = 1) -> tuple[int, ...]:
    return (a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2], a[3] + k * b[3], a[4] + k * b[4])


def _one(r: int, n: int = 1) -> tuple[int, ...]:
    if n == 1:
        return _ONES[r]
    out = [0, 0, 0, 0, 0]
    out[r] = n
    return tuple(out)


_ONES = ((1, 0, 0, 0, 0), (0, 1, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 0, 1, 0), (0, 0, 0, 0, 1))


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


RES_REF = {"type": "string", "minLength": 1, "maxLength": 20, "description": N_("a resource: lumber, brick, wool, grain, ore (in Dutch: hout, steen, wol, graan, erts)")}
CARDS = {"type": "object", "maxProperties": 5, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 200},
         "description": N_("how many cards of each resource, e.g. 2 wool and 1 ore")}
COORD = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": -30, "maximum": 30}}
VERTEX = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 10_000},
                    {"type": "array", "minItems": 3, "maxItems": 3, "items": COORD}],
          "description": N_("an intersection: its number on the board, or the three hexes around it (each [q, r])")}
EDGE = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 10_000},
                  {"type": "array", "minItems": 2, "maxItems": 2, "items": COORD}],
        "description": N_("a path: its number on the board, or the two hexes it runs between (each [q, r])")}
HEX = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 10_000}, COORD],
       "description": N_("a land hex: [q, r] (or its number on the board)")}
SEAT = {"type": ["integer", "null"], "minimum": 0, "maximum": 5}
HASH_OR_NULL = {"type": ["string", "null"], "pattern": "^[0-9a-f]{64}$"}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "board": {**HASH_OR_NULL, "default": None,
                  "description": N_("The board played on, one of the boards stored for Catan. If none is chosen: the standard "
                                     "board for the player count, or a random one when a number for it is given.")},
        "board_doc": {"type": "object", "description": N_("The board itself, kept with the match so "
                      "that its record alone replays it; the server fills it in from the chosen board.")},
        "board_seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**53 - 1, "default": None,
                       "description": N_("Play on a random board made from this number instead (the 6s and 8s never side by "
                                          "side).")},
        "victory_points": {"type": "integer", "minimum": 3, "maximum": 30, "default": 10,
                           "description": N_("Victory points needed to win (10 as printed).")},
        "discard_limit": {"type": "integer", "minimum": 0, "maximum": 50, "default": 7,
                          "description": N_("On a 7, a player with more cards than this discards half of them (7 as printed).")},
        "bank_per_resource": {"type": ["integer", "null"], "minimum": 1, "maximum": 100, "default": None,
                              "description": N_("Cards of each resource in the bank; if not set, 19 with 3–4 players and 24 with 5–6.")},
        "special_building_phase": {"type": ["boolean", "null"], "default": None,
                                   "description": N_("The Special Building Phase after each turn; if not set, played with 5–6 players.")},
        "turn_model": {"enum": [None, "standard", "special_building", "paired"], "default": None,
                       "description": N_("How turns run: one player at a time; with the 5–6 extension's Special Building Phase "
                       "after each turn; or as paired players (the newer official rule for 5–6: the third player to the "
                       "roller's left takes a part of each turn). If not set, as the Special Building Phase says (with "
                       "5–6 players, the Special Building Phase).")},
        "start_seat": {"type": "integer", "minimum": 0, "maximum": 5, "default": 0,
                       "description": N_("The start player (the seats go clockwise).")},
    },
    "additionalProperties": False,
}

ALIASES = {
    "dobbelen": "roll", "worp": "dice", "dobbelstenen": "dice", "straat": "build_road", "dorp": "build_settlement",
    "stad": "build_city", "ontwikkelingskaart": "buy_dev", "afleggen": "discard", "struikrover": "move_robber",
    "stelen": "steal", "ridder": "play_knight", "stratenbouw": "play_road_building", "uitvinding": "play_year_of_plenty",
    "monopolie": "play_monopoly", "handel": "trade", "ruilen": "trade", "zeehandel": "trade_bank",
    "haven": "harbour", "beurt beëindigen": "end_turn", "extra bouwfase": "special building phase",
    "hout": "lumber", "leem": "brick", "baksteen": "brick", "wol": "wool", "graan": "grain", "erts": "ore",
    "overwinningspunt": "victory_point", "langste handelsroute": "longest road", "grootste riddermacht": "largest army",
}


#: how turns run (option turn_model), as a refusal says it
_TURN_MODEL = {"standard": say("one player at a time"), "special_building": say("with the Special Building Phase"),
               "paired": say("as paired players")}


def _dice_sum_ok(d: list[int]) -> bool:
    return len(d) == 2 and all(1 <= x <= 6 for x in d)


class Catan(Game):
    id = "catan"
    name = "Catan (De Kolonisten van Catan)"
    version = "1"
    min_players = 3
    max_players = 6
    #: its lines, set-up line, notes, result, refusals and help speak through messages (engine/text.py)
    says = True
    summary = N_("The base game for 3–6 players (5–6 with the Special Building Phase or the paired players' turn), "
                 "on a standard, random or user-entered board; hands tracked per viewer with unseen cards.")
    rules = RULES
    invariant_rules = INV.INVARIANTS
    #: (not move_robber: naming a victim without cards is taken, and steals nothing; not the trades: any count)
    complete_moves = frozenset({"build_settlement", "build_road", "build_city", "roll", "buy_dev", "end_turn",
                                "play_knight", "play_road_building", "play_year_of_plenty"})
    aliases = ALIASES
    options_schema = titled(
        OPTIONS_SCHEMA, board=N_("Board"), board_doc=N_("Board document"), board_seed=N_("Random board from a seed"),
        victory_points=N_("Victory points to win"), discard_limit=N_("Cards kept on a 7"), bank_per_resource=N_("Bank cards per resource"),
        special_building_phase=N_("Special Building Phase"), turn_model=N_("How turns run"), start_seat=N_("Start player"))
    options_schema = worded(
        options_schema,
        turn_model={"standard": N_("one player per turn"), "special_building": N_("with the Special Building Phase"), "paired": N_("paired players")})
    event_titles_nl = {
        "draw_dev": "ontwikkelingskaart trekken",
        "reveal_vp": "overwinningspunten tonen",
    }
    #: the phases' names (a scenario appends its own)
    phase_names = PHASES
    data_kinds = {
        "boards": DataKind(
            name="boards",
            description=N_("Boards (format kroniek.catan.board/1); a match names one by its SHA-256 in options.board"),
            validate=B.validate_board,
            summary=B.summary,
            builtin=B.builtin_boards,
            option="board",
            embed="board_doc",
            max_bytes=100_000,
            default_for=lambda options, players: (
                None if isinstance(options, dict) and options.get("board_seed") is not None
                else B.standard_hashes().get(players)),
            title=N_("board"),
        )
    }

    event_types = {
        "build_settlement": EventType("build_settlement", "seat", _obj({"vertex": VERTEX}, ["vertex"]),
                                      N_("Place a settlement (free in the set-up).")),
        "build_road": EventType("build_road", "seat", _obj({"edge": EDGE}, ["edge"]),
                                N_("Place a road (free in the set-up and with Road Building).")),
        "build_city": EventType("build_city", "seat", _obj({"vertex": VERTEX}, ["vertex"]),
                                N_("Upgrade one's settlement to a city.")),
        "roll": EventType("roll", "seat", _obj({}, []), N_("The player whose turn it is rolls (the dice follow).")),
        "dice": EventType("dice", CHANCE, _obj({"dice": {"type": "array", "minItems": 2, "maxItems": 2,
                                                          "items": {"type": "integer", "minimum": 1, "maximum": 6}}},
                                               ["dice"]), N_("The two dice rolled.")),
        "discard": EventType("discard", "seat", _obj({"cards": CARDS}, ["cards"]),
                             N_("On a 7: the cards a player with too many discards to the bank.")),
        "move_robber": EventType("move_robber", "seat", _obj({"hex": HEX, "victim": SEAT}, ["hex"]),
                                 N_("Move the robber and name whom to steal from: a player with a settlement or city on that hex; "
                                    "nobody only when none of them holds a card.")),
        "steal": EventType("steal", CHANCE, _obj({"card": {"type": ["string", "null"], "maxLength": 20},
                                                  "from": {"type": "integer", "minimum": 0, "maximum": 5}}, ["card"]),
                           N_("The card stolen (seat: the thief); unknown when the recorder did not see it.")),
        "buy_dev": EventType("buy_dev", "seat", _obj({}, []), N_("Buy a development card (the card drawn follows).")),
        "draw_dev": EventType("draw_dev", CHANCE, _obj({"card": {"type": ["string", "null"], "maxLength": 20}}, ["card"]),
                              N_("The development card drawn (seat: the buyer); unknown when the recorder did not see it.")),
        "play_knight": EventType("play_knight", "seat", _obj({}, []), N_("Play a knight (the robber move follows).")),
        "play_road_building": EventType("play_road_building", "seat", _obj({}, []),
                                        N_("Play Road Building (up to two free roads follow).")),
        "play_year_of_plenty": EventType("play_year_of_plenty", "seat", _obj({
            "cards": {"type": "array", "minItems": 0, "maxItems": 2, "items": RES_REF}}, ["cards"]),
            N_("Play Year of Plenty: the two cards taken from the bank.")),
        "play_monopoly": EventType("play_monopoly", "seat", _obj({
            "resource": RES_REF,
            "given": {"type": "object", "maxProperties": 6, "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 200},
                      "description": N_("the cards each player handed over, as the table saw them (keyed by seat); needed only where the log does not know")}},
            ["resource"]), N_("Play Monopoly on a resource.")),
        "reveal_vp": EventType("reveal_vp", "seat", _obj({"count": {"type": "integer", "minimum": 1, "maximum": 10}}, ["count"]),
                               N_("Reveal victory point cards (to win).")),
        "trade": EventType("trade", "seat", _obj({"with": {"type": "integer", "minimum": 0, "maximum": 5},
                                                  "give": CARDS, "get": CARDS}, ["with", "give", "get"]),
                           N_("A domestic trade: the player whose turn it is gives cards to another player and gets cards back.")),
        "trade_bank": EventType("trade_bank", "seat", _obj({"give": RES_REF, "get": RES_REF,
                                                            "count": {"type": "integer", "minimum": 1, "maximum": 50}},
                                                           ["give", "get"]),
                                N_("A maritime trade: 4:1, or 3:1 / 2:1 with a harbour, as many times as the count says (once if not given).")),
        "end_turn": EventType("end_turn", "seat", _obj({}, []),
                              N_("End the turn (or one's Special Building Phase).")),
    }

    # -- set-up -----------------------------------------------------------------------
    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        filled = dict(options)
        for name, prop in OPTIONS_SCHEMA["properties"].items():
            if name not in filled and "default" in prop:
                filled[name] = prop["default"]
        return filled

    def resolve_board(self, options: dict[str, Any], players: int) -> tuple[dict[str, Any], str]:
        """The board of a match's options: the embedded ``board_doc`` (which must
        hash to ``board``), a shipped board by hash, a board generated from
        ``board_seed``, or the standard board for the player count."""
        digest = options.get("board")
        doc = options.get("board_doc")
        if doc is not None:
            canon, actual = check_embedded(doc, digest, validate=B.validate_board, hash_of=B.board_hash,
                                           errors=B.BoardError, what="board", kind="boards", doc_option="board_doc",
                                           hash_option="board", rule=P + "board")
        elif digest is not None:
            builtin = B.builtin_boards()
            if digest not in builtin:
                raise InvalidOptions(say("board {digest} is not shipped with the engine; embed it as options.board_doc (the "
                                         "API does so for a stored board)", digest=digest), field="options.board",
                                     rule=P + "board")
            canon, actual = builtin[digest], digest
        elif options.get("board_seed") is not None:
            size = "3-4" if players <= 4 else "5-6"
            canon = B.generate_board(size, options["board_seed"])
            actual = B.board_hash(canon)
        else:
            actual = B.standard_hashes()[players]
            canon = B.builtin_boards()[actual]
        if players not in canon["players"]:
            raise InvalidOptions(say("the board {name} is for {counts} players, not {players}", name=repr(canon["name"]),
                                     counts=list(canon["players"]), players=players),
                                 field="options.board", rule=P + "board")
        return canon, actual

    def check_options(self, options: dict[str, Any], players: int) -> None:
        o = self._options(options)
        self.resolve_board(o, players)
        if o["start_seat"] >= players:
            raise InvalidOptions(say("the start player must be one of the {n} seats (0–{last})", n=players, last=players - 1),
                                 field="options.start_seat")
        self._turn_model(o, players)

    @staticmethod
    def _turn_model(o: dict[str, Any], players: int) -> str:
        """The turn model of the options: ``turn_model``, or what ``special_building_phase`` says."""
        model, sbp = o["turn_model"], o["special_building_phase"]
        if model is None:
            return "special_building" if (sbp if sbp is not None else players >= 5) else "standard"
        if sbp is not None and sbp != (model == "special_building"):
            raise InvalidOptions(say("the Special Building Phase cannot be on and off at once: the turns run {model}, and "
                                     "the Special Building Phase is {sbp}", model=_TURN_MODEL[model],
                                     sbp=say("on") if sbp else say("off")),
                                 field="options.special_building_phase", rule=P + "paired_order")
        if model == "paired" and players < 5:
            raise InvalidOptions(say("the paired players' turn is a rule for 5–6 players"), field="options.turn_model",
                                 rule=P + "paired_order")
        return model

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        o = self._options(options)
        n = len(players)
        self.check_options(o, n)
        doc, digest = self.resolve_board(o, n)
        big = n >= 5
        bank = o["bank_per_resource"] or (24 if big else 19)
        model = self._turn_model(o, n)
        deck = DECKS["5-6" if big else "3-4"]
        topo = B.topology(doc, n)
        cfg = Config(n, o["victory_points"], o["discard_limit"], bank, model == "special_building", deck,
                     o["start_seat"], digest, doc, model == "paired", topo)
        empty = Hand()
        nv = n + 2
        return State(
            cfg=cfg, names=tuple(players), phase=SETUP_S, turn=o["start_seat"], step=0, turn_no=0, ret=MAIN,
            robber=topo.robber, buildings=(-1,) * len(topo.vertices), roads=(-1,) * len(topo.edges),
            built=((0, 0, 0),) * n, bank=(bank,) * 5, hands=((empty,) * nv,) * n,
            dev=(((ZERO, 0),) * nv,) * n, pools=(deck,) * nv, deck=sum(deck), fresh=((ZERO, 0),) * n,
            dev_played=False, vp_shown=(0,) * n, knights=(0,) * n, army=-1, road_len=(0,) * n, longest=-1,
            pending=(0,) * n, victim=-1, free_roads=0, last_placed=-1, dice=(), winner=-1, origins=Origins(),
            hist=(0,) * 11, produced=((0,) * 5,) * n, blocked=(0,) * n, lost=(0,) * n,
            hex_yield=(0,) * len(topo.hexes),
        )

    # -- who acts ---------------------------------------------------------------------
    def actors(self, s: State) -> tuple[Any, ...]:
        ph = s.phase
        if ph in (DICE, STEAL, DEV_DRAW):
            return (CHANCE,)
        if ph == DISCARD:
            return tuple(i for i, k in enumerate(s.pending) if k)
        if ph == OVER:
            return ()
        if ph == SBP:
            return (s.step,)
        return (s.turn,)

    # -- references ---------------------------------------------------------------------
    @staticmethod
    def _res(name: Any, field: str) -> int:
        r = RES_ALIASES.get(name.strip().lower()) if isinstance(name, str) else None
        if r is None:
            raise MalformedEvent(say("unknown resource {name}; one of {resources}", name=repr(name),
                                     resources=list(W.RESOURCE.values())), field=field)
        return r

    def _cards(self, data: Any, field: str) -> tuple[int, ...]:
        out = [0, 0, 0, 0, 0]
        for name, k in data.items():
            out[self._res(name, f"{field}.{name}")] += k
        return tuple(out)

    @staticmethod
    def _cards_dict(c: tuple[int, ...]) -> dict[str, int]:
        return {RES[r]: c[r] for r in range(5) if c[r]}

    def _vertex(self, s: State, ref: Any, field: str = "data.vertex") -> int:
        topo = s.topo
        if isinstance(ref, int):
            if not 0 <= ref < len(topo.vertices):
                raise MalformedEvent(say("no intersection {n}: this board has 0–{last}", n=ref, last=len(topo.vertices) - 1),
                                     field=field)
            return ref
        key = B.vertex_key([tuple(c) for c in ref])
        i = topo.vertex_index.get(key)
        if i is None:
            raise MalformedEvent(say("those three hexes do not meet at an intersection of this board"), field=field)
        return i

    def _edge(self, s: State, ref: Any, field: str = "data.edge") -> int:
        topo = s.topo
        if isinstance(ref, int):
            if not 0 <= ref < len(topo.edges):
                raise MalformedEvent(say("no path {n}: this board has 0–{last}", n=ref, last=len(topo.edges) - 1), field=field)
            return ref
        key = tuple(sorted(tuple(c) for c in ref))
        i = topo.edge_index.get(key)
        if i is None:
            raise MalformedEvent(say("those two hexes do not share a path of this board"), field=field)
        return i

    def _hex(self, s: State, ref: Any, field: str = "data.hex") -> int:
        topo = s.topo
        if isinstance(ref, int):
            if not 0 <= ref < len(topo.hexes):
                raise MalformedEvent(say("no land hex {n}: this board has 0–{last}", n=ref, last=len(topo.hexes) - 1),
                                     field=field)
            return ref
        i = topo.hex_index.get((ref[0], ref[1]))
        if i is None:
            raise MalformedEvent(say("that is not a land hex of this board (the robber stays on land)"), field=field)
        return i

    def normalize(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if type in ("build_settlement", "build_city"):
            return {"vertex": self._vertex(s, data["vertex"])}
        if type == "build_road":
            return {"edge": self._edge(s, data["edge"])}
        if type == "dice":
            return {"dice": list(data["dice"])}
        if type == "discard":
            return {"cards": self._cards_dict(self._cards(data["cards"], "data.cards"))}
        if type == "move_robber":
            h = self._hex(s, data["hex"])
            victim = data.get("victim")
            if victim is not None and victim >= s.cfg.n:
                raise MalformedEvent(say("no seat {seat}", seat=str(victim)), field="data.victim")
            return {"hex": list(s.topo.hexes[h]), "victim": victim}
        if type in ("steal", "draw_dev") and isinstance(data.get("card"), str) and data["card"].strip().lower() == "unknown":
            data = {**data, "card": None}  # a card the table did not see, as a picker names it
        if type in ("steal", "draw_dev"):
            receiver = s.turn if type == "steal" else s.actor
            if seat != receiver:
                raise MalformedEvent(say("enter the stolen card as {who}'s (seat {seat}), who receives it", who=s.names[receiver],
                                         seat=str(receiver)) if type == "steal" else
                                     say("enter the development card drawn as {who}'s (seat {seat}), who receives it",
                                         who=s.names[receiver], seat=str(receiver)), field="seat")
        if type == "steal":
            card = data.get("card")
            out: dict[str, Any] = {"card": None if card is None else RES[self._res(card, "data.card")]}
            out["from"] = s.victim if s.victim >= 0 else data.get("from", 0)
            if "from" in data and data["from"] != out["from"]:
                raise MalformedEvent(say("the card is stolen from {victim}, not from seat {seat}", victim=W.seat(s, out["from"]),
                                         seat=str(data["from"])), field="data.from")
            return out
        if type == "draw_dev":
            card = data.get("card")
            if card is None:
                return {"card": None}
            k = DEV_ALIASES.get(card.strip().lower()) if isinstance(card, str) else None
            if k is None:
                raise MalformedEvent(say("unknown development card {card}; one of {cards}", card=repr(card),
                                         cards=list(W.DEV_CARD.values())), field="data.card")
            return {"card": DEV[k]}
        if type == "play_year_of_plenty":
            return {"cards": sorted((RES[self._res(c, "data.cards")] for c in data["cards"]), key=RES.index)}
        if type == "play_monopoly":
            # the log records what the table saw handed over, seat by seat
            r = self._res(data["resource"], "data.resource")
            given = {}
            for k, v in data.get("given", {}).items():
                if not k.isdigit() or not 0 <= int(k) < s.cfg.n or seat is not None and int(k) == seat:
                    raise MalformedEvent(say("given: {key} is not another player's seat", key=repr(k)), field="data.given")
                given[int(k)] = v
            for p in range(s.cfg.n):
                if p != seat and p not in given:
                    ref = self._ref(s, p)
                    if ref.least(r) == ref.most(r):
                        given[p] = ref.least(r)
            return {"resource": RES[r], "given": {str(p): given[p] for p in sorted(given)}}
        if type == "trade":
            return {"with": data["with"], "give": self._cards_dict(self._cards(data["give"], "data.give")),
                    "get": self._cards_dict(self._cards(data["get"], "data.get"))}
        if type == "trade_bank":
            return {"give": RES[self._res(data["give"], "data.give")], "get": RES[self._res(data["get"], "data.get")],
                    "count": data.get("count", 1)}
        return data

    # -- applying -----------------------------------------------------------------------
    def apply(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        fn = _APPLY.get(type)
        if fn is None:
            raise MalformedEvent(say("unknown event type {type}", type=repr(type)), field="type")
        after = fn(self, s, seat, data)
        if s.worlds is not None or type == "steal" and data["card"] is None:
            after = self._worlds_step(s, type, seat, data, after)
        # only these change someone's VP or start a turn (a win then counts)
        return self._check_win(after) if type in _MAY_WIN else after

    # the log's joint knowledge ----------------------------------------------------------
    def _worlds_step(self, s: State, type: str, seat: int | None, data: dict[str, Any], a: State) -> State:
        """Carry the possible worlds through one event. Each hand's own
        knowledge already accepted the event; the worlds also check that one
        assignment fits all hands at once (the stolen brick cannot be spent
        by both thief and victim), and narrow every hand the event tells
        something about."""
        n = s.cfg.n
        worlds = s.worlds
        start = s.worlds_from
        if worlds is None:  # an unseen steal: start from the exact hands, if they are
            refs = [self._ref(s, p) for p in range(n)]
            if not all(h.exact for h in refs):
                return a
            worlds = frozenset([tuple(h.known for h in refs)])
            start = a.origins.count
        if type == "steal":
            thief, victim = s.turn, s.victim
            out = set()
            for w in worlds:
                cards = [RES_ALIASES[data["card"]]] if data["card"] is not None else range(5)
                for r in cards:
                    if w[victim][r]:
                        x = list(w)
                        x[victim] = _add(w[victim], _one(r), -1)
                        x[thief] = _add(w[thief], _one(r))
                        out.add(tuple(x))
        elif type == "play_monopoly":
            r = RES_ALIASES[data["resource"]]
            given = {int(p): c for p, c in data["given"].items()}
            out = set()
            for w in worlds:
                if all(w[p][r] == c for p, c in given.items()):
                    x = [(_put(h, r, 0) if p in given else h) for p, h in enumerate(w)]
                    x[seat] = _add(x[seat], _one(r, sum(given.values())))
                    out.add(tuple(x))
        else:
            deltas = {}
            if type == "dice":
                for p in range(n):
                    d = tuple(a.produced[p][r] - s.produced[p][r] for r in range(5))
                    if any(d):
                        deltas[p] = d
            elif type == "trade":
                give, get = self._cards(data["give"], "give"), self._cards(data["get"], "get")
                deltas[seat] = _add(get, give, -1)
                deltas[data["with"]] = _add(give, get, -1)
            elif a.bank != s.bank:
                deltas[seat] = _add(s.bank, a.bank, -1)  # what the bank gained, the player lost
            if not deltas:
                return a._replace(worlds=worlds if len(worlds) > 1 else None, worlds_from=start)
            out = set()
            for w in worlds:
                x = list(w)
                for p, d in deltas.items():
                    x[p] = _add(x[p], d)
                if all(c >= 0 for h in x for c in h):
                    out.add(tuple(x))
        if not out:
            raise RuleViolation(P + "hand", say("no assignment of the unseen cards allows this (unseen cards from: "
                                                "{where})", where=a.origins.since(start) or say("unseen cards")))
        if len(out) > MAX_WORLDS:
            return a._replace(worlds=None)  # too many: the per-hand knowledge alone from here on
        hands = list(a.hands)
        origin = a.origins.count
        for p in range(n):
            lo = tuple(min(w[p][r] for w in out) for r in range(5))
            hi = tuple(max(w[p][r] for w in out) for r in range(5))
            mask = sum(1 << r for r in range(5) if hi[r] > lo[r])
            size = sum(next(iter(out))[p])
            h = Hand(lo, ((mask, origin),) * (size - sum(lo)))
            row = list(hands[p])
            row[n + 1] = row[p] = h
            hands[p] = tuple(row)
        return a._replace(hands=tuple(hands), worlds=frozenset(out) if len(out) > 1 else None, worlds_from=start)

    def _phase(self, s: State, seat: int | None, allowed: tuple[int, ...], what: str) -> None:
        if s.phase not in allowed:
            raise RuleViolation(P + "phase", say("{what} is not possible now (now: {phase})", what=what,
                                                 phase=self._phase_text(s)))
        if seat is not None and seat not in self.actors(s):
            raise RuleViolation(P + "phase", say("{who} is not to act now", who=W.seat(s, seat)))

    def _phase_text(self, s: State) -> Text:
        """What the table is doing now, in words (a refusal says it)."""
        return W.phase(self.phase_names[s.phase])

    # hands ---------------------------------------------------------------------------
    def _ref(self, s: State, seat: int) -> Hand:
        return s.hands[seat][s.cfg.n + 1]

    def _map_hand(self, s: State, hands: tuple, seat: int, fn, origin: str = "") -> tuple:
        """Apply ``fn`` to every viewer's knowledge of holder ``seat``'s cards
        (once per distinct value); the referee's must succeed, a viewer's that
        fails is reset to what the viewer can always know: the hand's size. A
        seat's own view is the referee's; a holder that is no seat (a
        scenario's face-down stack) has no own view."""
        row = hands[seat]
        ref = row[-1]
        try:
            new_ref = fn(ref)
        except Contradiction as exc:
            where = s.origins.texts(exc.origins)
            who = s.names[seat] if seat < len(s.names) else self.holder_text(seat)
            raise RuleViolation(P + "hand", say("{who}: {why} (unseen cards from: {where})", who=who, why=exc.text,
                                                where=where) if where else
                                say("{who}: {why}", who=who, why=exc.text), seat=seat) from None
        out = [new_ref] * len(row)
        last_in = last_out = None
        for i, h in enumerate(row):
            if h is ref or h == ref:
                continue
            if h is last_in or h == last_in:
                out[i] = last_out
                continue
            try:
                got = fn(h)
            except Contradiction:
                got = Hand(K.ZERO, tuple(sorted(((K.FULL, 0),) * new_ref.size)))
            last_in, last_out = h, got
            out[i] = got
        if seat < s.cfg.n:
            out[seat] = new_ref
        return _put(hands, seat, tuple(out))

    def holder_text(self, holder: int) -> Text:
        """A holder of cards that is no seat (a scenario's face-down stack), as a refusal names it."""
        return say("holder {n}", n=holder)

    def _pay(self, s: State, hands: tuple, seat: int, cost: tuple[int, ...]) -> tuple:
        """``_map_hand`` with ``knowledge.pay``, inlined for the common case
        (every viewer sees the cost among the known cards)."""
        row = hands[seat]
        ref = row[-1]
        c0, c1, c2, c3, c4 = cost
        k = ref.known
        if not (k[0] >= c0 and k[1] >= c1 and k[2] >= c2 and k[3] >= c3 and k[4] >= c4):
            return self._map_hand(s, hands, seat, lambda h: K.pay(h, cost))
        new_ref = _new_hand(Hand, ((k[0] - c0, k[1] - c1, k[2] - c2, k[3] - c3, k[4] - c4), ref.unseen))
        out = [new_ref] * len(row)
        last_in = last_out = None
        for i, h in enumerate(row):
            if h is ref or h == ref:
                continue
            if h is not last_in and h != last_in:
                k = h.known
                if k[0] >= c0 and k[1] >= c1 and k[2] >= c2 and k[3] >= c3 and k[4] >= c4:
                    got = _new_hand(Hand, ((k[0] - c0, k[1] - c1, k[2] - c2, k[3] - c3, k[4] - c4), h.unseen))
                else:
                    try:
                        got = K.pay(h, cost)
                    except Contradiction:
                        got = Hand(K.ZERO, tuple(sorted(((K.FULL, 0),) * new_ref.size)))
                last_in, last_out = h, got
            out[i] = last_out
        if seat < s.cfg.n:
            out[seat] = new_ref
        return hands[:seat] + (tuple(out),) + hands[seat + 1:]

    def _gain(self, s: State, hands: tuple, seat: int, gain: tuple[int, ...]) -> tuple:
        """Known cards arrive (seen by all): cannot fail, so no checks."""
        row = hands[seat]
        g0, g1, g2, g3, g4 = gain
        first = row[0]
        k = first.known
        got = _new_hand(Hand, ((k[0] + g0, k[1] + g1, k[2] + g2, k[3] + g3, k[4] + g4), first.unseen))
        out = [got] * len(row)
        last_in, last_out = first, got
        for i, h in enumerate(row):  # viewers share Hand objects: one new Hand per distinct one
            if h is first or h == first:
                continue
            if h is not last_in and h != last_in:
                k = h.known
                last_in = h
                last_out = _new_hand(Hand, ((k[0] + g0, k[1] + g1, k[2] + g2, k[3] + g3, k[4] + g4), h.unseen))
            out[i] = last_out
        return hands[:seat] + (tuple(out),) + hands[seat + 1:]

    # placement ----------------------------------------------------------------------
    def _distance_ok(self, s: State, v: int) -> bool:
        b = s.buildings
        if b[v] != -1:
            return False
        for w in s.topo.vertex_adj[v]:
            if b[w] != -1:
                return False
        return True

    def _road_ok(self, s: State, seat: int, e: int) -> bool:
        if s.roads[e] != -1:
            return False
        topo = s.topo
        if s.phase == SETUP_R:
            return s.last_placed in topo.edge_vertices[e]
        for v in topo.edge_vertices[e]:
            b = s.buildings[v]
            if b != -1:
                if b >> 1 == seat:
                    return True
                continue  # an opponent's building: no connection through it
            for f in topo.vertex_edges[v]:
                if f != e and s.roads[f] == seat:
                    return True
        return False

    def _settlement_ok(self, s: State, seat: int, v: int) -> bool:
        if not self._distance_ok(s, v):
            return False
        if s.phase == SETUP_S:
            return True
        return any(s.roads[e] == seat for e in s.topo.vertex_edges[v])

    def _build_check(self, s: State, seat: int, what: str) -> None:
        if s.phase == SETUP_S and what != "settlement" or s.phase == SETUP_R and what != "road":
            raise RuleViolation(P + "setup_order", say("in the set-up {who} places a settlement now", who=s.names[seat])
                                if s.phase == SETUP_S else say("in the set-up {who} places a road now", who=s.names[seat]))
        if s.phase == ROAD_BUILDING and what != "road":
            raise RuleViolation(P + "road_building", say("Road Building: the free roads are placed first"))
        if s.phase not in (SETUP_S, SETUP_R, MAIN, SBP, ROAD_BUILDING):
            rule = P + "roll" if s.phase == PRE_ROLL else P + "phase"
            raise RuleViolation(rule, say("no building now (now: {phase})", phase=self._phase_text(s)))

    def _a_build_settlement(self, s: State, seat: int, data: dict[str, Any]) -> State:
        self._build_check(s, seat, "settlement")
        v = data["vertex"]
        if s.built[seat][0] >= MAX_SETTLEMENTS:
            raise RuleViolation(P + "pieces", say("{who} has all {n} settlements on the board", who=s.names[seat],
                                                 n=MAX_SETTLEMENTS))
        if not self._distance_ok(s, v):
            raise RuleViolation(P + "distance", say("{place} is taken or next to a settlement or city",
                                                   place=W.vertex(s.topo, v)))
        hands = s.hands
        bank = s.bank
        if s.phase != SETUP_S:
            if not any(s.roads[e] == seat for e in s.topo.vertex_edges[v]):
                raise RuleViolation(P + "settlement_connect", say("{place} touches none of {who}'s roads",
                                                                 place=W.vertex(s.topo, v), who=s.names[seat]))
            hands = self._pay(s, hands, seat, SETTLEMENT_COST)
            bank = _add(bank, SETTLEMENT_COST)
        b, c, r = s.built[seat]
        s = s._replace(buildings=_put(s.buildings, v, seat * 2), built=_put(s.built, seat, (b + 1, c, r)),
                       hands=hands, bank=bank)
        if s.phase == SETUP_S:
            if s.step >= s.cfg.n:  # the second settlement yields
                gain = [0, 0, 0, 0, 0]
                topo = s.topo
                for h in topo.vertex_hexes[v]:
                    if topo.resource[h] >= 0:
                        gain[topo.resource[h]] += 1
                gain_t = tuple(min(gain[r], s.bank[r]) for r in range(5))
                s = s._replace(hands=self._gain(s, s.hands, seat, gain_t), bank=_add(s.bank, gain_t, -1),
                               produced=_put(s.produced, seat, _add(s.produced[seat], gain_t)))
            return s._replace(phase=SETUP_R, last_placed=v)
        # a settlement can cut other players' roads
        affected = {s.roads[e] for e in s.topo.vertex_edges[v]} - {-1, seat}
        if affected:
            s = self._longest(s, affected)
        return s

    def _a_build_road(self, s: State, seat: int, data: dict[str, Any]) -> State:
        self._build_check(s, seat, "road")
        e = data["edge"]
        if s.built[seat][2] >= MAX_ROADS:
            raise RuleViolation(P + "pieces", say("{who} has all {n} roads on the board", who=s.names[seat], n=MAX_ROADS))
        if s.roads[e] != -1:
            raise RuleViolation(P + "road_connect", say("{place} already has a road", place=W.edge(s.topo, e)))
        if not self._road_ok(s, seat, e):
            if s.phase == SETUP_R:
                raise RuleViolation(P + "setup_road", say("{place} does not touch the settlement just placed",
                                                           place=W.edge(s.topo, e)))
            raise RuleViolation(P + "road_connect", say("{place} does not connect to {who}'s roads or buildings (not "
                                                     "through another player's building)", place=W.edge(s.topo, e),
                                                     who=s.names[seat]))
        hands, bank = s.hands, s.bank
        if s.phase in (MAIN, SBP):
            hands = self._pay(s, hands, seat, ROAD_COST)
            bank = _add(bank, ROAD_COST)
        b, c, r = s.built[seat]
        s = s._replace(roads=_put(s.roads, e, seat), built=_put(s.built, seat, (b, c, r + 1)), hands=hands, bank=bank)
        s = self._longest(s, {seat}, added=e)
        if s.phase == SETUP_R:
            n = s.cfg.n
            step = s.step + 1
            if step == 2 * n:
                return self._begin_turn(s._replace(step=0), s.cfg.start)
            order = step if step < n else 2 * n - 1 - step
            return s._replace(phase=SETUP_S, step=step, turn=(s.cfg.start + order) % n)
        if s.phase == ROAD_BUILDING:
            left = s.free_roads - 1
            s = s._replace(free_roads=left)
            if left == 0 or not self._road_spots(s, seat):
                s = s._replace(phase=s.ret, free_roads=0)
        return s

    def _a_build_city(self, s: State, seat: int, data: dict[str, Any]) -> State:
        self._build_check(s, seat, "city")
        v = data["vertex"]
        if s.buildings[v] != seat * 2:
            raise RuleViolation(P + "city_upgrade", say("{place} holds no settlement of {who}", place=W.vertex(s.topo, v),
                                                       who=s.names[seat]))
        b, c, r = s.built[seat]
        if c >= MAX_CITIES:
            raise RuleViolation(P + "pieces", say("{who} has all {n} cities on the board", who=s.names[seat], n=MAX_CITIES))
        hands = self._pay(s, s.hands, seat, CITY_COST)
        return s._replace(buildings=_put(s.buildings, v, seat * 2 + 1), built=_put(s.built, seat, (b - 1, c + 1, r)),
                          hands=hands, bank=_add(s.bank, CITY_COST))

    # longest road -------------------------------------------------------------------
    def road_length(self, s: State, seat: int, piece: int | None = None) -> int:
        """The longest trail of ``seat``'s roads; other players' buildings cut it.
        With ``piece`` (a path holding one of the seat's roads): the longest
        trail of the network piece that road belongs to (the roads it reaches
        without passing another player's building).

        A depth-first walk over the trails, started only where a longest trail
        can start: at a dead end or a fork (odd degree) or at another player's
        building. Any other start has two roads and no building: a longest
        trail from there also uses its second road, so it is a closed circuit,
        and the circuit can start at any of its intersections, so at one of
        those unless the whole network piece is a plain ring (counted whole)."""
        roads = s.roads
        bld = s.buildings
        topo = s.topo
        if piece is None:
            own = _owned(roads, seat)
        else:
            own = self._network_piece(topo, roads, bld, seat, piece)
        total = len(own)
        if total < 2:
            return total
        edge_vertices = topo.edge_vertices
        at: dict[int, list[tuple[int, int]]] = {}  # intersection -> (road's bit, the road's other end)
        bit = 1
        for e in own:
            a, b = edge_vertices[e]
            ways = at.get(a)
            if ways is None:
                at[a] = [(bit, b)]
            else:
                ways.append((bit, b))
            ways = at.get(b)
            if ways is None:
                at[b] = [(bit, a)]
            else:
                ways.append((bit, a))
            bit <<= 1
        blocked = set()
        starts = []
        for v, ways in at.items():
            x = bld[v]
            if x != -1 and x >> 1 != seat:
                blocked.add(v)
                starts.append(v)
            elif len(ways) != 2:
                starts.append(v)

        def walk(v: int, used: int) -> int:
            """The longest trail on from ``v``, the roads in ``used`` spent."""
            longest = 0
            for bit, w in at[v]:
                if not used & bit:
                    length = 1 if w in blocked else 1 + walk(w, used | bit)
                    if length > longest:
                        longest = length
            return longest

        best = 0
        for v in starts:
            length = walk(v, 0)
            if length > best:
                best = length
                if best == total:
                    return best
        if len(at) - len(starts) < 6:
            return best  # no room for a ring (the shortest is a hexagon's six roads)
        # the pieces without a start are rings of two-road intersections
        seen = set(starts)
        stack = list(starts)
        while stack:
            for _, w in at[stack.pop()]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        for v in at:
            if v not in seen:  # a ring: its whole length is a trail
                ring = {v}
                stack = [v]
                while stack:
                    x = stack.pop()
                    for _, w in at[x]:
                        if w not in ring:
                            ring.add(w)
                            stack.append(w)
                seen |= ring
                best = max(best, len(ring))  # a ring has as many roads as intersections
        return best

    @staticmethod
    def _network_piece(topo: B.Topology, roads: tuple[int, ...], bld: tuple[int, ...], seat: int, e: int) -> list[int]:
        """``seat``'s roads reachable from its road on path ``e`` without
        passing through another player's building."""
        piece = {e}
        stack = [e]
        edge_vertices, vertex_edges = topo.edge_vertices, topo.vertex_edges
        while stack:
            for v in edge_vertices[stack.pop()]:
                x = bld[v]
                if x != -1 and x >> 1 != seat:
                    continue  # the trail stops here
                for f in vertex_edges[v]:
                    if roads[f] == seat and f not in piece:
                        piece.add(f)
                        stack.append(f)
        return sorted(piece)

    def _longest(self, s: State, seats: set[int], added: int | None = None) -> State:
        """Road lengths of ``seats`` again, and who holds Longest Road. With
        ``added``, the path of the one road just built by the one seat: a
        trail without it was there before, so the new length is the old one
        or the longest trail of the network piece the new road is in."""
        lens = list(s.road_len)
        for p in seats:
            if added is None:
                lens[p] = self.road_length(s, p)
            else:
                lens[p] = max(lens[p], self.road_length(s, p, added))
        lens_t = tuple(lens)
        holder = s.longest
        top = max(lens_t)
        if holder >= 0 and lens_t[holder] >= 5 and lens_t[holder] == top:
            pass  # the holder keeps it, also on a tie
        else:
            leaders = [p for p in range(len(lens_t)) if lens_t[p] == top]
            holder = leaders[0] if top >= 5 and len(leaders) == 1 else -1
        return s._replace(road_len=lens_t, longest=holder)

    # turn flow -------------------------------------------------------------------------
    def _begin_turn(self, s: State, seat: int) -> State:
        v = list(s)  # as s._replace(phase=..., turn=..., ...), without its keyword loop (once per turn)
        v[_F_PHASE] = PRE_ROLL
        v[_F_TURN] = seat
        v[_F_TURN_NO] = s.turn_no + 1
        v[_F_DEV_PLAYED] = False
        v[_F_FRESH] = _put(s.fresh, seat, (ZERO, 0))
        v[_F_DICE] = ()
        return _new_state(State, v)

    def _a_roll(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != PRE_ROLL:
            raise RuleViolation(P + "roll", say("the dice are rolled once, at the start of the turn"))
        return s._replace(phase=DICE)

    def _chance_due(self, s: State, phase: int, what: Text) -> None:
        """Refuse a chance outcome of a kind not due now (a stolen card
        while the dice are due would skip the roll and take from nobody)."""
        if s.phase != phase:
            raise RuleViolation(P + "chance_due", say("{what} is not due now (now: {phase})", what=what,
                                                     phase=self._phase_text(s)))

    def _a_dice(self, s: State, seat, data: dict[str, Any]) -> State:
        if s.phase != DICE:
            self._chance_due(s, DICE, say("a roll of the dice"))
        d = data["dice"]
        total = d[0] + d[1]
        hist = s.hist
        hist = hist[:total - 2] + (hist[total - 2] + 1,) + hist[total - 1:]
        if total != 7:
            v = list(s)  # the state's fields, set here and by _produce (one new state per roll)
            v[_F_DICE] = (d[0], d[1])
            v[_F_HIST] = hist
            v[_F_PHASE] = MAIN
            self._produce(s, total, v)
            return _new_state(State, v)
        n = s.cfg.n
        limit = s.cfg.discard_limit
        sizes = [sum(row[-1][0]) + len(row[-1][1]) for row in s.hands[:n]]
        pending = tuple(k // 2 if k > limit else 0 for k in sizes)
        if any(pending):
            return s._replace(phase=DISCARD, pending=pending, dice=(d[0], d[1]), hist=hist)
        return s._replace(phase=ROBBER, ret=MAIN, dice=(d[0], d[1]), hist=hist)

    def _produce(self, s: State, total: int, v: list[Any]) -> None:
        """Pay the roll ``total`` into ``v``, the fields of the state after it.

        The bank-shortage rule: a resource the bank cannot pay in full goes to
        nobody, unless only one player is owed it (who gets what is left)."""
        topo = s.topo
        placed = _placed(s.buildings, topo)
        robber = s.robber if topo.number[s.robber] == total else -1  # elsewhere the robber changes nothing
        key = robber << 4 | total
        roll = placed.rolls.get(key)
        if roll is None:
            roll = placed.rolls[key] = self._roll(topo, s.buildings, robber, total)
        if roll.blocked:
            blocked = list(s.blocked)
            for p, k in roll.blocked:
                blocked[p] += k
            v[_F_BLOCKED] = tuple(blocked)
        gains = roll.gains
        if not gains:
            return
        bank = s.bank
        need = roll.need
        if need[0] <= bank[0] and need[1] <= bank[1] and need[2] <= bank[2] and need[3] <= bank[3] and need[4] <= bank[4]:
            bank = (bank[0] - need[0], bank[1] - need[1], bank[2] - need[2], bank[3] - need[3], bank[4] - need[4])
            yields = roll.yields
        else:
            paid = {p: list(g) for p, g in gains}
            short = set()
            for r in range(5):
                if need[r] > bank[r]:
                    owed = [g for g in paid.values() if g[r]]
                    if len(owed) == 1:
                        owed[0][r] = bank[r]  # the only one owed gets what is left
                    else:
                        for g in owed:
                            g[r] = 0  # nobody gets it
                    short.add(r)  # no hex counts as having paid out
            gains = tuple((p, tuple(g)) for p, g in paid.items() if any(g))
            yields = tuple(y for y in roll.yields if y[1] not in short)
            bank = _add(bank, tuple(sum(g[r] for _, g in gains) for r in range(5)), -1)
        hex_yield = list(s.hex_yield)
        for h, _, k in yields:
            hex_yield[h] += k
        hands = s.hands
        produced = list(s.produced)
        for p, g in gains:
            hands = self._gain(s, hands, p, g)
            was = produced[p]
            produced[p] = (was[0] + g[0], was[1] + g[1], was[2] + g[2], was[3] + g[3], was[4] + g[4])
        v[_F_HANDS] = hands
        v[_F_BANK] = bank
        v[_F_PRODUCED] = tuple(produced)
        v[_F_HEX_YIELD] = tuple(hex_yield)

    @staticmethod
    def _roll(topo: B.Topology, bld: tuple[int, ...], robber: int, total: int) -> _Roll:
        """What a roll of ``total`` pays on these buildings with the robber on
        ``robber``, before the bank is asked (``_produce`` applies it)."""
        gains: dict[int, list[int]] = {}  # seat -> cards per resource
        need = [0, 0, 0, 0, 0]
        yields = []
        blocked: dict[int, int] = {}
        for h, r, verts in topo.number_sites.get(total, ()):
            k_hex = 0
            for v in verts:
                b = bld[v]
                if b >= 0:
                    k = 1 + (b & 1)
                    p = b >> 1
                    if h == robber:
                        blocked[p] = blocked.get(p, 0) + k
                    else:
                        g = gains.get(p)
                        if g is None:
                            g = gains[p] = [0, 0, 0, 0, 0]
                        g[r] += k
                        k_hex += k
            if k_hex:
                need[r] += k_hex
                yields.append((h, r, k_hex))
        return _Roll(tuple((p, tuple(g)) for p, g in gains.items()), tuple(need), tuple(yields),
                     tuple(blocked.items()))

    def _a_discard(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != DISCARD or not s.pending[seat]:
            raise RuleViolation(P + "seven_discard", say("{who} has nothing to discard now", who=W.seat(s, seat)))
        cards = self._cards(data["cards"], "data.cards")
        if sum(cards) != s.pending[seat]:
            raise RuleViolation(P + "seven_discard", say_n(s.pending[seat], "{who} must discard {n} card, not {given}",
                                                            "{who} must discard {n} cards, not {given}",
                                                            who=s.names[seat], given=sum(cards)))
        hands = self._pay(s, s.hands, seat, cards)
        pending = _put(s.pending, seat, 0)
        s = s._replace(hands=hands, bank=_add(s.bank, cards), pending=pending)
        if not any(pending):
            s = s._replace(phase=ROBBER, ret=MAIN)
        return s

    def _victims(self, s: State, h: int, seat: int) -> list[int]:
        topo = s.topo
        out = set()
        for v in topo.hex_vertices[h]:
            b = s.buildings[v]
            if b >= 0 and b >> 1 != seat:
                out.add(b >> 1)
        return sorted(out)

    def _a_move_robber(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != ROBBER:
            if s.phase == DISCARD:
                raise RuleViolation(P + "phase", say("the discards come before the robber moves"))
            raise RuleViolation(P + "robber_move", say("the robber moves only on a 7 or with a knight"))
        h = s.topo.hex_index[tuple(data["hex"])]
        if h == s.robber:
            raise RuleViolation(P + "robber_move", say("the robber must move to another hex"))
        victims = self._victims(s, h, seat)
        with_cards = [p for p in victims if self._ref(s, p).size]
        victim = data.get("victim")
        if victim is None:
            if with_cards:
                raise RuleViolation(P + "steal", say("name whom to steal from: {players}",
                                                    players=[s.names[p] for p in with_cards]))
            return s._replace(robber=h, phase=s.ret)
        if victim not in victims:
            raise RuleViolation(P + "steal", say("{who} moves the robber and cannot steal from themself",
                                                 who=s.names[victim]) if victim == seat else
                                say("{who} has no settlement or city on {place}", who=s.names[victim],
                                    place=W.hex_place(s.topo, h)))
        if not self._ref(s, victim).size:
            return s._replace(robber=h, phase=s.ret)
        return s._replace(robber=h, phase=STEAL, victim=victim)

    def _a_steal(self, s: State, seat, data: dict[str, Any]) -> State:
        if s.phase != STEAL:
            self._chance_due(s, STEAL, say("a stolen card (the robber's move names whom to steal from first)"))
        thief, victim = s.turn, s.victim
        n = s.cfg.n
        card = data["card"]
        s, o = add_origin(s, say("the steal by {thief} from {victim} in turn {turn}", thief=s.names[thief],
                                 victim=s.names[victim], turn=s.turn_no))
        hands = list(s.hands)
        vrow, trow = list(hands[victim]), list(hands[thief])
        ref = n + 1
        if card is not None:
            r = RES_ALIASES[card]
            try:
                vrow[ref] = K.pay(vrow[ref], _one(r), o)
            except Contradiction as exc:
                raise RuleViolation(P + "hand", say("{who} cannot hold {card}: {why}", who=s.names[victim],
                                                                 card=W.resource(card), why=exc.text)) from None
            trow[ref] = K.add_one(trow[ref], r)
            seen_mask = 0
        else:
            vrow[ref], seen_mask = K.lose_random(vrow[ref], o)
            trow[ref] = K.add_unseen(trow[ref], seen_mask, o)
        memo: dict[int, tuple[Hand, int]] = {}
        for v in range(n + 1):  # the seats and the public
            if v == victim or v == thief:
                continue
            key = id(vrow[v])
            if key not in memo:
                memo[key] = K.lose_random(vrow[v], o)
            vrow[v], mask = memo[key]
            trow[v] = K.add_unseen(trow[v], mask, o)
        # thief and victim each saw the card when the log did
        vrow[victim], trow[thief] = vrow[ref], trow[ref]
        if card is not None:
            try:
                vrow[thief] = K.pay(vrow[thief], _one(r), o)
            except Contradiction:
                vrow[thief] = K.lose_random(vrow[thief], o)[0]
            trow[victim] = K.add_one(trow[victim], r)
        else:
            vrow[thief] = K.lose_random(vrow[thief], o)[0]
            trow[victim] = K.add_unseen(trow[victim], seen_mask, o)
        hands[victim], hands[thief] = tuple(vrow), tuple(trow)
        lost = _put(s.lost, victim, s.lost[victim] + 1)
        return s._replace(hands=tuple(hands), phase=s.ret, victim=-1, lost=lost)

    # development cards ------------------------------------------------------------------
    def _a_buy_dev(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase not in (MAIN, SBP):
            raise RuleViolation(P + "roll" if s.phase == PRE_ROLL else P + "phase", say("no buying now"))
        if s.deck == 0:
            raise RuleViolation(P + "dev_buy", say("the development deck is empty"))
        hands = self._pay(s, s.hands, seat, DEV_COST)
        return s._replace(hands=hands, bank=_add(s.bank, DEV_COST), ret=s.phase, phase=DEV_DRAW)

    def _a_draw_dev(self, s: State, seat, data: dict[str, Any]) -> State:
        if s.phase != DEV_DRAW:
            self._chance_due(s, DEV_DRAW, say("a development card (one is drawn after a purchase)"))
        buyer = s.actor
        n = s.cfg.n
        ref = n + 1
        card = data["card"]
        dev = list(s.dev[buyer])
        pools = list(s.pools)
        fk, fu = s.fresh[buyer]
        if card is not None:
            k = DEV.index(card)
            if pools[ref][k] <= 0:
                raise RuleViolation(P + "dev_buy", say("no {card} card can be left in the deck", card=W.dev_card(card)))
            known, unk = dev[ref]
            dev[ref] = (_add(known, _one(k)), unk)
            pools[ref] = _add(pools[ref], _one(k), -1)
            if pools[buyer][k] > 0:
                pools[buyer] = _add(pools[buyer], _one(k), -1)
            fresh = (_add(fk, _one(k)), fu)
        else:
            known, unk = dev[ref]
            dev[ref] = (known, unk + 1)
            fresh = (fk, fu + 1)
        for v in range(n + 1):
            if v == buyer:
                continue
            known, unk = dev[v]
            dev[v] = (known, unk + 1)
        dev[buyer] = dev[ref]
        return s._replace(dev=_put(s.dev, buyer, tuple(dev)), pools=tuple(pools), deck=s.deck - 1,
                          fresh=_put(s.fresh, buyer, fresh), phase=s.ret)

    def _play_dev(self, s: State, seat: int, k: int, name: str) -> State:
        if s.phase not in (PRE_ROLL, MAIN) or seat != s.turn:
            raise RuleViolation(P + "sbp" if s.phase == SBP else P + "phase", say("{card} cannot be played now",
                                                                                   card=W.dev_card(DEV[k])))
        if k != VP and s.dev_played:
            raise RuleViolation(P + "dev_one_per_turn", say("one knight or progress card per turn"))
        n = s.cfg.n
        ref = n + 1
        known, unk = s.dev[seat][ref]
        fk, fu = s.fresh[seat]
        pool = s.pools[ref]
        if k == VP:  # victory point cards are exempt from the turn they were bought
            fk, fu = ZERO, 0
        if known[k] - fk[k] > 0:
            use_known = True
        elif unk - fu > 0 and pool[k] > 0:
            use_known = False
        elif known[k] > 0 or (fu and pool[k] > 0):
            raise RuleViolation(P + "dev_not_same_turn", say("{who}'s {card} was bought this turn", who=s.names[seat],
                                                                card=W.dev_card(DEV[k])))
        else:
            raise RuleViolation(P + "hand", say("{who} cannot hold a {card} card", who=s.names[seat],
                                                 card=W.dev_card(DEV[k])))
        dev = list(s.dev[seat])
        pools = list(s.pools)
        for v in range(n + 2):
            if v == seat:
                continue
            kv, uv = dev[v]
            if v == ref:
                if use_known:
                    dev[v] = (_add(kv, _one(k), -1), uv)
                else:
                    dev[v] = (kv, uv - 1)
                    pools[v] = _add(pools[v], _one(k), -1)
            elif kv[k] > 0:
                dev[v] = (_add(kv, _one(k), -1), uv)
            else:
                dev[v] = (kv, max(0, uv - 1))
                if pools[v][k] > 0:
                    pools[v] = _add(pools[v], _one(k), -1)
        dev[seat] = dev[ref]
        if not use_known and pools[seat][k] > 0:
            pools[seat] = _add(pools[seat], _one(k), -1)
        return s._replace(dev=_put(s.dev, seat, tuple(dev)), pools=tuple(pools), dev_played=s.dev_played or k != VP)

    def _a_play_knight(self, s: State, seat: int, data: dict[str, Any]) -> State:
        s = self._play_dev(s, seat, KNIGHT, "knight")
        knights = _put(s.knights, seat, s.knights[seat] + 1)
        army = s.army
        if knights[seat] >= 3 and (army < 0 or knights[seat] > knights[army]):
            army = seat
        return s._replace(knights=knights, army=army, ret=s.phase, phase=ROBBER)

    def _road_spots(self, s: State, seat: int) -> list[int]:
        if s.built[seat][2] >= MAX_ROADS:
            return []
        if s.phase == SETUP_R:
            return [e for e in s.topo.vertex_edges[s.last_placed] if s.roads[e] == -1]
        net = _network(s.roads, s.buildings, s.topo)
        got = net.road_spots.get(seat)
        if got is None:
            got = net.road_spots[seat] = self._find_road_spots(s.topo, s.roads, s.buildings, seat)
        return list(got)

    @staticmethod
    def _find_road_spots(topo: B.Topology, roads: tuple[int, ...], bld: tuple[int, ...], seat: int) -> tuple[int, ...]:
        ends = set(_owned(bld, seat * 2))
        ends.update(_owned(bld, seat * 2 + 1))
        edge_vertices = topo.edge_vertices
        for e in _owned(roads, seat):
            ends.update(edge_vertices[e])
        spots = set()
        vertex_edges = topo.vertex_edges
        for v in ends:
            b = bld[v]
            if b >= 0 and b >> 1 != seat:
                continue  # no road through another player's building
            for e in vertex_edges[v]:
                if roads[e] == -1:
                    spots.add(e)
        return tuple(sorted(spots))

    def _settlement_spots(self, s: State, seat: int) -> list[int]:
        net = _network(s.roads, s.buildings, s.topo)
        got = net.settlement_spots.get(seat)
        if got is None:
            edge_vertices = s.topo.edge_vertices
            near = set()
            for e in _owned(s.roads, seat):
                near.update(edge_vertices[e])
            got = net.settlement_spots[seat] = tuple(sorted(v for v in near if self._distance_ok(s, v)))
        return list(got)

    def _a_play_road_building(self, s: State, seat: int, data: dict[str, Any]) -> State:
        s = self._play_dev(s, seat, ROADS, "road building")
        free = min(2, MAX_ROADS - s.built[seat][2])
        if free == 0 or not self._road_spots(s, seat):
            return s
        return s._replace(ret=s.phase, phase=ROAD_BUILDING, free_roads=free)

    def _a_play_year_of_plenty(self, s: State, seat: int, data: dict[str, Any]) -> State:
        cards = [0, 0, 0, 0, 0]
        for c in data["cards"]:
            cards[RES_ALIASES[c]] += 1
        want = min(2, sum(s.bank))
        if sum(cards) != want:
            raise RuleViolation(P + "year_of_plenty", say_n(want, "Year of Plenty takes {n} card from the bank, not {given}",
                                                             "Year of Plenty takes {n} cards from the bank, not {given}",
                                                             given=sum(cards)))
        if any(cards[r] > s.bank[r] for r in range(5)):
            raise RuleViolation(P + "bank_limit", say("the bank does not hold those cards"))
        s = self._play_dev(s, seat, PLENTY, "year of plenty")
        g = tuple(cards)
        return s._replace(hands=self._gain(s, s.hands, seat, g), bank=_add(s.bank, g, -1))

    def _a_play_monopoly(self, s: State, seat: int, data: dict[str, Any]) -> State:
        r = RES_ALIASES[data["resource"]]
        n = s.cfg.n
        given = data.get("given", {})
        counts = {}
        for p in range(n):
            if p == seat:
                continue
            ref = self._ref(s, p)
            lo, hi = ref.least(r), ref.most(r)
            if str(p) in given:
                c = given[str(p)]
                if not lo <= c <= hi:
                    raise RuleViolation(P + "monopoly", say("{who} holds {lo}–{hi} {resource} as far as the log knows, not {given}",
                                                           who=s.names[p], lo=lo, hi=hi, resource=W.resource(RES[r]),
                                                           given=c))
            elif lo == hi:
                c = lo
            else:
                raise RuleViolation(P + "monopoly", say("the log does not know how much {resource} {who} holds "
                                                        "({lo}–{hi}): enter what {who} handed over",
                                                        resource=W.resource(RES[r]), who=s.names[p], lo=lo, hi=hi))
            counts[p] = c
        s = self._play_dev(s, seat, MONOPOLY, "monopoly")
        s, o = add_origin(s, say("the monopoly of {who} in turn {turn}", who=s.names[seat], turn=s.turn_no))
        hands = s.hands
        total = 0
        for p, c in counts.items():
            hands = self._map_hand(s, hands, p, lambda h, c=c: K.give_all(h, r, c, o))
            total += c
        hands = self._gain(s, hands, seat, _one(r, total))
        return s._replace(hands=hands)

    def _a_reveal_vp(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if seat != s.turn or s.phase not in (PRE_ROLL, MAIN):
            raise RuleViolation(P + "dev_vp", say("victory point cards are revealed in one's own turn"))
        for _ in range(data["count"]):
            s = self._play_dev(s, seat, VP, "victory point")
        return s._replace(vp_shown=_put(s.vp_shown, seat, s.vp_shown[seat] + data["count"]))

    # trading ----------------------------------------------------------------------------
    def ratio(self, s: State, seat: int, r: int) -> int:
        """Cards of ``r`` that ``seat`` gives the bank for one card."""
        return self.ratios(s, seat)[r]

    def ratios(self, s: State, seat: int) -> tuple[int, ...]:
        """Per resource: cards ``seat`` gives the bank for one (4, 3 with a 3:1
        harbour, 2 with that resource's 2:1 harbour)."""
        bld = s.buildings
        topo = s.cfg.topo
        placed = _placed(bld, topo)
        got = placed.ratios.get(seat)
        if got is None:
            got = placed.ratios[seat] = self._ratios(bld, topo, seat)
        return got

    @staticmethod
    def _ratios(bld: tuple[int, ...], topo: B.Topology, seat: int) -> tuple[int, ...]:
        own, city = seat * 2, seat * 2 + 1
        generic = 4
        out = None
        for v, kind in topo.harbor_vertices:
            b = bld[v]
            if b == own or b == city:
                if kind == B.GENERIC:
                    generic = 3
                else:
                    if out is None:
                        out = [0, 0, 0, 0, 0]
                    out[kind] = 2
        if out is None:
            return _RATIOS[generic]
        return tuple(x or generic for x in out)

    def _a_trade_bank(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != MAIN:
            raise RuleViolation(P + "sbp" if s.phase == SBP else P + "roll" if s.phase == PRE_ROLL else P + "phase",
                                say("no maritime trade now"))
        give, get, count = RES_ALIASES[data["give"]], RES_ALIASES[data["get"]], data["count"]
        if give == get:
            raise RuleViolation(P + "trade_maritime", say("a maritime trade gets a different resource"))
        k = self.ratios(s, seat)[give] * count
        bank = s.bank
        if bank[get] < count:
            raise RuleViolation(P + "bank_limit", say("the bank holds {n} {resource}, not {wanted}", n=bank[get],
                                                     resource=W.resource(RES[get]), wanted=count))
        paid, got = _one(give, k), _one(get, count)
        hands = self._gain(s, self._pay(s, s.hands, seat, paid), seat, got)
        return s._replace(hands=hands, bank=(bank[0] + paid[0] - got[0], bank[1] + paid[1] - got[1],
                                             bank[2] + paid[2] - got[2], bank[3] + paid[3] - got[3],
                                             bank[4] + paid[4] - got[4]))

    def _a_trade(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != MAIN:
            raise RuleViolation(P + "sbp" if s.phase == SBP else P + "roll" if s.phase == PRE_ROLL else P + "phase",
                                say("no trade now"))
        if s.step and s.cfg.paired:
            raise RuleViolation(P + "paired_trade", say("{who} is Settler 2 of this paired turn: maritime trades "
                                                        "only, no trade with other players", who=s.names[seat]))
        other = data["with"]
        if other == seat or other >= s.cfg.n:
            raise RuleViolation(P + "trade_domestic", say("a trade is with another player"))
        give = self._cards(data["give"], "data.give")
        get = self._cards(data["get"], "data.get")
        if not sum(give) or not sum(get):
            raise RuleViolation(P + "trade_domestic", say("both sides give at least one card (no gifts)"))
        if any(give[r] and get[r] for r in range(5)):
            raise RuleViolation(P + "trade_domestic", say("no resource on both sides of a trade"))
        hands = self._pay(s, s.hands, seat, give)
        hands = self._pay(s, hands, other, get)
        hands = self._gain(s, hands, seat, get)
        hands = self._gain(s, hands, other, give)
        return s._replace(hands=hands)

    def _a_end_turn(self, s: State, seat: int, data: dict[str, Any]) -> State:
        n = s.cfg.n
        if s.phase == SBP:
            nxt = (s.step + 1) % n
            if nxt == s.turn:
                return self._begin_turn(s._replace(step=0), (s.turn + 1) % n)
            return s._replace(step=nxt)
        if s.phase != MAIN:
            raise RuleViolation(P + "roll" if s.phase == PRE_ROLL else P + "phase", say("the turn cannot end now"))
        if s.cfg.sbp:
            return s._replace(phase=SBP, step=(s.turn + 1) % n)
        if s.cfg.paired:
            if s.step:  # Settler 2's part ends the paired turn: Settler 1's left neighbour rolls next
                return self._begin_turn(s._replace(step=0), s.step % n)
            second = (s.turn + 3) % n  # Settler 2: the third player to Settler 1's left
            return s._replace(turn=second, step=s.turn + 1, dev_played=False,
                              fresh=_put(s.fresh, second, (ZERO, 0)))
        return self._begin_turn(s, (s.turn + 1) % n)

    # victory ------------------------------------------------------------------------------
    def invariants(self, s: State) -> list[tuple[str, str]]:
        return INV.check(self, s)

    def public_vp(self, s: State, seat: int) -> int:
        b, c, _ = s.built[seat]
        return b + 2 * c + 2 * (s.longest == seat) + 2 * (s.army == seat) + s.vp_shown[seat]

    def hidden_vp(self, s: State, seat: int) -> int:
        return s.dev[seat][s.cfg.n + 1][0][VP]

    def _check_win(self, s: State) -> State:
        if s.phase in OWN_TURN and s.winner < 0 and not (s.phase == DEV_DRAW and s.ret == SBP):
            seat = s.turn
            b, c, _ = s.built[seat]  # public_vp + hidden_vp, inlined (checked after most turns' events)
            vp = (b + 2 * c + 2 * (s.longest == seat) + 2 * (s.army == seat) + s.vp_shown[seat]
                  + s.dev[seat][s.cfg.n + 1][0][VP])
            if vp >= s.cfg.goal:
                return s._replace(phase=OVER, winner=seat)
        return s

    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts: int = 2000) -> dict[str, Any]:
        """Estimated: games played on by this game's own bots (``engine.evaluation.estimate_log``); luck: each
        player's production minus what the dice were expected to pay them, and the robber's toll."""
        from ..evaluation import estimate_log
        from ..simulation import simulator_of

        return estimate_log(self, events, simulator_of(self), playouts, deadline, luck=self.luck)

    def luck(self, steps: list[tuple[dict[str, Any], Any, Any]]) -> dict[str, Any]:
        """After each roll, each player's cards produced so far minus the cards the dice were expected to pay
        them on the board as it stood (the robber where he stood: what he withholds is counted apart, as are
        the cards stolen); the bank running short is part of the luck."""
        from ..text import say
        from .describe import WAYS

        series, total, seats = [], None, 0
        for event, before, after in steps:
            if event["type"] != "dice":
                continue
            b, a = before.state, after.state
            seats = b.cfg.n
            total = total or [0.0] * seats
            expected = [0.0] * seats
            for t in range(2, 13):
                if t == 7:
                    continue
                robber = b.robber if b.topo.number[b.robber] == t else -1
                for p, g in self._roll(b.topo, b.buildings, robber, t).gains:
                    expected[p] += WAYS[t - 2] / 36 * sum(g)
            for p in range(seats):
                total[p] += sum(a.produced[p]) - sum(b.produced[p]) - expected[p]
            series.append({"seq": event["seq"], "values": [round(x, 3) for x in total]})
        final = steps[-1][2].state if steps else None
        return {"unit": say("cards produced minus expected"), "series": series,
                "final": dict(enumerate(total)) if total else {},
                "robber": {p: {"stolen": final.lost[p], "withheld": final.blocked[p]} for p in range(seats)}
                if final is not None and seats else {}}

    def result(self, s: State) -> Result | None:
        if s.winner < 0:
            return None
        w = s.winner
        scores = tuple(self.public_vp(s, p) + self.hidden_vp(s, p) for p in range(s.cfg.n))
        hidden = self.hidden_vp(s, w)
        from ..text import say, say_n
        why = say("{who} reached {vp} VP in turn {turn}", who=s.names[w], vp=scores[w], turn=s.turn_no)
        if hidden:
            why = say_n(hidden, "{text} (with {n} victory point card)", "{text} (with {n} victory point cards)", text=why)
        return Result("win", (w,), scores, why)

    # -- legal moves ----------------------------------------------------------------------
    def legal_moves(self, s: State, seat: int | None) -> list[Move]:
        ph = s.phase
        if ph == MAIN or ph == PRE_ROLL or ph == ROBBER:  # the turn's player acts (as ``actors`` says)
            if seat != s.turn:
                return []
        elif seat is None or seat not in self.actors(s):
            return []
        if ph == MAIN or ph == SBP:
            out = [_move("end_turn", seat, {})]
            hand = s.hands[seat][-1]
            b, c, r = s.built[seat]
            known, unseen = hand
            k0, k1, k2, k3, k4 = known
            if unseen:
                can = K.can_pay if s.worlds is None else self._worlds_can_pay(s, seat)
                road, settle = can(hand, ROAD_COST), can(hand, SETTLEMENT_COST)
                city, dev = can(hand, CITY_COST), can(hand, DEV_COST)
            else:
                road = k0 and k1
                settle = road and k2 and k3
                city = k3 >= 2 and k4 >= 3
                dev = k2 and k3 and k4
            if road and r < MAX_ROADS:
                out += [_move("build_road", seat, {"edge": e}) for e in self._road_spots(s, seat)]
            if settle and b < MAX_SETTLEMENTS:
                out += [_move("build_settlement", seat, {"vertex": v}) for v in self._settlement_spots(s, seat)]
            if city and c < MAX_CITIES:
                out += [_move("build_city", seat, {"vertex": v}) for v in self._own_settlements(s, seat)]
            if dev and s.deck:
                out.append(_move("buy_dev", seat, {}))
            if ph == MAIN:
                least = known if not unseen else tuple(hand.least(g) for g in range(5))
                if max(least) >= 2:
                    ratios = self.ratios(s, seat)
                    bank = s.bank
                    for give in range(5):
                        if least[give] >= 2 and least[give] >= ratios[give]:
                            name = RES[give]
                            out += [_move("trade_bank", seat, {"give": name, "get": RES[get], "count": 1})
                                    for get in range(5) if get != give and bank[get]]
                if not s.dev_played:
                    dk, du = s.dev[seat][-1]  # the development cards the log knows, and those it did not see
                    if dk[0] or dk[1] or dk[2] or dk[3] or du:
                        out += self._dev_moves(s, seat)
            return out
        if ph == PRE_ROLL:
            out = [_move("roll", seat, {})]
            if not s.dev_played:
                dk, du = s.dev[seat][-1]
                if dk[0] or dk[1] or dk[2] or dk[3] or du:
                    out += self._dev_moves(s, seat)
            return out
        if ph == ROBBER:
            out = []
            robber = s.robber
            held = [len(row[-1][1]) or sum(row[-1][0]) for row in s.hands]  # zero: no cards to steal
            for h, (q, r_), there in self._robber_targets(s):
                if h == robber:
                    continue
                victim = None  # nobody there with cards to steal from
                for p in there:
                    if held[p] and p != seat:
                        victim = p
                        out.append(_move("move_robber", seat, {"hex": [q, r_], "victim": p}))
                if victim is None:
                    out.append(_move("move_robber", seat, {"hex": [q, r_], "victim": None}))
            return out
        if ph == SETUP_S:
            return [_move("build_settlement", seat, {"vertex": v}) for v in range(len(s.buildings)) if self._distance_ok(s, v)]
        if ph == SETUP_R or ph == ROAD_BUILDING:
            return [_move("build_road", seat, {"edge": e}) for e in self._road_spots(s, seat)]
        if ph == DISCARD:
            ref = self._ref(s, seat)
            if not ref.unseen:
                return [_move("discard", seat, {"cards": c}) for c in _discard_cards(ref.known, s.pending[seat])]
            # unseen cards: every discard some assignment of them allows (as apply takes it)
            can = K.can_pay if s.worlds is None else self._worlds_can_pay(s, seat)
            most = tuple(ref.most(r) for r in range(5))
            return [_move("discard", seat, {"cards": c}) for c in _discard_cards(most, s.pending[seat])
                    if can(ref, tuple(c.get(name, 0) for name in RES))]
        return []

    @staticmethod
    def _worlds_can_pay(s: State, seat: int):
        """``knowledge.can_pay`` for ``seat`` where the log keeps the joint
        worlds of all hands: a cost is payable when some world still
        possible holds it (each hand's own knowledge alone is wider: it does
        not see that one stolen card cannot be in two hands at once)."""
        held = {w[seat] for w in s.worlds}

        def can(hand: Hand, cost: tuple[int, ...]) -> bool:
            return any(h[0] >= cost[0] and h[1] >= cost[1] and h[2] >= cost[2] and h[3] >= cost[3]
                       and h[4] >= cost[4] for h in held)
        return can

    def _own_settlements(self, s: State, seat: int) -> tuple[int, ...]:
        """The intersections of ``seat``'s settlements (where a city can go)."""
        placed = _placed(s.buildings, s.topo)
        got = placed.settlements.get(seat)
        if got is None:
            own = seat * 2
            got = placed.settlements[seat] = tuple(v for v, x in enumerate(s.buildings) if x == own)
        return got

    def _robber_targets(self, s: State) -> tuple[tuple[int, tuple[int, int], tuple[int, ...]], ...]:
        """Every land hex with the players who have a building there (sorted)."""
        placed = _placed(s.buildings, s.topo)
        got = placed.targets
        if got is None:
            topo = s.topo
            owners: dict[int, set[int]] = {}  # hex -> players with a building there
            vertex_hexes = topo.vertex_hexes
            for v, x in enumerate(s.buildings):
                if x >= 0:
                    for h in vertex_hexes[v]:
                        owners.setdefault(h, set()).add(x >> 1)
            got = placed.targets = tuple((h, at, tuple(sorted(owners.get(h, ())))) for h, at in enumerate(topo.hexes))
        return got

    def _dev_moves(self, s: State, seat: int) -> list[Move]:
        if s.dev_played:
            return []
        ref = s.cfg.n + 1
        known, unk = s.dev[seat][ref]
        if not (known[0] or known[1] or known[2] or known[3] or unk):
            return []
        fk, fu = s.fresh[seat]
        # a card the seat held before this turn: known, or (as _play_dev takes it) one of its cards the log did
        # not see, bought before this turn, that could be of the kind
        pool = s.pools[ref]
        old = tuple(1 if known[k] - fk[k] > 0 or (unk - fu > 0 and pool[k] > 0) else 0 for k in range(5))
        if not any(old[:4]):
            return []
        out = []
        if old[KNIGHT]:
            out.append(_move("play_knight", seat, {}))
        if old[ROADS] and s.built[seat][2] < MAX_ROADS:
            out.append(_move("play_road_building", seat, {}))
        if old[PLENTY]:
            want = min(2, sum(s.bank))
            for combo in combinations_with_replacement(range(5), want):
                if all(combo.count(r) <= s.bank[r] for r in set(combo)):
                    out.append(_move("play_year_of_plenty", seat, {"cards": [RES[r] for r in combo]}))
        if old[MONOPOLY]:
            exact = all(self._ref(s, p).exact for p in range(s.cfg.n))
            if exact:
                out.extend(_move("play_monopoly", seat, {"resource": RES[r], "given": {
                    str(p): self._ref(s, p).known[r] for p in range(s.cfg.n) if p != seat}}) for r in range(5))
        return out

    # -- chance -------------------------------------------------------------------------
    def chance_outcome(self, s: State, rng: random.Random) -> Move | None:
        if s.phase == DICE:
            if type(rng) is random.Random:  # randint(1, 6) as the stock Random draws it, without its three calls
                bits = rng.getrandbits
                a = bits(3)
                while a >= 6:
                    a = bits(3)
                b = bits(3)
                while b >= 6:
                    b = bits(3)
                return _move("dice", None, {"dice": [a + 1, b + 1]})
            return _move("dice", None, {"dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        if s.phase == STEAL:
            hand = self._ref(s, s.victim)
            cards = [r for r in range(5) for _ in range(hand.known[r])]
            card = RES[rng.choice(cards)] if cards and hand.exact else None
            return _move("steal", s.turn, {"card": card, "from": s.victim})
        if s.phase == DEV_DRAW:
            pool = s.pools[s.cfg.n + 1]
            cards = [k for k in range(5) for _ in range(pool[k])]
            return _move("draw_dev", s.actor, {"card": DEV[rng.choice(cards)] if cards else None})
        return None

    # -- views ----------------------------------------------------------------------------
    def _viewer(self, s: State, seat: int | str | None) -> int:
        n = s.cfg.n
        if seat == REFEREE:
            return n + 1
        if seat is None:
            return n
        return seat  # type: ignore[return-value]

    def view(self, s: State, seat: int | str | None) -> dict[str, Any]:
        v = self._viewer(s, seat)
        n = s.cfg.n
        topo = s.topo
        players = []
        for p in range(n):
            hand = s.hands[p][p if v == p else v]
            known, unk = s.dev[p][p if v == p else v]
            b, c, r = s.built[p]
            entry: dict[str, Any] = {
                "seat": p,
                "name": s.names[p],
                "cards": hand.size,
                "hand": K.describe(hand),
                "development_cards": sum(known) + unk,
                "development_known": {DEV[k]: known[k] for k in range(5) if known[k]},
                "bought_this_turn": s.fresh[p][1] + sum(s.fresh[p][0]),
                "knights_played": s.knights[p],
                "victory_points_shown": s.vp_shown[p],
                "settlements": b, "cities": c, "roads": r,
                "road_length": s.road_len[p],
                "public_vp": self.public_vp(s, p),
            }
            if v in (p, n + 1):
                entry["vp"] = self.public_vp(s, p) + self.hidden_vp(s, p)
            players.append(entry)
        out: dict[str, Any] = {
            "phase": self.phase_names[s.phase],
            "turn": s.turn,
            "turn_number": s.turn_no,
            "board": {"hash": s.cfg.board_hash, "name": topo.name, "provenance": topo.provenance,
                      **({"placeholder": True, "label": "PLACEHOLDER layout (not the printed board)"} if topo.placeholder else {})},
            "robber": list(topo.hexes[s.robber]),
            "dice": list(s.dice),
            "bank": {RES[r]: s.bank[r] for r in range(5)},
            "development_deck": s.deck,
            "longest_road": s.longest if s.longest >= 0 else None,
            "largest_army": s.army if s.army >= 0 else None,
            "buildings": [{"vertex": i, "owner": b >> 1, "kind": "city" if b & 1 else "settlement"}
                          for i, b in enumerate(s.buildings) if b >= 0],
            "roads": [{"edge": i, "owner": o} for i, o in enumerate(s.roads) if o >= 0],
            "players": players,
        }
        out["layout"] = _layout(topo)
        if s.phase == SBP:
            out["building"] = s.step
        if s.cfg.paired and s.phase not in (SETUP_S, SETUP_R, OVER):
            first = s.step - 1 if s.step else s.turn
            out["paired_turn"] = {"settler_1": first, "settler_2": (first + 3) % n, "acting": 2 if s.step else 1}
        if s.phase == DISCARD:
            out["discards_due"] = {str(p): k for p, k in enumerate(s.pending) if k}
        if s.phase == ROAD_BUILDING:
            out["free_roads"] = s.free_roads
        if s.phase == STEAL:
            out["stealing_from"] = s.victim  # the seat robbed, whose hand the stolen card leaves
        if s.phase == DEV_DRAW:
            out["drawing"] = s.actor  # the buyer, who draws the card
        # the kinds of development card that may still lie in the deck, as this viewer knows it
        pool = s.pools[v]
        out["development_deck_could_be"] = [DEV[k] for k in range(5) if pool[k] > 0] if s.deck else []
        if s.winner >= 0:
            out["winner"] = s.winner
        return out

    def event_view(self, s: State, event: dict[str, Any], viewer: int | str | None) -> dict[str, Any]:
        type_ = event["type"]
        if type_ == "steal":
            data = event["data"]
            if viewer is not None and viewer in (event["seat"], data.get("from")):
                return event
            if data.get("card") is None:
                return event
            return {**event, "data": {**data, "card": None}, "redacted": True}
        if type_ == "draw_dev":
            if viewer is not None and viewer == event["seat"]:
                return event
            if event["data"].get("card") is None:
                return event
            # a card played since is on the table, but which drawn card it was stays hidden
            return {**event, "data": {"card": None}, "redacted": True}
        return event

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        from .scene import scene
        return scene(view, moves)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Any:
        from .describe import describe
        return describe(self, before, type, seat, data, after)

    def describe_setup(self, state: State) -> Any:
        from .describe import board
        return board(state)

    def field_names(self, state: State) -> dict[tuple[int, int], Any]:
        """Fields that have a name of their own, by coordinates (none in the base game: Troje's cities)."""
        return {}

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        from .describe import annotate
        return annotate(self, before, type, seat, data, after)

    # -- snapshots --------------------------------------------------------------------------
    def encode_state(self, s: State) -> dict[str, Any]:
        out = {}
        for name, value in zip(State._fields, s):
            if name == "cfg":
                value = list(value)[:-1]
            elif name == "hands":
                value = [[h.encode() for h in row] for row in value]
            elif name == "worlds" and value is not None:
                value = sorted(value)
            elif name == "origins":  # messages (a refusal names them in the reader's language)
                value = {"count": value.count, "kept": [[o, to_json(text)] for o, text in value.kept]}
            out[name] = _jsonable(value)
        return out

    def decode_state(self, obj: dict[str, Any]) -> State:
        vals = {}
        every_origin = False
        for name in State._fields:
            value = obj.get(name) if name == "ext" else obj[name]
            if name == "cfg":
                c = list(value)
                c[5] = tuple(c[5])
                value = Config(*c, topo=B.topology(c[8], c[0]))
            elif name == "hands":
                value = tuple(tuple(Hand.decode(h) for h in row) for row in value)
            elif name == "worlds" and value is not None:
                value = frozenset(_tuplify(value))
            elif name == "origins":
                if isinstance(value, dict):
                    value = Origins(value["count"], tuple((o, from_json(text)) for o, text in value["kept"]))
                else:  # a snapshot that kept every text (before issue 36)
                    value = Origins(len(value), tuple((o, from_json(text)) for o, text in enumerate(value, start=1)))
                    every_origin = True
            else:
                value = _tuplify(value)
            vals[name] = value
        state = State(**vals)
        if every_origin:  # only what the state can still name
            state = state._replace(origins=_kept_origins(state, state.origins))
        return state

    def info(self) -> dict[str, Any]:
        info = super().info()
        info["data_kinds"] = {"boards": kind_info(self, "boards", say("the standard board for the player count"))}
        return info


_LAYOUTS: dict[str, dict[str, Any]] = {}


def _layout(topo: B.Topology) -> dict[str, Any]:
    """The board as a recorder names it: hexes, intersections by their number
    (each as its three hexes), paths by their number (each as its two hexes)."""
    got = _LAYOUTS.get(topo.hash + str(len(topo.hexes)))
    if got is None:
        got = _LAYOUTS[topo.hash + str(len(topo.hexes))] = {
            "hexes": [{"at": list(c), "terrain": topo.terrain[i], **({"number": topo.number[i]} if topo.number[i] else {})}
                      for i, c in enumerate(topo.hexes)],
            "vertices": [[list(c) for c in v] for v in topo.vertices],
            "edges": [[list(c) for c in e] for e in topo.edges],
            "harbors": {str(v): ("3:1" if k == B.GENERIC else RES[k]) for v, k in enumerate(topo.harbor) if k >= 0},
        }
    return got


#: what a snapshot keeps as it is (most of a state's leaves: no call each)
_ATOMS = frozenset({int, str, bool, float, type(None)})


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [x if x.__class__ in _ATOMS else _jsonable(x) for x in v]
    return v


def _tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


#: the most joint assignments the log keeps before it falls back to each hand's own knowledge
MAX_WORLDS = 4096

_RATIOS = {4: (4, 4, 4, 4, 4), 3: (3, 3, 3, 3, 3)}


class _Placed:
    """What follows from the buildings alone, worked out once per buildings
    tuple: harbour ratios per seat, what each roll pays (per robber hex and
    number), who can be robbed on each hex. States share their buildings
    tuple until a building changes, so a few hundred events reuse one."""

    __slots__ = ("bld", "topo", "ratios", "rolls", "targets", "settlements")

    def __init__(self, bld: tuple[int, ...], topo: B.Topology) -> None:
        self.bld = bld  # kept, so its id is not reused while cached
        self.topo = topo
        self.ratios: dict[int, tuple[int, ...]] = {}
        self.rolls: dict[int, _Roll] = {}
        #: (hex, (q, r), the players with a building there) of every hex
        self.targets: tuple[tuple[int, tuple[int, int], tuple[int, ...]], ...] | None = None
        #: per seat: the intersections of its settlements
        self.settlements: dict[int, tuple[int, ...]] = {}


class _Roll(NamedTuple):
    """What a roll pays before the bank is asked (``Catan._roll``)."""

    gains: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, cards per resource), seats in first-paid order
    need: tuple[int, ...]  # cards of each resource the bank owes in all
    yields: tuple[tuple[int, int, int], ...]  # (hex, resource, cards) per hex that pays
    blocked: tuple[tuple[int, int], ...]  # (seat, cards) the robber's hex withholds


#: id(buildings) -> ``_Placed`` (the entry keeps the tuple, so the id stays its own)
_PLACED: dict[int, _Placed] = {}


def _placed(bld: tuple[int, ...], topo: B.Topology) -> _Placed:
    got = _LAST_PLACED[0]  # consecutive events mostly share their buildings
    if got.bld is bld and got.topo is topo:
        return got
    got = _PLACED.get(id(bld))
    if got is None or got.bld is not bld or got.topo is not topo:
        if len(_PLACED) > 256:
            _PLACED.clear()
        got = _PLACED[id(bld)] = _Placed(bld, topo)
    _LAST_PLACED[0] = got
    return got


_LAST_PLACED = [_Placed((), None)]


class _Network:
    """What follows from the roads and buildings together, once per roads
    tuple (and its buildings): where each seat can build a road or a
    settlement."""

    __slots__ = ("roads", "bld", "topo", "road_spots", "settlement_spots")

    def __init__(self, roads: tuple[int, ...], bld: tuple[int, ...], topo: B.Topology) -> None:
        self.roads = roads  # kept, as in ``_Placed``
        self.bld = bld
        self.topo = topo
        self.road_spots: dict[int, tuple[int, ...]] = {}
        self.settlement_spots: dict[int, tuple[int, ...]] = {}


#: id(roads) -> ``_Network``
_NETWORK: dict[int, _Network] = {}


def _network(roads: tuple[int, ...], bld: tuple[int, ...], topo: B.Topology) -> _Network:
    got = _NETWORK.get(id(roads))
    if got is None or got.roads is not roads or got.bld is not bld or got.topo is not topo:
        if len(_NETWORK) > 256:
            _NETWORK.clear()
        got = _NETWORK[id(roads)] = _Network(roads, bld, topo)
    return got


def _discard_cards(have: tuple[int, ...], k: int) -> list[dict[str, int]]:
    """Every way to discard ``k`` of the known cards ``have``, each as its
    ``cards`` dict, in increasing order of lumber, then brick, wool, grain."""
    h0, h1, h2, h3, h4 = have
    r0, r1, r2, r3, r4 = RES
    out = []
    for x0 in range(min(k, h0) + 1):
        a = k - x0
        for x1 in range(min(a, h1) + 1):
            b = a - x1
            for x2 in range(min(b, h2) + 1):
                c = b - x2
                for x3 in range(max(0, c - h4), min(c, h3) + 1):
                    cards = {}
                    if x0:
                        cards[r0] = x0
                    if x1:
                        cards[r1] = x1
                    if x2:
                        cards[r2] = x2
                    if x3:
                        cards[r3] = x3
                    if c - x3:
                        cards[r4] = c - x3
                    out.append(cards)
    return out


def _owned(t: tuple[int, ...], x: int) -> list[int]:
    """The indexes where ``t`` holds ``x`` (a seat's roads, settlements), found
    by ``tuple.index`` rather than a Python loop over every path."""
    out = []
    i = -1
    for _ in range(t.count(x)):
        i = t.index(x, i + 1)
        out.append(i)
    return out


_new_move = object.__new__


def _move(type_: str, seat: int | None, data: dict[str, Any]) -> Move:
    """``Move(type_, seat, data)`` without the frozen dataclass's per-field
    ``object.__setattr__`` (legal moves make thousands per game)."""
    m = _new_move(Move)
    d = m.__dict__
    d["type"] = type_
    d["seat"] = seat
    d["data"] = data
    return m


try:
    _MOVE_OK = _move("x", None, {}) == Move("x", None, {})
except AttributeError:  # pragma: no cover  (Move without a __dict__)
    _MOVE_OK = False
if not _MOVE_OK:  # pragma: no cover
    _move = Move  # type: ignore[assignment]  # noqa: F811

_MAY_WIN = frozenset({"build_settlement", "build_road", "build_city", "draw_dev", "play_knight", "reveal_vp",
                      "end_turn"})

_APPLY = {
    "build_settlement": Catan._a_build_settlement,
    "build_road": Catan._a_build_road,
    "build_city": Catan._a_build_city,
    "roll": Catan._a_roll,
    "dice": Catan._a_dice,
    "discard": Catan._a_discard,
    "move_robber": Catan._a_move_robber,
    "steal": Catan._a_steal,
    "buy_dev": Catan._a_buy_dev,
    "draw_dev": Catan._a_draw_dev,
    "play_knight": Catan._a_play_knight,
    "play_road_building": Catan._a_play_road_building,
    "play_year_of_plenty": Catan._a_play_year_of_plenty,
    "play_monopoly": Catan._a_play_monopoly,
    "reveal_vp": Catan._a_reveal_vp,
    "trade": Catan._a_trade,
    "trade_bank": Catan._a_trade_bank,
    "end_turn": Catan._a_end_turn,
}
