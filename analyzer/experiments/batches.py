"""Runs of an experiment with their chunks summed into batches, for intervals without per-game memory.

Each run sums its chunks' aggregates into a fixed number of contiguous *batches* of
the chunk plan (:class:`ChunkBins`); the plan depends only on ``n``, so batch ``b``
holds the same games in every run of the same ``n``. Batch means give every metric's
interval (Student t over the batches) and, paired between runs, the interval of a
difference (:mod:`analyzer.experiments.paired`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from analyzer.api import run_spec
from analyzer.engine.aggregate import Totals
from analyzer.engine.chunks import chunk_count, chunk_size
from analyzer.execution import Execution
from analyzer.experiments.metrics import metric_values
from analyzer.result import Result
from analyzer.runspec import RunSpec
from analyzer.stats import Z95, wilson_interval

#: batches per run for batch-means intervals (Student t with batches - 1 degrees of freedom)
BATCHES = 32
#: points of the running win-rate curve (contiguous bins of the chunk plan)
CURVE_POINTS = 200

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


def batch_variance(values: np.ndarray, sizes: np.ndarray) -> float | None:
    """Per-game variance estimated from batch values (weighted by batch size), or None.

    A statistic over ``n`` games then has variance ``batch_variance / n``.
    """
    if len(values) < 2:
        return None
    mean = float(np.sum(sizes * values) / np.sum(sizes))
    return float(np.sum(sizes * (values - mean) ** 2) / (len(values) - 1))


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
    def details(self):
        """The finer measures per batch (:func:`analyzer.experiments.details.run_details`)."""
        from analyzer.experiments.details import run_details

        return run_details(self)

    @cached_property
    def convergence(self) -> Convergence | None:
        return None if self.curve_bins is None else Convergence.from_bins(self.curve_bins)


def play_variant(execution: Execution, spec: RunSpec, n: int, curve: bool = False,
                 batch_keys: tuple[str, ...] | None = None, progress=None) -> VariantRun:
    """Run ``spec`` as ``execution`` says, summing its chunks into batches (and the curve's bins);
    ``progress``: a longer task's bar to advance instead of the run's own."""
    batches = ChunkBins(n, BATCHES, batch_keys)
    curve_bins = ChunkBins(n, CURVE_POINTS, ("games", "wins")) if curve else None

    def on_chunk(chunk, aggregates):
        batches.add(chunk, aggregates)
        if curve_bins is not None:
            curve_bins.add(chunk, aggregates)

    result = run_spec(spec, n, execution, on_chunk=on_chunk, progress=progress)
    return VariantRun(spec, result, batches, curve_bins)
