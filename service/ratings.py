"""Ratings per game as the API serves them: the table the worker last stored
(``replays.rating_tables``), for a game the registry knows."""

from __future__ import annotations

from typing import Any

from leagues.ratings import rating_system
from replays.rating_tables import RatingsStore

from .errors import NotFound


class RatingsService:
    """What the API serves: the table as the worker last stored it."""

    def __init__(self, store: RatingsStore) -> None:
        self.store = store

    def table(self, game: str) -> dict[str, Any]:
        system, _ = rating_system(game)  # 404 for an unknown game
        stored = self.store.load(game)
        if stored is None:
            return {"game": game, "system": system, "results": 0, "computed_at": None, "ratings": []}
        return {k: stored[k] for k in ("game", "system", "results", "computed_at", "ratings")}

    def player(self, game: str, player: str) -> dict[str, Any]:
        rating_system(game)  # 404 for an unknown game
        stored = self.store.load(game, player)
        if stored is None or not stored["history"]:
            raise NotFound(f"{player!r} has no {game} rating")
        current = next((r for r in stored["ratings"] if r["player"] == player), None)
        return {"game": game, "system": stored["system"], "player": player, "computed_at": stored["computed_at"],
                "current": current, "history": stored["history"]}
