"""Build-vs-build matchups: every pair plays both ways (first move swapped)."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Iterable

import numpy as np
import polars as pl

from sim.core.stats import wilson
from sim.errors import SimInputError
from sim.trpg.game import run
from sim.core.config import load_toml
from sim.core.shipped import find_shipped, tomls
from sim.trpg.sheets import BUILDS_SCHEMA, DATA, build_config, compile_setup, load_checked


def builds_path(arg: str | Path) -> Path:
    """A builds argument -> its file: an existing path, or a shipped builds file by name
    (``builds`` or ``builds.toml``, in ``sim/trpg/data``)."""
    shipped = {k: p for k, p in tomls(Path(str(DATA))).items() if "builds" in load_toml(p)}
    return find_shipped(arg, shipped, "builds file")


def load_builds(path: str | Path) -> dict:
    """A builds file (path or shipped name), keys checked."""
    cfg = load_checked(builds_path(path), BUILDS_SCHEMA)
    builds = cfg.get("builds")
    if not isinstance(builds, dict) or len(builds) < 2:
        raise SimInputError(f"{path}: a [builds.NAME] table per build is needed (at least two)")
    return cfg


def pair_scenario(cfg: dict, a: str, b: str, first: str, sets: Iterable[str] = ()):
    """A 1v1 scenario of build a (side "a") against build b (side "b")."""
    m = cfg.get("matrix", {})
    dist = m.get("distance", 1)
    sc = {k: copy.deepcopy(v) for k, v in cfg.items() if k not in ("builds", "matrix")}
    sc["scenario"] = {"name": f"{a} vs {b}", "sides": ["a", "b"], "first": first}
    ca = copy.deepcopy(cfg["builds"][a])
    cb = copy.deepcopy(cfg["builds"][b])
    for c in (ca, cb):
        if not isinstance(c, dict):
            raise SimInputError(f"builds: {a!r} and {b!r} must be tables (character sheets)")
    ca.update(side="a", position=0)
    cb.update(side="b", position=dist)
    sc["characters"] = {f"a_{a}": ca, f"b_{b}": cb}
    return compile_setup(build_config(sc, sets))


def matchup_matrix(path: str | Path, games: int, seed: int = 0, sets: Iterable[str] = (),
                   threads: int | None = None) -> dict[str, pl.DataFrame]:
    """Every pair of builds plays both first-move orders: the matrix, overall rates and rivals."""
    cfg = load_builds(path)
    names = list(cfg["builds"])
    k = len(names)
    wins = np.zeros((k, k), np.int64)
    played = np.zeros((k, k), np.int64)
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i >= j:
                continue
            for first in ("a", "b"):
                s = pair_scenario(cfg, a, b, first, sets)
                r = run(games, seed, scenario=s, threads=threads, spawn=(i, j, first == "b"))
                wa, wb = (int(x) for x in r.totals["wins"])
                wins[i, j] += wa
                wins[j, i] += wb
                played[i, j] += games
                played[j, i] += games
                rows.append({"build": a, "opponent": b, "first": a if first == "a" else b, "games": games,
                             "wins": wa, "losses": wb, "draws": games - wa - wb})
    mrows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            lo, hi = wilson(int(wins[i, j]), int(played[i, j]))
            mrows.append({"build": a, "opponent": b, "games": int(played[i, j]), "wins": int(wins[i, j]),
                          "win_rate": wins[i, j] / played[i, j], "ci_low": lo, "ci_high": hi})
    matrix = pl.DataFrame(mrows)
    overall = (matrix.group_by("build").agg(pl.col("wins").sum(), pl.col("games").sum())
               .with_columns((pl.col("wins") / pl.col("games")).alias("win_rate")))
    overall = overall.with_columns(
        pl.struct("wins", "games").map_elements(lambda s: wilson(s["wins"], s["games"])[0], return_dtype=pl.Float64).alias("ci_low"),
        pl.struct("wins", "games").map_elements(lambda s: wilson(s["wins"], s["games"])[1], return_dtype=pl.Float64).alias("ci_high"),
    ).sort("win_rate", descending=True)
    rivals = (matrix.sort("win_rate").group_by("build", maintain_order=True)
              .agg(pl.col("opponent").head(3).alias("top_rivals"), pl.col("win_rate").head(3).alias("rival_win_rates")))
    return {"matrix": matrix, "overall": overall, "rivals": rivals, "games": pl.DataFrame(rows)}
