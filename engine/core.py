"""The protocol every game implements, and the errors a move can raise.

A game is a small declarative definition (boardgame.io style) plus pure
functions (OpenSpiel style): the framework in ``engine.match`` adds the log,
undo, chance handling and views, so a game only states its rules.

Pure means: no I/O, no clock, no global randomness, and ``apply`` never mutates
the state it is given (states are shared between snapshots and undo history).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from .text import ENGLISH, Catalog, Text, localized

if TYPE_CHECKING:  # pragma: no cover
    from .scene import Scene

#: Actor of a chance node (a die rolled, a card dealt, a shuffle). In a physical
#: game the recorder enters the outcome; in a simulated game the server draws it
#: from the RNG the setup event's seed and secret key (``engine.match.chance_rng``).
CHANCE = "chance"

#: The view that shows everything the log knows (for referees and the worker).
REFEREE = "referee"


class KroniekError(Exception):
    """Base for errors that the API turns into a 4xx JSON answer."""

    code = "error"
    status = 400

    def __init__(self, message: str | Text, **details: Any) -> None:
        super().__init__(str(message))
        #: what the error says: ``message`` in English, ``text`` as the engine said it (a Text is rendered in
        #: the reader's language at the edge: engine/text.py)
        self.message = str(message)
        self.text = message
        self.details = details

    def to_dict(self, catalog: Catalog = ENGLISH) -> dict[str, Any]:
        return localized({"code": self.code, "message": self.text, **self.details}, catalog)


class MalformedEvent(KroniekError):
    """The event is not well-formed: wrong shape, unknown card name, bad seat."""

    code = "malformed_event"
    status = 400

    def __init__(self, message: str | Text, field: str | None = None, **details: Any) -> None:
        if field is not None:
            details["field"] = field
        super().__init__(message, **details)


class RuleViolation(KroniekError):
    """The event is well-formed but the rules forbid it in this state.

    ``rule`` is the id of a rule in the game's ``rules`` catalogue, so the
    answer can say which rule forbids the move and quote it.
    """

    code = "illegal_move"
    status = 422

    def __init__(self, rule: str, message: str | Text, **details: Any) -> None:
        super().__init__(message, rule=rule, **details)
        self.rule = rule


class UnknownGame(KroniekError):
    code = "unknown_game"
    status = 404


class InvalidOptions(KroniekError):
    code = "invalid_options"
    status = 400


def player_count_text(counts: tuple[int, ...] | list[int]) -> str:
    """The player counts as a sentence says them: "2", "2–4" (every count
    between), "4 or 6", "2, 4 or 6"."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def titled(schema: dict[str, Any], **titles: str) -> dict[str, Any]:
    """An options schema with a ``title`` on every property: the words a page
    labels the option with (a checkbox, a picker), where the key is for the
    API; the ``description`` stays as the help text. Every property must get
    one, and no title may name a property the schema lacks."""
    props = schema.get("properties", {})
    missing, unknown = sorted(set(props) - set(titles)), sorted(set(titles) - set(props))
    if missing or unknown:
        raise ValueError(f"option titles: missing for {missing}, unknown {unknown}")
    return {**schema, "properties": {k: {"title": titles[k], **p} for k, p in props.items()}}


def worded(schema: dict[str, Any], **values: dict[str, str]) -> dict[str, Any]:
    """The options schema with words (``enum_titles``, marked ``N_``: said in the reader's language) for the
    values of the named options, the way ``titled`` names the options: a picker shows "the attacker first", never
    ``attacker_first``. Every word-like value (not a letter such as BraveRats' variant "A") of each gets words,
    and no other."""
    props = dict(schema.get("properties", {}))
    for key, words in values.items():
        if key not in props:
            raise ValueError(f"option values: no option {key!r}")
        wanted = {v for v in _enum_of(props[key]) if isinstance(v, str) and len(v) > 1}
        if set(words) != wanted:
            raise ValueError(f"option values of {key}: missing {sorted(wanted - set(words))}, "
                             f"unknown {sorted(set(words) - wanted)}")
        props[key] = {**props[key], "enum_titles": dict(words)}
    return {**schema, "properties": props}


def _enum_of(prop: dict[str, Any]) -> list[Any]:
    """An option's enumerated values (its own, an alternative's, or its items')."""
    if "enum" in prop:
        return list(prop["enum"])
    for alt in prop.get("anyOf", []) + prop.get("oneOf", []):
        if "enum" in alt:
            return list(alt["enum"])
    return list(prop.get("items", {}).get("enum", [])) if prop.get("type") == "array" else []


@dataclass(frozen=True)
class EventType:
    """One kind of event a game accepts.

    ``actor`` says who enters it:
    - ``"seat"``: a player's own move; the event's ``seat`` is required.
    - ``"table"``: what the whole table does or reveals at once (BraveRats'
      simultaneous reveal); entered by the recorder with ``seat`` null.
    - ``"chance"``: a chance outcome (dice, deal, draw); ``seat`` is null or the
      seat that receives the cards.
    ``schema`` is the JSON Schema of the event's ``data``.
    """

    name: str
    actor: str
    schema: dict[str, Any]
    description: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Result:
    outcome: str  # "win" | "draw" | "loss" (loss: cooperative games lost by everyone)
    winners: tuple[int, ...]
    scores: tuple[Any, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Move:
    """A concrete event a seat (or the table, or chance) could enter now."""

    type: str
    seat: int | None
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "data": self.data}


@dataclass
class Game:
    """Base class of a game definition. Subclasses fill in the class attributes
    and override the methods; instances are stateless and registered once."""

    id: ClassVar[str]
    name: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Every player count the game allows, ascending. A game that does not
    #: declare it allows every count from ``min_players`` to ``max_players``;
    #: one with a gap declares it (Troje: 4 or 6, not 5).
    player_counts: ClassVar[tuple[int, ...]]
    #: The id of the rule (in ``rules``) that states the player counts, if the
    #: game has one: a refused count names it, as any refusal names its rule.
    player_counts_rule: ClassVar[str | None] = None
    #: JSON Schema of the options object; defaults are filled in by the framework.
    options_schema: ClassVar[dict[str, Any]]
    event_types: ClassVar[dict[str, EventType]]
    #: rule id -> English statement of the rule (with the Dutch source term).
    rules: ClassVar[dict[str, str]]
    #: Dutch (or other table) names accepted as aliases, for the docs: alias -> canonical.
    aliases: ClassVar[dict[str, str]] = {}
    #: One-line English summary for the games list.
    summary: ClassVar[str] = ""
    #: The same summary in Dutch, as the rules text words it (a Dutch page shows it; the English one where empty).
    summary_nl: ClassVar[str] = ""
    #: True: the game's lines, end lines and refusals are messages (engine/text.py), said in each reader's
    #: language from the catalogue; its describe_nl is not needed
    says: ClassVar[bool] = False
    #: Dutch names of the event types that have no Dutch alias (a Dutch page names a move by its rules-text
    #: name: ``event_title_nl``).
    event_titles_nl: ClassVar[dict[str, str]] = {}
    #: True when a seat may know something another seat or the public may not
    #: (a hand, a face-down card). False for a game with nothing hidden from
    #: one seat that the others can see: every seat's view is then the public
    #: view, so anyone may read seat views, legal moves and hints.
    hidden_information: ClassVar[bool] = True
    extra_info: dict[str, Any] = field(default_factory=dict)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not hasattr(cls, "min_players") or not hasattr(cls, "max_players"):
            return  # an abstract base: its games declare their counts
        own = cls.__dict__.get("player_counts")
        if own is None:  # not declared here: every count between this class's bounds
            cls.player_counts = tuple(range(cls.min_players, cls.max_players + 1))
        else:
            counts = tuple(sorted(set(own)))
            if not counts or counts[0] != cls.min_players or counts[-1] != cls.max_players:
                raise TypeError(f"{cls.__name__}.player_counts {own!r} must run from min_players "
                                f"{cls.min_players} to max_players {cls.max_players}")
            cls.player_counts = counts

    def event_title_nl(self, event_type: str) -> str | None:
        """An event type's Dutch name: its own (``event_titles_nl``), else its first Dutch alias (the table's word)."""
        if event_type in self.event_titles_nl:
            return self.event_titles_nl[event_type]
        return next((alias for alias, canonical in self.aliases.items()
                     if canonical == event_type and any(c.isalpha() for c in alias)), None)

    # -- set-up -------------------------------------------------------------
    def check_options(self, options: dict[str, Any], players: int) -> None:
        """Raise InvalidOptions for combinations the schema cannot express."""

    def setup(self, players: tuple[str, ...], options: dict[str, Any]) -> Any:
        raise NotImplementedError

    # -- moves --------------------------------------------------------------
    def normalize(self, state: Any, type: str, seat: int | None, data: dict[str, Any]) -> dict[str, Any]:
        """Turn accepted aliases (Dutch names, numbers) into canonical data.
        Raises MalformedEvent. The canonical form is what the log stores."""
        return data

    def apply(self, state: Any, type: str, seat: int | None, data: dict[str, Any]) -> Any:
        """Return the state after the event; raise RuleViolation naming the rule."""
        raise NotImplementedError

    def actors(self, state: Any) -> tuple[Any, ...]:
        """Who may act now: seats, ``"table"`` and/or CHANCE. Empty when finished."""
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: int | None) -> list[Move]:
        """Concrete moves for ``seat`` (None: table-level moves). Chance events
        are not enumerated here; see ``chance_outcome``."""
        raise NotImplementedError

    def table_moves_hidden(self, state: Any) -> bool:
        """True when the table's moves (``legal_moves(state, None)``) depend on
        something the public may not see (e.g. secret hands): then only a
        viewer who may see everything (a recorder, the referee) gets them."""
        return False

    def chance_outcome(self, state: Any, rng: random.Random) -> Move | None:
        """At a chance node, draw the outcome; otherwise None. Simulated games only."""
        return None

    # -- reading ------------------------------------------------------------
    def view(self, state: Any, seat: int | str | None) -> dict[str, Any]:
        """JSON view for ``seat``; None is the public view, REFEREE shows all."""
        raise NotImplementedError

    def event_view(self, state: Any, event: dict[str, Any], viewer: int | str | None) -> dict[str, Any]:
        """How a logged event looks to ``viewer`` (a seat, None for the public)
        given the match as it stands now (``state``): hide what that viewer
        has not seen, e.g. a face-down card. Return the event unchanged when
        nothing is hidden; mark a changed one ``"redacted": True``. Never
        called for the referee."""
        return event

    def scene(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> "Scene | None":
        """The table as the pages draw it (``engine.scene``), built only from
        ``view`` (the match's view for one viewer, with ``to_act``) and the
        legal ``moves`` that viewer may see, so it cannot show more than
        they may. None: the game is not drawn this way (yet)."""
        return None

    def describe(self, before: Any, type: str, seat: int | None, data: dict[str, Any], after: Any) -> str:
        return type

    def describe_nl(self, before: Any, type: str, seat: int | None, data: dict[str, Any], after: Any) -> str | None:
        """``describe`` in Dutch, with the rules text's names; None: this game's
        lines are in English only (a Dutch page shows those, marked English)."""
        return None

    def describe_setup(self, state: Any) -> str:
        """What the review's setup line should add for this match (e.g. which
        card set it is played with); empty for nothing."""
        return ""

    def describe_setup_nl(self, state: Any) -> str:
        """``describe_setup`` in Dutch (a game with ``describe_nl`` and a setup note gives both)."""
        return ""

    @property
    def speaks_dutch(self) -> bool:
        """Whether the review's lines of this game's matches come in Dutch too."""
        return self.says or type(self).describe_nl is not Game.describe_nl

    def annotate(self, before: Any, type: str, seat: int | None, data: dict[str, Any], after: Any) -> list[dict[str, Any]]:
        """Automatic annotations the worker stores for this event."""
        return []

    def result(self, state: Any) -> Result | None:
        raise NotImplementedError

    # -- deep analysis (optional) -------------------------------------------
    def analyse_log(self, events: list[dict[str, Any]], budget: int, *,
                    progress: Callable[[int, int], None] | None = None, max_nodes: int | None = None,
                    deadline: float | None = None) -> dict[int, list[dict[str, Any]]] | None:
        """Annotations that need more than one move's look (a solver): the
        worker's analysis job runs this after a valid verdict. ``budget``:
        nodes per solver call; ``max_nodes``: nodes of all calls together;
        ``deadline``: a ``time.monotonic()`` after which no call starts (the
        positions left are undecided); ``progress(done, total)``: positions
        decided so far. A game without an analysis does not override this."""
        return None

    def evaluate_log(self, events: list[dict[str, Any]], *,
                     tables: Callable[[str, Callable[[], bytes]], bytes] | None = None,
                     deadline: float | None = None,
                     notes: dict[int, list[dict[str, Any]]] | None = None,
                     playouts: int = 2000) -> dict[str, Any] | None:
        """How the game stood after each move, and how good each move was (issue 37), for the review's graph.
        ``tables(name, build)``: solved tables kept between analyses (the worker's ``workers.tables``): the
        bytes kept under ``name``, built by ``build()`` the first time; None: build what is needed here.
        ``deadline``: a ``time.monotonic()`` after which no new estimate starts. ``notes``: what this game's
        ``analyse_log`` just said of the same log (a game whose solver already decided each position reads
        its evaluation from there instead of solving again); None: not run. ``playouts``: the games an estimate
        may play on in all (the worker's ``KRONIEK_ANALYSIS_PLAYOUTS``).

        A dict, JSON-able but for messages (``Text``), of:

        - ``perspective``: ``"seats"`` (a chance per seat) or ``"table"`` (one chance: a cooperative game's);
        - ``method``: ``"exact"`` (solved), ``"exact_odds"`` (exact chances of what chance does next) or
          ``"estimate"`` (Monte Carlo), or None (no point could be evaluated: ``note`` says why);
        - ``points``: ``{"seq", "chances": [...], "method", "stderr"?, "samples"?}`` after the events whose
          data everyone may see, in seq order (a seat's chance of winning; a draw counts half);
        - ``moves``: the moves judged, ``{"seq", "seat", "loss", "glyph", "accuracy", ...}`` (``loss``: the
          mover's chance of winning it cost, 0-1; glyphs from 0.05, 0.10, 0.15: docs/review.md);
        - ``summary``: per seat, ``{"seat", "moves", "accuracy", "luck", "glyphs"}``;
        - ``notes``: annotations by seq (as ``analyse_log``'s), said in the reader's language.

        None: the game has no evaluation."""
        return None

    @property
    def has_evaluation(self) -> bool:
        return type(self).evaluate_log is not Game.evaluate_log

    @property
    def has_analysis(self) -> bool:
        """Whether the game has an analysis (it overrides ``analyse_log`` or ``evaluate_log``)."""
        return type(self).analyse_log is not Game.analyse_log or self.has_evaluation

    def hint(self, state: Any, seat: int | None, budget: int) -> dict[str, Any] | None:
        """Moves for ``seat`` judged by a solver, from what that seat can see.
        None: the game offers no hints."""
        return None

    # -- snapshots ----------------------------------------------------------
    def encode_state(self, state: Any) -> Any:
        """JSON-able form of the state, exact enough that decode(encode(s)) == s."""
        raise NotImplementedError

    def decode_state(self, obj: Any) -> Any:
        raise NotImplementedError

    # -- description for the API -------------------------------------------
    def summary_said(self, catalog: Catalog = ENGLISH) -> str:
        """The summary in ``catalog``'s language: the catalogue's (``summary`` marked N_), else the game's own
        ``summary_<lang>`` (a game that still gives its Dutch itself), else English."""
        said = catalog.gettext(self.summary)
        if said != self.summary or catalog.code == "en":
            return said
        return getattr(self, f"summary_{catalog.code}", "") or self.summary

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "player_counts": list(self.player_counts),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "engine_version": self.version,
            "hidden_information": self.hidden_information,
            "scene": type(self).scene is not Game.scene,
            "says": self.says,
        }

    # -- invariants (the worker's verdict and the tests; never inside apply) --
    #: invariant id -> English statement of what holds in every reachable state
    invariant_rules: ClassVar[dict[str, str]] = {}
    #: Event types of which ``legal_moves`` lists every legal instance for the
    #: seat (or table) to act: for these, accepted equals listed (the
    #: property tests check it both ways).
    complete_moves: ClassVar[frozenset[str]] = frozenset()

    def invariants(self, state: Any) -> list[tuple[str, str]]:
        """The invariants ``state`` breaks, as (invariant id from
        ``invariant_rules``, what is wrong); empty when all hold. What must
        hold in every state the rules can reach: cards, pieces and scores
        conserved and never negative, at most the allowed winners. A log
        the reducer accepts but that breaks one is judged invalid."""
        return []
