"""Interval estimates for win rates."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default 95%)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def standard_error(p: float, n: int) -> float:
    """The binomial standard error of a rate."""
    return math.sqrt(max(p * (1 - p), 1e-300) / max(n, 1))


def bradley_terry(wins, z: float = Z95) -> list[dict]:
    """Bradley–Terry ratings from a pairwise score matrix: ``wins[i][j]`` is what i scored
    against j (a win 1, a draw ½ to each). P(i beats j) = 1 / (1 + exp(r_j − r_i)); the
    ratings r are the maximum-likelihood fit (scipy.optimize.minimize, L-BFGS-B on the
    exact gradient), centred to mean 0, with Wald intervals ±z·se from the inverse Fisher
    information of the centred ratings. A build that never lost (or never won) has no
    finite rating: its rating and interval are ±inf (the others are fitted among
    themselves). Returns one dict per row:
    ``rating``, ``se``, ``ci_low``, ``ci_high``."""
    import numpy as np
    from scipy.optimize import minimize

    w = np.array(wins, dtype=float)
    np.fill_diagonal(w, 0.0)  # a build's score against itself means nothing
    k = w.shape[0]
    n = w + w.T
    total_won = w.sum(axis=1)
    total_played = n.sum(axis=1)
    free = (total_won > 0) & (total_won < total_played)
    idx = np.flatnonzero(free)

    ws, ns = w[np.ix_(idx, idx)], n[np.ix_(idx, idx)]  # the pairs among builds with a finite rating

    def nll(x):
        d = x[:, None] - x[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        # -sum_ij w_ij log sigmoid(x_i - x_j) and its gradient
        return float((ws * np.logaddexp(0.0, -d)).sum()), -(ws - ns * p).sum(axis=1)

    out = [{"rating": 0.0, "se": float("nan"), "ci_low": float("nan"), "ci_high": float("nan")} for _ in range(k)]
    if len(idx) >= 2:
        x = minimize(nll, np.zeros(len(idx)), jac=True, method="L-BFGS-B").x
        x = x - x.mean()
        p = 1.0 / (1.0 + np.exp(-(x[:, None] - x[None, :])))
        info = ns * p * (1 - p)
        fisher = np.diag(info.sum(axis=1)) - info
        c = np.eye(len(idx)) - 1.0 / len(idx)  # the centring projection
        cov = c @ np.linalg.pinv(fisher) @ c
        se = np.sqrt(np.clip(np.diag(cov), 0, None))
        for m, i in enumerate(idx):
            out[i] = {"rating": float(x[m]), "se": float(se[m]), "ci_low": float(x[m] - z * se[m]),
                      "ci_high": float(x[m] + z * se[m])}
    for i in range(k):
        if not free[i]:
            inf = math.inf if total_won[i] > 0 else -math.inf
            out[i] = {"rating": inf, "se": math.inf, "ci_low": inf if inf > 0 else -math.inf,
                      "ci_high": inf if inf > 0 else -math.inf}
    return out
