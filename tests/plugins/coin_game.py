"""A stand-in game for the registry tests: a fair coin per game, in plain Python
(the protocol does not require numba)."""
from __future__ import annotations

import numpy as np
import polars as pl

from sim.core.game import Game
from sim.core.runner import GameResult
from sim.core.seeding import run_key
from sim.core.stats import wilson


class Coin(Game):
    name = "coin"
    title = "A fair coin (test stand-in)."
    sides = ()
    metric = "win_rate"
    primary_columns = ("wins", "win_rate", "ci_low", "ci_high")
    has_loo = False

    def registries(self):
        return {}

    def build(self, config=None, sets=()):
        return {"rules": {"p": 0.5}}

    def compile(self, tree):
        return tree

    def config_of(self, setup):
        return setup

    def run(self, setup, strategies, games, seed=0, *, start=0, spawn=(), tables=True, **kw):
        key = run_key(seed, *spawn)
        rng = np.random.default_rng([int(x) for x in np.asarray(key).ravel()] + [start])
        wins = int((rng.random(games) < setup["rules"]["p"]).sum())
        r = GameResult(seed=seed, totals={"s": np.array([wins, games])}, seconds=0.0)
        if tables:
            r.tables = self.summary_tables(r)
        return r

    def primary(self, totals):
        return int(totals["s"][0]), int(totals["s"][1])

    def summary_tables(self, result):
        s, g = self.primary(result.totals)
        lo, hi = wilson(s, g)
        return {"summary": pl.DataFrame([{"games": g, "wins": s, "win_rate": s / g, "ci_low": lo, "ci_high": hi}])}

    def to_json(self, result):
        return result.summary.row(0, named=True)


GAME = Coin()
