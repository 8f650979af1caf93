"""``sim balance`` with targets on several cells of the skill ladder (issue 40; the 2025
tabletop balancing competition judged balance this way).

One band on one rate asks "is the game fair under these strategies?". A designer usually
wants several things at once: fair when both sides adapt, skill that pays, novices not
crushed. Each ``[[targets]]`` table names a cell and its band::

    [[targets]]
    cell = "equilibrium"                          # the grown equilibrium (the spec's [adapt] table)
    band = "0.45:0.55"
    [[targets]]
    cell = { village = "claims", wolves = "random" }   # a fixed pair (NAME or NAME@KNOB=VALUE)
    band = "0.60:1"                                # skill pays: the village's rate at least 60%
    [[targets]]
    cell = { village = "random", wolves = "random" }
    band = "0.30:0.70"                             # novices are not crushed

Every cell is measured at every setting the search visits, each on its own common random
numbers (as :mod:`sim.analysis.balance`). The search minimises the **total distance** to
the bands, in points: each target's distance is that of its CI's nearest end (0 when the
CI reaches into the band), ties broken by the summed distances of the rates from their
bands' centres. It is the several-parameter search of :mod:`sim.analysis.balance` (every
setting of a small integer space, else random candidates; successive halving; a local
search with diagonal steps), also for one parameter: bisection needs one monotone rate.
A setting *hits* when every target's whole CI lies in its band; the answer prints each
target's value with its CI and verdict.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import polars as pl

from sim.analysis.balance import BalanceSpec, Evaluator, band_distance, check_ends, search_best
from sim.analysis.targets_spec import CellTarget, parse_targets
from sim.core.target import verdict as band_verdict

class _FixedCell(Evaluator):
    """A target cell under fixed strategies: the spec's [base] with the cell's strategies."""

    def __init__(self, spec: BalanceSpec, strategies: dict[str, str], threads: int | None):
        from sim.analysis.metagame import parse_tier

        self.tiers = [parse_tier(spec.protocol, s, v) for s, v in strategies.items()]
        super().__init__(spec, threads)

    def cell_point(self, point: dict) -> dict:
        out: dict[str, Any] = {}
        for t in self.tiers:
            out[t.side] = t.name
            for k, v in t.knobs:
                out[self.ad.knob_path(t.side, k)] = v
        return {**out, **point}


@dataclass
class TargetsResult:
    """The search's answer: the settings, each target's value with its CI and verdict."""
    point: dict
    rows: list[dict]          # one per target: cell, band, rate, ci_low, ci_high, games, distance, verdict
    hit: bool
    distance_points: float    # total, of the CIs' nearest ends
    games_used: int
    note: str
    trace: pl.DataFrame = field(repr=False, default=None)


class TargetsEvaluator:
    """Every target's evaluator on one shared budget (the spec's max_games)."""

    def __init__(self, spec: BalanceSpec, targets: list[CellTarget], threads: int | None = None, client=None):
        self.spec, self.targets = spec, targets
        self.evs: list[Evaluator] = []
        for t in targets:
            sub = replace(spec, target=t.band)
            if t.strategies is None:
                from sim.analysis.balance_adapt import AdaptEvaluator

                ev = AdaptEvaluator(sub, threads, client=client)
            else:
                ev = _FixedCell(sub, t.strategies, threads)
            ev.left = self.left  # one budget over all the cells
            self.evs.append(ev)

    @property
    def used(self) -> int:
        return sum(ev.used for ev in self.evs)

    def left(self) -> int:
        return self.spec.max_games - self.used

    def key(self, point: dict) -> tuple:
        return self.evs[0].key(point)

    def check(self, point: dict) -> None:
        for ev in self.evs:
            ev.check(point)

    def evaluate(self, point: dict, games: int, phase: str) -> list[tuple]:
        return [ev.evaluate(point, games, phase) for ev in self.evs]

    def settle(self, point: dict, phase: str) -> list[tuple]:
        return [ev.settle(point, phase) for ev in self.evs]

    def trace(self) -> pl.DataFrame:
        return pl.concat([pl.DataFrame(ev.trace).with_columns(pl.lit(t.label).alias("cell"),
                                                              pl.lit(t.band.text).alias("band"))
                          for ev, t in zip(self.evs, self.targets) if ev.trace], how="diagonal_relaxed")


def score(targets: list[CellTarget], results: list[tuple], use_ci: bool = True) -> tuple[float, float]:
    """(total distance of the CIs' nearest ends to the bands, total distance of the rates
    from the bands' centres), in fractions; smaller is better."""
    near = centre = 0.0
    for t, (r, lo, hi, _) in zip(targets, results):
        lo, hi = (lo, hi) if use_ci else (r, r)
        if not (lo <= t.band.high and hi >= t.band.low):
            near += min(abs(band_distance(t.band, lo)), abs(band_distance(t.band, hi)))
        centre += abs(r - t.aim)
    return near, centre


def balance_targets(spec: BalanceSpec, threads: int | None = None, client=None) -> TargetsResult:
    """Search the knobs for settings whose every target cell lies in its band (see the
    module docstring)."""
    targets = parse_targets(spec)
    ev = TargetsEvaluator(spec, targets, threads, client)
    check_ends(spec, ev)
    best = search_best(spec, ev, lambda pt, g: score(targets, ev.evaluate(pt, g, "random")),
                       lambda pt: score(targets, ev.settle(pt, "refine"), use_ci=False))
    final = ev.settle(best, "final")
    sides = tuple(spec.protocol.sides)
    rows = []
    for t, (r, lo, hi, g) in zip(targets, final):
        v = band_verdict(t.band, r, lo, hi, sides, t.label)
        rows.append({"cell": t.label, "band": t.band.text, "rate": r, "ci_low": lo, "ci_high": hi, "games": g,
                     "distance_points": 100 * band_distance(t.band, r),
                     "distance_ci_low": 100 * band_distance(t.band, lo),
                     "distance_ci_high": 100 * band_distance(t.band, hi),
                     "verdict": v["status"], "text": v["text"]})
    hit = all(t.band.low <= lo and hi <= t.band.high for t, (_, lo, hi, _) in zip(targets, final))
    near = score(targets, final)[0]
    note = "" if hit else ("closest setting found: " + "; ".join(
        f"{r['cell']} {100 * r['rate']:.1f}% ({r['verdict']})" for r in rows if r["verdict"] != "in band"))
    return TargetsResult(best, rows, hit, 100 * near, ev.used, note, ev.trace())


__all__ = ["CellTarget", "TargetsResult", "balance_targets", "parse_targets", "score"]
