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
from ..core import titled_nl, worded_nl
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
    SEAT_ARMIES,
    SEAT_COLOURS,
    SEATS,
    SEATS_NL,
    TITLES,
    TITLES_NL,
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

def _name(state: State, seat: int, nl: bool = False) -> str:
    """The player at ``seat`` by name ("Ann"); by colour for a state without names."""
    names = state.cfg.names
    return names[seat] if len(names) == 2 else (SEATS_NL if nl else SEATS)[seat]


def _who(state: State, seat: int, nl: bool = False) -> str:
    """The player at ``seat`` with their colour, "Ann (Red)", "Ann (Rood)": the rules and the
    cards' order in events ([Red's, Blue's]) speak of colours."""
    names = state.cfg.names
    colour = (SEATS_NL if nl else SEATS)[seat]
    return f"{names[seat]} ({colour})" if len(names) == 2 else colour


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


def _variant_list(variants: tuple[str, ...], nl: bool = False) -> str:
    if not variants:
        return "het basisspel" if nl else "the base game"
    if nl:
        return "variant" + ("en " if len(variants) > 1 else " ") + ", ".join(variants)
    return "variant" + ("s " if len(variants) > 1 else " ") + ", ".join(variants)


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
    summary = (
        "Two rat clans each play 8 cards (values 0–7 with special powers) in simultaneous rounds; "
        "4 won rounds, or the Princess catching the Prince, wins."
    )
    rules = RULES
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
                "description": "Variants of the rules text, A–G; with G the other letters apply to game 1.",
            },
            "princess_attack_seat": {
                "type": "integer",
                "enum": [0, 1],
                "default": 0,
                "description": "Variant F: the seat that gives up its Prince for the other's Princess.",
            },
            "draft_first_seat": {
                "type": "integer",
                "enum": [0, 1],
                "default": 0,
                "description": "Variant D: the seat that draws the first 4 cards.",
            },
            "musician_cancels_lasting_powers": {
                "type": "boolean",
                "default": True,
                "description": "A General or Spy played against the Musician has no effect on the next round.",
            },
            "wizard_cancels_general_bonus": {
                "type": "boolean",
                "default": True,
                "description": "A General played against a Wizard gives no +2 in the next round.",
            },
            "wizard_cancels_spy": {
                "type": "boolean",
                "default": True,
                "description": "A Spy played against a Wizard does not make the other play first next round.",
            },
            "series_draw": {
                "type": "string",
                "enum": list(SERIES_DRAW),
                "default": "replay",
                "description": "Variant G: a drawn game is replayed (replay) or is one of the 3 games (counts).",
            },
        },
        "additionalProperties": False,
    }
    options_schema = titled(
        options_schema, variants="Variants (A–G)", princess_attack_seat="Princess attack: who gives up the Prince",
        draft_first_seat="Draft: who draws first", musician_cancels_lasting_powers="The Musician cancels lasting powers",
        wizard_cancels_general_bonus="The Wizard cancels the General's bonus", wizard_cancels_spy="The Wizard cancels the Spy",
        series_draw="A drawn game in a series")
    # the pages in Dutch (docs/ui.md, "Languages"): the options, the summary and the moves in the rules text's words
    options_schema = titled_nl(
        options_schema,
        variants="Varianten (A–G)",
        princess_attack_seat="Prinsesaanval: wie de Prins opgeeft",
        draft_first_seat="Kaarten kiezen: wie eerst trekt",
        musician_cancels_lasting_powers="De Muzikant heft blijvende eigenschappen op",
        wizard_cancels_general_bonus="De Tovenaar heft de bonus van de Generaal op",
        wizard_cancels_spy="De Tovenaar heft de Spion op",
        series_draw="Een gelijkspel in een reeks")
    options_schema = worded_nl(
        options_schema,
        series_draw={"replay": "opnieuw spelen", "counts": "telt als een van de 3"})
    summary_nl = ("Twee rattenclans spelen elk 8 kaarten (waarden 0–7, elk met een speciale eigenschap) in rondes "
                  "waarin beide spelers tegelijk een kaart openleggen; wie 4 rondes wint, of wiens Prinses de Prins "
                  "tegenkomt, wint.")
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
            "Both cards of a round, revealed together: [Red's card, Blue's card].",
        ),
        "play": EventType(
            "play",
            "seat",
            _object({"card": CARD_SCHEMA}, ["card"]),
            "One seat commits its card face down (face up when it must play first after a Spy); "
            "the round resolves when both have played.",
        ),
        "exchange": EventType(
            "exchange",
            CHANCE,
            _object({"cards": _cards_schema(2)}, ["cards"]),
            "Variant A: the random card each player gives the other: [card Red gives, card Blue gives].",
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
            "Variant B: the cards each player draws from his pile: one list per player (Red's, then Blue's), 3 each at the "
            "start and 1 each after a round; \"unknown\" for a card the table did not see.",
        ),
        "draft": EventType(
            "draft",
            CHANCE,
            _object({"cards": _cards_schema(4)}, ["cards"]),
            "Variant D: the 4 cards the drafting seat draws (seat: that seat, if known).",
        ),
        "pick": EventType(
            "pick",
            "seat",
            _object({"card": CARD_SCHEMA}, ["card"]),
            "Variant D: the seat keeps one card of those on offer to it.",
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
            "Variant E: the 8 cards dealt to each player, one list per player (Red's, then Blue's); \"unknown\" where unseen.",
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
            "Variant G: the loser of a game chooses the variants (A–F, [] for the base game) of the next.",
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
            raise MalformedEvent(f"invalid {type} data: {exc!r}", field="data") from None
        raise MalformedEvent(f"unknown event type {type!r} for BraveRats", field="type")

    @staticmethod
    def _sorted_ids(values: list[Any], field: str, allow_unknown: bool) -> list[str]:
        cards = [parse_card(v, f"{field}[{i}]", allow_unknown) for i, v in enumerate(values)]
        known = sorted(c for c in cards if c is not None)
        return [CARD_IDS[c] for c in known] + [card_id(None)] * (len(cards) - len(known))

    @staticmethod
    def _normalize_choice(data: dict[str, Any]) -> dict[str, Any]:
        letters = [v.upper() for v in data["variants"]]
        if len(set(letters)) != len(letters):
            raise MalformedEvent(f"variants: a letter is given twice in {data['variants']!r}", field="variants")
        out: dict[str, Any] = {"variants": sorted(letters)}
        for name in ("princess_attack_seat", "draft_first_seat"):
            if name in data:
                out[name] = data[name]
        return out

    # -- apply ----------------------------------------------------------------------
    def apply(self, state: State, type: str, seat: int | None, data: dict[str, Any]) -> State:
        handler = _HANDLERS.get(type)
        if handler is None:
            raise MalformedEvent(f"unknown event type {type!r} for BraveRats", field="type")
        return handler(self, state, seat, data)

    def _phase_error(self, state: State, wanted: str, what: str) -> RuleViolation:
        phase = state.phase
        if phase == OVER:
            return RuleViolation("braverats.win", f"the game is over; no {what} can follow")
        if phase == CHOOSE:
            return RuleViolation(
                "braverats.variant_g",
                f"game {state.game_no - 1} is over: {_who(state, state.chooser)}, who lost it, first chooses the "
                f"variants of game {state.game_no} (choose_variant); no {what} now",
            )
        if phase == DRAW and state.rounds:
            return RuleViolation(
                "braverats.variant_b", f"after a round each player first draws 1 card (draw event); no {what} now"
            )
        step = {
            DRAFT: "the draft (variant D)",
            DEAL: "the deal (variant E)",
            EXCHANGE: "the traitor's exchange (variant A)",
            DRAW: "the first draw of 3 cards (variant B)",
            PLAY: "the rounds",
        }[phase]
        rule = {"draft": "braverats.variant_d", "pick": "braverats.variant_d"}.get(wanted, "braverats.setup_order")
        return RuleViolation(rule, f"no {what} now: the match is at {step}")

    def _take(self, state: State, seat: int, card: int, hands: list[HiddenHand], pool: tuple[int, ...]) -> tuple[int, ...]:
        """Remove a played card from ``hands[seat]`` (in place in the list); return the pool."""
        try:
            hands[seat], pool = hands[seat].remove(card, pool)
        except NotHeld:
            raise RuleViolation("braverats.card_in_hand", self._not_in_hand(state, seat, card, hands[seat], pool)) from None
        return pool

    def _not_in_hand(self, state: State, seat: int, card: int, hand: HiddenHand, pool: tuple[int, ...]) -> str:
        msg = f"{_who(state, seat)} has no {TITLES[card]} left in hand; "
        who = _name(state, seat)
        if hand.unknown:
            msg += (
                f"{who}'s hand holds {list_titles(hand.known)} (seen) and {hand.unknown} unseen card(s), "
                f"so the cards {who} can play are {list_titles(hand.candidates(pool))}"
            )
        else:
            msg += f"the cards still in {who}'s hand are {list_titles(hand.known)}"
        earlier = [i + 1 for i, r in enumerate(state.rounds) if r.cards[seat] == card]
        if earlier:
            msg += f" ({who} played the {TITLES[card]} in round " + ", ".join(map(str, earlier)) + ")"
        return msg

    def _apply_round(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            raise self._phase_error(state, "round", "round")
        if state.pending != NO_PENDING:
            who = _who(state, 0 if state.pending[0] is not None else 1)
            raise RuleViolation(
                "braverats.one_card_per_round",
                f"{who} has already played a card face down this round; enter the other card as a play event, "
                "not a whole round",
            )
        c0 = parse_card(data["cards"][0], "cards[0]")
        c1 = parse_card(data["cards"][1], "cards[1]")
        hands = list(state.hands)
        pool = self._take(state, 0, c0, hands, state.pool)
        pool = self._take(state, 1, c1, hands, pool)
        return self._resolve(state, c0, c1, hands, pool)

    def _apply_play(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != PLAY:
            raise self._phase_error(state, "play", "card play")
        if seat not in (0, 1):
            raise MalformedEvent("a play event needs the seat (0 or 1) that plays", field="seat")
        pending = state.pending
        if pending[seat] is not None:
            raise RuleViolation(
                "braverats.one_card_per_round",
                f"{_who(state, seat)} has already played a card this round; wait for {_name(state, 1 - seat)}'s card",
            )
        first = state.spy_first
        if first is not None and first != seat and pending[first] is None:
            raise RuleViolation(
                "braverats.spy_order",
                f"{_who(state, 1 - first)} played an effective Spy last round, so {_who(state, first)} plays first, "
                f"face up, this round; {_name(state, seat)} chooses only after that",
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
            raise self._phase_error(state, "draw", "draw")
        n = 1 if state.rounds else 3
        hands = list(state.hands)
        pool = state.pool
        for s in (0, 1):
            drawn = [parse_card(c, f"cards[{s}]", allow_unknown=True) for c in data["cards"][s]]
            want = min(n, hands[s].pile)
            if len(drawn) != want:
                raise RuleViolation(
                    "braverats.variant_b",
                    f"{_who(state, s)} draws {want} card(s) now ({'3 at the start' if n == 3 else '1 after each round'}, "
                    f"{hands[s].pile} left in the pile), not {len(drawn)}",
                )
            for card in drawn:
                try:
                    hands[s], pool = hands[s].draw(card, pool)
                except NotHeld:
                    left = hands[s].pile_candidates(pool)
                    raise RuleViolation(
                        "braverats.variant_b",
                        f"{_who(state, s)}'s draw pile cannot hold a {TITLES[card]}: the cards it can still hold are "
                        f"{list_titles(left)}",
                    ) from None
        return evolve(state, phase=PLAY, hands=tuple(hands), pool=pool)

    def _apply_exchange(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != EXCHANGE:
            raise self._phase_error(state, "exchange", "exchange")
        given = [parse_card(c, f"cards[{s}]") for s, c in enumerate(data["cards"])]
        hands = list(state.hands)
        pool = state.pool
        for s in (0, 1):
            try:
                hands[s], pool = hands[s].remove(given[s], pool)
            except NotHeld:
                raise RuleViolation(
                    "braverats.variant_a",
                    f"{_who(state, s)} has no {TITLES[given[s]]} to give; {_name(state, s)}'s hand is "
                    f"{list_titles(state.hands[s].known)}"
                    + (f" and {state.hands[s].unknown} unseen card(s)" if state.hands[s].unknown else ""),
                ) from None
        hands = [hands[0].receive(given[1]), hands[1].receive(given[0])]
        return self._after_exchange(evolve(state, hands=tuple(hands), pool=pool))

    def _apply_deal(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DEAL:
            raise self._phase_error(state, "deal", "deal")
        dealt = [[parse_card(c, f"hands[{s}]", allow_unknown=True) for c in data["hands"][s]] for s in (0, 1)]
        known = [ms(c for c in cards if c is not None) for cards in dealt]
        if any(len(cards) != 8 for cards in dealt):
            raise RuleViolation("braverats.variant_e", "each player is dealt exactly 8 cards")
        named = ms((*known[0], *known[1]))
        if not ms_contains(DECK, named):
            extra = sorted({c for c in named if named.count(c) > 2})
            raise RuleViolation(
                "braverats.variant_e",
                "the deal names " + ", ".join(plural(c, named.count(c)) for c in extra)
                + "; the 16 cards hold two of each",
            )
        hands = tuple(HiddenHand.dealt(known[s], 8 - len(known[s])) for s in (0, 1))
        return self._after_deal(evolve(state, hands=hands, pool=ms_remove_all(DECK, named)))

    def _apply_draft(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAFT:
            raise self._phase_error(state, "draft", "draft draw")
        if state.offer:
            raise RuleViolation(
                "braverats.variant_d", f"{_who(state, state.picker)} must first pick from the cards on offer"
            )
        drafter = state.drafter
        if seat is not None and seat != drafter:
            raise RuleViolation(
                "braverats.variant_d", f"{_who(state, drafter)} draws these 4 cards, not {_who(state, seat)}"
            )
        cards = ms(parse_card(c, f"cards[{i}]") for i, c in enumerate(data["cards"]))
        try:
            deck = ms_remove_all(state.deck, cards)
        except ValueError:
            raise RuleViolation(
                "braverats.variant_d",
                f"the face-down stack cannot hold {list_titles(cards)}: the {len(state.deck)} cards left there are "
                f"{list_titles(state.deck)}",
            ) from None
        return evolve(state, deck=deck, offer=cards)

    def _apply_pick(self, state: State, seat: int | None, data: dict[str, Any]) -> State:
        if state.phase != DRAFT or not state.offer:
            if state.phase == DRAFT:
                raise RuleViolation("braverats.variant_d", "no cards are on offer; 4 cards must be drawn first")
            raise self._phase_error(state, "pick", "pick")
        picker = state.picker
        if seat != picker:
            raise RuleViolation(
                "braverats.variant_d",
                f"the cards on offer are {_who(state, picker)}'s to pick from, not {_who(state, seat)}'s",
            )
        card = parse_card(data["card"], "card")
        if card not in state.offer:
            raise RuleViolation(
                "braverats.variant_d",
                f"{_who(state, seat)} can only keep one of the cards on offer ({list_titles(state.offer)}), "
                f"not a {TITLES[card]}",
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
                raise RuleViolation("braverats.variant_g", "variants are chosen between the games of a series (G) only")
            raise RuleViolation("braverats.variant_g", "the variants are chosen only after a game of the series is lost")
        if seat != state.chooser:
            raise RuleViolation(
                "braverats.variant_g",
                f"{_who(state, state.chooser)} lost game {state.game_no - 1} and chooses the next variants, "
                f"not {_who(state, seat) if seat in (0, 1) else seat}",
            )
        variants = tuple(sorted(v.upper() for v in data["variants"]))
        if "G" in variants:
            raise RuleViolation(
                "braverats.variant_g", "G is the series itself and cannot be chosen for a game inside it"
            )
        bad = incompatible_pairs(variants)
        if bad:
            raise RuleViolation("braverats.variant_combinations", "these variants cannot be combined: " + ", ".join(bad))
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
    def _series_reason(state: State, nl: bool = False) -> str:
        wins = _series_wins(state.games)
        n = len(state.games)
        if wins[0] == wins[1]:
            return (f"de reeks eindigt {wins[0]}–{wins[1]} na {n} spellen: geen ware heerser" if nl
                    else f"the series ends {wins[0]}–{wins[1]} after {n} games: no true ruler")
        w = 0 if wins[0] > wins[1] else 1
        return (f"{_who(state, w, nl)} wint de reeks {wins[w]}–{wins[1 - w]} en is de ware heerser" if nl
                else f"{_who(state, w)} wins the series {wins[w]}–{wins[1 - w]} and is the true ruler")

    def _game_reason(self, state: State, winner: int | None, reason: str) -> str:
        a, b = state.score
        if reason == BY_PRINCESS:
            return (f"{_who(state, winner)}'s Princess caught {_who(state, 1 - winner)}'s Prince "
                    f"in round {len(state.rounds)}")
        if reason == BY_ROUNDS:
            return f"{_who(state, winner)} won {state.score[winner]} rounds ({a}–{b})"
        return f"no cards left and nobody won {state.spec.target} rounds ({a}–{b}): a draw"

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
            else {"winner": state.ended[0], "reason": self._game_reason(state, *state.ended)},
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
                    "why": o.why,
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
    def describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> str:
        return self._describe(before, type, seat, data, after, False)

    def describe_nl(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State) -> str:
        return self._describe(before, type, seat, data, after, True)

    def _describe(self, before: State, type: str, seat: int | None, data: dict[str, Any], after: State,
                  nl: bool) -> str:
        """One line per event, in English or (``nl``) Dutch with the rules text's names: one structure, so
        the two never say different things."""
        resolved = self._resolved_round(before, type, after)
        if resolved is not None:
            return self._round_text(before, after, *resolved, nl=nl)
        who = lambda s: _who(before, s, nl)  # noqa: E731
        titles = TITLES_NL if nl else TITLES
        if type == "play":
            if before.spy_first == seat:
                card = titles[parse_card(data['card'], 'card')]
                return (f"{who(seat)} speelt de {card} eerst, open (Spion)" if nl
                        else f"{who(seat)} plays the {card} first, face up (Spy)")
            return f"{who(seat)} speelt een kaart gedekt" if nl else f"{who(seat)} plays a card face down"
        if type == "draw":
            n = len(data["cards"][0])
            return (f"Elke speler trekt {n} kaart{'en' if n != 1 else ''} van zijn stapel" if nl
                    else f"Each player draws {n} card{'s' if n != 1 else ''} from his pile")
        if type == "draft":
            return (f"{who(before.drafter)} trekt 4 kaarten voor de draft" if nl
                    else f"{who(before.drafter)} draws 4 cards for the draft")
        if type == "pick":
            left = len(before.offer) - 1
            other = _name(before, 1 - seat, nl)
            if left == 1:
                return (f"{who(seat)} houdt een kaart; de laatste kaart gaat naar {other}" if nl
                        else f"{who(seat)} keeps a card; the last card goes to {other}")
            return (f"{who(seat)} houdt een kaart en geeft er {left} door aan {other}" if nl
                    else f"{who(seat)} keeps a card and passes {left} to {other}")
        if type == "deal":
            return ("De 16 kaarten worden geschud en elke speler krijgt er 8" if nl
                    else "The 16 cards are shuffled and each player is dealt 8")
        if type == "exchange":
            r, b = (titles[CARD_IDS.index(c)] for c in data["cards"])
            n0, n1 = _name(before, 0, nl), _name(before, 1, nl)
            return (f"De verrader: {who(0)} geeft de {r} aan {n1} en {who(1)} geeft de {b} aan {n0}" if nl
                    else f"The traitor: {who(0)} gives the {r} to {n1} and {who(1)} gives the {b} to {n0}")
        if type == "choose_variant":
            chosen = _variant_list(tuple(data["variants"]), nl)
            return (f"{who(seat)}, die spel {before.game_no - 1} verloor, kiest {chosen} voor spel {before.game_no}"
                    if nl else f"{who(seat)}, who lost game {before.game_no - 1}, chooses {chosen} for game "
                    f"{before.game_no}")
        return type

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

    def _round_text(self, before: State, after: State, i: int, r: Round, out: Outcome, nl: bool = False) -> str:
        c0, c1 = r.cards
        name = lambda s: _name(before, s, nl)  # noqa: E731
        titles = TITLES_NL if nl else TITLES
        why = out.why_nl if nl else out.why
        for s in (0, 1):  # the outcome table names seats by colour; the review by name
            why = why.replace(f"{SEATS_NL[s]} +2 van de Generaal", f"{name(s)} +2 van de Generaal") if nl else \
                why.replace(f"{SEATS[s]} +2 from the General", f"{name(s)} +2 from the General")
        vs = "tegen" if nl else "vs"
        text = (f"{'Ronde' if nl else 'Round'} {i + 1}: {_who(before, 0, nl)} {titles[c0]} {vs} "
                f"{_who(before, 1, nl)} {titles[c1]} — {why}: ")
        w = out.winner
        if out.game:
            text += f"{name(w)} wint het spel" if nl else f"{name(w)} wins the game"
        elif w is None:
            held = r.held_before + 1
            text += (f"{held} ronde{'s' if held > 1 else ''} onbeslist" if nl
                     else f"{held} round{'s' if held > 1 else ''} on hold")
        else:
            total = out.counts + r.held_before
            if nl:
                text += f"{name(w)} wint " + ("de ronde" if total == 1 else f"{total} rondes")
                if r.held_before:
                    text += f" (waarvan {r.held_before} onbeslist)"
            else:
                text += f"{name(w)} wins " + ("the round" if total == 1 else f"{total} rounds")
                if r.held_before:
                    text += f" (with {r.held_before} held)"
        ended = self._ended_game(before, after)
        if ended is not None:
            winner, reason, score = ended
            if reason == BY_ROUNDS:
                text += (f"; {name(winner)} wint het spel {score[winner]}–{score[1 - winner]}" if nl
                         else f"; {name(winner)} wins the game {score[winner]}–{score[1 - winner]}")
            elif reason == BY_CARDS:
                text += (f"; geen kaarten meer: het spel is gelijk ({score[0]}–{score[1]})" if nl
                         else f"; no cards left: the game is a draw ({score[0]}–{score[1]})")
            if after.cfg.series:
                a, b = _series_wins(after.games)
                text += f"; {'reeks' if nl else 'series'} {a}–{b}"
                if after.phase == OVER:
                    text += f": {self._series_reason(after, nl)}"
        else:
            carries = self._carries_text(before, out, nl)
            if carries:
                text += "; " + carries
        return text

    @staticmethod
    def _carries_text(state: State, out: Outcome, nl: bool = False) -> str:
        parts = [f"{_name(state, s, nl)} +2 in de volgende ronde (Generaal)" if nl
                 else f"{_name(state, s)} +2 next round (General)" for s in (0, 1) if out.bonus[s]]
        if out.spy_first is not None:
            parts.append(f"{_name(state, out.spy_first, nl)} speelt de volgende ronde eerst (Spion)" if nl
                         else f"{_name(state, out.spy_first)} plays first next round (Spy)")
        return "; ".join(parts)

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
