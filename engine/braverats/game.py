"""BraveRats (Blue Orange Games; Dutch edition "BraveRats"): two players, eight
cards each, simultaneous reveals, with the rules text's variants A–G.

Seat 0 is Red (the Royal Reds), seat 1 is Blue (MacBlue). See
docs/games/braverats.md for the event vocabulary and the readings chosen.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ..core import CHANCE, REFEREE, EventType, Game, InvalidOptions, MalformedEvent, Move, Result, RuleViolation, titled
from ..core import worded
from ..text import N_, Text, say, say_n
from ..primitives import HiddenHand, NotHeld, ms, ms_contains, ms_remove, ms_remove_all
from .cards import (
    ALIASES,
    CARD_IDS,
    CARD_OR_UNKNOWN_SCHEMA,
    CARD_SCHEMA,
    DECK,
    FULL_HAND,
    PRINCE,
    PRINCESS,
    NAMES,
    SEAT_ARMIES,
    SEAT_COLOURS,
    SEAT_NAMES,
    card_id,
    list_titles,
    parse_card,
    plural,
)
from .resolve import Flags, Outcome, key, outcome_table
from .rules import RULES
from . import invariants as INV
from . import scene as _scene
from .state import (
    BY_CARDS,
    BY_PRINCESS,
    BY_ROUNDS,
    CHOOSE,
    DEAL,
    DRAFT,
    DRAW,
    EXCHANGE,
    OVER,
    PLAY,
    Config,
    GameRecord,
    Round,
    Spec,
    State,
    decode,
    encode,
    evolve,
)

def _name(state: State, seat: int) -> str | Text:
    """The player at ``seat`` by name ("Ann"); by colour for a state without names."""
    names = state.cfg.names
    return names[seat] if len(names) == 2 else SEAT_NAMES[seat]


def _who(state: State, seat: int) -> Text:
    """The player at ``seat`` with their colour, "Ann (Red)", "Ann (Rood)": the rules and the
    cards' order in events ([Red's, Blue's]) speak of colours."""
    names = state.cfg.names
    return say("{name} ({colour})", name=names[seat], colour=SEAT_NAMES[seat]) if len(names) == 2 else SEAT_NAMES[seat]


VARIANTS = ("A", "B", "C", "D", "E", "F", "G")
GAME_VARIANTS = VARIANTS[:-1]  # what a game inside a series may use
INCOMPATIBLE = (("D", "E"), ("D", "F"), ("E", "F"))
SERIES_DRAW = ("replay", "counts")
#: events whose data a viewer may not (yet) see in full, and what stands for a hidden card
_SECRET_EVENTS = frozenset({"play", "pick", "draft", "draw", "deal"})
HIDDEN = "hidden"
TABLE = "table"
NO_PENDING = (None, None)


def _cards_schema(n: int, card: dict[str, Any] = CARD_SCHEMA) -> dict[str, Any]:
    return {"type": "array", "items": card, "minItems": n, "maxItems": n}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def incompatible_pairs(variants: tuple[str, ...] | list[str]) -> list[str]:
    return [f"{a}+{b}" for a, b in INCOMPATIBLE if a in variants and b in variants]


def _variant_list(variants: tuple[str, ...]) -> Text:
    if not variants:
        return say("the base game")
    return say_n(len(variants), "variant {letters}", "variants {letters}", letters=", ".join(variants))


def _round_counts(out: Outcome, r: Round) -> int:
    """How many rounds the winner of this round scored (held rounds included)."""
    return out.counts + r.held_before if out.winner is not None and not out.game else 0


def _series_wins(games: tuple[GameRecord, ...]) -> tuple[int, int]:
    return (sum(g.winner == 0 for g in games), sum(g.winner == 1 for g in games))


class BraveRats(Game):
    id = "braverats"
    name = "BraveRats"
    version = "1"
    min_players = 2
    max_players = 2
    summary = N_(
        "Two rat clans each play 8 cards (values 0–7 with special powers) in simultaneous rounds; "
        "4 won rounds, or the Princess catching the Prince, wins."
    )
    rules = RULES
    says = True
    invariant_rules = INV.INVARIANTS
    complete_moves = frozenset({"round", "play", "pick", "choose_variant"})

    def invariants(self, state: State) -> list[tuple[str, str]]:
        return INV.check(self, state)

    aliases = ALIASES

    options_schema = {
        "type": "object",
        "properties": {
            "variants": {
                "type": "array",
                "items": {"type": "string", "enum": list(VARIANTS)},
                "uniqueItems": True,
                "default": [],
                "description": N_("Variants of the rules text, A–G; with G the other letters apply to game 1."),
            },
            "princess_attack_seat": {
                "type": "integer",
                "enum": [0, 1],
                "default": 0,
                "description": N_("Variant F: the seat that gives up its Prince for the other's Princess."),
            },
            "draft_first_seat": {
                "type": "integer",
                "enum": [0, 1],
                "default": 0,
                "description": N_("Variant D: the seat that draws the first 4 cards."),
            },
            "musician_cancels_lasting_powers": {
                "type": "boolean",
                "default": True,
                "description": N_("A General or Spy played against the Musician has no effect on the next round."),
            },
            "wizard_cancels_general_bonus": {
                "type": "boolean",
                "default": True,
                "description": N_("A General played against a Wizard gives no +2 in the next round."),
            },
            "wizard_cancels_spy": {
                "type": "boolean",
                "default": True,
                "description": N_("A Spy played against a Wizard does not make the other play first next round."),
            },
            "series_draw": {
                "type": "string",
                "enum": list(SERIES_DRAW),
                "default": "replay",
                "description": N_("Variant G: a drawn game is replayed (replay) or is one of the 3 games (counts)."),
            },
        },
        "additionalProperties": False,
    }
    options_schema = titled(
        options_schema, variants=N_("Variants (A–G)"), princess_attack_seat=N_("Princess attack: who gives up the Prince"),
        draft_first_seat=N_("Draft: who draws first"), musician_cancels_lasting_powers=N_("The Musician cancels lasting powers"),
        wizard_cancels_general_bonus=N_("The Wizard cancels the General's bonus"), wizard_cancels_spy=N_("The Wizard cancels the Spy"),
        series_draw=N_("A drawn game in a series"))
    options_schema = worded(
        options_schema,
        series_draw={"replay": N_("replayed"), "counts": N_("counts as one of the 3")})
    event_titles_nl = {
        "round": "ronde",
        "play": "kaart spelen",
        "exchange": "kaarten ruilen",
        "draw": "kaarten trekken",
        "draft": "kaarten trekken om te kiezen",
        "pick": "kaart houden",
        "deal": "kaarten delen",
        "choose_variant": "varianten kiezen",
    }

    event_types = {
        "round": EventType(
            "round",
            TABLE,
            _object({"cards": _cards_schema(2)}, ["cards"]),
            N_("Both cards of a round, revealed together: [Red's card, Blue's card]."),
        ),
        "play": EventType(
            "play",
            "seat",
            _object({"card": CARD_SCHEMA}, ["card"]),
            N_("One seat commits its card face down (face up when it must play first after a Spy); "
            "the round resolves when both have played."),
        ),
        "exchange": EventType(
            "exchange",
            CHANCE,
            _object({"cards": _cards_schema(2)}, ["cards"]),
            N_("Variant A: the random card each player gives the other: [card Red gives, card Blue gives]."),
        ),
        "draw": EventType(
            "draw",
            CHANCE,
            _object(
                {
                    "cards": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": {"type": "array", "items": CARD_OR_UNKNOWN_SCHEMA, "maxItems": 3},
                    }
                },
                ["cards"],
            ),
            N_("Variant B: the cards each player draws from his pile: one list per player (Red's, then Blue's), 3 each at the "
            "start and 1 each after a round; \"unknown\" for a card the table did not see."),
        ),
        "draft": EventType(
            "draft",
            CHANCE,
            _object({"cards": _cards_schema(4)}, ["cards"]),
            N_("Variant D: the 4 cards the drafting seat draws (seat: that seat, if known)."),
        ),
        "pick": EventType(
            "pick",
            "seat",
            _object({"card": CARD_SCHEMA}, ["card"]),
            N_("Variant D: the seat keeps one card of those on offer to it."),
        ),
        "deal": EventType(
            "deal",
            CHANCE,
            _object(
                {
                    "hands": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": _cards_schema(8, CARD_OR_UNKNOWN_SCHEMA),
                    }
                },
                ["hands"],
            ),
            N_("Variant E: the 8 cards dealt to each player, one list per player (Red's, then Blue's); \"unknown\" where unseen."),
        ),
        "choose_variant": EventType(
            "choose_variant",
            "seat",
            _object(
                {
                    "variants": {
                        "type": "array",
                        "items": {"type": "string", "pattern": "^[A-Ga-g]$"},
                        "maxItems": 6,
                    },
                    "princess_attack_seat": {"type": "integer", "enum": [0, 1]},
                    "draft_first_seat": {"type": "integer", "enum": [0, 1]},
                },
                ["variants"],
            ),
            N_("Variant G: the loser of a game chooses the variants (A–F, none for the base game) of the next."),
        ),
    }

    # -- set-up ---------------------------------------------------------------------
    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        filled = dict(options)
        for name, prop in self.options_schema["properties"].items():
            filled.setdefault(name, prop["default"])
        return filled

    def check_options(self, options: dict[str, Any], players: int) -> None:
        variants = self._options(options)["variants"]
        bad = incompatible_pairs(variants)
        if bad:
            raise InvalidOptions(
                "these variants cannot be combined: " + ", ".join(bad)
                + " (D, E and F each decide the hands in their own way)",
                field="options",
                rule="braverats.variant_combinations",
            )

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> State:
        o = self._options(options)
        self.check_options(o, len(players))
        cfg = Config(
            flags=Flags(
                o["musician_cancels_lasting_powers"], o["wizard_cancels_general_bonus"], o["wizard_cancels_spy"]
            ),
            series="G" in o["variants"],
            series_draw=o["series_draw"],
            names=tuple(players),
        )
        spec = Spec(
            tuple(sorted(v for v in o["variants"] if v != "G")), o["princess_attack_seat"], o["draft_first_seat"]
        )
        return self._start_game(cfg, spec, ())

    def _start_game(self, cfg: Config, spec: Spec, games: tuple[GameRecord, ...]) -> State:
        state = State(cfg=cfg, spec=spec, phase=PLAY, games=games)
        if "D" in spec.variants:
            return evolve(state, phase=DRAFT, deck=DECK)
        if "E" in spec.variants:
            return evolve(state, phase=DEAL)
        red, blue = HiddenHand.of(FULL_HAND), HiddenHand.of(FULL_HAND)
        if "F" in spec.variants:
            attacker = spec.attack_seat
            hands = [red, blue]
            hands[attacker] = hands[attacker].remove(PRINCE)[0].receive(PRINCESS)
            hands[1 - attacker] = hands[1 - attacker].remove(PRINCESS)[0].receive(PRINCE)
            red, blue = hands
        return self._after_deal(evolve(state, hands=(red, blue)))

    def _after_deal(self, state: State) -> State:
        if "A" in state.spec.variants:
            return evolve(state, phase=EXCHANGE)
        return self._after_exchange(state)

    def _after_exchange(self, state: State) -> State:
        if "B" in state.spec.variants:
            return evolve(state, phase=DRAW, hands=(state.hands[0].to_pile(), state.hands[1].to_pile()))
        return evolve(state, phase=PLAY)

    # -- who acts -------------------------------------------------------------------
    def actors(self, state: State) -> tuple[Any, ...]:
        phase = state.phase
        if phase == PLAY:
            p0, p1 = state.pending
            if p0 is None and p1 is None:
                first = state.spy_first
                return (0, 1, TABLE) if first is None else (first, TABLE)
            return (1,) if p1 is None else (0,)
        if phase == DRAFT:
            picker = state.picker
            return (CHANCE,) if picker is None else (picker,)
        if phase == CHOOSE:
            return (state.chooser,)
        if phase == OVER:
            return ()
        return (CHANCE,)  # deal, exchange, draw

    # -- normalize ------------------------------------------------------------------
    def normalize(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        try:
            if type in ("round", "exchange"):
                a, b = data["cards"]
                return {"cards": [CARD_IDS[parse_card(a, "cards[0]")], CARD_IDS[parse_card(b, "cards[1]")]]}
            if type in ("play", "pick"):
                return {"card": CARD_IDS[parse_card(data["card"], "card")]}
            if type == "draft":
                return {"cards": self._sorted_ids(data["cards"], "cards", False)}
            if type == "draw":
                return {"cards": [self._sorted_ids(data["cards"][s], f"cards[{s}]", True) for s in (0, 1)]}
            if type == "deal":
                return {"hands": [self._sorted_ids(data["hands"][s], f"hands[{s}]", True) for s in (0, 1)]}
            if type == "choose_variant":
                return self._normalize_choice(data)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise MalformedEvent(say("invalid {type} data: {error}", type=type, error=repr(exc)), field="data") from None
        raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")

    @staticmethod
    def _sorted_ids(values: list[Any], field: str, allow_unknown: bool) -> list[str]:
        cards = [parse_card(v, f"{field}[{i}]", allow_unknown) for i, v in enumerate(values)]
        known = sorted(c for c in cards if c is not None)
        return [CARD_IDS[c] for c in known] + [card_id(None)] * (len(cards) - len(known))

    @staticmethod
    def _normalize_choice(data: dict[str, Any]) -> dict[str, Any]:
        letters = [v.upper() for v in data["variants"]]
        if len(set(letters)) != len(letters):
            raise MalformedEvent(say("variants: a letter is given twice in {variants}", variants=repr(data["variants"])),
                                 field="variants")
        out: dict[str, Any] = {"variants": sorted(letters)}
        for name in ("princess_attack_seat", "draft_first_seat"):
            if name in data:
                out[name] = data[name]
        return out

    # -- apply ----------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        handler = _HANDLERS.get(type)
        if handler is None:
            raise MalformedEvent(say("unknown event type {type} for {game}", type=repr(type), game=self.name), field="type")
        return handler(self, state, seat, data)

    def _phase_error(self, state: State, wanted: str) -> RuleViolation:
        phase = state.phase
        what = _WHAT[wanted]
        if phase == OVER:
            return RuleViolation("braverats.win", say("the game is over; no {what} can follow", what=what))
        if phase == CHOOSE:
            return RuleViolation(
                "braverats.variant_g",
                say("game {lost} is over: {who}, who lost it, first chooses the variants of game {next}; "
                    "no {what} now", lost=state.game_no - 1, who=_who(state, state.chooser),
                    next=state.game_no, what=what),
            )
        if phase == DRAW and state.rounds:
            return RuleViolation(
                "braverats.variant_b",
                say("after a round each player first draws 1 card; no {what} now", what=what)
            )
        step = {
            DRAFT: say("the draft (variant D)"),
            DEAL: say("the deal (variant E)"),
            EXCHANGE: say("the traitor's exchange (variant A)"),
            DRAW: say("the first draw of 3 cards (variant B)"),
            PLAY: say("the rounds"),
        }[phase]
        rule = {"draft": "braverats.variant_d", "pick": "braverats.variant_d"}.get(wanted, "braverats.setup_order")
        return RuleViolation(rule, say("no {what} now: the match is at {step}", what=what, step=step))

    def _take(self, state: State, seat: int, card: int, hands: list[HiddenHand], pool: tuple[int, ...]) -> tuple[int, ...]:
        """Remove a played card from ``hands[seat]`` (in place in the list); return the pool."""
        try:
            hands[seat], pool = hands[seat].remove(card, pool)
        except NotHeld:
            raise RuleViolation("braverats.card_in_hand", self._not_in_hand(state, seat, card, hands[seat], pool)) from None
        return pool

    def _not_in_hand(self, state: State, seat: int, card: int, hand: HiddenHand, pool: tuple[int, ...]) -> Text:
        who = _name(state, seat)
        if hand.unknown:
            held = say("{name}'s hand holds {seen} (seen) and {unseen}, so the cards {name} can play are {playable}",
                       name=who, seen=list_titles(hand.known), playable=list_titles(hand.candidates(pool)),
                       unseen=say_n(hand.unknown, "{n} unseen card", "{n} unseen cards"))
        else:
            held = say("the cards still in {name}'s hand are {cards}", name=who, cards=list_titles(hand.known))
        msg = say("{who} has no {card} left in hand; {held}", who=_who(state, seat), card=NAMES[card], held=held)
        earlier = [i + 1 for i, r in enumerate(state.rounds) if r.cards[seat] == card]
        if earlier:
            msg = say("{msg} ({name} played the {card} in round {rounds})", msg=msg, name=who, card=NAMES[card],
                      rounds=earlier)
        return msg

    def _apply_round(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            raise self._phase_error(state, "round")
        if state.pending != NO_PENDING:
            who = _who(state, 0 if state.pending[0] is not None else 1)
            raise RuleViolation(
                "braverats.one_card_per_round",
                say("{who} has already played a card face down this round; enter the other card on its own, "
                    "not a whole round", who=who),
            )
        c0 = parse_card(data["cards"][0], "cards[0]")
        c1 = parse_card(data["cards"][1], "cards[1]")
        hands = list(state.hands)
        pool = self._take(state, 0, c0, hands, state.pool)
        pool = self._take(state, 1, c1, hands, pool)
        return self._resolve(state, c0, c1, hands, pool)

    def _apply_play(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            raise self._phase_error(state, "play")
        if seat not in (0, 1):
            raise MalformedEvent(say("a card played needs the seat (0 or 1) that plays it"), field="seat")
        pending = state.pending
        if pending[seat] is not None:
            raise RuleViolation(
                "braverats.one_card_per_round",
                say("{who} has already played a card this round; wait for {other}'s card", who=_who(state, seat),
                    other=_name(state, 1 - seat)),
            )
        first = state.spy_first
        if first is not None and first != seat and pending[first] is None:
            raise RuleViolation(
                "braverats.spy_order",
                say("{spy} played an effective Spy last round, so {first} plays first, face up, this round; {name} "
                    "chooses only after that", spy=_who(state, 1 - first), first=_who(state, first),
                    name=_name(state, seat)),
            )
        card = parse_card(data["card"], "card")
        hands = list(state.hands)
        pool = self._take(state, seat, card, hands, state.pool)
        other = pending[1 - seat]
        if other is None:
            played = (card, None) if seat == 0 else (None, card)
            return evolve(state, hands=tuple(hands), pool=pool, pending=played)
        c0, c1 = (card, other) if seat == 0 else (other, card)
        return self._resolve(state, c0, c1, hands, pool)

    def _resolve(self, state: State, c0: int, c1: int, hands: list[HiddenHand], pool: tuple[int, ...]) -> State:
        b0, b1 = state.bonus
        out = outcome_table(state.cfg.flags)[key(c0, c1, b0, b1)]
        rounds = state.rounds + (Round((c0, c1), (b0, b1), state.held),)
        score, held = state.score, state.held
        w = out.winner
        base = dict(hands=tuple(hands), pool=pool, rounds=rounds, pending=NO_PENDING)
        if out.game:
            return self._end_game(evolve(state, **base), w, BY_PRINCESS)
        if w is None:
            held += 1
        else:
            score = (score[0] + out.counts + held, score[1]) if w == 0 else (score[0], score[1] + out.counts + held)
            held = 0
        after = evolve(state, score=score, held=held, bonus=out.bonus, spy_first=out.spy_first, **base)
        if w is not None and score[w] >= state.spec.target:
            return self._end_game(after, w, BY_ROUNDS)
        h0, h1 = hands
        if not (h0.size or h0.pile or h1.size or h1.pile):
            return self._end_game(after, None, BY_CARDS)
        if h0.pile or h1.pile:
            return evolve(after, phase=DRAW)
        return after

    def _end_game(self, state: State, winner: int | None, reason: str) -> State:
        state = evolve(
            state, ended=(winner, reason), bonus=(False, False), spy_first=None, pending=NO_PENDING
        )
        cfg = state.cfg
        if not cfg.series:
            return evolve(state, phase=OVER)
        games = state.games + (GameRecord(winner, state.score, reason, state.spec.variants, state.rounds),)
        wins = _series_wins(games)
        if max(wins) >= 2 or (cfg.series_draw == "counts" and len(games) >= 3):
            return evolve(state, games=games, phase=OVER)
        if winner is None:
            return self._start_game(cfg, state.spec, games)
        return evolve(state, games=games, phase=CHOOSE, chooser=1 - winner)

    def _apply_draw(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAW:
            raise self._phase_error(state, "draw")
        n = 1 if state.rounds else 3
        hands = list(state.hands)
        pool = state.pool
        for s in (0, 1):
            drawn = [parse_card(c, f"cards[{s}]", allow_unknown=True) for c in data["cards"][s]]
            want = min(n, hands[s].pile)
            if len(drawn) != want:
                raise RuleViolation(
                    "braverats.variant_b",
                    say_n(want, "{who} draws {n} card now ({when}, {left} left in the pile), not {drawn}",
                          "{who} draws {n} cards now ({when}, {left} left in the pile), not {drawn}",
                          who=_who(state, s), left=hands[s].pile, drawn=len(drawn),
                          when=say("3 at the start") if n == 3 else say("1 after each round")),
                )
            for card in drawn:
                try:
                    hands[s], pool = hands[s].draw(card, pool)
                except NotHeld:
                    left = hands[s].pile_candidates(pool)
                    raise RuleViolation(
                        "braverats.variant_b",
                        say("{who}'s draw pile cannot hold a {card}: the cards it can still hold are {cards}",
                            who=_who(state, s), card=NAMES[card], cards=list_titles(left)),
                    ) from None
        return evolve(state, phase=PLAY, hands=tuple(hands), pool=pool)

    def _apply_exchange(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != EXCHANGE:
            raise self._phase_error(state, "exchange")
        given = [parse_card(c, f"cards[{s}]") for s, c in enumerate(data["cards"])]
        hands = list(state.hands)
        pool = state.pool
        for s in (0, 1):
            try:
                hands[s], pool = hands[s].remove(given[s], pool)
            except NotHeld:
                hand = state.hands[s]
                known = list_titles(hand.known)
                raise RuleViolation(
                    "braverats.variant_a",
                    say("{who} has no {card} to give; {name}'s hand is {cards}", who=_who(state, s),
                        card=NAMES[given[s]], name=_name(state, s),
                        cards=say("{known} and {unseen}", known=known,
                                  unseen=say_n(hand.unknown, "{n} unseen card", "{n} unseen cards"))
                        if hand.unknown else known),
                ) from None
        hands = [hands[0].receive(given[1]), hands[1].receive(given[0])]
        return self._after_exchange(evolve(state, hands=tuple(hands), pool=pool))

    def _apply_deal(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DEAL:
            raise self._phase_error(state, "deal")
        dealt = [[parse_card(c, f"hands[{s}]", allow_unknown=True) for c in data["hands"][s]] for s in (0, 1)]
        known = [ms(c for c in cards if c is not None) for cards in dealt]
        if any(len(cards) != 8 for cards in dealt):
            raise RuleViolation("braverats.variant_e", say("each player is dealt exactly 8 cards"))
        named = ms((*known[0], *known[1]))
        if not ms_contains(DECK, named):
            extra = sorted({c for c in named if named.count(c) > 2})
            raise RuleViolation(
                "braverats.variant_e",
                say("the deal names {cards}; the 16 cards hold two of each",
                    cards=[plural(c, named.count(c)) for c in extra]),
            )
        hands = tuple(HiddenHand.dealt(known[s], 8 - len(known[s])) for s in (0, 1))
        return self._after_deal(evolve(state, hands=hands, pool=ms_remove_all(DECK, named)))

    def _apply_draft(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAFT:
            raise self._phase_error(state, "draft")
        if state.offer:
            raise RuleViolation(
                "braverats.variant_d", say("{who} must first pick from the cards on offer", who=_who(state, state.picker))
            )
        drafter = state.drafter
        if seat is not None and seat != drafter:
            raise RuleViolation(
                "braverats.variant_d",
                say("{drafter} draws these 4 cards, not {who}", drafter=_who(state, drafter), who=_who(state, seat))
            )
        cards = ms(parse_card(c, f"cards[{i}]") for i, c in enumerate(data["cards"]))
        try:
            deck = ms_remove_all(state.deck, cards)
        except ValueError:
            raise RuleViolation(
                "braverats.variant_d",
                say("the face-down stack cannot hold {cards}: the {n} cards left there are {left}",
                    cards=list_titles(cards), n=len(state.deck), left=list_titles(state.deck)),
            ) from None
        return evolve(state, deck=deck, offer=cards)

    def _apply_pick(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAFT or not state.offer:
            if state.phase == DRAFT:
                raise RuleViolation("braverats.variant_d", say("no cards are on offer; 4 cards must be drawn first"))
            raise self._phase_error(state, "pick")
        picker = state.picker
        if seat != picker:
            raise RuleViolation(
                "braverats.variant_d",
                say("the cards on offer are {picker}'s to pick from, not {who}'s", picker=_who(state, picker),
                    who=_who(state, seat)),
            )
        card = parse_card(data["card"], "card")
        if card not in state.offer:
            raise RuleViolation(
                "braverats.variant_d",
                say("{who} can only keep one of the cards on offer ({offer}), not a {card}", who=_who(state, seat),
                    offer=list_titles(state.offer), card=NAMES[card]),
            )
        hands = list(state.hands)
        hands[seat] = hands[seat].receive(card)
        offer = ms_remove(state.offer, card)
        if len(offer) == 1:  # the last card goes to the other player
            other = 1 - state.drafter
            hands[other] = hands[other].receive(offer[0])
            offer = ()
        after = evolve(state, hands=tuple(hands), offer=offer)
        if not offer and not state.deck:
            return self._after_deal(after)
        return after

    def _apply_choose(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != CHOOSE:
            if not state.cfg.series:
                raise RuleViolation("braverats.variant_g",
                                    say("variants are chosen between the games of a series (G) only"))
            raise RuleViolation("braverats.variant_g",
                                say("the variants are chosen only after a game of the series is lost"))
        if seat != state.chooser:
            raise RuleViolation(
                "braverats.variant_g",
                say("{chooser} lost game {game} and chooses the next variants, not {who}",
                    chooser=_who(state, state.chooser), game=state.game_no - 1,
                    who=_who(state, seat) if seat in (0, 1) else str(seat)),
            )
        variants = tuple(sorted(v.upper() for v in data["variants"]))
        if "G" in variants:
            raise RuleViolation(
                "braverats.variant_g", say("G is the series itself and cannot be chosen for a game inside it")
            )
        bad = incompatible_pairs(variants)
        if bad:
            raise RuleViolation("braverats.variant_combinations",
                                say("these variants cannot be combined: {pairs}", pairs=", ".join(bad)))
        spec = Spec(
            variants,
            data.get("princess_attack_seat", state.spec.attack_seat),
            data.get("draft_first_seat", state.spec.draft_first),
        )
        return self._start_game(state.cfg, spec, state.games)

    # -- moves ----------------------------------------------------------------------
    def table_moves_hidden(self, state: State) -> bool:
        """A round's moves list both hands: secret when a seat's hand is (B, D, E)."""
        return state.phase != OVER and any(h["cards"] is None for h in self.view(state, None).get("hands", ()))

    def legal_moves(self, state: State, seat: int | None) -> list[Move]:
        actors = self.actors(state)
        if state.phase == PLAY:
            if seat is None:
                if TABLE not in actors:
                    return []
                pool = state.pool
                return [
                    Move("round", None, {"cards": [CARD_IDS[a], CARD_IDS[b]]})
                    for a in state.hands[0].candidates(pool)
                    for b in state.hands[1].candidates(pool)
                ]
            if seat not in actors:
                return []
            return [Move("play", seat, {"card": CARD_IDS[c]}) for c in state.hands[seat].candidates(state.pool)]
        if state.phase == DRAFT and seat is not None and seat == state.picker:
            return [Move("pick", seat, {"card": CARD_IDS[c]}) for c in sorted(set(state.offer))]
        if state.phase == CHOOSE and seat == state.chooser:
            return [Move("choose_variant", seat, {"variants": list(v)}) for v in _GAME_CHOICES]
        return []

    def chance_outcome(self, state: State, rng: random.Random) -> Move | None:
        phase = state.phase
        if phase == DRAFT and not state.offer:
            cards = ms(rng.sample(state.deck, 4))
            return Move("draft", state.drafter, {"cards": [CARD_IDS[c] for c in cards]})
        if phase == DEAL:
            deck = list(DECK)
            rng.shuffle(deck)
            return Move("deal", None, {"hands": [[CARD_IDS[c] for c in ms(deck[:8])], [CARD_IDS[c] for c in ms(deck[8:])]]})
        # In a simulated match every card is seen, so a hand is its known cards and a
        # pile is exactly the seat's ``own`` cards.
        if phase == EXCHANGE:
            given = [rng.choice(h.known) for h in state.hands]
            return Move("exchange", None, {"cards": [CARD_IDS[c] for c in given]})
        if phase == DRAW:
            n = 1 if state.rounds else 3
            drawn = [[CARD_IDS[c] for c in ms(rng.sample(h.own, min(n, h.pile)))] for h in state.hands]
            return Move("draw", None, {"cards": drawn})
        return None

    # -- reading --------------------------------------------------------------------
    def start_player(self, log: list[dict[str, Any]]) -> int | None:
        """Nobody starts: both players reveal each round's card at once."""
        return None

    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts=None) -> dict[str, Any]:
        """Exact: every round where both hands are known is a matrix game solved by linear programming
        (``equilibrium``; imported here only, so the page's engine needs no LP solver)."""
        from .equilibrium import evaluate

        return evaluate(events, tables)

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        if state.cfg.series:
            wins = _series_wins(state.games)
            if wins[0] == wins[1]:
                return Result("draw", (), wins, self._series_reason(state))
            return Result("win", (0 if wins[0] > wins[1] else 1,), wins, self._series_reason(state))
        winner, reason = state.ended  # type: ignore[misc]
        text = self._game_reason(state, winner, reason)
        if winner is None:
            return Result("draw", (), state.score, text)
        return Result("win", (winner,), state.score, text)

    @staticmethod
    def _series_reason(state: State) -> Text:
        wins = _series_wins(state.games)
        n = len(state.games)
        if wins[0] == wins[1]:
            return say("the series ends {a}–{b} after {n} games: no true ruler", a=wins[0], b=wins[1], n=n)
        w = 0 if wins[0] > wins[1] else 1
        return say("{who} wins the series {won}–{lost} and is the true ruler", who=_who(state, w), won=wins[w],
                   lost=wins[1 - w])

    def _game_reason(self, state: State, winner: int | None, reason: str) -> Text:
        a, b = state.score
        if reason == BY_PRINCESS:
            return say("{winner}'s Princess caught {loser}'s Prince in round {round}", winner=_who(state, winner),
                       loser=_who(state, 1 - winner), round=len(state.rounds))
        if reason == BY_ROUNDS:
            return say_n(state.score[winner], "{who} won {n} round ({a}–{b})", "{who} won {n} rounds ({a}–{b})",
                         who=_who(state, winner), a=a, b=b)
        return say("no cards left and nobody won {target} rounds ({a}–{b}): a draw", target=state.spec.target, a=a, b=b)

    def view(self, state: State, seat: int | str | None) -> dict[str, Any]:
        referee = seat == REFEREE
        hidden = state.spec.hands_hidden
        b_variant = "B" in state.spec.variants
        hands = []
        for s, h in enumerate(state.hands):
            show = referee or seat == s or not hidden
            known, count = h.known, h.size
            face_down = state.pending[s]
            if face_down is not None and not referee and seat != s and state.spy_first != s:
                # Until it is turned up, a face-down card is still "in the hand"
                # for everyone else: showing the hand without it would name it.
                known, count = tuple(sorted((*known, face_down))), count + 1
            entry: dict[str, Any] = {
                "seat": s,
                "colour": SEAT_COLOURS[s],
                "army": SEAT_ARMIES[s],
                "count": count,
                "cards": [CARD_IDS[c] for c in known] if show else None,
                "unseen": h.unknown if show else None,
            }
            if b_variant:
                entry["pile"] = h.pile
            if referee:
                entry["unseen_from"] = [CARD_IDS[c] for c in h.own]
                entry["unseen_from_pool"] = h.shared
            hands.append(entry)
        table = []
        for s, card in enumerate(state.pending):
            face_up = card is not None and state.spy_first == s
            visible = card is not None and (referee or seat == s or face_up)
            table.append({"seat": s, "played": card is not None, "face_up": face_up, "card": CARD_IDS[card] if visible else None})
        table_ = outcome_table(state.cfg.flags)
        view: dict[str, Any] = {
            "phase": state.phase,
            "variants": list(state.spec.variants),
            "target": state.spec.target,
            "round": len(state.rounds) + (0 if state.ended else 1),
            "score": list(state.score),
            "held": state.held,
            "general_bonus": list(state.bonus),
            "spy_first": state.spy_first,
            "hands_hidden": hidden,
            "hands": hands,
            "table": table,
            "rounds": self._rounds_view(table_, state.rounds, state.ended),
            "game_over": None
            if state.ended is None
            # (in English until the scenes speak through messages too)
            else {"winner": state.ended[0], "reason": str(self._game_reason(state, *state.ended))},
        }
        if "F" in state.spec.variants:
            view["princess_attack_seat"] = state.spec.attack_seat
        if state.phase == DRAFT or "D" in state.spec.variants:
            picker = state.picker
            view["draft"] = {
                "deck": len(state.deck),
                "drafter": state.drafter if state.phase == DRAFT else None,
                "picker": picker,
                "offer_count": len(state.offer),
                "offer": [CARD_IDS[c] for c in state.offer] if (referee or (picker is not None and seat == picker)) else None,
            }
            if referee:
                view["draft"]["deck_cards"] = [CARD_IDS[c] for c in state.deck]
        if referee:
            view["unseen_pool"] = [CARD_IDS[c] for c in state.pool]
        if state.cfg.series:
            view["series"] = {
                "game": state.game_no,
                "games_won": list(_series_wins(state.games)),
                "games": [
                    {
                        "game": i + 1,
                        "winner": g.winner,
                        "score": list(g.score),
                        "reason": g.reason,
                        "variants": list(g.variants),
                        "rounds": self._rounds_view(table_, g.rounds, (g.winner, g.reason)),
                    }
                    for i, g in enumerate(state.games)
                ],
                "chooser": state.chooser if state.phase == CHOOSE else None,
                "draw_rule": state.cfg.series_draw,
            }
        return view

    @staticmethod
    def _rounds_view(
        table: tuple[Outcome, ...], rounds: tuple[Round, ...], ended: tuple[int | None, str] | None
    ) -> list[dict[str, Any]]:
        """``ended``: (winner, reason) once the game of these rounds is over;
        its last round is the one that won it (when somebody did)."""
        won_by_last = ended is not None and ended[0] is not None
        out = []
        for i, r in enumerate(rounds):
            o = table[key(r.cards[0], r.cards[1], r.bonus[0], r.bonus[1])]
            out.append(
                {
                    "round": i + 1,
                    "cards": [CARD_IDS[r.cards[0]], CARD_IDS[r.cards[1]]],
                    "bonus": list(r.bonus),
                    "winner": o.winner,
                    "wins_game": o.game or (won_by_last and i == len(rounds) - 1),
                    "counts": _round_counts(o, r),
                    "held_before": r.held_before,
                    "powers": list(o.powers),
                    "why": o.why,  # a Text: said in the reader's language at the edge
                }
            )
        return out

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> Any:
        return _scene.scene(view, moves)

    # -- the log as a viewer may see it -----------------------------------------------
    def event_view(self, state: State, event: dict[str, Any], viewer: int | str | None) -> dict[str, Any]:
        """Hide the cards of a logged event that ``viewer`` has not seen.

        ``play``: a seat's own plays are always shown to it. Another seat's play
        is shown once its card is on the table for all: played in a resolved
        round (of any game of the series) or face up after a Spy. While a seat
        has a card face down, all its plays are hidden, so which one is pending
        cannot be told. ``pick``, ``draft``, ``draw`` and ``deal``: each seat
        sees only its own cards (a draft event entered with seat null is seen
        by nobody). When the match is over every event is shown.
        """
        type_ = event["type"]
        if type_ not in _SECRET_EVENTS or state.phase == OVER:
            return event
        data, seat = event["data"], event["seat"]
        if type_ == "play":
            if viewer == seat or self._play_shown(state, seat, data["card"]):
                return event
            hidden: dict[str, Any] = {"card": HIDDEN}
        elif type_ in ("pick", "draft"):
            if viewer == seat:
                return event
            hidden = {"cards": [HIDDEN] * len(data["cards"])} if type_ == "draft" else {"card": HIDDEN}
        else:
            field = "cards" if type_ == "draw" else "hands"
            hidden = {field: [cards if viewer == s else [HIDDEN] * len(cards) for s, cards in enumerate(data[field])]}
        return {**event, "data": hidden, "redacted": True}

    @staticmethod
    def _play_shown(state: State, seat: int, card: str) -> bool:
        pending = state.pending[seat]
        if pending is not None and state.spy_first != seat:
            return False
        c = parse_card(card, "card")
        if c == pending:
            return True
        return any(r.cards[seat] == c for r in state.rounds) or any(
            r.cards[seat] == c for g in state.games for r in g.rounds
        )

    # -- describing -----------------------------------------------------------------
    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> Text:
        """One line per event, said in the reader's language with the rules text's names."""
        resolved = self._resolved_round(before, type, after)
        if resolved is not None:
            return self._round_text(before, after, *resolved)
        who = lambda s: _who(before, s)  # noqa: E731
        if type == "play":
            if before.spy_first == seat:
                return say("{who} plays the {card} first, face up (Spy)", who=who(seat),
                           card=NAMES[parse_card(data['card'], 'card')])
            return say("{who} plays a card face down", who=who(seat))
        if type == "draw":
            return say_n(len(data["cards"][0]), "Each player draws {n} card from his pile",
                         "Each player draws {n} cards from his pile")
        if type == "draft":
            return say("{who} draws 4 cards for the draft", who=who(before.drafter))
        if type == "pick":
            left = len(before.offer) - 1
            other = _name(before, 1 - seat)
            if left == 1:
                return say("{who} keeps a card; the last card goes to {other}", who=who(seat), other=other)
            return say("{who} keeps a card and passes {left} to {other}", who=who(seat), left=left, other=other)
        if type == "deal":
            return say("The 16 cards are shuffled and each player is dealt 8")
        if type == "exchange":
            r, b = (NAMES[CARD_IDS.index(c)] for c in data["cards"])
            return say("The traitor: {red} gives the {card0} to {name1} and {blue} gives the {card1} to {name0}",
                       red=who(0), card0=r, name1=_name(before, 1), blue=who(1), card1=b, name0=_name(before, 0))
        if type == "choose_variant":
            return say("{who}, who lost game {lost}, chooses {variants} for game {next}", who=who(seat),
                       lost=before.game_no - 1, variants=_variant_list(tuple(data["variants"])), next=before.game_no)
        return say("{type}", type=type)

    @staticmethod
    def _resolved_round(before: State, type: str, after: State) -> tuple[int, Round, Outcome] | None:
        """(round index, round, outcome) when this event resolved a round."""
        if type not in ("round", "play"):
            return None
        if len(after.games) > len(before.games):  # it ended a game of a series (which may have restarted)
            r = after.games[-1].rounds[-1]
        elif len(after.rounds) > len(before.rounds):
            r = after.rounds[-1]
        else:
            return None
        out = outcome_table(before.cfg.flags)[key(r.cards[0], r.cards[1], r.bonus[0], r.bonus[1])]
        return len(before.rounds), r, out

    def _round_text(self, before: State, after: State, i: int, r: Round, out: Outcome) -> Text:
        c0, c1 = r.cards
        name = lambda s: _name(before, s)  # noqa: E731
        why = out.why
        for s in (0, 1):  # the outcome table names seats by colour; the review by name
            why = why.replaced(say("{who} +2 from the General", who=SEAT_NAMES[s]),
                               say("{who} +2 from the General", who=name(s)))
        w = out.winner
        if out.game:
            result = say("{name} wins the game", name=name(w))
        elif w is None:
            result = say_n(r.held_before + 1, "{n} round on hold", "{n} rounds on hold")
        else:
            total = out.counts + r.held_before
            result = say("{name} wins the round", name=name(w)) if total == 1 else \
                say("{name} wins {n} rounds", name=name(w), n=total)
            if r.held_before:
                result = say("{result} (with {held} held)", result=result, held=r.held_before)
        text = say("Round {round}: {red} {card0} vs {blue} {card1} — {why}: {result}", round=i + 1,
                   red=_who(before, 0), card0=NAMES[c0], blue=_who(before, 1), card1=NAMES[c1], why=why, result=result)
        ended = self._ended_game(before, after)
        if ended is not None:
            winner, reason, score = ended
            if reason == BY_ROUNDS:
                text = say("{text}; {name} wins the game {won}–{lost}", text=text, name=name(winner),
                           won=score[winner], lost=score[1 - winner])
            elif reason == BY_CARDS:
                text = say("{text}; no cards left: the game is a draw ({a}–{b})", text=text, a=score[0], b=score[1])
            if after.cfg.series:
                a, b = _series_wins(after.games)
                text = say("{text}; series {a}–{b}", text=text, a=a, b=b)
                if after.phase == OVER:
                    text = say("{text}: {series}", text=text, series=self._series_reason(after))
        else:
            for carried in self._carries_text(before, out):
                text = say("{first}; {then}", first=text, then=carried)
        return text

    @staticmethod
    def _carries_text(state: State, out: Outcome) -> list[Text]:
        parts = [say("{name} +2 next round (General)", name=_name(state, s)) for s in (0, 1) if out.bonus[s]]
        if out.spy_first is not None:
            parts.append(say("{name} plays first next round (Spy)", name=_name(state, out.spy_first)))
        return parts

    @staticmethod
    def _ended_game(before: State, after: State) -> tuple[int | None, str, tuple[int, int]] | None:
        if len(after.games) > len(before.games):
            g = after.games[-1]
            return g.winner, g.reason, g.score
        if after.ended is not None and before.ended is None:
            return after.ended[0], after.ended[1], after.score
        return None

    def annotate(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> list[dict[str, Any]]:
        resolved = self._resolved_round(before, type, after)
        if resolved is None:
            return []
        i, r, out = resolved
        game_over = self._ended_game(before, after)
        ended = game_over is not None
        held_after = 0 if (ended or out.winner is not None) else r.held_before + 1
        return [
            {
                "kind": "round",
                "round": i + 1,
                "text": self._round_text(before, after, i, r, out),
                "cards": [CARD_IDS[r.cards[0]], CARD_IDS[r.cards[1]]],
                "winner": out.winner,
                # the round that won the game: a Princess catching the Prince,
                # or the round that brought its winner to the target
                "wins_game": out.game or (ended and game_over[0] is not None),
                "powers": list(out.powers),
                "counts_as": _round_counts(out, r),
                "held_before": r.held_before,
                "carries": {
                    "general_bonus": [] if ended else [s for s in (0, 1) if out.bonus[s]],
                    "spy_reveal_first": None if ended else out.spy_first,
                    "held": held_after,
                },
            }
        ]

    # -- snapshots ------------------------------------------------------------------
    def encode_state(self, state: State) -> dict[str, Any]:
        return encode(state)

    def decode_state(self, obj: dict[str, Any]) -> State:
        return decode(obj)


#: each event type as a refusal names it ("no card play now")
_WHAT = {"round": say("round"), "play": say("card play"), "draw": say("draw"), "exchange": say("exchange"),
         "deal": say("deal"), "draft": say("draft draw"), "pick": say("pick")}

_HANDLERS = {
    "round": BraveRats._apply_round,
    "play": BraveRats._apply_play,
    "exchange": BraveRats._apply_exchange,
    "draw": BraveRats._apply_draw,
    "draft": BraveRats._apply_draft,
    "pick": BraveRats._apply_pick,
    "deal": BraveRats._apply_deal,
    "choose_variant": BraveRats._apply_choose,
}

#: every set of variants a loser may choose in a series (32 sets)
_GAME_CHOICES = tuple(
    combo
    for n in range(len(GAME_VARIANTS) + 1)
    for combo in combinations(GAME_VARIANTS, n)
    if not incompatible_pairs(combo)
)
