"""Werewolf throughput: games per second, engine vs the naive reference, one run.

    .venv/bin/python benchmarks/bench_werewolf.py [--games 10000000] [--naive-games 2000]

12 participants with the seed's roles (R-1), random strategies on 2 threads and 1 thread;
the pure-Python reference (tests/naive/werewolf.py) plays the same games in the same run;
random draws per game and the share of the raw xoshiro rate (benchmarks/harness.py).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import draws_per_game, naive_rate, report, rng_rows  # noqa: E402

from sim.core.seeding import run_key  # noqa: E402
from sim.werewolf.game import run  # noqa: E402
from sim.werewolf.roles import resolve_setup  # noqa: E402
from strategies.werewolf import VILLAGE, WOLVES  # noqa: E402
from tests.naive.werewolf import naive_game  # noqa: E402


# plays G games with one thread (harness.draws_per_game)
DRAWS_CODE = "from sim.werewolf.game import run; run(G, 1, threads=1)"


def engine(games: int, village="random", wolves="random", threads=2) -> float:
    r = run(games, 1, village=village, wolves=wolves, threads=threads)
    return r.summary["games_per_second"][0]


def naive(games: int) -> float:
    setup = resolve_setup()
    key = run_key(1)
    v, w = VILLAGE.get("random"), WOLVES.get("random")
    return naive_rate(games, lambda g: naive_game(setup, key, g, v, w))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--naive-games", type=int, default=2000)
    ap.add_argument("--draw-games", type=int, default=500, help="games replayed to count random draws")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    run(1000, 0)  # compile / load the cache
    run(1000, 0, village="claims", wolves="claims")
    run(1000, 0, village="trusting", wolves="trusting")
    t = time.perf_counter()
    res = {"engine_random_12p": engine(a.games)}
    res["seconds_for_games"] = time.perf_counter() - t
    res["games"] = a.games
    res["engine_random_12p_1_thread"] = engine(a.games // 5, threads=1)
    # issue 15's target: the talking table (claims vs claims) at >= 300,000 games/s on 2 threads
    res["engine_claims_vs_claims"] = engine(a.games // 20, "claims", "claims")
    res["engine_claims_vs_claims_1_thread"] = engine(a.games // 40, "claims", "claims", threads=1)
    res["engine_trusting_vs_trusting"] = engine(a.games // 20, "trusting", "trusting")
    res["naive_random_12p"] = naive(a.naive_games)
    res["speedup_vs_naive"] = res["engine_random_12p"] / res["naive_random_12p"]
    draws = draws_per_game(DRAWS_CODE, a.draw_games)
    res.update(rng_rows(draws, res["engine_random_12p"], res["engine_random_12p_1_thread"]))
    report(res, a.json, width=40)


if __name__ == "__main__":
    main()
