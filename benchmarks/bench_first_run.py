"""Time to first result after install: a cold `sim precompile`, then the first run of every
pair of built-in strategies, then games/s of the shared kernels against one kernel per pair.

    .venv/bin/python benchmarks/bench_first_run.py [--only werewolf] [--json] [--skip-speed] [--light]

1. ``sim precompile`` into an empty ``SIM_KERNEL_DIR`` / ``NUMBA_CACHE_DIR`` (what
   ``make install`` does): wall seconds, with the worker processes it uses.
2. In that cache, ``sim GAME run --games 1000`` for every pair of shipped strategies, each a
   fresh process: the wall seconds of each, their maximum, and how many compiled anything
   (a kernel file written after precompile). Issue 42's bar: every one under 3 s. Each is
   run a second time: the first run's seconds beyond the second's are what the first use
   costs (compiling or loading); the rest is the command's own work (the adversarial
   scriptwriter's setup search, about 10 s, is part of its run, not a compile).
3. Games/s, one thread, of a few pairs played by the shared kernel (the default) and by a
   kernel of their own (``SIM_KERNELS=single``), alternated three times in one run after
   both are compiled: the ratio shared/single (bar: at least 0.9).

``--light``: what ``make install`` does (``sim precompile --light``), and step 2 over the pairs
it compiles — the Looper's filter players (bayes, planner, oracle_planner), whose kernels
compile for ten to twenty CPU minutes each, are counted and left out (``heavy_pairs``).
4. Then a cold ``sim ladder werewolf`` (every built-in tier, 2,000 games a cell) in an empty
   cache of its own: issue 42's bar is 90 s.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, report  # noqa: E402

SIM = [sys.executable, "-m", "sim"]
# pairs whose speed is compared (shared kernel vs a kernel of their own)
SPEED = {
    "werewolf": [["--village", "random", "--wolves", "random"], ["--village", "claims", "--wolves", "claims"]],
    "looper": [["--player", "random", "--scriptwriter", "random"], ["--player", "cautious", "--scriptwriter", "adversarial"]],
    "trpg": [["alley"]],
}
GAMES = {"werewolf": 200_000, "looper": 50_000, "trpg": 50_000}


def _env(kd: str, nc: str, **extra: str) -> dict:
    env = {**os.environ, "SIM_KERNEL_DIR": kd, "NUMBA_CACHE_DIR": nc, **extra}
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("SIM_KERNELS", None)
    env.update(extra)
    return env


def heavy(game: str, pair: list[str]) -> bool:
    """A pair ``sim precompile --light`` leaves to its first use (``Game.heavy_kernel``)."""
    from sim.core.game import get

    if game != "looper":
        return False
    return get(game).heavy_kernel({"player": pair[pair.index("--player") + 1], "scriptwriter": pair[-1]})


def pairs(game: str) -> list[list[str]]:
    """Command-line strategy arguments of every pair of shipped strategies of ``game``."""
    if game == "werewolf":
        from strategies.werewolf import SHIPPED
        return [["--village", v.name, "--wolves", w.name] for v, w in itertools.product(*SHIPPED)]
    if game == "looper":
        from strategies.looper import PLAYERS, SCRIPTWRITERS
        # `fixed` plays a script: one of the library's (without one it is an input error)
        script = ["--config", "examples/looper/scripts/park_convergence.toml"]
        return [["--player", p, *(script if w == "fixed" else []), "--scriptwriter", w]
                for p, w in itertools.product(PLAYERS.names(), SCRIPTWRITERS.names())]
    if game == "trpg":  # the profiles are data in the scenario: one kernel plays them all
        return [["alley"], ["squad"]]
    return []


def kernel_files(*dirs: str) -> set[str]:
    """numba's compiled-code files under the kernel and numba cache folders."""
    return {str(p) for d in dirs for p in Path(d).rglob("*.nbc")}


def run_wall(args: list[str], env: dict) -> float:
    t = time.perf_counter()
    subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return time.perf_counter() - t


def games_per_second(game: str, pair: list[str], env: dict) -> float:
    out = subprocess.run([*SIM, game, "run", *pair, "--games", str(GAMES[game]), "--seed", "1", "--threads", "1",
                          "--json"], cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    return float(json.loads(out)["games_per_second"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="games whose name contains this text")
    ap.add_argument("--skip-speed", action="store_true", help="only steps 1 and 2")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--light", action="store_true", help="sim precompile --light, as make install (see above)")
    a = ap.parse_args()
    games = [g for g in ("werewolf", "looper", "trpg") if a.only in g]
    res: dict = {}
    with tempfile.TemporaryDirectory() as kd, tempfile.TemporaryDirectory() as nc:
        env = _env(kd, nc)
        res["precompile_seconds"] = run_wall([*SIM, "precompile", *(["--light"] if a.light else []), *games], env)
        before = kernel_files(kd, nc)
        for game in games:
            walls = []
            todo = [p for p in pairs(game) if not (a.light and heavy(game, p))]
            res[f"{game}_heavy_pairs_left_out"] = len(pairs(game)) - len(todo)
            extra = []  # the first run's seconds beyond the second's: compiling or loading, not playing
            for pair in todo:
                cmd = [*SIM, game, "run", *pair, "--games", "1000", "--seed", "1"]
                walls.append(run_wall(cmd, env))
                extra.append((walls[-1] - run_wall(cmd, env), " ".join(pair)))
            res[f"{game}_first_run_max_seconds"] = max(walls)
            res[f"{game}_first_run_median_seconds"] = sorted(walls)[len(walls) // 2]
            res[f"{game}_first_over_second_max_seconds"] = max(extra)[0]
            res[f"{game}_first_over_second_max_pair"] = max(extra)[1]
            res[f"{game}_pairs"] = len(walls)
        res["kernels_compiled_after_precompile"] = len(kernel_files(kd, nc) - before)
        if not a.skip_speed:
            single = _env(kd, nc, SIM_KERNELS="single")
            for game in games:
                for pair in SPEED[game]:
                    label = f"{game}_{'_'.join(p for p in pair if not p.startswith('--'))}"
                    games_per_second(game, pair, single)  # compile the pair's own kernel first
                    shared, own = [], []
                    for _ in range(3):  # alternated: the machine's drift hits both alike
                        shared.append(games_per_second(game, pair, env))
                        own.append(games_per_second(game, pair, single))
                    res[f"{label}_shared_games_per_second"] = max(shared)
                    res[f"{label}_single_games_per_second"] = max(own)
                    res[f"{label}_shared_over_single"] = max(shared) / max(own)
    if a.light and "werewolf" in games:
        with tempfile.TemporaryDirectory() as kd, tempfile.TemporaryDirectory() as nc:
            res["cold_werewolf_ladder_seconds"] = run_wall([*SIM, "ladder", "werewolf", "--games", "2000", "--seed", "1"],
                                                           _env(kd, nc))
    report(res, a.json)


if __name__ == "__main__":
    main()
