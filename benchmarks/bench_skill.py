"""Speed of the skill machinery (issue 13): a ladder at 100,000 games per cell and tunes of
200 evaluations (race; the Werewolf village's `claims` knobs against `claims`); and the
Looper's reasoning players (issue 14): `bayes` and `planner` against the `random`
scriptwriter on 2 threads, in games/s. Timings only — the tests check correctness (examples/race/tests, tests/test_looper_bayes.py).

    .venv/bin/python benchmarks/bench_skill.py [--json] [--looper-only]

Each step is timed after a warm-up that compiles its kernels, so the figures are the
machinery's, not numba's compile time.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.analysis.metagame import MEASURE, measure, parse_tier  # noqa: E402
from sim.analysis.tune import tune  # noqa: E402
from sim.core.game import get  # noqa: E402
from sim.core.knobs import parse_spec, spec_sets  # noqa: E402


def ladder(game_name: str, rows: list[str], cols: list[str], games: int) -> dict:
    g = get(game_name)
    a, b = g.sides
    tree = g.build()
    R = [parse_tier(g, a, t) for t in rows]
    C = [parse_tier(g, b, t) for t in cols]
    measure(g, tree, R, C, 200, 0, (MEASURE,))  # compile every pair's kernel
    t = time.perf_counter()
    measure(g, tree, R, C, games, 1, (MEASURE,))
    s = time.perf_counter() - t
    return {"cells": len(R) * len(C), "games_per_cell": games, "seconds": s,
            "games_per_second": len(R) * len(C) * games / s}


def race_tune(evaluations: int, games: int) -> dict:
    g = get("race")
    against = {"p2": parse_spec(g, "p2", "threshold@k=0")}
    tree = g.build(sets=spec_sets(g, against["p2"]))
    tune(g, tree, "p1", "threshold", against, budget=3, games=200, seed=0)  # compile
    t = time.perf_counter()
    res = tune(g, tree, "p1", "threshold", against, budget=evaluations, games=games, seed=1)
    s = time.perf_counter() - t
    return {"evaluations": evaluations, "games_per_evaluation": games, "seconds": s, "games": res.games,
            "params": res.params, "tuned_rate": res.tuned_rate}


def werewolf_tune(side: str, evaluations: int, games: int) -> dict:
    """A tune of one side's `claims` knobs against `claims`, default 12 seats (issue 13's
    target: >= 200 evaluations within 3 minutes on 2 cores)."""
    g = get("werewolf")
    other = "wolves" if side == "village" else "village"
    against = {other: parse_spec(g, other, "claims")}
    tree = g.build()
    tune(g, tree, side, "claims", against, budget=2, games=200, seed=0)  # compile
    t = time.perf_counter()
    res = tune(g, tree, side, "claims", against, budget=evaluations, games=games, seed=1)
    s = time.perf_counter() - t
    return {"evaluations": evaluations, "games_per_evaluation": games, "seconds": s, "games": res.games,
            "baseline_rate": res.baseline_rate, "tuned_rate": res.tuned_rate, "params": res.params}


def looper_player(player: str, games: int, scriptwriter: str = "random") -> dict:
    """Games/s of a Looper player strategy on 2 threads (issue 14's targets: bayes vs random
    >= 50,000, planner >= 1,000), after a small warm-up run that compiles or loads its kernel."""
    from sim.looper.game import run

    run(50, 0, player=player, scriptwriter=scriptwriter, threads=2)
    t = time.perf_counter()
    r = run(games, 1, player=player, scriptwriter=scriptwriter, threads=2)
    s = time.perf_counter() - t
    row = r.summary.row(0, named=True)
    return {"games": games, "seconds": s, "games_per_second": games / s, "player_win_rate": row["player_win_rate"]}


def main() -> None:
    # the machine's pace in the same run: random vs random, the cheapest Looper game (this
    # machine's speed drifts by up to ±30 % from day to day; the ratio to it does not)
    pace = looper_player("random", 1_000_000)
    looper = {
        "looper_random_vs_random": pace,
        "looper_bayes_vs_random": looper_player("bayes", 10000),
        "looper_planner_vs_random": looper_player("planner", 5000),
    }
    for k in ("looper_bayes_vs_random", "looper_planner_vs_random"):
        looper[k]["times_slower_than_random"] = pace["games_per_second"] / looper[k]["games_per_second"]
    if "--looper-only" in sys.argv:
        out = looper
        if "--json" in sys.argv:
            print(json.dumps(out))
            return
        for k, v in out.items():
            print(f"{k:26s} " + ", ".join(f"{a}={b:,.2f}" if isinstance(b, float) else f"{a}={b}" for a, b in v.items()))
        return
    out = {**looper,
        "race_ladder_4x4": ladder("race", ["cautious", "bold", "threshold@k=0", "threshold@k=-10"],
                                  ["cautious", "bold", "threshold@k=0", "threshold@k=-10"], 100_000),
        "werewolf_ladder_2x3": ladder("werewolf", ["random", "claims"], ["random", "claims", "oracle_attack"],
                                      100_000),
        "race_tune_200": race_tune(200, 4000),
        "werewolf_tune_village_200": werewolf_tune("village", 200, 4000),
    }
    if "--json" in sys.argv:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(f"{k:26s} " + ", ".join(f"{a}={b:,.2f}" if isinstance(b, float) else f"{a}={b}" for a, b in v.items()))


if __name__ == "__main__":
    main()
