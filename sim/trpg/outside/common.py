"""Shared by the outside-combat rules: the 16 skills and argument checks."""
from __future__ import annotations

from typing import Mapping, Tuple

import numpy as np

from sim.errors import SimInputError

GROUPS = ("physical", "sense", "intellect", "mind")
N_SKILLS = 16
CHOICES = ("lowest", "highest", "random")
MAX_EXACT_ROLLS = 8  # the exact chain has up to C(15 + k, k) states (490,314 at k = 8)
MAX_ROLLS = 1000


# --- skills -----------------------------------------------------------------------------
def default_skill_names() -> Tuple[str, ...]:
    """The 16 skill names in sheet order (four groups of four)."""
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


