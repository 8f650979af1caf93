"""The TRPG's text output (``sim trpg run`` / ``loo``)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from sim.core.cliutil import print_notes


def print_run(res, con: Console) -> None:
    """The text summary of a run."""
    s = res.summary.row(0, named=True)
    con.print(f"[bold]TRPG[/bold] — {s['scenario']}: {s['games']:,} combats, seed {res.seed}; draws "
              f"{s['draw_rate']:.4f}; mean rounds {s['mean_rounds']:.2f}; {s['games_per_second']:,.0f} combats/s")
    t = Table(title="win rate per side")
    for c in ("side", "win rate", "95% CI"):
        t.add_column(c, justify="left" if c == "side" else "right")
    for r in res.tables["sides"].iter_rows(named=True):
        t.add_row(r["side"], f"{r['win_rate']:.4f}", f"{r['ci_low']:.4f} – {r['ci_high']:.4f}")
    con.print(t)
    r = res.tables["rounds"]
    sides = [c[: -len("_wins")] for c in r.columns if c.endswith("_wins")]
    g = max(int(s["games"]), 1)
    t = Table(title="who wins when: share of all combats, by the round the combat ended")
    for c in ("round", *[f"{x} wins" for x in sides], "draws"):
        t.add_column(c, justify="right")
    for row in r.iter_rows(named=True):
        t.add_row(str(row["rounds"]), *[f"{row[f'{x}_wins'] / g:.4f}" for x in sides], f"{row['draws'] / g:.4f}")
    con.print(t)
    t = Table(title="per character (per combat)")
    cols = res.tables["characters"].columns
    for c in cols:
        t.add_column(c, justify="left" if c in ("character", "side") else "right")
    for r in res.tables["characters"].iter_rows(named=True):
        t.add_row(*[r[c] if c in ("character", "side") else f"{r[c]:.3f}" for c in cols])
    con.print(t)


def print_loo(df, sc, games: int, con: Console) -> None:
    """The leave-one-out table."""
    t = Table(title=f"leave one out, the seat removed: each character taken out of the fight (its gear or an "
                    f"ability alone: sim trpg values) — {sc.name}: {games:,} combats per row, same seed (common random "
                    f"numbers); change in points")
    t.add_column("removed (side)", no_wrap=True)
    t.add_column("outcome", no_wrap=True)
    t.add_column("rate", justify="right")
    t.add_column("95% CI", justify="right", no_wrap=True)
    t.add_column("change, points", justify="right")
    for r in df.iter_rows(named=True):
        name = r["removed"] + (f" ({r['side']})" if r["side"] else "") + (" *" if r["note"] else "")
        if r["games"] is None:
            t.add_row(name, "—", "—", "—", "—")
        else:
            for k, s in enumerate(sc.sides):
                t.add_row(name if k == 0 else "", f"{s} win", f"{r[s + '_win_rate']:.4f}",
                          f"{r[s + '_ci_low']:.4f} – {r[s + '_ci_high']:.4f}", f"{100 * r[s + '_delta']:+.1f}")
            t.add_row("", "draw", f"{r['draw_rate']:.4f}", "", f"{100 * r['draw_delta']:+.1f}")
        t.add_section()
    con.print(t)
    print_notes(con, df, "removed")
