"""Results at fixed seeds stay bit-identical (tests/golden/cases.py re-records them)."""

import json

import pytest

from analyzer.games.registry import get_game
from tests.golden.cases import CASES, path, run_case


def without_new_options(result: dict, expected: dict, game_id: str) -> dict:
    """The result's ``rules`` without the options added since the recording, which must be at
    their defaults (a new option that leaves the game as it was changes no result)."""
    defaults = {option.name: option.default for option in get_game(game_id).options}
    rules = dict(result["rules"])
    for name in set(rules) - set(expected["rules"]):
        assert json.dumps(rules.pop(name)) == json.dumps(defaults[name]), name
    return {**result, "rules": rules}


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_match_the_golden_run(name, tmp_path):
    expected = json.loads(path(name).read_text())
    result = run_case(name, tmp_path / "games.csv")
    assert without_new_options(result, expected, CASES[name]["game"]) == expected
