"""Run many TRPG combats: chunked runner, summary tables."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
import polars as pl

from sim.core.runner import DEFAULT_CHUNK, GameResult, run_games
from sim.core.seeding import run_key
from sim.core.stats import wilson
from sim.core.views import is_oracle
from sim.trpg.game_nb import C_DRAWS, C_GAMES, C_ROUNDS, chunk_kernel, new_counts, trace_kernel
from sim.trpg.enums import CF, TARGETS, T
from sim.trpg.sheets import PLUGIN, Setup, resolve_setup


@dataclass(kw_only=True)
class CombatResult(GameResult):
    """A TRPG run: the setup, the summed counts and the tables."""
    scenario: Setup

    def to_json(self) -> dict[str, Any]:
        s = self.tables["summary"].row(0, named=True)
        sides = self.tables["sides"]
        return {
            **s,
            "wins": dict(zip(sides["side"], sides["wins"])),
            "win_rate": dict(zip(sides["side"], sides["win_rate"])),
            "ci_low": dict(zip(sides["side"], sides["ci_low"])),
            "ci_high": dict(zip(sides["side"], sides["ci_high"])),
            "characters": self.tables["characters"].to_dicts(),
        }


def run(games: int, seed: int = 0, *, scenario: Setup | None = None, path=None, sets: Iterable[str] = (),
        threads: int | None = None, chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
        spawn: tuple[int, ...] = (), start: int = 0, on_chunk=None, tables: bool = True) -> CombatResult:
    """Play ``games`` combats of a setup (or of a scenario file with ``--set`` items)."""
    scenario = scenario or resolve_setup(path, sets)
    kernel = kernel_of(scenario)
    key = run_key(seed, *spawn)
    S = scenario.nb
    res = run_games(games, lambda: new_counts(S), lambda start, count, out: kernel(key, start, count, S, out),
                    chunk_size=chunk_size, threads=threads, progress=progress, start=start,
                    on_chunk=on_chunk)
    r = CombatResult(scenario=scenario, seed=seed, totals=res.totals, seconds=res.seconds)
    if tables:
        r.tables = summary_tables(r)
    return r


def kernel_of(scenario: Setup, trace: bool = False):
    """The combat kernel of a setup: its plug-ins bound, ``oracle_focus`` when a sheet names
    it; ``trace``: the variant with an event log (:func:`sim.trpg.game_nb.trace_kernel`)."""
    from strategies.trpg import load_plugin

    hooks = {k: load_plugin(v, k) for k, v in (scenario.plugins or {}).items() if v}
    oracle = bool((scenario.nb.chars[:, CF.S_TARGET] == T.ORACLE_FOCUS).any())
    make = trace_kernel if trace else chunk_kernel
    return make(hooks.get("target"), hooks.get("reaction"), oracle_target=oracle)


def scenario_oracles(scenario: Setup) -> dict[str, str]:
    """Character id → ``kind=name`` of every oracle strategy its sheet names (empty when honest)."""
    out = {}
    for i, cid in enumerate(scenario.ids):
        names = []
        for kind, col in (("target", CF.S_TARGET), ("reaction", CF.S_REACTION)):
            code = int(scenario.nb.chars[i, col])
            if code >= PLUGIN:
                name = (scenario.plugins or {}).get(kind) or ""
            elif kind == "target":
                name = TARGETS[code]
            else:
                name = ""
            if is_oracle(name):
                names.append(f"{kind}={name}")
        if names:
            out[cid] = ", ".join(names)
    return out


def summary_tables(r: CombatResult) -> dict[str, pl.DataFrame]:
    """Count arrays → the summary, per-side, per-character and round tables."""
    t = r.totals
    sc = r.scenario
    games = int(t["scalars"][C_GAMES])
    summary = pl.DataFrame([{
        "scenario": sc.name, "games": games, "draws": int(t["scalars"][C_DRAWS]),
        "draw_rate": t["scalars"][C_DRAWS] / games, "mean_rounds": t["scalars"][C_ROUNDS] / games,
        "games_per_second": games / r.seconds if r.seconds > 0 else float("inf"), "seconds": r.seconds,
        "seed": r.seed,
    }])
    rows = []
    for s, name in enumerate(sc.sides):
        w = int(t["wins"][s])
        lo, hi = wilson(w, games)
        rows.append({"side": name, "wins": w, "win_rate": w / games, "ci_low": lo, "ci_high": hi})
    sides = pl.DataFrame(rows)
    crow = []
    for i, cid in enumerate(sc.ids):
        crow.append({"character": cid, "side": sc.sides[int(sc.nb.chars[i, CF.SIDE])],
                     "fall_rate": t["fell"][i] / games, "loss_rate": t["lost"][i] / games,
                     "standing_at_end": t["survived"][i] / games,
                     "damage_dealt": t["dealt"][i] / games, "damage_taken": t["taken"][i] / games})
    rh = t["rounds_hist"]
    wr = t["win_rounds"]
    rounds = pl.DataFrame({"rounds": np.arange(len(rh)), "games": rh,
                           **{f"{name}_wins": wr[k] for k, name in enumerate(sc.sides)}, "draws": wr[-1]}
                          ).filter(pl.col("games") > 0)
    return {"summary": summary, "sides": sides, "characters": pl.DataFrame(crow), "rounds": rounds}
