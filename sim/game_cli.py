"""``sim <game> run | loo | strategies``, written once against :class:`sim.core.game.Game`.

Each command's options are the common ones (games, seed, config, --set, out, json,
threads), one option per strategy slot of the game (``--village``, ``--player``, …) and
the game's own :class:`~sim.core.game.Option` list (``--roles``, a scenario argument).
A game adds commands of its own with :meth:`Game.commands`.
"""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Callable, List, Optional

import typer

from sim.core.cliutil import claim_out, clean_errors, emit_json, finish, guard, save_tables
from sim.core.console import out_console
from sim.core.game import Game
from sim.core.knobs import parse_spec, spec_sets
from sim.core.target import parse_target
from sim.core.units import rows_with_points, with_points
from sim.core.trace import matches, parse_find, print_trace, trace_lines
from sim.core.views import oracle_label, oracles
from sim.errors import SimInputError
from sim.core.output import manifest
from sim.core.progress import want_progress
from sim.core.runner import DEFAULT_CHUNK
from sim.core.validate import MAX_GAMES, check_run_counts

P = inspect.Parameter


def _param(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return P(name, P.KEYWORD_ONLY, default=default, annotation=annotation)


def _game_params(game: Game) -> list[inspect.Parameter]:
    out = []
    for o in game.options:
        ann = Optional[o.type] if o.default is None else o.type
        if o.flags:
            out.append(_param(o.name, ann, typer.Option(o.default, *o.flags, help=o.help)))
        else:
            out.append(_param(o.name, ann, typer.Argument(o.default, help=o.help)))
    return out


def _side_params(game: Game) -> list[inspect.Parameter]:
    out = []
    for side in game.sides:
        names = " | ".join(game.registries()[side].names())
        out.append(_param(f"side_{side}", str, typer.Option(
            "random", f"--{side}", help=f"{names} | module:object; knobs as NAME@KNOB=VALUE; or a strategy "
                                        f"file FILE.toml ([{side}] strategy = …, knobs), e.g. from sim tune")))
    return out


def _common(games_default: int, games_help: str, chunk: bool = True) -> list[inspect.Parameter]:
    ps = [
        _param("games", int, typer.Option(games_default, "--games", "-n", help=games_help)),
        _param("seed", int, typer.Option(0, "--seed", help="Root seed (same seed → same results).")),
        _param("config", List[Path], typer.Option([], "--config", metavar="FILE",
                                                  help="A TOML file merged over the data; repeatable: merged in "
                                                       "order, a later file wins.")),
        _param("sets", List[str], typer.Option([], "--set", help="PATH=VALUE override, repeatable.")),
        _param("out", Optional[Path], typer.Option(None, "--out", help="Write parquet tables + manifest here.")),
        _param("as_json", bool, typer.Option(False, "--json", help="Print a JSON summary on stdout.")),
        _param("threads", Optional[int], typer.Option(None, "--threads", help="Worker threads (default: all cores).")),
    ]
    if chunk:
        ps.append(_param("chunk_size", int, typer.Option(DEFAULT_CHUNK, "--chunk-size", help="Games per chunk.")))
        ps.append(_param("first_mover", bool, typer.Option(
            False, "--first-mover", help="Also play the same games with the other side moving first (where the "
                                         "rules say who does: TRPG scenario.first, Werewolf variants.start) and "
                                         "report the first-mover advantage with its paired 95% CI.")))
        ps.append(_param("first_game", int, typer.Option(
            0, "--first-game", help="Play games K … K+GAMES−1 of the run with this seed (each game has its own "
                                    "stream, so this is that slice of a longer run).")))
    return ps


def _command(fn: Callable, params: list[inspect.Parameter], doc: str) -> Callable:
    """``fn(**kw)`` with the signature typer reads the options from."""

    def cmd(**kw):
        return fn(**kw)

    cmd.__signature__ = inspect.Signature(params)
    cmd.__doc__ = doc
    cmd.__name__ = fn.__name__
    return clean_errors(cmd)


TARGET_HELP = ("The designer's target for the first side's win rate: LOW:HIGH (e.g. 0.45:0.55) or one rate "
               "(0.5 means 0.48:0.52); the output ends with a verdict against it. No target, no verdict.")


def _target_param() -> inspect.Parameter:
    return _param("target", Optional[str], typer.Option(None, "--target", help=TARGET_HELP))


def _under(labels: dict) -> str:
    """The strategies a verdict holds under (``village claims vs wolves random``)."""
    return " vs ".join(f"{s} {v}" for s, v in labels.items())


def _run_verdict(game: Game, setup, res, target, labels) -> dict:
    from sim.core.stats import wilson
    from sim.core.target import verdict

    k, n = game.primary(res.totals)
    lo, hi = wilson(k, n)
    return verdict(target, k / n, lo, hi, game.sides_of(setup), _under(labels))


def _loo_verdict(game: Game, setup, df, target, labels) -> dict:
    """The full table's verdict and the rows (seats removed) that land in the band alone."""
    sides = game.sides_of(setup)
    pre = "" if "ci_low" in df.columns else f"{sides[0]}_"
    rate = next(c for c in (game.metric, f"{sides[0]}_win_rate" if sides else "") if c in df.columns)
    return _rows_verdict(game, setup, df.to_dicts(), target, labels, df.columns[0], rate, f"{pre}ci_low",
                         f"{pre}ci_high")


def _rows_verdict(game: Game, setup, rows: list, target, labels, key: str, rate: str = "rate",
                  low: str = "ci_low", high: str = "ci_high") -> dict:
    """The verdict of the first row (the table as given) and the other rows that land in the
    band on their own (``into_band``, each named by its ``key``)."""
    from sim.core.target import into_band, verdict

    base = rows[0]
    ver = verdict(target, base[rate], base[low], base[high], game.sides_of(setup), _under(labels))
    moves = into_band(target, rows[1:], key, rate, low, high)
    return {"target": target.to_json(), "verdict": ver, "into_band": [{"change": m.pop(key), **m} for m in moves]}


def _settings(game: Game, setup, labels: dict, c: dict, opts: dict) -> str:
    """The settings line of a command's output (:func:`sim.core.settings.settings_line`)."""
    from sim.core.settings import settings_line

    return settings_line(game, setup, labels, c["config_files"], c["sets"], opts, c["seed"])


def _print_verdict(con, tv: dict, what: str) -> None:
    """The verdict, last: the table against the target, then what alone brings it into the band."""
    from sim.core.target import into_band_text

    if tv.get("verdict"):
        con.print(f"[bold]verdict[/bold]: {tv['verdict']['text']}", soft_wrap=True)
        con.print("  " + into_band_text(tv["into_band"], "change", what), soft_wrap=True)


def check_first_game(first: int, games: int) -> None:
    """``--first-game``: non-negative, and the games it asks for exist."""
    if first < 0:
        raise SimInputError(f"--first-game must be >= 0, got {first}")
    if first + games > MAX_GAMES:
        raise SimInputError(f"--first-game {first:,} + --games {games:,}: games past {MAX_GAMES:,} do not exist")


def _split(game: Game, kw: dict) -> tuple[dict, dict, dict]:
    """(build options, strategy names per side, common options)."""
    opts = {o.name: kw.pop(o.name) for o in game.options}
    sides = {s: kw.pop(f"side_{s}") for s in game.sides if f"side_{s}" in kw}
    if "config" in kw:
        kw["config_files"] = list(kw["config"] or [])
        kw["config"] = merged_config(game, kw["config_files"])
    return opts, sides, kw


def merged_config(game: Game, files: list[Path]):
    """``--config`` given 0, 1 or more times: None, the file itself, or the files merged in
    order (a later file wins; each checked against the game's keys under its own name). An
    empty file is a warning: it changes nothing, which is rarely what was meant."""
    from sim.core.config import deep_merge, load_toml
    from sim.core.schema import check_keys

    merged: dict = {}
    for f in files:
        data = load_toml(f)
        if not data:
            typer.echo(f"warning: {f} is empty (no keys): it changes nothing", err=True)
        if game.schema is not None:
            check_keys(data, game.schema, str(f))
        merged = deep_merge(merged, data)
    if len(files) <= 1:
        return files[0] if files else None
    return merged


def _strategies(game: Game, sides: dict, sets: list) -> tuple[dict, list, dict]:
    """Each side's spec (``NAME``, ``NAME@KNOB=VALUE``, ``FILE.toml``) → (strategies, the
    ``--set`` list with the knob values first, each side's label)."""
    specs = {s: parse_spec(game, s, t) for s, t in sides.items() if t is not None}  # "" is an error
    knob_sets = [x for sp in specs.values() for x in spec_sets(game, sp)]
    strategies = game.strategies({s: sp.name for s, sp in specs.items()})
    labels = {s: getattr(v, "name", str(v)) for s, v in strategies.items()}
    labels.update({s: sp.label for s, sp in specs.items()})
    return strategies, [*knob_sets, *sets], labels


def run_command(game: Game) -> Callable:
    """``sim GAME run`` for one game."""
    def run(**kw):
        opts, sides, c = _split(game, kw)
        target = parse_target(c.pop("target"))
        check_run_counts(c["games"], c["threads"], c["chunk_size"])
        check_first_game(c["first_game"], c["games"])
        strategies, sets, labels = _strategies(game, sides, c["sets"])  # bad names fail before any game
        setup = game.setup(c["config"], sets, **opts)
        fm = game.first_mover(setup) if c["first_mover"] else None
        if c["first_mover"] and fm is None:
            raise SimInputError(f"--first-mover: {game.name}'s rules say nothing of who moves first")
        od = claim_out(c["out"])
        with guard(od):
            rec = None
            if fm is not None:
                from sim.analysis.restrict import PairedBlocks

                rec = PairedBlocks(game.primary, c["games"])
            res = game.run(setup, strategies, c["games"], c["seed"], threads=c["threads"], start=c["first_game"],
                           progress=want_progress(c["games"], c["as_json"]),
                           **(rec.kw("as played") if rec else {"chunk_size": c["chunk_size"]}))
            if fm is not None:
                res.tables = {**res.tables, "first_mover": _first_mover(game, fm, strategies, c, rec, res)}
            ver = _run_verdict(game, setup, res, target, labels) if target else None
            tv = {"target": target.to_json(), "verdict": ver} if target else {}
            settings = _settings(game, setup, labels, c, opts)
            err = save_tables(od, res.tables, manifest(game.name, game.config_of(setup), c["seed"], {
                "games": c["games"], "first_game": c["first_game"], "command": f"sim {game.name} run",
                "settings": settings, "config_files": [str(f) for f in c["config_files"]], "sets": c["sets"],
                "tables": sorted(res.tables), **_names(strategies, labels), **game.manifest_extra(setup, opts), **tv}))
        if c["as_json"]:
            fmj = {"first_mover": with_points(res.tables["first_mover"].row(0, named=True))} if fm is not None else {}
            emit_json({**game.to_json(res), "settings": settings, **_oracle_json(strategies), **fmj, **tv})
            return finish(err)
        con = out_console()
        _print_oracles(con, strategies)
        con.print(f"settings: {settings}", soft_wrap=True, highlight=False, markup=False)
        game.print_run(res, con)
        if fm is not None:
            r = res.tables["first_mover"].row(0, named=True)
            con.print(f"first mover ({r['rule']}): {game.label()} {r['rate']:.4f} with {r['as_played']}, "
                      f"{r['swapped_rate']:.4f} with {r['swapped']} on the same games: moving first as played "
                      f"changes it by {100 * r['advantage']:+.1f} points (paired 95% CI "
                      f"{100 * r['advantage_ci_low']:+.1f} … {100 * r['advantage_ci_high']:+.1f})")
        if c["out"] is not None and not err:
            con.print(f"parquet tables and manifest written to [bold]{c['out']}[/bold]")
        if ver:
            con.print(f"[bold]verdict[/bold]: {ver['text']}", soft_wrap=True)
        finish(err)

    return _command(run, [*_game_params(game), *_common(game.default_games, "Games to play."), *_side_params(game),
                          _target_param()],
                    f"Play GAMES games of {game.name}: the {game.metric.replace('_', ' ')} with its 95% CI and "
                    f"the game's tables.")


def _print_restricted(con, df, game: Game, games: int) -> None:
    from rich.table import Table

    t = Table(title=f"{game.name}: restricted play, {games:,} games per row, paired with the full game "
                    f"({game.label()})")
    for col in ("withheld", "rate (95% CI)", "change, points (paired 95% CI)", "value to its side, points",
                "competence"):
        t.add_column(col, justify="left" if col in ("withheld", "competence") else "right")
    for r in df.iter_rows(named=True):
        if r["restricted"] == "(none)":
            t.add_row("nothing (the full game)", f"{r['rate']:.4f} ({r['ci_low']:.4f}–{r['ci_high']:.4f})", "", "",
                      "")
            continue
        said = ("[red]not competent: the strategy would do better without it[/red]"
                if r["competence"] == "not competent" else r["competence"])
        t.add_row(r["withheld"], f"{r['rate']:.4f} ({r['ci_low']:.4f}–{r['ci_high']:.4f})",
                  f"{100 * r['delta']:+.1f} ({100 * r['delta_ci_low']:+.1f} … {100 * r['delta_ci_high']:+.1f})",
                  f"{100 * r['value_to_side']:+.1f} for {r['side']} ({100 * r['value_ci_low']:+.1f} … "
                  f"{100 * r['value_ci_high']:+.1f})", said)
    con.print(t)


def loo_command(game: Game) -> Callable:
    """``sim GAME loo`` for one game."""
    def loo(**kw):
        opts, sides, c = _split(game, kw)
        target = parse_target(c.pop("target"))
        restrict, only = c.pop("restrict", False), [x for a in c.pop("ability", []) for x in a.split(",") if x]
        check_run_counts(c["games"], c["threads"], DEFAULT_CHUNK)
        strategies, sets, labels = _strategies(game, sides, c["sets"])
        setup = game.setup(c["config"], sets, **opts)
        names = _names(strategies, labels)
        settings = {"settings": _settings(game, setup, labels, c, opts)}
        if only and not restrict:
            raise SimInputError("--ability is for --restrict (restricted play)")
        if not restrict and not game.has_loo:
            raise SimInputError(f"{game.name}: nothing can be left out of this game; --restrict withholds its "
                                f"optional abilities instead")
        if restrict:
            from sim.analysis.restrict import restricted_play

            if not game.abilities(setup, strategies):
                raise SimInputError(f"{game.name}: this setup has no optional ability to withhold")
            od = claim_out(c["out"])
            with guard(od):
                df = restricted_play(game, setup, strategies, c["games"], c["seed"], only=only or None,
                                     threads=c["threads"])
                tv = {**_rows_verdict(game, setup, df.to_dicts(), target, labels, "withheld"), **settings} if target \
                    else settings
                err = save_tables(od, {"restricted_play": df}, manifest(game.name, game.config_of(setup), c["seed"], {
                    "games_per_row": c["games"], "command": f"sim {game.name} loo --restrict", **names,
                    **game.manifest_extra(setup, opts), **tv}))
            if c["as_json"]:
                emit_json({"games_per_row": c["games"], **names, "metric": game.metric,
                           "rows": rows_with_points(df.to_dicts()), **tv})
                return finish(err)
            con = out_console()
            _print_oracles(con, strategies)
            con.print(f"settings: {settings['settings']}", soft_wrap=True, highlight=False, markup=False)
            _print_restricted(con, df, game, c["games"])
            if c["out"] is not None and not err:
                con.print(f"parquet table and manifest written to [bold]{c['out']}[/bold]")
            _print_verdict(con, tv, "abilities withheld")
            return finish(err)
        od = claim_out(c["out"])
        with guard(od):
            df = game.leave_one_out(setup, strategies, c["games"], c["seed"], threads=c["threads"])
            tv = {**_loo_verdict(game, setup, df, target, labels), **settings} if target else settings
            err = save_tables(od, {"leave_one_out": df}, manifest(game.name, game.config_of(setup), c["seed"], {
                "games_per_row": c["games"], "command": f"sim {game.name} loo", **names, **game.manifest_extra(setup, opts),
                **game.loo_manifest(setup), **tv}))
        if c["as_json"]:
            emit_json({"games_per_row": c["games"], **names, **game.loo_manifest(setup),
                       "rows": rows_with_points(df.to_dicts()), **tv})
            return finish(err)
        con = out_console()
        _print_oracles(con, strategies)
        con.print(f"settings: {settings['settings']}", soft_wrap=True, highlight=False, markup=False)
        game.print_loo(df, setup, strategies, c["games"], con)
        if c["out"] is not None and not err:
            con.print(f"parquet table and manifest written to [bold]{c['out']}[/bold]")
        _print_verdict(con, tv, "seats removed")
        finish(err)

    restrict = [_param("restrict", bool, typer.Option(False, "--restrict", help="Restricted play: withhold each "
                                                      "optional ability in turn (the holder keeps its seat and "
                                                      "team) instead of removing a part; paired deltas with CIs.")),
                _param("ability", List[str], typer.Option([], "--ability", help="With --restrict: only these "
                                                           "abilities (repeatable or comma-separated)."))]
    return _command(loo, [*_game_params(game), *_common(game.default_loo_games, "Games per row.", chunk=False),
                          *_side_params(game), *restrict, _target_param()],
                    f"Leave one out: the {game.metric.replace('_', ' ')} with each removable part of the "
                    f"setup removed in turn, the same seed for every row (common random numbers).")


def _names(strategies, labels=None) -> dict:
    """The strategy of each side by name (with its knobs), and (when any) which are oracles."""
    return {**{s: getattr(v, "name", str(v)) for s, v in strategies.items()}, **(labels or {}),
            **_oracle_json(strategies)}


def _oracle_json(strategies) -> dict:
    o = oracles(strategies)
    return {"oracles": o} if o else {}


def _print_oracles(con, strategies) -> None:
    label = oracle_label(strategies)
    if label:
        con.print(f"[bold red]{label}[/bold red]")


def _first_mover(game: Game, fm, strategies, c, rec, res):
    """The first-mover table: the rate as played and with the first mover swapped, paired."""
    import polars as pl

    rule, as_played, swapped, other = fm
    game.run(other, strategies, c["games"], c["seed"], threads=c["threads"], start=c["first_game"],
             tables=False, **rec.kw("swapped"))
    s0, _ = rec.totals("as played")
    s1, _ = rec.totals("swapped")
    d, lo, hi = rec.delta("swapped", "as played")
    return pl.DataFrame([{"rule": rule, "as_played": as_played, "swapped": swapped, "games": c["games"],
                          "rate": s0 / c["games"], "swapped_rate": s1 / c["games"], "advantage": d,
                          "advantage_ci_low": lo, "advantage_ci_high": hi}])


def trace_command(game: Game) -> Callable:
    """``sim GAME trace`` for one game."""
    def trace(**kw):
        opts, sides, c = _split(game, kw)
        if not 0 <= c["game"] < MAX_GAMES:
            raise SimInputError(f"--game must be 0 … {MAX_GAMES - 1:,}, got {c['game']:,}")
        if not 1 <= c["search"] <= MAX_GAMES or c["game"] + c["search"] > MAX_GAMES:
            raise SimInputError(f"--search must be 1 … {MAX_GAMES:,} games (from --game on)")
        conds = parse_find(c["find"], game.find_keys) if c["find"] is not None else None
        strategies, sets, labels = _strategies(game, sides, c["sets"])
        setup = game.setup(c["config"], sets, **opts)
        k = c["game"]
        if conds is not None:
            for k in range(c["game"], c["game"] + c["search"]):
                if matches(game.trace(setup, strategies, c["seed"], k, events=False).result, conds):
                    break
            else:
                raise SimInputError(f"--find {c['find']}: no game of {c['game']:,} … "
                                    f"{c['game'] + c['search'] - 1:,} (seed {c['seed']}) matches; "
                                    f"try a larger --search")
        tr = game.trace(setup, strategies, c["seed"], k)
        if c["as_json"]:
            import json
            for line in trace_lines(tr, c["seed"]):
                typer.echo(json.dumps(line))
            return
        con = out_console(highlight=False)
        who = ", ".join(f"{s}={v}" for s, v in labels.items()) or "each character's strategy as the setup sets it"
        _print_oracles(con, strategies)
        found = f" (first match of --find {c['find']})" if conds is not None else ""
        print_trace(tr, con, f"[bold]sim {game.name} trace[/bold] — game {k:,} of seed {c['seed']}{found}; {who}",
                    verbose=c["verbose"])

    common = [p for p in _common(1, "") if p.name in ("seed", "config", "sets", "as_json")]
    return _command(trace, [*_game_params(game), *common,
                            _param("game", int, typer.Option(0, "--game", help="Which game of the run (0-based).")),
                            _param("find", Optional[str], typer.Option(
                                None, "--find", help="Trace the first game from --game on whose result matches, "
                                                     f"e.g. winner=…; keys: {', '.join(game.find_keys)}.")),
                            _param("search", int, typer.Option(100_000, "--search",
                                                               help="How many games --find looks at.")),
                            _param("verbose", bool, typer.Option(
                                False, "--verbose", help="Every event, also those a summary line stands for "
                                                         "(a Looper day's stress changes, shown as its board).")),
                            *_side_params(game)],
                    f"Replay one game of {game.name} event by event, each with the rule that caused it and, "
                    f"under a decision, the reason its strategy gives (why): the very game that "
                    f"`run --first-game K --games 1` plays.")


def strategies_command(game: Game) -> Callable:
    """``sim GAME strategies`` for one game."""
    def strategies():
        """List the registered strategies of each side."""
        for side, reg in game.registries().items():
            for name in reg.names():
                doc = getattr(reg.get(name), "doc", "")
                typer.echo(f"{side:13s} {name:12s} {doc}")

    strategies.__doc__ = f"List the registered strategies of each side of {game.name}."
    return strategies


def params_command(game: Game) -> Callable:
    """``sim GAME params`` for one game."""
    def params(**kw):
        opts, _, c = _split(game, kw)
        tree = game.build(c["config"], c["sets"], **opts)
        game.compile(tree)  # a bad tree fails here
        rows = game.parameters(tree)
        if c["as_json"]:
            emit_json(rows)
            return
        for path, value in rows.items():
            typer.echo(f"{path} = {value!r}")

    common = [p for p in _common(1, "") if p.name in ("config", "sets", "as_json")]
    return _command(params, [*_game_params(game), *common],
                    f"List every parameter of {game.name} a sweep, balance or --set can change, with its value.")


def has_values(game: Game) -> bool:
    """Whether ``sim GAME values`` has anything to value (sim.analysis.values_cli adds it)."""
    return type(game).changes is not Game.changes or type(game).abilities is not Game.abilities


def game_app(game: Game) -> typer.Typer:
    """The ``sim GAME …`` command group of one game (``values`` is added by sim.cli, which
    imports both this module and sim.analysis.values_cli, so neither imports the other's user)."""
    app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                      rich_markup_mode=None, help=game.title)
    app.command("run")(run_command(game))
    if game.has_loo or type(game).abilities is not Game.abilities:
        app.command("loo")(loo_command(game))
    app.command("params")(params_command(game))
    if type(game).trace is not Game.trace:
        app.command("trace")(trace_command(game))
    if game.sides:
        app.command("strategies")(strategies_command(game))
    game.commands(app)
    return app


__all__ = ["game_app"]
