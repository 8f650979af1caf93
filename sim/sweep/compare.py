"""Difference of the primary rate between two sweep cells, paired when it can be.

Cells of a ``paired = true`` sweep play the same streams block by block (common random
numbers), so their per-block rates move together. The paired interval is the batch-means
one: the blocks' differences d_k are treated as K independent estimates and the interval
is D ± t(K-1) · se, with se from their spread (a ratio estimator when blocks differ in
size). Cells that do not share streams get the unpaired (Wald) interval.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from sim.core.output import read_manifest
from sim.errors import SimInputError
from sim.sweep.dataset import SUMMARY_FILE, nested_tables

Z95 = 1.959963984540054


def load_cell(path: str | Path) -> tuple[dict, pl.DataFrame, dict]:
    """One sweep cell directory: its row and its manifest."""
    p = Path(path)
    if not p.exists():
        raise SimInputError(f"{p}: no such directory (a sweep cell: …/sweep=NAME/cell=I)")
    if not (p / SUMMARY_FILE).is_file():
        raise SimInputError(f"{p}: not a sweep cell directory (…/sweep=NAME/cell=I)")
    man = read_manifest(p.parent) or {}
    row = pl.read_parquet(p / SUMMARY_FILE)
    if "blocks" not in row.columns:
        raise SimInputError(f"{p}: the cell has no block table")
    blocks = row.select("blocks").explode("blocks").unnest("blocks").drop_nulls()
    return row.drop(nested_tables(row.schema)).row(0, named=True), blocks, man


def paired_interval(games, successes_a, successes_b) -> tuple[float, float, float, float]:
    """The batch-means 95% interval of A − B over K ≥ 2 common blocks (``games[k]`` games
    each, ``successes_*[k]`` wins): (diff, se, low, high), the interval diff ± t(K-1)·se."""
    n = np.asarray(games, dtype=float)
    d = (np.asarray(successes_a) - np.asarray(successes_b)).astype(float)
    N, K = n.sum(), len(n)
    diff = d.sum() / N
    se = math.sqrt(K / (K - 1) * np.sum((n / N) ** 2 * (d / n - diff) ** 2))
    q = float(stats.t.ppf(0.975, K - 1))
    return diff, se, diff - q * se, diff + q * se


def compare_cells(a: str | Path, b: str | Path) -> dict:
    """The difference A − B of the primary rate with its 95% CI (paired over common blocks when possible)."""
    sa, ba, ma = load_cell(a)
    sb, bb, mb = load_cell(b)
    if sa["metric"] != sb["metric"] or ma.get("game") != mb.get("game"):
        raise SimInputError(f"cannot compare {sa['metric']} of {ma.get('game')} with {sb['metric']} of {mb.get('game')}")
    ga, gb = int(sa["games"]), int(sb["games"])
    ra, rb = sa["successes"] / ga, sb["successes"] / gb
    unpaired_se = math.sqrt(ra * (1 - ra) / ga + rb * (1 - rb) / gb)
    out = {"a": str(a), "b": str(b), "metric": sa["metric"], "games_a": ga, "games_b": gb,
           "rate_a": ra, "rate_b": rb, "unpaired_se": unpaired_se}
    same_streams = bool(ma.get("paired")) and bool(mb.get("paired")) and ma.get("seed") == mb.get("seed")
    j = ba.join(bb, on=["start", "games"], suffix="_b") if same_streams else None
    if j is not None and j.height >= 2:
        n = j["games"].to_numpy()
        diff, se, lo, hi = paired_interval(n, j["successes"].to_numpy(), j["successes_b"].to_numpy())
        out.update(paired=True, blocks=len(n), games_paired=int(n.sum()), diff=diff, se=se, ci_low=lo,
                   ci_high=hi, variance_ratio=(se / unpaired_se) ** 2 if unpaired_se > 0 else float("nan"))
    else:
        diff = ra - rb
        out.update(paired=False, blocks=0, games_paired=0, diff=diff, se=unpaired_se,
                   ci_low=diff - Z95 * unpaired_se, ci_high=diff + Z95 * unpaired_se, variance_ratio=1.0)
    return out
