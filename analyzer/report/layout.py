"""Text and table pages, shared by the report's own pages and the game pages."""

from __future__ import annotations

from analyzer.report.document import Page
from analyzer.report.style import ROW_HEIGHT, new_page, table_axes, text_block

TABLE_ROWS_PER_PAGE = 24


def text_page(name: str, title: str, paragraphs: list[str], headers: list[str] | None = None,
              rows: list[list[str]] | None = None, size: float = 11) -> Page:
    """Running text, then an optional table below it (its first two columns left-aligned)."""
    figure = new_page(title)
    bottom = text_block(figure, paragraphs, top=min(0.86, figure.header_bottom - 0.02), size=size)
    has_table = bool(headers and rows)
    if has_table:
        height = min(bottom - 0.05, ROW_HEIGHT * (len(rows) + 1))
        table_axes(figure, headers, rows, (0.05, bottom - height - 0.02, 0.9, height), size=9, left_columns=2)
    return Page(name, figure, plot=False, title=title, paragraphs=list(paragraphs),
                headers=list(headers) if has_table else [], rows=[list(row) for row in rows] if has_table else [])


def table_pages(name: str, title: str, headers: list[str], rows: list[list[str]], note: str = "",
                left_columns: int = 1) -> list[Page]:
    """A table split over as many pages as it needs (``name-1``, ``name-2``, ...), its first
    ``left_columns`` columns left-aligned."""
    pages = []
    parts = range(0, len(rows), TABLE_ROWS_PER_PAGE)
    for number, start in enumerate(parts, start=1):
        suffix = f" ({number}/{len(parts)})" if len(parts) > 1 else ""
        figure = new_page(title + suffix)
        part = rows[start:start + TABLE_ROWS_PER_PAGE]
        height = min(0.8, ROW_HEIGHT * (len(part) + 1))
        top = min(0.88, figure.header_bottom - 0.02)
        table_axes(figure, headers, part, (0.03, top - height, 0.94, height), size=8,
                   left_columns=left_columns)
        if note:
            text_block(figure, [note], top=top - 0.02 - height, size=9)
        pages.append(Page(f"{name}-{number}", figure, plot=False, title=title + suffix,
                          paragraphs=[note] if note else [], headers=list(headers), rows=[list(row) for row in part]))
    return pages
