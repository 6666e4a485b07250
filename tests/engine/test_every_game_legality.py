"""Every registered game accepts exactly what is legal and keeps its
invariants (``legality_support`` says what is checked, and how).

The suite's profile is small (a few seconds for all games together); the
deep profile (``make test-deep``, which sets KRONIEK_LEGALITY_PROFILE=deep)
plays many more and longer matches. A hole injected on purpose (a game made
to accept a forbidden event, or to lose a card) is caught: the last tests.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import CHANCE, Game

from .legality_support import OPTIONS, explore, player_counts

settings.register_profile("legality", max_examples=6, deadline=None, derandomize=True,
                          suppress_health_check=list(HealthCheck))
settings.register_profile("legality-deep", max_examples=60, deadline=None,
                          suppress_health_check=list(HealthCheck))
DEEP = os.environ.get("KRONIEK_LEGALITY_PROFILE") == "deep"
PROFILE = settings.get_profile("legality-deep" if DEEP else "legality")
#: events per match, positions checked per match, mutated events per position
MAX_EVENTS, POSITIONS, BUDGET = (3000, 25, 120) if DEEP else (500, 8, 50)
#: Catan's reducer is the slowest per event: fewer of its positions in the suit's profile
SCALE = {"catan": 0.6, "catan-troje": 0.6}

#: the project's games (a test process may also hold the tests' toy games, registered by a module collected first)
GAMES = [g.id for g in registry.all_games() if type(g).__module__.startswith("engine.")]


def test_every_registered_game_is_checked_and_states_its_invariants():
    assert set(GAMES) == {"braverats", "catan", "catan-troje", "ridder_toernooi", "sir_tommy", "stapelen",
                          "troubadour", "twaalven"}
    for game_id in GAMES:
        game = registry.get(game_id)
        assert type(game).invariants is not Game.invariants, f"{game_id} states no invariants"
        assert game.invariant_rules, game_id
        assert game.complete_moves <= set(game.event_types), game_id
        assert all(game.event_types[t].actor != CHANCE for t in game.complete_moves), game_id


@pytest.mark.parametrize("game_id", GAMES)
@PROFILE
@given(data=st.data())
def test_legal_moves_are_accepted_forbidden_ones_refused_and_invariants_hold(game_id, data):
    players = data.draw(st.sampled_from(player_counts(game_id)), label="players")
    options = data.draw(st.sampled_from(OPTIONS.get(game_id, [{}])), label="options")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    bots = data.draw(st.booleans(), label="bots")
    # random play only: a physical match whose recorder misses that share of the drawn cards
    hide = 0.0 if bots else data.draw(st.sampled_from([0.0, 0.5]), label="hide")
    scale = 1 if DEEP else SCALE.get(game_id, 1)
    problems = explore(game_id, players, options, seed, bots=bots, hide=hide, max_events=int(MAX_EVENTS * scale),
                       positions=max(2, int(POSITIONS * scale)), budget=BUDGET)
    assert not problems, "\n".join(problems)


# -- holes injected on purpose are caught -------------------------------------------------------------

def _catan_position(phase: int, seed: int = 5):
    """A position of a random 4-player Catan match in ``phase``, and the data played before it."""
    from .legality_support import random_positions, setup_for

    setup = setup_for("catan", 4, {}, seed)
    pool: dict = {}
    for event, ms in random_positions(setup, seed, 2000):
        if event is not None:
            pool.setdefault(event["type"], []).append(event["data"])
        if ms.state.phase == phase and ms.seq > 40:
            pool["steal"] = [{"card": "lumber"}, {"card": None}]
            return ms, pool
    raise AssertionError("no such position")  # pragma: no cover


def test_an_injected_hole_accepting_a_chance_outcome_not_due_is_caught(monkeypatch):
    """The reducer made to take a stolen card while the dice are due (the
    hole rule catan.chance_due closed): the property names it."""
    import random

    from engine.catan import game as catan_game
    from engine.catan.pieces import DICE, STEAL

    from .legality_support import check_position

    ms, pool = _catan_position(DICE)
    assert not check_position(ms, pool, random.Random(1), budget=400)
    steal = catan_game.Catan._a_steal
    monkeypatch.setitem(catan_game._APPLY, "steal",
                        lambda self, s, seat, data: steal(self, s._replace(phase=STEAL, victim=(s.turn + 1) % 4),
                                                          seat, data))
    problems = check_position(ms, pool, random.Random(1), budget=400)
    assert any("chance" in p and "'steal'" in p and "accepted where" in p for p in problems), problems


def test_an_injected_hole_accepting_a_move_legal_moves_does_not_list_is_caught(monkeypatch):
    """The reducer made to take a road on any free path (not connected): a
    type Catan enumerates completely, so accepted must equal listed."""
    import random

    from engine.catan import game as catan_game
    from engine.catan.pieces import MAIN

    from .catan_support import give
    from .legality_support import check_position

    ms, pool = _catan_position(MAIN)
    ms = type(ms)(ms.game, ms.setup, ms.seq, give(ms.state, ms.state.turn, {"lumber": 3, "brick": 3}))
    pool["build_road"] = [{"edge": e} for e in range(0, 72, 5)]
    assert not check_position(ms, pool, random.Random(2), budget=400)
    monkeypatch.setattr(catan_game.Catan, "_road_ok", lambda self, s, seat, e: s.roads[e] == -1)
    problems = check_position(ms, pool, random.Random(2), budget=400)
    assert any("build_road" in p and "accepted but not listed" in p for p in problems), problems


def test_an_injected_hole_breaking_conservation_is_caught(monkeypatch):
    """Stapelen made to lose the card a take moves (the foundation not built):
    the invariant stapelen.cards_conserved is broken after the first take."""
    from engine.stapelen import game as stapelen_game

    apply = stapelen_game.Stapelen.apply

    def lose_the_card(self, state, type, seat, data):
        after = apply(self, state, type, seat, data)
        return after if type != "take" else stapelen_game.replace(after, foundations=state.foundations)

    assert not explore("stapelen", 2, {}, 3, bots=False, max_events=60, positions=2)
    monkeypatch.setattr(stapelen_game.Stapelen, "apply", lose_the_card)
    problems = explore("stapelen", 2, {}, 3, bots=False, max_events=60, positions=2)
    assert any("invariant stapelen.cards_conserved" in p for p in problems), problems
