"""The Looper as a :class:`sim.core.game.Game`: ``--protagonist``, ``--key-person``,
``--expansion``; in sweeps any character's number, attributes or location (shorthands
such as ``cat.threshold`` work), ``setup.key_person``, ``protagonist.*`` and the sides
``player`` / ``scriptwriter``."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim.core.game import Game, Option, user_config
from sim.core.validate import bool_at
from sim.looper.roster import CONFIG_SCHEMA, _expand_short_path, build_config, compile_setup


def _attrs(text):
    if text is None:
        return None
    return [a.strip() for a in text.split(",") if a.strip()]


class Looper(Game):
    """The Looper's Game protocol object."""
    name = "looper"
    title = "The Looper loop game (docs/rules/looper.md)."
    sides = ("player", "scriptwriter")
    metric = "player_win_rate"
    metric_label = "player's win rate"
    primary_columns = ("player_wins", "player_win_rate", "ci_low", "ci_high")
    options = (
        Option("protagonist", str, None, ("--protagonist",), "Attributes, e.g. male,loud"),
        Option("protagonist_location", str, None, ("--protagonist-location",), "Where the protagonist starts."),
        Option("key_person", str, None, ("--key-person",),
               "Pin the secret key person (P-13); default: the strategy picks."),
        Option("expansion", bool, False, ("--expansion",), "Add the optional expansion roster."),
        Option("all_rows", bool, False, ("--all",), "Text output: every row of the deaths table (default: 25)."),
        Option("against", str, None, ("--against",),
               "The adversarial scriptwriter searches setups against this player (= --set "
               "scriptwriter.against=NAME; default: random and cautious) and lists its best setups with "
               "that player's win rate (re-measured: 2,000 games each, 300 for bayes / planner). Search "
               "cost: 384 proposals x 48 games; against bayes 128 x 16, planner 64 x 12 (with the "
               "exploit list's re-measure, about 10 s); set scriptwriter.proposals / scriptwriter.trials to change it."),
        Option("scripts", str, None, ("--scripts",),
               "A folder of fixed scripts (*.toml, [setup] as for --scriptwriter fixed) that seed the "
               "adversarial search besides the shipped library examples/looper/scripts (= --set search.scripts=DIR)."),
    )
    base_keys = frozenset({"config", "set", "expansion"})
    schema = CONFIG_SCHEMA
    find_keys = ("winner", "loops", "days", "died", "key", "named", "won_loop", "wrong_names")
    group_word = "day"

    def registries(self):
        from strategies.looper import PLAYERS, SCRIPTWRITERS

        return {"player": PLAYERS, "scriptwriter": SCRIPTWRITERS}

    show_all = False  # --all: the text output's deaths table uncut (set by build, read by print_run)

    def kernel_pairs(self):
        """Every pair of a shipped player and a shipped scriptwriter: each pair is a kernel of
        its own (sim.looper.game_nb.strategy_kernel; unlike Werewolf's shared kernels), and
        the adversarial search plays its scored players (random and cautious by default) in
        their pair's kernel with ``adversarial``. ``fixed`` plays a library script (without one
        it has nothing to play; the script is data, the kernel the same for every script)."""
        from strategies.looper import PLAYERS, SCRIPTWRITERS

        plain = self.setup()
        script = self.setup(Path(__file__).resolve().parents[2] / "examples" / "looper" / "scripts"
                            / "park_convergence.toml")
        # the longest compiles first: two cores finish together
        players = sorted(PLAYERS.names(), key=lambda p: not self.heavy_kernel({"player": p}))
        return [(script if w == "fixed" else plain, {"player": p, "scriptwriter": w})
                for p in players for w in SCRIPTWRITERS.names()]

    def heavy_kernel(self, given):
        """The filter's players (bayes, planner, oracle_planner): a kernel of theirs compiles
        for ten to twenty CPU minutes cold (docs/performance.md)."""
        return any(h in given["player"] for h in ("planner", "bayes"))

    def registries_of(self, setup):
        """The registries; without a script in ``[setup]`` (no key person, P-19) the `fixed`
        scriptwriter has nothing to play, so the tiers of ``sim ladder`` / ``equilibrium``
        leave it out (``--scriptwriter fixed`` by name still reports the missing script)."""
        regs = self.registries()
        if getattr(setup, "fixed_key", 1):
            return regs
        from sim.core.plugins import Registry

        w = regs["scriptwriter"]
        sub = Registry(w.what, w._wrap)
        for name in w.names():
            if name != "fixed":
                sub.register(name, w.get(name))
        return {**regs, "scriptwriter": sub}

    def build(self, config=None, sets=(), protagonist=None, protagonist_location=None, key_person=None,
              expansion=False, all_rows=False, against=None, scripts=None):
        self.show_all = bool(all_rows)
        sets = list(sets)
        if against is not None:
            from strategies.looper import PLAYERS

            PLAYERS.get(against)  # an unknown name: one error naming the closest
            sets.append(f"scriptwriter.against={against}")
        if scripts is not None:
            sets.append(f"search.scripts={scripts}")
        if protagonist_location is not None:
            sets.append(f"protagonist.location={protagonist_location}")
        if key_person is not None:
            sets.append(f"setup.key_person={key_person}")
        return build_config(config, sets, expansion=expansion, protagonist=_attrs(protagonist))

    def compile(self, tree):
        return compile_setup(tree)

    def draw_setup(self, rng):
        from sim.looper.draw import draw_roster

        words, opts = draw_roster(rng)
        return words, self.build(**opts)

    def vs_each(self, setup, strategies):
        """``scriptwriter.against = "each"`` (the ladder's ``adversarial@against=each``): the
        search scores against the player this cell plays."""
        tree = setup.config or {}
        if (tree.get("scriptwriter") or {}).get("against") != "each":
            return setup
        import dataclasses

        name = getattr(strategies["player"], "name", str(strategies["player"]))
        return dataclasses.replace(setup, config={**tree, "scriptwriter": {**tree["scriptwriter"], "against": name}})

    def run(self, setup, strategies, games, seed=0, **kw):
        from sim.looper.game import run

        setup = self.vs_each(setup, strategies)
        return run(games, seed, player=strategies["player"], scriptwriter=strategies["scriptwriter"],
                   roster=setup, **kw)

    def trace(self, setup, strategies, seed, game, *, spawn=(), events=True):
        from sim.looper.game import trace

        return trace(setup, strategies["player"], strategies["scriptwriter"], seed, game, spawn=spawn,
                     events=events)

    def primary(self, totals):
        from sim.looper.game_nb import C_GAMES, C_WINS

        sc = totals["scalars"]
        return int(sc[C_WINS]), int(sc[C_GAMES])

    def summary_tables(self, result):
        from sim.looper.game import summary_tables

        return summary_tables(result)

    def print_run(self, result, console):
        from sim.looper.text import print_run

        print_run(result, console, show_all=self.show_all)

    def leave_one_out(self, setup, strategies, games, seed, *, threads=None):
        from sim.looper.loo import leave_one_out

        return leave_one_out(games, seed, roster=setup, player=strategies["player"],
                             scriptwriter=strategies["scriptwriter"], threads=threads)

    # -- restricted play: an ability withheld, the side keeps everything else --------------
    def abilities(self, setup, strategies):
        """The player's daily moves (when the rules give any) and, under the R-2 variant, its
        own choice of name (when its strategy makes one); the scriptwriter's permanent moves
        (not under ``rules.stay_moves = false``, P-15: leaving them in place breaks that rule),
        guest moves and its choice of victims (R-10)."""
        from sim.analysis.restrict import Ability
        from sim.looper.enums import I
        from strategies.looper.player import random_name_nb

        info = setup.nb.info
        out = []
        if info[I.MOVES] > 0:
            out.append(Ability("moves", "player", "player", "the player never moves anyone"))
        if info[I.MUST_NAME] and strategies["player"].name_key is not random_name_nb:
            out.append(Ability("naming", "player", "player",
                               "the player names a random living character (R-2)"))
        if info[I.N_PERM] > 0 and info[I.STAY_MOVES]:  # P-15's variant forbids leaving them in place
            out.append(Ability("permanent_moves", "scriptwriter", "scriptwriter",
                               "the permanent moves leave their characters in place"))
        if info[I.N_GUEST] > 0:
            out.append(Ability("guest_moves", "scriptwriter", "scriptwriter",
                               "the guest moves leave their characters in place"))
        out.append(Ability("victim_choice", "scriptwriter", "scriptwriter",
                           "a uniform draw picks each victim (R-10)"))
        return out

    def restrict(self, setup, strategies, ability):
        from dataclasses import replace

        from strategies.looper import restrict as never
        from strategies.looper.player import random_name_nb

        if ability not in {a.name for a in self.abilities(setup, strategies)}:
            return super().restrict(setup, strategies, ability)
        side = "player" if ability in ("moves", "naming") else "scriptwriter"
        s = strategies[side]
        change = {"moves": lambda: {"move": never.never_move_nb},
                  "naming": lambda: {"name_key": random_name_nb},
                  "permanent_moves": lambda: {"setup": never.permanent_home(s.setup)},
                  "guest_moves": lambda: {"setup": never.guests_stay(s.setup)},
                  "victim_choice": lambda: {"choose": never.chance_choose_nb}}[ability]()
        return setup, {**strategies, side: replace(s, name=f"{s.name}-no-{ability}", **change)}

    # -- values by substitution: each character's rule off, the character kept -------------
    def changes(self, setup, strategies):
        """Each table character's rule (all its effects) off while it stays at the table —
        valued for the player (the rules belong to no side) — then the sides' abilities."""
        from sim.analysis.values import Change

        out = []
        for cid in setup.ids[1:]:  # ids[0] is the protagonist
            ch = setup.config.get("characters", {}).get(cid) or {}
            if ch.get("effects"):
                kinds = ", ".join(dict.fromkeys(str(e.get("kind")) for e in ch["effects"] if isinstance(e, dict)))
                out.append(Change(f"{cid}.rule", "ability", cid, "player",
                                  f"{cid}'s rule off ({kinds}); the character stays at the table"))
        return out + super().changes(setup, strategies)

    def change(self, setup, strategies, name):
        import copy

        cid, _, what = name.partition(".")
        if what == "rule" and cid in setup.ids[1:]:
            tree = copy.deepcopy(setup.config)
            tree["characters"][cid]["effects"] = []
            return self.compile(tree), strategies
        return super().change(setup, strategies, name)

    def print_loo(self, df, setup, strategies, games, console):
        from sim.looper.text import print_loo

        print_loo(df, strategies, games, console)

    # -- sweeps -------------------------------------------------------------------------
    def base_tree(self, base, spec_dir: Path):
        expansion = bool_at(base.get("expansion", False), "base.expansion")
        return build_config(user_config(base, spec_dir, self.schema), expansion=expansion)

    def expand_path(self, tree, path):
        return _expand_short_path(tree, path)

    def player(self, compiled, seed, spawn):
        from sim.looper.game import run, writer_params

        roster, s = compiled
        roster = self.vs_each(roster, s)
        # once per cell, not per batch; from the root seed alone, so the scriptwriter's setup
        # search has the same seed in every cell (its strength varies with that seed)
        params = writer_params(s["scriptwriter"], roster, seed)

        def play(start, games, **kw):
            return run(games, seed, player=s["player"], scriptwriter=s["scriptwriter"], roster=roster,
                       spawn=spawn, start=start, params=params, tables=False, **kw)
        return play

    # -- report -------------------------------------------------------------------------
    def causes_figure(self, tables, total_games, path):
        from sim.analysis.figures import stacked

        if "deaths" not in tables or not tables["deaths"].height:
            return None
        d = tables["deaths"].group_by("character", "rule").agg(pl.col("deaths").sum())
        per = d.group_by("character").agg(pl.col("deaths").sum()).sort("deaths", descending=True).head(15)
        chars = per["character"].to_list()
        parts = {}
        for rule in sorted(d["rule"].unique().to_list()):
            sub = dict(zip(*d.filter(pl.col("rule") == rule).select("character", "deaths")
                           .to_dict(as_series=False).values()))
            parts[rule] = np.array([sub.get(c, 0) / total_games for c in chars])
        stacked(chars, parts, "deaths per game", "deaths per character, by the rule that killed them", path)
        return "deaths per game of the 15 most-killed characters, coloured by the rule that killed them (all cells)"

    def wins_by_length(self, tables):
        """The player's wins by the loop won in; the scriptwriter's, counted at the last loop
        (a game the player loses plays every loop, unless R-2's wrong-name variant ends it sooner)."""
        w = tables.get("wins_by_loop")
        s = tables.get("summary")
        if w is None or s is None or "games" not in s.columns:
            return None
        g = w.group_by("loop").agg(pl.col("wins").sum()).sort("loop")
        x = g["loop"].to_numpy()
        player = g["wins"].to_numpy().astype(float)
        writer = np.zeros_like(player)
        writer[-1] = float(s["games"].sum()) - player.sum()
        return x, {"player": player, "scriptwriter": writer}, "loop the game ended in"

    def histograms(self, tables):
        """The day on which loops ended by a death (issue 14); loops survived, and those
        survived but lost to a wrong name (P-9), are shares named in the caption."""
        from sim.core.game import Histogram

        le = tables.get("loop_ends")
        if le is None or not le.height:
            return []
        g = le.group_by("day", "ended").agg(pl.col("loops").sum()).sort("day")
        total = int(g["loops"].sum())
        if total == 0:
            return []
        died = g.filter(pl.col("ended") == "died")
        rest = ", ".join(f"{r['ended']} {r['loops'] / total:.3f}" for r in
                         g.filter(pl.col("ended") != "died").iter_rows(named=True) if r["loops"])
        return [Histogram("loop_end_day", [str(d) for d in died["day"]],
                          {"a death ended the loop": died["loops"].to_numpy()}, total, "day of the loop",
                          "share of loops", "the day on which loops ended by a death",
                          f"not drawn: {rest or 'none'}; all drawn: {died['loops'].sum() / total:.3f}")]

    def lengths(self, tables, cells):
        if "wins_by_loop" not in tables:
            return None
        w = tables["wins_by_loop"].group_by("loop").agg(pl.col("wins").sum()).sort("loop")
        x, y = w["loop"].to_numpy(), w["wins"].to_numpy().astype(float)
        y[-1] += cells["games"].sum() - cells["successes"].sum()  # lost games play every loop
        return x, y, "loops played"


GAME = Looper()
