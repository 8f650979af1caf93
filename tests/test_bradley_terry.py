"""sim.core.stats.bradley_terry: the maximum-likelihood ratings and their intervals."""
import math

import numpy as np

from sim.core.stats import bradley_terry


def test_two_builds_have_the_closed_form():
    """Two builds: r0 − r1 = log(w01 / w10), each ±half of it, se = ½ / sqrt(n p (1 − p))."""
    r = bradley_terry([[0, 600], [400, 0]])
    d = math.log(600 / 400)
    assert abs(r[0]["rating"] - d / 2) < 1e-5 and abs(r[1]["rating"] + d / 2) < 1e-5
    se = 0.5 / math.sqrt(1000 * 0.6 * 0.4)
    assert abs(r[0]["se"] - se) < 1e-6
    assert abs(r[0]["ci_high"] - r[0]["ci_low"] - 2 * 1.959963984540054 * se) < 1e-6


def test_ratings_recover_known_strengths():
    """Scores drawn from known ratings come back within their intervals; an unbeaten build is +inf."""
    true = np.array([0.8, 0.1, -0.3, -0.6])
    rng = np.random.default_rng(1)
    k, n = len(true), 4000
    w = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + math.exp(true[j] - true[i]))
            w[i, j] = rng.binomial(n, p)
            w[j, i] = n - w[i, j]
    got = bradley_terry(w)
    assert all(g["ci_low"] - 0.02 <= t <= g["ci_high"] + 0.02 for g, t in zip(got, true - true.mean()))
    assert abs(sum(g["rating"] for g in got)) < 1e-9
    w2 = np.vstack([np.hstack([w, np.full((k, 1), 0.0)]), np.full((1, k + 1), 10.0)])
    w2[k, k] = 0
    got2 = bradley_terry(w2)
    assert got2[k]["rating"] == math.inf and all(math.isfinite(g["rating"]) for g in got2[:k])
