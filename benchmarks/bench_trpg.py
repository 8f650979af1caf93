"""TRPG throughput: 4v4 combats per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_trpg.py [--games 400000] [--naive-games 300]

The 4v4 scenario sim/trpg/data/scenarios/squad.toml with its sheet strategies, 2 threads
and 1 thread; the pure-Python reference (tests/naive/trpg.py) plays the same combats in
the same run; random draws per combat and the share of the raw xoshiro rate
(benchmarks/harness.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, draws_per_game, naive_rate, report, rng_rows  # noqa: E402

from sim.core.seeding import run_key  # noqa: E402
from sim.trpg.game import run  # noqa: E402
from sim.trpg.sheets import resolve_setup  # noqa: E402

SQUAD = ROOT / "sim" / "trpg" / "data" / "scenarios" / "squad.toml"
# plays G combats with one thread (harness.draws_per_game)
DRAWS_CODE = ("from sim.trpg.game import run; from sim.trpg.sheets import resolve_setup; "
              f"run(G, 1, threads=1, scenario=resolve_setup({str(SQUAD)!r}))")


def naive(games: int) -> float:
    from tests.naive.trpg import naive_combat

    sc = resolve_setup(SQUAD)
    key = run_key(1)
    return naive_rate(games, lambda g: naive_combat(sc, key, g))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400_000)
    ap.add_argument("--naive-games", type=int, default=300)
    ap.add_argument("--draw-games", type=int, default=200, help="combats replayed to count random draws")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    sc = resolve_setup(SQUAD)
    run(1000, 0, scenario=sc)
    res = {"engine_4v4": run(a.games, 1, scenario=sc, threads=2).summary["games_per_second"][0],
           "engine_4v4_1_thread": run(a.games // 4, 1, scenario=sc, threads=1).summary["games_per_second"][0],
           "naive_4v4": naive(a.naive_games)}
    res["speedup_vs_naive"] = res["engine_4v4"] / res["naive_4v4"]
    draws = draws_per_game(DRAWS_CODE, a.draw_games)
    res.update(rng_rows(draws, res["engine_4v4"], res["engine_4v4_1_thread"]))
    report(res, a.json, rate_unit="combats/s", width=40)


if __name__ == "__main__":
    main()
