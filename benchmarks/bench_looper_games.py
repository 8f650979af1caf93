"""Where a Looper player's time goes, game by game (issue 14's speed target): each game is
played alone (``run(1, seed, start=K)``, one thread) by the named player and by `random`,
alternately, and the difference — the player's own work, the call's overhead cancelled —
is averaged by what the game announced: nobody died, someone died but every loop was won
at once, or a loop was lost. Against the `random` scriptwriter. Timings only.

    .venv/bin/python benchmarks/bench_looper_games.py [--player bayes] [--games 1500] [--seed 1] [--json]

Issue 14's target for `bayes`, 50,000 games/s on 2 cores, is 40 µs of core time a game.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.looper.game import run  # noqa: E402
from sim.looper.game_nb import C_LOOPS  # noqa: E402


def one(player: str, seed: int, k: int) -> tuple[float, dict]:
    t = time.perf_counter()
    r = run(1, seed, player=player, threads=1, tables=False, start=k)
    return time.perf_counter() - t, r.totals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="bayes")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    for p in (a.player, "random"):  # compile
        run(10, a.seed, player=p, threads=1, tables=False)
    cost, kind = [], []
    for k in range(a.games):
        tp, totals = one(a.player, a.seed, k)
        tr, _ = one("random", a.seed, k)
        cost.append(tp - tr)
        if int(totals["scalars"][C_LOOPS]) > 1:
            kind.append("a loop was lost")
        elif int(totals["deaths"].sum()):
            kind.append("deaths, loop 1 won")
        else:
            kind.append("nobody died")
    cost_us, kind = np.array(cost) * 1e6, np.array(kind)
    rows = []
    for name in ("nobody died", "deaths, loop 1 won", "a loop was lost", "all"):
        m = np.ones(len(kind), bool) if name == "all" else kind == name
        if m.any():
            rows.append({"games": name, "share": float(m.mean()), "mean_us": float(cost_us[m].mean()),
                         "median_us": float(np.median(cost_us[m]))})
    if a.json:
        print(json.dumps({"player": a.player, "seed": a.seed, "games": a.games, "rows": rows}, indent=1))
        return
    print(f"{a.player} against the random scriptwriter, {a.games} games one at a time (seed {a.seed}):"
          " its own work per game, over random play's")
    print(f"{'games':<20} {'share':>7} {'mean µs':>9} {'median µs':>10}")
    for r in rows:
        print(f"{r['games']:<20} {r['share']:>7.1%} {r['mean_us']:>9.0f} {r['median_us']:>10.0f}")
    print("issue 14's target (50,000 games/s on 2 cores): 40 µs of core time a game, all included")


if __name__ == "__main__":
    main()
