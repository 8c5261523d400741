"""Bad input gets one clear line and exit status 2 (no traceback).

Black-box tests from issue 2 ("Bad input") and ../shared/INTERFACE.md:
exit status 2 for bad input of any kind, one line on stderr that names the problem.
"""

import json

import pytest

from tests.cli_checks import assert_one_line_error, run_cli

SIM = ["simulate", "--game", "skull-island", "--n", "1000", "--seed", "1", "--quiet"]


def _scenario(tmp_path, text, name="scenario.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD_SCENARIO = """\
game = "skull-island"
name = "Test"
players = 4
"""


# ---- control: a valid run -------------------------------------------------------

def test_valid_simulate_json():
    result = run_cli(["simulate", "--game", "skull-island", "--n", "2000", "--seed", "1",
                      "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("schema", "game", "n", "seed", "players", "rules", "seats"):
        assert key in data, key
    assert data["game"] == "skull-island"
    assert data["n"] == 2000
    assert data["seed"] == 1
    assert data["players"] == 4
    assert len(data["seats"]) == 4


def test_valid_scenario_file_runs(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO)
    result = run_cli(["simulate", "--scenario", path, "--n", "1000", "--seed", "1",
                      "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "skull-island"


# ---- simulate: game, strategies, seats ------------------------------------------

def test_unknown_game():
    r = run_cli(["simulate", "--game", "nosuchgame", "--n", "1000", "--quiet"])
    assert_one_line_error(r, "nosuchgame")


def test_unknown_strategy():
    r = run_cli(SIM + ["--strategy", "nosuchstrat"])
    assert_one_line_error(r, "nosuchstrat")


def test_unknown_strategy_parameter():
    r = run_cli(SIM + ["--strategy", "threshold:nope=1"])
    assert_one_line_error(r, "nope")


def test_strategy_parameter_out_of_range():
    r = run_cli(SIM + ["--strategy", "threshold:max_skulls=9"])
    assert_one_line_error(r, "max_skulls")


def test_more_strategies_than_seats():
    args = SIM + ["--players", "4"]
    for _ in range(5):
        args += ["--strategy", "first-roll"]
    r = run_cli(args)
    assert_one_line_error(r, "strateg")


# ---- simulate: --n ---------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-5", "abc", "1.5", "2e12"])
def test_bad_n(value):
    r = run_cli(["simulate", "--game", "skull-island", "--n", value, "--seed", "1", "--quiet"])
    assert_one_line_error(r, value)


# ---- scenario files --------------------------------------------------------------

def test_missing_scenario_file(tmp_path):
    missing = tmp_path / "nofile_here.toml"
    r = run_cli(["simulate", "--scenario", missing, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "nofile_here.toml")


def test_malformed_toml(tmp_path):
    path = _scenario(tmp_path, 'game = "skull-island"\nplayers = \n[[[rules\n', "broken_file.toml")
    r = run_cli(["simulate", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "broken_file.toml")


def test_scenario_unknown_top_level_key(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO + 'colour = "red"\n', "unknown_key.toml")
    r = run_cli(["simulate", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "colour", "unknown_key.toml")


def test_scenario_unknown_rule_option(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO + "[rules]\nnope_rule = 1\n")
    r = run_cli(["simulate", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "nope_rule")


def test_scenario_wrong_type(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO + '[rules]\ntarget_score = "high"\n')
    r = run_cli(["simulate", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "target_score")


def test_scenario_impossible_value(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO + "[rules]\ntarget_score = -100\n")
    r = run_cli(["simulate", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "target_score")


def test_one_player():
    r = run_cli(SIM + ["--players", "1"])
    assert_one_line_error(r, "players")


def test_scenario_game_differs_from_game_option(tmp_path):
    path = _scenario(tmp_path, GOOD_SCENARIO)
    r = run_cli(["simulate", "--game", "lucky-pirates", "--scenario", path, "--n", "1000", "--quiet"])
    assert_one_line_error(r, "game")


# ---- --set and --out -------------------------------------------------------------

def test_set_unknown_option():
    r = run_cli(SIM + ["--set", "nope_option=1"])
    assert_one_line_error(r, "nope_option")


def test_out_into_missing_folder(tmp_path):
    out = tmp_path / "missing_folder" / "result.json"
    r = run_cli(SIM + ["--out", out])
    assert_one_line_error(r, "missing_folder")
    assert not out.parent.exists()


# ---- strategies ------------------------------------------------------------------

def test_strategies_unknown_game():
    r = run_cli(["strategies", "--game", "nope"])
    assert_one_line_error(r, "nope")
