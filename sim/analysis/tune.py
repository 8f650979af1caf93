"""``sim tune``: the best response of one side's strategy family to a fixed opponent.

The knobs the family declares (:mod:`sim.core.knobs`) are searched with optuna's TPE
sampler (chosen over nevergrad for its native mix of integer, float and categorical
knobs, its seedable sampler — same seed, same search — and its ask/tell interface, which
lets us decide how many games each point gets). Every point plays the same random
streams (common random numbers), so two points differ by their knobs, not their luck;
an integer point asked again is answered from what it already played.

Then the most promising points get more games on those streams (``TOP`` points, four
times the games), and the winner and the baseline (the family at its default knobs)
are re-measured on *fresh* streams with the same number of games each: the reported
tuned rate is not the maximum of noisy estimates (winner's curse), and the two are
paired (same streams), so their difference is sharp.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import polars as pl

from sim.core.game import Game
from sim.core.knobs import Spec, tunable_knobs
from sim.core.stats import wilson
from sim.errors import SimInputError

SEARCH, FRESH = 21, 22   # spawn keys of the search's streams and the final measurement's
TOP = 5                  # promising points topped up before the winner is chosen
TOP_FACTOR = 4           # … to this many times the games of one evaluation
MAX_BUDGET = 100_000


@dataclass
class TuneResult:
    game: str
    side: str
    family: str
    against: dict[str, str]
    maximise: bool
    params: dict[str, Any]
    baseline: dict[str, Any]
    tuned_rate: float
    ci_low: float
    ci_high: float
    baseline_rate: float
    baseline_ci_low: float
    baseline_ci_high: float
    final_games: int
    games: int                # every game the search and the final measurement played
    evaluations: int
    trace: pl.DataFrame = field(repr=False, default=None)

    @property
    def spec(self) -> Spec:
        return Spec(self.side, self.family, tuple(self.params.items()))

    def to_json(self) -> dict:
        return {"game": self.game, "side": self.side, "strategy": self.family, "against": self.against,
                "objective": ("maximise" if self.maximise else "minimise") + " the first side's rate",
                "params": self.params, "baseline_params": self.baseline, "tuned_rate": self.tuned_rate,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "baseline_rate": self.baseline_rate,
                "baseline_ci_low": self.baseline_ci_low, "baseline_ci_high": self.baseline_ci_high,
                "final_games": self.final_games, "games": self.games, "evaluations": self.evaluations,
                "label": self.spec.label}


class _Points:
    """Successes and games per knob point, topped up on the same streams."""

    def __init__(self, game: Game, tree: dict, side: str, family: str, against: Mapping[str, Spec], seed: int,
                 threads: int | None):
        self.game, self.tree, self.side, self.family, self.against = game, tree, side, family, against
        self.seed, self.threads = seed, threads
        self.counts: dict[tuple, list[int]] = {}
        self.players: dict[tuple, Any] = {}
        self.used = 0

    def _player(self, point: tuple, spawn: tuple[int, ...]):
        from sim.analysis.metagame import _cell

        key = (point, spawn)
        if key not in self.players:
            comp = _cell(self.game, self.tree, Spec(self.side, self.family, point), *self.against.values())[1]
            self.players[key] = self.game.player(comp, self.seed, spawn)
        return self.players[key]

    def play(self, point: tuple, games: int) -> float:
        """The point's rate after it has played at least ``games`` games of the search streams."""
        s, g = self.counts.setdefault(point, [0, 0])
        if g < games:
            res = self._player(point, (SEARCH,))(g, games - g, threads=self.threads)
            ds, dg = self.game.primary(res.totals)
            s, g = s + ds, g + dg
            self.counts[point] = [s, g]
            self.used += dg
        return s / g

    def fresh(self, point: tuple, games: int) -> tuple[int, int]:
        res = self._player(point, (FRESH,))(0, games, threads=self.threads)
        self.used += games
        return self.game.primary(res.totals)


def knob_study(knobs, maximise: bool, seed: int, budget: int):
    """An optuna study (TPE, seeded) over ``knobs`` that starts from the defaults and each
    knob alone at its extremes (one factor at a time): the baseline is always a candidate,
    and the "never use it" / "always" ends are tried for sure."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=max(1, min(10, budget // 3)))
    study = optuna.create_study(direction="maximize" if maximise else "minimize", sampler=sampler)
    base = {k.name: k.default for k in knobs}
    study.enqueue_trial(base)
    for k in knobs:
        for v in k.extremes():
            if v != k.default:
                study.enqueue_trial({**base, k.name: v}, skip_if_exists=True)
    return study


def tune(game: Game, tree: dict, side: str, family: str, against: Mapping[str, Spec], *, budget: int = 60,
         games: int = 5_000, final_games: int | None = None, seed: int = 0, threads: int | None = None,
         progress=None) -> TuneResult:
    """Search ``family``'s knobs for ``side`` against ``against`` (one spec per other side)."""
    import optuna

    setup = game.compile(tree)
    sides = game.sides_of(setup)
    if side not in sides:
        raise SimInputError(f"--side {side!r}: {game.name}'s sides are {', '.join(sides) or 'none'}")
    if not 1 <= budget <= MAX_BUDGET:
        raise SimInputError(f"--budget must be 1 … {MAX_BUDGET:,} evaluations, got {budget}")
    knobs = tunable_knobs(game.strategy(side, family))
    if not knobs:
        tunable = [n for n in game.registries_of(setup)[side].names() if tunable_knobs(game.strategy(side, n))]
        raise SimInputError(f"{side} strategy {family!r} has no knobs to tune"
                            f"{'; tunable: ' + ', '.join(tunable) if tunable else ''}")
    final_games = final_games or TOP_FACTOR * games
    maximise = side == sides[0]  # the primary rate is the first side's
    pts = _Points(game, tree, side, family, against, seed, threads)
    study = knob_study(knobs, maximise, seed, budget)
    rows = []
    for t in range(budget):
        trial = study.ask()
        point = tuple((k.name, k.suggest(trial)) for k in knobs)
        rate = pts.play(point, games)
        study.tell(trial, rate)
        rows.append({"evaluation": t, "phase": "search", **dict(point), "games": pts.counts[point][1], "rate": rate})
        if progress is not None:
            progress()
    sign = 1.0 if maximise else -1.0
    best = sorted(pts.counts, key=lambda p: -sign * pts.counts[p][0] / pts.counts[p][1])[:TOP]
    for p in best:
        rate = pts.play(p, TOP_FACTOR * games)
        rows.append({"evaluation": len(rows), "phase": "top-up", **dict(p), "games": pts.counts[p][1], "rate": rate})
    winner = max(best, key=lambda p: sign * pts.counts[p][0] / pts.counts[p][1])
    base = tuple((k.name, k.default) for k in knobs)
    ts, tg = pts.fresh(winner, final_games)
    bs, bg = pts.fresh(base, final_games) if base != winner else (ts, tg)
    for phase, p, s, g in (("final", winner, ts, tg), ("baseline", base, bs, bg)):
        rows.append({"evaluation": len(rows), "phase": phase, **dict(p), "games": g, "rate": s / g})
    lo, hi = wilson(ts, tg)
    blo, bhi = wilson(bs, bg)
    return TuneResult(game.name, side, family, {s: a.label for s, a in against.items()}, maximise, dict(winner),
                      dict(base), ts / tg, lo, hi, bs / bg, blo, bhi, final_games, pts.used, budget,
                      pl.DataFrame(rows))
