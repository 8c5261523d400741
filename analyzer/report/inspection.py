"""Flaws of a drawn page, found from matplotlib's own layout (no image is compared).

:func:`page_flaws` draws a figure without rendering it and reads where matplotlib put every
text and every axis: text outside the page or in its side margins, two texts over each other, a text on a bar in a
colour that does not stand out from it, a legend over the data, an axis that shows a tick
label twice or runs well past its data (its labels count as data), a chart whose every value
is zero or missing.
The report's page test runs it on every page of every report, so a chart added later meets
it without being listed.
"""

from __future__ import annotations

import math
import re

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.legend import Legend
from matplotlib.patches import StepPatch
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: pixels (at the figure's dpi) two texts may share, or one may stick out of the page
OVERLAP_PIXELS = 2.0
#: the page's left and right margins (share of its width) that no text enters
SIDE_MARGIN = 0.01
#: the share of an axis's span it may run past its data at either end
SLACK = 0.12
#: a tick label that is a number (a percentage, a factor), not a name
NUMBER = re.compile(r"[-+\u2212]?[\d,.]+(e[-+\u2212]?\d+)?\s*[%×]?")
#: the least contrast (WCAG ratio, as for body text) of a text drawn on a bar against the bar's colour
MIN_CONTRAST = 4.5


def page_flaws(figure) -> list[str]:
    """Every flaw of ``figure``'s layout, in words (empty: the page is clean)."""
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    texts = [(text, _outline(text, renderer)) for text in _shown_texts(figure)]
    flaws = []
    width, height = figure.bbox.width, figure.bbox.height
    side = SIDE_MARGIN * width
    for text, corners in texts:
        low, high = corners.min(axis=0), corners.max(axis=0)
        if low[0] < side - OVERLAP_PIXELS or low[1] < -OVERLAP_PIXELS or high[0] > width - side + OVERLAP_PIXELS \
                or high[1] > height + OVERLAP_PIXELS:
            flaws.append(f"text outside the page's margins: {_said(text)}")
    for i, (first, a) in enumerate(texts):
        for second, b in texts[i + 1:]:
            if _overlap(a, b) > OVERLAP_PIXELS:
                flaws.append(f"texts over each other: {_said(first)} and {_said(second)}")
    for ax in figure.axes:
        if ax.get_visible() and ax.axison:
            labels = [(text, corners) for text, corners in texts if _in_plot(ax, text, corners)]
            flaws += _axes_flaws(ax, labels, renderer)
    return flaws


def _in_plot(ax: Axes, text: Text, corners: np.ndarray) -> bool:
    """A text the axes draws in its plotting area (a label of its data), not its title, axis labels or ticks."""
    if text.axes is not ax or text in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
        return False
    if any(text is entry for legend in ax.get_children() if isinstance(legend, Legend)
           for entry in [*legend.get_texts(), legend.get_title()]):
        return False
    x, y = corners.mean(axis=0)
    return bool(ax.bbox.contains(x, y)) and not any(
        text is label for axis in ax._axis_map.values()
        for tick in axis.get_major_ticks() + axis.get_minor_ticks() for label in (tick.label1, tick.label2))


def _said(text: Text) -> str:
    words = " ".join(text.get_text().split())
    return repr(words if len(words) <= 60 else words[:57] + "...")


def _visible(artist) -> bool:
    while artist is not None:
        if not artist.get_visible():
            return False
        artist = getattr(artist, "axes", None) if artist is not getattr(artist, "axes", None) else None
    return True


def _shown_texts(figure) -> list[Text]:
    """The texts matplotlib draws: visible, not empty, tick labels only of ticks in view."""
    ticks = {id(label) for ax in figure.axes for axis in ax._axis_map.values()
             for tick in axis.get_major_ticks() + axis.get_minor_ticks() for label in (tick.label1, tick.label2)}
    shown = [label for ax in figure.axes if ax.get_visible() and ax.axison
             for axis in ax._axis_map.values() for label in _tick_labels(axis)]
    for text in figure.findobj(Text):
        if id(text) in ticks or not text.get_text().strip() or not text.get_visible():
            continue
        if text.axes is not None and not text.axes.get_visible():
            continue
        clipped = text.get_clip_on() and (text.get_clip_box() is not None or text.get_clip_path() is not None)
        if clipped and text.axes is not None and not _inside_axes(text):
            continue
        shown.append(text)
    return shown


def _inside_axes(text: Text) -> bool:
    """A clipped text (a bar's label) is drawn only where its anchor lies in its axes."""
    x, y = text.get_transform().transform(text.get_position())
    return text.axes.bbox.contains(x, y)


def _tick_labels(axis) -> list[Text]:
    """The labels of the ticks drawn: those in the axis's view, with text."""
    if not axis.get_visible():
        return []
    low, high = sorted(axis.get_view_interval())
    span = (high - low) * 1e-9
    labels = []
    for tick in axis._update_ticks():
        if not low - span <= tick.get_loc() <= high + span:
            continue
        for label in (tick.label1, tick.label2):
            if label.get_visible() and label.get_text().strip():
                labels.append(label)
    return labels


def _outline(text: Text, renderer) -> np.ndarray:
    """The four corners of the text's box on the page (turned with the text when it is rotated)."""
    box = text.get_window_extent(renderer)
    angle = math.radians(text.get_rotation() % 180)
    if abs(math.sin(angle)) < 1e-6 or not text.get_text().strip():
        return np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]])
    rotation = text.get_rotation()
    text.set_rotation(0)
    flat = text.get_window_extent(renderer)
    text.set_rotation(rotation)
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [flat.width / 2, flat.height / 2]
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    return half @ turn.T + [cx, cy]


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """How far two convex outlines reach into each other (0: apart), by separating axes."""
    depth = math.inf
    for corners in (a, b):
        for k in range(4):
            edge = corners[(k + 1) % 4] - corners[k]
            normal = np.array([-edge[1], edge[0]])
            length = float(np.hypot(*normal))
            if length == 0:
                continue
            normal /= length
            pa, pb = a @ normal, b @ normal
            depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
            if depth <= 0:
                return 0.0
    return 0.0 if depth is math.inf else float(depth)


def _axes_flaws(ax: Axes, labels: list, renderer) -> list[str]:
    flaws = []
    name = repr(ax.get_title() or ax.get_ylabel() or ax.get_xlabel() or "a chart")
    bars = [patch for container in ax.containers if isinstance(container, BarContainer)
            for patch in container.patches if patch.get_visible()]
    in_data = [corners for _, corners in labels]
    for letter, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
        said = [label.get_text() for label in _tick_labels(axis)]
        twice = sorted({s for s in said if said.count(s) > 1})
        if twice:
            flaws.append(f"{name}: the {letter} axis shows {', '.join(twice)} twice")
        if said and all(NUMBER.fullmatch(label.strip()) for label in said):  # names (one row each): no scale
            past = _past_data(ax, letter, in_data)
            if past:
                flaws.append(f"{name}: the {letter} axis runs {past:.0%} past its data")
    for text, corners in labels:
        for patch in bars:
            box = patch.get_window_extent(renderer)
            if _overlap(corners, _corners(box)) > OVERLAP_PIXELS \
                    and _contrast(text.get_color(), patch.get_facecolor()) < MIN_CONTRAST:
                flaws.append(f"{name}: {_said(text)} is drawn on a bar it does not stand out from")
                break
    for legend in [child for child in ax.get_children() if isinstance(child, Legend) and child.get_visible()]:
        if _covers_data(ax, legend.get_window_extent(renderer), bars, renderer):
            flaws.append(f"{name}: the legend lies over the data")
    values = _data_values(ax)
    if values is None:
        flaws.append(f"{name}: the chart draws no data")
    elif not np.any(np.nan_to_num(values) != 0):
        flaws.append(f"{name}: every value is zero or missing")
    return flaws


def _corners(box) -> np.ndarray:
    return np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]])


def _luminance(colour) -> float:
    channels = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def _contrast(first, second) -> float:
    """The WCAG contrast ratio of two colours (1: the same, 21: black on white)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _covers_data(ax: Axes, box: Bbox, bars: list, renderer) -> bool:
    """A legend's box holds a plotted point or reaches into a bar (beyond the overlap tolerance)."""
    inner = Bbox.from_extents(box.x0 + OVERLAP_PIXELS, box.y0 + OVERLAP_PIXELS, box.x1 - OVERLAP_PIXELS,
                              box.y1 - OVERLAP_PIXELS)
    for patch in bars:
        if patch.get_height() != 0 and patch.get_width() != 0 \
                and inner.overlaps(patch.get_window_extent(renderer)):
            return True
    for line in ax.lines:
        if line.get_transform() != ax.transData or not line.get_visible():
            continue
        points = line.get_transform().transform(np.column_stack([line.get_xdata(orig=False),
                                                                 line.get_ydata(orig=False)]).astype(float))
        points = points[np.all(np.isfinite(points), axis=1)]
        if _holds(inner, points):
            return True
        if line.get_linestyle() not in ("None", "", " ") and any(  # the line between its points
                _segment_meets(inner, points[k:k + 2]) for k in range(len(points) - 1)):
            return True
    for collection in ax.collections:  # error bars
        if collection.get_transform() != ax.transData:
            continue
        for segment in collection.get_segments() if hasattr(collection, "get_segments") else []:
            points = ax.transData.transform(np.asarray(segment, dtype=float))
            if len(points) == 2 and _segment_meets(inner, points):
                return True
    return False


def _holds(box: Bbox, points: np.ndarray) -> bool:
    return bool(np.any((points[:, 0] > box.x0) & (points[:, 0] < box.x1) & (points[:, 1] > box.y0)
                       & (points[:, 1] < box.y1)))


def _segment_meets(box: Bbox, points: np.ndarray) -> bool:
    """A straight segment (an error bar) passes through the box (sampled along its length)."""
    steps = np.linspace(0, 1, 25)[:, None]
    return _holds(box, points[0] + steps * (points[1] - points[0]))


def _past_data(ax: Axes, letter: str, labels: list) -> float:
    """How far (share of the axis's span, in its scale) the view runs past the data (and the labels
    drawn at data points) at its farther end."""
    axis = ax.xaxis if letter == "x" else ax.yaxis
    data = np.array(ax.dataLim.intervalx if letter == "x" else ax.dataLim.intervaly, dtype=float)
    if not np.all(np.isfinite(data)):
        return 0.0
    column = 0 if letter == "x" else 1
    for corners in labels:  # a label at a bar's end is part of what the axis must hold
        ends = ax.transData.inverted().transform(corners)[:, column]
        data = np.array([min(data[0], ends.min()), max(data[1], ends.max())])
    scale = axis.get_transform()
    low, high = sorted(scale.transform(np.asarray(axis.get_view_interval(), dtype=float)))
    with np.errstate(divide="ignore", invalid="ignore"):
        ends = scale.transform(np.asarray(data, dtype=float))
    first, last = sorted(np.where(np.isfinite(ends), ends, [low, high]))  # a bar from 0 on a log axis
    span = high - low
    if not span > 0 or last < first:
        return 0.0
    past = max(first - low, high - last) / span
    return past if past > SLACK else 0.0


def _data_values(ax: Axes):
    """The values the axes plots (bar lengths, points of its lines), or None when it plots none."""
    values, counted = [], set()
    for container in ax.containers:
        if isinstance(container, BarContainer):
            horizontal = getattr(container, "orientation", "vertical") == "horizontal"
            values += [patch.get_width() if horizontal else patch.get_height() for patch in container.patches]
        elif isinstance(container, ErrorbarContainer) and container.lines[0] is not None:
            line = container.lines[0]
            counted.add(id(line))  # points with horizontal bars hold their values on x
            along_x = container.has_xerr and not container.has_yerr
            values += list(np.ravel(line.get_xdata(orig=False) if along_x else line.get_ydata(orig=False)))
    for line in ax.lines:
        if id(line) not in counted and line.get_transform() == ax.transData:
            values += list(np.ravel(np.asarray(line.get_ydata(), dtype=float)))
    for patch in ax.patches:
        if isinstance(patch, StepPatch):  # a histogram drawn as one outline
            values += list(np.ravel(patch.get_data().values))
    return np.array(values, dtype=float) if values else None
