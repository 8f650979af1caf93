"""``sim werewolf exact``: the game's own command (run, loo and strategies are
sim.game_cli's, through the Game protocol)."""
from __future__ import annotations

from typing import List

import typer
from rich.console import Console
from rich.table import Table

from sim.core.cliutil import clean_errors, emit_json
from sim.errors import SimInputError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


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
