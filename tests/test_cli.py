"""The kroniek command (what the Makefile and users call)."""

import re

from click.testing import CliRunner

from service.cli import main


def test_simulate_troubadour_prints_a_summary():
    res = CliRunner().invoke(main, ["simulate", "troubadour", "--games", "3", "--players", "2", "--seed", "5"])
    assert res.exit_code == 0, res.output
    assert "3 games of troubadour" in res.output and "wins by seat" in res.output


def test_simulate_an_unknown_game_says_which_exist():
    res = CliRunner().invoke(main, ["simulate", "chess"])
    assert res.exit_code != 0 and "troubadour" in res.output


def test_simulate_an_unknown_bot_is_a_usage_error():
    res = CliRunner().invoke(main, ["simulate", "troubadour", "--games", "1", "--strategies", "oracle"])
    assert res.exit_code != 0 and "Traceback" not in res.output


def test_solve_prints_the_winnable_share_and_times():
    res = CliRunner().invoke(main, ["solve", "twaalven", "--deals", "5", "--budget", "100000"])
    assert res.exit_code == 0, res.output
    assert "winnable share" in res.output and "solve time" in res.output


def test_simulate_a_cooperative_game():
    res = CliRunner().invoke(main, ["simulate", "stapelen", "--games", "3", "--strategies", "builder"])
    assert res.exit_code == 0, res.output
    assert "won" in res.output and "lost" in res.output


def test_a_command_without_a_reachable_redis_says_what_to_do(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from service.cli import main

    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("KRONIEK_VAR", str(tmp_path / "nothing-here"))
    result = CliRunner().invoke(main, ["user", "add", "bob"])
    assert result.exit_code == 1
    assert "cannot reach Redis at unix://" in result.output and "make run" in result.output
    assert "Traceback" not in result.output


def test_simulate_troje_prints_how_its_games_ended():
    res = CliRunner().invoke(main, ["simulate", "catan-troje", "--games", "2", "--players", "4",
                                    "--strategies", "greedy,random", "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "2 games of catan-troje" in res.output
    for row in ("battles", "ended", "war won by", "wins by strategy"):
        assert row in res.output
    assert "war:" in res.output or "vp:" in res.output


def test_simulate_troje_with_five_players_says_four_or_six():
    res = CliRunner().invoke(main, ["simulate", "catan-troje", "--games", "1", "--players", "5"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "4 or 6 players, not 5" in res.output


def test_simulate_catan_without_players_plays_the_fewest_it_allows():
    """Issue 19 (mended once, then reverted): ``kroniek simulate catan`` defaulted to 2 players and failed;
    without --players it plays the fewest the game allows (3)."""
    res = CliRunner().invoke(main, ["simulate", "catan", "--games", "1", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert re.search(r"players\s*│\s*3\s*│", res.output) and "finished          │ 1" in res.output, res.output
