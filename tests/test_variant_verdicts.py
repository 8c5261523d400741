"""The comparison answers first: its variant verdicts (every significant change, largest relative change
first, with its interval), then one line of what did not change."""

import json
import math
from types import SimpleNamespace

import numpy as np
import pytest

from analyzer.experiments import Comparison
from analyzer.experiments.details import Detail
from analyzer.experiments.variant_verdicts import says_unchanged
from analyzer.runspec import resolve
from tests.cli_checks import run_cli

BATCHES = 32
BATCH_SIZE = 1000
#: a zero-mean batch pattern with sum of squares 32: a difference ``t / sqrt(31)`` over it has Student t = ``t``
ALTERNATING = np.array([1.0, -1.0] * (BATCHES // 2))
DEATH = Detail(("game_stats", "cards", "skull-2", "death_rate"), "Skulls (2)", "death rate")
CAPTAIN = Detail(("components", "Captain"), "Captain", "win rate per time met")


def _run(name, values, batches, details):
    """A stand-in for a VariantRun: values, per-batch values, and the finer measures, per batch too."""
    spec = resolve(game="skull-island")
    spec = SimpleNamespace(name=name, game=spec.game, changed_rules=lambda: {"skull_island": False})
    sizes = np.full(BATCHES, BATCH_SIZE)
    detail_values = {key: value for key, (value, _) in details.items()}
    detail_batches = {key: batch for key, (_, batch) in details.items()}
    return SimpleNamespace(spec=spec, n=BATCHES * BATCH_SIZE, values=values,
                           batch_values=(list(range(BATCHES)), sizes, batches),
                           details=(detail_values, sizes, detail_batches, list(range(BATCHES))))


def _comparison(metrics: dict[str, tuple[float, float]], details: dict[Detail, tuple[float, float]]):
    """Scenario B against A: each measure ``(value in A, Student t of the difference)``; the difference is
    ``t / sqrt(31)`` over the ALTERNATING pattern, so its interval and p-value follow from ``t``."""
    def pair(entries):
        a = {key: (value, value + 0 * ALTERNATING) for key, (value, _) in entries.items()}
        b = {key: (value + t / math.sqrt(BATCHES - 1), value + t / math.sqrt(BATCHES - 1) + ALTERNATING)
             for key, (value, t) in entries.items()}
        return a, b

    metrics_a, metrics_b = pair(metrics)
    details_a, details_b = pair(details)
    runs = [_run(name, {k: v for k, (v, _) in found.items()}, {k: batch for k, (_, batch) in found.items()}, detail)
            for name, found, detail in (("A", metrics_a, details_a), ("B", metrics_b, details_b))]
    return Comparison(runs, seed=0)


def test_changes_rank_by_relative_change_across_the_table_and_the_finer_measures():
    """Relative changes: mean length 10 + 40/sqrt(31) = +71.8%; death rate 0.5 + 8/sqrt(31) = +287%;
    Captain 0.25 + 6/sqrt(31) = +431%; balance and the tie rate move by chance only (t = 0.3)."""
    comparison = _comparison(
        {"mean_length_rounds": (10.0, 40.0), "balance": (0.9, 0.3), "tie_rate": (0.01, 0.3)},
        {DEATH: (0.5, 8.0), CAPTAIN: (0.25, 6.0)})
    verdicts = comparison.verdicts
    assert [v.kind for v in verdicts] == ["variant"] * 4
    assert [v.title.split(":")[0] for v in verdicts] == ["Captain", "Skulls (2)", "Mean length (rounds)",
                                                          "What did not change"]
    relative = [v.effect["relative"] for v in verdicts[:3]]
    assert relative == sorted(relative, key=lambda r: -abs(r))
    assert relative[0] == pytest.approx(6 / math.sqrt(31) / 0.25) and relative[2] == pytest.approx(4 / math.sqrt(31))
    death = verdicts[1]
    assert death.title == "Skulls (2): death rate 50.00% → 193.68%"
    assert death.effect["unit"] == "percentage points" and death.effect["value"] == pytest.approx(800 / math.sqrt(31))
    low, high = death.effect["ci"]
    assert 0 < low < death.effect["value"] < high  # its interval, excluding no change
    assert "+143.68 points, 95% interval" in death.text and "287% higher" in death.text
    assert "skull_island = false" in death.action
    unchanged = verdicts[-1]
    assert says_unchanged(unchanged) and unchanged.action.startswith("None")
    assert "B against A, no significant difference: balance (1 − largest gap) 0.9000 → 0.9539" in unchanged.text
    assert "tie rate 1.00% → 6.39%" in unchanged.text and unchanged.text.count("95% interval") == 2
    assert unchanged.effect["unit"] == "index"  # the seat balance's change, with its interval


def test_nothing_significant_says_so_in_one_verdict():
    comparison = _comparison({"win_rate_seat_1": (0.5, 1.0), "win_rate_seat_2": (0.5, -1.5), "balance": (0.9, 0.5),
                              "mean_length_rounds": (10.0, -2.0)}, {DEATH: (0.5, 1.9)})
    assert not any(comparison.significant.values())
    [verdict] = comparison.verdicts
    assert verdict.kind == "variant" and verdict.title == "No significant change"
    assert verdict.text.startswith("B against A, no significant difference: the seats' win rates (every difference "
                                   "within ")
    assert "mean length (rounds) 10 → 9.641" in verdict.text and "1 of the 1 per-component" in verdict.text
    assert json.loads(json.dumps(verdict.to_dict()))["kind"] == "variant"


def test_compare_opens_with_the_variant_verdicts():
    args = ["compare", "scenarios/skull-island/standard.toml", "scenarios/skull-island/no-skull-island.toml",
            "--n", "8192", "--seed", "3", "--quiet"]
    data = json.loads(run_cli([*args, "--json"]).stdout)
    verdicts = data["verdicts"]
    assert list(data)[:6] == ["schema", "game", "n", "seed", "batches", "verdicts"]
    assert {v["kind"] for v in verdicts} == {"variant"}
    changes, unchanged = verdicts[:-1], verdicts[-1]
    assert unchanged["title"] == "What did not change" and "balance" in unchanged["text"]
    relative = [abs(v["effect"]["relative"]) if v["effect"]["relative"] is not None else math.inf for v in changes]
    assert relative == sorted(relative, reverse=True)
    for verdict in changes:  # each significant, with its interval
        low, high = verdict["effect"]["ci"]
        assert low > 0 or high < 0, verdict
    titles = [v["title"] for v in changes]
    # the per-card change the issue names, and the table's: games get shorter
    assert any(title.startswith("Skulls (2): death rate") for title in titles)
    assert any(title.startswith("Mean length (rounds)") for title in titles)
    rows = {row["metric"]: row for row in data["rows"] if row["scenario"] == "No Skull Island"}
    named = sum(row["significant"] for key, row in rows.items() if key != "first_player_advantage")
    assert sum(not title.startswith(("Gold", "Diamond", "Sorceress", "Captain", "Treasure", "Monkey", "Skull",
                                     "Sea battle")) for title in titles) == named
    table = run_cli(args).stdout.splitlines()
    assert table[0].startswith("The comparison's verdicts, No Skull Island against Standard")
    end = table.index("")
    assert all(len(line) <= 80 for line in table[:end]) and "What did not change" in "\n".join(table[:end])
    markdown = run_cli([*args, "--format", "markdown"]).stdout
    assert markdown.index("The comparison's verdicts") < markdown.index("| metric")
