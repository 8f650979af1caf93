"""TRPG in sweeps: any sheet, weapon, ability, rule or strategy path
(``characters.p1.skills.melee``, ``weapons.pistol.dice``, ``characters.g1.strategy.target``).
The primary rate is the first side's win rate (``scenario.sides[0]``)."""
from __future__ import annotations

from pathlib import Path

from sim.errors import SimInputError
from sim.sweep.adapter import GameAdapter, user_config
from sim.core.config import deep_merge
from sim.trpg.combat_nb import C_GAMES
from sim.trpg.sheets import SCENARIO_SCHEMA, build_config, compile_scenario, scenario_path


class TrpgAdapter(GameAdapter):
    game = "trpg"
    metric = "win_rate"
    base_keys = frozenset({"config", "set", "scenario"})
    schema = SCENARIO_SCHEMA

    def base_tree(self, base: dict, spec_dir: Path) -> dict:
        sc = base.get("scenario")
        if not isinstance(sc, str):
            raise SimInputError("base.scenario: name the scenario file, e.g. scenario = \"squad.toml\"")
        path = scenario_path(sc, spec_dir)  # a file beside the spec, or a shipped scenario by name
        tree = build_config(path)
        extra = user_config(base, spec_dir, self.schema)
        return deep_merge(tree, extra) if extra else tree

    def compile(self, cell):
        from strategies.trpg import load_plugin

        sc = compile_scenario(cell["tree"])
        for k, v in (sc.plugins or {}).items():
            if v:
                load_plugin(v, k)  # an unknown plug-in fails here, before any work
        return sc

    def player(self, compiled, seed, spawn):
        from sim.trpg.game import run

        def play(start, games, **kw):
            return run(games, seed, scenario=compiled, spawn=spawn, start=start, tables=False, **kw)
        return play

    def primary(self, totals):
        return int(totals["wins"][0]), int(totals["scalars"][C_GAMES])

    def summary_tables(self, r):
        from sim.trpg.game import summary_tables

        return summary_tables(r)
