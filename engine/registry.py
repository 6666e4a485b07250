"""The one registry of games. The service looks games up here by id and knows
nothing else about them."""

from __future__ import annotations

from .core import Game, UnknownGame

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id!r} is registered twice")
    _GAMES[game.id] = game
    return game


def get(game_id: str) -> Game:
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game {game_id!r}; known games: {known}", game=game_id) from None


def all_games() -> list[Game]:
    return [_GAMES[k] for k in sorted(_GAMES)]
