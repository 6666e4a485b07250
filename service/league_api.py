"""HTTP endpoints of leagues. Thin: parse, call the league service."""

from __future__ import annotations

from flask import Response, current_app
from flask.views import MethodView
from marshmallow import Schema, fields, validate
from webargs.fields import DelimitedList

from leagues.league import FORMATS
from leagues.standings import TIEBREAKS

from . import schemas as S
from .accounts import acl_fields
from .api import _doc_errors, access, add_person, grant_role, guard, roles_of
from .gate import Blueprint
from .leagues import LeagueService, RulesSchema
from .stream_api import sse_answer
from .limits import MAX_LEAGUE_CREATE_PLAYERS, MAX_LEAGUE_NAME, MAX_TRF_CHARS, MAX_PLAYER_NAME, MAX_PLAYERS, MAX_REASON

leagues = Blueprint("leagues", __name__, url_prefix="/api/leagues", description="Leagues as hash-chained event streams")


def service() -> LeagueService:
    return current_app.extensions["kroniek.leagues"]


def allowed(action: str, league_id: str) -> str:
    return guard(action, league_id, service().store)


class LeagueCreate(Schema):
    name = S.name_field(MAX_LEAGUE_NAME, "a league's name", required=True)
    game = fields.String(required=True, metadata={"example": "braverats", "enum": S.GAME_IDS,
                                                  "description": "a game's id (GET /api/games); another is a 404"})
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1000),
                            metadata={"description": "Swiss and tables: how many rounds"})
    rules = fields.Nested(RulesSchema, load_default=dict,
                          metadata={"description": "points (win, draw, loss, bye …) and tiebreaks"})
    players = fields.List(S.name_field(MAX_PLAYER_NAME), load_default=list,
                          validate=validate.Length(max=MAX_LEAGUE_CREATE_PLAYERS),
                          metadata={"description": "the names distinct (ignoring case and surrounding white space); "
                                                   "a league holds more, registered one by one"})


class PlayerIn(Schema):
    player = S.name_field(MAX_PLAYER_NAME, required=True)


class ResultIn(Schema):
    match = fields.String(required=True)


class ForfeitIn(Schema):
    round = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=S.MAX_SEQ),
                           metadata={"description": "a paired round (from 1)"})
    board = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=S.MAX_SEQ),
                           metadata={"description": "a board of that round (from 1)"})
    forfeited = fields.List(S.name_field(MAX_PLAYER_NAME), required=True,
                            validate=validate.Length(min=1, max=MAX_PLAYERS))  # a board's players: one match's
    reason = fields.String(required=True, validate=validate.Length(min=1, max=MAX_REASON))


#: the 200 answer of an endpoint that answers JSON, or CSV with ?format=csv
JSON_OR_CSV = {"content": {"application/json": {"schema": {"type": "object"}},
                           "text/csv": {"schema": {"type": "string"}}}}


class StandingsArgs(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "csv"]))


@leagues.route("")
class Leagues(MethodView):
    @leagues.arguments(LeagueCreate, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 404, 422)
    def post(self, body):
        """Create a league (its setup is seq 1 of its stream) and register players; its creator organises it"""
        user = access().require_user()
        return service().create(body["name"], body["game"], body["format"], body["rounds"], body["rules"],
                                body["players"], recorded_by=user.name,
                                acl=acl_fields(access().creator_acl("organiser")))


class ImportArgs(Schema):
    game = fields.String(validate=validate.Length(min=1, max=64),
                         metadata={"description": "the game the league plays (a text body names it here)"})
    name = fields.String(validate=validate.Length(min=1, max=MAX_LEAGUE_NAME),
                         metadata={"description": "the league's name; the file's (012) if left out"})
    tiebreaks = DelimitedList(fields.String(validate=validate.OneOf(TIEBREAKS)),
                              validate=validate.Length(max=len(TIEBREAKS)),
                              metadata={"description": "the league's tiebreaks in order, comma-separated (TRF does "
                                                       "not carry them); the default's if left out"})


_IMPORT_BODY = {
    "required": True,
    "description": "The TRF file (TRF-16 with bbpPairings's point codes) as the body itself (`text/plain`, "
    "UTF-8, the game and name in the query) or as JSON `{\"game\": …, \"trf\": \"…\", \"name\"?: …}`; at "
    f"most {MAX_TRF_CHARS:,} characters either way.",
    "content": {
        "text/plain": {"schema": {"type": "string", "maxLength": MAX_TRF_CHARS}},
        "application/json": {"schema": {
            "type": "object", "required": ["game", "trf"], "additionalProperties": False,
            "properties": {"game": {"type": "string", "minLength": 1, "maxLength": 64},
                           "trf": {"type": "string", "minLength": 1, "maxLength": MAX_TRF_CHARS},
                           "name": {"type": "string", "minLength": 1, "maxLength": MAX_LEAGUE_NAME},
                           "tiebreaks": {"type": "array", "maxItems": len(TIEBREAKS),
                                         "items": {"type": "string", "enum": list(TIEBREAKS)}}}}},
    },
}


@leagues.route("/import")
class Import(MethodView):
    @leagues.arguments(ImportArgs, location="query", error_status_code=400)
    @leagues.doc(requestBody=_IMPORT_BODY)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 404, 422)
    def post(self, args):
        """Create a Swiss league from a TRF file: its players, and its rounds as played elsewhere

        The rounds are checked as a pairing program checks them (each game on both players' lines, the points
        on each line what its results give) and written with the setup, all or nothing; the league is paired
        here from the next round on (docs/leagues.md)."""
        import json

        from flask import request

        from .errors import BadRequest

        user = access().require_user()
        raw = request.get_data(cache=True)
        tiebreaks = args.get("tiebreaks")
        if request.mimetype == "text/plain":
            text, game, name = raw.decode("utf-8"), args.get("game"), args.get("name")
        else:
            body = json.loads(raw) if raw else None
            if not isinstance(body, dict):
                raise BadRequest('a JSON body is an object {"game": …, "trf": "…"}', field="$", location="body")
            extra = sorted(set(body) - {"game", "trf", "name", "tiebreaks"})
            if extra:
                raise BadRequest(f"a JSON body holds game, trf, name and tiebreaks, not {', '.join(extra)}",
                                 field=extra[0], location="body")
            members = {k: v for k, v in body.items() if k not in ("trf", "tiebreaks")}
            errors = ImportArgs().validate(members)
            listed = body.get("tiebreaks")
            if listed is not None and (not isinstance(listed, list) or len(listed) > len(TIEBREAKS)
                                       or any(t not in TIEBREAKS for t in listed)):
                errors["tiebreaks"] = [f"a list of at most {len(TIEBREAKS)} of {', '.join(TIEBREAKS)}"]
            if errors:
                field = sorted(errors)[0]
                message = errors[field][0] if isinstance(errors[field], list) else str(errors[field])
                raise BadRequest(f"{field}: {message}", field=field, location="body")
            text, game, name = body.get("trf"), body.get("game") or args.get("game"), body.get("name") or args.get("name")
            tiebreaks = listed if listed is not None else tiebreaks
            if not isinstance(text, str):
                raise BadRequest("trf is the TRF file's text, a string", field="trf", location="body")
        if not game:
            raise BadRequest("name the game the league plays (?game=…, or game in a JSON body)", field="game",
                             location="query" if request.mimetype == "text/plain" else "body")
        if not text.strip():
            raise BadRequest("the TRF file is empty", field="trf", location="body")
        return service().import_trf(text, game, name, recorded_by=user.name, tiebreaks=tiebreaks,
                                    acl=acl_fields(access().creator_acl("organiser")))


class RoundStreamArgs(Schema):
    wait = fields.Integer(load_default=25, validate=validate.Range(min=0, max=300), metadata={
        "description": "seconds to stay open (capped by the server, as a match's stream); 0 sends the boards "
                       "as they are and ends"})


@leagues.route("/<league_id>/rounds/<int:round_no>/stream")
class RoundStream(MethodView):
    @leagues.arguments(RoundStreamArgs, location="query", error_status_code=400)
    @leagues.doc(responses=sse_answer(
        "text/event-stream: one `board` event per board when it opens and whenever a board changes (`data`: "
        "board, players, match, seq, status, result, outcome); it ends after `wait` seconds with a `retry:` hint",
        "board", "the board: board, players, match, seq, status, result, outcome", "the board"))
    @_doc_errors(leagues, 400, 404)
    def get(self, args, round_no, league_id):
        """Every board of a league round, live, in one stream: what the multiboard shows (docs/leagues.md)"""
        from flask import stream_with_context

        from .api import service as match_service
        from .errors import NotFound
        from .multiboard import round_events
        from .stream_api import _log_grows, max_seconds

        state = service().state(league_id)  # 404 for no such league
        if not 1 <= round_no <= len(state.rounds):
            raise NotFound(f"league {league_id} has no round {round_no} paired (it has {len(state.rounds)})")
        seconds = min(args["wait"], max_seconds())
        body = stream_with_context(round_events(service(), match_service(), league_id, round_no, seconds,
                                                _log_grows))
        return Response(body, mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@leagues.route("/<league_id>/trf")
class Trf(MethodView):
    @leagues.doc(responses={"200": {"description": "the TRF file",
                                    "content": {"text/plain": {"schema": {"type": "string"}}}}})
    @_doc_errors(leagues, 404, 422)
    def get(self, league_id):
        """The league as FIDE's TRF after its last complete round, for a pairing program (bbpPairings, JaVaFo)
        to check the next round; 422 where TRF cannot say what the league is (docs/leagues.md)"""
        return Response(service().trf(league_id), mimetype="text/plain",
                        headers={"Content-Disposition": f"attachment; filename=league-{league_id}.trf"})


@leagues.route("/<league_id>")
class League(MethodView):
    @leagues.response(200)
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """A league: players, rounds, boards, their matches and outcomes"""
        return service().get(league_id)


@leagues.route("/<league_id>/players")
class Players(MethodView):
    @leagues.arguments(PlayerIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, body, league_id):
        """Register a player (before round 1 is paired)"""
        user = allowed("league.manage", league_id)
        return service().register(league_id, body["player"], recorded_by=user)


@leagues.route("/<league_id>/withdrawals")
class Withdrawals(MethodView):
    @leagues.arguments(PlayerIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, body, league_id):
        """Withdraw a player from the later rounds"""
        user = allowed("league.manage", league_id)
        return service().withdraw(league_id, body["player"], recorded_by=user)


class PairArgs(Schema):
    relax = DelimitedList(fields.String(validate=validate.OneOf(["colour"])), load_default=[], metadata={
        "description": "the rules the organiser chooses to relax where no pairing keeps them all (`colour`: "
                       "C.3, two players of the same absolute colour preference meet); the round's event names "
                       "the choice"})


@leagues.route("/<league_id>/rounds")
class Rounds(MethodView):
    @leagues.arguments(PairArgs, location="query", error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, args, league_id):
        """Pair the next round, as the league's system pairs it

        Where no pairing keeps the absolute criteria, none is made: 422 `no_legal_pairing` says so and which
        rule a pairing would have to relax (`relax`); `?relax=colour` chooses that pairing, and the round's
        event names the choice."""
        user = allowed("league.manage", league_id)
        return service().pair_next_round(league_id, recorded_by=user, relax=tuple(args["relax"]))


@leagues.route("/<league_id>/rounds/<int:round_no>/boards/<int:board>/match")
class BoardMatch(MethodView):
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, league_id, round_no, board):
        """Create the match of a board, with the board's players in seat order, and link it

        Whoever starts it records it; the league's organisers and referees are its referees."""
        user = allowed("league.manage", league_id)
        return service().start_match(league_id, round_no, board, recorded_by=user,
                                     acl=acl_fields({user: ["recorder"]}, league=league_id))


@leagues.route("/<league_id>/results")
class Results(MethodView):
    @leagues.arguments(ResultIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, body, league_id):
        """Enter a linked match's result: only once the match has finished and its log is validated"""
        user = allowed("league.result", league_id)
        return service().record_result(league_id, body["match"], recorded_by=user)


@leagues.route("/<league_id>/forfeits")
class Forfeits(MethodView):
    @leagues.arguments(ForfeitIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404, 422)
    def post(self, body, league_id):
        """A referee's forfeit of a board, with the reason"""
        user = allowed("league.forfeit", league_id)
        return service().forfeit(league_id, body["round"], body["board"], body["forfeited"], body["reason"],
                                 recorded_by=user)


@leagues.route("/<league_id>/standings")
class Standings(MethodView):
    @leagues.arguments(StandingsArgs, location="query", error_status_code=400)
    @leagues.doc(responses={"200": {"description": "the standings", **JSON_OR_CSV}})
    @_doc_errors(leagues, 400, 404)
    def get(self, args, league_id):
        """Standings with the league's tiebreaks, recomputed from its stream (JSON or CSV)"""
        if args["format"] == "csv":
            return Response(service().standings_csv(league_id), mimetype="text/csv",
                            headers={"Content-Disposition": f"attachment; filename=standings-{league_id}.csv"})
        return {"league": league_id, "standings": service().standings(league_id)}


@leagues.route("/<league_id>/events")
class Events(MethodView):
    @leagues.response(200)
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """The league's stream, with hashes"""
        return {"league": league_id, "events": service().events(league_id)}


@leagues.route("/<league_id>/audit")
class Audit(MethodView):
    @leagues.response(200, S.LeagueAuditOut)
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """Check the league: its chain, its rules replayed, every result against its match's log,
        every finished match's chain, and each head against the signed transparency log

        The same check `kroniek audit verify` runs on the export, run here on
        what Redis holds now."""
        from leagues.archive import verify_archive

        chain = service().audit(league_id)
        report = verify_archive(_archive(league_id), None).to_dict()
        report.pop("notes", None)
        return {**chain, "valid": chain["valid"] and report["valid"], "problems": report["problems"],
                "checked": report["checked"], "schemes": report["schemes"]}


def _archive(league_id: str):
    from .exports import archive_records
    from .log_api import signing_key

    return archive_records(service(), current_app.extensions["kroniek.log"], signing_key(), league_id)


class PlaysArgs(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "csv", "bgstats", "bgg"]),
                           metadata={"description": "json (a play per board), csv (a row per player per play), "
                                                    "bgstats (a BG Stats play file) or bgg (BoardGameGeek's play "
                                                    "fields, a row per player per play)"})
    player = S.name_field(MAX_PLAYER_NAME, metadata={"description": "only this player's plays"})


@leagues.route("/<league_id>/plays")
class Plays(MethodView):
    @leagues.arguments(PlaysArgs, location="query", error_status_code=400)
    @leagues.doc(responses={"200": {"description": "the plays", **JSON_OR_CSV}})
    @_doc_errors(leagues, 400, 404)
    def get(self, args, league_id):
        """Results as play rows (date, players, scores, ranks, winners, start player), as play-logging apps import them

        JSON: a play per board; CSV: a row per player per play; `bgstats`: a play file BG Stats imports;
        `bgg`: BoardGameGeek's play fields, a row per player per play (a forfeit is no play in either).
        `player`: only that player's plays (docs/leagues.md)."""
        import orjson

        from .exports import bgg_plays_csv, bgstats_file, play_rows, play_rows_csv

        from engine import registry

        svc = service()
        rows = play_rows(svc, league_id, args.get("player"))
        name = f"plays-{league_id}"
        if args["format"] == "csv":
            return Response(play_rows_csv(rows), mimetype="text/csv",
                            headers={"Content-Disposition": f"attachment; filename={name}.csv"})
        if args["format"] in ("bgstats", "bgg"):
            state = svc.state(league_id)
            game = registry.get(state.game)
            if args["format"] == "bgg":
                return Response(bgg_plays_csv(rows, game, state.name), mimetype="text/csv",
                                headers={"Content-Disposition": f"attachment; filename={name}-bgg.csv"})
            body = orjson.dumps(bgstats_file(rows, game, league_id, state.name), option=orjson.OPT_INDENT_2)
            return Response(body, mimetype="application/json",
                            headers={"Content-Disposition": f"attachment; filename={name}.bgsplay"})
        return {"league": league_id, "plays": rows}


@leagues.route("/<league_id>/players/<path:player>")
class LeaguePlayer(MethodView):
    @leagues.response(200)
    @_doc_errors(leagues, 404)
    def get(self, league_id, player):
        """One player of the league: each round (board, seat, opponents, match, outcome, points), the score
        against each opponent (head to head), points and rank; their rating history is
        GET /api/ratings/<game>/players/<player>"""
        from .exports import player_record

        return player_record(service(), league_id, player)


@leagues.route("/<league_id>/evaluation")
class Evaluation(MethodView):
    @leagues.response(200)
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """Each player's accuracy and luck over the league, from its finished matches' evaluations

        Accuracy is the mean over the player's judged moves (games evaluated exactly: BraveRats, the
        patiences); luck is summed over the matches in `luck_unit` (games of chance: Catan, Troje, the knights).
        `pending`: finished matches the analysis has not evaluated yet (docs/review.md)."""
        from .exports import league_evaluation

        return league_evaluation(service(), league_id)


@leagues.route("/<league_id>/export")
class Export(MethodView):
    @leagues.doc(responses={"200": {"description": "one JSON record per line",
                                    "content": {"application/x-ndjson": {"schema": {"type": "string"}}}}})
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """The league's archive as JSON lines: its log, its finished matches' logs, a signed tree head
        and inclusion proofs; check it offline with `kroniek audit verify`"""
        import orjson

        lines = b"".join(orjson.dumps(record) + b"\n" for record in _archive(league_id))
        return Response(lines, mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f"attachment; filename=league-{league_id}.jsonl"})


@leagues.route("/<league_id>/people")
class People(MethodView):
    @leagues.arguments(S.LeagueRoleIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404)
    def post(self, body, league_id):
        """Add an organiser or referee, making their account and sign-in link where need be (an organiser's)

        As `POST /api/matches/<id>/people`; the link opens the league."""
        allowed("league.grant", league_id)
        return add_person("l", league_id, {**body, "seat": None}, f"/leagues/{league_id}")


@leagues.route("/<league_id>/roles")
class Roles(MethodView):
    @leagues.arguments(S.LeagueRoleIn, error_status_code=400)
    @leagues.response(201)
    @_doc_errors(leagues, 400, 401, 403, 404)
    def post(self, body, league_id):
        """Give a user a role on this league: organiser or referee (an organiser's)"""
        allowed("league.grant", league_id)
        return grant_role("l", league_id, {**body, "seat": None})

    @leagues.response(200)
    @_doc_errors(leagues, 404)
    def get(self, league_id):
        """Who holds which role on this league"""
        return roles_of("l", league_id, service().store)


@leagues.after_request
def _allow_only_post_on_import(response):
    """``/api/leagues/import`` also matches ``/api/leagues/<league_id>`` (a GET), so Flask's automatic OPTIONS
    answer would list GET; it is POST."""
    from flask import request

    if request.method == "OPTIONS" and request.endpoint == "leagues.Import":
        response.headers["Allow"] = "OPTIONS, POST"
    return response
