"""Leagues: pairings (round robin, Swiss, multi-player tables), standings with
tiebreaks, and ratings, all as pure functions of the league's results."""

from . import pairing, ratings, standings
from .pairing import Pairings, PairingImpossible, berger_round_robin, swiss_pairings, table_groups, table_sizes
from .ratings import Glicko2, RatingPoint, RatingTable, glicko2_ratings, glicko2_update, openskill_ratings, rate
from .standings import LeagueResult, Rules, Standing, apply_result
from .standings import standings as standings_table

__all__ = [
    "pairing", "ratings", "standings",
    "Pairings", "PairingImpossible", "berger_round_robin", "swiss_pairings", "table_groups", "table_sizes",
    "Glicko2", "RatingPoint", "RatingTable", "glicko2_ratings", "glicko2_update", "openskill_ratings", "rate",
    "LeagueResult", "Rules", "Standing", "apply_result", "standings_table",
]
