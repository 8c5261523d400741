"""The pages of a report of several scenarios: the comparison's verdicts first, then the comparison
(the table, the seats, the differences, the component and per-item changes, the length), then a
short appendix of each scenario on its own (its seat table and its verdicts).

Every difference of a rate is in percentage points ("points"), as on every other page.
"""

from __future__ import annotations

import numpy as np

from analyzer.experiments import Comparison
from analyzer.experiments.comparison import MARK_NOTE
from analyzer.experiments.variant_verdicts import heading, says_unchanged
from analyzer.report import figures
from analyzer.report.document import Page
from analyzer.report.layout import table_pages
from analyzer.report.style import (
    ROW_HEIGHT,
    Palette,
    displayable,
    new_page,
    plot_page,
    table_axes,
    text_block,
    wrap,
)

#: rows of the verdict table per page, the page's height below its header (a fraction), and the line height of
#: the text under the table (what did not change, the action)
VERDICT_ROWS = 22
VERDICT_ROOM = 0.82
CLOSING_LINE = 0.028
CLOSING_WIDTH = 150
#: the metrics on the differences page: the seats and ties (lengths have their own page)
DIFFERENCE_PREFIXES = ("win_rate_seat_", "first_player_advantage", "tie_rate", "mean_score_seat_")
#: items drawn per panel of the component and per-item page, the largest differences first
MAX_ITEMS = 20
#: colours of a change significant after the control, and of one that is not
SIGNIFICANT, NOT_SIGNIFICANT = "#b2182b", "#9e9e9e"


def comparison_paragraphs(comparison: Comparison) -> list[str]:
    """How the comparison was measured, in a few sentences, and the pairing's measured gain."""
    paragraphs = [f"Every scenario played the same {comparison.n:,} games: game i started from the same random "
                  f"stream in each (common random numbers); the intervals of differences come from "
                  f"{len(comparison.runs[0].batch_values[0])} batches of consecutive games (batch means, Student "
                  f"t) and measure what chance remains.", comparison.method_text()]
    for j in range(1, len(comparison.runs)):
        remark = comparison.gain_remark(j)
        if remark:
            paragraphs.append(remark)
    return paragraphs


# -- the verdicts ---------------------------------------------------------------------------------

def verdict_pages(comparison: Comparison) -> list[Page]:
    """The significant changes as a ranked table (as many pages as it needs), then what did not change and
    the action, below the table's last rows."""
    variant = comparison.variant
    rows, ranked = [], 0
    for j in range(1, len(comparison.runs)):
        named = f"{comparison.names[j]}: " if len(comparison.runs) > 2 else ""
        for change in variant.changes(j):
            ranked += 1
            rows.append([str(ranked), named + change.title(), change.size_text(),
                         change.amount_with_unit(change.difference.value), change.interval_text()])
    closing = []
    actions = list(dict.fromkeys(v.action for v in comparison.verdicts if not says_unchanged(v)))
    closing += [f"Action: {action}" for action in actions]
    closing += [f"{v.title}: {v.text}" for v in comparison.verdicts if says_unchanged(v)]
    headers = ["", "change (first → variant)", "relative", "difference", "95% interval"]
    title = "The comparison's verdicts"
    subtitle = heading(comparison.names).removeprefix("The comparison's verdicts, ") + "."
    subtitle = subtitle[:1].upper() + subtitle[1:]
    parts = [rows[start:start + VERDICT_ROWS] for start in range(0, len(rows), VERDICT_ROWS)] or [[]]
    closing_height = CLOSING_LINE * sum(len(wrap(paragraph, CLOSING_WIDTH)) + 0.5 for paragraph in closing)
    if ROW_HEIGHT * (len(parts[-1]) + 1) + 0.03 + closing_height > VERDICT_ROOM:
        parts.append([])  # what did not change on a page of its own rather than off the page
    pages = []
    for number, part in enumerate(parts, start=1):
        suffix = f" ({number}/{len(parts)})" if len(parts) > 1 else ""
        figure = new_page(title + suffix, subtitle)
        top = figure.header_bottom - 0.02
        if part:
            height = ROW_HEIGHT * (len(part) + 1)
            table_axes(figure, headers, part, (0.05, top - height, 0.9, height), size=9, left_columns=2)
            top -= height + 0.03
        last = number == len(parts)
        if last:
            text_block(figure, closing, top=top, size=10, line_height=CLOSING_LINE, width=CLOSING_WIDTH)
        pages.append(Page("comparison-verdicts" + (f"-{number}" if number > 1 else ""), figure, plot=False,
                          title=title + suffix, paragraphs=([subtitle] if number == 1 else []) + (closing if last
                                                                                                   else []),
                          headers=headers if part else [], rows=[list(row) for row in part]))
    return pages


# -- the comparison ----------------------------------------------------------------------------------

def body_pages(comparison: Comparison, palette: Palette) -> list[Page]:
    """The table with how it was measured, the seats, the differences, the component and per-item
    changes, the length."""
    table = comparison.display_frame()
    note = " ".join([MARK_NOTE + ".", *comparison_paragraphs(comparison)])
    pages = table_pages("comparison-table", f"Every metric side by side ({len(comparison.runs)} scenarios)",
                        list(table.columns), table.values.tolist(), note=note)
    figure, (ax,) = plot_page("Win rate by seat and scenario")
    figures.plot_win_rates_compared(comparison, ax, palette)
    figure.subplots_adjust(right=0.8)
    pages.append(Page("comparison-win-rates", figure))
    pages.append(_differences_page(comparison, palette))
    items = _item_changes_page(comparison)
    if items is not None:
        pages.append(items)
    pages.append(_length_page(comparison, palette))
    return pages


def _differences_page(comparison: Comparison, palette: Palette) -> Page:
    groups: dict[str, list] = {}
    for metric in comparison.metrics:
        if metric.key.startswith(DIFFERENCE_PREFIXES):
            groups.setdefault(metric.kind + metric.unit, []).append(metric)
    figure, axes = plot_page(f"Differences to {comparison.names[0]} with 95% intervals",
                             "Win rates in percentage points; mean scores in the game's score unit.",
                             columns=len(groups))
    for ax, metrics in zip(axes, groups.values(), strict=True):
        figures.plot_differences(comparison, ax, metrics, palette)
    for ax in axes[:-1]:  # one legend, beside the last panel
        if ax.get_legend() is not None:
            ax.get_legend().remove()
    figure.subplots_adjust(left=0.17, wspace=0.6, right=0.8 if len(comparison.runs) > 2 else 0.95)
    return Page("comparison-differences", figure)


def _item_changes_page(comparison: Comparison) -> Page | None:
    """Each component's and each per-item rate's difference, side by side, one panel per quantity."""
    details = comparison.variant.details
    panels: dict[str, list] = {}
    for (detail, j), (_, _, difference, significant) in details.items():
        if difference.interval is not None:
            panels.setdefault(detail.what, []).append((detail, j, difference, significant))
    if not panels:
        return None
    shown = list(panels.items())[:6]
    columns = min(len(shown), 3)
    rows = -(-len(shown) // columns)
    several = len(comparison.runs) > 2
    figure, axes = plot_page("Component and per-item changes",
                             f"Difference to {comparison.names[0]} in percentage points with 95% intervals; red: "
                             f"significant after the false discovery rate control over these {len(details)} "
                             f"measures" + (f"; the {MAX_ITEMS} largest per panel" if any(
                                 len(p) > MAX_ITEMS for p in panels.values()) else "") + ".",
                             rows=rows, columns=columns)
    for ax, (what, entries) in zip(axes, shown, strict=False):
        entries = sorted(entries, key=lambda e: -abs(e[2].value))[:MAX_ITEMS]
        y = np.arange(len(entries))[::-1]
        values = np.array([e[2].value for e in entries]) * 100
        intervals = [[bound * 100 for bound in e[2].interval] for e in entries]
        colours = [SIGNIFICANT if e[3] else NOT_SIGNIFICANT for e in entries]
        errors = figures.error_bars(values, intervals)
        for row, value, low, high, colour in zip(y, values, errors[0], errors[1], colours, strict=True):
            ax.errorbar([value], [row], xerr=[[low], [high]], fmt="o", color=colour, capsize=3, markersize=4)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.margins(x=0.08)
        labels = [(f"{comparison.names[e[1]]}: " if several else "") + e[0].item for e in entries]
        ax.set_yticks(y, [displayable(label) for label in labels], fontsize=8)
        ax.set_ylim(-0.7, len(entries) - 0.3)
        ax.set_title(displayable(what), fontsize=10)
        ax.set_xlabel("difference (points)", fontsize=9)
        ax.tick_params(axis="x", labelsize=8)
    for ax in axes[len(shown):]:
        ax.set_visible(False)
    # the items' names differ in length from game to game: the layout makes room for them, below the header
    figure.set_layout_engine("constrained", w_pad=0.15, wspace=0.08, hspace=0.08,
                             rect=(0.02, 0.02, 0.96, figure.header_bottom - 0.04))
    return Page("comparison-items", figure)


def _length_page(comparison: Comparison, palette: Palette) -> Page:
    units = comparison.game.length_units
    said = []
    for unit in units:
        key = f"mean_length_{unit}"
        metric = next(m for m in comparison.metrics if m.key == key)
        for j in range(1, len(comparison.runs)):
            d = comparison.differences[(key, j)]
            interval = f", 95% interval {metric.show_interval(d.interval, signed=True)}" if d.interval else ""
            said.append(f"mean {metric.show(comparison.runs[0].values[key])} → "
                        f"{metric.show(comparison.runs[j].values[key])} {unit} ({metric.show_difference(d.value)}"
                        f"{interval})")
    figure, axes = plot_page("Game length by scenario", "; ".join(said) + ".", columns=len(units))
    for ax, unit in zip(axes, units, strict=True):
        figures.plot_length_distributions(comparison, ax, unit, palette)
    return Page("comparison-lengths", figure)


# -- the appendix -------------------------------------------------------------------------------------

def appendix_pages(comparison: Comparison, verdicts: list, played: list[str]) -> list[Page]:
    """Each scenario on its own: the seat tables in one, then each scenario's verdicts."""
    from analyzer.report.verdict_page import verdict_pages as scenario_verdict_pages

    headers, rows = None, []
    for name, run in zip(comparison.names, comparison.runs, strict=True):
        frame = run.result.seat_frame().astype(str)
        headers = ["scenario", *frame.columns]
        rows += [[name, *row] for row in frame.values.tolist()]
    pages = table_pages("appendix-seats", "Appendix: each scenario on its own: win rate by seat", headers, rows,
                        note="Each scenario's own verdicts follow, most important first, as a report of that "
                             "scenario alone would give them.", left_columns=3)
    return pages + scenario_verdict_pages(comparison.names, verdicts, played,
                                          decisions=comparison.game.has_decisions)
