"""TRPG rule helpers shared by the engine, the exact solver and the strategies
(docs/rules/trpg.md): the 3d6 success count (R-1), distance on the battlefield (R-6) and
the mean of a weapon's dice."""
import numba as nb
import numpy as np

from sim.trpg.enums import B, RL

# 3d6: number of the 216 outcomes with a sum <= k (k = 0 .. 18)
CUM3D6 = np.array([0, 0, 0, 1, 4, 10, 20, 35, 56, 81, 108, 135, 160, 181, 196, 206, 212, 215, 216], np.int64)


@nb.njit(forceinline=True)
def p_success216_nb(target, penalty):
    """Outcomes of 216 that succeed: natural 3 always, natural 18 never (R-1)."""
    k = target - penalty
    if k >= 17:
        return 215
    if k < 3:
        return 1
    return CUM3D6[k]


@nb.njit(forceinline=True)
def distance_nb(view, i, j):
    dx = abs(view.bs[i, B.X] - view.bs[j, B.X])
    if view.sc.rules[RL.GRID] == 0:
        return dx
    return max(dx, abs(view.bs[i, B.Y] - view.bs[j, B.Y]))


@nb.njit(forceinline=True)
def dice_mean2_nb(sc, d):
    """Twice the mean of dice row d (integer)."""
    row = sc.dice[d]
    m = 2 * row[1 + 2 * row[0]]
    for g in range(row[0]):
        m += row[1 + 2 * g] * (row[2 + 2 * g] + 1)
    return m


# what a guard would be (damage_nb's choice, R-18, T-8, R-17): nothing, a melee weapon's roll, a
# ranged weapon's last digit, an arm's last digit (the arm hurt afterwards, R-9)
G_NONE, G_ROLL, G_DIGIT, G_ARM = 0, 1, 2, 3


@nb.njit(forceinline=True)
def digit2_nb(d2):
    """Twice what a last-digit guard absorbs of a damage of mean d2 / 2 (rough: all of it
    below 10, else 4.5 on average)."""
    return d2 if d2 < 20 else 9


@nb.njit(forceinline=True)
def auto_choice_nb(can_dodge, pd, min216, d2, kind, g2, skill, pen, my2, horizon):
    """The ``auto`` reaction (T-11): 0 none, 1 dodge or 2 guard, whichever leaves the least
    expected damage, in units of 1/432 HP (integers: the same in every caller). ``pd``: the
    dodge chance in 216ths (considered when ``can_dodge`` and at least ``min216``); ``d2``:
    twice the attack's mean damage; ``kind``/``g2``: the guard it would be (G_*) and twice
    its weapon roll's mean; an arm guard also costs ``horizon`` later attacks at the hurt
    arm's extra roll penalty: the drop in the hit chance (skill, current penalty ``pen``)
    times twice the mean damage ``my2`` of the defender's weapon."""
    e0, e1, e2 = auto_costs_nb(can_dodge, pd, min216, d2, kind, g2, skill, pen, my2, horizon)
    best = 0
    e_best = e0
    if e1 >= 0 and e1 < e_best:
        best, e_best = 1, e1
    if e2 >= 0 and e2 < e_best:
        best = 2
    return best


@nb.njit(forceinline=True)
def auto_costs_nb(can_dodge, pd, min216, d2, kind, g2, skill, pen, my2, horizon):
    """The expected damage :func:`auto_choice_nb` weighs for none, dodge and guard (1/432
    HP; -1: the option is not considered)."""
    e0 = d2 * 216
    e1 = -1
    if can_dodge and pd >= min216:
        e1 = (216 - pd) * d2
    e2 = -1
    if kind != G_NONE:
        if kind == G_ROLL:
            e2 = max(d2 - g2, 0) * 216
        else:
            a2 = digit2_nb(d2)
            e2 = (d2 - a2) * 216
            if kind == G_ARM:
                e2 += horizon * (p_success216_nb(skill, pen) - p_success216_nb(skill, pen + a2 // 2)) * my2
    return e0, e1, e2
