"""Pooled points of a report: intervals that cover the truth for paired and unpaired
cells, and designs whose confounded axes are named (no line drawn through them)."""
import numpy as np
import polars as pl
import pytest

from sim.analysis.dataset import with_rates
from sim.analysis.marginals import design, pooled_point
from sim.core.stats import wilson

TRUE = np.array([0.30, 0.45, 0.55, 0.62])   # four cells pooled into one point
BLOCKS, N = 16, 250


def _synthetic(rng, paired: bool):
    """Cells' block successes; paired cells share each game's uniform draw (common random
    numbers: their outcomes are strongly correlated), unpaired cells draw their own."""
    rows, cells = [], []
    u_shared = rng.random((BLOCKS, N))
    for c, p in enumerate(TRUE):
        u = u_shared if paired else rng.random((BLOCKS, N))
        s = (u < p).sum(axis=1)
        for b in range(BLOCKS):
            rows.append({"cell": c, "block": b, "start": b * N, "games": N, "successes": int(s[b])})
        cells.append({"cell": c, "games": BLOCKS * N, "successes": int(s.sum())})
    return with_rates(pl.DataFrame(cells)), pl.DataFrame(rows)


@pytest.mark.parametrize("paired", [True, False])
def test_pooled_intervals_cover_the_truth_about_95_percent(paired):
    rng = np.random.default_rng(20261201 + paired)
    truth = TRUE.mean()
    reps, hit, naive_hit = 600, 0, 0
    for _ in range(reps):
        cells, blocks = _synthetic(rng, paired)
        _, lo, hi = pooled_point([0, 1, 2, 3], cells, blocks)
        hit += lo <= truth <= hi
        nlo, nhi = wilson(int(cells["successes"].sum()), int(cells["games"].sum()))  # the old pooled interval
        naive_hit += nlo <= truth <= nhi
    assert 0.92 <= hit / reps <= 0.98, hit / reps
    if paired:  # the old interval of summed games is far too narrow for paired cells
        assert naive_hit / reps < 0.85, naive_hit / reps


def test_without_blocks_the_interval_is_conservative():
    rng = np.random.default_rng(7)
    truth, reps, hit = TRUE.mean(), 400, 0
    for _ in range(reps):
        cells, _ = _synthetic(rng, True)
        _, lo, hi = pooled_point([0, 1, 2, 3], cells, None)
        hit += lo <= truth <= hi
    assert hit / reps >= 0.95


def test_design_names_confounded_axes():
    grid = pl.DataFrame({"a": [1, 1, 2, 2], "b": ["x", "y", "x", "y"]})
    assert design(grid, ["a", "b"]).full_grid and design(grid, ["a", "b"]).note() == ""
    # the demo's random draws: (14, 2d6+2), (17, 2d6+2), (14, 2d6)
    rnd = pl.DataFrame({"hp": [14, 17, 14], "dice": ["2d6+2", "2d6+2", "2d6"]})
    d = design(rnd, ["hp", "dice"])
    assert not d.full_grid and d.confounded == {"hp": ["dice"], "dice": ["hp"]}
    assert "does not cross dice with hp" in d.note()
