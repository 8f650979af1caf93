"""Restricted play (Jaffe et al. 2012, "Evaluating competitive game balance with
restricted play"): each optional ability withheld in turn, measured paired against the
full game.

A game lists its optional abilities (:meth:`sim.core.game.Game.abilities`: who has it,
what withholding it means) and builds the restricted variant
(:meth:`~sim.core.game.Game.restrict`: the same seats and teams, the ability never used).
Every variant plays the same games as the full game (same seed, same streams), in
blocks of ``block`` games, so the change of the rate is a paired difference: its
interval comes from the spread of the per-block differences (t quantile, blocks − 1
degrees of freedom), far narrower than two independent intervals would give.

An ability's *value to its side* is how much its side's rate falls when it is withheld.
A competent strategy never does better by giving an ability up: a value whose whole 95%
interval is below zero is flagged (``competent = false``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import polars as pl

from sim.core.stats import wilson
from sim.errors import SimInputError


@dataclass(frozen=True)
class Ability:
    """An optional ability: its name, whose it is (a role, character or side), which side
    it serves and what withholding it means."""
    name: str
    holder: str
    side: str
    withheld: str


COMPETENCE_THRESHOLD = -0.01  # an ability may be worth at most 1 point less than nothing and pass


def competence_verdict(value: float, lo: float, hi: float, games: int,
                       threshold: float = COMPETENCE_THRESHOLD) -> tuple[str, int | None]:
    """What the interval of an ability's value to its side says: "competent" when the whole
    interval lies above ``threshold`` (−1 point), "not competent" when it lies below 0, else
    "inconclusive" with about how many games per row would narrow it past the threshold
    (the half-width shrinks as 1/√games; None when the estimate itself is below it)."""
    if hi < 0:
        return "not competent", None
    if lo > threshold:
        return "competent", None
    half, room = (hi - lo) / 2, value - threshold
    if room <= 0 or half <= 0:
        return "inconclusive", None
    return "inconclusive", int(math.ceil(games * (half / room) ** 2))


def verdict_text(verdict: str, needed: int | None) -> str:
    if verdict != "inconclusive":
        return verdict
    return (f"inconclusive: about {needed:,} games needed" if needed else
            "inconclusive: the estimate is below −1 point; more games would likely say not competent")


def paired_delta(s0: np.ndarray, s1: np.ndarray, n: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """(rate1 − rate0, its ``level`` interval, 95% by default) from per-block successes on the same games."""
    from scipy.stats import t

    d = (s1 - s0).sum() / n.sum()
    B = len(n)
    if B < 2:
        return float(d), float("nan"), float("nan")
    e = (s1 - s0) - d * n
    var = float((e ** 2).sum() / n.sum() ** 2 * B / (B - 1))
    h = float(t.ppf(0.5 + level / 2, B - 1)) * math.sqrt(var)
    return float(d), float(d - h), float(d + h)


def restricted_play(game, setup: Any, strategies: Mapping[str, Any], games: int, seed: int, *,
                    only: list[str] | None = None, threads: int | None = None, level: float = 0.95) -> pl.DataFrame:
    """One row for the full game, then one per optional ability withheld (the changes' intervals
    at ``level``: simultaneous ones over many rows ask for more than 95%)."""
    abilities = game.abilities(setup, strategies)
    if not abilities:
        raise SimInputError(f"{game.name}: this setup has no optional ability to withhold")
    if only:
        names = {a.name for a in abilities}
        unknown = [o for o in only if o not in names]
        if unknown:
            raise SimInputError(f"--ability {unknown[0]!r}: not an optional ability here; "
                                f"choose {', '.join(sorted(names))}")
        abilities = [a for a in abilities if a.name in only]
    rec = PairedBlocks(game.primary, games)
    game.run(setup, strategies, games, seed, threads=threads, tables=False, **rec.kw("(none)"))
    s0, n0 = rec.totals("(none)")
    lo, hi = wilson(s0, n0)
    sides = game.sides_of(setup)
    first = sides[0] if sides else ""
    rows = [{"competence": None, "restricted": "(none)", "ability": "", "side": "", "withheld": "the full game",
             "games": n0,
             "rate": s0 / n0, "ci_low": lo, "ci_high": hi, "delta": 0.0, "delta_ci_low": 0.0,
             "delta_ci_high": 0.0, "value_to_side": None, "value_ci_low": None, "value_ci_high": None,
             "competent": None}]
    for a in abilities:
        st, strat = game.restrict(setup, strategies, a.name)
        game.run(st, strat, games, seed, threads=threads, tables=False, **rec.kw(a.name))
        d, dlo, dhi = rec.delta("(none)", a.name, level)
        s1, _ = rec.totals(a.name)
        lo, hi = wilson(s1, n0)
        # the primary rate is the first side's: an ability of another side serves it when the rate rises
        sign = -1.0 if (not first or a.side == first) else 1.0
        v, vlo, vhi = sign * d, *sorted((sign * dlo, sign * dhi))
        verdict, needed = competence_verdict(v, vlo, vhi, n0)
        rows.append({"competence": verdict_text(verdict, needed), "restricted": a.holder, "ability": a.name, "side": a.side, "withheld": a.withheld,
                     "games": n0, "rate": s1 / n0, "ci_low": lo, "ci_high": hi, "delta": d,
                     "delta_ci_low": dlo, "delta_ci_high": dhi, "value_to_side": v, "value_ci_low": vlo,
                     "value_ci_high": vhi, "competent": not (vhi < 0)})
    cols = [k for k in rows[0] if k != "competence"] + ["competence"]   # the new column last
    return pl.DataFrame([{k: r[k] for k in cols} for r in rows],
                        schema_overrides={"value_to_side": pl.Float64, "value_ci_low": pl.Float64,
                                          "value_ci_high": pl.Float64, "competent": pl.Boolean,
                                          "competence": pl.String})


class PairedBlocks:
    """Per-block primary successes of several runs on the same games, for paired changes
    (leave-one-out rows and restricted play): ``run(..., **rec.kw("name"))`` records a run;
    :meth:`delta` is the change between two recorded runs with its 95% interval."""

    def __init__(self, primary, games: int, blocks: int = 32):
        self.primary = primary
        self.block = max(1, games // blocks)
        self.runs: dict[str, dict[int, tuple[int, int]]] = {}

    def kw(self, name: str) -> dict:
        got = self.runs.setdefault(name, {})

        def on_chunk(start: int, count: int, counts) -> None:
            got[start] = (self.primary(counts)[0], count)

        return {"on_chunk": on_chunk, "chunk_size": self.block}

    def totals(self, name: str) -> tuple[int, int]:
        """(successes, games) of one recorded run."""
        got = self.runs[name].values()
        return int(sum(v[0] for v in got)), int(sum(v[1] for v in got))

    def delta(self, base: str, other: str, level: float = 0.95) -> tuple[float, float, float]:
        a, b = self.runs[base], self.runs[other]
        starts = sorted(a)
        if starts != sorted(b):
            raise ValueError("paired runs must play the same blocks")
        s0 = np.array([a[k][0] for k in starts], float)
        s1 = np.array([b[k][0] for k in starts], float)
        n = np.array([a[k][1] for k in starts], float)
        return paired_delta(s0, s1, n, level)
