"""HTTP endpoints of game data (card sets, boards): any signed-in user may add
a document; anyone may list and read them. Generic: the game's data kinds
say what is valid."""

from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView
from werkzeug.routing import BaseConverter

from engine.core import KroniekError

from .api import _doc_errors, access
from .errors import BadRequest, error_body
from .game_data import GameDataStore
from .gate import Blueprint

game_data = Blueprint("game_data", __name__, url_prefix="/api/games",
                      description="Game data (card sets…), stored content-addressed by SHA-256")


def data_store() -> GameDataStore:
    store = current_app.extensions["kroniek"].store
    return GameDataStore(store.r, store.prefix)


@game_data.route("/<game_id>/<kind>")
class GameDataList(MethodView):
    @game_data.response(200)
    @_doc_errors(game_data, 404)
    def get(self, game_id, kind):
        """List a game's documents of one kind (shipped ones first, placeholders labelled)"""
        return {"game": game_id, "kind": kind, "items": data_store().list(game_id, kind)}

    @game_data.response(201)
    @_doc_errors(game_data, 400, 401, 404)
    def post(self, game_id, kind):
        """Add a document (any signed-in user); 201 when new, 200 with the same hash when already stored"""
        user = access().require_user()
        doc = request.get_json(silent=True)
        if doc is None:
            raise BadRequest("the body must be a JSON document", field="$", location="body")
        summary, created = data_store().put(game_id, kind, doc, user.name)
        return summary, 201 if created else 200


@game_data.route("/<game_id>/<kind>/check")
class GameDataCheck(MethodView):
    @game_data.response(200)
    @_doc_errors(game_data, 400, 401, 404)
    def post(self, game_id, kind):
        """Check a document without storing it (any signed-in user). The check answers 200 either way:
        ``{"valid": true}`` with the summary, hash and canonical form a save would give, or ``{"valid": false,
        "error": …}`` with the error a POST of it gets (what is wrong, and where: ``field``, and ``card`` for a
        card). A body that is not a JSON document is a 400. Nothing is written."""
        access().require_user()
        doc = request.get_json(silent=True)
        if doc is None:
            raise BadRequest("the body must be a JSON document", field="$", location="body")
        try:
            summary, canon = data_store().check(game_id, kind, doc)
        except KroniekError as exc:
            if exc.status != 400:
                raise  # an unknown game or kind: 404
            return {"valid": False, "error": error_body(exc)}
        return {"valid": True, **summary, "document": canon}


class Sha256Converter(BaseConverter):
    """A document's SHA-256 in a path: 64 lowercase hex digits. So ``…/<kind>/check``
    is the check and never a document, and the answer to OPTIONS names only
    the methods the path has."""

    regex = "[0-9a-f]{64}"


@game_data.route("/<game_id>/<kind>/<sha256:digest>")
class GameDataItem(MethodView):
    @game_data.response(200)
    @_doc_errors(game_data, 404)
    def get(self, game_id, kind, digest):
        """One document by its SHA-256, with its summary"""
        store = data_store()
        doc, meta = store.get(game_id, kind, digest)
        _, dk = store.kind(game_id, kind)
        return {**dk.summary(doc), "hash": digest, **meta, "document": doc}
