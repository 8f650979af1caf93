"""Cold compile time: seconds from nothing cached to a kernel's first games, per kernel.

    .venv/bin/python benchmarks/bench_compile.py [--only werewolf] [--repeat 1]

A designer pays this once per strategy pair (then the kernel loads from the cache in
milliseconds), and `make test` pays it for every pair its tests play: most of a cold run.
Each kernel is compiled in a fresh subprocess with empty ``SIM_KERNEL_DIR`` and
``NUMBA_CACHE_DIR`` (numba's and the project's caches both cold), which then plays a few
games; the figure is the time of that first call, imports excluded. The subprocesses run
one at a time, so each has a core to itself.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# label -> code that plays a few games (the timed part) after its imports
KERNELS = {
    "werewolf random vs random": ("from sim.werewolf.game import run",
                                  "run(10, 1)"),
    "werewolf claims vs claims": ("from sim.werewolf.game import run",
                                  "run(10, 1, village='claims', wolves='claims')"),
    "trpg alley": ("from sim.trpg.game import run",
                   "run(10, 1, path='sim/trpg/data/scenarios/alley.toml')"),
    "trpg squad": ("from sim.trpg.game import run",
                   "run(10, 1, path='sim/trpg/data/scenarios/squad.toml')"),
    "looper random vs random": ("from sim.looper.game import run",
                                "run(10, 1, tables=False)"),
    "looper cautious vs adversarial": ("from sim.looper.game import run",
                                       "run(10, 1, player='cautious', scriptwriter='adversarial', tables=False)"),
}

CHILD = """
import sys, time
sys.path.insert(0, {root!r})
{imports}
t = time.perf_counter()
{call}
print(time.perf_counter() - t)
"""


def compile_seconds(imports: str, call: str) -> float:
    """Seconds of ``call``'s first run in a fresh process with empty caches."""
    with tempfile.TemporaryDirectory() as kd, tempfile.TemporaryDirectory() as nc:
        env = {**os.environ, "SIM_KERNEL_DIR": kd, "NUMBA_CACHE_DIR": nc}
        env.pop("NUMBA_DISABLE_JIT", None)
        code = CHILD.format(root=str(ROOT), imports=imports, call=call)
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True)
        return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="kernels whose label contains this text")
    ap.add_argument("--repeat", type=int, default=1, help="compiles per kernel (the range is printed)")
    ap.add_argument("--json", action="store_true", help="print {kernel: [seconds, ...]} as JSON")
    a = ap.parse_args()
    if not a.json:
        print(f"{'kernel':34} cold compile + first games (s)")
    found = {}
    for label, (imports, call) in KERNELS.items():
        if a.only not in label:
            continue
        t = found[label] = [round(compile_seconds(imports, call), 2) for _ in range(a.repeat)]
        if not a.json:
            shown = f"{min(t):.1f}" if len(t) == 1 else f"{min(t):.1f} – {max(t):.1f}"
            print(f"{label:34} {shown}", flush=True)
    if a.json:
        print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
