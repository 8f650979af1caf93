"""``sim sensitivity SPEC.toml``: which parameters move a game's primary rate most.

    game = "race"
    name = "race-sens"
    seed = 1
    games = 4000               # games per design point (every point on the same streams)
    method = "both"            # morris | sobol | both (Morris screening, then Sobol)
    trajectories = 10          # Morris: trajectories (points = trajectories x (params + 1))
    levels = 4                 # Morris: grid levels
    samples = 64               # Sobol: base samples N (points = N x (params + 2)), a power of 2
    bootstrap = 500            # resamples for the confidence intervals
    [base]                     # as in a sweep spec
    p2 = "threshold"
    [[params]]
    path = "rules.head_start"
    low = 0                    # integers: rounded, so both ends are reached
    high = 6
    # values = ["1d6", "2d6"]  # or an ordered list (the design picks an index)

Built on SALib (the reference implementation of Morris' elementary effects and of
Saltelli's estimators of Sobol' indices, with bootstrap intervals), so none of the
estimators is hand-written here. The design points are played through the sweep
machinery (``sim.sweep.run``): one sweep per method under the ``--out`` root
(``game=G/sweep=NAME-morris``, ``…-sobol``), with resume, Dask and common random numbers
(every point plays the same streams, so differences between points are the
parameters', not the dice'). The indices are written to ``game=G/sensitivity=NAME``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from sim.core.config import load_toml
from sim.core.schema import ANY
from sim.errors import SimInputError

TOP = ("game", "name", "seed", "games", "method", "trajectories", "levels", "samples", "bootstrap", "base", "params")
PARAM = {"path": ANY, "low": ANY, "high": ANY, "values": ANY}
METHODS = ("morris", "sobol", "both")


@dataclass
class Param:
    path: str
    low: float = 0.0
    high: float = 1.0
    values: list | None = None
    integer: bool = False

    @property
    def bounds(self) -> list[float]:
        if self.values is not None:
            return [0.0, float(len(self.values))]
        return [float(self.low), float(self.high) + (1.0 if self.integer else 0.0)]

    def value(self, x: float) -> Any:
        """A design coordinate → the parameter's value (integers and lists: equal-width bins)."""
        if self.values is not None:
            return self.values[min(int(x), len(self.values) - 1)]
        if self.integer:
            return int(min(math.floor(x), self.high))
        return float(x)


@dataclass
class SensSpec:
    game: str
    name: str
    seed: int
    games: int
    method: str
    trajectories: int
    levels: int
    samples: int
    bootstrap: int
    base: dict
    params: list[Param]
    raw: dict
    spec_dir: Path

    @property
    def problem(self) -> dict:
        return {"num_vars": len(self.params), "names": [p.path for p in self.params],
                "bounds": [p.bounds for p in self.params]}


def _int(raw: dict, key: str, default: int, low: int = 1) -> int:
    v = raw.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise SimInputError(f"{key}: expected an integer >= {low}, got {v!r}")
    return v


def parse(raw: dict, source: Path | None = None) -> SensSpec:
    """Check a sensitivity spec (unknown keys name the closest valid one)."""
    from sim.core.validate import MAX_GAMES
    from sim.sweep.spec import seed_of, spec_game, spec_name

    game = spec_game(raw, "sensitivity spec", [k for k in TOP if k not in ("params", "base")], "params", PARAM,
                     "race")
    name = spec_name(raw, source, "sensitivity")
    method = raw.get("method", "both")
    if method not in METHODS:
        raise SimInputError(f"method: expected one of {', '.join(METHODS)}, got {method!r}")
    games = _int(raw, "games", 4000)
    if games > MAX_GAMES:
        raise SimInputError(f"games: at most {MAX_GAMES:,}")
    samples = _int(raw, "samples", 64, 2)
    if samples & (samples - 1):
        raise SimInputError(f"samples: Sobol' sequences need a power of 2, got {samples}")
    params_raw = raw.get("params", [])
    if not isinstance(params_raw, list) or len(params_raw) < 1:
        raise SimInputError("params: give at least one [[params]] table with path and low/high or values")
    params = []
    for i, p in enumerate(params_raw):
        where = f"params[{i}]"
        path = p.get("path")
        if not isinstance(path, str) or not path:
            raise SimInputError(f"{where}.path: expected a parameter path (sim {game.name} params lists them)")
        if "values" in p:
            if "low" in p or "high" in p:
                raise SimInputError(f"{where} ({path}): give values or low/high, not both")
            vals = p["values"]
            if not isinstance(vals, list) or len(vals) < 2:
                raise SimInputError(f"{where}.values ({path}): expected a list of at least two values")
            params.append(Param(path, values=vals))
            continue
        lo, hi = p.get("low"), p.get("high")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (lo, hi)) or not lo < hi:
            raise SimInputError(f"{where} ({path}): expected numbers low < high, got {lo!r} … {hi!r}")
        params.append(Param(path, lo, hi, integer=isinstance(lo, int) and isinstance(hi, int)))
    paths = [p.path for p in params]
    dup = {p for p in paths if paths.count(p) > 1}
    if dup:
        raise SimInputError(f"params: {sorted(dup)[0]!r} given twice")
    base = raw.get("base", {})
    if not isinstance(base, dict):
        raise SimInputError("[base]: expected a table")
    sp = SensSpec(raw["game"], name, seed_of(raw.get("seed", 0)), games, method, _int(raw, "trajectories", 10, 2),
                  _int(raw, "levels", 4, 2), samples, _int(raw, "bootstrap", 500, 10), base, params, raw,
                  source.parent if source else Path.cwd())
    # every parameter's two ends compile before any game (bad paths and values fail here)
    cell = game.base_cell(base, sp.spec_dir)
    game.compile_cell(cell)
    for p in params:
        for x in p.bounds[0], np.nextafter(p.bounds[1], -np.inf):
            try:
                game.make_cell(cell, {p.path: p.value(x)})
            except SimInputError as e:
                raise SimInputError(f"params ({p.path} = {p.value(x)!r}): {e}") from None
    return sp


def load(path: str | Path, *, seed: int | None = None, games: int | None = None) -> SensSpec:
    p = Path(path)
    if p.is_dir():
        raise SimInputError(f"{p}: is a directory, expected a sensitivity spec (TOML)")
    raw = load_toml(p)
    if seed is not None:
        raw["seed"] = seed
    if games is not None:
        raw["games"] = games
    return parse(raw, p)


# ----------------------------------------------------------------------------- design
def morris_design(sp: SensSpec) -> np.ndarray:
    from SALib.sample import morris

    return morris.sample(sp.problem, sp.trajectories, num_levels=sp.levels, seed=sp.seed % 2**32)


def sobol_design(sp: SensSpec) -> np.ndarray:
    from SALib.sample import sobol

    return sobol.sample(sp.problem, sp.samples, calc_second_order=False, scramble=True, seed=sp.seed % 2**32)


def points(sp: SensSpec, x: np.ndarray) -> list[dict[str, Any]]:
    return [{p.path: p.value(v) for p, v in zip(sp.params, row)} for row in x]


def morris_indices(sp: SensSpec, x: np.ndarray, y: np.ndarray) -> pl.DataFrame:
    from SALib.analyze import morris

    r = morris.analyze(sp.problem, x, y, num_resamples=sp.bootstrap, conf_level=0.95, num_levels=sp.levels,
                       seed=sp.seed % 2**32)
    return pl.DataFrame({"param": sp.problem["names"], "mu_star": np.asarray(r["mu_star"], float),
                         "mu_star_conf": np.asarray(r["mu_star_conf"], float), "mu": np.asarray(r["mu"], float),
                         "sigma": np.asarray(r["sigma"], float)})


def sobol_indices(sp: SensSpec, y: np.ndarray) -> pl.DataFrame:
    from SALib.analyze import sobol

    r = sobol.analyze(sp.problem, y, calc_second_order=False, num_resamples=sp.bootstrap, conf_level=0.95,
                      seed=sp.seed % 2**32)
    return pl.DataFrame({"param": sp.problem["names"], "S1": np.asarray(r["S1"], float),
                         "S1_conf": np.asarray(r["S1_conf"], float), "ST": np.asarray(r["ST"], float),
                         "ST_conf": np.asarray(r["ST_conf"], float)})


@dataclass
class SensResult:
    spec: SensSpec
    morris: pl.DataFrame | None = None
    sobol: pl.DataFrame | None = None
    games: int = 0
    sweeps: list[Path] = field(default_factory=list)

    def table(self) -> pl.DataFrame:
        """One row per parameter: the Morris and Sobol' columns of what was run."""
        df = pl.DataFrame({"param": [p.path for p in self.spec.params]})
        for t in (self.morris, self.sobol):
            if t is not None:
                df = df.join(t, on="param", how="left")
        return df

    def to_json(self) -> dict:
        return {"game": self.spec.game, "name": self.spec.name, "method": self.spec.method,
                "games_per_point": self.spec.games, "games": self.games, "sweeps": [str(p) for p in self.sweeps],
                "indices": self.table().to_dicts()}


def analyse(sp: SensSpec, evaluate: Callable[[str, list[dict]], np.ndarray]) -> SensResult:
    """Run the design(s): ``evaluate(stage, points) -> rates`` plays the points (the CLI
    plays them as a sweep; tests may pass a function with known indices)."""
    res = SensResult(sp)
    if sp.method in ("morris", "both"):
        x = morris_design(sp)
        res.morris = morris_indices(sp, x, evaluate("morris", points(sp, x)))
    if sp.method in ("sobol", "both"):
        x = sobol_design(sp)
        res.sobol = sobol_indices(sp, evaluate("sobol", points(sp, x)))
    return res


def sweep_evaluator(sp: SensSpec, out: Path, *, dask: str | None, threads: int | None, progress: bool,
                    res_games: list, sweeps: list) -> Callable[[str, list[dict]], np.ndarray]:
    """``evaluate`` through the sweep machinery: one paired sweep per stage under ``out``."""
    from sim.core.game import get
    from sim.sweep.dataset import read
    from sim.sweep.run import run_sweep
    from sim.sweep.spec import Axis, Plan, Spec

    game = get(sp.game)

    class Points(Spec):
        def points(self):  # the design's points, in order (duplicates replay the same games)
            return self._pts

    def evaluate(stage: str, pts: list[dict]) -> np.ndarray:
        raw = {**{k: v for k, v in sp.raw.items()}, "stage": stage, "design": pts}
        blocks = max(1, -(-sp.games // 16))
        s = Points(sp.game, f"{sp.name}-{stage}", sp.seed, True, Plan(sp.games, None, sp.games, sp.games, blocks),
                   [Axis(p.path, "list", []) for p in sp.params], 0, sp.base, raw, sp.spec_dir, game)
        s._pts = pts
        rep = run_sweep(s, out, dask=dask, threads=threads, progress=progress)
        res_games.append(rep.games)
        sweeps.append(rep.path)
        df = read(rep.path).select("cell", "rate").sort("cell").collect()
        return df["rate"].to_numpy().astype(float)

    return evaluate
