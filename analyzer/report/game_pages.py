"""A game's pages in the PDF report: its own where it draws them (``Game.report_pages``), else
pages drawn from its ``game_stats`` whatever their shape, so a new game gets pages without code here.

The statistics are walked once: numbers and short texts go into a table; a list of
numbers, a table of numbers (name -> number) and records (name -> {metric: number})
become bar charts (one per metric, with the ``<metric>_ci`` or ``<metric>_se``
partner as error bars); records of records (name -> label -> {metric: number}) become
grouped bars. Bars named after a seat or a strategy take its colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.formatting import format_number
from analyzer.report.document import Page
from analyzer.report.layout import table_pages
from analyzer.report.style import NEUTRAL, Palette, percent_axis, plot_page
from analyzer.stats import Z95

CHARTS_PER_PAGE = 4
MAX_CHART_PAGES = 6
#: lists and tables longer than this are not drawn
MAX_BARS = 60


@dataclass
class Chart:
    """Bars: ``values`` is [series, groups]; one series draws plain bars, several draw grouped bars."""

    title: str
    groups: list[str]
    series: list[str]
    values: np.ndarray
    errors: np.ndarray | None  # [2, series, groups]: below and above
    ylabel: str
    rate: bool
    colours: list  # per series, or per group when there is one series


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _words(path: tuple[str, ...]) -> str:
    return " / ".join(str(p).replace("_", " ") for p in path)


def _is_rate(name: str, values) -> bool:
    finite = [v for v in np.ravel(values) if np.isfinite(v)]
    return any(w in name.lower() for w in ("rate", "share")) and bool(finite) and all(0 <= v <= 1 for v in finite)


class StatsWalker:
    """Sorts one game's statistics into table rows and charts."""

    def __init__(self, result, palette: Palette):
        self.result = result
        self.palette = palette
        self.players = result.spec.players
        self.labels = {seat.label for seat in result.spec.seats}
        self.rows: list[tuple[str, str]] = []
        self.charts: list[Chart] = []

    # -- colours --------------------------------------------------------------------------------
    def colour(self, name: str):
        if name.startswith("seat ") and name[5:].isdigit():
            return self.palette.seat(int(name[5:]))
        if name in self.labels:
            return self.palette.strategy(name)
        return NEUTRAL

    # -- walking --------------------------------------------------------------------------------
    def walk(self, node: dict, path: tuple[str, ...] = ()) -> None:
        for key, value in node.items():
            key = str(key)
            if _is_error_key(key):
                continue
            here = (*path, key)
            if _is_number(value):
                self.rows.append((_words(here), _show_number(key, value)))
            elif isinstance(value, str):
                self.rows.append((_words(here), value if len(value) <= 60 else "…" + value[-59:]))
            elif isinstance(value, list):
                self.list_(value, here)
            elif isinstance(value, dict) and value:
                entries = list(value.values())
                if len(entries) >= 2 and all(_is_number(v) for v in entries):
                    self.bars(here, [str(k) for k in value], [float(v) for v in entries])
                elif all(isinstance(v, dict) or v is None for v in entries):
                    self.records({str(k): v for k, v in value.items() if isinstance(v, dict)}, here)
                else:
                    self.walk(value, here)

    def list_(self, items: list, path: tuple[str, ...]) -> None:
        if not items or len(items) > MAX_BARS:
            return
        if all(_is_number(v) for v in items):
            by_seat = "seat" in path[-1] and len(items) == self.players
            names = [f"seat {i + 1}" if by_seat else str(i + 1) for i in range(len(items))]
            self.bars(path, names, [float(v) for v in items])
        elif all(isinstance(v, dict) for v in items):
            records = {}
            for i, record in enumerate(items):
                name = f"seat {record['seat']}" if "seat" in record else str(i + 1)
                records[name] = {k: v for k, v in record.items() if k != "seat"}
            self.records(records, path)

    def bars(self, path: tuple[str, ...], names: list[str], values: list[float],
             errors: np.ndarray | None = None) -> None:
        if len(names) > MAX_BARS:
            return
        title = _words(path)
        self.charts.append(Chart(title, names, [title], np.array([values]), errors, path[-1].replace("_", " "),
                                 _is_rate(title, values), [self.colour(n) for n in names]))

    def records(self, records: dict[str, dict], path: tuple[str, ...]) -> None:
        """name -> {metric: number}: a chart per metric; name -> label -> {metric: number}: grouped bars."""
        if not records or len(records) > MAX_BARS:
            return
        inner = [v for record in records.values() for v in record.values()]
        if inner and all(isinstance(v, dict) for v in inner):
            self.grouped(records, path)
            return
        entries = list(records.values())
        for metric in _common_metrics(entries):
            values = [_value(record.get(metric)) for record in entries]
            errors = _errors(metric, entries, values)[:, None, :] if _has_errors(metric, entries) else None
            self.bars((*path, metric), list(records), values, errors)

    def grouped(self, records: dict[str, dict[str, dict]], path: tuple[str, ...]) -> None:
        series = list(dict.fromkeys(label for record in records.values() for label in record))
        cells = [cell for record in records.values() for cell in record.values()]
        for metric in _common_metrics(cells):
            values = np.array([[_value(records[g].get(s, {}).get(metric)) for g in records] for s in series])
            errors = None
            if _has_errors(metric, cells):
                errors = np.stack([_errors(metric, [records[g].get(s, {}) for g in records], values[i])
                                   for i, s in enumerate(series)], axis=1)
            title = _words((*path, metric))
            self.charts.append(Chart(title, list(records), series, values, errors, metric.replace("_", " "),
                                     _is_rate(metric, values), [self.colour(s) for s in series]))


def _is_error_key(key: str) -> bool:
    """An interval or standard error: drawn as error bars of its partner, never on its own."""
    return key in ("ci", "se") or key.endswith(("_ci", "_se"))


def _value(value) -> float:
    return float(value) if _is_number(value) else np.nan


def _common_metrics(records: list[dict]) -> list[str]:
    """Numeric keys found in at least half of the records (in first-seen order).

    Where the records hold fractional quantities (rates, means), whole-number fields
    are left out: they are counts that grow with the number of games, or fixed
    properties.
    """
    counts: dict[str, int] = {}
    fractional: set[str] = set()
    for record in records:
        for key, value in record.items():
            if _is_number(value) and not _is_error_key(key):
                counts[key] = counts.get(key, 0) + 1
                if isinstance(value, float):
                    fractional.add(key)
    common = [key for key, count in counts.items() if count * 2 >= len(records)]
    return [key for key in common if key in fractional] if fractional & set(common) else common


def _has_errors(metric: str, records: list[dict]) -> bool:
    return any(f"{metric}_ci" in r or f"{metric}_se" in r for r in records)


def _errors(metric: str, records: list[dict], values) -> np.ndarray:
    """[2, bars] distances below and above from ``<metric>_ci`` or ``<metric>_se`` (zero where missing)."""
    errors = np.zeros((2, len(records)))
    for i, (record, value) in enumerate(zip(records, values, strict=True)):
        interval = record.get(f"{metric}_ci")
        se = record.get(f"{metric}_se")
        if isinstance(interval, list) and len(interval) == 2 and all(_is_number(v) for v in interval):
            errors[:, i] = (value - interval[0], interval[1] - value)
        elif _is_number(se):
            errors[:, i] = Z95 * se
    return np.nan_to_num(errors)


def _show_number(key: str, value) -> str:
    if isinstance(value, int):
        return f"{value:,}"
    if ("rate" in key or "share" in key) and 0 <= value <= 1:
        return f"{value * 100:.2f}%"
    return format_number(value)


def draw_chart(ax, chart: Chart) -> None:
    """Plain bars for one series, grouped bars for several; error bars when known."""
    groups = np.arange(len(chart.groups))
    series = len(chart.series)
    width = 0.8 / series
    colour_per_bar = series == 1 and len(chart.colours) == len(chart.groups)
    for i, name in enumerate(chart.series):
        x = groups + (i - (series - 1) / 2) * width
        ax.bar(x, chart.values[i], width=width, color=chart.colours if colour_per_bar else chart.colours[i],
               label=None if colour_per_bar else name)
        if chart.errors is not None:
            ax.errorbar(x, chart.values[i], yerr=chart.errors[:, i], fmt="none", ecolor="black", capsize=2,
                        linewidth=0.8)
    long_names = max(len(g) for g in chart.groups) > 6 or len(chart.groups) > 8
    ax.set_xticks(groups, chart.groups, rotation=35 if long_names else 0, ha="right" if long_names else "center",
                  fontsize=7 if len(chart.groups) > 12 else 8)
    if chart.rate:
        percent_axis(ax, decimals=1)
    ax.set_ylabel(chart.ylabel + (" (%)" if chart.rate else ""))
    ax.set_title(chart.title, fontsize=10)
    if not colour_per_bar:
        ax.legend(fontsize=7)
    elif chart.errors is not None:
        ax.legend(handles=[ax.containers[-1]], labels=["95% interval"], fontsize=7)


def chart_pages(charts: list[Chart], title: str, name: str) -> list[Page]:
    """Charts four to a page, at most ``MAX_CHART_PAGES`` pages (the rest is named on the last page)."""
    pages = []
    shown = charts[:CHARTS_PER_PAGE * MAX_CHART_PAGES]
    left_out = len(charts) - len(shown)
    for start in range(0, len(shown), CHARTS_PER_PAGE):
        part = shown[start:start + CHARTS_PER_PAGE]
        columns = 1 if len(part) == 1 else 2
        rows = 1 if len(part) <= 2 else 2
        number = start // CHARTS_PER_PAGE + 1
        figure, axes = plot_page(title, None, rows, columns)
        for ax, chart in zip(axes, part, strict=False):
            draw_chart(ax, chart)
        for ax in axes[len(part):]:
            ax.set_visible(False)
        if left_out and start + CHARTS_PER_PAGE >= len(shown):
            figure.text(0.05, 0.02, f"{left_out} more charts of the game's statistics are in the JSON output "
                        f"(analyze simulate --json).", fontsize=8, color="#444444")
        figure.subplots_adjust(bottom=0.16, hspace=0.6)
        pages.append(Page(f"{name}-{number}", figure))
    return pages


def game_pages(result, palette: Palette) -> list[Page]:
    """The game's own pages, or pages drawn from its statistics when it has none."""
    own = result.spec.game.report_pages(result, palette)
    return stats_pages(result, palette) if own is None else own


def stats_pages(result, palette: Palette, skip: tuple[str, ...] = ()) -> list[Page]:
    """Pages for ``result``'s game statistics, leaving out the top-level keys in ``skip``
    (those a game draws on pages of its own)."""
    stats = {k: v for k, v in result.to_dict()["game_stats"].items() if k not in skip}
    walker = StatsWalker(result, palette)
    walker.walk(stats)
    title = f"{result.spec.game.title}: the game's own statistics"
    return chart_pages(walker.charts, title, "game-stats") + table_pages(
        "game-stats-table", title, ["statistic", "value"], [list(row) for row in walker.rows])
