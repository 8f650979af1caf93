"""Labour (【ＣＲ】): exact (icepool) and Monte Carlo; see :mod:`sim.trpg.outside`."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Dict, Sequence, Tuple

import icepool
import numba as nb
import numpy as np

from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.errors import SimInputError
from sim.trpg.dice import check_nb, check_probability, parse_dice, roll_dice_nb
from sim.trpg.outside.common import _as_int

# --- labour -------------------------------------------------------------------------------
def _die_mix(parts: Sequence[Tuple[icepool.Die, Fraction]]) -> icepool.Die:
    parts = [(d, p) for d, p in parts if p]
    den = math.lcm(*(p.denominator for _, p in parts))
    return icepool.Die([d for d, _ in parts], times=[int(p * den) for _, p in parts])


@dataclass
class LabourExact:
    """The exact distribution of one labour slot (CR gained, MP lost)."""
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
def _labour_kernel_nb(skill, penalty, cr_arr, mp_arr, critical_double, games, key):
    outcome = np.empty(games, dtype=np.int64)
    cr = np.empty(games, dtype=np.int64)
    mp = np.empty(games, dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    for g in range(games):
        seed_stream_nb(state, key, g)
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
    """The Monte Carlo estimate of one labour slot."""
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
    o, cr, mp = _labour_kernel_nb(skill, penalty, parse_dice(cr_dice).to_array(), parse_dice(mp_dice).to_array(),
                                  bool(critical_double), games, run_key(seed))
    cv, cc = _hist(cr)
    mv, mc = _hist(mp)
    return LabourMC(games, np.bincount(o, minlength=4), cv, cc, mv, mc,
                    float(cr.mean()), float(cr.std() / math.sqrt(games)),
                    float(mp.mean()), float(mp.std() / math.sqrt(games)))


