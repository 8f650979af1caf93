"""Werewolf as a :class:`sim.core.game.Game`: ``--roles``; in sweeps also ``count.<role>``
(participants of a role) and ``roles`` (a whole composition) besides tree paths
(``variants.*``, ``roles.<id>.*``) and the sides ``village`` / ``wolves``."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl

from sim.core.game import Game, Option, user_config
from sim.core.validate import int_at
from sim.errors import SimInputError
from sim.werewolf.roles import CONFIG_SCHEMA, build_config, compile_setup, format_composition, parse_composition

ROLES_HELP = "Composition, e.g. fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5 (default: R-1)"


def set_count(tree: dict, role: str, count: Any) -> None:
    """Set how many participants have ``role``, keeping the order of the others."""
    known = list(tree.get("roles", {}))
    if role not in known:
        raise SimInputError(f"count.{role}: unknown role {role!r}; roles are {', '.join(known)}")
    count = int_at(count, f"count.{role}", 0)
    counts = Counter(parse_composition(tree["composition"]["default"], known))  # first-seen order
    counts[role] = count
    tree["composition"]["default"] = format_composition(counts)


class Werewolf(Game):
    """Werewolf's Game protocol object."""
    name = "werewolf"
    title = "The Werewolf museum variant (docs/rules/werewolf.md)."
    sides = ("village", "wolves")
    metric = "village_win_rate"
    metric_label = "village's win rate"
    primary_columns = ("village_wins", "village_win_rate", "ci_low", "ci_high")
    options = (Option("roles", str, None, ("--roles",), ROLES_HELP),)
    base_keys = frozenset({"config", "set", "roles"})
    schema = CONFIG_SCHEMA
    default_games = 1_000_000
    default_loo_games = 200_000
    # sim/werewolf/trace.py FIND_KEYS (kept literal here so the CLI needs no kernel import)
    find_keys = ("winner", "ended_by", "days", "runoffs", "nobody_out", "out", "survivors", "voted", "attacked",
                 "dragged", "witch")
    group_word = "day"

    def registries(self):
        from strategies.werewolf import VILLAGE, WOLVES

        return {"village": VILLAGE, "wolves": WOLVES}

    def kernel_pairs(self):
        """The default's kernels (one per kind of view: honest and ``oracle_attack`` wolves)
        and random against random, which plays in a kernel of its own: the cheapest game
        (about 2 µs) played a third slower in the kernel it shared with the other families
        (`benchmarks/bench_first_run.py`: 484,000 against 722,000 games/s on one thread)."""
        pairs = super().kernel_pairs()
        return [*pairs, (pairs[0][0], {"village": "random", "wolves": "random"})]

    def build(self, config=None, sets=(), roles=None):
        return build_config(config, sets, roles=roles)

    def compile(self, tree):
        return compile_setup(tree)

    def draw_setup(self, rng):
        from sim.werewolf.draw import draw_table

        roles, sets = draw_table(rng)
        return f"{roles}; " + ", ".join(s.split(".", 1)[1] for s in sets), self.build(sets=sets, roles=roles)

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim.werewolf.game import run

        return run(games, seed, village=strategies["village"], wolves=strategies["wolves"], setup=setup, **kw)

    def trace(self, setup, strategies, seed, game, *, spawn=(), events=True):
        from sim.werewolf.trace import trace_game

        return trace_game(setup, strategies["village"], strategies["wolves"], seed, game, spawn=spawn,
                          events=events)

    def primary(self, totals):
        from sim.werewolf.game_nb import C_GAMES, C_VILLAGE

        sc = totals["scalars"]
        return int(sc[C_VILLAGE]), int(sc[C_GAMES])

    def summary_tables(self, result):
        from sim.werewolf.game import summary_tables

        return summary_tables(result)

    def manifest_extra(self, setup, options):
        return {"composition": setup.composition()}

    def print_run(self, result, console):
        from sim.werewolf.text import print_run

        print_run(result, console)

    def leave_one_out(self, setup, strategies, games, seed, *, threads=None):
        from sim.werewolf.game import leave_one_out

        return leave_one_out(games, seed, setup=setup, village=strategies["village"],
                             wolves=strategies["wolves"], threads=threads)

    def first_mover(self, setup):
        import copy

        tree = copy.deepcopy(self.config_of(setup))
        start = tree.get("variants", {}).get("start", "day")
        other = "night" if start == "day" else "day"
        tree.setdefault("variants", {})["start"] = other
        said = {"day": "the vote first (start = day)", "night": "the attack first (start = night)"}
        return "variants.start", said[start], said[other], self.compile(tree)

    # -- restricted play: an ability withheld, the holder keeps its seat and team -------------
    _HOOK_OF = {"divine": ("village", "divine", "never looks at anyone"),
                "protect": ("village", "protect", "never protects anyone"),
                "witch": ("village", "witch", "never acts"),
                "mark": ("wolves", "mark", "never marks anyone")}

    def abilities(self, setup, strategies):
        from dataclasses import replace  # noqa: F401 - (restrict below)

        from sim.analysis.restrict import Ability
        from sim.werewolf.enums import ABILITIES, RF
        from strategies.werewolf import basic

        table = setup.nb.table
        out = []
        present = [r for r in setup.role_ids if r in setup.seats]
        for r in present:
            k = setup.role_ids.index(r)
            ab = ABILITIES[int(table[k, RF.ABILITY])]
            side = "wolves" if table[k, RF.TEAM] else "village"
            if ab in self._HOOK_OF:
                out.append(Ability(r, r, side, f"the {r} {self._HOOK_OF[ab][2]}"))
        for r in present:  # claims: only where the side's strategy speaks at all
            k = setup.role_ids.index(r)
            side = "wolves" if table[k, RF.TEAM] else "village"
            if strategies[side].speak is not basic.silent_nb and r in ("seer", "medium", "accomplice"):
                out.append(Ability(f"{r}_claims", r, side, f"the {r} never claims"))
        return out

    def restrict(self, setup, strategies, ability):
        """The same table with one role's ability (or its claims) withheld: data in the
        kernel's variant slots (``V.WITHHOLD`` / ``V.WITHHOLD_CLAIMS``), so restricted play
        runs the same compiled kernel; the strategies are unchanged."""
        from dataclasses import replace

        import numpy as np

        from sim.werewolf.enums import V

        got = {a.name: a for a in self.abilities(setup, strategies)}
        if ability not in got:
            return super().restrict(setup, strategies, ability)
        a = got[ability]
        k = setup.role_ids.index(a.holder)
        var = np.array(setup.nb.var, copy=True)
        slot = V.WITHHOLD_CLAIMS if ability.endswith("_claims") else V.WITHHOLD
        var[slot] |= np.int64(1) << np.int64(k)
        return replace(setup, nb=setup.nb._replace(var=var)), strategies

    # -- values by substitution: a role against its team's plain one, an ability at its neutral value
    PLAIN = {"village": "villager", "wolves": "werewolf"}

    def _role_changes(self, setup):
        """(role, plain role it is replaced by, the words) for each special role at the table."""
        from sim.werewolf.enums import RF

        table = setup.nb.table
        out = []
        for r in dict.fromkeys(setup.seats):
            k = setup.role_ids.index(r)
            # the plain role of a team is the one that attacks with it or not: a non-attacking wolf
            # (the accomplice) has no plain wolf-team twin, so it is replaced by a villager, said so
            plain = "werewolf" if table[k, RF.ATTACKS] else "villager"
            if r in self.PLAIN.values() or plain not in setup.role_ids:
                continue
            n = setup.seats.count(r)
            one = f"one {r} of {n}" if n > 1 else f"the {r}"
            said = f"{one} replaced by a plain {plain}"
            if table[k, RF.TEAM] and plain == "villager":
                said += " (the wolf team has no plain role that does not attack: the seat joins the village)"
            out.append((r, plain, said))
        return out

    def changes(self, setup, strategies):
        from sim.analysis.values import Change
        from sim.werewolf.enums import RF

        table = setup.nb.table
        side_of = {r: ("wolves" if table[setup.role_ids.index(r), RF.TEAM] else "village") for r in setup.seats}
        out = [Change(r, "role", r, side_of[r], said) for r, _, said in self._role_changes(setup)]
        for r in dict.fromkeys(setup.seats):
            k = setup.role_ids.index(r)
            if table[k, RF.DRAG] > 0:
                out.append(Change(f"{r}.drag", "ability", r, side_of[r],
                                  f"{r}'s drag 0 (drags no one; {int(table[k, RF.DRAG])} as given)"))
            if table[k, RF.ATTACKS] and not table[k, RF.SEER_WOLF]:
                out.append(Change(f"{r}.seer_reads", "ability", r, side_of[r], f"the seer reads {r} as a wolf"))
            if table[k, RF.ATTACKS] and not table[k, RF.MEDIUM_WOLF]:
                out.append(Change(f"{r}.medium_reads", "ability", r, side_of[r], f"the medium reads {r} as a wolf"))
        for a in self.abilities(setup, strategies):  # hooks and claims, withheld (restricted play)
            if a.name.endswith("_claims"):
                out.append(Change(f"{a.holder}.claims", "ability", a.holder, a.side, a.withheld))
            else:
                from sim.werewolf.enums import ABILITIES

                ab = ABILITIES[int(table[setup.role_ids.index(a.holder), RF.ABILITY])]
                said = a.withheld + (" (count 0)" if ab == "protect" else "")
                name = {"witch": "potions"}.get(ab, ab)   # witch.potions, not witch.witch
                out.append(Change(f"{a.holder}.{name}", "ability", a.holder, a.side, said))
        return out

    def change(self, setup, strategies, name):
        import copy

        roles = {r: plain for r, plain, _ in self._role_changes(setup)}
        if name in roles:  # the first seat of the role, in place: the other seats keep their order
            seats = list(setup.seats)
            seats[seats.index(name)] = roles[name]
            tree = copy.deepcopy(self.config_of(setup))
            tree["composition"]["default"] = ",".join(seats)
            return self.compile(tree), strategies
        holder, _, what = name.partition(".")
        if what in ("drag", "seer_reads", "medium_reads"):
            tree = copy.deepcopy(self.config_of(setup))
            tree["roles"][holder][what] = 0 if what == "drag" else "wolf"
            return self.compile(tree), strategies
        if what == "claims":
            return self.restrict(setup, strategies, f"{holder}_claims")
        if holder in setup.role_ids and what:
            return self.restrict(setup, strategies, holder)
        return super().change(setup, strategies, name)

    def print_loo(self, df, setup, strategies, games, console):
        from sim.werewolf.text import print_loo

        print_loo(df, games, console)

    def commands(self, app):
        from sim.werewolf.cli import app as own

        app.registered_commands.extend(own.registered_commands)

    # -- sweeps -------------------------------------------------------------------------
    def base_tree(self, base, spec_dir: Path):
        roles = base.get("roles")
        if roles is not None and not isinstance(roles, str):
            raise SimInputError(f"base.roles: expected a composition such as \"werewolf*2,seer,villager*6\", "
                                f"got {roles!r}")
        return build_config(user_config(base, spec_dir, self.schema), roles=roles)

    def assign(self, cell: dict, path: str, value: Any) -> None:
        if path == "roles":
            if not isinstance(value, str):
                raise SimInputError(f"roles: expected a composition string, got {value!r}")
            cell["tree"]["composition"]["default"] = value
        elif path.startswith("count."):
            set_count(cell["tree"], path[len("count."):], value)
        else:
            super().assign(cell, path, value)

    def extra_parameters(self, tree):
        counts = Counter(parse_composition(tree["composition"]["default"], list(tree.get("roles", {}))))
        return {"roles": tree["composition"]["default"], **{f"count.{r}": counts.get(r, 0) for r in tree["roles"]}}

    # -- report -------------------------------------------------------------------------
    def causes_figure(self, tables, total_games, path):
        from sim.analysis.figures import stacked

        if "roles" not in tables:
            return None
        r = tables["roles"]
        outs = [c for c in r.columns if c.startswith("out_")]
        w = r.with_columns([(pl.col(c) * pl.col("participant_games")).alias(c) for c in outs])
        g = w.group_by("role").agg(pl.col("participant_games").sum(), *[pl.col(c).sum() for c in outs])
        g = g.sort("role")
        parts = {c[4:]: (g[c] / g["participant_games"]).to_numpy() for c in outs if g[c].sum() > 0}
        stacked(g["role"].to_list(), parts, "share of the role's participants", "how each role leaves the game", path)
        return "share of each role's participants eliminated by each cause (all cells; the rest survive)"

    def wins_by_length(self, tables):
        d = tables.get("days")
        if d is None or "village_wins" not in d.columns:
            return None
        h = d.group_by("days").agg(pl.col("village_wins", "wolves_wins", "draws").sum()).sort("days")
        return (h["days"].to_numpy(), {"village": h["village_wins"].to_numpy(), "wolves": h["wolves_wins"].to_numpy(),
                                       "draw": h["draws"].to_numpy()}, "day the game ended")

    def lengths(self, tables, cells):
        if "days" not in tables:
            return None
        h = tables["days"].group_by("days").agg(pl.col("games").sum()).sort("days")
        return h["days"].to_numpy(), h["games"].to_numpy(), "days (votes held)"


GAME = Werewolf()
