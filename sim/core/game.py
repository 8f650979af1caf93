"""The Game protocol: what the framework knows of a game, and the registry of games.

Every command that is not one game's own (``run``, ``loo``, ``strategies``, ``sweep``,
``compare``, ``report``, ``balance``, the dataset loader) is written once against
:class:`Game`. A game is a subclass with its name, its sides and their strategy
registries, how its configuration tree is built (data files + the user's file +
``--set``) and compiled (validated, kernel-ready: the game's *setup*), how a batch of
games is played (the kernel behind :func:`sim.core.runner.run_games`), how count arrays
become tables, its primary rate, what leave-one-out removes, and how sweep paths are
assigned.

Games are found in two places: the built-in ones (``sim.looper``, ``sim.werewolf``,
``sim.trpg``) and any installed package that declares an entry point in the group
``sim.games`` naming a :class:`Game` instance (or class). See docs/adding-a-game.md.
"""
from __future__ import annotations

import copy
import importlib
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import polars as pl

from sim.core import audit
from sim.core.compile_notice import compile_notice, playing
from sim.core.config import assign_path, load_toml, split_assignment
from sim.core.schema import ANY, check_keys
from sim.core.plugins import Registry
from sim.core.runner import DEFAULT_CHUNK, GameResult
from sim.errors import SimInputError

ENTRY_POINT_GROUP = "sim.games"
BUILTIN = {"looper": "sim.looper.protocol:GAME", "werewolf": "sim.werewolf.protocol:GAME",
           "trpg": "sim.trpg.protocol:GAME"}
# Wall-clock columns differ run to run; a dataset keeps only what the seed determines.
TIMING_COLUMNS = ("games_per_second", "seconds")


@dataclass(frozen=True)
class Option:
    """A game's own option of ``run`` / ``loo`` / ``trace`` (e.g. ``--roles``, a scenario
    argument): it becomes a keyword of :meth:`Game.build`."""

    name: str                      # keyword of build()
    type: Any = str
    default: Any = None
    flags: tuple[str, ...] = ()    # e.g. ("--roles",); empty: a positional argument
    help: str = ""


class Game:
    """The protocol, with defaults where one serves every game."""

    name: str = ""
    title: str = ""                          # one line for ``sim --help``
    sides: tuple[str, ...] = ()              # strategy slots, in CLI order (see sides_of)
    default_strategy: str = "random"         # a side's strategy when none is given
    metric: str = ""                         # the primary rate's column
    metric_label: str = ""                   # the rate as a designer reads it ("village's win rate")
    # the summary's own copies of the primary rate (count, rate, CI): a sweep cell's row has
    # them once, as successes / rate / rate_ci_low / rate_ci_high
    primary_columns: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()         # the game's own run options
    base_keys: frozenset = frozenset({"config", "set"})   # a sweep spec's [base] keys
    schema: Any = None                       # the configuration's keys (sim.core.schema)
    has_loo: bool = True                     # ``sim GAME loo``
    default_games: int = 100_000             # ``run --games`` when not given
    default_loo_games: int = 100_000         # ``loo --games`` (per row)
    # keys of a trace's result that ``sim GAME trace --find`` can test (``winner`` first)
    find_keys: tuple[str, ...] = ("winner",)
    group_word: str = "round"                # what a trace's events are grouped by

    def label(self, tables: Mapping[str, Any] | None = None) -> str:
        """How figures name the primary rate (``metric_label``, else the column's words);
        ``tables`` of a dataset may name it better (the TRPG's first side)."""
        return self.metric_label or self.metric.replace("_", " ")

    # -- strategies ---------------------------------------------------------------------
    def sides_of(self, setup: Any) -> tuple[str, ...]:
        """The strategy sides of a setup, in order (the primary rate is the first's): the
        game's :attr:`sides`, unless the setup names its own (the TRPG's ``scenario.sides``)."""
        return tuple(self.sides)

    def registries(self) -> Mapping[str, Registry]:
        """One registry per side (name → strategy; ``module:object`` plug-ins)."""
        raise NotImplementedError

    def registries_of(self, setup: Any) -> Mapping[str, Registry]:
        """One registry per side of this setup (:meth:`sides_of`); :meth:`registries` by default."""
        return self.registries()

    def strategy(self, side: str, spec: Any) -> Any:
        """A side's strategy from its name, ``module:object`` or an object already made."""
        regs = self.registries()
        if side not in regs:
            raise SimInputError(f"{self.name}: unknown side {side!r}; sides are {', '.join(regs)}")
        return regs[side].get(spec) if isinstance(spec, str) else spec

    def strategies(self, given: Mapping[str, Any] | None = None, setup: Any = None) -> dict[str, Any]:
        """Every side's strategy (the sides of ``setup`` when given, :meth:`sides_of`): the
        ones given, :attr:`default_strategy` (``random``) for the others."""
        given = dict(given or {})
        sides = self.sides_of(setup) if setup is not None else tuple(self.sides)
        unknown = set(given) - set(sides)
        if unknown:
            raise SimInputError(f"{self.name}: unknown side(s) {', '.join(sorted(unknown))}; "
                                f"sides are {', '.join(sides) or 'none'}")
        return {s: self.strategy(s, given.get(s) or self.default_strategy) for s in sides}

    # -- configuration ------------------------------------------------------------------
    def build(self, config: Path | dict | None = None, sets: Sequence[str] = (), **options: Any) -> dict:
        """The configuration tree: the game's data, the user's file, the options, ``--set``."""
        raise NotImplementedError

    def compile(self, tree: dict) -> Any:
        """The kernel-ready setup of a tree; every bad value is one SimInputError."""
        raise NotImplementedError

    def setup(self, config: Path | dict | None = None, sets: Sequence[str] = (), **options: Any) -> Any:
        return self.compile(self.build(config, sets, **options))

    def config_of(self, setup: Any) -> dict:
        """The tree a setup was compiled from (for manifests)."""
        return setup.config

    # -- playing ------------------------------------------------------------------------
    def run(self, setup: Any, strategies: Mapping[str, Any], games: int, seed: int = 0, *,
            spawn: tuple[int, ...] = (), start: int = 0, threads: int | None = None,
            chunk_size: int = DEFAULT_CHUNK, progress: bool = False,
            on_chunk: Callable | None = None, tables: bool = True) -> GameResult:
        """Games ``[start, start + games)`` of the run with this seed (game g draws from
        stream g, so any slice of a run equals the same games of a longer run)."""
        raise NotImplementedError

    def trace(self, setup: Any, strategies: Mapping[str, Any], seed: int, game: int, *,
              spawn: tuple[int, ...] = (), events: bool = True):
        """Game ``game`` of the run with this seed, played by the batch kernel with an
        event log: a :class:`sim.core.trace.Trace` whose ``result`` equals what
        ``run --first-game game --games 1`` reports (``events=False``: the result only,
        for ``--find``)."""
        raise SimInputError(f"{self.name}: no trace")

    def primary(self, totals: Mapping[str, np.ndarray]) -> tuple[int, int]:
        """(successes, games) of the primary rate in a totals (or one chunk's counts) dict."""
        raise NotImplementedError

    def summary_tables(self, result: GameResult) -> dict[str, pl.DataFrame]:
        raise NotImplementedError

    def combine(self, results: list[GameResult]) -> GameResult:
        """One result for consecutive batches (integer counts add up exactly)."""
        out = replace(results[0], totals=sum_totals(results), seconds=sum(r.seconds for r in results))
        out.tables = self.summary_tables(out)
        return out

    # -- output -------------------------------------------------------------------------
    def to_json(self, result: GameResult) -> dict:
        return result.to_json()

    def print_run(self, result: GameResult, console) -> None:
        raise NotImplementedError

    # -- leave-one-out --------------------------------------------------------------------
    def leave_one_out(self, setup: Any, strategies: Mapping[str, Any], games: int, seed: int, *,
                      threads: int | None = None) -> pl.DataFrame:
        raise SimInputError(f"{self.name}: no leave-one-out")

    def print_loo(self, df: pl.DataFrame, setup: Any, strategies: Mapping[str, Any], games: int, console) -> None:
        raise NotImplementedError

    # -- restricted play (sim GAME loo --restrict) ------------------------------------------
    def abilities(self, setup: Any, strategies: Mapping[str, Any]) -> list:
        """The optional abilities of this setup (:class:`sim.analysis.restrict.Ability`):
        each can be withheld while its holder keeps its seat and team."""
        return []

    def restrict(self, setup: Any, strategies: Mapping[str, Any], ability: str) -> tuple[Any, dict]:
        """(setup, strategies) of the game played without ``ability``."""
        raise SimInputError(f"{self.name}: no optional ability {ability!r}")

    def draw_setup(self, rng) -> tuple[str, dict]:
        """One setup drawn at random (``rng``: a numpy Generator) for ``sim GAME competence``:
        (a short description, the configuration tree as :meth:`build` returns it). A game
        draws from its own data: compositions, builds, rosters, rule variants."""
        raise SimInputError(f"{self.name}: no setups to draw (the game does not define draw_setup)")

    # -- values by substitution (sim GAME values) --------------------------------------------
    def changes(self, setup: Any, strategies: Mapping[str, Any]) -> list:
        """The counterfactuals of ``sim GAME values`` (:class:`sim.analysis.values.Change`):
        each special role replaced by its team's plain role, then each ability at its
        neutral value, the holder kept. By default the optional abilities of restricted play
        (:meth:`abilities`), each withheld; a game adds its roles and neutral values."""
        from sim.analysis.values import Change

        return [Change(a.name, "ability", a.holder, a.side, a.withheld) for a in self.abilities(setup, strategies)]

    def change(self, setup: Any, strategies: Mapping[str, Any], name: str) -> tuple[Any, dict]:
        """(setup, strategies) of the variant ``name`` of :meth:`changes` (by default the
        restricted play of that ability)."""
        return self.restrict(setup, strategies, name)

    def first_mover(self, setup: Any):
        """Where the rules say who moves first: (the rule, who moves first as played, who in
        the swapped setup, the swapped setup) — ``run --first-mover`` measures the advantage
        on the same games; None where the rules have no first mover."""
        return None

    def kernel_pairs(self) -> list[tuple[Any, dict[str, str]]]:
        """``(setup, {side: strategy})`` whose runs build every kernel the shipped
        strategies play in (``sim precompile``): by default the game's default setup with
        one honest and one ``oracle_…`` strategy per side, in every combination (a kernel
        is per kind of view; any other shipped pair plays in one of them)."""
        import itertools

        from sim.core.views import representatives

        setup = self.setup()
        regs = self.registries_of(setup)
        sides = self.sides_of(setup)
        reps = [representatives(regs[s].names()) for s in sides]
        return [(setup, dict(zip(sides, combo))) for combo in itertools.product(*reps)]

    def kernel_task(self, given: Mapping[str, str], pairs: list | None = None) -> int | None:
        """The index of the :meth:`kernel_pairs` pair whose kernel ``given`` plays in, or None
        (a plug-in, a strategy of no shipped kind): the pair itself when it is one (a pair with
        a kernel of its own: every Looper pair, Werewolf's random vs random), else the first
        pair of the same kind of view on every side (honest or ``oracle_…``), all sides shipped."""
        from sim.core.views import is_oracle

        pairs = self.kernel_pairs() if pairs is None else pairs
        regs = self.registries()
        if any(side not in regs or v not in regs[side].names() for side, v in given.items()):
            return None
        given = dict(given)
        for i, (_, p) in enumerate(pairs):
            if p == given:
                return i
        for i, (_, p) in enumerate(pairs):
            if set(p) == set(given) and all(is_oracle(p[s]) == is_oracle(given[s]) for s in given):
                return i
        return None

    def heavy_kernel(self, given: Mapping[str, str]) -> bool:
        """Whether the kernel of a :meth:`kernel_pairs` pair takes minutes to compile
        (``sim precompile --light`` leaves those to their first use)."""
        return False

    def setup_oracles(self, setup: Any) -> dict[str, str]:
        """Oracle strategies a setup itself names (the TRPG's per-character strategies):
        who → name; the sides' strategies are labelled from their names."""
        return {}

    def manifest_extra(self, setup: Any, options: Mapping[str, Any]) -> dict:
        """What a run's manifest records besides the configuration: the game's options
        that were given (not left at their defaults)."""
        defaults = {o.name: o.default for o in self.options}
        return {k: (str(v) if isinstance(v, Path) else v) for k, v in options.items()
                if v is not None and v is not ... and v != defaults.get(k)}

    def loo_manifest(self, setup: Any) -> dict:
        """Extra keys of a leave-one-out manifest and JSON (e.g. the TRPG's sides)."""
        return {}

    # -- the game's own commands and report figures -----------------------------------------
    def commands(self, app) -> None:
        """Add the game's own sub-commands (``sim werewolf exact``, ``sim trpg matrix``, …)."""

    def run_primary(self, tables: Mapping[str, pl.DataFrame]) -> int:
        """Successes of the primary rate in one run's tables (the dataset loader)."""
        return int(tables["summary"][self.primary_columns[0]][0])

    def causes_figure(self, tables: Mapping[str, pl.DataFrame], total_games: int, path: Path) -> str | None:
        """Draw how participants leave the game (deaths, eliminations, falls) into ``path``;
        the caption, or None when the tables have nothing to draw."""
        return None

    def lengths(self, tables: Mapping[str, pl.DataFrame], cells: pl.DataFrame):
        """Game lengths over all cells: (values, games, axis label), or None."""
        return None

    def wins_by_length(self, tables: Mapping[str, pl.DataFrame]):
        """Time in the game: (lengths, {side: wins at each length}, axis label), or None —
        the report's "who wins when" figure."""
        return None

    def histograms(self, tables: Mapping[str, pl.DataFrame]) -> list["Histogram"]:
        """The game's own distributions for the report, each a :class:`Histogram` of counts
        summed over all cells (the Looper's day on which loops ended); none by default."""
        return []

    # -- sweeps ---------------------------------------------------------------------------
    def base_tree(self, base: dict, spec_dir: Path) -> dict:
        """The tree of a sweep or balance spec's ``[base]`` table (its game keys)."""
        return self.build(user_config(base, spec_dir, self.schema))

    def base_schema(self) -> dict:
        """The keys of a spec's [base] table for this game."""
        return {k: ANY for k in sorted(self.base_keys | set(self.sides))}

    def base_cell(self, base: dict, spec_dir: Path) -> dict:
        """A sweep cell: ``{"tree": …, "strategies": {side: name}}`` (picklable)."""
        check_keys({"base": base}, {"base": self.base_schema()}, f"{self.name} spec")
        sets = base.get("set", [])
        if not isinstance(sets, list) or not all(isinstance(x, str) for x in sets):
            raise SimInputError("base.set: expected a list of \"PATH=VALUE\" strings")
        cell = {"tree": self.base_tree(base, spec_dir), "strategies": {}}
        for k in self.sides:
            self.assign(cell, k, base.get(k, self.default_strategy))
        for item in sets:
            path, value = split_assignment(item)
            self.assign(cell, path, value)
        return cell

    def assign(self, cell: dict, path: str, value: Any) -> None:
        """Set one sweep axis (a strategy slot or a tree path) in a cell."""
        if path in self.sides:
            if not isinstance(value, str) or not value:
                raise SimInputError(f"{path}: expected a strategy name, got {value!r}")
            cell["strategies"][path] = value
            return
        assign_path(cell["tree"], self.expand_path(cell["tree"], path), copy.deepcopy(value), schema=self.schema)

    def expand_path(self, tree: dict, path: str) -> str:
        return path

    def parameters(self, tree: dict) -> dict[str, Any]:
        """Every sweepable path of a tree with its value: the strategy slots, every leaf
        of the tree (list items by index) and the game's own shorthands."""
        out: dict[str, Any] = {s: self.default_strategy for s in self.sides}

        def walk(node: Any, prefix: str) -> None:
            if isinstance(node, dict) and node:
                for k, v in node.items():
                    walk(v, f"{prefix}{k}.")
            elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
                for i, v in enumerate(node):
                    walk(v, f"{prefix}{i}.")
            else:
                out[prefix[:-1]] = node

        walk(tree, "")
        out.update(self.extra_parameters(tree))
        return out

    def knob_path(self, side: str, knob: str) -> str:
        """The configuration path of a strategy knob of ``side`` (``threshold@k=3`` on race's
        p1 sets ``p1.k``); the game's schema checks it like any ``--set`` path."""
        return f"{side}.{knob}"

    def knob_vectors(self, setup: Any, strategies: Mapping[str, Any]) -> dict[str, Any]:
        """Each side's knob values (float64, the strategy's declared order) from the setup's
        configuration at :meth:`knob_path` (``<side>.<knob>``), checked against the side's
        strategy: a knob it does not declare is one SimInputError naming the closest. Games
        whose kernels read knobs call it in ``run``; the CLI calls it before any game."""
        from sim.core.knobs import knob_vector

        tree = self.config_of(setup)
        return {side: knob_vector(s, getattr(s, "name", side), (tree or {}).get(side), side)
                for side, s in strategies.items()}

    def extra_parameters(self, tree: dict) -> dict[str, Any]:
        """Sweep shorthands beyond the tree's own paths (e.g. Werewolf's ``count.<role>``)."""
        return {}

    def make_cell(self, base: dict, point: Mapping[str, Any]) -> tuple[dict, Any]:
        """A copy of ``base`` with ``point``'s values assigned, and its compiled form."""
        cell = copy.deepcopy(base)
        for path, value in point.items():
            self.assign(cell, path, value)
        return cell, self.compile_cell(cell)

    def compile_cell(self, cell: dict) -> tuple[Any, dict[str, Any]]:
        setup = self.compile(cell["tree"])
        return setup, self.strategies(cell["strategies"], setup)

    def player(self, compiled: tuple[Any, dict], seed: int, spawn: tuple[int, ...]) -> Callable[..., GameResult]:
        """``play(start, games, **run_kw)`` for the games of one sweep cell (totals only)."""
        setup, strategies = compiled

        def play(start: int, games: int, **kw: Any) -> GameResult:
            return self.run(setup, strategies, games, seed, spawn=spawn, start=start, tables=False, **kw)
        return play


@dataclass(frozen=True)
class Histogram:
    """One report figure of a game's own: counts at each ``x`` (labels in order), one bar
    per ``x`` and, with several ``parts``, stacked; drawn as shares of ``total`` (the
    population the counts are out of: loops, games, …), which need not be the sum of the
    bars — a bar left out (loops survived) is named in ``note``."""
    name: str                      # file stem: hist_<name>.png
    x: Sequence[str]
    parts: Mapping[str, np.ndarray]
    total: float
    xlabel: str
    ylabel: str                    # "share of loops"
    title: str
    note: str = ""                 # appended to the caption


def sum_totals(results: list[GameResult]) -> dict:
    """Element-wise sum of the count arrays of consecutive batches."""
    return {k: np.sum([r.totals[k] for r in results], axis=0) for k in results[0].totals}


def user_config(base: dict, spec_dir: Path, schema: Any = None) -> dict | None:
    """``[base] config = "file.toml"`` (relative to the spec) or an inline table; its keys
    are checked against the game's ``schema``."""
    c = base.get("config")
    if c is None:
        return None
    if isinstance(c, dict):
        if schema is not None:
            check_keys(c, schema, "base.config")
        return c
    if isinstance(c, str):
        p = (spec_dir / c) if not Path(c).is_absolute() else Path(c)
        cfg = load_toml(p)
        if schema is not None:
            check_keys(cfg, schema, str(p))
        return cfg
    raise SimInputError(f"base.config: expected a file name or a table, got {c!r}")


# -- the registry -----------------------------------------------------------------------
_GAMES: dict[str, Game] = {}


def _load(target: str, where: str) -> Game:
    mod_name, _, attr = target.partition(":")
    obj = getattr(importlib.import_module(mod_name), attr)
    game = obj() if isinstance(obj, type) else obj
    if not isinstance(game, Game) or not game.name:
        raise TypeError(f"{where}: {target} is not a sim.core.game.Game with a name")
    _note_runs(game)
    return game


def _note_runs(game: Game) -> None:
    """Every run says what it plays: to the compile notice (sim.core.compile_notice), and in
    the audit mode (--check-bounds) to sim.core.audit, which replays it as plain Python if a
    bounds-checked kernel raises."""
    run = game.run

    def noted_run(setup, strategies, *args, **kw):
        playing(game.name, dict(strategies))
        if audit.enabled():
            try:
                tree = game.config_of(setup)
            except Exception:  # noqa: BLE001 - only the error message needs it
                tree = None
            audit.note(game, tree, strategies)
        return run(setup, strategies, *args, **kw)

    trace = game.trace

    def noted_trace(setup, strategies, *args, **kw):
        playing(game.name, dict(strategies))
        with compile_notice():  # a traced kernel is a compile of its own on first use
            return trace(setup, strategies, *args, **kw)

    game.run = noted_run
    game.trace = noted_trace


def entry_points() -> dict[str, str]:
    """Installed games: ``name → module:object`` from the ``sim.games`` entry points."""
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


_BROKEN: dict[str, str] = {}


def games() -> dict[str, Game]:
    """Every game, built-in first, then installed ones in name order. An installed game
    that fails to load is left out (``get`` names the reason), so one broken plug-in
    package does not take the other games down with it."""
    global _ALL
    if _ALL != id(_GAMES):  # not yet loaded into this registry (tests swap it for a fresh one)
        for name, target in BUILTIN.items():
            if name not in _GAMES:
                _GAMES[name] = _load(target, f"game {name!r}")
        for name, target in sorted(entry_points().items()):
            if name in _GAMES or name in BUILTIN:
                continue
            try:
                _GAMES[name] = _load(target, f"game {name!r}")
            except Exception as e:  # noqa: BLE001 - a plug-in's own bug
                _BROKEN[name] = f"{target}: {type(e).__name__}: {e}"
        _ALL = id(_GAMES)
    order = [*BUILTIN, *sorted(n for n in _GAMES if n not in BUILTIN)]  # as listed, whatever loaded first
    return {n: _GAMES[n] for n in order if n in _GAMES}


_ALL: int | None = None  # id of the registry every game was loaded into (games()); load_one loads one


def game_names() -> list[str]:
    """Every game's name, built-in first, without loading any (the CLI loads the one used)."""
    return [*BUILTIN, *sorted(n for n in entry_points() if n not in BUILTIN)]


def load_one(name: str) -> Game:
    """The game ``name`` loaded alone (a designer's ``sim werewolf run`` need not import the
    Looper); :func:`get`'s errors for an unknown or broken one."""
    if name in _GAMES:
        return _GAMES[name]
    target = BUILTIN.get(name) or entry_points().get(name)
    if target is None or name in _BROKEN:
        return get(name)
    try:
        game = _load(target, f"game {name!r}")
    except Exception:  # noqa: BLE001 - get() loads every game and names the reason
        return get(name)
    return _GAMES.setdefault(name, game)


def get(name: str) -> Game:
    """The registered game called ``name`` (a clear error when unknown or broken)."""
    gs = games()
    if name in _BROKEN:
        raise SimInputError(f"game {name!r} is installed but does not load ({_BROKEN[name]})")
    if name not in gs:
        raise SimInputError(f"game: unknown game {name!r}; choose {', '.join(gs)}")
    return gs[name]


__all__ = ["Game", "Option", "ENTRY_POINT_GROUP", "games", "get", "user_config", "sum_totals", "TIMING_COLUMNS"]
