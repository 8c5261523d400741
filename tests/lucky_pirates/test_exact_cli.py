"""analyze exact through the command line: lucky-pirates offers it, so it is the default game."""

import json

import pytest

from analyzer.games.lucky_pirates.commands import exact_solution
from tests.cli_checks import assert_one_line_error, run_cli


def test_exact_json_sums_to_one_and_matches_the_api():
    result = run_cli(["exact", "--game", "lucky-pirates", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert sum(data["win_probability"]) == pytest.approx(1.0, abs=1e-12)
    # seat 1 moves first: it is ahead in a symmetric race
    assert data["win_probability"][0] > data["win_probability"][1]
    assert data == json.loads(json.dumps(exact_solution({}, 2)))


def test_exact_needs_no_game_when_one_game_offers_it():
    result = run_cli(["exact", "--players", "2"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("lucky-pirates, exact: 2 players")
    assert "0.513503313" in result.stdout


def test_exact_follows_scenario_and_set():
    base = run_cli(["exact", "--scenario", "scenarios/lucky-pirates/three-treasures.toml", "--players", "2", "--json"])
    changed = run_cli(["exact", "--scenario", "scenarios/lucky-pirates/three-treasures.toml",
                       "--players", "2", "--set", "treasures_to_win=2", "--json"])
    assert base.exit_code == changed.exit_code == 0
    assert json.loads(changed.stdout)["expected_turns"] < json.loads(base.stdout)["expected_turns"]


@pytest.mark.parametrize("fmt, first_line", [("csv", "quantity,value"), ("markdown", "# lucky-pirates, exact")])
def test_exact_writes_every_output_kind(fmt, first_line, tmp_path):
    result = run_cli(["exact", "--players", "2", "--format", fmt])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(first_line)
    target = tmp_path / "exact.json"
    assert run_cli(["exact", "--players", "2", "-o", target]).exit_code == 0
    assert json.loads(target.read_text())["players"] == 2


@pytest.mark.parametrize("args, words", [
    (["--game", "skull-island"], ["skull-island", "offers no 'exact'", "lucky-pirates"]),
    (["--game", "lucky-pirates", "--players", "5"], ["players"]),
    (["--game", "lucky-pirates", "--set", "disk_ship_probability=0"], ["disk_ship_probability"]),
    (["-o", "exact.pdf"], [".json"]),
])
def test_exact_bad_input_is_one_line(args, words):
    assert_one_line_error(run_cli(["exact", *args]), *words)
