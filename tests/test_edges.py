"""The rough edges a new user meets (issue 23): faults, inputs that got through, words and widths.

Each test failed before its fix. The checkpoint tallies are in test_checkpoint_tallies.py,
the widths and wrapping in test_widths.py.
"""

import json

import numpy as np
import pytest

import analyzer
from analyzer.engine import runner
from analyzer.errors import MAX_MESSAGE_CHARS, AnalyzerError, closest_first
from tests.cli_checks import assert_one_line_error, run_cli

SIM = ["simulate", "--game", "skull-island", "--n", "1000", "--seed", "1", "--quiet"]


@pytest.fixture
def no_game_may_be_played(monkeypatch):
    def refuse(*args, **kwargs):
        pytest.fail("a game was played before the input was checked")

    monkeypatch.setattr(runner, "execute", refuse)


# -- crashes and faults --------------------------------------------------------------------------

def test_an_interval_ending_a_rounding_error_beyond_its_value_is_a_bar_of_length_zero():
    from analyzer.report.figures import error_bars

    bars = error_bars([0.0, 0.5], [(2.2e-19, 0.01), (0.4, 0.6)])
    assert (bars >= 0).all()
    assert bars[:, 0].tolist() == [0.0, 0.01]
    assert bars[:, 1].tolist() == pytest.approx([0.1, 0.1])


def test_figures_of_a_report_that_fails_are_all_removed(tmp_path):
    import matplotlib

    from analyzer.report.document import Page, write_figures

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def pages():
        for index in range(3):
            figure = plt.figure()
            yield Page(name=f"page-{index}", figure=figure, plot=True)
        raise ValueError("a page that cannot be drawn")

    folder = tmp_path / "figures"
    with pytest.raises(ValueError):
        write_figures(pages(), folder, "png")
    assert not folder.exists()


@pytest.mark.parametrize("name", ["a" * 300 + ".json", "b" * 256])
def test_a_file_name_the_system_cannot_hold_is_refused_before_any_game(no_game_may_be_played, tmp_path, name):
    result = run_cli(SIM + ["-o", tmp_path / name])
    assert_one_line_error(result, "file name", "bytes long", "255")
    assert list(tmp_path.iterdir()) == []


def test_a_save_games_name_the_system_cannot_hold_is_refused(no_game_may_be_played, tmp_path):
    assert_one_line_error(run_cli(SIM + ["--save-games", tmp_path / ("c" * 300 + ".csv")]), "bytes long")


# -- inputs that got through ---------------------------------------------------------------------

@pytest.mark.parametrize("spec, named", [
    ("threshold:stop_at=1,stop_at=2", "stop_at"),
    ("threshold:noise=0.1, noise=0.2", "noise"),
])
def test_a_strategy_parameter_given_twice_is_refused(no_game_may_be_played, spec, named):
    assert_one_line_error(run_cli(SIM + ["--strategy", spec]), named, "twice")


def test_a_lookahead_objective_given_twice_is_refused(no_game_may_be_played):
    result = run_cli(["simulate", "--game", "doubloons", "--n", "100", "--quiet",
                      "--strategy", "lookahead:objective=win,objective=score"])
    assert_one_line_error(result, "objective", "twice")


@pytest.mark.parametrize("outputs, named", [
    (["--save-games", "{d}/same.csv", "-o", "{d}/same.csv"], "--save-games and --out"),
    (["--checkpoint", "{d}/same.json", "-o", "{d}/same.json"], "--checkpoint and --out"),
    (["--checkpoint", "{d}/same.csv", "--save-games", "{d}/./same.csv"], "--checkpoint and --save-games"),
])
def test_the_same_file_for_two_outputs_is_refused(no_game_may_be_played, tmp_path, outputs, named):
    result = run_cli(SIM + [item.format(d=tmp_path) for item in outputs])
    assert_one_line_error(result, named, "same file")
    assert list(tmp_path.iterdir()) == []


def test_the_same_file_for_two_outputs_of_a_report_is_refused(no_game_may_be_played, tmp_path):
    result = run_cli(["report", "--game", "skull-island", "--n", "1000", "--quiet", "--no-skill", "--no-balance",
                      "--checkpoint", tmp_path / "r.pdf", "-o", tmp_path / "r.pdf"])
    assert_one_line_error(result, "same file")


def test_the_wrote_message_escapes_control_characters_in_the_path(tmp_path):
    target = tmp_path / "new\nline\x1b[31m.json"
    result = run_cli(SIM + ["--n", "100", "-o", target])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert "new\\nline\\x1b[31m.json" in result.stderr
    assert target.exists()


# -- names ---------------------------------------------------------------------------------------

def test_the_closest_names_come_first_and_the_list_is_cut_at_a_whole_name():
    names = [f"option_{index:02d}" for index in range(40)] + ["target_score", "tie_rule"]
    shown = closest_first("tie_rul", names, budget=80)
    assert shown.startswith("tie_rule, ")
    assert len(shown) <= 80 and shown.endswith("more")
    assert all(part.strip() in names for part in shown.rsplit(", and", 1)[0].split(","))


@pytest.mark.parametrize("args, first", [
    (["--set", "tie_rul=1"], "tie_rule"),
    (["--set", "target_scor=1"], "target_score"),
    (["--strategy", "treshold"], "threshold"),
    (["--strategy", "threshold:stop=1"], "stop_at"),
])
def test_an_unknown_name_lists_the_closest_first_within_300_characters(no_game_may_be_played, args, first):
    result = run_cli(SIM + args)
    assert_one_line_error(result, first)
    line = result.stderr.strip()
    assert len(line) <= MAX_MESSAGE_CHARS
    assert line.split("closest first: ", 1)[1].startswith(first)


def test_an_unknown_game_lists_the_closest_first():
    with pytest.raises(AnalyzerError, match="closest first: skull-island, "):
        analyzer.simulate(game="skul-island", n=10)


@pytest.mark.parametrize("args", [
    SIM + ["--set", "x" * 5000 + "=1"],
    SIM + ["--strategy", "y" * 5000],
    ["simulate", "--game", "z" * 5000],
])
def test_every_error_line_with_its_prefix_is_at_most_300_characters(args):
    result = run_cli(args)
    assert_one_line_error(result)
    assert len(result.stderr.strip()) <= MAX_MESSAGE_CHARS


def test_the_error_bars_helper_accepts_one_value():
    from analyzer.report.figures import error_bars

    assert error_bars([1.0], [(1.0 + 1e-17, 2.0)]).shape == (2, 1)
    assert np.all(error_bars([1.0], [(1.0 + 1e-17, 2.0)]) >= 0)


def test_a_duplicate_parameter_is_refused_in_the_python_api_too():
    with pytest.raises(AnalyzerError, match="given twice"):
        analyzer.simulate(game="skull-island", n=10, strategies=["threshold:stop_at=1,stop_at=2"])
    json.dumps({})  # the module's imports are all used


def test_a_report_with_small_skill_and_balance_counts_writes_its_figures(tmp_path):
    """The issue's crash: a rung of the skill ladder with no win (2e-19 below its interval's end)."""
    folder = tmp_path / "figures"
    result = run_cli(["report", "--game", "skull-island", "--n", "500", "--seed", "1", "--skill-n", "20",
                      "--figures", "png", "-o", folder, "--quiet"])
    assert result.exit_code == 0, result.output
    assert len(list(folder.iterdir())) >= 8
