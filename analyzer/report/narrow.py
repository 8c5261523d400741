"""A report figure laid out again for a narrow screen (the HTML report on a phone).

A page's figure is drawn for an A4 page; shown 400 px wide its text would shrink to 4 CSS
pixels. For the HTML report the same figure is drawn a second time, NARROW_WIDTH inches
wide: its charts one below the other (a chart and its twin axes stay together), every text
at least SMALLEST_TEXT points, a line too wide for the figure broken between words, a legend
in as many columns as fit, and the layout left to matplotlib's constrained layout. The
figure's own texts outside its charts (title, subtitle, notes) are taken out: the HTML shows
them as text, which reflows. Shown at the width of a 400 px screen, a point of this figure
is at least NARROW_SCALE CSS pixels, so its smallest text is at least 10 CSS pixels.
"""

from __future__ import annotations

from matplotlib.gridspec import GridSpec
from matplotlib.offsetbox import VPacker
from matplotlib.text import Text
from matplotlib.ticker import FixedFormatter, FixedLocator, MaxNLocator

#: the narrow figure's width (inches): 324 points
NARROW_WIDTH = 4.5
#: CSS pixels per point of the narrow figure at its narrowest: shown 341 px wide (a 400 px screen
#: less the page's margins and a scroll bar)
NARROW_SCALE = 341 / (NARROW_WIDTH * 72)
#: the smallest text of the narrow figure (points): 10 CSS pixels at NARROW_SCALE
SMALLEST_TEXT = 10 / NARROW_SCALE
#: the share of the figure's width a line of text may take
LINE_ROOM = 0.94
#: a tick label longer than this share of the width is broken into lines
TICK_LABEL_ROOM = 0.4
#: how many times at most the charts are laid out again after their lines were broken to fit
LAYOUT_PASSES = 3
#: the height of a chart (inches) without its title, legend and notes, and per category it lists
CHART_HEIGHT = 2.4
CATEGORY_HEIGHT = 0.24


def narrow_layout(figure) -> list[str]:
    """Lay ``figure`` out for a narrow screen, in place; returns the texts taken out of it (its
    subtitle and notes, not its title), in reading order, for the HTML to show."""
    renderer = figure.canvas.get_renderer()
    taken = _take_figure_texts(figure)
    charts = _charts(figure)
    figure.set_size_inches(NARROW_WIDTH, 1.0)  # widths are measured against the narrow width
    for axes in charts:
        for ax in axes:
            _floor_fonts(ax)
            _break_tick_labels(ax, TICK_LABEL_ROOM * figure.bbox.width, renderer)
    widest = LINE_ROOM * figure.bbox.width
    _arrange(figure, charts, [widest] * len(charts), renderer)
    figure.draw_without_rendering()  # where the charts stand: a title or legend centred on one fits around it
    for ax in (ax for axes in charts for ax in axes):
        _thin_number_ticks(ax, renderer)
    for _ in range(LAYOUT_PASSES):  # breaking a line moves the charts: until every line fits where they stand
        if not _arrange(figure, charts, [min(widest, _centred_room(figure, axes)) for axes in charts], renderer):
            break
        figure.draw_without_rendering()
    return taken


def _arrange(figure, charts: list[list], rooms: list[float], renderer) -> bool:
    """Break the charts' lines and legends to their ``rooms`` (pixels); the charts one below the
    other, each as high as it needs, in a constrained layout. Whether a line or legend changed."""
    before = _lines(figure)
    heights = []
    for axes, room in zip(charts, rooms, strict=True):
        above = 0.0
        for ax in axes:
            for text in _texts(ax):  # a title on the left runs from the chart's left edge
                flush_left = text is ax._left_title
                _break_lines(text, min(room, (1 - ax.get_position().x0) * figure.bbox.width) if flush_left else room,
                             renderer)
            legend_height = _fit_legend(ax, room, renderer)
            _title_room(ax, legend_height, renderer)
            above = max(above, legend_height)
        categories = max(_categories(ax) + _table_lines(ax, room, renderer) for ax in axes)
        decorations = sum(_height(text, renderer) for ax in axes for text in _texts(ax)) + max(
            _named_tick_height(ax, renderer) for ax in axes)
        heights.append(max(CHART_HEIGHT, CATEGORY_HEIGHT * categories) + (above + decorations) / figure.dpi + 0.3)
    grid = GridSpec(len(charts), 1, figure=figure, height_ratios=heights)
    for row, axes in enumerate(charts):
        for ax in axes:
            ax.set_subplotspec(grid[row, 0])
    figure.set_size_inches(NARROW_WIDTH, sum(heights))
    figure.set_layout_engine("constrained", h_pad=0.06, w_pad=0.04, hspace=0.04)
    return _lines(figure) != before


def _lines(figure) -> list:
    """What breaking lines and legends changes: every chart text and the legends' columns."""
    return [[text.get_text() for text in _texts(ax)] + [getattr(ax.get_legend(), "_ncols", 0)]
            for ax in figure.axes]


def _centred_room(figure, axes: list) -> float:
    """The widest line (pixels) centred on the charts that stays inside the figure."""
    left = min(ax.get_position().x0 for ax in axes) * figure.bbox.width
    right = max(ax.get_position().x1 for ax in axes) * figure.bbox.width
    return right - left + 2 * min(left, figure.bbox.width - right)


def _take_figure_texts(figure) -> list[str]:
    """Hide the figure's own texts (outside any chart); the ones other than its title, top to bottom."""
    taken = []
    for text in sorted(figure.texts, key=lambda t: -t.get_position()[1]):
        if text.get_visible() and text.get_text().strip():
            if text is not figure._suptitle:
                taken.append(" ".join(text.get_text().replace("\\$", "$").split()))
            text.set_visible(False)
    return taken


def _charts(figure) -> list[list]:
    """The figure's axes, grouped by the grid cell they share (twins stay together), in reading order;
    an axes placed by hand (a table) after them."""
    cells: dict[tuple, list] = {}
    placed = []
    for ax in figure.axes:
        spec = ax.get_subplotspec()
        if spec is None:
            placed.append([ax])
        else:
            cell = (spec.rowspan.start, spec.colspan.start, spec.rowspan.stop, spec.colspan.stop)
            cells.setdefault(cell, []).append(ax)
    return [cells[key] for key in sorted(cells)] + placed


def _floor_fonts(ax) -> None:
    """Every text of the chart (ticks, labels, legend, notes, table cells) at least SMALLEST_TEXT points."""
    for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
        labels = axis.get_ticklabels()
        if labels:
            ax.tick_params(axis=name, which="both", labelsize=max(SMALLEST_TEXT, labels[0].get_fontsize()))
    for text in ax.findobj(Text):
        if text.get_fontsize() < SMALLEST_TEXT:
            text.set_fontsize(SMALLEST_TEXT)
    for table in ax.tables:
        size = min(cell.get_text().get_fontsize() for cell in table.get_celld().values())
        table.set_fontsize(max(SMALLEST_TEXT, size))


def _texts(ax) -> list:
    """The chart's texts that may run across it: its titles, x label and notes above it."""
    titles = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label]
    above = [text for text in ax.texts if text.get_transform() == ax.transAxes and text.get_position()[1] >= 1]
    return [text for text in titles + above if text.get_visible() and text.get_text().strip()]


def _break_lines(text, room: float, renderer) -> None:
    """Each line of ``text`` wider than ``room`` (pixels) broken between words."""
    lines = []
    for line in text.get_text().split("\n"):
        lines.extend(_words_in_lines(line, text, room, renderer))
    text.set_text("\n".join(lines))


def _words_in_lines(line: str, text, room: float, renderer) -> list[str]:
    def width(candidate: str) -> float:
        return renderer.get_text_width_height_descent(candidate, text.get_fontproperties(), ismath=False)[0]

    if width(line) <= room:
        return [line]
    lines: list[str] = []
    for word in line.split(" "):
        if lines and width(f"{lines[-1]} {word}") <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _break_tick_labels(ax, room: float, renderer) -> None:
    """Named ticks (categories) longer than ``room`` (pixels) in several lines."""
    for axis in (ax.xaxis, ax.yaxis):
        shown = axis.get_ticklabels()
        if isinstance(axis.get_major_locator(), FixedLocator) and shown:
            labels = axis.get_major_formatter().format_ticks(axis.get_majorticklocs())
            axis.set_major_formatter(FixedFormatter(["\n".join(
                broken for line in label.split("\n") for broken in _words_in_lines(line, shown[0], room, renderer))
                for label in labels]))


def _fit_legend(ax, room: float, renderer) -> float:
    """The chart's legend in as many columns as fit ``room`` (pixels), a long entry in several lines;
    returns its height (pixels) when it stands above the chart (the title then stands above it), else 0."""
    legend = ax.get_legend()
    if legend is None:
        return 0.0
    for text in legend.texts:
        _break_lines(text, room * 0.8, renderer)
    while legend._ncols > 1 and legend.get_window_extent(renderer).width > room:
        _set_columns(legend, legend._ncols - 1)
    anchor = legend.get_bbox_to_anchor().transformed(ax.transAxes.inverted())
    return legend.get_window_extent(renderer).height if anchor.y0 >= 1 else 0.0


def _set_columns(legend, columns: int) -> None:
    """The legend's entries (as packed when it was made) in ``columns`` columns."""
    box = legend._legend_handle_box
    entries = [entry for column in box.get_children() for entry in column.get_children()]
    per_column = -(-len(entries) // columns)
    box._children = [VPacker(pad=0, sep=legend.labelspacing * legend._fontsize, align="baseline",
                             children=entries[start:start + per_column])
                     for start in range(0, len(entries), per_column)]
    legend._ncols = columns
    legend._legend_box.set_figure(legend.get_figure(root=False))


def _title_room(ax, legend_height: float, renderer) -> None:
    """The chart's title above the legend and the notes that stand above the chart, not over them."""
    notes = [text for text in _texts(ax) if text in ax.texts]
    below_title = legend_height + sum(_height(text, renderer) for text in notes)
    if below_title and ax.get_title():
        ax.set_title(ax.get_title(), pad=below_title * 72 / ax.figure.dpi + 4, fontsize=ax.title.get_fontsize(),
                     fontweight=ax.title.get_fontweight())


def _height(text, renderer) -> float:
    return text.get_window_extent(renderer).height


def _thin_number_ticks(ax, renderer) -> None:
    """Fewer numbered ticks along the bottom where their labels would touch at the narrow width."""
    locator = ax.xaxis.get_major_locator()
    labels = [label for label in ax.xaxis.get_ticklabels() if label.get_text()]
    if not isinstance(locator, MaxNLocator) or len(labels) < 3:
        return
    widest = max(label.get_window_extent(renderer).width for label in labels)
    room = ax.get_window_extent(renderer).width
    if widest * len(labels) * 1.4 > room:
        locator.set_params(nbins=max(2, int(room // (widest * 1.6))))


def _table_lines(ax, room: float, renderer) -> int:
    """A table's cells broken into lines to fit ``room`` (pixels), each row as high as its lines;
    returns the table's lines."""
    lines = 0
    for table in ax.tables:
        cells = table.get_celld()
        columns = 1 + max(column for _, column in cells)
        rows: dict[int, int] = {}
        for (row, _), cell in cells.items():
            text = cell.get_text()
            words = " ".join(text.get_text().split("\n"))  # as broken for a wider room before
            text.set_text("\n".join(_words_in_lines(words, text, room / columns, renderer)))
            rows[row] = max(rows.get(row, 1), text.get_text().count("\n") + 1)
        lines += sum(rows.values())
        for (row, _), cell in cells.items():
            cell.set_height(rows[row] / sum(rows.values()))
    return lines


def _named_tick_height(ax, renderer) -> float:
    """The height (pixels) of the chart's named ticks along its bottom (categories, maybe slanted)."""
    if not isinstance(ax.xaxis.get_major_locator(), FixedLocator):
        return 0.0
    return max((_height(label, renderer) for label in ax.xaxis.get_ticklabels()), default=0.0)


def _categories(ax) -> int:
    """How many named ticks (categories, one line each) the chart lists down its side."""
    if not isinstance(ax.yaxis.get_major_locator(), FixedLocator):
        return 0
    return sum(label.get_text().count("\n") + 1 for label in ax.yaxis.get_ticklabels())
