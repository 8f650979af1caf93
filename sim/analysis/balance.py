"""``sim balance``: find parameter settings whose primary win rate hits a target.

    game = "trpg"
    seed = 1
    target = 0.5               # required (here or --target): the rate you aim for; no default
    tolerance = 0.01           # the 95% CI half-width a final answer must reach
    max_games = 5000000        # budget over the whole search
    [base]
    scenario = "alley.toml"
    [[params]]
    path = "characters.shade.hp"
    low = 6                    # integers: an integer search; floats: a continuous one
    high = 40
    # values = ["1d6", "1d6+2", "2d6"]   # or an ordered list (searched by position)

One parameter: bisection on the (assumed monotone) rate, with the games per point grown
only where the CI cannot tell the point from the target. Several parameters: random
search (every setting when an integer space is small), successive halving of the
candidates closest to the target, then a local search (diagonal steps included)
around the best. Every evaluation plays the same streams (common random numbers),
and a point evaluated again only plays the games it has not played yet. A setting *hits*
when the 95% CI of its rate contains the target with half-width ≤ tolerance.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from sim.core.config import load_toml
from sim.core.shipped import example_spec
from sim.core.seeding import python_rng
from sim.core.stats import wilson
from sim.errors import SimInputError
from sim.core.game import Game
from sim.sweep.spec import positive_int, seed_of, spec_game
from sim.core.schema import ANY

STREAMS = (3,)  # every evaluation plays these streams (common random numbers)
TOP = ("game", "seed", "target", "tolerance", "max_games", "start_games", "adapt")  # adapt: balance_adapt
PARAM_SCHEMA = {"path": ANY, "low": ANY, "high": ANY, "values": ANY}


@dataclass
class Param:
    """One knob of a balance search: its path and range (low/high) or its list of values."""
    path: str
    low: Any = None
    high: Any = None
    values: list | None = None

    @property
    def integer(self) -> bool:
        return self.values is not None or isinstance(self.low, int)

    @property
    def n(self) -> int | None:  # positions of an integer search
        if self.values is not None:
            return len(self.values)
        return self.high - self.low + 1 if isinstance(self.low, int) else None

    def value(self, x):
        """The setting at position x (integer searches: 0 … n-1) or at x itself (floats)."""
        if self.values is not None:
            return self.values[int(x)]
        return self.low + int(x) if self.integer else float(x)

    def position(self, v):
        if self.values is not None:
            return self.values.index(v)
        return v - self.low if self.integer else v


@dataclass
class BalanceSpec:
    """A parsed balance spec: the game, target, tolerance, budget, base cell and knobs."""
    game: str
    seed: int
    target: float
    tolerance: float
    max_games: int
    start_games: int
    base: dict
    params: list[Param]
    spec_dir: Path
    raw: dict
    protocol: Game


def parse_balance(raw: dict, source: Path | None = None, *, target=None, tolerance=None, seed=None) -> BalanceSpec:
    """Check a balance spec's table (every key, every knob) and return its :class:`BalanceSpec`."""
    ad = spec_game(raw, "balance spec", TOP, "params", PARAM_SCHEMA, "trpg")
    t = raw.get("target") if target is None else target
    if t is None:  # the designer's, never assumed (issue 39: no default 50%)
        raise SimInputError("target: missing; say the rate you aim for (target = 0.45 in the spec, or --target 0.45)")
    tol = raw.get("tolerance", 0.01) if tolerance is None else tolerance
    s = raw.get("seed", 0) if seed is None else seed
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not 0 < t < 1:
        raise SimInputError(f"target: expected a rate in (0, 1), got {t!r}")
    if not isinstance(tol, (int, float)) or isinstance(tol, bool) or not 0 < tol < 0.5:
        raise SimInputError(f"tolerance: expected a CI half-width in (0, 0.5), got {tol!r}")
    s = seed_of(s)
    budget = positive_int(raw, "max_games", 5_000_000)
    start = positive_int(raw, "start_games", 2000)
    ps = raw.get("params")
    if not isinstance(ps, list) or not ps:
        raise SimInputError("params: give at least one [[params]] table with path and low/high or values")
    params = []
    for i, p in enumerate(ps):
        if not isinstance(p, dict) or not isinstance(p.get("path"), str):
            raise SimInputError(f"params.{i}: expected a table with path and low/high or values")
        where = f"param {p['path']!r}"
        if "values" in p:
            if set(p) & {"low", "high"} or not isinstance(p["values"], list) or len(p["values"]) < 2:
                raise SimInputError(f"{where}: values needs a list of at least two settings (and no low/high)")
            params.append(Param(p["path"], values=list(p["values"])))
            continue
        lo, hi = p.get("low"), p.get("high")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (lo, hi)):
            raise SimInputError(f"{where}: give low and high numbers (or values = [...])")
        if hi <= lo:
            raise SimInputError(f"{where}: empty range (high {hi} ≤ low {lo})")
        if isinstance(lo, int) != isinstance(hi, int):
            lo, hi = float(lo), float(hi)
        params.append(Param(p["path"], lo, hi))
    base = raw.get("base", {})
    if not isinstance(base, dict):
        raise SimInputError("[base]: expected a table")
    return BalanceSpec(raw["game"], s, float(t), float(tol), budget, start, base, params,
                       source.parent if source else Path.cwd(), raw, ad)


class Evaluator:
    """Plays points on common streams, topping up games; keeps the trace."""

    def __init__(self, spec: BalanceSpec, threads: int | None = None):
        self.spec = spec
        self.ad = spec.protocol
        self.base = self.ad.base_cell(spec.base, spec.spec_dir)
        self.ad.compile_cell(self.base)
        self.threads = threads
        self.cache: dict[tuple, list] = {}  # point → [successes, games, play]
        self.used = 0
        self.trace: list[dict] = []

    def key(self, point: dict) -> tuple:
        return tuple((k, repr(v)) for k, v in point.items())

    def check(self, point: dict) -> None:
        try:
            self.ad.make_cell(self.base, point)
        except SimInputError as e:
            raise SimInputError(f"{', '.join(f'{k} = {v!r}' for k, v in point.items())}: {e}") from None

    def left(self) -> int:
        return self.spec.max_games - self.used

    def evaluate(self, point: dict, games: int, phase: str) -> tuple[float, float, float, int]:
        k = self.key(point)
        if k not in self.cache:
            _, compiled = self.ad.make_cell(self.base, point)
            self.cache[k] = [0, 0, self.ad.player(compiled, self.spec.seed, STREAMS)]
        ent = self.cache[k]
        more = min(games - ent[1], self.left())
        if more > 0:  # only the games [played, games) of the shared streams are new
            r = ent[2](ent[1], more, threads=self.threads)
            ent[0] += self.ad.primary(r.totals)[0]
            ent[1] += more
            self.used += more
        s, g = ent[0], ent[1]
        lo, hi = wilson(s, g)
        self.trace.append({"step": len(self.trace), "phase": phase, **{p: _col(v) for p, v in point.items()},
                           "games": g, "successes": s, "rate": s / g, "ci_low": lo, "ci_high": hi})
        return s / g, lo, hi, g

    def settle(self, point: dict, phase: str) -> tuple[float, float, float, int]:
        """Add games until the CI excludes the target or is narrower than the tolerance."""
        t, tol = self.spec.target, self.spec.tolerance
        r, lo, hi, g = self.evaluate(point, self.spec.start_games, phase)
        while (lo <= t <= hi) and (hi - lo) / 2 > tol and self.left() > 0:
            need = g * max(2.0, ((hi - lo) / 2 / tol) ** 2 * 1.1)
            r, lo, hi, g = self.evaluate(point, int(min(need, g + self.left())), phase)
        return r, lo, hi, g


def _col(v):
    return v if isinstance(v, (int, float, str, bool)) else repr(v)


@dataclass
class BalanceResult:
    """The search's answer: the settings, their measured rate and CI, whether they hit the target, the trace."""
    point: dict
    rate: float
    ci_low: float
    ci_high: float
    games: int
    hit: bool
    games_used: int
    note: str
    trace: pl.DataFrame = field(repr=False, default=None)


def _dist(spec: BalanceSpec, r, lo, hi) -> float:
    """How far from the target, in a way that prefers settled points: 0 when the CI holds it."""
    t = spec.target
    return 0.0 if lo <= t <= hi else min(abs(lo - t), abs(hi - t))


def balance(spec: BalanceSpec, threads: int | None = None, evaluator: "Evaluator | None" = None) -> BalanceResult:
    """Search the knobs for settings whose primary rate hits the spec's target (see the module
    docstring); ``evaluator`` measures each setting (by default under [base]'s strategies;
    sim.analysis.balance_adapt's at equilibrium)."""
    ev = evaluator or Evaluator(spec, threads)
    for p in spec.params:  # both ends of every range must be valid before any game
        for v in ((p.values[0], p.values[-1]) if p.values is not None else (p.low, p.high)):
            ev.check({q.path: (v if q is p else _mid(q)) for q in spec.params})
    if len(spec.params) == 1:
        res = _bisect(spec, ev, spec.params[0])
    else:
        res = _search(spec, ev)
    res.trace = pl.DataFrame(ev.trace)
    res.games_used = ev.used
    return res


def _mid(p: Param):
    if p.values is not None:
        return p.values[len(p.values) // 2]
    return p.value(p.n // 2) if p.integer else (p.low + p.high) / 2


def _result(spec, ev, point, phase, note="") -> BalanceResult:
    r, lo, hi, g = ev.settle(point, phase)
    hit = lo <= spec.target <= hi and (hi - lo) / 2 <= spec.tolerance
    return BalanceResult(point, r, lo, hi, g, hit, ev.used, note)


def _bisect(spec: BalanceSpec, ev: Evaluator, p: Param) -> BalanceResult:
    t = spec.target
    a, b = (0, p.n - 1) if p.integer else (p.low, p.high)

    def f(x, phase):
        pt = {p.path: p.value(x)}
        r, lo, hi, g = ev.settle(pt, phase)
        return r, lo, hi

    ra, la, ha = f(a, "end")
    rb, lb, hb = f(b, "end")
    if la <= t <= ha and (ha - la) / 2 <= spec.tolerance:
        return _result(spec, ev, {p.path: p.value(a)}, "final")
    if lb <= t <= hb and (hb - lb) / 2 <= spec.tolerance:
        return _result(spec, ev, {p.path: p.value(b)}, "final")
    sa, sb = np.sign(ra - t), np.sign(rb - t)
    if sa == sb:
        best = a if abs(ra - t) <= abs(rb - t) else b
        return _result(spec, ev, {p.path: p.value(best)}, "final",
                       note=f"the target is outside the range: {p.path} = {p.value(a)!r} gives {ra:.4f}, "
                            f"{p.value(b)!r} gives {rb:.4f}")
    eps = (p.high - p.low) * 1e-4 if not p.integer else 1
    while abs(b - a) > eps and ev.left() > 0:
        m = (a + b) // 2 if p.integer else (a + b) / 2
        rm, lm, hm = f(m, "bisect")
        if lm <= t <= hm and (hm - lm) / 2 <= spec.tolerance:
            if p.integer:  # a hit; its neighbours may sit closer to the target
                near = [(abs(rm - t), m)] + [(abs(f(k, "neighbour")[0] - t), k) for k in (m - 1, m + 1) if 0 <= k < p.n]
                m = min(near)[1]
            return _result(spec, ev, {p.path: p.value(m)}, "final")
        if np.sign(rm - t) == sa:
            a, ra = m, rm
        else:
            b, rb = m, rm
    # integers: a and b are neighbours straddling the target; take the closer one
    best = a if abs(ra - t) <= abs(rb - t) else b
    res = _result(spec, ev, {p.path: p.value(best)}, "final")
    if not res.hit:
        other = b if best == a else a
        ev.settle({p.path: p.value(other)}, "final")  # the other neighbour, measured alike, is in the trace
        res.note = (f"no setting hits {t:g} within ±{spec.tolerance:g}; neighbours: {p.path} = "
                    f"{p.value(a)!r} → {ra:.4f}, {p.value(b)!r} → {rb:.4f}")
    return res


def _sample(p: Param, rng) -> Any:
    return p.value(int(rng.integers(0, p.n))) if p.integer else float(rng.uniform(p.low, p.high))


def _candidates(spec: BalanceSpec, ev: Evaluator, n0: int) -> list[dict]:
    """Every setting when the (integer) space is small, else ``n0`` distinct random ones."""
    if all(p.integer for p in spec.params):
        size = 1
        for p in spec.params:
            size *= p.n
        if size <= 4 * n0:
            # each parameter's own value at its own position (a generator here once read the
            # last parameter of the loop above for every one: drag 3 … 6 for a range 0 … 3)
            return [{q.path: q.value(i) for q, i in zip(spec.params, pos)}
                    for pos in itertools.product(*(range(q.n) for q in spec.params))]
    rng = python_rng(spec.seed, 11)
    cands, seen = [], set()
    for _ in range(20 * n0):
        pt = {p.path: _sample(p, rng) for p in spec.params}
        if ev.key(pt) not in seen:
            seen.add(ev.key(pt))
            cands.append(pt)
        if len(cands) == n0:
            break
    return cands


def _neighbours(spec: BalanceSpec, best: dict) -> list[dict]:
    """Settings one step away along any combination of parameters (diagonals included, so
    two knobs that trade off against each other can move together)."""
    k = len(spec.params)
    moves = itertools.product((-1, 0, 1), repeat=k) if k <= 3 else \
        (tuple(s if j == i else 0 for j in range(k)) for i in range(k) for s in (-1, 1))
    out = []
    for mv in moves:
        if not any(mv):
            continue
        cand = dict(best)
        for p, step in zip(spec.params, mv):
            if not step:
                continue
            if p.integer:
                pos = p.position(best[p.path]) + step
                if not 0 <= pos < p.n:
                    break
                cand[p.path] = p.value(pos)
            else:
                cand[p.path] = float(min(max(best[p.path] + step * 0.05 * (p.high - p.low), p.low), p.high))
        else:
            if cand != best:
                out.append(cand)
    return out


def _search(spec: BalanceSpec, ev: Evaluator) -> BalanceResult:
    n0 = max(16, 8 * len(spec.params))
    games = max(500, spec.start_games // 2)
    cands = _candidates(spec, ev, n0)
    scored = []
    while True:  # successive halving: quarter the field, quadruple the games
        scored = sorted(((_dist(spec, *ev.evaluate(pt, games, "random")[:3]), i, pt) for i, pt in enumerate(cands)),
                        key=lambda x: (x[0], x[1]))
        if len(cands) <= 2 or ev.left() <= 0:
            break
        cands = [pt for _, _, pt in scored[: max(2, len(cands) // 4)]]
        games *= 4
    best = scored[0][2]
    r, lo, hi, _ = ev.settle(best, "refine")
    best_d = abs(r - spec.target)  # settled points are compared by their estimates
    improved = True
    while improved and ev.left() > 0:  # local search around the best
        improved = False
        for cand in _neighbours(spec, best):
            r2, lo2, hi2, _ = ev.settle(cand, "refine")
            d2 = abs(r2 - spec.target)
            if d2 < best_d:
                best, best_d, improved = cand, d2, True
                break
    res = _result(spec, ev, best, "final")
    if not res.hit:
        rates = [t["rate"] for t in ev.trace]
        side = ("every measured rate is above the target" if min(rates) > spec.target else
                "every measured rate is below the target" if max(rates) < spec.target else "")
        res.note = (f"closest setting found; its CI does not contain {spec.target:g} within ±{spec.tolerance:g}"
                    + (f" ({side}: the target looks out of range)" if side else ""))
    return res


def load_balance(path: str | Path, **kw) -> BalanceSpec:
    """Read a balance spec file (or a shipped example by name) with CLI overrides."""
    p = example_spec(path, "balance")  # a file, or a shipped example by name
    return parse_balance(load_toml(p), p, **kw)


__all__ = ["balance", "load_balance", "parse_balance", "BalanceResult"]
