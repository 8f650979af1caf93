"""The Looper's text output (``sim looper run`` / ``loo``)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from sim.core.cliutil import print_notes


def print_run(res, con: Console) -> None:
    """The text summary of a run."""
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


def print_loo(df, strategies, games: int, con: Console) -> None:
    """The leave-one-out table."""
    p, w = strategies["player"].name, strategies["scriptwriter"].name
    t = Table(title=f"leave one out — player {p} vs scriptwriter {w}; {games:,} games per row, "
                    f"same seed (common random numbers)")
    t.add_column("removed", no_wrap=True)
    for c in ("player win rate", "95% CI", "change (paired 95% CI)"):
        t.add_column(c, justify="right")
    for r in df.iter_rows(named=True):
        mark = " *" if r["note"] else ""
        if r["player_win_rate"] is None:
            t.add_row(r["removed"] + mark, "—", "—", "—")
        else:
            ci = "" if r["removed"] == "(none)" else f" ({r['delta_ci_low']:+.4f} … {r['delta_ci_high']:+.4f})"
            t.add_row(r["removed"] + mark, f"{r['player_win_rate']:.4f}",
                      f"{r['ci_low']:.4f} – {r['ci_high']:.4f}", f"{r['delta']:+.4f}{ci}")
    con.print(t)
    print_notes(con, df, "removed")
