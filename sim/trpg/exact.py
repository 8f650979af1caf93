"""Exact 1v1 TRPG duels as an absorbing Markov chain (``sim trpg exact``).

:func:`duel_exact` gives, for a 1v1 scenario compiled by :mod:`sim.trpg.sheets`, the
exact probability that each side wins, the draw probability and the mean (and standard
deviation) of the number of rounds — the quantities the Monte Carlo engine
(:mod:`sim.trpg.game_nb`, ``sim trpg run``) estimates as ``win_rate``, ``draw_rate``
and ``mean_rounds``. :func:`duel_exact_builds` does the same for two builds of a
``[builds.NAME]`` file (as ``sim trpg matrix`` pairs them, at its ``[matrix] distance``).

What is modelled — exactly what the engine does in such a duel
-----------------------------------------------------------------
* **Rounds** (R-4, R-13): the character of ``scenario.first`` takes its turn, then the
  other. The duel ends as soon as a character's HP ≤ 0 (it falls; its side can no
  longer act, so the other side wins at once — no life checks, no monologue, no MP
  needed). After ``rules.max_rounds`` rounds without a decision: a draw. Rounds are
  counted like the engine's ``mean_rounds``: the round in which the duel ended, or
  ``max_rounds`` for a draw.
* **Turn**: a pending lost turn (R-3, ``fumble = "lose_turn"``) is spent first (skip
  counters, like the engine, can stack: a fumbled attack and then a fumbled dodge);
  otherwise the character attacks the other with its *equipped* weapon (slot 0).
* **Attack** (R-1): 3d6 vs melee (melee weapon) or shooting (ranged / thrown, plus the
  weapon's modifier for the distance band, R-7) plus the sleep penalty
  (``rules.awake_hours``) plus the attacker's damaged-arm penalties (R-9). A natural 3
  is a critical success, a natural 18 a fumble: with ``fumble = "lose_turn"`` the
  attacker skips its next turn; with ``"hit_ally"`` nothing happens (a duellist has no
  ally to hit).
* **Reaction** (R-5): the defender's sub action is always free when it is first attacked
  in a turn (one enemy turn per round), so it reacts per ``strategy.reaction``:
  ``none``; ``dodge``; ``guard``; ``auto`` (T-11: the engine's
  ``auto_choice_nb`` on the chain state — the arms left and their penalty). Dodge: 3d6
  vs dodge + sleep penalty; success or critical → no damage; a fumble fails and
  (``lose_turn`` with ``fumble_applies_to = "any"``, R-15) costs the defender its next
  turn. Guard (R-18: the equipped weapon only): against a physical attack a melee
  weapon subtracts a roll of its dice, a ranged one sets the damage's last digit to 0;
  with fists or a thrown weapon in hand (R-17), or against a non-physical attack, the
  first undamaged arm of ``guard_parts`` sets the last digit to 0 and is damaged from
  then on (it cannot guard again and adds what it absorbed to every melee / shooting
  check, R-9). The arm states are part of the chain's state, so this is exact. With
  nothing to guard with, the defender does nothing (and keeps its sub action).
* **Critical** (R-2): ``critical = "double"`` doubles the weapon roll;
  ``"free_action"`` gives the attacker one more attack in the same turn (T-1) against
  a defender whose sub action may now be spent (no reaction then).
* **Damage** (R-10): weapon dice (×2 on a "double" critical); a kaii defender takes 0
  from a physical weapon that is not ``enhanced``; otherwise armour % (``floor``),
  armour fixed, guard, items (a plain ``reduction`` and carried reduction tools, R-19) —
  never below 0.
* **Positions**: the two characters may stand at any distance as long as nobody ever
  moves: both equipped weapons must reach (melee: zero or near band) and no
  ``keep_range`` character may ever step away or close in (T-6: in the other's square,
  near a melee enemy with ``kite``, or out of reach below ``min_hit``), and no
  ``swap_to_melee_at`` swap may happen (T-10). :func:`duel_exact_builds` puts them at the
  builds file's ``[matrix] distance``, as the matrix does.
* Inert, hence accepted: ``target`` strategies (one candidate), ``cover`` (no ally),
  ``life_mp``, ``heal_below``, ``heal_any``, MP, SP, the symptom table, ``monologue = "never"`` or
  ``"fallen"`` (a fallen duellist has already lost), ``"low_mp"`` with MP > 2 (MP never
  changes here), unequipped weapons with ammunition (never fired; they may still guard).

Rejected with one :class:`~sim.errors.SimInputError`: more than two characters or a
side with several; abilities of any kind; an equipped weapon with ammunition
(``ammo > 0``); items used in combat (``heal_hp`` / ``heal_mp``, R-19); a user reaction
plug-in; ``monologue = "low_mp"`` with MP ≤ 2; an
equipped weapon that does not reach, or a ``keep_range`` retreat (see Positions); a
chain with more than :data:`MAX_STATES` states.

Arithmetic
----------
The per-turn transition probabilities are built exactly (:class:`fractions.Fraction`
from :func:`sim.trpg.dice.check_probability` and :meth:`Dice.dist` / icepool). The
round-by-round propagation over the reachable states (``hp_a, hp_b, skip_a, skip_b,
arms_a, arms_b`` at the start and in the middle of a round, where ``arms`` is (undamaged
arms of ``guard_parts``, total damage they absorbed) — all the engine's arm table
``ARM0/ARM1`` can influence: which arm guards next is irrelevant, only whether one is
left, and the check penalty is the sum) runs in **float64** by
default (relative error ~1e-14; fast), or in exact rationals with ``fractions=True``
(slow; for small duels — the result then also carries the exact values as strings).
The cost is one pass over the reachable states plus ``max_rounds`` sparse
vector–matrix products (the loop stops early once no probability mass is left).
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from sim.errors import SimInputError
from sim.trpg.dice import Dice, check_probability
from sim.trpg.enums import CF, IF, K, MAX_ITEMS, MO, MV, N_IF, RE, RL, WF
from sim.trpg.rules_nb import G_ARM, G_DIGIT, G_NONE, G_ROLL, auto_choice_nb, p_success216_nb  # the engine's `auto`
from sim.trpg.sheets import PLUGIN, Setup

#: Refuse chains larger than this many (start-of-round + mid-round) states.
MAX_STATES = 1_000_000

@lru_cache(maxsize=None)
def _check(target: int, penalty: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(critical, plain success, plain fail, fumble) of a 3d6 check (R-1)."""
    p = check_probability(int(target), int(penalty))
    return p["critical"], p["success"] - p["critical"], p["fail"] - p["fumble"], p["fumble"]


def _dist(row) -> tuple[tuple[int, Fraction], ...]:
    die = Dice.from_array(row).dist()
    den = die.denominator()
    return tuple((int(v), Fraction(int(q), den)) for v, q in die.items())


@dataclass(frozen=True)
class _Fighter:
    index: int
    id: str
    side: str
    hp: int
    skill: int  # melee or shooting, per the equipped weapon
    attack_pen: int  # sleep penalty + the weapon's band modifier (ranged / thrown)
    dodge: int
    dodge_pen: int  # sleep penalty
    reaction: int  # 0 none, 1 dodge, 2 guard, 3 auto (decided per state, T-11)
    dmg: tuple  # ((value, probability), …) of the equipped weapon's dice
    physical: bool
    enhanced: bool
    kaii: bool
    armour_pct: int
    armour_fixed: int
    item_fixed: int
    weapon_guard: tuple  # against physical attacks: ("roll", dist) | ("digit",) | ()
    guard_parts: int  # bit 0 left arm, bit 1 right arm
    mean2: int = 0  # twice the mean of the equipped weapon's dice
    guard2: int = 0  # twice the mean of the guarding melee weapon's dice
    dodge_min: int = 0  # strategy.dodge_threshold in 216ths
    horizon: int = 0  # strategy.arm_horizon


def _distance(sc: Setup) -> int:
    c = sc.nb.chars
    dx = abs(int(c[0, CF.X]) - int(c[1, CF.X]))
    if int(sc.nb.rules[RL.GRID]) == 0:
        return dx
    return max(dx, abs(int(c[0, CF.Y]) - int(c[1, CF.Y])))


def _validate(sc: Setup) -> None:
    S = sc.nb
    problems: list[str] = []
    if sc.n != 2 or len(sc.sides) != 2:
        raise SimInputError(f"exact duel: exactly two characters on two sides are needed (1v1); "
                            f"the scenario has {sc.n} characters on {len(sc.sides)} sides")
    band = min(_distance(sc), 3)
    owners = {int(o) for o in S.abilities[:, 0]} if S.abilities.shape[0] else set()
    for i, cid in enumerate(sc.ids):
        where = f"characters.{cid}"
        w = int(S.char_weapons[i, 0])
        wid = sc.weapon_ids[w]
        if i in owners:
            problems.append(f"{where}: abilities are not modelled")
        if int(S.weapons[w, WF.AMMO]) > 0:
            problems.append(f"{where}: the equipped weapon {wid!r} uses ammunition (ammo > 0)")
        if any(int(S.chars[i, CF.ITEM0 + N_IF * k + IF.EFFECT]) != 0 for k in range(MAX_ITEMS)):
            problems.append(f"{where}.items: items used in combat (R-19) are not modelled")
        if int(S.chars[i, CF.S_REACTION]) >= PLUGIN:
            problems.append(f"{where}.strategy.reaction: user plug-ins are not modelled")
        if int(S.chars[i, CF.S_MONOLOGUE]) == MO.LOW_MP and int(S.chars[i, CF.MP]) <= 2:
            problems.append(f"{where}.strategy.monologue: 'low_mp' with MP <= 2 fires a monologue")
        melee = int(S.weapons[w, WF.KIND]) == K.MELEE
        if melee and band > 1:
            problems.append(f"{where}: the equipped melee weapon {wid!r} does not reach distance "
                            f"{_distance(sc)} (the model has no movement)")
        other = int(S.char_weapons[1 - i, 0])
        threat = int(S.weapons[other, WF.KIND]) == K.MELEE
        if not melee and int(S.chars[i, CF.S_MOVE]) == MV.KEEP_RANGE:
            # T-6: may it ever step away or close in? (worst arm penalty: two arms of 9)
            pen = int(S.rules[RL.SLEEP_PENALTY]) + int(S.weapons[w, WF.BAND0 + band]) + 18
            if band == 0 or (band == 1 and threat and int(S.chars[i, CF.S_KITE]) == 1) or (
                    band - 1 > (1 if threat else -1)
                    and int(p_success216_nb(int(S.chars[i, CF.SHOOTING]), pen)) < int(S.chars[i, CF.S_MIN_HIT])):
                problems.append(f"{where}.strategy.movement: 'keep_range' with the ranged / thrown weapon {wid!r} "
                                f"may step away or close in (the model has no movement)")
        swap_at = int(S.chars[i, CF.S_SWAP_MELEE])
        if band <= swap_at and not (melee and not S.weapons[w, WF.BODY]) and any(
                int(S.weapons[int(S.char_weapons[i, s]), WF.KIND]) == K.MELEE
                and not S.weapons[int(S.char_weapons[i, s]), WF.BODY] for s in range(int(S.chars[i, CF.N_WEAPONS]))):
            problems.append(f"{where}.strategy.swap_to_melee_at: swaps to a melee weapon (the model has no swaps)")
    if problems:
        raise SimInputError("exact duel: outside the model: " + "; ".join(problems))


def _fighter(sc: Setup, i: int, band: int) -> _Fighter:
    S = sc.nb
    c = S.chars[i]
    w = int(S.char_weapons[i, 0])
    melee = int(S.weapons[w, WF.KIND]) == K.MELEE
    sleep = int(S.rules[RL.SLEEP_PENALTY])
    how = int(c[CF.S_REACTION])
    reaction = {RE.NONE: 0, RE.DODGE: 1, RE.GUARD: 2, RE.AUTO: 3}[how]
    guard: tuple = ()
    guard2 = 0
    # only the equipped weapon guards: a melee one rolls, a ranged one zeroes the last
    # digit; fists (body) and thrown weapons guard as an arm (R-9, T-8, R-17)
    if not S.weapons[w, WF.BODY]:
        if int(S.weapons[w, WF.KIND]) == K.MELEE:
            guard = ("roll", _dist(S.dice[int(S.weapons[w, WF.DICE])]))
            guard2 = _mean2(S.dice[int(S.weapons[w, WF.DICE])])
        elif int(S.weapons[w, WF.KIND]) == K.RANGED:
            guard = ("digit",)
    return _Fighter(
        index=i, id=sc.ids[i], side=sc.sides[int(c[CF.SIDE])], hp=int(c[CF.HP]),
        skill=int(c[CF.MELEE] if melee else c[CF.SHOOTING]),
        attack_pen=sleep + (0 if melee else int(S.weapons[w, WF.BAND0 + band])),
        dodge=int(c[CF.DODGE]), dodge_pen=sleep, reaction=reaction,
        dmg=_dist(S.dice[int(S.weapons[w, WF.DICE])]),
        physical=int(S.weapons[w, WF.PHYSICAL]) == 1, enhanced=int(S.weapons[w, WF.ENHANCED]) == 1,
        kaii=int(c[CF.KAII]) == 1, armour_pct=int(c[CF.ARMOUR_PCT]), armour_fixed=int(c[CF.ARMOUR_FIXED]),
        item_fixed=int(c[CF.ITEM_FIXED]), weapon_guard=guard, guard_parts=int(c[CF.GUARD_PARTS]),
        mean2=_mean2(S.dice[int(S.weapons[w, WF.DICE])]), guard2=guard2, dodge_min=int(c[CF.S_DODGE_MIN]),
        horizon=int(c[CF.S_ARM_HORIZON]))


def _mean2(row) -> int:
    """Twice the mean of a dice row (sim.trpg.rules_nb.dice_mean2_nb)."""
    m = 2 * int(row[1 + 2 * int(row[0])])
    for g in range(int(row[0])):
        m += int(row[1 + 2 * g]) * (int(row[2 + 2 * g]) + 1)
    return m


def _add(d: dict, k, p) -> None:
    d[k] = d.get(k, 0) + p


class _Duel:
    """Per-turn kernels (exact) and the reachable state graph of one duel."""

    def __init__(self, sc: Setup, fractions: bool = False):
        _validate(sc)
        self.fractions = fractions
        self.one = Fraction(1) if fractions else 1.0
        band = min(_distance(sc), 3)
        self.f = (_fighter(sc, 0, band), _fighter(sc, 1, band))
        R = sc.nb.rules
        self.double = int(R[RL.CRIT_FREE]) == 0
        self.lose_turn = int(R[RL.FUMBLE_ALLY]) == 0
        self.fumble_any = int(R[RL.FUMBLE_ATTACK_ONLY]) == 0  # a fumbled dodge loses a turn too
        self.max_rounds = int(R[RL.MAX_ROUNDS])
        first_side = int(R[RL.FIRST_SIDE])
        self.first = 0 if int(sc.nb.chars[0, CF.SIDE]) == first_side else 1
        self._kernels: dict = {}

    # --- one attack ------------------------------------------------------------------------
    def _damage(self, x: int, crit: bool, guard: tuple, arms_y: tuple) -> dict:
        """{(damage, arms_y after): p} of a hit by x (the engine's ``damage_nb`` after the reaction)."""
        a, d = self.f[x], self.f[1 - x]
        out: dict = {}
        immune = d.kaii and a.physical and not a.enhanced
        for v, p in a.dmg:
            dmg = v * 2 if crit and self.double else v
            if immune:
                _add(out, (0, arms_y), p)
                continue
            dmg = max(dmg, 0)
            dmg -= dmg * d.armour_pct // 100
            dmg = max(dmg - d.armour_fixed, 0)
            arms = arms_y
            if guard and guard[0] == "digit":
                absorbed = dmg % 10
                dmg -= absorbed
                if guard[1]:  # an arm guarded: one arm fewer, its absorbed damage a penalty
                    arms = (arms_y[0] - 1, arms_y[1] + absorbed)
            if guard and guard[0] == "roll":
                for g, pg in guard[1]:
                    _add(out, (max(max(dmg - g, 0) - d.item_fixed, 0), arms), p * pg)
                continue
            _add(out, (max(dmg - d.item_fixed, 0), arms), p)
        return out

    def _defend(self, x: int, crit: bool, sub_free: bool, arms_y: tuple) -> dict:
        """{(damage, skip_y increment, arms_y after, sub_free after): p} once x has hit."""
        a, d = self.f[x], self.f[1 - x]
        out: dict = {}
        guard: tuple = ()
        reaction = d.reaction
        if reaction == 3:  # auto (T-11): the engine's rule on this state
            kind, g2 = G_NONE, 0
            if a.physical and d.weapon_guard:
                kind, g2 = (G_ROLL, d.guard2) if d.weapon_guard[0] == "roll" else (G_DIGIT, 0)
            elif arms_y[0] > 0:
                kind = G_ARM
            reaction = int(auto_choice_nb(True, int(p_success216_nb(d.dodge, 0)), d.dodge_min, a.mean2, kind, g2,
                                          d.skill, arms_y[1], d.mean2, d.horizon))
        if sub_free and reaction == 1:
            cr, su, fa, fu = _check(d.dodge, d.dodge_pen)
            _add(out, (0, 0, arms_y, False), cr + su)
            for (dmg, arms), p in self._damage(x, crit, (), arms_y).items():
                _add(out, (dmg, 0, arms, False), fa * p)
                _add(out, (dmg, 1 if self.lose_turn and self.fumble_any else 0, arms, False), fu * p)
            return out
        if sub_free and reaction == 2:
            if a.physical and d.weapon_guard:
                guard = d.weapon_guard + ((False,) if d.weapon_guard[0] == "digit" else ())
            elif arms_y[0] > 0:
                guard = ("digit", True)
        still_free = sub_free and not guard
        for (dmg, arms), p in self._damage(x, crit, guard, arms_y).items():
            _add(out, (dmg, 0, arms, still_free), p)
        return out

    def _attack(self, x: int, sub_free: bool, arms_x: tuple, arms_y: tuple) -> dict:
        """{(damage, skip_x inc, skip_y inc, arms_y after, sub_free after, again): p} of one attack."""
        a = self.f[x]
        pen = a.attack_pen + arms_x[1]
        cr, su, fa, fu = _check(a.skill, pen)
        out: dict = {}
        _add(out, (0, 0, 0, arms_y, sub_free, False), fa)
        _add(out, (0, 1 if self.lose_turn else 0, 0, arms_y, sub_free, False), fu)
        for crit, pc in ((False, su), (True, cr)):
            if not pc:
                continue
            again = crit and not self.double
            for (dmg, sky, arms, free), p in self._defend(x, crit, sub_free, arms_y).items():
                _add(out, (dmg, 0, sky, arms, free, again), pc * p)
        return out

    def kernel(self, x: int, arms_x: tuple, arms_y: tuple) -> tuple:
        """((total damage, skip_x inc, skip_y inc, arms_y after, p), …) of x's (unskipped) turn.

        With ``free_action`` a critical buys one more attack (T-1); its damage is simply
        added: if the first hit already felled the defender the second never happens, but
        the duel is decided either way (damage is never negative). ``p`` is a Fraction
        with ``fractions=True``, else a float.
        """
        key = (x, arms_x, arms_y)
        k = self._kernels.get(key)
        if k is not None:
            return k
        acc: dict = {}
        for (d1, sx1, sy1, arms1, free1, again), p1 in self._attack(x, True, arms_x, arms_y).items():
            if not again:
                _add(acc, (d1, sx1, sy1, arms1), p1)
                continue
            for (d2, sx2, sy2, arms2, _f, _a), p2 in self._attack(x, free1, arms_x, arms1).items():
                _add(acc, (d1 + d2, sx1 + sx2, sy1 + sy2, arms2), p1 * p2)
        conv = Fraction if self.fractions else float
        k = tuple((*kk, conv(v)) for kk, v in acc.items() if v)
        self._kernels[key] = k
        return k

    def turn(self, s: tuple, x: int):
        """x's turn from state s: (P(x fells the other), [(next state, p), …]) — distinct states."""
        h0, h1, k0, k1, a0, a1 = s
        if (k0 if x == 0 else k1) > 0:  # a lost turn
            return 0, [((h0, h1, k0 - 1, k1, a0, a1) if x == 0 else (h0, h1, k0, k1 - 1, a0, a1), self.one)]
        win = 0
        nxt = []
        if x == 0:
            for dmg, sx, sy, arms, p in self.kernel(0, a0, a1):
                if dmg >= h1:
                    win += p
                else:
                    nxt.append(((h0, h1 - dmg, k0 + sx, k1 + sy, a0, arms), p))
        else:
            for dmg, sx, sy, arms, p in self.kernel(1, a1, a0):
                if dmg >= h0:
                    win += p
                else:
                    nxt.append(((h0 - dmg, h1, k0 + sy, k1 + sx, arms, a1), p))
        return win, nxt


def _build(duel: _Duel):
    """Reachable start-of-round and mid-round states and the two half-round transitions."""
    F, S = duel.first, 1 - duel.first
    s0 = (duel.f[0].hp, duel.f[1].hp, 0, 0, (bin(duel.f[0].guard_parts).count("1"), 0),
          (bin(duel.f[1].guard_parts).count("1"), 0))
    index = ({s0: 0}, {})  # start states, mid states
    lists = ([s0], [])
    # per phase: source, destination and probability of every transition
    edges = tuple((array("q"), array("q"), [] if duel.fractions else array("d")) for _ in range(2))
    wins = ([], [])  # per phase, per source state: P(the mover wins in this turn)
    done = [0, 0]
    while done[0] < len(lists[0]) or done[1] < len(lists[1]):
        for ph, mover in ((0, F), (1, S)):
            src, dst = lists[ph], 1 - ph
            idx, lst = index[dst], lists[dst]
            es, ed, ep = edges[ph]
            while done[ph] < len(src):
                i = done[ph]
                w, nxt = duel.turn(src[i], mover)
                wins[ph].append(w)
                for t, p in nxt:
                    j = idx.get(t)
                    if j is None:
                        j = idx[t] = len(lst)
                        lst.append(t)
                    es.append(i)
                    ed.append(j)
                    ep.append(p)
                done[ph] += 1
                if len(lists[0]) + len(lists[1]) > MAX_STATES:
                    raise SimInputError(f"exact duel: more than {MAX_STATES:,} states (HP too high for the "
                                        f"exact model); use `sim trpg run`")
    return lists, edges, wins


def _propagate_float(lists, edges, wins, R):
    n0, n1 = len(lists[0]), len(lists[1])
    arr = [(np.frombuffer(es, np.int64), np.frombuffer(ed, np.int64), np.frombuffer(ep, np.float64),
            np.asarray(wins[ph], np.float64)) for ph, (es, ed, ep) in enumerate(edges)]
    v = np.zeros(n0)
    v[0] = 1.0
    ends = []  # per round: (P(first mover wins), P(second mover wins))
    for _ in range(R):
        src, dst, p, w = arr[0]
        wf = float(v @ w)
        m = np.bincount(dst, weights=v[src] * p, minlength=n1)
        src, dst, p, w = arr[1]
        ws = float(m @ w)
        v = np.bincount(dst, weights=m[src] * p, minlength=n0)
        ends.append((wf, ws))
        if not v.any():
            break
    return ends, float(v.sum())


def _propagate_exact(lists, edges, wins, R):
    v = {0: Fraction(1)}
    ends = []
    by_src = []
    for es, ed, ep in edges:
        t: dict = {}
        for a, b, p in zip(es, ed, ep):
            t.setdefault(a, []).append((b, p))
        by_src.append(t)
    for _ in range(R):
        wf = sum((p * wins[0][i] for i, p in v.items()), Fraction(0))
        m: dict = {}
        for i, p in v.items():
            for j, q in by_src[0].get(i, ()):
                _add(m, j, p * q)
        ws = sum((p * wins[1][i] for i, p in m.items()), Fraction(0))
        v = {}
        for i, p in m.items():
            for j, q in by_src[1].get(i, ()):
                _add(v, j, p * q)
        v = {i: p for i, p in v.items() if p}
        ends.append((wf, ws))
        if not v:
            break
    return ends, sum(v.values(), Fraction(0))


def duel_exact(scenario: Setup, *, fractions: bool = False) -> dict:
    """Exact outcome of a 1v1 duel (see the module docstring for what is modelled).

    Returns ``win_rate`` (side → P(win)), ``draw_rate``, ``mean_rounds`` and
    ``sd_rounds`` (rounds counted as the engine does), per-character ``fall_rate``,
    ``states`` (reachable chain states) and ``seconds``; with ``fractions=True`` also
    ``exact`` — the same numbers as ``"p/q"`` strings.
    """
    if not isinstance(scenario, Setup):
        raise SimInputError("duel_exact: expected a scenario compiled by sim.trpg.sheets")
    t0 = time.perf_counter()
    duel = _Duel(scenario, fractions)
    lists, edges, wins = _build(duel)
    R = duel.max_rounds
    ends, draw = (_propagate_exact if fractions else _propagate_float)(lists, edges, wins, R)
    zero = Fraction(0) if fractions else 0.0
    F, S = duel.first, 1 - duel.first
    win = [zero, zero]
    m1 = m2 = zero
    for r, (wf, ws) in enumerate(ends, start=1):
        win[F] += wf
        win[S] += ws
        m1 += r * (wf + ws)
        m2 += r * r * (wf + ws)
    m1 += R * draw
    m2 += R * R * draw
    var = max(m2 - m1 * m1, zero)
    fs = duel.f
    out = {
        "scenario": scenario.name,
        "model": "exact duel (absorbing Markov chain)",
        "arithmetic": "fraction" if fractions else "float64",
        "first": fs[F].side,
        "max_rounds": R,
        "win_rate": {fs[0].side: float(win[0]), fs[1].side: float(win[1])},
        "draw_rate": float(draw),
        "mean_rounds": float(m1),
        "sd_rounds": float(var) ** 0.5,
        "characters": [{"character": fs[i].id, "side": fs[i].side, "hp": fs[i].hp,
                        "win_rate": float(win[i]), "fall_rate": float(win[1 - i])} for i in range(2)],
        "states": len(lists[0]) + len(lists[1]),
    }
    if fractions:
        q = lambda x: f"{x.numerator}/{x.denominator}"  # noqa: E731
        out["exact"] = {"win_rate": {fs[0].side: q(win[0]), fs[1].side: q(win[1])}, "draw_rate": q(draw),
                        "mean_rounds": q(m1)}
    out["seconds"] = time.perf_counter() - t0
    return out


def duel_exact_builds(builds_toml_path: str | Path, a: str, b: str, first: str = "a",
                      sets: Iterable[str] = (), *, fractions: bool = False) -> dict:
    """:func:`duel_exact` of build ``a`` (side "a") against build ``b`` (side "b"), at the
    distance ``sim trpg matrix`` plays them (the builds file's ``[matrix] distance``).

    The pair is made by :func:`sim.trpg.matrix.pair_scenario`, as the matrix makes it;
    ``sets`` are ``PATH=VALUE`` overrides of that pair scenario (characters are ``a_<a>``
    and ``b_<b>``). A pair the model cannot play at that distance (a melee weapon that does
    not reach, a ``keep_range`` step) is one error that says so.
    """
    from sim.trpg.matrix import load_builds, pair_scenario

    cfg = load_builds(builds_toml_path)
    names = list(cfg["builds"])
    for who, name in (("--a", a), ("--b", b)):
        if name not in cfg["builds"]:
            raise SimInputError(f"{who}: unknown build {name!r}; builds are {', '.join(names)}")
    if first not in ("a", "b"):
        raise SimInputError(f"--first: expected a or b, got {first!r}")
    m = cfg.get("matrix")
    dist = (m if isinstance(m, dict) else {}).get("distance", 1)
    try:
        return duel_exact(pair_scenario(cfg, a, b, first, sets), fractions=fractions)
    except SimInputError as e:
        if "does not reach" not in str(e) and "keep_range" not in str(e):
            raise  # not a matter of distance
        raise SimInputError(f"{e} — at the builds file's [matrix] distance = {dist}, the distance "
                            f"`sim trpg matrix` plays them at") from None
