"""Sweep overhead: a 100-cell sweep of 10k games per cell against the same 1M games in
one run, per game, in one process with warm kernels (target: ratio ≤ 1.5).

    .venv/bin/python benchmarks/bench_sweep.py [--cells 100] [--games 10000] [--game looper]

Per game also the sweep's games/s on 2 threads and on 1 thread (a quarter of the
cells), the naive reference on the same games, the speed-up, the random draws per game
and the share of the raw xoshiro rate (benchmarks/harness.py).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, draws_per_game, report, rng_rows, timed  # noqa: E402

from sim.sweep.run import run_sweep  # noqa: E402
from sim.sweep.spec import parse_spec  # noqa: E402

# One axis whose values do not change a game (a display name), so both sides play alike.
SPECS = {
    "looper": ({"player": "random"}, "characters.cat.name"),
    "werewolf": ({}, "roles.seer.name"),
    "trpg": ({"scenario": "squad.toml"}, "scenario.name"),
}


def sweep_seconds(game: str, cells: int, games: int, threads: int) -> float:
    base, path = SPECS[game]
    raw = {"game": game, "name": "bench", "seed": 1, "games": games, "base": base,
           "axes": [{"path": path, "values": [f"v{i}" for i in range(cells)]}]}
    spec = parse_spec(raw, None)
    with tempfile.TemporaryDirectory() as tmp:
        run_sweep(parse_spec({**raw, "games": 500, "name": "warm"}, None), tmp, threads=threads)  # load the kernels
        return timed(lambda: run_sweep(spec, tmp, threads=threads))


def one(game: str, cells: int, games: int, naive_games: int, draw_games: int) -> dict:
    base, _ = SPECS[game]
    sweep_s = sweep_seconds(game, cells, games, threads=2)
    one_run = single(game, cells * games, base)
    cells_1 = max(cells // 4, 1)
    sweep_1 = cells_1 * games / sweep_seconds(game, cells_1, games, threads=1)
    row = {"game": game, "cells": cells, "games_per_cell": games, "sweep_seconds": sweep_s,
           "one_run_seconds": one_run, "ratio": sweep_s / one_run,
           "sweep_games_per_second": cells * games / sweep_s,
           "sweep_games_per_second_1_thread": sweep_1,
           "one_run_games_per_second": cells * games / one_run}
    bench = __import__(f"bench_{game}")
    row["naive_games_per_second"] = bench.naive(naive_games)
    row["speedup_vs_naive"] = row["sweep_games_per_second"] / row["naive_games_per_second"]
    row.update(rng_rows(draws_per_game(bench.DRAWS_CODE, draw_games), row["sweep_games_per_second"], sweep_1))
    return row


def single(game: str, games: int, base: dict) -> float:
    if game == "looper":
        from sim.looper.game import run
        run(1000, 1)
        t = time.perf_counter()
        run(games, 1, threads=2)
    elif game == "werewolf":
        from sim.werewolf.game import run
        run(1000, 1)
        t = time.perf_counter()
        run(games, 1, threads=2)
    else:
        from sim.trpg.game import run
        from sim.trpg.sheets import resolve_setup
        sc = resolve_setup(ROOT / "sim" / "trpg" / "data" / "scenarios" / base["scenario"])
        run(1000, 1, scenario=sc)
        t = time.perf_counter()
        run(games, 1, scenario=sc, threads=2)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=100)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--game", choices=[*SPECS, "all"], default="all")
    ap.add_argument("--naive-games", type=int, default=300)
    ap.add_argument("--draw-games", type=int, default=200, help="games replayed to count random draws")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = [one(g, a.cells, a.games, a.naive_games, a.draw_games) for g in (SPECS if a.game == "all" else [a.game])]
    if a.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['game']:9s} {r['cells']} cells x {r['games_per_cell']:,} games: sweep {r['sweep_seconds']:.2f} s, "
              f"one run {r['one_run_seconds']:.2f} s, ratio {r['ratio']:.2f} "
              f"({r['sweep_games_per_second']:,.0f} games/s in the sweep)")
    for r in rows:
        print(f"\n{r['game']}:")
        report({k: v for k, v in r.items() if k not in ("game", "cells", "games_per_cell")}, False, width=40)


if __name__ == "__main__":
    main()
