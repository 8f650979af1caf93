"""``sim GAME competence``: restricted play over drawn setups (:mod:`sim.analysis.competence`)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional

import typer

from sim.core.cliutil import claim_out, emit_json, finish, guard, save_tables
from sim.core.console import out_console
from sim.core.game import Game
from sim.errors import SimInputError

SHOWN = 12  # abilities in the text table (the lowest values first); --json and --out have all


def _specs(game: Game, sides: dict, given: list[str], setup_sides: tuple[str, ...]) -> dict:
    """Each side's spec from ``--SIDE`` options and ``--strategy SIDE=SPEC`` items, checked
    against the sides of the drawn setups."""
    from sim.core.knobs import parse_spec

    texts = {s: t for s, t in sides.items() if t is not None}
    for item in given:
        side, eq, spec = item.partition("=")
        side = side.strip()
        if not eq or not spec.strip():
            raise SimInputError(f"--strategy {item!r}: expected SIDE=SPEC")
        if side in texts:
            raise SimInputError(f"--strategy {item!r}: {side}'s strategy was given already")
        texts[side] = spec.strip()
    unknown = [s for s in texts if s not in setup_sides]
    if unknown:
        raise SimInputError(f"--strategy {unknown[0]}=…: the drawn setups' sides are {', '.join(setup_sides)}")
    return {s: parse_spec(game, s, texts.get(s, game.default_strategy)) for s in setup_sides}


def competence_command(game: Game) -> Callable:
    """``sim GAME competence`` for one game."""
    from sim.game_cli import _command, _param, _side_params

    def competence(**kw):
        from sim.analysis.competence import draw_setups, drawn_competence
        from sim.core.output import manifest
        from sim.core.validate import check_run_counts

        sides = {s: kw.pop(f"side_{s}") for s in game.sides}
        check_run_counts(kw["games"], kw["threads"], 1)
        if kw["tune"]:
            check_run_counts(kw["tune_games"], kw["threads"], 1)
            if not 1 <= kw["tune_budget"] <= 10_000:
                raise SimInputError(f"--tune-budget must be 1 … 10,000 evaluations, got {kw['tune_budget']}")
        drawn = draw_setups(game, kw["setups"], kw["seed"])
        first = game.compile(drawn[0][1])
        specs = _specs(game, sides, kw["strategy"], game.sides_of(first))
        od = claim_out(kw["out"])
        with guard(od):
            res = drawn_competence(game, specs, drawn, kw["games"], kw["seed"], threads=kw["threads"],
                                   tune=kw["tune"], tune_budget=kw["tune_budget"], tune_games=kw["tune_games"])
            d = res.to_json()
            err = save_tables(od, {"competence": res.rows}, manifest(game.name, {}, kw["seed"], {
                "command": f"sim {game.name} competence", **{k: d[k] for k in d if k != "abilities"}}))
        if kw["as_json"]:
            emit_json(d)
            return finish(err)
        print_competence(out_console(), res)
        if kw["out"] is not None and not err:
            out_console().print(f"table and manifest written to [bold]{kw['out']}[/bold]")
        finish(err)

    params = [
        _param("setups", int, typer.Option(20, "--setups", help="Setups to draw.")),
        _param("games", int, typer.Option(5_000, "--games", "-n", help="Games per row (each ability withheld, "
                                           "and the full game, on the same games).")),
        _param("seed", int, typer.Option(0, "--seed", help="Root seed: the draw of setups and the games.")),
        *_side_params(game),
        _param("strategy", List[str], typer.Option([], "--strategy", help="SIDE=SPEC (repeatable): a side's "
                                                    "strategy, for games whose sides are the setup's (trpg: "
                                                    "players=focus).")),
        _param("tune", List[str], typer.Option([], "--tune", help="SIDE (repeatable): tune that side's knobs on "
                                                "each drawn setup first (sim tune against the other side), then "
                                                "withhold its abilities under the tuned knobs.")),
        _param("tune_budget", int, typer.Option(20, "--tune-budget", help="Knob evaluations per tuned side and setup.")),
        _param("tune_games", int, typer.Option(2_000, "--tune-games", help="Games per evaluation of the tuning.")),
        _param("threads", Optional[int], typer.Option(None, "--threads", help="Worker threads (default: all cores).")),
        _param("as_json", bool, typer.Option(False, "--json", help="Print the result as JSON.")),
        _param("out", Optional[Path], typer.Option(None, "--out", help="Write the table (parquet) and manifest here.")),
    ]
    for p in params:  # no default strategy forced on a side: a side not given plays the game's default
        if p.name.startswith("side_"):
            p.default.default = None
    return _command(competence, params,
                    f"Competence on drawn tables: draw SETUPS setups of {game.name} at random and, for the "
                    f"named strategies, withhold every optional ability of each in turn (paired with the full "
                    f"game); the worst ability's value to its own side with its simultaneous 95% interval, "
                    f"and the verdict.")


def print_competence(con, res) -> None:
    from rich.table import Table

    con.print(f"[bold]{res.game}[/bold] competence of {', '.join(f'{s} {n}' for s, n in res.strategies.items())} "
              f"on {len(res.setups)} drawn setups, {res.games:,} games per row; intervals simultaneous "
              f"(each at {100 * res.level:.3g}%: 95% over all {res.rows.height} abilities)",
              soft_wrap=True, highlight=False)
    if res.rows.height == 0:
        con.print(f"competence: {res.notes[0]}")
        return
    t = Table(title=f"the {min(SHOWN, res.rows.height)} lowest values to their own side, points")
    for h in ("setup", "withheld", "value", "interval", "verdict"):
        t.add_column(h, justify="right" if h in ("value", "interval") else "left", overflow="fold")
    for x in res.rows.sort("value_to_side").head(SHOWN).iter_rows(named=True):
        bad = x["competence"] == "not competent"
        t.add_row(f"#{x['setup_index']}", x["withheld"], f"{100 * x['value_to_side']:+.1f} for {x['side']}",
                  f"[{100 * x['value_ci_low']:+.1f}, {100 * x['value_ci_high']:+.1f}]",
                  "[bold red]not competent[/bold red]" if bad else x["competence"])
    con.print(t)
    w = res.worst
    con.print(f"worst: {w['withheld']} on setup #{w['setup_index']} ({w['setup']}): {100 * w['value_to_side']:+.1f} "
              f"points for {w['side']} [{100 * w['value_ci_low']:+.1f}, {100 * w['value_ci_high']:+.1f}]"
              + (f", under {w['strategies']}" if res.tuned else ""), soft_wrap=True, highlight=False, markup=False)
    if res.tuned:
        kept = sum(f["kept"] for t in res.tuned for f in t.values())
        con.print(f"tuned on each setup: {', '.join(res.tuned[0])}; the tuned knobs beat the defaults on fresh "
                  f"games and were kept {kept} of {sum(len(t) for t in res.tuned)} times (each setup's in --json: "
                  f"tuned_per_setup)", soft_wrap=True, highlight=False, markup=False)
    v = res.verdict
    con.print("verdict: competent: every ability's interval lies above −1 point" if v == "competent" else
              "verdict: [bold red]not competent: a side gains by giving an ability up[/bold red]" if v == "not competent"
              else f"verdict: [yellow]{v}[/yellow] (competent needs every interval above −1 point)")
