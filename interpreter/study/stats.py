"""Small statistics for reports: Wilson intervals for win rates, means and spreads."""
from __future__ import annotations

import math
from statistics import NormalDist


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for a confidence level (1.96 for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(wins: float, n: int, confidence: float = 0.95) -> tuple:
    """The Wilson score interval of a win rate (wins may be fractional: shared wins of a tie)."""
    if n == 0:
        return (0.0, 1.0)
    z = z_for(confidence)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_sd(xs) -> tuple:
    """Mean and sample standard deviation (0 for fewer than two values; None, None for none)."""
    xs = list(xs)
    n = len(xs)
    if n == 0:
        return (None, None)
    m = sum(xs) / n
    if n < 2:
        return (m, 0.0)
    return (m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)))


__all__ = ["z_for", "wilson", "mean_sd"]
