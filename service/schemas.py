"""Request and response schemas (marshmallow); flask-smorest turns them into
the OpenAPI document."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from engine import all_games
from engine.core import REFEREE

from .accounts import LEAGUE_ROLES, MATCH_ROLES, NAME
from .limits import (MAX_COMMENT, MAX_IDEMPOTENCY_KEY, MAX_PAGE, MAX_PLAYER_NAME, MAX_PLAYERS, MAX_SAFE_INTEGER,
                     MAX_SEAT, MAX_USER_NAME)
from .matches import GLYPHS


#: the largest seq (or list offset) a query may name: an integer JSON keeps exactly
MAX_SEQ = MAX_SAFE_INTEGER  # a seq or page index: any integer that survives JSON

#: the ids of the games, as the document lists them (an unknown one is a 404 ``unknown_game``)
GAME_IDS = [game.id for game in all_games()]

#: the seat parameter's name for the public view (the same as giving no seat)
PUBLIC = "public"

#: what a seat number is, in the OpenAPI document
SEAT_DOC = {"type": "integer", "minimum": 0, "maximum": MAX_SEAT}

#: A player's (or a league's) name as ``engine.match.check_player_name`` takes
#: it, as a pattern both Python and JSON Schema (ECMA 262) read alike: no
#: control character (Unicode Cc), line or paragraph separator (Zl, Zp), and
#: at least one character that is not white space (``str.isspace``). A test
#: holds it to the engine's check over every character where they could differ.
_NOT_IN_NAMES = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
_SPACE = r" \xa0\u1680\u2000-\u200a\u202f\u205f\u3000"
NAME_PATTERN = rf"^[^{_NOT_IN_NAMES}]*[^{_NOT_IN_NAMES}{_SPACE}][^{_NOT_IN_NAMES}]*$"


class FullMatch(validate.Regexp):
    """``validate.Regexp`` that matches the whole string (``Regexp`` uses
    ``re.match``, whose ``$`` also matches before a final line break); the
    OpenAPI document shows its pattern all the same."""

    def __call__(self, value):
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def name_field(max_length: int, what: str = "a player's name", **kwargs) -> fields.String:
    """A name: 1 to ``max_length`` characters, not only white space, no
    control characters or line breaks."""
    return fields.String(validate=[validate.Length(min=1, max=max_length),
                                   FullMatch(NAME_PATTERN, error=f"{what} is non-empty, not only white space, "
                                             "and holds no control characters or line breaks")], **kwargs)


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` and nothing else: marshmallow's ``Boolean`` also
    takes ``"yes"``, ``"on"``, ``1`` and the like, which JSON does not mean."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


class SeatOrReferee(fields.Field):
    """A seat number, ``referee`` for the view that hides nothing, or
    ``public`` for the public view (the same as no seat; the pages, the review
    and the notation's View header call it so)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {})
        kwargs["metadata"] = {"oneOf": [SEAT_DOC, {"type": "string", "enum": [REFEREE, PUBLIC]}],
                              **kwargs["metadata"]}
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if value == REFEREE:
            return REFEREE
        if value == PUBLIC:
            return None
        try:
            seat = int(value)
        except (TypeError, ValueError):
            raise ValidationError(f"seat must be a seat number, '{REFEREE}' or '{PUBLIC}'") from None
        if not 0 <= seat <= MAX_SEAT:
            raise ValidationError(f"a seat is from 0 to {MAX_SEAT} (no game has more than {MAX_PLAYERS} players)")
        return seat


def seat_field(**kwargs) -> fields.Integer:
    """A seat number: 0 to ``MAX_SEAT``."""
    return fields.Integer(validate=validate.Range(min=0, max=MAX_SEAT), **kwargs)


class ErrorBody(Schema):
    """Open: an error may carry details beyond the ones declared here."""

    class Meta:
        unknown = INCLUDE  # documented as additionalProperties: true

    code = fields.String(required=True, metadata={"description": "machine-readable error code"})
    message = fields.String(required=True)
    rule = fields.String(metadata={"description": "id of the rule that forbids the move (422)"})
    rule_text = fields.String(metadata={"description": "the rule, as the rules text states it"})
    field = fields.String(metadata={"description": "the request field (or header) that was wrong"})
    fields_ = fields.Dict(data_key="fields", metadata={
        "description": "per location and field, what the schema refused (malformed_request)"})
    location = fields.String(validate=validate.OneOf(["body", "query", "path", "header"]),
                             metadata={"description": "where the refused field is: body, query, path or header"})
    limit = fields.Raw(metadata={"description": "the limit the value broke: a number, or what was expected"})
    game = fields.String(metadata={"description": "the game the error is about"})
    user = fields.String(metadata={"description": "the token's user (403)"})
    needs = fields.List(fields.String(), metadata={"description": "roles that would allow this (403)"})
    seq = fields.Integer(metadata={"description": "the seq the error is about"})
    expected_seq = fields.Integer(allow_none=True, metadata={"description": "the expected_seq sent (409)"})
    current_seq = fields.Integer(metadata={"description": "the match's latest seq (409)"})
    tree_size = fields.Integer(metadata={"description": "the transparency log's size"})
    line = fields.Integer(metadata={"description": "invalid_notation: the line of the notation (from 1)"})
    column = fields.Integer(metadata={"description": "invalid_notation: the column on that line (from 1)"})
    cause = fields.String(metadata={"description": "invalid_notation: the error a recorded move would have got "
                                    "(malformed_event, illegal_move…)"})


class KroniekErrorResponse(Schema):
    error = fields.Nested(ErrorBody, required=True)


class SeqConflictResponse(KroniekErrorResponse):
    current_seq = fields.Integer(metadata={"description": "seq_conflict: the match's latest seq (also in error)"})


class GameSummary(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    summary = fields.String()
    player_counts = fields.List(fields.Integer(), required=True, metadata={
        "description": "every player count the game allows, ascending (Troje: [4, 6])", "example": [4, 6]})
    min_players = fields.Integer(required=True, metadata={"description": "the fewest players (player_counts[0])"})
    max_players = fields.Integer(required=True, metadata={"description": "the most players (player_counts[-1])"})
    engine_version = fields.String()
    hidden_information = fields.Boolean(
        metadata={"description": "false: nothing is hidden from one seat that others see, so seat views, "
                  "legal moves and hints need no token"})
    says = fields.Boolean(
        metadata={"description": "true: what the game's engine says (lines, end lines, refusals, notes, help) comes "
                  "in the language asked for (docs/api.md, Languages); false: partly in English only"})
    scene = fields.Boolean(
        metadata={"description": "true: the game declares its table as a scene, served by "
                  "GET /api/matches/<id>/scene (the pages draw it and record by tapping it)"})


class GameList(Schema):
    games = fields.List(fields.Nested(GameSummary), required=True)


class GameDetail(GameSummary):
    options = fields.Dict(metadata={"description": "JSON Schema of the match options"})
    event_types = fields.Dict(metadata={"description": "per event type: actor, description, JSON Schema of data, and its Dutch name (title_nl: the rules text's word, for the pages in Dutch)"})
    rules = fields.Dict(metadata={"description": "rule id -> rule text"})
    aliases = fields.Dict(metadata={"description": "names accepted at the table (Dutch) -> canonical id"})
    data_kinds = fields.Dict(metadata={"description": "kinds of game data (card sets…) under /api/games/<id>/<kind>"})


class MatchCreate(Schema):
    game = fields.String(required=True, metadata={"example": "braverats", "enum": GAME_IDS,
                                                  "description": "a game's id (GET /api/games); another is a 404"})
    players = fields.List(name_field(MAX_PLAYER_NAME), required=True,
                          validate=validate.Length(min=1, max=MAX_PLAYERS), metadata={
        "example": ["Ann", "Bob"], "description": "one name per seat, the names distinct (ignoring case and "
        "surrounding white space); how many: one of the game's player_counts"})
    options = fields.Dict(load_default=dict, metadata={"description": "the game's options (their JSON Schema: GET /api/games/<id>)"})
    mode = fields.String(
        load_default="physical",
        validate=validate.OneOf(["physical", "simulated"]),
        metadata={"description": "physical: chance outcomes are entered; simulated: drawn by the server from the "
                                 "seed and a server secret it adds to the setup (the referee's to see until the end)"},
    )
    seed = fields.Integer(
        strict=True, allow_none=True, load_default=None, metadata={
            "description": "simulated mode: RNG seed (default: drawn by the server); the draws mix it with a "
                           "256-bit server secret, so a small seed does not make them predictable"},
        validate=validate.Range(min=-MAX_SAFE_INTEGER, max=MAX_SAFE_INTEGER),
    )


class Validation(Schema):
    status = fields.String()
    seq = fields.Integer()
    first_invalid_seq = fields.Integer()
    message = fields.String()
    rule = fields.String()


class MatchOut(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    options = fields.Dict()
    mode = fields.String()
    engine_version = fields.String()
    created_at = fields.String()
    seq = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"description": "in_progress | finished"})
    result = fields.Dict(allow_none=True, metadata={"description": "outcome, winners, scores, reason"})
    validation = fields.String(metadata={"description": "pending | valid | invalid"})
    validation_details = fields.Dict(allow_none=True)
    analysis = fields.String(metadata={"description": "the solver analysis: none (the game has none, or the log "
                                       "is invalid) | pending | running k/n (k of n positions decided) | done | failed"})


class MatchList(Schema):
    matches = fields.List(fields.Dict())
    total = fields.Integer()
    offset = fields.Integer()
    limit = fields.Integer()


class ListArgs(Schema):
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SAFE_INTEGER))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_PAGE))


class EventIn(Schema):
    type = fields.String(required=True, metadata={"example": "round"})
    # Its bounds are documented, not validated here: the append's plain loader
    # (service.gate.plain_loader) reads a schema without validators only, and
    # the engine refuses a seat outside the match (malformed_event, naming it).
    seat = fields.Integer(strict=True, allow_none=True, load_default=None, metadata={
        "minimum": 0, "maximum": MAX_SEAT, "description": "the seat making the move; null for the table or chance"})
    data = fields.Dict(load_default=dict, metadata={"example": {"cards": ["prince", "spy"]}})
    expected_seq = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        metadata={"description": "seq of the latest event the client has seen; 409 if the match has moved on",
                  "minimum": 1, "maximum": MAX_SEQ},
    )


#: What ``Idempotency-Key`` takes: 1 to MAX_IDEMPOTENCY_KEY printable characters
#: (``str.isprintable``) of a header value as WSGI hands it over (Latin-1:
#: printable ASCII and Latin-1 but its control characters, no-break space and
#: soft hyphen). A test holds the pattern to ``isprintable``.
PRINTABLE_HEADER = r"^[\x20-\x7e\xa1-\xac\xae-\xff]*$"


class AppendHeaders(Schema):
    """The append's header, documented (the view reads it itself)."""

    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=[validate.Length(min=1, max=MAX_IDEMPOTENCY_KEY), FullMatch(PRINTABLE_HEADER)],
        metadata={"description": "any unique string per intended move: a retry with the same key returns the "
                  "first answer and writes nothing"},
    )


class AppendOut(Schema):
    match = fields.String()
    seq = fields.Integer(required=True)
    hash = fields.String(required=True)
    latest_seq = fields.Integer(metadata={"description": "last seq written (server-drawn chance events follow a move)"})
    appended = fields.List(fields.Dict())
    status = fields.String(required=True)
    state = fields.Dict(required=True, metadata={"description": "the public view after the move"})
    idempotent_replay = fields.Boolean()


class EventsArgs(Schema):
    from_ = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=MAX_SEQ))
    to = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_SEQ))
    seat = SeatOrReferee(
        load_default=None,
        allow_none=True,
        metadata={"description": "the log as a seat sees it; 'referee' for all of it; 'public' or absent: the public view"},
    )


class EventOut(Schema):
    seq = fields.Integer()
    type = fields.String()
    seat = fields.Integer(allow_none=True)
    data = fields.Dict()
    recorded_at = fields.String()
    recorded_by = fields.String()
    prev_hash = fields.String()
    hash = fields.String(metadata={"description": "SHA-256 of the committed fields (data only through its commitment)"})
    commitment = fields.String(metadata={
        "description": "hex SHA-256(salt bytes || canonical JSON of data); absent in a legacy log"})
    salt = fields.String(metadata={
        "description": "hex, 32 random bytes; shown only with data the viewer may see whole"})
    redacted = fields.Boolean(metadata={"description": "true when data hidden from this viewer was replaced"})


class EventList(Schema):
    match = fields.String()
    events = fields.List(fields.Nested(EventOut))


class ReviewArgs(Schema):
    from_ = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=MAX_SEQ),
                           metadata={"description": "the first seq to give (a live page asks only for what is new); "
                                                    "an undo's `undoes` names the earlier steps it marks; the `evaluation` (games "
                                                    "with one) comes with a review from 1 only"})
    seat = SeatOrReferee(
        load_default=None,
        allow_none=True,
        metadata={"description": "the review as a seat sees it; 'referee' for all of it; 'public' or absent: the public view"},
    )


class StateArgs(Schema):
    at = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_SEQ),
                        metadata={"description": "seq (1 to the match's latest); default the latest"})
    seat = SeatOrReferee(
        load_default=None,
        allow_none=True,
        metadata={"description": "a seat's view; 'referee' for everything; 'public' or absent for the public view"},
    )


class SeatArgs(Schema):
    seat = SeatOrReferee(
        load_default=None,
        allow_none=True,
        metadata={"description": "the seat whose moves to list; 'referee' for every move that can be entered "
                  "now (the table's and each acting seat's); absent or 'public': the table's moves"},
    )


class AnnotationIn(Schema):
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_SEQ),
                         metadata={"description": "the event annotated (1 to the match's latest seq)"})
    comment = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=MAX_COMMENT),
                            metadata={"description": "a comment, a glyph or both"})
    glyph = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(GLYPHS))


#: what a user name may be, as a refusal says it (service.accounts.NAME)
USER_NAME_RULE = ("a user name is 1–64 letters, digits or _ . @ + -, starting with a letter or digit "
                  "(no spaces)")


class RoleIn(Schema):
    """A role on a match."""

    user = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_USER_NAME),
                                                  FullMatch(NAME, error=USER_NAME_RULE)])
    role = fields.String(required=True, validate=validate.OneOf(MATCH_ROLES),
                         metadata={"description": "recorder, referee, or player (with seat)"})
    seat = fields.Integer(strict=True, load_default=None, allow_none=True,
                          validate=validate.Range(min=0, max=MAX_SEAT),
                          metadata={"description": "a player's seat (needed with role player, and only then): "
                                    "0 to the match's players less one"})


class LeagueRoleIn(Schema):
    user = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_USER_NAME),
                                                  FullMatch(NAME, error=USER_NAME_RULE)])
    role = fields.String(required=True, validate=validate.OneOf(LEAGUE_ROLES))


class LeagueAuditOut(Schema):
    valid = fields.Boolean(required=True)
    length = fields.Integer(required=True)
    head = fields.String(allow_none=True)
    first_invalid_seq = fields.Integer(allow_none=True, metadata={"description": "of the league's own chain"})
    reason = fields.String(allow_none=True)
    problems = fields.List(fields.Dict(), metadata={"description": "each {where, problem}"})
    checked = fields.Dict(metadata={"description": "events, commitments, matches, results and proofs checked"})
    scheme = fields.String(allow_none=True, metadata={"description": "the league stream's scheme (see AuditOut)"})
    schemes = fields.Dict(metadata={"description": "how many streams of the archive use each scheme"})


class AuditOut(Schema):
    valid = fields.Boolean(required=True)
    length = fields.Integer(required=True)
    head = fields.String(allow_none=True)
    first_invalid_seq = fields.Integer(allow_none=True)
    reason = fields.String(allow_none=True)
    scheme = fields.String(allow_none=True, metadata={
        "description": "commitments (data hashed through salted commitments) or legacy (data hashed in the clear)"})


# -- scenes (engine.scene) ---------------------------------------------------------------------

class SceneArgs(Schema):
    at = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_SEQ),
                        metadata={"description": "seq (1 to the match's latest); default the latest: the table then, "
                                  "with the moves legal then"})
    seat = SeatOrReferee(
        load_default=None,
        allow_none=True,
        metadata={"description": "whose table: a seat; 'referee' for everything; 'public' or absent for the public"},
    )


class Words(Schema):
    en = fields.String(required=True)
    nl = fields.String(required=True, metadata={"description": "Dutch, with the rules texts' terms"})


class SceneMove(Schema):
    """A legal move as ``legal-moves`` lists it; ``label``: how a picker names it; ``group``: the first
    step of a two-step picker it is listed under (a knight's training: how many dice)."""

    type = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    data = fields.Dict(required=True)
    label = fields.Nested(Words)
    group = fields.Nested(Words)


class ScenePart(Schema):
    field = fields.String(required=True, metadata={"description": "the key of the event's data this row fills"})
    values = fields.List(fields.String(), required=True, metadata={"description": "what may be picked"})
    count = fields.Integer(required=True, metadata={"description": "at most this many"})
    least = fields.Integer(required=True, metadata={"description": "at least this many"})
    label = fields.Nested(Words, required=True)
    counts = fields.Boolean(required=True, metadata={"description": "sent as {value: times picked}"})
    repeat = fields.Boolean(required=True, metadata={"description": "a value may be picked more than once"})


class SceneChance(Schema):
    type = fields.String(required=True, metadata={"description": "the event this picker enters: a chance outcome, "
                                                  "or a seat's move that is a pick of several values (a trade)"})
    field = fields.String(required=True, metadata={"description": "the key of its data the picked values fill"})
    values = fields.List(fields.Raw(metadata={"oneOf": [{"type": "string"}, {"type": "integer"}]}), required=True,
                         metadata={"description": "the outcomes on offer (a card's name, a die's face…)"})
    count = fields.Integer(required=True, metadata={"description": "how many values to pick"})
    seat = fields.Integer(allow_none=True, required=True, metadata={"description": "the event's seat"})
    scalar = fields.Boolean(required=True, metadata={"description": "one value, not a list"})
    repeat = fields.Boolean(required=True, metadata={"description": "a value may be picked more than once"})
    label = fields.Nested(Words, required=True)
    groups = fields.List(fields.Integer(), metadata={
        "description": "the picked values fill one list per group of these sizes, in turn (one per seat)"})
    least = fields.Integer(allow_none=True, metadata={"description": "fewer values may be recorded, down to this many; "
                                                      "null: exactly count"})
    names = fields.Dict(keys=fields.String(), values=fields.Nested(Words), allow_none=True, metadata={
        "description": "a value's name on its button, where the value alone says little"})
    data = fields.Dict(metadata={"description": "the event's other data, sent as it is (a turned-up card's village)"})
    numeric = fields.Boolean(required=True, metadata={"description": "the values are numbers (a die's faces): "
                                                      "sent as numbers"})
    counts = fields.Boolean(required=True, metadata={"description": "the values are sent as counts, {value: times "
                                                     "picked} (Troje's battle: the cards turned up by resource)"})
    parts = fields.List(fields.Nested(ScenePart), metadata={
        "description": "more fields picked beside the first, each its own row (a domestic trade: the cards got)"})


class SceneElement(Schema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "card, slot, pile, count, action, label, trick or token; "
                                                  "hex, vertex or edge on a hexboard"})
    label = fields.Nested(Words, required=True)
    shows = fields.Dict(required=True, metadata={"description": "what it shows: a card, a count, a column's cards…"})
    moves = fields.List(fields.Nested(SceneMove), required=True, metadata={
        "description": "the moves a tap on it stands for (several: a picker lists them)"})
    targets = fields.Dict(keys=fields.String(), values=fields.List(fields.Nested(SceneMove)), required=True, metadata={
        "description": "other element id -> the moves a tap here and a tap there stand for (either order)"})
    chance = fields.Nested(SceneChance, metadata={"description": "a chance outcome entered here"})
    face_down = fields.Boolean(required=True)
    highlight = fields.Boolean(required=True)


class SceneZone(Schema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={
        "description": "row, fan, columns, stack, track, seat or hexboard (a board of hexes, intersections and paths)"})
    label = fields.Nested(Words, required=True, metadata={
        "description": "may hold {seat0}, {seat1}…: the pages put the player's name there"})
    elements = fields.List(fields.Nested(SceneElement), required=True)
    seat = fields.Integer(allow_none=True, required=True)


class SceneOut(Schema):
    match = fields.String(required=True)
    seq = fields.Integer(required=True)
    viewer = fields.Raw(allow_none=True, required=True, metadata={
        "oneOf": [SEAT_DOC, {"type": "string", "enum": [REFEREE]}], "nullable": True,
        "description": "the seat whose table this is; 'referee'; null: the public"})
    zones = fields.List(fields.Nested(SceneZone), required=True)
    fallback = fields.List(fields.Nested(SceneMove), required=True, metadata={
        "description": "moves with no place on the table (enter them with the text buttons)"})
