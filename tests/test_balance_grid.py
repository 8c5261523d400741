"""balance recommends a value the game can play (issue 23): on the option's grid, the values
bracketing the fitted fairest value, each with its win rates; --interval-width names what
balance's --precision meant (the width of that value's interval, in the option's units)."""

import json

import pytest

from analyzer import experiments
from analyzer.experiments.balancing import grid_around
from analyzer.runspec import resolve
from tests.cli_checks import assert_one_line_error, run_cli


@pytest.mark.parametrize("value, step, low, high, expected", [
    (346.0, 100, 0, 800, [(300, 300, 300), (301, 399, 350), (400, 400, 400)]),
    (300.0, 100, 0, 800, [(300, 300, 300), (301, 399, 350), (400, 400, 400)]),
    (12.4, 1, 0, 100, [(12, 12, 12), (13, 13, 13)]),
    (790.0, 100, 0, 800, [(700, 700, 700), (701, 799, 750), (800, 800, 800)]),
    (5.0, 100, 0, 800, [(0, 0, 0), (1, 99, 50), (100, 100, 100)]),
    (360.0, 50, 0, 800, [(350, 350, 350), (351, 399, 375), (400, 400, 400)]),
])
def test_the_grid_classes_bracket_the_fitted_value(value, step, low, high, expected):
    assert grid_around(value, step, low, high) == expected


def test_skull_islands_seat_bonus_plays_in_the_step_of_its_scores():
    game = resolve(game="skull-island").game
    assert game.option_step("seat_bonus", resolve(game="skull-island").rules) == 100
    assert game.option_step("seat_bonus", resolve(game="skull-island", sets=["coin_diamond_value=50"]).rules) == 50
    assert game.option_step("target_score", resolve(game="skull-island").rules) == 1


def test_values_strictly_between_two_steps_play_identical_games():
    """The declaration checked: 301 and 399 play the same games, 300 and 400 others."""
    base = resolve(game="skull-island", players=2)
    execution = experiments.Execution.create(seed=3)
    wins = {bonus: tuple(experiments.play_variant(execution, base.with_rules({"seat_bonus": bonus}), 4096)
                         .result.totals["wins"].tolist()) for bonus in (300, 301, 399, 400)}
    assert wins[301] == wins[399]
    assert wins[300] != wins[301] and wins[400] != wins[399]


@pytest.fixture(scope="module")
def search():
    return experiments.balance("seat_bonus=0:800", game="skull-island", players=2, n=8192, seed=1)


def test_the_recommendation_is_on_the_grid_with_the_win_rates_bracketing_it(search):
    assert search.step == 100
    assert [(c.low, c.high) for c in search.grid] == [(c[0], c[1]) for c in grid_around(search.fitted, 100, 0, 800)]
    assert search.recommended in [c.evaluation.value for c in search.grid]
    assert search.measured.largest_gap == min(c.evaluation.largest_gap for c in search.grid)
    data = json.loads(search.render("json"))
    assert data["recommended"] == search.recommended and data["step"] == 100
    assert [row["low"] for row in data["grid"]] == [c.low for c in search.grid]
    table = search.render("table")
    for grid_class in search.grid:
        assert f"  {grid_class.shown_range()}: seat 1 " in table
    assert "Interval width" in table and "Precision" not in table


def test_balance_precision_is_refused_naming_interval_width():
    result = run_cli(["balance", "--game", "skull-island", "--param", "seat_bonus=0:800", "--precision", "100",
                      "--n", "1000", "--quiet"])
    assert_one_line_error(result, "--interval-width", "percentage points")
