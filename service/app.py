"""The Flask application."""

from __future__ import annotations

import threading
from typing import Any, Callable

from flask import Flask, jsonify, make_response, render_template, request, send_from_directory, url_for
from flask.ctx import RequestContext
from flask.json.provider import DefaultJSONProvider
from flask.sessions import NullSession, SecureCookieSessionInterface
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter

from engine.core import KroniekError
from engine.text import SAID

from replays import EventStore
from replays.translog import TransparencyLog

from . import gate
from .access import Access
from .accounts import Accounts
from .errors import error_body
from .web import i18n
from .leagues import LeagueService, Written
from .limits import MAX_BODY_BYTES
from .matches import MatchService
from .openapi import KroniekSpecPlugin
from .outage import STORE_ERRORS, best_effort, store_unavailable
from .schemas import KroniekErrorResponse

API_VERSION = "1"


class Sessionless(SecureCookieSessionInterface):
    """Kroniek keeps no sessions (a request's user is its bearer token): every
    request gets the one shared null session, which refuses any change,
    instead of a look for a signing key and a new null session each."""

    _null = NullSession()

    def open_session(self, app: Any, request: Any) -> NullSession:
        return self._null


#: what of a request's environ werkzeug's URL adapter and route depend on
#: (Flask's create_url_adapter, werkzeug's get_host and bind_to_environ)
ROUTE_ENVIRON = ("REQUEST_METHOD", "PATH_INFO", "QUERY_STRING", "SCRIPT_NAME", "HTTP_HOST", "SERVER_NAME",
                 "SERVER_PORT", "wsgi.url_scheme", "HTTP_CONNECTION", "HTTP_UPGRADE")


class _Routed(RequestContext):
    """Flask's request context, whose route comes from the app's memo when
    the app has one for the request (``KroniekFlask.create_url_adapter``)."""

    def match_request(self) -> None:
        req = self.request
        known = req.__dict__.pop("_kroniek_route", None)
        if known is not None:
            req.url_rule, req.view_args = known[0], dict(known[1])  # a copy: a request may change its own
            return
        super().match_request()
        key = req.__dict__.pop("_kroniek_route_key", None)
        if key is not None and req.routing_exception is None:
            self.app._remember_route(key, req, self.url_adapter)  # type: ignore[attr-defined]


class KroniekJSONProvider(DefaultJSONProvider):
    """Flask's JSON, saying an engine's message (engine/text.py) in the answer's language, and rendering
    a league write's answer (``Written``: the league's view, made only when it is sent)."""

    @staticmethod
    def default(o: Any) -> Any:
        if isinstance(o, Written):
            return o.render()
        return i18n.said(o) if isinstance(o, SAID) else DefaultJSONProvider.default(o)


class KroniekFlask(Flask):
    """Flask, with what it works out anew per request worked out once:

    - whether a view, hook or handler is a coroutine function
      (``ensure_sync`` asks ``inspect`` every call, five times per append);
    - what werkzeug makes of a request's method, path, query and host: the
      URL adapter's settings (the host checked, lower-cased and IDNA-encoded,
      the path decoded) and the route it matches, with its view arguments.
      Both are a function of those environ values (``ROUTE_ENVIRON``) and of
      the URL map, which Flask freezes at the first request; a request seen
      before gets them from a memo (a copy of the view arguments), one not
      seen, or one werkzeug refuses (404, 405, a redirect, a bad host), goes
      Flask's way. Only with Flask's plain settings (no SERVER_NAME, no
      TRUSTED_HOSTS, no host or subdomain matching); bounded. Werkzeug's
      routing cost more than any other step of an append (115k of 879k
      instructions).
    """

    json_provider_class = KroniekJSONProvider

    session_interface = Sessionless()
    _SYNC_LIMIT = 4096  # functions remembered; past it the memo starts again (it never grows without bound)
    _ROUTES_LIMIT = 4096  # request lines and hosts remembered, likewise

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._is_sync: dict[Any, bool] = {}
        self._routes: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def request_context(self, environ: dict[str, Any]) -> RequestContext:
        return _Routed(self, environ)

    def _plain_routing(self) -> bool:
        config = self.config
        return (config["SERVER_NAME"] is None and config["TRUSTED_HOSTS"] is None
                and not self.url_map.host_matching and not self.subdomain_matching)

    def create_url_adapter(self, request: Any) -> MapAdapter | None:
        if request is None or not self._plain_routing():
            return super().create_url_adapter(request)
        environ = request.environ
        key = tuple([environ.get(name) for name in ROUTE_ENVIRON])
        known = self._routes.get(key)
        if known is None:
            request._kroniek_route_key = key  # remembered once it matched (_Routed.match_request)
            return super().create_url_adapter(request)
        host, settings, rule, view_args = known
        request.host = host  # as Flask sets it
        request._kroniek_route = (rule, view_args)
        return MapAdapter(self.url_map, *settings)

    def _remember_route(self, key: tuple[Any, ...], request: Any, adapter: MapAdapter) -> None:
        if len(self._routes) >= self._ROUTES_LIMIT:
            self._routes.clear()
        settings = (adapter.server_name, adapter.script_name, adapter.subdomain, adapter.url_scheme,
                    adapter.path_info, adapter.default_method, adapter.query_args)
        self._routes[key] = (request.host, settings, request.url_rule, dict(request.view_args or {}))

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        key = getattr(func, "__func__", func)  # a bound method is made anew at each attribute lookup
        sync = self._is_sync.get(key)
        if sync is None:
            if len(self._is_sync) >= self._SYNC_LIMIT:
                self._is_sync.clear()
            sync = self._is_sync[key] = super().ensure_sync(func) is func
        return func if sync else self.async_to_sync(func)


class KroniekApi(Api):
    """flask-smorest's Api with every HTTP error in Kroniek's JSON shape, and
    its OpenAPI document written when first read rather than as each
    blueprint is registered: writing the paths took half of each app's start
    (~25 ms of ~50), and most apps never serve the document (each API worker
    process starts one; the tests start hundreds)."""

    ERROR_SCHEMA = KroniekErrorResponse

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._undocumented: list[tuple[Any, str, Any]] = []  # (blueprint, its name, its url parameters)
        self._documented_last: list[Callable[[Any], None]] = []
        self._documenting = threading.Lock()
        super().__init__(*args, **kwargs)

    @property
    def spec(self):
        """The OpenAPI document, with every blueprint registered so far in it."""
        if self._undocumented or self._documented_last:
            with self._documenting:
                pending, self._undocumented = self._undocumented, []
                last, self._documented_last = self._documented_last, []
                for blp, name, parameters in pending:
                    blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
                    self._spec.tag({"name": name, "description": blp.description})
                for finish in last:
                    finish(self._spec)
        return self._spec

    @spec.setter
    def spec(self, value) -> None:
        self._spec = value

    def register_blueprint(self, blp, *, parameters=None, **options) -> None:
        """As flask-smorest's, but the blueprint's paths go into the document when it is first read."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def document_last(self, finish: Callable[[Any], None]) -> None:
        """``finish(spec)`` once the blueprints' paths are in the document."""
        self._documented_last.append(finish)

    def handle_http_exception(self, error: HTTPException):
        body: dict[str, Any] = {"code": (error.name or "error").lower().replace(" ", "_"), "message": error.description}
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        if messages:
            body["code"] = "malformed_request"
            body["message"] = "the request does not match its schema: " + _flatten_messages(messages)
            body["fields"] = messages
            body.update(_first_field(messages))
            if "json" in messages and not request.get_data(cache=True):
                body["message"] = ("this endpoint takes a JSON body, sent with the header "
                                   "'Content-Type: application/json'; the request has none")
        # Keep the exception's own headers (Allow on a 405, WWW-Authenticate…), not its HTML type.
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        return jsonify({"error": body}), error.code, headers

    def _openapi_swagger_ui(self):
        """Swagger UI (served from the swagger-ui-bundle package) in a page of
        our own (service/web/templates/apidocs.html): flask-smorest's has no
        ``lang``, no icon, and Swagger UI's colours and button names fail
        axe-core (tests/test_web_pages.py)."""
        from .web import with_security_headers

        page = render_template("apidocs.html", title=self.spec.title,
                               spec_url=url_for(f"{self._make_doc_blueprint_name()}.openapi_json"),
                               swagger_ui_url=self._swagger_ui_url,
                               swagger_ui_config=self.config.get("OPENAPI_SWAGGER_UI_CONFIG", {}))
        return with_security_headers(make_response(page))


def _first_field(messages: dict[str, Any]) -> dict[str, str]:
    """``field`` (a JSON path such as ``players[0]``) and ``location`` of the
    first schema error, as the input gate names the fields it refuses."""
    location, inner = next(iter(messages.items()))
    path = ""
    while isinstance(inner, dict) and inner:
        key, inner = next(iter(inner.items()))
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            path += f"[{key}]"
        else:
            path += f".{key}" if path else str(key)
    return {"field": path or gate.ROOT, "location": {"json": "body"}.get(location, location)}


def _flatten_messages(messages: Any, path: str = "") -> str:
    if isinstance(messages, dict):
        return "; ".join(_flatten_messages(v, f"{path}.{k}" if path else str(k)) for k, v in messages.items())
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return f"{path}: {' '.join(messages)}"
    if isinstance(messages, list):
        return "; ".join(_flatten_messages(m, path) for m in messages)
    return f"{path}: {messages}"


def create_app(
    store: EventStore | None = None,
    enqueue_validation: Callable[[str], None] | None = None,
    auth: str | None = None,
    enqueue_ratings: Callable[[str], None] | None = None,
    signing_key: Any = None,
    queue_connection: Any = None,
    **service_options: Any,
) -> Flask:
    """``auth``: ``required`` (a token for every write and private view) or
    ``open`` (anonymous matches as well); default ``KRONIEK_AUTH`` or required.
    ``signing_key``: the Ed25519 key for signed tree heads (tests); default
    ``service.keys.signing_key()``, loaded on first use. ``queue_connection``:
    the RQ Redis that ``/api/health`` reads (default ``queue_client()``)."""
    app = KroniekFlask("kroniek")
    app.config.update(
        API_TITLE="Kroniek",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        # Swagger UI's files come with the swagger-ui-bundle package and are
        # served by the app itself, so the docs page works without internet.
        OPENAPI_SWAGGER_UI_URL="/api/docs/assets/",
        JSON_SORT_KEYS=False,
        # Werkzeug refuses to read a longer body; the gate answers it as a JSON 413.
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    from .addresses import public_url_from_env

    # the address sign-in links start with (service.signin.link_base); checked here, so a wrong one stops the start
    app.config["KRONIEK_PUBLIC_URL"] = public_url_from_env()
    from workers.connection import load_plugins

    load_plugins()
    if store is None:
        from workers.connection import key_prefix, store_client

        store = EventStore(store_client(), key_prefix())
    delay = service_options.pop("validation_delay", 1.0)
    if enqueue_validation is None:
        from workers.queue import enqueue_validation as enqueue

        prefix = store.prefix
        # A job queued by a move starts about a second later, so it reads the
        # moves made meanwhile (each finds the match owed a validation already
        # and queues nothing: see MatchService._owe_validation).

        def enqueue_validation(match_id: str) -> None:
            enqueue(prefix, match_id, delay)

    if enqueue_ratings is None:
        from workers.queue import enqueue_ratings as enqueue_game

        ratings_prefix = store.prefix

        def enqueue_ratings(game: str) -> None:
            enqueue_game(ratings_prefix, game)

    matches = MatchService(store, enqueue_validation, **service_options)
    if queue_connection is not None:
        app.extensions["kroniek.queue_connection"] = queue_connection
    app.extensions["kroniek"] = matches
    app.extensions["kroniek.access"] = access = Access(Accounts(store.r, store.prefix), auth)
    from . import logs, metrics

    # one hook each way, the request looked up once (each hook and each look through Flask's proxy is paid
    # by every append: bench.append_profile)
    app.before_request(lambda: logs.request_id_of(request._get_current_object()) and None)  # its id and start

    def measured(response):
        now = request._get_current_object()
        metrics.observe(now, response.status_code)
        return logs.log_request(now, response)

    app.after_request(measured)

    @app.get("/metrics")
    def prometheus_metrics():
        """The metrics in Prometheus's text format (service/metrics.py, docs/ops.md)."""
        body, content_type = metrics.scrape(app)
        return app.response_class(body, mimetype=None, content_type=content_type)

    app.before_request(access.authenticate)
    app.before_request(gate.check_request)  # every body, query and path value within service.limits
    app.before_request(i18n.check_lang)  # ?lang=: the language the engines' messages are said in
    app.extensions["kroniek.log"] = log = TransparencyLog(store.r, store.prefix)
    if signing_key is not None:
        app.extensions["kroniek.signing_key"] = signing_key
    app.extensions["kroniek.leagues"] = LeagueService(EventStore(store.r, store.prefix, kind="l"), matches,
                                                      on_results_changed=best_effort("queueing ratings", enqueue_ratings),
                                                      on_head=best_effort("adding a league head to the "
                                                                          "transparency log",
                                                                          lambda i, s, h: log.add("l", i, s, h)))

    api = KroniekApi(
        app,
        spec_kwargs={
            "info": {
                "description": "Record real games move by move as hash-chained event streams, "
                "replay any step, review with annotations, and audit every log."
            },
            # per operation: the lock only where a token is needed or used; 503 everywhere
            "extra_plugins": [KroniekSpecPlugin(access.mode)],
        },
    )
    from .api import games
    from .api import matches as matches_blueprint
    from .game_data_api import Sha256Converter, game_data
    from .league_api import leagues
    from .log_api import transparency
    from .notation_api import notation
    from .ratings_api import ratings
    from .health_api import health
    from .users_api import users
    from .stream_api import stream
    from .web import web

    app.url_map.converters["sha256"] = Sha256Converter
    api.register_converter(Sha256Converter, lambda _: {"type": "string", "pattern": "^[0-9a-f]{64}$"})
    api.register_blueprint(games)
    api.register_blueprint(notation)  # before matches: /api/matches/import is not a match id
    api.register_blueprint(matches_blueprint)
    api.register_blueprint(leagues)
    api.register_blueprint(transparency)
    api.register_blueprint(ratings)
    api.register_blueprint(users)
    api.register_blueprint(health)
    api.register_blueprint(game_data)
    api.register_blueprint(stream)
    app.register_blueprint(web)  # the pages: / and below (docs/ui.md)
    api.document_last(lambda spec: spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"}))
    for error in STORE_ERRORS:
        app.register_error_handler(error, store_unavailable)

    @app.errorhandler(KroniekError)
    def kroniek_error(exc: KroniekError):
        body = error_body(exc, i18n.speaking())  # (a ?lang= it does not speak: this error is told in English)
        answer: dict[str, Any] = {"error": body}
        if "current_seq" in body:
            answer["current_seq"] = body["current_seq"]  # the 409 contract names it at the top too
        headers = {"WWW-Authenticate": 'Bearer realm="kroniek"'} if exc.status == 401 else {}
        return jsonify(answer), exc.status, headers

    @app.errorhandler(404)
    def not_found(exc):
        where = "" if request.path.startswith("/api/") else "; the API is under /api"
        message = f"no such endpoint: {request.method} {request.path[:200]}{where} (every endpoint is listed at /api/docs)"
        return jsonify({"error": {"code": "not_found", "message": message}}), 404

    @app.errorhandler(413)
    def too_large(exc):
        return jsonify({"error": {"code": "payload_too_large", "message": f"the body is longer than {MAX_BODY_BYTES:,} bytes",
                                  "field": gate.ROOT, "location": "body", "limit": MAX_BODY_BYTES}}), 413

    @app.errorhandler(405)
    def not_allowed(exc):
        allow = [(k, v) for k, v in exc.get_headers() if k == "Allow"]
        return jsonify({"error": {"code": "method_not_allowed", "message": str(exc.description)}}), 405, allow

    @app.get("/api/docs/assets/<path:name>")
    def swagger_assets(name: str):
        import swagger_ui_bundle

        return send_from_directory(swagger_ui_bundle.swagger_ui_path, name, max_age=86400)

    @app.get("/api")
    def api_index():
        return jsonify(
            {
                "name": "Kroniek",
                "version": API_VERSION,
                "docs": "/api/docs",
                "pages": "/",
                "openapi": "/api/openapi.json",
                "games": "/api/games",
                "matches": "/api/matches",
                "leagues": "/api/leagues",
                "transparency_log": "/api/log/tree-head",
                "auth": app.extensions["kroniek.access"].mode,
            }
        )

    return app
