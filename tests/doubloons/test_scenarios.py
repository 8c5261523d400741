"""The scenario files of scenarios/doubloons/ load and play through the public API."""

from pathlib import Path

import pytest

import analyzer
from analyzer.games.doubloons.cards import SPECIALS

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "doubloons"


@pytest.mark.parametrize("name, players, changed", [
    ("standard", 3, {}),
    ("single-round", 3, {"rounds_to_win": 1}),
    ("final-turns", 3, {"final_turns": True}),
    ("garbage", 3, {"group_specials": {name: 0 for name in SPECIALS}}),
    ("double-specials", 3, {"group_specials": {name: 2 for name in SPECIALS}}),
    ("five-players", 5, {}),
])
def test_scenario_files_play(name, players, changed):
    result = analyzer.simulate(scenario=SCENARIOS / f"{name}.toml", n=1000, seed=5, workers=1)
    data = result.to_dict()
    assert data["game"] == "doubloons" and data["players"] == players
    assert data["score_unit"] == "rounds won" and data["length"]["unit"] == "turns"
    assert set(data["lengths"]) == {"turns", "rounds"}
    for key, value in changed.items():
        assert data["rules"][key] == value
    stats = data["game_stats"]
    assert stats["rounds"] >= 1000
    if name == "garbage":
        assert all(row["drawn"] == 0 for row in stats["specials"].values())
    if name == "single-round":
        assert data["lengths"]["rounds"]["max"] == 1
