"""``sim balance``: find parameter settings whose primary win rate lies in a target band.

    game = "trpg"
    seed = 1
    target = "0.45:0.55"       # required (here or --target): the band you aim for; no default
                               # (one rate, 0.5, means ±2 points: 0.48:0.52; or [0.45, 0.55])
    tolerance = 0.01           # the narrowest 95% CI half-width worth paying games for
    max_games = 5000000        # budget over the whole search
    [base]
    scenario = "alley.toml"
    [[params]]
    path = "characters.shade.hp"
    low = 6                    # integers: an integer search; floats: a continuous one
    high = 40
    # values = ["1d6", "1d6+2", "2d6"]   # or an ordered list (searched by position)

One parameter: bisection on the (assumed monotone) rate towards the band's centre, with
the games per point grown only where the CI crosses an edge of the band (down to the
tolerance). Several parameters: random search (every setting when an integer space is
small), successive halving of the candidates closest to the band, then a local search
(diagonal steps included) around the best. Every evaluation plays the same streams
(common random numbers), and a point evaluated again only plays the games it has not
played yet. A setting *hits* when the whole 95% CI of its rate lies in the band (the
verdict "in band", sim.core.target). Every evaluation in the trace carries its distance
to the band in points (0 inside; + above, − below) with the CI of that distance, and its
verdict.
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
from sim.core.target import Target, band_of, verdict as band_verdict
from sim.errors import SimInputError
from sim.core.game import Game
from sim.sweep.spec import positive_int, seed_of, spec_game
from sim.core.schema import ANY

STREAMS = (3,)  # every evaluation plays these streams (common random numbers)
TOP = ("game", "seed", "target", "tolerance", "max_games", "start_games", "adapt",  # adapt: balance_adapt
       "targets")  # targets: balance_targets (several cells of the skill ladder)
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
    """A parsed balance spec: the game, target band, tolerance, budget, base cell and knobs."""
    game: str
    seed: int
    target: Target
    tolerance: float
    max_games: int
    start_games: int
    base: dict
    params: list[Param]
    spec_dir: Path
    raw: dict
    protocol: Game

    @property
    def aim(self) -> float:
        """The band's centre: where the searches steer."""
        return (self.target.low + self.target.high) / 2


def band_distance(t: Target, rate: float) -> float:
    """How far ``rate`` lies outside the band, as a fraction (0 inside; + above, − below).
    Monotone in the rate, so the distance of a CI's ends is the CI of the distance."""
    return rate - t.high if rate > t.high else (rate - t.low if rate < t.low else 0.0)


_target = band_of  # a rate, "LOW:HIGH" or [LOW, HIGH] (sim.core.target)


def parse_balance(raw: dict, source: Path | None = None, *, target=None, tolerance=None, seed=None) -> BalanceSpec:
    """Check a balance spec's table (every key, every knob) and return its :class:`BalanceSpec`."""
    ad = spec_game(raw, "balance spec", TOP, "params", PARAM_SCHEMA, "trpg")
    t = raw.get("target") if target is None else target
    if t is None and raw.get("targets"):  # several cells (sim.analysis.balance_targets): no single band
        t = "0:1"
    elif raw.get("targets"):
        raise SimInputError("target and [[targets]]: give one band (target) or several cells ([[targets]]), "
                            "not both")
    if t is None:  # the designer's, never assumed (issue 39: no default 50%)
        raise SimInputError("target: missing; say the band you aim for (target = \"0.45:0.55\" in the spec, or "
                            "--target 0.45:0.55; one rate means ±2 points)")
    tol = raw.get("tolerance", 0.01) if tolerance is None else tolerance
    s = raw.get("seed", 0) if seed is None else seed
    band = _target(t)
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
    spec = BalanceSpec(raw["game"], s, band, float(tol), budget, start, base, params,
                       source.parent if source else Path.cwd(), raw, ad)
    if raw.get("targets") is not None:  # every target's cell and band checked with the spec
        from sim.analysis.targets_spec import parse_targets

        parse_targets(spec)
    return spec


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

    def cell_point(self, point: dict) -> dict:
        """The cell's settings for a searched point (a target's strategies add theirs)."""
        return point

    def check(self, point: dict) -> None:
        try:
            self.ad.make_cell(self.base, self.cell_point(point))
        except SimInputError as e:
            raise SimInputError(f"{', '.join(f'{k} = {v!r}' for k, v in point.items())}: {e}") from None

    def left(self) -> int:
        return self.spec.max_games - self.used

    def evaluate(self, point: dict, games: int, phase: str) -> tuple[float, float, float, int]:
        k = self.key(point)
        if k not in self.cache:
            _, compiled = self.ad.make_cell(self.base, self.cell_point(point))
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
        t = self.spec.target
        self.trace.append({"step": len(self.trace), "phase": phase, **{p: _col(v) for p, v in point.items()},
                           "games": g, "successes": s, "rate": s / g, "ci_low": lo, "ci_high": hi,
                           "distance_points": 100 * band_distance(t, s / g),
                           "distance_ci_low": 100 * band_distance(t, lo), "distance_ci_high": 100 * band_distance(t, hi),
                           "verdict": band_verdict(t, s / g, lo, hi, ())["status"]})
        return s / g, lo, hi, g

    def settle(self, point: dict, phase: str) -> tuple[float, float, float, int]:
        """Add games while the CI crosses an edge of the band (or holds the band's centre,
        which the search steers by) and is wider than the tolerance."""
        t, tol = self.spec.target, self.spec.tolerance
        r, lo, hi, g = self.evaluate(point, self.spec.start_games, phase)
        while _unsure(t, lo, hi, self.spec.aim) and (hi - lo) / 2 > tol and self.left() > 0:
            need = g * max(2.0, ((hi - lo) / 2 / tol) ** 2 * 1.1)
            r, lo, hi, g = self.evaluate(point, int(min(need, g + self.left())), phase)
        return r, lo, hi, g


def _unsure(t: Target, lo: float, hi: float, aim: float) -> bool:
    """The CI cannot tell: it crosses an edge of the band, or (outside it) holds the centre."""
    inside = t.low <= lo and hi <= t.high
    return not inside and (lo < t.low <= hi or lo <= t.high < hi or lo <= aim <= hi)


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


def _dist(spec: BalanceSpec, r, lo, hi) -> tuple[float, float]:
    """How far from the band (the CI's nearest end; 0 when the CI reaches into it), then
    from its centre: settled points in the band first, the centred ones before the others."""
    t = spec.target
    return (0.0 if lo <= t.high and hi >= t.low else min(abs(band_distance(t, lo)), abs(band_distance(t, hi))),
            abs(r - spec.aim))


def _hit(spec: BalanceSpec, lo: float, hi: float) -> bool:
    return spec.target.low <= lo and hi <= spec.target.high


def balance(spec: BalanceSpec, threads: int | None = None, evaluator: "Evaluator | None" = None) -> BalanceResult:
    """Search the knobs for settings whose primary rate hits the spec's target (see the module
    docstring); ``evaluator`` measures each setting (by default under [base]'s strategies;
    sim.analysis.balance_adapt's at equilibrium)."""
    ev = evaluator or Evaluator(spec, threads)
    check_ends(spec, ev)
    if len(spec.params) == 1:
        res = _bisect(spec, ev, spec.params[0])
    else:
        res = _search(spec, ev)
    res.trace = pl.DataFrame(ev.trace)
    res.games_used = ev.used
    return res


def check_ends(spec: BalanceSpec, ev) -> None:
    """Both ends of every range must be valid before any game (``ev.check`` each)."""
    for p in spec.params:
        for v in ((p.values[0], p.values[-1]) if p.values is not None else (p.low, p.high)):
            ev.check({q.path: (v if q is p else _mid(q)) for q in spec.params})


def _mid(p: Param):
    if p.values is not None:
        return p.values[len(p.values) // 2]
    return p.value(p.n // 2) if p.integer else (p.low + p.high) / 2


def _result(spec, ev, point, phase, note="") -> BalanceResult:
    r, lo, hi, g = ev.settle(point, phase)
    return BalanceResult(point, r, lo, hi, g, _hit(spec, lo, hi), ev.used, note)


def _bisect(spec: BalanceSpec, ev: Evaluator, p: Param) -> BalanceResult:
    t = spec.aim
    a, b = (0, p.n - 1) if p.integer else (p.low, p.high)

    def f(x, phase):
        pt = {p.path: p.value(x)}
        r, lo, hi, g = ev.settle(pt, phase)
        return r, lo, hi

    ra, la, ha = f(a, "end")
    rb, lb, hb = f(b, "end")
    if _hit(spec, la, ha):
        return _result(spec, ev, {p.path: p.value(a)}, "final")
    if _hit(spec, lb, hb):
        return _result(spec, ev, {p.path: p.value(b)}, "final")
    sa, sb = np.sign(ra - t), np.sign(rb - t)
    if sa == sb:
        best = a if abs(ra - t) <= abs(rb - t) else b
        return _result(spec, ev, {p.path: p.value(best)}, "final",
                       note=f"the target {spec.target.text} is outside the range: {p.path} = {p.value(a)!r} "
                            f"gives {ra:.4f}, {p.value(b)!r} gives {rb:.4f}")
    eps = (p.high - p.low) * 1e-4 if not p.integer else 1
    while abs(b - a) > eps and ev.left() > 0:
        m = (a + b) // 2 if p.integer else (a + b) / 2
        rm, lm, hm = f(m, "bisect")
        if _hit(spec, lm, hm):
            if p.integer:  # a hit; its neighbours may sit closer to the band's centre
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
        res.note = (f"no setting's CI lies in the band {spec.target.text}; neighbours: {p.path} = "
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


def search_best(spec: BalanceSpec, ev, rough, settled) -> dict:
    """The several-parameter search: candidates (every setting of a small integer space,
    else random ones), successive halving by ``rough(point, games)`` (smaller is better),
    then a local search around the best by ``settled(point)`` (the point settled first).
    Shared by one band (below) and several cells (sim.analysis.balance_targets)."""
    n0 = max(16, 8 * len(spec.params))
    games = max(500, spec.start_games // 2)
    cands = _candidates(spec, ev, n0)
    while True:  # successive halving: quarter the field, quadruple the games
        scored = sorted(((rough(pt, games), i, pt) for i, pt in enumerate(cands)), key=lambda x: (x[0], x[1]))
        if len(cands) <= 2 or ev.left() <= 0:
            break
        cands = [pt for _, _, pt in scored[: max(2, len(cands) // 4)]]
        games *= 4
    best = scored[0][2]
    best_d = settled(best)
    improved = True
    while improved and ev.left() > 0:  # local search around the best
        improved = False
        for cand in _neighbours(spec, best):
            d2 = settled(cand)
            if d2 < best_d:
                best, best_d, improved = cand, d2, True
                break
    return best


def _search(spec: BalanceSpec, ev: Evaluator) -> BalanceResult:
    def settled(pt):  # settled points are compared by their estimates
        r = ev.settle(pt, "refine")[0]
        return _dist(spec, r, r, r)

    best = search_best(spec, ev, lambda pt, g: _dist(spec, *ev.evaluate(pt, g, "random")[:3]), settled)
    res = _result(spec, ev, best, "final")
    if not res.hit:
        rates = [t["rate"] for t in ev.trace]
        side = ("every measured rate is above the band" if min(rates) > spec.target.high else
                "every measured rate is below the band" if max(rates) < spec.target.low else "")
        res.note = (f"closest setting found; its CI does not lie in the band {spec.target.text}"
                    + (f" ({side}: the target looks out of range)" if side else ""))
    return res


def candidates(trace: pl.DataFrame, spec: BalanceSpec) -> pl.DataFrame:
    """Every setting the search measured, once (its last, largest measurement), the
    closest to the band first: rate, CI, distance to the band in points with its CI, verdict."""
    keys = [p.path for p in spec.params]
    last = trace.group_by(keys, maintain_order=True).agg(pl.all().sort_by("games").last())
    return (last.with_columns(pl.col("distance_points").abs().alias("_d"), (pl.col("rate") - spec.aim).abs().alias("_c"))
            .sort(["_d", "_c"]).drop(["_d", "_c", "step", "phase"]))


def load_balance(path: str | Path, **kw) -> BalanceSpec:
    """Read a balance spec file (or a shipped example by name) with CLI overrides."""
    p = example_spec(path, "balance")  # a file, or a shipped example by name
    return parse_balance(load_toml(p), p, **kw)


__all__ = ["balance", "band_distance", "candidates", "load_balance", "parse_balance", "BalanceResult"]
