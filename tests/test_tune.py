"""The strategy tuner: parameter parsing and grids, the halving schedule, common random
numbers, seat rotation, bad input; on Skull Island and on a toy game (the tuner sees
games only through the Game contract)."""

import json

import pytest

import analyzer.runspec
from analyzer.errors import AnalyzerError
from analyzer.experiments import candidate_grid, halving_schedule, parse_tuning_param, tune
from analyzer.games.registry import get_game
from tests.cli_checks import run_cli
from tests.duel_game import DuelGame

THRESHOLD = get_game("skull-island").strategy("threshold")


@pytest.fixture
def duel(monkeypatch):
    real = analyzer.runspec.get_game
    monkeypatch.setattr(analyzer.runspec, "get_game", lambda game_id: DuelGame() if game_id == "duel" else
                        real(game_id))


def test_ranges_lists_and_steps_parse():
    assert parse_tuning_param(THRESHOLD, "stop_at=200:2000").low == 200
    assert parse_tuning_param(THRESHOLD, "stop_at=300,100,300").values == (300, 100)
    assert parse_tuning_param(THRESHOLD, "stop_at=100:500:200").values == (100, 300, 500)


def test_grid_shares_the_budget_between_ranges():
    grid = candidate_grid(THRESHOLD, [parse_tuning_param(THRESHOLD, "stop_at=200:2000"),
                                      parse_tuning_param(THRESHOLD, "max_skulls=1:2")], 32)
    assert len(grid) == 32
    assert {c.params["max_skulls"] for c in grid} == {1, 2}
    stops = sorted({c.params["stop_at"] for c in grid})
    assert stops[0] == 200 and stops[-1] == 2000 and len(stops) == 16
    # a whole-number range smaller than its share gives every value once
    small = candidate_grid(THRESHOLD, [parse_tuning_param(THRESHOLD, "stop_at=10:12")], 32)
    assert [c.params["stop_at"] for c in small] == [10, 11, 12]


def test_halving_schedule():
    assert halving_schedule(32, 200_000, 2) == [(32, 1250), (16, 2500), (8, 5000), (4, 10000), (2, 20000)]
    assert halving_schedule(3, 6000, 4) == [(3, 1000), (2, 1500)]
    with pytest.raises(AnalyzerError, match="too small"):
        halving_schedule(32, 100, 4)


@pytest.mark.parametrize("text,words", [
    ("nope=1:2", ["no parameter", "nope"]),
    ("stop_at=900:100", ["empty range"]),
    ("max_skulls=1:5", ["max_skulls"]),
    ("stop_at", ["must be written"]),
    ("stop_at=1:9:0", ["step"]),
])
def test_bad_parameters_are_named(text, words):
    with pytest.raises(AnalyzerError) as error:
        parse_tuning_param(THRESHOLD, text)
    for word in words:
        assert word in str(error.value)


def test_search_finds_the_dominant_candidate_with_common_random_numbers(duel):
    result = tune(game="duel", strategy="aim", params=["aim=0:1"], opponents=["aim:aim=0.3"], n=44_000,
                  players=3, candidates=11, seed=4, workers=1)
    assert result.best.choice.params["aim"] == pytest.approx(0.6)
    assert result.runner_up.choice.params["aim"] in (pytest.approx(0.5), pytest.approx(0.7))
    # dominance holds game by game: no candidate went out before one farther from 0.6
    def distance(candidate):
        return abs(candidate.choice.params["aim"] - 0.6)

    for out in result.pool:
        for stayed in result.pool:
            if out.eliminated_in and (stayed.eliminated_in or 99) > out.eliminated_in:
                assert distance(stayed) <= distance(out) + 1e-9
    # every round, the candidate sat in each of the 3 seats for the same number of games
    sizes = [o.size for o in result.best.outcomes]
    assert len(sizes) == 3 * len(result.rounds)
    assert all(sizes[i] == sizes[i + 1] == sizes[i + 2] for i in range(0, len(sizes), 3))
    data = result.to_dict()
    assert data["difference"]["estimate"] >= 0 and data["games_played"] <= 44_000


def test_identical_play_gives_identical_games():
    """Two stop_at values no turn can reach play identically: with common random numbers
    they win exactly the same games (difference 0, interval of width 0)."""
    result = tune(game="skull-island", strategy="threshold", params=["stop_at=60000,70000"],
                  opponents=["threshold"], n=800, players=2, seed=2, workers=1)
    assert result.best.wins == result.runner_up.wins
    difference = result.difference()
    assert abs(difference["estimate"]) < 1e-12 and difference["ci"][1] - difference["ci"][0] < 1e-9


def test_same_seed_same_search():
    runs = [tune(game="skull-island", strategy="threshold", params=["stop_at=0:1500", "max_skulls=1:2"],
                 opponents=["set-chaser"], n=6000, players=2, candidates=6, seed=9, workers=2).to_dict()
            for _ in range(2)]
    for run in runs:
        run.pop("run")
    assert runs[0] == runs[1]
    assert runs[0]["best"]["params"]["stop_at"] > 0  # never rerolling loses to set-chaser



def test_cli_json():
    result = run_cli(["tune", "--game", "skull-island", "--strategy", "threshold", "--param", "stop_at=300:900",
                      "--opponents", "threshold", "--n", "4000", "--players", "2", "--candidates", "4",
                      "--seed", "1", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("best", "runner_up", "difference", "rounds", "candidates", "seed", "opponents"):
        assert key in data
    assert data["best"]["win_rate_ci"][0] <= data["best"]["win_rate"] <= data["best"]["win_rate_ci"][1]


@pytest.mark.parametrize("args,word", [
    (["--param", "stop_at=900:100"], "empty range"),
    (["--param", "nope=1:3"], "nope"),
    (["--param", "stop_at=1:3", "--opponents", "a", "--opponents", "b", "--opponents", "c"], "opponents"),
    (["--param", "stop_at=1:3", "--checkpoint", "x.json"], "checkpoint"),
    (["--param", "stop_at=5,5"], "one candidate"),
])
def test_cli_bad_input_is_one_line(args, word):
    result = run_cli(["tune", "--game", "skull-island", "--strategy", "threshold", "--players", "2", "--n", "1000",
                      "--quiet", *args])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and word in result.output


def test_a_strategy_without_numeric_parameters_is_refused():
    with pytest.raises(AnalyzerError, match="no numeric parameter"):
        tune(game="lucky-pirates", strategy="none", params=["x=1:2"], n=1000)


def test_a_flag_needs_a_list(duel):
    with pytest.raises(AnalyzerError, match="not a number"):
        tune(game="duel", strategy="aim", params=["loud=0:1"], n=1000)
