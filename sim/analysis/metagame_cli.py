"""``sim ladder GAME`` and ``sim equilibrium GAME`` (see :mod:`sim.analysis.metagame`)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from sim.core.cliutil import claim_out, clean_errors, emit_json, finish, guard, save_tables
from sim.core.console import out_console

_TIERS_HELP = ("SIDE=TIER,TIER,… (repeatable): the tiers of a side, each a strategy name or module:object, "
               "with knobs as NAME@KNOB=VALUE (race: threshold@k=3); default: every registered strategy.")


GAME_OPTIONS_HELP = ("The game's own options follow GAME, as for `sim GAME run` (trpg: --scenario NAME or the "
                     "scenario as an argument; werewolf: --roles …).")


def game_options(game, args: list[str]) -> dict:
    """The game's own options (:attr:`Game.options`, e.g. the TRPG's scenario, Werewolf's
    ``--roles``) from the command line's extra arguments: ``--flag VALUE`` / ``--flag=VALUE``
    (an option without flags is ``--<name>``, or a bare argument in order)."""
    from sim.errors import SimInputError, did_you_mean

    flags = {}
    for o in game.options:
        for f in (*o.flags, f"--{o.name.replace('_', '-')}"):
            flags[f] = o
    positional = [o for o in game.options if not o.flags]
    opts: dict = {}
    bare: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("-") and len(a) > 1:
            name, eq, val = a.partition("=")
            o = flags.get(name)
            if o is None:
                raise SimInputError(f"no such option {name!r}" + did_you_mean(name, flags)
                                    + f"; {game.name}'s own options: {', '.join(sorted(flags)) or 'none'}")
            if not eq:
                if i + 1 >= len(args):
                    raise SimInputError(f"{name}: expected a value")
                i += 1
                val = args[i]
            opts[o.name] = val
        else:
            bare.append(a)
        i += 1
    if len(bare) > len(positional):
        raise SimInputError(f"unexpected argument(s) {' '.join(bare[len(positional):])}")
    for o, v in zip(positional, bare):
        if o.name in opts:
            raise SimInputError(f"{o.name} given twice ({opts[o.name]!r} and {v!r})")
        opts[o.name] = v
    for o in game.options:
        if o.name in opts and o.type in (int, float):
            try:
                opts[o.name] = o.type(opts[o.name])
            except ValueError:
                raise SimInputError(f"--{o.name}: expected {o.type.__name__}, got {opts[o.name]!r}") from None
        if o.default is ... and o.name not in opts:
            raise SimInputError(f"{game.name}: missing --{o.name.replace('_', '-')} ({o.help or 'required'})")
    return opts


_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}  # the game's own options (game_options)


def _prepare(game_name: str, tiers: list[str], config, sets, games: int, threads, extra=()):
    from sim.analysis.metagame import default_tiers, parse_tier, two_sides
    from sim.core.game import get
    from sim.core.validate import check_run_counts
    from sim.errors import SimInputError

    check_run_counts(games, threads, 1)
    game = get(game_name)
    opts = game_options(game, list(extra))
    tree = game.build(config, sets, **opts)
    setup = game.compile(tree)  # a bad tree fails before any game
    a, b = two_sides(game, setup)
    given: dict[str, list] = {}
    for t in tiers:
        side, eq, names = t.partition("=")
        side = side.strip()
        if not eq or side not in (a, b) or not names.strip():
            raise SimInputError(f"--tiers {t!r}: expected SIDE=TIER,TIER,… with SIDE {a} or {b}")
        if side in given:
            raise SimInputError(f"--tiers {t!r}: the tiers of {side} were given already; list them in one "
                                f"--tiers {side}=TIER,TIER,…")
        given[side] = [parse_tier(game, side, n) for n in names.split(",") if n.strip()]
        seen = set()
        for tier in given[side]:  # a repeated tier is the same strategy twice: a row the table does not need
            if tier in seen:
                raise SimInputError(f"--tiers {t!r}: {tier.label} is listed twice")
            seen.add(tier)
    rows = given.get(a) or default_tiers(game, a, setup)
    cols = given.get(b) or default_tiers(game, b, setup)
    return game, tree, rows, cols, (a, b), (game.manifest_extra(setup, opts) if opts else {})


def _progress(total: int, what: str):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    p = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                 transient=True, console=Console(stderr=True),
                 disable=not sys.stderr.isatty())  # off a terminal it leaves a blank line
    task = p.add_task(what, total=total)
    return p, (lambda: p.advance(task))


def _oracle_line(con, labels) -> None:
    from sim.core.views import is_oracle

    o = [x for x in labels if is_oracle(x.split("@")[0])]
    if o:
        con.print(f"[bold red]ORACLE tiers: {', '.join(o)} read hidden information (not honest play)[/bold red]")


def _hidden_text(con, game, sides, hidden) -> None:
    from rich.table import Table

    t = Table(title=f"value of the hidden information: the oracle's gain in {sides[0]}'s {game.metric} "
                    f"({sides[1]}: how much lower it is), in points, paired 95% CI")
    for c in ("oracle − honest twin", "against", "rates", "gain, points [95% CI]"):
        numbers = c in ("rates", "gain, points [95% CI]")
        t.add_column(c, justify="right" if numbers else "left", no_wrap=numbers, overflow="fold")
    for h in hidden:
        t.add_row(f"{h['oracle']} − {h['honest']}", h["against"],
                  f"{h['oracle_rate']:.3f} − {h['honest_rate']:.3f}",
                  f"{100 * h['gain']:+.1f} [{100 * h['ci_low']:+.1f}, {100 * h['ci_high']:+.1f}]")
    con.print(t)


def _matrix_text(con, sides, frame, rows, cols, title) -> None:
    from rich.table import Table

    t = Table(title=title)
    t.add_column(f"{sides[0]} \\ {sides[1]}")
    for c in cols:
        t.add_column(c.label + (" (oracle)" if c.oracle else ""), justify="right")
    cells = {(r["row"], r["col"]): r for r in frame.iter_rows(named=True)}
    for r in rows:
        t.add_row(r.label + (" (oracle)" if r.oracle else ""),
                  *[f"{cells[r.label, c.label]['rate']:.3f} [{cells[r.label, c.label]['ci_low']:.3f}–"
                    f"{cells[r.label, c.label]['ci_high']:.3f}]" for c in cols])
    con.print(t)


_COMMON = dict(
    tiers=typer.Option([], "--tiers", help=_TIERS_HELP),
    games=typer.Option(20_000, "--games", "-n", help="Games per cell."),
    seed=typer.Option(0, "--seed", help="Root seed (same seed → same results)."),
    config=typer.Option(None, "--config", help="A TOML file merged over the game's data."),
    sets=typer.Option([], "--set", help="PATH=VALUE override, repeatable."),
    threads=typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    as_json=typer.Option(False, "--json", help="Print the result as JSON."),
    out=typer.Option(None, "--out", help="Write the matrix (parquet) and manifest here."),
    dask=typer.Option(None, "--dask", help="local:N (LocalCluster) or tcp://HOST:PORT: cells on Dask workers "
                      "(the same numbers as a local run)."),
)


def _client(dask):
    """A Dask client context for ``--dask``, or a do-nothing one."""
    import contextlib

    from sim.sweep.backend import dask_client, parse_dask

    if dask is None:
        return contextlib.nullcontext(None)
    parse_dask(dask)
    return dask_client(dask)


@clean_errors
def ladder_cmd(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="looper, werewolf, race, trpg, … (two strategy "
                                   "sides). " + GAME_OPTIONS_HELP),
    tiers: List[str] = _COMMON["tiers"], games: int = _COMMON["games"], seed: int = _COMMON["seed"],
    config: Optional[Path] = _COMMON["config"], sets: List[str] = _COMMON["sets"],
    threads: Optional[int] = _COMMON["threads"], as_json: bool = _COMMON["as_json"],
    out: Optional[Path] = _COMMON["out"], dask: Optional[str] = _COMMON["dask"],
    competence: bool = typer.Option(False, "--competence", help="Also check the strongest honest tiers: "
                                    "withhold each optional ability in turn (restricted play, --games "
                                    "games each) and flag any a side does better without."),
    target: Optional[str] = typer.Option(None, "--target", help="The designer's target band LOW:HIGH (one value: "
                                         "±2 points): the verdict of every pair of tiers, and those in the band."),
):
    """The skill ladder: the first side's win rate for every pair of tiers of the two sides,
    each cell with its 95% CI, all cells on the same random streams. --competence adds
    the competence check of the strongest honest tiers (restricted play)."""
    from rich.console import Console

    from sim.analysis.metagame import MEASURE, hidden_information, measure
    from sim.core.output import manifest

    from sim.core.settings import settings_text

    from sim.core.target import parse_target

    tg = parse_target(target)
    game, tree, rows, cols, sides, extra = _prepare(game_name, tiers, config, sets, games, threads, ctx.args)
    settings = settings_text({}, extra, config, sets, seed)
    od = claim_out(out)
    with guard(od):
        p, tick = _progress(len(rows) * len(cols), "ladder cells")
        with _client(dask) as client, p:
            m = measure(game, tree, rows, cols, games, seed, (MEASURE,), threads, tick, client)
        frame = m.frame()
        comp = _competence(game, tree, m, games, seed, threads) if competence else None
        hidden = hidden_information(m).to_dicts()
        tv = {"target": tg.to_json(), "verdicts": _ladder_verdicts(frame, tg, sides)} if tg else {}
        # the check's result is in the manifest (and --json): the directory keeps one table
        err = save_tables(od, {"ladder": frame}, manifest(game.name, tree, seed, {
            "command": "sim ladder", "games_per_cell": games, "metric": game.metric, "settings": settings,
            "sides": list(sides), "rows": [r.label for r in rows], "cols": [c.label for c in cols], **extra,
            **({"competence": comp} if comp else {}), **({"hidden_information": hidden} if hidden else {}), **tv}))
    if as_json:
        emit_json({"game": game.name, "metric": game.metric, "sides": list(sides), "games_per_cell": games,
                   "settings": settings,
                   "matrix": [{k: r[k] for k in ("row", "col", "rate", "ci_low", "ci_high", "games")}
                              for r in frame.iter_rows(named=True)],
                   **({"competence": comp} if comp else {}), **({"hidden_information": hidden} if hidden else {}),
                   **tv})
        return finish(err)
    con = out_console()
    _oracle_line(con, [t.label for t in (*rows, *cols)])
    con.print(f"settings: {settings}", soft_wrap=True, highlight=False, markup=False)
    _matrix_text(con, sides, frame, rows, cols,
                 f"{game.name}: {game.metric} by tier ({games:,} games per cell, seed {seed})")
    if hidden:
        _hidden_text(con, game, sides, hidden)
    if comp:
        _competence_text(con, game, comp)
    if out is not None and not err:
        con.print(f"ladder table and manifest written to [bold]{out}[/bold]")
    if tv:
        inside = [v for v in tv["verdicts"] if v["status"] == "in band"]
        con.print(f"verdict: {len(inside)} of {len(tv['verdicts'])} pairs of tiers lie in the target {tg.text}"
                  + (": " + "; ".join(f"{v['row']} vs {v['col']}" for v in inside) if inside else ""),
                  soft_wrap=True, highlight=False)
        for v in tv["verdicts"]:
            if v["status"] != "in band":
                con.print(f"  {v['row']} vs {v['col']}: {v['text'].split(': ' + sides[0])[0]}", soft_wrap=True,
                          highlight=False)
    finish(err)


def _ladder_verdicts(frame, tg, sides) -> list[dict]:
    """Each pair of tiers against the target (sim.core.target.verdict)."""
    from sim.core.target import verdict

    return [{"row": r["row"], "col": r["col"],
             **verdict(tg, r["rate"], r["ci_low"], r["ci_high"], tuple(sides), f"{r['row']} vs {r['col']}")}
            for r in frame.iter_rows(named=True)]


_COMPETENCE_COLS = ("ability", "side", "withheld", "value_to_side", "value_ci_low", "value_ci_high", "competent",
                    "competence")


def _competence(game, tree, m, games: int, seed: int, threads) -> dict:
    """The competence check of the strongest honest tiers, as JSON-ready data and a table."""
    from sim.analysis.metagame import competence

    r, c, df = competence(game, tree, m, games, seed, threads)
    if df is None:
        return {"row": r.label, "col": c.label, "games": games, "competent": None, "abilities": [],
                "note": f"{game.name}: this setup has no optional ability to withhold"}
    ab = df.filter(df["ability"] != "")
    rows = [{k: x[k] for k in _COMPETENCE_COLS} for x in ab.iter_rows(named=True)]
    return {"row": r.label, "col": c.label, "games": games, "competent": all(x["competent"] for x in rows),
            "verdict": _overall(rows), "abilities": rows}


def _overall(rows: list[dict]) -> str:
    """Competent only when every ability's interval clears −1 point; not competent when one
    lies below 0; else inconclusive, with the most games any ability needs."""
    said = [x["competence"] for x in rows]
    if any(s == "not competent" for s in said):
        return "not competent"
    if all(s == "competent" for s in said):
        return "competent"
    needs = [int(s.split("about ")[1].split(" games")[0].replace(",", "")) for s in said if "about " in s]
    return f"inconclusive: about {max(needs):,} games needed" if needs else \
        "inconclusive: an estimate lies below −1 point; more games would likely say not competent"


def _competence_text(con, game, comp: dict) -> None:
    from rich.table import Table

    if comp["competent"] is None:
        con.print(f"competence: {comp['note']}")
        return
    t = Table(title=f"competence of the strongest honest tiers: {comp['row']} vs {comp['col']} "
                    f"({comp['games']:,} games each, paired): an ability's value to its own side")
    for h in ("ability", "side", "value to side, points", "95% CI", "verdict"):
        t.add_column(h, justify="right" if h in ("value to side, points", "95% CI") else "left")
    for x in comp["abilities"]:
        bad = x["competence"] == "not competent"
        t.add_row(x["ability"], x["side"], f"{100 * x['value_to_side']:+.1f}",
                  f"[{100 * x['value_ci_low']:+.1f}, {100 * x['value_ci_high']:+.1f}]",
                  "[bold red]NOT COMPETENT: the side does better without it[/bold red]" if bad else x["competence"])
    con.print(t)
    v = comp["verdict"]
    con.print("competent: every ability's interval lies above −1 point" if v == "competent" else
              "[bold red]not competent: a side gains by giving an ability up — a stronger strategy exists[/bold red]"
              if v == "not competent" else f"[yellow]{v}[/yellow] (competent needs every interval above −1 point)")


@clean_errors
def equilibrium_cmd(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="looper, werewolf, race, trpg, … (two strategy "
                                   "sides). " + GAME_OPTIONS_HELP),
    tiers: List[str] = _COMMON["tiers"], games: int = _COMMON["games"], seed: int = _COMMON["seed"],
    config: Optional[Path] = _COMMON["config"], sets: List[str] = _COMMON["sets"],
    threads: Optional[int] = _COMMON["threads"], as_json: bool = _COMMON["as_json"],
    out: Optional[Path] = _COMMON["out"], dask: Optional[str] = _COMMON["dask"],
    epsilon: float = typer.Option(0.01, "--epsilon", help="Exploitability below which the mixture is an equilibrium."),
    grow: bool = typer.Option(False, "--grow", help="Grow the population (double oracle): each round, a best response "
                              "of each side to the other's mixture (its families' knobs searched, re-measured on "
                              "fresh games) joins when it gains more than ε; stops when neither side gains more "
                              "than ε or after --rounds."),
    rounds: int = typer.Option(8, "--rounds", help="With --grow: at most this many rounds (the budget)."),
    budget: int = typer.Option(30, "--budget", help="With --grow: evaluations of each family's knob search per "
                               "best response."),
    family: List[str] = typer.Option([], "--family", help="With --grow: SIDE=NAME,… more families a side's best "
                                     "response is searched in (default: the families of its tiers); "
                                     "NAME@KNOB=VALUE holds those knobs and searches the others."),
):
    """The meta-game equilibrium between the sides' tiers: mixtures solved as a zero-sum game
    (linear programming) on one measurement, value and exploitability on fresh games. With
    --grow, the population grows by best responses until no side gains more than ε."""
    from rich.console import Console

    from sim.analysis.metagame import equilibrium
    from sim.core.output import manifest
    from sim.errors import SimInputError

    if not 0 <= epsilon < 1:
        raise SimInputError(f"--epsilon must be in [0, 1), got {epsilon}")
    from sim.core.settings import settings_text

    game, tree, rows, cols, sides, extra = _prepare(game_name, tiers, config, sets, games, threads, ctx.args)
    settings = settings_text({}, extra, config, sets, seed)
    if grow:
        return _grow(game, tree, rows, cols, sides, extra, settings, games=games, seed=seed, epsilon=epsilon,
                     rounds=rounds, budget=budget, family=family, threads=threads, as_json=as_json, out=out,
                     dask=dask)
    if family or rounds != 8 or budget != 30:
        raise SimInputError("--rounds, --budget and --family go with --grow")
    od = claim_out(out)
    with guard(od):
        p, tick = _progress(2 * len(rows) * len(cols), "equilibrium cells")
        with _client(dask) as client, p:
            e = equilibrium(game, tree, rows, cols, games, seed, epsilon=epsilon, threads=threads, progress=tick,
                            client=client)
        d = {"game": game.name, "metric": game.metric, "settings": settings, **e.to_json()}
        err = save_tables(od, {"ladder": e.fresh.frame()}, manifest(game.name, tree, seed, {
            "command": "sim equilibrium", "games_per_cell": games, "metric": game.metric, "sides": list(sides),
            "settings": settings,
            **extra,
            **{k: d[k] for k in ("value", "ci_low", "ci_high", "exploitability", "mixture", "epsilon")}}))
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    a, b = e.sides
    _oracle_line(con, [t.label for t in (*rows, *cols)])
    con.print(f"settings: {settings}", soft_wrap=True, highlight=False, markup=False)
    con.print(f"[bold]{game.name}[/bold] meta-game equilibrium of {game.metric} ({a} maximises, {b} minimises), "
              f"{games:,} games per cell and measurement")
    con.print(f"  value {e.value:.4f} (95% CI {e.ci_low:.4f} – {e.ci_high:.4f}) on fresh games; "
              f"{e.fitted_value:.4f} on the games the mixtures were solved on")
    for side in (a, b):
        mix = ", ".join(f"{k} {w:.2f}" for k, w in e.mixture[side].items() if w > 1e-9)
        con.print(f"  {side}: {mix}; exploitability {100 * e.exploitability[side]:+.1f} points "
                  f"(best response {e.best_response[side]})")
    ok = all(v <= epsilon for v in e.exploitability.values())
    within = "within" if ok else "[yellow]not within[/yellow]"
    con.print(f"  {within} ε = {epsilon:g} ({100 * epsilon:g} points) of an equilibrium of these tiers")
    for n in e.notes:
        con.print(f"  note: {n}")
    if out is not None and not err:
        con.print(f"matrix and manifest written to [bold]{out}[/bold]")
    finish(err)


def _grow(game, tree, rows, cols, sides, extra, settings, *, games, seed, epsilon, rounds, budget, family, threads,
          as_json, out, dask=None):
    """``sim equilibrium GAME --grow`` (sim.analysis.grow)."""
    import sys

    from sim.analysis.grow import grow
    from sim.core.output import manifest
    from sim.errors import SimInputError

    fams: dict = {}
    for f in family:
        side, eq, names = f.partition("=")
        if not eq or side.strip() not in sides or not names.strip():
            raise SimInputError(f"--family {f!r}: expected SIDE=NAME,… with SIDE {sides[0]} or {sides[1]}")
        fams.setdefault(side.strip(), []).extend(n.strip() for n in names.split(",") if n.strip())

    def log(h):
        if not as_json:
            added = ", ".join(f"{s} adds {t}" for s, t in h["added"].items()) or "nothing added"
            print(f"round {h['round']}: population {h['population'][0]} × {h['population'][1]}, fitted value "
                  f"{h['fitted_value']:.4f}; " + "; ".join(f"{s} best response {r['best_response']} gains "
                                                          f"{r['gain_points']:+.1f} points"
                                                          for s, r in h["responses"].items()) + f"; {added}",
                  file=sys.stderr)

    cm = _client(dask)  # a bad address fails before the output folder is claimed
    od = claim_out(out)
    with guard(od), cm as client:  # --dask: each step's games batches on the workers
        g = grow(game, tree, rows, cols, games=games, seed=seed, epsilon=epsilon, rounds=rounds, budget=budget,
                 families=fams, threads=threads, log=log, client=client)
        d = {"game": game.name, "metric": game.metric, "settings": settings, "games_per_cell": games, **g.to_json()}
        import polars as pl

        err = save_tables(od, {"rounds": pl.DataFrame([{"round": h["round"], "fitted_value": h["fitted_value"],
                                                         "added": json.dumps(h["added"])} for h in g.rounds])},
                          manifest(game.name, tree, seed, {"command": "sim equilibrium --grow", **extra,
                                                           **{k: v for k, v in d.items() if k != "rounds"}}))
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    a, b = g.sides
    con.print(f"settings: {settings}", soft_wrap=True, highlight=False, markup=False)
    con.print(f"[bold]{game.name}[/bold] grown equilibrium of {game.metric} ({a} maximises, {b} minimises): "
              f"{len(g.rounds)} rounds, population {len(g.rows)} × {len(g.cols)}, {g.games:,} games in all")
    con.print(f"  value {g.value:.4f} (95% CI {g.ci_low:.4f} – {g.ci_high:.4f}) on fresh games")
    for side in (a, b):
        con.print(f"  {side}: " + ", ".join(f"{k} {w:.2f}" for k, w in g.mixture[side].items()), soft_wrap=True,
                  highlight=False)
    con.print("  certificate: each side's best response to the final mixture, on fresh games:")
    for side, r in g.certificate.items():
        con.print(f"    {side}: {r.tier.label} gains {100 * r.gain:+.1f} points (95% CI {100 * r.ci_low:+.1f} … "
                  f"{100 * r.ci_high:+.1f})", soft_wrap=True, highlight=False)
    ok = all(r.gain <= epsilon for r in g.certificate.values())
    sure = all(r.ci_high <= epsilon for r in g.certificate.values())
    con.print(f"  {'within' if ok else '[yellow]not within[/yellow]'} ε = {100 * epsilon:g} points of an equilibrium "
              f"of the families searched" + ("" if not ok else " (every upper bound too)" if sure else
                                             " (point estimates; an upper bound exceeds ε)"))
    for n in g.notes:
        con.print(f"  note: {n}")
    finish(err)


@clean_errors
def tune_cmd(
    ctx: typer.Context,
    game_name: str = typer.Argument(..., metavar="GAME", help="looper, werewolf, race, trpg, … (two strategy "
                                   "sides). " + GAME_OPTIONS_HELP),
    side: str = typer.Option(..., "--side", help="The side whose strategy is tuned."),
    strategy: Optional[str] = typer.Option(None, "--strategy", help="The family to tune (default: the side's "
                                           "first strategy with knobs)."),
    against: List[str] = typer.Option([], "--against", help="SIDE=SPEC for the fixed opponent(s) (default random); "
                                      "SPEC as for --SIDE of run: NAME, NAME@KNOB=VALUE or FILE.toml."),
    budget: int = typer.Option(60, "--budget", help="Evaluations of the search."),
    games: int = typer.Option(5_000, "--games", "-n", help="Games per evaluation (promising points get 4x)."),
    final_games: Optional[int] = typer.Option(None, "--final-games", help="Fresh games for the winner and the "
                                              "baseline (default 4x --games)."),
    seed: int = _COMMON["seed"], config: Optional[Path] = _COMMON["config"], sets: List[str] = _COMMON["sets"],
    threads: Optional[int] = _COMMON["threads"], as_json: bool = _COMMON["as_json"],
    out: Optional[Path] = typer.Option(None, "--out", help="Write the search trace (parquet), manifest and the "
                                       "tuned strategy file _strategy.toml here."),
):
    """Best response: the knob values of SIDE's strategy that serve it best against a fixed
    opponent (optuna TPE on common random numbers; the winner re-measured on fresh games)."""
    from rich.console import Console

    from sim.analysis.tune import tune
    from sim.core.game import get
    from sim.core.knobs import knobs_of, parse_spec, spec_sets, spec_toml
    from sim.core.output import manifest
    from sim.core.validate import check_run_counts
    from sim.errors import SimInputError, did_you_mean

    check_run_counts(games, threads, 1)
    if final_games is not None:
        check_run_counts(final_games, threads, 1, games_option="--final-games")
    from sim.analysis.metagame import _cell

    game = get(game_name)
    opts = game_options(game, list(ctx.args))
    setup = game.compile(game.build(config, sets, **opts))
    sides = game.sides_of(setup)
    if side not in sides:
        raise SimInputError(f"--side {side!r}: {game.name}'s sides are {', '.join(sides) or 'none'}"
                            + did_you_mean(side, sides))
    if strategy is None:
        strategy = next((n for n in game.registries_of(setup)[side].names() if knobs_of(game.strategy(side, n))),
                        None)
        if strategy is None:
            raise SimInputError(f"{game.name}: no {side} strategy declares knobs to tune")
    elif not knobs_of(game.strategy(side, strategy)):
        tunable = [n for n in game.registries_of(setup)[side].names() if knobs_of(game.strategy(side, n))]
        raise SimInputError(f"{side} strategy {strategy!r} has no knobs to tune"
                            f"{'; tunable: ' + ', '.join(tunable) if tunable else ''}")
    fixed = {}
    for a in against:
        s, eq, spec = a.partition("=")
        if not eq or s.strip() not in sides or s.strip() == side:
            raise SimInputError(f"--against {a!r}: expected SIDE=SPEC with SIDE one of "
                                f"{', '.join(x for x in sides if x != side)}")
        fixed[s.strip()] = parse_spec(game, s.strip(), spec)
    for s in sides:
        if s != side and s not in fixed:
            fixed[s] = parse_spec(game, s, game.default_strategy)
    # the opponents' knobs go into the tree; the tuned side's are set per point
    tree = game.build(config, [*[x for sp in fixed.values() for x in spec_sets(game, sp)], *sets], **opts)
    _cell(game, tree, *fixed.values())  # the tree with the opponents' strategies: a bad one fails now
    from sim.core.settings import settings_text

    settings = settings_text({s: sp.label for s, sp in fixed.items()}, game.manifest_extra(setup, opts) if opts else {},
                             config, sets, seed)
    od = claim_out(out, "tables")
    with guard(od):
        p, tick = _progress(budget, f"tune {side} {strategy}")
        with p:
            res = tune(game, tree, side, strategy, fixed, budget=budget, games=games, final_games=final_games,
                       seed=seed, threads=threads, progress=tick)
        d = {**res.to_json(), "settings": settings}
        err = None
        if od is not None:
            from sim.core.output import write_tables

            try:
                write_tables(od, {"tune": res.trace}, manifest(game.name, tree, seed, {
                    "command": "sim tune", "settings": settings, **(game.manifest_extra(setup, opts) if opts else {}), **{k: d[k] for k in ("side", "strategy", "against", "params", "tuned_rate",
                                                                "ci_low", "ci_high", "baseline_rate", "games")}}),
                             extra={"_strategy.toml": spec_toml(res.spec)})
            except Exception as e:  # noqa: BLE001 - SimOutputError: the result is printed anyway
                err = str(e)
    if as_json:
        emit_json(d)
        return finish(err)
    con = out_console()
    con.print(f"settings: {settings} (the opponents; {side} is tuned)", soft_wrap=True, highlight=False, markup=False)
    con.print(f"[bold]{game.name}[/bold] tune {side} [bold]{strategy}[/bold] against "
              f"{', '.join(f'{k}={v}' for k, v in d['against'].items())} "
              f"({'maximising' if res.maximise else 'minimising'} {game.metric})")
    con.print(f"  baseline {res.baseline_rate:.4f} (95% CI {res.baseline_ci_low:.4f} – {res.baseline_ci_high:.4f}) "
              f"with {', '.join(f'{k}={v}' for k, v in res.baseline.items())}")
    con.print(f"  tuned    {res.tuned_rate:.4f} (95% CI {res.ci_low:.4f} – {res.ci_high:.4f}) with "
              f"[bold]{', '.join(f'{k}={v}' for k, v in res.params.items())}[/bold]")
    con.print(f"  both on the same {res.final_games:,} fresh games; {res.games:,} games in {res.evaluations} "
              f"evaluations in all")
    if out is not None and not err:
        con.print(f"trace, manifest and strategy file written to [bold]{out}[/bold] "
                  + (f"(use it as --{side} {out / '_strategy.toml'})" if side in game.sides else
                     f"(use it as --tiers {side}={out / '_strategy.toml'} or --against {side}=…)"))
    finish(err)
