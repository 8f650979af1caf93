"""Werewolf as a :class:`sim.core.game.Game`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.game import Game, Option, user_config
from sim.errors import SimInputError

ROLES_HELP = "Composition, e.g. fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5 (default: R-1)"


class Werewolf(Game):
    name = "werewolf"
    title = "The Werewolf museum variant (docs/rules/werewolf.md)."
    sides = ("village", "wolves")
    metric = "village_win_rate"
    options = (Option("roles", str, None, ("--roles",), ROLES_HELP),)
    base_keys = frozenset({"config", "set", "roles"})

    def registries(self):
        from strategies.werewolf import VILLAGE, WOLVES

        return {"village": VILLAGE, "wolves": WOLVES}

    def build(self, config=None, sets=(), roles=None):
        from sim.werewolf.roles import build_config

        return build_config(config, sets, roles=roles)

    def compile(self, tree):
        from sim.werewolf.roles import compile_setup

        return compile_setup(tree)

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim.werewolf.game import run

        return run(games, seed, village=strategies["village"], wolves=strategies["wolves"], setup=setup, **kw)

    def primary(self, totals):
        from sim.werewolf.game_nb import C_GAMES, C_VILLAGE

        sc = totals["scalars"]
        return int(sc[C_VILLAGE]), int(sc[C_GAMES])

    def summary_tables(self, result):
        from sim.werewolf.game import summary_tables

        return summary_tables(result)

    def print_run(self, result, console):
        from sim.werewolf.text import print_run

        print_run(result, console)

    def leave_one_out(self, setup, strategies, games, seed, *, threads=None):
        from sim.werewolf.game import leave_one_out

        return leave_one_out(games, seed, setup=setup, village=strategies["village"],
                             wolves=strategies["wolves"], threads=threads)

    def print_loo(self, df, setup, strategies, games, console):
        from sim.werewolf.text import print_loo

        print_loo(df, games, console)

    # sweeps: ``roles`` (a whole composition) and ``count.<role>`` besides tree paths
    def base_tree(self, base, spec_dir: Path):
        from sim.werewolf.roles import build_config

        roles = base.get("roles")
        if roles is not None and not isinstance(roles, str):
            raise SimInputError(f"base.roles: expected a composition such as \"werewolf*2,seer,villager*6\", "
                                f"got {roles!r}")
        return build_config(user_config(base, spec_dir), roles=roles)

    def assign(self, cell: dict, path: str, value: Any) -> None:
        from sim.werewolf.sweep import set_count

        if path == "roles":
            if not isinstance(value, str):
                raise SimInputError(f"roles: expected a composition string, got {value!r}")
            cell["tree"]["composition"]["default"] = value
        elif path.startswith("count."):
            set_count(cell["tree"], path[len("count."):], value)
        else:
            super().assign(cell, path, value)


GAME = Werewolf()
