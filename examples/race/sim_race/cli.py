"""Race's own command: ``sim race exact`` (the dynamic-programming win probability)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from sim.core.cliutil import clean_errors, emit_json
from sim.errors import SimInputError

app = typer.Typer(add_completion=False)
MAX_EXACT_TARGET = 500  # the solver visits target² states in plain Python


@app.command("exact")
@clean_errors
def exact_cmd(
    p1: str = typer.Option("random", "--p1", help="Player 1's strategy (cautious | bold | threshold | random)."),
    p2: str = typer.Option("random", "--p2", help="Player 2's strategy."),
    config: Optional[Path] = typer.Option(None, "--config", help="A TOML file merged over the data."),
    sets: List[str] = typer.Option([], "--set", help="PATH=VALUE override, repeatable."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout."),
):
    """Player 1's exact win probability (dynamic programming over both totals and the turn)."""
    from rich.console import Console

    from sim_race.exact import exact_for
    from sim_race.protocol import GAME
    from sim_race.text import print_exact

    setup = GAME.setup(config, sets)
    s = GAME.strategies({"p1": p1, "p2": p2})
    if setup.target > MAX_EXACT_TARGET:
        raise SimInputError(f"rules.target: the exact solver takes targets up to {MAX_EXACT_TARGET}, "
                            f"got {setup.target}")
    p = exact_for(setup, s["p1"], s["p2"])
    if p is None:
        raise SimInputError("exact: a strategy without an exact form (a plug-in without `exact`)")
    d = {"target": setup.target, "head_start": setup.head_start, "p1": s["p1"].name, "p2": s["p2"].name,
         "p1_k": setup.k("p1"), "p2_k": setup.k("p2"), "win_rate": p}
    if as_json:
        emit_json(d)
        return
    print_exact(d, Console())
