"""Significance of many differences at once: Student t p-values and Benjamini–Hochberg control.

A comparison tests every metric of every scenario against the first, often thirty or more
differences; at 95% each, one or two would look significant by chance alone. The
Benjamini–Hochberg step-up procedure keeps the expected share of false discoveries among
the differences it marks at most ``FDR_LEVEL``. It is valid for independent tests and for
positively dependent ones (Benjamini & Yekutieli 2001), the case of metrics measured on the
same games (seat win rates, scores and lengths move together).
"""

from __future__ import annotations

import math

#: the false discovery rate Benjamini–Hochberg keeps the marked differences at
FDR_LEVEL = 0.05


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes 6.4)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 400):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return fraction


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), to about 1e-14 (a, b > 0, 0 <= x <= 1)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = a * math.log(x) + b * math.log1p(-x) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _continued_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _continued_fraction(b, a, 1.0 - x) / b


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom (exact, through the incomplete beta).

    ``t`` may be infinite (a difference with no variance: p = 0) or NaN (0/0: no evidence, p = 1).
    """
    if math.isnan(t):
        return 1.0
    if math.isinf(t):
        return 0.0
    if df < 1:
        return 1.0
    return min(1.0, regularized_beta(df / (df + t * t), df / 2.0, 0.5))


def benjamini_hochberg(p_values: list[float], level: float = FDR_LEVEL) -> list[bool]:
    """Which hypotheses Benjamini–Hochberg rejects at false discovery rate ``level``.

    With the ``m`` p-values sorted, p(1) <= ... <= p(m), the largest ``k`` with
    p(k) <= k / m * level is found and the ``k`` smallest are rejected (none if there is
    no such ``k``). The marks come back in the order of ``p_values``.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    cut = 0
    for rank, i in enumerate(order, start=1):
        if p_values[i] <= rank / m * level:
            cut = rank
    rejected = [False] * m
    for i in order[:cut]:
        rejected[i] = True
    return rejected
