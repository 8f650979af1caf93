"""Looper in sweeps: any character's number, attributes or location (shorthands such as
``cat.threshold`` work), ``setup.key_person``, ``protagonist.*``, ``player``,
``scriptwriter``."""
from __future__ import annotations

from pathlib import Path

from sim.core.validate import bool_at
from sim.looper.game_nb import C_GAMES, C_WINS
from sim.looper.roster import CONFIG_SCHEMA, _expand_short_path, build_config, compile_roster
from sim.sweep.adapter import GameAdapter, user_config


class LooperAdapter(GameAdapter):
    game = "looper"
    metric = "player_win_rate"
    primary_columns = ("player_wins", "player_win_rate", "ci_low", "ci_high")
    strategy_keys = ("player", "scriptwriter")
    base_keys = frozenset({"config", "set", "expansion"})
    schema = CONFIG_SCHEMA

    def base_tree(self, base: dict, spec_dir: Path) -> dict:
        expansion = bool_at(base.get("expansion", False), "base.expansion")
        return build_config(user_config(base, spec_dir, self.schema), expansion=expansion)

    def expand_path(self, tree: dict, path: str) -> str:
        return _expand_short_path(tree, path)

    def compile(self, cell: dict):
        from strategies.looper import PLAYERS, SCRIPTWRITERS

        s = cell["strategies"]
        return compile_roster(cell["tree"]), PLAYERS.get(s["player"]), SCRIPTWRITERS.get(s["scriptwriter"])

    def player(self, compiled, seed, spawn):
        from sim.looper.game import run, writer_params

        roster, p, w = compiled
        # once per cell, not per batch; from the root seed alone, so the scriptwriter's setup
        # search has the same seed in every cell (its strength varies with that seed)
        params = writer_params(w, roster, seed)

        def play(start, games, **kw):
            return run(games, seed, player=p, scriptwriter=w, roster=roster, spawn=spawn, start=start,
                       params=params, tables=False, **kw)
        return play

    def primary(self, totals):
        sc = totals["scalars"]
        return int(sc[C_WINS]), int(sc[C_GAMES])

    def summary_tables(self, r):
        from sim.looper.game import summary_tables

        return summary_tables(r)
