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
from sim.core.game import TIMING_COLUMNS, get as get_game, sum_totals
from sim.core.views import is_oracle


@dataclass(frozen=True)
class CellJob:
    """A picklable description of one cell's work."""
    game: str
    index: int
    params: dict          # column name -> value (normalised per axis)
    config: dict          # the game's cell dict
    seed: int
    spawn: tuple
    games: int | None     # fixed games, or None for adaptive
    target_ci: float | None
    batch: int
    max_games: int
    block: int            # games per block row (= per chunk)
    threads: int | None = None
    equilibrium: dict | None = None  # metric = "equilibrium": grow each cell's equilibrium (sim.sweep.spec)
    runner: Any = None    # a module-level function of the job that computes the cell instead (pickled by name)


@dataclass
class CellOutput:
    """A finished cell: its tables, games and time."""
    index: int
    tables: dict          # name -> polars DataFrame ("summary" becomes part-0.parquet)
    games: int
    seconds: float


def run_cell(job: CellJob, compiled: Any = None) -> CellOutput:
    """Play one cell (fixed or adaptive games) and build its tables."""
    if job.runner is not None:  # e.g. sim.analysis.sweep_equilibrium.run_equilibrium_cell
        return job.runner(job)
    ad = get_game(job.game)
    if compiled is None:
        compiled = ad.compile_cell(job.config)
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
    tables = dict(r.tables)
    s, g = ad.primary(r.totals)
    lo, hi = wilson(s, g)
    # one row built in Python (a polars call per column costs more than the games of a
    # small cell): parameters first, a game column of the same name (e.g. player) gives way,
    # and the game's copies of the primary rate (player_wins, …) are left out
    skip = {*job.params, *TIMING_COLUMNS, *ad.primary_columns}
    game_row = tables.pop("summary").row(0, named=True)
    summary = pl.DataFrame([{
        **job.params,
        "metric": ad.metric, "successes": s, "rate": s / g, "rate_ci_low": lo, "rate_ci_high": hi,
        "half_width": (hi - lo) / 2, "stopped": stopped, "batches": len(results), "n_blocks": len(blocks),
        "oracles": ",".join([f"{side}={name}" for side, name in sorted(job.config.get("strategies", {}).items())
                             if is_oracle(name)] +
                            [f"{who}={name}" for who, name in sorted(ad.setup_oracles(compiled[0]).items())]),
        **{k: v for k, v in game_row.items() if k not in skip},
    }], schema_overrides={k: pl.List(pl.String) for k, v in job.params.items() if isinstance(v, list)})
    starts = sorted(blocks)
    tables["blocks"] = pl.DataFrame({
        "block": list(range(len(starts))), "start": starts,
        "games": [blocks[k][0] for k in starts], "successes": [blocks[k][1] for k in starts],
    }, schema={"block": pl.Int64, "start": pl.Int64, "games": pl.Int64, "successes": pl.Int64})
    # One file per cell: the game's tables ride along as list-of-struct columns of the cell's
    # row (sim.sweep.dataset.read unnests them). Writing one small file instead of six is
    # what keeps a sweep of small cells close to one big run.
    nested = [pl.Series(name, [df.to_struct(name)]) for name, df in tables.items()]  # 10x cheaper than implode
    out = {"summary": summary.hstack(nested)}
    return CellOutput(job.index, out, played, r.seconds)

