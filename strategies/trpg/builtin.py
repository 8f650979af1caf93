"""Built-in TRPG combat strategies, chosen per character on its sheet.

target (``strategy.target``): random | weakest | nearest | dangerous (highest chance to
hit × mean damage of its weapon); ties go to sheet order.
reaction (``strategy.reaction``): none | dodge | guard | auto — dodge when the chance to
dodge is at least ``strategy.dodge_threshold``, else guard.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from sim.core.rng import choose_bit_nb
from sim.trpg.enums import B, CF, K, RE, WF
from sim.trpg.rules_nb import dice_mean2_nb, distance_nb, p_success216_nb

U1 = np.uint64(1)


@nb.njit(inline="always")
def builtin_target_nb(rng, view, actor, cands):
    """Per-character choice: random | weakest | nearest | most dangerous (ties: sheet order)."""
    sc = view.sc
    how = sc.chars[actor, CF.S_TARGET]
    if how == 0:
        return choose_bit_nb(rng, cands)
    best = -1
    best_v = 0
    m = cands
    while m:
        j = lowest_nb(m)
        m &= m - U1
        if how == 1:
            v = -view.bs[j, B.HP]
        elif how == 2:
            v = -distance_nb(view, actor, j)
        else:
            w = sc.char_weapons[j, view.bs[j, B.EQUIP]]
            skill = sc.chars[j, CF.MELEE] if sc.weapons[w, WF.KIND] == K.MELEE else sc.chars[j, CF.SHOOTING]
            v = p_success216_nb(skill, 0) * dice_mean2_nb(sc, sc.weapons[w, WF.DICE])
        if best < 0 or v > best_v:
            best = j
            best_v = v
    return best


@nb.njit(inline="always")
def builtin_reaction_nb(rng, view, d, attacker, can_dodge):
    """none | dodge | guard | auto (dodge when its chance >= the sheet's threshold, else guard)."""
    how = view.sc.chars[d, CF.S_REACTION]
    if how == RE.NONE:
        return 0
    if how == RE.DODGE:
        return 1 if can_dodge else 2
    if how == RE.GUARD:
        return 2
    if can_dodge and p_success216_nb(view.sc.chars[d, CF.DODGE], 0) >= view.sc.chars[d, CF.S_DODGE_MIN]:
        return 1
    return 2


