"""Built-in TRPG combat strategies, chosen per character on its sheet.

They read only the character's view (sim.trpg.views.View: its whitelist) and draw their
random choices from their side's own stream ``rng``.

target (``strategy.target``): random | weakest | nearest | dangerous (highest chance to
hit × mean damage of its weapon); ties go to sheet order. ``weakest`` picks the lowest
HP band (docs/rules/trpg.md "What the player knows"), or the lowest exact HP when
``rules.hp_public = true``.
reaction (``strategy.reaction``): none | dodge | guard | auto — whichever of none, dodge and
guard (the equipped weapon, else an arm) leaves the least expected damage, an arm guard
counting the roll penalty the hurt arm brings to ``strategy.arm_horizon`` later attacks;
dodge only when its chance is at least ``strategy.dodge_threshold`` (T-11).

Reasons (``sim trpg trace``, sim.core.reasons): a target states its rule and the three
best candidates by that rule's value (the chosen one first); a reaction its rule and, for
``auto``, the dodge chance and the expected damage of each option it weighed.

``oracle_focus`` (an oracle: it reads the judge's view, sim.trpg.views.OracleView) attacks
the candidate with the lowest exact HP — the ``weakest`` of a table that shows HP.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.reasons import explaining_nb, rank_nb, reason_nb
from sim.core.rng import choose_bit_nb
from sim.trpg.enums import TARGETS, B, CF, K, RE, WF, Why
from sim.trpg.rules_nb import (G_ARM, G_DIGIT, G_NONE, G_ROLL, auto_choice_nb, auto_costs_nb, dice_mean2_nb,
                               p_success216_nb)
from sim.trpg.views import view_distance_nb

ORACLE_FOCUS = TARGETS.index("oracle_focus")  # its rule's index, as a reason states it

U1 = np.uint64(1)


@nb.njit(forceinline=True)
def _mean2_nb(view, d):
    """Twice the mean of dice row d of the view's dice table (integer)."""
    row = view.dice[d]
    m = 2 * row[1 + 2 * row[0]]
    for g in range(row[0]):
        m += row[1 + 2 * g] * (row[2 + 2 * g] + 1)
    return m


@nb.njit(forceinline=True)
def _target_value_nb(view, how, actor, j):
    """The value the target rule ``how`` maximises for candidate j (1 weakest, 2 nearest, 3 dangerous)."""
    if how == 1:
        return -view.hp[j] if view.hp_public == 1 else -view.hp_band[j]
    if how == 2:
        return -view_distance_nb(view, actor, j)
    w = view.equip[j]
    skill = view.melee[j] if view.weapons[w, WF.KIND] == K.MELEE else view.shooting[j]
    return p_success216_nb(skill, 0) * _mean2_nb(view, view.weapons[w, WF.DICE])


@nb.njit(forceinline=True)
def builtin_target_nb(rng, view, actor, cands):
    """Per-character choice: random | weakest | nearest | most dangerous (ties: sheet order)."""
    how = view.sheet[CF.S_TARGET]
    reason_nb(view.why, Why.RULE, 0, how)
    if how == 0:
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cands))
        return choose_bit_nb(rng, cands)
    best = -1
    best_v = 0
    m = cands
    while m:
        j = lowest_nb(m)
        m &= m - U1
        v = _target_value_nb(view, how, actor, j)
        if best < 0 or v > best_v:
            best = j
            best_v = v
    if explaining_nb(view.why):  # the rule's own quantity: HP (band), distance, expected damage
        sc = np.zeros(view.x.shape[0])
        m = cands
        while m:
            j = lowest_nb(m)
            m &= m - U1
            v = _target_value_nb(view, how, actor, j)
            sc[j] = v / 432.0 if how == 3 else -v
        rank_nb(view.why, Why.VALUE, sc, cands, best, 3, 1.0 if how == 3 else -1.0)
    return best


@nb.njit(forceinline=True)
def builtin_reaction_nb(rng, view, d, attacker, can_dodge):
    """none | dodge | guard | auto (dodge when its chance >= the sheet's threshold, else guard)."""
    how = view.sheet[CF.S_REACTION]
    reason_nb(view.why, Why.RULE, 1, how)
    if how == RE.NONE:
        return 0
    if how == RE.DODGE:
        return 1 if can_dodge else 2
    if how == RE.GUARD:
        return 2
    # auto: the least expected damage (T-11), from what the view shows
    st = view.state
    wa = view.equip[attacker]
    d2 = _mean2_nb(view, view.weapons[wa, WF.DICE])
    me = view.equip[d]
    kind = G_NONE
    g2 = 0
    if view.weapons[wa, WF.PHYSICAL] == 1 and view.weapons[me, WF.BODY] == 0:
        if view.weapons[me, WF.KIND] == K.MELEE:
            kind = G_ROLL
            g2 = _mean2_nb(view, view.weapons[me, WF.DICE])
        elif view.weapons[me, WF.KIND] == K.RANGED:
            kind = G_DIGIT
    pen = st[B.SYM_PEN]
    parts = view.sheet[CF.GUARD_PARTS]
    arm_free = False
    for a in range(2):
        if st[B.ARM0 + a] > 0:
            pen += st[B.ARM0 + a]
        if (parts >> a) & 1 and st[B.ARM0 + a] < 0:
            arm_free = True
    if kind == G_NONE and arm_free:
        kind = G_ARM
    melee = view.weapons[me, WF.KIND] == K.MELEE
    skill = view.sheet[CF.MELEE] if melee else view.sheet[CF.SHOOTING]
    pd = p_success216_nb(view.sheet[CF.DODGE], st[B.SYM_PEN])
    my2 = _mean2_nb(view, view.weapons[me, WF.DICE])
    if explaining_nb(view.why):
        reason_nb(view.why, Why.DODGE_CHANCE, -1, 0, pd / 216.0)
        reason_nb(view.why, Why.DODGE_CHANCE, -1, 1, view.sheet[CF.S_DODGE_MIN] / 216.0)
        e = auto_costs_nb(can_dodge, pd, view.sheet[CF.S_DODGE_MIN], d2, kind, g2, skill, pen, my2,
                          view.sheet[CF.S_ARM_HORIZON])
        for o in range(3):
            if e[o] >= 0:
                reason_nb(view.why, Why.EXPECTED, o, -1, e[o] / 432.0)
    return auto_choice_nb(can_dodge, pd, view.sheet[CF.S_DODGE_MIN], d2, kind, g2, skill, pen, my2,
                          view.sheet[CF.S_ARM_HORIZON])


@nb.njit(forceinline=True)
def oracle_focus_nb(rng, view, actor, cands):
    """ORACLE: the candidate with the lowest exact HP (the judge's table; ties: sheet order)."""
    reason_nb(view.why, Why.RULE, 0, ORACLE_FOCUS)
    best = -1
    m = cands
    while m:
        j = lowest_nb(m)
        m &= m - U1
        if best < 0 or view.bs[j, B.HP] < view.bs[best, B.HP]:
            best = j
    if explaining_nb(view.why):  # the exact HP it read, lowest first
        sc = np.zeros(view.bs.shape[0])
        m = cands
        while m:
            j = lowest_nb(m)
            m &= m - U1
            sc[j] = view.bs[j, B.HP]
        rank_nb(view.why, Why.VALUE, sc, cands, best, 3, -1.0)
    return best


_ = dice_mean2_nb  # the engine's own copy reads the scenario; the view's is _mean2_nb
