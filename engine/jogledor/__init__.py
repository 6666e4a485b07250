"""Shared code of the three cooperative Jogledor patiences (Twaalven en
veertienen, Stapelen, Sir Tommy voor twee): cards, the open 13×4 tableau, the
games' common base (``game.JogledorGame``), the solver plumbing (a compiled
core with a pure-Python twin) and the log analysis the worker runs.

The layers inside, lowest first: this package's ``player_name``, ``cards``,
``solving`` and ``tableau``; ``analysis`` (solver annotations of a log, by
the solver its game carries); ``game`` (the base class). The games build on
them; ``batch`` and ``simulate`` (tools over the registered games) sit above
the games."""


def player_name(names: tuple[str, ...], seat: int | None, start: bool = False):
    """The player at ``seat`` by name, as reviews and results call them
    ("seat 1", or "Seat 1" at the ``start`` of a sentence, for a state
    without names, e.g. a solver's own: a message, engine/text.py)."""
    from ..text import say

    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return say("Seat {seat}", seat=str(seat)) if start else say("seat {seat}", seat=str(seat))
