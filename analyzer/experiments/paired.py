"""Paired differences between two runs of the same games (common random numbers).

Both runs used one seed and one ``n``, so batch ``b`` of each holds the same games:
the batch differences give the interval and the p-value of a difference (Student t with
batches − 1 degrees of freedom), and their variance against that of two independent runs
the measured gain of pairing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyzer.experiments.batches import VariantRun, batch_variance, t_quantile_95
from analyzer.experiments.significance import t_two_sided_p


@dataclass(frozen=True)
class Difference:
    """``b - a`` of one metric with its 95% interval and two-sided p-value from paired batch differences.

    Whether it is significant among the other differences of a comparison is the comparison's
    to say (false discovery rate control, :attr:`analyzer.experiments.Comparison.significant`);
    :attr:`significant_unadjusted` is this difference tested alone.
    """

    value: float | None
    interval: tuple[float, float] | None
    #: two-sided p-value of "no difference", from the same Student t as the interval (None without one)
    p_value: float | None
    #: variance of independent runs over that of the paired difference (the common random numbers' gain)
    variance_reduction: float | None

    @property
    def significant_unadjusted(self) -> bool:
        """The 95% interval excludes 0."""
        return self.interval is not None and not self.interval[0] <= 0.0 <= self.interval[1]


def paired_difference(a: VariantRun, b: VariantRun, key: str) -> Difference:
    if key not in a.values or key not in b.values:
        return Difference(None, None, None, None)
    batches_a, sizes, table_a = a.batch_values
    batches_b, _, table_b = b.batch_values
    same = batches_a == batches_b
    return paired_values(a.values[key], b.values[key], table_a.get(key) if same else None,
                         table_b.get(key) if same else None, sizes, a.n)


def paired_values(value_a: float, value_b: float, batches_a: np.ndarray | None, batches_b: np.ndarray | None,
                  sizes: np.ndarray, n: int) -> Difference:
    """``value_b - value_a`` with the interval and p-value of the batch differences (the same batches of games
    in both runs; None: no batches, so no interval)."""
    value = value_b - value_a
    if batches_a is None or batches_b is None:
        return Difference(value, None, None, None)
    variance = batch_variance(batches_b - batches_a, sizes)
    if variance is None:
        return Difference(value, None, None, None)
    df = len(sizes) - 1
    error = math.sqrt(variance / n)
    half = t_quantile_95(df) * error
    t = value / error if error > 0 else (math.nan if value == 0 else math.copysign(math.inf, value))
    independent = batch_variance(batches_a, sizes) + batch_variance(batches_b, sizes)
    reduction = independent / variance if variance > 0 else (math.inf if independent > 0 else None)
    return Difference(value, (value - half, value + half), t_two_sided_p(t, df), reduction)
