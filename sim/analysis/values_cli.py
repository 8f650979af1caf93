"""``sim GAME values``: role and ability values by substitution, as a points table, for one
strategy pair or side by side for several tiers (:mod:`sim.analysis.values`)."""
from __future__ import annotations

from typing import Callable, List

import typer

from sim.core.cliutil import claim_out, emit_json, finish, guard, save_tables
from sim.core.console import out_console
from sim.core.game import Game
from sim.core.output import manifest
from sim.core.validate import check_run_counts
from sim.errors import SimInputError

TIERS_HELP = ("SIDE=TIER,TIER,… (repeatable): value the table under several strategy tiers, side by side; "
              "the sides' lists pair up in order (a side given one tier, or none, plays it in every column), "
              "e.g. --tiers village=random,claims --tiers wolves=random,claims.")


def parse_tiers(game: Game, tiers: list[str], sides: dict, known: tuple[str, ...] | None = None) -> list[dict]:
    """The strategy pairs of ``--tiers``: one ``{side: spec}`` per column (``known``: the
    sides a tier may name, the game's by default; the TRPG's are its scenario's)."""
    known = tuple(game.sides) if known is None else known
    if not tiers:
        return [dict(sides)]
    given: dict[str, list[str]] = {}
    for t in tiers:
        side, eq, names = t.partition("=")
        side = side.strip()
        if not eq or side not in known or not names.strip():
            raise SimInputError(f"--tiers {t!r}: expected SIDE=TIER,TIER,… with SIDE one of "
                                f"{', '.join(known) or '(this game has no strategy sides)'}")
        if side in given:
            raise SimInputError(f"--tiers {t!r}: the tiers of {side} were given already; list them in one --tiers")
        given[side] = [n.strip() for n in names.split(",") if n.strip()]
    n = max(len(v) for v in given.values())
    for side, v in given.items():
        if len(v) not in (1, n):
            raise SimInputError(f"--tiers: {side} has {len(v)} tiers and another side {n}; the lists pair up in "
                                f"order, so give each side {n} tiers (or one, played in every column)")
    out = []
    for i in range(n):
        cols = dict(sides)
        for side, v in given.items():
            cols[side] = v[i] if len(v) == n else v[0]
        if cols in out:
            raise SimInputError(f"--tiers: column {i + 1} ({', '.join(f'{s}={x}' for s, x in cols.items())}) "
                                f"is listed twice")
        out.append(cols)
    return out


def values_command(game: Game) -> Callable:
    """``sim GAME values`` for one game."""
    from sim.core.target import parse_target
    from sim.game_cli import (_command, _common, _game_params, _names, _param, _print_oracles, _print_verdict,
                              _rows_verdict, _side_params, _split, _strategies, _target_param)
    from sim.core.settings import settings_line

    def values(**kw):
        from sim.analysis.values import print_values, select, values as measure

        opts, sides, c = _split(game, kw)
        tiers_arg, only = c.pop("tiers"), [x for a in c.pop("only") for x in a.split(",") if x]
        target = parse_target(c.pop("target"))
        check_run_counts(c["games"], c["threads"], 1)
        columns = []
        # a game whose sides are its setup's (the TRPG's scenario sides, playing profiles):
        # the tiers name those sides and their profiles
        base = game.setup(c["config"], c["sets"], **opts) if tiers_arg and not game.sides else None
        known = tuple(game.sides) or (tuple(game.sides_of(base)) if base is not None else ())
        for pair in parse_tiers(game, tiers_arg, sides, known):
            if base is None:
                strategies, sets, labels = _strategies(game, pair, c["sets"])  # bad names fail before any game
                setup = game.setup(c["config"], sets, **opts)
            else:
                setup, strategies = base, game.strategies(pair, base)
                labels = {s: getattr(v, "name", str(v)) for s, v in strategies.items()}
            if not game.changes(setup, strategies):
                raise SimInputError(f"{game.name}: this setup has no special role or ability to value")
            label = " vs ".join(f"{s} {labels[s]}" for s in known) or "as the setup sets it"
            columns.append((label, setup, strategies, labels))
        # --only names changes of any tier (claims exist only where a side speaks)
        every = {ch.name: ch for _, setup, strategies, _ in columns for ch in game.changes(setup, strategies)}
        select(list(every.values()), only)
        od = claim_out(c["out"])
        with guard(od):
            import polars as pl

            frames = [measure(game, setup, strategies, c["games"], c["seed"], tier=label, only=only or None,
                              threads=c["threads"]) for label, setup, strategies, _ in columns]
            df = pl.concat(frames)
            verdicts = [{"tier": label, **_rows_verdict(game, setup, f.to_dicts(), target, labels, "change")}
                        for (label, setup, _, labels), f in zip(columns, frames)] if target else []
            tv = {"target": target.to_json(), "verdicts": verdicts} if target else {}
            setup0, strat0, labels0 = columns[0][1], columns[0][2], columns[0][3]
            settings = settings_line(game, setup0, labels0 if len(columns) == 1 else {}, c["config_files"], c["sets"],
                                     opts, c["seed"])
            err = save_tables(od, {"values": df}, manifest(game.name, game.config_of(setup0), c["seed"], {
                "games_per_row": c["games"], "command": f"sim {game.name} values", "settings": settings,
                "tiers": [t[0] for t in columns], **_names(strat0, labels0), **game.manifest_extra(setup0, opts),
                **tv}))
        if c["as_json"]:
            emit_json({"games_per_row": c["games"], "seed": c["seed"], "metric": game.metric, "settings": settings,
                       "tiers": [t[0] for t in columns], "rows": df.to_dicts(), **tv})
            return finish(err)
        con = out_console()
        for _, _, strategies, _ in columns:
            _print_oracles(con, strategies)
        print_values(con, df, game, [t[0] for t in columns], c["games"], c["seed"], settings,
                     tuple(game.sides_of(setup0)))
        if c["out"] is not None and not err:
            con.print(f"parquet table and manifest written to [bold]{c['out']}[/bold]")
        for v in verdicts:
            if len(verdicts) > 1:
                con.print(f"[bold]{v['tier']}[/bold]", highlight=False)
            _print_verdict(con, v, "changes")
        finish(err)

    tiers = _param("tiers", List[str], typer.Option([], "--tiers", help=TIERS_HELP))
    only = _param("only", List[str], typer.Option([], "--only", help="Only these changes (repeatable or "
                                                                    "comma-separated), e.g. fenrir,fenrir.drag."))
    return _command(values, [*_game_params(game), *_common(game.default_loo_games, "Games per row (and tier).",
                                                           chunk=False),
                             *_side_params(game), tiers, only, _target_param()],
                    f"Values of {game.name}'s special roles and abilities by substitution: each role replaced "
                    f"by its team's plain role, each ability at its neutral value, one at a time, on the same "
                    f"games (paired), in points with 95% CIs. `loo` is the other question: the seat removed.")


__all__ = ["values_command", "parse_tiers"]
