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


#: top-level JSON keys added since some recordings (new measures, verdicts, a scenario's target length):
#: compared where a recording holds them (a new key adds to the JSON, it changes none of the recorded numbers)
ADDED_KEYS = ("quality", "mechanics", "safeguards", "switched_off", "components", "target_length", "verdicts")


def without_added_keys(result: dict, expected: dict) -> dict:
    return {key: value for key, value in result.items() if key in expected or key not in ADDED_KEYS}


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_match_the_golden_run(name, tmp_path):
    expected = json.loads(path(name).read_text())
    result = run_case(name, tmp_path / "games.csv")
    assert without_new_options(without_added_keys(result, expected), expected, CASES[name]["game"]) == expected
