"""Troubadour: the simulation bots, ``simulate``'s summary, the descriptions and
the worker annotations."""

import random

import pytest

from engine import match as M
from engine.troubadour.bots import BOTS, greedy_bot, random_bot
from engine.troubadour.simulate import play_game, simulate

from .test_troubadour_support import GAME, position

KINDS = {"missed_build", "skipped_turn_over", "tempo", "attack_stopped", "cards_lost", "discrepancy"}


def test_simulate_summarises_length_and_winners_by_seat_and_strategy():
    seen = []
    summary = simulate(6, 2, ["greedy", "random"], seed=4, progress=seen.append)
    assert len(seen) == 6 and summary["games"] == 6 and summary["finished"] == 6
    assert sum(summary["wins_by_seat"]) == 6 and sum(summary["wins_by_strategy"].values()) == 6
    assert summary["wins_by_strategy"]["greedy"] >= 5  # the greedy player beats the random one
    assert summary["seats_by_strategy"] == {"greedy": 6, "random": 6}
    assert {g["strategies"][0] for g in summary["games_list"]} == {"greedy", "random"}  # seats rotate
    assert summary["rounds"]["min"] <= summary["rounds"]["median"] <= summary["rounds"]["max"]
    assert summary == simulate(6, 2, ["greedy", "random"], seed=4)  # pure: same seed, same games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_finish_for_every_player_count(players):
    summary = simulate(3, players, ["greedy"], seed=players)
    assert summary["finished"] == 3 and summary["unfinished"] == 0


def test_unfinished_games_are_counted_not_hidden():
    summary = simulate(2, 2, ["random"], seed=1, max_events=100)
    assert summary["unfinished"] == 2 and summary["rounds"] is None


def test_bot_moves_are_legal_moves():
    rng = random.Random(3)
    rec = play_game(3, ["greedy", "random", "greedy"], 21, keep_log=True, max_events=700)
    for event, before, after in list(M.replay_steps(rec["log"]))[1:]:
        state = before.state
        seat = next((a for a in GAME.actors(state) if isinstance(a, int)), None)
        if seat is None:
            continue
        legal = GAME.legal_moves(state, seat)
        for bot in (greedy_bot, random_bot):
            move = bot(state, seat, rng)
            assert move in legal, move


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError):
        simulate(1, 2, ["clever"])
    assert set(BOTS) == {"random", "greedy"}


def test_every_event_of_a_game_has_a_description_and_annotations_of_known_kinds():
    rec = play_game(2, ["greedy", "greedy"], 3, keep_log=True)
    kinds = set()
    tempo_rounds = []
    for event, before, after in list(M.replay_steps(rec["log"]))[1:]:
        text = str(GAME.describe(before.state, event["type"], event["seat"], event["data"], after.state))
        assert text and text != event["type"]
        for note in GAME.annotate(before.state, event["type"], event["seat"], event["data"], after.state):
            assert note["kind"] in KINDS and str(note["text"])
            kinds.add(note["kind"])
            if note["kind"] == "tempo":
                tempo_rounds.append(note["round"])
    assert "tempo" in kinds and tempo_rounds == list(range(1, len(tempo_rounds) + 1))
    assert rec["finished"]


def test_tempo_counts_cards_on_castles_per_round():
    rec = position(castles=[{"S": 3}, {"H": 1}], discard=[["4S"], []])
    rec.build(0, "4S", "castle")
    rec.end(0)
    rec.end(1)
    tempo = next(n for n in rec.annotate_last() if n["kind"] == "tempo")
    assert tempo["castle_cards"] == [4, 1] and tempo["gained"] == [1, 0] and tempo["per_round"] == [4.0, 1.0]


def test_missed_build_counts_the_unused_hearts_jack():
    rec = position(castles=[{"S": 4}, {}], villages=[[["9C", "5S", "8H"], [], [], [], []], [[], [], [], [], []]],
                   trios=[["JH", "QC", "KC"], ["JD", "QD", "KD"]])
    rec.end(0)
    note = next(n for n in rec.annotate_last() if n["kind"] == "missed_build")
    assert note["cards"] == ["5S"] and "hearts jack" in str(note["text"])
