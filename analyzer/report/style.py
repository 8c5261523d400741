"""Matplotlib set-up for every report page: the Agg backend, fonts, page size and colours.

Importing this module imports matplotlib, so only report code paths import it.
"""

from __future__ import annotations

import functools
import logging
import unicodedata
import warnings

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only, never a display

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import Formatter  # noqa: E402

#: A4 landscape, in inches
PAGE_SIZE = (11.69, 8.27)
#: characters per line of running text on a page
TEXT_WIDTH = 120
#: height of one table row, as a fraction of the page
ROW_HEIGHT = 0.033

plt.rcParams.update({
    "pdf.fonttype": 42,  # TrueType: text in the PDF stays text (searchable, extractable)
    # matplotlib sizes the PDF's font subsets by this one: at 42 a font's characters beyond the first
    # 256 (a dash, a minus, a plus-minus) join its one subset rather than a second embedding of the
    # font (each embedding parses the font file again: a report took 6% less time, the same text)
    "ps.fonttype": 42,
    "svg.fonttype": "none",
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
})

# Text the font cannot draw is escaped before it reaches matplotlib (see ``displayable``); should any
# still slip through, matplotlib's complaint about it stays out of the terminal.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
logging.getLogger("matplotlib.mathtext").setLevel(logging.ERROR)

# seat k is SEAT_COLOURS[k - 1] on every page (tab10, then two more for 11 and 12 players)
SEAT_COLOURS = [*plt.get_cmap("tab10").colors, (0.22, 0.23, 0.47), (0.39, 0.47, 0.22)]
STRATEGY_COLOURS = list(plt.get_cmap("Dark2").colors)
SCENARIO_COLOURS = list(plt.get_cmap("Set1").colors)
NEUTRAL = "#5a6b7b"
FAIR_LINE = {"color": "black", "linestyle": "--", "linewidth": 1}


class Palette:
    """The colours of one report: seats by number, strategies and scenarios by first appearance."""

    def __init__(self, strategies=(), scenarios=()):
        self._strategies: dict[str, int] = {}
        self._scenarios: dict[str, int] = {}
        for label in strategies:
            self.strategy(label)
        for name in scenarios:
            self.scenario(name)

    @classmethod
    def for_result(cls, result) -> Palette:
        return cls(strategies=[seat.label for seat in result.spec.seats])

    @staticmethod
    def seat(seat: int):
        """Seat ``seat`` (1-based)."""
        return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]

    def strategy(self, label: str):
        index = self._strategies.setdefault(label, len(self._strategies))
        return STRATEGY_COLOURS[index % len(STRATEGY_COLOURS)]

    def scenario(self, name: str):
        index = self._scenarios.setdefault(name, len(self._scenarios))
        return SCENARIO_COLOURS[index % len(SCENARIO_COLOURS)]


def legend_above(ax, columns: int, size: float | None = None) -> None:
    """The legend in one row between the axes' title and its plot (give the title ``pad`` room), never over
    the data."""
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=columns, frameon=False, fontsize=size,
              borderaxespad=0.2)


class NumberFormatter(Formatter):
    """Tick values with thousands separators (``105,000``) and as many decimals as they need (``0.25``)."""

    decimals = 0

    def __call__(self, value, pos=None) -> str:
        shown = f"{value:,.{self.decimals}f}"
        return "0" if shown.strip("-0.,") == "" else shown.replace("-", "\u2212")

    def format_ticks(self, values) -> list[str]:
        values = np.asarray(values, dtype=float)
        scale = np.maximum(np.abs(values), 1.0) * 1e-9
        self.decimals = next((d for d in range(7) if np.all(np.abs(np.round(values, d) - values) <= scale)), 6)
        return [self(value) for value in values]


class PercentFormatter(Formatter):
    """Proportions as percentages with at least ``decimals`` decimals, and as many more as it takes
    for no two ticks to read the same."""

    def __init__(self, decimals: int = 0):
        self.minimum = self.decimals = decimals

    def __call__(self, value, pos=None) -> str:
        return f"{value * 100:.{self.decimals}f}%"

    def format_ticks(self, values) -> list[str]:
        self.decimals = self.minimum
        labels = [self(value) for value in values]
        while len(set(labels)) < len(labels) and self.decimals < self.minimum + 4:
            self.decimals += 1
            labels = [self(value) for value in values]
        return labels


def percent_axis(ax, axis: str = "y", decimals: int = 0) -> None:
    """Show proportions on ``axis`` as percentages (more decimals where ticks would read the same)."""
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(decimals))


@functools.cache
def _font_characters() -> frozenset[int]:
    """The code points the report's font (DejaVu Sans) can draw."""
    from matplotlib import font_manager, ft2font

    return frozenset(ft2font.FT2Font(font_manager.findfont("DejaVu Sans")).get_charmap())


def _invisible(char: str) -> bool:
    """A format or control character, or a variation selector: drawn as nothing, so shown escaped."""
    return unicodedata.category(char)[0] == "C" or 0xFE00 <= ord(char) <= 0xFE0F


def displayable(text: str) -> str:
    """``text`` with every character the font cannot draw (CJK, emoji, ...) written as its
    code point (``\\u6d77``), never as an empty box; so are invisible characters (zero-width
    joiners, variation selectors). Mathtext is switched off by escaping ``$``."""
    text = str(text)
    characters = _font_characters()
    out = []
    for char in text:
        point = ord(char)
        if char == "$":
            out.append("\\$")
        elif char in "\n\t" or (point in characters and not _invisible(char)):
            out.append(char)
        else:
            out.append(f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}")
    return "".join(out)


#: the share of the page's width a title or subtitle line may take (from its left margin at 0.05)
LINE_WIDTH = 0.92


def fit_lines(text: str, size: float, bold: bool = False, width: float = LINE_WIDTH) -> list[str]:
    """``text`` broken between words into lines no wider than ``width`` of the page, measured in
    the report's font at ``size`` points (a word longer than a line keeps a line of its own)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    measure = TextToPath()
    font = FontProperties(family="DejaVu Sans", size=size, weight="bold" if bold else "normal")
    room = width * PAGE_SIZE[0] * 72  # points

    def fits(line: str) -> bool:
        return measure.get_text_width_height_descent(line, font, ismath=False)[0] <= room

    lines: list[str] = []
    for word in text.split(" "):
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines or [""]


def new_page(title: str | None = None, subtitle: str | None = None) -> object:
    """An empty page-sized figure with an optional title and subtitle, each wrapped to the
    page's width; ``figure.header_bottom`` is the height (figure fraction) where they end."""
    figure = plt.figure(figsize=PAGE_SIZE)
    y = 0.97
    if title:
        lines = fit_lines(displayable(title), 15, bold=True)
        figure.suptitle("\n".join(lines), fontsize=15, fontweight="bold", x=0.05, ha="left", va="top", y=y)
        y -= 0.035 * len(lines) + 0.01
    if subtitle:
        lines = fit_lines(displayable(subtitle), 10)
        figure.text(0.05, y, "\n".join(lines), fontsize=10, color="#444444", ha="left", va="top")
        y -= 0.022 * len(lines) + 0.01
    figure.header_bottom = y
    return figure


def plot_page(title: str, subtitle: str | None = None, rows: int = 1, columns: int = 1):
    """A page with a grid of axes below its title; returns (figure, flat list of axes)."""
    figure = new_page(title, subtitle)
    axes = figure.subplots(rows, columns, squeeze=False).ravel().tolist()
    for ax in axes:  # numbers with separators unless a chart formats its axis otherwise
        ax.xaxis.set_major_formatter(NumberFormatter())
        ax.yaxis.set_major_formatter(NumberFormatter())
    figure.subplots_adjust(left=0.08, right=0.95, top=min(0.89, figure.header_bottom - 0.04), bottom=0.1,
                           hspace=0.45, wspace=0.25)
    return figure, axes


def wrap(paragraph: str, width: int = TEXT_WIDTH) -> list[str]:
    """``paragraph`` in lines of ``width`` characters, broken at spaces only: a name, a path or a
    command is never split (see :mod:`analyzer.wrapping`)."""
    from analyzer.wrapping import wrap as wrap_text

    return wrap_text(paragraph, width) or [""]


def text_block(figure, paragraphs: list[str], top: float = 0.86, size: float = 11, line_height: float = 0.032,
               left: float = 0.05, width: int = TEXT_WIDTH) -> float:
    """Write paragraphs down the page from ``top``; returns the height reached."""
    y = top
    for paragraph in paragraphs:
        for line in wrap(displayable(paragraph), width):
            figure.text(left, y, line, fontsize=size, ha="left", va="top")
            y -= line_height
        y -= line_height * 0.5
    return y


def table_axes(figure, headers: list[str], rows: list[list[str]], box: tuple[float, float, float, float],
               size: float = 9, left_columns: int = 1):
    """A table drawn in ``box`` (left, bottom, width, height in figure fractions); the first
    ``left_columns`` columns left-aligned, the others right-aligned."""
    from matplotlib.table import Table

    ax = figure.add_axes(box)
    ax.axis("off")
    table = Table(ax, loc="upper center")
    height = 1.0 / (len(rows) + 1)
    for r, cells in enumerate([headers, *rows]):
        for c, text in enumerate(cells):
            cell = table.add_cell(r, c, width=0.1, height=height, text=displayable(text),
                                  loc="left" if c < left_columns else "right",
                                  edgecolor="#cccccc", facecolor="#eeeeee" if r == 0 else "white")
            if r == 0:
                cell.set_text_props(fontweight="bold")
    table.auto_set_font_size(False)
    table.set_fontsize(size)
    table.auto_set_column_width(list(range(len(headers))))
    ax.add_table(table)
    _fit_width(figure, ax, table, size)
    return ax


#: the smallest type a table is set in to fit its box
SMALLEST_TABLE_TYPE = 6


def _fit_width(figure, ax, table, size: float) -> None:
    """A table wider than its box (its columns take their texts' widths) set in smaller type until it fits,
    never into the page's margins."""
    renderer = figure.canvas.get_renderer()
    while size > SMALLEST_TABLE_TYPE:
        table._update_positions(renderer)  # the columns' widths from their texts, as drawing sets them
        if table.get_window_extent(renderer).width <= ax.bbox.width:
            return
        size -= 0.5
        table.set_fontsize(size)
