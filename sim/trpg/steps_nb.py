"""The TRPG's rule steps on the battle state (docs/rules/trpg.md): the 3d6 check (R-1),
penalties, MP loss and costs (R-11), the monologue (T-5), reach, falling, applying damage,
movement (T-6), who stands and who can act, reloading, and resetting a battle. None of
them calls a strategy hook: the steps that do (``damage_nb``, ``attack_nb``,
``take_turn_nb``) stay in the kernel template's module, sim/trpg/game_nb.py, where
sim.core.kernels.specialize finds them as companions."""
import numba as nb
import numpy as np

from sim.core.rng import randint_nb
from sim.core.trace import emit_nb
from sim.trpg.dice import roll_dice_nb
from sim.trpg.enums import CF, CK, EV, IA, IE, IF, K, MAX_ITEMS, N_IF, OUT, RL, ST, WF, B
from sim.trpg.rules_nb import p_success216_nb
from sim.trpg.sheets import MAX_WEAPONS
from sim.trpg.views import hp_band_nb

U1 = np.uint64(1)
ACT_ATTACK, ACT_CLOSE_IN, ACT_AWAY = 0, 1, 2  # what a turn's main action does (take_turn_nb)


@nb.njit(forceinline=True)
def _bit_nb(i):
    return U1 << np.uint64(i)


@nb.njit(forceinline=True)
def roll3d6_nb(rng):
    return randint_nb(rng, 6) + randint_nb(rng, 6) + randint_nb(rng, 6) + 3


@nb.njit
def reset_battle_nb(b, sc):
    n = sc.chars.shape[0]
    for i in range(n):
        b.bs[i, B.HP] = sc.chars[i, CF.HP]
        b.bs[i, B.MP] = sc.chars[i, CF.MP]
        b.bs[i, B.X] = sc.chars[i, CF.X]
        b.bs[i, B.Y] = sc.chars[i, CF.Y]
        b.bs[i, B.STATUS] = ST.OK
        b.bs[i, B.CTRL] = 0
        b.bs[i, B.SUB_USED] = 0
        b.bs[i, B.EQUIP] = 0
        b.bs[i, B.WIELD] = sc.char_weapons[i, 0]
        b.bs[i, B.BAND] = hp_band_nb(b.bs[i, B.HP], sc.chars[i, CF.HP])
        for s in range(MAX_WEAPONS):
            w = sc.char_weapons[i, s]
            b.bs[i, B.AMMO0 + s] = sc.weapons[w, WF.AMMO] if w >= 0 else 0
        b.bs[i, B.ARM0 + 0] = -1  # -1: undamaged; >= 0: damaged, absorbed that much
        b.bs[i, B.ARM0 + 1] = -1
        b.bs[i, B.SKIP] = 0
        b.bs[i, B.MONO_USED] = 0
        b.bs[i, B.MONO_ROUNDS] = 0
        b.bs[i, B.MONO_CRITS] = 0
        b.bs[i, B.SYM_PEN] = 0
        b.bs[i, B.DEALT] = 0
        b.bs[i, B.TAKEN] = 0
        b.bs[i, B.FELL] = 0
        b.bs[i, B.EXTRA] = 0
        for k in range(MAX_ITEMS):
            b.bs[i, B.ITEM0 + k] = sc.chars[i, CF.ITEM0 + N_IF * k + IF.COUNT]


@nb.njit(forceinline=True)
def check_nb(rng, b, sc, actor, target, penalty, log, kind):
    """A 3d6 check (R-1); a monologue's pending criticals are used first on the check kinds
    the strategy gives them to (``strategy.monologue_checks``, R-20, T-5).
    Logged as EV.CHECK(actor, kind, roll (0: a monologue's critical), target, penalty, outcome)."""
    if b.bs[actor, B.MONO_CRITS] > 0 and b.bs[actor, B.MONO_ROUNDS] > 0 \
            and (sc.chars[actor, CF.S_MONO_CHECKS] >> kind) & 1:
        b.bs[actor, B.MONO_CRITS] -= 1
        emit_nb(log, EV.CHECK, actor, kind, 0, target, penalty, OUT.CRITICAL)
        return OUT.CRITICAL
    r = roll3d6_nb(rng)
    if r == 3:
        oc = OUT.CRITICAL
    elif r == 18:
        oc = OUT.FUMBLE
    else:
        oc = OUT.SUCCESS if r + penalty <= target else OUT.FAIL
    emit_nb(log, EV.CHECK, actor, kind, r, target, penalty, oc)
    return oc


@nb.njit(forceinline=True)
def base_penalty_nb(b, sc, i):
    return b.bs[i, B.SYM_PEN] + sc.rules[RL.SLEEP_PENALTY]


@nb.njit(forceinline=True)
def arm_penalty_nb(b, i):
    p = 0
    for a in range(2):
        if b.bs[i, B.ARM0 + a] > 0:
            p += b.bs[i, B.ARM0 + a]
    return p


@nb.njit(forceinline=True)
def lose_mp_nb(rng, b, sc, i, amount, log):
    """MP drops; crossing to <= 0 rolls the symptom table and maybe kaii control (R-11)."""
    if amount <= 0:
        return
    before = b.bs[i, B.MP]
    b.bs[i, B.MP] -= amount
    emit_nb(log, EV.MP, i, amount, b.bs[i, B.MP])
    if before > 0 and b.bs[i, B.MP] <= 0:
        r = roll3d6_nb(rng)
        row = -1
        for k in range(sc.symptoms.shape[0]):
            if r <= sc.symptoms[k, 0]:
                b.bs[i, B.SYM_PEN] = sc.symptoms[k, 1]
                row = k
                break
        ctrl = 0
        if r <= sc.chars[i, CF.SP] // 5 and b.bs[i, B.STATUS] != ST.LOST:
            b.bs[i, B.CTRL] = 1  # until MP >= 1, fallen or not
            ctrl = 1
        emit_nb(log, EV.SYMPTOM, i, r, row, b.bs[i, B.SYM_PEN], ctrl, sc.chars[i, CF.SP] // 5)


@nb.njit(forceinline=True)
def pay_nb(rng, b, sc, i, cost, log):
    """An ability of cost c is free while c <= SP; otherwise c - SP MP per use."""
    sp = sc.chars[i, CF.SP]
    if cost > sp:
        lose_mp_nb(rng, b, sc, i, cost - sp, log)


@nb.njit(forceinline=True)
def monologue_nb(b, sc, i, log, why):
    emit_nb(log, EV.MONOLOGUE, i, why, sc.chars[i, CF.MP])
    b.bs[i, B.MONO_USED] = 1
    b.bs[i, B.MP] = sc.chars[i, CF.MP]
    b.bs[i, B.MONO_ROUNDS] = 3
    b.bs[i, B.MONO_CRITS] = 3
    b.bs[i, B.SYM_PEN] = 0
    b.bs[i, B.CTRL] = 0


@nb.njit(forceinline=True)
def use_item_nb(rng, b, sc, i, log):
    """The first item slot of i the strategy would use now (R-19, T-12): a heal_hp item at HP
    at most ``strategy.item_hp_at`` of the maximum (and below it), a heal_mp item at MP at
    most ``strategy.item_mp_at``. It restores its fixed amount plus its dice, never above the
    maximum; MP back to 1 or more ends the symptom penalty (R-11). A consumable is used up.
    An item usable with either action spends the one ``strategy.item_action`` names (the sub
    action only while it is free); ``action = "main"`` / ``"sub"`` items that one (a sub-only
    item waits for a free sub action).
    Returns 0 nothing used, 1 the sub action spent, 2 the main action spent (the turn ends)."""
    for k in range(MAX_ITEMS):
        base = CF.ITEM0 + N_IF * k
        eff = sc.chars[i, base + IF.EFFECT]
        if eff == IE.NONE or b.bs[i, B.ITEM0 + k] == 0:
            continue
        if eff == IE.HEAL_HP:
            cur, mx, at = b.bs[i, B.HP], sc.chars[i, CF.HP], sc.chars[i, CF.S_ITEM_HP]
        else:
            cur, mx, at = b.bs[i, B.MP], sc.chars[i, CF.MP], sc.chars[i, CF.S_ITEM_MP]
        if cur >= mx or cur * 100 > mx * at:
            continue
        act = sc.chars[i, base + IF.ACTION]
        sub_free = b.bs[i, B.SUB_USED] == 0
        if act == IA.SUB and not sub_free:
            continue
        use_sub = sub_free and (act == IA.SUB or (act == IA.MAIN_OR_SUB and sc.chars[i, CF.S_ITEM_SUB] == 1))
        if use_sub:
            b.bs[i, B.SUB_USED] = 1
        if b.bs[i, B.ITEM0 + k] > 0:
            b.bs[i, B.ITEM0 + k] -= 1
        h = sc.chars[i, base + IF.FIXED]
        if sc.chars[i, base + IF.DICE] >= 0:
            h += roll_dice_nb(rng, sc.dice[sc.chars[i, base + IF.DICE]])
        h = max(h, 0)
        if eff == IE.HEAL_HP:
            set_hp_nb(b, sc, i, min(cur + h, mx))
            new = b.bs[i, B.HP]
        else:
            b.bs[i, B.MP] = min(cur + h, mx)
            new = b.bs[i, B.MP]
            if cur <= 0 and new >= 1:
                b.bs[i, B.SYM_PEN] = 0
        emit_nb(log, EV.ITEM, i, k, eff, h, new, 0 if use_sub else 1)
        return 1 if use_sub else 2
    return 0


@nb.njit(forceinline=True)
def reach_nb(sc, w, band):
    return band <= 1 if sc.weapons[w, WF.KIND] == K.MELEE else True


@nb.njit(forceinline=True)
def fall_if_down_nb(b, i, log):
    if b.bs[i, B.HP] <= 0 and b.bs[i, B.STATUS] == ST.OK:
        b.bs[i, B.STATUS] = ST.FALLEN
        b.bs[i, B.FELL] = 1
        emit_nb(log, EV.FALL, i, b.bs[i, B.HP])


@nb.njit(forceinline=True)
def set_hp_nb(b, sc, i, hp):
    """HP of i becomes hp (and its band, B.BAND, with it)."""
    b.bs[i, B.HP] = hp
    b.bs[i, B.BAND] = hp_band_nb(hp, sc.chars[i, CF.HP])


@nb.njit(forceinline=True)
def apply_damage_nb(b, sc, attacker, d, dmg, log):
    set_hp_nb(b, sc, d, b.bs[d, B.HP] - dmg)
    b.bs[attacker, B.DEALT] += dmg
    b.bs[d, B.TAKEN] += dmg
    emit_nb(log, EV.HIT, attacker, d, dmg, b.bs[d, B.HP])
    fall_if_down_nb(b, d, log)


@nb.njit(forceinline=True)
def step_toward_nb(b, view, i, t, away):
    """One square toward (or away from) t."""
    dx = view.bs[t, B.X] - view.bs[i, B.X]
    dy = view.bs[t, B.Y] - view.bs[i, B.Y] if view.sc.rules[RL.GRID] == 1 else 0
    s = -1 if away else 1
    if dx != 0 or away:
        b.bs[i, B.X] += s * (1 if dx > 0 else (-1 if dx < 0 else 1))
    if dy != 0:
        b.bs[i, B.Y] += s * (1 if dy > 0 else -1)


@nb.njit(forceinline=True)
def other_fumble_nb(b, sc, i, log):
    """A fumbled check that is not an attack (dodge, move, cover): R-3 lose_turn, unless
    ``rules.fumble_applies_to = "attack"`` (R-15)."""
    if sc.rules[RL.FUMBLE_ALLY] == 0 and sc.rules[RL.FUMBLE_ATTACK_ONLY] == 0:
        b.bs[i, B.SKIP] += 1
        emit_nb(log, EV.LOSE_TURN, i)


@nb.njit(forceinline=True)
def move_nb(rng, b, sc, view, i, t, away, log):
    """Athletics check: success spends the main action, failure main and sub; one square
    either way — but a failure with the sub action already spent does not move (R-16)."""
    emit_nb(log, EV.MOVE, i, t, 1 if away else 0)
    sub_was_used = b.bs[i, B.SUB_USED] == 1
    oc = check_nb(rng, b, sc, i, sc.chars[i, CF.ATHLETICS], base_penalty_nb(b, sc, i), log, CK.MOVE)
    failed = oc == OUT.FAIL or oc == OUT.FUMBLE
    if failed:
        b.bs[i, B.SUB_USED] = 1
    if oc == OUT.FUMBLE:
        other_fumble_nb(b, sc, i, log)
    if not (failed and sub_was_used):
        step_toward_nb(b, view, i, t, away)


@nb.njit(forceinline=True)
def standing_nb(b, i):
    """On its feet (possibly kaii-controlled): a legal target."""
    return b.bs[i, B.STATUS] == ST.OK


@nb.njit(forceinline=True)
def can_act_nb(b, i):
    """Standing and in control of itself: counts for its side (a side loses without one)."""
    return b.bs[i, B.STATUS] == ST.OK and b.bs[i, B.CTRL] == 0


@nb.njit(forceinline=True)
def reload_if_empty_nb(b, sc, i, w, log):
    """Reload the equipped weapon when empty; True when that spends the main action. A
    thrown weapon is never reloaded (R-17: once thrown it is gone)."""
    if sc.weapons[w, WF.AMMO] > 0 and sc.weapons[w, WF.KIND] != K.THROWN and b.bs[i, B.AMMO0 + b.bs[i, B.EQUIP]] == 0:
        b.bs[i, B.AMMO0 + b.bs[i, B.EQUIP]] = sc.weapons[w, WF.AMMO]
        if sc.weapons[w, WF.RELOAD_MAIN] == 1 or b.bs[i, B.SUB_USED] == 1:
            emit_nb(log, EV.RELOAD, i, w, 1)
            return True  # a main-action reload, or the sub action is gone
        emit_nb(log, EV.RELOAD, i, w, 0)
        b.bs[i, B.SUB_USED] = 1
    return False


@nb.njit(forceinline=True)
def usable_nb(b, sc, i, s, band):
    """Weapon slot s of i reaches ``band`` and is not spent (an empty thrown weapon, R-17)."""
    w = sc.char_weapons[i, s]
    return reach_nb(sc, w, band) and not (sc.weapons[w, WF.AMMO] > 0 and b.bs[i, B.AMMO0 + s] == 0)


@nb.njit(forceinline=True)
def turn_pos_nb(sc, side):
    """Where ``side`` acts in a round (R-4: the first side, then the others in order)."""
    first = sc.rules[RL.FIRST_SIDE]
    if side == first:
        return 0
    return side + 1 if side < first else side


@nb.njit(forceinline=True)
def sides_able_nb(b, sc):
    """Bit mask of sides with a member able to act."""
    m = 0
    for i in range(sc.chars.shape[0]):
        if can_act_nb(b, i):
            m |= 1 << sc.chars[i, CF.SIDE]
    return m


@nb.njit(forceinline=True)
def kite_nb(b, sc, i, t, w, band):
    """``keep_range`` with the ranged / thrown weapon w against target t (T-6), from what the
    table sees: t's weapon in hand, whether t has spent its sub action this round, the turn
    order. In t's square: step away (unless t holds a melee weapon and has spent its sub
    action: it cannot react, so shoot). In a melee t's reach (near): step away when t acts
    earlier in the round, has its sub action and i has its own (``strategy.kite``): t has to
    spend its main action following, and a failed move spends its sub action until i's turn.
    Out of t's reach with a hit chance below ``strategy.min_hit``: close in one square,
    as long as that keeps i out of t's reach. Otherwise shoot."""
    threat = sc.weapons[b.bs[t, B.WIELD], WF.KIND] == K.MELEE
    t_spent = b.bs[t, B.SUB_USED] == 1
    if band == 0 and not (threat and t_spent):
        return ACT_AWAY
    if threat and band == 1 and not t_spent and sc.chars[i, CF.S_KITE] == 1 and b.bs[i, B.SUB_USED] == 0 \
            and turn_pos_nb(sc, sc.chars[t, CF.SIDE]) < turn_pos_nb(sc, sc.chars[i, CF.SIDE]):
        return ACT_AWAY
    reach = 1 if threat else -1
    if band - 1 > reach:
        pen = base_penalty_nb(b, sc, i) + arm_penalty_nb(b, i) + sc.weapons[w, WF.BAND0 + band]
        if p_success216_nb(sc.chars[i, CF.SHOOTING], pen) < sc.chars[i, CF.S_MIN_HIT]:
            return ACT_CLOSE_IN
    return ACT_ATTACK
