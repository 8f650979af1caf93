"""``sim report`` and ``sim balance``."""
from __future__ import annotations

from pathlib import Path

import typer

from sim.core.cliutil import claim_out, clean_errors, emit_json, finish, guard, save_tables
from sim.core.console import out_console
from sim.errors import SimInputError


@clean_errors
def report_cmd(
    dataset: Path = typer.Argument(..., help="A sweep dataset (--out root or sweep=… dir) or a run's --out dir."),
    out: Path = typer.Option(Path("report"), "--out", help="Directory for index.html and the PNG figures."),
    as_json: bool = typer.Option(False, "--json", help="Print the page and figures as JSON."),
    target: str = typer.Option(None, "--target", help="The designer's target band LOW:HIGH (one value: ±2 points): "
                                                      "drawn on the rate figures, heatmaps diverge around it, cells "
                                                      "inside it are highlighted. No target: none of these."),
):
    """An HTML page with figures from a sweep dataset or a run's output.

    Win rate per parameter with CI bands, heatmaps, tornado chart, matchup matrix,
    death/elimination causes, game length."""
    from sim.analysis.report import report, check_report_out

    from sim.core.target import parse_target

    t = parse_target(target)
    check_report_out(dataset, out)
    od = claim_out(out, "report")
    with guard(od):
        page, figs = report(dataset, od, target=t)
    if as_json:
        emit_json({"page": str(page), "figures": [{"file": str(page.parent / f.file), "caption": f.caption}
                                                   for f in figs]})
        return
    typer.echo(f"report: {page} ({len(figs)} figures)")
    for f in figs:
        typer.echo(f"  {f.file:14s} {f.caption}")


@clean_errors
def balance_cmd(
    spec: Path = typer.Argument(..., help="Balance spec (TOML): game, [base], [[params]] with low/high or values; "
                              "or a shipped example by name (trpg_shade_hp; examples/balance)."),
    target: str = typer.Option(None, "--target", help="Target band LOW:HIGH of the rate (e.g. 0.45:0.55; one rate "
                                                     "means ±2 points); default: the spec's target; one of the two "
                                                     "is required."),
    tolerance: float = typer.Option(None, "--tolerance", help="The narrowest CI half-width worth paying games for "
                                                              "(default 0.01)."),
    seed: int = typer.Option(None, "--seed", help="Override the spec's seed."),
    out: Path = typer.Option(Path("balance-out"), "--out", help="Where the search trace (parquet) goes."),
    threads: int = typer.Option(None, "--threads", help="Threads per evaluation."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    adapt: bool = typer.Option(False, "--adapt", help="Balance at equilibrium: each setting's value is its grown "
                               "equilibrium's (both sides adapt; the spec's [adapt] table), shown beside the "
                               "fixed-strategy answer and where that one lands at equilibrium."),
    dask: str = typer.Option(None, "--dask", help="local:N (LocalCluster) or tcp://HOST:PORT: the grown "
                             "equilibria's games batches (--adapt, cell = \"equilibrium\") on Dask workers "
                             "(the same numbers as a local run)."),
):
    """Find parameter settings whose win rate lies in your target band (the spec's target or --target).

    A setting hits when the whole 95% CI of its rate lies in the band, reached with as few
    games as the search can manage. Every measured setting is listed with its distance to
    the band (points, with CI) and its verdict; the search trace is written as parquet."""
    from sim.analysis.balance import balance, candidates, load_balance
    from sim.core.target import verdict as band_verdict
    from sim.core.output import manifest
    from sim.core.validate import check_run_counts

    check_run_counts(1, threads, 1)
    from sim.core.views import is_oracle

    sp = load_balance(spec, target=target, tolerance=tolerance, seed=seed)
    orc = {s: str(sp.base[s]) for s in sp.protocol.sides if s in sp.base and is_oracle(str(sp.base[s]))}
    from sim.analysis.metagame_cli import _client

    cm = _client(dask)  # a bad address fails before anything is played or written
    if sp.raw.get("targets"):
        if adapt:
            raise SimInputError("--adapt with [[targets]]: give the equilibrium its own target instead "
                                "(cell = \"equilibrium\", band = \"LOW:HIGH\")")
        return _targets(sp, threads, out, as_json, cm)
    if adapt:
        return _adapted(sp, threads, out, as_json, cm)
    if dask is not None:
        raise SimInputError("--dask goes with --adapt or a cell = \"equilibrium\" target (a fixed-strategy "
                            "search plays one setting at a time)")
    od = claim_out(out, "balance")
    with guard(od):
        res = balance(sp, threads)
        cands = candidates(res.trace, sp)
        err = save_tables(od, {"trace": res.trace}, manifest(sp.game, sp.raw, sp.seed, {
            "command": "sim balance", "target": sp.target.to_json(), "tolerance": sp.tolerance, "result": res.point,
            "hit": res.hit, "games_used": res.games_used, **({"oracles": orc} if orc else {})}))
    ver = band_verdict(sp.target, res.rate, res.ci_low, res.ci_high, tuple(sp.protocol.sides),
                       ", ".join(f"{k} = {v!r}" for k, v in res.point.items()))
    d = {"game": sp.game, "target": sp.target.to_json(), "tolerance": sp.tolerance, "settings": res.point,
         "rate": res.rate, "ci_low": res.ci_low, "ci_high": res.ci_high, "games": res.games, "hit": res.hit,
         "verdict": ver, "candidates": cands.to_dicts(),
         "games_used": res.games_used, "evaluations": res.trace.height, "note": res.note,
         "trace": str(out / "trace.parquet"), "metric": sp.protocol.metric, **({"oracles": orc} if orc else {})}
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    if orc:
        con.print(f"[bold red]ORACLE: {', '.join(f'{k}={v}' for k, v in orc.items())} reads hidden information; "
                  f"these figures are not those of honest play[/bold red]")
    verdict = "[green]in band[/green]" if res.hit else "[yellow]not in band[/yellow]"
    con.print(f"[bold]{sp.game}[/bold] balance for {sp.protocol.metric} in {sp.target.text}: {verdict}")
    for k, v in res.point.items():
        con.print(f"  {k} = [bold]{v!r}[/bold]")
    con.print(f"  measured {100 * res.rate:.1f}% (95% CI {100 * res.ci_low:.1f}–{100 * res.ci_high:.1f}, "
              f"{res.games:,} games); {res.games_used:,} games in {res.trace.height} evaluations")
    if res.note:
        con.print(f"  note: {res.note}")
    con.print(f"each setting measured, closest to the band first (distance in points: + above, − below; 0 inside):")
    keys = [p.path for p in sp.params]
    for row in cands.head(12).iter_rows(named=True):
        where = ", ".join(f"{k} = {row[k]!r}" for k in keys)
        con.print(f"  {where}: {100 * row['rate']:.1f}% ({100 * row['ci_low']:.1f}–{100 * row['ci_high']:.1f}), "
                  f"distance {row['distance_points']:+.1f} (CI {row['distance_ci_low']:+.1f} … "
                  f"{row['distance_ci_high']:+.1f}), {row['verdict']}", soft_wrap=True)
    if cands.height > 12:
        con.print(f"  … {cands.height - 12} more in the search trace")
    con.print(f"[bold]verdict[/bold]: {ver['text']}", soft_wrap=True)
    if not err:
        con.print(f"search trace: {out / 'trace.parquet'}")
    finish(err)


def _targets(sp, threads, out, as_json, cm) -> None:
    """``sim balance`` with [[targets]]: every target cell's value with its CI and verdict."""
    from sim.analysis.balance_targets import balance_targets
    from sim.core.output import manifest

    od = claim_out(out, "balance")
    with guard(od), cm as client:
        res = balance_targets(sp, threads, client)
        err = save_tables(od, {"trace": res.trace}, manifest(sp.game, sp.raw, sp.seed, {
            "command": "sim balance (targets)", "result": res.point, "hit": res.hit, "targets": res.rows,
            "games_used": res.games_used}))
    d = {"game": sp.game, "metric": sp.protocol.metric, "settings": res.point, "hit": res.hit,
         "distance_points": res.distance_points, "targets": res.rows, "games_used": res.games_used,
         "evaluations": res.trace.height, "note": res.note, "trace": str(out / "trace.parquet")}
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    verdict = "[green]every target in band[/green]" if res.hit else "[yellow]not every target in band[/yellow]"
    con.print(f"[bold]{sp.game}[/bold] balance for {sp.protocol.metric} on {len(res.rows)} cells of the skill "
              f"ladder: {verdict}")
    for k, v in res.point.items():
        con.print(f"  {k} = [bold]{v!r}[/bold]")
    for r in res.rows:
        con.print(f"  {r['cell']}: {100 * r['rate']:.1f}% (95% CI {100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f}, "
                  f"{r['games']:,} games) against {r['band']}: {r['verdict']}", soft_wrap=True, highlight=False)
    con.print(f"  total distance to the bands {res.distance_points:.1f} points (the CIs' nearest ends); "
              f"{res.games_used:,} games in {res.trace.height} evaluations")
    if res.note:
        con.print(f"  note: {res.note}", soft_wrap=True)
    if not err:
        con.print(f"search trace: {out / 'trace.parquet'} (column cell: the target)")
    finish(err)


def _adapted(sp, threads, out, as_json, cm) -> None:
    """``sim balance --adapt``: the adapted answer beside the fixed-strategy one."""
    from sim.analysis.balance_adapt import adapted_balance
    from sim.core.output import manifest

    od = claim_out(out, "balance")
    with guard(od), cm as client:
        res, fixed, at_eq = adapted_balance(sp, threads, client)
        import polars as pl

        both = pl.concat([res.trace.with_columns(pl.lit("adapted").alias("search")),
                          fixed.trace.with_columns(pl.lit("fixed").alias("search"))], how="diagonal_relaxed")
        err = save_tables(od, {"trace": both}, manifest(sp.game, sp.raw, sp.seed, {
            "command": "sim balance --adapt", "target": sp.target, "tolerance": sp.tolerance, "result": res.point,
            "hit": res.hit, "fixed_result": fixed.point, "games_used": res.games_used + fixed.games_used}))
    d = {"game": sp.game, "target": sp.target, "tolerance": sp.tolerance, "metric": sp.protocol.metric,
         "adapted": {"settings": res.point, "value": res.rate, "ci_low": res.ci_low, "ci_high": res.ci_high,
                     "hit": res.hit, "games_used": res.games_used, "note": res.note},
         "fixed": {"settings": fixed.point, "rate": fixed.rate, "ci_low": fixed.ci_low, "ci_high": fixed.ci_high,
                   "hit": fixed.hit, "games_used": fixed.games_used},
         "fixed_at_equilibrium": {**at_eq, "off_target_points": 100 * at_eq["off_target"]}}
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    con.print(f"[bold]{sp.game}[/bold] balance for {sp.protocol.metric} = {sp.target:g} (±{sp.tolerance:g}), "
              f"fixed strategies beside adapted play (the grown equilibrium of each setting)")
    t = ", ".join
    con.print(f"  fixed strategies pick {t(f'{k} = {v!r}' for k, v in fixed.point.items())}: {fixed.rate:.4f} "
              f"(95% CI {fixed.ci_low:.4f} – {fixed.ci_high:.4f}); at equilibrium it gives {at_eq['value']:.4f} "
              f"({at_eq['ci_low']:.4f} – {at_eq['ci_high']:.4f}), {100 * at_eq['off_target']:+.1f} points off the target's centre",
              soft_wrap=True, highlight=False)
    verdict = "hits the target" if res.hit else "does not hit the target"
    con.print(f"  adapted play picks [bold]{t(f'{k} = {v!r}' for k, v in res.point.items())}[/bold]: equilibrium value "
              f"{res.rate:.4f} (95% CI {res.ci_low:.4f} – {res.ci_high:.4f}); {verdict}", soft_wrap=True)
    if res.note:
        con.print(f"  note: {res.note}")
    if not err:
        con.print(f"search traces: {out / 'trace.parquet'} (column search: adapted | fixed)")
    finish(err)
