"""One sweep cell: play its games (fixed or adaptive) and build its tables.

:func:`run_cell` is a pure function of its :class:`CellJob` (a picklable description),
so the local backend and a Dask worker produce the same tables for the same job.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import polars as pl

from sim.core.stats import wilson
from sim.sweep.adapter import adapter, sum_totals


@dataclass(frozen=True)
class CellJob:
    game: str
    index: int
    params: dict          # column name -> value (normalised per axis)
    config: dict          # the adapter's cell dict
    seed: int
    spawn: tuple
    games: int | None     # fixed games, or None for adaptive
    target_ci: float | None
    batch: int
    max_games: int
    block: int            # games per block row (= per chunk)
    threads: int | None = None


@dataclass
class CellOutput:
    index: int
    tables: dict          # name -> polars DataFrame ("summary" becomes part-0.parquet)
    games: int
    seconds: float


def run_cell(job: CellJob, compiled: Any = None) -> CellOutput:
    ad = adapter(job.game)
    if compiled is None:
        compiled = ad.compile(job.config)
    play = ad.player(compiled, job.seed, job.spawn)
    blocks: dict[int, tuple[int, int]] = {}
    lock = threading.Lock()

    def on_chunk(start: int, count: int, counts: dict) -> None:
        s, _ = ad.primary(counts)
        with lock:
            blocks[start] = (count, s)

    results = []
    played = 0
    stopped = "fixed"
    while True:
        n = job.games if job.games is not None else min(job.batch, job.max_games - played)
        results.append(play(played, n, threads=job.threads, chunk_size=job.block, on_chunk=on_chunk))
        played += n
        if job.games is not None:
            break
        s, g = ad.primary(sum_totals(results))
        lo, hi = wilson(s, g)
        if (hi - lo) / 2 <= job.target_ci:
            stopped = "target_ci"
            break
        if played >= job.max_games:
            stopped = "max_games"
            break
    r = ad.combine(results)
    tables = ad.dataset_tables(r)
    s, g = ad.primary(r.totals)
    lo, hi = wilson(s, g)
    summary = tables.pop("summary")
    summary = with_params(pl.concat([
        pl.DataFrame([{"metric": ad.metric, "successes": s, "rate": s / g, "rate_ci_low": lo,
                       "rate_ci_high": hi, "half_width": (hi - lo) / 2, "stopped": stopped,
                       "batches": len(results), "blocks": len(blocks)}]),
        summary,
    ], how="horizontal"), job.params)
    out = {"summary": summary}
    for name, df in tables.items():
        out[name] = with_params(df, job.params)
    starts = sorted(blocks)
    out["blocks"] = with_params(pl.DataFrame({
        "block": list(range(len(starts))), "start": starts,
        "games": [blocks[k][0] for k in starts], "successes": [blocks[k][1] for k in starts],
    }, schema={"block": pl.Int64, "start": pl.Int64, "games": pl.Int64, "successes": pl.Int64}), job.params)
    return CellOutput(job.index, out, played, r.seconds)


def with_params(df: pl.DataFrame, params: dict) -> pl.DataFrame:
    """``df`` with one constant column per swept parameter in front (a game column of
    the same name, such as ``player``, says the same thing and gives way)."""
    if not params:
        return df
    df = df.drop([k for k in params if k in df.columns])
    return df.with_columns([_lit(v).alias(k) for k, v in params.items()]).select([*params, *df.columns])


def _lit(v) -> pl.Expr:
    """A literal of the type every cell writes (see ``sim.sweep.run.column_value``)."""
    if isinstance(v, bool):
        return pl.lit(v, dtype=pl.Boolean)
    if isinstance(v, int):
        return pl.lit(v, dtype=pl.Int64)
    if isinstance(v, float):
        return pl.lit(v, dtype=pl.Float64)
    if isinstance(v, list):
        return pl.lit(pl.Series([v], dtype=pl.List(pl.String))).first()
    return pl.lit(v, dtype=pl.String)
