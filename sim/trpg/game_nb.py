"""Whole TRPG combats in numba (docs/rules/trpg.md, docs/trpg.md).

One combat: rounds; in each round every side acts once, first side first (R-4);
within a side, members in sheet order. A turn has a main and a sub action; reactions
spend the sub action of the round (R-5). Strategy hooks (``@njit``, bound by
:func:`sim.core.kernels.specialize`):

    target(rng, view, actor, cands) -> character   # whom to attack (cands: uint64 mask)
    reaction(rng, view, defender, attacker, can_dodge) -> 0 none | 1 dodge | 2 guard

``rng`` is the deciding character's side's own stream (Stream.SIDE0 + side, seeded when
the side first decides in a combat); every die and the rules' other chance events draw
from the Stream.RULES stream, which no strategy receives. ``view`` is the character's
read-only view (sim.trpg.views.View, its whitelist) — or, for a strategy named
``oracle_…``, the judge's sim.trpg.views.OracleView: which builder a plug-in gets is a
hook (``u_target_view`` / ``u_reaction_view``) bound at specialisation.

Every step that reports an event takes a ``log`` (sim.core.trace.emit_nb): the batch
kernel ``play_chunk_nb`` passes None (the emits compile to nothing), ``trace_chunk_nb``
an event log (sim.trpg.trace decodes it). In a trace each decision's view carries a fresh
reason buffer (``why``, sim.core.reasons; None in a batch): its items follow the
decision's event (``TARGET``, ``REACTION``).

Each character's sheet picks its strategies by name (strategies/trpg): the built-ins
are selected per character by a code in its row, a user plug-in (``module:function``)
is bound as ``u_target`` / ``u_reaction`` and used by the characters that name it.
Cover, movement, life-check MP and monologue are per-character parameters too.

This module holds the kernel template and the steps that call a hook (``h_target_nb``,
``h_reaction_nb``, ``damage_nb``, ``attack_nb``, ``take_turn_nb``): sim.core.kernels.specialize
finds such companions only here. The rule steps that call none are in
:mod:`sim.trpg.steps_nb`, the refcount-free views and the context in :mod:`sim.trpg.context_nb`.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.kernels import kernel_template, specialize
from sim.core.guard import GUARD, guarded_nb, guarded_rows_nb
from sim.core.nrt import keep_alive_nb, unmanaged_nb
from sim.core.reasons import explain_nb, new_why_nb
from sim.core.rng import choose_bit_nb, seed_stream_nb
from sim.core.trace import emit_nb
from sim.trpg.context_nb import (I_ACTOR, I_GAME, I_ROUND, I_SEEDED, N_CTX, Battle, View, context_address_nb,
                                 context_nb, guarded_scenario_nb, new_battle_nb, unmanaged_battle_nb,
                                 unmanaged_scenario_nb)
from sim.trpg.dice import roll_dice_nb
from sim.trpg.enums import AF, AK, CF, CK, DS, EV, K, MO, MV, OUT, REACTIONS, RL, ST, T, WF, B, Stream
from sim.trpg.rules_nb import dice_mean2_nb, distance_nb
from sim.trpg.sheets import PLUGIN
from sim.trpg.views import honest_view_nb, new_board_nb
from sim.trpg.steps_nb import (ACT_ATTACK, ACT_AWAY, ACT_CLOSE_IN, U1, _bit_nb, apply_damage_nb, arm_penalty_nb,
                               base_penalty_nb, can_act_nb, check_nb, kite_nb, lose_mp_nb, monologue_nb, move_nb,
                               other_fumble_nb, pay_nb, reach_nb, reload_if_empty_nb, reset_battle_nb, set_hp_nb,
                               sides_able_nb, standing_nb, use_item_nb, usable_nb)

R_DODGE = REACTIONS.index("dodge")  # CF.S_REACTION of a built-in dodge

Counts = namedtuple("Counts", "scalars wins fell lost survived dealt taken rounds_hist win_rounds")
C_GAMES, C_DRAWS, C_ROUNDS = 0, 1, 2


def new_counts(sc):
    """Fresh count arrays for one chunk."""
    n = sc.chars.shape[0]
    return Counts(np.zeros(3, np.int64), np.zeros(int(sc.rules[RL.N_SIDES]), np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(int(sc.rules[RL.MAX_ROUNDS]) + 2, np.int64),
                  # [winning side (last row: draws), rounds]: who wins when
                  np.zeros((int(sc.rules[RL.N_SIDES]) + 1, int(sc.rules[RL.MAX_ROUNDS]) + 2), np.int64))


# Hooks of play_chunk_nb that chunk_kernel binds: the user plug-ins u_target / u_reaction
# (defaults: these stubs — no character names a plug-in then, and inlining the built-ins
# a second time in their place cost seconds of compile time) and the built-in strategies
# builtin_target / builtin_reaction (bound to strategies.trpg's builtin_target_nb /
# builtin_reaction_nb; the engine does not import strategies at module level: they import
# the engine's rules). The helpers calling them (h_target_nb … take_turn_nb) are found and
# re-declared by sim.core.kernels.specialize, so they stay in this module.


@nb.njit(forceinline=True)
def no_target_nb(rng, view, actor, cands):
    if actor >= 0:
        raise ValueError("a character names a target plug-in but none is bound")
    return -1


@nb.njit(forceinline=True)
def no_reaction_nb(rng, view, d, attacker, can_dodge):
    if d >= 0:
        raise ValueError("a character names a reaction plug-in but none is bound")
    return 0


@nb.njit(forceinline=True)
def no_oracle_nb(rng, view, actor, cands):
    if actor >= 0:
        raise ValueError("a character names the oracle_focus target but the kernel was built without it")
    return -1


@nb.njit(forceinline=True)
def side_rng_nb(srngs, key, info, s):
    """Side s's decision stream of this combat (seeded at its first use)."""
    g = GUARD // 8  # srngs: a guarded_rows_nb owner, a row with its own guards per side
    if not (info[I_SEEDED] >> s) & 1:
        seed_stream_nb(srngs[s, g:g + 4], key, info[I_GAME], Stream.SIDE0 + s)
        info[I_SEEDED] |= 1 << s
    return srngs[s, g:g + 4]


@nb.njit(forceinline=True)
def h_target_nb(srngs, key, pb, view, actor, cands, why):
    sc = view.sc
    rng = side_rng_nb(srngs, key, view.info, sc.chars[actor, CF.SIDE])
    how = sc.chars[actor, CF.S_TARGET]
    rnd = view.info[I_ROUND]
    if how >= PLUGIN:
        return u_target(rng, u_target_view(pb, sc, view.bs, rnd, actor, why), actor, cands)
    if how == T.ORACLE_FOCUS:
        return oracle_target(rng, oracle_view(pb, sc, view.bs, rnd, actor, why), actor, cands)
    return builtin_target(rng, honest_view_nb(pb, sc, view.bs, rnd, actor, why), actor, cands)


@nb.njit(forceinline=True)
def h_reaction_nb(srngs, key, pb, view, d, attacker, can_dodge, why):
    sc = view.sc
    rng = side_rng_nb(srngs, key, view.info, sc.chars[d, CF.SIDE])
    rnd = view.info[I_ROUND]
    if sc.chars[d, CF.S_REACTION] >= PLUGIN:
        return u_reaction(rng, u_reaction_view(pb, sc, view.bs, rnd, d, why), d, attacker, can_dodge)
    return builtin_reaction(rng, honest_view_nb(pb, sc, view.bs, rnd, d, why), d, attacker, can_dodge)


@nb.njit(forceinline=True)
def hit_on_nb(sc, w, j, d):
    """Damage ``d`` of weapon ``w`` as character ``j`` would take it: less its armour % and
    fixed and its carried reductions (R-10), nothing from a physical, unenhanced weapon to a
    kaii. What j's side reads off its sheet (T-2, T-13)."""
    if sc.chars[j, CF.KAII] == 1 and sc.weapons[w, WF.PHYSICAL] == 1 and sc.weapons[w, WF.ENHANCED] == 0:
        return 0
    d -= d * sc.chars[j, CF.ARMOUR_PCT] // 100
    d -= sc.chars[j, CF.ARMOUR_FIXED] + sc.chars[j, CF.ITEM_FIXED]
    return max(d, 0)


@nb.njit(forceinline=True)
def cover_saves_nb(sc, b, w, t, a, crit):
    """T-2 (``cover_any`` false): a cover only where the hit could fell the attacked ally ``t``
    and not the coverer ``a``: the hit's mean damage (the weapon's mean; twice it on a
    critical that doubles, R-2) as each would take it (:func:`hit_on_nb`) at least t's HP and below a's;
    and, unless it does the coverer no harm, never in front of an ally who would dodge it
    itself (reaction ``dodge``, its sub action unspent: the coverer may not dodge, R-8).
    ``cover_raw`` keeps the first rule of 2026-12-07 (a critical of the raw mean damage, the
    ally at most and the coverer above it), which cost the kaii a point on a drawn skirmish
    (a dodger covering an armoured tank a knife could not fell). Reads what the coverer's side
    knows: both sheets and HP, the attacker's weapon, whether the attack check was critical."""
    mean2 = dice_mean2_nb(sc, sc.weapons[w, WF.DICE])
    if sc.chars[a, CF.S_COVER_RAW] == 1:
        return b.bs[t, B.HP] <= mean2 < b.bs[a, B.HP]
    hit = mean2 if crit else mean2 // 2
    ha = hit_on_nb(sc, w, a, hit)
    if ha > 0 and sc.chars[t, CF.S_REACTION] == R_DODGE and b.bs[t, B.SUB_USED] == 0 and can_act_nb(b, t):
        return False
    return b.bs[t, B.HP] <= hit_on_nb(sc, w, t, hit) and ha < b.bs[a, B.HP]


@nb.njit(forceinline=True)
def heal_needed_nb(sc, b, view, j):
    """T-13 (``heal_any`` false): a heal only for an ally ``j`` that is fallen or that the
    enemies could fell before its next turn — its HP at most the sum, over every standing
    enemy whose weapon in hand reaches it, of a critical of that weapon's mean damage (twice
    the mean, R-2) less j's armour and carried reductions (R-10; nothing from a physical,
    unenhanced weapon to a kaii). Healing whenever an ally was below ``heal_below`` cost a
    side 3 points on a drawn skirmish (a tank healing itself against a knife it could take
    until the round limit: draws). Reads what the healer's side knows: its allies' HP and
    sheets, the enemies' positions and the weapons in their hands."""
    if b.bs[j, B.STATUS] == ST.FALLEN:
        return True
    threat = 0
    for e in range(sc.chars.shape[0]):
        if sc.chars[e, CF.SIDE] != sc.chars[j, CF.SIDE] and standing_nb(b, e):
            w = b.bs[e, B.WIELD]
            if reach_nb(sc, w, min(distance_nb(view, e, j), 3)):
                threat += hit_on_nb(sc, w, j, dice_mean2_nb(sc, sc.weapons[w, WF.DICE]))
    return b.bs[j, B.HP] <= threat


@nb.njit
def damage_nb(cx, log, attacker, d, w, crit, covered, allow_reaction):
    """Reaction, damage roll and the reduction order (R-10) against defender d (cx: :func:`context_address_nb`)."""
    rng, view, srngs, key, pb = context_nb(cx)
    b = Battle(view.bs, view.info)
    sc = view.sc
    physical = sc.weapons[w, WF.PHYSICAL] == 1
    guard = 0  # 0 none, 1 last digit to 0 (arm or ranged weapon), 2 melee weapon roll
    guard_arm = -1
    guard_roll_dice = -1
    if allow_reaction and b.bs[d, B.SUB_USED] == 0 and can_act_nb(b, d):
        why = new_why_nb(log)
        r = h_reaction_nb(srngs, key, pb, view, d, attacker, not covered, why)
        emit_nb(log, EV.REACTION, d, attacker, r, 1 if covered else 0)
        explain_nb(log, why, d)
        if r == 1 and not covered:  # a coverer never dodges
            b.bs[d, B.SUB_USED] = 1
            oc = check_nb(rng, b, sc, d, sc.chars[d, CF.DODGE], base_penalty_nb(b, sc, d), log, CK.DODGE)
            if oc == OUT.SUCCESS or oc == OUT.CRITICAL:
                emit_nb(log, EV.DODGED, d, attacker)
                return 0
            if oc == OUT.FUMBLE:
                other_fumble_nb(b, sc, d, log)  # R-3 (R-15: not with fumble_applies_to = "attack")
        elif r == 2:
            # only the equipped weapon guards, and only physical attacks: a melee weapon
            # rolls, a ranged one zeroes the last digit; fists and thrown weapons guard as an arm
            ww = sc.char_weapons[d, b.bs[d, B.EQUIP]]
            if physical and sc.weapons[ww, WF.BODY] == 0:
                if sc.weapons[ww, WF.KIND] == K.MELEE:
                    guard = 2
                    guard_roll_dice = sc.weapons[ww, WF.DICE]
                elif sc.weapons[ww, WF.KIND] == K.RANGED:
                    guard = 1
            if guard == 0:
                parts = sc.chars[d, CF.GUARD_PARTS]
                for a in range(2):
                    if guard_arm < 0 and (parts >> a) & 1 and b.bs[d, B.ARM0 + a] < 0:
                        guard_arm = a
                if guard_arm >= 0:
                    guard = 1
            if guard != 0:
                b.bs[d, B.SUB_USED] = 1
            emit_nb(log, EV.GUARD, d, guard, guard_arm)
    # damage roll, with the attacker's damage-bonus abilities
    dmg = roll_dice_nb(rng, sc.dice[sc.weapons[w, WF.DICE]])
    emit_nb(log, EV.DMG, d, DS.ROLL, dmg, dmg, w)
    enhanced = sc.weapons[w, WF.ENHANCED] == 1
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == attacker and sc.abilities[k, AF.KIND] == AK.DAMAGE_BONUS:
            pay_nb(rng, b, sc, attacker, sc.abilities[k, AF.COST], log)
            before = dmg
            if sc.abilities[k, AF.DICE] >= 0:
                dmg += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
            dmg += sc.abilities[k, AF.FIXED]
            if sc.abilities[k, AF.ENHANCED] == 1:
                enhanced = True
            emit_nb(log, EV.DMG, d, DS.BONUS, dmg, dmg - before, k)
    if crit and sc.rules[RL.CRIT_FREE] == 0:
        dmg *= 2
        emit_nb(log, EV.DMG, d, DS.CRIT, dmg, dmg // 2)
    if sc.chars[d, CF.KAII] == 1 and physical and not enhanced:
        emit_nb(log, EV.DMG, d, DS.KAII, 0, max(dmg, 0))
        return 0  # physical attacks do nothing to a kaii
    dmg = max(dmg, 0)
    before = dmg
    dmg -= dmg * sc.chars[d, CF.ARMOUR_PCT] // 100
    emit_nb(log, EV.DMG, d, DS.ARMOUR_PCT, dmg, before - dmg, sc.chars[d, CF.ARMOUR_PCT])
    before = dmg
    dmg = max(dmg - sc.chars[d, CF.ARMOUR_FIXED], 0)
    emit_nb(log, EV.DMG, d, DS.ARMOUR_FIXED, dmg, before - dmg, sc.chars[d, CF.ARMOUR_FIXED])
    if guard == 1:
        absorbed = dmg % 10
        dmg -= absorbed
        if guard_arm >= 0:
            b.bs[d, B.ARM0 + guard_arm] = absorbed
        emit_nb(log, EV.DMG, d, DS.GUARD_DIGIT, dmg, absorbed, guard_arm)
    elif guard == 2:
        before = dmg
        gr = roll_dice_nb(rng, sc.dice[guard_roll_dice])
        dmg = max(dmg - gr, 0)
        emit_nb(log, EV.DMG, d, DS.GUARD_WEAPON, dmg, before - dmg, gr)
    before = dmg
    dmg = max(dmg - sc.chars[d, CF.ITEM_FIXED], 0)
    emit_nb(log, EV.DMG, d, DS.ITEM, dmg, before - dmg, sc.chars[d, CF.ITEM_FIXED])
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == d and sc.abilities[k, AF.KIND] == AK.REDUCTION and sc.abilities[k, AF.PCT] > 0:
            pay_nb(rng, b, sc, d, sc.abilities[k, AF.COST], log)
            before = dmg
            dmg -= dmg * sc.abilities[k, AF.PCT] // 100
            emit_nb(log, EV.DMG, d, DS.REDUCTION_PCT, dmg, before - dmg, k)
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == d and sc.abilities[k, AF.KIND] == AK.REDUCTION and sc.abilities[k, AF.PCT] == 0:
            pay_nb(rng, b, sc, d, sc.abilities[k, AF.COST], log)
            red = sc.abilities[k, AF.FIXED]
            if sc.abilities[k, AF.DICE] >= 0:
                red += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
            before = dmg
            dmg = max(dmg - red, 0)
            emit_nb(log, EV.DMG, d, DS.REDUCTION_FIXED, dmg, before - dmg, k)
    return dmg


@nb.njit(forceinline=True)
def attack_nb(rng, b, sc, view, cx, log, i, t, w):
    """Attack t with weapon w; returns True when a critical grants another main action (R-2 variant)."""
    band = min(distance_nb(view, i, t), 3)
    melee = sc.weapons[w, WF.KIND] == K.MELEE
    skill = sc.chars[i, CF.MELEE] if melee else sc.chars[i, CF.SHOOTING]
    pen = base_penalty_nb(b, sc, i) + arm_penalty_nb(b, i)
    if not melee:
        pen += sc.weapons[w, WF.BAND0 + band]
    slot = b.bs[i, B.EQUIP]
    if sc.weapons[w, WF.AMMO] > 0:
        b.bs[i, B.AMMO0 + slot] -= 1
    emit_nb(log, EV.ATTACK, i, t, w, band, b.bs[i, B.CTRL])
    oc = check_nb(rng, b, sc, i, skill, pen, log, CK.ATTACK)
    n = sc.chars.shape[0]
    crit = False
    covered = False
    react = True
    d = t
    if oc == OUT.FAIL:
        return False
    if oc == OUT.FUMBLE:
        if sc.rules[RL.FUMBLE_ALLY] == 0:
            b.bs[i, B.SKIP] += 1
            emit_nb(log, EV.LOSE_TURN, i)
            return False
        allies = np.uint64(0)
        for a in range(n):
            if a != i and sc.chars[a, CF.SIDE] == sc.chars[i, CF.SIDE] and can_act_nb(b, a) \
                    and reach_nb(sc, w, min(distance_nb(view, i, a), 3)):
                allies |= _bit_nb(a)
        if not allies:
            emit_nb(log, EV.FUMBLE_ALLY, i, -1)
            return False
        d = choose_bit_nb(rng, allies)  # R-3 variant: a random ally in reach takes the hit (the rules' stream)
        emit_nb(log, EV.FUMBLE_ALLY, i, d)
        react = False
    else:
        crit = oc == OUT.CRITICAL
        # cover (T-2): the first willing ally of the target within near range
        for a in range(n):
            if a != t and a != i and sc.chars[a, CF.SIDE] == sc.chars[t, CF.SIDE] and can_act_nb(b, a) \
                    and sc.chars[a, CF.S_COVER] == 1 and distance_nb(view, a, t) <= 1 \
                    and (sc.chars[a, CF.S_COVER_ANY] == 1
                         or cover_saves_nb(sc, b, w, t, a, crit and sc.rules[RL.CRIT_FREE] == 0)):
                oc2 = check_nb(rng, b, sc, a, sc.chars[a, CF.ATHLETICS], base_penalty_nb(b, sc, a), log, CK.COVER)
                if oc2 == OUT.FUMBLE:
                    other_fumble_nb(b, sc, a, log)
                if oc2 == OUT.SUCCESS or oc2 == OUT.CRITICAL:
                    d = a
                    covered = True
                    emit_nb(log, EV.COVER, a, t)
                break
    # one call site; damage stays a real call that takes one address (context_address), so
    # calling it is cheap: inlined as well it measured no faster (152.9k vs 153.3k combats/s,
    # 1 thread, squad.toml) and the cold compile took 42 s instead of 23 s (CPU)
    apply_damage_nb(b, sc, i, d, damage_nb(cx, log, i, d, w, crit, covered, react), log)
    return crit and sc.rules[RL.CRIT_FREE] == 1


@nb.njit(forceinline=True)
def take_turn_nb(rng, view, cx, log, srngs, key, pb, i):
    # one tuple argument, not three: every array passed costs a refcount call pair
    b = Battle(view.bs, view.info)
    sc = view.sc
    n = sc.chars.shape[0]
    if b.bs[i, B.STATUS] == ST.LOST:
        return
    if b.bs[i, B.SKIP] > 0:  # a fumble's lost turn
        b.bs[i, B.SKIP] -= 1
        emit_nb(log, EV.SKIP, i)
        return
    if b.bs[i, B.STATUS] == ST.FALLEN:
        if b.bs[i, B.MONO_USED] == 0 and sc.chars[i, CF.S_MONOLOGUE] == MO.FALLEN:
            monologue_nb(b, sc, i, log, MO.FALLEN)
        spend = min(sc.chars[i, CF.S_LIFE_MP], max(b.bs[i, B.MP], 0))
        emit_nb(log, EV.LIFE, i, spend)
        lose_mp_nb(rng, b, sc, i, spend, log)
        oc = check_nb(rng, b, sc, i, spend, base_penalty_nb(b, sc, i), log, CK.LIFE)
        if oc == OUT.FAIL or oc == OUT.FUMBLE:
            b.bs[i, B.STATUS] = ST.LOST
            emit_nb(log, EV.LOST, i)
        return
    for extra in range(2):
        w = sc.char_weapons[i, b.bs[i, B.EQUIP]]
        ctrl = b.bs[i, B.CTRL] == 1
        if ctrl:
            # the kaii attacks the nearest character of any side (ties: sheet order)
            t = -1
            for j in range(n):
                if j != i and standing_nb(b, j):
                    if t < 0 or distance_nb(view, i, j) < distance_nb(view, i, t):
                        t = j
            if t < 0:
                return
        else:
            if b.bs[i, B.MONO_USED] == 0 and sc.chars[i, CF.S_MONOLOGUE] == MO.LOW_MP and b.bs[i, B.MP] <= 2:
                monologue_nb(b, sc, i, log, MO.LOW_MP)
            # an item (R-19, T-12): with the sub action the turn goes on, with the main it ends
            if extra == 0 and use_item_nb(rng, b, sc, i, log) == 2:
                return
            # heal a hurt ally (or oneself) within near range (T-13: unless heal_any, one in danger)
            for k in range(sc.abilities.shape[0]):
                if sc.abilities[k, AF.OWNER] == i and sc.abilities[k, AF.KIND] == AK.HEAL:
                    best = -1
                    for j in range(n):
                        if sc.chars[j, CF.SIDE] == sc.chars[i, CF.SIDE] and distance_nb(view, i, j) <= 1 \
                                and (b.bs[j, B.STATUS] == ST.FALLEN or can_act_nb(b, j)) \
                                and b.bs[j, B.HP] * 100 < sc.chars[j, CF.HP] * sc.chars[i, CF.S_HEAL_BELOW] \
                                and (sc.chars[i, CF.S_HEAL_ANY] == 1 or heal_needed_nb(sc, b, view, j)):
                            if best < 0 or b.bs[j, B.HP] < b.bs[best, B.HP]:
                                best = j
                    if best >= 0:
                        pay_nb(rng, b, sc, i, sc.abilities[k, AF.COST], log)
                        h = sc.abilities[k, AF.FIXED]
                        if sc.abilities[k, AF.DICE] >= 0:
                            h += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
                        set_hp_nb(b, sc, best, min(b.bs[best, B.HP] + max(h, 0), sc.chars[best, CF.HP]))
                        emit_nb(log, EV.HEAL, i, best, max(h, 0), b.bs[best, B.HP], k)
                        if b.bs[best, B.HP] >= 1 and b.bs[best, B.STATUS] == ST.FALLEN:
                            b.bs[best, B.STATUS] = ST.OK
                            emit_nb(log, EV.STAND, best)
                        return
        if reload_if_empty_nb(b, sc, i, w, log):
            return
        act = ACT_ATTACK
        if ctrl:
            if not usable_nb(b, sc, i, b.bs[i, B.EQUIP], min(distance_nb(view, i, t), 3)):
                act = ACT_CLOSE_IN
        else:
            cands = np.uint64(0)
            for j in range(n):
                if sc.chars[j, CF.SIDE] != sc.chars[i, CF.SIDE] and standing_nb(b, j):
                    cands |= _bit_nb(j)
            if cands == 0:
                return
            why = new_why_nb(log)
            t = h_target_nb(srngs, key, pb, view, i, cands, why)
            if t < 0 or t >= n or not ((cands >> np.uint64(t)) & U1):
                raise ValueError("target strategy returned a non-candidate")
            emit_nb(log, EV.TARGET, i, t)
            explain_nb(log, why, i)
            band = min(distance_nb(view, i, t), 3)
            # swap (one sub action, T-3, T-10): to a melee weapon once the target is this close
            # (strategy.swap_to_melee_at), or to one that reaches and is not spent
            swap = -1
            if b.bs[i, B.SUB_USED] == 0:
                if band <= sc.chars[i, CF.S_SWAP_MELEE] and not (sc.weapons[w, WF.KIND] == K.MELEE
                                                               and sc.weapons[w, WF.BODY] == 0):
                    for s in range(sc.chars[i, CF.N_WEAPONS]):
                        ws = sc.char_weapons[i, s]
                        if swap < 0 and sc.weapons[ws, WF.KIND] == K.MELEE and sc.weapons[ws, WF.BODY] == 0:
                            swap = s
                if swap < 0 and not usable_nb(b, sc, i, b.bs[i, B.EQUIP], band):
                    for s in range(sc.chars[i, CF.N_WEAPONS]):
                        if swap < 0 and usable_nb(b, sc, i, s, band):
                            swap = s
            if swap >= 0:
                ws = sc.char_weapons[i, swap]
                b.bs[i, B.EQUIP] = swap
                b.bs[i, B.WIELD] = ws
                b.bs[i, B.SUB_USED] = 1
                w = ws
                emit_nb(log, EV.SWAP, i, ws)
            if not usable_nb(b, sc, i, b.bs[i, B.EQUIP], band):
                act = ACT_CLOSE_IN
            elif sc.chars[i, CF.S_MOVE] == MV.KEEP_RANGE and sc.weapons[w, WF.KIND] != K.MELEE:
                act = kite_nb(b, sc, i, t, w, band)
        # one call site each for move and attack: every inlined copy costs compile time
        if act != ACT_ATTACK:
            move_nb(rng, b, sc, view, i, t, act == ACT_AWAY, log)
            return
        again = attack_nb(rng, b, sc, view, cx, log, i, t, w)
        if ctrl or not again or extra == 1:
            return


@nb.njit
def play_games_nb(key, start, count, S, out, log):
    """Combats [start, start+count) into ``out`` (``log``: None, or an event log)."""
    n = S.chars.shape[0]
    owned = new_battle_nb(n)
    b = unmanaged_battle_nb(owned)
    # Everything a view or a hook argument hands a strategy is in guarded memory of its own
    # (sim.core.guard): the scenario's tables, each stream, the view board (issue 38).
    S_owned = guarded_scenario_nb(S)
    sc = unmanaged_scenario_nb(S_owned)
    view = View(sc, b.bs, b.info)
    rng_owned = guarded_nb((4,), np.uint64)
    rng = unmanaged_nb(rng_owned)
    nsides = sc.rules[RL.N_SIDES]
    srngs_owned = guarded_rows_nb(nsides, 4, np.uint64)
    srngs = unmanaged_nb(srngs_owned)
    key_owned = key.copy()
    ukey = unmanaged_nb(key_owned)
    pb_owned = new_board_nb(sc)
    pb = unmanaged_nb(pb_owned)
    ctx_owned = np.zeros(N_CTX, np.int64)
    cx = context_address_nb(ctx_owned, rng, view, srngs, ukey, pb)
    first = sc.rules[RL.FIRST_SIDE]
    max_rounds = sc.rules[RL.MAX_ROUNDS]
    for g in range(start, start + count):
        seed_stream_nb(rng, key, g, Stream.RULES)
        b.info[I_GAME] = g
        b.info[I_SEEDED] = 0  # side streams: seeded when a side first decides (side_rng_nb)
        reset_battle_nb(b, sc)
        winner = -1
        rnd = 0
        done = False
        while not done:
            rnd += 1
            if rnd > max_rounds:
                break
            b.info[I_ROUND] = rnd
            emit_nb(log, EV.ROUND, rnd)
            for i in range(n):
                b.bs[i, B.SUB_USED] = 0
            for k in range(nsides):
                # the first side, then the other sides in sheet order
                side = first if k == 0 else (k - 1 if k - 1 < first else k)
                for i in range(n):
                    if sc.chars[i, CF.SIDE] != side:
                        continue
                    b.info[I_ACTOR] = i
                    take_turn_nb(rng, view, cx, log, srngs, ukey, pb, i)
                    able = sides_able_nb(b, sc)
                    if able & (able - 1) == 0:  # at most one side can still act
                        done = True
                        if able:
                            winner = 0
                            while not (able >> winner) & 1:
                                winner += 1
                        break
                if done:
                    break
            for i in range(n):
                if b.bs[i, B.MONO_ROUNDS] > 0:
                    b.bs[i, B.MONO_ROUNDS] -= 1
                    if b.bs[i, B.MONO_ROUNDS] == 0:
                        b.bs[i, B.MONO_CRITS] = 0
        emit_nb(log, EV.END, winner, min(rnd, max_rounds), 1 if rnd > max_rounds else 0)
        out.scalars[C_GAMES] += 1
        r = min(rnd, max_rounds + 1)
        out.scalars[C_ROUNDS] += min(rnd, max_rounds)
        out.rounds_hist[r] += 1
        if winner >= 0:
            out.wins[winner] += 1
            out.win_rounds[winner, r] += 1
        else:
            out.scalars[C_DRAWS] += 1
            out.win_rounds[out.win_rounds.shape[0] - 1, r] += 1
        for i in range(n):
            out.fell[i] += b.bs[i, B.FELL]
            if b.bs[i, B.STATUS] == ST.LOST:
                out.lost[i] += 1
            if can_act_nb(b, i):
                out.survived[i] += 1
            out.dealt[i] += b.bs[i, B.DEALT]
            out.taken[i] += b.bs[i, B.TAKEN]
    keep_alive_nb(owned, rng_owned, srngs_owned, key_owned, pb_owned, ctx_owned, S_owned)


HOOKS = ("u_target", "u_reaction", "builtin_target", "builtin_reaction", "u_target_view", "u_reaction_view",
         "oracle_target", "oracle_view")


@kernel_template(hooks=HOOKS)
def play_chunk_nb(key, start, count, S, out):
    """Template: combats [start, start+count) with the bound strategy hooks (no log)."""
    play_games_nb(key, start, count, S, out, None)


@kernel_template(hooks=HOOKS)
def trace_chunk_nb(key, start, count, S, out, log):
    """Template: the same combats, each event appended to ``log`` (sim.core.trace)."""
    play_games_nb(key, start, count, S, out, log)


def _hooks(target=None, reaction=None, *, oracle_target=False):
    from strategies.trpg import BUILTIN, ORACLES  # looked up here: strategies depend on the game, not back
    from sim.core.views import is_oracle
    from sim.trpg.views import oracle_view_nb

    def view_of(fn):
        name = getattr(getattr(fn, "py_func", fn), "__name__", "")
        return oracle_view_nb if fn is not None and is_oracle(name) else honest_view_nb

    return {"u_target": target or no_target_nb, "u_reaction": reaction or no_reaction_nb,
            "builtin_target": BUILTIN["target"], "builtin_reaction": BUILTIN["reaction"],
            "u_target_view": view_of(target), "u_reaction_view": view_of(reaction),
            "oracle_target": ORACLES["oracle_focus"] if oracle_target else no_oracle_nb,
            "oracle_view": oracle_view_nb if oracle_target else honest_view_nb}


def chunk_kernel(target=None, reaction=None, *, oracle_target=False):
    """The compiled (disk-cached) combat kernel, with optional user target/reaction plug-ins
    (a plug-in named ``oracle_…`` gets the judge's view) and, when a sheet names it, the
    built-in ``oracle_focus`` target."""
    return specialize(play_chunk_nb, _hooks(target, reaction, oracle_target=oracle_target))


def trace_kernel(target=None, reaction=None, *, oracle_target=False):
    """The same kernel with an event log argument (``sim trpg trace``)."""
    return specialize(trace_chunk_nb, _hooks(target, reaction, oracle_target=oracle_target))
