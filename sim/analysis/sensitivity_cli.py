"""``sim sensitivity SPEC.toml`` (see :mod:`sim.analysis.sensitivity`)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from sim.core.cliutil import clean_errors, emit_json, finish, save_tables
from sim.core.console import out_console


@clean_errors
def sensitivity_cmd(
    spec: Path = typer.Argument(..., help="The sensitivity spec (TOML): game, [base], [[params]] with low/high or "
                                "values, method = morris | sobol | both."),
    out: Path = typer.Option(Path("sensitivity-out"), "--out", help="Dataset root: the design sweeps and the indices."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Override the spec's seed."),
    games: Optional[int] = typer.Option(None, "--games", help="Override: games per design point."),
    dask: Optional[str] = typer.Option(None, "--dask", help="local:N (LocalCluster) or tcp://HOST:PORT."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Threads per point (local backend)."),
    as_json: bool = typer.Option(False, "--json", help="Print the indices as JSON."),
):
    """Global sensitivity of the game's primary rate: Morris screening, then Sobol' first- and
    total-order indices with bootstrap 95% CIs (SALib), the points played as paired sweeps
    (rerun the same command to resume)."""
    from rich.table import Table

    from sim.analysis.sensitivity import analyse, load, sweep_evaluator
    from sim.core.game import get as get_game
    from sim.core.outdir import OutDir, claim_sweep_root, register_sweep
    from sim.core.output import manifest
    from sim.core.progress import want_progress
    from sim.core.validate import check_run_counts
    from sim.sweep.backend import parse_dask

    check_run_counts(games if games is not None else 1, threads, 1)
    sp = load(spec, seed=seed, games=games)
    if dask is not None:
        parse_dask(dask)
    root = claim_sweep_root(out)
    entry = f"game={sp.game}/sensitivity={sp.name}"
    from sim.core.outdir import check_target

    check_target(root / entry, "tables")  # a foreign folder there fails before any game
    register_sweep(root, entry)
    played: list = []
    sweeps: list = []
    ev = sweep_evaluator(sp, root, dask=dask, threads=threads, progress=want_progress(10**9, as_json),
                         res_games=played, sweeps=sweeps)
    res = analyse(sp, ev)
    res.games, res.sweeps = sum(played), sweeps
    table = res.table()
    # claimed after the sweeps: its hidden build folder must not sit beside their cells meanwhile
    od = OutDir.claim(root / entry, "tables")
    with od:
        err = save_tables(od, {"sensitivity": table}, manifest(sp.game, sp.raw, sp.seed, {
            "command": "sim sensitivity", "sensitivity": sp.name, "method": sp.method, "games_per_point": sp.games,
            "params": [p.path for p in sp.params], "sweeps": [str(s.relative_to(root)) for s in sweeps],
            "metric": get_game(sp.game).metric}))
    if as_json:
        emit_json(res.to_json())
        return finish(err)
    con = out_console()
    con.print(f"[bold]{sp.game}[/bold] sensitivity {sp.name}: {sp.games:,} games per point, "
              f"{res.games:,} games played now (paired streams)")
    t = Table()
    t.add_column("parameter")
    if res.morris is not None:
        t.add_column("Morris μ*", justify="right")
        t.add_column("σ", justify="right")
    if res.sobol is not None:
        t.add_column("Sobol S1", justify="right")
        t.add_column("Sobol ST", justify="right")
    for r in table.iter_rows(named=True):
        row = [r["param"]]
        if res.morris is not None:
            row += [f"{r['mu_star']:.4f} ± {r['mu_star_conf']:.4f}", f"{r['sigma']:.4f}"]
        if res.sobol is not None:
            row += [f"{r['S1']:.3f} ± {r['S1_conf']:.3f}", f"{r['ST']:.3f} ± {r['ST_conf']:.3f}"]
        t.add_row(*row)
    con.print(t)
    con.print("± is the half-width of the bootstrap 95% CI; μ* is in units of the rate, S1 / ST are shares of "
              "its variance")
    if not err:
        con.print(f"indices: {root / entry}; design sweeps: {', '.join(str(s) for s in sweeps)}")
    finish(err)
