"""What every benchmark script shares: timing, the naive reference, random draws, output.

Each game's script measures the engine with 2 threads and 1 thread, the naive pure-Python
reference (tests/naive/<game>.py) on the same games in the same run, and prints

* games/s and the speed-up over the naive reference;
* random draws per game: the engine's own games replayed under ``NUMBA_DISABLE_JIT`` in a
  subprocess with a counter in :func:`sim.core.rng.next_u64_nb` (every ``randint_nb``,
  ``uniform_nb`` and ``choose_bit_nb`` draws through it; seeding does not count);
* the machine's raw xoshiro256** rate (:func:`sim.core.rng.next_u64_nb` in a tight loop, one
  stream per thread) and the share of it a run uses: draws per game × games/s / raw
  draws/s — how close a game is to the bound of its random numbers.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

import numba as nb
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.core.kernels import stamped  # noqa: E402
from sim.core.rng import next_u64_nb  # noqa: E402


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def rate(games: int, play: Callable[[int], object], warm: int = 1000) -> float:
    """Games per second of ``play(games)`` after a small warm-up call (compile / cache load)."""
    play(min(warm, games))
    return games / timed(lambda: play(games))


def naive_rate(games: int, play_one: Callable[[int], object]) -> float:
    """Games per second of the naive reference, ``play_one(g)`` for g in range(games)."""
    play_one(0)  # warm the strategy dispatchers

    def loop():
        for g in range(games):
            play_one(g)
    return games / timed(loop)


# ---- random numbers -------------------------------------------------------------------

@nb.njit(nogil=True)
def _draw_loop(n, seed):
    s = np.empty(4, np.uint64)
    for j in range(4):
        s[j] = np.uint64(seed * 4 + j + 1) * np.uint64(0x9E3779B97F4A7C15)
    acc = np.uint64(0)
    for _ in range(n):
        acc ^= next_u64_nb(s)
    return acc


def raw_draws_per_second(threads: int, draws: int = 200_000_000) -> float:
    """Raw xoshiro256** draws/s on ``threads`` threads (one stream each, nogil)."""
    fn = stamped(_draw_loop)
    fn(1000, 0)
    per = draws // threads
    ts = [threading.Thread(target=fn, args=(per, i)) for i in range(threads)]
    t = time.perf_counter()
    for th in ts:
        th.start()
    for th in ts:
        th.join()
    return per * threads / (time.perf_counter() - t)


_COUNT = """
import json, sys
import sim.core.rng as rng
n = [0]
_next = rng.next_u64_nb
def counting(state):
    n[0] += 1
    return _next(state)
rng.next_u64_nb = counting  # randint_nb, uniform_nb and choose_bit_nb look it up here at each call
G = int(sys.argv[2])
exec(sys.argv[1])
print(json.dumps({"draws": n[0], "games": G}))
"""


def draws_per_game(code: str, games: int = 200) -> float:
    """Random draws per game of the engine: ``code`` plays ``G`` games with one thread
    (e.g. ``"from sim.looper.game import run; run(G, 1, threads=1)"``); it runs in a
    subprocess under NUMBA_DISABLE_JIT with a counter in ``next_u64_nb``."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    r = subprocess.run([sys.executable, "-W", "ignore", "-c", _COUNT, code, str(games)],
                       env=env, check=True, capture_output=True, text=True, cwd=ROOT)
    out = json.loads(r.stdout.strip().splitlines()[-1])
    return out["draws"] / out["games"]


def rng_rows(draws: float, rate_2: float, rate_1: float, unit: str = "games/s") -> dict:
    """The random-number rows: draws per game, raw rates and the share a run uses."""
    raw2, raw1 = raw_draws_per_second(2), raw_draws_per_second(1)
    return {"draws_per_game": draws, "raw_xoshiro_draws_per_second_2_threads": raw2,
            "raw_xoshiro_draws_per_second_1_thread": raw1,
            "rng_bound_fraction_2_threads": draws * rate_2 / raw2,
            "rng_bound_fraction_1_thread": draws * rate_1 / raw1}


# ---- output ---------------------------------------------------------------------------

def unit_of(key: str, rate_unit: str = "games/s") -> str:
    if key.startswith("speedup") or key.startswith("ratio"):
        return "x"
    if "seconds" in key and "per_second" not in key:
        return "s"
    if key.startswith("raw_xoshiro"):
        return "draws/s"
    if key.startswith("rng_bound_fraction"):
        return "of raw"
    if key == "draws_per_game":
        return "draws"
    if key == "games":
        return ""
    return rate_unit


def report(res: dict, as_json: bool, rate_unit: str = "games/s", width: int = 45) -> None:
    """Print the results as JSON or as the measure/value table every script uses."""
    if as_json:
        print(json.dumps(res, indent=2))
        return
    print(f"{'measure':{width}s} {'value':>16s}")
    for k, v in res.items():
        u = unit_of(k, rate_unit)
        if u == "of raw":
            print(f"{k:{width}s} {100 * v:15,.2f}% {u}")
        else:
            print(f"{k:{width}s} {v:16,.2f} {u}")
