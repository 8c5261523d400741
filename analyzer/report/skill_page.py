"""The report's skill pages: the skill ladder in words and a table, and in a figure."""

from __future__ import annotations

import numpy as np

from analyzer.experiments.skill import SkillLadder
from analyzer.report.document import Page
from analyzer.report.figures import error_bars
from analyzer.report.layout import text_page
from analyzer.report.mixed_tables_figure import mixed_tables_pages
from analyzer.report.style import FAIR_LINE, legend_above, percent_axis, plot_page


def skill_pages(ladder: SkillLadder, scenario: str) -> list[Page]:
    """A text page (how the ladder was measured, the verdicts, the table) and its figure."""
    table = ladder.ladder_frame()
    about = (f"Scenario {scenario}, {ladder.players} players. Each strategy held one seat against the game's "
             f"default strategy ({ladder.reference}) on the others, every seat in turn, {ladder.n:,} games; its "
             f"seat advantage, length and ties come from {ladder.n:,} games with it on every seat. All strategies "
             f"met the same games (common random numbers).")
    pages = [text_page("skill", "Skill ladder: who wins, and the verdicts under each level of play",
                       [about, *ladder.summary_lines()], list(table.columns), table.values.tolist(), size=10)]
    rungs = [rung.to_dict() for rung in ladder.rungs]
    labels = [rung["strategy"] for rung in rungs]
    y = np.arange(len(rungs))[::-1]
    advantages = np.array([rung["first_player_advantage"] for rung in rungs]) * 100
    measured = bool(np.any(np.nan_to_num(advantages)))  # else the chart is named, not drawn empty
    subtitle = f"{scenario}: {ladder.players} players, {ladder.n:,} games per strategy" + (
        "" if measured else "; no strategy gives the first player an advantage (0 points with each), so its chart "
                            "is left out")
    figure, axes = plot_page("Skill ladder", subtitle, rows=2 if measured else 1)
    top = axes[0]
    rates = np.array([rung["win_rate"] for rung in rungs])
    top.barh(y, rates, color="#4c72b0", height=0.6)
    top.errorbar(rates, y, xerr=error_bars(rates, [rung["win_rate_ci"] for rung in rungs]), fmt="none",
                 ecolor="black", capsize=4)
    top.axvline(1 / ladder.players, label=f"fair share ({100 / ladder.players:.1f}%)", **FAIR_LINE)
    top.set_yticks(y, labels)
    percent_axis(top, "x")
    top.set_xlabel(f"win rate of its seat against {ladder.reference} on the others (95% interval)")
    legend_above(top, 1)
    if measured:
        bottom = axes[1]
        intervals = [[bound * 100 for bound in rung["first_player_advantage_ci"]] for rung in rungs]
        bottom.errorbar(advantages, y, xerr=error_bars(advantages, intervals), fmt="o", color="#dd8452",
                        ecolor="black", capsize=4)
        bottom.axvline(0, color="#888888", linewidth=1)
        bottom.set_yticks(y, labels)
        bottom.set_xlabel("first-player advantage with that strategy on every seat (points of win rate, 95% "
                          "interval)")
    figure.subplots_adjust(left=min(0.3, 0.06 + 0.0065 * max(len(label) for label in labels)))  # room for the names
    pages.append(Page("skill-ladder", figure))
    return pages + mixed_tables_pages(ladder, scenario)
