"""The pages: server-rendered shells plus small hand-written scripts that talk
to the same REST API as every other client (docs/ui.md).

Nothing here knows a game: the record screen is built from the game's event
types (their JSON Schemas) and the legal moves the API lists; what a game
looks like on the table is ``static/boards.js``, and the forms that enter a
game's own data (a knights' card set) are ``static/editors.js``. A page never reads the store
on a user's behalf: what a viewer may see is what the API shows their token.
Public lists (games, recent matches, leagues) are rendered on the server so
the home page is useful at once, token or not.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, send_from_directory
from flask_babel import gettext as _

from engine import all_games
from engine.core import KroniekError
from engine.text import SAID, render

from .. import next_path
from . import i18n

HERE = Path(__file__).resolve().parent
web = Blueprint("web", __name__, template_folder="templates", static_folder=None)
web.record_once(lambda state: i18n.init_app(state.app))

#: how many recent matches and leagues the home page lists
HOME_LIST = 20


#: What a page may load and run: its own scripts, styles, images and API, nothing inline and nothing from
#: elsewhere. Swagger UI's stylesheet draws its icons as data: images.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@web.after_request
def security_headers(response: Response) -> Response:
    """Every page's and asset's answer: the CSP, and no sniffing or framing."""
    return with_security_headers(response)


def with_security_headers(response: Response) -> Response:
    # the one answer that sets its own (the page engine's worker, which compiles WebAssembly) keeps it
    if "Content-Security-Policy" not in response.headers:
        response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@web.app_template_filter("tojson_attr")
def tojson_attr(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@web.app_template_filter("player_counts")
def player_counts(counts: list[int]) -> str:
    """A game's player counts as a sentence says them: "2–4", "4 or 6" ("4 of 6"), as
    engine.core.player_count_text says them in English."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else _("%(some)s or %(last)s", some=", ".join(words[:-1]), last=words[-1])


@web.app_template_filter("said")
def said_filter(value: Any) -> str:
    """What an engine said (a Text), in the page's language; anything else as it is."""
    from flask_babel import get_locale

    return render(value, i18n.language(get_locale().language)) if isinstance(value, SAID) else value


@web.app_template_filter("status_words")
def status_words(status: str) -> str:
    """A match's status as words ("in progress")."""
    return {"in_progress": _("in progress"), "finished": _("finished")}.get(status, status.replace("_", " "))


@web.app_template_filter("points")
def points_words(value: Any) -> str:
    """League points as the wall shows them: 3, 2½, 1/3 (an exact fraction, never 0.333)."""
    from fractions import Fraction

    x = Fraction(value) if not isinstance(value, float) else Fraction(value).limit_denominator(1000)
    whole, part = divmod(x, 1)
    if part == 0:
        return str(int(whole))
    if part == Fraction(1, 2):
        return f"{int(whole) if whole else ''}½" if whole >= 0 else f"{x}"
    return str(x)


@web.app_template_filter("format_words")
def format_words(fmt: str) -> str:
    """A league's format as words ("round robin")."""
    return {"swiss": _("swiss"), "round_robin": _("round robin"), "double_round_robin": _("double round robin"),
            "tables": _("tables")}.get(fmt, fmt.replace("_", " "))


@web.app_context_processor
def language() -> dict[str, Any]:
    """The page's language for ``<html lang>`` and the switch to the other one."""
    if not request:
        return {}
    from service.access import ANONYMOUS, user_of

    lang = i18n.lang()
    user = user_of(request._get_current_object())  # the session cookie's (a pasted token stays in the browser)
    return {"lang": lang, "other_langs": [code for code in i18n.LANGS if code != lang],
            "here": request.full_path.rstrip("?"), "signed_in_as": "" if user is ANONYMOUS else user.name}


@web.post("/language")
def set_language():
    """The language switch (every page's header): remembered in a cookie, back to the page it was on."""
    lang = request.form.get("lang", "")
    if lang not in i18n.LANGS:
        abort(400)
    response = redirect(next_path.or_home(request.form.get("next", "/")), code=303)
    from service.signin import base_url

    response.set_cookie(i18n.COOKIE, lang, max_age=i18n.COOKIE_AGE, samesite="Lax", httponly=True,
                        secure=base_url(request).startswith("https:"))
    return response


@web.get("/assets/messages.<lang>.js")
def messages(lang: str):
    """The scripts' messages in one language (K.t in kroniek.js): a script the page loads, never an inline one."""
    script = current_app.extensions["kroniek.messages"].get(lang)
    if script is None:
        abort(404)
    return Response(script, mimetype="text/javascript", headers={"Cache-Control": "public, max-age=300"})


def _games() -> list[dict[str, Any]]:
    """Each game's info, with its summary in the page's language where the game has one in it
    (``summary_nl``), else in English (``summary_lang`` says which, for the element's ``lang``)."""
    speaks = i18n.language(i18n.lang())
    rows = []
    for g in all_games():
        said = g.summary_said(speaks)
        rows.append({**g.info(), "summary_text": said,
                     "summary_lang": speaks.code if said != g.summary else i18n.LANGS[0]})
    return rows


def _game_names() -> dict[str, str]:
    """Each game's name by its id: a page names a game, never by its id."""
    return {g.id: g.name for g in all_games()}


def _leagues(limit: int) -> list[dict[str, Any]]:
    service = current_app.extensions["kroniek.leagues"]
    rows = []
    for league_id in service.store.match_ids(0, limit):
        try:
            league = service.get(league_id)
        except KroniekError:
            continue
        rows.append({"id": league_id, "name": league.get("name"), "game": league.get("game"),
                     "format": league.get("format"), "rounds": len(league.get("rounds", []))})
    return rows


@web.get("/")
def home():
    matches = current_app.extensions["kroniek"].list_matches(0, HOME_LIST)["matches"]
    return render_template("home.html", games=_games(), matches=matches,
                           leagues=_leagues(HOME_LIST), game_names=_game_names(), page="home")


@web.get("/record")
def new_match():
    return render_template("new_match.html", start="newMatchPage", games=[g.info() for g in all_games()], page="record")


def _league_board(match_id: str) -> dict[str, Any] | None:
    """The league board a match was started from (its roles name the league;
    the league's own stream says which round and board), for a link back."""
    from ..accounts import LEAGUE_FIELD

    league = current_app.extensions["kroniek.access"].accounts.acl("m", match_id).get(LEAGUE_FIELD)
    return current_app.extensions["kroniek.leagues"].board_of(league, match_id) if league else None


@web.get("/matches/<match_id>")
def match_page(match_id: str):
    """Watch live, and record when the token may."""
    return render_template("match.html", start="matchPage", match_id=match_id, league=_league_board(match_id),
                           page="match")


@web.get("/matches/<match_id>/review")
def review_page(match_id: str):
    """The game's id comes with the page (from the match's head, which anyone may read), so
    the script asks for the game, the review and the state at once."""
    head = current_app.extensions["kroniek"].store.head(match_id) or {}
    return render_template("review.html", start="reviewPage", match_id=match_id, game=head.get("game", ""),
                           league=_league_board(match_id), page="review")


@web.get("/games/<game_id>/<kind>/new")
def data_editor(game_id: str, kind: str):
    """Enter a table's own game data (a knights' card set, a board), starting
    from a shipped or stored document; the page checks and saves it through
    the game-data API. Which kinds there are is the game's to say."""
    from engine import get
    from engine.game_data import data_kinds

    try:
        game = get(game_id)
    except KroniekError:
        abort(404)
    dk = data_kinds(game).get(kind)
    if dk is None or dk.option is None:
        abort(404)
    what = i18n.language(i18n.lang()).gettext(dk.title)  # marked N_ by its game
    return render_template("data_editor.html", start="dataEditor", game_id=game.id, game_name=game.name, kind=kind,
                           option=dk.option, what=what, page="record")


@web.get("/leagues")
def leagues_page():
    return render_template("leagues.html", start="leaguesPage", leagues=_leagues(200),
                           games=[g.info() for g in all_games()], page="leagues")


@web.get("/leagues/<league_id>")
def league_page(league_id: str):
    return render_template("league.html", start="leaguePage", league_id=league_id, page="leagues")


#: the sheets a league prints for the wall (``/leagues/<id>/print/<kind>``)
PRINTS = ("pairings", "standings", "sheets")


def _result_words(outcome: Any, players: tuple[str, ...]) -> str:
    """A board's outcome as the wall shows it: 1–0, ½–½, 0–1; a forfeit + / −; a table its places."""
    if outcome is None:
        return ""
    if outcome.forfeit is not None:
        return " – ".join("−" if p in outcome.forfeited else "+" for p in players)
    if len(players) == 2:
        a, b = outcome.ranks
        return "½–½" if a == b else "1–0" if a < b else "0–1"
    return " ".join(str(r) for r in outcome.ranks)


@web.get("/leagues/<league_id>/print/<kind>")
def league_print(league_id: str, kind: str):
    """A league's pairings of a round, its standings, or a round's score sheets, laid out for A4 paper (print
    CSS): served whole by the server, so the browser's print needs no script."""
    from engine.core import KroniekError
    from leagues.standings import player_points

    if kind not in PRINTS:
        abort(404)
    service = current_app.extensions["kroniek.leagues"]
    try:
        state = service.state(league_id)
    except KroniekError:
        abort(404)
    number = request.args.get("round", type=int) or len(state.rounds)
    if kind != "standings" and not 1 <= number <= len(state.rounds):
        abort(404)
    rnd = state.rounds[number - 1] if kind != "standings" else None
    before = player_points([r for r in state.results() if r.round < number], state.rules, state.players) \
        if rnd is not None else {}
    boards = [{"number": i, "players": board.players, "points": [before.get(p, 0) for p in board.players],
               "result": _result_words(board.outcome, board.players)}
              for i, board in enumerate(rnd.boards, start=1)] if rnd is not None else []
    tiebreak_names = {"buchholz": "Buchholz", "buchholz_cut1": _("Buchholz cut 1"),
                      "sonneborn_berger": "Sonneborn-Berger", "direct_encounter": _("direct encounter"),
                      "wins": _("wins")}
    tiebreak_short = {"buchholz": "Bh", "buchholz_cut1": "Bh-1", "sonneborn_berger": "SB",
                      "direct_encounter": _("DE"), "wins": _("Wins")}
    standings = [s.to_dict(state.rules.tiebreaks) for s in state.standings()] if kind == "standings" else []
    return render_template("league_print.html", kind=kind, league_id=league_id, league=state, round=number,
                           rnd=rnd, boards=boards, bye_points=before.get(rnd.bye, 0) if rnd and rnd.bye else 0,
                           standings=standings, tiebreaks=state.rules.tiebreaks, tiebreak_names=tiebreak_names,
                           tiebreak_short=tiebreak_short,
                           game_name=_game_names().get(state.game, state.game), page="leagues", start="printPage")


def _rating_graph(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A rating history as an SVG line the page draws without a script: the rating after each rated period,
    with the band of its deviation; the axis from the lowest to the highest value shown."""
    if not history:
        return None
    width, height, pad = 600, 200, 34
    highs = [p["rating"] + p["deviation"] for p in history]
    lows = [p["rating"] - p["deviation"] for p in history]
    top, bottom = max(highs), min(lows)
    span = (top - bottom) or 1.0
    step = (width - 2 * pad) / max(1, len(history) - 1)

    def x(i: int) -> float:
        return round(pad + i * step, 1)

    def y(v: float) -> float:
        return round(pad / 2 + (top - v) / span * (height - pad), 1)

    line = " ".join(f"{x(i)},{y(p['rating'])}" for i, p in enumerate(history))
    band = " ".join([f"{x(i)},{y(h)}" for i, h in enumerate(highs)] +
                    [f"{x(i)},{y(lo)}" for i, lo in reversed(list(enumerate(lows)))])
    return {"width": width, "height": height, "line": line, "band": band,
            "dots": [{"x": x(i), "y": y(p["rating"]), "rating": round(p["rating"]), "round": p.get("round")}
                     for i, p in enumerate(history)],
            "top": round(top), "bottom": round(bottom), "y_top": y(top), "y_bottom": y(bottom)}


@web.get("/leagues/<league_id>/players/<path:name>")
def league_player(league_id: str, name: str):
    """One player of a league: their rounds, their score against each opponent, their rating's history."""
    from service.errors import NotFound
    from service.exports import player_record
    from service.ratings_api import service as ratings

    service = current_app.extensions["kroniek.leagues"]
    try:
        record = player_record(service, league_id, name)
    except (NotFound, KroniekError):
        abort(404)
    try:
        rating = ratings().player(record["game"], name)
    except KroniekError:
        rating = None
    outcome_words = {"win": _("won"), "loss": _("lost"), "draw": _("draw"), "forfeit won": _("won by forfeit"),
                     "forfeit lost": _("lost by forfeit"), "bye": _("bye")}
    return render_template("league_player.html", record=record, rating=rating, outcome_words=outcome_words,
                           graph=_rating_graph(rating["history"]) if rating else None, league_id=league_id,
                           game_name=_game_names().get(record["game"], record["game"]), page="leagues",
                           start="printPage")


@web.get("/leagues/<league_id>/live")
def multiboard(league_id: str):
    """Every board of a league round on one screen (a TV at the club, a phone), live."""
    return render_template("multiboard.html", start="multiboardPage", league_id=league_id, page="leagues")


@web.get("/me")
def me():
    """Who is signed in on this device, their signed-in devices (each can be ended) and a sign-in link for
    another device."""
    return render_template("me.html", start="mePage", page="me")


@web.get("/signin")
def signin_fragment_page():
    """A sign-in link opened (``/signin#<secret>``): the page reads the secret from the fragment, which no log
    records, and asks whom it signs in (``POST /signin/peek``); its button posts it (``POST /signin``)."""
    return _no_store(Response(render_template("signin.html", fragment=True, page="signin", start="signinPage")))


@web.post("/signin/peek")
def signin_peek():
    """Whom a link's secret signs in, without spending it: ``{"user"}``, or ``{"why"}`` (used, revoked,
    expired: an answer, not an error, which the page words); the secret comes in the body, never in a URL."""
    from flask import jsonify

    from service.access import same_site
    from service.accounts import LinkSpent

    same_site(request)
    body = request.get_json(silent=True)
    secret = body.get("secret") if isinstance(body, dict) else None
    if not isinstance(secret, str) or not 0 < len(secret) <= 100:
        return _no_store(jsonify({"why": "expired"}))
    try:
        link = _accounts().peek_link(secret)
    except LinkSpent as exc:
        return _no_store(jsonify({"why": exc.details["why"]}))
    return _no_store(jsonify({"user": link["user"]}))


@web.post("/signin")
def signin_by_form():
    """The tap on a ``/signin#<secret>`` page: the secret posted in the form body."""
    secret = request.form.get("secret", "")
    if not 0 < len(secret) <= 100:
        return _no_store(Response(render_template("signin.html", spent="expired", page="signin"), 410))
    return signin(secret)


@web.get("/signin/<secret>")
def signin_page(secret: str):
    """A sign-in link opened: whom it signs in, and a button that does it. Opening it spends nothing (a chat
    app's preview fetches it too); the tap does."""
    from service.accounts import LinkSpent

    try:
        link = _accounts().peek_link(secret)
    except LinkSpent as exc:
        # a page for a person, who reads why (a 410 would be a console error in their browser)
        return _no_store(Response(render_template("signin.html", spent=exc.details["why"], page="signin")))
    return _no_store(Response(render_template("signin.html", name=link["user"], secret=secret, page="signin")))


@web.post("/signin/<secret>")
def signin(secret: str):
    """The tap: the link is spent, this device gets a session cookie, and the page the link was made for opens."""
    from replays.hashing import utc_now
    from service.access import SESSION_COOKIE, same_site
    from service.accounts import SESSION_SECONDS, LinkSpent
    from service.signin import base_url

    same_site(request)  # another site's page must not sign this browser in to an account of its choosing
    accounts = _accounts()
    try:
        # spent and signed in in one step: a tap that fails leaves the link as it was and no session behind
        link, cookie = accounts.sign_in(secret, utc_now(), request.user_agent.string)
    except LinkSpent as exc:
        return _no_store(Response(render_template("signin.html", spent=exc.details["why"], page="signin"), 410))
    before = getattr(request._get_current_object(), "kroniek_session", None)
    if before is not None:  # this browser was signed in (as someone): that session ends, it is not left behind
        accounts.end_session(before.user.name, before.id)
    # a link stored with a next that is not a path of this app (made before the rule) opens home
    response = redirect(next_path.or_home(link.get("next", "/")), code=303)
    response.set_cookie(SESSION_COOKIE, cookie, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="Lax",
                        secure=base_url(request).startswith("https:"))
    return _no_store(response)


@web.post("/signout")
def signout():
    """Sign this device out: its session ends and its cookie goes."""
    from service.access import SESSION_COOKIE

    session = getattr(request._get_current_object(), "kroniek_session", None)
    if session is not None:
        _accounts().end_session(session.user.name, session.id)
    response = redirect("/", code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="Lax")
    return _no_store(response)


def _accounts():
    return current_app.extensions["kroniek.access"].accounts


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


@web.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico on pages that name no icon (a JSON document opened in a tab)."""
    return send_from_directory(HERE / "static", "favicon.svg", mimetype="image/svg+xml", max_age=86400)


def _assets_version() -> str:
    """A digest of every file the pages load (the scripts, styles, templates and messages): the service
    worker names its copies by it, so a device keeps nothing from an older version of the pages."""
    digest = hashlib.sha256()
    for folder in ("static", "templates", "translations"):
        for path in sorted((HERE / folder).rglob("*")):
            if path.is_file() and path.suffix != ".mo":
                digest.update(path.relative_to(HERE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


#: static/sw.js as served, with the pages' version in it (made once, at the first ask)
_WORKER: dict[str, bytes] = {}


@web.get("/sw.js")
def service_worker():
    """The service worker (static/sw.js) from the root, so that its scope is every page. Its text holds the
    pages' version: a new version of the pages is a new worker, which the browser installs at the next visit
    (it asks for this file again every time: no-cache)."""
    if "body" not in _WORKER:
        text = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
        assets = [f"/assets/{path.name}" for path in sorted((HERE / "static").iterdir())
                  if path.suffix in (".js", ".css", ".svg") and path.name not in ("sw.js", "engine-worker.js")]
        assets += [f"/assets/messages.{lang}.js" for lang in i18n.LANGS]
        urls = engine_urls()
        engine = ["/engine/worker.js", urls["engine"], *urls["files"]] if urls else []
        text = (text.replace("__VERSION__", _assets_version() + (urls["engine"][-20:-4] if urls else ""))
                .replace('"__ASSETS__"', json.dumps(assets)).replace('"__ENGINE__"', json.dumps(engine)))
        _WORKER["body"] = text.encode()
    response = Response(_WORKER["body"], mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@web.get("/assets/<path:name>")
def static(name: str):
    return send_from_directory(HERE / "static", name, max_age=300)


# -- the engine in the page (docs/ui.md, "The engine in the page") ---------------------------------------

#: Pyodide as `make install` put it (npm ci, pinned by static/../pyodide/package-lock.json)
PYODIDE = HERE / "pyodide" / "node_modules" / "pyodide"
#: the files of Pyodide a page loads, and nothing else of its package
PYODIDE_FILES = {"pyodide.js": "text/javascript", "pyodide.asm.js": "text/javascript",
                 "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip",
                 "pyodide-lock.json": "application/json"}
#: a versioned file never changes: a phone keeps it a year
IMMUTABLE = "public, max-age=31536000, immutable"
#: the worker compiles WebAssembly (Pyodide): its own policy allows that, and only that, beyond the pages'
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")


def pyodide_version() -> str | None:
    """The installed Pyodide's version, None where it is not installed (no npm on this machine)."""
    try:
        return json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        return None


def engine_urls() -> dict[str, Any] | None:
    """Where a page's worker loads Pyodide and the engine from, None without Pyodide."""
    version = pyodide_version()
    if version is None or not all((PYODIDE / name).is_file() for name in PYODIDE_FILES):
        return None
    from .engine_zip import engine_zip

    return {"pyodide": f"/engine/pyodide-{version}/", "engine": f"/engine/kroniek-{engine_zip().digest}.zip",
            "files": [f"/engine/pyodide-{version}/{name}" for name in PYODIDE_FILES]}


@web.get("/engine/worker.js")
def engine_worker():
    """The page's engine (static/engine-worker.js) with the addresses of this version's Pyodide and engine in
    it; 404 where Pyodide is not installed (the page then says so, and works online as before)."""
    urls = engine_urls()
    if urls is None:
        return _engine_missing()
    text = (HERE / "static" / "engine-worker.js").read_text(encoding="utf-8")
    text = text.replace("__PYODIDE__", urls["pyodide"]).replace("__ENGINE__", urls["engine"])
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = WORKER_CSP
    return response


def _engine_missing() -> Response:
    response = Response(json.dumps({"error": {"code": "no_page_engine", "message": "Pyodide is not installed on "
                                              "this server (make install, with npm): the pages work online only"}}),
                        status=404, mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    return response


@web.get("/engine/pyodide-<version>/<name>")
def pyodide_file(version: str, name: str):
    """One of Pyodide's files, gzipped where the browser takes it (make install writes a .gz beside each)."""
    if version != pyodide_version() or name not in PYODIDE_FILES:
        abort(404)
    packed = PYODIDE / f"{name}.gz"
    gzip_ok = "gzip" in request.headers.get("Accept-Encoding", "")
    path = packed if gzip_ok and packed.is_file() else PYODIDE / name
    response = Response(path.read_bytes(), mimetype=PYODIDE_FILES[name])
    if path is packed:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = IMMUTABLE
    return response


@web.get("/engine/kroniek-<digest>.zip")
def engine_package(digest: str):
    """The project's own engine/ package (and fastjsonschema, which it imports), as the page's Python imports
    it: the same files the server runs, zipped once per process."""
    from .engine_zip import engine_zip

    packed = engine_zip()
    if digest != packed.digest:
        abort(404)
    response = Response(packed.data, mimetype="application/zip")
    response.headers["Cache-Control"] = IMMUTABLE
    return response
