"""One cell of a ``metric = "equilibrium"`` sweep (sim.sweep.spec): the cell's grown
equilibrium. Here, not in sim.sweep.cell, because the growth plays its matrices through the
sweep backends (sim.analysis.metagame), which import sim.sweep.cell; the job names this
function (``CellJob.runner``), so a Dask worker imports it by name.

Warm start (``warm = true``, the default; sim.sweep.run): every cell is first grown from the
``[equilibrium]`` tiers (the *cold* pass, cells independent and in parallel), then grown again
from the union of its own cold population and its neighbours' (sim.sweep.neighbours), so a
best response one setting found is a candidate at the next. Both passes are pure functions
of the cells' options and streams: the same numbers on threads, on Dask, and resumed."""
from __future__ import annotations

import polars as pl

from sim.core.game import get as get_game
from sim.sweep.cell import CellJob, CellOutput


def run_equilibrium_cell(job: CellJob) -> CellOutput:
    """One cell of a ``metric = "equilibrium"`` sweep: the grown equilibrium of the cell's
    setting (sim.analysis.grow, from the [equilibrium] tiers, on the cell's streams): its
    value with the 95% CI on fresh games, the certificate (each side's best-response gain),
    both mixtures. A cell's value is not a binomial count: successes is left empty."""
    import json
    import time

    from sim.analysis.grow import grow
    from sim.analysis.metagame import parse_tier

    ad = get_game(job.game)
    o = job.equilibrium
    a, b = list(o["labels"])
    start = o.get("start") or o["labels"]   # the warm pass: the neighbours' populations too
    t0 = time.perf_counter()
    g = grow(ad, job.config["tree"], [parse_tier(ad, a, t) for t in start[a]],
             [parse_tier(ad, b, t) for t in start[b]], games=o["games"], seed=job.seed,
             epsilon=o["epsilon"], rounds=o["rounds"], budget=o["budget"], families=o["families"],
             threads=job.threads)
    cert = g.certificate
    summary = pl.DataFrame([{
        **job.params, "metric": "equilibrium", "games": g.games, "successes": None, "rate": g.value, "rate_ci_low": g.ci_low,
        "rate_ci_high": g.ci_high, "half_width": (g.ci_high - g.ci_low) / 2,
        "stopped": "converged" if g.converged else "rounds", "batches": len(g.rounds), "n_blocks": 0,
        "oracles": "", "notes": "; ".join(g.notes), "exploitability": max(r.gain for r in cert.values()),
        "exploitability_ci_high": max(r.ci_high for r in cert.values()),
        **{f"{s}_gain": r.gain for s, r in cert.items()},
        **{f"{s}_mixture": json.dumps(g.mixture[s]) for s in (a, b)},
        **{f"{s}_knobs": json.dumps(g.knobs[s], default=str) for s in (a, b)},
        **{f"{s}_population": json.dumps([t.label for t in pop]) for s, pop in ((a, g.rows), (b, g.cols))},
        **({"warm_from": json.dumps(o["warm_from"]), **{f"cold_{k}": v for k, v in o["cold"].items()}}
           if "cold" in o else {}),
    }], schema_overrides={"successes": pl.Int64, **{k: pl.List(pl.String) for k, v in job.params.items()
                                                    if isinstance(v, list)}})
    return CellOutput(job.index, {"summary": summary}, g.games, time.perf_counter() - t0)
