"""The shared simulation loop (``engine.simulation``) against a reference
replay: every logged event replays through ``engine.match.replay_steps``, each
seat move is the one the seat's bot chooses in the replayed state with the
same seeded RNG, the record's own fields are the game's, read from the
replayed final state, and ``simulate`` is its games played one by one."""

import random
import statistics

import pytest

from engine import all_games
from engine import match as M
from engine.core import CHANCE, InvalidOptions
from engine.jogledor.simulate import Recorder, play_random
from engine.catan import simulate as catan
from engine.ridder_toernooi import simulate as ridder
from engine.simulation import Table, check_players
from engine.troubadour import simulate as troubadour

SIMULATORS = {"troubadour": troubadour.SIMULATOR, "ridder_toernooi": ridder.SIMULATOR, "catan": catan.SIMULATOR}
CASES = [
    ("troubadour", 2, ["greedy", "greedy"], 3, 20_000),
    ("troubadour", 3, ["random", "greedy", "random"], 8, 400),
    ("troubadour", 4, ["greedy"] * 4, 5, 20_000),
    ("ridder_toernooi", 2, ["greedy", "random"], 1, 20_000),
    ("ridder_toernooi", 5, ["random"] * 5, 12, 20_000),
    ("ridder_toernooi", 10, ["greedy", "random"] * 5, 4, 60),
    ("catan", 4, ["greedy", "random"] * 2, 3, 20_000),
    ("catan", 6, ["random"] * 6, 5, 300),
]


def reference_replay(sim, record):
    """Replay the log step by step and ask the bots again: the seat moves of
    the log must be theirs, in order, from the same RNG."""
    rng = random.Random(f"{record['seed']}:bots")
    bots = [sim.bots[name] for name in record["strategies"]]
    after = None
    moves = 0
    for event, before, after in M.replay_steps(record["log"]):
        if before is None or before.game.event_types[event["type"]].actor == CHANCE:
            continue
        actors = before.game.actors(before.state)
        seat = next(a for a in actors if a != CHANCE and a != "table")
        move = bots[seat](before.game, before.state, seat, rng)
        assert (event["type"], event["seat"]) == (move.type, seat)
        assert event["data"] == M.normalize_event(before, move.type, seat, move.data)
        moves += 1
    return after, moves


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("game_id,players,strategies,seed,max_events", CASES)
def test_a_simulated_game_is_its_bots_moves_replayed(game_id, players, strategies, seed, max_events, validate):
    sim = SIMULATORS[game_id]
    record = sim.play_game(players, strategies, seed, max_events=max_events, keep_log=True, validate=validate)
    final, moves = reference_replay(sim, record)
    assert moves > 0 and record["events"] == final.seq == len(record["log"])
    assert record["finished"] == (final.result is not None)
    if record["finished"]:
        assert record["winner"] == final.result.winners[0]
    else:
        assert record["winner"] is None and final.seq >= max_events
    assert {k: record[k] for k in sim.record(final.game, final.state)} == sim.record(final.game, final.state)
    assert record["log"][0]["data"]["players"] == list(sim.names[:players])
    # without the log: the same game
    bare = sim.play_game(players, strategies, seed, max_events=max_events, validate=validate)
    assert bare == {k: v for k, v in record.items() if k != "log"}


@pytest.mark.parametrize("game_id", sorted(SIMULATORS))
def test_simulate_is_its_games_with_rotating_seats_summarised(game_id):
    sim = SIMULATORS[game_id]
    strategies = ["random", "greedy", "greedy"]  # three names: a rotation the wrong way round differs
    seen = []
    summary = sim.simulate(4, 3, strategies, seed=7, max_events=150, progress=seen.append)
    games = [sim.play_game(3, [strategies[(s + g) % 3] for s in range(3)], 7 * 1_000_003 + g, max_events=150,
                           validate=False) for g in range(4)]
    assert seen == games and summary["games_list"] == games
    finished = [g for g in games if g["finished"]]
    assert summary["finished"] == len(finished) and summary["unfinished"] == 4 - len(finished)
    assert summary["wins_by_seat"] == [sum(1 for g in finished if g["winner"] == s) for s in range(3)]
    assert summary["wins_by_strategy"] == {
        name: sum(1 for g in finished if g["strategies"][g["winner"]] == name) for name in strategies
    }
    assert summary["seats_by_strategy"] == {name: sum(g["strategies"].count(name) for g in games) for name in strategies}
    for key in sim.stats:
        values = [g[key] for g in finished]
        expected = {"mean": round(statistics.fmean(values), 1), "median": statistics.median(values),
                    "min": min(values), "max": max(values)} if values else None
        assert summary[key] == expected
    # no strategy named: the game's default for every seat
    fewest = max(2, check_players(game_id, 3).min_players)
    assert sim.simulate(1, fewest, [], seed=7, max_events=20)["strategies"] == [sim.default_strategy]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_the_player_count_check_is_the_registered_games(game):
    assert check_players(game.id, game.min_players) is game
    assert check_players(game.id, game.max_players) is game
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(ValueError) as exc:
            check_players(game.id, players)
        assert str(exc.value).startswith(f"{game.name} is played by {game.min_players}")
        assert str(exc.value).endswith(f"players, not {players}")
        with pytest.raises(InvalidOptions):  # the same bounds as a recorded match's setup
            M.make_setup(game.id, [f"P{i}" for i in range(players)], mode="simulated", seed=1)


@pytest.mark.parametrize("game_id", sorted(SIMULATORS))
def test_unknown_strategies_and_player_counts_are_refused(game_id):
    sim = SIMULATORS[game_id]
    fewest = max(2, check_players(game_id, 3).min_players)
    with pytest.raises(ValueError, match="unknown strategy 'clever'"):
        sim.simulate(1, fewest, ["clever"])
    with pytest.raises(ValueError, match="is played by"):
        sim.simulate(1, len(sim.names) + 1)


def test_a_recorder_is_a_table_whose_log_replays():
    rec = play_random("sir_tommy", 3, undo_rate=0.05)
    assert isinstance(rec, Recorder) and isinstance(rec, Table)
    again = rec.replayed()
    assert (again.seq, again.state) == (rec.ms.seq, rec.state)
    bare = Table(rec.setup, keep_log=False)
    assert bare.log == [] and bare.ms.seq == len(Recorder("sir_tommy", mode="simulated", seed=3).log)
