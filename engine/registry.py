"""The one registry of games. The service looks games up here by id and knows
nothing else about them.

A game registers itself when its package is imported. The project's own
games are imported when first asked for (``get``, ``all_games``), not when
``engine`` is: the page's engine (Pyodide, on a phone) starts with the one
game its match plays, not all eight.
"""

from __future__ import annotations

import importlib

from .core import Game, UnknownGame

_GAMES: dict[str, Game] = {}

#: the project's own games: id -> the package that registers it
BUILT_IN = {
    "braverats": "engine.braverats",
    "catan": "engine.catan",
    "catan-troje": "engine.troje",
    "ridder_toernooi": "engine.ridder_toernooi",
    "sir_tommy": "engine.sir_tommy",
    "stapelen": "engine.stapelen",
    "troubadour": "engine.troubadour",
    "twaalven": "engine.twaalven",
}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id!r} is registered twice")
    _GAMES[game.id] = game
    return game


def get(game_id: str) -> Game:
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        pass
    if isinstance(game_id, str) and game_id in BUILT_IN:
        importlib.import_module(BUILT_IN[game_id])
        return _GAMES[game_id]
    known = ", ".join(sorted(set(_GAMES) | set(BUILT_IN)))
    raise UnknownGame(f"no game {game_id!r}; known games: {known}", game=game_id) from None


def all_games() -> list[Game]:
    for package in BUILT_IN.values():
        importlib.import_module(package)
    return [_GAMES[k] for k in sorted(_GAMES)]
