"""What the sweep layer needs from a game, in one small interface per game.

A *cell* is a plain, picklable dict ``{"tree": <the game's configuration tree>,
"strategies": {...}}`` so it can travel to a Dask worker. An adapter builds the base cell
from a spec's ``[base]`` table, assigns one axis value to a cell, compiles a cell
(validating it: every bad value is a :class:`SimInputError`), and plays a batch of games.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.core.config import assign_path, load_toml, split_assignment
from sim.core.schema import ANY, check_keys
from sim.core.runner import GameResult
from sim.errors import SimInputError

# Wall-clock columns differ run to run; a dataset keeps only what the seed determines.
TIMING_COLUMNS = ("games_per_second", "seconds")


class GameAdapter:
    game: str = ""
    metric: str = ""                        # name of the primary rate (adaptive sampling, compare)
    # the game summary's own copies of the primary rate (count, rate, CI): a cell's row has
    # them once, as successes / rate / rate_ci_low / rate_ci_high
    primary_columns: tuple[str, ...] = ()
    strategy_keys: tuple[str, ...] = ()     # axis paths that name a strategy
    base_keys: frozenset = frozenset({"config", "set"})
    schema: Any = None                      # the game's configuration schema (sim.core.schema)

    # -- building cells ---------------------------------------------------------------
    def base_schema(self) -> dict:
        """The keys of a spec's [base] table for this game."""
        return {k: ANY for k in sorted(self.base_keys | set(self.strategy_keys))}

    def base_cell(self, base: dict, spec_dir: Path) -> dict:
        check_keys({"base": base}, {"base": self.base_schema()}, f"{self.game} spec")
        sets = base.get("set", [])
        if not isinstance(sets, list) or not all(isinstance(x, str) for x in sets):
            raise SimInputError("base.set: expected a list of \"PATH=VALUE\" strings")
        cell = {"tree": self.base_tree(base, spec_dir), "strategies": {}}
        for k in self.strategy_keys:
            self.assign(cell, k, base.get(k, "random"))
        for item in sets:
            path, value = split_assignment(item)
            self.assign(cell, path, value)
        return cell

    def base_tree(self, base: dict, spec_dir: Path) -> dict:  # pragma: no cover - per game
        raise NotImplementedError

    def assign(self, cell: dict, path: str, value: Any) -> None:
        if path in self.strategy_keys:
            if not isinstance(value, str) or not value:
                raise SimInputError(f"{path}: expected a strategy name, got {value!r}")
            cell["strategies"][path] = value
            return
        assign_path(cell["tree"], self.expand_path(cell["tree"], path), copy.deepcopy(value), schema=self.schema)

    def expand_path(self, tree: dict, path: str) -> str:
        return path

    def make_cell(self, base: dict, point: dict[str, Any]) -> tuple[dict, Any]:
        """A copy of ``base`` with ``point``'s values assigned, and its compiled form."""
        cell = copy.deepcopy(base)
        for path, value in point.items():
            self.assign(cell, path, value)
        return cell, self.compile(cell)

    # -- compiling and playing ----------------------------------------------------------
    def compile(self, cell: dict) -> Any:  # pragma: no cover - per game
        raise NotImplementedError

    def player(self, compiled: Any, seed: int, spawn: tuple[int, ...]) -> Callable[..., GameResult]:
        """``play(start, games, **run_kw) -> GameResult`` (totals only, no tables) for the
        games of this cell; ``run_kw`` go to the game's ``run`` (threads, chunk_size, on_chunk)."""
        raise NotImplementedError  # pragma: no cover - per game

    def primary(self, totals: dict) -> tuple[int, int]:
        """(successes, games) of the primary rate in a totals (or one chunk's counts) dict."""
        raise NotImplementedError  # pragma: no cover - per game

    def summary_tables(self, r: GameResult) -> dict:  # pragma: no cover - per game
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------------
    def combine(self, results: list[GameResult]) -> GameResult:
        """One result for consecutive batches (integer counts add up exactly)."""
        out = replace(results[0], totals=sum_totals(results), seconds=sum(r.seconds for r in results))
        out.tables = self.summary_tables(out)
        return out



def sum_totals(results: list[GameResult]) -> dict:
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


def adapter(game: str) -> GameAdapter:
    if game == "looper":
        from sim.looper.sweep import LooperAdapter as A
    elif game == "werewolf":
        from sim.werewolf.sweep import WerewolfAdapter as A
    elif game == "trpg":
        from sim.trpg.sweep import TrpgAdapter as A
    else:
        raise SimInputError(f"game: unknown game {game!r}; choose looper, werewolf or trpg")
    return A()
