"""Cold compile time: seconds from nothing cached to a kernel's first games, per kernel.

    .venv/bin/python benchmarks/bench_compile.py [--only werewolf] [--repeat 1] [--json]

A designer pays this once per strategy pair (then the kernel loads from the cache in
milliseconds), and `make test` pays it for every pair its tests play: most of a cold run.
Each kernel is compiled in a fresh subprocess with empty ``SIM_KERNEL_DIR`` and
``NUMBA_CACHE_DIR`` (numba's and the project's caches both cold), which then plays a few
games; the figure is the time of that first call, imports excluded. The subprocesses run
one at a time, so each has a core to itself.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, report  # noqa: E402

# label -> code that plays a few games (the timed part) after its imports
KERNELS = {
    "werewolf_random_vs_random": ("from sim.werewolf.game import run",
                                  "run(10, 1)"),
    "werewolf_claims_vs_claims": ("from sim.werewolf.game import run",
                                  "run(10, 1, village='claims', wolves='claims')"),
    "trpg_alley": ("from sim.trpg.game import run",
                   "run(10, 1, path='sim/trpg/data/scenarios/alley.toml')"),
    "trpg_squad": ("from sim.trpg.game import run",
                   "run(10, 1, path='sim/trpg/data/scenarios/squad.toml')"),
    "looper_random_vs_random": ("from sim.looper.game import run",
                                "run(10, 1, tables=False)"),
    "looper_cautious_vs_adversarial": ("from sim.looper.game import run",
                                       "run(10, 1, player='cautious', scriptwriter='adversarial', tables=False)"),
}

CHILD = """
import time
{imports}
t = time.perf_counter()
{call}
print(time.perf_counter() - t)
"""


def compile_seconds(imports: str, call: str) -> float:
    """Seconds of ``call``'s first run in a fresh process with empty caches."""
    with tempfile.TemporaryDirectory() as kd, tempfile.TemporaryDirectory() as nc:
        env = {**os.environ, "SIM_KERNEL_DIR": kd, "NUMBA_CACHE_DIR": nc,
               "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
        env.pop("NUMBA_DISABLE_JIT", None)
        out = subprocess.run([sys.executable, "-c", CHILD.format(imports=imports, call=call)], cwd=ROOT,
                             env=env, check=True, capture_output=True, text=True)
        return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="kernels whose label contains this text")
    ap.add_argument("--repeat", type=int, default=1, help="compiles per kernel (the fastest is printed)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    chosen = {label: k for label, k in KERNELS.items() if a.only in label}
    if a.repeat < 1:
        ap.error(f"--repeat must be at least 1, got {a.repeat}")
    if not chosen:
        ap.error(f"--only {a.only!r} matches no kernel; the kernels: {', '.join(KERNELS)}")
    res = {f"{label}_compile_seconds": min(compile_seconds(imports, call) for _ in range(a.repeat))
           for label, (imports, call) in chosen.items()}
    report(res, a.json)


if __name__ == "__main__":
    main()
