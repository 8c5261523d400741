"""Results at fixed seeds stay bit-identical (tests/golden/cases.py re-records them)."""

import json

import pytest

from tests.golden.cases import CASES, path, run_case


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_match_the_golden_run(name, tmp_path):
    expected = json.loads(path(name).read_text())
    assert run_case(name, tmp_path / "games.csv") == expected
