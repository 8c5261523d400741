"""Results as text: the four ``--format`` kinds and tables from DataFrames.

Every tabular result is a pandas DataFrame; :func:`frame_text` renders it as aligned
text, a markdown table or CSV (the same table for every command). Files are written
atomically by :mod:`analyzer.files` (``atomic_path`` can be imported from here too, by the
modules that write results).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection

from analyzer.files import atomic_path

__all__ = ["Rendered", "TABLE_FORMATS", "atomic_path", "finite_json", "frame_text"]


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


def frame_text(frame, fmt: str, left: int | Collection[str] = 1) -> str:
    """``frame`` as aligned text (``table``), a markdown table or CSV, without its index.

    Text and markdown show the cells as they are (give them formatted), left-aligned in
    the first ``left`` columns (or the columns named in ``left``) and right-aligned in
    the others; CSV writes the values.
    """
    if fmt not in TABLE_FORMATS:
        raise ValueError(f"no table format {fmt!r}; one of {', '.join(TABLE_FORMATS)}")
    if fmt == "csv":
        return frame.to_csv(index=False, lineterminator="\n")
    align = ["left" if (i < left if isinstance(left, int) else name in left) else "right"
             for i, name in enumerate(frame.columns)]
    if fmt == "markdown":
        def escape(cell):
            return str(cell).replace("|", "\\|")

        frame = frame.map(escape).rename(columns=escape)
        return frame.to_markdown(index=False, colalign=align, disable_numparse=True)
    return frame.to_markdown(index=False, tablefmt="simple", colalign=align, disable_numparse=True)


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
        return text if text.endswith("\n") else text + "\n"
