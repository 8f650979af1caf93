"""Outside combat: growth, labour and sleep (docs/rules/trpg.md, "Outside combat"; R-14).

**Growth** (【成長判定】). A character has 16 skill values in four groups of four — physical,
sense, intellect, mind — in sheet order. One growth roll: a 1d6 picks the group (1
physical, 2 sense, 3 intellect, 4 mind, 5–6 a group of the player's choice); a second 1d6
picks the skill of that group left to right (1–4), 5–6 a skill of the player's choice in
that group. The skill rises by ``amount`` (R-14: 1). The player's choice is a policy:

* ``lowest`` (default): the lowest skill of the allowed set, ties to the leftmost. A free
  group choice (5–6 on the first die) takes the group holding the lowest of all 16 skills
  (ties: the leftmost such skill), so a free choice on both dice raises the global lowest.
* ``highest``: the same with the highest skill.
* ``random``: uniformly random group / skill (then every roll raises a uniformly random
  one of the 16 skills).

:func:`growth_distribution` is exact (a Markov chain over the 36 outcomes of the two dice,
integer weights, Fractions at the end); :func:`growth_mc` is the numba Monte Carlo.

**Labour** (【ＣＲ】): one exploration slot; a job check (3d6 vs the job skill, R-1
criticals and fumbles); 2d6 CR gained either way; on a failure also 1d6 MP lost.

**Sleep** (【探索パート】): more than 18 h awake adds +1 to every roll per full extra hour;
6 h of sleep (in the day) clears it; every full 3 h of sleep restores 1d6 MP (never above
the maximum).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import icepool
import numba as nb
import numpy as np

from sim.core.rng import randint, seed_stream
from sim.core.seeding import run_key
from sim.errors import SimInputError
from sim.trpg.dice import check_nb, check_probability, parse_dice, roll_dice_nb

GROUPS = ("physical", "sense", "intellect", "mind")
N_SKILLS = 16
CHOICES = ("lowest", "highest", "random")
MAX_EXACT_ROLLS = 8  # the exact chain has up to C(15 + k, k) states (490,314 at k = 8)
MAX_ROLLS = 1000


# --- skills -----------------------------------------------------------------------------
def default_skill_names() -> Tuple[str, ...]:
    return tuple(f"{g}_{j + 1}" for g in GROUPS for j in range(4))


def _as_int(what: str, v) -> int:
    if isinstance(v, bool):
        raise SimInputError(f"{what} must be an integer, got {v!r}")
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return int(v)
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            pass
    raise SimInputError(f"{what} must be an integer, got {v!r}")


def normalize_skills(skills) -> Tuple[Tuple[str, ...], Tuple[int, ...]]:
    """Skill names and values in sheet order from one of:

    * a sequence / array of 16 integers (names ``physical_1`` … ``mind_4``);
    * a mapping of 16 names to integers (insertion order = sheet order);
    * a mapping of the four groups (``physical``, ``sense``, ``intellect``, ``mind``) to
      four integers each (a list, or a mapping of four names to integers).
    """
    if isinstance(skills, Mapping):
        keys = list(skills)
        if set(keys) == set(GROUPS):
            names, values = [], []
            for g in GROUPS:
                grp = skills[g]
                if isinstance(grp, Mapping):
                    items = list(grp.items())
                elif isinstance(grp, (list, tuple, np.ndarray)):
                    items = [(f"{g}_{j + 1}", v) for j, v in enumerate(grp)]
                else:
                    raise SimInputError(f"skill group {g!r} must list 4 values, got {grp!r}")
                if len(items) != 4:
                    raise SimInputError(f"skill group {g!r} must have 4 skills, got {len(items)}")
                for n, v in items:
                    names.append(str(n))
                    values.append(_as_int(f"skill {n!r}", v))
            return tuple(names), tuple(values)
        if len(keys) != N_SKILLS:
            raise SimInputError(f"expected {N_SKILLS} skills (4 per group, sheet order), got {len(keys)}")
        return tuple(str(k) for k in keys), tuple(_as_int(f"skill {k!r}", skills[k]) for k in keys)
    if isinstance(skills, (str, bytes)) or not hasattr(skills, "__len__"):
        raise SimInputError(f"skills must be 16 integers or a mapping, got {skills!r}")
    vals = list(np.asarray(skills).ravel()) if isinstance(skills, np.ndarray) else list(skills)
    if len(vals) != N_SKILLS:
        raise SimInputError(f"expected {N_SKILLS} skills (4 per group, sheet order), got {len(vals)}")
    return default_skill_names(), tuple(_as_int(f"skill {i + 1}", v) for i, v in enumerate(vals))


def _check_growth_args(k, amount, choice, max_rolls: int) -> Tuple[int, int, int]:
    k = _as_int("the number of growth rolls", k)
    amount = _as_int("the growth amount", amount)
    if k < 0 or k > max_rolls:
        raise SimInputError(f"the number of growth rolls must be in 0..{max_rolls}, got {k}")
    if amount < 1:
        raise SimInputError(f"the growth amount must be >= 1, got {amount}")
    if choice not in CHOICES:
        raise SimInputError(f"unknown growth choice {choice!r} (expected one of {', '.join(CHOICES)})")
    return k, amount, CHOICES.index(choice)


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
    d1 = randint(state, 6)
    if d1 < 4:
        g = d1
    elif policy == 2:
        g = randint(state, 4)
    else:
        g = _extreme_nb(v, 0, 16, policy) // 4
    d2 = randint(state, 6)
    if d2 < 4:
        return 4 * g + d2
    if policy == 2:
        return 4 * g + randint(state, 4)
    return _extreme_nb(v, 4 * g, 4 * g + 4, policy)


@nb.njit
def _growth_kernel(start, k, amount, policy, games, key):
    hist = np.zeros((16, k + 1), dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    v = np.empty(16, dtype=np.int64)
    raises = np.empty(16, dtype=np.int64)
    for g in range(games):
        seed_stream(state, key, g)
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
    hist = _growth_kernel(arr, k, amount, policy, games, run_key(seed))
    return GrowthMC(names, arr, k, amount, choice, games, hist)


# --- labour -------------------------------------------------------------------------------
def _die_mix(parts: Sequence[Tuple[icepool.Die, Fraction]]) -> icepool.Die:
    parts = [(d, p) for d, p in parts if p]
    den = math.lcm(*(p.denominator for _, p in parts))
    return icepool.Die([d for d, _ in parts], times=[int(p * den) for _, p in parts])


@dataclass
class LabourExact:
    skill: int
    penalty: int
    check: Dict[str, Fraction]
    cr: icepool.Die
    mp_lost: icepool.Die
    expected_cr: Fraction
    expected_mp_lost: Fraction

    def to_json(self) -> dict:
        def die_rows(d: icepool.Die):
            return [{"value": v, "p": float(d.probability(v)), "p_exact": str(d.probability(v))} for v in d.outcomes()]

        return {
            "skill": self.skill, "penalty": self.penalty,
            "check": {k: float(v) for k, v in self.check.items()},
            "check_exact": {k: str(v) for k, v in self.check.items()},
            "expected_cr": float(self.expected_cr), "expected_cr_exact": str(self.expected_cr),
            "expected_mp_lost": float(self.expected_mp_lost), "expected_mp_lost_exact": str(self.expected_mp_lost),
            "cr": die_rows(self.cr), "mp_lost": die_rows(self.mp_lost),
        }


def labour_exact(skill: int, penalty: int = 0, cr_dice="2d6", mp_dice="1d6",
                 critical_double: bool = False) -> LabourExact:
    """Exact distributions of the CR gained and the MP lost by one labour slot.

    ``critical_double`` (off by default; the text gives 2d6 either way) doubles the CR on
    a critical, the R-2 reading "effect ×2".
    """
    skill, penalty = _as_int("the job skill", skill), _as_int("the penalty", penalty)
    cr_d, mp_d = parse_dice(cr_dice).dist(), parse_dice(mp_dice).dist()
    p = check_probability(skill, penalty)
    cr = _die_mix([(cr_d * 2, p["critical"]), (cr_d, 1 - p["critical"])]) if critical_double else cr_d
    mp = _die_mix([(icepool.Die([0]), p["success"]), (mp_d, p["fail"])])
    return LabourExact(skill, penalty, p, cr, mp, cr.mean(), mp.mean())


@nb.njit
def _labour_kernel(skill, penalty, cr_arr, mp_arr, critical_double, games, key):
    outcome = np.empty(games, dtype=np.int64)
    cr = np.empty(games, dtype=np.int64)
    mp = np.empty(games, dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    for g in range(games):
        seed_stream(state, key, g)
        o = check_nb(state, skill, penalty)
        c = roll_dice_nb(state, cr_arr)
        if critical_double and o == 2:
            c *= 2
        outcome[g] = o
        cr[g] = c
        mp[g] = roll_dice_nb(state, mp_arr) if (o == 0 or o == 3) else 0
    return outcome, cr, mp


@dataclass
class LabourMC:
    games: int
    outcomes: np.ndarray  # counts of fail, success, critical, fumble
    cr_values: np.ndarray
    cr_counts: np.ndarray
    mp_values: np.ndarray
    mp_counts: np.ndarray
    mean_cr: float
    se_cr: float
    mean_mp_lost: float
    se_mp_lost: float

    @property
    def success_rate(self) -> float:
        return float(self.outcomes[1] + self.outcomes[2]) / self.games


def _hist(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    v, c = np.unique(x, return_counts=True)
    return v, c


def labour_mc(skill: int, games: int = 100_000, seed: int = 0, penalty: int = 0, cr_dice="2d6",
              mp_dice="1d6", critical_double: bool = False) -> LabourMC:
    """Monte Carlo of ``games`` labour slots."""
    skill, penalty = _as_int("the job skill", skill), _as_int("the penalty", penalty)
    games = _as_int("the number of games", games)
    if games < 1:
        raise SimInputError(f"the number of games must be >= 1, got {games}")
    o, cr, mp = _labour_kernel(skill, penalty, parse_dice(cr_dice).to_array(), parse_dice(mp_dice).to_array(),
                               bool(critical_double), games, run_key(seed))
    cv, cc = _hist(cr)
    mv, mc = _hist(mp)
    return LabourMC(games, np.bincount(o, minlength=4), cv, cc, mv, mc,
                    float(cr.mean()), float(cr.std() / math.sqrt(games)),
                    float(mp.mean()), float(mp.std() / math.sqrt(games)))


# --- sleep --------------------------------------------------------------------------------
AWAKE_LIMIT = 18  # hours awake before the penalty starts
CLEAR_HOURS = 6  # hours of sleep that clear it
HOURS_PER_DIE = 3  # hours of sleep per 1d6 MP


def _hours(what: str, h) -> float:
    if isinstance(h, bool) or not isinstance(h, (int, float, np.integer, np.floating)):
        raise SimInputError(f"{what} must be a number of hours, got {h!r}")
    h = float(h)
    if not math.isfinite(h) or h < 0:
        raise SimInputError(f"{what} must be a finite number of hours >= 0, got {h}")
    return h


def sleep_penalty(hours_awake: float, hours_slept: float = 0, awake_limit: float = AWAKE_LIMIT,
                  clear_hours: float = CLEAR_HOURS) -> int:
    """Roll penalty from lack of sleep: +1 per full hour awake beyond ``awake_limit`` (18),
    none once ``clear_hours`` (6) of sleep were taken."""
    awake, slept = _hours("hours awake", hours_awake), _hours("hours slept", hours_slept)
    if slept >= clear_hours:
        return 0
    return int(math.floor(max(0.0, awake - awake_limit)))


def sleep_mp_recovery(hours_slept: float, mp: Optional[int] = None, max_mp: Optional[int] = None,
                      dice="1d6", hours_per_die: int = HOURS_PER_DIE) -> icepool.Die:
    """MP restored by sleep: ``dice`` (1d6) per full ``hours_per_die`` (3) hours, e.g. 7 h → 2d6.

    With ``mp`` and ``max_mp`` the restored amount is capped at ``max_mp - mp``.
    """
    slept = _hours("hours slept", hours_slept)
    n = int(slept // hours_per_die)
    d = parse_dice(dice)
    if n * d.n_dice > 1000:
        raise SimInputError(f"hours slept is too large ({slept:g})")
    die = icepool.Die([0])
    if n:
        die = n @ d.dist()
    if (mp is None) != (max_mp is None):
        raise SimInputError("give both the current MP and the maximum MP to cap the recovery")
    if mp is not None:
        mp, max_mp = _as_int("MP", mp), _as_int("maximum MP", max_mp)
        room = max(0, max_mp - mp)
        die = die.map(lambda x: min(x, room))
    return die


def sleep_check_probability(target: int, hours_awake: float, hours_slept: float = 0,
                            penalty: int = 0) -> Dict[str, Fraction]:
    """Exact check probabilities with the sleep penalty added to ``penalty``."""
    return check_probability(target, _as_int("the penalty", penalty) + sleep_penalty(hours_awake, hours_slept))
