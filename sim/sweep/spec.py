"""Sweep specs (TOML) → validated axes, sampling plan and the list of cells.

    game = "looper"            # looper | werewolf | trpg
    name = "seeker"            # the dataset's sweep=… partition (default: the file's stem)
    seed = 1
    games = 20000              # fixed games per cell …
    # target_ci = 0.01         # … or adaptive: blocks of `batch` until the 95% CI
    # batch = 10000            #   half-width of the primary rate ≤ target_ci,
    # max_games = 1000000      #   at most max_games
    paired = false             # true: every cell plays the same streams (common random numbers)
    samples = 0                # points drawn for the `random` axes (crossed with the others)

    [base]                     # the configuration every cell starts from (per game)
    player = "deducer"
    set = ["rules.max_loops=3"]

    [[axes]]
    path = "attention_seeker.threshold"
    values = [1, 2, 3]         # or grid = {start = 1, stop = 5, step = 1}
                               # or random = {low = 1, high = 5} / {choices = [...]}

Cells are the product of the list/grid axes, times ``samples`` joint draws of the random
axes. Every cell is built and compiled here, so a bad path or value stops the sweep
before any game is played.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from sim.core.config import load_toml
from sim.core.schema import ANY, ListOf, check_keys
from sim.core.shipped import example_spec
from sim.core.validate import MAX_GAMES
from sim.core.seeding import python_rng
from sim.errors import SimInputError
from sim.core.game import Game, get as get_game

TOP_KEYS = ("game", "name", "seed", "games", "target_ci", "batch", "max_games", "blocks", "paired",
            "samples", "metric", "equilibrium")
AXIS_SCHEMA = {"path": ANY, "values": ANY, "grid": {"start": ANY, "stop": ANY, "step": ANY, "num": ANY},
               "random": {"low": ANY, "high": ANY, "choices": ANY}}
RANDOM_TAG = 7  # python_rng spawn key of the random design points
DEFAULT_GAMES = 10_000
DEFAULT_BLOCKS = 16


@dataclass
class Axis:
    """One sweep axis: its path and values."""
    path: str
    kind: str            # list | grid | random
    values: list         # list/grid values; for random: filled per sample
    dist: dict = field(default_factory=dict)


@dataclass
class Plan:
    """How many games a cell plays: fixed ``games`` or adaptive to ``target_ci``.
    ``block`` games form one row of the cell's block table (paired comparisons)."""
    games: int | None
    target_ci: float | None
    batch: int
    max_games: int
    block: int

    @property
    def adaptive(self) -> bool:
        return self.target_ci is not None


@dataclass
class Spec:
    """A parsed sweep spec."""
    game: str
    name: str
    seed: int
    paired: bool
    plan: Plan
    axes: list[Axis]
    samples: int
    base: dict
    raw: dict
    spec_dir: Path
    protocol: Game
    equilibrium: dict | None = None  # metric = "equilibrium": the grown equilibrium's options per cell

    @property
    def sha256(self) -> str:
        blob = json.dumps(self.raw, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    def points(self) -> list[dict[str, Any]]:
        """One {path: value} per cell, in cell order."""
        fixed = [a for a in self.axes if a.kind != "random"]
        rand = [a for a in self.axes if a.kind == "random"]
        draws = draw_random(rand, self.samples, self.seed) if rand else [{}]
        out = []
        for combo in itertools.product(*(a.values for a in fixed)):
            base = dict(zip((a.path for a in fixed), combo))
            for d in draws:
                out.append({**base, **d})
        # keep the spec's axis order in every point
        order = [a.path for a in self.axes]
        return [{p: pt[p] for p in order} for pt in out]



def _distinct(vals: list, where: str) -> None:
    """Equal values on an axis would make identical cells (or weight a random choice): an error.
    1 and 1.0 are equal here (the same parameter value); true and 1 are not."""
    seen: list = []
    for v in vals:
        if any(v == w and (type(v) is bool) == (type(w) is bool) for w in seen):
            raise SimInputError(f"{where}: {v!r} is listed twice; each value makes one cell")
        seen.append(v)

def draw_random(axes: list[Axis], n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` distinct joint draws of the random axes (a repeat would only replay a cell)."""
    rng = python_rng(seed, RANDOM_TAG)
    pts: list[dict[str, Any]] = []
    seen: set[str] = set()
    for _ in range(50 * n + 100):
        pt = {a.path: _draw(rng, a.dist) for a in axes}
        k = json.dumps(pt, sort_keys=True)
        if k not in seen:
            seen.add(k)
            pts.append(pt)
            if len(pts) == n:
                return pts
    raise SimInputError(f"samples = {n}: the random axes give only {len(pts)} distinct points; lower samples")


def _draw(rng: np.random.Generator, d: dict) -> Any:
    if "choices" in d:
        return d["choices"][int(rng.integers(0, len(d["choices"])))]
    if _all_int(d["low"], d["high"]):
        return int(rng.integers(d["low"], d["high"] + 1))
    return float(rng.uniform(d["low"], d["high"]))


def _all_int(*xs) -> bool:
    return all(isinstance(x, int) and not isinstance(x, bool) for x in xs)


def _num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def positive_int(raw: dict, key: str, default: int | None) -> int | None:
    """``raw[key]`` (or the default) as a positive integer; shared with balance specs."""
    v = raw.get(key, default)
    if v is None:
        return None
    if not _all_int(v) or v < 1:
        raise SimInputError(f"{key}: expected a positive integer, got {v!r}")
    if v > MAX_GAMES:
        raise SimInputError(f"{key}: at most {MAX_GAMES:,} (10^11), got {v:,}")
    return v


def seed_of(v) -> int:
    """A spec's seed, checked."""
    from sim.core.seeding import MAX_SEED

    if not _all_int(v) or v < 0 or v > MAX_SEED:
        raise SimInputError(f"seed: expected an integer 0 … 2^63-1, got {v!r}")
    return v


def spec_schema(top: Iterable[str], list_key: str, item: dict, ad: Game | None) -> dict:
    """A sweep or balance spec's keys: ``top`` values, ``[base]`` (the game's keys, when the
    game is known) and the list of axis / param tables. Shared with balance specs."""
    return {**{k: ANY for k in top}, "base": ad.base_schema() if ad else ANY, list_key: ListOf(item)}


def spec_game(raw: dict, kind: str, top: Iterable[str], list_key: str, item: dict, example: str) -> Game:
    """Check a spec's keys (first without, then with the game's ``[base]`` keys) and return
    its game; shared by sweep, balance and sensitivity specs."""
    if not isinstance(raw, dict):
        raise SimInputError(f"{kind}: expected a TOML table")
    check_keys({k: v for k, v in raw.items() if k != "base"}, spec_schema(top, list_key, item, None), kind)
    if "game" not in raw:
        raise SimInputError(f"{kind}: name the game, e.g. game = \"{example}\"")
    ad = get_game(raw["game"])
    check_keys(raw, spec_schema(top, list_key, item, ad), kind)
    return ad


def spec_name(raw: dict, source: Path | None, default: str) -> str:
    """A spec's ``name`` (the dataset's directory name; default the file's stem)."""
    name = raw.get("name", source.stem if source else default)
    if not isinstance(name, str) or not name or any(c in name for c in "/\\=") or name.startswith("."):
        raise SimInputError(f"name: {name!r} cannot be a directory name")
    return name


def parse_axis(i: int, a: Any) -> Axis:
    """One ``[[axes]]`` table → an :class:`Axis`."""
    where = f"axes.{i}"
    if not isinstance(a, dict):
        raise SimInputError(f"{where}: expected a table with path and values/grid/random")
    path = a.get("path")
    if not isinstance(path, str) or not path.strip():
        raise SimInputError(f"{where}.path: name the parameter, e.g. path = \"attention_seeker.threshold\"")
    where = f"axis {path!r}"
    kinds = [k for k in ("values", "grid", "random") if k in a]
    if len(kinds) != 1:
        raise SimInputError(f"{where}: give exactly one of values, grid or random")
    kind = kinds[0]
    if kind == "values":
        vals = a["values"]
        if not isinstance(vals, list) or not vals:
            raise SimInputError(f"{where}: empty axis (values = [] has no cells)")
        _distinct(vals, f"{where}: values")
        return Axis(path, "list", list(vals))
    if kind == "grid":
        g = a["grid"]
        if not isinstance(g, dict) or not {"start", "stop"} <= set(g) or set(g) - {"start", "stop", "step", "num"}:
            raise SimInputError(f"{where}: grid = {{start, stop, step}} or {{start, stop, num}}")
        start, stop = g["start"], g["stop"]
        if not (_num(start) and _num(stop)):
            raise SimInputError(f"{where}: grid start and stop must be numbers")
        if "num" in g:
            if not _all_int(g["num"]) or g["num"] < 1:
                raise SimInputError(f"{where}: grid num must be a positive integer")
            vals = [float(v) for v in np.linspace(start, stop, g["num"])]
        else:
            step = g.get("step", 1)
            if not _num(step) or step <= 0:
                raise SimInputError(f"{where}: grid step must be > 0, got {step!r}")
            if stop < start:
                raise SimInputError(f"{where}: empty axis (grid stop {stop} < start {start})")
            n = int(math.floor((stop - start) / step + 1e-9)) + 1
            vals = [start + k * step for k in range(n)]
            vals = [int(v) for v in vals] if _all_int(start, stop, step) else [float(v) for v in vals]
        return Axis(path, "grid", vals)
    d = a["random"]
    if not isinstance(d, dict):
        raise SimInputError(f"{where}: random = {{low, high}} or {{choices = [...]}}")
    if "choices" in d:
        if set(d) != {"choices"} or not isinstance(d["choices"], list) or not d["choices"]:
            raise SimInputError(f"{where}: random choices must be a non-empty list")
        _distinct(d["choices"], f"{where}: random choices")
    else:
        if set(d) != {"low", "high"} or not (_num(d["low"]) and _num(d["high"])):
            raise SimInputError(f"{where}: random = {{low, high}} (numbers) or {{choices = [...]}}")
        if d["high"] < d["low"]:
            raise SimInputError(f"{where}: empty axis (random high {d['high']} < low {d['low']})")
    return Axis(path, "random", [], dict(d))


def parse_spec(raw: dict, source: Path | None = None) -> Spec:
    """Check a sweep spec's table and return its :class:`Spec`."""
    ad = spec_game(raw, "sweep spec", TOP_KEYS, "axes", AXIS_SCHEMA, "werewolf")
    name = spec_name(raw, source, "sweep")
    seed = seed_of(raw.get("seed", 0))
    paired = raw.get("paired", False)
    if not isinstance(paired, bool):
        raise SimInputError(f"paired: expected true or false, got {paired!r}")
    target = raw.get("target_ci")
    if target is not None:
        if not _num(target) or not 0 < target < 0.5:
            raise SimInputError(f"target_ci: expected a half-width in (0, 0.5), got {target!r}")
        if "games" in raw:
            raise SimInputError("give either games (fixed) or target_ci (adaptive), not both")
        batch = positive_int(raw, "batch", 10_000)
        max_games = positive_int(raw, "max_games", 1_000_000)
        if max_games < batch:
            raise SimInputError(f"max_games ({max_games}) is below one batch ({batch})")
        blocks = positive_int(raw, "blocks", 8)
        plan = Plan(None, float(target), batch, max_games, max(1, -(-batch // blocks)))
    else:
        for k in ("batch", "max_games"):
            if k in raw:
                raise SimInputError(f"{k} is for adaptive sampling (with target_ci)")
        games = positive_int(raw, "games", DEFAULT_GAMES)
        blocks = positive_int(raw, "blocks", DEFAULT_BLOCKS)
        plan = Plan(games, None, games, games, max(1, -(-games // blocks)))
    axes_raw = raw.get("axes", [])
    if not isinstance(axes_raw, list):
        raise SimInputError("axes: write each axis as an [[axes]] table")
    axes = [parse_axis(i, a) for i, a in enumerate(axes_raw)]
    paths = [a.path for a in axes]
    dup = {p for p in paths if paths.count(p) > 1}
    if dup:
        raise SimInputError(f"axis {sorted(dup)[0]!r} given twice")
    has_random = any(a.kind == "random" for a in axes)
    samples = raw.get("samples", 0)
    if not _all_int(samples) or samples < 0:
        raise SimInputError(f"samples: expected a non-negative integer, got {samples!r}")
    if has_random and samples < 1:
        raise SimInputError("random axes need samples = N (how many points to draw)")
    if samples and not has_random:
        raise SimInputError("samples is set but no axis is random")
    base = raw.get("base", {})
    if not isinstance(base, dict):
        raise SimInputError("[base]: expected a table")
    spec_dir = source.parent if source else Path.cwd()
    return Spec(raw["game"], name, seed, paired, plan, axes, samples, base, raw, spec_dir, ad,
                _equilibrium(raw, ad, base, spec_dir))


def _equilibrium(raw: dict, ad: Game, base: dict, spec_dir: Path) -> dict | None:
    """``metric = "equilibrium"``: each cell's value is its grown equilibrium's (the
    ``[equilibrium]`` table, as ``[adapt]`` of a balance spec), not a rate under [base]'s
    strategies. The options go into every cell's job as plain data."""
    metric = raw.get("metric", ad.metric)
    if metric == ad.metric:
        if "equilibrium" in raw:
            raise SimInputError("[equilibrium] goes with metric = \"equilibrium\"")
        return None
    if metric != "equilibrium":
        raise SimInputError(f"metric: expected {ad.metric!r} (the game's, under [base]'s strategies) or "
                            f"\"equilibrium\" (each cell's grown equilibrium), got {metric!r}")
    for k in ("games", "target_ci", "batch", "max_games", "blocks", "paired"):
        if k in raw:
            raise SimInputError(f"{k}: with metric = \"equilibrium\" set the games per matrix cell as "
                                f"equilibrium.games (each cell grows its own equilibrium on its own streams)")
    from sim.analysis.equilibrium_options import equilibrium_options

    t = raw.get("equilibrium", {})
    if not isinstance(t, dict):
        raise SimInputError("[equilibrium]: expected a table")
    o = equilibrium_options(ad, ad.base_cell(base, spec_dir), t, "equilibrium", "sweep spec")
    return {k: o[k] for k in ("labels", "families", "rounds", "budget", "games", "epsilon", "warm")}


def load_spec(path: str | Path, *, seed: int | None = None, games: int | None = None) -> Spec:
    """Read a spec file (or a shipped example by name, e.g. ``trpg_alley``); ``seed`` /
    ``games`` override the file (CLI ``--seed``, ``--games``)."""
    p = example_spec(path, "sweeps")
    raw = load_toml(p)
    if seed is not None:
        raw["seed"] = seed
    if games is not None:
        raw.pop("target_ci", None)
        raw.pop("batch", None)
        raw.pop("max_games", None)
        raw["games"] = games
    return parse_spec(raw, p)


@dataclass
class Cell:
    """One cell of a sweep: its parameters, its configuration and its compiled form."""
    index: int
    params: dict[str, Any]
    config: dict          # the game's cell dict (picklable)
    compiled: Any = None  # local backend only


def build_cells(spec: Spec) -> list[Cell]:
    """Every cell, assigned and compiled: bad paths or values fail here, before any game."""
    ad = spec.protocol
    base = ad.base_cell(spec.base, spec.spec_dir)
    ad.compile_cell(base)
    cells = []
    for i, pt in enumerate(spec.points()):
        try:
            cfg, compiled = ad.make_cell(base, pt)
        except SimInputError as e:
            where = ", ".join(f"{k} = {v!r}" for k, v in pt.items())
            raise SimInputError(f"cell {i} ({where}): {e}") from None
        cells.append(Cell(i, pt, cfg, compiled))
    return cells


def cell_spawn(spec: Spec, params: dict[str, Any]) -> tuple[int, ...]:
    """The cell's stream: shared by every cell when paired, else from its parameters (so a
    cell keeps its numbers when other axis values are added)."""
    if spec.paired:
        return (1,)
    h = hashlib.sha256(json.dumps(params, sort_keys=True, default=str).encode()).digest()
    return (2, int.from_bytes(h[:4], "little"), int.from_bytes(h[4:8], "little"))
