"""``sim looper …`` commands."""
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

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


def _attrs(text: Optional[str]) -> Optional[list[str]]:
    if text is None:
        return None
    return [a.strip() for a in text.split(",") if a.strip()]


@app.command("run")
@clean_errors
def run_cmd(
    games: int = typer.Option(100_000, "--games", "-n", help="Games to play."),
    seed: int = typer.Option(0, "--seed", help="Root seed (same seed → same results)."),
    player: str = typer.Option("random", "--player", help="random | cautious | deducer | module:function"),
    scriptwriter: str = typer.Option("random", "--scriptwriter", help="random | adversarial | module:object"),
    protagonist: Optional[str] = typer.Option(None, "--protagonist", help="Attributes, e.g. male,loud"),
    protagonist_location: Optional[str] = typer.Option(None, "--protagonist-location"),
    key_person: Optional[str] = typer.Option(None, "--key-person",
                                             help="Pin the secret key person (P-13); default: the strategy picks."),
    config: Optional[Path] = typer.Option(None, "--config", help="A TOML file merged over the base data."),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE override, repeatable."),
    expansion: bool = typer.Option(False, "--expansion", help="Add the optional expansion roster."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write parquet tables + manifest here."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    chunk_size: int = typer.Option(DEFAULT_CHUNK, "--chunk-size", help="Games per chunk."),
):
    """Play GAMES whole games and report the player's win rate, deaths and key-person survival."""
    from sim.looper.game import resolve_roster, run

    check_run_counts(games, threads, chunk_size)
    extra_sets = list(sets)
    if protagonist_location is not None:
        extra_sets.append(f"protagonist.location={protagonist_location}")
    if key_person is not None:
        extra_sets.append(f"setup.key_person={key_person}")
    roster = resolve_roster(config, extra_sets, expansion=expansion, protagonist=_attrs(protagonist))
    od = claim_out(out)
    with guard(od):
        res = run(games, seed, player=player, scriptwriter=scriptwriter, roster=roster, threads=threads,
                  chunk_size=chunk_size, progress=want_progress(games, as_json))
        err = save_tables(od, res.tables, manifest("looper", roster.config, seed, {
            "games": games, "player": res.player, "scriptwriter": res.scriptwriter,
            "command": "sim looper run", "tables": sorted(res.tables)}))
    if as_json:
        emit_json(res.to_json())
    else:
        _print(res, None if err else out)
    finish(err)


def _print(res, out: Optional[Path]) -> None:
    con = Console()
    s = res.summary.row(0, named=True)
    con.print(f"[bold]Looper[/bold] — player [cyan]{res.player}[/cyan] vs scriptwriter "
              f"[magenta]{res.scriptwriter}[/magenta], {s['games']:,} games, seed {res.seed}")
    con.print(f"player win rate [bold]{s['player_win_rate']:.4f}[/bold] "
              f"(95% CI {s['ci_low']:.4f} – {s['ci_high']:.4f}); mean loops used {s['mean_loops']:.3f}; "
              f"{s['games_per_second']:,.0f} games/s")
    t = Table(title="wins by loop")
    t.add_column("loop", justify="right")
    t.add_column("wins", justify="right")
    t.add_column("share of games", justify="right")
    for r in res.tables["wins_by_loop"].iter_rows(named=True):
        t.add_row(str(r["loop"]), f"{r['wins']:,}", f"{r['share_of_games']:.4f}")
    con.print(t)
    t = Table(title="deaths per character and the rule that killed them (per game)")
    for c in ("character", "killed by", "rule", "deaths/game"):
        t.add_column(c, justify="right" if c == "deaths/game" else "left")
    for r in res.tables["deaths"].head(25).iter_rows(named=True):
        t.add_row(r["character"], r["killed_by"], r["rule"], f"{r['deaths_per_game']:.4f}")
    con.print(t)
    t = Table(title="player win rate per key-person choice")
    for c in ("key person", "games", "win rate", "95% CI"):
        t.add_column(c, justify="left" if c == "key person" else "right")
    for r in res.tables["key_person"].sort("player_win_rate").iter_rows(named=True):
        t.add_row(r["key_person"], f"{r['games']:,}", f"{r['player_win_rate']:.4f}",
                  f"{r['ci_low']:.4f} – {r['ci_high']:.4f}")
    con.print(t)
    if out is not None:
        con.print(f"parquet tables and manifest written to [bold]{out}[/bold]")


@app.command("loo")
@clean_errors
def loo_cmd(
    games: int = typer.Option(100_000, "--games", "-n", help="Games per row."),
    seed: int = typer.Option(0, "--seed", help="Root seed, the same for every row (common random numbers)."),
    player: str = typer.Option("random", "--player", help="random | cautious | deducer | module:function"),
    scriptwriter: str = typer.Option("random", "--scriptwriter", help="random | adversarial | module:object"),
    protagonist: Optional[str] = typer.Option(None, "--protagonist", help="Attributes, e.g. male,loud"),
    key_person: Optional[str] = typer.Option(None, "--key-person", help="Pin the secret key person (P-13)."),
    config: Optional[Path] = typer.Option(None, "--config", help="A TOML file merged over the base data."),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE override, repeatable."),
    expansion: bool = typer.Option(False, "--expansion", help="Add the optional expansion roster."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the parquet table + manifest here."),
    as_json: bool = typer.Option(False, "--json", help="Print the table as JSON on stdout."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
):
    """Leave one out: the player's win rate with each table character removed (P-14)."""
    from sim.looper.game import resolve_roster
    from sim.looper.loo import leave_one_out
    from strategies.looper import PLAYERS, SCRIPTWRITERS

    check_run_counts(games, threads, DEFAULT_CHUNK)
    extra_sets = list(sets)
    if key_person is not None:
        extra_sets.append(f"setup.key_person={key_person}")
    roster = resolve_roster(config, extra_sets, expansion=expansion, protagonist=_attrs(protagonist))
    p, w = PLAYERS.get(player), SCRIPTWRITERS.get(scriptwriter)  # bad names fail before any game
    od = claim_out(out)
    with guard(od):
        df = leave_one_out(games, seed, roster=roster, player=p, scriptwriter=w, threads=threads)
        err = save_tables(od, {"leave_one_out": df}, manifest("looper", roster.config, seed, {
            "games_per_row": games, "player": p.name, "scriptwriter": w.name, "command": "sim looper loo"}))
    if as_json:
        emit_json({"games_per_row": games, "player": p.name, "scriptwriter": w.name, "rows": df.to_dicts()})
        return finish(err)
    con = Console()
    t = Table(title=f"leave one out — player {p.name} vs scriptwriter {w.name}; {games:,} games per row, "
                    f"same seed (common random numbers)")
    t.add_column("removed", no_wrap=True)
    for c in ("player win rate", "95% CI", "change"):
        t.add_column(c, justify="right")
    for r in df.iter_rows(named=True):
        mark = " *" if r["note"] else ""
        if r["player_win_rate"] is None:
            t.add_row(r["removed"] + mark, "—", "—", "—")
        else:
            t.add_row(r["removed"] + mark, f"{r['player_win_rate']:.4f}",
                      f"{r['ci_low']:.4f} – {r['ci_high']:.4f}", f"{r['delta']:+.4f}")
    con.print(t)
    _print_notes(con, df)
    if out is not None and not err:
        con.print(f"parquet table and manifest written to [bold]{out}[/bold]")
    finish(err)


def _print_notes(con: Console, df) -> None:
    notes = [(r["removed"], r["note"]) for r in df.iter_rows(named=True) if r["note"]]
    if notes:
        con.print("* notes:")
        for cid, note in notes:
            con.print(f"  {cid}: {note}", soft_wrap=True, markup=False, highlight=False)


@app.command("strategies")
def strategies_cmd():
    """List the registered player and scriptwriter strategies."""
    from strategies.looper import PLAYERS, SCRIPTWRITERS

    for side, reg in (("player", PLAYERS), ("scriptwriter", SCRIPTWRITERS)):
        for name in reg.names():
            typer.echo(f"{side:13s} {name:12s} {reg.get(name).doc}")
