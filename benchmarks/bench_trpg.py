"""TRPG throughput: 4v4 combats per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_trpg.py [--games 400000] [--naive-games 300]

The 4v4 scenario sim/trpg/data/scenarios/squad.toml with its sheet strategies, all cores;
the pure-Python reference (tests/naive/trpg.py) plays the same combats in the same run.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.core.seeding import run_key  # noqa: E402
from sim.trpg.game import run  # noqa: E402
from sim.trpg.sheets import resolve_scenario  # noqa: E402

SQUAD = ROOT / "sim" / "trpg" / "data" / "scenarios" / "squad.toml"


def naive(games: int) -> float:
    from tests.naive.trpg import naive_combat

    sc = resolve_scenario(SQUAD)
    key = run_key(1)
    naive_combat(sc, key, 0)
    t = time.perf_counter()
    for g in range(games):
        naive_combat(sc, key, g)
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400_000)
    ap.add_argument("--naive-games", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    sc = resolve_scenario(SQUAD)
    run(1000, 0, scenario=sc)
    res = {"engine_4v4": run(a.games, 1, scenario=sc).summary["games_per_second"][0],
           "engine_4v4_1_thread": run(a.games // 4, 1, scenario=sc, threads=1).summary["games_per_second"][0],
           "naive_4v4": naive(a.naive_games)}
    res["speedup_vs_naive"] = res["engine_4v4"] / res["naive_4v4"]
    if a.json:
        print(json.dumps(res, indent=2))
        return
    for k, v in res.items():
        print(f"{k:24s} {v:14,.2f} {'x' if k.startswith('speedup') else 'combats/s'}")


if __name__ == "__main__":
    main()
