"""Race's text output (``sim race run``)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table


def print_run(res, con: Console) -> None:
    s = res.summary.row(0, named=True)
    con.print(f"[bold]Race[/bold] to {s['target']} (player 2 starts on {s['head_start']}); p1 "
              f"[cyan]{_who(res.p1, s['p1_k'])}[/cyan] vs p2 [magenta]{_who(res.p2, s['p2_k'])}[/magenta]; "
              f"{s['games']:,} games, seed {res.seed}")
    con.print(f"player 1 win rate [bold]{s['win_rate']:.4f}[/bold] (95% CI {s['ci_low']:.4f} – "
              f"{s['ci_high']:.4f}); mean turns {s['mean_turns']:.2f}; {s['games_per_second']:,.0f} games/s")
    t = Table(title="per player")
    cols = ("side", "strategy", "k", "win_share", "two_dice_share", "bust_rate", "points_per_turn")
    for c in cols:
        t.add_column(c.replace("_", " "), justify="left" if c in ("side", "strategy") else "right")
    for r in res.tables["players"].iter_rows(named=True):
        t.add_row(*[_fmt(r[c]) for c in cols])
    con.print(t)


def print_exact(d: dict, con: Console) -> None:
    con.print(f"[bold]Race[/bold] to {d['target']} (player 2 starts on {d['head_start']}); p1 "
              f"[cyan]{_who(d['p1'], d['p1_k'])}[/cyan] vs p2 [magenta]{_who(d['p2'], d['p2_k'])}[/magenta]")
    con.print(f"player 1 wins with probability [bold]{d['win_rate']:.6f}[/bold] (exact)")


def _who(name: str, k: int) -> str:
    return f"{name} (k={k})" if name == "threshold" else name


def _fmt(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)
