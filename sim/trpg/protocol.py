"""The 3d6 TRPG combat as a :class:`sim.core.game.Game`.

Strategies are per character and live in the scenario (``characters.<id>.strategy``), so
the game has no command-line strategy slots of its own; its sides are the scenario's
(:meth:`Trpg.sides_of`: ``scenario.sides``) and its primary rate is the first side's win
rate. A side's strategy is a *profile* (:mod:`strategies.trpg.profiles`: ``sheet`` — the
default —, ``random``, ``focus``, ``ranged``) applied to every character of the side
through the configuration (``tactics.<side>.profile`` and its knobs
``tactics.<side>.<knob>``, :mod:`sim.trpg.tactics`), so ``sim ladder`` / ``equilibrium`` /
``tune trpg`` play the one combat kernel. Restricted play withholds each character's
optional abilities (``withhold``). Sweeps reach any sheet, weapon, ability, rule or
strategy path (``characters.p1.skills.melee``, ``weapons.pistol.dice``)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim.core.config import deep_merge, load_toml
from sim.core.game import Game, Option, user_config
from sim.core.schema import check_keys
from sim.errors import SimInputError
from sim.trpg.sheets import SCENARIO_SCHEMA, build_config, compile_setup, load_checked, scenario_path

SCENARIO_HELP = "Scenario: a TOML file (sides, characters, weapons, rules) or a shipped scenario's name (alley)."


class Trpg(Game):
    """The TRPG's Game protocol object."""
    name = "trpg"
    title = "The 3d6 kaii TRPG (docs/rules/trpg.md)."
    sides = ()
    metric = "win_rate"
    metric_label = "first side's win rate"
    options = (Option("scenario", str, ..., (), SCENARIO_HELP),)
    base_keys = frozenset({"config", "set", "scenario"})
    schema = SCENARIO_SCHEMA
    # sim trpg trace --find: keys of a trace's result (sim.trpg.trace.FIND_KEYS)
    find_keys = ("winner", "rounds", "timeout", "lost", "fell", "standing", "oracle")

    def label(self, tables=None):
        """The first side's win rate by its name, when the tables say it ("players' win rate")."""
        sides = (tables or {}).get("sides")
        if sides is not None and "side" in sides.columns and sides.height:
            name = str(sides["side"][0])
            return f"{name}' win rate" if name.endswith("s") else f"{name}'s win rate"
        return super().label(tables)

    def first_mover(self, setup):
        import copy

        tree = copy.deepcopy(self.config_of(setup))
        sides = list(setup.sides)
        first = tree.get("scenario", {}).get("first", sides[0])
        other = sides[(sides.index(first) + 1) % len(sides)]
        tree.setdefault("scenario", {})["first"] = other
        return "scenario.first", f"{first} first", f"{other} first", self.compile(tree)

    def kernel_pairs(self):
        """The built-in profiles are data in one kernel; a sheet naming ``oracle_focus`` is
        the other (sim precompile)."""
        setup = self.setup(scenario="alley")
        oracle = self.setup(sets=['characters.host.strategy.target="oracle_focus"'], scenario="alley")
        return [(s, {side: "sheet" for side in self.sides_of(s)}) for s in (setup, oracle)]

    def setup_oracles(self, setup):
        from sim.trpg.game import scenario_oracles

        return scenario_oracles(setup)
    group_word = "round"

    default_strategy = "sheet"  # every character as its sheet says

    def registries(self):
        return {}  # the sides are the scenario's: registries_of(setup)

    def sides_of(self, setup):
        return tuple(setup.sides)

    def registries_of(self, setup):
        from strategies.trpg.profiles import PROFILES

        return {s: PROFILES for s in setup.sides}

    def strategy(self, side, spec):
        """A side's profile (any side: the scenario's sides are checked where a setup is known)."""
        from strategies.trpg.profiles import PROFILES

        return PROFILES.get(spec) if isinstance(spec, str) else spec

    def strategies(self, given=None, setup=None):
        """Every side's profile: the ones given, else the one the setup's configuration names
        (``tactics.<side>.profile``, ``sheet`` by default) — a sweep axis or ``--set`` on one
        side's profile is not undone by the other side's default."""
        if setup is not None:
            given = {**(setup.tactics or {}), **{k: v for k, v in dict(given or {}).items() if v}}
        return super().strategies(given, setup)

    def knob_path(self, side, knob):
        return f"tactics.{side}.{knob}"

    def assign(self, cell, path, value):
        """A side of the scenario is a strategy slot: its profile goes to ``tactics.<side>.profile``."""
        sides = ((cell["tree"].get("scenario") or {}).get("sides")) or []
        if path in sides:
            if not isinstance(value, str) or not value:
                raise SimInputError(f"{path}: expected a profile name, got {value!r}")
            cell["strategies"][path] = value
            path, value = f"tactics.{path}.profile", value
        super().assign(cell, path, value)

    def with_profiles(self, setup, strategies):
        """The setup with each side playing the profile ``strategies`` names (the setup itself
        when it already does: profiles set through the configuration, as sweeps and the
        meta-game commands do, cost nothing here)."""
        import copy

        want = {side: getattr(s, "name", s) for side, s in (strategies or {}).items()}
        unknown = [s for s in want if s not in setup.sides]
        if unknown:
            raise SimInputError(f"trpg: unknown side(s) {', '.join(unknown)}; sides are {', '.join(setup.sides)}")
        have = setup.tactics or {}
        change = {s: n for s, n in want.items() if n != have.get(s, "sheet")}
        if not change:
            return setup
        tree = copy.deepcopy(self.config_of(setup))
        for side, name in change.items():
            tree.setdefault("tactics", {}).setdefault(side, {})["profile"] = name
        return self.compile(tree)

    def build(self, config=None, sets=(), scenario=None):
        if scenario is None:
            raise SimInputError("trpg: name a scenario")
        tree = load_checked(scenario_path(scenario))
        if config is not None:
            extra = load_toml(config) if isinstance(config, (str, Path)) else config
            check_keys(extra, self.schema, str(config) if isinstance(config, (str, Path)) else "--config")
            tree = deep_merge(tree, extra)
        return build_config(tree, sets)  # merged over the system data once

    def compile(self, tree):
        from strategies.trpg import load_plugin

        sc = compile_setup(tree)
        for k, v in (sc.plugins or {}).items():
            if v:
                load_plugin(v, k)  # an unknown plug-in fails here, before any work
        return sc

    def draw_setup(self, rng):
        from sim.trpg.draw import draw_skirmish

        return draw_skirmish(rng)

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim.trpg.game import run

        return run(games, seed, scenario=self.with_profiles(setup, strategies), **kw)

    def trace(self, setup, strategies, seed, game, *, spawn=(), events=True):
        """Combat ``game`` of the run with ``seed`` event by event (sim.trpg.trace)."""
        from sim.trpg.trace import trace

        return trace(self.with_profiles(setup, strategies), seed, game, spawn=spawn, events=events)

    # -- restricted play: sheet abilities, dodge / guard, cover, monologue ----------------
    def abilities(self, setup, strategies):
        from sim.analysis.restrict import Ability
        from sim.trpg.tactics import apply_tactics, optional_abilities

        tree = apply_tactics(self.config_of(self.with_profiles(setup, strategies)))[0]
        return [Ability(*a) for a in optional_abilities(tree)]

    def restrict(self, setup, strategies, ability):
        """The setup with ``ability`` withheld (``withhold``, applied after the profiles)."""
        import copy

        setup = self.with_profiles(setup, strategies)
        if ability not in {a.name for a in self.abilities(setup, strategies)}:
            return super().restrict(setup, strategies, ability)
        tree = copy.deepcopy(self.config_of(setup))
        w = tree.get("withhold") or []
        tree["withhold"] = [*([w] if isinstance(w, str) else w), ability]
        return self.compile(tree), strategies

    # -- values by substitution: each weapon, item, armour or ability taken from its holder ------
    def _gear(self, setup):
        """(name, character, side, words) of each weapon, item and armour a sheet carries."""
        out = []
        for cid, c in (self.config_of(setup).get("characters") or {}).items():
            side = c.get("side", "")
            weapons = list(c.get("weapons", ["fists"]))
            for w in dict.fromkeys(weapons):
                if w == "fists":
                    continue
                rest = [x for x in weapons if x != w]
                said = f"{cid} without its {w}" + ("" if rest else " (fights with fists)")
                out.append((f"{cid}.weapon.{w}", cid, side, said))
            for item, n in (c.get("items") or {}).items():
                if n:
                    out.append((f"{cid}.item.{item}", cid, side, f"{cid} without its {item} ({n})"))
            arm = c.get("armour") or {}
            if arm.get("pct", 0) or arm.get("fixed", 0):
                out.append((f"{cid}.armour", cid, side, f"{cid} without armour ({arm.get('pct', 0)}% / "
                                                        f"{arm.get('fixed', 0)} fixed as given)"))
        return out

    def changes(self, setup, strategies):
        from sim.analysis.values import Change

        gear = [Change(n, "ability", h, s, w) for n, h, s, w in self._gear(self.with_profiles(setup, strategies))]
        return gear + super().changes(setup, strategies)

    def change(self, setup, strategies, name):
        import copy

        setup = self.with_profiles(setup, strategies)
        if name not in {g[0] for g in self._gear(setup)}:
            return super().change(setup, strategies, name)
        cid, what, *rest = name.split(".", 2)
        tree = copy.deepcopy(self.config_of(setup))
        c = tree["characters"][cid]
        if what == "weapon":
            c["weapons"] = [x for x in c.get("weapons", []) if x != rest[0]] or ["fists"]
        elif what == "item":
            del c["items"][rest[0]]
        else:
            c["armour"] = {"pct": 0, "fixed": 0}
        return self.compile(tree), strategies

    def to_json(self, result):
        from sim.trpg.game import scenario_oracles

        o = scenario_oracles(result.scenario)
        return {**result.to_json(), **({"oracles": o} if o else {})}

    def primary(self, totals):
        from sim.trpg.game_nb import C_GAMES

        return int(totals["wins"][0]), int(totals["scalars"][C_GAMES])

    def summary_tables(self, result):
        from sim.trpg.game import summary_tables

        return summary_tables(result)

    def run_primary(self, tables):
        return int(tables["sides"]["wins"][0])

    def manifest_extra(self, setup, options):
        from sim.trpg.game import scenario_oracles

        o = scenario_oracles(setup)
        return {"scenario_file": str(options["scenario"]), **({"oracles": o} if o else {})}

    def print_run(self, result, console):
        from sim.trpg.game import scenario_oracles
        from sim.trpg.text import print_run

        o = scenario_oracles(result.scenario)
        if o:
            console.print("[bold red]ORACLE: " + "; ".join(f"{c}: {n}" for c, n in o.items())
                          + " reads hidden information; these figures are not those of honest play[/bold red]")
        print_run(result, console)

    def leave_one_out(self, setup, strategies, games, seed, *, threads=None):
        from sim.trpg.loo import leave_one_out

        return leave_one_out(games, seed, scenario=setup, threads=threads)

    def loo_manifest(self, setup):
        from sim.trpg.game import scenario_oracles

        o = scenario_oracles(setup)
        return {"sides": setup.sides, **({"oracles": o} if o else {})}

    def print_loo(self, df, setup, strategies, games, console):
        from sim.trpg.game import scenario_oracles
        from sim.trpg.text import print_loo

        o = scenario_oracles(setup)
        if o:
            console.print("[bold red]ORACLE: " + "; ".join(f"{c}: {n}" for c, n in o.items())
                          + " reads hidden information; these figures are not those of honest play[/bold red]")
        print_loo(df, setup, games, console)

    def commands(self, app):
        from sim.trpg.cli import app as own

        app.registered_commands.extend(own.registered_commands)

    # -- sweeps -------------------------------------------------------------------------
    def base_tree(self, base, spec_dir: Path):
        sc = base.get("scenario")
        if not isinstance(sc, str):
            raise SimInputError("base.scenario: name the scenario file, e.g. scenario = \"squad.toml\"")
        tree = build_config(scenario_path(sc, spec_dir))  # beside the spec, or a shipped scenario
        extra = user_config(base, spec_dir, self.schema)
        return deep_merge(tree, extra) if extra else tree

    # -- report -------------------------------------------------------------------------
    def causes_figure(self, tables, total_games, path):
        from sim.analysis.figures import plt, save

        if "characters" not in tables:
            return None
        c = tables["characters"]
        cells = tables.get("_cell_games")
        c = (c.join(cells, on="cell") if cells is not None and "cell" in c.columns
             else c.with_columns(pl.lit(1).alias("games")))
        g = c.group_by("character", "side").agg(
            *[(pl.col(k) * pl.col("games")).sum() / pl.col("games").sum() for k in ("fall_rate", "loss_rate")]
        ).sort("side", "character")
        labels = [f"{a} ({s})" for a, s in zip(g["character"], g["side"])]
        fig, ax = plt.subplots(figsize=(8.5, 1.2 + 0.35 * len(labels)))
        y = np.arange(len(labels))
        ax.barh(y - 0.2, g["fall_rate"].to_numpy(), height=0.4, label="fell (HP ≤ 0) at least once")
        ax.barh(y + 0.2, g["loss_rate"].to_numpy(), height=0.4, label="lost (out of the combat)")
        ax.set_yticks(y, labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("share of combats")
        ax.set_title("falls and losses per character", fontsize=10)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax.grid(axis="x", alpha=0.3)
        save(fig, path)
        return "share of combats in which each character fell and in which it was lost (all cells)"

    def wins_by_length(self, tables):
        r = tables.get("rounds")
        if r is None or "draws" not in r.columns:
            return None
        sides = [c[: -len("_wins")] for c in r.columns if c.endswith("_wins")]
        h = r.group_by("rounds").agg(pl.col(*[f"{s}_wins" for s in sides], "draws").sum()).sort("rounds")
        return (h["rounds"].to_numpy(), {**{s: h[f"{s}_wins"].to_numpy() for s in sides}, "draw": h["draws"].to_numpy()},
                "round the combat ended (the last bin: the round limit)")

    def lengths(self, tables, cells):
        if "rounds" not in tables:
            return None
        h = tables["rounds"].group_by("rounds").agg(pl.col("games").sum()).sort("rounds")
        return h["rounds"].to_numpy(), h["games"].to_numpy(), "rounds"


GAME = Trpg()
