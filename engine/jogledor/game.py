"""What the three cooperative Jogledor patiences share as games: two players
who win or lose together, nothing hidden, option and event schemas of the
same shape, a result from ``state.over``, players named in the texts, and
the solver hooks (analysis of a log, hints).

A game's package hands the game its solver module
(``registry.register(Twaalven(solver))``): the solver needs the game's
state and rules, so the game never imports it."""

from __future__ import annotations

from typing import Any, Callable

from ..core import Game, Result
from . import analysis, player_name
from .cards import aliases as card_aliases


def who(state: Any, seat: int | None, start: bool = False) -> str:
    """The player at ``seat`` of a state that keeps the players' ``names``."""
    return player_name(state.names, seat, start)


def options(**properties: dict[str, Any]) -> dict[str, Any]:
    """A game's options schema: these properties, nothing else."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


def seat_option(description: str, default: int | None = 0) -> dict[str, Any]:
    """An option naming one of the two seats; ``default=None`` lets the table
    choose later (the option may then be null)."""
    if default is None:
        return {"type": ["integer", "null"], "enum": [0, 1, None], "default": None, "description": description}
    return {"type": "integer", "enum": [0, 1], "default": default, "description": description}


def data_schema(properties: dict[str, Any] | None = None, required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """An event's data schema: an object of these properties, nothing else."""
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = list(required)
    return {**schema, **extra, "additionalProperties": False}


def note(kind: str, text: str, **fields: Any) -> dict[str, Any]:
    """One of a move's automatic annotations."""
    return {"kind": kind, **fields, "text": text}


class JogledorGame(Game):
    version = "1"
    min_players = 2
    max_players = 2
    #: the seats play together against the deal (ratings treat them as one side)
    cooperative = True
    #: the game's own terms (Dutch names); the card names are added to them
    terms: dict[str, str] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.aliases = {**cls.terms, **card_aliases()}

    def __init__(self, solver: Any = None) -> None:
        #: the solver module (``solve``, ``hint``; Sir Tommy also ``solve_known``, ``estimate``)
        self.solver = solver

    def scores(self, state: Any) -> tuple[int, int]:
        """The cards each seat collected."""
        raise NotImplementedError

    def result(self, state: Any) -> Result | None:
        if state.over is None:
            return None
        return Result(state.over[0], (0, 1) if state.over[0] == "win" else (), self.scores(state), self.over_said(state))

    def over_said(self, state: Any) -> Any:
        """How the game ended, as the result says it: the reason the state keeps (in English), or a message
        (engine/text.py) where the game says it so."""
        return state.over[1]

    def analyse_log(self, events: list[dict[str, Any]], budget: int, *,
                    progress: Callable[[int, int], None] | None = None, max_nodes: int | None = None,
                    deadline: float | None = None) -> dict[int, list[dict[str, Any]]]:
        return analysis.analyse_log(events, budget, progress=progress, max_nodes=max_nodes, deadline=deadline)

    def evaluate_log(self, events: list[dict[str, Any]], *, tables=None, deadline=None, notes=None,
                     playouts=None) -> dict[str, Any]:
        """Exact (winnable or lost), from the solver's notes; Sir Tommy's hidden cards: sampled."""
        if notes is None:
            notes = self.analyse_log(events, analysis.DEFAULT_BUDGET, deadline=deadline)
        return analysis.evaluation(events, notes)

    def hint(self, state: Any, seat: int | None, budget: int) -> dict[str, Any]:
        """The moves of ``seat`` that keep the game winnable (the solver's
        ``hint``): only what ``seat`` can see is used. Twaalven and Stapelen
        are fully open; Sir Tommy's state holds only drawn cards."""
        return self.solver.hint(state, seat, budget)
