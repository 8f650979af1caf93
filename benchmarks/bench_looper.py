"""Looper throughput: whole games per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_looper.py [--games 1000000] [--naive-games 300]

Prints games/s for the default strategies (random player vs random scriptwriter) on
2 threads and 1 thread, the other strategy pairs, the pure-Python reference
(tests/naive/looper.py) on the same games, their ratio, the random draws per game and
the share of the raw xoshiro rate (benchmarks/harness.py), and the cold start of
`sim looper run --games 1000` with a warm compile cache.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, draws_per_game, naive_rate, rate, report, rng_rows  # noqa: E402

from sim.core.seeding import run_key  # noqa: E402
from sim.looper.game import resolve_setup, run  # noqa: E402
from strategies.looper import PLAYERS, SCRIPTWRITERS  # noqa: E402
from tests.naive.looper import naive_game  # noqa: E402


# plays G games with one thread (harness.draws_per_game)
DRAWS_CODE = "from sim.looper.game import run; run(G, 1, threads=1)"


def engine_rate(games: int, player: str, writer: str, threads=None) -> float:
    def play(n):
        r = run(n, 1, player=player, scriptwriter=writer, threads=threads)
        assert r.summary["games"][0] == n
    return rate(games, play, warm=2000)


def naive(games: int) -> float:
    roster = resolve_setup()
    key = run_key(1)
    p, w = PLAYERS.get("random"), SCRIPTWRITERS.get("random")
    return naive_rate(games, lambda g: naive_game(roster, key, g, p, w))


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
    ap.add_argument("--draw-games", type=int, default=200, help="games replayed to count random draws")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = {}
    res["engine_random_vs_random"] = engine_rate(a.games, "random", "random", threads=2)
    res["engine_random_vs_random_1_thread"] = engine_rate(a.games // 4, "random", "random", threads=1)
    for p, w in (("cautious", "random"), ("deducer", "random"), ("deducer", "adversarial")):
        res[f"engine_{p}_vs_{w}"] = engine_rate(max(a.games // 20, 1000), p, w, threads=2)
    res["naive_random_vs_random"] = naive(a.naive_games)
    res["speedup_vs_naive"] = res["engine_random_vs_random"] / res["naive_random_vs_random"]
    res["seconds_for_1M_games"] = 1_000_000 / res["engine_random_vs_random"]
    res["cold_start_seconds_sim_looper_run_1000"] = cold_start()
    draws = draws_per_game(DRAWS_CODE, a.draw_games)
    res.update(rng_rows(draws, res["engine_random_vs_random"], res["engine_random_vs_random_1_thread"]))
    report(res, a.json)


if __name__ == "__main__":
    main()
