"""Troje (Troy), the Catan scenario for 4 or 6 players, as a game of its own
built on the Catan engine: the base game's turn flow, hands per viewer,
building and trading are Catan's; this class adds what the scenario changes.

- No development cards and no robber on land: a 7 (after the discards) and
  every ship built move the sea people (phase ``robber`` is theirs here),
  who may steal from a player with a settlement on the tile's corners or a
  ship on it.
- Allegiances: a ``decision_card`` per seat at the start (option
  ``allegiances: private``; the side may be null, unknown to the log), or
  none until the reveal (``at_reveal``). The end reveals them
  (``reveal_allegiances``) wherever the log does not already know them all.
- The support stack is holder ``n`` of Catan's hands table, so donations,
  blind draws and the battle's turn-up narrow each viewer's knowledge only
  as far as that viewer saw (``support``).
- A battle comes at the end of a turn when the stack is full (with six
  players before or after the Special Building Phase, option
  ``battle_timing``): the turned-up cards are a chance event (``battle``).
- Turns (option ``turn_model``): with six players the Special Building Phase
  by default, or Catan's paired players' turn, or one player at a time. In a
  paired turn each part is a player's own turn ("als een speler zijn beurt
  beëindigd heeft"): Settler 2 may donate, build ships and use his ships in
  his part as in any trade and build phase, and a full stack brings the
  battle after either part (``battle_timing`` ``before_sbp``), or only after
  Settler 2's part, the end of the whole turn (``after_sbp``).
- Ships: ``build_ship`` (one lumber, one wool, two trade points), the tile
  turned up (``ship_tile``), a trade chip chosen when it shows one
  (``take_chip``; with option ``trade_chip: may_take`` the builder may leave
  them, ``decline_chip``), then the sea people move. ``use_advantage`` draws blind
  from the stack (``stack_card``), and a swap lays a card back
  (``return_card``).
- The end: 15 VP in one's own turn, or the war's end when a saga marker
  reaches the six. A seat whose side the log does not know may claim the
  win (``claim_win``); the reveal checks the claim.

The state is Catan's ``State`` with the scenario's part in ``ext`` (``Ext``).
The log's joint "worlds" of Catan are not kept here: each hand's own
knowledge stands alone (the support stack makes the joint assignment far
larger than the base game's, and nothing in the scenario needs it).
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from ..catan import board as B
from ..catan import knowledge as K
from ..catan.game import ALIASES as CATAN_ALIASES
from ..catan.game import (CARDS, HEX, Catan, Config, Origins, State, _add, _jsonable, _move, _obj, _one, _put, _tuplify,
                          add_origin)
from ..catan.pieces import DICE, DISCARD, MAIN, OVER, PRE_ROLL, RES, RES_ALIASES, ROBBER, SBP, SETUP_S, STEAL, ZERO
from ..core import CHANCE, EventType, MalformedEvent, Move, Result, RuleViolation, titled
from ..core import worded
from ..game_data import DataKind, digest, kind_info
from . import board as TB
from . import invariants as INV
from . import options as O
from . import saga as SG
from . import ships as SH
from . import support as SU
from .phases import (BATTLE, CHIP, DEAL, OWN_TURN, PHASE_EVENT, RESUME_NEXT, RESUME_SBP, RESUME_SETTLER_2, REVEAL,
                     SHIP_COST, SHIP_TILE, STACK_DRAW, SWAP_BACK, TROJE_PHASES)
from .rules import RULES, TERMS
from ..catan import words as CW
from ..text import N_, Text, Words, say, say_n
from . import words as TW

P = "troje."
TABLE = "table"


class Ext(NamedTuple):
    """The scenario's part of the state."""

    tcfg: O.Config
    allegiances: tuple[str | None, ...]  # as the log knows them
    revealed: bool  # the decision cards are on the table (the end)
    dealt: int  # decision cards entered so far (phase deal)
    trade_points: tuple[int, ...]
    donated: tuple[bool, ...]  # per seat: donated in this trade and build phase
    ships: tuple[Any, ...]  # per sea tile: None or (owner, advantage)
    tiles: tuple[tuple[int, ...], ...]  # per seat: face-down ship tiles left, per advantage
    chip_supply: tuple[int, ...]
    chips: tuple[tuple[SH.Chip, ...], ...]  # per seat
    sea_people: int  # sea tile, or -1 off the board
    used: tuple[int, ...]  # ships whose swap/draw was used this turn
    ship: int  # the ship being built or used (phases ship_tile, take_chip, stack_card, return_card)
    saga: SG.Saga
    battles: tuple[tuple[tuple[int, ...], str | None], ...]  # (turned-up cards, the side that won)
    resume: int  # where a pending battle leads
    claim: int  # a seat that claimed 15 VP with its side unknown to the log, or -1
    war: str | None  # the city that won the war
    winners: tuple[int, ...]
    donations: tuple[tuple[int, ...], ...]  # per seat: cards donated as the log saw them (for the annotations)
    donated_unseen: tuple[int, ...]  # per seat: donated cards the log did not see


def _side_ref(name: Any, field: str) -> str | None:
    if name is None:
        return None
    try:
        return SG.side(name)
    except RuleViolation:
        raise MalformedEvent(say("a decision card shows Troy or Mycenae, not {name}", name=repr(name)),
                             field=field) from None


SIDE = {"type": ["string", "null"], "maxLength": 20,
        "description": N_("Troy or Mycenae (in Dutch: Troje, Mykene); unknown if the recorder did not see it")}
SEA_TILE = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 1_000},
                      {"type": "array", "minItems": 2, "maxItems": 2,
                       "items": {"type": "integer", "minimum": -30, "maximum": 30}}],
            "description": N_("a sea tile: its number on the board (#3), or its [q, r]")}
RES_OR_NULL = {"type": ["string", "null"], "maxLength": 20,
               "description": N_("a resource (lumber, brick, wool, grain, ore; in Dutch hout, steen, wol, graan, erts); "
                                  "unknown if the recorder did not see it")}
SEAT = {"type": ["integer", "null"], "minimum": 0, "maximum": 5}

#: the scenario's terms, then the base game's Dutch names (dorp, straat, dobbelen, worp, ...: the events
#: before the nouns) but those of the development cards
ALIASES = {
    **TERMS,
    **{k: v for k, v in CATAN_ALIASES.items()
       if v not in ("play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly")},
    "afdragen": "donate", "schip bouwen": "build_ship", "zeevolk verplaatsen": "move_sea_people",
    "beslissingskaart": "decision_card", "strijd": "battle", "voordeel": "use_advantage",
    "geen handelsfiche": "decline_chip",
}

#: the field a table may enter as "unknown" (taken as null: not seen), per event type
_UNSEEN_FIELDS = {"steal": "card", "stack_card": "card", "return_card": "card", "decision_card": "side"}

#: sea topologies by (board hash, players): ``Troje.sea`` is asked on every ship, sea people and legal-move call
_SEAS: dict[tuple[str, int], TB.SeaTopology] = {}

_CATAN_EVENTS = ("build_settlement", "build_road", "build_city", "roll", "dice", "discard", "steal", "trade",
                 "trade_bank", "end_turn")


class Troje(Catan):
    id = "catan-troje"
    name = "Catan: Troje (Troy)"
    version = "1"
    min_players = 4
    max_players = 6
    player_counts = TB.PLAYERS  # 4 or 6: the box holds 3 Troy and 3 Mycenae decision cards
    player_counts_rule = P + "players"
    says = True
    summary = N_("The Troje scenario on Catan for 4 or 6 players: secret allegiances, donations to a face-down "
                 "support stack, battles, the saga track, ships and the sea people (board and ship tiles: "
                 "placeholders until a table enters its own).")
    rules = RULES
    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        from .scene import scene
        return scene(view, moves)

    invariant_rules = INV.INVARIANTS
    #: (not donate or return_card: a card the recorder did not see is taken as null; not move_sea_people: a
    #: victim without cards is taken)
    complete_moves = frozenset({"build_settlement", "build_road", "build_city", "roll", "end_turn", "build_ship",
                                "take_chip", "use_advantage", "claim_win"})

    def invariants(self, s: State) -> list[tuple[str, str]]:
        return INV.check(self, s)

    aliases = ALIASES
    options_schema = titled(
        O.OPTIONS_SCHEMA, board=N_("Board"), board_doc=N_("Board document"), ship_tiles=N_("Ship tiles"),
        ship_tiles_doc=N_("Ship-tile document"), revealed_cards=N_("Cards turned up in a battle"),
        sea_people_tiles=N_("Where the sea people may go"), city_counts_as_settlement=N_("A city counts as a settlement"),
        blocked_ship_keeps_vp=N_("A blocked ship keeps its point"), blocked_ship_blocks_chip=N_("A blocked ship blocks its trade chip"),
        stack_draws=N_("Swap and draw advantages"), battle_timing=N_("When the battle comes"), ships_in_sbp=N_("Ships in the Special Building Phase"),
        donations_in_sbp=N_("Donations in the Special Building Phase"), trade_chip=N_("Trade chip of a ship"),
        turn_model=N_("How turns run"), allegiances=N_("Decision cards"), bank_per_resource=N_("Bank cards per resource"),
        victory_points=N_("Victory points to win"), initial_stack=N_("Support stack at the start"), saga_track=N_("Saga track"),
        sea_people_start=N_("Where the sea people start"), start_seat=N_("Start player"))
    options_schema = worded(
        options_schema,
        revealed_cards={"bank": N_("back to the bank"), "removed": N_("out of the game")},
        sea_people_tiles={"any_sea": N_("any sea hex"), "ship_symbol": N_("only with a ship symbol")},
        stack_draws={"per_ship": N_("per ship"), "per_player": N_("per player")},
        battle_timing={"before_sbp": N_("before the Special Building Phase"), "after_sbp": N_("after the Special Building Phase")},
        trade_chip={"must_take": N_("must take"), "may_take": N_("may take")},
        turn_model={"standard": N_("one player per turn"), "special_building": N_("with the Special Building Phase"), "paired": N_("paired players")},
        allegiances={"private": N_("entered in secret"), "at_reveal": N_("unknown until revealed")})
    event_titles_nl = {
        "take_chip": "handelsfiche pakken",
        "stack_card": "kaart van de ondersteuningsstapel trekken",
        "return_card": "kaart terugleggen",
        "claim_win": "overwinning melden",
        "reveal_allegiances": "beslissingskaarten openleggen",
    }
    phase_names = TROJE_PHASES
    data_kinds = {
        "boards": DataKind(
            name="boards",
            description=N_("Troje boards (format kroniek.catan.board/1 with sea hexes, ship symbols, Troy and "
                           "Mycenae); a match names one by its SHA-256 in options.board"),
            validate=TB.check_board,
            summary=lambda doc: {**B.summary(doc), "hash": digest(doc),
                                 **({"placeholder": True, "label": say("PLACEHOLDER layout (not the printed board)")}
                                    if doc.get("provenance") == "placeholder" else {})},
            builtin=TB.builtin_boards,
            option="board",
            embed="board_doc",
            max_bytes=100_000,
            default_for=lambda options, players: TB.default_board_hash(),
            title=N_("board"),
        ),
        "ship-tiles": DataKind(
            name="ship-tiles",
            description=N_("Ship-tile lists (format kroniek.troje.ship_tiles/1): per colour, the advantages on the "
                           "backs of its tiles; a match names one by its SHA-256 in options.ship_tiles"),
            validate=TB.check_ship_tiles,
            summary=TB.ship_tiles_summary,
            builtin=TB.builtin_ship_tiles,
            option="ship_tiles",
            embed="ship_tiles_doc",
            max_bytes=20_000,
            default_for=lambda options, players: TB.default_ship_tiles_hash(),
            title=N_("ship-tile list"),
        ),
    }

    event_types = {
        **{k: Catan.event_types[k] for k in _CATAN_EVENTS},
        "steal": EventType("steal", CHANCE, _obj({"card": RES_OR_NULL, "from": {"type": "integer", "minimum": 0,
                                                                                  "maximum": 5}}, ["card"]),
                           N_("The card the sea people's mover draws (seat: the mover); unknown when the recorder "
                              "did not see it.")),
        "end_turn": EventType("end_turn", "seat", _obj({}, []),
                              N_("End the turn (or one's Special Building Phase); a full support stack brings a "
                                 "battle.")),
        "decision_card": EventType("decision_card", CHANCE, _obj({"side": SIDE}, ["side"]),
                                   N_("The decision card dealt to a seat (seat: that seat), seen by it alone; when "
                                      "the decision cards are entered privately, one per seat in seat order before "
                                      "the set-up."),
                                   aliases=("beslissingskaart",)),
        "donate": EventType("donate", "seat", _obj({
            "cards": {**CARDS, "type": ["object", "null"],
                      "description": N_("the cards laid face down, as the recorder saw them; unknown if not seen")},
            "count": {"type": "integer", "minimum": 1, "maximum": 3,
                      "description": N_("how many cards (needed when the cards were not seen)")}}, []),
            N_("Donate 1–3 resource cards face down to the support stack: one trade point."), aliases=("afdragen",)),
        "build_ship": EventType("build_ship", "seat", _obj({"tile": SEA_TILE}, ["tile"]),
                                N_("Build a ship on a sea tile with a ship symbol (one lumber, one wool, two trade "
                                   "points); the ship tile turned up follows, then the sea people move."),
                                aliases=("schip",)),
        "ship_tile": EventType("ship_tile", CHANCE, _obj({"advantage": {"type": "string", "maxLength": 20}},
                                                         ["advantage"]),
                               N_("The ship tile turned up from the builder's colour (seat: the builder): 3:1 "
                                  "harbour, victory point, swap, 2:1 trade chip or draw."), aliases=("scheepsfiche",)),
        "take_chip": EventType("take_chip", "seat", _obj({"resource": {"type": "string", "maxLength": 20}},
                                                         ["resource"]),
                               N_("The trade chip (2:1) taken with a ship that gives one."), aliases=("handelsfiche",)),
        "decline_chip": EventType("decline_chip", "seat", _obj({}, []),
                                  N_("Leave the trade chips after turning up a ship with the 2:1 trade chip (\"mag "
                                     "... pakken\"): only where the options let the builder leave them; the ship "
                                     "then gives no 2:1."),
                                  aliases=("geen handelsfiche",)),
        "move_sea_people": EventType("move_sea_people", "seat", _obj({"tile": SEA_TILE, "victim": SEAT}, ["tile"]),
                                     N_("Move the sea people (on a 7 and after a ship) and name whom to draw a card "
                                        "from, or nobody."), aliases=("zeevolk",)),
        "use_advantage": EventType("use_advantage", "seat", _obj({"ship": SEA_TILE}, ["ship"]),
                                   N_("Use a swap or draw ship: one card drawn blind from the support stack "
                                      "follows."),
                                   aliases=("voordeel",)),
        "stack_card": EventType("stack_card", CHANCE, _obj({"card": RES_OR_NULL}, ["card"]),
                                N_("The card drawn blind from the support stack (seat: the drawer).")),
        "return_card": EventType("return_card", "seat", _obj({"card": RES_OR_NULL}, ["card"]),
                                 N_("After a swap: the hand card laid face down back on the stack.")),
        "battle": EventType("battle", CHANCE, _obj({"revealed": {**CARDS, "description": N_("the cards turned up")}},
                                                   ["revealed"]),
                            N_("A battle: the cards turned up from the shuffled support stack (7 with 4 players, 10 "
                               "with 6)."), aliases=("strijd",)),
        "claim_win": EventType("claim_win", "seat", _obj({}, []),
                               N_("Claim 15 victory points in one's own turn when the log does not know one's "
                                  "side; turning up the decision cards checks it.")),
        "reveal_allegiances": EventType("reveal_allegiances", TABLE, _obj({
            "sides": {"type": "array", "minItems": 4, "maxItems": 6, "items": SIDE}}, ["sides"]),
            N_("At the end: every seat's decision card, in seat order.")),
        "buy_dev": EventType("buy_dev", "seat", _obj({}, []),
                             N_("Not in Troje: Troje has no development cards.")),
        "move_robber": EventType("move_robber", "seat", _obj({"hex": HEX, "victim": SEAT}, ["hex"]),
                                 N_("Not in Troje: the sea people move instead of a robber.")),
    }

    # -- set-up -----------------------------------------------------------------------
    def check_options(self, options: dict[str, Any], players: int) -> None:
        O.check_options(options, players)

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        n = len(players)
        t = O.check_options(options, n)
        topo = B.topology(t.board, n)
        sea = TB.sea_topology(t.board, n)
        model = O.turn_model(options, n)
        cfg = Config(n, t.goal, 7, t.bank, model == "special_building", ZERO, t.start, t.board_hash, t.board,
                     model == "paired", topo)
        empty = K.Hand()
        nv = n + 2
        hands = SU.with_stack(((empty,) * nv,) * n, t.initial_stack)
        ext = Ext(
            tcfg=t, allegiances=(None,) * n, revealed=False, dealt=0, trade_points=(0,) * n,
            donated=(False,) * n, ships=(None,) * len(sea.tiles),
            tiles=tuple(TB.tile_counts(t.ship_tiles, p) for p in range(n)), chip_supply=SH.CHIPS,
            chips=((),) * n, sea_people=-1 if t.sea_people_start is None else sea.index[t.sea_people_start],
            used=(), ship=-1, saga=SG.Saga(), battles=(), resume=0, claim=-1, war=None, winners=(),
            donations=(ZERO,) * n, donated_unseen=(0,) * n,
        )
        return State(
            cfg=cfg, names=tuple(players), phase=DEAL if t.private_allegiances else SETUP_S, turn=t.start, step=0,
            turn_no=0, ret=MAIN, robber=-1, buildings=(-1,) * len(topo.vertices), roads=(-1,) * len(topo.edges),
            built=((0, 0, 0),) * n, bank=_add((t.bank,) * 5, t.initial_stack, -1), hands=hands,
            dev=(((ZERO, 0),) * nv,) * n, pools=(ZERO,) * nv, deck=0, fresh=((ZERO, 0),) * n,
            dev_played=False, vp_shown=(0,) * n, knights=(0,) * n, army=-1, road_len=(0,) * n, longest=-1,
            pending=(0,) * n, victim=-1, free_roads=0, last_placed=-1, dice=(), winner=-1, origins=Origins(),
            hist=(0,) * 11, produced=((0,) * 5,) * n, blocked=(0,) * n, lost=(0,) * n,
            hex_yield=(0,) * len(topo.hexes), ext=ext,
        )

    @staticmethod
    def sea(s: State) -> TB.SeaTopology:
        t = s.ext.tcfg
        key = (t.board_hash, s.cfg.n)  # the hash names the board: no canonical JSON per call
        got = _SEAS.get(key)
        if got is None:
            if len(_SEAS) >= 64:
                _SEAS.clear()
            got = _SEAS[key] = TB.sea_topology(t.board, s.cfg.n)
        return got

    # -- who acts -----------------------------------------------------------------------
    @staticmethod
    def mover(s: State) -> int:
        """Who moves the sea people: the builder of a ship in the Special
        Building Phase, else the player whose turn it is."""
        return s.step if s.ret == SBP else s.turn

    def actors(self, s: State) -> tuple[Any, ...]:
        ph = s.phase
        if ph in (DEAL, SHIP_TILE, STACK_DRAW, BATTLE):
            return (CHANCE,)
        if ph == REVEAL:
            return (TABLE,)
        if ph in (ROBBER, CHIP):
            return (self.mover(s),)
        if ph == SWAP_BACK:
            return (s.turn,)
        return super().actors(s)

    # -- references ---------------------------------------------------------------------
    def _tile(self, s: State, ref: Any, field: str) -> int:
        sea = self.sea(s)
        if isinstance(ref, int):
            if not 0 <= ref < len(sea.tiles):
                raise MalformedEvent(say("no sea tile #{n}: this board has #0–#{last} in play", n=ref,
                                         last=len(sea.tiles) - 1), field=field)
            return ref
        i = sea.index.get((ref[0], ref[1]))
        if i is None:
            raise MalformedEvent(say("that is no sea tile in play on this board"), field=field)
        return i

    @staticmethod
    def _resource(name: Any, field: str) -> int:
        try:
            return SU.resource(name)
        except RuleViolation as exc:
            if exc.rule == P + "trade_points_not_resources":
                raise
            raise MalformedEvent(say("unknown resource {name}; one of {resources}", name=repr(name),
                                     resources=list(CW.RESOURCE.values())), field=field) from None

    def _troje_cards(self, data: dict[str, Any], field: str) -> tuple[int, ...]:
        out = [0, 0, 0, 0, 0]
        for name, k in data.items():
            out[self._resource(name, f"{field}.{name}")] += k
        return tuple(out)

    def normalize(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        key = _UNSEEN_FIELDS.get(type)
        if key and isinstance(data.get(key), str) and data[key].strip().lower() == "unknown":
            data = {**data, key: None}  # what the table did not see, as a picker names it
        if type == "steal":
            mover = self.mover(s)
            if seat != mover:
                raise MalformedEvent(say("enter the card drawn as {who}'s (seat {seat}), who draws it",
                                         who=s.names[mover], seat=str(mover)), field="seat")
            card = data.get("card")
            out: dict[str, Any] = {"card": None if card is None else RES[self._resource(card, "data.card")]}
            out["from"] = s.victim if s.victim >= 0 else data.get("from", 0)
            if "from" in data and data["from"] != out["from"]:
                raise MalformedEvent(say("the card is drawn from {victim}, not from seat {seat}",
                                         victim=CW.seat(s, out["from"]), seat=str(data["from"])), field="data.from")
            return out
        if type in ("discard", "trade"):
            if type == "discard":
                return {"cards": self._cards_dict(self._troje_cards(data["cards"], "data.cards"))}
            return {"with": data["with"], "give": self._cards_dict(self._troje_cards(data["give"], "data.give")),
                    "get": self._cards_dict(self._troje_cards(data["get"], "data.get"))}
        if type == "trade_bank":
            return {"give": RES[self._resource(data["give"], "data.give")],
                    "get": RES[self._resource(data["get"], "data.get")], "count": data.get("count", 1)}
        if type in Catan.event_types and type not in ("buy_dev", "move_robber"):
            return super().normalize(s, type, seat, data)
        if type == "decision_card":
            return {"side": _side_ref(data["side"], "data.side")}
        if type == "donate":
            cards = data.get("cards")
            count = data.get("count")
            if cards is None:
                if count is None:
                    raise MalformedEvent(say("a donation names its cards, or their count when the recorder did not "
                                             "see them"), field="data.count")
                return {"cards": None, "count": count}
            c = self._troje_cards(cards, "data.cards")
            if count is not None and count != sum(c):
                raise MalformedEvent(say("count {count} but {n} cards named", count=count, n=sum(c)), field="data.count")
            return {"cards": self._cards_dict(c), "count": sum(c)}
        if type in ("build_ship", "move_sea_people"):
            out = {"tile": list(self.sea(s).tiles[self._tile(s, data["tile"], "data.tile")])}
            if type == "move_sea_people":
                victim = data.get("victim")
                if victim is not None and victim >= s.cfg.n:
                    raise MalformedEvent(say("no seat {seat}", seat=str(victim)), field="data.victim")
                out["victim"] = victim
            return out
        if type == "use_advantage":
            return {"ship": list(self.sea(s).tiles[self._tile(s, data["ship"], "data.ship")])}
        if type == "ship_tile":
            a = data["advantage"]
            key = a.strip().lower() if isinstance(a, str) else a
            if key not in TB.ADVANTAGE_ALIASES:
                raise MalformedEvent(say("unknown advantage {name}; one of {advantages}", name=repr(a),
                                         advantages=list(TB.ADVANTAGES)), field="data.advantage")
            return {"advantage": TB.ADVANTAGE_ALIASES[key]}
        if type == "take_chip":
            return {"resource": RES[self._resource(data["resource"], "data.resource")]}
        if type in ("stack_card", "return_card"):
            card = data["card"]
            return {"card": None if card is None else RES[self._resource(card, "data.card")]}
        if type == "battle":
            return {"revealed": self._cards_dict(self._troje_cards(data["revealed"], "data.revealed"))}
        if type == "reveal_allegiances":
            sides = data["sides"]
            if len(sides) != s.cfg.n:
                raise MalformedEvent(say("one side per seat: {n}, not {given}", n=s.cfg.n, given=len(sides)),
                                     field="data.sides")
            return {"sides": [_side_ref(x, f"data.sides[{i}]") for i, x in enumerate(sides)]}
        return data

    # -- applying -----------------------------------------------------------------------
    def apply(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        fn = _APPLY.get(type)
        if fn is None:
            raise MalformedEvent(say("unknown event type {type}", type=repr(type)), field="type")
        if s.phase == OVER:
            raise RuleViolation(P + "win_15", say("the game is over"))
        want = PHASE_EVENT.get(s.phase)
        if want is not None and type != want and not (s.phase == CHIP and type == "decline_chip"):
            rule = {DEAL: "allegiance", SHIP_TILE: "ship_tile", CHIP: "adv_chip", STACK_DRAW: "hidden_cards",
                    SWAP_BACK: "adv_swap", BATTLE: "battle_reveal", REVEAL: "allegiance_knowledge"}[s.phase]
            raise RuleViolation(P + rule, say("{want} comes next (now: {phase}), not {type}", want=self._move_name(want),
                                               phase=self._phase_text(s), type=self._move_name(type)))
        after = self._check_win(fn(self, s, seat, data))
        for row in after.hands:
            if row[-1].unseen:  # only where the log missed cards (never in a simulated match)
                self._unseen_fit(after)
                break
        return after

    def _unseen_fit(self, s: State) -> None:
        """Refuse a state whose unseen cards no assignment fits: the bank and
        the known cards leave exactly so many of each resource for the cards
        the log did not see (each hand's own knowledge alone does not see
        that, e.g. a battle turning up more wool than can be left unseen)."""
        x = s.ext
        gone = [0] * 5
        if not x.tcfg.revealed_to_bank:
            for revealed, _ in x.battles:
                gone = [a + b for a, b in zip(gone, revealed)]
        left = [x.tcfg.bank - s.bank[r] - gone[r] - sum(row[-1].known[r] for row in s.hands) for r in range(5)]
        masks = [m for row in s.hands for m, _ in row[-1].unseen]
        fits = min(left) >= 0 and sum(left) == len(masks) and all(
            sum(1 for m in masks if not m & ~subset) <= sum(left[r] for r in range(5) if subset >> r & 1)
            for subset in range(1, 31))
        if not fits:
            where = s.origins.texts(sorted({o for row in s.hands for _, o in row[-1].unseen}))
            raise RuleViolation(P + "hidden_cards", say_n(
                len(masks), "no assignment of the unseen cards allows this: the bank and the known cards leave {left} "
                "for the {n} unseen card (unseen cards from: {where})", "no assignment of the unseen cards allows "
                "this: the bank and the known cards leave {left} for the {n} unseen cards (unseen cards from: {where})",
                left=[say("{n} {resource}", n=left[r], resource=CW.resource(RES[r])) for r in range(5)], where=where))

    def _worlds_step(self, s: State, type: str, seat: int | None, data: dict[str, Any], a: State) -> State:
        return a  # each hand's own knowledge (see the module docstring)

    def _move_name(self, type: str) -> Words:
        """An event type as a refusal names it: its words (Dutch: the rules text's)."""
        return Words(en=type.replace("_", " "), nl=self.event_title_nl(type) or type.replace("_", " "))

    def holder_text(self, holder: int) -> Text:
        return say("the support stack")

    def _origin(self, s: State, what: Text) -> tuple[State, int]:
        return add_origin(s, say("{what} in turn {turn}", what=what, turn=s.turn_no))

    def _set(self, s: State, **changes: Any) -> State:
        return s._replace(ext=s.ext._replace(**changes))

    # decision cards -----------------------------------------------------------------------
    def _a_decision_card(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        x = s.ext
        if s.phase != DEAL:
            raise RuleViolation(P + "allegiance", say("the decision cards are dealt before the set-up"))
        if seat != x.dealt:
            raise MalformedEvent(say("the decision cards are entered in seat order: {who}'s next",
                                     who=CW.seat(s, x.dealt)), field="seat")
        alleg = _put(x.allegiances, seat, data["side"])
        SG.check_deal(alleg)
        s = self._set(s, allegiances=alleg, dealt=x.dealt + 1)
        return s._replace(phase=SETUP_S) if x.dealt + 1 == s.cfg.n else s

    # the turn -------------------------------------------------------------------------------
    def _begin_turn(self, s: State, seat: int) -> State:
        s = super()._begin_turn(s, seat)
        return self._set(s, donated=(False,) * s.cfg.n, used=())

    def _a_end_turn(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        due = SU.battle_due(SU.size(s.hands, n), t.battle_size)
        if s.cfg.paired and s.phase == MAIN:
            # each part of a paired turn is a player's turn: a due battle after Settler 1's part
            # (before_sbp; Settler 2's part follows it) and after Settler 2's, the end of the whole turn
            if due and (s.step or t.battle_before_sbp):
                return self._set(s._replace(phase=BATTLE), resume=RESUME_NEXT if s.step else RESUME_SETTLER_2)
            return self._paired_next(super()._a_end_turn(s, seat, data))
        if due and s.phase == MAIN and (not s.cfg.sbp or t.battle_before_sbp):
            return self._set(s._replace(phase=BATTLE), resume=RESUME_SBP if s.cfg.sbp else RESUME_NEXT)
        if due and s.phase == SBP and (s.step + 1) % n == s.turn and not t.battle_before_sbp:
            return self._set(s._replace(phase=BATTLE, step=0), resume=RESUME_NEXT)
        s = super()._a_end_turn(s, seat, data)
        if s.phase == SBP:
            s = self._set(s, donated=(False,) * n)  # each builder's own phase
        return s

    def _paired_next(self, s: State) -> State:
        """After Catan ended a part of a paired turn: Settler 2's part is his own
        trade and build phase (a donation of his own, his ships' draws counted
        afresh); a new turn was begun by ``_begin_turn``."""
        if s.phase == MAIN and s.step:
            return self._set(s, donated=(False,) * s.cfg.n, used=())
        return s

    # donations ---------------------------------------------------------------------------
    def _a_donate(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        n = s.cfg.n
        in_sbp = s.phase == SBP
        if s.phase not in (MAIN, SBP):
            raise RuleViolation(P + "donate", say("no donation now (now: {phase})", phase=self._phase_text(s)))
        if seat != (s.step if in_sbp else s.turn):
            raise RuleViolation(P + "donate", say("{who} is not to act now", who=s.names[seat]))
        count = data["count"]
        cards = None if data["cards"] is None else self._troje_cards(data["cards"], "data.cards")
        SU.check_donation(count, x.donated[seat], not in_sbp, in_sbp, x.tcfg.donations_in_sbp,
                          s.hands[seat][n + 1].size)
        s, o = self._origin(s, say("the donation by {who}", who=s.names[seat]))
        hands, tp = SU.donate(s.hands, x.trade_points, n, seat, cards, count, o)
        seen = x.donations
        if cards is not None:
            seen = _put(seen, seat, _add(seen[seat], cards))
        unseen = x.donated_unseen if cards is not None else _put(x.donated_unseen, seat, x.donated_unseen[seat] + count)
        return self._set(s._replace(hands=hands), trade_points=tp, donated=_put(x.donated, seat, True),
                         donations=seen, donated_unseen=unseen)

    # ships ----------------------------------------------------------------------------------
    def _a_build_ship(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        if s.phase == SBP and not t.ships_in_sbp:
            raise RuleViolation(P + "turn_options", say("no ships in the Special Building Phase (not with these options)"))
        if s.phase not in (MAIN, SBP):
            raise RuleViolation(P + "turn_options", say("no ship now (now: {phase})", phase=self._phase_text(s)))
        if seat != (s.step if s.phase == SBP else s.turn):
            raise RuleViolation(P + "turn_options", say("{who} is not to act now", who=s.names[seat]))
        sea = self.sea(s)
        tile = sea.index[tuple(data["tile"])]
        SH.check_payment(x.trade_points[seat])
        if not K.can_pay(s.hands[seat][n + 1], SHIP_COST):
            raise RuleViolation(P + "ship_cost", say("a ship costs one lumber and one wool; {who} cannot pay",
                                                    who=s.names[seat]))
        SH.check_site(sea, x.ships, s.buildings, seat, tile, t.city_counts)
        if not sum(x.tiles[seat]):
            raise RuleViolation(P + "ship_tiles", say("{who} has no ship tiles left", who=s.names[seat]))
        hands = self._pay(s, s.hands, seat, SHIP_COST)
        s = s._replace(hands=hands, bank=_add(s.bank, SHIP_COST), ret=s.phase, phase=SHIP_TILE)
        return self._set(s, trade_points=_put(x.trade_points, seat, x.trade_points[seat] - SH.SHIP_TRADE_POINTS),
                         ship=tile)

    def _builder(self, s: State) -> int:
        return s.step if s.ret == SBP else s.turn

    def _a_ship_tile(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        if s.phase != SHIP_TILE:  # else a tile entered while the dice are due skipped the roll
            raise RuleViolation(P + "ship_tile", say("no ship tile is due now (now: {phase}); one is turned up right "
                                                     "after a ship is built", phase=self._phase_text(s)))
        x = s.ext
        builder = self._builder(s)
        if seat != builder:
            raise MalformedEvent(say("enter the ship tile as {who}'s (seat {seat}), the builder", who=s.names[builder],
                                     seat=str(builder)), field="seat")
        adv = TB.ADVANTAGES.index(data["advantage"])
        stack = SH.turn_tile(x.tiles[builder], adv)
        s = self._set(s, tiles=_put(x.tiles, builder, stack), ships=SH.place(x.ships, x.ship, builder, adv))
        if adv == SH.CHIP and any(x.chip_supply):
            return s._replace(phase=CHIP)
        return self._to_sea_people(s)

    def _to_sea_people(self, s: State) -> State:
        """After a ship: the builder must move the sea people (``troje.ship_moves_sea_people``)."""
        return self._set(s._replace(phase=ROBBER), ship=-1)

    def _a_take_chip(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        if s.phase != CHIP or seat != self._builder(s):
            raise RuleViolation(P + "adv_chip", say("a trade chip is taken right after turning up a ship with the 2:1 "
                                                   "trade chip"))
        r = RES_ALIASES[data["resource"]]
        supply = SH.take_chip(x.chip_supply, r)
        s = self._set(s, chip_supply=supply, chips=_put(x.chips, seat, x.chips[seat] + (SH.Chip(r, x.ship),)))
        return self._to_sea_people(s)

    def _a_decline_chip(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != CHIP or seat != self._builder(s):
            raise RuleViolation(P + "adv_chip", say("the trade chips are left right after turning up a ship with the 2:1 "
                                                   "trade chip"))
        if not s.ext.tcfg.chip_optional:
            raise RuleViolation(P + "adv_chip", say("the builder takes a trade chip (with these options he may not "
                                                    "leave them)"))
        return self._to_sea_people(s)

    # the sea people ---------------------------------------------------------------------------
    def _a_move_sea_people(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        if s.phase != ROBBER:
            if s.phase == DISCARD:
                raise RuleViolation(P + "seven", say("the discards come before the sea people move"))
            raise RuleViolation(P + "sea_people_when", say("the sea people move on a 7 and after a ship is built"))
        if seat != self.mover(s):
            raise RuleViolation(P + "sea_people_when", say("{who} moves the sea people", who=s.names[self.mover(s)]))
        sea = self.sea(s)
        tile = sea.index[tuple(data["tile"])]
        SH.check_target(sea, x.sea_people, tile, t.sea_people_any_sea)
        sizes = tuple(s.hands[p][n + 1].size for p in range(n))
        possible = SH.victims(sea, tile, x.ships, s.buildings, seat, sizes, t.city_counts)
        victim = data.get("victim")
        SH.check_victim(possible, victim)  # with several, the mover chose one (troje.sea_people_choose)
        s = self._set(s, sea_people=tile)
        if victim is None:
            return s._replace(phase=s.ret)
        return s._replace(phase=STEAL, victim=victim)

    def _a_steal(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        if s.phase != STEAL:
            raise RuleViolation(P + "sea_people_steal", say("a card is drawn right after the sea people move"))
        if s.ret == SBP:  # the Special Building Phase's builder draws
            turn = s.turn
            return super()._a_steal(s._replace(turn=s.step), seat, data)._replace(turn=turn)
        return super()._a_steal(s, seat, data)

    # advantages on the support stack ------------------------------------------------------------
    def _a_use_advantage(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        n = s.cfg.n
        sea = self.sea(s)
        tile = sea.index[tuple(data["ship"])]
        ship = x.ships[tile]
        if ship is None or ship[0] != seat:
            raise RuleViolation(P + "ship_advantage", say("{who} has no ship on {tile}", who=s.names[seat],
                                                         tile=TW.sea_tile(tile)))
        kind = ship[1]
        if kind not in (SH.SWAP, SH.DRAW):
            raise RuleViolation(P + "ship_advantage", say("the advantage of a ship with {advantage} is permanent: "
                                                          "nothing to use", advantage=TW.advantage(TB.ADVANTAGES[kind])))
        own = s.phase == MAIN and seat == s.turn
        SH.check_stack_advantage(seat, tile, kind, x.ships, x.sea_people, frozenset(x.used), x.tcfg.draws_per_ship,
                                 own)
        if SU.size(s.hands, n) == 0:
            raise RuleViolation(P + ("adv_swap" if kind == SH.SWAP else "adv_draw"),
                                say("the support stack is empty: there is no card to draw"))
        return self._set(s._replace(phase=STACK_DRAW), used=x.used + (tile,), ship=tile)

    def _a_stack_card(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        if s.phase != STACK_DRAW:  # else a blind draw entered while the dice are due skipped the roll
            raise RuleViolation(P + "adv_draw", say("no card is to be drawn from the support stack now (now: {phase}); "
                                                    "one is drawn right after a swap or draw ship is used",
                                                    phase=self._phase_text(s)))
        x = s.ext
        n = s.cfg.n
        if seat != s.turn:
            raise MalformedEvent(say("enter the card as {who}'s (seat {seat}), who draws it", who=s.names[s.turn],
                                     seat=str(s.turn)), field="seat")
        card = data["card"]
        s, o = self._origin(s, say("the blind draw by {who} from the support stack", who=s.names[s.turn]))
        hands = SU.from_stack(s.hands, n, s.turn, None if card is None else RES_ALIASES[card], o)
        s = s._replace(hands=hands)
        if x.ships[x.ship][1] == SH.SWAP:
            return s._replace(phase=SWAP_BACK)
        return self._set(s._replace(phase=MAIN), ship=-1)

    def _a_return_card(self, s: State, seat: int, data: dict[str, Any]) -> State:
        if s.phase != SWAP_BACK:  # else a card could be laid on the stack at any time, no swap behind it
            raise RuleViolation(P + "adv_swap", say("no card is to be laid back now (now: {phase}); one is laid back "
                                                    "right after the card a swap ship draws", phase=self._phase_text(s)))
        n = s.cfg.n
        if seat != s.turn:
            raise RuleViolation(P + "adv_swap", say("{who} lays a card back", who=s.names[s.turn]))
        card = data["card"]
        cards = None if card is None else _one(RES_ALIASES[card])
        s, o = self._origin(s, say("the card {who} laid back on the support stack", who=s.names[seat]))
        hands = SU.to_stack(s.hands, n, seat, cards, 1, o)
        return self._set(s._replace(hands=hands, phase=MAIN), ship=-1)

    # the battle -------------------------------------------------------------------------------
    def _a_battle(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        if s.phase != BATTLE:  # else a battle entered while the dice are due skipped the roll
            raise RuleViolation(P + "battle_reveal", say("no battle is due now (now: {phase}); a battle follows a "
                                                         "full support stack at the end of a turn",
                                                         phase=self._phase_text(s)))
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        revealed = self._troje_cards(data["revealed"], "data.revealed")
        s, o = self._origin(s, say("the battle"))
        hands = SU.battle(s.hands, n, revealed, t.battle_reveal, o)
        won = SU.winner(revealed)
        saga = SG.advance(x.saga, won, t.saga_track)
        s = s._replace(hands=hands, bank=SU.bank_after_battle(s.bank, revealed, t.revealed_to_bank))
        s = self._set(s, saga=saga, battles=x.battles + ((revealed, won),), resume=0)
        war = SG.war_won(saga, t.saga_track)
        if war is not None:
            s = self._set(s, war=war)
            return self._end(s)
        if x.resume == RESUME_SBP:
            return self._set(s._replace(phase=SBP, step=(s.turn + 1) % n), donated=(False,) * n)
        if s.cfg.paired:  # on to Settler 2's part (RESUME_SETTLER_2), or after it to the next turn
            return self._paired_next(super()._a_end_turn(s._replace(phase=MAIN), s.turn, {}))
        return self._begin_turn(s._replace(step=0), (s.turn + 1) % n)

    # the end -------------------------------------------------------------------------------------
    def side_vp(self, s: State, seat: int, side: str | None = None) -> int:
        side = side or s.ext.allegiances[seat]
        return 0 if side is None else SG.side_vp(s.ext.saga, side, s.ext.tcfg.saga_track)

    def total_vp(self, s: State, seat: int, sides: tuple[str | None, ...] | None = None) -> int:
        """VP as far as the log knows (the saga's only with the side known)."""
        side = (sides or s.ext.allegiances)[seat]
        return self.public_vp(s, seat) + self.side_vp(s, seat, side)

    def _end(self, s: State) -> State:
        """The game ends (a 15-VP win, a claim or the war's end): decided now
        if the log knows every side, else at the reveal."""
        x = s.ext
        if all(a is not None for a in x.allegiances):
            return self._finish(s, x.allegiances)
        return s._replace(phase=REVEAL)

    def _finish(self, s: State, sides: tuple[str, ...]) -> State:
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        if x.war is not None:
            vps = tuple(self.total_vp(s, p, sides) for p in range(n))
            winners = SG.war_winners(vps, x.trade_points)
        elif x.claim >= 0:
            SG.check_claim(self.public_vp(s, x.claim), sides[x.claim], x.saga, t.goal, t.saga_track)
            winners = (x.claim,)
        else:
            winners = x.winners
        s = s._replace(phase=OVER, winner=winners[0])
        return self._set(s, winners=winners, allegiances=tuple(sides), revealed=True)

    def _a_claim_win(self, s: State, seat: int, data: dict[str, Any]) -> State:
        x = s.ext
        t = x.tcfg
        if seat != s.turn or s.phase not in OWN_TURN:
            raise RuleViolation(P + "win_15", say("a player wins with {n} victory points in his own turn", n=t.goal))
        if x.allegiances[seat] is not None:
            raise RuleViolation(P + "allegiance_knowledge", say("the log knows this player's side: the win counts by "
                                                                "itself"))
        if not SG.could_win(self.public_vp(s, seat), x.saga, t.goal, t.saga_track):
            raise RuleViolation(P + "win_15", say("{who} cannot have {goal} victory points with either side's points "
                                                 "of the saga track", who=s.names[seat], goal=t.goal))
        return self._set(s._replace(phase=REVEAL), claim=seat)

    def _a_reveal_allegiances(self, s: State, seat: int | None, data: dict[str, Any]) -> State:
        x = s.ext
        if s.phase != REVEAL:
            raise RuleViolation(P + "allegiance", say("the decision cards stay secret until the end"))
        sides = tuple(data["sides"])
        if any(a is None for a in sides):
            raise RuleViolation(P + "allegiance_knowledge", say("at the end every decision card is turned up: name "
                                                                "every side"))
        for p, (known, shown) in enumerate(zip(x.allegiances, sides)):
            if known is not None and known != shown:
                raise RuleViolation(P + "allegiance", say("{who}'s decision card was entered as {known}, not {shown}",
                                                          who=s.names[p], known=TW.side(known), shown=TW.side(shown)))
        SG.check_deal(sides)  # all named: so the sides are equal
        return self._finish(s, sides)

    def _check_win(self, s: State) -> State:
        if s.winner >= 0 or s.phase not in OWN_TURN or s.ret == SBP and s.phase in (ROBBER, STEAL, SHIP_TILE, CHIP):
            return s
        seat = s.turn
        if self.total_vp(s, seat) >= s.ext.tcfg.goal:
            return self._end(self._set(s, winners=(seat,)))
        return s

    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts: int = 2000) -> dict[str, Any]:
        """Estimated: games played on by this game's own bots (``engine.evaluation.estimate_log``); luck as
        Catan's (``Catan.luck``: production minus its expectation, the robber's toll)."""
        from ..evaluation import estimate_log
        from ..simulation import simulator_of

        return estimate_log(self, events, simulator_of(self), playouts, deadline, luck=self.luck)

    def result(self, s: State) -> Result | None:
        if s.phase != OVER:
            return None
        x = s.ext
        n = s.cfg.n
        scores = tuple(self.total_vp(s, p) for p in range(n))
        from ..text import say, say_n
        from .describe import SIDE
        from ..catan.describe import both
        if x.war is not None:
            lead = x.winners[0]
            why = say_n(len(x.winners), "the war is over: {side} won it; {names} had the most VP ({vp})",
                        "the war is over: {side} won it; {names} had the most VP ({vp})", side=SIDE[x.war],
                        names=both([s.names[w] for w in x.winners]), vp=scores[lead])
            if sum(1 for v in scores if v == scores[lead]) > 1:
                why = say("{text}, tied and ahead on trade points ({points})", text=why, points=x.trade_points[lead])
        else:
            w = x.winners[0]
            why = say("{who} reached {vp} VP in their own turn {turn}", who=s.names[w], vp=scores[w], turn=s.turn_no)
        return Result("win", x.winners, scores, why)

    # -- VP, trading ---------------------------------------------------------------------------
    def public_vp(self, s: State, seat: int) -> int:
        b, c, _ = s.built[seat]
        x = s.ext
        return (b + 2 * c + 2 * (s.longest == seat)
                + SH.ship_vp(seat, x.ships, x.sea_people, x.tcfg.blocked_keeps_vp))

    def hidden_vp(self, s: State, seat: int) -> int:
        return self.side_vp(s, seat)

    def ratios(self, s: State, seat: int) -> tuple[int, ...]:
        x = s.ext
        ships = SH.ratios(seat, x.ships, x.chips[seat], x.sea_people, x.tcfg.blocked_blocks_chip)
        return tuple(min(a, b) for a, b in zip(super().ratios(s, seat), ships))

    def _a_refused(self, s: State, seat: int, data: dict[str, Any]) -> State:
        raise RuleViolation(P + "no_development_cards", say("Troje has no development cards"))

    def _a_no_robber(self, s: State, seat: int, data: dict[str, Any]) -> State:
        raise RuleViolation(P + "seven", say("Troje has no robber on land: the sea people move instead"))

    # -- legal moves ----------------------------------------------------------------------------
    def legal_moves(self, s: State, seat: int | None) -> list[Move]:
        ph = s.phase
        if ph in (DEAL, SHIP_TILE, STACK_DRAW, BATTLE, REVEAL, STEAL, DICE, OVER):
            return []
        if seat is None or seat not in self.actors(s):
            return []
        x = s.ext
        n = s.cfg.n
        if ph == ROBBER:
            return self._sea_people_moves(s, seat)
        if ph == CHIP:
            return [_move("take_chip", seat, {"resource": RES[r]}) for r in range(5) if x.chip_supply[r]] + (
                [_move("decline_chip", seat, {})] if x.tcfg.chip_optional else [])
        if ph == SWAP_BACK:
            hand = s.hands[seat][n + 1]
            return [_move("return_card", seat, {"card": RES[r]}) for r in range(5) if hand.known[r]] or [
                _move("return_card", seat, {"card": None})]
        out = super().legal_moves(s, seat)
        if ph not in (MAIN, SBP):
            if ph == PRE_ROLL and self._may_claim(s, seat):
                out.append(_move("claim_win", seat, {}))
            return out
        t = x.tcfg
        hand = s.hands[seat][n + 1]
        in_sbp = ph == SBP
        if (not in_sbp or t.donations_in_sbp) and not x.donated[seat] and hand.size:
            out += self._donations(seat, hand)
        if (not in_sbp or t.ships_in_sbp) and x.trade_points[seat] >= SH.SHIP_TRADE_POINTS \
                and K.can_pay(hand, SHIP_COST) and sum(x.tiles[seat]):
            sea = self.sea(s)
            out += [_move("build_ship", seat, {"tile": list(sea.tiles[i])})
                    for i in SH.sites(sea, x.ships, s.buildings, seat, t.city_counts)]
        if not in_sbp and SU.size(s.hands, n):
            sea = self.sea(s)
            for tile, ship in enumerate(x.ships):
                if ship is not None and ship[0] == seat and ship[1] in (SH.SWAP, SH.DRAW):
                    try:
                        SH.check_stack_advantage(seat, tile, ship[1], x.ships, x.sea_people, frozenset(x.used),
                                                 t.draws_per_ship)
                    except RuleViolation:
                        continue
                    out.append(_move("use_advantage", seat, {"ship": list(sea.tiles[tile])}))
        if not in_sbp and self._may_claim(s, seat):
            out.append(_move("claim_win", seat, {}))
        return out

    def _may_claim(self, s: State, seat: int) -> bool:
        x = s.ext
        t = x.tcfg
        return (x.allegiances[seat] is None and seat == s.turn
                and SG.could_win(self.public_vp(s, seat), x.saga, t.goal, t.saga_track))

    @staticmethod
    def _donations(seat: int, hand: K.Hand) -> list[Move]:
        """Every donation of 1–3 of the known cards (as counts; a hand with unseen cards: by count only)."""
        if hand.unseen:
            return [_move("donate", seat, {"cards": None, "count": k}) for k in range(1, min(3, hand.size) + 1)]
        out = []
        for k in range(1, min(3, hand.size) + 1):
            for combo in combinations_with_replacement(range(5), k):
                c = [0, 0, 0, 0, 0]
                for r in combo:
                    c[r] += 1
                if all(c[r] <= hand.known[r] for r in range(5)):
                    out.append(_move("donate", seat, {"cards": {RES[r]: c[r] for r in range(5) if c[r]},
                                                      "count": k}))
        return out

    def _sea_people_moves(self, s: State, seat: int) -> list[Move]:
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        sea = self.sea(s)
        sizes = tuple(s.hands[p][n + 1].size for p in range(n))
        out = []
        for tile in SH.targets(sea, x.sea_people, t.sea_people_any_sea):
            at = list(sea.tiles[tile])
            victims = SH.victims(sea, tile, x.ships, s.buildings, seat, sizes, t.city_counts)
            for v in victims:
                out.append(_move("move_sea_people", seat, {"tile": at, "victim": v}))
            if len(victims) <= 1:  # with one there the mover may skip the draw; with several he must choose
                out.append(_move("move_sea_people", seat, {"tile": at, "victim": None}))
        return out

    # -- chance ---------------------------------------------------------------------------------------
    def chance_outcome(self, s: State, rng: random.Random) -> Move | None:
        x = s.ext
        n = s.cfg.n
        ph = s.phase
        if ph == DEAL:
            left = [side for side in SG.SIDES if sum(1 for a in x.allegiances if a == side) < n // 2]
            return _move("decision_card", x.dealt, {"side": rng.choice(left)})
        if ph == SHIP_TILE:
            builder = self._builder(s)
            return _move("ship_tile", builder, {"advantage": TB.ADVANTAGES[SH.draw_tile(rng, x.tiles[builder])]})
        if ph == STACK_DRAW:
            stack = s.hands[n][n + 1]
            card = RES[SU.draw_blind(rng, stack.known)] if stack.exact else None
            return _move("stack_card", s.turn, {"card": card})
        if ph == BATTLE:
            stack = s.hands[n][n + 1]
            if not stack.exact:
                return None
            revealed = SU.draw_reveal(rng, stack.known, x.tcfg.battle_reveal)
            return _move("battle", None, {"revealed": self._cards_dict(revealed)})
        if ph == REVEAL:
            # a simulated deal the log never recorded: one the known cards and a claim allow, drawn now
            deals = [d for d in SG.possible(x.allegiances)
                     if x.claim < 0 or self.total_vp(s, x.claim, d) >= x.tcfg.goal]
            return _move("reveal_allegiances", None, {"sides": list(rng.choice(deals))}) if deals else None
        if ph == STEAL:
            hand = s.hands[s.victim][n + 1]
            cards = [r for r in range(5) for _ in range(hand.known[r])]
            card = RES[rng.choice(cards)] if cards and hand.exact else None
            return _move("steal", self.mover(s), {"card": card, "from": s.victim})
        return super().chance_outcome(s, rng)

    # -- views -------------------------------------------------------------------------------------------
    def view(self, s: State, seat: int | str | None) -> dict[str, Any]:
        out = super().view(s, seat)
        v = self._viewer(s, seat)
        x = s.ext
        t = x.tcfg
        n = s.cfg.n
        sea = self.sea(s)
        for key in ("robber", "development_deck", "largest_army"):
            out.pop(key, None)
        if s.phase in (DEAL, REVEAL):
            out.pop("paired_turn", None)  # before the set-up, and the table's reveal at the end
        known = SG.known_to(x.allegiances, v, x.revealed)
        saga_vp = SG.saga_vp_view(x.allegiances, v, x.revealed, x.saga, t.saga_track)
        for p, entry in enumerate(out["players"]):
            for key in ("development_cards", "development_known", "bought_this_turn", "knights_played",
                        "victory_points_shown"):
                entry.pop(key, None)
            entry["trade_points"] = x.trade_points[p]
            entry["side"] = known[p]
            entry["saga_vp"] = saga_vp[p]
            entry["ship_vp"] = SH.ship_vp(p, x.ships, x.sea_people, t.blocked_keeps_vp)
            entry["ship_tiles_left"] = {TB.ADVANTAGES[a]: k for a, k in enumerate(x.tiles[p]) if k}
            entry["trade_chips"] = [{"resource": RES[c.resource], "ship": list(sea.tiles[c.ship])}
                                    for c in x.chips[p]]
            entry["trade_ratios"] = {RES[r]: k for r, k in enumerate(self.ratios(s, p))}
            if "vp" in entry:
                entry["vp"] = self.public_vp(s, p) + (saga_vp[p] or 0)
            if x.revealed:
                entry["vp"] = self.total_vp(s, p)
        stack = s.hands[n][v]
        tiles = t.ship_tiles
        out["troje"] = {
            "support_stack": {"cards": stack.size, "as_known": K.describe(stack),
                              "battle_at": t.battle_size, "turned_up_in_battle": t.battle_reveal},
            "saga": {"troy": x.saga.troy, "mycenae": x.saga.mycenae, "track": list(t.saga_track),
                     "vp": {side: SG.side_vp(x.saga, side, t.saga_track) for side in SG.SIDES}},
            "battles": [{"revealed": self._cards_dict(r), "won_by": w,
                         "troy_points": SU.score(r)[0], "mycenae_points": SU.score(r)[1]} for r, w in x.battles],
            "sea_people": list(sea.tiles[x.sea_people]) if x.sea_people >= 0 else None,
            "cities": {city: list(at) for city, at in TB.city_hexes(t.board).items()},
            "sea_tiles": [{"at": list(c), "ship_symbol": sea.ship_symbol[i],
                           **({"ship": {"owner": x.ships[i][0], "advantage": TB.ADVANTAGES[x.ships[i][1]],
                                        "blocked": SH.blocked(i, x.sea_people)}} if x.ships[i] else {})}
                          for i, c in enumerate(sea.tiles)],
            "trade_chips_left": {RES[r]: k for r, k in enumerate(x.chip_supply) if k},
            "ship_tiles": {"hash": t.ship_tiles_hash, "name": tiles["name"], "provenance": tiles["provenance"],
                           **({"placeholder": True, "label": "PLACEHOLDER distribution (not the printed tiles)"}
                              if tiles["provenance"] == "placeholder" else {})},
            "allegiances_revealed": x.revealed,
        }
        due = self._outcome_due(s)
        if due is not None:
            out["troje"]["due"] = due
        if x.war is not None:
            out["troje"]["war_won_by"] = x.war
        if x.claim >= 0:
            out["troje"]["claim"] = x.claim
        if s.phase == OVER:
            out["winners"] = list(x.winners)
        return out

    def _outcome_due(self, s: State) -> dict[str, Any] | None:
        """The outcome the table enters next and for whom (the page's picker
        needs the seat: the builder of a ship in the Special Building Phase,
        the next decision card's seat); public, as the table sees who draws."""
        x = s.ext
        event = PHASE_EVENT.get(s.phase) or ("steal" if s.phase == STEAL else None)
        if event is None:
            return None
        seat = {"decision_card": x.dealt, "ship_tile": self._builder(s), "stack_card": s.turn,
                "steal": self.mover(s)}.get(event)
        return {"event": event, "seat": seat, **({"from": s.victim} if s.phase == STEAL else {})}

    def event_view(self, s: State, event: dict[str, Any], viewer: int | str | None) -> dict[str, Any]:
        type_ = event["type"]
        data = event["data"]
        if type_ == "decision_card":
            if s.ext.revealed or viewer == event["seat"] or data.get("side") is None:
                return event
            return {**event, "data": {"side": None}, "redacted": True}
        if type_ in ("donate", "stack_card", "return_card"):
            if viewer is not None and viewer == event["seat"]:
                return event
            # redacted for everyone else even when the recorder did not see the cards: the
            # donation's notes sum up what the donor gave so far
            if type_ == "donate":
                return {**event, "data": {"cards": None, "count": data["count"]}, "redacted": True}
            return {**event, "data": {"card": None}, "redacted": True}
        return super().event_view(s, event, viewer)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Any:
        from .describe import describe
        return describe(self, before, type, seat, data, after)

    def describe_setup(self, state: State) -> Any:
        from .describe import setup
        return setup(state)

    def field_names(self, state: State) -> dict[tuple[int, int], Any]:
        """Troy and Mycenae, the board's two cities, by their names (Troje, Mykene in Dutch)."""
        from .describe import SIDE
        return {at: SIDE[city] for city, at in TB.city_hexes(state.ext.tcfg.board).items()}

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        from .describe import annotate
        return annotate(self, before, type, seat, data, after)

    # -- snapshots -----------------------------------------------------------------------------------------
    def encode_state(self, s: State) -> dict[str, Any]:
        out = super().encode_state(s._replace(ext=None))
        x = s.ext
        ext = {}
        for name, value in zip(Ext._fields, x):
            if name == "tcfg":
                value = {k: (_jsonable(v) if k not in ("board", "ship_tiles") else v)
                         for k, v in value._asdict().items()}
            ext[name] = value if name == "tcfg" else _jsonable(value)
        out["ext"] = ext
        return out

    def decode_state(self, obj: dict[str, Any]) -> State:
        s = super().decode_state({**obj, "ext": None})
        e = obj["ext"]
        vals = {}
        for name in Ext._fields:
            value = e[name]
            if name == "tcfg":
                value = O.Config(**{k: (_tuplify(v) if k not in ("board", "ship_tiles") else v)
                                    for k, v in value.items()})
            elif name == "saga":
                value = SG.Saga(*value)
            elif name == "chips":
                value = tuple(tuple(SH.Chip(*c) for c in row) for row in value)
            else:
                value = _tuplify(value)
            vals[name] = value
        return s._replace(ext=Ext(**vals))

    def info(self) -> dict[str, Any]:
        info = Catan.__base__.info(self)
        info["data_kinds"] = {
            "boards": kind_info(self, "boards", say("the shipped PLACEHOLDER layout")),
            "ship-tiles": kind_info(self, "ship-tiles", say("the shipped PLACEHOLDER distribution")),
        }
        return info


_APPLY = {
    "build_settlement": Catan._a_build_settlement,
    "build_road": Catan._a_build_road,
    "build_city": Catan._a_build_city,
    "roll": Catan._a_roll,
    "dice": Catan._a_dice,
    "discard": Catan._a_discard,
    "steal": Troje._a_steal,
    "trade": Catan._a_trade,
    "trade_bank": Catan._a_trade_bank,
    "end_turn": Troje._a_end_turn,
    "decision_card": Troje._a_decision_card,
    "donate": Troje._a_donate,
    "build_ship": Troje._a_build_ship,
    "ship_tile": Troje._a_ship_tile,
    "take_chip": Troje._a_take_chip,
    "decline_chip": Troje._a_decline_chip,
    "move_sea_people": Troje._a_move_sea_people,
    "use_advantage": Troje._a_use_advantage,
    "stack_card": Troje._a_stack_card,
    "return_card": Troje._a_return_card,
    "battle": Troje._a_battle,
    "claim_win": Troje._a_claim_win,
    "reveal_allegiances": Troje._a_reveal_allegiances,
    "buy_dev": Troje._a_refused,
    "move_robber": Troje._a_no_robber,
}

__all__ = ["Troje", "Ext", "TROJE_PHASES", "DEAL", "SHIP_TILE", "CHIP", "STACK_DRAW", "SWAP_BACK", "BATTLE", "REVEAL"]
