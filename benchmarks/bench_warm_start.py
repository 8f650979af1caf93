"""Warm start: wall seconds of a tiny run with every kernel cached, and where they go.

    .venv/bin/python benchmarks/bench_warm_start.py [--repeat 5] [--json]

Runs ``sim werewolf run --games 1000 --seed 1`` (its kernel compiled first, not timed)
``--repeat`` times in fresh processes and prints the fastest and the median wall time
(issue 42's bar: under 1.5 s), then one ``python -X importtime`` run of the same command:
import seconds by the package that pulled them in (numba, polars, typer, the project …).
Loading a cached kernel also pays numba's first use of its CPU target (its typing
registries), about a second on the loaded machine: see docs/performance.md.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ROOT, report  # noqa: E402

CMD = [sys.executable, "-m", "sim", "werewolf", "run", "--games", "1000", "--seed", "1"]
TOP = ("numba", "polars", "numpy", "typer", "sim", "strategies")


def import_split() -> dict[str, float]:
    """Import seconds by the top-level package that pulled them in (``-X importtime``'s
    outermost imports, each with everything it imported first), and their total."""
    err = subprocess.run([sys.executable, "-X", "importtime", *CMD[1:]], cwd=ROOT, capture_output=True,
                         text=True, check=True).stderr
    out: dict[str, float] = {}
    for line in err.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S+)$", line)  # depth 0: no indent
        if m:
            top = m.group(2).split(".")[0]
            key = top if top in TOP else "other"
            out[key] = out.get(key, 0.0) + int(m.group(1)) / 1e6
    res = {f"import_seconds_via_{k}": v for k, v in sorted(out.items(), key=lambda kv: -kv[1])}
    res["imports_total_seconds"] = sum(out.values())
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    subprocess.run(CMD, cwd=ROOT, check=True, capture_output=True)  # compile or load once
    walls = []
    for _ in range(max(1, a.repeat)):
        t = time.perf_counter()
        subprocess.run(CMD, cwd=ROOT, check=True, capture_output=True)
        walls.append(time.perf_counter() - t)
    walls.sort()
    res = {"warm_run_fastest_seconds": walls[0], "warm_run_median_seconds": walls[len(walls) // 2]}
    res.update(import_split())
    report(res, a.json)


if __name__ == "__main__":
    main()
