"""A compact text notation for every game, in the spirit of PGN: header tags,
then one event per line, with comments ``{…}`` and glyphs (``! ? !! ?? !? ?!``).

    [Game "braverats"]
    [Players "Ann" "Bob"]
    [Date "2026.11.24"]
    [Mode "physical"]
    [Options ""]

    2. round spy prince {Bob had to guess} !?
    3. round musician princess

A line is ``[<seq>.] [<player>:] <event> <arguments> [glyphs] [{comment}]``.
The event is its type or one of the game's (Dutch) aliases; an argument is
bare (the game's positional fields, see ``Syntax``) or ``field=value``. A
value is written as the field's JSON Schema reads it: ``-`` is null, ``a,b``
an array, ``a,b/c,d`` an array of arrays, ``()`` an empty array (``[]`` an
empty array of arrays), and text
with spaces or punctuation is quoted as a JSON string. Cards are read by the
game's own ``normalize``, so every Dutch name it accepts is accepted here.

Each game may declare its syntax in ``engine/<game>/notation.py`` (a
``SYNTAX = Syntax(...)``); a game without one gets the default, derived from
its event types' schemas, so a new game is written and read with no code.

Everything here is pure. ``write`` turns a log (as one viewer saw it) into
text; ``read`` turns text into a checked match in memory, every event through
``engine.match`` as the service would enter it, raising ``NotationError``
(line, column, rule) at the first thing wrong. The service writes only what
``read`` returned, so a bad line writes nothing.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from . import match as M
from . import registry
from .core import CHANCE, REFEREE, Game, KroniekError, RuleViolation

GLYPHS = ("!!", "!", "!?", "?!", "?", "??")
#: PGN's numeric annotation glyphs for the same six
NAGS = {"$1": "!", "$2": "?", "$3": "!!", "$4": "??", "$5": "!?", "$6": "?!"}
HIDDEN = "hidden"
UNKNOWN = "unknown"

#: The notation's own rules, quoted in its errors like a game's rules.
NOTATION_RULES = {
    "notation.syntax": "A line is [<seq>.] [<player>:] <event> <arguments> [glyphs] [{comment}]; a value is bare "
    "or a JSON string in double quotes, and a comment is closed by '}'.",
    "notation.header": "The header is tags [Name \"value\"] before the first move: Game, Players and Mode are "
    "needed (Mode defaults to physical); Options holds field=value pairs of the game's options.",
    "notation.move_number": "A move number, when given, is the event's seq: the setup is 1, the first move 2, "
    "each line one more.",
    "notation.player": "A move made by a seat starts with that player's name from the Players tag and a colon.",
    "notation.move": "Each line names an event type of the game (or a Dutch alias) with data its JSON Schema "
    "accepts: cards by name, English or Dutch.",
    "notation.hidden": "A value the exporting view could not see ('hidden') cannot be recorded: import the "
    "referee's export, or enter the card as 'unknown' where the game allows it.",
    "notation.limit": "A notation holds at most the events, characters and comment lengths of the API's limits.",
}

#: Tag names accepted when reading (Dutch too) -> the tag
TAG_ALIASES = {
    "game": "Game", "spel": "Game",
    "players": "Players", "spelers": "Players",
    "date": "Date", "datum": "Date",
    "mode": "Mode", "modus": "Mode", "wijze": "Mode",
    "options": "Options", "opties": "Options",
    "seed": "Seed", "zaad": "Seed",
    "secret": "Secret", "geheim": "Secret",
    "cardset": "CardSet", "kaartset": "CardSet",
    "view": "View", "zicht": "View",
    "match": "Match", "partij": "Match",
    "result": "Result", "uitslag": "Result",
}
#: Verbs accepted for an undo
UNDO_VERBS = ("undo", "ongedaan", "terug")
MODE_ALIASES = {"physical": "physical", "fysiek": "physical", "aan tafel": "physical",
                "simulated": "simulated", "gesimuleerd": "simulated"}

#: What one notation may hold (``service.limits`` lists them with the API's limits).
MAX_EVENTS = 10_000
MAX_TEXT = 1_000_000


class NotationError(KroniekError):
    """A notation that cannot be read or whose move the rules refuse: where
    (``line``, ``column``, both from 1), which rule and why."""

    code = "invalid_notation"
    status = 422

    def __init__(self, message: str, line: int, column: int, rule: str, cause: str | None = None,
                 **details: Any) -> None:
        text = NOTATION_RULES.get(rule) or M.rule_text(rule)
        extra: dict[str, Any] = {"line": line, "column": column, "rule": rule}
        if text:
            extra["rule_text"] = text
        if cause:
            extra["cause"] = cause
        super().__init__(f"line {line}, column {column}: {message}", **extra, **details)
        self.line, self.column, self.rule = line, column, rule


# -- what a game declares ------------------------------------------------------------------

@dataclass(frozen=True)
class Syntax:
    """A game's notation: which fields are written bare, which the game fills
    in itself, which hidden cards may be written as unknown.

    ``positional``: event type -> field names written without ``name=``, in
    order; ``*name`` takes every remaining bare argument as the items of the
    array ``name``. Without an entry, an event type's only required field is
    positional. ``derived``: fields ``normalize`` fills in (left out when
    writing). ``unknown_for_hidden``: event types whose card lists accept
    ``unknown``: a card the exporting view did not see is written so, and the
    text imports. ``option_tags``: options written as a tag of their own
    (Ridder-toernooi's card set); ``omit_options``: options never written
    (an embedded document the server fills in from its hash).
    """

    positional: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    derived: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unknown_for_hidden: frozenset[str] = frozenset()
    option_tags: Mapping[str, str] = field(default_factory=dict)
    omit_options: tuple[str, ...] = ()


DEFAULT_SYNTAX = Syntax()
_SYNTAX_CACHE: dict[str, Syntax] = {}


def syntax_of(game: Game) -> Syntax:
    """The game's ``SYNTAX`` from ``<its package>.notation``, or the default."""
    cached = _SYNTAX_CACHE.get(game.id)
    if cached is None:
        package = type(game).__module__.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(f"{package}.notation")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.notation":
                raise
            cached = DEFAULT_SYNTAX
        else:
            cached = getattr(module, "SYNTAX", DEFAULT_SYNTAX)
        _SYNTAX_CACHE[game.id] = cached
    return cached


def _schema_of(game: Game, type_: str) -> dict[str, Any]:
    return M.UNDO_SCHEMA if type_ == M.UNDO else game.event_types[type_].schema


def _positional(game: Game, syntax: Syntax, type_: str) -> tuple[str, ...]:
    if type_ in syntax.positional:
        return syntax.positional[type_]
    if type_ == M.UNDO:
        return ("seq",)
    schema = _schema_of(game, type_)
    required = [f for f in schema.get("required", []) if f not in syntax.derived.get(type_, ())]
    return tuple(required) if len(required) == 1 else ()


# -- values ---------------------------------------------------------------------------------

_TYPES: dict[int, tuple[Any, frozenset[str]]] = {}


def _types(schema: Mapping[str, Any] | None) -> frozenset[str]:
    """The JSON types a schema allows (through anyOf/oneOf); empty: any.
    Memoized per schema object (the games' schemas live as long as they do)."""
    if not schema:
        return frozenset()
    hit = _TYPES.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    out = frozenset(_schema_types(schema))
    _TYPES[id(schema)] = (schema, out)
    return out


def _schema_types(schema: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    t = schema.get("type")
    if isinstance(t, str):
        out.add(t)
    elif isinstance(t, list):
        out.update(t)
    for key in ("anyOf", "oneOf"):
        for sub in schema.get(key, ()):
            out |= _types(sub) or {"any"}
    if "enum" in schema and not out:
        for v in schema["enum"]:
            out.add({bool: "boolean", int: "integer", str: "string", type(None): "null"}.get(type(v), "any"))
    return out


def _items(schema: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    if not schema:
        return None
    if "items" in schema:
        return schema["items"]
    for key in ("anyOf", "oneOf"):
        for sub in schema.get(key, ()):
            if "items" in sub:
                return sub["items"]
    return None


_INT = re.compile(r"-?\d+\Z")
#: What a Seed or Secret tag says when the exporting view could not see it
_UNSEEN = (HIDDEN, "?", "", "none")
_BARE = re.compile(r"[^\s{}\[\]\",/=;:()]+\Z")


def _atom(text: str, quoted: bool, schema: Mapping[str, Any] | None) -> Any:
    if quoted:
        if "object" in _types(schema) and text.startswith("{"):
            try:  # an object is written as its JSON text, quoted
                value = json.loads(text)
            except ValueError:
                return text
            return value if isinstance(value, dict) else text
        return text
    types = _types(schema)
    if text == "-" and (not types or "null" in types):
        return None
    if _INT.match(text) and (not types or "integer" in types or "number" in types):
        return int(text)
    if text in ("true", "false") and (not types or "boolean" in types):
        return text == "true"
    return text


def _format_atom(value: Any, schema: Mapping[str, Any] | None) -> str:
    if value is None:
        return "-"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if (isinstance(value, str) and _BARE.match(value) and _atom(value, False, schema) == value
            and value not in GLYPHS and value not in NAGS and value != HIDDEN):
        return value
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    raise ValueError(f"no notation for {value!r}")


def format_value(value: Any, schema: Mapping[str, Any] | None) -> str:
    """One value as its field's schema reads it back (``parse_value``)."""
    if isinstance(value, list):
        items = _items(schema)
        if len(value) == 1 and not isinstance(value[0], list) and _types(schema) - {"array"}:
            # one item where a lone value is also allowed (an integer or a pair of
            # coordinates): its JSON text, quoted, so it does not read back as the value
            return json.dumps(json.dumps(value, ensure_ascii=False, separators=(",", ":")), ensure_ascii=False)
        if not value:  # in a list of lists "()" is one empty list: no list at all is "[]"
            return "[]" if "array" in _types(items) else "()"
        if all(isinstance(v, list) for v in value):
            return "/".join(format_value(v, items) for v in value)
        if any(isinstance(v, (list, dict)) for v in value):  # a mixed list: its JSON text, quoted
            return json.dumps(json.dumps(value, ensure_ascii=False, separators=(",", ":")), ensure_ascii=False)
        return ",".join(_format_atom(v, items) for v in value)
    if isinstance(value, dict):  # an object: its JSON text, quoted
        return json.dumps(json.dumps(value, ensure_ascii=False, separators=(",", ":")), ensure_ascii=False)
    return _format_atom(value, schema)


def _split(text: str, sep: str) -> list[tuple[str, int]]:
    """``text`` split at ``sep`` outside quoted strings: (piece, offset)."""
    out, start, i, quoted = [], 0, 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == sep:
            out.append((text[start:i], start))
            start = i + 1
        i += 1
    out.append((text[start:], start))
    return out


class _ValueError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message, self.offset = message, offset


def _parse_atom(text: str, offset: int, schema: Mapping[str, Any] | None) -> Any:
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            raise _ValueError(f"{text!r} is not a string in double quotes (JSON escapes)", offset) from None
        if not isinstance(value, str):
            raise _ValueError(f"{text!r} is not a string", offset)
        return _atom(value, True, schema)
    if not text:
        raise _ValueError("an empty value (write () for an empty list, - for none)", offset)
    if '"' in text:
        raise _ValueError(f"a quote inside the bare value {text!r}", offset + text.index('"'))
    return _atom(text, False, schema)


def parse_value(text: str, schema: Mapping[str, Any] | None, offset: int = 0) -> Any:
    """A written value, read as ``schema`` wants it (see the module's doc)."""
    types = _types(schema)
    items = _items(schema)
    if ("array" in types and types - {"array", "any"} and text not in ("[]", "()") and not text.startswith('"[')
            and len(_split(text, ",")) == 1 and len(_split(text, "/")) == 1):
        return _parse_atom(text, offset, schema)  # a lone value where a list is also allowed
    if "array" in types or (not types and items is not None):
        if text == "[]" or (text == "()" and "array" not in _types(items)):
            return []
        if text.startswith('"[') and text.endswith('"') and len(_split(text, ",")) == 1:
            try:  # a list written as its JSON text (one holding objects or mixed items)
                value = json.loads(json.loads(text))
            except ValueError:
                value = None
            if isinstance(value, list):
                return value
        if "array" in _types(items):
            return [[] if piece == "()" else parse_value(piece, items, offset + at)
                    for piece, at in _split(text, "/")]
        return [_parse_atom(piece, offset + at, items) for piece, at in _split(text, ",")]
    return _parse_atom(text, offset, schema)


# -- tokens -----------------------------------------------------------------------------------

@dataclass
class Token:
    kind: str  # word | comment | glyph
    text: str
    line: int
    column: int
    start: int
    end: int


@dataclass
class Line:
    """One event's line: its words, then its glyphs and comments."""

    words: list[Token]
    notes: list[Token]
    line: int


@dataclass
class Tag:
    name: str
    values: list[str]
    line: int
    column: int


@dataclass
class Document:
    tags: dict[str, Tag]
    preamble: list[Token]
    lines: list[Line]


_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s*((?:"(?:[^"\\]|\\.)*"\s*)*)\]\s*\Z')
_TAG_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"')
_TOKEN = re.compile(r'''
    (?P<nl>\n) | (?P<ws>[ \t\f\v\r]+) | (?P<semi>;[^\n]*)
  | (?P<comment>\{(?:[^}\\]|\\.)*\})
  | (?P<word>(?:"(?:[^"\\\n]|\\.)*"|[^\s{}"])+)
  | (?P<bad>.)
''', re.X | re.S)
_UNESCAPE = re.compile(r"\\([}\\])")


def _clean(text: str) -> str:
    """Without a byte-order mark; a CR is white space (CRLF lines read as LF
    lines) except inside a comment, which keeps its text exactly."""
    return text[1:] if text.startswith("\ufeff") else text


def parse(text: str) -> Document:
    """The text's tags and lines, without a game (see ``read``)."""
    if len(text) > MAX_TEXT:
        raise NotationError(f"a notation has at most {MAX_TEXT:,} characters, not {len(text):,}", 1, 1,
                            "notation.limit")
    text = _clean(text)
    tags: dict[str, Tag] = {}
    # the header: tags, blank lines and ';' comments before the first move
    pos, line_no = 0, 1
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        raw = text[pos:end].strip()
        if raw and not raw.startswith(("[", ";")):
            break
        if raw.startswith("["):
            m = _TAG.match(raw)
            col = text.index("[", pos) - pos + 1
            if not m:
                raise NotationError(f"a header tag is [Name \"value\"], not {raw[:60]!r}", line_no, col,
                                    "notation.header")
            name = TAG_ALIASES.get(m.group(1).lower(), m.group(1))
            if name in tags:
                raise NotationError(f"the tag {name} is given twice", line_no, col, "notation.header")
            tags[name] = Tag(name, [json.loads(v) for v in _TAG_VALUE.findall(m.group(2))], line_no, col)
        pos, line_no = end + 1, line_no + 1
    preamble: list[Token] = []
    lines: list[Line] = []
    current: Line | None = None
    line_start = pos
    for m in _TOKEN.finditer(text, min(pos, len(text))):
        kind = m.lastgroup
        i = m.start()
        col = i - line_start + 1
        if kind == "nl":
            line_no += 1
            line_start = m.end()
            continue
        if kind in ("ws", "semi"):
            continue
        if kind == "bad":
            what = {"{": "a comment opened with '{' is not closed with '}'",
                    "}": "'}' without a comment to close",
                    '"': "a string opened with '\"' is not closed on its line"}.get(m.group(), "unexpected text")
            raise NotationError(what, line_no, col, "notation.syntax")
        if kind == "comment":
            raw = m.group()
            token = Token("comment", _UNESCAPE.sub(r"\1", raw[1:-1]), line_no, col, i, m.end())
            newlines = raw.count("\n")
            if newlines:
                line_no += newlines
                line_start = i + raw.rindex("\n") + 1
            (lines[-1].notes if lines else preamble).append(token)
            continue
        word = m.group()
        if word in GLYPHS or word in NAGS:
            token = Token("glyph", NAGS.get(word, word), line_no, col, i, m.end())
            (lines[-1].notes if lines else preamble).append(token)
            continue
        token = Token("word", word, line_no, col, i, m.end())
        if current is None or current.line != line_no:
            current = Line([], [], line_no)
            lines.append(current)
            if len(lines) > MAX_EVENTS:
                raise NotationError(f"a notation holds at most {MAX_EVENTS:,} events", line_no, col,
                                    "notation.limit")
        elif current.notes:
            raise NotationError(f"{word[:40]!r} after the move's glyphs or comments; one move per line", line_no,
                                col, "notation.syntax")
        current.words.append(token)
    return Document(tags, preamble, lines)


# -- writing ----------------------------------------------------------------------------------

_PLAIN_NAME = re.compile(r"[^\s{}\[\]\":;\\$]+(?: [^\s{}\[\]\":;\\$]+)*\Z")


def _name_text(name: str) -> str:
    if _PLAIN_NAME.match(name) and not re.match(r"\d+\.", name) and name not in GLYPHS:
        return name
    return json.dumps(name, ensure_ascii=False)


def _tag(name: str, *values: Any) -> str:
    return f"[{name} " + " ".join(json.dumps(str(v), ensure_ascii=False) for v in values) + "]"


def format_options(game: Game, options: Mapping[str, Any], syntax: Syntax | None = None) -> str:
    """The options that differ from their defaults, as ``field=value`` pairs."""
    syntax = syntax or syntax_of(game)
    props = game.options_schema.get("properties", {})
    parts = []
    for name, value in options.items():
        if name in syntax.omit_options or name in syntax.option_tags:
            continue
        prop = props.get(name, {})
        if "default" in prop and prop["default"] == value:
            continue
        parts.append(f"{name}={format_value(value, prop)}")
    return " ".join(parts)


def format_event(game: Game, players: list[str], type_: str, seat: Any, data: Mapping[str, Any],
                 syntax: Syntax | None = None) -> str:
    """One event's move text (no number, glyphs or comments)."""
    syntax = syntax or syntax_of(game)
    who = f"{_name_text(players[seat])}: " if isinstance(seat, int) and 0 <= seat < len(players) else ""
    if data == {"hidden": True}:
        return f"{who}{type_} {HIDDEN}"
    schema = _schema_of(game, type_)
    props = schema.get("properties", {})
    derived = syntax.derived.get(type_, ())
    positional = _positional(game, syntax, type_)
    parts = [type_]
    written = set()
    for name in positional:
        spread = name.startswith("*")
        key = name.lstrip("*")
        if key not in data:
            break
        value = data[key]
        written.add(key)
        if spread and isinstance(value, list) and value:
            parts += [format_value(v, _items(props.get(key))) for v in value]
        else:
            parts.append(format_value(value, props.get(key)))
    # the schema's order, whatever the stored order (the log keeps keys sorted)
    for key in [*[k for k in props if k in data], *[k for k in data if k not in props]]:
        if key in written or key in derived:
            continue
        parts.append(f"{key}={format_value(data[key], props.get(key))}")
    return who + " ".join(parts)


def _escape_comment(text: str) -> str:
    return text.replace("\\", "\\\\").replace("}", "\\}")


def _notes_text(notes: Iterable[Mapping[str, Any]]) -> str:
    """Each annotation: its glyph, its comment, or both written together
    (``!?{…}``, no space between: that is what makes them one annotation)."""
    out = []
    for note in notes:
        glyph, comment = note.get("glyph") or "", note.get("comment")
        out.append(glyph + ("{" + _escape_comment(comment) + "}" if comment is not None else ""))
    return " ".join(part for part in out if part)


def _hidden_as_unknown(value: Any) -> Any:
    if value == HIDDEN:
        return UNKNOWN
    if isinstance(value, list):
        return [_hidden_as_unknown(v) for v in value]
    return value


def viewer_label(viewer: Any, players: list[str]) -> str:
    if viewer == REFEREE:
        return "referee"
    if viewer is None:
        return "public"
    return f"seat {viewer} ({players[viewer]})" if 0 <= viewer < len(players) else f"seat {viewer}"


def write(events: list[Mapping[str, Any]], notes: Iterable[Mapping[str, Any]] = (), viewer: Any = REFEREE,
          match_id: str | None = None, result: Mapping[str, Any] | None = None) -> str:
    """The notation of a log as ``viewer`` saw it: ``events`` are the log's
    envelopes as that viewer reads them (setup first), ``notes`` the human
    annotations (``seq``, ``glyph``, ``comment``). A value hidden from the
    viewer is written ``hidden`` (or ``unknown`` where the game takes it)."""
    setup = events[0]["data"]
    game = registry.get(setup["game"])
    syntax = syntax_of(game)
    players = list(setup["players"])
    by_seq: dict[int, list[Mapping[str, Any]]] = {}
    for note in notes:
        by_seq.setdefault(note["seq"], []).append(note)
    lines = [_tag("Game", game.id), _tag("Players", *players)]
    date = str(events[0].get("recorded_at") or "")[:10].replace("-", ".")
    if date:
        lines.append(_tag("Date", date))
    lines.append(_tag("Mode", setup.get("mode", "physical")))
    options = dict(setup.get("options") or {})
    for option, tag in syntax.option_tags.items():
        if option in options:
            lines.append(_tag(tag, options[option]))
    lines.append(_tag("Options", format_options(game, options, syntax)))
    if setup.get("mode") == "simulated":
        lines.append(_tag("Seed", setup.get("seed")))
        if setup.get("secret") is not None:  # "hidden" in a view that may not see it
            lines.append(_tag("Secret", setup["secret"]))
    lines.append(_tag("View", viewer_label(viewer, players)))
    if match_id:
        lines.append(_tag("Match", match_id))
    lines.append(_tag("Result", result_text(result, players)))
    lines.append("")
    first = _notes_text(by_seq.get(1, ()))
    if first:
        lines += [first, ""]
    for event in events[1:]:
        data = event["data"]
        type_ = event["type"]
        if event.get("redacted"):
            if type_ in syntax.unknown_for_hidden and data != {"hidden": True}:
                data = {k: _hidden_as_unknown(v) for k, v in data.items()}
            else:
                data = {"hidden": True}
        text = f"{event['seq']}. " + format_event(game, players, type_, event.get("seat"), data, syntax)
        extra = _notes_text(by_seq.get(event["seq"], ()))
        lines.append(f"{text} {extra}" if extra else text)
    return "\n".join(lines) + "\n"


def result_text(result: Mapping[str, Any] | None, players: list[str]) -> str:
    if not result:
        return "*"
    winners = [players[s] for s in result.get("winners", []) if 0 <= s < len(players)]
    outcome = result.get("outcome", "")
    return f"{outcome} {', '.join(winners)}".strip() if winners else outcome


# -- reading ----------------------------------------------------------------------------------

@dataclass
class ReadEvent:
    """One event of a read notation, as the service will seal it."""

    type: str
    seat: int | None
    data: dict[str, Any]
    by_server: bool
    line: int
    column: int


@dataclass
class Imported:
    setup: dict[str, Any]
    events: list[ReadEvent]
    #: human annotations: (seq, glyph, comment, line, column)
    notes: list[tuple[int, str | None, str | None, int, int]]
    final: M.MatchState
    #: the match at every seq that is a multiple of ``snapshot_every`` (for the service's snapshots)
    snapshots: dict[int, M.MatchState]


def _verbs(game: Game) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """First word (lowercased) -> [(the verb's words, event type)], longest first."""
    table = dict(M.event_type_names(game))
    for verb in UNDO_VERBS:
        table.setdefault(verb, M.UNDO)
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for verb, target in sorted(table.items(), key=lambda kv: -len(kv[0].split())):
        words = tuple(verb.split())
        index.setdefault(words[0], []).append((words, target))
    return index


def _tag_value(tags: dict[str, Tag], name: str, required: bool = False, default: str | None = None) -> str | None:
    tag = tags.get(name)
    if tag is None:
        if required:
            raise NotationError(f"the header has no {name} tag", 1, 1, "notation.header")
        return default
    if len(tag.values) != 1:
        raise NotationError(f"the {name} tag holds one value, not {len(tag.values)}", tag.line, tag.column,
                            "notation.header")
    return tag.values[0]


def _header_error(exc: KroniekError, tags: dict[str, Tag]) -> NotationError:
    field_ = str(exc.details.get("field") or "")
    tag_name = ("Players" if field_.startswith("players") else "Seed" if field_ == "seed" else
                "Secret" if field_ == "secret" else "Mode" if field_ == "mode" else "Options")
    tag = tags.get(tag_name) or tags.get("Game")
    line, col = (tag.line, tag.column) if tag else (1, 1)
    rule = getattr(exc, "rule", None) or exc.details.get("rule") or "notation.header"
    return NotationError(exc.message, line, col, rule, cause=exc.code)


def read_setup(doc: Document, embed: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
               ) -> dict[str, Any]:
    """The setup event's data from the header (checked by ``make_setup``)."""
    tags = doc.tags
    game_name = _tag_value(tags, "Game", required=True)
    try:
        game = _find_game(game_name)
    except KroniekError as exc:
        tag = tags["Game"]
        raise NotationError(exc.message, tag.line, tag.column, "notation.header", cause=exc.code) from None
    syntax = syntax_of(game)
    if "Players" not in tags:
        raise NotationError("the header has no Players tag", 1, 1, "notation.header")
    players = list(tags["Players"].values)
    mode_text = (_tag_value(tags, "Mode", default="physical") or "physical").strip().lower()
    mode = MODE_ALIASES.get(mode_text)
    if mode is None:
        tag = tags["Mode"]
        raise NotationError(f"Mode is physical or simulated, not {mode_text!r}", tag.line, tag.column,
                            "notation.header")
    seed: int | None = None
    secret: str | None = None
    seed_text = _tag_value(tags, "Seed")
    secret_text = _tag_value(tags, "Secret")
    if mode == "simulated":
        if seed_text is None or seed_text.strip().lower() in _UNSEEN:
            # The exporting view could not see the seed: the draws are entered as written.
            mode = "physical"
        elif not _INT.match(seed_text.strip()):
            tag = tags["Seed"]
            raise NotationError(f"Seed is an integer, not {seed_text!r}", tag.line, tag.column, "notation.header")
        elif secret_text is not None and secret_text.strip().lower() in _UNSEEN:
            # Nor the secret the draws were mixed with: they are entered as written, too.
            mode = "physical"
        else:
            seed = int(seed_text.strip())
            # No Secret tag: a match recorded before secrets, or a local simulation (the seed alone draws).
            secret = secret_text.strip() if secret_text is not None else None
    options: dict[str, Any] = {}
    options_tag = tags.get("Options")
    props = game.options_schema.get("properties", {})
    if options_tag is not None:
        text = _tag_value(tags, "Options") or ""
        for piece, at in _words(text):
            key, eq, value = piece.partition("=")
            col = options_tag.column
            if not eq or key not in props:
                known = ", ".join(k for k in props if k not in syntax.omit_options)
                raise NotationError(f"Options holds field=value pairs of {game.name}'s options ({known}), not "
                                    f"{piece!r}", options_tag.line, col, "notation.header")
            if key in options:
                raise NotationError(f"the option {key} is given twice", options_tag.line, col, "notation.header")
            try:
                options[key] = parse_value(value, props[key])
            except _ValueError as exc:
                raise NotationError(f"option {key}: {exc.message}", options_tag.line, col,
                                    "notation.header") from None
    for option, tag_name in syntax.option_tags.items():
        value = _tag_value(tags, tag_name)
        if value is not None:
            options[option] = value
    try:
        if embed is not None:
            options = embed(game.id, options) or options
        return M.make_setup(game.id, players, options, mode, seed, secret)
    except KroniekError as exc:
        raise _header_error(exc, tags) from None


def _find_game(name: str | None) -> Game:
    wanted = (name or "").strip().lower()
    for game in registry.all_games():
        if wanted in (game.id, game.name.lower(), game.id.replace("_", " "), game.id.replace("_", "-")):
            return game
    return registry.get(wanted)


def _words(text: str) -> list[tuple[str, int]]:
    """White-space separated words of a tag value, quoted strings whole."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        j, quoted = i, False
        while j < n and (quoted or not text[j].isspace()):
            if quoted and text[j] == "\\":
                j += 1
            elif text[j] == '"':
                quoted = not quoted
            j += 1
        out.append((text[i:j], i))
        i = j
    return out


def _who(line: Line, players: list[str], start: int, text: str) -> tuple[int | None, int]:
    """The seat named at the start of the line's words (from word ``start``)
    and the index of the first word after it."""
    words = line.words
    if start >= len(words):
        return None, start
    first = words[start]
    if first.text.startswith('"'):
        for k in range(start, len(words)):
            if words[k].text.endswith(":"):
                raw = text[first.start:words[k].end - 1]
                try:
                    name = json.loads(raw)
                except ValueError:
                    break
                return _seat_named(name, players, first), k + 1
        return None, start
    for k in range(start, min(len(words), start + 16)):
        w = words[k]
        if w.text[-1] == ":":
            if k == start:
                return _seat_named(w.text[:-1], players, first), k + 1
            return _seat_named(text[first.start:w.end - 1], players, first), k + 1
    return None, start


def _seat_named(name: str, players: list[str], at: Token) -> int:
    for seat, player in enumerate(players):  # the usual case: the name as written in Players
        if player == name:
            return seat
    key = M.name_key(name)
    for seat, player in enumerate(players):
        if M.name_key(player) == key:
            return seat
    if re.fullmatch(r"#?\d+", name.strip()):
        seat = int(name.strip().lstrip("#"))
        if 0 <= seat < len(players):
            return seat
    raise NotationError(f"no player named {name!r}; the players are {', '.join(players)}", at.line, at.column,
                        "notation.player")


def _contains_hidden(value: Any) -> bool:
    if value == HIDDEN:
        return True
    if isinstance(value, list):
        return any(_contains_hidden(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_hidden(v) for v in value.values())
    return False


@dataclass
class _Move:
    number: int | None
    seat: int | None
    type: str
    data: dict[str, Any]
    line: int
    column: int
    columns: dict[str, int]
    notes: list[Token]


_NUMBER = re.compile(r"(\d+)\.(?:\.\.)?\Z")


def _read_line(line: Line, game: Game, syntax: Syntax, players: list[str],
               verbs: dict[str, list[tuple[tuple[str, ...], str]]], text: str) -> _Move:
    words = line.words
    k = 0
    number = None
    m = _NUMBER.match(words[0].text)
    if m:
        number = int(m.group(1))
        k = 1
    if k >= len(words):
        raise NotationError("a move number without a move", line.line, words[0].column, "notation.syntax")
    seat, k = _who(line, players, k, text)
    if k >= len(words):
        raise NotationError("a player without a move", line.line, words[-1].column, "notation.syntax")
    # the event: the longest verb or alias the words start with
    start = words[k]
    type_ = None
    for verb, target in verbs.get(start.text.lower(), ()):
        if tuple(w.text.lower() for w in words[k:k + len(verb)]) == verb:
            type_ = target
            k += len(verb)
            break
    if type_ is None:
        known = ", ".join(sorted([*game.event_types, M.UNDO]))
        raise NotationError(f"{start.text!r} is not an event of {game.name}; known: {known}", start.line,
                            start.column, "notation.move")
    schema = _schema_of(game, type_)
    props = schema.get("properties", {})
    positional = list(_positional(game, syntax, type_))
    data: dict[str, Any] = {}
    columns: dict[str, int] = {}
    spread: list[Any] | None = None
    spread_key = ""
    args = words[k:]
    if len(args) == 1 and args[0].text == HIDDEN:
        raise NotationError(f"this {type_} was hidden from the exporting view", args[0].line, args[0].column,
                            "notation.hidden")
    for w in args:
        key, eq, value = w.text.partition("=")
        try:
            if eq and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                if key not in props:
                    raise NotationError(f"{type_} has no field {key!r}; its fields: {', '.join(props) or 'none'}",
                                        w.line, w.column, "notation.move")
                if key in data:
                    raise NotationError(f"the field {key} is given twice", w.line, w.column, "notation.move")
                data[key] = parse_value(value, props[key], len(key) + 1)
                columns[key] = w.column + len(key) + 1
                continue
            if spread is not None:
                spread.append(parse_value(w.text, _items(props.get(spread_key))))
                columns[f"{spread_key}[{len(spread) - 1}]"] = w.column
                continue
            if not positional:
                raise NotationError(f"{w.text!r}: {type_} takes no more bare values; write field=value "
                                    f"({', '.join(props) or 'no fields'})", w.line, w.column, "notation.move")
            name = positional.pop(0)
            if name.startswith("*") and w.text == "()":
                data[name[1:]] = []
                columns[name[1:]] = w.column
                continue
            if name.startswith("*"):
                spread_key = name[1:]
                spread = [parse_value(w.text, _items(props.get(spread_key)))]
                data[spread_key] = spread
                columns[spread_key] = columns[f"{spread_key}[0]"] = w.column
                continue
            data[name] = parse_value(w.text, props.get(name))
            columns[name] = w.column
        except _ValueError as exc:
            raise NotationError(exc.message, w.line, w.column + exc.offset, "notation.syntax") from None
    if _contains_hidden(data):
        raise NotationError(f"this {type_} holds a value hidden from the exporting view", start.line, start.column,
                            "notation.hidden")
    return _Move(number, seat, type_, data, line.line, words[0].column, columns, line.notes)


def _note_list(tokens: list[Token], seq: int) -> list[tuple[int, str | None, str | None, int, int]]:
    """Glyphs and comments as annotations: a glyph with a comment written
    right after it (``!{…}``, nothing between) is one annotation; any other
    glyph or comment is one of its own."""
    out: list[tuple[int, str | None, str | None, int, int]] = []
    pending: Token | None = None
    for token in tokens:
        if token.kind == "glyph":
            if pending is not None:
                out.append((seq, pending.text, None, pending.line, pending.column))
            pending = token
        else:
            if len(token.text) > MAX_COMMENT:
                raise NotationError(f"a comment has at most {MAX_COMMENT:,} characters, not {len(token.text):,}",
                                    token.line, token.column, "notation.limit")
            if pending is not None and pending.end != token.start:
                out.append((seq, pending.text, None, pending.line, pending.column))
                pending = None
            glyph = pending.text if pending is not None else None
            at = pending or token
            out.append((seq, glyph, token.text, at.line, at.column))
            pending = None
    if pending is not None:
        out.append((seq, pending.text, None, pending.line, pending.column))
    return out


MAX_COMMENT = 10_000


def _field_column(move: _Move, exc: KroniekError) -> int:
    field_ = str(exc.details.get("field") or "")
    if field_.startswith("data."):
        field_ = field_[5:]
    for key in (field_, field_.split(".")[0], re.sub(r"\[.*", "", field_)):
        if key in move.columns:
            return move.columns[key]
    return move.column


def read(text: str, embed: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
         snapshot_every: int = 64) -> Imported:
    """Read a notation into a match, checking every event as the service
    would enter it; ``NotationError`` at the first problem. ``embed`` fills
    named documents into the options (the service's card sets)."""
    doc = parse(text)
    setup = read_setup(doc, embed)
    ms = M.start(setup)
    game = ms.game
    syntax = syntax_of(game)
    players = list(setup["players"])
    verbs = _verbs(game)
    events: list[ReadEvent] = []
    notes = _note_list(doc.preamble, 1)
    snapshots: dict[int, M.MatchState] = {}
    normalized_text = _clean(text)

    def apply(ms: M.MatchState, type_: str, seat: Any, data: dict[str, Any], by_server: bool, line: int,
              col: int) -> M.MatchState:
        after = M.apply_event(ms, ms.seq + 1, type_, seat, data)
        events.append(ReadEvent(type_, seat, data, by_server, line, col))
        if after.seq % snapshot_every == 0:
            snapshots[after.seq] = after
        return after

    pending: list[tuple[str, Any, dict[str, Any]]] = []
    if ms.simulated:
        pending = M.chance_events(ms, 2)
    for line in doc.lines:
        move = _read_line(line, game, syntax, players, verbs, normalized_text)
        is_chance = move.type != M.UNDO and game.event_types[move.type].actor == CHANCE
        if pending and not is_chance:
            for type_, seat, data in pending:  # draws the text left out
                ms = apply(ms, type_, seat, data, True, move.line, move.column)
            pending = []
        expected = ms.seq + 1
        if move.number is not None and move.number != expected:
            raise NotationError(f"move number {move.number}, but this is event {expected}", move.line, move.column,
                                "notation.move_number")
        if len(events) >= MAX_EVENTS:
            raise NotationError(f"a notation holds at most {MAX_EVENTS:,} events", move.line, move.column,
                                "notation.limit")
        try:
            if pending:  # a simulated match: the text's draw must be the seed's
                type_, seat, drawn = pending.pop(0)
                data = M.normalize_event(ms, move.type, move.seat, move.data, by_server=True)
                if (move.type, move.seat, data) != (type_, seat, drawn):
                    raise RuleViolation("core.simulated_chance",
                                        f"this {move.type} is not the outcome the recorded seed draws "
                                        f"({format_event(game, players, type_, seat, drawn, syntax)})")
                ms = apply(ms, type_, seat, drawn, True, move.line, move.column)
            else:
                data = M.normalize_event(ms, move.type, move.seat, move.data)
                before = ms
                ms = apply(ms, move.type, move.seat, data, False, move.line, move.column)
                if before.simulated:
                    pending = M.chance_events(ms, ms.seq + 1)
        except KroniekError as exc:
            rule = getattr(exc, "rule", None) or exc.details.get("rule") or "notation.move"
            raise NotationError(exc.message, move.line, _field_column(move, exc), rule, cause=exc.code) from None
        notes += _note_list(move.notes, ms.seq)
    for type_, seat, data in pending:
        line_no = doc.lines[-1].line if doc.lines else 1
        ms = apply(ms, type_, seat, data, True, line_no, 1)
    return Imported(setup, events, notes, ms, snapshots)


__all__ = [
    "DEFAULT_SYNTAX",
    "GLYPHS",
    "Imported",
    "NOTATION_RULES",
    "NotationError",
    "Syntax",
    "format_event",
    "format_value",
    "parse",
    "parse_value",
    "read",
    "syntax_of",
    "write",
]
