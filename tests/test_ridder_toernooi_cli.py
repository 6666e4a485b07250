"""`kroniek simulate ridder_toernooi`."""

from click.testing import CliRunner

from service.cli import main


def test_simulate_ridder_toernooi_prints_a_summary():
    res = CliRunner().invoke(main, ["simulate", "ridder_toernooi", "--games", "4", "--players", "7",
                                    "--strategies", "random", "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "4 games of ridder_toernooi" in res.output
    assert "finished" in res.output and "duels" in res.output


def test_simulate_ridder_toernooi_refuses_eleven_players():
    res = CliRunner().invoke(main, ["simulate", "ridder_toernooi", "--games", "1", "--players", "11"])
    assert res.exit_code != 0 and "2–10" in res.output
