"""HTTP endpoints. Thin: parse, call the service layer, shape the answer."""

from __future__ import annotations

import orjson
from flask import current_app, request
from flask.views import MethodView

from engine import all_games, get
from engine.core import REFEREE, KroniekError
from engine.match import CORE_RULES, UNDO, UNDO_SCHEMA, UNDO_WORDS
from engine.text import N_, SAID, translated
from replays.hashing import utc_now

from . import metrics
from . import schemas as S
from .access import Access, user_of
from .accounts import acl_fields, check_role
from .errors import BadRequest, Forbidden, MalformedRequest, NotFound, Unauthorized
from .gate import Blueprint, plain_loader
from .limits import MAX_IDEMPOTENCY_KEY
from .matches import Appended, MatchService
from .signin import sign_in_link
from .web import i18n

games = Blueprint("games", __name__, url_prefix="/api/games", description="The games Kroniek knows")
matches = Blueprint("matches", __name__, url_prefix="/api/matches", description="Recorded matches")

ERRORS = {
    400: "malformed request or event",
    401: "no token, or not a valid one (send 'Authorization: Bearer <token>')",
    403: "the token's user lacks the role this needs",
    404: "no such match, game, league, user or tree (yet)",
    409: "expected_seq is not the latest seq (seq_conflict), the stored log no longer replays (corrupt_log), "
         "or too many writers at once (busy: send it again)",
    422: "the rules forbid this move",
}


def service() -> MatchService:
    return current_app.extensions["kroniek"]


def access() -> Access:
    return current_app.extensions["kroniek.access"]


def _or_404(check, store, object_id: str):
    """Run a role check; a refusal about an object that does not exist is a
    404, as it would be without accounts."""
    try:
        return check()
    except (Unauthorized, Forbidden):
        if not store.exists(object_id):
            raise NotFound(f"no such {'match' if store.kind == 'm' else 'league'} {object_id!r}") from None
        raise


def guard(action: str, object_id: str, store) -> str:
    """The user's name if they may do ``action`` on the match or league in ``store``."""
    return _or_404(lambda: access().require(action, object_id).name, store, object_id)


def guard_view(match_id: str, viewer) -> None:
    """A private view needs its role; a seat's view of a game with nothing
    hidden (every seat sees what the public sees) is anyone's. The referee's
    view stays private in every game: it shows a simulated match's seed."""
    if isinstance(viewer, int) and not _has_hidden_information(match_id):
        return
    _or_404(lambda: access().require_view(match_id, viewer), service().store, match_id)


def _has_hidden_information(match_id: str) -> bool:
    head = service().store.head(match_id)
    try:
        return get(head["game"]).hidden_information if head else True
    except KroniekError:
        return True


def _doc_errors(blp: Blueprint, *codes: int):
    """Document the error answers an endpoint gives. Only their documentation
    is kept: each ``alt_response`` would also wrap the view in a function
    that every request passes through, to no purpose."""

    def wrap(fn):
        documented = fn
        for code in codes:
            schema = S.SeqConflictResponse if code == 409 else S.KroniekErrorResponse
            documented = blp.alt_response(code, schema=schema, description=ERRORS[code])(documented)
        fn._apidoc = documented._apidoc
        return fn

    return wrap


def _doc_only(*decorators):
    """Keep only the documentation of flask-smorest decorators (``arguments``,
    ``response``), for a view that does their work itself: on the append,
    the hot path, each would wrap the view in functions every request
    passes through (webargs' ``use_args``, two ``ensure_sync`` and a check
    that the answer is a Response), for nothing the view does not do."""

    def wrap(fn):
        documented = fn
        for decorator in reversed(decorators):
            documented = decorator(documented)
        fn._apidoc = documented._apidoc
        return fn

    return wrap


UNDO_DESCRIPTION = N_("Revert the latest effective move (a recording mistake); the log keeps both.")


@games.route("")
class Games(MethodView):
    @games.response(200, S.GameList)
    def get(self):
        """List the games"""
        speaks = i18n.speaking()
        return {"games": [{**g.info(), "summary": g.summary_said(speaks)} for g in all_games()]}


@games.route("/<game_id>")
class Game(MethodView):
    @games.response(200, S.GameDetail)
    @_doc_errors(games, 404)
    def get(self, game_id):
        """A game: its options, event types (with JSON Schemas), rules and aliases"""
        game = get(game_id)
        speaks = i18n.speaking()  # the texts the game marks (N_) in the answer's language
        event_types = {
            name: {"actor": et.actor, "description": speaks.gettext(et.description),
                   "schema": translated(et.schema, speaks), "title_nl": game.event_title_nl(name)}
            for name, et in game.event_types.items()
        }
        event_types[UNDO] = {
            "actor": "recorder",
            "description": speaks.gettext(UNDO_DESCRIPTION),
            "schema": translated(UNDO_SCHEMA, speaks),
            "title_nl": UNDO_WORDS[1],
        }
        return {
            **game.info(),
            "summary": game.summary_said(speaks),
            "options": translated(game.options_schema, speaks),
            "event_types": event_types,
            "rules": {rule: speaks.gettext(text) for rule, text in {**CORE_RULES, **game.rules}.items()},
            "aliases": game.aliases,
        }


@matches.route("")
class Matches(MethodView):
    @matches.arguments(S.MatchCreate, error_status_code=400)
    @matches.response(201, S.MatchOut)
    @_doc_errors(matches, 400, 401, 404)
    def post(self, body):
        """Create a match; its setup event is seq 1, and its creator its recorder"""
        user = access().require_user(anonymous_ok=True)
        return service().create_match(
            body["game"], body["players"], body["options"], body["mode"], body["seed"], recorded_by=user.name,
            acl=acl_fields(access().creator_acl("recorder")),
        )

    @matches.arguments(S.ListArgs, location="query", error_status_code=400)
    @matches.response(200, S.MatchList)
    def get(self, args):
        """List matches, newest first"""
        return service().list_matches(args["offset"], args["limit"])


@matches.route("/<match_id>")
class Match(MethodView):
    @matches.response(200, S.MatchOut)
    @_doc_errors(matches, 404)
    def get(self, match_id):
        """A match: status, seq, result and the worker's validation"""
        return service().match(match_id, said=True)


#: EventIn's plain loader (service.gate.plain_loader), called by the append itself
_plain_event = plain_loader(S.EventIn()) or (lambda body: None)


@matches.route("/<match_id>/events")
class Events(MethodView):
    init_every_request = False  # no state on the view: one instance, not one per request

    @_doc_only(matches.arguments(S.EventIn, error_status_code=400),
               matches.arguments(S.AppendHeaders, location="headers", error_status_code=400),
               matches.response(201, S.AppendOut))
    @_doc_errors(matches, 400, 401, 403, 404, 409, 422)
    def post(self, match_id):
        """Append an event (a move, a chance outcome, or an undo): a recorder's or referee's

        Send the `Idempotency-Key` header to make a retry safe: the same key
        returns the first answer and writes nothing."""
        app, req = current_app._get_current_object(), request._get_current_object()  # one proxy lookup each
        body = _plain_event(getattr(req, "kroniek_body", None))  # the usual body, as the schema would read it
        if body is None:  # any other: the schema reads it (and words its refusal)
            body = matches.ARGUMENTS_PARSER.parse(S.EventIn, req, location="json", error_status_code=400)
        svc = app.extensions["kroniek"]
        user = _or_404(lambda: app.extensions["kroniek.access"].require_append(
            match_id, body["seat"], body["type"], user_of(req), lambda kind: svc.actor_of(match_id, kind)).name,
            svc.store, match_id)
        key = req.environ.get("HTTP_IDEMPOTENCY_KEY")  # what req.headers.get("Idempotency-Key") reads
        if key is not None and not (0 < len(key) <= MAX_IDEMPOTENCY_KEY and key.isprintable()):
            raise MalformedRequest(f"Idempotency-Key must be 1–{MAX_IDEMPOTENCY_KEY} printable characters",
                                   field="Idempotency-Key", location="header", limit=MAX_IDEMPOTENCY_KEY)
        try:
            answer = svc.append(
                match_id,
                body["type"],
                body["seat"],
                body["data"],
                expected_seq=body["expected_seq"],
                idempotency_key=key,
                recorded_by=user,
                data_checked=True,  # the gate checked the body that holds it
            )
        except KroniekError as refusal:
            metrics.child(metrics.REFUSALS, svc.game_of_cached(match_id) or "unknown",
                          refusal.details.get("rule") or refusal.code).inc()
            raise
        if isinstance(answer, Appended):
            metrics.child(metrics.APPENDS, answer.game_id).inc(answer.count)
        # Encoded once, as AppendOut documents it (it has exactly those fields), not dumped by the schema again.
        encoded = answer.json(i18n.said) if isinstance(answer, Appended) else orjson.dumps(answer, default=i18n.said)
        return app.response_class(encoded, status=201, content_type="application/json")

    @matches.arguments(S.EventsArgs, location="query", error_status_code=400)
    @matches.response(200, S.EventList)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The log: events with their hashes, optionally from/to a seq

        Hidden information (a face-down card, the seed of a simulated match)
        is shown only to whom may see it: pass `seat` for a seat's view (that
        seat's player, a recorder or referee) or `seat=referee` for the whole
        log (a recorder or referee)."""
        guard_view(match_id, args["seat"])
        return {"match": match_id, "events": service().events(match_id, args["from_"], args["to"], args["seat"])}


@matches.route("/<match_id>/state")
class State(MethodView):
    @matches.arguments(S.StateArgs, location="query", error_status_code=400)
    @matches.response(200)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The state at any seq, as one seat (or the public, or the referee) sees it"""
        guard_view(match_id, args["seat"])
        ms = service().state_at(match_id, args["at"])
        seat = args["seat"]
        if isinstance(seat, int) and seat >= len(ms.players):
            raise BadRequest(f"seat must be 0–{len(ms.players) - 1}, 'referee' or 'public'", field="seat",
                             location="query")
        return {"match": match_id, "viewer": seat, **ms.view(seat)}


@matches.route("/<match_id>/legal-moves")
class LegalMoves(MethodView):
    @matches.arguments(S.SeatArgs, location="query", error_status_code=400)
    @matches.response(200)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The moves a seat may enter now (without a seat: the table's moves)

        Where the table's moves depend on hidden cards (BraveRats with secret
        hands), they are a recorder's or referee's, like the referee's view.
        `seat=referee` lists every move that can be entered now, the table's
        and each acting seat's (a recorder's or referee's)."""
        guard_view(match_id, args["seat"])
        if args["seat"] is None and service().table_moves_hidden(match_id):
            guard_view(match_id, REFEREE)
        return service().legal_moves(match_id, args["seat"])


@matches.route("/<match_id>/scene")
class Scene(MethodView):
    @matches.arguments(S.SceneArgs, location="query", error_status_code=400)
    @matches.response(200, S.SceneOut)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The table as the pages draw it: zones and elements, each tappable element with its legal moves

        Built from the view of `seat` (a seat, `referee`, or `public`/absent)
        and the moves that viewer may see: the referee every move; a seat its
        own, and the table's unless they depend on hidden cards; anyone every
        move of a game with nothing hidden. Guarded like `state`. A chance
        picker (`chance`) sits on the element where the table sees the
        outcome. 404 when the game is not drawn this way yet."""
        guard_view(match_id, args["seat"])
        return service().scene(match_id, args["seat"], args["at"])


@matches.route("/<match_id>/snapshot")
class Snapshot(MethodView):
    @matches.response(200)
    @_doc_errors(matches, 401, 403, 404)
    def get(self, match_id):
        """The match as a page's own engine continues it: its setup and a snapshot of its state

        The match page runs the same engine in the browser (docs/ui.md,
        "The engine in the page"): it starts from this, follows the log's
        events after `seq`, and lays the moves waiting on the device on top.
        The snapshot holds the whole table, hidden cards too, so in a game
        with hidden information it is a recorder's or referee's, like the
        referee's view; in a game with nothing hidden it is anyone's. The
        setup comes without the seed and the server's secret of a simulated
        match: the page never draws."""
        if _has_hidden_information(match_id):
            guard_view(match_id, REFEREE)
        from engine.page_table import page_payload

        return page_payload(match_id, service().current(match_id))


class HintArgs(S.Schema):
    seat = S.seat_field(required=True, metadata={"description": "the seat whose moves to judge"})
    budget = S.fields.Integer(load_default=200_000, validate=S.validate.Range(min=1, max=5_000_000),
                              metadata={"description": "solver nodes for the whole hint, shared out over the seat's moves "
                                                       "(and a sampled estimate's samples); past a move's share "
                                                       "it is judged unknown"})


@matches.route("/<match_id>/hint")
class Hint(MethodView):
    @matches.arguments(HintArgs, location="query", error_status_code=400)
    @matches.response(200)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """The seat's moves that keep the game winnable (games with a solver)"""
        guard_view(match_id, args["seat"])
        return service().hint(match_id, args["seat"], args["budget"])


@matches.route("/<match_id>/review")
class Review(MethodView):
    @matches.arguments(S.ReviewArgs, location="query", error_status_code=400)
    @matches.response(200)
    @_doc_errors(matches, 400, 401, 403, 404)
    def get(self, args, match_id):
        """Move-by-move review: a summary and the annotations of every event

        Filtered like the log: an event whose data the viewer may not see
        (a face-down card, a secret choice) is summarised without it and
        without the worker's annotations. Pass `seat` for a seat's review (that
        seat's player, a recorder or referee) or `seat=referee` for all of it.

        Games with an evaluation add `evaluation` (docs/review.md): each
        seat's chance of winning after the events everyone may see, how it
        was obtained, each move judged (loss, glyph, accuracy) and each
        seat's accuracy; null until the analysis has run."""
        guard_view(match_id, args["seat"])
        review = service().review(match_id, args["seat"], first=args["from_"])
        dutch, speaks = i18n.language("nl"), i18n.speaking()
        for step in review["steps"]:  # summary_nl: the Dutch line whatever the answer's language (the pages' field)
            if isinstance(step["summary"], SAID):
                step["summary_nl"] = step["summary"].render(dutch)
            elif step["summary_nl"] is not None and speaks.code == "nl":
                step["summary"] = step["summary_nl"]  # a game that still says its lines twice (describe_nl)
        return review


@matches.route("/<match_id>/annotations")
class Annotations(MethodView):
    @matches.arguments(S.AnnotationIn, error_status_code=400)
    @matches.response(201)
    @_doc_errors(matches, 400, 401, 403, 404)
    def post(self, body, match_id):
        """Add a comment and/or glyph (!! ! !? ?! ? ??) to an event; the log is untouched

        A recorder's, referee's or player's."""
        user = guard("match.annotate", match_id, service().store)
        return service().annotate(match_id, body["seq"], body["comment"], body["glyph"], author=user)

    @matches.response(200)
    @_doc_errors(matches, 404)
    def get(self, match_id):
        """Human annotations of a match"""
        return service().annotations(match_id)


@matches.route("/<match_id>/audit")
class Audit(MethodView):
    @matches.response(200, S.AuditOut)
    @_doc_errors(matches, 404)
    def get(self, match_id):
        """Recompute the hash chain: catches any edited, removed or reordered entry"""
        return service().audit(match_id)


@matches.route("/<match_id>/roles")
class Roles(MethodView):
    @matches.arguments(S.RoleIn, error_status_code=400)
    @matches.response(201)
    @_doc_errors(matches, 400, 401, 403, 404)
    def post(self, body, match_id):
        """Give a user a role on this match: recorder, referee, or player of a seat (a recorder's or referee's)"""
        guard("match.grant", match_id, service().store)
        return grant_role("m", match_id, body)

    @matches.response(200)
    @_doc_errors(matches, 404)
    def get(self, match_id):
        """Who holds which role on this match"""
        return roles_of("m", match_id, service().store)


@matches.route("/<match_id>/people")
class People(MethodView):
    @matches.arguments(S.RoleIn, error_status_code=400)
    @matches.response(201)
    @_doc_errors(matches, 400, 401, 403, 404)
    def post(self, body, match_id):
        """Add a person with a role, making their account and sign-in link where need be (a recorder's or referee's)

        `user` is the person's name; `created` says whether their account is
        new. `sign_in` is a one-time link (and its QR code) that signs them in
        on their phone and opens this match, given where the caller may make
        it: for a person they added who has not signed in yet, or anyone for
        an admin (else null, and `sign_in_note` says who can)."""
        guard("match.grant", match_id, service().store)
        return add_person("m", match_id, body, f"/matches/{match_id}")


def add_person(kind: str, object_id: str, body: dict, opens: str) -> dict:
    """Grant a role to ``body["user"]``, first making their account if there is
    none (added by the caller, who checked they may grant), and their link."""
    role = checked_role(kind, object_id, body)  # before an account is made for a refused role
    accounts, caller = access().accounts, access().require_user()
    try:
        accounts.user(body["user"])
        created = False
    except NotFound:
        accounts.add_user(body["user"], False, utc_now(), by=caller.name)
        created = True
    answer = {**grant_role(kind, object_id, body, role), "created": created, "sign_in": None}
    try:
        answer["sign_in"] = sign_in_link(body["user"], opens)  # where the caller may make it
    except Forbidden:
        answer["sign_in_note"] = (f"{body['user']} has an account of their own: their sign-in link is theirs to "
                                  f"make (on a device where they are signed in), or an admin's")
    return answer


def checked_role(kind: str, object_id: str, body: dict) -> str:
    """The role ``body`` asks for, as stored (a player's names its seat, below the match's players)."""
    seats = len(service().current(object_id).players) if kind == "m" else None
    return check_role(kind, body["role"], body.get("seat"), seats)


def grant_role(kind: str, object_id: str, body: dict, role: str | None = None) -> dict:
    """Give ``body["user"]`` a role on a match or league (the caller checked who may); ``role``: the
    role already checked (``checked_role``) for a user known to exist."""
    if role is None:
        role = checked_role(kind, object_id, body)
        access().accounts.user(body["user"])  # 404 for an unknown user
    roles = access().accounts.grant(kind, object_id, body["user"], role)
    return {"match" if kind == "m" else "league": object_id, "user": body["user"], "roles": roles}


def roles_of(kind: str, object_id: str, store) -> dict:
    what = "match" if kind == "m" else "league"
    if not store.exists(object_id):
        raise NotFound(f"no such {what} {object_id!r}")
    return {what: object_id, "roles": access().accounts.acl(kind, object_id)}
