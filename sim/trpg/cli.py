"""``sim trpg …`` commands."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from sim.core.cliutil import claim_out, clean_errors, emit_json, finish, guard, save_tables
from sim.core.output import manifest
from sim.core.progress import want_progress
from sim.core.runner import DEFAULT_CHUNK
from sim.core.validate import check_run_counts
from sim.trpg.cli_exact import app as exact_app
from sim.trpg.cli_outside import app as outside_app

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
for sub in (outside_app, exact_app):  # check, labour, sleep, growth; exact
    app.registered_commands.extend(sub.registered_commands)

SCENARIO_HELP = ("Scenario TOML (sides, characters, weapons, rules), or the name of a shipped "
                 "scenario such as alley (see `sim trpg scenarios`).")


@app.command("scenarios")
@clean_errors
def scenarios_cmd(as_json: bool = typer.Option(False, "--json")):
    """List the shipped scenarios: usable by name, e.g. `sim trpg run alley`."""
    from sim.trpg.sheets import shipped_scenarios

    found = shipped_scenarios()
    if as_json:
        emit_json([{"name": k, "description": v} for k, v in found.items()])
        return
    t = Table(title="shipped scenarios (sim trpg run NAME)")
    t.add_column("name", no_wrap=True)
    t.add_column("description")
    for k, v in found.items():
        t.add_row(k, v)
    Console().print(t)


@app.command("run")
@clean_errors
def run_cmd(
    scenario: Path = typer.Argument(..., help=SCENARIO_HELP),
    games: int = typer.Option(100_000, "--games", "-n"),
    seed: int = typer.Option(0, "--seed"),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE, e.g. characters.aoi.hp=20"),
    out: Optional[Path] = typer.Option(None, "--out"),
    as_json: bool = typer.Option(False, "--json"),
    threads: Optional[int] = typer.Option(None, "--threads"),
    chunk_size: int = typer.Option(DEFAULT_CHUNK, "--chunk-size"),
):
    """Play GAMES combats: each side's win rate with 95% CI, draws, rounds, per-character fates."""
    from sim.trpg.game import run
    from sim.trpg.sheets import resolve_scenario

    check_run_counts(games, threads, chunk_size)
    sc = resolve_scenario(scenario, sets)
    od = claim_out(out)
    with guard(od):
        res = run(games, seed, scenario=sc, threads=threads, chunk_size=chunk_size,
                  progress=want_progress(games, as_json))
        err = save_tables(od, res.tables, manifest("trpg", sc.config, seed, {
            "games": games, "command": "sim trpg run", "scenario_file": str(scenario)}))
    if as_json:
        emit_json(res.to_json())
        return finish(err)
    con = Console()
    s = res.summary.row(0, named=True)
    con.print(f"[bold]TRPG[/bold] — {s['scenario']}: {s['games']:,} combats, seed {seed}; draws "
              f"{s['draw_rate']:.4f}; mean rounds {s['mean_rounds']:.2f}; {s['games_per_second']:,.0f} combats/s")
    t = Table(title="win rate per side")
    for c in ("side", "win rate", "95% CI"):
        t.add_column(c, justify="left" if c == "side" else "right")
    for r in res.tables["sides"].iter_rows(named=True):
        t.add_row(r["side"], f"{r['win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}")
    con.print(t)
    t = Table(title="per character (per combat)")
    cols = res.tables["characters"].columns
    for c in cols:
        t.add_column(c, justify="left" if c in ("character", "side") else "right")
    for r in res.tables["characters"].iter_rows(named=True):
        t.add_row(*[r[c] if c in ("character", "side") else f"{r[c]:.3f}" for c in cols])
    con.print(t)
    if out is not None and not err:
        con.print(f"parquet tables and manifest written to [bold]{out}[/bold]")
    finish(err)


@app.command("loo")
@clean_errors
def loo_cmd(
    scenario: Path = typer.Argument(..., help=SCENARIO_HELP),
    games: int = typer.Option(100_000, "--games", "-n", help="Combats per row."),
    seed: int = typer.Option(0, "--seed", help="Root seed, the same for every row (common random numbers)."),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE, e.g. characters.aoi.hp=20"),
    out: Optional[Path] = typer.Option(None, "--out"),
    as_json: bool = typer.Option(False, "--json"),
    threads: Optional[int] = typer.Option(None, "--threads"),
):
    """Leave one out: every side's win rate and the draw rate with each character removed (T-9)."""
    from sim.trpg.loo import leave_one_out
    from sim.trpg.sheets import resolve_scenario

    check_run_counts(games, threads, DEFAULT_CHUNK)
    sc = resolve_scenario(scenario, sets)
    od = claim_out(out)
    with guard(od):
        df = leave_one_out(games, seed, scenario=sc, threads=threads)
        err = save_tables(od, {"leave_one_out": df}, manifest("trpg", sc.config, seed, {
            "games_per_row": games, "sides": sc.sides, "command": "sim trpg loo",
            "scenario_file": str(scenario)}))
    if as_json:
        emit_json({"games_per_row": games, "sides": sc.sides, "rows": df.to_dicts()})
        return finish(err)
    con = Console()
    t = Table(title=f"leave one out — {sc.name}: {games:,} combats per row, same seed (common random numbers)")
    t.add_column("removed (side)", no_wrap=True)
    t.add_column("outcome", no_wrap=True)
    t.add_column("rate", justify="right")
    t.add_column("95% CI", justify="right", no_wrap=True)
    t.add_column("change", justify="right")
    for r in df.iter_rows(named=True):
        name = r["removed"] + (f" ({r['side']})" if r["side"] else "") + (" *" if r["note"] else "")
        if r["games"] is None:
            t.add_row(name, "—", "—", "—", "—")
        else:
            for k, s in enumerate(sc.sides):
                t.add_row(name if k == 0 else "", f"{s} win", f"{r[s + '_win_rate']:.4f}",
                          f"{r[s + '_ci_low']:.4f} – {r[s + '_ci_high']:.4f}", f"{r[s + '_delta']:+.4f}")
            t.add_row("", "draw", f"{r['draw_rate']:.4f}", "", f"{r['draw_delta']:+.4f}")
        t.add_section()
    con.print(t)
    notes = [(r["removed"], r["note"]) for r in df.iter_rows(named=True) if r["note"]]
    if notes:
        con.print("* notes:")
        for cid, note in notes:
            con.print(f"  {cid}: {note}", soft_wrap=True, markup=False, highlight=False)
    if out is not None and not err:
        con.print(f"parquet table and manifest written to [bold]{out}[/bold]")
    finish(err)


@app.command("matrix")
@clean_errors
def matrix_cmd(
    builds: Path = typer.Argument(..., help="TOML with one [builds.NAME] character sheet per build, "
                                  "or the name of a shipped one (builds)."),
    games: int = typer.Option(20_000, "--games", "-n", help="Games per pair and first-move order."),
    seed: int = typer.Option(0, "--seed"),
    sets: List[str] = typer.Option([], "--set"),
    out: Optional[Path] = typer.Option(None, "--out"),
    as_json: bool = typer.Option(False, "--json"),
    threads: Optional[int] = typer.Option(None, "--threads"),
):
    """Every pair of builds plays both ways; the win-rate matrix, overall rates, top rivals."""
    from sim.trpg.matrix import matchup_matrix

    check_run_counts(games, threads, DEFAULT_CHUNK)
    od = claim_out(out)
    with guard(od):
        tables = matchup_matrix(builds, games, seed, sets, threads)
        err = save_tables(od, tables, manifest("trpg", {"builds_file": str(builds)}, seed, {
            "games_per_pair_order": games, "command": "sim trpg matrix"}))
    if as_json:
        emit_json({k: v.to_dicts() for k, v in tables.items() if k != "games"})
        return finish(err)
    con = Console()
    m = tables["matrix"]
    names = tables["overall"]["build"].to_list()
    t = Table(title=f"win rate of the row build against the column build ({2 * games:,} games per pair)")
    t.add_column("build")
    for n in names:
        t.add_column(n, justify="right")
    lookup = {(r["build"], r["opponent"]): r["win_rate"] for r in m.iter_rows(named=True)}
    for a in names:
        t.add_row(a, *["—" if a == b else f"{lookup[(a, b)]:.3f}" for b in names])
    con.print(t)
    t = Table(title="overall")
    for c in ("build", "win rate", "95% CI", "top rivals"):
        t.add_column(c)
    riv = {r["build"]: ", ".join(r["top_rivals"]) for r in tables["rivals"].iter_rows(named=True)}
    for r in tables["overall"].iter_rows(named=True):
        t.add_row(r["build"], f"{r['win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}", riv[r["build"]])
    con.print(t)
    finish(err)
