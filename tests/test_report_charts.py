"""Every chart of the report designed for its data (issue 17, item 6): no axis of mixed kinds,
whole-number ticks on whole numbers, score bins on the scores' grid, no empty chart, the
scenario and the meanings named, text the font cannot draw escaped and no warning leaked."""

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from pypdf import PdfReader

from analyzer.report import report
from analyzer.report.figures import score_grid
from analyzer.report.game_pages import StatsWalker
from analyzer.report.glossary import glossary, meaning, parse
from analyzer.report.stats_charts import COUNT, NOT_AVAILABLE, RATE, VALUE, Chart, Summary, draw_chart, draw_summary
from analyzer.report.style import Palette, displayable, new_page
from tests.cli_checks import run_limited

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "skull-island"


class _Result:
    """A result of a game with statistics of every kind the walker meets."""

    class spec:  # noqa: N801 - mimics RunSpec's attributes
        players = 3
        seats = [type("Seat", (), {"label": "greedy"})] * 3
        game = type("Game", (), {"title": "Brand New Game", "score_unit": "dollars"})

    stats = {
        "rounds_per_match": {"count": 20000, "mean": 3.18, "median": 3, "p5": 2, "p95": 4, "max": 4},
        "parrot_left": {"rounds": 58096, "rate": 0.91, "parrots": 86270},
        "lost_turns_by_seat": [87346, 87922, 87774],
        "final_value": {"tiles": 6400.5, "cash": 3050.2, "ship": 1200.0},
        "island_rate_by_card": {"coin": 0.0, "sea-battle": 0.0},
        "captains": {"Jack": {"games": 40, "win_rate": 0.32, "win_rate_ci": [0.3, 0.34]},
                     "Bill": {"games": 0, "win_rate": None, "win_rate_ci": None}},
    }

    def to_dict(self):
        return {"game_stats": self.stats}


@pytest.fixture
def walker():
    walker = StatsWalker(_Result(), Palette())
    walker.walk(_Result.stats)
    return walker


def test_a_summary_is_a_range_and_a_count_never_shares_an_axis_with_a_rate(walker):
    charts = {chart.title: chart for chart in walker.charts}
    summary = charts["rounds per match"]
    assert isinstance(summary, Summary)
    assert summary.whole and summary.unit == "rounds per match" and summary.observations == "matches"
    # no bar chart holds the count beside the mean, or the parrot count beside the parrot rate
    bars = [chart for chart in walker.charts if isinstance(chart, Chart)]
    assert not any("count" in chart.groups or "rate" in chart.groups for chart in bars)
    rows = {name: value for name, value, _ in walker.rows}
    assert rows["parrot left / rate"] == "91.00%" and rows["parrot left / rounds"] == "58,096"
    assert "count 20,000" in rows["rounds per match"]
    assert charts["lost turns by seat"].kind == COUNT
    assert charts["lost turns by seat"].ylabel == "lost turns (count)"
    assert charts["final value"].kind == VALUE and charts["final value"].ylabel == "final value (dollars)"
    assert charts["captains / win rate"].kind == RATE


def test_all_zero_charts_are_left_out_and_bars_without_data_say_so(walker):
    assert walker.empty == ["island rate by card"]
    assert "island rate by card" not in [chart.title for chart in walker.charts]
    captains = next(chart for chart in walker.charts if chart.title == "captains / win rate")
    assert np.isnan(captains.values[0, 1])
    figure, ax = plt.subplots()
    draw_chart(ax, captains)
    assert [t.get_text() for t in ax.texts].count(NOT_AVAILABLE) == 1
    assert "no data" in "".join(t.get_text() for t in ax.texts)
    plt.close(figure)


def test_counts_and_whole_numbers_get_whole_number_ticks(walker):
    figure, (count_ax, summary_ax) = plt.subplots(2)
    draw_chart(count_ax, Chart("wins", ["a", "b"], ["wins"], np.array([[1, 3]]), None, "wins", COUNT, ["k", "k"]))
    draw_summary(summary_ax, next(c for c in walker.charts if isinstance(c, Summary)))
    figure.canvas.draw()
    for ticks in (count_ax.get_yticks(), summary_ax.get_xticks()):
        assert len(ticks) >= 2 and np.allclose(ticks, np.round(ticks)), ticks
    plt.close(figure)


def test_score_bins_are_merged_to_the_grid_of_the_scores():
    rng = np.random.default_rng(1)
    smooth = np.histogram(rng.normal(50, 10, 100_000), bins=np.arange(101))[0]
    assert score_grid(smooth) == 1
    comb = np.zeros(100)
    comb[10:90:5] = 1000  # scores on a grid of 5 bins
    assert score_grid(comb) == 5
    # bins of 2.5 grid steps: they take turns holding 2 and 3 grid points
    alternating = smooth * np.tile([1.2, 0.8], 50)
    assert score_grid(alternating) == 2


def test_text_the_font_cannot_draw_is_escaped_and_titles_wrap():
    assert displayable("海賊 Île") == "\\u6d77\\u8cca Île"
    assert displayable("🏴\u200d☠") == "\\U0001f3f4\\u200d☠"
    assert displayable("$5 to $6") == "\\$5 to \\$6"  # never mathtext
    figure = new_page("A title " * 30, "a subtitle")
    assert figure._suptitle.get_text().count("\n") >= 2
    assert figure.header_bottom < 0.85
    plt.close(figure)


def test_meanings_come_from_the_game_s_documentation():
    text = ("## Its own `game_stats`\n\n| key | meaning |\n|---|---|\n"
            "| `wins.by_seat`, `.share` | round wins of each seat |\n"
            "- `cancelled` (the trigger fell below\n  the target), `played`.\n\n"
            "Paragraph: `other` (not a definition).\n## Next\n- `later` (outside)\n")
    entries = parse(text)
    assert meaning(entries, ("wins", "share")) == "round wins of each seat"
    assert meaning(entries, ("cancelled",)) == "the trigger fell below the target"
    assert meaning(entries, ("deep", "cancelled")) == "the trigger fell below the target"
    assert meaning(entries, ("other",)) == meaning(entries, ("later",)) == ""
    assert "fell below the target" in meaning(glossary("skull-island"), ("final_rounds_cancelled",))
    # a row defining several keys one part each gives each key its own part
    entries = parse("## `game_stats`\n\n| `left.rounds`, `.rate` | rounds that ended early; their share |\n"
                    "| `refills.total`, `.per_round` | refills of the deck: count, per round |\n")
    assert meaning(entries, ("left", "rounds")) == "rounds that ended early"
    assert meaning(entries, ("left", "rate")) == "their share (rounds that ended early)"
    assert meaning(entries, ("refills", "per_round")) == "refills of the deck: per round"


def test_a_cjk_scenario_name_is_escaped_and_no_warning_reaches_the_terminal(tmp_path):
    scenario = tmp_path / "cjk.toml"
    scenario.write_text('game = "lucky-pirates"\nname = "海賊 🏴\u200d☠️"\nplayers = 3\n', encoding="utf-8")
    out = tmp_path / "cjk.pdf"
    completed = run_limited(["report", "--scenario", scenario, "--n", "2048", "--seed", "1", "--no-skill", "-o", out],
                            timeout=180)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "Glyph" not in completed.stderr and "Warning" not in completed.stderr, completed.stderr
    texts = [page.extract_text() for page in PdfReader(out).pages]
    assert "\\u6d77\\u8cca \\U0001f3f4" in texts[0]
    # every page after the title names the scenario
    assert all("\\u6d77\\u8cca" in text for text in texts[1:]), [t[:80] for t in texts]


def test_a_rule_set_without_skull_island_draws_no_empty_skull_island_chart(tmp_path):
    path = tmp_path / "no-island.pdf"
    report(scenarios=[SCENARIOS / "no-skull-island.toml"], n=2048, seed=1, out=path, skill_n=None)
    everything = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    assert "Death rate by fortune card" in everything
    assert "Skull Island rate by fortune card" not in everything
    assert "No turn went to Skull Island under these rules" in everything
