"""tests/power.py says what a 4·SE check can see; here the claim is checked by simulation
(binomial counts drawn with numpy, not the formula's normal approximation)."""
import math

import numpy as np
import pytest

from tests.power import detectable_effect, games_to_detect, t_variance_band


@pytest.mark.parametrize("n, p", [(2_000, 0.3), (20_000, 0.05), (200_000, 0.5)])
def test_a_shift_of_the_detectable_effect_fails_the_check_nine_times_in_ten(n, p):
    rng = np.random.default_rng(43)
    se = math.sqrt(p * (1 - p) / n)
    d = detectable_effect(n, p)
    fails = np.abs(rng.binomial(n, p + d, 200_000) / n - p) > 4 * se
    assert 0.89 <= fails.mean() <= 0.93, fails.mean()
    half = np.abs(rng.binomial(n, p + d / 2, 200_000) / n - p) > 4 * se  # half of it: mostly missed
    assert half.mean() < 0.2
    null = np.abs(rng.binomial(n, p, 200_000) / n - p) > 4 * se
    assert null.mean() < 5e-4


def test_games_to_detect_inverts_detectable_effect():
    n = games_to_detect(0.01, 0.4)
    assert detectable_effect(n, 0.4) <= 0.01 < detectable_effect(n - 1, 0.4)


def test_the_t_variance_band_is_two_sided_with_power():
    lo, hi, power = t_variance_band(80, 15)
    assert lo < 15 / 13 < hi  # the variance of Student's t(15)
    assert power > 0.99
    lo20, hi20, power20 = t_variance_band(80, 15, factor=1.2)
    assert (lo20, hi20) == (lo, hi) and power20 < 0.5  # a 20 % error: out of this test's reach
