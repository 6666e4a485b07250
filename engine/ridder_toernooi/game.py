"""Ridder-toernooi ("Ritter ohne Furcht und Tadel", H. Witt 1997): 2–10 players
send knights and ladies to a tournament of four days; knights duel with dice,
mounted and then on foot, for premiums that their ladies share.

Every die is a chance event: at a physical table the recorder enters each
die's face (``roll``), in a simulated match the server draws them from the
seeded RNG; the deal and the start player's roll are chance events too. All
cards lie open, so every view shows everything. The card values come from a
card set (see ``cards``) recorded in the setup. docs/games/ridder-toernooi.md
lists the events and the readings chosen for the open points.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement
from typing import Any

from ..game_data import DataKind, check_embedded, kind_info
from ..core import CHANCE, EventType, Game, InvalidOptions, MalformedEvent, Move, Result, RuleViolation, titled
from ..core import worded
from ..text import N_, Text, Words, localized, say, say_n
from . import cards as C
from . import invariants as INV
from .analysis import analyse_log as analyse, annotate as annotate_event
from .describe import card_set_label, describe as describe_event
from .rules import RULES
from . import scene as _scene
from .state import (
    CHALLENGE,
    DAY_WINNER,
    DEAL,
    DUEL_PICK,
    ELIMINATED,
    FIT,
    FOOT,
    IDLE,
    KERCHIEF,
    MOUNTED,
    OUT,
    OVER,
    PARTICIPATE,
    PREFER,
    ROLL,
    START,
    TRAIN,
    YIELD,
    Config,
    Duel,
    Knight,
    Lady,
    State,
    decode,
    encode,
    hits,
)

P = "ridder_toernooi."
ELIMINATED_AT = 10
HEAL = 3
FINAL_BONUS = 4
MAX_DICE_ROLLED = 60


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


CARD_REF = {"type": "string", "minLength": 1, "maxLength": 200,
            "description": N_('a card id ("K01", "L02") or its name ("Apollonius")')}
FACE_OR_NULL = {"type": ["integer", "null"], "minimum": 1, "maximum": 6}

OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "days": {"type": "integer", "minimum": 2, "maximum": 20, "default": 4,
                 "description": N_("Tournament days: 4 as printed, 2–3 if agreed beforehand, more with the expansion, the day bonus rising with the day.")},
        "card_set": {"type": "string", "pattern": "^[0-9a-f]{64}$", "default": C.placeholder_hash(),
                     "description": N_("The knights' and ladies' cards played with, one of the card sets stored for this game (the API names it by its "
                     "SHA-256, listed at GET /api/games/ridder_toernooi/card-sets). If none is chosen: the shipped PLACEHOLDER set.")},
        "cards": {"type": "object", "description": N_("The card set itself, embedded so the log alone replays; filled in by the server from card_set.")},
        "ladies": {"type": "boolean", "default": True, "description": N_("Off: play without ladies (an expansion; no kerchiefs).")},
        "wound_penalty": {"type": "boolean", "default": False, "description": N_("An expansion: wounded knights get fewer dice at the start of a day.")},
        "e2_penalty_7_9": {"type": "integer", "enum": [2, 3], "default": 3,
                           "description": N_("Dice lost with 7–9 wounds under the option “Wounded knights roll fewer dice” (3 as printed; 2 if read as a typo).")},
        "training_optional": {"type": "boolean", "default": True,
                              "description": N_("On: training points may be left unspent; off: they must be spent where possible.")},
        "dice_min": {"type": "integer", "minimum": 1, "maximum": 5, "default": 1,
                     "description": N_("The fewest dice a knight rolls (matters with the option “Wounded knights roll fewer dice”); also the card set's track minimum.")},
        "participation_order": {"type": "string", "enum": ["seat_order"], "default": "seat_order",
                                "description": N_("Participation is announced in seat order from the start player, publicly.")},
        "kerchief_turns": {"type": "string", "enum": ["one_per_turn_must_place"], "default": "one_per_turn_must_place",
                           "description": N_("One kerchief per player-turn; a player with a placeable lady must place one, else he is skipped.")},
        "kerchief_reoffer": {"type": "string", "enum": ["never_to_rejecter"], "default": "never_to_rejecter",
                             "description": N_("A lady never re-offers to a knight who rejected her that day (deferred acceptance, always ends).")},
        "kerchief_tie_break": {"type": "string", "enum": ["lexicographic", "best_match", "rank_sum"], "default": "lexicographic",
                               "description": N_("On equal match counts compare the sorted ranks of the matches lexicographically, only the best match, or the sum of ranks.")},
        "challenge_required": {"type": "boolean", "default": True,
                               "description": N_("On: a player with a fit knight must challenge; off: he may pass (the day ends when all pass in turn).")},
        "woedend": {"type": "string", "enum": ["every", "first_only", "cumulative"], "default": "every",
                    "description": N_("After a round without hits both reroll with +1 die every time, only the first time, or +1 more each time.")},
        "woedend_die": {"type": "string", "enum": ["required", "optional"], "default": "required",
                        "description": N_("'Ze mogen echter allebei een slagdobbelsteen extra gebruiken' (they may both use one extra attack "
                        "die): “required” (default): a woedend roll has the extra die; “optional”: each knight may leave it out, and the "
                        "number of faces entered says whether he used it (his own dice up to his own plus the woedend dice).")},
        "give_up_after_mounted": {"type": "boolean", "default": True,
                                  "description": N_("On: a knight may give up after the mounted round in which both fell; off: only after foot rounds. The attacker declares first.")},
        "both_eliminated": {"type": "string", "enum": ["no_winner", "attacker_first"], "default": "no_winner",
                            "description": N_("'Eerst gooit de aanvaller' (the attacker rolls first): “no winner” (default): both rolls of a "
                            "round count, both at 10+ wounds are both out and nobody wins (exactly one: the other wins); "
                            "“attacker first”: the attacker's hits count first, a defender they put at 10+ wounds is out "
                            "before he strikes back (he does not roll) and the attacker wins.")},
        "day_winner_metric": {"type": "string", "enum": ["day", "total", "survivors"], "default": "day",
                              "description": N_("Premiums won this day among the day's knights (needs ≥ 1), total premiums of the day's knights, or this day's among the knights still fit.")},
        "lady_bonus_after_loss": {"type": "boolean", "default": True,
                                  "description": N_("'De minne kan deze dag geen premies meer verzamelen' (the lady can collect no more premiums that "
                                  "day): on (default): the day winner's lady gets the day bonus even if he lost a duel later that "
                                  "day; off: a day winner who lost that day brings his lady no bonus.")},
        "rejected_lady_next": {"type": "boolean", "default": False,
                               "description": N_("'Podica moet haar doek aan een andere ridder aanbieden, als de speler weer aan "
                               "de beurt is' (Podica must offer her kerchief to another knight when her player is at turn "
                               "again): on: a player whose lady was rejected or displaced must offer her again on "
                               "his next kerchief turn, before any other lady (while a knight is left for her); off "
                               "(default): he may offer any of his free ladies first.")},
        "final_bonus_ties": {"type": "string", "enum": ["all", "none"], "default": "all",
                             "description": N_("Tied for most premiums at the end: every tied card gets +4 (“all”) or none does (“none”).")},
        "eliminated_return": {"type": "boolean", "enum": [False], "default": False,
                              "description": N_("Eliminated knights do not heal or return.")},
        "start_rotation": {"type": "string", "enum": ["clockwise"], "default": "clockwise",
                           "description": N_("The start player moves one seat clockwise every day.")},
        "deciding_duel": {"type": "boolean", "default": True,
                          "description": N_("On: tied winners fight deciding duels (knights still in, wounds carry over, earlier seat from the last start player attacks, 3+ tied: winner stays on); off: a shared win.")},
        "dice_supply": {"type": "string", "enum": ["unlimited"], "default": "unlimited",
                        "description": N_("The 24 physical dice are not a limit.")},
        "give_up_advice": {"type": "string", "enum": ["advice_only"], "default": "advice_only",
                           "description": N_("'Men moet dan opgeven' (one must give up then) is advice, not a rule.")},
        "bare_knight": {"type": "string", "enum": ["fights_without_lady"], "default": "fights_without_lady",
                        "description": N_("A knight without a kerchief still fights; no lady premium.")},
    },
    "additionalProperties": False,
}

ALIASES = {
    "delen": "deal", "uitdelen": "deal", "trainen": "train", "training": "train", "startworp": "start_roll",
    "startspeler": "start_roll", "meedoen": "participate", "deelnemen": "participate", "aantreden": "participate",
    "doek": "kerchief", "doekje": "kerchief", "doekfiche": "kerchief", "voorkeur": "prefer", "kiezen": "prefer",
    "uitdagen": "challenge", "uitdaging": "challenge", "passen": "pass", "worp": "roll", "dobbelen": "roll",
    "gooien": "roll", "opgeven": "give_up", "doorvechten": "fight_on", "dagwinnaar": "day_winner",
    "beslissingsduel": "duel_knight", "woedend": "woedend (reroll with +1 die; phase roll)", "te paard": "mounted",
    "te voet": "foot", "tweekamp": "duel", "premie": "premium", "verwonding": "wound", "minne": "lady",
    "ridder": "knight", "trefveld": "cover (covered field)", "slagdobbelsteen": "attack die",
    "strijdvaardig": "fit", "uitgeschakeld": "out_of_tournament", "toernooidag": "day", "nacht": "night",
}


def can_hit(dice: int, cover: tuple[int, ...], lo: int) -> bool:
    return any(dice > cover[f - 1] for f in (lo, lo + 1, lo + 2))


def matches(prefs: tuple[tuple[str, str], ...], attrs: tuple[tuple[str, str], ...]) -> list[int]:
    """The ranks (0 = best) of a knight's preferences that a lady's attributes meet, best first."""
    have = set(attrs)
    return [r for r, p in enumerate(prefs) if p in have]


def contest(prefs, incumbent, newcomer, mode: str) -> int:
    """>0: the newcomer displaces the incumbent; <0: she is rejected; 0: identical (the knight chooses)."""
    a, b = matches(prefs, incumbent), matches(prefs, newcomer)
    if len(a) != len(b):
        return 1 if len(b) > len(a) else -1
    if mode == "lexicographic":
        key_a, key_b = a, b
    elif mode == "best_match":
        key_a, key_b = a[:1], b[:1]
    else:
        key_a, key_b = sum(a), sum(b)
    if key_a == key_b:
        return 0
    return 1 if key_b < key_a else -1


def _put(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


def _penalty(cfg: Config, wounds: int) -> int:
    if not cfg.wound_penalty:
        return 0
    if 4 <= wounds <= 6:
        return 1
    if 7 <= wounds <= 9:
        return cfg.penalty_7_9
    return 0


def training_points(wounds: int) -> int:
    return 2 if wounds == 0 else 1 if wounds <= 3 else 0


class RidderToernooi(Game):
    id = "ridder_toernooi"
    name = "Ridder-toernooi (Ritter ohne Furcht und Tadel)"
    version = "1"
    min_players = 2
    max_players = 10
    summary = N_("Knights duel with dice over 2–4 tournament days, mounted then on foot, for premiums shared with the "
                 "ladies whose kerchiefs they carry; card values from a card set (shipped: a PLACEHOLDER set).")
    says = True
    rules = RULES
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset({"train", "participate", "kerchief", "prefer", "challenge", "pass", "fight_on",
                                "give_up", "day_winner", "duel_knight"})

    def invariants(self, s: State) -> list[tuple[str, str]]:
        return INV.check(self, s)

    aliases = ALIASES
    #: Every card lies open and every die is rolled in view: seat views are the public view.
    hidden_information = False
    options_schema = titled(
        OPTIONS_SCHEMA, days=N_("Tournament days"), card_set=N_("Card set"), cards=N_("Card set document"), ladies=N_("Play with ladies"),
        wound_penalty=N_("Wounded knights roll fewer dice"), e2_penalty_7_9=N_("Dice lost with 7–9 wounds"),
        training_optional=N_("Training points may be left unspent"), dice_min=N_("Fewest dice a knight rolls"),
        participation_order=N_("Order of announcing participation"), kerchief_turns=N_("Kerchief turns"),
        kerchief_reoffer=N_("A rejected lady's next offer"), kerchief_tie_break=N_("Tie-break between kerchief offers"),
        challenge_required=N_("A fit knight must challenge"), woedend=N_("Rerolls after a round without hits (woedend)"),
        woedend_die=N_("The extra woedend die"), give_up_after_mounted=N_("Giving up after the mounted round"),
        both_eliminated=N_("Both knights reach 10 wounds"), day_winner_metric=N_("Who wins the day"),
        lady_bonus_after_loss=N_("Day bonus for the lady after a lost duel"), rejected_lady_next=N_("A rejected lady is offered again first"),
        final_bonus_ties=N_("Final bonus when tied"), eliminated_return=N_("Eliminated knights return"),
        start_rotation=N_("Start player each day"), deciding_duel=N_("Deciding duels between tied winners"),
        dice_supply=N_("Dice supply"), give_up_advice=N_("Giving up when hopeless"), bare_knight=N_("A knight without a kerchief"))
    options_schema = worded(
        options_schema,
        participation_order={"seat_order": N_("in seat order")},
        kerchief_turns={"one_per_turn_must_place": N_("one per turn, must place")},
        kerchief_reoffer={"never_to_rejecter": N_("never to the knight who rejected her")},
        kerchief_tie_break={"lexicographic": N_("rank by rank"), "best_match": N_("best match"), "rank_sum": N_("sum of ranks")},
        woedend={"every": N_("every time"), "first_only": N_("the first time only"), "cumulative": N_("rising")},
        woedend_die={"required": N_("must be used"), "optional": N_("may be used")},
        both_eliminated={"no_winner": N_("no winner"), "attacker_first": N_("the attacker first")},
        day_winner_metric={"day": N_("this day's premiums"), "total": N_("all premiums"), "survivors": N_("knights still fit")},
        final_bonus_ties={"all": N_("all"), "none": N_("none")},
        start_rotation={"clockwise": N_("clockwise")},
        dice_supply={"unlimited": N_("unlimited")},
        give_up_advice={"advice_only": N_("advice only")},
        bare_knight={"fights_without_lady": N_("fights without a lady")})
    data_kinds = {
        "card-sets": DataKind(
            name="card-sets",
            description=N_("Knight and lady cards (format kroniek.ridder-toernooi.cardset/1); a match names one by its "
                           "SHA-256 in options.card_set"),
            validate=C.validate_card_set,
            summary=C.summary,
            builtin=C.builtin_sets,
            option="card_set",
            embed="cards",
            max_bytes=200_000,
            title=N_("card set"),
        )
    }

    event_types = {
        "deal": EventType("deal", CHANCE, _obj({
            "knights": {"type": "array", "maxItems": 10, "items": {"type": "array", "maxItems": 2, "items": CARD_REF}},
            "ladies": {"type": "array", "maxItems": 10, "items": {"type": "array", "maxItems": 2, "items": CARD_REF}},
            "cards": {"type": "array", "maxItems": 40, "items": CARD_REF,
                      "description": N_("instead of knights and ladies: the cards as the table deals them, one list; the "
                      "knights among them go to the seats in order (as many to each), and so do the ladies")},
        }, []), N_("The knights (and ladies) dealt to each player, one list per player in seat order (or the "
            "cards in dealing order, one list; stored as knights and ladies).")),
        "train": EventType("train", "seat", _obj({
            "knight": CARD_REF,
            "dice": {"type": "integer", "minimum": 0, "maximum": 2},
            "cover": {"type": "array", "maxItems": 2, "items": {"type": "integer", "minimum": 1, "maximum": 6}},
        }, ["knight"]), N_("Spend a knight's training points: extra dice and/or extra covered fields (faces 1–6).")),
        "start_roll": EventType("start_roll", CHANCE, _obj({
            "faces": {"type": "array", "minItems": 2, "maxItems": 10, "items": FACE_OR_NULL},
        }, ["faces"]), N_("Each rolling player's die for the start player, in seat order (none for a player not rolling again).")),
        "participate": EventType("participate", "seat", _obj({
            "knights": {"type": "array", "maxItems": 2, "items": CARD_REF},
        }, ["knights"]), N_("The knights this seat sends to the day (possibly none).")),
        "kerchief": EventType("kerchief", "seat", _obj({"lady": CARD_REF, "knight": CARD_REF}, ["lady", "knight"]),
                              N_("Lay a lady's kerchief on a participating knight.")),
        "prefer": EventType("prefer", "seat", _obj({"lady": CARD_REF}, ["lady"]),
                            N_("Identical matches: the knight's player keeps one of the two ladies.")),
        "challenge": EventType("challenge", "seat", _obj({"knight": CARD_REF, "target": CARD_REF}, ["knight", "target"]),
                               N_("Challenge a fit knight of another player with a fit knight of one's own.")),
        "pass": EventType("pass", "seat", _obj({}, []), N_("Do not challenge now (only with the option “A fit knight must challenge” off).")),
        "roll": EventType("roll", CHANCE, _obj({
            "faces": {"type": "array", "minItems": 1, "maxItems": MAX_DICE_ROLLED, "items": {"type": "integer", "minimum": 1, "maximum": 6}},
            "knight": CARD_REF,
        }, ["faces"]), N_("The faces of the dice one knight rolls (the attacker first, then the defender).")),
        "give_up": EventType("give_up", "seat", _obj({}, []), N_("The knight on foot gives up (opgeven) and loses.")),
        "fight_on": EventType("fight_on", "seat", _obj({}, []), N_("The knight on foot fights on (doorvechten).")),
        "day_winner": EventType("day_winner", "seat", _obj({"knight": CARD_REF}, ["knight"]),
                                N_("A tie between knights of one player: he names the day winner.")),
        "duel_knight": EventType("duel_knight", "seat", _obj({"knight": CARD_REF}, ["knight"]),
                                 N_("A tied player chooses his knight for the deciding duel.")),
    }

    # -- set-up -----------------------------------------------------------------------
    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        filled = dict(options)
        for name, prop in OPTIONS_SCHEMA["properties"].items():
            if name not in filled and "default" in prop:
                filled[name] = prop["default"]
        return filled

    def resolve_cards(self, options: dict[str, Any]) -> tuple[dict[str, Any], C.Cards]:
        """The card set of a match's options: the embedded ``cards`` (which must
        hash to ``card_set`` when both are given), else a shipped set by hash."""
        digest = options.get("card_set")
        doc = options.get("cards")
        if doc is not None:
            canon, _ = check_embedded(doc, digest, validate=C.validate_card_set, hash_of=C.card_set_hash,
                                      errors=C.CardSetError, what="card set", kind="card-sets", doc_option="cards",
                                      hash_option="card_set", rule=P + "card_set")
            return canon, C.cards_from_doc(canon)
        builtin = C.builtin_sets()
        digest = digest or C.placeholder_hash()
        if digest not in builtin:
            raise InvalidOptions(say("card set {digest} is not shipped with the engine; embed it as options.cards (the "
                                     "API does so for a stored set)", digest=digest), field="options.card_set",
                                 rule=P + "card_set")
        return builtin[digest], C.builtin_cards(digest)

    def check_options(self, options: dict[str, Any], players: int) -> None:
        o = self._options(options)
        _, cards = self.resolve_cards(o)
        per = 2 if players <= 5 else 1
        if len(cards.knights) < per * players:
            raise InvalidOptions(say("the card set has {have} knights; {players} players need {need}",
                                     have=len(cards.knights), players=players, need=per * players),
                                 field="options.cards", rule=P + "R1")
        if o["ladies"] and len(cards.ladies) < per * players:
            raise InvalidOptions(say("the card set has {have} ladies; {players} players need {need} (or play without "
                                     "ladies: the option “Play with ladies” off)", have=len(cards.ladies), players=players,
                                     need=per * players),
                                 field="options.cards", rule=P + "R1")

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        o = self._options(options)
        self.check_options(o, len(players))
        doc, cards = self.resolve_cards(o)
        cfg = Config(
            days=o["days"], ladies=o["ladies"], wound_penalty=o["wound_penalty"], penalty_7_9=o["e2_penalty_7_9"],
            training_optional=o["training_optional"], dice_min=max(o["dice_min"], cards.dice_min),
            tie_break=o["kerchief_tie_break"], challenge_required=o["challenge_required"], woedend=o["woedend"],
            give_up_after_mounted=o["give_up_after_mounted"], day_winner_metric=o["day_winner_metric"],
            lady_bonus_after_loss=o["lady_bonus_after_loss"], final_bonus_ties=o["final_bonus_ties"],
            deciding_duel=o["deciding_duel"], rejected_lady_next=o["rejected_lady_next"], woedend_die=o["woedend_die"],
            both_eliminated=o["both_eliminated"],
        )
        return State(cfg, cards, doc, tuple(players), DEAL, 0, -1, -1, -1, (), (), (), (), (), 0, None, None,
                     (), (), -1, (), None)

    # -- who acts ---------------------------------------------------------------------
    def actors(self, s: State) -> tuple[Any, ...]:
        ph = s.phase
        if ph in (DEAL, START, ROLL):
            return (CHANCE,)
        if ph == TRAIN:
            return tuple(sorted({s.knights[i].owner for i, p in enumerate(s.points) if p}))
        if ph == YIELD:
            d = s.duel
            return (s.knights[d.a if d.asked == 0 else d.d].owner,)
        if ph == OVER:
            return ()
        return (s.turn,)

    # -- normalising ------------------------------------------------------------------
    def _knight_ref(self, s: State, ref: str, field: str) -> int:
        i = s.cards.knight_index(ref)
        if i is None:
            raise MalformedEvent(C.no_such_card(s.cards.knights, ref, "knight"), field=field)
        for j, k in enumerate(s.knights):
            if k.card == i:
                return j
        raise RuleViolation(P + "R1", say("{card} was not dealt in this tournament", card=s.cards.knights[i].name))

    def _lady_ref(self, s: State, ref: str, field: str) -> int:
        i = s.cards.lady_index(ref)
        if i is None:
            raise MalformedEvent(C.no_such_card(s.cards.ladies, ref, "lady"), field=field)
        for j, x in enumerate(s.ladies):
            if x.card == i:
                return j
        raise RuleViolation(P + "R1", say("{card} was not dealt in this tournament", card=s.cards.ladies[i].name))

    def kid(self, s: State, k: int) -> str:
        return s.cards.knights[s.knights[k].card].id

    def lid(self, s: State, x: int) -> str:
        return s.cards.ladies[s.ladies[x].card].id

    def kname(self, s: State, k: int) -> str:
        """A dealt knight as a message names him: by his card's name, never its id."""
        return s.cards.knights[s.knights[k].card].name

    def lname(self, s: State, x: int) -> str:
        return s.cards.ladies[s.ladies[x].card].name

    @staticmethod
    def player(s: State, seat: Any) -> str | Text:
        """A seat as a message names it: its player's name."""
        if isinstance(seat, int) and 0 <= seat < len(s.names):
            return s.names[seat]
        return say("seat {seat}", seat=str(seat))

    def _misfit(self, type: str, phase: str) -> Text:
        """A move that does not fit the tournament's phase, both named in words (Dutch: the rules text's)."""
        def word(name: str) -> Words:
            return Words(en=name.replace("_", " "), nl=self.event_title_nl(name) or ("einde" if name == OVER else name))
        return say("a {type} event does not fit now: the tournament is at {phase}", type=word(type), phase=word(phase))

    def normalize(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        if s.phase not in _PHASE_OF.get(type, ()):
            raise RuleViolation(_RULE_OF.get(type, "core.turn"), self._misfit(type, s.phase))
        if type == "deal":
            per = 2 if s.n <= 5 else 1
            data = self._deal_by_seat(s, data, per)

            def ids(rows: Any, lookup, what: str) -> list[list[str]]:
                if len(rows) != s.n:
                    raise MalformedEvent(say("deal: the knights need one list per seat ({n})", n=s.n) if what == "knights"
                                         else say("deal: the ladies need one list per seat ({n})", n=s.n), field=what)
                out = []
                for seat_, row in enumerate(rows):
                    if len(row) != per:
                        values = dict(per=per, players=s.n, seat=str(seat_), got=len(row))
                        raise RuleViolation(P + "R1", say("each player is dealt {per} knights with {players} players; seat "
                                                          "{seat} got {got}", **values) if what == "knights" else
                                            say("each player is dealt {per} ladies with {players} players; seat {seat} "
                                                "got {got}", **values))
                    got = []
                    for ref in row:
                        i = lookup(ref)
                        if i is None:
                            raise MalformedEvent(C.no_such_card(getattr(s.cards, what), ref, {"knights": "knight", "ladies": "lady"}[what]), field=what)
                        got.append(i)
                    out.append(got)
                flat = [i for row in out for i in row]
                if len(set(flat)) != len(flat):
                    raise RuleViolation(P + "R1", say("a card is dealt twice among the knights") if what == "knights"
                                        else say("a card is dealt twice among the ladies"))
                return out

            knights = ids(data["knights"], s.cards.knight_index, "knights")
            result = {"knights": [[s.cards.knights[i].id for i in row] for row in knights]}
            if s.cfg.ladies:
                ladies = ids(data.get("ladies", []), s.cards.lady_index, "ladies")
                result["ladies"] = [[s.cards.ladies[i].id for i in row] for row in ladies]
            elif data.get("ladies"):
                raise RuleViolation(P + "E3", say("this tournament is played without ladies (the option “Play with "
                                                  "ladies” is off)"))
            else:
                result["ladies"] = []
            return result
        if type == "train":
            k = self._knight_ref(s, data["knight"], "knight")
            return {"knight": self.kid(s, k), "dice": data.get("dice", 0), "cover": sorted(data.get("cover", []))}
        if type == "participate":
            ks = [self._knight_ref(s, r, "knights") for r in data["knights"]]
            if len(set(ks)) != len(ks):
                raise MalformedEvent(say("a knight is named twice"), field="knights")
            return {"knights": [self.kid(s, k) for k in sorted(ks)]}
        if type == "kerchief":
            return {"lady": self.lid(s, self._lady_ref(s, data["lady"], "lady")),
                    "knight": self.kid(s, self._knight_ref(s, data["knight"], "knight"))}
        if type == "prefer":
            return {"lady": self.lid(s, self._lady_ref(s, data["lady"], "lady"))}
        if type == "challenge":
            return {"knight": self.kid(s, self._knight_ref(s, data["knight"], "knight")),
                    "target": self.kid(s, self._knight_ref(s, data["target"], "target"))}
        if type in ("day_winner", "duel_knight"):
            return {"knight": self.kid(s, self._knight_ref(s, data["knight"], "knight"))}
        if type == "roll":
            roller = self._roller(s)
            if roller is None:
                raise RuleViolation("core.chance", say("no roll is due now"))
            if "knight" in data and self._knight_ref(s, data["knight"], "knight") != roller:
                raise RuleViolation(P + "R9", say("{knight} rolls now (the attacker first, then the defender)",
                                                  knight=self.kname(s, roller)))
            n, least = self.dice_now(s, roller), self.dice_least(s, roller)
            if not least <= len(data["faces"]) <= n:
                name = s.cards.knights[s.knights[roller].card].name
                if least == n:
                    raise RuleViolation(P + "dice", say_n(n, "{knight} rolls {n} die now, not {rolled}",
                                                          "{knight} rolls {n} dice now, not {rolled}", knight=name,
                                                          rolled=len(data["faces"])))
                raise RuleViolation(P + "dice", say_n(n - least, "{knight} rolls {least} to {most} dice now (the woedend "
                                                      "die is his choice under the option “The extra woedend die”), not {rolled}",
                                                      "{knight} rolls {least} to {most} dice now (the woedend dice are "
                                                      "his choice under the option “The extra woedend die”), not {rolled}",
                                                      knight=name,
                                                      least=least, most=n, rolled=len(data["faces"])))
            return {"faces": list(data["faces"]), "knight": self.kid(s, roller)}
        if type == "start_roll":
            faces = data["faces"]
            if len(faces) == len(s.rolling) < s.n and None not in faces:
                # the rolling players' dice only, in seat order (as the table's dice pad enters them)
                it = iter(faces)
                faces = [next(it) if i in s.rolling else None for i in range(s.n)]
            if len(faces) != s.n:
                raise MalformedEvent(say("the start roll needs one entry per seat ({n})", n=s.n), field="faces")
            for seat_, f in enumerate(faces):
                if (f is None) == (seat_ in s.rolling):
                    rolling = [s.names[r] if r < len(s.names) else str(r) for r in s.rolling]
                    who = s.names[seat_] if seat_ < len(s.names) else str(seat_)
                    raise RuleViolation(P + "R4", say("{who} rolls now (rolling: {rolling})", who=who, rolling=rolling)
                                        if seat_ in s.rolling else
                                        say("{who} does not roll now (rolling: {rolling})", who=who, rolling=rolling))
            return {"faces": list(faces)}
        return data

    def _deal_by_seat(self, s: State, data: dict[str, Any], per: int) -> dict[str, Any]:
        """A deal as knights and ladies per seat: given so, or as one list of
        the cards in dealing order (the knights among them go ``per`` to each
        seat in seat order, the ladies likewise)."""
        if "cards" not in data:
            if "knights" not in data:
                raise MalformedEvent(say("deal: give knights (and ladies) per seat, or cards in dealing order"),
                                     field="knights")
            return data
        if "knights" in data or "ladies" in data:
            raise MalformedEvent(say("deal: give knights and ladies per seat, or cards, not both"), field="cards")
        knights: list[str] = []
        ladies: list[str] = []
        for ref in data["cards"]:
            if s.cards.knight_index(ref) is not None:
                knights.append(ref)
            elif s.cards.lady_index(ref) is not None:
                ladies.append(ref)
            else:
                raise MalformedEvent(say("deal: {card} is neither a knight nor a lady of the card set", card=repr(ref)),
                                     field="cards")
        if len(knights) != per * s.n or len(ladies) != (per * s.n if s.cfg.ladies else 0):
            values = dict(players=s.n, n=per * s.n, knights=len(knights), ladies=len(ladies))
            raise RuleViolation(P + "R1", say("{players} players are dealt {n} knights and {n} ladies, not {knights} and "
                                              "{ladies}", **values) if s.cfg.ladies else
                                say("{players} players are dealt {n} knights (no ladies: the option “Play with ladies” "
                                    "is off), not {knights} and {ladies}",
                                    **values))
        return {"knights": [knights[i * per:(i + 1) * per] for i in range(s.n)],
                "ladies": [ladies[i * per:(i + 1) * per] for i in range(s.n)] if s.cfg.ladies else []}

    def _roller(self, s: State) -> int | None:
        if s.phase != ROLL or s.duel is None:
            return None
        return s.duel.a if s.duel.a_faces is None else s.duel.d

    def base_dice(self, s: State, k: int) -> int:
        kn = s.knights[k]
        return max(s.cfg.dice_min, kn.dice - kn.penalty)

    def dice_now(self, s: State, k: int) -> int:
        """The dice knight k rolls now: his own and the woedend dice of this round."""
        return self.base_dice(s, k) + (s.duel.extra if s.duel else 0)

    def dice_least(self, s: State, k: int) -> int:
        """The fewest dice knight k may roll now: all of them, unless the woedend
        dice are his choice (option woedend_die optional: "mag ... gebruiken")."""
        return self.base_dice(s, k) if s.cfg.woedend_die == "optional" else self.dice_now(s, k)

    # -- applying ---------------------------------------------------------------------
    def apply(self, s: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        if s.phase not in _PHASE_OF[type]:
            raise RuleViolation(_RULE_OF[type], self._misfit(type, s.phase))
        return _APPLY[type](self, s, seat, data)

    def _a_deal(self, s: State, seat, data) -> State:
        knights = []
        for seat_, row in enumerate(data["knights"]):
            for ref in row:
                c = s.cards.knight_index(ref)
                card = s.cards.knights[c]
                knights.append(Knight(c, seat_, card.dice, card.red, 0, 0, IDLE, 0, 0, -1, False))
        ladies = tuple(Lady(s.cards.lady_index(ref), seat_, 0, -1, ())
                       for seat_, row in enumerate(data["ladies"]) for ref in row)
        s = s._replace(knights=tuple(knights), ladies=ladies)
        return self._begin_training(s, tuple(2 for _ in knights))

    def capacity(self, s: State, k: int) -> tuple[int, int]:
        kn = s.knights[k]
        return s.cards.dice_max - kn.dice, sum(s.cards.fields_per_face - c for c in kn.cover)

    def _begin_training(self, s: State, points: tuple[int, ...]) -> State:
        points = tuple(p if p and sum(self.capacity(s, i)) else 0 for i, p in enumerate(points))
        s = s._replace(points=points, phase=TRAIN)
        return self._after_training(s) if not any(points) else s

    def _after_training(self, s: State) -> State:
        if s.day == 0:
            return s._replace(phase=START, points=(), rolling=tuple(range(s.n)))
        return self._start_day(s._replace(points=()))

    def _a_train(self, s: State, seat, data) -> State:
        k = self._knight_ref(s, data["knight"], "knight")
        kn = s.knights[k]
        rule = P + ("R3" if s.day == 0 else "R21")
        if kn.owner != seat:
            raise RuleViolation(rule, say("{knight} is not {who}'s knight", knight=self.kname(s, k), who=self.player(s, seat)))
        pts = s.points[k]
        if not pts:
            raise RuleViolation(rule, say("{knight} has no training points now", knight=self.kname(s, k)))
        dice, cover = data["dice"], data["cover"]
        spend = dice + len(cover)
        if spend > pts:
            raise RuleViolation(rule, say_n(pts, "{knight} has {n} training point, not {spend}",
                                            "{knight} has {n} training points, not {spend}", knight=self.kname(s, k),
                                            spend=spend))
        if kn.dice + dice > s.cards.dice_max:
            raise RuleViolation(rule, say("the dice track ends at {n}", n=s.cards.dice_max))
        new_cover = list(kn.cover)
        for f in cover:
            new_cover[f - 1] += 1
            if new_cover[f - 1] > s.cards.fields_per_face:
                raise RuleViolation(rule, say("face {face} has only {n} fields to cover", face=f, n=s.cards.fields_per_face))
        if not s.cfg.training_optional:
            room_d, room_c = self.capacity(s, k)
            if spend < min(pts, room_d + room_c):
                raise RuleViolation(rule, say_n(min(pts, room_d + room_c),
                                                "training is mandatory (the option “Training points may be left "
                                                "unspent” is off): spend {n} point", "training is mandatory (the "
                                                "option “Training points may be left unspent” is off): spend {n} "
                                                "points"))
        kn = kn._replace(dice=kn.dice + dice, cover=tuple(new_cover))
        s = s._replace(knights=_put(s.knights, k, kn), points=_put(s.points, k, 0))
        return self._after_training(s) if not any(s.points) else s

    def _a_start_roll(self, s: State, seat, data) -> State:
        faces = data["faces"]
        top = max(faces[i] for i in s.rolling)
        tied = tuple(i for i in s.rolling if faces[i] == top)
        if len(tied) > 1:
            return s._replace(rolling=tied)
        return self._start_day(s._replace(first=tied[0], rolling=()))

    def _start_day(self, s: State) -> State:
        day = s.day + 1
        start = (s.first + day - 1) % s.n
        knights = tuple(
            k if k.status == ELIMINATED else k._replace(status=IDLE, day_premiums=0, kerchief=-1, took_part=False,
                                                        penalty=_penalty(s.cfg, k.wounds))
            for k in s.knights
        )
        ladies = tuple(x._replace(knight=-1, rejected=()) for x in s.ladies)
        s = s._replace(day=day, start=start, knights=knights, ladies=ladies, declared=(), phase=PARTICIPATE, passes=0)
        return self._next_participant(s)

    def _order(self, s: State, after: int) -> list[int]:
        """Seats clockwise from the one after ``after`` (``after`` itself last)."""
        return [(after + 1 + i) % s.n for i in range(s.n)]

    def _next_participant(self, s: State) -> State:
        for seat in self._order(s, s.start - 1):
            if seat not in s.declared and any(k.owner == seat and k.status != ELIMINATED for k in s.knights):
                return s._replace(turn=seat)
        return self._after_participation(s)

    def _a_participate(self, s: State, seat, data) -> State:
        ks = [self._knight_ref(s, r, "knights") for r in data["knights"]]
        knights = list(s.knights)
        for k in ks:
            if knights[k].owner != seat:
                raise RuleViolation(P + "R5", say("{knight} is not {who}'s knight", knight=self.kname(s, k),
                                                  who=self.player(s, seat)))
            if knights[k].status == ELIMINATED:
                raise RuleViolation(P + "R13", say("{knight} is out of the tournament", knight=self.kname(s, k)))
            knights[k] = knights[k]._replace(status=FIT, took_part=True)
        s = s._replace(knights=tuple(knights), declared=s.declared + (seat,))
        return self._next_participant(s)

    def _after_participation(self, s: State) -> State:
        if s.cfg.ladies:
            return self._next_kerchief(s._replace(phase=KERCHIEF), s.start - 1)
        return self._begin_challenges(s)

    def lady_targets(self, s: State, x: int) -> list[int]:
        lady = s.ladies[x]
        if lady.knight != -1:
            return []
        return [k for k, kn in enumerate(s.knights) if kn.status == FIT and k not in lady.rejected]

    def due_again(self, s: State, seat: int) -> list[int]:
        """Option rejected_lady_next ("Podica moet haar doek aan een andere ridder
        aanbieden, als de speler weer aan de beurt is"): the seat's ladies who were
        rejected (or displaced) today, are free and can still go to a knight; one
        of them is offered on this turn. Empty: any of his free ladies may go."""
        if not s.cfg.rejected_lady_next:
            return []
        return [x for x, lady in enumerate(s.ladies)
                if lady.owner == seat and lady.knight == -1 and lady.rejected and self.lady_targets(s, x)]

    def _next_kerchief(self, s: State, after: int) -> State:
        if all(k.kerchief != -1 for k in s.knights if k.status == FIT):
            return self._begin_challenges(s)
        for seat in self._order(s, after):
            if any(lady.owner == seat and self.lady_targets(s, x) for x, lady in enumerate(s.ladies)):
                return s._replace(turn=seat, phase=KERCHIEF)
        return self._begin_challenges(s)

    def _a_kerchief(self, s: State, seat, data) -> State:
        x = self._lady_ref(s, data["lady"], "lady")
        k = self._knight_ref(s, data["knight"], "knight")
        lady, kn = s.ladies[x], s.knights[k]
        if lady.owner != seat:
            raise RuleViolation(P + "R6", say("{lady} is not {who}'s lady", lady=self.lname(s, x), who=self.player(s, seat)))
        if lady.knight != -1:
            raise RuleViolation(P + "R6", say("{lady}'s kerchief already lies on {knight}", lady=self.lname(s, x),
                                              knight=self.kname(s, lady.knight)))
        due = self.due_again(s, seat)
        if due and x not in due:
            raise RuleViolation(P + "R6", say("{due} was rejected and offers her kerchief again now that her player is "
                                              "at turn (the option “A rejected lady is offered again first”), before "
                                              "{lady}",
                                              due=[self.lname(s, y) for y in due], lady=self.lname(s, x)))
        if kn.status != FIT:
            raise RuleViolation(P + "R6", say("{knight} does not take part in the day (or is beaten)", knight=self.kname(s, k)))
        if k in lady.rejected:
            raise RuleViolation(P + "R6", say("{knight} rejected {lady} today; she offers to another knight",
                                              knight=self.kname(s, k), lady=self.lname(s, x)))
        if kn.kerchief == -1:
            return self._next_kerchief(self._wear(s, k, x), seat)
        inc = kn.kerchief
        card = s.cards.knights[kn.card]
        verdict = contest(card.prefs, s.cards.ladies[s.ladies[inc].card].attrs, s.cards.ladies[lady.card].attrs, s.cfg.tie_break)
        if verdict > 0:
            s = self._reject(self._wear(s, k, x), inc, k)
        elif verdict < 0:
            s = self._reject(s, x, k)
        else:
            return s._replace(phase=PREFER, pending=(k, inc, x), turn=kn.owner)
        return self._next_kerchief(s, seat)

    def _wear(self, s: State, k: int, x: int) -> State:
        return s._replace(knights=_put(s.knights, k, s.knights[k]._replace(kerchief=x)),
                          ladies=_put(s.ladies, x, s.ladies[x]._replace(knight=k)))

    def _reject(self, s: State, x: int, k: int) -> State:
        lady = s.ladies[x]
        return s._replace(ladies=_put(s.ladies, x, lady._replace(knight=-1, rejected=tuple(sorted(lady.rejected + (k,))))))

    def _a_prefer(self, s: State, seat, data) -> State:
        x = self._lady_ref(s, data["lady"], "lady")
        k, inc, new = s.pending
        if x not in (inc, new):
            raise RuleViolation(P + "R6", say("{knight} chooses between {a} and {b}", knight=self.kname(s, k),
                                              a=self.lname(s, inc), b=self.lname(s, new)))
        placer = s.ladies[new].owner
        if x == new:
            s = self._reject(self._wear(s, k, new), inc, k)
        else:
            s = self._reject(s, new, k)
        return self._next_kerchief(s._replace(pending=None, phase=KERCHIEF), placer)

    # -- challenges and duels ---------------------------------------------------------
    def fit_owners(self, s: State) -> set[int]:
        return {k.owner for k in s.knights if k.status == FIT}

    def _begin_challenges(self, s: State) -> State:
        return self._next_challenger(s._replace(phase=CHALLENGE, passes=0), s.start - 1)

    def _next_challenger(self, s: State, after: int) -> State:
        owners = self.fit_owners(s)
        if len(owners) <= 1:
            return self._end_day(s)
        for seat in self._order(s, after):
            if seat in owners:
                return s._replace(phase=CHALLENGE, turn=seat, duel=None)
        raise AssertionError("unreachable")

    def _a_challenge(self, s: State, seat, data) -> State:
        a = self._knight_ref(s, data["knight"], "knight")
        d = self._knight_ref(s, data["target"], "target")
        ka, kd = s.knights[a], s.knights[d]
        if ka.owner != seat:
            raise RuleViolation(P + "R8", say("{knight} is not {who}'s knight", knight=self.kname(s, a), who=self.player(s, seat)))
        if kd.owner == seat:
            raise RuleViolation(P + "R8", say("a player's own knights never fight each other"))
        for k, kn in ((a, ka), (d, kd)):
            if kn.status != FIT:
                rule = P + ("R15" if kn.status == OUT else "R13" if kn.status == ELIMINATED else "R8")
                raise RuleViolation(rule, say("{knight} is not fit to fight today ({status})", knight=self.kname(s, k),
                                              status=_STATUS[kn.status]))
        duel = Duel(a, d, MOUNTED, None, 0, 0, 0, False, 0)
        return s._replace(phase=ROLL, duel=duel, passes=0)

    def _a_pass(self, s: State, seat, data) -> State:
        if s.cfg.challenge_required:
            raise RuleViolation(P + "R8", say("a player with a fit knight must challenge (the option “A fit knight "
                                              "must challenge”)"))
        s = s._replace(passes=s.passes + 1)
        if s.passes >= len(self.fit_owners(s)):
            return self._end_day(s)
        return self._next_challenger(s, seat)

    def _a_roll(self, s: State, seat, data) -> State:
        faces = data["faces"]
        duel = s.duel
        mounted = duel.mode == MOUNTED
        lo = 1 if mounted else 4
        a, d = duel.a, duel.d
        if duel.a_faces is None:
            # R9: "De aanvaller dobbelt eerst en eventuele treffers worden vastgehouden (het houten blokje in de
            # lijst met verwondingen wordt verschoven). Daarna gooit de verdediger." The attacker's hits go on the
            # defender's wound track now; the round is judged once the defender has rolled too.
            kd = s.knights[d]
            on_d = hits(faces, kd.cover, lo)
            if on_d:
                kd = kd._replace(wounds=kd.wounds + on_d)
                s = s._replace(knights=_put(s.knights, d, kd))
            s = s._replace(duel=duel._replace(a_faces=tuple(faces), dealt=on_d))
            if s.cfg.both_eliminated == "attacker_first" and kd.wounds >= ELIMINATED_AT:
                # open point 10, "Eerst gooit de aanvaller": out before he strikes back; he does not roll
                return self._finish(s._replace(duel=s.duel._replace(a_faces=None, dealt=-1, rounds=duel.rounds + 1)), a)
            return s
        ka, kd = s.knights[a], s.knights[d]
        on_a = hits(faces, ka.cover, lo)
        knights = list(s.knights)
        if duel.dealt >= 0:
            on_d = duel.dealt  # already on the defender's track
        else:  # a snapshot taken before the attacker's hits were marked at once
            on_d = hits(duel.a_faces, kd.cover, lo)
            if on_d:
                kd = knights[d] = kd._replace(wounds=kd.wounds + on_d)
        if on_a:
            ka = knights[a] = ka._replace(wounds=ka.wounds + on_a)
        ea, ed = ka.wounds >= ELIMINATED_AT, kd.wounds >= ELIMINATED_AT
        if mounted and not ea and not ed and on_d == 0 and on_a == 0:
            n = duel.rerolls + 1
            extra = {"every": 1, "first_only": 1 if n == 1 else 0, "cumulative": n}[s.cfg.woedend]
            s = s._replace(duel=duel._replace(a_faces=None, dealt=-1, rounds=duel.rounds + 1, rerolls=n, extra=extra))
            if s.cfg.woedend != "cumulative" and self._stalemate(s, MOUNTED, extra):
                return self._finish(s, None)
            return s
        both_fell = mounted and on_a and on_d
        duel = duel._replace(a_faces=None, dealt=-1, rounds=duel.rounds + 1,
                             **({"mode": FOOT, "extra": 0} if both_fell else {}))
        s = s._replace(knights=tuple(knights), duel=duel)
        if ea or ed:
            return self._finish(s, None if ea and ed else d if ea else a)
        if mounted and not both_fell:
            return self._finish(s, a if on_a == 0 else d)
        if duel.deciding or (both_fell and not s.cfg.give_up_after_mounted):
            return self._next_foot_round(s)
        return s._replace(phase=YIELD)

    def _stalemate(self, s: State, mode: str, extra: int) -> bool:
        lo = 1 if mode == MOUNTED else 4
        d = s.duel
        ka, kd = s.knights[d.a], s.knights[d.d]
        return not can_hit(self.base_dice(s, d.a) + extra, kd.cover, lo) and not can_hit(self.base_dice(s, d.d) + extra, ka.cover, lo)

    def _next_foot_round(self, s: State) -> State:
        s = s._replace(phase=ROLL, duel=s.duel._replace(a_faces=None, dealt=-1, extra=0, asked=0))
        if self._stalemate(s, FOOT, 0):
            return self._finish(s, None)
        return s

    def _a_give_up(self, s: State, seat, data) -> State:
        d = s.duel
        return self._finish(s, d.d if d.asked == 0 else d.a)

    def _a_fight_on(self, s: State, seat, data) -> State:
        d = s.duel
        if d.asked == 0:
            return s._replace(duel=d._replace(asked=1))
        return self._next_foot_round(s)

    def _finish(self, s: State, winner: int | None) -> State:
        """End the duel: premiums to the winner and his lady, the loser out for the day."""
        duel = s.duel
        knights = list(s.knights)
        ladies = list(s.ladies)
        awards = list(s.awards)
        for k in (duel.a, duel.d):
            kn = knights[k]
            if kn.wounds >= ELIMINATED_AT:
                knights[k] = kn._replace(status=ELIMINATED)
            elif k != winner and not duel.deciding:
                knights[k] = kn._replace(status=OUT)
        if duel.deciding:
            s = s._replace(knights=tuple(knights))
            owner = None if winner is None else s.knights[winner].owner
            nxt = s.tied.index(s.knights[duel.d].owner) + 1
            champ = -1 if owner is None else s.tied.index(owner)
            return self._deciding(s._replace(duel=None), champ, nxt)
        if winner is not None:
            kn = knights[winner]
            knights[winner] = kn._replace(premiums=kn.premiums + 1, day_premiums=kn.day_premiums + 1)
            awards.append((s.cards.knights[kn.card].id, 1, f"day {s.day}: duel"))
            if kn.kerchief != -1:
                lady = ladies[kn.kerchief]
                ladies[kn.kerchief] = lady._replace(premiums=lady.premiums + 1)
                awards.append((s.cards.ladies[lady.card].id, 1, f"day {s.day}: duel of {s.cards.knights[kn.card].id}"))
        challenger = s.knights[duel.a].owner
        s = s._replace(knights=tuple(knights), ladies=tuple(ladies), awards=tuple(awards), duel=None)
        return self._next_challenger(s, challenger)

    # -- end of a day, the night, the end -----------------------------------------------
    def _end_day(self, s: State) -> State:
        metric = s.cfg.day_winner_metric
        if metric == "day":
            values = {k: kn.day_premiums for k, kn in enumerate(s.knights) if kn.took_part}
        elif metric == "total":
            values = {k: kn.premiums for k, kn in enumerate(s.knights) if kn.took_part}
        else:
            values = {k: kn.day_premiums for k, kn in enumerate(s.knights) if kn.status == FIT}
        best = max(values.values(), default=0)
        s = s._replace(duel=None)
        if best >= 1:
            tied = tuple(k for k, v in values.items() if v == best)
            owners = {s.knights[k].owner for k in tied}
            if len(tied) == 1:
                return self._close_day(self._day_bonus(s, tied[0]))
            if len(owners) == 1:
                return s._replace(phase=DAY_WINNER, tied=tied, turn=owners.pop())
        return self._close_day(s)

    def _day_bonus(self, s: State, k: int) -> State:
        kn = s.knights[k]
        bonus = s.day
        knights = _put(s.knights, k, kn._replace(premiums=kn.premiums + bonus))
        awards = s.awards + ((s.cards.knights[kn.card].id, bonus, f"day {s.day}: day winner"),)
        ladies = s.ladies
        if kn.kerchief != -1 and (s.cfg.lady_bonus_after_loss or kn.status == FIT):
            lady = ladies[kn.kerchief]
            ladies = _put(ladies, kn.kerchief, lady._replace(premiums=lady.premiums + bonus))
            awards += ((s.cards.ladies[lady.card].id, bonus, f"day {s.day}: lady of the day winner"),)
        return s._replace(knights=knights, ladies=ladies, awards=awards)

    def _a_day_winner(self, s: State, seat, data) -> State:
        k = self._knight_ref(s, data["knight"], "knight")
        if k not in s.tied:
            raise RuleViolation(P + "R18", say("the day winner is one of the tied knights: {knights}",
                                               knights=[self.kname(s, t) for t in s.tied]))
        return self._close_day(self._day_bonus(s._replace(tied=()), k))

    def _close_day(self, s: State) -> State:
        # the kerchiefs go back to their ladies, also from a knight out of the tournament
        knights = tuple(k._replace(kerchief=-1) if k.status == ELIMINATED else k._replace(status=IDLE, kerchief=-1)
                        for k in s.knights)
        ladies = tuple(x._replace(knight=-1, rejected=()) for x in s.ladies)
        s = s._replace(knights=knights, ladies=ladies, tied=(), pending=None, phase=TRAIN)
        if s.day >= s.cfg.days:
            return self._final(s)
        # the night: heal, then train by the wounds left
        knights = tuple(k if k.status == ELIMINATED else k._replace(wounds=max(0, k.wounds - HEAL)) for k in s.knights)
        s = s._replace(knights=knights)
        return self._begin_training(s, tuple(0 if k.status == ELIMINATED else training_points(k.wounds) for k in knights))

    def scores(self, s: State) -> tuple[int, ...]:
        out = [0] * s.n
        for k in s.knights:
            out[k.owner] += k.premiums
        for x in s.ladies:
            out[x.owner] += x.premiums
        return tuple(out)

    def _final(self, s: State) -> State:
        knights, ladies, awards = list(s.knights), list(s.ladies), list(s.awards)
        for group, cards_ in ((knights, s.cards.knights), (ladies, s.cards.ladies)):
            if not group:
                continue
            best = max(c.premiums for c in group)
            if best < 1:  # nobody collected any: nobody collected the most
                continue
            top = [i for i, c in enumerate(group) if c.premiums == best]
            if len(top) > 1 and s.cfg.final_bonus_ties == "none":
                continue
            for i in top:
                group[i] = group[i]._replace(premiums=group[i].premiums + FINAL_BONUS)
                awards.append((cards_[group[i].card].id, FINAL_BONUS, "final bonus: most premiums"))
        s = s._replace(knights=tuple(knights), ladies=tuple(ladies), awards=tuple(awards))
        sc = self.scores(s)
        best = max(sc)
        top = [i for i in range(s.n) if sc[i] == best]
        if len(top) == 1:
            return s._replace(phase=OVER, ended=("win", (top[0],), f"most premiums ({best})"))
        if not s.cfg.deciding_duel:
            return s._replace(phase=OVER, ended=("draw", tuple(top), f"tied on {best} premiums (no deciding duel)"))
        order = [seat for seat in self._order(s, s.start - 1) if seat in top]
        able = tuple(seat for seat in order if any(k.owner == seat and k.status != ELIMINATED for k in s.knights))
        if len(able) <= 1:
            if able:
                return s._replace(phase=OVER, ended=("win", able, f"tied on {best}; the only tied player with a knight left"))
            return s._replace(phase=OVER, ended=("draw", tuple(top), f"tied on {best}; no tied player has a knight left"))
        return s._replace(phase=DUEL_PICK, tied=able, picks=(), turn=able[0])

    def _a_duel_knight(self, s: State, seat, data) -> State:
        k = self._knight_ref(s, data["knight"], "knight")
        kn = s.knights[k]
        if kn.owner != seat or kn.status == ELIMINATED:
            raise RuleViolation(P + "R27", say("{knight} is not a knight of {who} still in the tournament",
                                               knight=self.kname(s, k), who=self.player(s, seat)))
        picks = s.picks + (k,)
        s = s._replace(picks=picks)
        if len(picks) < len(s.tied):
            return s._replace(turn=s.tied[len(picks)])
        return self._deciding(s, 0, 1)

    def _deciding(self, s: State, champ: int, nxt: int) -> State:
        while True:
            if nxt >= len(s.tied):
                if champ == -1:
                    return s._replace(phase=OVER, ended=("draw", s.tied, "the deciding duel had no winner"))
                return s._replace(phase=OVER, champion=s.tied[champ],
                                  ended=("win", (s.tied[champ],), "won the deciding duel"))
            if champ == -1:
                champ, nxt = nxt, nxt + 1
                continue
            break
        duel = Duel(s.picks[champ], s.picks[nxt], MOUNTED, None, 0, 0, 0, True, 0)
        return s._replace(phase=ROLL, duel=duel, champion=s.tied[champ])

    # -- moves and chance ---------------------------------------------------------------
    def training_choices(self, s: State, k: int) -> list[tuple[int, tuple[int, ...]]]:
        pts = s.points[k] if k < len(s.points) else 0
        kn = s.knights[k]
        room_d, room_c = self.capacity(s, k)
        out = []
        for dice in range(0, min(pts, room_d) + 1):
            for n in range(0, pts - dice + 1):
                for cover in combinations_with_replacement(range(1, 7), n):
                    if all(kn.cover[f - 1] + cover.count(f) <= s.cards.fields_per_face for f in set(cover)):
                        out.append((dice, cover))
        if not s.cfg.training_optional:
            need = min(pts, room_d + room_c)
            out = [c for c in out if c[0] + len(c[1]) >= need]
        return out

    def legal_moves(self, s: State, seat: int | None) -> list[Move]:
        if seat is None or seat not in self.actors(s) or s.phase == OVER:
            return []
        ph = s.phase
        kid = self.kid
        if ph == TRAIN:
            return [Move("train", seat, {"knight": kid(s, k), "dice": d, "cover": list(c)})
                    for k, p in enumerate(s.points) if p and s.knights[k].owner == seat
                    for d, c in self.training_choices(s, k)]
        if ph == PARTICIPATE:
            own = [k for k, kn in enumerate(s.knights) if kn.owner == seat and kn.status != ELIMINATED]
            return [Move("participate", seat, {"knights": [kid(s, k) for k in sub]})
                    for n in range(len(own) + 1) for sub in combinations(own, n)]
        if ph == KERCHIEF:
            due = self.due_again(s, seat)
            return [Move("kerchief", seat, {"lady": self.lid(s, x), "knight": kid(s, k)})
                    for x, lady in enumerate(s.ladies) if lady.owner == seat and (not due or x in due)
                    for k in self.lady_targets(s, x)]
        if ph == PREFER:
            _, inc, new = s.pending
            return [Move("prefer", seat, {"lady": self.lid(s, x)}) for x in (inc, new)]
        if ph == CHALLENGE:
            moves = [Move("challenge", seat, {"knight": kid(s, a), "target": kid(s, d)})
                     for a, ka in enumerate(s.knights) if ka.owner == seat and ka.status == FIT
                     for d, kd in enumerate(s.knights) if kd.owner != seat and kd.status == FIT]
            if not s.cfg.challenge_required:
                moves.append(Move("pass", seat, {}))
            return moves
        if ph == YIELD:
            return [Move("fight_on", seat, {}), Move("give_up", seat, {})]
        if ph == DAY_WINNER:
            return [Move("day_winner", seat, {"knight": kid(s, k)}) for k in s.tied]
        if ph == DUEL_PICK:
            return [Move("duel_knight", seat, {"knight": kid(s, k)}) for k, kn in enumerate(s.knights)
                    if kn.owner == seat and kn.status != ELIMINATED]
        return []

    def chance_outcome(self, s: State, rng: random.Random) -> Move | None:
        if s.phase == DEAL:
            per = 2 if s.n <= 5 else 1
            ks = rng.sample(range(len(s.cards.knights)), per * s.n)
            data: dict[str, Any] = {"knights": [[s.cards.knights[i].id for i in ks[seat * per:(seat + 1) * per]]
                                                for seat in range(s.n)]}
            if s.cfg.ladies:
                ls = rng.sample(range(len(s.cards.ladies)), per * s.n)
                data["ladies"] = [[s.cards.ladies[i].id for i in ls[seat * per:(seat + 1) * per]] for seat in range(s.n)]
            else:
                data["ladies"] = []
            return Move("deal", None, data)
        if s.phase == START:
            return Move("start_roll", None, {"faces": [rng.randint(1, 6) if i in s.rolling else None for i in range(s.n)]})
        if s.phase == ROLL:
            k = self._roller(s)
            faces = [rng.randint(1, 6) for _ in range(self.dice_now(s, k))]
            return Move("roll", None, {"faces": faces, "knight": self.kid(s, k)})
        return None

    # -- reading ------------------------------------------------------------------------
    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts: int = 2000) -> dict[str, Any]:
        """Estimated after every duel: tournaments played on by this game's own bots
        (``engine.evaluation.estimate_log``), beside the exact odds of each duel in the notes; luck: the wounds
        each player's knights dealt minus what their dice were expected to deal (the analysis's day notes)."""
        from ..evaluation import estimate_log
        from ..simulation import simulator_of

        def luck(steps):
            return self.luck(steps, notes or {})

        # a point after every duel (as many as the playouts allow at 8 a point)
        return estimate_log(self, events, simulator_of(self), playouts, deadline, luck=luck, points=playouts // 8,
                            key=lambda before, after: before.state.duel is not None and after.state.duel is None)

    def luck(self, steps: list[tuple[dict[str, Any], Any, Any]], notes: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
        """The analysis's luck (``analysis.analyse_log``: wounds dealt minus expected, a note at each day's end)
        as a series over the days, per seat."""
        from ..text import say

        players = list(steps[-1][2].players) if steps else []
        total = [0.0] * len(players)
        series = []
        for event, _, _ in steps:
            for note in notes.get(event["seq"], []):
                if note.get("kind") == "luck_summary" and note.get("scope", "").startswith("day"):
                    per = note["wounds_dealt_minus_expected"]
                    total = [t + per.get(name, 0.0) for t, name in zip(total, players)]
                    series.append({"seq": event["seq"], "values": [round(t, 3) for t in total]})
        return {"unit": say("wounds dealt minus expected"), "series": series,
                "final": dict(enumerate(total)) if series else {}}

    def result(self, s: State) -> Result | None:
        if s.ended is None:
            return None
        outcome, winners, reason = s.ended
        return Result(outcome, tuple(winners), self.scores(s), ended_said(reason))

    def start_player(self, log: list[dict[str, Any]]) -> int | None:
        from .. import match as M

        ms = M.replay(log)
        return ms.state.first if ms.state.first >= 0 else None

    def card_set_info(self, s: State) -> dict[str, Any]:
        return localized(C.summary(s.card_doc))  # (in English, as the views are until they speak through messages)

    def knight_view(self, s: State, k: int) -> dict[str, Any]:
        kn = s.knights[k]
        card = s.cards.knights[kn.card]
        return {
            "id": card.id, "name": card.name, "owner": kn.owner, "dice": kn.dice,
            "dice_today": self.base_dice(s, k), "penalty": kn.penalty,
            "cover": {"mounted": {str(f): kn.cover[f - 1] for f in (1, 2, 3)},
                      "foot": {str(f): kn.cover[f - 1] for f in (4, 5, 6)}},
            "red": {"mounted": {str(f): card.red[f - 1] for f in (1, 2, 3)},
                    "foot": {str(f): card.red[f - 1] for f in (4, 5, 6)}},
            "wounds": kn.wounds, "premiums": kn.premiums, "day_premiums": kn.day_premiums, "status": kn.status,
            "kerchief": self.lid(s, kn.kerchief) if kn.kerchief != -1 else None,
            "training_points": s.points[k] if s.phase == TRAIN and k < len(s.points) else 0,
            "preferences": [f"{a}:{v}" for a, v in card.prefs],
            "provenance": card.provenance,
        }

    def lady_view(self, s: State, x: int) -> dict[str, Any]:
        lady = s.ladies[x]
        card = s.cards.ladies[lady.card]
        return {"id": card.id, "name": card.name, "owner": lady.owner, "premiums": lady.premiums,
                "knight": self.kid(s, lady.knight) if lady.knight != -1 else None,
                "rejected_by": [self.kid(s, k) for k in lady.rejected],
                "attributes": {a: v for a, v in card.attrs}, "provenance": card.provenance}

    def view(self, s: State, seat: int | str | None) -> dict[str, Any]:
        # Everything on the cards lies open: every seat, the public and the referee see the same.
        duel = None
        if s.duel is not None:
            d = s.duel
            duel = {"attacker": self.kid(s, d.a), "defender": self.kid(s, d.d), "mode": d.mode,
                    "woedend": d.rerolls > 0 and d.mode == MOUNTED, "extra_dice": d.extra, "rerolls": d.rerolls,
                    "rounds": d.rounds, "deciding": d.deciding,
                    "attacker_roll": None if d.a_faces is None else list(d.a_faces),
                    # the wounds that roll put on the defender's track (already in his "wounds")
                    "attacker_hits": None if d.a_faces is None or d.dealt < 0 else d.dealt,
                    "to_roll": self.kid(s, self._roller(s)) if s.phase == ROLL else None,
                    "dice_to_roll": self.dice_now(s, self._roller(s)) if s.phase == ROLL else None,
                    "dice_to_roll_min": self.dice_least(s, self._roller(s)) if s.phase == ROLL else None}
        deck = None
        if s.phase == DEAL:  # the cards the deal chooses from, with their names (nothing is dealt yet)
            deck = {"per_player": 2 if s.n <= 5 else 1, "ladies_in_play": s.cfg.ladies,
                    "knights": [{"id": c.id, "name": c.name} for c in s.cards.knights],
                    "ladies": [{"id": c.id, "name": c.name} for c in s.cards.ladies] if s.cfg.ladies else []}
        return {
            "phase": s.phase, "day": s.day, "days": s.cfg.days,
            "start_player": s.start if s.start >= 0 else None,
            "first_start_player": s.first if s.first >= 0 else None,
            "turn": s.turn if s.phase in (PARTICIPATE, KERCHIEF, PREFER, CHALLENGE, DAY_WINNER, DUEL_PICK) else None,
            "rolling_for_start": list(s.rolling),
            "card_set": self.card_set_info(s),
            "knights": [self.knight_view(s, k) for k in range(len(s.knights))],
            "ladies": [self.lady_view(s, x) for x in range(len(s.ladies))],
            "duel": duel,
            "contest": None if s.pending is None else {"knight": self.kid(s, s.pending[0]),
                                                       "ladies": [self.lid(s, s.pending[1]), self.lid(s, s.pending[2])]},
            "tied": [self.kid(s, k) for k in s.tied] if s.phase == DAY_WINNER else list(s.tied),
            "scores": list(self.scores(s)),
            "awards": [{"card": c, "premiums": n, "reason": r} for c, n, r in s.awards],
            **({"deck": deck} if deck else {}),
        }

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        return describe_event(self, before, type, seat, data, after)

    def describe_setup(self, state: State) -> Text:
        return card_set_label(state)

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        return annotate_event(self, before, type, seat, data, after)

    def analyse_log(self, events: list[dict[str, Any]], budget: int, **limits: Any) -> dict[int, list[dict[str, Any]]] | None:
        return analyse(self, events, budget, **limits)

    def info(self) -> dict[str, Any]:
        info = super().info()
        ph = C.summary(C.placeholder_doc())
        info["data_kinds"] = {"card-sets": kind_info(self, "card-sets", ph)}
        return info

    # -- snapshots ----------------------------------------------------------------------
    def encode_state(self, s: State) -> dict[str, Any]:
        return encode(s)

    def decode_state(self, obj: dict[str, Any]) -> State:
        return decode(obj)


#: a knight's standing, as a refusal names it
_STATUS = {IDLE: say("not taking part"), FIT: say("fit"), OUT: say("beaten today"),
           ELIMINATED: say("out of the tournament")}

def ended_said(reason: str) -> Text | str:
    """How a tournament ended, as a message: the state keeps the reason in English (its snapshots hold it),
    one of the few ``_end_tournament`` and ``_deciding`` write."""
    import re

    for pattern, said in _ENDINGS:
        found = re.fullmatch(pattern, reason)
        if found:
            return said(*(int(g) for g in found.groups()))
    return reason


_ENDINGS = (
    (r"most premiums \((\d+)\)", lambda n: say("most premiums ({n})", n=n)),
    (r"tied on (\d+) premiums \(no deciding duel\)", lambda n: say("tied on {n} premiums (no deciding duel)", n=n)),
    (r"tied on (\d+); the only tied player with a knight left",
     lambda n: say("tied on {n}; the only tied player with a knight left", n=n)),
    (r"tied on (\d+); no tied player has a knight left", lambda n: say("tied on {n}; no tied player has a knight left", n=n)),
    (r"the deciding duel had no winner", lambda: say("the deciding duel had no winner")),
    (r"won the deciding duel", lambda: say("won the deciding duel")),
)


_PHASE_OF = {
    "deal": (DEAL,), "train": (TRAIN,), "start_roll": (START,), "participate": (PARTICIPATE,),
    "kerchief": (KERCHIEF,), "prefer": (PREFER,), "challenge": (CHALLENGE,), "pass": (CHALLENGE,),
    "roll": (ROLL,), "give_up": (YIELD,), "fight_on": (YIELD,), "day_winner": (DAY_WINNER,),
    "duel_knight": (DUEL_PICK,),
}
_RULE_OF = {
    "deal": P + "R1", "train": P + "R3", "start_roll": P + "R4", "participate": P + "R5", "kerchief": P + "R6",
    "prefer": P + "R6", "challenge": P + "R8", "pass": P + "R8", "roll": P + "R9", "give_up": P + "R12",
    "fight_on": P + "R12", "day_winner": P + "R18", "duel_knight": P + "R27",
}
_APPLY = {name: getattr(RidderToernooi, "_a_" + name) for name in _PHASE_OF}
