"""Intervals pinned both ways (issue 43): against published values to their printed precision,
and by coverage with a two-sided band whose power is shown (an interval 20 % too wide or too
narrow falls outside the band). The oracles are independent of the code: Newcombe's table,
printed t quantiles, the score test inverted by root finding, scipy's one-sample t interval."""
import json
import math

import numpy as np
import polars as pl
import pytest
from scipy import optimize, stats

from sim.core.stats import Z95, standard_error, wilson
from sim.sweep.compare import compare_cells, paired_interval

# Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (score, no continuity
# correction), printed to 4 decimals.
NEWCOMBE = [((81, 263), (0.2553, 0.3662)), ((15, 148), (0.0624, 0.1605)),
            ((0, 20), (0.0000, 0.1611)), ((1, 29), (0.0061, 0.1718))]


@pytest.mark.parametrize("kn,ci", NEWCOMBE)
def test_wilson_matches_newcombe_to_four_decimals(kn, ci):
    lo, hi = wilson(*kn)
    assert abs(lo - ci[0]) <= 5e-5 and abs(hi - ci[1]) <= 5e-5, (kn, lo, hi)


def _score_root(k, n, side):
    """The end of the score interval found by inverting the score test: (k - np)^2 = z^2 np(1-p)."""
    f = lambda p: (k - n * p) ** 2 - Z95 ** 2 * n * p * (1 - p)
    ph = k / n
    eps = 1e-13  # f vanishes at p = k/n when k is 0 or n: start the search just inside
    if side < 0:
        return 0.0 if k == 0 else optimize.brentq(f, eps, min(ph, 1 - eps))
    return 1.0 if k == n else optimize.brentq(f, max(ph, eps), 1 - eps)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 2), (3, 7), (0, 50), (2, 50), (49, 50), (500, 1000), (7, 100000)])
def test_wilson_is_the_inverted_score_test(k, n):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(_score_root(k, n, -1), abs=1e-9)
    assert hi == pytest.approx(_score_root(k, n, +1), abs=1e-9)


def _scaled(lo, hi, f):
    c = (lo + hi) / 2
    return c - f * (c - lo), c + f * (hi - c)


def _mean_coverage(n, f=1.0):
    """Exact coverage of the (scaled) Wilson interval, averaged over p on a grid in [0.1, 0.9]."""
    ks = np.arange(n + 1)
    ints = [_scaled(*wilson(int(k), n), f) for k in ks]
    lo = np.array([a for a, _ in ints])
    hi = np.array([b for _, b in ints])
    cov = []
    for p in np.linspace(0.1, 0.9, 81):
        cov.append(stats.binom.pmf(ks, n, p)[(lo <= p) & (p <= hi)].sum())
    return float(np.mean(cov))


@pytest.mark.parametrize("n", [40, 200])
def test_wilson_coverage_is_nominal_both_ways(n):
    """Mean exact coverage within ±1 point of 95 %; the same interval 20 % wider or narrower
    leaves the band (so the band can tell)."""
    assert 0.94 <= _mean_coverage(n) <= 0.96
    assert _mean_coverage(n, 1.2) > 0.96 and _mean_coverage(n, 0.8) < 0.94


# ----------------------------------------------------------------------------- paired t
def test_paired_interval_is_the_one_sample_t_interval():
    """Equal blocks: the ratio estimator is the plain mean of the blocks' rate differences, and
    the interval scipy's one-sample t interval of those differences."""
    rng = np.random.default_rng(4)
    n = np.full(9, 500)
    a, b = rng.binomial(n, 0.4), rng.binomial(n, 0.37)
    diff, se, lo, hi = paired_interval(n, a, b)
    ci = stats.ttest_1samp((a - b) / n, 0.0).confidence_interval(0.95)
    assert diff == pytest.approx(((a - b) / n).mean(), abs=1e-15)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)


# Printed two-sided 95 % t quantiles (any t table, 3 decimals): df → t(0.975, df).
T_TABLE = {1: 12.706, 4: 2.776, 9: 2.262, 15: 2.131, 30: 2.042}


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_paired_interval_uses_the_95_percent_quantile(df):
    rng = np.random.default_rng(df)
    n = rng.integers(100, 200, df + 1)
    a, b = rng.binomial(n, 0.5), rng.binomial(n, 0.45)
    diff, se, lo, hi = paired_interval(n, a, b)
    assert (hi - diff) / se == pytest.approx(T_TABLE[df], abs=5e-4)
    assert (diff - lo) / se == pytest.approx(T_TABLE[df], abs=5e-4)


def _paired_blocks(rng, reps, k, n, pa, pb):
    """Common random numbers: one uniform per game decides both cells (A wins below pa, B below
    pb < pa), so the blocks' counts are multinomial (both, A only, neither)."""
    m = rng.multinomial(n, [pb, pa - pb, 1 - pa], size=(reps, k))
    return m[..., 0] + m[..., 1], m[..., 0]


def test_paired_interval_coverage_both_ways():
    """4,000 paired comparisons of 16 blocks: the 95 % interval covers the true difference in
    93.8 – 96.2 % of them (±3.5 binomial sd); 20 % wider (97.8 % expected) or narrower (89 %)
    or a 99 % interval labelled 95 % would leave the band."""
    rng = np.random.default_rng(20261206)
    reps, k, n, pa, pb = 4000, 16, 200, 0.5, 0.44
    A, B = _paired_blocks(rng, reps, k, n, pa, pb)
    games = np.full(k, n)
    hits = {0.8: 0, 1.0: 0, 1.2: 0}
    for r in range(reps):
        diff, _, lo, hi = paired_interval(games, A[r], B[r])
        for f in hits:
            flo, fhi = diff - f * (diff - lo), diff + f * (hi - diff)
            hits[f] += flo <= pa - pb <= fhi
    cov = {f: h / reps for f, h in hits.items()}
    assert 0.938 <= cov[1.0] <= 0.962, cov
    assert cov[1.2] > 0.962 and cov[0.8] < 0.938, cov  # the band has the power it claims


def _cell(root, i, blocks, seed=1, paired=True):
    """A sweep cell directory written by hand: the sweep's manifest and the cell's one row."""
    sd = root / "game=werewolf" / "sweep=hand"
    (sd / f"cell={i}").mkdir(parents=True, exist_ok=True)
    (sd / "_manifest.json").write_text(json.dumps({"game": "werewolf", "paired": paired, "seed": seed}))
    rows = [{"start": s, "games": g, "successes": w} for s, g, w in blocks]
    pl.DataFrame({"metric": ["village"], "games": [sum(r["games"] for r in rows)],
                  "successes": [sum(r["successes"] for r in rows)], "blocks": [rows]}
                 ).write_parquet(sd / f"cell={i}" / "part-0.parquet")
    return sd / f"cell={i}"


def test_compare_cells_reports_the_95_percent_paired_interval(tmp_path):
    """Five blocks of 100 games, rate differences 0.05, 0.07, 0.03, 0.06, 0.04: mean 0.05,
    sd 0.0158114 (by hand), se = sd/√5 = 0.0070711, t(0.975, 4) = 2.776 (table)."""
    a = _cell(tmp_path, 0, [(0, 100, 50), (100, 100, 52), (200, 100, 48), (300, 100, 51), (400, 100, 49)])
    b = _cell(tmp_path, 1, [(0, 100, 45), (100, 100, 45), (200, 100, 45), (300, 100, 45), (400, 100, 45)])
    d = compare_cells(a, b)
    assert d["paired"] and d["blocks"] == 5
    assert d["diff"] == pytest.approx(0.05, abs=1e-12)
    se = math.sqrt(0.001 / 4) / math.sqrt(5)
    assert d["se"] == pytest.approx(se, rel=1e-9)
    assert d["ci_high"] == pytest.approx(0.05 + 2.776 * se, abs=5e-4 * se)
    assert d["ci_low"] == pytest.approx(0.05 - 2.776 * se, abs=5e-4 * se)
    # the same blocks of another seed share no streams: the Wald interval ±1.96 se of the two rates
    c = _cell(tmp_path / "other", 1, [(s, 100, 45) for s in range(0, 500, 100)], seed=2)
    u = compare_cells(a, c)
    se_u = math.sqrt(0.5 * 0.5 / 500 + 0.45 * 0.55 / 500)
    assert not u["paired"] and u["ci_high"] - u["diff"] == pytest.approx(1.96 * se_u, rel=1e-4)


def test_paired_difference_is_the_difference_of_the_rates():
    """Blocks of unequal size: the paired estimate is still rate(A) − rate(B) over all games
    (10 − 0 more wins in 100 + 300 games: 0.025, not the blocks' unweighted mean 0.05)."""
    diff, *_ = paired_interval([100, 300], [40, 120], [30, 120])
    assert diff == pytest.approx(10 / 400, abs=1e-15)


def test_standard_error_is_the_binomial_one():
    """sqrt(p(1 − p)/n): 0.3 over 100 games is sqrt(0.0021) = 0.0458258 (by hand)."""
    assert standard_error(0.3, 100) == pytest.approx(0.0458258, abs=5e-8)
    assert standard_error(0.5, 1) == pytest.approx(0.5, abs=1e-15)


def test_one_common_block_is_not_a_paired_comparison(tmp_path):
    """A paired interval needs K ≥ 2 blocks (its spread has K − 1 degrees of freedom): cells of
    the same streams sharing a single block get the unpaired interval."""
    a = _cell(tmp_path, 0, [(0, 400, 200)])
    b = _cell(tmp_path, 1, [(0, 400, 180)])
    d = compare_cells(a, b)
    assert not d["paired"] and d["diff"] == pytest.approx(0.05, abs=1e-12)


@pytest.mark.parametrize("n", range(1, 40))
def test_no_successes_start_at_zero_and_all_end_at_one(n):
    """The score interval of 0/n starts at exactly 0 and that of n/n ends at exactly 1 (the
    score equation's root p = k/n); the closed form's rounding leaves ~1e-17 for some n."""
    assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0
