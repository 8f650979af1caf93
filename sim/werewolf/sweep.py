"""Werewolf in sweeps: ``count.<role>`` (participants of a role), ``roles`` (a whole
composition), ``variants.*``, ``roles.<id>.*``, ``village``, ``wolves``."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from sim.core.validate import int_at
from sim.errors import SimInputError
from sim.sweep.adapter import GameAdapter, user_config
from sim.werewolf.game_nb import C_GAMES, C_VILLAGE
from sim.werewolf.roles import CONFIG_SCHEMA, build_config, compile_setup, format_composition, parse_composition


def set_count(tree: dict, role: str, count: Any) -> None:
    """Set how many participants have ``role``, keeping the order of the others."""
    known = list(tree.get("roles", {}))
    if role not in known:
        raise SimInputError(f"count.{role}: unknown role {role!r}; roles are {', '.join(known)}")
    count = int_at(count, f"count.{role}", 0)
    counts = Counter(parse_composition(tree["composition"]["default"], known))  # first-seen order
    counts[role] = count
    tree["composition"]["default"] = format_composition(counts)


class WerewolfAdapter(GameAdapter):
    game = "werewolf"
    metric = "village_win_rate"
    primary_columns = ("village_wins", "village_win_rate", "ci_low", "ci_high")
    strategy_keys = ("village", "wolves")
    base_keys = frozenset({"config", "set", "roles"})
    schema = CONFIG_SCHEMA

    def base_tree(self, base: dict, spec_dir: Path) -> dict:
        roles = base.get("roles")
        if roles is not None and not isinstance(roles, str):
            raise SimInputError(f"base.roles: expected a composition such as \"werewolf*2,seer,villager*6\", got {roles!r}")
        return build_config(user_config(base, spec_dir, self.schema), roles=roles)

    def assign(self, cell, path, value):
        if path == "roles":
            if not isinstance(value, str):
                raise SimInputError(f"roles: expected a composition string, got {value!r}")
            cell["tree"]["composition"]["default"] = value
        elif path.startswith("count."):
            set_count(cell["tree"], path[len("count."):], value)
        else:
            super().assign(cell, path, value)

    def compile(self, cell):
        from strategies.werewolf import VILLAGE, WOLVES

        s = cell["strategies"]
        return compile_setup(cell["tree"]), VILLAGE.get(s["village"]), WOLVES.get(s["wolves"])

    def player(self, compiled, seed, spawn):
        from sim.werewolf.game import run

        setup, v, w = compiled

        def play(start, games, **kw):
            return run(games, seed, village=v, wolves=w, setup=setup, spawn=spawn, start=start,
                       tables=False, **kw)
        return play

    def primary(self, totals):
        sc = totals["scalars"]
        return int(sc[C_VILLAGE]), int(sc[C_GAMES])

    def summary_tables(self, r):
        from sim.werewolf.game import summary_tables

        return summary_tables(r)
