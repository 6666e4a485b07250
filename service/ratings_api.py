"""HTTP endpoints of ratings: read what the worker last computed."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields

from replays.rating_tables import RatingsStore

from .api import _doc_errors
from .gate import Blueprint
from .ratings import RatingsService

ratings = Blueprint(
    "ratings", __name__, url_prefix="/api/ratings",
    description="Ratings per game from every league result: Glicko-2 for two-player games, "
    "openskill (Plackett-Luce) for multi-player and cooperative games; recomputed by the worker",
)


def service() -> RatingsService:
    svc = current_app.extensions.get("kroniek.ratings")
    if svc is None:
        store = current_app.extensions["kroniek"].store
        svc = current_app.extensions["kroniek.ratings"] = RatingsService(RatingsStore(store.r, store.prefix))
    return svc


class RatingOut(Schema):
    player = fields.String()
    rating = fields.Float(metadata={"description": "Glicko rating, or openskill's mu"})
    deviation = fields.Float(metadata={"description": "Glicko RD, or openskill's sigma"})
    volatility = fields.Float(allow_none=True, metadata={"description": "Glicko-2's sigma; null for openskill"})
    games = fields.Integer(metadata={"description": "rated games played"})
    conservative = fields.Float(metadata={"description": "rating - 2 RD (Glicko-2) or mu - 3 sigma (openskill)"})


class RatingTableOut(Schema):
    game = fields.String()
    system = fields.String(metadata={"description": "glicko2 or openskill-pl"})
    results = fields.Integer(metadata={"description": "how many league results were rated"})
    computed_at = fields.String(allow_none=True, metadata={"description": "null: nothing rated yet"})
    ratings = fields.List(fields.Nested(RatingOut), metadata={"description": "by conservative rating, best first"})


class RatingPointOut(Schema):
    league = fields.String()
    round = fields.Integer()
    match = fields.String(allow_none=True, metadata={"description": "openskill: the match; Glicko-2: null (a round)"})
    rating = fields.Float()
    deviation = fields.Float()
    volatility = fields.Float(allow_none=True)
    games = fields.Integer(metadata={"description": "games in that round (Glicko-2) or 1 (openskill)"})
    conservative = fields.Float()


class PlayerRatingOut(Schema):
    game = fields.String()
    system = fields.String()
    player = fields.String()
    computed_at = fields.String(allow_none=True)
    current = fields.Nested(RatingOut, allow_none=True)
    history = fields.List(fields.Nested(RatingPointOut), metadata={"description": "one point per rated period"})


@ratings.route("/<game>")
class GameRatings(MethodView):
    @ratings.response(200, RatingTableOut)
    @_doc_errors(ratings, 404)
    def get(self, game):
        """A game's ratings table, best first (empty until the worker has rated a result)"""
        return service().table(game)


@ratings.route("/<game>/players/<path:player>")
class PlayerRating(MethodView):
    @ratings.response(200, PlayerRatingOut)
    @_doc_errors(ratings, 404)
    def get(self, game, player):
        """A player's rating and its history: one point per league round (Glicko-2) or match (openskill)"""
        return service().player(game, player)
