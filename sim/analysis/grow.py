"""``sim equilibrium GAME --grow``: the double oracle (McMahan et al. 2003; PSRO, Lanctot et
al. 2017) over the sides' strategy families.

``sim equilibrium`` solves the matrix of the tiers it is given, so its "exploitability"
is only within those tiers. Growing closes the loop: starting from the given tiers,

1. solve the meta-game of the current population (linear programming, as
   :func:`sim.analysis.metagame.solve_zero_sum`) on the *measure* streams;
2. for each side, search a best response to the other side's mixture: every family of
   the side (its knobs searched by optuna TPE, as ``sim tune``; a family without knobs is
   one point) scored by its mixture-weighted rate on the *search* streams (common random
   numbers: every candidate meets the same games);
3. re-measure the best candidate and the side's current mixture against the other's
   mixture on *fresh* streams (a new spawn key every round): the gain is that difference,
   paired opponent by opponent, so it is not the maximum of noisy scores (winner's curse);
4. add the candidate when its fresh gain exceeds ε; stop when neither side adds one, or
   after ``rounds`` rounds.

The answer: the final population's value re-measured on fresh games with its 95% CI, both
mixtures (each member with its knobs), and the *certificate*: each side's best-response
gain against the final mixture on fresh games with its 95% CI. A certificate at or below
ε (upper bound too, to be sure) says no strategy the search can reach gains more than ε:
it is an equilibrium *of the families searched*, within the search's reach.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from sim.analysis.metagame import MEASURE, Tier, Z95, _cell, solve_zero_sum
from sim.core.game import Game
from sim.core.knobs import tunable_knobs
from sim.core.stats import wilson
from sim.core.views import is_oracle
from sim.errors import SimInputError

SEARCH, FRESH, FINAL = 31, 32, 33   # spawn keys: BR search, per-round re-measure, final value
TOP, TOP_FACTOR = 3, 4              # candidates topped up before one is picked
MAX_ROUNDS = 100


_WORKER_PLAYERS: dict[tuple, Any] = {}  # a Dask worker's compiled cells (one per process)


def play_batch(game_name: str, cfg: dict, seed: int, spawn: tuple[int, ...], start: int, n: int) -> tuple[int, int]:
    """Games [start, start + n) of one cell on the streams (seed, spawn): its primary
    successes and games. A pure function of its arguments (games are numbered streams), so
    a Dask worker's batch equals the same batch played here."""
    from sim.core.game import get as get_game

    key = (game_name, repr(cfg), seed, spawn)
    game = get_game(game_name)
    if key not in _WORKER_PLAYERS:
        _WORKER_PLAYERS[key] = game.player(game.compile_cell(cfg), seed, spawn)
    s, g = game.primary(_WORKER_PLAYERS[key](start, n, threads=1).totals)
    return int(s), int(g)


class _Cells:
    """Successes and games of every (row tier, column tier) pair on one stream family,
    topped up on the same streams (a pair played again only plays its new games). With a
    Dask ``client``, :meth:`need` plays the missing batches of several pairs at once on the
    workers; the numbers are those of playing them here (:func:`play_batch`)."""

    def __init__(self, game: Game, tree: dict, seed: int, spawn: tuple[int, ...], threads: int | None,
                 client=None):
        self.game, self.tree, self.seed, self.spawn, self.threads = game, tree, seed, spawn, threads
        self.client = client
        self.counts: dict[tuple, list[int]] = {}
        self.players: dict[tuple, Any] = {}
        self.cfgs: dict[tuple, dict] = {}   # a pair's cell config, built once (Dask batches)
        self.used = 0

    def need(self, pairs: Sequence[tuple[Tier, Tier]], games: int) -> None:
        """Top every pair up to ``games`` games (on the workers when there is a client)."""
        if self.client is None:
            return  # played one by one, on this process's threads, as they are asked for
        todo = []
        for key in dict.fromkeys(pairs):
            s, g = self.counts.setdefault(key, [0, 0])
            if g < games:
                todo.append((key, g, games - g))
        if not todo:
            return
        for key, _, _ in todo:  # a pair's config once: building it compiles (the Looper's setup search)
            if key not in self.cfgs:
                self.cfgs[key] = _cell(self.game, self.tree, *key)[0]
        cfgs = [self.cfgs[key] for key, _, _ in todo]
        futures = self.client.map(play_batch, [self.game.name] * len(todo), cfgs, [self.seed] * len(todo),
                                  [self.spawn] * len(todo), [g for _, g, _ in todo], [n for _, _, n in todo],
                                  pure=False)
        for (key, _, _), (ds, dg) in zip(todo, self.client.gather(futures)):
            c = self.counts[key]
            c[0] += ds
            c[1] += dg
            self.used += dg

    def play(self, row: Tier, col: Tier, games: int) -> tuple[int, int]:
        key = (row, col)
        s, g = self.counts.setdefault(key, [0, 0])
        if g < games:
            if key not in self.players:
                self.players[key] = self.game.player(_cell(self.game, self.tree, row, col)[1], self.seed, self.spawn)
            res = self.players[key](g, games - g, threads=self.threads)
            ds, dg = self.game.primary(res.totals)
            s, g = s + ds, g + dg
            self.counts[key] = [s, g]
            self.used += dg
        return s, g

    def rate(self, row: Tier, col: Tier, games: int) -> float:
        s, g = self.play(row, col, games)
        return s / g


@dataclass
class Response:
    """A side's best response to the other's mixture, re-measured on fresh games."""
    side: str
    tier: Tier
    gain: float                  # over the side's current mixture, in the side's favour
    ci_low: float
    ci_high: float
    rate: float                  # the first side's rate with the response against the mixture

    def to_json(self) -> dict:
        return {"side": self.side, "best_response": self.tier.label, "knobs": dict(self.tier.knobs),
                "gain": self.gain, "gain_points": 100 * self.gain, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "rate": self.rate}


@dataclass
class Grown:
    sides: tuple[str, str]
    rows: list[Tier]
    cols: list[Tier]
    mixture: dict[str, dict[str, float]]
    knobs: dict[str, dict[str, dict]]
    value: float
    ci_low: float
    ci_high: float
    certificate: dict[str, Response]
    epsilon: float
    rounds: list[dict]
    converged: bool
    games: int
    notes: list[str] = field(default_factory=list)
    search: dict = field(default_factory=dict)   # side → family → starts, budget, searched

    def to_json(self) -> dict:
        return {"sides": list(self.sides), "value": self.value, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "mixture": self.mixture, "knobs": self.knobs, "epsilon": self.epsilon,
                "certificate": {s: r.to_json() for s, r in self.certificate.items()},
                "within_epsilon": all(r.gain <= self.epsilon for r in self.certificate.values()),
                "converged": self.converged, "rounds": self.rounds, "games": self.games,
                "population": {self.sides[0]: [t.label for t in self.rows], self.sides[1]: [t.label for t in self.cols]},
                "search": self.search, "notes": self.notes}


def family_knobs(game: Game, side: str, family: str) -> tuple[str, dict, list]:
    """A family a best response is searched in: ``NAME`` (every tunable knob searched) or
    ``NAME@KNOB=VALUE@…`` (those knobs held at those values, the others searched — e.g.
    ``adversarial@against=each``, whose search would otherwise try every player to search
    against, the filter players' kernels included). Returns (name, held, searched knobs)."""
    name, held = family, {}
    if "@" in family:
        from sim.analysis.metagame import parse_tier

        t = parse_tier(game, side, family)
        name, held = t.name, dict(t.knobs)
    return name, held, [k for k in tunable_knobs(game.strategy(side, name)) if k.name not in held]


def starts_of(game: Game, side: str, family: str) -> int:
    """How many one-factor starts a family's knob search makes before TPE samples anything
    (sim.analysis.tune.knob_study: the defaults, then each knob alone at its extremes)."""
    knobs = family_knobs(game, side, family)[2]
    return 1 + sum(1 for k in knobs for v in dict.fromkeys(k.extremes()) if v != k.default) if knobs else 0


def budget_reach(game: Game, families: dict[str, Sequence[str]], budget: int) -> tuple[dict, list[str]]:
    """Per side and family: its starts and whether ``budget`` leaves TPE any trial; and a
    note for each family the budget does not search (the budget is part of the answer: a
    best response outside the starts is not looked for)."""
    reach, notes = {}, []
    for side, names in families.items():
        for f in names:
            n = starts_of(game, side, f)
            if not n:
                continue
            reach.setdefault(side, {})[f] = {"starts": n, "budget": budget, "searched": budget > n}
            if budget <= n:
                notes.append(f"{side} {f}: --budget {budget} does not exceed its {n} one-factor starts (the defaults "
                             f"and each knob alone at its ends), so no knob combination was searched; raise "
                             f"--budget above {n} and see whether the answer moves")
    return reach, notes


def families_of(game: Game, setup: Any, side: str, tiers: Sequence[Tier], extra: Sequence[str] = ()) -> list[str]:
    """The families a side's best response is searched in: those of its tiers and ``extra``
    (honest ones only: an oracle reads hidden information)."""
    names = list(dict.fromkeys([*(t.name for t in tiers), *extra]))
    known = set(game.registries_of(setup)[side].names())
    for n in names:
        if n.split("@")[0] not in known and ":" not in n:
            raise SimInputError(f"--family {side}={n}: not a {side} strategy; choose {', '.join(sorted(known))}")
        if "@" in n:
            family_knobs(game, side, n)  # the held knobs checked now
    return [n for n in names if not is_oracle(n)]


def _weighted(cells: _Cells, tier: Tier, opponents: Sequence[Tier], weights: np.ndarray, games: int,
              as_row: bool) -> float:
    """The first side's rate of ``tier`` against the mixture (``games`` per opponent)."""
    cells.need([(tier, o) if as_row else (o, tier) for o, w in zip(opponents, weights) if w > 0], games)
    return float(sum(w * (cells.rate(tier, o, games) if as_row else cells.rate(o, tier, games))
                     for o, w in zip(opponents, weights) if w > 0))


def best_response(game: Game, tree: dict, side: str, families: Sequence[str], opponents: Sequence[Tier],
                  weights: np.ndarray, *, as_row: bool, budget: int, games: int, seed: int, round_: int,
                  start: Sequence[Tier] = (), threads: int | None = None, client=None) -> tuple[Tier, int]:
    """The candidate with the best mixture-weighted rate for ``side`` on the search streams:
    each family's knobs searched (TPE, ``budget`` evaluations; the default and the extremes
    first), the best few topped up to ``TOP_FACTOR`` × games, ``start`` tiers (the current
    population) always among the candidates. Returns it and the games played."""
    from sim.analysis.tune import knob_study

    cells = _Cells(game, tree, seed, (SEARCH, round_), threads, client)
    sign = 1.0 if as_row else -1.0
    seen: dict[Tier, float] = {}

    def score(t: Tier, g: int) -> float:
        seen[t] = sign * _weighted(cells, t, opponents, weights, g, as_row)
        return seen[t]

    for t in start:
        score(t, games)
    for f, fam in enumerate(families):
        name, held, knobs = family_knobs(game, side, fam)
        if not knobs:
            score(Tier(side, name, tuple(held.items())), games)
            continue
        study = knob_study(knobs, True, seed * 1_000_003 + round_ * 101 + f, budget)
        for _ in range(budget):
            trial = study.ask()
            study.tell(trial, score(Tier(side, name, tuple(held.items()) +
                                         tuple((k.name, k.suggest(trial)) for k in knobs)), games))
    top = sorted(seen, key=lambda t: -seen[t])[:TOP]
    cells.need([(t, o) if as_row else (o, t) for t in top for o, w in zip(opponents, weights) if w > 0],
               TOP_FACTOR * games)
    for t in top:
        score(t, TOP_FACTOR * games)
    return max(top, key=lambda t: seen[t]), cells.used


def fresh_gain(game: Game, tree: dict, side: str, candidate: Tier, own: Sequence[Tier], own_w: np.ndarray,
               opponents: Sequence[Tier], weights: np.ndarray, *, as_row: bool, games: int, seed: int,
               spawn: tuple[int, ...], threads: int | None = None, client=None) -> tuple[Response, int]:
    """The candidate's gain over the side's mixture against the other's, on fresh streams:
    Σ_j y_j (rate(candidate, j) − Σ_i x_i rate(i, j)), every cell ``games`` games on the same
    streams; the interval from the cells' binomial variances (independent cells: the common
    streams only make the true interval narrower)."""
    cells = _Cells(game, tree, seed, spawn, threads, client)
    mine = [candidate, *(t for t, x in zip(own, own_w) if x > 0)]
    cells.need([(t, o) if as_row else (o, t) for t in mine for o, w in zip(opponents, weights) if w > 0], games)
    gain = var = rate = 0.0
    for o, w in zip(opponents, weights):
        if w <= 0:
            continue
        pc = cells.rate(candidate, o, games) if as_row else cells.rate(o, candidate, games)
        rate += w * pc
        mix = 0.0
        var_o = _var(pc, games)
        for t, x in zip(own, own_w):
            if x <= 0:
                continue
            p = cells.rate(t, o, games) if as_row else cells.rate(o, t, games)
            mix += x * p
            var_o += x * x * _var(p, games)
        gain += w * (pc - mix)
        var += w * w * var_o
    sign = 1.0 if as_row else -1.0
    half = Z95 * math.sqrt(var)
    g = sign * gain
    return Response(side, candidate, g, g - half, g + half, rate), cells.used


def _var(p, n: int):
    """A cell rate's variance, Agresti–Coull (two successes and two failures added): never 0,
    so a cell every game of which one side wins still has an interval (p(1 − p)/n gave a
    Looper value of 0.0000 with the CI 0.0000 – 0.0000 from 4,000 games)."""
    q = (np.asarray(p) * n + 2) / (n + 4)
    return q * (1 - q) / (n + 4)


def _matrix(cells: _Cells, rows: Sequence[Tier], cols: Sequence[Tier], games: int) -> np.ndarray:
    cells.need([(r, c) for r in rows for c in cols], games)
    return np.array([[cells.rate(r, c, games) for c in cols] for r in rows])


def grow(game: Game, tree: dict, rows: Sequence[Tier], cols: Sequence[Tier], *, games: int, seed: int,
         epsilon: float = 0.01, rounds: int = 8, budget: int = 30, families: dict[str, Sequence[str]] | None = None,
         threads: int | None = None, log=None, client=None) -> Grown:
    """The double oracle from ``rows`` × ``cols`` (see the module docstring). With a Dask
    ``client`` the games batches of each step run on its workers (the same numbers)."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SimInputError(f"--rounds must be 1 … {MAX_ROUNDS}, got {rounds}")
    if not 1 <= budget <= 10_000:
        raise SimInputError(f"--budget must be 1 … 10,000 evaluations, got {budget}")
    a, b = rows[0].side, cols[0].side
    setup = game.compile(tree)
    fam = {a: families_of(game, setup, a, rows, (families or {}).get(a, ())),
           b: families_of(game, setup, b, cols, (families or {}).get(b, ()))}
    rows, cols = list(rows), list(cols)
    measured = _Cells(game, tree, seed, (MEASURE,), threads, client)
    history: list[dict] = []
    used = 0
    converged = False
    def responses(r: int, x: np.ndarray, y: np.ndarray) -> tuple[dict[str, Response], int]:
        """Each side's best response to the other's mixture, its gain on fresh games."""
        out, n = {}, 0
        for side, as_row in ((a, True), (b, False)):
            opp, w = (cols, y) if as_row else (rows, x)
            own, ow = (rows, x) if as_row else (cols, y)
            cand, n1 = best_response(game, tree, side, fam[side], opp, w, as_row=as_row, budget=budget,
                                     games=games, seed=seed, round_=r, start=own, threads=threads, client=client)
            out[side], n2 = fresh_gain(game, tree, side, cand, own, ow, opp, w, as_row=as_row, games=4 * games,
                                       seed=seed, spawn=(FRESH, r), threads=threads, client=client)
            n += n1 + n2
        return out, n

    for r in range(rounds):
        p = _matrix(measured, rows, cols, games)
        _, x, y = solve_zero_sum(p)
        cert, n = responses(r, x, y)
        used += n
        added = {s: c.tier for s, c in cert.items()
                 if c.gain > epsilon and c.tier not in (rows if s == a else cols)}
        history.append({"round": r, "population": [len(rows), len(cols)],
                        "mixture": {a: _mix(rows, x), b: _mix(cols, y)}, "fitted_value": float(x @ p @ y),
                        "responses": {s: c.to_json() for s, c in cert.items()},
                        "added": {s: t.label for s, t in added.items()}})
        if log is not None:
            log(history[-1])
        if not added:
            converged = True
            break
        if a in added:
            rows.append(added[a])
        if b in added:
            cols.append(added[b])
    if not converged:  # the budget ended on a grown population: its certificate is still owed
        p = _matrix(measured, rows, cols, games)
        _, x, y = solve_zero_sum(p)
        cert, n = responses(rounds, x, y)
        used += n
    # the value on final, never-used streams (the mixtures were chosen on the measure streams)
    final = _Cells(game, tree, seed, (FINAL,), threads, client)
    f = _matrix(final, rows, cols, 4 * games)
    value = float(x @ f @ y)
    var = float(((np.outer(x, y) ** 2) * _var(f, 4 * games)).sum())
    half = Z95 * math.sqrt(var)
    used += measured.used + final.used
    reach, short = budget_reach(game, fam, budget)
    notes = ([] if converged else [f"stopped after {rounds} rounds (the budget): a side may still gain; see the "
                                   f"certificate"]) + short
    return Grown((a, b), rows, cols, {a: _mix(rows, x), b: _mix(cols, y)},
                 {a: {t.label: dict(t.knobs) for t in rows}, b: {t.label: dict(t.knobs) for t in cols}},
                 value, max(0.0, value - half), min(1.0, value + half), cert, epsilon, history, converged, used, notes,
                 reach)


def _mix(tiers: Sequence[Tier], w: np.ndarray) -> dict[str, float]:
    return {t.label: float(v) for t, v in zip(tiers, w) if v > 1e-9}
