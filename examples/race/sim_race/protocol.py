"""Race as a :class:`sim.core.game.Game`: the sides ``p1`` / ``p2`` (strategies by name or
``module:object``), the configuration tree ``rules.*`` / ``p1.k`` / ``p2.k`` (``--set``,
sweep axes, balance parameters), player 1's win rate as the primary rate. The entry point
``race = "sim_race.protocol:GAME"`` (pyproject.toml) is all sim-balance needs to find it."""
from __future__ import annotations

import polars as pl

from sim.core.game import Game
from sim_race.config import CONFIG_SCHEMA, build_config, compile_setup
from sim_race.enums import SIDES


class Race(Game):
    name = "race"
    title = "Race to a target, one die or two per turn (sim-race, examples/race)."
    sides = SIDES
    metric = "win_rate"
    metric_label = "player 1's win rate"
    primary_columns = ("p1_wins", "win_rate", "ci_low", "ci_high")
    schema = CONFIG_SCHEMA
    has_loo = False          # nothing in a race can be left out: no roles, pieces or rules to remove
    default_games = 1_000_000
    find_keys = ("winner", "turns", "p1_total", "p2_total")

    def registries(self):
        from sim_race.strategies import STRATEGIES

        return {"p1": STRATEGIES, "p2": STRATEGIES}

    def build(self, config=None, sets=()):
        return build_config(config, sets)

    def compile(self, tree):
        return compile_setup(tree)

    def draw_setup(self, rng):
        """A race of random length and head start (``sim race competence``)."""
        target, head = int(rng.integers(8, 31)), int(rng.integers(0, 5))
        return f"target {target}, head start {head}", self.build(sets=[f"rules.target={target}",
                                                                       f"rules.head_start={head}"])

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim_race.game import run

        return run(games, seed, p1=strategies["p1"], p2=strategies["p2"], setup=setup, **kw)

    def trace(self, setup, strategies, seed, game, *, spawn=(), events=True):
        from sim_race.trace import trace

        return trace(setup, strategies, seed, game, spawn=spawn, events=events)

    # -- restricted play: a player who never rolls two dice ---------------------------------
    def abilities(self, setup, strategies):
        from sim.analysis.restrict import Ability

        return [Ability(f"{side}_two_dice", side, side, f"{side} never rolls two dice") for side in self.sides
                if getattr(strategies[side], "name", "") != "cautious"]

    def restrict(self, setup, strategies, ability):
        side = next((a.holder for a in self.abilities(setup, strategies) if a.name == ability), None)
        if side is None:
            return super().restrict(setup, strategies, ability)
        return setup, {**strategies, side: self.strategy(side, "cautious")}

    def primary(self, totals):
        from sim_race.game import primary

        return primary(totals)

    def summary_tables(self, result):
        from sim_race.game import summary_tables

        return summary_tables(result)

    def print_run(self, result, console):
        from sim_race.text import print_run

        print_run(result, console)

    def commands(self, app):
        from sim_race.cli import app as own

        app.registered_commands.extend(own.registered_commands)

    # -- report -------------------------------------------------------------------------
    def causes_figure(self, tables, total_games, path):
        """How each player's turns went: one die, two dice that scored, two dice that busted."""
        from sim.analysis.figures import stacked

        if "players" not in tables or not tables["players"].height:
            return None
        g = (tables["players"].group_by("side")
             .agg(pl.col("one_die_turns").sum(), pl.col("two_dice_turns").sum(), pl.col("busts").sum(),
                  pl.col("turns").sum()).sort("side"))
        turns = g["turns"].to_numpy().astype(float)
        turns[turns == 0] = 1.0
        parts = {"one die": g["one_die_turns"].to_numpy() / turns,
                 "two dice, scored": (g["two_dice_turns"] - g["busts"]).to_numpy() / turns,
                 "two dice, bust": g["busts"].to_numpy() / turns}
        stacked(g["side"].to_list(), parts, "share of the player's turns", "how each player's turns went", path)
        return "share of each player's turns rolled with one die, with two dice that scored and with two that busted (all cells)"

    def lengths(self, tables, cells):
        if "turns" not in tables:
            return None
        h = tables["turns"].group_by("turns").agg(pl.col("games").sum()).sort("turns")
        return h["turns"].to_numpy(), h["games"].to_numpy(), "turns (both players)"


GAME = Race()
