"""Shared code of the three cooperative Jogledor patiences (Twaalven en
veertienen, Stapelen, Sir Tommy voor twee): cards, the open 13×4 tableau, the
solver plumbing (a compiled core with a pure-Python twin) and the log
analysis the worker runs."""


def player_name(names: tuple[str, ...], seat: int | None, start: bool = False) -> str:
    """The player at ``seat`` by name, as reviews and results call them
    ("seat 1", or "Seat 1" at the ``start`` of a sentence, for a state
    without names, e.g. a solver's own)."""
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return f"{'Seat' if start else 'seat'} {seat}"


class Solvable:
    """The solver hooks of the three cooperative games (see engine.core.Game)."""

    def analyse_log(self, events, budget, *, progress=None, max_nodes=None, deadline=None):
        from .analysis import analyse_log

        return analyse_log(events, budget, progress=progress, max_nodes=max_nodes, deadline=deadline)

    def hint(self, state, seat, budget):
        from .analysis import hint

        return hint(self.id, state, seat, budget)
