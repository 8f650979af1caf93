"""The TRPG's own commands: scenarios, profiles, matrix, check, labour, sleep, growth, exact (run and
loo are sim.game_cli's, through the Game protocol)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from sim.core.cliutil import claim_out, clean_errors, emit_json, finish, guard, save_tables
from sim.core.console import out_console
from sim.core.output import manifest
from sim.core.runner import DEFAULT_CHUNK
from sim.core.validate import check_run_counts
from sim.trpg.cli_exact import app as exact_app
from sim.trpg.cli_outside import app as outside_app

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
for sub in (outside_app, exact_app):  # check, labour, sleep, growth; exact
    app.registered_commands.extend(sub.registered_commands)


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
    out_console().print(t)


@app.command("profiles")
@clean_errors
def profiles_cmd(as_json: bool = typer.Option(False, "--json")):
    """List the side profiles (the sides' strategies of sim ladder / equilibrium / tune trpg) and their knobs."""
    from strategies.trpg.profiles import PROFILES

    rows = [{"name": n, "doc": PROFILES.get(n).doc, "fields": dict(PROFILES.get(n).fields),
             "knobs": [k.describe() for k in PROFILES.get(n).knobs]} for n in PROFILES.names()]
    if as_json:
        emit_json(rows)
        return
    t = Table(title="side profiles (tactics.<side>.profile; knobs tactics.<side>.<knob>)")
    for c in ("name", "plays", "knobs"):
        t.add_column(c)
    for r in rows:
        t.add_row(r["name"], r["doc"], "\n".join(r["knobs"]) or "none")
    out_console().print(t)


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
    """Every pair of builds plays both ways; the win-rate matrix (draws, who acted first), overall
    rates, Bradley–Terry ratings with 95% CIs, and the rivals each build loses to."""
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
    con = out_console()
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
    t = Table(title="win rate of the row build acting first / second against the column build")
    t.add_column("build")
    for n in names:
        t.add_column(n, justify="right")
    split = {(r["build"], r["opponent"]): (r["first_win_rate"], r["second_win_rate"]) for r in m.iter_rows(named=True)}
    for a in names:
        t.add_row(a, *["—" if a == b else "{:.3f} / {:.3f}".format(*split[(a, b)]) for b in names])
    con.print(t)

    def rating(x):
        return "—" if x is None else f"{x:+.3f}"

    t = Table(title="overall (Bradley–Terry rating: log-odds, mean 0; a draw counts half)")
    for c in ("build", "win rate", "95% CI", "draws", "rating", "rating 95% CI", "loses to"):
        t.add_column(c)
    riv = {r["build"]: ", ".join(r["top_rivals"]) or "nobody" for r in tables["rivals"].iter_rows(named=True)}
    for r in tables["overall"].iter_rows(named=True):
        t.add_row(r["build"], f"{r['win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}",
                  f"{r['draw_rate']:.4f}", rating(r["rating"]),
                  f"{rating(r['rating_ci_low'])} – {rating(r['rating_ci_high'])}", riv[r["build"]])
    con.print(t)
    finish(err)
