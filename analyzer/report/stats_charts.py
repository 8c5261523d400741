"""Charts of a game's statistics, each designed for one kind of number.

A :class:`Chart` holds bars of one kind only: rates (shares from 0 to 1, shown as
percentages), counts (whole numbers, on whole-number ticks) or values of another unit
(named in the axis label); a bar without data is marked "n/a" rather than left blank. A
:class:`Summary` is a distribution told by its mean and percentiles (``{count, mean,
median, p5, p95, max}``), drawn as a range with its unit, never as bars beside its count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import MaxNLocator

from analyzer.report.document import Page
from analyzer.report.style import percent_axis, plot_page, wrap

RATE = "rate"
COUNT = "count"
VALUE = "value"

CHARTS_PER_PAGE = 4
MAX_CHART_PAGES = 6
#: characters of a chart's definition line
NOTE_WIDTH = 70
NOT_AVAILABLE = "n/a"


@dataclass
class Chart:
    """Bars: ``values`` is [series, groups]; one series draws plain bars, several draw grouped bars.

    ``kind`` is ``RATE``, ``COUNT`` or ``VALUE``; ``note`` a definition shown under the title.
    """

    title: str
    groups: list[str]
    series: list[str]
    values: np.ndarray
    errors: np.ndarray | None  # [2, series, groups]: below and above
    ylabel: str
    kind: str
    colours: list  # per series, or per group when there is one series
    note: str = ""


@dataclass
class Summary:
    """A distribution by its summary statistics (``mean``, ``median``, ``p5``, ``p95``, ``min``, ``max``,
    ``count``), in ``unit``; ``whole`` when its values are whole numbers."""

    title: str
    stats: dict[str, float]
    unit: str
    whole: bool
    note: str = ""
    observations: str = "observations"


def is_empty(chart: Chart) -> bool:
    """Nothing to show: every value zero or missing."""
    values = np.asarray(chart.values, dtype=float)
    return not np.any(np.nan_to_num(values) != 0)


def _title(ax, title: str, note: str) -> None:
    """The chart's title, with its definition in small type below it when there is one."""
    lines = wrap(note, NOTE_WIDTH)[:3] if note else []
    ax.set_title(title, fontsize=10, pad=4 + 10 * len(lines))
    if lines:
        ax.text(0.5, 1.01, "\n".join(lines), transform=ax.transAxes, ha="center", va="bottom", fontsize=7,
                color="#444444")


def draw_chart(ax, chart: Chart) -> None:
    """Plain bars for one series, grouped bars for several; error bars when known; "n/a" where a
    bar has no data."""
    groups = np.arange(len(chart.groups))
    series = len(chart.series)
    width = 0.8 / series
    colour_per_bar = series == 1 and len(chart.colours) == len(chart.groups)
    missing = False
    for i, name in enumerate(chart.series):
        x = groups + (i - (series - 1) / 2) * width
        values = np.asarray(chart.values[i], dtype=float)
        ax.bar(x, np.nan_to_num(values), width=width,
               color=chart.colours if colour_per_bar else chart.colours[i], label=None if colour_per_bar else name)
        if chart.errors is not None:
            ax.errorbar(x, values, yerr=chart.errors[:, i], fmt="none", ecolor="black", capsize=2, linewidth=0.8)
        for xi in x[np.isnan(values)]:
            missing = True
            ax.text(xi, 0, NOT_AVAILABLE, ha="center", va="bottom", fontsize=7, color="#aa0000", rotation=90)
    long_names = max(len(g) for g in chart.groups) > 6 or len(chart.groups) > 8
    ax.set_xticks(groups, chart.groups, rotation=35 if long_names else 0, ha="right" if long_names else "center",
                  fontsize=7 if len(chart.groups) > 12 else 8)
    ylabel = chart.ylabel
    if chart.kind == RATE:
        percent_axis(ax, decimals=1)
        ylabel += " (%)"
    elif chart.kind == COUNT:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(ylabel)
    note = chart.note
    if missing:
        note = (note + " " if note else "") + f"{NOT_AVAILABLE}: no data (it did not occur in these games)."
    _title(ax, chart.title, note)
    if not colour_per_bar:  # the error bars are the page's 95% intervals (its subtitle says so)
        ax.legend(fontsize=7)


def draw_summary(ax, summary: Summary) -> None:
    """The 5%–95% range as a band, the whole range as a line, the median and mean marked and labelled."""
    stats = summary.stats
    low = stats.get("min", stats.get("p5"))
    high = stats.get("max", stats.get("p95"))
    if low is not None and high is not None:
        said = f"range {low:g} to {high:g}" if "min" in stats and "max" in stats else \
            f"maximum {high:g}" if "max" in stats else f"minimum {low:g}"
        ax.plot([low, high], [0, 0], color="#888888", linewidth=1.5, label=said)
    if "p5" in stats and "p95" in stats:
        ax.barh(0, stats["p95"] - stats["p5"], left=stats["p5"], height=0.35, color="#5a6b7b", alpha=0.6,
                label=f"5%–95%: {stats['p5']:g} to {stats['p95']:g}")
    if "median" in stats:
        ax.plot([stats["median"]] * 2, [-0.25, 0.25], color="black", linewidth=2.5,
                label=f"median {stats['median']:g}")
    if "mean" in stats:
        ax.plot(stats["mean"], 0, "D", color="#d62728", markersize=7, label=f"mean {stats['mean']:.4g}")
    if summary.whole:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(-1, 1.8)  # room for the legend above the range
    ax.set_yticks([])
    ax.set_xlabel(summary.unit)
    title = summary.title
    if "count" in stats:
        title += f" ({stats['count']:,.0f} {summary.observations})"
    _title(ax, title, summary.note)
    ax.legend(fontsize=7, loc="upper right", ncol=2)


def chart_pages(charts: list, title: str, name: str, subtitle: str | None = None) -> list[Page]:
    """Charts and summaries four to a page, at most ``MAX_CHART_PAGES`` pages (the rest is
    named on the last page)."""
    pages = []
    shown = charts[:CHARTS_PER_PAGE * MAX_CHART_PAGES]
    left_out = len(charts) - len(shown)
    count = -(-len(shown) // CHARTS_PER_PAGE)
    for start in range(0, len(shown), CHARTS_PER_PAGE):
        part = shown[start:start + CHARTS_PER_PAGE]
        columns = 1 if len(part) == 1 else 2
        rows = 1 if len(part) <= 2 else 2
        number = start // CHARTS_PER_PAGE + 1
        figure, axes = plot_page(title, subtitle, rows, columns)
        for ax, chart in zip(axes, part, strict=False):
            (draw_summary if isinstance(chart, Summary) else draw_chart)(ax, chart)
        for ax in axes[len(part):]:
            ax.set_visible(False)
        if left_out and start + CHARTS_PER_PAGE >= len(shown):
            figure.text(0.05, 0.02, f"{left_out} more charts of the game's statistics are in the JSON output "
                        f"(analyze simulate --json).", fontsize=8, color="#444444")
        figure.subplots_adjust(top=figure.header_bottom - 0.07, bottom=0.16, hspace=0.75)
        # the contents tell the pages apart
        pages.append(Page(f"{name}-{number}", figure, title=f"{title} ({number}/{count})" if count > 1 else None))
    return pages
