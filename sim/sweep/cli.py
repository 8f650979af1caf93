"""``sim sweep SPEC.toml`` and ``sim compare A B``."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from sim.core.cliutil import clean_errors, emit_json
from sim.core.console import out_console
from sim.core.progress import want_progress
from sim.core.validate import check_run_counts


@clean_errors
def sweep_cmd(
    spec: Path = typer.Argument(..., help="The sweep spec (TOML), or a shipped example by name "
                                "(trpg_alley, werewolf_fenrir, …; examples/sweeps)."),
    out: Path = typer.Option(Path("sweep-out"), "--out", help="Dataset root (hive-partitioned parquet)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Override the spec's seed."),
    games: Optional[int] = typer.Option(None, "--games", help="Override: fixed games per cell."),
    dask: Optional[str] = typer.Option(None, "--dask", help="local:N (LocalCluster) or tcp://HOST:PORT."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Threads per cell (local backend)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Validate and list the cells; play and write nothing."),
    target: Optional[str] = typer.Option(None, "--target", help="The designer's target band LOW:HIGH (one value: "
                                         "±2 points): each cell's verdict, and the cells in the band at the end."),
):
    """Play every cell of a sweep; rerun the same command to resume after an interruption."""
    from sim.core.target import in_band, parse_target
    from sim.sweep.dataset import read
    from sim.sweep.run import run_sweep
    from sim.sweep.spec import build_cells, load_spec

    check_run_counts(games if games is not None else 1, threads, 1)
    tg = parse_target(target)
    sp = load_spec(spec, seed=seed, games=games)
    if dry_run:
        cells = build_cells(sp)
        p = sp.plan
        plan = (f"{p.games:,} games per cell" if not p.adaptive else
                f"adaptive to ±{p.target_ci:g}: batches of {p.batch:,}, at most {p.max_games:,} games per cell")
        if as_json:
            emit_json({"game": sp.game, "sweep": sp.name, "cells": len(cells), "plan": plan,
                       "max_games": len(cells) * (p.games or p.max_games), "paired": sp.paired,
                       "points": [c.params for c in cells]})
            return
        typer.echo(f"{sp.game} sweep {sp.name}: {len(cells)} cells, {plan}"
                   f"{', paired streams' if sp.paired else ''}; every cell compiles")
        for c in cells:
            typer.echo(f"  cell {c.index}: " + ", ".join(f"{k} = {v!r}" for k, v in c.params.items()))
        return
    try:
        rep = run_sweep(sp, out, dask=dask, threads=threads, progress=want_progress(10**9, as_json))
    except KeyboardInterrupt:
        typer.echo(f"interrupted: finished cells are in {out}; run the same command again to resume", err=True)
        raise typer.Exit(130)
    except OSError as e:
        typer.echo(f"error: could not write a cell under {out} ({e.strerror or e}); finished cells are kept, "
                   f"run the same command again to resume", err=True)
        raise typer.Exit(1)
    df = read(rep.path).drop(["game", "sweep"]).sort("cell").collect()
    metric = "equilibrium" if sp.equilibrium else sp.protocol.metric
    eq = "exploitability" in df.columns
    if as_json:
        emit_json({"game": sp.game, "sweep": sp.name, "dataset": str(rep.path), "cells": rep.cells,
                   "cells_run": rep.run, "cells_skipped": rep.skipped, "games": rep.games,
                   "seconds": rep.seconds, "games_per_second": rep.games_per_second,
                   "metric": metric, "rows": df.to_dicts(),
                   **({"target": tg.to_json(), "in_band": _in_band_cells(df, tg)} if tg else {})})
        return
    con = out_console()
    base = "; ".join(f"{k} {v}" for k, v in sp.base.items() if v not in (None, [], {}))
    con.print(f"settings: spec {spec}; {base + '; ' if base else ''}seed {sp.seed}", soft_wrap=True, highlight=False,
              markup=False)
    con.print(f"[bold]{sp.game} sweep {sp.name}[/bold]: {rep.cells} cells ({rep.run} run, {rep.skipped} "
              f"already done), {rep.games:,} games in {rep.seconds:.2f} s ({rep.games_per_second:,.0f} games/s)")
    t = Table(title=f"{metric} per cell (95% CI)" + (": each cell's grown equilibrium value, with its "
                                                      "exploitability (the larger best-response gain)" if eq else ""))
    axes = [a.path for a in sp.axes]
    warm = "cold_rate" in df.columns  # a warm-started sweep of equilibria: the cold pass beside it
    for c in ["cell", *axes, "games", "value" if eq else "rate", "95% CI", *(["exploitability"] if eq else []),
              *(["cold value (from the tiers alone)"] if warm else []), *(["in the target"] if tg else [])]:
        t.add_column(c, justify="right")
    for r in df.head(60).iter_rows(named=True):
        t.add_row(str(r["cell"]), *[str(r[a]) for a in axes], f"{r['games']:,}", f"{r['rate']:.4f}",
                  f"{r['rate_ci_low']:.4f} – {r['rate_ci_high']:.4f}",
                  *([f"{100 * r['exploitability']:+.1f} points"] if eq else []),
                  *([f"{r['cold_rate']:.4f} ({100 * r['cold_exploitability']:+.1f})"] if warm else []),
                  *([in_band(tg, r["rate"], r["rate_ci_low"], r["rate_ci_high"])] if tg else []))
    con.print(t)
    if df.height > 60:
        con.print(f"… {df.height - 60} more cells in the dataset")
    con.print(f"dataset: {rep.path}  (every sweep under {out}, all parameter columns: "
              f"sim.sweep.dataset.read('{out}') in polars, or DuckDB read_parquet('{out}/**/*.parquet', "
              f"hive_partitioning=true, union_by_name=true); docs/data.md)", soft_wrap=True, markup=False)
    if tg:
        cells = _in_band_cells(df, tg)
        sure = [c["cell"] for c in cells if c["sure"]]
        con.print(f"verdict: {len(cells)} of {df.height} cells have their rate in the target {tg.text}"
                  + (f"; their whole 95% CI lies in it: cell{'s' if len(sure) > 1 else ''} "
                     f"{', '.join(map(str, sure))}" if sure else "; none has its whole 95% CI in it")
                  + (f"; the others in it: {', '.join(str(c['cell']) for c in cells if not c['sure'])} (not sure)"
                     if len(sure) < len(cells) else ""), soft_wrap=True, markup=False)


def _in_band_cells(df, tg) -> list[dict]:
    """The cells whose rate lies in the target band (``sure``: its whole interval does)."""
    from sim.core.target import in_band

    return [{"cell": r["cell"], "rate": r["rate"], "sure": in_band(tg, r["rate"], r["rate_ci_low"],
                                                                   r["rate_ci_high"]) == "yes"}
            for r in df.iter_rows(named=True) if tg.low <= r["rate"] <= tg.high]


@clean_errors
def compare_cmd(
    a: Path = typer.Argument(..., help="A cell directory: OUT/game=…/sweep=…/cell=I"),
    b: Path = typer.Argument(..., help="Another cell directory."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout."),
):
    """Difference A − B of the primary rate with its 95% CI (paired when A and B share streams)."""
    from sim.sweep.compare import compare_cells

    r = compare_cells(a, b)
    if as_json:
        from sim.core.units import with_points

        pts = {f"{k}_points": 100 * r[k] for k in ("ci_low", "ci_high")}   # the interval of diff
        emit_json({**with_points(r), **pts})
        return
    con = out_console()
    con.print(f"{r['metric']}: A {r['rate_a']:.4f} ({r['games_a']:,} games)   B {r['rate_b']:.4f} "
              f"({r['games_b']:,} games)")
    how = (f"paired over {r['blocks']} blocks of common random numbers; variance "
           f"{r['variance_ratio']:.2f}× the unpaired one") if r["paired"] else "unpaired (the cells do not share streams)"
    con.print(f"A − B = [bold]{100 * r['diff']:+.1f} points[/bold]  95% CI {100 * r['ci_low']:+.1f} … "
              f"{100 * r['ci_high']:+.1f}  ({how})")


__all__ = ["sweep_cmd", "compare_cmd"]
