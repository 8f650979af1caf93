"""``sim balance SPEC --adapt``: balance at equilibrium (issue 40).

The fixed-strategy balance measures a setting under the strategies of ``[base]``; after the
change those strategies are no longer best responses, and the answer moves. Here each
candidate setting's value is the value of the grown equilibrium (:func:`sim.analysis.grow.grow`)
of that setting: both sides adapt. The search is the same (:mod:`sim.analysis.balance`:
bisection on one parameter, random search + halving + local search on several); each
evaluation re-solves, warm-started from the population of the setting evaluated before it
(a neighbour, during bisection and local search), so a best response found once is not
searched again from nothing. A setting's interval is that of the equilibrium value on
fresh games; more games (``settle``) re-solve with more games per cell.

The spec's optional ``[adapt]`` table::

    [adapt]
    tiers = { p1 = ["threshold"], p2 = ["threshold"] }   # the starting population (default: [base]'s strategies)
    families = { p1 = ["bold"] }     # more families a best response is searched in
    rounds = 4                       # double-oracle rounds per setting
    budget = 10                      # knob-search evaluations per family and best response
    games = 2000                     # games per cell (grown by settle)
    epsilon = 0.01
    warm = true                      # false: every setting grows from the tiers alone
"""
from __future__ import annotations

from typing import Any

from sim.analysis.balance import BalanceResult, BalanceSpec, Evaluator, balance
from sim.analysis.equilibrium_options import SCHEMA, equilibrium_options

ADAPT_SCHEMA = {"adapt": SCHEMA}


def adapt_options(spec: BalanceSpec) -> dict:
    """The spec's ``[adapt]`` table, checked, with its defaults."""
    game = spec.protocol
    return equilibrium_options(game, game.base_cell(spec.base, spec.spec_dir), spec.raw.get("adapt") or {}, "adapt",
                               "balance spec")


class AdaptEvaluator(Evaluator):
    """Each point's value is its grown equilibrium's, warm-started from the last population."""

    def __init__(self, spec: BalanceSpec, threads: int | None = None, opts: dict | None = None, client=None):
        super().__init__(spec, threads)
        self.client = client  # Dask: each grown equilibrium's games batches on the workers
        self.opts = opts or adapt_options(spec)
        self.pop = (self.opts["rows"], self.opts["cols"])
        self.grown: dict[tuple, Any] = {}

    def evaluate(self, point: dict, games: int, phase: str) -> tuple[float, float, float, int]:
        from sim.analysis.grow import grow

        per_cell = max(self.opts["games"], games // 4)  # the value is measured on 4 × per_cell games a cell
        key = (self.key(point), per_cell)
        if key not in self.grown:
            cell, _ = self.ad.make_cell(self.base, point)
            g = grow(self.ad, cell["tree"], *self.pop, games=per_cell, seed=self.spec.seed,
                     epsilon=self.opts["epsilon"], rounds=self.opts["rounds"], budget=self.opts["budget"],
                     families=self.opts["families"], threads=self.threads, client=self.client)
            self.grown[key] = g
            if self.opts["warm"]:
                self.pop = (g.rows, g.cols)   # warm start for the next (neighbouring) setting
            self.used += g.games
        g = self.grown[key]
        self.trace.append({"step": len(self.trace), "phase": phase, **{p: _col(v) for p, v in point.items()},
                           "games": 4 * per_cell, "rate": g.value, "ci_low": g.ci_low, "ci_high": g.ci_high,
                           "exploitability": max(r.gain for r in g.certificate.values()),
                           "mixture": repr(g.mixture)})
        return g.value, g.ci_low, g.ci_high, 4 * per_cell

    def left(self) -> int:
        return self.spec.max_games - self.used


def _col(v):
    return v if isinstance(v, (int, float, str, bool)) else repr(v)


def adapted_balance(spec: BalanceSpec, threads: int | None = None,
                    client=None) -> tuple[BalanceResult, BalanceResult, dict]:
    """(the adapted answer, the fixed-strategy answer, the fixed answer's setting at
    equilibrium: value and CI) — the side-by-side of ``sim balance --adapt``."""
    opts = adapt_options(spec)
    fixed = balance(spec, threads)
    ev = AdaptEvaluator(spec, threads, opts, client)
    adapted = balance(spec, threads, evaluator=ev)
    v, lo, hi, _ = ev.evaluate(fixed.point, spec.start_games, "fixed pick at equilibrium")
    g = ev.grown[(ev.key(fixed.point), max(opts["games"], spec.start_games // 4))]
    at_eq = {"point": fixed.point, "value": v, "ci_low": lo, "ci_high": hi, "off_target": v - spec.aim,
             "mixture": g.mixture}
    return adapted, fixed, at_eq
