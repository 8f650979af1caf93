"""Build-vs-build matchups: every pair plays both ways (first move swapped).

Tables (``sim trpg matrix``; JSON keys, parquet files): ``matrix`` — one row per ordered
pair (build, opponent): games, wins, draws, losses, win/draw rates with the Wilson 95 %
interval, and the split by who acted first (``first_games`` / ``first_wins`` /
``first_win_rate`` with the row build first, ``second_*`` with the opponent first);
``overall`` — each build's pooled win rate and its Bradley–Terry rating (a draw half a
win to each; :func:`sim.core.stats.bradley_terry`) with a 95 % interval; ``rivals`` —
the opponents a build loses to (win rate below one half), worst first, at most three
(empty when it beats every opponent); ``games`` — the raw rows per pair and first mover."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Iterable

import numpy as np
import polars as pl

from sim.core.stats import bradley_terry, wilson
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
    # [i, j, order]: i's wins / draws against j, order 0 with i first, 1 with j first
    wins = np.zeros((k, k, 2), np.int64)
    draws = np.zeros((k, k, 2), np.int64)
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i >= j:
                continue
            for first in ("a", "b"):
                s = pair_scenario(cfg, a, b, first, sets)
                r = run(games, seed, scenario=s, threads=threads, spawn=(i, j, first == "b"))
                wa, wb = (int(x) for x in r.totals["wins"])
                o = 0 if first == "a" else 1
                wins[i, j, o] += wa
                wins[j, i, 1 - o] += wb
                draws[i, j, o] += games - wa - wb
                draws[j, i, 1 - o] += games - wa - wb
                rows.append({"build": a, "opponent": b, "first": a if first == "a" else b, "games": games,
                             "wins": wa, "losses": wb, "draws": games - wa - wb})
    mrows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                continue
            played = 2 * games
            w, d = int(wins[i, j].sum()), int(draws[i, j].sum())
            lo, hi = wilson(w, played)
            mrows.append({"build": a, "opponent": b, "games": played, "wins": w, "draws": d,
                          "losses": played - w - d, "win_rate": w / played, "ci_low": lo, "ci_high": hi,
                          "draw_rate": d / played,
                          "first_games": games, "first_wins": int(wins[i, j, 0]), "first_draws": int(draws[i, j, 0]),
                          "first_win_rate": wins[i, j, 0] / games,
                          "second_games": games, "second_wins": int(wins[i, j, 1]),
                          "second_draws": int(draws[i, j, 1]), "second_win_rate": wins[i, j, 1] / games})
    matrix = pl.DataFrame(mrows)
    score = wins.sum(axis=2) + draws.sum(axis=2) / 2.0  # a draw: half a win to each (Bradley–Terry)
    bt = bradley_terry(score)

    def finite(x):
        return float(x) if np.isfinite(x) else None

    orows = []
    for i, a in enumerate(names):
        w, d = int(wins[i].sum()), int(draws[i].sum())
        played = 2 * games * (k - 1)
        lo, hi = wilson(w, played)
        orows.append({"build": a, "wins": w, "draws": d, "games": played, "win_rate": w / played,
                      "ci_low": lo, "ci_high": hi, "draw_rate": d / played,
                      "rating": finite(bt[i]["rating"]), "rating_ci_low": finite(bt[i]["ci_low"]),
                      "rating_ci_high": finite(bt[i]["ci_high"])})
    overall = pl.DataFrame(orows).sort("win_rate", descending=True)
    rivals = (matrix.sort("win_rate").group_by("build", maintain_order=True)
              .agg(pl.col("opponent").filter(pl.col("win_rate") < 0.5).head(3).alias("top_rivals"),
                   pl.col("win_rate").filter(pl.col("win_rate") < 0.5).head(3).alias("rival_win_rates")))
    return {"matrix": matrix, "overall": overall, "rivals": rivals, "games": pl.DataFrame(rows)}
