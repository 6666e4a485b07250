"""A match: a game's state plus what every game shares (undo, chance, setup).

Everything here is pure. The store feeds events in; this module says whether
each one is legal and what the match looks like after it. Games never see
``undo`` or the simulated-mode chance draws: the framework handles both, so a
game only states its own rules.
"""

from __future__ import annotations

import hmac
import random
import re
import unicodedata
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, chain
from operator import sub
from typing import Any, Iterable, Iterator

import fastjsonschema

from . import registry
from .core import (CHANCE, REFEREE, Game, InvalidOptions, KroniekError, MalformedEvent, Result, RuleViolation,
                   UnknownGame, player_count_text)
from .text import SAID, N_, Text, Words, localized, say, to_json

SETUP = "setup"
UNDO = "undo"
MODES = ("physical", "simulated")

#: The largest integer magnitude a match keeps (seeds, options): 2^53 - 1, so
#: every JSON reader (JavaScript's too) reads back exactly what was written.
#: ``service.limits`` lists it with the API's other limits.
MAX_SAFE_INTEGER = 2**53 - 1
#: A simulated match's server secret (``make_setup``'s ``secret``): lowercase
#: hex digits, at least 128 bits and at most 512; the service draws 256.
SECRET_HEX_MIN = 32
SECRET_HEX_MAX = 128
_SECRET = re.compile(r"(?:[0-9a-f]{2}){%d,%d}\Z" % (SECRET_HEX_MIN // 2, SECRET_HEX_MAX // 2))
#: A player's name: at most this many characters (Unicode code points).
MAX_PLAYER_NAME = 64
#: Unicode categories a name may not hold: control characters, lone
#: surrogates, line and paragraph separators.
REFUSED_IN_NAMES = frozenset({"Cc", "Cs", "Zl", "Zp"})

#: Rules the framework itself enforces, quoted in errors like a game's rules.
CORE_RULES = {
    "core.undo": "An undo reverts the latest effective move; the setup cannot be undone.",
    "core.finished": "No move can be entered after the match has ended (an undo still can).",
    "core.turn": "Only a seat that is to act now may enter a move.",
    "core.table": "A move of the whole table (a simultaneous reveal) is entered with seat null.",
    "core.chance": "A chance outcome (dice, deal, draw) can only be entered at a chance node.",
    "core.simulated_chance": "In a simulated match the server draws every chance outcome from the recorded seed "
    "(and the server's secret, where the setup holds one).",
}

UNDO_SCHEMA = {
    "type": "object",
    "properties": {
        "seq": {
            "type": "integer",
            "minimum": 2,
            "description": N_("Optional: the seq you mean to revert; refused if it is not the latest effective move."),
        }
    },
    "additionalProperties": False,
}


class HistoryElided(Exception):
    """An undo reached a step whose prior state a snapshot left out; the caller
    rebuilds the match from its log (``replay``) and tries again."""


#: Stands for a state a snapshot did not keep (see ``encode``).
ELIDED = object()
#: A match's result not yet computed (``MatchState.result``).
_UNSET = object()

#: How many undo steps a snapshot keeps the prior state of.
SNAPSHOT_UNDO_DEPTH = 16


@dataclass(frozen=True)
class Step:
    """One effective event on the undo stack (a persistent linked list, so
    snapshots and concurrent readers share it without copying)."""

    seq: int
    type: str
    chance: bool
    before: Any
    prev: Step | None


class Marks:
    """Every seq an undo reverted so far: a persistent list, newest undo
    first, that the states of one match share. An undo adds one link and
    copies nothing, so an undo costs the same at seq 10 and at seq 100,000;
    asking which seqs of a range were undone (``undone_between``) walks only
    the links of the undos after the range's first seq.

    ``at`` bounds the undo seqs of this link (the undo's own seq; for the
    one link a snapshot decodes to, the snapshot's seq): an undo reverts
    only seqs before its own. ``seqs`` is sorted."""

    __slots__ = ("at", "seqs", "prev", "flat")

    def __init__(self, at: int, seqs: tuple[int, ...], prev: Marks | None) -> None:
        self.at, self.seqs, self.prev = at, seqs, prev
        #: every seq of this link and those before it, sorted, once a snapshot asked (``_all_marks``): kept
        #: on the newest link asked only, so the next snapshot walks just the links added since
        self.flat: tuple[int, ...] | None = None


class UnknownMarks(Marks):
    """What a snapshot written without the marks (one from before they were
    kept, or a page's) decodes to: the seqs undone up to ``at`` are not
    known, and ``undone_between`` refuses to guess them."""

    __slots__ = ()


@dataclass(frozen=True)
class MatchState:
    game: Game
    setup: dict[str, Any]
    seq: int
    state: Any
    stack: Step | None = None
    depth: int = 0
    #: seqs reverted by the latest event when it was an undo (for the review)
    undone: tuple[int, ...] = ()
    #: every seq reverted by an undo so far (``undone_between``); None: none
    marks: Marks | None = field(default=None, compare=False, repr=False)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.setup["players"])

    @property
    def simulated(self) -> bool:
        return self.setup.get("mode") == "simulated"

    @property
    def result(self) -> Result | None:
        # Computed once per state; states are immutable. (functools'
        # cached_property takes a lock on every first access: too slow here;
        # a KeyError caught per new state was, too.)
        cache = self.__dict__
        result = cache.get("_result", _UNSET)
        if result is _UNSET:
            result = cache["_result"] = self.game.result(self.state)
        return result

    @property
    def result_dict(self) -> dict[str, Any] | None:
        """The result as the API shows it (null while the match runs); its reason may be a Text, said in the
        reader's language at the edge (engine/text.py)."""
        result = self.result
        return result.to_dict() if result else None

    @property
    def result_english(self) -> dict[str, Any] | None:
        """The result as it is kept (the match's list entry, the league's results): the reason in English."""
        result = self.result
        return localized(result.to_dict()) if result else None

    @property
    def result_kept(self) -> dict[str, Any] | None:
        """The result as the match's list entry keeps it: ``result_english``, and beside it the reason as its
        message (``reason_said``, engine/text.py's JSON form), so that a list says it in its reader's language."""
        result = self.result
        if result is None:
            return None
        out = localized(result.to_dict())
        if isinstance(result.reason, SAID):
            out["reason_said"] = to_json(result.reason)
        return out

    @property
    def status(self) -> str:
        return "finished" if self.result is not None else "in_progress"

    def view(self, seat: int | str | None = None) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "status": self.status,
            "result": self.result_dict,  # its reason a Text: said in the reader's language at the edge
            "to_act": [a for a in self.game.actors(self.state)],
            **self.game.view(self.state, seat),
        }


# -- set-up -------------------------------------------------------------------

def _fill_defaults(schema: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    filled = dict(options)
    for name, prop in schema.get("properties", {}).items():
        if name not in filled and "default" in prop:
            filled[name] = prop["default"]
    return filled


@lru_cache(maxsize=None)
def _compiled(schema_key: tuple[str, str, str]) -> Any:
    game_id, kind, name = schema_key
    game = registry.get(game_id)
    if kind == "options":
        schema = game.options_schema
    elif name == UNDO:
        schema = UNDO_SCHEMA
    else:
        schema = game.event_types[name].schema
    return fastjsonschema.compile(schema)


def check_player_name(name: Any, field: str) -> str:
    """A player's name: 1–64 characters, not only white space, no control
    characters; ``field`` names it in the error (``players[1]``)."""
    if not isinstance(name, str) or not name.strip():
        raise MalformedEvent("a player's name is a non-empty string", field=field)
    if len(name) > MAX_PLAYER_NAME:
        raise MalformedEvent(
            f"a player's name has at most {MAX_PLAYER_NAME} characters, not {len(name)}", field=field, limit=MAX_PLAYER_NAME
        )
    for ch in name:
        if unicodedata.category(ch) in REFUSED_IN_NAMES:
            raise MalformedEvent(
                f"a player's name may not hold control characters, line breaks or lone surrogates (U+{ord(ch):04X})",
                field=field,
            )
    return name


def name_key(name: str) -> str:
    """What makes two names the same name at a table: case and surrounding
    white space do not tell players apart."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


def check_player_names(players: Any, field: str = "players") -> None:
    """Every name valid, and no two the same (``name_key``): a view that says
    ``Ann`` must say which Ann."""
    if not isinstance(players, list):
        raise MalformedEvent("players must be a list of names", field=field)
    seen: dict[str, int] = {}
    for i, name in enumerate(players):
        check_player_name(name, f"{field}[{i}]")
        first = seen.setdefault(name_key(name), i)
        if first != i:
            raise MalformedEvent(
                f"players must be distinct: seats {first} and {i} are both named {players[first]!r}", field=f"{field}[{i}]"
            )


def make_setup(
    game_id: str,
    players: list[str],
    options: dict[str, Any] | None = None,
    mode: str = "physical",
    seed: int | None = None,
    secret: str | None = None,
) -> dict[str, Any]:
    """Validate a new match's parameters; return the data of its setup event.

    ``secret`` (a simulated match only): the server's secret, lowercase hex of
    128 to 512 bits, mixed into every draw with the seed (``chance_rng``), so
    that no one who lacks it can predict a draw from the seed, whatever seed
    was chosen. The engine never makes one up (it is pure): the service draws
    it. Without one the draws come from the seed alone, as before secrets:
    a local simulation, or a log or notation recorded before them."""
    try:
        game = registry.get(game_id)
    except UnknownGame as exc:
        raise UnknownGame(exc.message, field="game", **exc.details) from None
    check_player_names(players)
    if len(players) not in game.player_counts:
        rule = {"rule": game.player_counts_rule} if game.player_counts_rule else {}
        raise InvalidOptions(
            f"{game.name} is played by {player_count_text(game.player_counts)} players, not {len(players)}",
            field="players", **rule,
        )
    if mode not in MODES:
        raise MalformedEvent(f"mode must be one of {', '.join(MODES)}", field="mode")
    options = _fill_defaults(game.options_schema, options or {})
    try:
        _compiled((game.id, "options", ""))(options)
    except fastjsonschema.JsonSchemaException as exc:
        raise InvalidOptions(f"invalid options: {exc.message}", field="options") from None
    game.check_options(options, len(players))
    if mode == "simulated" and seed is None:
        raise MalformedEvent("a simulated match needs a seed", field="seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > MAX_SAFE_INTEGER):
        raise MalformedEvent(
            f"seed must be an integer from -{MAX_SAFE_INTEGER} to {MAX_SAFE_INTEGER}", field="seed", limit=MAX_SAFE_INTEGER
        )
    setup = {
        "game": game.id,
        "engine_version": game.version,
        "players": list(players),
        "options": options,
        "mode": mode,
        "seed": seed,
    }
    if secret is not None:
        if mode != "simulated":
            raise MalformedEvent("only a simulated match has a secret (its draws' key)", field="secret")
        _check_secret(secret)
        setup["secret"] = secret  # only here: every other setup keeps exactly the fields it had
    return setup


def _check_secret(secret: Any) -> None:
    """A setup's secret is lowercase hex of 128–512 bits. The refusal never
    quotes it: a message can reach a view that may not see the secret."""
    if not isinstance(secret, str) or not _SECRET.match(secret):
        raise MalformedEvent(
            f"secret must be an even number of lowercase hex digits, {SECRET_HEX_MIN} to {SECRET_HEX_MAX} "
            f"(128 to 512 bits)", field="secret",
        )


def chance_rng(setup: dict[str, Any], depth: int) -> random.Random:
    """The RNG of the chance draws at ``depth`` (the effective line's length)
    of a simulated match.

    With a secret in the setup: ``Random(int(HMAC-SHA256(key=secret bytes,
    msg=UTF-8 of f"{seed}:{depth}")))``, the 256-bit MAC read as a big-endian
    integer: whoever lacks the secret learns nothing about the next draw from
    the seed (a small one too) and what the public sees. A setup without a
    secret (from before secrets, a local simulation): ``Random(f"{seed}:{depth}")``,
    exactly as those logs were drawn, so they replay as they were recorded.
    """
    secret = setup.get("secret")
    if secret is None:
        return random.Random(f"{setup['seed']}:{depth}")
    mac = hmac.digest(_secret_key(secret), f"{setup['seed']}:{depth}".encode(), "sha256")
    return random.Random(int.from_bytes(mac, "big"))


@lru_cache(maxsize=256)
def _secret_key(secret: str) -> bytes:
    return bytes.fromhex(secret)


def start(setup: dict[str, Any], seq: int = 1) -> MatchState:
    """The match right after its setup event."""
    game = registry.get(setup["game"])
    if setup.get("secret") is not None:
        _check_secret(setup["secret"])
    if setup.get("engine_version") != game.version:
        raise InvalidOptions(
            f"this log was recorded with {game.id} engine {setup.get('engine_version')}, "
            f"this server runs {game.version}",
            field="engine_version",
        )
    state = game.setup(tuple(setup["players"]), setup["options"])
    return MatchState(game=game, setup=setup, seq=seq, state=state)


# -- events -------------------------------------------------------------------

def _check_seat(ms: MatchState, seat: Any) -> None:
    if seat is None:
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(ms.players):
        raise MalformedEvent(f"seat must be null or an integer 0–{len(ms.players) - 1}", field="seat")


def event_type_names(game: Game) -> dict[str, str]:
    """Every name an event type is accepted by, lowercased -> the canonical
    type: its id, the id with spaces for underscores, and the (Dutch) names
    players use at the table (``EventType.aliases`` and the game's alias
    entries that name an event type)."""
    table: dict[str, str] = {}
    for name, et in game.event_types.items():
        table[name.lower()] = name
        table[name.lower().replace("_", " ")] = name
        for alias in et.aliases:
            table.setdefault(alias.lower(), name)
    for alias, target in game.aliases.items():
        if target in game.event_types:
            table.setdefault(alias.lower(), target)
    return table


def canonical_type(game: Game, type: Any) -> Any:
    """The canonical event type for a type or its alias (``"doek"`` ->
    ``"kerchief"``); anything else unchanged, for ``normalize_event`` to refuse."""
    if not isinstance(type, str) or type in game.event_types or type == UNDO:
        return type
    return event_type_names(game).get(type.strip().lower(), type)


def _who_acts(ms: MatchState, actors: tuple[Any, ...]) -> str:
    """Who the match waits for, to finish a core.turn refusal with."""
    names = []
    for actor in actors:
        if actor == CHANCE:
            names.append("a chance outcome (dice, a deal or a draw)")
        elif actor == "table":
            names.append("the whole table's reveal (seat null)")
        elif isinstance(actor, int) and 0 <= actor < len(ms.players):
            names.append(f"{ms.players[actor]} (seat {actor})")
    return "waiting for " + (" or ".join(names) if names else "nobody: the match has ended")


def normalize_event(ms: MatchState, type: Any, seat: Any, data: Any, by_server: bool = False) -> dict[str, Any]:
    """Check the event's shape and the framework's rules; return canonical data."""
    game = ms.game
    if not isinstance(type, str):
        raise MalformedEvent("type must be a string", field="type")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MalformedEvent("data must be an object", field="data")
    _check_seat(ms, seat)
    if type == UNDO:
        _validate(game, type, data)
        return data
    if type == SETUP:
        raise RuleViolation("core.finished", "a match has exactly one setup event, its first")
    event_type = game.event_types.get(type)
    if event_type is None:
        known = ", ".join(sorted([*game.event_types, UNDO]))
        raise MalformedEvent(f"unknown event type {type!r} for {game.name}; known: {known}", field="type")
    _validate(game, type, data)
    if ms.result is not None:
        raise RuleViolation("core.finished", "the match has ended; only an undo can still be entered")
    actors = game.actors(ms.state)
    if event_type.actor == "seat":
        if seat is None:
            raise MalformedEvent(f"a {type} event needs the seat that makes it", field="seat")
        if seat not in actors:
            raise RuleViolation("core.turn", f"{ms.players[seat]} (seat {seat}) is not to act now; {_who_acts(ms, actors)}")
    elif event_type.actor == "table":
        if seat is not None:
            raise RuleViolation("core.table", f"a {type} event is the whole table's; enter it with seat null")
        if "table" not in actors:
            raise RuleViolation("core.turn", f"the table is not to reveal a {type} now; {_who_acts(ms, actors)}")
    elif event_type.actor == CHANCE:
        if CHANCE not in actors:
            raise RuleViolation("core.chance", f"no chance outcome ({type}) is due now")
        if ms.simulated and not by_server:
            raise RuleViolation("core.simulated_chance", "this match is simulated: the server draws chance outcomes")
    return game.normalize(ms.state, type, seat, data)


def _validate(game: Game, type: str, data: dict[str, Any]) -> None:
    try:
        _compiled((game.id, "event", type))(data)
    except fastjsonschema.JsonSchemaException as exc:
        raise MalformedEvent(f"invalid {type} data: {_schema_message(exc)}", field="data") from None


def _schema_message(exc: fastjsonschema.JsonSchemaException) -> str:
    """The validator's message, or, where it says only that no alternative
    fitted ("must be valid exactly by one definition"), what the field must be
    as its schema describes it."""
    definition = getattr(exc, "definition", None)
    if getattr(exc, "rule", None) in ("oneOf", "anyOf") and isinstance(definition, dict) and definition.get("description"):
        return f"{exc.name} must be {definition['description']}"
    return exc.message


def apply_event(ms: MatchState, seq: int, type: str, seat: int | None, data: dict[str, Any]) -> MatchState:
    """Apply one already-normalized event (as stored in the log)."""
    if type == UNDO:
        return _undo(ms, seq, data)
    game = ms.game
    after = game.apply(ms.state, type, seat, data)
    # Step(...) and MatchState(...) as their frozen dataclasses make them,
    # without one object.__setattr__ per field (this runs once per event)
    step = _new_object(Step)
    fields = step.__dict__
    fields["seq"] = seq
    fields["type"] = type
    fields["chance"] = game.event_types[type].actor == CHANCE
    fields["before"] = ms.state
    fields["prev"] = ms.stack
    out = _new_object(MatchState)
    fields = out.__dict__
    fields["game"] = game
    fields["setup"] = ms.setup
    fields["seq"] = seq
    fields["state"] = after
    fields["stack"] = step
    fields["depth"] = ms.depth + 1
    fields["undone"] = ()
    fields["marks"] = ms.marks
    return out


_new_object = object.__new__


def _undo(ms: MatchState, seq: int, data: dict[str, Any]) -> MatchState:
    step = ms.stack
    undone: list[int] = []
    if ms.simulated:
        # Server-drawn outcomes go with the move that caused them, so an undo
        # followed by the same move draws the same outcome again (no rerolls).
        while step is not None and step.chance and step.prev is not None:
            undone.append(step.seq)
            step = step.prev
    if step is None:
        raise RuleViolation("core.undo", "there is no move to undo; the setup cannot be undone")
    if step.before is ELIDED:
        raise HistoryElided(step.seq)
    expected = data.get("seq")
    if expected is not None and expected != step.seq:
        raise RuleViolation("core.undo", f"the latest effective move is seq {step.seq}, not {expected}")
    undone.append(step.seq)
    return MatchState(ms.game, ms.setup, seq, step.before, step.prev, ms.depth - len(undone), tuple(undone),
                      Marks(seq, tuple(sorted(undone)), ms.marks))


def chance_events(ms: MatchState, first_seq: int) -> list[tuple[str, int | None, dict[str, Any]]]:
    """In a simulated match, the chance outcomes the server draws now.

    The RNG is derived from the recorded seed, the server's secret (where the
    setup holds one) and the depth of the effective line (``chance_rng``), so
    replays, and redoing an undone move, draw bit-for-bit the same.
    """
    return draw_chance(ms, first_seq)[0]


def draw_chance(ms: MatchState, first_seq: int) -> tuple[list[tuple[str, int | None, dict[str, Any]]], MatchState]:
    """``chance_events`` and the match after them: a caller that applies the
    draws anyway (a simulation) need not apply each one a second time."""
    if not ms.simulated:
        return [], ms
    drawn = []
    seq = first_seq
    while CHANCE in ms.game.actors(ms.state) and ms.result is None:
        move = ms.game.chance_outcome(ms.state, chance_rng(ms.setup, ms.depth))
        if move is None:
            break
        data = normalize_event(ms, move.type, move.seat, move.data, by_server=True)
        ms = apply_event(ms, seq, move.type, move.seat, data)
        drawn.append((move.type, move.seat, data))
        seq += 1
        if len(drawn) > 10_000:
            raise RuntimeError("chance draws do not terminate")
    return drawn, ms


def replay_steps(
    events: Iterable[dict[str, Any]], ms: MatchState | None = None
) -> Iterator[tuple[dict[str, Any], MatchState | None, MatchState]]:
    """Yield ``(event, before, after)`` for each event of a log, checking every
    rule again: seqs without gaps, canonical data, and in a simulated match
    that each chance outcome is the one the recorded seed draws. From the
    start, the setup event comes first with ``before`` None; given ``ms``, the
    events continue the match from there."""
    for event in events:
        if ms is None:
            if event["type"] != SETUP or event["seq"] != 1:
                raise MalformedEvent("a log starts with its setup event at seq 1", field="type")
            ms = start(event["data"], event["seq"])
            yield event, None, ms
            continue
        if event["seq"] != ms.seq + 1:
            raise MalformedEvent(f"seq {ms.seq + 1} is missing from the log", field="seq")
        data = normalize_event(ms, event["type"], event["seat"], event["data"], by_server=True)
        if data != event["data"]:
            raise MalformedEvent(f"seq {event['seq']}: data is not in canonical form", field="data")
        if ms.simulated and event["type"] != UNDO and ms.game.event_types[event["type"]].actor == CHANCE:
            _check_drawn(ms, event)
        after = apply_event(ms, event["seq"], event["type"], event["seat"], data)
        yield event, ms, after
        ms = after
    if ms is None:
        raise MalformedEvent("empty log")


def replay(events: Iterable[dict[str, Any]]) -> MatchState:
    """Rebuild a match from its log (setup first), checking every rule again."""
    ms = None
    for _, _, ms in replay_steps(events):
        pass
    return ms  # type: ignore[return-value]


def _check_drawn(ms: MatchState, event: dict[str, Any]) -> None:
    move = ms.game.chance_outcome(ms.state, chance_rng(ms.setup, ms.depth))
    expected = normalize_event(ms, move.type, move.seat, move.data, by_server=True) if move else None
    if move is None or (move.type, move.seat, expected) != (event["type"], event["seat"], event["data"]):
        raise RuleViolation(
            "core.simulated_chance",
            f"seq {event['seq']}: this chance outcome is not the one the recorded seed (and secret) draws",
        )


def undone_seqs(events: Iterable[dict[str, Any]]) -> set[int]:
    """The seqs of a log that an undo reverted, worked out from the log alone
    with the same stack rule as ``_undo`` (no states needed)."""
    stack: list[tuple[int, bool]] = []
    undone: set[int] = set()
    game: Game | None = None
    simulated = False
    for event in events:
        if event["type"] == SETUP:
            game = registry.get(event["data"]["game"])
            simulated = event["data"].get("mode") == "simulated"
        elif event["type"] == UNDO:
            if simulated:
                while stack and stack[-1][1] and len(stack) > 1:
                    undone.add(stack.pop()[0])
            if stack:
                undone.add(stack.pop()[0])
        elif game is not None:
            stack.append((event["seq"], game.event_types[event["type"]].actor == CHANCE))
    return undone


def undone_between(ms: MatchState, lo: int, hi: int) -> frozenset[int]:
    """The seqs from ``lo`` to ``hi`` that an undo up to ``ms`` reverted: the
    same as ``undone_seqs`` of the whole log there, worked out from the marks
    the match kept as it went (``MatchState.marks``), without the log. It
    walks the undos after ``lo`` only, so a range near the head costs the
    same in a log of 100 events and of 100,000. Raises ValueError for a
    match decoded from a snapshot that did not keep them (``UnknownMarks``)
    where they would be needed."""
    found: set[int] = set()
    node = ms.marks
    while node is not None and node.at > lo:
        if type(node) is UnknownMarks:
            raise ValueError("this match was decoded from a snapshot without its undo marks")
        seqs = node.seqs
        if len(seqs) > 8:
            found.update(seqs[bisect_left(seqs, lo):bisect_right(seqs, hi)])
        else:
            found.update(s for s in seqs if lo <= s <= hi)
        node = node.prev
    return frozenset(found)


def marks_unknown(ms: MatchState) -> bool:
    """Whether ``ms`` is a match just decoded from a snapshot that kept no
    marks (``with_marks`` gives it them)."""
    return type(ms.marks) is UnknownMarks


def with_marks(ms: MatchState, undone: Iterable[int]) -> MatchState:
    """``ms`` with ``undone`` (every seq an undo reverted up to it, e.g.
    ``undone_seqs`` of its log) as its marks, in place of unknown ones."""
    seqs = tuple(sorted(undone))
    marks = Marks(ms.seq, seqs, None) if seqs else None
    return MatchState(ms.game, ms.setup, ms.seq, ms.state, ms.stack, ms.depth, ms.undone, marks)


def _all_marks(ms: MatchState) -> list[int]:
    """Every undone seq up to ``ms``, sorted."""
    parts: list[tuple[int, ...]] = []
    node, held = ms.marks, None
    while node is not None:
        if type(node) is UnknownMarks:
            raise ValueError("this match was decoded from a snapshot without its undo marks")
        if node.flat is not None:
            held = node
            break
        parts.append(node.seqs)
        node = node.prev
    found = list(held.flat) if held is not None else []
    found.extend(chain.from_iterable(reversed(parts)))
    found.sort()  # nearly sorted already: an undo mostly reverts the seqs just before it
    if parts:
        ms.marks.flat = tuple(found)
        if held is not None:
            held.flat = None  # one flat copy a line of play, not one per snapshot
    return found


def event_view(
    ms: MatchState, event: dict[str, Any], viewer: int | str | None, undone: set[int] | frozenset[int] = frozenset()
) -> dict[str, Any]:
    """A logged event as ``viewer`` may see it, given the match now.

    The seed and the secret of a simulated match stay hidden until the match
    ends: together they decide every future draw. Once it has ended, both are
    shown (with the setup's salt), so anyone can check the setup's commitment
    and replay every draw. An undone seat move or chance outcome keeps its
    data hidden until the end too (the card went back face down; its game can
    no longer tell whether it was seen). Otherwise the game hides its own
    secrets (face-down cards) through ``Game.event_view``.

    A redacted event loses its ``salt`` (even when only part of its data is
    hidden, as a deal showing a seat its own hand): its commitment and hash
    stay, and without the salt they tell nothing about the data. An event
    shown whole keeps its salt, so the viewer can check its commitment.
    """
    if viewer == REFEREE:
        return event
    shown = _event_view(ms, event, viewer, undone)
    if shown is not event and "salt" in shown and (shown.get("redacted") or shown.get("data") != event.get("data")):
        # Without its salt the event's commitment (and so its hash) says
        # nothing about the data; with it, every guess could be checked.
        shown = {k: v for k, v in shown.items() if k != "salt"}
    return shown


def _event_view(
    ms: MatchState, event: dict[str, Any], viewer: int | str | None, undone: set[int] | frozenset[int]
) -> dict[str, Any]:
    finished = ms.result is not None
    if event["type"] == SETUP:
        data = event["data"]
        hidden = {key: "hidden" for key in ("seed", "secret") if data.get(key) is not None}
        if hidden and not finished:
            return {**event, "data": {**data, **hidden}, "redacted": True}
        return event
    if event["type"] == UNDO:
        return event
    if event["seq"] in undone and not finished and ms.game.event_types[event["type"]].actor != "table":
        return {**event, "data": {"hidden": True}, "redacted": True}
    return ms.game.event_view(ms.state, event, viewer)


def hidden_summary(ms: MatchState, event: dict[str, Any]) -> Text:
    """The review's line for an event whose data the viewer may not see: it
    names who and what kind of event (in Dutch as the rules text names it),
    never anything the data decides (a game's own ``describe`` reads the
    data, so it is not asked)."""
    type_ = event["type"]
    seat = event.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(ms.players):
        return say("{who}: {what} (hidden from this view)", who=ms.players[seat], what=type_name(ms.game, type_))
    return say("{What} (hidden from this view)", What=type_name(ms.game, type_, capital=True))


def type_name(game: Any, type_: str, capital: bool = False) -> Words:
    """An event type as a reader names it: in Dutch by the rules text's word (``event_title_nl``), in English
    by its name in words (``steal_resource``: "steal resource"), never as the API's id."""
    en = UNDO_WORDS[0] if type_ == UNDO else type_.replace("_", " ")
    nl = UNDO_WORDS[1] if type_ == UNDO else game.event_title_nl(type_) or en
    return Words(en=en[:1].upper() + en[1:], nl=nl[:1].upper() + nl[1:]) if capital else Words(en=en, nl=nl)


#: the undo event's name in English and in Dutch (as the API's event types name it: service/api.py)
UNDO_WORDS = ("undo", "ongedaan maken")


def legal_moves(ms: MatchState, seat: int | None) -> list[dict[str, Any]]:
    if ms.result is not None:
        return []
    return [m.to_dict() for m in ms.game.legal_moves(ms.state, seat)]


def chance_due(ms: MatchState) -> list[dict[str, Any]]:
    """The kind of chance outcome due now (``type`` and ``seat``), never its
    data: what a recorder's picker should ask for. Found by letting the game
    draw one outcome from a throw-away RNG, so no game states it twice; a
    game that cannot draw here (a physical match with unknown cards) says
    nothing, and the recorder picks the kind."""
    if ms.result is not None or CHANCE not in ms.game.actors(ms.state):
        return []
    try:
        move = ms.game.chance_outcome(ms.state, random.Random(0))
    except Exception:  # noqa: BLE001 - a hint only; the recorder can still choose
        return []
    return [{"type": move.type, "seat": move.seat}] if move is not None else []


# -- snapshots ----------------------------------------------------------------

def encode(ms: MatchState, undo_depth: int = SNAPSHOT_UNDO_DEPTH, marks: bool = False) -> dict[str, Any]:
    """JSON-able snapshot. It keeps the newest ``undo_depth`` undo steps; the
    rest of the history is left out (an undo that reaches it replays the log),
    so a snapshot costs the same at seq 10 and at seq 10,000.

    ``marks``: keep every seq an undo reverted too (``"marks"``: the first,
    then the gaps between them, which compress to almost nothing), so that
    the match decoded from it knows which events are undone without its log
    (the service's snapshots; a page's has no use for them)."""
    stack = []
    step = ms.stack
    while step is not None and len(stack) < undo_depth and step.before is not ELIDED:
        stack.append([step.seq, step.type, step.chance, ms.game.encode_state(step.before)])
        step = step.prev
    out = {
        "seq": ms.seq,
        "depth": ms.depth,
        "undone": list(ms.undone),
        "state": ms.game.encode_state(ms.state),
        "stack": stack,
        "elided": step is not None,
    }
    if marks:
        seqs = _all_marks(ms)
        out["marks"] = list(map(sub, seqs, [0, *seqs]))
    return out


def trimmed(ms: MatchState, undo_depth: int = SNAPSHOT_UNDO_DEPTH) -> MatchState:
    """The match with only its newest ``undo_depth`` undo steps, as a
    snapshot keeps it (``encode``: an undo further back raises
    ``HistoryElided``) but in memory, sharing its states: it costs the same
    at seq 10 and at seq 10,000. (The worker's checkpoints keep these.)"""
    kept: list[Step] = []
    step = ms.stack
    while step is not None and len(kept) < undo_depth and step.before is not ELIDED:
        kept.append(step)
        step = step.prev
    if step is None:
        return ms  # nothing to leave out
    rest = Step(seq=0, type="", chance=False, before=ELIDED, prev=None)
    for s in reversed(kept):
        rest = Step(seq=s.seq, type=s.type, chance=s.chance, before=s.before, prev=rest)
    return MatchState(ms.game, ms.setup, ms.seq, ms.state, rest, ms.depth, ms.undone)


def decode(setup: dict[str, Any], obj: dict[str, Any]) -> MatchState:
    game = registry.get(setup["game"])
    # The history a snapshot left out is one step that cannot be undone
    # without the log: undoing into it raises HistoryElided.
    step = Step(seq=0, type="", chance=False, before=ELIDED, prev=None) if obj.get("elided") else None
    for seq, type, chance, before in reversed(obj["stack"]):
        step = Step(seq=seq, type=type, chance=chance, before=game.decode_state(before), prev=step)
    gaps = obj.get("marks")
    if gaps is None:
        marks: Marks | None = UnknownMarks(obj["seq"], (), None)
    else:
        seqs = tuple(accumulate(gaps))
        marks = Marks(obj["seq"], seqs, None) if seqs else None
        if marks is not None:
            marks.flat = seqs
    return MatchState(
        game=game,
        setup=setup,
        seq=obj["seq"],
        state=game.decode_state(obj["state"]),
        stack=step,
        depth=obj["depth"],
        undone=tuple(obj["undone"]),
        marks=marks,
    )


def rule_text(rule: str) -> str | None:
    """The text of a rule id: ``core.*``, ``<game id>.*``, or a rule of a game
    whose ids have a prefix of their own (Troje's ``troje.*``)."""
    if rule in CORE_RULES:
        return CORE_RULES[rule]
    try:
        text = registry.get(rule.split(".", 1)[0]).rules.get(rule)
    except KroniekError:
        text = None
    if text is None:
        text = next((game.rules[rule] for game in registry.all_games() if rule in game.rules), None)
    return text


__all__ = [
    "CORE_RULES",
    "HistoryElided",
    "MatchState",
    "REFEREE",
    "SETUP",
    "UNDO",
    "apply_event",
    "chance_due",
    "chance_events",
    "chance_rng",
    "draw_chance",
    "decode",
    "encode",
    "event_view",
    "hidden_summary",
    "marks_unknown",
    "undone_between",
    "undone_seqs",
    "with_marks",
    "legal_moves",
    "make_setup",
    "check_player_names",
    "normalize_event",
    "replay",
    "replay_steps",
    "start",
    "trimmed",
]


# -- scenes -------------------------------------------------------------------

def visible_moves(ms: MatchState, viewer: int | str | None) -> list[dict[str, Any]]:
    """The legal moves ``viewer`` may see: the referee sees every move; a
    seat its own, and the table's unless they depend on hidden cards; in a
    game with nothing hidden, anyone sees every seat's moves."""
    if ms.result is not None:
        return []
    actors = ms.game.actors(ms.state)
    everything = viewer == REFEREE
    out: list[dict[str, Any]] = []
    if "table" in actors and (everything or not ms.game.table_moves_hidden(ms.state)):
        out += legal_moves(ms, None)
    for seat in sorted(a for a in actors if isinstance(a, int) and not isinstance(a, bool)):
        if everything or viewer == seat or not ms.game.hidden_information:
            out += legal_moves(ms, seat)
    return out


def scene(ms: MatchState, viewer: int | str | None) -> dict[str, Any] | None:
    """The match's table for ``viewer`` (``engine.scene``), or None when the
    game has no scene: built from that viewer's view and the moves they may
    see, nothing else."""
    built = ms.game.scene(ms.view(viewer), visible_moves(ms, viewer))
    return None if built is None else {"seq": ms.seq, "viewer": viewer, **built.to_dict()}
