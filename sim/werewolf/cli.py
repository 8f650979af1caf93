"""``sim werewolf …`` commands."""
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
from sim.errors import SimInputError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

ROLES_HELP = "Composition, e.g. fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5 (default: R-1)"


@app.command("run")
@clean_errors
def run_cmd(
    roles: Optional[str] = typer.Option(None, "--roles", help=ROLES_HELP),
    games: int = typer.Option(1_000_000, "--games", "-n"),
    seed: int = typer.Option(0, "--seed"),
    village: str = typer.Option("random", "--village", help="random | claims | module:object"),
    wolves: str = typer.Option("random", "--wolves", help="random | claims | module:object"),
    config: Optional[Path] = typer.Option(None, "--config", help="A TOML file merged over the role data."),
    sets: List[str] = typer.Option([], "--set", help="KEY=VALUE, e.g. variants.vote_rule=plurality"),
    out: Optional[Path] = typer.Option(None, "--out"),
    as_json: bool = typer.Option(False, "--json"),
    threads: Optional[int] = typer.Option(None, "--threads"),
    chunk_size: int = typer.Option(DEFAULT_CHUNK, "--chunk-size"),
):
    """Play GAMES games: village win rate with 95% CI, days, endings, per-role fates."""
    from sim.werewolf.game import run
    from sim.werewolf.roles import resolve_setup

    check_run_counts(games, threads, chunk_size)
    setup = resolve_setup(config, sets, roles)
    od = claim_out(out)
    with guard(od):
        res = run(games, seed, village=village, wolves=wolves, setup=setup, threads=threads,
                  chunk_size=chunk_size, progress=want_progress(games, as_json))
        err = save_tables(od, res.tables, manifest("werewolf", setup.config, seed, {
            "games": games, "village": res.village, "wolves": res.wolves, "command": "sim werewolf run",
            "composition": setup.composition(), "tables": sorted(res.tables)}))
    if as_json:
        emit_json(res.to_json())
        return finish(err)
    con = Console()
    s = res.summary.row(0, named=True)
    con.print(f"[bold]Werewolf[/bold] — {s['composition']} ({s['participants']} participants); village "
              f"[cyan]{res.village}[/cyan] vs wolves [magenta]{res.wolves}[/magenta]; {s['games']:,} games, seed {seed}")
    con.print(f"village win rate [bold]{s['village_win_rate']:.4f}[/bold] (95% CI {s['ci_low']:.4f} – "
              f"{s['ci_high']:.4f}); wolves {s['wolf_wins'] / s['games']:.4f}; draws {s['draws']:,}; "
              f"mean days {s['mean_days']:.3f}; {s['games_per_second']:,.0f} games/s")
    t = Table(title="how games ended")
    for c in ("winner", "last event", "share"):
        t.add_column(c, justify="right" if c == "share" else "left")
    for r in res.tables["endings"].sort("games", descending=True).iter_rows(named=True):
        t.add_row(r["winner"], r["event"], f"{r['share']:.4f}")
    con.print(t)
    t = Table(title="per role: survival and how it left (per participant-game)")
    cols = [c for c in res.tables["roles"].columns if c != "participant_games"]
    for c in cols:
        t.add_column(c, justify="left" if c == "role" else "right")
    for r in res.tables["roles"].iter_rows(named=True):
        t.add_row(*[r[c] if c == "role" else f"{r[c]:.4f}" for c in cols])
    con.print(t)
    if out is not None and not err:
        con.print(f"parquet tables and manifest written to [bold]{out}[/bold]")
    finish(err)


@app.command("loo")
@clean_errors
def loo_cmd(
    roles: Optional[str] = typer.Option(None, "--roles", help=ROLES_HELP),
    games: int = typer.Option(200_000, "--games", "-n"),
    seed: int = typer.Option(0, "--seed"),
    village: str = typer.Option("random", "--village"),
    wolves: str = typer.Option("random", "--wolves"),
    config: Optional[Path] = typer.Option(None, "--config"),
    sets: List[str] = typer.Option([], "--set"),
    out: Optional[Path] = typer.Option(None, "--out"),
    as_json: bool = typer.Option(False, "--json"),
    threads: Optional[int] = typer.Option(None, "--threads"),
):
    """Leave one out: the village win rate when each role in turn becomes a villager."""
    from sim.werewolf.game import leave_one_out
    from sim.werewolf.roles import resolve_setup

    check_run_counts(games, threads, DEFAULT_CHUNK)
    setup = resolve_setup(config, sets, roles)
    od = claim_out(out)
    with guard(od):
        df = leave_one_out(games, seed, setup=setup, village=village, wolves=wolves, threads=threads)
        err = save_tables(od, {"leave_one_out": df}, manifest("werewolf", setup.config, seed, {
            "games_per_row": games, "command": "sim werewolf loo"}))
    if as_json:
        emit_json({"games_per_row": games, "rows": df.to_dicts()})
        return finish(err)
    con = Console()
    t = Table(title=f"leave one out — {games:,} games per row, same seed (common random numbers)")
    for c in ("replaced by a villager", "village win rate", "95% CI", "change"):
        t.add_column(c, justify="left" if c.startswith("replaced") else "right")
    for r in df.iter_rows(named=True):
        if r["village_win_rate"] is None:
            t.add_row(r["replaced"], "—", "—", r["note"])
        else:
            t.add_row(r["replaced"], f"{r['village_win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}",
                      f"{r['delta']:+.4f}")
    con.print(t)
    finish(err)


@app.command("exact")
@clean_errors
def exact_cmd(
    roles: str = typer.Option("werewolf*2,villager*7,seer", "--roles", help="Only werewolf, villager, seer."),
    sets: List[str] = typer.Option([], "--set", help="variants.vote_rule / start / end_rule / max_runoffs "
                                   "(and max_days, if no game can outlast it)"),
    all_variants: bool = typer.Option(False, "--all-variants", help="Every vote_rule × start × end_rule."),
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact village win probability under random play (fractions; no sampling).

    Refuses every setting the solver does not model (changed role data, a binding
    max_days, …) rather than answer for the default table."""
    from sim.werewolf.exact import END_RULES, STARTS, VOTE_RULES, check_modelled, exact_summary
    from sim.werewolf.roles import base_config, build_config, resolve_setup

    setup = resolve_setup(None, sets, roles)
    extra = sorted(set(setup.seats) - {"werewolf", "villager", "seer"})
    if extra:
        raise SimInputError(f"exact mode handles werewolf, villager and seer only, not {', '.join(extra)}")
    w, v, s = (setup.seats.count(r) for r in ("werewolf", "villager", "seer"))
    var = setup.variants
    combos = ([(vr, st, er) for vr in VOTE_RULES for st in STARTS for er in END_RULES] if all_variants
              else [(var.get("vote_rule", "runoff"), var.get("start", "day"), var.get("end_rule", "parity"))])
    composition_set = (build_config(None, sets)["composition"]["default"]
                       != base_config()["composition"]["default"])
    check_modelled(setup, resolve_setup(None, (), roles), composition_set=composition_set,
                   all_variants=all_variants, combos=combos)
    rows = [exact_summary(w, v, s, vote_rule=vr, start=st, end_rule=er, max_runoffs=var.get("max_runoffs", 50))
            for vr, st, er in combos]
    if as_json:
        emit_json(rows if all_variants else rows[0])
        return
    t = Table(title=f"exact village win probability, random play — {setup.composition()}")
    for c in ("vote_rule", "start", "end_rule", "village wins", "expected days"):
        t.add_column(c, justify="right" if c in ("village wins", "expected days") else "left")
    for r in rows:
        vv = r["variants"]
        t.add_row(vv["vote_rule"], vv["start"], vv["end_rule"], f"{r['village_win']:.6f}", f"{r['expected_days']:.4f}")
    Console().print(t)


@app.command("strategies")
def strategies_cmd():
    """List the registered village and wolf strategies."""
    from strategies.werewolf import VILLAGE, WOLVES

    for side, reg in (("village", VILLAGE), ("wolves", WOLVES)):
        for name in reg.names():
            typer.echo(f"{side:8s} {name:8s} {reg.get(name).doc}")
