"""lucky-pirates through the `analyze` command line: the JSON contract and bad input."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import main

GAME_STATS_KEYS = {
    "duels_per_game", "duel_throws_per_duel", "games_with_duel_rate", "duel_size_share",
    "won_in_duel_rate", "ship_took_treasure_rate", "ship_takes_per_game",
    "provisions_ran_dry_rate", "dry_draws_per_game", "steals_per_game",
    "island_treasures_per_game", "duel_treasures_per_game", "final_treasures_of_others",
}


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_simulate_json():
    result = _run("simulate", "--game", "lucky-pirates", "--players", "3", "--n", "3000",
                  "--seed", "5", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "lucky-pirates" and data["players"] == 3
    assert data["score_unit"] == "treasures"
    assert data["length"]["unit"] == "turns"
    assert set(data["lengths"]) == {"turns", "rounds"}
    assert data["tie_rate"] == 0 and data["capped_games"] == 0
    assert sum(seat["wins"] for seat in data["seats"]) == 3000
    assert [seat["strategy"] for seat in data["seats"]] == ["none"] * 3
    assert set(data["game_stats"]) == GAME_STATS_KEYS
    assert set(data["game_stats"]["duel_size_share"]) == {"2", "3"}


@pytest.mark.parametrize("args, words", [
    (["--strategy", "random"], ["no decisions"]),
    (["--players", "5"], ["players"]),
    (["--set", "circle=ship,island,ship"], ["circle", "ship"]),
    (["--set", "treasures_to_win=6", "--set", "treasure_supply=5"], ["treasures_to_win"]),
    (["--set", "disk_ship_probability=0"], ["disk_ship_probability"]),
])
def test_bad_input_is_one_line(args, words):
    result = _run("simulate", "--game", "lucky-pirates", "--n", "1000", "--quiet", *args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    for word in words:
        assert word in lines[0]
