"""Whole TRPG combats in numba (shared/rules/trpg.md, docs/trpg.md).

One combat: rounds; in each round every side acts once, first side first (R-4);
within a side, members in sheet order. A turn has a main and a sub action; reactions
spend the sub action of the round (R-5). Strategy hooks (``@njit``, bound by
:func:`sim.core.kernels.specialize`):

    target(rng, view, actor, cands) -> character   # whom to attack (cands: uint64 mask)
    reaction(rng, view, defender, attacker, can_dodge) -> 0 none | 1 dodge | 2 guard

The built-ins read each character's ``strategy`` parameters from its sheet, so target
choice, reaction, cover, movement, life-check MP and monologue combine per character.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.bits import lowest
from sim.core.kernels import specialize
from sim.core.nrt import unmanaged
from sim.core.rng import choose_bit, randint, seed_stream
from sim.trpg.dice import roll_dice_nb
from sim.trpg.enums import AF, AK, CF, K, MO, MV, OUT, RE, RL, ST, WF, N_RL
from sim.trpg.sheets import MAX_WEAPONS, ScenarioNB

U1 = np.uint64(1)
View = namedtuple("View", "sc hp mp x y status sub_used equip ammo arm_dmg info")
# info slots
I_ROUND, I_ACTOR = 0, 1
Counts = namedtuple("Counts", "scalars wins fell lost survived dealt taken rounds_hist")
C_GAMES, C_DRAWS, C_ROUNDS = 0, 1, 2

# 3d6: number of the 216 outcomes with a sum <= k (k = 0 .. 18)
CUM3D6 = np.array([0, 0, 0, 1, 4, 10, 20, 35, 56, 81, 108, 135, 160, 181, 196, 206, 212, 215, 216], np.int64)


def new_counts(sc):
    n = sc.chars.shape[0]
    return Counts(np.zeros(3, np.int64), np.zeros(int(sc.rules[RL.N_SIDES]), np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(int(sc.rules[RL.MAX_ROUNDS]) + 2, np.int64))


@nb.njit(inline="always")
def _bit(i):
    return U1 << np.uint64(i)


@nb.njit
def p_success216(target, penalty):
    """Outcomes of 216 that succeed: natural 3 always, natural 18 never (R-1)."""
    k = target - penalty
    if k >= 17:
        return 215
    if k < 3:
        return 1
    return CUM3D6[k]


@nb.njit
def roll3d6(rng):
    return randint(rng, 6) + randint(rng, 6) + randint(rng, 6) + 3


@nb.njit
def distance(view, i, j):
    dx = abs(view.x[i] - view.x[j])
    if view.sc.rules[RL.GRID] == 0:
        return dx
    return max(dx, abs(view.y[i] - view.y[j]))


@nb.njit
def dice_mean2(sc, d):
    """Twice the mean of dice row d (integer)."""
    row = sc.dice[d]
    m = 2 * row[1 + 2 * row[0]]
    for g in range(row[0]):
        m += row[1 + 2 * g] * (row[2 + 2 * g] + 1)
    return m


@nb.njit
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
            v = -view.hp[j]
        elif how == 2:
            v = -distance(view, actor, j)
        else:
            w = sc.char_weapons[j, view.equip[j]]
            skill = sc.chars[j, CF.MELEE] if sc.weapons[w, WF.KIND] == K.MELEE else sc.chars[j, CF.SHOOTING]
            v = p_success216(skill, 0) * dice_mean2(sc, sc.weapons[w, WF.DICE])
        if best < 0 or v > best_v:
            best = j
            best_v = v
    return best


@nb.njit
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


# Hooks of the template; sim.core.kernels.specialize binds real strategies.
h_target = h_reaction = None

Battle = namedtuple("Battle", "hp mp x y status sub_used equip ammo arm_dmg info skip mono_used mono_rounds "
                              "mono_crits sym_pen dealt taken fell extra")


@nb.njit
def new_battle(n):
    return Battle(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros((n, MAX_WEAPONS), np.int64), np.zeros((n, 2), np.int64), np.zeros(4, np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros(n, np.int64))


@nb.njit(inline="always")
def unmanaged_battle(b):
    return Battle(unmanaged(b.hp), unmanaged(b.mp), unmanaged(b.x), unmanaged(b.y), unmanaged(b.status),
                  unmanaged(b.sub_used), unmanaged(b.equip), unmanaged(b.ammo), unmanaged(b.arm_dmg),
                  unmanaged(b.info), unmanaged(b.skip), unmanaged(b.mono_used), unmanaged(b.mono_rounds),
                  unmanaged(b.mono_crits), unmanaged(b.sym_pen), unmanaged(b.dealt), unmanaged(b.taken),
                  unmanaged(b.fell), unmanaged(b.extra))


@nb.njit(inline="always")
def unmanaged_scenario(s):
    return ScenarioNB(unmanaged(s.chars), unmanaged(s.skills), unmanaged(s.weapons), unmanaged(s.char_weapons),
                      unmanaged(s.abilities), unmanaged(s.dice), unmanaged(s.symptoms), unmanaged(s.rules))


@nb.njit
def reset_battle(b, sc):
    n = sc.chars.shape[0]
    for i in range(n):
        b.hp[i] = sc.chars[i, CF.HP]
        b.mp[i] = sc.chars[i, CF.MP]
        b.x[i] = sc.chars[i, CF.X]
        b.y[i] = sc.chars[i, CF.Y]
        b.status[i] = ST.OK
        b.sub_used[i] = 0
        b.equip[i] = 0
        for s in range(MAX_WEAPONS):
            w = sc.char_weapons[i, s]
            b.ammo[i, s] = sc.weapons[w, WF.AMMO] if w >= 0 else 0
        b.arm_dmg[i, 0] = -1  # -1: undamaged; >= 0: damaged, absorbed that much
        b.arm_dmg[i, 1] = -1
        b.skip[i] = 0
        b.mono_used[i] = 0
        b.mono_rounds[i] = 0
        b.mono_crits[i] = 0
        b.sym_pen[i] = 0
        b.dealt[i] = 0
        b.taken[i] = 0
        b.fell[i] = 0
        b.extra[i] = 0


@nb.njit
def check(rng, b, sc, actor, target, penalty):
    """A 3d6 check (R-1); a monologue's pending criticals are used first (T-5)."""
    if b.mono_crits[actor] > 0 and b.mono_rounds[actor] > 0:
        b.mono_crits[actor] -= 1
        return OUT.CRITICAL
    r = roll3d6(rng)
    if r == 3:
        return OUT.CRITICAL
    if r == 18:
        return OUT.FUMBLE
    return OUT.SUCCESS if r + penalty <= target else OUT.FAIL


@nb.njit
def base_penalty(b, sc, i):
    return b.sym_pen[i] + sc.rules[RL.SLEEP_PENALTY]


@nb.njit
def arm_penalty(b, i):
    p = 0
    for a in range(2):
        if b.arm_dmg[i, a] > 0:
            p += b.arm_dmg[i, a]
    return p


@nb.njit
def lose_mp(rng, b, sc, i, amount):
    """MP drops; crossing to <= 0 rolls the symptom table and maybe kaii control (R-11)."""
    if amount <= 0:
        return
    before = b.mp[i]
    b.mp[i] -= amount
    if before > 0 and b.mp[i] <= 0:
        r = roll3d6(rng)
        for k in range(sc.symptoms.shape[0]):
            if r <= sc.symptoms[k, 0]:
                b.sym_pen[i] = sc.symptoms[k, 1]
                break
        if r <= sc.chars[i, CF.SP] // 5 and b.status[i] == ST.OK:
            b.status[i] = ST.CONTROLLED


@nb.njit
def pay(rng, b, sc, i, cost):
    """An ability of cost c is free while c <= SP; otherwise c - SP MP per use."""
    sp = sc.chars[i, CF.SP]
    if cost > sp:
        lose_mp(rng, b, sc, i, cost - sp)


@nb.njit
def monologue(b, sc, i):
    b.mono_used[i] = 1
    b.mp[i] = sc.chars[i, CF.MP]
    b.mono_rounds[i] = 3
    b.mono_crits[i] = 3
    b.sym_pen[i] = 0
    if b.status[i] == ST.CONTROLLED:
        b.status[i] = ST.OK


@nb.njit
def reach(sc, w, band):
    return band <= 1 if sc.weapons[w, WF.KIND] == K.MELEE else True


@nb.njit
def fall_if_down(b, i):
    if b.hp[i] <= 0 and (b.status[i] == ST.OK or b.status[i] == ST.CONTROLLED):
        b.status[i] = ST.FALLEN
        b.fell[i] = 1


@nb.njit
def damage(rng, b, sc, view, attacker, d, w, crit, covered, allow_reaction):
    """Reaction, damage roll and the reduction order (R-10) against defender d."""
    physical = sc.weapons[w, WF.PHYSICAL] == 1
    guard = 0  # 0 none, 1 last digit to 0 (arm or ranged weapon), 2 melee weapon roll
    guard_arm = -1
    guard_roll_dice = -1
    if allow_reaction and b.sub_used[d] == 0 and b.status[d] == ST.OK:
        r = h_reaction(rng, view, d, attacker, not covered)
        if r == 1 and not covered:  # a coverer never dodges
            b.sub_used[d] = 1
            oc = check(rng, b, sc, d, sc.chars[d, CF.DODGE], base_penalty(b, sc, d))
            if oc == OUT.SUCCESS or oc == OUT.CRITICAL:
                return 0
            if oc == OUT.FUMBLE and sc.rules[RL.FUMBLE_ALLY] == 0:
                b.skip[d] += 1
        elif r == 2:
            # weapons guard physical attacks only; prefer a weapon over an arm (arms stay hurt)
            if physical:
                for s in range(sc.chars[d, CF.N_WEAPONS]):
                    ww = sc.char_weapons[d, s]
                    if sc.weapons[ww, WF.KIND] == K.MELEE and guard == 0:
                        guard = 2
                        guard_roll_dice = sc.weapons[ww, WF.DICE]
                if guard == 0:
                    for s in range(sc.chars[d, CF.N_WEAPONS]):
                        ww = sc.char_weapons[d, s]
                        if sc.weapons[ww, WF.KIND] != K.MELEE:
                            guard = 1
            if guard == 0:
                parts = sc.chars[d, CF.GUARD_PARTS]
                for a in range(2):
                    if guard_arm < 0 and (parts >> a) & 1 and b.arm_dmg[d, a] < 0:
                        guard_arm = a
                if guard_arm >= 0:
                    guard = 1
            if guard != 0:
                b.sub_used[d] = 1
    # damage roll, with the attacker's damage-bonus abilities
    dmg = roll_dice_nb(rng, sc.dice[sc.weapons[w, WF.DICE]])
    enhanced = sc.weapons[w, WF.ENHANCED] == 1
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == attacker and sc.abilities[k, AF.KIND] == AK.DAMAGE_BONUS:
            pay(rng, b, sc, attacker, sc.abilities[k, AF.COST])
            if sc.abilities[k, AF.DICE] >= 0:
                dmg += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
            dmg += sc.abilities[k, AF.FIXED]
            if sc.abilities[k, AF.ENHANCED] == 1:
                enhanced = True
    if crit and sc.rules[RL.CRIT_FREE] == 0:
        dmg *= 2
    if sc.chars[d, CF.KAII] == 1 and physical and not enhanced:
        return 0  # physical attacks do nothing to a kaii
    dmg = max(dmg, 0)
    dmg -= dmg * sc.chars[d, CF.ARMOUR_PCT] // 100
    dmg = max(dmg - sc.chars[d, CF.ARMOUR_FIXED], 0)
    if guard == 1:
        absorbed = dmg % 10
        dmg -= absorbed
        if guard_arm >= 0:
            b.arm_dmg[d, guard_arm] = absorbed
    elif guard == 2:
        dmg = max(dmg - roll_dice_nb(rng, sc.dice[guard_roll_dice]), 0)
    dmg = max(dmg - sc.chars[d, CF.ITEM_FIXED], 0)
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == d and sc.abilities[k, AF.KIND] == AK.REDUCTION and sc.abilities[k, AF.PCT] > 0:
            pay(rng, b, sc, d, sc.abilities[k, AF.COST])
            dmg -= dmg * sc.abilities[k, AF.PCT] // 100
    for k in range(sc.abilities.shape[0]):
        if sc.abilities[k, AF.OWNER] == d and sc.abilities[k, AF.KIND] == AK.REDUCTION and sc.abilities[k, AF.PCT] == 0:
            pay(rng, b, sc, d, sc.abilities[k, AF.COST])
            red = sc.abilities[k, AF.FIXED]
            if sc.abilities[k, AF.DICE] >= 0:
                red += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
            dmg = max(dmg - red, 0)
    return dmg


@nb.njit
def apply_damage(b, attacker, d, dmg):
    b.hp[d] -= dmg
    b.dealt[attacker] += dmg
    b.taken[d] += dmg
    fall_if_down(b, d)


@nb.njit
def attack(rng, b, sc, view, i, t, w):
    """Attack t with weapon w; returns True when a critical grants another main action (R-2 variant)."""
    band = min(distance(view, i, t), 3)
    melee = sc.weapons[w, WF.KIND] == K.MELEE
    skill = sc.chars[i, CF.MELEE] if melee else sc.chars[i, CF.SHOOTING]
    pen = base_penalty(b, sc, i) + arm_penalty(b, i)
    if not melee:
        pen += sc.weapons[w, WF.BAND0 + band]
    slot = b.equip[i]
    if sc.weapons[w, WF.AMMO] > 0:
        b.ammo[i, slot] -= 1
    oc = check(rng, b, sc, i, skill, pen)
    if oc == OUT.FUMBLE:
        if sc.rules[RL.FUMBLE_ALLY] == 0:
            b.skip[i] += 1
        else:
            n = sc.chars.shape[0]
            allies = np.uint64(0)
            for a in range(n):
                if a != i and sc.chars[a, CF.SIDE] == sc.chars[i, CF.SIDE] and b.status[a] == ST.OK \
                        and reach(sc, w, min(distance(view, i, a), 3)):
                    allies |= _bit(a)
            if allies:
                a = choose_bit(rng, allies)
                apply_damage(b, i, a, damage(rng, b, sc, view, i, a, w, False, False, False))
        return False
    if oc == OUT.FAIL:
        return False
    crit = oc == OUT.CRITICAL
    # cover (T-2): the first willing ally of the target within near range
    d = t
    covered = False
    n = sc.chars.shape[0]
    for a in range(n):
        if a != t and a != i and sc.chars[a, CF.SIDE] == sc.chars[t, CF.SIDE] and b.status[a] == ST.OK \
                and sc.chars[a, CF.S_COVER] == 1 and distance(view, a, t) <= 1:
            oc2 = check(rng, b, sc, a, sc.chars[a, CF.ATHLETICS], base_penalty(b, sc, a))
            if oc2 == OUT.SUCCESS or oc2 == OUT.CRITICAL:
                d = a
                covered = True
            break
    apply_damage(b, i, d, damage(rng, b, sc, view, i, d, w, crit, covered, True))
    return crit and sc.rules[RL.CRIT_FREE] == 1


@nb.njit
def step_toward(b, view, i, t, away):
    """One square toward (or away from) t."""
    dx = view.x[t] - view.x[i]
    dy = view.y[t] - view.y[i] if view.sc.rules[RL.GRID] == 1 else 0
    s = -1 if away else 1
    if dx != 0 or away:
        b.x[i] += s * (1 if dx > 0 else (-1 if dx < 0 else 1))
    if dy != 0:
        b.y[i] += s * (1 if dy > 0 else -1)


@nb.njit
def move(rng, b, sc, view, i, t, away):
    """Athletics check: success spends the main action, failure main and sub; one square either way."""
    oc = check(rng, b, sc, i, sc.chars[i, CF.ATHLETICS], base_penalty(b, sc, i))
    if oc == OUT.FAIL or oc == OUT.FUMBLE:
        b.sub_used[i] = 1
    step_toward(b, view, i, t, away)


@nb.njit
def standing(b, i):
    return b.status[i] == ST.OK


@nb.njit
def take_turn(rng, b, sc, view, i):
    n = sc.chars.shape[0]
    if b.status[i] == ST.LOST:
        return
    if b.skip[i] > 0:  # a fumble's lost turn
        b.skip[i] -= 1
        return
    if b.status[i] == ST.FALLEN:
        if b.mono_used[i] == 0 and sc.chars[i, CF.S_MONOLOGUE] == MO.FALLEN:
            monologue(b, sc, i)
        spend = min(sc.chars[i, CF.S_LIFE_MP], max(b.mp[i], 0))
        lose_mp(rng, b, sc, i, spend)
        b.status[i] = ST.FALLEN  # control cannot move a fallen body
        oc = check(rng, b, sc, i, spend, 0)
        if oc == OUT.FAIL or oc == OUT.FUMBLE:
            b.status[i] = ST.LOST
        return
    for extra in range(2):
        w = sc.char_weapons[i, b.equip[i]]
        if b.status[i] == ST.CONTROLLED:
            # the kaii attacks the nearest character of any side (ties: sheet order)
            t = -1
            for j in range(n):
                if j != i and (b.status[j] == ST.OK or b.status[j] == ST.CONTROLLED):
                    if t < 0 or distance(view, i, j) < distance(view, i, t):
                        t = j
            if t < 0:
                return
            if reach(sc, w, min(distance(view, i, t), 3)):
                attack(rng, b, sc, view, i, t, w)
            else:
                move(rng, b, sc, view, i, t, False)
            return
        if b.mono_used[i] == 0 and sc.chars[i, CF.S_MONOLOGUE] == MO.LOW_MP and b.mp[i] <= 2:
            monologue(b, sc, i)
        # heal a hurt ally (or oneself) within near range
        for k in range(sc.abilities.shape[0]):
            if sc.abilities[k, AF.OWNER] == i and sc.abilities[k, AF.KIND] == AK.HEAL:
                best = -1
                for j in range(n):
                    if sc.chars[j, CF.SIDE] == sc.chars[i, CF.SIDE] and distance(view, i, j) <= 1 \
                            and (b.status[j] == ST.OK or b.status[j] == ST.FALLEN) \
                            and b.hp[j] * 100 < sc.chars[j, CF.HP] * sc.chars[i, CF.S_HEAL_BELOW]:
                        if best < 0 or b.hp[j] < b.hp[best]:
                            best = j
                if best >= 0:
                    pay(rng, b, sc, i, sc.abilities[k, AF.COST])
                    h = sc.abilities[k, AF.FIXED]
                    if sc.abilities[k, AF.DICE] >= 0:
                        h += roll_dice_nb(rng, sc.dice[sc.abilities[k, AF.DICE]])
                    b.hp[best] = min(b.hp[best] + max(h, 0), sc.chars[best, CF.HP])
                    if b.hp[best] >= 1 and b.status[best] == ST.FALLEN:
                        b.status[best] = ST.OK
                    return
        # reload an empty weapon
        if sc.weapons[w, WF.AMMO] > 0 and b.ammo[i, b.equip[i]] == 0:
            b.ammo[i, b.equip[i]] = sc.weapons[w, WF.AMMO]
            if sc.weapons[w, WF.RELOAD_MAIN] == 1:
                return
            if b.sub_used[i] == 1:
                return  # needs the sub action, which is gone: the main action reloads
            b.sub_used[i] = 1
        cands = np.uint64(0)
        for j in range(n):
            if sc.chars[j, CF.SIDE] != sc.chars[i, CF.SIDE] and (b.status[j] == ST.OK or b.status[j] == ST.CONTROLLED):
                cands |= _bit(j)
        if cands == 0:
            return
        t = h_target(rng, view, i, cands)
        if t < 0 or t >= n or not ((cands >> np.uint64(t)) & U1):
            raise ValueError("target strategy returned a non-candidate")
        band = min(distance(view, i, t), 3)
        if not reach(sc, w, band) and b.sub_used[i] == 0:
            for s in range(sc.chars[i, CF.N_WEAPONS]):  # swap to a weapon that reaches (sub action)
                ws = sc.char_weapons[i, s]
                if reach(sc, ws, band) and not (sc.weapons[ws, WF.AMMO] > 0 and b.ammo[i, s] == 0):
                    b.equip[i] = s
                    b.sub_used[i] = 1
                    w = ws
                    break
        if reach(sc, w, band):
            if sc.chars[i, CF.S_MOVE] == MV.KEEP_RANGE and sc.weapons[w, WF.KIND] != K.MELEE and band == 0:
                move(rng, b, sc, view, i, t, True)
                return
            again = attack(rng, b, sc, view, i, t, w)
            if not again or extra == 1:
                return
        else:
            move(rng, b, sc, view, i, t, False)
            return


@nb.njit
def sides_able(b, sc):
    """Bit mask of sides with a member able to act."""
    m = 0
    for i in range(sc.chars.shape[0]):
        if b.status[i] == ST.OK:
            m |= 1 << sc.chars[i, CF.SIDE]
    return m


def play_chunk(key, start, count, S, out):
    """Template: combats [start, start+count) with the bound strategy hooks."""
    n = S.chars.shape[0]
    owned = new_battle(n)
    b = unmanaged_battle(owned)
    sc = unmanaged_scenario(S)
    view = View(sc, b.hp, b.mp, b.x, b.y, b.status, b.sub_used, b.equip, b.ammo, b.arm_dmg, b.info)
    rng = np.zeros(4, np.uint64)
    nsides = sc.rules[RL.N_SIDES]
    first = sc.rules[RL.FIRST_SIDE]
    max_rounds = sc.rules[RL.MAX_ROUNDS]
    for g in range(start, start + count):
        seed_stream(rng, key, g)
        reset_battle(b, sc)
        winner = -1
        rnd = 0
        done = False
        while not done:
            rnd += 1
            if rnd > max_rounds:
                break
            b.info[I_ROUND] = rnd
            for i in range(n):
                b.sub_used[i] = 0
            for k in range(nsides):
                side = (first + k) % nsides
                for i in range(n):
                    if sc.chars[i, CF.SIDE] != side:
                        continue
                    b.info[I_ACTOR] = i
                    take_turn(rng, b, sc, view, i)
                    able = sides_able(b, sc)
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
                if b.mono_rounds[i] > 0:
                    b.mono_rounds[i] -= 1
                    if b.mono_rounds[i] == 0:
                        b.mono_crits[i] = 0
        out.scalars[C_GAMES] += 1
        r = min(rnd, max_rounds + 1)
        out.scalars[C_ROUNDS] += min(rnd, max_rounds)
        out.rounds_hist[r] += 1
        if winner >= 0:
            out.wins[winner] += 1
        else:
            out.scalars[C_DRAWS] += 1
        for i in range(n):
            out.fell[i] += b.fell[i]
            if b.status[i] == ST.LOST:
                out.lost[i] += 1
            if b.status[i] == ST.OK:
                out.survived[i] += 1
            out.dealt[i] += b.dealt[i]
            out.taken[i] += b.taken[i]
    keep_alive(owned.hp)


@nb.njit
def keep_alive(a):
    return a.shape[0]


def chunk_kernel(target=builtin_target, reaction=builtin_reaction):
    """The compiled (disk-cached) combat kernel for a target and a reaction strategy."""
    return specialize(play_chunk, {"h_target": target, "h_reaction": reaction},
                      companions=(damage, attack, take_turn))
