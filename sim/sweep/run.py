"""Run a sweep: validate every cell, skip finished ones, play the rest, write each."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.core.outdir import claim_sweep_root, register_sweep
from sim.core.output import MANIFEST_FILE, manifest
from sim.sweep.backend import dask_client, parse_dask, run_dask, run_local
from sim.sweep.cell import CellJob, CellOutput
from sim.sweep.dataset import check_resumable, clean_partial, done_cells, sweep_dir, write_cell, write_manifest
from sim.sweep.progress import sweep_progress
from sim.sweep.spec import Spec, build_cells, cell_spawn


@dataclass
class SweepReport:
    """What a sweep did: cells run and skipped, games, time."""
    path: Path
    cells: int
    run: int
    skipped: int
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


def column_value(values: list, v: Any) -> Any:
    """One parquet type per axis across all cells: int, float, str, list of str, else JSON."""
    if all(isinstance(x, bool) for x in values):
        return v
    if all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        return int(v)
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in values):
        return float(v)
    if all(isinstance(x, str) for x in values):
        return v
    if all(isinstance(x, list) and all(isinstance(y, str) for y in x) for x in values):
        return list(v)
    return json.dumps(v, sort_keys=True)


def run_sweep(spec: Spec, out: str | Path, *, dask: str | None = None, threads: int | None = None,
              progress: bool = False) -> SweepReport:
    """Validate every cell, skip the finished ones, play the rest locally or on Dask, write each."""
    if dask is not None:
        parse_dask(dask)  # a bad address fails before any work
    claim_sweep_root(out)  # a foreign or unwritable --out fails before any cell compiles
    cells = build_cells(spec)
    if dask is None:
        return _run(spec, cells, out, None, threads, progress)
    with dask_client(dask) as client:  # connect before writing anything
        return _run(spec, cells, out, client, threads, progress)


def _runner(spec: Spec):
    """The function that computes a cell other than by playing its games (None: play them)."""
    if spec.equilibrium is None:
        return None
    from sim.analysis.sweep_equilibrium import run_equilibrium_cell

    return run_equilibrium_cell


def _run(spec: Spec, cells: list, out: str | Path, client, threads: int | None, progress: bool) -> SweepReport:
    sd = sweep_dir(Path(out), spec.game, spec.name)
    old = check_resumable(sd, spec.sha256)
    register_sweep(Path(out), sd.relative_to(Path(out)).as_posix())
    sd.mkdir(parents=True, exist_ok=True)
    clean_partial(sd)
    points = [c.params for c in cells]
    cols = {p: [pt[p] for pt in points] for p in (points[0] if points else {})}
    # a resumed sweep keeps the manifest of the run that started it, so every cell file's
    # metadata equals _manifest.json (a pre-0.2 manifest.json is replaced by a new one)
    man = old if old is not None and (sd / MANIFEST_FILE).is_file() else manifest(spec.game, spec.raw, spec.seed, {
        "command": "sim sweep", "sweep": spec.name, "spec_sha256": spec.sha256, "paired": spec.paired,
        "metric": "equilibrium" if spec.equilibrium else spec.protocol.metric, "axes": [a.path for a in spec.axes],
        **({"equilibrium": spec.equilibrium} if spec.equilibrium else {}),
        "cells": [{"cell": c.index, "params": c.params} for c in cells],
    })
    if man is not old:
        write_manifest(sd, man)
    done = done_cells(sd)
    todo = [c for c in cells if c.index not in done]
    p = spec.plan
    jobs = [CellJob(spec.game, c.index, {k: column_value(cols[k], v) for k, v in c.params.items()}, c.config,
                    spec.seed, cell_spawn(spec, c.params), p.games, p.target_ci, p.batch, p.max_games, p.block,
                    1 if client is not None else threads, spec.equilibrium, _runner(spec))
            for c in todo]
    compiled = {c.index: c.compiled for c in todo}
    stats = {"games": 0, "seconds": 0.0}
    t0 = time.perf_counter()
    with sweep_progress(len(cells), len(done), enabled=progress) as advance:
        def finished(res: CellOutput) -> None:
            write_cell(sd, res.index, res.tables, man)
            stats["games"] += res.games
            advance(res.games)

        try:
            if client is not None:
                run_dask(jobs, client, finished)
            else:
                run_local(jobs, compiled, finished, threads)
        except KeyboardInterrupt:
            clean_partial(sd)  # an interrupted write leaves no temporary directory behind
            raise
    return SweepReport(sd, len(cells), len(todo), len(done), stats["games"], time.perf_counter() - t0)
