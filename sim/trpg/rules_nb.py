"""TRPG rule helpers shared by the engine, the exact solver and the strategies
(docs/rules/trpg.md): the 3d6 success count (R-1), distance on the battlefield (R-6) and
the mean of a weapon's dice."""
import numba as nb
import numpy as np

from sim.trpg.enums import B, RL

# 3d6: number of the 216 outcomes with a sum <= k (k = 0 .. 18)
CUM3D6 = np.array([0, 0, 0, 1, 4, 10, 20, 35, 56, 81, 108, 135, 160, 181, 196, 206, 212, 215, 216], np.int64)


@nb.njit(inline="always")
def p_success216_nb(target, penalty):
    """Outcomes of 216 that succeed: natural 3 always, natural 18 never (R-1)."""
    k = target - penalty
    if k >= 17:
        return 215
    if k < 3:
        return 1
    return CUM3D6[k]


@nb.njit(inline="always")
def distance_nb(view, i, j):
    dx = abs(view.bs[i, B.X] - view.bs[j, B.X])
    if view.sc.rules[RL.GRID] == 0:
        return dx
    return max(dx, abs(view.bs[i, B.Y] - view.bs[j, B.Y]))


@nb.njit(inline="always")
def dice_mean2_nb(sc, d):
    """Twice the mean of dice row d (integer)."""
    row = sc.dice[d]
    m = 2 * row[1 + 2 * row[0]]
    for g in range(row[0]):
        m += row[1 + 2 * g] * (row[2 + 2 * g] + 1)
    return m
