"""Typed, validated options: rule options of a game and parameters of a strategy.

One class serves both, so a rule option and a strategy parameter are declared,
parsed from the command line or a TOML file, validated and listed the same way.
Every failure raises ``AnalyzerError`` with one line naming the option and what is
allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from analyzer.errors import AnalyzerError

KINDS = ("int", "float", "bool", "choice", "str", "int_list", "str_list", "float_list", "int_map")


@dataclass(frozen=True)
class Option:
    """One typed option.

    ``low``/``high`` bound numbers (and every element of a numeric list);
    ``choices`` lists the allowed strings (for ``choice``, each ``str_list``
    element and each ``int_map`` key); ``min_len``/``max_len`` bound list lengths.
    An ``int_map`` (name -> whole number, e.g. a deck's card counts) is merged onto its
    default: keys not given keep their default count.
    """

    name: str
    kind: str
    default: Any
    description: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    min_len: int | None = None
    max_len: int | None = None
    low_open: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown option kind {self.kind}")

    # -- describing ---------------------------------------------------------------
    def allowed(self) -> str:
        """What values are allowed, in words (for errors and listings)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "int_map":
            bound = self._range_words()
            return (f"a table of whole numbers{' ' + bound if bound else ''} for "
                    + ", ".join(self.choices))
        what = {
            "int": "a whole number",
            "float": "a number",
            "str": "a text",
            "int_list": "a list of whole numbers",
            "float_list": "a list of numbers",
            "str_list": "a list of names",
        }[self.kind]
        parts = [what]
        bound = self._range_words()
        if bound:
            parts.append(("each " if self.kind.endswith("_list") else "") + bound)
        if self.kind.endswith("_list"):
            if self.min_len is not None and self.min_len == self.max_len:
                parts.append(f"exactly {self.min_len} of them")
            else:
                if self.min_len is not None:
                    parts.append(f"at least {self.min_len} of them")
                if self.max_len is not None:
                    parts.append(f"at most {self.max_len} of them")
        if self.kind == "str_list" and self.choices:
            parts.append("from " + ", ".join(self.choices))
        return ", ".join(parts)

    def _range_words(self) -> str:
        lo, hi = self.low, self.high
        fmt = _fmt_number
        if lo is not None and hi is not None:
            left = "above" if self.low_open else "from"
            if self.low_open:
                return f"above {fmt(lo)} and at most {fmt(hi)}"
            return f"{left} {fmt(lo)} to {fmt(hi)}"
        if lo is not None:
            return f"above {fmt(lo)}" if self.low_open else f"at least {fmt(lo)}"
        if hi is not None:
            return f"at most {fmt(hi)}"
        return ""

    def type_name(self) -> str:
        return self.kind

    # -- parsing ------------------------------------------------------------------
    def parse_text(self, text: str, where: str) -> Any:
        """Parse a value written on the command line (``--set name=text``)."""
        text = text.strip()
        if self.kind == "int_map":
            inner = text[1:-1] if text.startswith("{") and text.endswith("}") else text
            table = {}
            for item in filter(None, (t.strip() for t in inner.split(","))):
                key, sep, value = item.replace("=", ":").partition(":")
                if not sep:
                    self._fail(text, where)
                table[key.strip().strip("'\"")] = value.strip()
            return self.validate(table, where, from_text=True)
        if self.kind.endswith("_list"):
            inner = text[1:-1] if text.startswith("[") and text.endswith("]") else text
            items = [t.strip().strip("'\"") for t in inner.split(",") if t.strip()]
            return self.validate(items, where, from_text=True)
        if self.kind in ("str", "choice"):
            return self.validate(text.strip("'\""), where)
        return self.validate(text, where, from_text=True)

    def validate(self, value: Any, where: str, from_text: bool = False) -> Any:
        """Check and normalise a value (from TOML, Python or text); raise AnalyzerError."""
        if self.kind == "int_map":
            if not isinstance(value, dict):
                self._fail(value, where)
            merged = dict(self.default)
            for key, count in value.items():
                if key not in self.choices:
                    raise AnalyzerError(
                        f"{where}: {self.name} has unknown name {key!r}; allowed: {', '.join(self.choices)}"
                    )
                merged[key] = self._scalar("int", count, where, from_text, whole=value)
            return merged
        if self.kind.endswith("_list"):
            if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
                self._fail(value, where)
            element = {"int_list": "int", "float_list": "float", "str_list": "str"}[self.kind]
            items = [self._scalar(element, v, where, from_text, whole=value) for v in value]
            if self.min_len is not None and len(items) < self.min_len:
                self._fail(value, where)
            if self.max_len is not None and len(items) > self.max_len:
                self._fail(value, where)
            if self.kind == "str_list" and self.choices:
                for item in items:
                    if item not in self.choices:
                        raise AnalyzerError(
                            f"{where}: {self.name} has unknown name {item!r}; allowed: {', '.join(self.choices)}"
                        )
            return tuple(items)
        return self._scalar(self.kind, value, where, from_text, whole=value)

    def _scalar(self, kind: str, value: Any, where: str, from_text: bool, whole: Any) -> Any:
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if from_text and isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                return value.lower() in ("true", "yes", "1")
            self._fail(whole, where)
        if kind == "int":
            number = _to_int(value, from_text)
            if number is None:
                self._fail(whole, where)
            self._check_range(number, whole, where)
            return number
        if kind == "float":
            number = _to_float(value, from_text)
            if number is None:
                self._fail(whole, where)
            self._check_range(number, whole, where)
            return number
        if kind in ("str", "choice"):
            if not isinstance(value, str):
                self._fail(whole, where)
            if kind == "choice" and value not in self.choices:
                self._fail(whole, where)
            return value
        raise AssertionError(kind)

    def _check_range(self, number, whole, where):
        if self.low is not None and (number < self.low or (self.low_open and number <= self.low)):
            self._fail(whole, where)
        if self.high is not None and number > self.high:
            self._fail(whole, where)

    def _fail(self, value, where):
        shown = format_value(preview(value), quote_text=True)
        raise AnalyzerError(f"{where}: {self.name} = {shown} is not allowed; it must be {self.allowed()}")

    def describe(self) -> dict:
        return {
            "name": self.name,
            "type": self.kind,
            "default": jsonable(self.default),
            "allowed": self.allowed(),
            "description": self.description,
        }


def _to_int(value, from_text):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer() and not from_text:
        return int(value)
    if from_text and isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            return int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                return None
            if math.isfinite(number) and number.is_integer() and ("e" in text.lower()):
                return int(number)
            return None
    return None


def _to_float(value, from_text):
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif from_text and isinstance(value, str):
        try:
            number = float(value.strip().replace("_", ""))
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _fmt_number(x):
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def format_value(value, quote_text: bool = False) -> str:
    """A value as a user writes it in a scenario file (texts quoted when asked)."""
    if isinstance(value, str):
        return repr(value) if quote_text and not isinstance(value, _More) else value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v, quote_text) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {format_value(v, quote_text)}" for k, v in value.items()) + "}"
    return str(value)


#: the most items of a list or table, and characters of a text, an error shows of a value
PREVIEW_ITEMS = 10
PREVIEW_CHARS = 40


class _More(str):
    """Stands for the items of a value left out of its preview (written as is)."""


def preview(value):
    """``value`` shortened for an error line: a long list, table or text shows its start."""
    if isinstance(value, str) and len(value) > PREVIEW_CHARS:
        return value[:PREVIEW_CHARS] + "…"
    if isinstance(value, (list, tuple)) and len(value) > PREVIEW_ITEMS:
        return [*map(preview, value[:PREVIEW_ITEMS]), _More(f"… ({len(value):,} values)")]
    if isinstance(value, dict) and len(value) > PREVIEW_ITEMS:
        shown = {key: preview(item) for key, item in list(value.items())[:PREVIEW_ITEMS]}
        return {**shown, "…": _More(f"({len(value):,} entries)")}
    return value


def jsonable(value):
    """Tuples to lists, recursively: a rule value as JSON holds it."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    return value


def option_table(options: tuple[Option, ...]) -> dict[str, Option]:
    return {o.name: o for o in options}


def defaults(options: tuple[Option, ...]) -> dict[str, Any]:
    return {o.name: o.default for o in options}
