"""Every limit on what the API takes, in one place.

The gate (``service.gate``) applies the general ones to every JSON body, query
value and path value before an endpoint runs; the request schemas and the
service layer apply the field limits. ``LIMITS`` is the table docs/api.md
shows under "Limits"; a test checks the two agree, so neither drifts.

Why these numbers: integers stop at 2^53 - 1 because that is where a JSON
reader that keeps numbers as doubles (JavaScript, many others) stops reading
back exactly what was written; a stored value that reads back differently is
a false tamper alarm. No endpoint takes a fraction, so a number with a
fraction or an exponent (and NaN, Infinity) is refused everywhere; league
points that are not whole are written as exact strings ("1/2"). The sizes
are far above anything a game, a league or a review needs, and small enough
that no single request can fill the store or make a listing huge.
"""

from __future__ import annotations

from engine import all_games
from engine.match import MAX_PLAYER_NAME, MAX_SAFE_INTEGER
from engine.notation import MAX_EVENTS, MAX_TEXT
from leagues.trf import MAX_LINES as MAX_TRF_LINES
from leagues.trf import MAX_ROUNDS as MAX_TRF_ROUNDS

__all__ = ["LIMITS", "MAX_SAFE_INTEGER", "MAX_PLAYER_NAME"]

#: a request body, in bytes (a longer one is answered 413)
MAX_BODY_BYTES = 1024 * 1024
#: arrays and objects inside one another (the body itself is level 1)
MAX_DEPTH = 32
#: characters (Unicode code points) in one string value
MAX_STRING = 10_000
#: characters in one object member name
MAX_KEY = 256
#: members of one object
MAX_MEMBERS = 256
#: items of one array
MAX_ITEMS = 1_000
#: query parameters of one request, and characters in one query or path value
MAX_QUERY_PARAMS = 32
MAX_QUERY_VALUE = 1_000
#: ``GET /api/matches?limit=``: the most matches one page lists
MAX_PAGE = 500

#: The most players any game takes; a seat is 0 to one less. A match's own
#: players bound it further, which only the match can say (400 ``bad_request``).
MAX_PLAYERS = max(game.max_players for game in all_games())
MAX_SEAT = MAX_PLAYERS - 1

#: a league's name, in characters
MAX_LEAGUE_NAME = 200
#: players registered in one league. ``POST /api/leagues`` takes at most
#: ``MAX_LEAGUE_CREATE_PLAYERS`` of them (an array's limit); the rest are
#: registered one by one, each in O(1) amortised time (``make bench``, l5)
MAX_LEAGUE_PLAYERS = 4096
#: the players a league's creation registers at once (``players`` of ``POST /api/leagues``)
MAX_LEAGUE_CREATE_PLAYERS = min(MAX_LEAGUE_PLAYERS, MAX_ITEMS)
#: a TRF file imported as a league (POST /api/leagues/import): within the request body's limit
MAX_TRF_CHARS = 900_000
#: league points (``win``, ``draw``, … and each ``rank_points`` entry):
#: integers of at most this magnitude, or exact strings ("1/2", "0.5") whose
#: numerator and denominator are
MAX_POINTS = 1_000_000
#: entries of ``rank_points``
MAX_RANK_POINTS = 64
#: a forfeit's reason, in characters
MAX_REASON = 1_000
#: an annotation's comment, in characters
MAX_COMMENT = 10_000
#: A notation imported (``POST /api/matches/import``): characters and events.
#: The body's byte limit applies too; the text is one JSON member or the body.
MAX_NOTATION = MAX_TEXT
MAX_NOTATION_EVENTS = MAX_EVENTS
#: the ``Idempotency-Key`` header, in characters (printable)
MAX_IDEMPOTENCY_KEY = 255
#: a user's name, in characters
MAX_USER_NAME = 64

#: How many fresh random ids a create tries before it gives up: ids are 64
#: random bits, so a second collision in a row means the store is broken,
#: and each try writes a whole stream.
CREATE_ATTEMPTS = 3


def _int(n: int) -> str:
    return f"{n:,}"


#: (what, limit, notes): the "Limits" table of docs/api.md, row by row.
LIMITS: tuple[tuple[str, str, str], ...] = (
    ("request body", f"{_int(MAX_BODY_BYTES)} bytes", "413 `payload_too_large`"),
    ("Content-Type of a body", "`application/json`", "415 `unsupported_media_type` for anything else"),
    ("numbers", f"integers from -{_int(MAX_SAFE_INTEGER)} to {_int(MAX_SAFE_INTEGER)} (2^53 - 1)",
     "no fractions, exponents, NaN or Infinity anywhere: no endpoint takes them"),
    ("nesting of arrays and objects", f"{MAX_DEPTH} levels", "the body itself is level 1"),
    ("a string", f"{_int(MAX_STRING)} characters", "valid Unicode: a lone surrogate such as `\\ud800` is refused"),
    ("an object", f"{MAX_MEMBERS} members, names of at most {MAX_KEY} characters", "no member named twice"),
    ("an array", f"{_int(MAX_ITEMS)} items", ""),
    ("query and path values", f"{MAX_QUERY_PARAMS} query parameters, {_int(MAX_QUERY_VALUE)} characters each",
     "integers in the range above; a path value past these names nothing: 404 `not_found`"),
    ("`GET /api/matches`", f"`offset` 0 to {_int(MAX_SAFE_INTEGER)}, `limit` 1 to {MAX_PAGE}", ""),
    ("a player's name", f"1 to {MAX_PLAYER_NAME} characters",
     "not only white space; no control characters or line breaks; the names of a match (or a league) differ, "
     "ignoring case and surrounding white space"),
    ("a seat", f"0 to {MAX_SEAT}", f"no game has more than {MAX_PLAYERS} players; a match's own players bound it "
     "further (400 `bad_request`). The `seat` query parameter also takes `referee` or `public`"),
    ("`seed`", f"integers from -{_int(MAX_SAFE_INTEGER)} to {_int(MAX_SAFE_INTEGER)}", "a simulated match's RNG seed"),
    ("a league's name", f"1 to {MAX_LEAGUE_NAME} characters", "no control characters or line breaks"),
    ("a league's players", f"{_int(MAX_LEAGUE_PLAYERS)}", f"each a player's name as above; `POST /api/leagues` "
     f"registers at most {_int(MAX_LEAGUE_CREATE_PLAYERS)} of them (an array's limit), `POST "
     "/api/leagues/<id>/players` the others one by one"),
    ("league points", f"integers from -{_int(MAX_POINTS)} to {_int(MAX_POINTS)}, or exact strings such as "
     f"`\"1/2\"` or `\"0.5\"` within that range", f"`rank_points`: at most {MAX_RANK_POINTS} entries"),
    ("a forfeit's `reason`", f"1 to {_int(MAX_REASON)} characters", ""),
    ("an annotation's `comment`", f"{_int(MAX_COMMENT)} characters", ""),
    ("a notation (`POST /api/matches/import`)", f"{_int(MAX_NOTATION)} characters, {_int(MAX_NOTATION_EVENTS)} "
     "events", "`text/plain` (UTF-8) or the `notation` member of a JSON body; its comments as annotations"),
    ("a TRF file (`POST /api/leagues/import`)", f"{_int(MAX_TRF_CHARS)} characters, {_int(MAX_TRF_LINES)} lines, "
     f"{MAX_TRF_ROUNDS} rounds", "`text/plain` (UTF-8) or the `trf` member of a JSON body; its players a league's"),
    ("`Idempotency-Key` header", f"1 to {MAX_IDEMPOTENCY_KEY} printable characters", ""),
    ("a user's name", f"1 to {MAX_USER_NAME} letters, digits or `_ . @ + -`", "starts with a letter or digit"),
)


def markdown_table() -> str:
    """The Limits table as docs/api.md shows it."""
    rows = ["| what | limit | notes |", "|---|---|---|"]
    rows += [f"| {what} | {limit} | {notes} |" for what, limit, notes in LIMITS]
    return "\n".join(rows)
