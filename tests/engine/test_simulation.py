"""The shared simulation loop (``engine.simulation``) against a reference
replay: every logged event replays through ``engine.match.replay_steps``, each
seat move is the one the seat's bot chooses in the replayed state with the
same seeded RNG, the record's own fields are the game's, read from the
replayed final state, and ``simulate`` is its games played one by one.
A game whose seats hold secrets outside the log (Troje's decision cards with
allegiances at_reveal) gives each bot its own, and the table's moves (the
reveal) are the game's declared ``table_move``."""

import random
import statistics

import pytest

from engine import all_games, registry
from engine import match as M
from engine.core import CHANCE, InvalidOptions
from engine.jogledor.simulate import Recorder, play_random
from engine.catan import simulate as catan
from engine.ridder_toernooi import simulate as ridder
from engine.simulation import Table, check_players
from engine.troje import simulate as troje
from engine.troubadour import simulate as troubadour

SIMULATORS = {"troubadour": troubadour.SIMULATOR, "ridder_toernooi": ridder.SIMULATOR, "catan": catan.SIMULATOR,
              "catan-troje": troje.SIMULATOR}
CASES = [
    ("troubadour", 2, ["greedy", "greedy"], 3, 20_000),
    ("troubadour", 3, ["random", "greedy", "random"], 8, 400),
    ("troubadour", 4, ["greedy"] * 4, 5, 20_000),
    ("ridder_toernooi", 2, ["greedy", "random"], 1, 20_000),
    ("ridder_toernooi", 5, ["random"] * 5, 12, 20_000),
    ("ridder_toernooi", 10, ["greedy", "random"] * 5, 4, 60),
    ("catan", 4, ["greedy", "random"] * 2, 3, 20_000),
    ("catan", 6, ["random"] * 6, 5, 300),
    ("catan-troje", 4, ["greedy", "random"] * 2, 2, 20_000),
    ("catan-troje", 6, ["greedy"] * 6, 1, 20_000),
    ("catan-troje", 6, ["random"] * 6, 4, 200),
]
#: options per case (by game and seed): Troje with the decision cards left to the reveal
OPTIONS = {("catan-troje", 1): {"allegiances": "at_reveal"}, ("catan-troje", 2): {"allegiances": "at_reveal"}}


def reference_replay(sim, record):
    """Replay the log step by step and ask the bots again: the seat moves of
    the log must be theirs, in order, from the same RNG (each given its own
    secret when the game has them), and the table's moves the game's."""
    rng = random.Random(f"{record['seed']}:bots")
    bots = [sim.bots[name] for name in record["strategies"]]
    head = record["log"][0]["data"]
    game = registry.get(head["game"])
    secrets = (sim.secrets(game, game.setup(tuple(head["players"]), head["options"]),
                           random.Random(f"{record['seed']}:secrets")) if sim.secrets else None)
    after = None
    moves = 0
    for event, before, after in M.replay_steps(record["log"]):
        if before is None or before.game.event_types[event["type"]].actor == CHANCE:
            continue
        actors = before.game.actors(before.state)
        if event["seat"] is None:
            assert actors == ("table",)
            move = sim.table_move(before.game, before.state, secrets)
            assert (event["type"], event["data"]) == (move.type, M.normalize_event(before, move.type, None, move.data))
            continue
        seat = next(a for a in actors if a != CHANCE and a != "table")
        extra = {} if secrets is None else {"secret": secrets[seat]}
        move = bots[seat](before.game, before.state, seat, rng, **extra)
        assert (event["type"], event["seat"]) == (move.type, seat)
        assert event["data"] == M.normalize_event(before, move.type, seat, move.data)
        moves += 1
    return after, moves


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("game_id,players,strategies,seed,max_events", CASES)
def test_a_simulated_game_is_its_bots_moves_replayed(game_id, players, strategies, seed, max_events, validate):
    sim = SIMULATORS[game_id]
    options = OPTIONS.get((game_id, seed))
    record = sim.play_game(players, strategies, seed, options, max_events=max_events, keep_log=True, validate=validate)
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
    bare = sim.play_game(players, strategies, seed, options, max_events=max_events, validate=validate)
    assert bare == {k: v for k, v in record.items() if k != "log"}
    # and on the game's own loop: the same log
    assert sim.play_game(players, strategies, seed, options, max_events=max_events, keep_log=True,
                         engine_only=True)["log"] == record["log"]


@pytest.mark.parametrize("game_id", sorted(SIMULATORS))
def test_simulate_is_its_games_with_rotating_seats_summarised(game_id):
    sim = SIMULATORS[game_id]
    players = max(3, registry.get(game_id).min_players)
    most = 2_000 if game_id == "catan-troje" else 150  # some Troje games finish (the summary's statistics)
    strategies = ["random", "greedy", "greedy"]  # three names: a rotation the wrong way round differs
    seen = []
    summary = sim.simulate(4, players, strategies, seed=7, max_events=most, progress=seen.append)
    games = [sim.play_game(players, [strategies[(s + g) % 3] for s in range(players)], 7 * 1_000_003 + g,
                           max_events=most, validate=False) for g in range(4)]
    assert seen == games and summary["games_list"] == games
    finished = [g for g in games if g["finished"]]
    assert summary["finished"] == len(finished) and summary["unfinished"] == 4 - len(finished)
    assert summary["wins_by_seat"] == [sum(1 for g in finished if g["winner"] == s) for s in range(players)]
    assert summary["wins_by_strategy"] == {
        name: sum(1 for g in finished if g["strategies"][g["winner"]] == name) for name in strategies
    }
    assert summary["seats_by_strategy"] == {name: sum(g["strategies"].count(name) for g in games) for name in strategies}
    for key in sim.stats:
        values = [g[key] for g in finished]
        expected = {"mean": round(statistics.fmean(values), 1), "median": statistics.median(values),
                    "min": min(values), "max": max(values)} if values else None
        assert summary[key] == expected
    for key in sim.counts:
        values = [str(g[key]) for g in finished if g[key] is not None]
        assert summary[key] == {v: values.count(v) for v in sorted(set(values), key=lambda v: (-values.count(v), v))}
        assert list(summary[key].values()) == sorted(summary[key].values(), reverse=True)
    # no strategy named: the game's default for every seat
    fewest = max(2, registry.get(game_id).min_players)
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
    fewest = max(2, registry.get(game_id).min_players)
    with pytest.raises(ValueError, match="unknown strategy 'clever'"):
        sim.simulate(1, fewest, ["clever"])
    with pytest.raises(ValueError, match="is played by"):
        sim.simulate(1, len(sim.names) + 1)


def test_a_count_between_the_bounds_that_the_game_refuses_is_refused_by_name():
    """Troje is played by 4 or 6 (its bounds say 4–6): 5 is refused with its own words."""
    with pytest.raises(ValueError, match=r"Troje \(Troy\) is played by 4 or 6 players, not 5"):
        check_players("catan-troje", 5)
    assert check_players("catan-troje", 6).id == "catan-troje"


def test_a_recorder_is_a_table_whose_log_replays():
    rec = play_random("sir_tommy", 3, undo_rate=0.05)
    assert isinstance(rec, Recorder) and isinstance(rec, Table)
    again = rec.replayed()
    assert (again.seq, again.state) == (rec.ms.seq, rec.state)
    bare = Table(rec.setup, keep_log=False)
    assert bare.log == [] and bare.ms.seq == len(Recorder("sir_tommy", mode="simulated", seed=3).log)
