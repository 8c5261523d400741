"""Comparisons control the false discovery rate (Benjamini–Hochberg), rank their changes and state the pairing gain."""

import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.experiments import Comparison, t_quantile_95
from analyzer.experiments.significance import benjamini_hochberg, regularized_beta, t_two_sided_p
from analyzer.report.comparison_pages import comparison_paragraphs
from analyzer.runspec import resolve
from tests.cli_checks import run_cli

BATCHES = 32
BATCH_SIZE = 1000
#: a zero-mean batch pattern with sum of squares 32: a difference ``t / sqrt(31)`` over it has Student t = ``t``
ALTERNATING = np.array([1.0, -1.0] * (BATCHES // 2))
#: another zero-mean pattern, orthogonal to ALTERNATING
PAIRS = np.array([1.0, 1.0, -1.0, -1.0] * (BATCHES // 4))


# -- the statistics, by hand -----------------------------------------------------------------------------

def test_student_t_p_values_match_closed_forms_and_the_interval_quantiles():
    # df = 1 (Cauchy): p = 1 - 2 atan(t) / pi; df = 2: p = 1 - t / sqrt(t^2 + 2)
    for t in (0.3, 1.0, 3.0, 12.0):
        assert t_two_sided_p(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi, rel=1e-12)
        assert t_two_sided_p(-t, 2) == pytest.approx(1 - t / math.sqrt(t * t + 2), rel=1e-12)
    # the quantiles the intervals use are where p = 5% (exact table to 30 df, Cornish-Fisher above)
    for df in (*range(1, 41), 100, 1000):
        assert t_two_sided_p(t_quantile_95(df), df) == pytest.approx(0.05, abs=2e-7)
    # many degrees of freedom: the normal tail
    assert t_two_sided_p(1.959964, 10**8) == pytest.approx(0.05, abs=1e-6)
    assert t_two_sided_p(0.0, 31) == 1.0 and t_two_sided_p(math.inf, 31) == 0.0 and t_two_sided_p(math.nan, 31) == 1
    assert regularized_beta(0.5, 3.0, 3.0) == pytest.approx(0.5, rel=1e-13)
    assert regularized_beta(0.2, 1.0, 4.0) == pytest.approx(1 - 0.8 ** 4, rel=1e-13)


def test_benjamini_hochberg_on_hand_computed_examples():
    # m = 10, thresholds k / 10 * 5% = 0.005, 0.010, 0.015, ...: p(1) = .001 and p(2) = .008 pass,
    # p(3) = .039 > .015 and no later p(k) is under its threshold: two rejections, where five are under 5%.
    p = [0.039, 0.001, 0.205, 0.041, 0.008, 0.060, 0.042, 0.074, 0.212, 0.216]
    assert benjamini_hochberg(p) == [False, True, False, False, True, False, False, False, False, False]
    # step-up: with m = 4 the thresholds are .0125, .025, .0375, .05; the largest p (.049) passes its own,
    # so all four are rejected although .03 fails the first threshold
    assert benjamini_hochberg([0.04, 0.045, 0.03, 0.049]) == [True, True, True, True]
    assert benjamini_hochberg([0.04, 0.045, 0.03, 0.051]) == [False, False, False, False]
    assert benjamini_hochberg([]) == []
    assert benjamini_hochberg([0.01, 0.01], level=0.01) == [True, True]


# -- a comparison built from hand-made batches ------------------------------------------------------------

def _run(name, values, batches):
    """A stand-in for a VariantRun: whole-run values and per-batch values of equal-sized batches."""
    spec = SimpleNamespace(name=name, game=resolve(game="skull-island").game)
    sizes = np.full(BATCHES, BATCH_SIZE)
    return SimpleNamespace(spec=spec, n=BATCHES * BATCH_SIZE, values=values,
                           batch_values=(list(range(BATCHES)), sizes, batches))


def _comparison(differences: dict[str, float], a_patterns=None, b_patterns=None):
    """Scenario B differs from A by ``t / sqrt(31)`` per metric over the ALTERNATING pattern: Student t = ``t``."""
    a_patterns, b_patterns = a_patterns or {}, b_patterns or {}
    a_values = dict.fromkeys(differences, 1.0)
    b_values = {key: 1.0 + t / math.sqrt(BATCHES - 1) for key, t in differences.items()}
    a = {key: a_values[key] + a_patterns.get(key, 0 * ALTERNATING) for key in differences}
    b = {key: b_values[key] + b_patterns.get(key, ALTERNATING) for key in differences}
    return Comparison([_run("A", a_values, a), _run("B", b_values, b)], seed=0)


def test_many_borderline_differences_are_not_significant_after_control():
    """Six borderline differences (t = 2.3, p = 2.8% each) among thirty null ones and one strong effect:
    alone each borderline interval excludes 0; with 37 tests BH needs p <= 7/37 * 5% = 0.95% at rank 7,
    so only the strong effect stays significant."""
    t = {"game_stats.strong": 8.0}
    t |= {f"game_stats.borderline_{i}": 2.3 for i in range(6)}
    t |= {f"game_stats.null_{i}": 0.3 for i in range(30)}
    comparison = _comparison(t)
    assert comparison.tested == 37
    borderline = comparison.differences[("game_stats.borderline_0", 1)]
    assert borderline.p_value == pytest.approx(t_two_sided_p(2.3, 31)) and 0.02 < borderline.p_value < 0.04
    assert borderline.significant_unadjusted and borderline.interval[0] > 0
    marks = {key: comparison.significant[(key, 1)] for key in t}
    assert [key for key, mark in marks.items() if mark] == ["game_stats.strong"]
    rows = {row["metric"]: row for row in comparison.rows() if row["scenario"] == "B"}
    assert sum(row["significant_unadjusted"] for row in rows.values()) == 7
    assert sum(row["significant"] for row in rows.values()) == 1
    assert comparison.significance() == {
        "method": "benjamini-hochberg", "false_discovery_rate": 0.05, "tested": 37,
        "p_value": "two-sided, batch-means Student t"}
    line = comparison.summary_line(1)
    assert "strong" in line and "borderline" not in line and "6 more differences" in line
    marks_shown = comparison.display_frame().iloc[:, -1].tolist()
    assert marks_shown.count("*") == 1 and marks_shown.count("°") == 6


def test_changes_are_named_largest_relative_change_first():
    comparison = _comparison({"mean_length_rounds": 40.0, "game_stats.dice_per_game": -60.0,
                              "mean_score_seat_1": 200.0, "game_stats.quiet": 0.1})
    # relative changes against a first value of 1 (t / sqrt 31): +718%, -1078%, +3592%
    names = comparison.changes(1)
    assert names == ["mean_score_seat_1", "game_stats.dice_per_game", "mean_length_rounds"]
    line = comparison.summary_line(1)
    assert line.index("mean points") < line.index("dice per game") < line.index("games 718% longer in rounds")
    assert "quiet" not in line and "not significant" not in line


def test_the_pairing_remark_states_the_measured_gain():
    """Slightly anti-correlated batches: the paired difference varies a little more than independent runs'."""
    seats = [f"win_rate_seat_{k}" for k in range(1, 5)]
    comparison = _comparison(dict.fromkeys(seats, 0.0), a_patterns=dict.fromkeys(seats, ALTERNATING),
                             b_patterns=dict.fromkeys(seats, PAIRS - 0.05 * ALTERNATING))
    gain = comparison.typical_reduction(1)
    assert gain == pytest.approx((32 + 32 * 1.0025) / (32 + 32 * 1.05 ** 2))  # 0.95
    remark = comparison.gain_remark(1)
    assert "0.95 times as precise as independent runs" in remark and "no gain" in remark
    text = " ".join(comparison_paragraphs(comparison))
    assert "not from luck" not in text and "0.95 times as precise" in text and "Benjamini–Hochberg" in text
    paired = _comparison(dict.fromkeys(seats, 0.0), a_patterns=dict.fromkeys(seats, ALTERNATING),
                         b_patterns=dict.fromkeys(seats, ALTERNATING + 0.1 * PAIRS))
    assert paired.typical_reduction(1) == pytest.approx((32 + 32 * 1.01) / (32 * 0.01))
    assert "would need about 201.0 times as many games" in paired.gain_remark(1)


# -- the command ---------------------------------------------------------------------------------------------

def test_compare_json_carries_the_controlled_and_the_unadjusted_mark():
    result = run_cli(["compare", "scenarios/skull-island/standard.toml", "scenarios/skull-island/no-skull-island.toml",
                      "--n", "8192", "--seed", "3", "--quiet", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["significance"]["method"] == "benjamini-hochberg" and data["batches"] == 4
    others = [row for row in data["rows"] if row["scenario"] == "No Skull Island"]
    assert data["significance"]["tested"] == sum(row["p_value"] is not None for row in others)
    p_values = [row["p_value"] for row in others if row["p_value"] is not None]
    expected = benjamini_hochberg(p_values)
    assert [row["significant"] for row in others if row["p_value"] is not None] == expected
    for row in others:
        assert row["significant_unadjusted"] or not row["significant"]
        if row["p_value"] is not None:
            low, high = row["difference_ci"]
            assert row["significant_unadjusted"] == (not low <= 0 <= high) == (row["p_value"] < 0.05)
    # no Skull Island makes games shorter: significant after the control
    length = next(row for row in others if row["metric"] == "mean_length_rounds")
    assert length["significant"] and length["difference"] < 0 and length["p_value"] < 1e-3
    table = run_cli(["compare", "scenarios/skull-island/standard.toml", "scenarios/skull-island/no-skull-island.toml",
                     "--n", "8192", "--seed", "3", "--quiet"]).stdout
    assert "Benjamini–Hochberg" in table and "largest first: " in table and "times as precise" in table
    assert "not from luck" not in table
