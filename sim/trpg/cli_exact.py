"""``sim trpg exact``: exact win probabilities of a 1v1 duel (sim/trpg/exact.py).

A sub-app with one command; the caller registers it (e.g. under ``sim trpg``).
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from sim.core.cliutil import clean_errors, emit_json
from sim.core.console import out_console
from sim.errors import SimInputError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


@app.command("exact")
@clean_errors
def exact_cmd(
    scenario: Optional[Path] = typer.Argument(None, help="1v1 scenario TOML or shipped scenario name (or use --builds)."),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE, e.g. characters.aoi.hp=20"),
    builds: Optional[Path] = typer.Option(None, "--builds", help="Builds TOML ([builds.NAME] sheets) or a shipped one by name (builds)."),
    a: Optional[str] = typer.Option(None, "--a", help="Build of side a (with --builds)."),
    b: Optional[str] = typer.Option(None, "--b", help="Build of side b (with --builds)."),
    first: str = typer.Option("a", "--first", help="Side that acts first with --builds: a or b."),
    fractions: bool = typer.Option(False, "--fractions", help="Exact rational arithmetic (slow; small duels)."),
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact P(win) per side, P(draw) and mean rounds of a 1v1 duel without movement (no sampling)."""
    from sim.trpg.exact import duel_exact, duel_exact_builds
    from sim.trpg.sheets import resolve_setup

    if builds is not None:
        if scenario is not None:
            raise SimInputError("give either a SCENARIO file or --builds, not both")
        if not a or not b:
            raise SimInputError("--builds needs --a NAME and --b NAME")
        res = duel_exact_builds(builds, a, b, first, sets, fractions=fractions)
    else:
        if scenario is None:
            raise SimInputError("give a SCENARIO file, or --builds FILE --a NAME --b NAME")
        if a is not None or b is not None:
            raise SimInputError("--a/--b go with --builds")
        res = duel_exact(resolve_setup(scenario, sets), fractions=fractions)
    if as_json:
        emit_json(res)
        return
    con = out_console()
    con.print(f"[bold]TRPG exact duel[/bold] — {res['scenario']}: first {res['first']}; draws "
              f"{res['draw_rate']:.6f}; mean rounds {res['mean_rounds']:.4f} (sd {res['sd_rounds']:.4f}); "
              f"max rounds {res['max_rounds']}; {res['states']:,} states, {res['arithmetic']}, "
              f"{res['seconds']:.2f} s")
    t = Table(title="exact outcome per character")
    for c in ("character", "side", "hp", "P(win)"):
        t.add_column(c, justify="left" if c in ("character", "side") else "right")
    if "exact" in res:
        t.add_column("exact", justify="right")
    for ch in res["characters"]:
        row = [ch["character"], ch["side"], str(ch["hp"]), f"{ch['win_rate']:.6f}"]
        if "exact" in res:
            row.append(res["exact"]["win_rate"][ch["side"]])
        t.add_row(*row)
    con.print(t)
