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

``oracle_focus`` (an oracle: it reads the judge's view, sim.trpg.views.OracleView) attacks
the candidate with the lowest exact HP — the ``weakest`` of a table that shows HP.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from sim.core.rng import choose_bit_nb
from sim.trpg.enums import B, CF, K, RE, WF
from sim.trpg.rules_nb import G_ARM, G_DIGIT, G_NONE, G_ROLL, auto_choice_nb, dice_mean2_nb, p_success216_nb
from sim.trpg.views import view_distance_nb

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
def builtin_target_nb(rng, view, actor, cands):
    """Per-character choice: random | weakest | nearest | most dangerous (ties: sheet order)."""
    how = view.sheet[CF.S_TARGET]
    if how == 0:
        return choose_bit_nb(rng, cands)
    best = -1
    best_v = 0
    m = cands
    while m:
        j = lowest_nb(m)
        m &= m - U1
        if how == 1:
            v = -view.hp[j] if view.hp_public == 1 else -view.hp_band[j]
        elif how == 2:
            v = -view_distance_nb(view, actor, j)
        else:
            w = view.equip[j]
            skill = view.melee[j] if view.weapons[w, WF.KIND] == K.MELEE else view.shooting[j]
            v = p_success216_nb(skill, 0) * _mean2_nb(view, view.weapons[w, WF.DICE])
        if best < 0 or v > best_v:
            best = j
            best_v = v
    return best


@nb.njit(forceinline=True)
def builtin_reaction_nb(rng, view, d, attacker, can_dodge):
    """none | dodge | guard | auto (dodge when its chance >= the sheet's threshold, else guard)."""
    how = view.sheet[CF.S_REACTION]
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
    return auto_choice_nb(can_dodge, p_success216_nb(view.sheet[CF.DODGE], st[B.SYM_PEN]),
                          view.sheet[CF.S_DODGE_MIN], d2, kind, g2, skill, pen,
                          _mean2_nb(view, view.weapons[me, WF.DICE]), view.sheet[CF.S_ARM_HORIZON])


@nb.njit(forceinline=True)
def oracle_focus_nb(rng, view, actor, cands):
    """ORACLE: the candidate with the lowest exact HP (the judge's table; ties: sheet order)."""
    best = -1
    m = cands
    while m:
        j = lowest_nb(m)
        m &= m - U1
        if best < 0 or view.bs[j, B.HP] < view.bs[best, B.HP]:
            best = j
    return best


_ = dice_mean2_nb  # the engine's own copy reads the scenario; the view's is _mean2_nb
