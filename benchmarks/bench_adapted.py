"""Wall time of adapted play (issue 40): Werewolf's default table `equilibrium --grow` to
ε = 1 point (target: under 5 minutes on 2 cores) and `balance --adapt` on fenrir's drag,
four values (target: under 15 minutes). Timings only — the race tests check correctness
(examples/race/tests/test_race_grow.py, test_race_balance_adapt.py). Kernels are compiled
by a warm-up run first, so the figures are the machinery's, not numba's compile time.

    .venv/bin/python benchmarks/bench_adapted.py [--json]
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIM = str(Path(sys.executable).with_name("sim"))
GROW = ["equilibrium", "werewolf", "--grow", "--tiers", "village=claims", "--tiers", "wolves=claims", "--games",
        "2000", "--budget", "40", "--rounds", "6", "--epsilon", "0.01", "--seed", "1", "--json"]
DRAG = """game = "werewolf"
seed = 1
target = 0.5
tolerance = 0.02
max_games = 20000000
[base]
village = "claims"
wolves = "claims"
[[params]]
path = "roles.fenrir.drag"
values = [0, 1, 2, 3]
[adapt]
rounds = 3
budget = 20
games = 2000
"""


def timed(args: list[str]) -> tuple[float, dict]:
    t = time.perf_counter()
    out = subprocess.run([SIM, *args], check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t, json.loads(out)


def main() -> None:
    subprocess.run([SIM, "werewolf", "run", "--village", "claims", "--wolves", "claims", "--games", "1000"],
                   check=True, capture_output=True)  # the kernel, compiled once
    with tempfile.TemporaryDirectory() as d:
        spec = Path(d) / "drag.toml"
        spec.write_text(DRAG)
        grow_s, g = timed(GROW)
        drag_s, b = timed(["balance", str(spec), "--adapt", "--json", "--out", str(Path(d) / "out")])
    res = {"grow_seconds": grow_s, "grow_value": g["value"], "grow_rounds": len(g["rounds"]),
           "grow_certificate_points": {s: c["gain_points"] for s, c in g["certificate"].items()},
           "balance_adapt_seconds": drag_s, "balance_adapt_pick": b["adapted"]["settings"],
           "balance_fixed_pick": b["fixed"]["settings"]}
    if "--json" in sys.argv:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
