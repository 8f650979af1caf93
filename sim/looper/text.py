"""The Looper's text output (``sim looper run`` / ``loo``)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from sim.core.cliutil import print_notes


def print_run(res, con: Console, show_all: bool = False) -> None:
    """The text summary of a run (``show_all``: every row of the deaths table, ``--all``)."""
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
    sc = res.totals["scalars"]
    from sim.looper.game_nb import C_DAYS, C_KEY_DEATHS, C_LOOPS, C_PROT_DEATHS

    loops = int(sc[C_LOOPS])
    con.print(f"loops ended by the key person's death {int(sc[C_KEY_DEATHS]):,}, by the protagonist's "
              f"{int(sc[C_PROT_DEATHS]):,} (a loop where both die counts in each), of {loops:,} loops; "
              f"mean days per loop {sc[C_DAYS] / max(loops, 1):.3f}")
    from sim.looper.game import posterior_report

    pr = posterior_report(res.totals)
    if pr:
        con.print(f"decisions taken with no setup consistent with everything announced: "
                  f"{pr['decisions_without_consistent_world']:,} of {pr['decisions']:,} "
                  f"({pr['share_without_consistent_world']:.2%})")
    le = res.tables.get("loop_ends")
    if le is not None:
        t = Table(title="the day on which loops ended")
        for c in ("day", "how", "loops", "share of loops", ""):
            t.add_column(c, justify="left" if c in ("how", "") else "right")
        top = max(le["loops"].max() or 1, 1)
        for r in le.iter_rows(named=True):
            if r["loops"] == 0 and r["ended"] != "died":
                continue
            t.add_row(str(r["day"]) if r["ended"] == "died" else "—", r["ended"], f"{r['loops']:,}",
                      f"{r['share_of_loops']:.4f}", "█" * round(30 * r["loops"] / top))
        con.print(t)
    ke = res.tables.get("key_person_ends")
    if ke is not None and ke.height:
        t = Table(title="loops ended by the key person's death, per key-person choice")
        for c in ("key person", "loops ended", "games as key person", "per game"):
            t.add_column(c, justify="left" if c == "key person" else "right")
        for r in ke.iter_rows(named=True):
            t.add_row(r["key_person"], f"{r['loops_ended']:,}", f"{r['games_as_key_person']:,}",
                      f"{r['loops_ended_per_game']:.3f}")
        con.print(t)
    kl = res.tables.get("killers", res.tables["deaths"])
    limit = None if show_all else 25
    t = Table(title="deaths per character: who killed them and by whose rule (per game)")
    for c in ("character", "killer", "rule", "rule of", "deaths/game"):
        t.add_column(c, justify="right" if c == "deaths/game" else "left", overflow="fold")
    rows = kl if limit is None else kl.head(limit)
    for r in rows.iter_rows(named=True):
        t.add_row(r["character"], r.get("killer", r.get("killed_by")), r["rule"], r.get("rule_of", r.get("killed_by")),
                  f"{r['deaths_per_game']:.4f}")
    con.print(t)
    if limit is not None and kl.height > limit:
        con.print(f"[dim]{kl.height - limit} more rows cut (the {limit} most frequent shown; --all shows every "
                  f"row; --out writes them all, table killers)[/dim]")
    t = Table(title="player win rate per key-person choice")
    for c in ("key person", "games", "win rate", "95% CI"):
        t.add_column(c, justify="left" if c == "key person" else "right")
    for r in res.tables["key_person"].sort("player_win_rate").iter_rows(named=True):
        t.add_row(r["key_person"], f"{r['games']:,}", f"{r['player_win_rate']:.4f}",
                  f"{r['ci_low']:.4f} – {r['ci_high']:.4f}")
    con.print(t)
    ex = res.tables.get("exploits")
    if ex is not None and ex.height:
        against = ex["against"][0]
        t = Table(title=f"the scriptwriter's best setups against {against} (the exploit list; "
                        f"re-measured with each setup pinned)")
        for c in ("rank", "key person", "permanent moves", "guest moves", "search win rate",
                  "player win rate", "95% CI"):
            t.add_column(c, justify="left" if c in ("key person", "permanent moves", "guest moves") else "right",
                         overflow="fold")
        for r in ex.iter_rows(named=True):
            t.add_row(str(r["rank"]), r["key_person"], r["permanent_moves"] or "—", r["guest_moves"] or "—",
                      f"{r['search_win_rate']:.1%} of {r['search_games']:,}",
                      f"{r['player_win_rate']:.1%} of {r['games']:,}", f"{r['ci_low']:.1%} – {r['ci_high']:.1%}")
        con.print(t)


def print_loo(df, strategies, games: int, con: Console) -> None:
    """The leave-one-out table."""
    p, w = strategies["player"].name, strategies["scriptwriter"].name
    t = Table(title=f"leave one out, the seat removed: each character taken off the table (its rule off, the "
                    f"character kept: sim looper values) — player {p} vs scriptwriter {w}; {games:,} games per row, "
                    f"same seed (common random numbers); change in points")
    t.add_column("removed", no_wrap=True)
    for c in ("player win rate", "95% CI", "change, points (paired 95% CI)"):
        t.add_column(c, justify="right")
    for r in df.iter_rows(named=True):
        mark = " *" if r["note"] else ""
        if r["player_win_rate"] is None:
            t.add_row(r["removed"] + mark, "—", "—", "—")
        else:
            ci = "" if r["removed"] == "(none)" else f" ({100 * r['delta_ci_low']:+.1f} … {100 * r['delta_ci_high']:+.1f})"
            t.add_row(r["removed"] + mark, f"{r['player_win_rate']:.4f}",
                      f"{r['ci_low']:.4f} – {r['ci_high']:.4f}", f"{100 * r['delta']:+.1f}{ci}")
    con.print(t)
    print_notes(con, df, "removed")
