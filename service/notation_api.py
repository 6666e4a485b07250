"""Matches as text: ``GET /api/matches/<id>/notation`` and ``POST
/api/matches/import`` (``engine.notation``). Thin, like ``service.api``."""

from __future__ import annotations

import json

from flask import Response, request
from flask.views import MethodView

from . import schemas as S
from .accounts import acl_fields
from .api import _doc_errors, access, guard_view, service
from .errors import BadRequest
from .gate import Blueprint
from .limits import MAX_NOTATION

notation = Blueprint("notation", __name__, url_prefix="/api/matches",
                     description="Matches as text, in a PGN-like notation per game")

TEXT = "text/plain"

_IMPORT_BODY = {
    "required": True,
    "description": "The notation, as the body itself (`text/plain`, UTF-8) or as JSON "
    f"`{{\"notation\": \"…\"}}`; at most {MAX_NOTATION:,} characters either way.",
    "content": {
        TEXT: {"schema": {"type": "string", "maxLength": MAX_NOTATION}},
        "application/json": {"schema": {
            "type": "object",
            "properties": {"notation": {"type": "string", "maxLength": MAX_NOTATION}},
            "required": ["notation"],
            "additionalProperties": False,
        }},
    },
}


class ImportOut(S.MatchOut):
    annotations = S.fields.Integer(metadata={"description": "human annotations made from the text's comments "
                                             "and glyphs"})


@notation.route("/<match_id>/notation")
class MatchNotation(MethodView):
    @notation.arguments(S.ReviewArgs, location="query", error_status_code=400)
    @notation.doc(responses={"200": {
        "description": "the match in the notation (text/plain, UTF-8)",
        "content": {TEXT: {"schema": {"type": "string"}}},
    }})
    @_doc_errors(notation, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The match as text: header tags, one event per line, comments and glyphs

        Filtered like the log: pass `seat` for a seat's view (that seat's
        player, a recorder or referee) or `seat=referee` for all of it; a
        value the viewer may not see is written `hidden` (or `unknown` where
        the game takes it). The human annotations are the comments and glyphs."""
        seat = args["seat"]
        guard_view(match_id, seat)
        text = service().notation(match_id, seat)
        return Response(text, status=200, mimetype=TEXT, content_type=f"{TEXT}; charset=utf-8")


@notation.route("/import")
class ImportNotation(MethodView):
    @notation.doc(requestBody=_IMPORT_BODY)
    @notation.response(201, ImportOut)
    @_doc_errors(notation, 400, 401)
    @notation.alt_response(422, schema=S.KroniekErrorResponse,
                           description="a line of the notation is refused (invalid_notation: line, column, rule, "
                           "rule_text); nothing is written")
    def post(self):
        """Create a match from its notation, checked move by move; a bad line writes nothing

        Each line is checked as an append would be; the first one the
        notation or the rules refuse is a 422 `invalid_notation` with its
        `line`, `column`, `rule` and `rule_text`, and nothing is written. The
        comments and glyphs become the match's human annotations; its
        importer is its recorder."""
        user = access().require_user(anonymous_ok=True)
        text = _notation_text()
        return service().import_notation(text, recorded_by=user.name,
                                         acl=acl_fields(access().creator_acl("recorder")))


def _notation_text() -> str:
    """The body's notation; the gate has already checked its size and encoding."""
    raw = request.get_data(cache=True)
    if not raw:
        raise BadRequest("the body is the notation (text/plain) or {\"notation\": \"…\"} (application/json); "
                         "it is empty", field="$", location="body")
    if request.mimetype == TEXT:
        return raw.decode("utf-8")
    body = json.loads(raw)
    if not isinstance(body, dict):
        raise BadRequest("a JSON body is an object {\"notation\": \"…\"}", field="$", location="body")
    extra = sorted(set(body) - {"notation"})
    if extra:
        raise BadRequest(f"a JSON body holds only notation, not {', '.join(extra)}", field=extra[0], location="body")
    text = body.get("notation")
    if not isinstance(text, str):
        raise BadRequest("notation is the text of the match, a string", field="notation", location="body")
    return text



@notation.after_request
def _allow_only_post_on_import(response):
    """``/api/matches/import`` also matches ``/api/matches/<match_id>`` (a
    GET), so Flask's automatic OPTIONS answer would list GET; it is POST."""
    if request.method == "OPTIONS" and request.endpoint == "notation.ImportNotation":
        response.headers["Allow"] = "OPTIONS, POST"
    return response
