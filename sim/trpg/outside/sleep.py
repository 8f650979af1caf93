"""Sleep (【探索パート】): the awake penalty and MP recovery; see :mod:`sim.trpg.outside`."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Dict, Optional

import icepool
import numpy as np

from sim.errors import SimInputError
from sim.trpg.dice import check_probability, parse_dice
from sim.trpg.outside.common import _as_int

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
