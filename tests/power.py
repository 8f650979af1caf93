"""How large an effect a Monte Carlo check can see (issue 43, docs/testing.md "Power").

A check ``|estimate − expected| ≤ k·se`` passes on any true shift much smaller than k·se, so
a 4·SE band over n games says nothing of a bug that moves the result by less. The helpers
say what it does catch: the smallest true shift δ that makes the check fail with
probability ``power`` (the estimate is normal around expected + δ with sd se; the check
fails once δ − k·se exceeds z_power·se), i.e. δ = (k + z_power)·se. A test that claims to
catch a bug of a known size asserts ``detectable_effect(...) <= that size``; where the bug is
smaller, the test needs more games or an exact comparison.
"""
from __future__ import annotations

import math
from statistics import NormalDist

K = 4.0       # the project's band: 4 standard errors (a false alarm about once in 16,000 checks)
POWER = 0.9


def detectable_shift(se: float, k: float = K, power: float = POWER) -> float:
    """The smallest true shift a ``|x − expected| ≤ k·se`` check sees with ``power``."""
    return (k + NormalDist().inv_cdf(power)) * se


def detectable_effect(n: int, p: float, k: float = K, power: float = POWER) -> float:
    """The same for a rate ``p`` estimated from ``n`` independent games: the band is k·se at p,
    the spread of the estimate that of the shifted rate (the larger of p ± δ, so that the
    power holds in both directions)."""
    z = NormalDist().inv_cdf(power)
    se0 = math.sqrt(p * (1 - p) / n)
    d = detectable_shift(se0, k, power)
    for _ in range(20):  # δ = k·se(p) + z·se(p ± δ): a contraction, a few steps suffice
        q = min(max(p + d, 0.0), 1.0), min(max(p - d, 0.0), 1.0)
        d = k * se0 + z * max(math.sqrt(x * (1 - x) / n) for x in q)
    return d


def games_to_detect(effect: float, p: float, k: float = K, power: float = POWER) -> int:
    """The fewest games with which a rate check sees a shift of ``effect`` with ``power``."""
    lo, hi = 1, 2 * math.ceil(((k + NormalDist().inv_cdf(power)) / effect) ** 2 * p * (1 - p)) + 10
    while lo < hi:  # detectable_effect falls with n
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if detectable_effect(mid, p, k, power) <= effect else (mid + 1, hi)
    return lo


def t_variance_band(n: int, df: int, alpha: float = 0.01, factor: float = 2.0, reps: int = 20_000,
                    seed: int = 43) -> tuple[float, float, float]:
    """A two-sided band for the sample variance of ``n`` standardised errors (estimate −
    truth) / se that follow Student's t with ``df`` degrees of freedom when the interval's se
    is right, with its power: (low, high, the smaller chance of leaving the band when se is
    ``factor`` times too large or too small). Simulated (``reps`` samples, a fixed seed)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    v = rng.standard_t(df, size=(reps, n)).var(axis=1, ddof=1)
    lo, hi = np.quantile(v, [alpha / 2, 1 - alpha / 2])
    power = min(float(np.mean((v / factor ** 2 < lo) | (v / factor ** 2 > hi))),
                float(np.mean((v * factor ** 2 < lo) | (v * factor ** 2 > hi))))
    return float(lo), float(hi), power
