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
from sim.sweep.dataset import (check_resumable, clean_partial, done_cells, sweep_dir, write_cell, write_json_atomic,
                               write_manifest)
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

    def job_of(c) -> CellJob:
        return CellJob(spec.game, c.index, {k: column_value(cols[k], v) for k, v in c.params.items()}, c.config,
                       spec.seed, cell_spawn(spec, c.params), p.games, p.target_ci, p.batch, p.max_games, p.block,
                       1 if client is not None else threads, spec.equilibrium, _runner(spec))

    jobs = [job_of(c) for c in todo]
    compiled = {c.index: c.compiled for c in todo}
    stats = {"games": 0, "seconds": 0.0}
    t0 = time.perf_counter()
    warm = bool(spec.equilibrium and spec.equilibrium.get("warm") and len(cells) > 1)
    if warm:
        from sim.sweep.neighbours import neighbours

        nb = neighbours(spec.axes, points)
        (sd / COLD_DIR).mkdir(exist_ok=True)
        # the cold pass still to grow: every unfinished cell and its neighbours, less those on disk
        cold = [job_of(cells[j]) for j in sorted({j for c in todo for j in (c.index, *nb[c.index])})
                if not _cold_file(sd, j).is_file()]
    else:
        cold = []
    with sweep_progress(len(cells) + len(cold), len(done), enabled=progress) as advance:
        def finished(res: CellOutput) -> None:
            write_cell(sd, res.index, res.tables, man)
            stats["games"] += res.games
            advance(res.games)

        def finished_cold(res: CellOutput) -> None:
            write_json_atomic(_cold_file(sd, res.index), _cold_result(res, spec))
            stats["games"] += res.games
            advance(res.games)

        def play(batch: list[CellJob], done_: Any) -> None:
            if client is not None:
                run_dask(batch, client, done_)
            else:
                run_local(batch, compiled, done_, threads)

        try:
            if warm:
                play(cold, finished_cold)
                jobs = _warm_jobs(spec, nb, jobs, sd)
            play(jobs, finished)
        except KeyboardInterrupt:
            clean_partial(sd)  # an interrupted write leaves no temporary directory behind
            raise
    return SweepReport(sd, len(cells), len(todo), len(done), stats["games"], time.perf_counter() - t0)


# -- the warm start of a metric = "equilibrium" sweep (sim.analysis.sweep_equilibrium) ---------
COLD_DIR = "_cold"   # each cell's cold-pass population, one JSON file a cell (a resume keeps them)


def _cold_file(sd: Path, index: int) -> Path:
    return sd / COLD_DIR / f"cell={index}.json"


def _cold_result(res: CellOutput, spec: Spec) -> dict:
    """What the warm pass takes from a cell's cold pass: its population, value and CI."""
    row = res.tables["summary"].row(0, named=True)
    return {"population": {s: json.loads(row[f"{s}_population"]) for s in spec.equilibrium["labels"]},
            "rate": row["rate"], "rate_ci_low": row["rate_ci_low"], "rate_ci_high": row["rate_ci_high"],
            "exploitability": row["exploitability"], "games": row["games"]}


def _warm_jobs(spec: Spec, nb: list[list[int]], jobs: list[CellJob], sd: Path) -> list[CellJob]:
    """Each cell's job grown again from its own cold population, then its neighbours' (``nb``,
    in cell order, each member once); the cold value goes into the row beside the warm one."""
    from dataclasses import replace

    out = []
    for job in jobs:
        got = {j: json.loads(_cold_file(sd, j).read_text()) for j in (job.index, *nb[job.index])}
        start = {s: list(dict.fromkeys(t for j in (job.index, *nb[job.index]) for t in got[j]["population"][s]))
                 for s in spec.equilibrium["labels"]}
        own = got[job.index]
        out.append(replace(job, equilibrium={**spec.equilibrium, "start": start, "warm_from": nb[job.index],
                                             "cold": {k: v for k, v in own.items() if k != "population"}}))
    return out
