"""Marginal effects that are right for the design they come from.

* **Which axes are crossed.** Two axes are *crossed* when every pair of their values
  occurs among the cells; a full grid crosses every pair. An axis whose values are
  not crossed with another axis' (random draws, a hand-picked list of points) is
  *confounded* with it: pooling its cells per value mixes its effect with the other
  axis', so the report draws no line for it, only the cells as measured, and names the
  axes it is confounded with.
* **A pooled point's interval.** A point pooled over the other axes is the mean of its
  cells' rates. Cells of a paired sweep play the same random streams, so their errors
  are correlated and one Wilson interval of the summed games is too narrow. The block
  table of each cell (its successes per chunk of games; chunk ``b`` of every cell plays
  the same games when paired) gives an honest one: per block, the mean of the cells'
  block rates; the point is their games-weighted mean and its variance comes from the
  spread of the block means (a ratio estimator, t quantile with blocks − 1 degrees of
  freedom). It is valid paired or not. Without usable blocks (adaptive cells of unequal
  length, a run), the interval assumes the worst correlation: its half-width is the mean
  of the cells' own half-widths.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import polars as pl

MIN_BLOCKS = 4


def as_label(df: pl.DataFrame, col: str) -> pl.DataFrame:
    """Parameter values as sortable plain values (lists become "a,b")."""
    dt = df.schema[col]
    if isinstance(dt, pl.List):
        return df.with_columns(pl.col(col).list.join(",").alias(col))
    return df


@dataclass
class Design:
    axes: list[str]
    confounded: dict[str, list[str]] = field(default_factory=dict)  # axis -> axes it is not crossed with

    @property
    def full_grid(self) -> bool:
        return not any(self.confounded.values())

    def note(self) -> str:
        bad = sorted(a for a, o in self.confounded.items() if o)
        if not bad:
            return ""
        pairs = sorted({tuple(sorted((a, b))) for a in bad for b in self.confounded[a]})
        return ("the design does not cross " + "; ".join(f"{a} with {b}" for a, b in pairs) +
                ": their effects are confounded, so no pooled line or tornado bar is drawn for "
                + ", ".join(bad) + " (the cells table and the per-cell points show what was measured)")


def design(cells: pl.DataFrame, axes: list[str]) -> Design:
    """Which axes are crossed with which (a missing pair of values confounds two axes)."""
    d = Design(list(axes), {a: [] for a in axes})
    for a, b in itertools.combinations(axes, 2):
        ca = cells[a].cast(pl.String) if cells.schema[a] != pl.String else cells[a]
        cb = cells[b].cast(pl.String) if cells.schema[b] != pl.String else cells[b]
        pairs = set(zip(ca.to_list(), cb.to_list()))
        if len(pairs) < ca.n_unique() * cb.n_unique():
            d.confounded[a].append(b)
            d.confounded[b].append(a)
    return d


def _t95(df: int) -> float:
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def pooled_point(cell_ids: list[int], cells: pl.DataFrame, blocks: pl.DataFrame | None) -> tuple[float, float, float]:
    """(mean of the cells' rates, its 95% interval) — see the module docstring."""
    sub = cells.filter(pl.col("cell").is_in(cell_ids))
    rates = (sub["successes"] / sub["games"]).to_numpy().astype(float)
    m = float(rates.mean())
    if blocks is not None and blocks.height:
        b = blocks.filter(pl.col("cell").is_in(cell_ids))
        per = b.group_by("start").agg(pl.col("cell").n_unique().alias("k"), (pl.col("successes") / pl.col("games"))
                                      .mean().alias("y"), pl.col("games").mean().alias("n")).sort("start")
        if per.height >= MIN_BLOCKS and (per["k"] == len(cell_ids)).all():
            y, n = per["y"].to_numpy().astype(float), per["n"].to_numpy().astype(float)
            est = float((n * y).sum() / n.sum())
            B = len(y)
            var = float((n ** 2 * (y - est) ** 2).sum() / n.sum() ** 2 * B / (B - 1))
            h = _t95(B - 1) * math.sqrt(var)
            return est, max(0.0, est - h), min(1.0, est + h)
    lo, hi = sub["rate_ci_low"].to_numpy(), sub["rate_ci_high"].to_numpy()
    return m, max(0.0, m - float((rates - lo).mean())), min(1.0, m + float((hi - rates).mean()))


def marginal(cells: pl.DataFrame, blocks: pl.DataFrame | None, axis: str) -> pl.DataFrame:
    """One row per value of ``axis``: the pooled rate with its interval, cells and games."""
    lab = as_label(cells, axis)
    out = []
    for v in sorted(lab[axis].unique().to_list(), key=lambda x: (x is None, x)):
        ids = lab.filter(pl.col(axis) == v)["cell"].to_list()
        r, lo, hi = pooled_point(ids, cells, blocks)
        out.append({axis: v, "rate": r, "lo": lo, "hi": hi, "cells": len(ids),
                    "games": int(lab.filter(pl.col(axis) == v)["games"].sum())})
    return pl.DataFrame(out)
