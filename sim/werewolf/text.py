"""Werewolf's text output (``sim werewolf run`` / ``loo``)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table


def print_run(res, con: Console) -> None:
    """The text summary of a run."""
    s = res.summary.row(0, named=True)
    con.print(f"[bold]Werewolf[/bold] — {s['composition']} ({s['participants']} participants); village "
              f"[cyan]{res.village}[/cyan] vs wolves [magenta]{res.wolves}[/magenta]; {s['games']:,} games, "
              f"seed {res.seed}")
    con.print(f"village win rate [bold]{s['village_win_rate']:.4f}[/bold] (95% CI {s['ci_low']:.4f} – "
              f"{s['ci_high']:.4f}); wolves {s['wolf_wins'] / s['games']:.4f}; draws {s['draws']:,}; "
              f"mean days {s['mean_days']:.3f}; {s['games_per_second']:,.0f} games/s")
    t = Table(title="how games ended")
    for c in ("winner", "last event", "share"):
        t.add_column(c, justify="right" if c == "share" else "left")
    for r in res.tables["endings"].sort("games", descending=True).iter_rows(named=True):
        t.add_row(r["winner"], r["event"], f"{r['share']:.4f}")
    con.print(t)
    d = res.tables["days"]
    t = Table(title="who wins when: share of all games, by the day the game ended")
    for c in ("day", "village wins", "wolves win", "draws"):
        t.add_column(c, justify="right")
    g = max(int(s["games"]), 1)
    for r in d.iter_rows(named=True):
        t.add_row(str(r["days"]), f"{r['village_wins'] / g:.4f}", f"{r['wolves_wins'] / g:.4f}",
                  f"{r['draws'] / g:.4f}")
    con.print(t)
    t = Table(title="per role: survival and how it left (per participant-game)")
    cols = [c for c in res.tables["roles"].columns if c != "participant_games"]
    for c in cols:
        t.add_column(c, justify="left" if c == "role" else "right")
    for r in res.tables["roles"].iter_rows(named=True):
        t.add_row(*[r[c] if c == "role" else f"{r[c]:.4f}" for c in cols])
    con.print(t)


def print_loo(df, games: int, con: Console) -> None:
    """The leave-one-out table."""
    t = Table(title=f"leave one out, the seat removed: each role's seat given to a plain villager (for the "
                    f"role against its team's plain one: sim werewolf values) — {games:,} games per row, same seed "
                    f"(common random numbers); change in points")
    for c in ("seat given to a villager", "village win rate", "95% CI", "change, points (paired 95% CI)"):
        t.add_column(c, justify="left" if c.startswith("seat") else "right")
    for r in df.iter_rows(named=True):
        if r["village_win_rate"] is None:
            t.add_row(r["replaced"], "—", "—", r["note"])
        else:
            ci = "" if r["replaced"] == "(none)" else f" ({100 * r['delta_ci_low']:+.1f} … {100 * r['delta_ci_high']:+.1f})"
            t.add_row(r["replaced"], f"{r['village_win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}",
                      f"{100 * r['delta']:+.1f}{ci}")
    con.print(t)
