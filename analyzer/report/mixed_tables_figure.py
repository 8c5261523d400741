"""The skill page's figure of the mixed tables: an expert among casual players and the reverse."""

from __future__ import annotations

import numpy as np

from analyzer.experiments.mixed_tables import CASUAL, EXPERT
from analyzer.experiments.skill import SkillLadder
from analyzer.report.document import Page
from analyzer.report.figures import error_bars
from analyzer.report.style import FAIR_LINE, legend_above, percent_axis, plot_page, wrap

#: bar colours of the lone expert and the lone casual player
COLOURS = {EXPERT: "#4c72b0", CASUAL: "#dd8452"}


def mixed_tables_pages(ladder: SkillLadder, scenario: str) -> list[Page]:
    """One page: the lone seat's win rate at each casual noise, expert and casual, with the fair share."""
    tables = ladder.mixed_tables
    if not tables:
        return []
    games = tables[0]["games"]
    figure, (ax,) = plot_page("An expert at a casual table", f"{scenario}: {ladder.players} players, {games:,} "
                              f"games per table, one seat rotated over every seat")
    noises = sorted({t["casual_noise"] for t in tables})
    y = np.arange(len(noises))[::-1]
    height = 0.38
    for offset, lone in ((height / 2, EXPERT), (-height / 2, CASUAL)):
        chosen = {t["casual_noise"]: t for t in tables if t["lone"] == lone}
        rows = [i for i, noise in enumerate(noises) if noise in chosen]
        rates = np.array([chosen[noises[i]]["win_rate"] for i in rows])
        positions = y[rows] + offset
        against = f"among casual players ({ladder.reference} with noise)" if lone == EXPERT else \
            f"among experts ({ladder.strongest})"
        who = ladder.strongest if lone == EXPERT else "casual player"
        ax.barh(positions, rates, height=height, color=COLOURS[lone], label=f"one {who} {against}")
        ax.errorbar(rates, positions, xerr=error_bars(rates, [chosen[noises[i]]["win_rate_ci"] for i in rows]),
                    fmt="none", ecolor="black", capsize=3)
    ax.axvline(1 / ladder.players, label=f"fair share ({100 / ladder.players:.1f}%)", **FAIR_LINE)
    ax.set_yticks(y, [f"noise {noise:g}" for noise in noises])
    reach = max([1 / ladder.players, *(t["win_rate_ci"][1] for t in tables)])
    ax.set_xlim(0, min(1.0, reach * 1.05))  # the axis ends at the data, not at 100%
    percent_axis(ax, "x")
    ax.set_xlabel("win rate of the one seat (95% interval); noise: the casual players' share of random decisions")
    legend_above(ax, 2, size=8)
    verdict = ladder.mixed_verdict()
    if verdict is not None:
        figure.subplots_adjust(bottom=0.22)
        figure.text(0.08, 0.12, "\n".join(wrap(f"{verdict.title}: {verdict.text}", 110)), fontsize=9, va="top")
    return [Page("skill-mixed-tables", figure)]
