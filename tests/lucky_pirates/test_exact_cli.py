"""analyze exact through the command line."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import main


def test_exact_json_sums_to_one_and_matches_the_api():
    result = CliRunner().invoke(main, ["exact", "--game", "lucky-pirates", "--players", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert sum(data["win_probability"]) == pytest.approx(1.0, abs=1e-12)
    # seat 1 moves first: it is ahead in a symmetric race
    assert data["win_probability"][0] > data["win_probability"][1]


def test_exact_follows_scenario_and_set():
    base = CliRunner().invoke(main, ["exact", "--scenario", "scenarios/lucky-pirates/three-treasures.toml",
                                     "--players", "2", "--json"])
    changed = CliRunner().invoke(main, ["exact", "--scenario", "scenarios/lucky-pirates/three-treasures.toml",
                                        "--players", "2", "--set", "treasures_to_win=2", "--json"])
    assert base.exit_code == changed.exit_code == 0
    assert json.loads(changed.stdout)["expected_turns"] < json.loads(base.stdout)["expected_turns"]


@pytest.mark.parametrize("args", [["--game", "skull-island"], ["--game", "lucky-pirates", "--players", "5"],
                                  ["--game", "lucky-pirates", "--set", "disk_ship_probability=0"]])
def test_exact_bad_input_is_one_line(args):
    result = CliRunner().invoke(main, ["exact", *args])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
