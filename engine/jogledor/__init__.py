"""Shared code of the three cooperative Jogledor patiences (Twaalven en
veertienen, Stapelen, Sir Tommy voor twee): cards, the open 13×4 tableau, the
solver plumbing (a compiled core with a pure-Python twin) and the log
analysis the worker runs."""


class Solvable:
    """The solver hooks of the three cooperative games (see engine.core.Game)."""

    def analyse_log(self, events, budget, *, progress=None, max_nodes=None, deadline=None):
        from .analysis import analyse_log

        return analyse_log(events, budget, progress=progress, max_nodes=max_nodes, deadline=deadline)

    def hint(self, state, seat, budget):
        from .analysis import hint

        return hint(self.id, state, seat, budget)
