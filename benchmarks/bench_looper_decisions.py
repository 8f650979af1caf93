"""Where a Looper player's time goes, decision by decision (issue 41).

The kernel cannot be profiled from inside, but ``tests.naive.looper.naive_game`` plays
game *k* of a seed exactly as the kernel does, calling the strategy's compiled functions
from Python: so each move and naming can be timed alone. A game the kernel finds slow shows
here which decision is slow (loop, day) and how long it took.

    python benchmarks/bench_looper_decisions.py --config attention.toml --player bayes \\
        --games 0-19 --seed 1 [--set player.descents=0] [--over 0.05]

The first listed game is played once untimed before, to compile the strategy's functions
(minutes for the filter players when their helpers are not in the disk cache yet).
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
import tomllib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.core.seeding import run_key  # noqa: E402
from sim.looper.game import resolve_setup  # noqa: E402
from strategies.looper import PLAYERS, SCRIPTWRITERS  # noqa: E402
from tests.naive.looper import naive_game  # noqa: E402


def _games(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", required=True, help="a TOML with [setup] (the fixed scriptwriter plays it)")
    ap.add_argument("--player", default="bayes")
    ap.add_argument("--games", default="0-9", help="game indices: 0-9 or 3,7,12")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--over", type=float, default=0.05, help="list the decisions slower than this (s)")
    a = ap.parse_args(argv)
    roster = resolve_setup(tomllib.loads(Path(a.config).read_text()), a.set)
    base = PLAYERS.get(a.player)
    w = SCRIPTWRITERS.get("fixed")
    params = w.prepare(roster, np.random.default_rng(0))
    log: list[tuple[str, int, int, float]] = []

    def timed(kind, fn):
        def call(*args):
            view = args[1]
            t = time.perf_counter()
            r = fn(*args)
            log.append((kind, int(view.loop), int(view.day), time.perf_counter() - t))
            return r
        return call

    player = dataclasses.replace(base, move=timed("move", base.move), name_key=timed("name", base.name_key))
    total = 0.0
    games = _games(a.games)
    naive_game(roster, run_key(a.seed), games[0], player, w, params)  # compiles
    for g in games:
        log.clear()
        t = time.perf_counter()
        res = naive_game(roster, run_key(a.seed), g, player, w, params)
        dt = time.perf_counter() - t
        total += dt
        slow = [e for e in log if e[3] > a.over]
        print(f"game {g}: {dt:.3f} s, {len(res['loop_end'])} loops, {len(log)} decisions", flush=True)
        for kind, lp, d, s in slow:
            print(f"    {kind} loop {lp + 1} day {d}: {s:.3f} s")
    print(f"total {total:.2f} s")


if __name__ == "__main__":
    main()
