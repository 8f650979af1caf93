"""``sim werewolf exact``: the game's own command (run, loo and strategies are
sim.game_cli's, through the Game protocol)."""
from __future__ import annotations

from typing import List

import typer
from rich.table import Table

from sim.core.cliutil import clean_errors, emit_json
from sim.core.console import out_console
from sim.errors import SimInputError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


@app.command("exact")
@clean_errors
def exact_cmd(
    roles: str = typer.Option(None, "--roles", help="Any seed roles (at most one paladin and one witch); default: "
                                                   "the table `sim werewolf run` plays (R-1, or the "
                                                   "composition --set gives)."),
    sets: List[str] = typer.Option([], "--set", help="variants.* (every vote_rule / start / end_rule, "
                                   "max_runoffs, max_days, accomplice_counts_as, abilities_after_elimination, "
                                   "lone_accomplice_attacks) "
                                   "and roles.*"),
    all_variants: bool = typer.Option(False, "--all-variants", help="Every vote_rule × start × end_rule."),
    as_json: bool = typer.Option(False, "--json"),
):
    """Exact village win probability under random play (no sampling).

    Plain werewolf / villager / seer tables with the default role data and a max_days
    no game reaches: exact fractions (sim.werewolf.exact). Every other table: the
    Markov chain of sim.werewolf.exact_roles in float64 (draws at max_days included).
    Refuses what it does not model (non-random strategy knobs, two paladins or
    witches, …) rather than answer for something else."""
    import time

    from sim.werewolf.exact import END_RULES, STARTS, VOTE_RULES, check_modelled, exact_summary, fraction_path
    from sim.werewolf.exact_roles import check_chain_modelled, check_random_play, roles_summary
    from sim.werewolf.roles import base_config, build_config, resolve_setup

    setup = resolve_setup(None, sets, roles)
    var = setup.variants
    combos = ([(vr, st, er) for vr in VOTE_RULES for st in STARTS for er in END_RULES] if all_variants
              else [(var.get("vote_rule", "runoff"), var.get("start", "day"), var.get("end_rule", "parity"))])
    cfg = build_config(None, sets)
    composition_set = cfg["composition"]["default"] != base_config()["composition"]["default"]
    check_random_play(cfg)
    try:
        default = resolve_setup(None, (), roles)
    except SimInputError:
        # the default variants end this table at the start (the wolves already win), the
        # given ones do not (--set variants.end_rule=no_villagers): compare with the table
        # under the variants given, as `run` plays it
        default = resolve_setup(None, [s for s in sets if s.strip().startswith("variants.")], roles)
    if fraction_path(setup, default, combos):
        check_modelled(setup, default, composition_set=composition_set, all_variants=all_variants, combos=combos)
        w, v, s = (setup.seats.count(r) for r in ("werewolf", "villager", "seer"))
        rows = []
        for vr, st, er in combos:
            t0 = time.perf_counter()
            r = exact_summary(w, v, s, vote_rule=vr, start=st, end_rule=er, max_runoffs=var.get("max_runoffs", 50))
            r["seconds"] = time.perf_counter() - t0
            rows.append(r)
    else:
        check_chain_modelled(setup, cfg, composition_set=composition_set, all_variants=all_variants,
                             changed=[k for k in ("vote_rule", "start", "end_rule") if var.get(k) != default.variants.get(k)])
        rows = [roles_summary(setup, vote_rule=vr, start=st, end_rule=er) for vr, st, er in combos]
    if as_json:
        emit_json(rows if all_variants else rows[0])
        return
    draws = any(r["draws"] for r in rows)
    t = Table(title=f"exact village win probability, random play — {setup.composition()}")
    cols = ["vote_rule", "start", "end_rule", "village wins"] + ["draws"] * draws + ["expected days", "states"]
    for c in cols:
        t.add_column(c, justify="left" if c in ("vote_rule", "start", "end_rule") else "right")
    for r in rows:
        vv = r["variants"]
        t.add_row(vv["vote_rule"], vv["start"], vv["end_rule"], f"{r['village_win']:.6f}",
                  *([f"{r['draws']:.2g}"] * draws), f"{r['expected_days']:.4f}", str(r["states"]))
    out_console().print(t)
    out_console().print(f"{sum(r['states'] for r in rows)} states, solved in {sum(r['seconds'] for r in rows):.2f} s")
    if rows and rows[0].get("arithmetic") == "float64":
        classes = "; ".join("+".join(c["roles"]) + " ×" + str(c["count"]) for c in rows[0]["classes"])
        out_console().print(f"float64 Markov chain over day-start states (sim.werewolf.exact_roles); classes: {classes}")
