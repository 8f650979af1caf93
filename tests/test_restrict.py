"""The paired difference of restricted play: its interval covers the truth about 95% of the
time, and it is narrow when the two variants' games are correlated."""
import numpy as np

from sim.analysis.restrict import paired_delta


def _coverage(rho_shared: bool, rng, reps=500, B=32, n=200, p0=0.55, p1=0.5):
    hit, width = 0, 0.0
    for _ in range(reps):
        u = rng.random((B, n))
        v = u if rho_shared else rng.random((B, n))
        s0, s1 = (u < p0).sum(1).astype(float), (v < p1).sum(1).astype(float)
        d, lo, hi = paired_delta(s0, s1, np.full(B, float(n)))
        hit += lo <= p1 - p0 <= hi
        width += (hi - lo) / 2
    return hit / reps, width / reps


def test_paired_delta_covers_the_truth():
    rng = np.random.default_rng(5)
    for shared in (True, False):
        cov, _ = _coverage(shared, rng)
        assert 0.92 <= cov <= 0.98, (shared, cov)


def test_pairing_narrows_the_interval_when_games_are_shared():
    rng = np.random.default_rng(6)
    _, paired = _coverage(True, rng, reps=100)
    _, indep = _coverage(False, rng, reps=100)
    assert paired < 0.5 * indep


def test_competence_needs_power():
    """Competent only when the whole interval clears −1 point; not competent below 0; in
    between, the games per row that would narrow the interval past −1 point (∝ 1/√games)."""
    from sim.analysis.restrict import competence_verdict

    assert competence_verdict(0.05, 0.02, 0.08, 100) == ("competent", None)
    assert competence_verdict(-0.05, -0.08, -0.02, 100) == ("not competent", None)
    # ±10 points at 100 games around +1 point: the half-width must fall to 2 points (1 − (−1)): 25× the games
    v, n = competence_verdict(0.01, -0.09, 0.11, 100)
    assert v == "inconclusive" and n == 2500
    assert competence_verdict(-0.02, -0.05, 0.01, 1000) == ("inconclusive", None)  # the estimate below −1 point
