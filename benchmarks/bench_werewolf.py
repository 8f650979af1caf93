"""Werewolf throughput: games per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_werewolf.py [--games 10000000] [--naive-games 2000]

12 participants with the seed's roles (R-1), random strategies on all cores; the
pure-Python reference (tests/naive/werewolf.py) plays the same games in the same run.
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
from sim.werewolf.game import run  # noqa: E402
from sim.werewolf.roles import resolve_setup  # noqa: E402
from strategies.werewolf import VILLAGE, WOLVES  # noqa: E402
from tests.naive.werewolf import naive_game  # noqa: E402


def engine(games: int, village="random", wolves="random", threads=None) -> float:
    r = run(games, 1, village=village, wolves=wolves, threads=threads)
    return r.summary["games_per_second"][0]


def naive(games: int) -> float:
    setup = resolve_setup()
    key = run_key(1)
    v, w = VILLAGE.get("random"), WOLVES.get("random")
    naive_game(setup, key, 0, v, w)
    t = time.perf_counter()
    for g in range(games):
        naive_game(setup, key, g, v, w)
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--naive-games", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    run(1000, 0)  # compile / load the cache
    t = time.perf_counter()
    res = {"engine_random_12p": engine(a.games)}
    res["seconds_for_games"] = time.perf_counter() - t
    res["games"] = a.games
    res["engine_random_12p_1_thread"] = engine(a.games // 5, threads=1)
    res["engine_claims_vs_claims"] = engine(a.games // 20, "claims", "claims")
    res["naive_random_12p"] = naive(a.naive_games)
    res["speedup_vs_naive"] = res["engine_random_12p"] / res["naive_random_12p"]
    if a.json:
        print(json.dumps(res, indent=2))
        return
    for k, v in res.items():
        unit = "x" if k.startswith("speedup") else ("s" if k.startswith("seconds") else ("" if k == "games" else "games/s"))
        print(f"{k:32s} {v:16,.2f} {unit}")


if __name__ == "__main__":
    main()
