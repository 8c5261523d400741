"""Experiments made of several runs: variant comparisons, strategy match-ups, sweeps, the fairness tuner.

Every run goes through :func:`analyzer.api.run_spec` with one seed, so game ``i`` of
every variant starts from the same random stream (common random numbers). Besides
the merged totals, each run sums its chunks' aggregates into a fixed number of
contiguous *batches* of the chunk plan (:class:`ChunkBins`); the plan depends only on
``n``, so batch ``b`` holds the same games in every variant. Batch means give every
metric's interval, the interval of a paired difference (which the common random
numbers make narrow) and the measured variance reduction, without per-game memory.

Each experiment is a function returning a result object with ``to_dict()`` (the
documented JSON) and ``render(fmt)`` for ``table``, ``markdown``, ``csv`` and ``json``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.api import parse_count, parse_seed, run_spec
from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import chunk_count, chunk_size
from analyzer.errors import AnalyzerError
from analyzer.games.base import Game
from analyzer.games.options import format_value, jsonable
from analyzer.output import Rendered
from analyzer.result import Result
from analyzer.runspec import RunSpec, parse_assignment, parse_strategy, resolve
from analyzer.stats import Z95, histogram_summary, mean_interval, wilson_interval

#: batches per run for batch-means intervals (Student t with batches - 1 degrees of freedom)
BATCHES = 32
#: points of the running win-rate curve (contiguous bins of the chunk plan)
CURVE_POINTS = 200
#: the most values one sweep may run
MAX_SWEEP_VALUES = 200
#: values evaluated per round of the fairness search, and the most rounds
BALANCE_POINTS = 5
BALANCE_MAX_ROUNDS = 6
#: the search stops only once the lines are fitted over a bracket at most this many times the precision
#: (the seat win rates are curved over a wide range; a local fit keeps the interval honest)
LOCAL_FIT_WIDTH = 2.5

# two-sided 95% quantiles of Student's t for 1..30 degrees of freedom
_T95 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
        2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
        2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272)


def t_quantile_95(df: int) -> float:
    """The two-sided 95% quantile of Student's t (exact to 6 digits; Cornish-Fisher above 30 df)."""
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def derived_seed(seed: int, *parts: Any) -> int:
    """A 64-bit seed that depends only on ``seed`` and ``parts`` (independent streams per sub-run)."""
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


# -- how runs are played ---------------------------------------------------------------

@dataclass(frozen=True)
class Execution:
    """Where and how every run of an experiment is played (one seed for all of them)."""

    seed: int
    workers: int | None = None
    backend: str = "local"
    scheduler: str | None = None
    checkpoint: str | None = None
    progress: bool | None = False

    @classmethod
    def create(cls, seed=None, workers=None, backend="local", scheduler=None, checkpoint=None,
               progress=False) -> Execution:
        return cls(parse_seed(seed), workers, backend, scheduler,
                   None if checkpoint is None else str(checkpoint), progress)

    def play(self, spec: RunSpec, n: int, index: int, seed: int | None = None, curve: bool = False,
             batch_keys: tuple[str, ...] | None = None) -> VariantRun:
        """Run ``spec``; ``index`` names the run among the experiment's (its checkpoint file)."""
        checkpoint = None
        if self.checkpoint is not None:
            from analyzer.engine.checkpoint import variant_path

            checkpoint = variant_path(self.checkpoint, index)
        batches = ChunkBins(n, BATCHES, batch_keys)
        curve_bins = ChunkBins(n, CURVE_POINTS, ("games", "wins")) if curve else None

        def on_chunk(chunk, aggregates):
            batches.add(chunk, aggregates)
            if curve_bins is not None:
                curve_bins.add(chunk, aggregates)

        result = run_spec(spec, n, seed=self.seed if seed is None else seed, workers=self.workers,
                          progress=self.progress, backend=self.backend, scheduler=self.scheduler,
                          checkpoint=checkpoint, on_chunk=on_chunk)
        return VariantRun(spec, result, batches, curve_bins)


class ChunkBins:
    """Chunk aggregates summed into a fixed number of contiguous bins of the chunk plan.

    Bin ``b`` holds chunks ``ceil(b C / B) .. ceil((b + 1) C / B) - 1`` of the ``C``
    chunks, so it holds the same games in every run of the same ``n``, and memory does
    not grow with ``n``. Chunks a resumed checkpoint did not replay are never seen:
    only :meth:`complete` bins are used.
    """

    def __init__(self, n: int, bins: int, keys: tuple[str, ...] | None = None):
        self.n = n
        self.chunks = chunk_count(n)
        self.count = min(bins, self.chunks)
        self.keys = keys
        self.totals = [Totals() for _ in range(self.count)]
        self.seen = np.zeros(self.count, dtype=np.int64)
        size = chunk_size(n)
        starts = [-(-b * self.chunks // self.count) for b in range(self.count + 1)]
        self.expected = np.array([min(starts[b + 1] * size, n) - starts[b] * size for b in range(self.count)],
                                 dtype=np.int64)

    def add(self, chunk, aggregates: dict) -> None:
        b = chunk.index * self.count // self.chunks
        if self.keys is not None:
            aggregates = {k: aggregates[k] for k in self.keys}
        self.totals[b].add(aggregates)
        self.seen[b] += chunk.n_games

    def complete(self) -> list[int]:
        return [b for b in range(self.count) if self.seen[b] == self.expected[b]]

    @property
    def all_seen(self) -> bool:
        return bool(np.all(self.seen == self.expected))


@dataclass
class Convergence:
    """The running win-rate estimate: cumulative games and wins per seat after each bin."""

    games: np.ndarray  # [points]
    wins: np.ndarray  # [points, seats]

    @classmethod
    def from_bins(cls, bins: ChunkBins) -> Convergence | None:
        """None when some chunks were not seen (a run resumed from a checkpoint)."""
        if not bins.all_seen:
            return None
        games = np.cumsum([int(t["games"][0]) for t in bins.totals])
        wins = np.cumsum([np.asarray(t["wins"], dtype=np.int64) for t in bins.totals], axis=0)
        return cls(games, wins)

    def intervals(self) -> tuple[np.ndarray, np.ndarray]:
        """Wilson 95% bounds, [points, seats] each."""
        low = np.empty(self.wins.shape)
        high = np.empty(self.wins.shape)
        for i, games in enumerate(self.games):
            for seat, wins in enumerate(self.wins[i]):
                low[i, seat], high[i, seat] = wilson_interval(int(wins), int(games))
        return low, high


# -- metrics -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Metric:
    """One number every run of a game yields, with how to show it.

    ``kind``: ``rate`` (a proportion, shown in %; differences in percentage points),
    ``index`` (a number from 0 to 1) or ``amount`` (in ``unit``).
    """

    key: str
    label: str
    kind: str
    unit: str = ""

    def show(self, value: float | None, signed: bool = False) -> str:
        if value is None or not math.isfinite(value):
            return "–"
        if self.kind == "rate":
            return f"{value * 100:+.2f}" if signed else f"{value * 100:.2f}%"
        if self.kind == "index":
            return f"{value:+.4f}" if signed else f"{value:.4f}"
        return format_number(value, signed)

    def show_difference(self, value: float | None) -> str:
        text = self.show(value, signed=True)
        return text + " pts" if self.kind == "rate" and text != "–" else text

    def show_interval(self, interval, signed: bool = False) -> str:
        if interval is None:
            return "–"
        low, high = (self.show(v, signed=signed) for v in interval)
        return f"{low} to {high}"


def format_number(value: float, signed: bool = False) -> str:
    """A number with about four significant digits and thousands separators."""
    magnitude = abs(value)
    decimals = 0 if magnitude >= 1000 or value == int(value) and magnitude >= 1 else \
        min(4, max(1, 3 - int(math.floor(math.log10(magnitude)))) if magnitude > 0 else 0)
    return f"{value:{'+' if signed else ''},.{decimals}f}"


def describe_metric(key: str, game: Game) -> Metric:
    """The label and kind of a metric key made by :func:`metric_values`."""
    if key.startswith("win_rate_seat_"):
        return Metric(key, f"win rate, seat {key.rsplit('_', 1)[1]}", "rate")
    if key.startswith("mean_score_seat_"):
        return Metric(key, f"mean {game.score_unit}, seat {key.rsplit('_', 1)[1]}", "amount", game.score_unit)
    if key.startswith("mean_length_"):
        unit = key[len("mean_length_"):]
        return Metric(key, f"mean length ({unit})", "amount", unit)
    fixed = {
        "first_player_advantage": Metric(key, "first-player advantage", "rate"),
        "balance": Metric(key, "balance (1 − largest gap)", "index"),
        "tie_rate": Metric(key, "tie rate", "rate"),
        "capped_rate": Metric(key, "capped games", "rate"),
    }
    if key in fixed:
        return fixed[key]
    path = key.split(".")[1:]
    label = ": ".join(part.replace("_", " ") for part in path)
    leaf = path[-1]
    kind = "rate" if leaf.endswith("rate") or "share" in key else "amount"
    return Metric(key, label, kind)


def metric_values(game: Game, prepared, totals: Totals) -> dict[str, float]:
    """Every metric of a run (or of one batch of it): seats, ties, lengths, the game's scalars."""
    n = int(totals["games"][0])
    players = prepared.players
    rates = [int(w) / n for w in totals["wins"]]
    values: dict[str, float] = {}
    for seat in range(players):
        values[f"win_rate_seat_{seat + 1}"] = rates[seat]
    for seat in range(players):
        values[f"mean_score_seat_{seat + 1}"] = float(totals["score_sum"][seat]) / n
    values["first_player_advantage"] = rates[0] - 1 / players
    values["balance"] = 1 - (max(rates) - min(rates))
    values["tie_rate"] = int(totals["tie_games"][0]) / n
    values["capped_rate"] = int(totals["capped"][0]) / n
    for unit in game.length_units:
        values[f"mean_length_{unit}"] = histogram_summary(totals[f"length_{unit}"])["mean"]
    values.update(_stat_scalars(game.game_stats(totals, prepared)))
    return values


def _stat_scalars(stats: dict, prefix: str = "game_stats", depth: int = 0):
    """The game's own per-game quantities: float leaves up to two levels deep.

    Whole numbers are counts that grow with ``n`` and intervals/standard errors are
    not quantities of their own, so both are left out.
    """
    for key, value in stats.items():
        if key.endswith(("_ci", "_se")):
            continue
        path = f"{prefix}.{key}"
        if isinstance(value, float) and math.isfinite(value):
            yield path, value
        elif isinstance(value, dict) and depth == 0:
            yield from _stat_scalars(value, path, depth + 1)


def batch_variance(values: np.ndarray, sizes: np.ndarray) -> float | None:
    """Per-game variance estimated from batch values (weighted by batch size), or None.

    A statistic over ``n`` games then has variance ``batch_variance / n``.
    """
    if len(values) < 2:
        return None
    mean = float(np.sum(sizes * values) / np.sum(sizes))
    return float(np.sum(sizes * (values - mean) ** 2) / (len(values) - 1))


@dataclass
class VariantRun:
    """One run of an experiment: its spec, its result and its batch sums."""

    spec: RunSpec
    result: Result
    batches: ChunkBins
    curve_bins: ChunkBins | None = None

    @property
    def n(self) -> int:
        return self.result.info.n

    @cached_property
    def values(self) -> dict[str, float]:
        return metric_values(self.spec.game, self.result.prepared, self.result.totals)

    @cached_property
    def batch_values(self) -> tuple[list[int], np.ndarray, dict[str, np.ndarray]]:
        """(complete batch indices, their sizes, metric -> value per complete batch)."""
        complete = self.batches.complete()
        per_batch = [metric_values(self.spec.game, self.result.prepared, self.batches.totals[b]) for b in complete]
        keys = [k for k in self.values if all(k in values for values in per_batch)]
        return complete, self.batches.expected[complete], {k: np.array([v[k] for v in per_batch]) for k in keys}

    def interval(self, key: str) -> tuple[float, float] | None:
        """The metric's 95% interval from batch means (None with fewer than two batches)."""
        _, sizes, table = self.batch_values
        if key not in table:
            return None
        variance = batch_variance(table[key], sizes)
        if variance is None:
            return None
        half = t_quantile_95(len(sizes) - 1) * math.sqrt(variance / self.n)
        return (self.values[key] - half, self.values[key] + half)

    @cached_property
    def convergence(self) -> Convergence | None:
        return None if self.curve_bins is None else Convergence.from_bins(self.curve_bins)


@dataclass(frozen=True)
class Difference:
    """``b - a`` of one metric with its 95% interval from paired batch differences."""

    value: float | None
    interval: tuple[float, float] | None
    significant: bool
    #: variance of independent runs over that of the paired difference (the common random numbers' gain)
    variance_reduction: float | None


def paired_difference(a: VariantRun, b: VariantRun, key: str) -> Difference:
    if key not in a.values or key not in b.values:
        return Difference(None, None, False, None)
    value = b.values[key] - a.values[key]
    batches_a, sizes, table_a = a.batch_values
    batches_b, _, table_b = b.batch_values
    if batches_a != batches_b or key not in table_a or key not in table_b:
        return Difference(value, None, False, None)
    variance = batch_variance(table_b[key] - table_a[key], sizes)
    if variance is None:
        return Difference(value, None, False, None)
    half = t_quantile_95(len(sizes) - 1) * math.sqrt(variance / a.n)
    interval = (value - half, value + half)
    independent = batch_variance(table_a[key], sizes) + batch_variance(table_b[key], sizes)
    reduction = independent / variance if variance > 0 else (math.inf if independent > 0 else None)
    return Difference(value, interval, not interval[0] <= 0.0 <= interval[1], reduction)


# -- shared input handling ----------------------------------------------------------------

def unique_names(names: list[str]) -> list[str]:
    """Names with repeats made distinct: ``standard``, ``standard (2)``."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return unique


def resolve_scenarios(scenarios: list, game: str | None = None, players: int | None = None,
                      strategies: list[str] | None = None, sets: list[str] | None = None) -> list[RunSpec]:
    """Scenario files (or parsed scenarios) of one game as run specs; another game's is an error."""
    specs = []
    for scenario in scenarios:
        spec = resolve(game=game, scenario=str(scenario) if isinstance(scenario, Path) else scenario,
                       players=players, strategies=strategies, sets=sets)
        if specs and spec.game.id != specs[0].game.id:
            first = specs[0].scenario.path if specs[0].scenario else specs[0].game.id
            raise AnalyzerError(f"{spec.scenario.path} is a {spec.game.id} scenario but {first} is {specs[0].game.id}: "
                                f"every scenario of one comparison must be of the same game")
        specs.append(spec)
    return specs


def _text_table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    """Columns padded to their widest cell; the first ``left`` columns left-aligned."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i < left else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _markdown_table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    def escape(cell):
        return str(cell).replace("|", "\\|")

    align = ["---" if i < left else "---:" for i in range(len(headers))]
    lines = ["| " + " | ".join(escape(h) for h in headers) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _csv(headers: list[str], rows: list[list]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows(rows)
    return buffer.getvalue()


def players_text(spec: RunSpec) -> str:
    """``4 players (threshold on every seat)`` or with the strategy of each seat."""
    labels = [s.label for s in spec.seats]
    strategies = labels[0] + " on every seat" if len(set(labels)) == 1 else ", ".join(labels)
    return f"{spec.players} players ({strategies})"


def rules_text(spec: RunSpec, leave_out: str | None = None) -> str:
    """The rule options that differ from the standard, or ``standard rules``."""
    changed = {k: v for k, v in spec.changed_rules().items() if k != leave_out}
    return ", ".join(f"{k} = {format_value(v)}" for k, v in changed.items()) if changed else "standard rules"


def _setup(spec: RunSpec) -> str:
    """Players, strategies and changed rules of a spec in one line."""
    return f"{players_text(spec)}; {rules_text(spec)}"


# -- comparing variants ---------------------------------------------------------------------

class Comparison(Rendered):
    """Every metric of several variants side by side, with the difference to the first."""

    SCHEMA = "pirate-analyzer/compare/1"

    def __init__(self, runs: list[VariantRun], seed: int):
        self.runs = runs
        self.seed = seed
        self.names = unique_names([run.spec.name for run in runs])
        self.game = runs[0].spec.game
        keys = list(dict.fromkeys(k for run in runs for k in run.values))
        self.metrics = [describe_metric(k, self.game) for k in keys]
        self.differences = {
            (metric.key, j): paired_difference(runs[0], run, metric.key)
            for metric in self.metrics for j, run in enumerate(runs) if j > 0
        }

    @property
    def n(self) -> int:
        return self.runs[0].n

    def rows(self) -> list[dict[str, Any]]:
        """One row per metric and scenario (the JSON rows)."""
        rows = []
        for metric in self.metrics:
            for j, run in enumerate(self.runs):
                difference = self.differences.get((metric.key, j))
                rows.append({
                    "metric": metric.key,
                    "scenario": self.names[j],
                    "value": run.values.get(metric.key),
                    "difference": None if difference is None else difference.value,
                    "difference_ci": None if difference is None or difference.interval is None
                    else list(difference.interval),
                    "significant": bool(difference is not None and difference.significant),
                })
        return rows

    def variance_reduction(self) -> list[dict[str, Any]]:
        return [{"metric": metric.key, "scenario": self.names[j], "factor": self.differences[(metric.key, j)]
                 .variance_reduction} for metric in self.metrics for j in range(1, len(self.runs))]

    def typical_reduction(self, scenario: int, prefix: str = "win_rate_seat_") -> float | None:
        """The median variance reduction of scenario ``scenario`` over the metrics starting with ``prefix``."""
        factors = [d.variance_reduction for (key, j), d in self.differences.items()
                   if j == scenario and key.startswith(prefix) and d.variance_reduction is not None]
        return float(np.median(factors)) if factors else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.SCHEMA,
            "game": self.game.id,
            "n": self.n,
            "seed": self.seed,
            "batches": len(self.runs[0].batch_values[0]),
            "scenarios": [{
                "name": name,
                "path": run.spec.scenario.path if run.spec.scenario else None,
                "players": run.spec.players,
                "strategies": [s.label for s in run.spec.seats],
                "changed_rules": jsonable(run.spec.changed_rules()),
                "wall_seconds": run.result.info.wall_seconds,
            } for name, run in zip(self.names, self.runs, strict=True)],
            "rows": self.rows(),
            "variance_reduction": self.variance_reduction(),
        }

    def wide_rows(self) -> tuple[list[str], list[list[str]]]:
        headers = ["metric", self.names[0]]
        for name in self.names[1:]:
            headers += [name, "difference", "95% interval", ""]
        rows = []
        for metric in self.metrics:
            row = [metric.label, metric.show(self.runs[0].values.get(metric.key))]
            for j, run in enumerate(self.runs[1:], start=1):
                d = self.differences[(metric.key, j)]
                row += [metric.show(run.values.get(metric.key)), metric.show_difference(d.value),
                        metric.show_interval(d.interval, signed=True), "*" if d.significant else ""]
            rows.append(row)
        return headers, rows

    def _header_lines(self) -> list[str]:
        lines = [f"{self.game.title}: {self.n:,} games per scenario, seed {self.seed} "
                 f"(every scenario plays game i from the same random stream)"]
        for name, run in zip(self.names, self.runs, strict=True):
            lines.append(f"  {name}: {_setup(run.spec)}")
        return lines

    def _footer_lines(self) -> list[str]:
        lines = ["* the 95% interval of the difference to the first scenario excludes 0"]
        for j in range(1, len(self.runs)):
            gain = self.typical_reduction(j)
            if gain is not None and math.isfinite(gain):
                lines.append(f"Common random numbers: for the seat win rates, {self.names[j]} vs {self.names[0]} "
                             f"needs about {gain:,.1f} times fewer games than independent runs for the same precision")
        return lines

    def to_table(self) -> str:
        headers, rows = self.wide_rows()
        return "\n".join([*self._header_lines(), "", _text_table(headers, rows), "", *self._footer_lines()])

    def to_markdown(self) -> str:
        headers, rows = self.wide_rows()
        lines = [f"# {self.game.title}: comparison", "", *(f"- {line.strip()}" for line in self._header_lines()), "",
                 _markdown_table(headers, rows), "", *self._footer_lines()]
        return "\n".join(lines)

    def to_csv(self) -> str:
        headers = ["metric", "scenario", "value", "difference", "difference_low", "difference_high", "significant"]
        rows = []
        for row in self.rows():
            low, high = row["difference_ci"] or (None, None)
            rows.append([row["metric"], row["scenario"], row["value"], row["difference"], low, high,
                         str(row["significant"]).lower()])
        return _csv(headers, rows)


def compare_specs(specs: list[RunSpec], n: int | str, execution: Execution) -> Comparison:
    """Run every spec with the same seed and ``n``, and compare them with the first."""
    if len(specs) < 2:
        raise AnalyzerError("a comparison needs at least two scenarios")
    n = parse_count(n)
    runs = [execution.play(spec, n, index) for index, spec in enumerate(specs)]
    return Comparison(runs, execution.seed)


def compare(scenarios: list, n: int | str = 100_000, players: int | None = None,
            strategies: list[str] | None = None, sets: list[str] | None = None, seed: int | None = None,
            workers: int | None = None, progress: bool | None = False, backend: str = "local",
            scheduler: str | None = None, checkpoint: str | Path | None = None) -> Comparison:
    """Compare scenario files (or parsed scenarios) of one game with common random numbers.

    ``players``, ``strategies`` and ``sets`` apply to every scenario.
    """
    specs = resolve_scenarios(list(scenarios), players=players, strategies=strategies, sets=sets)
    return compare_specs(specs, n, Execution.create(seed, workers, backend, scheduler, checkpoint, progress))


# -- strategy match-ups ------------------------------------------------------------------------

def rotations(seating: list) -> list[list]:
    """The distinct cyclic rotations of a seating (seat 1 first), in order."""
    found = []
    for shift in range(len(seating)):
        rotated = seating[shift:] + seating[:shift]
        if rotated not in found:
            found.append(rotated)
    return found


@dataclass
class StrategyRecord:
    """Pooled results of one strategy over every seat it held."""

    label: str
    seats_per_game: int
    seat_games: int = 0
    wins: int = 0
    ties: int = 0
    score_sum: float = 0.0
    score_sq: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games

    def to_dict(self) -> dict[str, Any]:
        mean, sd, half = mean_interval(self.score_sum, self.score_sq, self.seat_games)
        return {"strategy": self.label, "seats_per_game": self.seats_per_game, "seat_games": self.seat_games,
                "wins": self.wins, "ties": self.ties, "win_rate": self.win_rate,
                "win_rate_ci": list(wilson_interval(self.wins, self.seat_games)),
                "mean_score": mean, "mean_score_ci": [mean - half, mean + half]}


@dataclass
class Pairing:
    """The strategies of one seating played over all its rotations."""

    seating: list[str]
    runs: list[Result] = field(default_factory=list)

    def records(self) -> dict[str, StrategyRecord]:
        records: dict[str, StrategyRecord] = {}
        for result in self.runs:
            t = result.totals
            n = int(t["games"][0])
            for seat, choice in enumerate(result.spec.seats):
                record = records.setdefault(choice.label,
                                            StrategyRecord(choice.label, self.seating.count(choice.label)))
                record.seat_games += n
                record.wins += int(t["wins"][seat])
                record.ties += int(t["ties"][seat])
                record.score_sum += float(t["score_sum"][seat])
                record.score_sq += float(t["score_sq"][seat])
        return records

    @property
    def games(self) -> int:
        return sum(result.info.n for result in self.runs)


class Matchup(Rendered):
    """Strategies compared with every rotation of the seating played equally often."""

    SCHEMA = "pirate-analyzer/matchup/1"

    def __init__(self, game: Game, players: int, labels: list[str], table: Pairing,
                 pairs: dict[tuple[str, str], Pairing], seed: int, base: RunSpec):
        self.game = game
        self.players = players
        self.labels = labels
        self.table = table
        self.pairs = pairs
        self.seed = seed
        self.base = base

    @cached_property
    def strategies(self) -> list[StrategyRecord]:
        records = self.table.records()
        return [records[label] for label in self.labels]

    def head_to_head(self) -> list[dict[str, Any]]:
        """Each strategy's win rate per seat against each other one alone."""
        cells = []
        for (a, b), pairing in self.pairs.items():
            records = pairing.records()
            for row, column in ((a, b), (b, a)):
                record = records[row]
                cells.append({"strategy": row, "opponent": column, "games": pairing.games,
                              "win_rate": record.win_rate,
                              "win_rate_ci": list(wilson_interval(record.wins, record.seat_games))})
        return cells

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.SCHEMA,
            "game": self.game.id,
            "players": self.players,
            "n": self.table.games,
            "seed": self.seed,
            "seating": list(self.table.seating),
            "rotations": len(self.table.runs),
            "games_per_rotation": self.table.runs[0].info.n,
            "changed_rules": jsonable(self.base.changed_rules()),
            "fair_win_rate": 1 / self.players,
            "strategies": [record.to_dict() for record in self.strategies],
            "head_to_head": self.head_to_head(),
        }

    def _strategy_rows(self) -> tuple[list[str], list[list[str]]]:
        unit = self.game.score_unit
        headers = ["strategy", "seats", "win rate", "95% interval", "ties", f"mean {unit}", "95% interval"]
        rows = []
        for record in self.strategies:
            d = record.to_dict()
            low, high = d["win_rate_ci"]
            rows.append([record.label, str(record.seats_per_game), f"{d['win_rate'] * 100:.2f}%",
                         f"{low * 100:.2f}–{high * 100:.2f}%", f"{record.ties:,}", format_number(d["mean_score"]),
                         f"{format_number(d['mean_score_ci'][0])}–{format_number(d['mean_score_ci'][1])}"])
        return headers, rows

    def _matrix_rows(self) -> tuple[list[str], list[list[str]]]:
        cells = {(c["strategy"], c["opponent"]): c for c in self.head_to_head()}
        rows = []
        for row in self.labels:
            line = [row]
            for column in self.labels:
                cell = cells.get((row, column))
                line.append("–" if cell is None else
                            f"{cell['win_rate'] * 100:.1f}% ({cell['win_rate_ci'][0] * 100:.1f}–"
                            f"{cell['win_rate_ci'][1] * 100:.1f})")
            rows.append(line)
        return ["row vs column", *self.labels], rows

    def _intro(self) -> list[str]:
        t = self.table
        return [f"{self.game.title}, {rules_text(self.base)}: strategy match-up, {self.players} players, "
                f"seed {self.seed}",
                f"Seating {', '.join(t.seating)}: {len(t.runs)} rotations × {t.runs[0].info.n:,} games "
                f"({t.games:,} games). Win rates are per seat held; a fair share is {100 / self.players:.2f}%."]

    def _matrix_note(self) -> str:
        return ("Head to head: the row's win rate per seat in games of the row and the column alone "
                "(seats filled alternately, every rotation; 95% interval in brackets).")

    def to_table(self) -> str:
        headers, rows = self._strategy_rows()
        m_headers, m_rows = self._matrix_rows()
        return "\n".join([*self._intro(), "", _text_table(headers, rows), "", self._matrix_note(), "",
                          _text_table(m_headers, m_rows)])

    def to_markdown(self) -> str:
        headers, rows = self._strategy_rows()
        m_headers, m_rows = self._matrix_rows()
        return "\n".join([f"# {self.game.title}: strategy match-up", "", *self._intro(), "",
                          _markdown_table(headers, rows), "", self._matrix_note(), "",
                          _markdown_table(m_headers, m_rows)])

    def to_csv(self) -> str:
        headers = ["strategy", "opponent", "games", "win_rate", "win_rate_low", "win_rate_high"]
        rows = [[r.label, "all", self.table.games, r.win_rate, *r.to_dict()["win_rate_ci"]] for r in self.strategies]
        rows += [[c["strategy"], c["opponent"], c["games"], c["win_rate"], *c["win_rate_ci"]]
                 for c in self.head_to_head()]
        return _csv(headers, rows)


def matchup(strategies: list[str], game: str | None = None, scenario: str | Path | None = None,
            players: int | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
            n: int | str = 100_000, seed: int | None = None, workers: int | None = None,
            progress: bool | None = False, backend: str = "local", scheduler: str | None = None,
            checkpoint: str | Path | None = None) -> Matchup:
    """Play strategies against each other with every cyclic rotation of the seating equally often.

    The list of strategies is repeated in order to fill the seats; every distinct
    rotation plays ``ceil(n / rotations)`` games from its own seed derived from
    ``seed``. With three or more strategies each pair also plays ``n`` games alone
    (seats filled alternately) for the head-to-head matrix.
    """
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    n = parse_count(n)
    base = resolve(game=game, scenario=None if scenario is None else str(scenario), players=players, rules=rules,
                   sets=sets)
    the_game = base.game
    specs = list(strategies)
    choices = [parse_strategy(the_game, s) for s in specs]
    labels = list(dict.fromkeys(c.label for c in choices))
    if len(labels) < 2:
        raise AnalyzerError("a strategy match-up needs at least two different strategies (--strategy A --strategy B)")
    if len(specs) > base.players:
        raise AnalyzerError(f"{len(specs)} strategies for {base.players} players: a match-up seats every strategy, "
                            f"so give at most {base.players} (or raise --players)")
    runs_played = 0

    def play(seating_specs: list[str], tag: str) -> Pairing:
        nonlocal runs_played
        seating = [specs_by_label[s] for s in seating_specs]
        pairing = Pairing([parse_strategy(the_game, s).label for s in seating])
        turns = rotations(seating)
        per_rotation = -(-n // len(turns))
        for r, rotated in enumerate(turns):
            spec = resolve(game=the_game.id, scenario=None if scenario is None else str(scenario),
                           players=base.players, strategies=rotated, rules=rules, sets=sets)
            run = execution.play(spec, per_rotation, runs_played, seed=derived_seed(execution.seed, tag, r),
                                 batch_keys=())
            runs_played += 1
            pairing.runs.append(run.result)
        return pairing

    specs_by_label = {c.label: s for c, s in zip(choices, specs, strict=True)}
    seat_labels = [c.label for c in choices]
    table = play([seat_labels[s % len(seat_labels)] for s in range(base.players)], "table")
    pairs: dict[tuple[str, str], Pairing] = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if len(labels) == 2:
                pairs[(a, b)] = table
            else:
                pairs[(a, b)] = play([(a, b)[s % 2] for s in range(base.players)], f"pair:{a}:{b}")
    return Matchup(the_game, base.players, labels, table, pairs, execution.seed, base)


# -- sweeps ----------------------------------------------------------------------------------

NUMERIC_KINDS = ("int", "float")
SCALAR_KINDS = ("int", "float", "bool", "choice", "str")


def _split_param(game: Game, text: str, form: str):
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not name or not values.strip():
        raise AnalyzerError(f"--param {text!r} must be written {form}")
    try:
        option = game.option(name)
    except AnalyzerError as exc:
        raise AnalyzerError(f"--param: {exc}") from None
    return option, values.strip()


def _decimal(text: str, where: str) -> Decimal:
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite():
        raise AnalyzerError(f"{where}: {text.strip()!r} is not a number")
    return value


def _require_numeric(option, text: str, what: str) -> None:
    if option.kind not in NUMERIC_KINDS:
        raise AnalyzerError(f"--param {text!r}: {what} needs a numeric rule option, and {option.name} is "
                            f"{option.allowed()}")


def parse_sweep_param(game: Game, text: str) -> tuple[Any, list[Any]]:
    """``name=start:stop:step`` (stop included when reached) or ``name=a,b,c`` -> (option, values)."""
    option, values_text = _split_param(game, text, "NAME=START:STOP:STEP or NAME=A,B,C")
    return option, option_values(option, values_text, text)


def option_values(option, values_text: str, text: str) -> list[Any]:
    """The validated values of ``option`` written ``START:STOP:STEP`` or ``A,B,C``.

    Ranges are counted in decimal, so ``0.1:0.3:0.1`` is exactly 0.1, 0.2 and 0.3;
    ``text`` (the whole ``--param``) names the problem in errors.
    """
    where = f"--param {option.name}"
    if ":" in values_text:
        _require_numeric(option, text, "a range")
        parts = values_text.split(":")
        if len(parts) != 3:
            raise AnalyzerError(f"--param {text!r}: a range is written START:STOP:STEP")
        start, stop, step = (_decimal(p, where) for p in parts)
        if step == 0:
            raise AnalyzerError(f"--param {text!r}: the step is zero")
        count = int((stop - start) / step) + 1 if (stop - start) * step >= 0 else 0
        if count < 1:
            raise AnalyzerError(f"--param {text!r}: the range has no values (the step goes away from the stop)")
        if count > MAX_SWEEP_VALUES:
            raise AnalyzerError(f"--param {text!r}: the range has {count:,} values; at most {MAX_SWEEP_VALUES} "
                                f"are allowed")
        texts = [format(start + i * step, "f") for i in range(count)]
    else:
        if option.kind not in SCALAR_KINDS:
            raise AnalyzerError(f"--param {text!r}: the values must be single values, and {option.name} is "
                                f"{option.allowed()}")
        texts = [t for t in (item.strip() for item in values_text.split(","))]
        if any(not t for t in texts):
            raise AnalyzerError(f"--param {text!r}: an empty value in the list")
    values = [option.parse_text(t, where) for t in texts]
    if len(values) < 2:
        raise AnalyzerError(f"--param {text!r}: give at least two values")
    repeated = [v for i, v in enumerate(values) if v in values[:i]]
    if repeated:
        raise AnalyzerError(f"--param {text!r}: the value {format_value(repeated[0])} comes twice")
    return values


def parse_search_param(game: Game, text: str) -> tuple[Any, float, float]:
    """``name=low:high`` for a numeric rule option -> (option, low, high)."""
    option, values_text = _split_param(game, text, "NAME=LOW:HIGH")
    _require_numeric(option, text, "a search")
    parts = values_text.split(":")
    if len(parts) != 2:
        raise AnalyzerError(f"--param {text!r}: a search range is written LOW:HIGH")
    where = f"--param {option.name}"
    low, high = (option.parse_text(format(_decimal(p, where), "f"), where) for p in parts)
    if not low < high:
        raise AnalyzerError(f"--param {text!r}: the range has no values (LOW must be below HIGH)")
    return option, low, high


def _forbid_set(option_name: str, sets: list[str] | None) -> None:
    for text in sets or ():
        if parse_assignment(text)[0] == option_name:
            raise AnalyzerError(f"--set {text!r} and --param both set {option_name}: give it only in --param")


class Sweep(Rendered):
    """Every metric for each value of one rule option (all values played with the same seed)."""

    SCHEMA = "pirate-analyzer/sweep/1"

    def __init__(self, option, values: list, runs: list[VariantRun], seed: int):
        self.option = option
        self.values = values
        self.runs = runs
        self.seed = seed
        self.base = runs[0].spec
        self.game = self.base.game
        keys = list(dict.fromkeys(k for run in runs for k in run.values))
        self.metrics = [describe_metric(k, self.game) for k in keys]

    @property
    def n(self) -> int:
        return self.runs[0].n

    @property
    def numeric(self) -> bool:
        return self.option.kind in NUMERIC_KINDS

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for metric in self.metrics:
            for value, run in zip(self.values, self.runs, strict=True):
                interval = run.interval(metric.key)
                rows.append({"metric": metric.key, "option_value": value, "value": run.values.get(metric.key),
                             "ci": None if interval is None else list(interval)})
        return rows

    def to_dict(self) -> dict[str, Any]:
        return {"schema": self.SCHEMA, "game": self.game.id, "option": self.option.name, "values": self.values,
                "n": self.n, "seed": self.seed, "players": self.base.players,
                "strategies": [s.label for s in self.base.seats], "rows": self.rows()}

    def _intro(self) -> list[str]:
        rules = rules_text(self.base, leave_out=self.option.name)
        return [f"{self.game.title}: {self.option.name} over {len(self.values)} values, {self.n:,} games each, "
                f"seed {self.seed} (every value plays game i from the same random stream)",
                f"{players_text(self.base)}; {rules}. Each cell: estimate ± half its 95% interval."]

    def _wide_rows(self) -> tuple[list[str], list[list[str]]]:
        headers = ["metric", *(f"{self.option.name} = {format_value(v)}" for v in self.values)]
        rows = []
        for metric in self.metrics:
            row = [metric.label]
            for run in self.runs:
                value = run.values.get(metric.key)
                interval = run.interval(metric.key)
                cell = metric.show(value)
                if interval is not None:
                    half = (interval[1] - interval[0]) / 2
                    cell += " ± " + (f"{half * 100:.2f}" if metric.kind == "rate" else metric.show(half))
                row.append(cell)
            rows.append(row)
        return headers, rows

    def to_table(self) -> str:
        headers, rows = self._wide_rows()
        return "\n".join([*self._intro(), "", _text_table(headers, rows)])

    def to_markdown(self) -> str:
        headers, rows = self._wide_rows()
        return "\n".join([f"# {self.game.title}: sweep of {self.option.name}", "", *self._intro(), "",
                          _markdown_table(headers, rows)])

    def to_csv(self) -> str:
        rows = []
        for row in self.rows():
            low, high = row["ci"] or (None, None)
            rows.append([row["metric"], format_value(row["option_value"]), row["value"], low, high])
        return _csv(["metric", self.option.name, "value", "ci_low", "ci_high"], rows)


def sweep(param: str, game: str | None = None, scenario: str | Path | None = None, players: int | None = None,
          strategies: list[str] | None = None, rules: dict[str, Any] | None = None, sets: list[str] | None = None,
          n: int | str = 100_000, seed: int | None = None, workers: int | None = None,
          progress: bool | None = False, backend: str = "local", scheduler: str | None = None,
          checkpoint: str | Path | None = None) -> Sweep:
    """Run one rule option over a range (``name=start:stop:step``) or a list (``name=a,b,c``)."""
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    n = parse_count(n)
    scenario = None if scenario is None else str(scenario)
    base = resolve(game=game, scenario=scenario, players=players, strategies=strategies, rules=rules, sets=sets)
    option, values = parse_sweep_param(base.game, param)
    _forbid_set(option.name, sets)
    specs = [resolve(game=base.game.id, scenario=scenario, players=players, strategies=strategies,
                     rules={**(rules or {}), option.name: value}, sets=sets) for value in values]
    runs = [execution.play(spec, n, index) for index, spec in enumerate(specs)]
    return Sweep(option, values, runs, execution.seed)


# -- the fairness tuner -------------------------------------------------------------------------

@dataclass
class Evaluation:
    """Seat win rates at one value of the searched option."""

    value: float
    run: VariantRun

    @cached_property
    def win_rates(self) -> np.ndarray:
        t = self.run.result.totals
        return np.asarray(t["wins"], dtype=np.float64) / int(t["games"][0])

    @cached_property
    def batch_wins(self) -> np.ndarray:
        """[complete batches, seats] wins."""
        return np.array([np.asarray(self.run.batches.totals[b]["wins"], dtype=np.float64)
                         for b in self.run.batches.complete()])

    @property
    def largest_gap(self) -> float:
        return float(self.win_rates.max() - self.win_rates.min())


def _fairest_value(xs: np.ndarray, rates: np.ndarray, low: float, high: float) -> tuple[float, float]:
    """Fit a line per seat to ``rates`` [values, seats] against ``xs`` and return the value in
    [low, high] where the fitted lines are closest together, and the fitted largest gap there.

    The largest gap of lines is convex and piecewise linear, so its minimum lies at an end
    or where two lines cross.
    """
    design = np.column_stack([np.ones_like(xs), xs])
    coefficients, *_ = np.linalg.lstsq(design, rates, rcond=None)  # [2, seats]
    intercepts, slopes = coefficients
    candidates = [low, high]
    for i in range(len(slopes)):
        for j in range(i + 1, len(slopes)):
            if slopes[i] != slopes[j]:
                x = (intercepts[j] - intercepts[i]) / (slopes[i] - slopes[j])
                if low < x < high:
                    candidates.append(float(x))
    candidates = np.array(sorted(candidates))
    fitted = intercepts[None, :] + slopes[None, :] * candidates[:, None]
    gaps = fitted.max(axis=1) - fitted.min(axis=1)
    best = int(np.argmin(gaps))
    return float(candidates[best]), float(gaps[best])


class Balance(Rendered):
    """The value of a numeric rule option that makes every seat equally likely to win."""

    SCHEMA = "pirate-analyzer/balance/1"

    def __init__(self, option, low, high, precision, evaluations: list[Evaluation], rounds: int,
                 recommended: float, interval: tuple[float, float] | None, fitted_gap: float,
                 measured: Evaluation, seed: int, n: int):
        self.option = option
        self.low, self.high = low, high
        self.precision = precision
        self.evaluations = evaluations
        self.rounds = rounds
        self.recommended = recommended
        self.interval = interval
        self.fitted_gap = fitted_gap
        self.measured = measured
        self.seed = seed
        self.n = n
        self.base = evaluations[0].run.spec
        self.game = self.base.game

    @property
    def precision_reached(self) -> bool:
        return self.interval is not None and self.interval[1] - self.interval[0] < self.precision

    @property
    def best_measured(self) -> Evaluation:
        """The evaluated value with the smallest measured gap between seats."""
        return min(self.evaluations, key=lambda e: (e.largest_gap, e.value))

    @property
    def acts_in_steps(self) -> bool:
        """Two evaluated values won exactly the same games per seat (e.g. scores move in steps of 100)."""
        seen = [tuple(e.run.result.totals["wins"].tolist()) for e in self.evaluations]
        return len(set(seen)) < len(seen)

    @property
    def at_edge(self) -> bool:
        return self.recommended in (self.low, self.high)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.SCHEMA, "game": self.game.id, "option": self.option.name, "low": self.low,
            "high": self.high, "players": self.base.players, "strategies": [s.label for s in self.base.seats],
            "n_per_value": self.n, "seed": self.seed, "precision": self.precision,
            "recommended": self.recommended, "best_measured": self.best_measured.value,
            "interval": None if self.interval is None else list(self.interval),
            "precision_reached": self.precision_reached, "predicted_balance": 1 - self.fitted_gap,
            "measured_balance": 1 - self.measured.largest_gap,
            "rounds": self.rounds, "games": self.n * len(self.evaluations),
            "evaluations": [{"value": e.value, "win_rates": e.win_rates.tolist(), "largest_gap": e.largest_gap,
                             "balance": 1 - e.largest_gap} for e in self.evaluations],
        }

    def _show_value(self, value: float) -> str:
        return f"{value:.0f}" if self.option.kind == "int" else f"{value:.4g}"

    def intro(self) -> list[str]:
        name = self.option.name
        lines = [f"{self.game.title}: the fairest {name} in {self._show_value(self.low)} to "
                 f"{self._show_value(self.high)} for {players_text(self.base)}, {rules_text(self.base, name)}, "
                 f"seed {self.seed}"]
        if self.interval is None:
            interval = "no interval: too few batches, raise --n"
        else:
            interval = f"95% interval {self._show_value(self.interval[0])} to {self._show_value(self.interval[1])}"
        lines.append(f"Recommended {name} = {self._show_value(self.recommended)} ({interval}); balance there "
                     f"{1 - self.measured.largest_gap:.4f} measured, {1 - self.fitted_gap:.4f} predicted by the "
                     f"fitted lines (largest gap between seats {self.measured.largest_gap * 100:.2f} and "
                     f"{self.fitted_gap * 100:.2f} points of win rate)")
        state = "reached" if self.precision_reached else "NOT reached (raise --n)"
        lines.append(f"Precision {self._show_value(self.precision)} {state} after {self.rounds} rounds, "
                     f"{len(self.evaluations)} values × {self.n:,} games")
        best = self.best_measured
        lines.append(f"Fairest value measured: {self._show_value(best.value)} (largest gap "
                     f"{best.largest_gap * 100:.2f} points)")
        if self.acts_in_steps:
            lines.append(f"{name} acts in steps: different values gave exactly the same games, so every value of "
                         f"a step is equally fair (the table shows the steps)")
        if self.at_edge:
            lines.append(f"The fairest value lies at the edge of the range: widen --param {name}=LOW:HIGH")
        return lines

    def table_rows(self) -> tuple[list[str], list[list[str]]]:
        headers = [self.option.name, *(f"seat {s + 1}" for s in range(self.base.players)), "largest gap", "balance"]
        rows = [[self._show_value(e.value), *(f"{r * 100:.2f}%" for r in e.win_rates),
                 f"{e.largest_gap * 100:.2f} pts", f"{1 - e.largest_gap:.4f}"]
                for e in sorted(self.evaluations, key=lambda e: e.value)]
        return headers, rows

    def to_table(self) -> str:
        headers, rows = self.table_rows()
        return "\n".join([*self.intro(), "", _text_table(headers, rows, left=0)])

    def to_markdown(self) -> str:
        headers, rows = self.table_rows()
        return "\n".join([f"# {self.game.title}: fairest {self.option.name}", "", *self.intro(), "",
                          _markdown_table(headers, rows, left=0)])

    def to_csv(self) -> str:
        headers = [self.option.name, *(f"win_rate_seat_{s + 1}" for s in range(self.base.players)), "largest_gap",
                   "balance"]
        rows = [[e.value, *e.win_rates.tolist(), e.largest_gap, 1 - e.largest_gap]
                for e in sorted(self.evaluations, key=lambda e: e.value)]
        return _csv(headers, rows)


def _search_points(option, low: float, high: float, done: set) -> list:
    """Up to BALANCE_POINTS evenly spaced values of [low, high] not evaluated yet."""
    points = np.linspace(low, high, BALANCE_POINTS)
    if option.kind == "int":
        values = [int(round(p)) for p in points]
    else:
        values = [float(p) for p in points]
    return [v for v in dict.fromkeys(values) if v not in done]


def _jackknife_interval(evaluations: list[Evaluation], bracket: tuple[float, float],
                        limits: tuple[float, float]) -> tuple[float, float] | None:
    """The 95% interval of the fairest value in ``bracket`` by leaving out one batch at a time
    (clipped to ``limits``).

    All values ran the same games (common random numbers), so batch ``b`` is the same
    games everywhere and the jackknife keeps the correlation between values.
    """
    low, high = bracket
    xs = np.array([e.value for e in evaluations], dtype=np.float64)
    wins = np.stack([e.batch_wins for e in evaluations])  # [values, batches, seats]
    sizes = evaluations[0].run.batches.expected[evaluations[0].run.batches.complete()].astype(np.float64)
    batches = wins.shape[1]
    if batches < 2:
        return None
    total_wins = wins.sum(axis=1)
    total_games = sizes.sum()
    estimate, _ = _fairest_value(xs, total_wins / total_games, low, high)
    leave_out = np.array([_fairest_value(xs, (total_wins - wins[:, b]) / (total_games - sizes[b]), low, high)[0]
                          for b in range(batches)])
    se = math.sqrt((batches - 1) / batches * float(np.sum((leave_out - leave_out.mean()) ** 2)))
    half = t_quantile_95(batches - 1) * se
    return (max(limits[0], estimate - half), min(limits[1], estimate + half))


def balance(param: str, game: str | None = None, scenario: str | Path | None = None, players: int | None = None,
            strategies: list[str] | None = None, rules: dict[str, Any] | None = None,
            sets: list[str] | None = None, n: int | str = 100_000, precision: float | None = None,
            seed: int | None = None, workers: int | None = None, progress: bool | None = False,
            backend: str = "local", scheduler: str | None = None,
            checkpoint: str | Path | None = None) -> Balance:
    """Search ``name=low:high`` for the value that brings the seat win rates closest together.

    Each round plays up to five values of the current bracket, ``n`` games each with
    the same seed; a line per seat fitted to the values in the bracket gives the value
    where the lines are closest (Ludii's balance: one minus the largest gap), its 95%
    interval comes from a jackknife over batches, and the bracket shrinks around it.
    The search stops once the interval is narrower than ``precision`` (default: a tenth
    of the range) and the bracket at most 2.5 times that wide, or after six rounds.
    """
    execution = Execution.create(seed, workers, backend, scheduler, checkpoint, progress)
    n = parse_count(n)
    scenario = None if scenario is None else str(scenario)
    base = resolve(game=game, scenario=scenario, players=players, strategies=strategies, rules=rules, sets=sets)
    option, low, high = parse_search_param(base.game, param)
    _forbid_set(option.name, sets)
    if precision is None:
        precision = (high - low) / 10
    elif isinstance(precision, bool) or not isinstance(precision, (int, float)) or not precision > 0:
        raise AnalyzerError(f"--precision {precision!r} is not allowed: it must be a number above 0")
    evaluations: dict[Any, Evaluation] = {}

    def evaluate(value) -> Evaluation:
        if value not in evaluations:
            spec = resolve(game=base.game.id, scenario=scenario, players=players, strategies=strategies,
                           rules={**(rules or {}), option.name: value}, sets=sets)
            run = execution.play(spec, n, len(evaluations), batch_keys=("games", "wins"))
            evaluations[value] = Evaluation(value, run)
        return evaluations[value]

    bracket = (low, high)
    recommended, fitted_gap, interval = low, 1.0, None
    rounds = 0
    for rounds in range(1, BALANCE_MAX_ROUNDS + 1):
        new = _search_points(option, *bracket, set(evaluations))
        for value in new:
            evaluate(value)
        inside = [e for v, e in sorted(evaluations.items()) if bracket[0] <= v <= bracket[1]]
        xs = np.array([e.value for e in inside], dtype=np.float64)
        recommended, fitted_gap = _fairest_value(xs, np.stack([e.win_rates for e in inside]), *bracket)
        interval = _jackknife_interval(inside, bracket, (low, high))
        local = bracket[1] - bracket[0] <= LOCAL_FIT_WIDTH * precision
        # at an inner edge of the bracket the fairest value may lie beyond it: move the bracket first
        settled = bracket[0] < recommended < bracket[1] or recommended in (low, high)
        if interval is not None and interval[1] - interval[0] < precision and settled and (local or not new):
            break
        if not new and rounds > 1:
            break
        width = bracket[1] - bracket[0]
        half = max(width / 4, 0.75 * (interval[1] - interval[0]) if interval else width / 2)
        if option.kind == "int":
            half = max(half, 2)
        centre = min(max(recommended, low + half), high - half)
        bracket = (max(low, centre - half), min(high, centre + half))
    if option.kind == "int":
        recommended = int(round(recommended))
        if interval is not None:
            interval = (math.floor(interval[0]), math.ceil(interval[1]))
    measured = evaluate(recommended)  # the fitted lines are a model: measure the recommendation itself
    return Balance(option, low, high, precision, list(evaluations.values()), rounds, recommended, interval,
                   fitted_gap, measured, execution.seed, n)
