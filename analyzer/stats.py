"""Statistics shared by every game: intervals and histogram summaries."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, total_sq: float, n: float, z: float = Z95) -> tuple[float, float, float]:
    """Mean, standard deviation and the half-width of the mean's normal interval.

    From a sum and a sum of squares (exact integers converted once, so the result
    does not depend on how the games were chunked).
    """
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0)
    if n > 1:
        variance *= n / (n - 1)
    sd = math.sqrt(variance)
    return mean, sd, z * sd / math.sqrt(n)


def histogram_summary(counts: np.ndarray, low: int = 0, width: int = 1) -> dict:
    """Mean, median, 5th and 95th percentiles (nearest rank) and max of a histogram.

    Bin ``i`` holds the value ``low + i * width``.
    """
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum()
    if n == 0:
        return {"mean": math.nan, "median": math.nan, "p5": math.nan, "p95": math.nan, "max": math.nan}
    values = low + width * np.arange(counts.size)
    cumulative = np.cumsum(counts)

    def quantile(q: float) -> int:
        return int(values[int(np.searchsorted(cumulative, q * n - 1e-9 * n, side="left"))])

    return {
        "mean": float((counts * values).sum() / n),
        "median": quantile(0.5),
        "p5": quantile(0.05),
        "p95": quantile(0.95),
        "max": int(values[np.nonzero(counts)[0][-1]]),
    }

