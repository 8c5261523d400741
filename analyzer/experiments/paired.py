"""Paired differences between two runs of the same games (common random numbers).

Both runs used one seed and one ``n``, so batch ``b`` of each holds the same games:
the batch differences give the interval of a difference, and their variance against
that of two independent runs the measured gain of pairing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyzer.experiments.batches import VariantRun, batch_variance, t_quantile_95


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
