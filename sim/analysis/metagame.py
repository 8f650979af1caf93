"""The skill ladder and the meta-game equilibrium between two sides' strategies.

Written once against :class:`sim.core.game.Game` for every game with two strategy sides
(Looper: player / scriptwriter, Werewolf: village / wolves, race: p1 / p2). A *tier* is a
strategy of one side, by name or ``module:object``, with knob values: ``threshold@k=3``
plays ``threshold`` with the configuration path ``<side>.k`` set to 3 (the game's
:meth:`knob_path`), so knobs are checked by the game's schema like any ``--set``.

* :func:`ladder` measures the primary rate of every pair of tiers (the first side's rate,
  e.g. the village's win rate), each cell on the same random streams (common random
  numbers), with Wilson 95% intervals.
* :func:`equilibrium` solves the measured matrix as a zero-sum game by linear programming
  (``scipy.optimize.linprog``: the first side maximises the rate, the second minimises
  it), then re-measures every cell on fresh games (another spawn key) so the reported
  value is not fitted to the noise it was chosen on (winner's curse), and reports each
  side's exploitability: the gain of its best pure tier against the other's mixture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import polars as pl

from sim.core.game import Game
from sim.core.knobs import Spec, parse_spec
from sim.core.stats import wilson
from sim.core.views import is_oracle
from sim.errors import SimInputError

Z95 = 1.959963984540054
MEASURE, FRESH = 11, 12  # spawn keys: the matrix the mixtures are solved on, and the fresh one


class Tier(Spec):
    """One side's strategy with its knob values (``name@knob=value@…``)."""

    @property
    def strategy(self) -> str:
        return self.name

    @property
    def oracle(self) -> bool:
        return is_oracle(self.name)


def parse_tier(game: Game, side: str, text: str) -> Tier:
    """``threshold@k=3`` → the side's ``threshold`` with knob k = 3 (names and knobs checked now)."""
    s = parse_spec(game, side, text)
    return Tier(s.side, s.name, s.knobs)


def default_tiers(game: Game, side: str, setup: Any = None) -> list[Tier]:
    """Every registered strategy of a side (oracles included: they are labelled)."""
    regs = game.registries_of(setup) if setup is not None else game.registries()
    return [Tier(side, n) for n in regs[side].names()]


def two_sides(game: Game, setup: Any = None) -> tuple[str, str]:
    """The two strategy sides of the game (of ``setup``: :meth:`Game.sides_of`)."""
    sides = game.sides_of(setup) if setup is not None else tuple(game.sides)
    if len(sides) != 2:
        raise SimInputError(f"{game.name}: a ladder needs two strategy sides; it has "
                            f"{len(sides) or 'no'} ({', '.join(sides) or 'strategies are set per character'})")
    return sides[0], sides[1]


@dataclass
class Matrix:
    """Successes and games of the first side's rate for each (row tier, column tier)."""
    rows: list[Tier]
    cols: list[Tier]
    successes: np.ndarray
    games: np.ndarray
    # (row, col) -> per-block (starts, games, successes) on the common streams: paired
    # differences between cells (hidden_information)
    blocks: dict = field(default_factory=dict)

    @property
    def rate(self) -> np.ndarray:
        return self.successes / self.games

    def frame(self) -> pl.DataFrame:
        out = []
        for i, r in enumerate(self.rows):
            for j, c in enumerate(self.cols):
                s, g = int(self.successes[i, j]), int(self.games[i, j])
                lo, hi = wilson(s, g)
                out.append({"row": r.label, "col": c.label, "successes": s, "games": g, "rate": s / g,
                            "ci_low": lo, "ci_high": hi, "row_oracle": r.oracle, "col_oracle": c.oracle})
        return pl.DataFrame(out)


def _cell(game: Game, tree: dict, *specs: Spec) -> tuple[Any, dict]:
    point: dict[str, Any] = {}
    for t in specs:
        point[t.side] = t.name
        for k, v in t.knobs:
            point[game.knob_path(t.side, k)] = v
    return game.make_cell({"tree": tree, "strategies": {}}, point)


def measure(game: Game, tree: dict, rows: Sequence[Tier], cols: Sequence[Tier], games: int, seed: int,
            spawn: tuple[int, ...], threads: int | None = None, progress=None, client=None) -> Matrix:
    """Play ``games`` games of every pair on the same streams (seed, spawn), as cells of the
    sweep backends (this process, or Dask workers when ``client`` is given): the same
    numbers either way."""
    from sim.sweep.backend import run_dask, run_local
    from sim.sweep.cell import CellJob

    pairs = [(i, j) for i in range(len(rows)) for j in range(len(cols))]
    if client is None:  # a cold cache: the cells' kernels compiled side by side first (issue 42)
        from sim.core.precompile import compile_for

        compile_for(game.name, [{rows[i].side: rows[i].name, cols[j].side: cols[j].name} for i, j in pairs])
    jobs, compiled = [], {}
    for k, (i, j) in enumerate(pairs):
        cfg, comp = _cell(game, tree, rows[i], cols[j])
        jobs.append(CellJob(game.name, k, {}, cfg, seed, spawn, games, None, games, games, max(1, -(-games // 16)),
                            1 if client is not None else threads))
        compiled[k] = comp
    s = np.zeros((len(rows), len(cols)), np.int64)
    g = np.zeros_like(s)
    blocks = {}

    def done(res) -> None:
        i, j = pairs[res.index]
        row = res.tables["summary"].row(0, named=True)
        s[i, j], g[i, j] = row["successes"], res.games
        b = res.tables["summary"].select("blocks").explode("blocks").unnest("blocks").sort("start")
        blocks[i, j] = tuple(b[c].to_numpy() for c in ("start", "games", "successes"))
        if progress is not None:
            progress()

    if client is not None:
        run_dask(jobs, client, done)
    else:
        run_local(jobs, compiled, done, threads)
    return Matrix(list(rows), list(cols), s, g, blocks)


def honest_twin(t: Tier) -> str:
    """The label of an oracle tier's honest counterpart: the same strategy without the
    ``oracle_`` prefix, the same knobs (``oracle_planner@budget=64`` → ``planner@budget=64``)."""
    from sim.core.views import ORACLE_PREFIX

    mod, colon, name = t.name.rpartition(":")
    return Tier(t.side, mod + colon + name[len(ORACLE_PREFIX):], t.knobs).label


def hidden_information(m: Matrix) -> pl.DataFrame:
    """The value of the hidden information: each oracle tier of the ladder against its honest
    twin (:func:`honest_twin`, when it is on the ladder too), opponent by opponent — the
    oracle's side's gain in the first side's rate (for the second side: how much lower the
    first side's rate is against the oracle), with the 95% interval of the difference
    paired over the cells' blocks (the same games: common random numbers)."""
    from sim.analysis.restrict import paired_delta

    out = []
    for along, tiers, others in (("row", m.rows, m.cols), ("col", m.cols, m.rows)):
        where = {t.label: k for k, t in enumerate(tiers)}
        for k, t in enumerate(tiers):
            h = where.get(honest_twin(t)) if t.oracle else None
            if h is None:
                continue
            for o, other in enumerate(others):
                a, b = ((k, o), (h, o)) if along == "row" else ((o, k), (o, h))
                sa, sb = m.blocks.get(a), m.blocks.get(b)
                if sa is not None and sb is not None and np.array_equal(sa[0], sb[0]):
                    d, lo, hi = paired_delta(sb[2], sa[2], sa[1])
                else:  # no blocks to pair: the two cells as independent binomials (wider)
                    ra, rb = m.successes[a] / m.games[a], m.successes[b] / m.games[b]
                    d = ra - rb
                    half = Z95 * math.sqrt(ra * (1 - ra) / m.games[a] + rb * (1 - rb) / m.games[b])
                    lo, hi = d - half, d + half
                sign = 1.0 if along == "row" else -1.0  # the second side gains when the rate falls
                lo, hi = sorted((sign * lo, sign * hi))
                out.append({"side": t.side, "oracle": t.label, "honest": tiers[h].label, "against": other.label,
                            "oracle_rate": float(m.rate[a]), "honest_rate": float(m.rate[b]),
                            "gain": sign * d, "ci_low": lo, "ci_high": hi})
    return pl.DataFrame(out, schema={"side": pl.String, "oracle": pl.String, "honest": pl.String,
                                     "against": pl.String, "oracle_rate": pl.Float64, "honest_rate": pl.Float64,
                                     "gain": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64})


def strongest(m: Matrix) -> tuple[int, int]:
    """The honest (non-oracle) tiers each side would pick from the ladder: the first side's
    row with the best worst case, the second side's column with the best worst case (the
    pure maximin / minimax over the honest cells)."""
    rows = [i for i, r in enumerate(m.rows) if not r.oracle]
    cols = [j for j, c in enumerate(m.cols) if not c.oracle]
    if not rows or not cols:
        raise SimInputError("the competence check needs an honest (non-oracle) tier on each side")
    r = m.rate
    i = max(rows, key=lambda i: (min(r[i, j] for j in cols), -i))
    j = min(cols, key=lambda j: (max(r[i2, j] for i2 in rows), j))
    return i, j


def competence(game: Game, tree: dict, m: Matrix, games: int, seed: int, threads: int | None = None):
    """Restricted play (:func:`sim.analysis.restrict.restricted_play`) of the strongest
    honest tiers against each other: every optional ability withheld in turn, its value to
    its own side with the paired 95% interval. A competent pair of strategies never gains
    by giving an ability up (``competent`` false where the whole interval is below zero).
    Returns (row tier, column tier, table); the table is ``None`` when the setup has no
    optional ability."""
    from sim.analysis.restrict import restricted_play

    i, j = strongest(m)
    _, (setup, strategies) = _cell(game, tree, m.rows[i], m.cols[j])
    if not game.abilities(setup, strategies):
        return m.rows[i], m.cols[j], None
    return m.rows[i], m.cols[j], restricted_play(game, setup, strategies, games, seed, threads=threads)


def solve_zero_sum(a: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal mixtures of the zero-sum game where the row player receives
    ``a[i, j]`` (maximises) and the column player pays it (minimises)."""
    from scipy.optimize import linprog

    a = np.asarray(a, float)
    m, n = a.shape
    # rows: maximise v s.t. (x^T a)_j >= v for all j, sum x = 1, x >= 0  (variables x, v)
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-a.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)],
                  method="highs")
    cols = linprog(np.r_[np.zeros(n), 1.0], A_ub=np.c_[a, -np.ones(m)], b_ub=np.zeros(m),
                   A_eq=np.r_[np.ones(n), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * n + [(None, None)],
                   method="highs")
    if res.status != 0 or cols.status != 0:  # pragma: no cover - a bounded LP always solves
        raise RuntimeError(f"linprog failed: {res.message} / {cols.message}")
    x = np.clip(res.x[:m], 0, None)
    y = np.clip(cols.x[:n], 0, None)
    return float(-res.fun), x / x.sum(), y / y.sum()


@dataclass
class Equilibrium:
    """The meta-game's solution: mixtures on the measured matrix, value and exploitability on fresh games."""
    sides: tuple[str, str]
    measured: Matrix
    fresh: Matrix
    mixture: dict[str, dict[str, float]]
    value: float
    ci_low: float
    ci_high: float
    exploitability: dict[str, float]
    best_response: dict[str, str]
    fitted_value: float
    epsilon: float
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"sides": list(self.sides), "value": self.value, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "fitted_value": self.fitted_value, "exploitability": self.exploitability,
                "best_response": self.best_response, "mixture": self.mixture, "epsilon": self.epsilon,
                "within_epsilon": all(v <= self.epsilon for v in self.exploitability.values()),
                "games_per_cell": int(self.fresh.games[0, 0]), "notes": self.notes,
                "matrix": self.fresh.frame().to_dicts()}


def equilibrium(game: Game, tree: dict, rows: Sequence[Tier], cols: Sequence[Tier], games: int, seed: int, *,
                epsilon: float = 0.01, threads: int | None = None, progress=None, client=None) -> Equilibrium:
    """Solve on one measurement, report on a fresh one (see the module docstring)."""
    a, b = rows[0].side, cols[0].side
    m = measure(game, tree, rows, cols, games, seed, (MEASURE,), threads, progress, client)
    fitted, x, y = solve_zero_sum(m.rate)
    f = measure(game, tree, rows, cols, games, seed, (FRESH,), threads, progress, client)
    p = f.rate
    value = float(x @ p @ y)
    # the cells are independent binomials on the fresh streams only within a cell's games;
    # the mixture's variance adds the weighted cell variances (delta method, weights fixed)
    var = float(((np.outer(x, y) ** 2) * p * (1 - p) / f.games).sum())
    half = Z95 * math.sqrt(var)
    row_gain = float((p @ y).max() - value)
    col_gain = float(value - (x @ p).min())
    notes = []
    if any(t.oracle for t in (*rows, *cols)):
        notes.append("oracle strategies are in the population: they read hidden information")
    return Equilibrium(
        (a, b), m, f, {a: {t.label: float(w) for t, w in zip(rows, x)}, b: {t.label: float(w) for t, w in zip(cols, y)}},
        value, max(0.0, value - half), min(1.0, value + half), {a: row_gain, b: col_gain},
        {a: rows[int((p @ y).argmax())].label, b: cols[int((x @ p).argmin())].label}, fitted, epsilon, notes)
