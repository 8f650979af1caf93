"""Looper throughput: whole games per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_looper.py [--games 1000000] [--naive-games 300]

Prints games/s for the default strategies (random player vs random scriptwriter) on
all cores, the other strategy pairs, the pure-Python reference (tests/naive/looper.py)
on the same games, their ratio, and the cold start of `sim looper run --games 1000`
with a warm compile cache.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.core.seeding import run_key  # noqa: E402
from sim.looper.game import resolve_roster, run  # noqa: E402
from strategies.looper import PLAYERS, SCRIPTWRITERS  # noqa: E402
from tests.naive.looper import naive_game  # noqa: E402


def engine_rate(games: int, player: str, writer: str, threads=None) -> float:
    run(2000, 0, player=player, scriptwriter=writer, threads=threads)  # compile / load cache
    t = time.perf_counter()
    r = run(games, 1, player=player, scriptwriter=writer, threads=threads)
    dt = time.perf_counter() - t
    assert r.summary["games"][0] == games
    return games / dt


def naive_rate(games: int) -> float:
    roster = resolve_roster()
    key = run_key(1)
    p, w = PLAYERS.get("random"), SCRIPTWRITERS.get("random")
    naive_game(roster, key, 0, p, w)  # warm the strategy dispatchers
    t = time.perf_counter()
    for g in range(games):
        naive_game(roster, key, g, p, w)
    return games / (time.perf_counter() - t)


def cold_start() -> float:
    cmd = [str(ROOT / ".venv" / "bin" / "sim"), "looper", "run", "--games", "1000", "--json"]
    if not Path(cmd[0]).exists():
        cmd = [sys.executable, "-m", "sim", "looper", "run", "--games", "1000", "--json"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the cache
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--naive-games", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = {}
    res["engine_random_vs_random"] = engine_rate(a.games, "random", "random")
    res["engine_random_vs_random_1_thread"] = engine_rate(a.games // 4, "random", "random", threads=1)
    for p, w in (("cautious", "random"), ("deducer", "random"), ("deducer", "adversarial")):
        res[f"engine_{p}_vs_{w}"] = engine_rate(max(a.games // 20, 1000), p, w)
    res["naive_random_vs_random"] = naive_rate(a.naive_games)
    res["speedup_vs_naive"] = res["engine_random_vs_random"] / res["naive_random_vs_random"]
    res["seconds_for_1M_games"] = 1_000_000 / res["engine_random_vs_random"]
    res["cold_start_seconds_sim_looper_run_1000"] = cold_start()
    if a.json:
        print(json.dumps(res, indent=2))
        return
    print(f"{'measure':45s} {'value':>14s}")
    for k, v in res.items():
        unit = "x" if k.startswith("speedup") else ("s" if "seconds" in k else "games/s")
        print(f"{k:45s} {v:14,.2f} {unit}")


if __name__ == "__main__":
    main()
