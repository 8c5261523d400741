"""Results as text: the four ``--format`` kinds and tables from DataFrames.

Every tabular result is a pandas DataFrame; :func:`frame_text` renders it as aligned
text, a markdown table or CSV (the same table for every command). A table that is only
shown, never computed on, can come as a :class:`TextTable` instead: ``analyze simulate``'s
seat table does, so that its text and markdown output do not import pandas (a third of a
short run's start-up). Files are written atomically by :mod:`analyzer.files`
(``atomic_path`` can be imported from here too, by the modules that write results).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from typing import NamedTuple

from analyzer.files import atomic_path
from analyzer.wrapping import output_width

__all__ = ["Rendered", "TABLE_FORMATS", "TextTable", "atomic_path", "finite_json", "frame_text"]


def finite_json(value):
    """JSON has no NaN: replace non-finite floats by null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    return value


TABLE_FORMATS = ("table", "markdown", "csv")


class TextTable(NamedTuple):
    """A table as shown: its column names and its rows of cells, without pandas."""

    columns: list[str]
    rows: list[list]

    @classmethod
    def of(cls, frame) -> TextTable:
        """A DataFrame's column names and cells, as tabulate reads a DataFrame (``frame.values``, row by row)."""
        return cls(list(frame.columns), [list(row) for row in frame.values])

    def select(self, at: Sequence[int]) -> TextTable:
        """The table of the columns at positions ``at``, in that order (by position: two columns may share a name)."""
        return TextTable([self.columns[i] for i in at], [[row[i] for i in at] for row in self.rows])


def frame_text(frame, fmt: str, left: int | Collection[str] = 1, width: int | None = None) -> str:
    """``frame`` (a DataFrame, or for text and markdown a :class:`TextTable`) as aligned text
    (``table``), a markdown table or CSV, without its index.

    Text and markdown show the cells as they are (give them formatted), left-aligned in
    the first ``left`` columns (or the columns named in ``left``) and right-aligned in
    the others; CSV writes the values. Text fits ``width`` columns (default: 80, or a
    wider terminal's width): a wider table is wrapped (:func:`_fitted_text`).
    """
    if fmt not in TABLE_FORMATS:
        raise ValueError(f"no table format {fmt!r}; one of {', '.join(TABLE_FORMATS)}")
    if fmt == "csv":
        return frame.to_csv(index=False, lineterminator="\n")
    table = frame if isinstance(frame, TextTable) else TextTable.of(frame)
    align = ["left" if (i < left if isinstance(left, int) else name in left) else "right"
             for i, name in enumerate(table.columns)]
    if fmt == "markdown":
        def escape(cell):
            return str(cell).replace("|", "\\|")

        table = TextTable([escape(name) for name in table.columns],
                          [[escape(cell) for cell in row] for row in table.rows])
        return _tabulated(table, align, "pipe")
    return _fitted_text(table, align, output_width() if width is None else width)


def _tabulated(table: TextTable, align: list[str], style: str) -> str:
    """``table`` laid out by tabulate in ``style``, every cell shown as it is."""
    from tabulate import tabulate

    return tabulate(table.rows, headers=table.columns, tablefmt=style, colalign=align, disable_numparse=True)


def _plain_text(table: TextTable, align: list[str]) -> str:
    """``table`` as aligned text, columns two spaces apart and as wide as their widest cell."""
    import tabulate

    padding, tabulate.MIN_PADDING = tabulate.MIN_PADDING, 0
    try:
        return _tabulated(table, align, "simple")
    finally:
        tabulate.MIN_PADDING = padding


def _fitted_text(table: TextTable, align: list[str], width: int) -> str:
    """``table`` as aligned text within ``width`` columns: a table too wide is wrapped, its
    columns in blocks one under the other, each block led by the first column (what a row is)."""
    text = _plain_text(table, align)
    if _widest_line(text) <= width or len(table.columns) <= 2:
        return text
    blocks, block = [], []
    for column in range(1, len(table.columns)):
        trial = [0, *block, column]
        if block and _widest_line(_plain_text(table.select(trial), [align[i] for i in trial])) > width:
            blocks.append(block)
            block = []
        block.append(column)
    blocks.append(block)
    return "\n\n".join(_plain_text(table.select([0, *block]), [align[i] for i in (0, *block)]) for block in blocks)


def _widest_line(text: str) -> int:
    return max(len(line) for line in text.splitlines())


class Rendered:
    """``render(fmt)`` for the four output kinds of every result (``--format``, ``-o``).

    A subclass gives ``to_dict`` (the JSON), ``to_table``, ``to_markdown`` and ``to_csv``
    (its tables made with :func:`frame_text`).
    """

    def to_json(self) -> str:
        return json.dumps(finite_json(self.to_dict()), indent=2)

    def render(self, fmt: str) -> str:
        writers = {"json": self.to_json, "csv": self.to_csv, "markdown": self.to_markdown}
        text = writers.get(fmt, self.to_table)()
        if fmt not in writers:
            text = fit_lines(text)
        return text if text.endswith("\n") else text + "\n"


def fit_lines(text: str, width: int | None = None) -> str:
    """``text`` with every line longer than ``width`` (default :func:`output_width`) wrapped at
    spaces, its continuation indented two more (tables come fitted: :func:`frame_text`)."""
    from analyzer.wrapping import wrap

    width = output_width() if width is None else width
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        lines.extend(wrap(line, width, indent, indent + "  "))
    return "\n".join(lines)
