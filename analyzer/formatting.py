"""Numbers in words for tables and reports: one way to show a quantity everywhere."""

from __future__ import annotations

import math


def format_number(value: float, signed: bool = False) -> str:
    """A number with about four significant digits and thousands separators."""
    magnitude = abs(value)
    decimals = 0 if magnitude >= 1000 or value == int(value) and magnitude >= 1 else \
        min(4, max(1, 3 - int(math.floor(math.log10(magnitude)))) if magnitude > 0 else 0)
    return f"{value:{'+' if signed else ''},.{decimals}f}"


def interval_decimals(half_width: float, least: int = 0) -> int:
    """The decimals that show an interval's half-width ``half_width`` with two significant digits
    (never "± 0.0"), so a value shown with them is told apart from another where their intervals do."""
    if not half_width > 0 or not math.isfinite(half_width):
        return least
    return max(least, 1 - int(math.floor(math.log10(half_width))))

