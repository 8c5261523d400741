"""A game's pages in the PDF report: its own where it draws them (``Game.report_pages``), else
pages drawn from its ``game_stats`` whatever their shape, so a new game gets pages without code here.

The statistics are walked once, and every number goes where its kind can be read:

- numbers and short texts go into a table, with their meaning from the game's
  documentation (:mod:`analyzer.report.glossary`); file paths and checksums stay in the JSON;
- a distribution summary (``{count, mean, median, p5, p95, max}``) is drawn as a range
  in its unit (:class:`~analyzer.report.stats_charts.Summary`), its count in the title;
- a list of numbers and a table of numbers (name -> number) of one kind (all rates, all
  counts, or all of another unit) become a bar chart; fields of different kinds
  (a count beside a rate) go into the table instead, never onto one axis;
- records (name -> {metric: number}) become one bar chart per metric, with the
  ``<metric>_ci`` or ``<metric>_se`` partner as error bars; records of records
  (name -> label -> {metric: number}) become grouped bars.

Charts whose values are all zero or missing are left out (and named in the table's
note). Bars named after a seat or a strategy take its colour; bars named by a key take the
game's display name for it (``Game.display_names``), else the key in words.
"""

from __future__ import annotations

import math
import re

import numpy as np

from analyzer.formatting import format_number
from analyzer.report.document import Page
from analyzer.report.glossary import glossary, meaning
from analyzer.report.layout import table_pages
from analyzer.report.stats_charts import COUNT, RATE, VALUE, Chart, Summary, chart_pages, is_empty
from analyzer.report.style import NEUTRAL, Palette
from analyzer.stats import Z95

#: lists and tables longer than this are not drawn
MAX_BARS = 60
#: the keys of a distribution summary; one needs ``mean`` and a percentile or the median
SUMMARY_KEYS = frozenset({"count", "mean", "median", "min", "max", "sd", "p5", "p25", "p75", "p95"})
#: characters of a meaning in the table (the rest is in the game's documentation)
MEANING_WIDTH = 75
#: the key of a composition's sum
TOTAL = "total"
#: words of a key that say its numbers are amounts of the game's score unit
SCORE_WORDS = ("value", "score", "cash", "fee")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _words(path: tuple[str, ...]) -> str:
    return " / ".join(str(p).replace("_", " ") for p in path)


def _is_rate(name: str, values) -> bool:
    """Shares of 0 to 1: named a rate or share, or shares of a whole (summing to 1)."""
    finite = [v for v in np.ravel(values) if np.isfinite(v)]
    if not finite or not all(0 <= v <= 1 for v in finite):
        return False
    named = any(w in name.lower() for w in ("rate", "share"))
    return named or (len(finite) >= 2 and abs(sum(finite) - 1) < 1e-6)


def _is_summary(value: dict) -> bool:
    keys = set(value)
    return (keys <= SUMMARY_KEYS and "mean" in keys and bool(keys & {"median", "p5", "p95"})
            and all(_is_number(v) or v is None for v in value.values()))


def _plural(word: str) -> str:
    return word + ("es" if word.endswith(("ch", "s", "x")) else "s")


class StatsWalker:
    """Sorts one game's statistics into table rows, charts and distribution summaries."""

    def __init__(self, result, palette: Palette):
        self.result = result
        self.palette = palette
        game = result.spec.game
        self.players = result.spec.players
        self.labels = {seat.label for seat in result.spec.seats}
        self.score_unit = getattr(game, "score_unit", "")
        self.glossary = glossary(game.id) if hasattr(game, "id") else {}
        self.names = game.display_names() if hasattr(game, "display_names") else {}
        self.rows: list[tuple[str, str, str]] = []
        self.charts: list[Chart | Summary] = []
        #: titles of charts left out because every value was zero or missing
        self.empty: list[str] = []

    # -- colours, kinds and words -----------------------------------------------------------------
    def colour(self, name: str):
        if name.startswith("seat ") and name[5:].isdigit():
            return self.palette.seat(int(name[5:]))
        if name in self.labels:
            return self.palette.strategy(name)
        return NEUTRAL

    def shown(self, name: str) -> str:
        """What a bar named ``name`` is called on the page: a seat or strategy as it is, a key by its
        display name or in words."""
        if self.colour(name) != NEUTRAL:
            return name
        return self.names.get(name, name.replace("_", " "))

    def meaning(self, path: tuple[str, ...]) -> str:
        return meaning(self.glossary, path)

    def kind(self, path: tuple[str, ...], values, whole: bool) -> str:
        """``RATE`` (shares), ``COUNT`` (whole numbers) or ``VALUE`` (another unit)."""
        if _is_rate(_words(path) + " " + self.meaning(path), values):
            return RATE
        return COUNT if whole else VALUE

    def axis_label(self, path: tuple[str, ...], kind: str) -> str:
        """The quantity in words with its unit: counts say so, amounts name the score unit.
        A key that only says how the bars are split (``by_seat``) or relates to its parent
        (``per_match``, ``share``) takes its parent's name: round wins / by seat -> round wins."""
        label = re.sub(r"_?by_\w+$", "", path[-1])
        if len(path) > 1 and (not label or label.startswith(("per_", "share", "rate"))):
            label = f"{path[-2]} {label}".strip()
        label = label.replace("_", " ")
        if kind == COUNT:
            return f"{label} (count)"
        if kind == VALUE and self.score_unit and any(w in _words(path) for w in SCORE_WORDS):
            return f"{label} ({self.score_unit})"
        return label

    def row(self, path: tuple[str, ...], text: str) -> None:
        said = self.meaning(path)
        self.rows.append((_words(path), text, said if len(said) <= MEANING_WIDTH else said[:MEANING_WIDTH - 1] + "…"))

    def add(self, chart: Chart) -> None:
        if is_empty(chart):
            self.empty.append(chart.title)
        else:
            self.charts.append(chart)

    # -- walking --------------------------------------------------------------------------------
    def walk(self, node: dict, path: tuple[str, ...] = ()) -> None:
        for key, value in node.items():
            key = str(key)
            if _is_error_key(key):
                continue
            here = (*path, key)
            if _is_number(value):
                self.row(here, _show_number(key, value))
            elif isinstance(value, str) and not _is_file_detail(value):
                self.row(here, value if len(value) <= 60 else "…" + value[-59:])
            elif isinstance(value, list):
                self.list_(value, here)
            elif isinstance(value, dict) and value:
                self.mapping(value, here)

    def mapping(self, value: dict, path: tuple[str, ...]) -> None:
        entries = list(value.values())
        if _is_summary(value):
            self.summary(value, path)
        elif len(entries) >= 2 and all(_is_number(v) for v in entries):
            if len({self.field_kind((*path, str(k)), v) for k, v in value.items()}) > 1:
                self.walk(value, path)  # fields of different kinds: the table, never one axis
            else:
                parts = _parts(value)
                if len(parts) < len(value):
                    self.row((*path, TOTAL), _show_number(TOTAL, value[TOTAL]))
                self.bars(path, [str(k) for k in parts], list(parts.values()))
        elif all(isinstance(v, dict) or v is None for v in entries):
            self.records({str(k): v for k, v in value.items() if isinstance(v, dict)}, path)
        else:
            self.walk(value, path)

    def field_kind(self, path: tuple[str, ...], value) -> str:
        """The kind of one field of a table of numbers (a rate by its own name or its table's)."""
        named_rate = any(w in path[-1].lower() for w in ("rate", "share"))
        return self.kind(path if named_rate else path[:-1], [value], isinstance(value, int))

    def summary(self, value: dict, path: tuple[str, ...]) -> None:
        stats = {k: float(v) for k, v in value.items() if _is_number(v)}
        name = path[-1].replace("_", " ")
        observations = _plural(name.split(" per ")[-1]) if " per " in name else "observations"
        whole = all(float(v).is_integer() for k, v in stats.items() if k in ("min", "max", "median", "p5", "p95"))
        self.charts.append(Summary(_words(path), stats, name, whole, self.meaning(path), observations))
        shown = ", ".join(f"{k} {format_number(v) if isinstance(v, float) else f'{v:,}'}"
                          for k, v in value.items() if _is_number(v))
        self.row(path, shown)

    def list_(self, items: list, path: tuple[str, ...]) -> None:
        if not items or len(items) > MAX_BARS:
            return
        if all(_is_number(v) for v in items):
            by_seat = "seat" in path[-1] and len(items) == self.players
            first = 0 if re.search(r"\b0:", self.meaning(path)) else 1  # numbered as its definition numbers it
            names = [f"seat {i + 1}" if by_seat else str(i + first) for i in range(len(items))]
            self.bars(path, names, items)
        elif all(isinstance(v, dict) for v in items):
            records = {}
            for i, record in enumerate(items):
                name = f"seat {record['seat']}" if "seat" in record else str(i + 1)
                records[name] = {k: v for k, v in record.items() if k != "seat"}
            self.records(records, path)

    def bars(self, path: tuple[str, ...], names: list[str], values: list,
             errors: np.ndarray | None = None) -> None:
        if len(names) > MAX_BARS:
            return
        numbers = [_value(v) for v in values]
        whole = all(isinstance(v, int) or v is None for v in values)
        kind = self.kind(path, numbers, whole)
        title = _words(path)
        self.add(Chart(title, [self.shown(n) for n in names], [title], np.array([numbers]), errors,
                       self.axis_label(path, kind), kind, [self.colour(n) for n in names], self.meaning(path)))

    def records(self, records: dict[str, dict], path: tuple[str, ...]) -> None:
        """name -> {metric: number}: a chart per metric; name -> label -> {metric: number}: grouped bars."""
        if not records or len(records) > MAX_BARS:
            return
        inner = [v for record in records.values() for v in record.values()]
        if inner and all(isinstance(v, dict) for v in inner):
            self.grouped(records, path)
            return
        entries = list(records.values())
        metrics = list(_parts(dict.fromkeys(_common_metrics(entries))))
        if len(metrics) >= 2 and all(self.colour(name) != NEUTRAL for name in records) and self.by_seat(records,
                                                                                                      metrics, path):
            return
        for metric in metrics:
            values = [record.get(metric) for record in entries]
            errors = _errors(metric, entries, [_value(v) for v in values])[:, None, :] \
                if _has_errors(metric, entries) else None
            self.bars((*path, metric), list(records), values, errors)

    def by_seat(self, records: dict[str, dict], metrics: list[str], path: tuple[str, ...]) -> bool:
        """Seats' records whose metrics are of one kind (the parts of a total, in one unit): one
        chart with a group per metric and a bar per seat. False when the kinds differ."""
        raw = [[records[name].get(metric) for metric in metrics] for name in records]
        values = np.array([[_value(v) for v in row] for row in raw])
        kinds = {self.kind((*path, metric), values[:, j], all(isinstance(row[j], int) for row in raw))
                 for j, metric in enumerate(metrics)}
        if len(kinds) > 1:
            return False
        kind = kinds.pop()
        label = self.axis_label(path, kind) if kind != RATE else _words(path[-1:])
        self.add(Chart(_words(path), [m.replace("_", " ") for m in metrics], list(records), values, None, label, kind,
                       [self.colour(name) for name in records], self.meaning(path)))
        return True

    def grouped(self, records: dict[str, dict[str, dict]], path: tuple[str, ...]) -> None:
        series = list(dict.fromkeys(label for record in records.values() for label in record))
        cells = [cell for record in records.values() for cell in record.values()]
        for metric in _common_metrics(cells):
            raw = [[records[g].get(s, {}).get(metric) for g in records] for s in series]
            values = np.array([[_value(v) for v in row] for row in raw])
            errors = None
            if _has_errors(metric, cells):
                errors = np.stack([_errors(metric, [records[g].get(s, {}) for g in records], values[i])
                                   for i, s in enumerate(series)], axis=1)
            here = (*path, metric)
            kind = self.kind((metric,), values, all(isinstance(v, int) for row in raw for v in row if v is not None))
            self.add(Chart(_words(here), [self.shown(g) for g in records], [self.shown(s) for s in series], values,
                           errors, self.axis_label(here, kind), kind, [self.colour(s) for s in series],
                           self.meaning(here)))


def _is_error_key(key: str) -> bool:
    """An interval or standard error: drawn as error bars of its partner, never on its own."""
    return key in ("ci", "se") or key.endswith(("_ci", "_se"))


def _parts(value: dict) -> dict:
    """The parts of a composition without its ``total`` (a bar as tall as all the others together)."""
    return {k: v for k, v in value.items() if k != TOTAL} if TOTAL in value and len(value) > 2 else value


def one_per_question(charts: list) -> list:
    """One chart per question: of the charts of one statistic split the same way (round wins by seat as
    counts, per match and as shares), the shares are kept, else the first."""
    kept: dict[tuple[str, str], Chart | Summary] = {}
    for chart in charts:
        parent, _, last = chart.title.rpartition(" / ")
        split = re.sub(r"^(share|rate|per \w+)\b\s*", "", last) if parent and isinstance(chart, Chart) else chart.title
        key = (parent, split)
        if key not in kept or (chart.kind == RATE and getattr(kept[key], "kind", None) != RATE):
            kept[key] = chart
    return [chart for chart in charts if any(chart is shown for shown in kept.values())]


def _is_file_detail(text: str) -> bool:
    """A file's path or a checksum: for the JSON, not for a designer's page."""
    return bool(re.fullmatch(r"[0-9a-f]{32,}", text) or re.search(r"[/\\][^/\\]+\.\w{2,5}$", text))


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
    subtitle = "Bars: 95% intervals where known. Rates in % of what they count; counts are totals over all games."
    note = ""
    if walker.empty:
        note = "Not drawn, every value zero or missing: " + "; ".join(walker.empty) + "."
    if any(said for _, _, said in walker.rows):
        # a definition shared by the rows of one statistic is written once
        meanings = [said if not (index and said and said == walker.rows[index - 1][2]) else "as above"
                    for index, (_, _, said) in enumerate(walker.rows)]
        headers, left = ["statistic", "meaning", "value"], 2
        rows = [[k, said, v] for (k, v, _), said in zip(walker.rows, meanings, strict=True)]
    else:
        headers, rows, left = ["statistic", "value"], [[k, v] for k, v, _ in walker.rows], 1
    return chart_pages(one_per_question(walker.charts), title, "game-stats", subtitle) + table_pages(
        "game-stats-table", f"{title}: every number", headers, rows, note, left)
