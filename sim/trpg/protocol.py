"""The 3d6 TRPG combat as a :class:`sim.core.game.Game`.

Strategies are per character and live in the scenario (``characters.<id>.strategy``), so
the game has no command-line strategy slots; its primary rate is the first side's win
rate (``scenario.sides[0]``)."""
from __future__ import annotations

from pathlib import Path

from sim.core.config import deep_merge
from sim.core.game import Game, Option, user_config
from sim.errors import SimInputError

SCENARIO_HELP = "Scenario: a TOML file (sides, characters, weapons, rules) or a shipped scenario's name."


class Trpg(Game):
    name = "trpg"
    title = "The 3d6 kaii TRPG (docs/rules/trpg.md)."
    sides = ()
    metric = "win_rate"
    options = (Option("scenario", str, ..., (), SCENARIO_HELP),)
    base_keys = frozenset({"config", "set", "scenario"})

    def registries(self):
        return {}

    def build(self, config=None, sets=(), scenario=None):
        from sim.trpg.sheets import build_config

        if scenario is None:
            raise SimInputError("trpg: name a scenario")
        tree = build_config(scenario_path(scenario))
        if config is not None:
            from sim.core.config import load_toml

            tree = deep_merge(tree, load_toml(config) if isinstance(config, (str, Path)) else config)
        return build_config(tree, sets)

    def compile(self, tree):
        from sim.trpg.sheets import compile_scenario
        from strategies.trpg import load_plugin

        sc = compile_scenario(tree)
        for k, v in (sc.plugins or {}).items():
            if v:
                load_plugin(v, k)  # an unknown plug-in fails here, before any work
        return sc

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim.trpg.game import run

        return run(games, seed, scenario=setup, **kw)

    def primary(self, totals):
        from sim.trpg.combat_nb import C_GAMES

        return int(totals["wins"][0]), int(totals["scalars"][C_GAMES])

    def summary_tables(self, result):
        from sim.trpg.game import summary_tables

        return summary_tables(result)

    def print_run(self, result, console):
        from sim.trpg.text import print_run

        print_run(result, console)

    def leave_one_out(self, setup, strategies, games, seed, *, threads=None):
        from sim.trpg.loo import leave_one_out

        return leave_one_out(games, seed, scenario=setup, threads=threads)

    def print_loo(self, df, setup, strategies, games, console):
        from sim.trpg.text import print_loo

        print_loo(df, setup, games, console)

    def base_tree(self, base, spec_dir: Path):
        from sim.trpg.sheets import build_config

        sc = base.get("scenario")
        if not isinstance(sc, str):
            raise SimInputError("base.scenario: name the scenario file, e.g. scenario = \"squad.toml\"")
        path = Path(sc) if Path(sc).is_absolute() else spec_dir / sc
        tree = build_config(path if path.is_file() else scenario_path(sc))
        extra = user_config(base, spec_dir)
        return deep_merge(tree, extra) if extra else tree


def scenario_path(name: str | Path) -> Path:
    """A scenario file, or a shipped scenario by name (``alley``, ``alley.toml``)."""
    p = Path(name)
    if p.is_file() or p.is_dir():
        return p
    shipped = Path(__file__).parent / "data" / "scenarios"
    for cand in (shipped / p.name, shipped / f"{p.name}.toml"):
        if cand.is_file():
            return cand
    return p


GAME = Trpg()
