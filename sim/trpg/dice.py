"""Dice expressions and 3d6 checks of the TRPG (docs/rules/trpg.md, R-1).

* :func:`parse_dice` reads ``2d6+3``, ``1d6``, ``3d6-1``, ``d6``, ``4``, ``2d6+1d3+2``,
  ``1d6-1d3`` … into a frozen :class:`Dice`. ``Dice.to_array()`` encodes it as a compact
  int64 array ``[n_groups, count_1, sides_1, …, count_n, sides_n, constant]`` (a negative
  count subtracts that group) that :func:`roll_dice_nb` rolls inside numba kernels;
  ``Dice.dist()`` is the exact :mod:`icepool` distribution.
* :func:`check_probability` gives the exact probabilities of a check (Fractions);
  :func:`check_nb` rolls one inside a kernel. A check rolls 3d6; a natural 3 is a
  critical (always succeeds), a natural 18 a fumble (always fails); otherwise it
  succeeds when ``roll + penalty <= target``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Dict, Tuple

import icepool
import numba as nb
import numpy as np

from sim.core.rng import randint_nb, seed_stream_nb
from sim.core.seeding import run_key
from sim.errors import SimInputError

MAX_DICE = 100  # at most this many dice in one expression
MAX_SIDES = 1000  # at most this many sides on one die
MAX_CONSTANT = 10**9

# check outcome codes (the same numbering as sim.trpg.enums.OUT)
FAIL, SUCCESS, CRITICAL, FUMBLE = 0, 1, 2, 3
OUTCOME_NAMES = ("fail", "success", "critical", "fumble")

_TERM = re.compile(r"([+-])?\s*(?:(\d*)\s*d\s*(\d+)|(\d+))", re.IGNORECASE)


@dataclass(frozen=True)
class Dice:
    """A sum of dice groups and a constant: ``groups`` is ``((count, sides), …)``.

    A negative ``count`` subtracts that group (``1d6-1d3`` → ``((1, 6), (-1, 3))``).
    """

    groups: Tuple[Tuple[int, int], ...] = ()
    constant: int = 0

    # --- encoding for numba -------------------------------------------------------
    def to_array(self) -> np.ndarray:
        """``[n_groups, count_1, sides_1, …, constant]`` as int64 (for :func:`roll_dice_nb`)."""
        out = [len(self.groups)]
        for c, s in self.groups:
            out += [c, s]
        out.append(self.constant)
        return np.asarray(out, dtype=np.int64)

    @staticmethod
    def from_array(arr) -> "Dice":
        a = [int(x) for x in arr]
        n = a[0]
        return Dice(tuple((a[1 + 2 * i], a[2 + 2 * i]) for i in range(n)), a[1 + 2 * n])

    # --- exact ----------------------------------------------------------------------
    def dist(self) -> icepool.Die:
        """The exact distribution of the total."""
        die = icepool.Die([self.constant])
        for c, s in self.groups:
            g = abs(c) @ icepool.d(s)
            die = die + g if c > 0 else die - g
        return die

    def mean(self) -> Fraction:
        return Fraction(self.constant) + sum((Fraction(c * (s + 1), 2) for c, s in self.groups), Fraction(0))

    def min(self) -> int:
        return self.constant + sum(c if c > 0 else c * s for c, s in self.groups)

    def max(self) -> int:
        return self.constant + sum(c * s if c > 0 else c for c, s in self.groups)

    @property
    def n_dice(self) -> int:
        return sum(abs(c) for c, _ in self.groups)

    def __str__(self) -> str:
        parts = []
        for c, s in self.groups:
            parts.append(f"{'-' if c < 0 else '+'}{abs(c)}d{s}")
        if self.constant or not parts:
            parts.append(f"{'-' if self.constant < 0 else '+'}{abs(self.constant)}")
        text = "".join(parts)
        return text[1:] if text.startswith("+") else text


def parse_dice(expr) -> Dice:
    """Parse a dice expression; bad ones raise :class:`SimInputError` naming the expression."""
    if isinstance(expr, Dice):
        return expr
    if isinstance(expr, (int, np.integer)) and not isinstance(expr, bool):
        return Dice((), int(expr))
    if not isinstance(expr, str):
        raise SimInputError(f"bad dice expression {expr!r}: expected a string like 2d6+3")

    def bad(why: str) -> SimInputError:
        return SimInputError(f"bad dice expression {expr!r}: {why}")

    text = expr.strip()
    if not text:
        raise bad("it is empty (expected e.g. 2d6+3, d6 or 4)")
    pos, groups, constant, first = 0, [], 0, True
    while pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        m = _TERM.match(text, pos)
        if m is None or m.end() == pos or (not first and m.group(1) is None):
            raise bad(f"cannot read {text[pos:]!r} (expected terms like 2d6, d6 or 3 joined by + or -)")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            constant += sign * int(m.group(4))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if count < 1:
                raise bad("the number of dice must be at least 1")
            if sides < 1:
                raise bad("dice need at least 1 side")
            if sides > MAX_SIDES:
                raise bad(f"dice may have at most {MAX_SIDES} sides")
            groups.append((sign * count, sides))
        pos, first = m.end(), False
    dice = Dice(tuple(groups), constant)
    if abs(constant) > MAX_CONSTANT:
        raise bad(f"the constant must be within ±{MAX_CONSTANT}")
    if dice.n_dice > MAX_DICE:
        raise bad(f"too many dice ({dice.n_dice}; at most {MAX_DICE})")
    return dice


@nb.njit
def roll_dice_nb(state, arr):
    """Roll a dice array from :meth:`Dice.to_array` with the xoshiro stream ``state``."""
    n = arr[0]
    total = arr[1 + 2 * n]
    for i in range(n):
        c = arr[1 + 2 * i]
        s = arr[2 + 2 * i]
        k = c if c > 0 else -c
        sub = 0
        for _ in range(k):
            sub += randint_nb(state, s) + 1
        total += sub if c > 0 else -sub
    return total


@nb.njit
def _roll_many_nb(arr, n, key):
    out = np.empty(n, dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    for g in range(n):
        seed_stream_nb(state, key, g)
        out[g] = roll_dice_nb(state, arr)
    return out


def roll_many(dice, n: int, seed: int = 0) -> np.ndarray:
    """``n`` independent rolls of ``dice`` (an expression or :class:`Dice`), one stream each."""
    if n < 0:
        raise SimInputError(f"the number of rolls must be >= 0, got {n}")
    return _roll_many_nb(parse_dice(dice).to_array(), int(n), run_key(seed))


# --- 3d6 checks -------------------------------------------------------------------------
_3D6 = 3 @ icepool.d6


def _int(name: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise SimInputError(f"{name} must be an integer, got {v!r}")
    return int(v)


def check_probability(target: int, penalty: int = 0) -> Dict[str, Fraction]:
    """Exact probabilities of a 3d6 check against ``target`` with ``penalty`` added to the roll.

    ``success`` includes criticals; ``fail`` includes fumbles; ``critical`` (natural 3)
    and ``fumble`` (natural 18) are always 1/216 each (R-1).
    """
    target, penalty = _int("target", target), _int("penalty", penalty)

    def outcome(roll: int) -> int:
        if roll == 3:
            return CRITICAL
        if roll == 18:
            return FUMBLE
        return SUCCESS if roll + penalty <= target else FAIL

    die = _3D6.map(outcome)
    p = {name: die.probability(code) for code, name in enumerate(OUTCOME_NAMES)}
    return {
        "success": p["success"] + p["critical"],
        "critical": p["critical"],
        "fumble": p["fumble"],
        "fail": p["fail"] + p["fumble"],
    }


def check_die(target: int, penalty: int = 0) -> icepool.Die:
    """The exact distribution of the outcome code (FAIL, SUCCESS, CRITICAL, FUMBLE) of a check."""
    p = check_probability(target, penalty)
    q = {
        FAIL: p["fail"] - p["fumble"],
        SUCCESS: p["success"] - p["critical"],
        CRITICAL: p["critical"],
        FUMBLE: p["fumble"],
    }
    return icepool.Die({k: int(v * 216) for k, v in q.items() if v})


@nb.njit
def check_nb(state, target, penalty):
    """Roll one check: 0 fail, 1 success, 2 critical (natural 3), 3 fumble (natural 18)."""
    roll = randint_nb(state, 6) + randint_nb(state, 6) + randint_nb(state, 6) + 3
    if roll == 3:
        return 2
    if roll == 18:
        return 3
    if roll + penalty <= target:
        return 1
    return 0


@nb.njit
def _check_many_nb(target, penalty, n, key):
    counts = np.zeros(4, dtype=np.int64)
    state = np.empty(4, dtype=np.uint64)
    for g in range(n):
        seed_stream_nb(state, key, g)
        counts[check_nb(state, target, penalty)] += 1
    return counts


def check_mc(target: int, penalty: int = 0, n: int = 100_000, seed: int = 0) -> np.ndarray:
    """Counts of each outcome code over ``n`` simulated checks."""
    target, penalty = _int("target", target), _int("penalty", penalty)
    if n < 1:
        raise SimInputError(f"the number of checks must be >= 1, got {n}")
    return _check_many_nb(target, penalty, int(n), run_key(seed))
