"""The pages: server-rendered shells plus small hand-written scripts that talk
to the same REST API as every other client (docs/ui.md).

Nothing here knows a game: the record screen is built from the game's event
types (their JSON Schemas) and the legal moves the API lists; what a game
looks like on the table is ``static/boards.js``. A page never reads the store
on a user's behalf: what a viewer may see is what the API shows their token.
Public lists (games, recent matches, leagues) are rendered on the server so
the home page is useful at once, token or not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, render_template, send_from_directory

from engine import all_games
from engine.core import KroniekError, player_count_text

HERE = Path(__file__).resolve().parent
web = Blueprint("web", __name__, template_folder="templates", static_folder=None)

#: how many recent matches and leagues the home page lists
HOME_LIST = 20


@web.app_template_filter("tojson_attr")
def tojson_attr(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@web.app_template_filter("player_counts")
def player_counts(counts: list[int]) -> str:
    """A game's player counts as a sentence says them: "2–4", "4 or 6"."""
    return player_count_text(counts)


@web.app_template_filter("plural")
def plural(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun: "1 event", "2 events"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


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
    return render_template("home.html", games=[g.info() for g in all_games()], matches=matches,
                           leagues=_leagues(HOME_LIST), game_names=_game_names(), page="home")


@web.get("/record")
def new_match():
    return render_template("new_match.html", games=[g.info() for g in all_games()], page="record")


@web.get("/matches/<match_id>")
def match_page(match_id: str):
    """Watch live, and record when the token may."""
    return render_template("match.html", match_id=match_id, page="match")


@web.get("/matches/<match_id>/review")
def review_page(match_id: str):
    """The game's id comes with the page (from the match's head, which anyone may read), so
    the script asks for the game, the review and the state at once."""
    head = current_app.extensions["kroniek"].store.head(match_id) or {}
    return render_template("review.html", match_id=match_id, game=head.get("game", ""), page="review")


@web.get("/leagues")
def leagues_page():
    return render_template("leagues.html", leagues=_leagues(200), games=[g.info() for g in all_games()],
                           page="leagues")


@web.get("/leagues/<league_id>")
def league_page(league_id: str):
    return render_template("league.html", league_id=league_id, page="leagues")


@web.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico on pages that name no icon (a JSON document opened in a tab)."""
    return send_from_directory(HERE / "static", "favicon.svg", mimetype="image/svg+xml", max_age=86400)


@web.get("/assets/<path:name>")
def static(name: str):
    return send_from_directory(HERE / "static", name, max_age=300)
