"""Growth (【成長判定】, R-14): the exact Markov chain and the numba Monte Carlo; see
:mod:`sim.trpg.outside` for the rule."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Dict, List, Sequence, Tuple

import numba as nb
import numpy as np

from sim.core.rng import randint_nb, seed_stream_nb
from sim.core.seeding import run_key
from sim.errors import SimInputError
from sim.trpg.outside.common import (GROUPS, MAX_EXACT_ROLLS, MAX_ROLLS, N_SKILLS, _as_int,
                                     _check_growth_args, normalize_skills)

# --- growth: exact ------------------------------------------------------------------------
_DEN = 576  # 36 outcomes × 4 (free group) × 4 (free skill): the common weight denominator


def _extreme(values: Sequence[int], lo: int, hi: int, policy: int) -> int:
    best = lo
    for i in range(lo + 1, hi):
        if (values[i] < values[best]) if policy == 0 else (values[i] > values[best]):
            best = i
    return best


def _transition(values: Sequence[int], policy: int) -> Dict[int, int]:
    """Which skill one growth roll raises: index → weight out of :data:`_DEN`."""
    acc: Dict[int, int] = {}
    for d1 in range(6):
        if d1 < 4:
            groups = [(d1, 4)]
        elif policy == 2:
            groups = [(g, 1) for g in range(4)]
        else:
            groups = [(_extreme(values, 0, N_SKILLS, policy) // 4, 4)]
        for g, wg in groups:
            for d2 in range(6):
                if d2 < 4:
                    skills = [(4 * g + d2, 4)]
                elif policy == 2:
                    skills = [(4 * g + j, 1) for j in range(4)]
                else:
                    skills = [(_extreme(values, 4 * g, 4 * g + 4, policy), 4)]
                for i, ws in skills:
                    acc[i] = acc.get(i, 0) + wg * ws
    return acc


def growth_step_probabilities(skills, choice: str = "lowest") -> Dict[str, Fraction]:
    """Probability that one growth roll raises each skill, from the current values."""
    names, values = normalize_skills(skills)
    _, _, policy = _check_growth_args(1, 1, choice, 1)
    t = _transition(values, policy)
    return {names[i]: Fraction(t.get(i, 0), _DEN) for i in range(N_SKILLS)}


@dataclass
class GrowthDistribution:
    """The exact distribution of the skill vector after ``rolls`` growth rolls.

    Internally integer ``weights`` over a common ``denominator``; :attr:`states` gives
    the Fractions.
    """

    names: Tuple[str, ...]
    start: Tuple[int, ...]
    rolls: int
    amount: int
    choice: str
    weights: Dict[Tuple[int, ...], int]
    denominator: int

    @property
    def states(self) -> Dict[Tuple[int, ...], Fraction]:
        """Final skill vector → probability."""
        return {s: Fraction(w, self.denominator) for s, w in self.weights.items()}

    def probability(self, values) -> Fraction:
        return Fraction(self.weights.get(tuple(int(v) for v in values), 0), self.denominator)

    def expected(self) -> List[Fraction]:
        """Expected final value of each skill."""
        tot = [0] * N_SKILLS
        for s, w in self.weights.items():
            for i in range(N_SKILLS):
                tot[i] += w * s[i]
        return [Fraction(t, self.denominator) for t in tot]

    def expected_gain(self) -> List[Fraction]:
        return [e - s for e, s in zip(self.expected(), self.start)]

    def marginals(self) -> List[Dict[int, Fraction]]:
        """Distribution of the final value of every skill."""
        acc: List[Dict[int, int]] = [{} for _ in range(N_SKILLS)]
        for s, w in self.weights.items():
            for i in range(N_SKILLS):
                a = acc[i]
                a[s[i]] = a.get(s[i], 0) + w
        return [{v: Fraction(w, self.denominator) for v, w in sorted(a.items())} for a in acc]

    def marginal(self, i) -> Dict[int, Fraction]:
        """Distribution of the final value of skill ``i`` (an index or a name)."""
        if isinstance(i, str):
            i = self.names.index(i)
        acc: Dict[int, int] = {}
        for s, w in self.weights.items():
            acc[s[i]] = acc.get(s[i], 0) + w
        return {v: Fraction(w, self.denominator) for v, w in sorted(acc.items())}

    def p_raised(self) -> List[Fraction]:
        """Probability that each skill was raised at least once."""
        return [1 - m.get(self.start[i], Fraction(0)) for i, m in enumerate(self.marginals())]

    def to_json(self) -> dict:
        exp, margs = self.expected(), self.marginals()
        raised = [1 - m.get(self.start[i], Fraction(0)) for i, m in enumerate(margs)]
        return {
            "rolls": self.rolls, "amount": self.amount, "choice": self.choice, "states": len(self.weights),
            "skills": [
                {"name": n, "group": GROUPS[i // 4], "start": self.start[i],
                 "expected": float(exp[i]), "expected_exact": str(exp[i]),
                 "expected_gain": float(exp[i] - self.start[i]), "expected_gain_exact": str(exp[i] - self.start[i]),
                 "p_raised": float(raised[i]), "p_raised_exact": str(raised[i]),
                 "distribution": [{"value": v, "p": float(p), "p_exact": str(p)} for v, p in margs[i].items()]}
                for i, n in enumerate(self.names)],
        }


def growth_distribution(skills, k: int, amount: int = 1, choice: str = "lowest") -> GrowthDistribution:
    """Exact distribution of the 16 skill values after ``k`` growth rolls (R-14)."""
    names, start = normalize_skills(skills)
    k, amount, policy = _check_growth_args(k, amount, choice, MAX_EXACT_ROLLS)
    fixed = _transition(start, policy) if policy == 2 else None  # random: state-independent
    dist: Dict[Tuple[int, ...], int] = {start: 1}
    for _ in range(k):
        nxt: Dict[Tuple[int, ...], int] = {}
        for s, w in dist.items():
            t = fixed if fixed is not None else _transition(s, policy)
            for i, wi in t.items():
                ns = s[:i] + (s[i] + amount,) + s[i + 1:]
                nxt[ns] = nxt.get(ns, 0) + w * wi
        dist = nxt
    # reduce the common denominator
    den = _DEN ** k
    g = math.gcd(den, *dist.values())
    return GrowthDistribution(names, start, k, amount, choice, {s: w // g for s, w in dist.items()}, den // g)


# --- growth: Monte Carlo ------------------------------------------------------------------
@nb.njit
def _extreme_nb(v, lo, hi, policy):
    best = lo
    for i in range(lo + 1, hi):
        if policy == 0:
            if v[i] < v[best]:
                best = i
        elif v[i] > v[best]:
            best = i
    return best


@nb.njit
def growth_pick_nb(state, v, policy):
    """Index of the skill one growth roll raises (policy 0 lowest, 1 highest, 2 random)."""
    d1 = randint_nb(state, 6)
    if d1 < 4:
        g = d1
    elif policy == 2:
        g = randint_nb(state, 4)
    else:
        g = _extreme_nb(v, 0, 16, policy) // 4
    d2 = randint_nb(state, 6)
    if d2 < 4:
        return 4 * g + d2
    if policy == 2:
        return 4 * g + randint_nb(state, 4)
    return _extreme_nb(v, 4 * g, 4 * g + 4, policy)


@nb.njit
def _growth_kernel_nb(start, k, amount, policy, games, key):
    hist = np.zeros((16, k + 1), dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    v = np.empty(16, dtype=np.int64)
    raises = np.empty(16, dtype=np.int64)
    for g in range(games):
        seed_stream_nb(state, key, g)
        for i in range(16):
            v[i] = start[i]
            raises[i] = 0
        for _ in range(k):
            i = growth_pick_nb(state, v, policy)
            v[i] += amount
            raises[i] += 1
        for i in range(16):
            hist[i, raises[i]] += 1
    return hist


@dataclass
class GrowthMC:
    """Monte Carlo growth: ``hist[i, j]`` = games in which skill ``i`` was raised ``j`` times."""

    names: Tuple[str, ...]
    start: np.ndarray
    rolls: int
    amount: int
    choice: str
    games: int
    hist: np.ndarray
    mean: np.ndarray = field(init=False)  # mean final value per skill
    mean_gain: np.ndarray = field(init=False)
    se: np.ndarray = field(init=False)  # standard error of the mean

    def __post_init__(self):
        j = np.arange(self.hist.shape[1], dtype=np.float64) * self.amount
        p = self.hist / self.games
        self.mean_gain = p @ j
        var = p @ (j * j) - self.mean_gain ** 2
        self.mean = self.start + self.mean_gain
        self.se = np.sqrt(np.maximum(var, 0.0) / self.games)


def growth_mc(skills, k: int, games: int = 100_000, seed: int = 0, amount: int = 1,
              choice: str = "lowest") -> GrowthMC:
    """Monte Carlo of ``k`` growth rolls over ``games`` independent characters."""
    names, start = normalize_skills(skills)
    k, amount, policy = _check_growth_args(k, amount, choice, MAX_ROLLS)
    games = _as_int("the number of games", games)
    if games < 1:
        raise SimInputError(f"the number of games must be >= 1, got {games}")
    arr = np.asarray(start, dtype=np.int64)
    hist = _growth_kernel_nb(arr, k, amount, policy, games, run_key(seed))
    return GrowthMC(names, arr, k, amount, choice, games, hist)


