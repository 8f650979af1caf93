"""Built-in TRPG combat strategies, chosen per character on its sheet.

target (``strategy.target``): random | weakest | nearest | dangerous (highest chance to
hit × mean damage of its weapon); ties go to sheet order.
reaction (``strategy.reaction``): none | dodge | guard | auto — dodge when the chance to
dodge is at least ``strategy.dodge_threshold``, else guard.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest
from sim.core.rng import choose_bit
from sim.trpg.enums import B, CF, K, RE, RL, WF

U1 = np.uint64(1)
# 3d6: number of the 216 outcomes with a sum <= k (k = 0 .. 18)
CUM3D6 = np.array([0, 0, 0, 1, 4, 10, 20, 35, 56, 81, 108, 135, 160, 181, 196, 206, 212, 215, 216], np.int64)


@nb.njit(inline="always")
def p_success216(target, penalty):
    """Outcomes of 216 that succeed: natural 3 always, natural 18 never (R-1)."""
    k = target - penalty
    if k >= 17:
        return 215
    if k < 3:
        return 1
    return CUM3D6[k]


@nb.njit(inline="always")
def distance(view, i, j):
    dx = abs(view.bs[i, B.X] - view.bs[j, B.X])
    if view.sc.rules[RL.GRID] == 0:
        return dx
    return max(dx, abs(view.bs[i, B.Y] - view.bs[j, B.Y]))


@nb.njit(inline="always")
def dice_mean2(sc, d):
    """Twice the mean of dice row d (integer)."""
    row = sc.dice[d]
    m = 2 * row[1 + 2 * row[0]]
    for g in range(row[0]):
        m += row[1 + 2 * g] * (row[2 + 2 * g] + 1)
    return m


@nb.njit(inline="always")
def builtin_target(rng, view, actor, cands):
    """Per-character choice: random | weakest | nearest | most dangerous (ties: sheet order)."""
    sc = view.sc
    how = sc.chars[actor, CF.S_TARGET]
    if how == 0:
        return choose_bit(rng, cands)
    best = -1
    best_v = 0
    m = cands
    while m:
        j = lowest(m)
        m &= m - U1
        if how == 1:
            v = -view.bs[j, B.HP]
        elif how == 2:
            v = -distance(view, actor, j)
        else:
            w = sc.char_weapons[j, view.bs[j, B.EQUIP]]
            skill = sc.chars[j, CF.MELEE] if sc.weapons[w, WF.KIND] == K.MELEE else sc.chars[j, CF.SHOOTING]
            v = p_success216(skill, 0) * dice_mean2(sc, sc.weapons[w, WF.DICE])
        if best < 0 or v > best_v:
            best = j
            best_v = v
    return best


@nb.njit(inline="always")
def builtin_reaction(rng, view, d, attacker, can_dodge):
    """none | dodge | guard | auto (dodge when its chance >= the sheet's threshold, else guard)."""
    how = view.sc.chars[d, CF.S_REACTION]
    if how == RE.NONE:
        return 0
    if how == RE.DODGE:
        return 1 if can_dodge else 2
    if how == RE.GUARD:
        return 2
    if can_dodge and p_success216(view.sc.chars[d, CF.DODGE], 0) >= view.sc.chars[d, CF.S_DODGE_MIN]:
        return 1
    return 2


