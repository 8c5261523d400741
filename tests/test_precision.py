"""--precision POINTS on simulate, compare and report (issue 17, item 5).

A precision run plays prefixes 0..m-1 of the game sequence in rounds of whole chunks
and stops once the widest win-rate interval is within ±POINTS: its result is the one
of a fixed run of m games, whatever the workers, and a run that reaches --n first
says so.
"""

import json
import math

import pytest

from analyzer.engine.chunks import chunk_size
from analyzer.engine.precision import (
    MAX_GROWTH,
    MIN_GROWTH,
    Precision,
    first_round,
    next_round,
    parse_precision,
)
from tests.cli_checks import assert_one_line_error, run_cli

#: Lucky Pirates for two: a seat wins about half the games, so ±2 points needs about
#: 1.96² · 0.25 / 0.02² ≈ 2,401 games: more than one chunk of 2,048, fewer than two
DUEL = ["--game", "lucky-pirates", "--players", "2", "--seed", "7", "--quiet"]
SCENARIOS = ["scenarios/lucky-pirates/standard.toml", "scenarios/lucky-pirates/easy-duels.toml"]


def _json(args):
    result = run_cli([*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _widest(data) -> float:
    """The widest side of any seat's win-rate interval of a simulate JSON, in points."""
    return 100 * max(max(s["win_rate"] - s["win_rate_ci"][0], s["win_rate_ci"][1] - s["win_rate"])
                     for s in data["seats"])


def _without(data, *keys):
    return {k: v for k, v in data.items() if k not in keys}


# ---- simulate ----------------------------------------------------------------------

def test_simulate_stops_at_the_first_whole_chunk_count_within_the_target():
    data = _json(["simulate", *DUEL, "--precision", "2", "--workers", "1"])
    precision = data["precision"]
    assert precision["reached"] is True
    assert precision["target_points"] == 2
    assert precision["limit"] == 100_000
    assert data["n"] == precision["games_used"] == 2 * chunk_size(100_000)
    assert _widest(data) <= 2
    assert math.isclose(precision["widest_points"], _widest(data))
    # one chunk fewer is not enough: the run did not play more than it needed
    shorter = _json(["simulate", *DUEL, "--n", data["n"] - chunk_size(100_000)])
    assert _widest(shorter) > 2


def test_simulate_precision_equals_the_fixed_run_of_the_games_it_used_whatever_the_workers():
    one = _json(["simulate", *DUEL, "--precision", "1.5", "--workers", "1"])
    two = _json(["simulate", *DUEL, "--precision", "1.5", "--workers", "2"])
    fixed = _json(["simulate", *DUEL, "--n", one["precision"]["games_used"], "--workers", "2"])
    assert _without(one, "run") == _without(two, "run")
    assert _without(one, "run", "precision") == _without(fixed, "run")
    assert "precision" not in fixed


def test_simulate_says_when_the_limit_comes_first():
    result = run_cli(["simulate", *DUEL, "--precision", "0.5", "--n", "5000"])
    assert result.exit_code == 0, result.output
    assert "reached the limit --n 5,000 before ±0.5 points" in result.stdout
    data = _json(["simulate", *DUEL, "--precision", "0.5", "--n", "5000"])
    assert data["n"] == 5000
    assert data["precision"]["reached"] is False and data["precision"]["games_used"] == 5000
    assert data["precision"]["widest_points"] > 0.5


def test_simulate_text_names_the_stop():
    result = run_cli(["simulate", *DUEL, "--precision", "3"])
    assert result.exit_code == 0, result.output
    shown = " ".join(result.stdout.split())  # the line is wrapped to 80 columns
    assert "stopped at 2,048 games: every seat's 95% win-rate interval is within ±3 points" in shown


def test_the_python_api_takes_precision():
    import analyzer

    result = analyzer.simulate(game="lucky-pirates", players=2, seed=7, precision=3, workers=1)
    assert result.info.precision.reached and result.info.n == result.info.precision.games_used == 2048


# ---- compare -----------------------------------------------------------------------

def test_compare_narrows_every_seat_difference_and_equals_the_fixed_run():
    args = ["compare", *SCENARIOS, "--players", "2", "--seed", "7", "--quiet"]
    one = _json([*args, "--precision", "2", "--workers", "1"])
    two = _json([*args, "--precision", "2", "--workers", "2"])
    precision = one["precision"]
    assert precision["reached"] is True and one["n"] == precision["games_used"]
    halves = [(row["difference_ci"][1] - row["difference_ci"][0]) / 2 for row in one["rows"]
              if row["metric"].startswith("win_rate_seat_") and row["difference_ci"] is not None]
    assert len(halves) == 2 and max(halves) <= 0.02
    assert math.isclose(precision["widest_points"], 100 * max(halves))
    fixed = _json([*args, "--n", one["n"], "--workers", "1"])

    def steady(data):
        return {**_without(data, "precision"),
                "scenarios": [_without(s, "wall_seconds") for s in data["scenarios"]]}

    assert steady(one) == steady(two) == steady(fixed)


def test_compare_refuses_precision_for_a_strategy_matchup():
    result = run_cli(["compare", "--game", "doubloons", "--strategy", "greedy", "--strategy", "random",
                      "--precision", "1", "--quiet"])
    assert_one_line_error(result, "--precision", "match-up")


# ---- report ------------------------------------------------------------------------

def test_report_states_where_its_precision_run_stopped(tmp_path):
    result = run_cli(["report", *DUEL, "--precision", "3", "--no-skill", "-o", tmp_path / "r.pdf"])
    assert result.exit_code == 0, result.output
    assert "Precision: stopped at 2,048 games: every seat's 95% win-rate interval is within ±3 points" \
        in result.stderr
    assert (tmp_path / "r.pdf").stat().st_size > 0


def test_several_scenarios_play_one_count_until_seats_and_differences_are_narrow():
    from analyzer.execution import Execution
    from analyzer.experiments import resolve_scenarios
    from analyzer.experiments.precision import (
        SEATS_AND_DIFFERENCES_MEASURED,
        differences_widest,
        play_variants_to_precision,
        seats_and_differences_widest,
        seats_widest,
    )

    specs = resolve_scenarios(SCENARIOS, players=2)
    runs, outcome = play_variants_to_precision(specs, 50_000, Execution.create(7, 1), 2.0,
                                               seats_and_differences_widest, SEATS_AND_DIFFERENCES_MEASURED)
    assert outcome.reached and {run.n for run in runs} == {outcome.games_used}
    assert all(run.result.info.precision == outcome for run in runs)
    assert seats_widest(runs) <= 2 and differences_widest(runs) <= 2
    assert outcome.widest_points == max(seats_widest(runs), differences_widest(runs))
    # the seats decide here: their intervals are wider than the paired differences'
    assert differences_widest(runs) < seats_widest(runs)


# ---- bad input ---------------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "-inf", "x", "", "101", "1e400"])
@pytest.mark.parametrize("command", [
    ["simulate", "--game", "lucky-pirates", "--quiet"],
    ["compare", *SCENARIOS, "--quiet"],
    ["report", "--game", "lucky-pirates", "--no-skill", "--quiet"],
])
def test_bad_precision_is_one_line_and_exit_2(command, value, tmp_path):
    extra = ["-o", tmp_path / "r.pdf"] if command[0] == "report" else []
    assert_one_line_error(run_cli([*command, *extra, "--precision", value]), "--precision")


@pytest.mark.parametrize("command", [["simulate", "--game", "lucky-pirates"], ["compare", *SCENARIOS],
                                     ["report", "--game", "lucky-pirates", "--no-skill"]])
def test_precision_refuses_a_checkpoint(command, tmp_path):
    extra = ["-o", tmp_path / "r.pdf"] if command[0] == "report" else []
    result = run_cli([*command, *extra, "--precision", "2", "--checkpoint", tmp_path / "c.ckpt", "--quiet"])
    assert_one_line_error(result, "--precision", "--checkpoint")


def test_parse_precision_takes_numbers_and_their_text():
    assert parse_precision("0.5") == 0.5 and parse_precision(2) == 2.0 and parse_precision("1_0") == 10.0
    for bad in (True, None, 0, -0.1, math.nan, math.inf, "1,5"):
        with pytest.raises(ValueError):
            parse_precision(bad)


# ---- the schedule ------------------------------------------------------------------

def test_rounds_are_whole_chunks_within_their_growth_bounds_and_the_limit():
    limit = 10**7
    size = chunk_size(limit)
    first = first_round(1.0, limit, 4)
    assert first % size == 0 and 0 < first < limit
    for widest in (1.01, 1.5, 3.0, 100.0, math.inf):
        games = next_round(first, widest, 1.0, limit)
        assert games % size == 0
        assert MIN_GROWTH * first <= games <= MAX_GROWTH * first
    # the predicted count: the width shrinks as 1/sqrt(games)
    assert next_round(100 * size, 2.0, 1.0, limit) >= 400 * size
    assert next_round(limit - size, 5.0, 1.0, limit) == limit


def test_the_outcome_in_words_and_json():
    reached = Precision(1.0, True, 4096, 100_000, 0.8)
    assert reached.to_dict() == {"target_points": 1.0, "reached": True, "games_used": 4096, "limit": 100_000,
                                 "widest_points": 0.8}
    assert reached.sentence().startswith("Precision: stopped at 4,096 games")
    short = Precision(0.1, False, 100, 100, math.inf)
    assert short.to_dict()["widest_points"] is None
    assert "reached the limit --n 100 before ±0.1 points" in short.sentence()


def test_the_progress_bar_runs_toward_the_limit(capsys):
    import analyzer

    analyzer.simulate(game="lucky-pirates", players=2, seed=7, precision=2, progress=True, workers=1)
    shown = capsys.readouterr().err
    assert "4.10k/100k" in shown and "100k/100k" not in shown
