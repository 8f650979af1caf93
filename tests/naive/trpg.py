"""A slow, obvious reference for one TRPG combat (for differential tests).

Written from the rules page (``docs/rules/trpg.md``, R-1 … R-20) and the project
rulings (``docs/trpg.md``, T-1 … T-13) only. It reads the merged configuration *tree*
(``Setup.config``, i.e. ``sim.trpg.sheets.build_config(...)``) and keeps every
character as a plain object with named fields — nothing from ``sim/trpg/game_nb.py``
and no strategy code: the built-in target / reaction strategies are re-stated below.

:func:`naive_combat` replays combat ``g`` of run ``key`` the way the engine schedules
it: every die and the rules' other chance event (the fumble's random ally) from the rules'
xoshiro stream (``seed_stream_nb(rng, key, g, RULES)``), each side's decisions (a random
target) from that side's own stream (``seed_stream_nb(rng, key, g, 1 + side)``), every 3d6
as three ``randint_nb(rng, 6)``, a dice expression as one ``randint_nb`` per die (groups
left to right), and random choices by ``choose_bit_nb`` on the mask of candidates. Where the pages leave an
order open (which ally tries a cover, which weapon guards, how a step on the grid goes)
the reference takes the engine's documented choice, so the streams line up draw by draw.

Where the engine knowingly disagrees with the pages, the reference follows the pages by
default; each such disagreement is a named *quirk* (:data:`ENGINE_QUIRKS`) that makes the
reference copy the engine instead, so a differential test can still compare everything
else combat by combat. The rule tests (``tests/test_trpg_rules.py``) pin each quirk as an
``xfail(strict=True)`` "ENGINE BUG" test.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Iterable

import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb, seed_stream_nb
from sim.trpg.dice import Dice, parse_dice

# check outcomes
FAIL, SUCCESS, CRITICAL, FUMBLE = "fail", "success", "critical", "fumble"
# reactions
NONE, DODGE, GUARD = "none", "dodge", "guard"

BANDS = ("zero", "near", "mid", "far")
PARTS = ("left_arm", "right_arm")  # R-9, in the order they are tried
# [characters.X.strategy] defaults (docs / strategies/trpg/__init__.py)
STRATEGY_DEFAULTS = {"target": "nearest", "reaction": "auto", "dodge_threshold": 0.0, "cover": True,
                     "cover_any": False, "cover_raw": False,
                     "movement": "close_in", "life_mp": 3, "monologue": "fallen", "heal_below": 0.5,
                     "heal_any": False, "swap_to_melee_at": -1, "kite": True, "min_hit": 0.1, "arm_horizon": 8,
                     "item_hp_at": 0.5, "item_mp_at": 0.3, "item_action": "main", "monologue_checks": ["attack", "dodge", "life"]}
CHECK_KINDS = ("attack", "dodge", "cover", "move", "life")

# Engine behaviours that once disagreed with the rules page / docs; each can still be
# switched on to show the tests would catch it (tests/test_trpg_rules.py, test_trpg_diff.py).
KNOWN_QUIRKS = frozenset({
    # R-4 / docs "then the other sides in sheet order": cyclic order from the first side
    "cyclic_side_order",
    # T-7: the life check ignoring the sleep and symptom roll penalties
    "life_check_no_penalty",
    # R-3 lose_turn applied only to fumbled attacks and dodges, not athletics (move, cover)
    "fumble_only_attack_dodge",
    # a kaii-controlled character firing an empty weapon
    "controlled_fires_empty",
    # fists guarding like a melee weapon instead of as a body part (arm, R-9)
    "fists_are_a_weapon",
    # control forgotten when a controlled character falls
    "fall_clears_control",
})
ENGINE_QUIRKS: frozenset = frozenset()  # the engine now follows the pages


@lru_cache(maxsize=None)
def p216(target: int) -> int:
    """How many of the 216 3d6 rolls pass a check against ``target`` (natural 3 always, 18 never)."""
    n = 0
    for a, b, c in product(range(1, 7), repeat=3):
        r = a + b + c
        n += r == 3 or (r != 18 and r <= target)
    return n


def hp_band(hp: int, max_hp: int) -> int:
    """HP as the table shows it: 0 (HP <= 0), 1 (up to a third of the maximum), 2 (up to
    two thirds), 3 (more) — docs/rules/trpg.md "What the player knows"."""
    if hp <= 0:
        return 0
    return 1 if 3 * hp <= max_hp else 2 if 3 * hp <= 2 * max_hp else 3


def mean2(d: Dice) -> int:
    """Twice the mean of a dice expression (an integer)."""
    return 2 * d.constant + sum(c * (s + 1) for c, s in d.groups)


class Rng:
    """The engine's per-combat stream, drawn one value at a time from Python."""

    def __init__(self, key, g: int, stream: int = 0):
        self.state = np.zeros(4, np.uint64)
        seed_stream_nb(self.state, key, g, stream)
        self.draws = 0

    def die(self, sides: int) -> int:
        self.draws += 1
        return int(randint_nb(self.state, sides)) + 1

    def three_d6(self) -> int:
        return self.die(6) + self.die(6) + self.die(6)

    def roll(self, dice: Dice) -> int:
        total = dice.constant
        for count, sides in dice.groups:
            sub = sum(self.die(sides) for _ in range(abs(count)))
            total += sub if count > 0 else -sub
        return total

    def pick(self, chars: list) -> "Char":
        mask = 0
        for c in chars:
            mask |= 1 << c.idx
        self.draws += 1
        i = int(choose_bit_nb(self.state, np.uint64(mask)))
        return next(c for c in chars if c.idx == i)


@dataclass
class Weapon:
    wid: str
    dice: Dice
    kind: str          # melee | ranged | thrown
    physical: bool
    enhanced: bool
    bands: tuple       # roll modifier at zero, near, mid, far
    ammo: int          # 0: no ammunition (thrown: how many are carried, R-17; 0 unlimited)
    reload: str        # sub | main (a thrown weapon is never reloaded)
    body: bool = False  # fists: a guard with them is an arm guard (T-8)

    @property
    def melee(self) -> bool:
        return self.kind == "melee"

    @property
    def reloads(self) -> bool:
        return self.ammo > 0 and self.kind != "thrown"

    def reaches(self, band: int) -> bool:
        return band <= 1 if self.melee else True


@dataclass
class Ability:
    kind: str          # reduction | damage_bonus | heal
    cost: int
    pct: int
    fixed: int
    dice: Dice | None
    enhanced: bool


@dataclass
class Item:
    """An item a character uses in combat (R-19): heal_hp or heal_mp, by a fixed amount plus
    dice; ``left`` consumables (None: a tool, never used up)."""
    effect: str
    action: str        # main_or_sub | main | sub
    fixed: int
    dice: Dice | None
    left: int | None


@dataclass
class Char:
    idx: int
    cid: str
    side: int
    x: int
    y: int
    max_hp: int
    max_mp: int
    sp: int
    kaii: bool
    skills: dict
    weapons: list
    armour_pct: int
    armour_fixed: int
    item_reduction: int
    parts: tuple
    strategy: dict
    abilities: list
    items: list = field(default_factory=list)
    # battle state
    hp: int = 0
    mp: int = 0
    fallen: bool = False
    lost: bool = False
    controlled: bool = False
    sub_used: bool = False
    equip: int = 0
    ammo: list = field(default_factory=list)
    arm: dict = field(default_factory=dict)   # part -> None (sound) or damage it absorbed
    skip: int = 0
    mono_used: bool = False
    mono_rounds: int = 0
    mono_crits: int = 0
    symptom: int = 0
    dealt: int = 0
    taken: int = 0
    fell: bool = False

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)

    @property
    def standing(self) -> bool:
        """On its feet (possibly kaii-controlled): a legal target."""
        return not self.fallen and not self.lost

    @property
    def can_act(self) -> bool:
        return self.standing and not self.controlled

    @property
    def weapon(self) -> Weapon:
        return self.weapons[self.equip]


def _weapon(wid: str, w: dict) -> Weapon:
    bands = w.get("bands", {})
    kind = w.get("kind", "melee")
    if kind == "thrown":  # thrown weapons are used up unless `unlimited`
        ammo = 0 if w.get("unlimited", False) else int(w.get("ammo", 1))
    else:
        ammo = int(w.get("ammo", 0))
    return Weapon(wid, parse_dice(w["dice"]), kind, bool(w.get("physical", True)),
                  bool(w.get("enhanced", False)), tuple(int(bands.get(b, 0)) for b in BANDS),
                  ammo, w.get("reload", "sub"), bool(w.get("body", False)))


def _ability(a: dict) -> Ability:
    return Ability(a["kind"], int(a.get("cost", 1)), int(a.get("pct", 0)), int(a.get("fixed", 0)),
                   parse_dice(a["dice"]) if "dice" in a else None, bool(a.get("enhanced", False)))


def item_reduction(carried: dict, table: dict) -> int:
    """The items step of R-10: a sheet's plain ``reduction`` plus every carried reduction tool."""
    return sum(int(v) if name == "reduction" else int(table[name].get("fixed", 0))
               for name, v in carried.items()
               if name == "reduction" or (int(v) > 0 and table[name]["effect"] == "reduction"))


def combat_items(carried: dict, table: dict) -> list[Item]:
    """The items a sheet uses in combat (heal_hp / heal_mp), in the sheet's order (R-19)."""
    out = []
    for name, v in carried.items():
        if name == "reduction" or int(v) == 0 or table[name]["effect"] == "reduction":
            continue
        it = table[name]
        out.append(Item(it["effect"], it.get("action", "main_or_sub"), int(it.get("fixed", 0)),
                        parse_dice(it["dice"]) if "dice" in it else None,
                        None if it.get("kind", "consumable") == "tool" else int(v)))
    return out


def build_chars(cfg: dict) -> list[Char]:
    sides = list(cfg["scenario"]["sides"])
    weapons = {wid: _weapon(wid, w) for wid, w in cfg.get("weapons", {}).items()}
    out = []

    def with_fists(wl):  # only thrown weapons, all used up -> bare hands
        if "fists" in weapons and len(wl) < 4 and all(weapons[x].kind == "thrown" and weapons[x].ammo > 0
                                                      for x in wl):
            return list(wl) + ["fists"]
        return list(wl)

    for i, (cid, c) in enumerate(cfg["characters"].items()):
        pos = c.get("position", 0)
        x, y = (pos[0], pos[1]) if isinstance(pos, list) else (pos, 0)
        strat = {**STRATEGY_DEFAULTS, **c.get("strategy", {})}
        for k in ("target", "reaction"):
            if ":" in str(strat[k]):
                raise NotImplementedError("the naive reference knows only the built-in strategies")
        arm = c.get("armour", {})
        ch = Char(
            idx=i, cid=cid, side=sides.index(c["side"]), x=int(x), y=int(y),
            max_hp=int(c["hp"]), max_mp=int(c.get("mp", 10)), sp=int(c.get("sp", 0)),
            kaii=bool(c.get("kaii", False)), skills=dict(c.get("skills", {})),
            weapons=[weapons[w] for w in with_fists(c.get("weapons", ["fists"]))],
            armour_pct=int(arm.get("pct", 0)), armour_fixed=int(arm.get("fixed", 0)),
            item_reduction=item_reduction(c.get("items", {}), cfg.get("items", {})),
            parts=tuple(p for p in PARTS if p in c.get("guard_parts", list(PARTS))),
            strategy=strat, abilities=[_ability(a) for a in c.get("abilities", [])],
            items=combat_items(c.get("items", {}), cfg.get("items", {})),
        )
        ch.hp, ch.mp = ch.max_hp, ch.max_mp
        ch.ammo = [w.ammo for w in ch.weapons]
        ch.arm = {p: None for p in PARTS}
        out.append(ch)
    return out


class Combat:
    def __init__(self, cfg: dict, rng: Rng, quirks: Iterable[str] = ENGINE_QUIRKS, side_rngs=None):
        self.cfg = cfg
        self.rng = rng  # the rules' stream: dice and the rules' chance events
        self.side_rngs = side_rngs  # side -> that side's decision stream
        self.quirks = frozenset(quirks)
        unknown = self.quirks - KNOWN_QUIRKS
        if unknown:
            raise ValueError(f"unknown quirk(s) {sorted(unknown)}")
        rules = cfg.get("rules", {})
        self.double_crit = rules.get("critical", "double") == "double"
        self.lose_turn = rules.get("fumble", "lose_turn") == "lose_turn"
        self.fumble_any = rules.get("fumble_applies_to", "any") == "any"
        self.max_rounds = int(rules.get("max_rounds", 100))
        self.grid = rules.get("grid", "line") == "grid"
        self.sleep = max(0, int(rules.get("awake_hours", 0)) - 18)         # +1 per hour past 18
        self.symptoms = [(int(s["max"]), int(s.get("penalty", 0))) for s in cfg.get("symptoms", [])]
        self.hp_public = bool(rules.get("hp_public", False))  # what the table shows of HP
        sides = list(cfg["scenario"]["sides"])
        self.n_sides = len(sides)
        self.first = sides.index(cfg["scenario"].get("first", sides[0]))
        self.chars = build_chars(cfg)
        self.log: list[tuple] = []

    # ------------------------------------------------------------------ helpers
    def q(self, name: str) -> bool:
        return name in self.quirks

    def dist(self, a: Char, b: Char) -> int:
        dx = abs(a.x - b.x)
        return max(dx, abs(a.y - b.y)) if self.grid else dx

    def band(self, a: Char, b: Char) -> int:
        return min(self.dist(a, b), 3)  # 0 zero, 1 near, 2 mid, 3 far

    def side_order(self) -> list[int]:
        if self.q("cyclic_side_order"):
            return [(self.first + k) % self.n_sides for k in range(self.n_sides)]
        return [self.first] + [s for s in range(self.n_sides) if s != self.first]

    def penalty(self, c: Char) -> int:
        """Roll penalties every check of ``c`` carries: symptoms and lack of sleep."""
        return c.symptom + self.sleep

    def arm_penalty(self, c: Char) -> int:
        """R-9: a damaged arm adds the damage it absorbed to melee and shooting checks."""
        return sum(v for v in c.arm.values() if v)

    def check(self, c: Char, target: int, penalty: int, kind: str) -> str:
        """3d6 <= target (R-1); a monologue's pending criticals come first on the check kinds
        the strategy gives them to (R-20, T-5)."""
        kinds = c.strategy["monologue_checks"]
        kinds = CHECK_KINDS if kinds in ("any", ["any"]) else [kinds] if isinstance(kinds, str) else kinds
        if c.mono_crits > 0 and c.mono_rounds > 0 and kind in kinds:
            c.mono_crits -= 1
            return CRITICAL
        r = self.rng.three_d6()
        if r == 3:
            return CRITICAL
        if r == 18:
            return FUMBLE
        return SUCCESS if r + penalty <= target else FAIL

    def other_fumble(self, c: Char) -> None:
        """A fumbled athletics check (move, cover) under R-3 lose_turn (not with
        fumble_applies_to = "attack", R-15)."""
        if self.lose_turn and self.fumble_any and not self.q("fumble_only_attack_dodge"):
            c.skip += 1

    def lose_mp(self, c: Char, amount: int) -> None:
        """MP drops; reaching <= 0 rolls the symptom table, control on roll <= floor(SP/5) (R-11)."""
        if amount <= 0:
            return
        before = c.mp
        c.mp -= amount
        if before > 0 and c.mp <= 0:
            r = self.rng.three_d6()
            for mx, pen in self.symptoms or [(18, 0)]:
                if r <= mx:
                    c.symptom = pen
                    break
            if r <= c.sp // 5:
                if self.q("fall_clears_control"):
                    if c.can_act:
                        c.controlled = True
                elif not c.lost:
                    c.controlled = True

    def pay(self, c: Char, cost: int) -> None:
        """An ability of cost c is free while c <= SP; above, each use costs c - SP MP."""
        if cost > c.sp:
            self.lose_mp(c, cost - c.sp)

    def monologue(self, c: Char) -> None:
        """T-5: once; MP to maximum (so control and symptoms end); 3 criticals for 3 rounds."""
        c.mono_used = True
        c.mp = c.max_mp
        c.mono_rounds = 3
        c.mono_crits = 3
        c.symptom = 0
        c.controlled = False

    def fall_if_down(self, c: Char) -> None:
        if c.hp <= 0 and c.standing:
            c.fallen = True
            c.fell = True
            if self.q("fall_clears_control"):
                c.controlled = False

    # ------------------------------------------------------------------ strategies
    def choose_target(self, c: Char, cands: list[Char]) -> Char:
        how = c.strategy["target"]
        if how == "random":
            return self.side_rngs[c.side].pick(cands)  # the side's own stream
        if how == "weakest":  # the lowest HP band (exact HP only with rules.hp_public)
            if self.hp_public:
                key = lambda j: -j.hp  # noqa: E731
            else:
                key = lambda j: -hp_band(j.hp, j.max_hp)  # noqa: E731
        elif how == "oracle_focus":  # an oracle: exact HP whatever the rules show
            key = lambda j: -j.hp  # noqa: E731
        elif how == "nearest":
            key = lambda j: -self.dist(c, j)  # noqa: E731
        elif how == "dangerous":
            def key(j):
                w = j.weapon
                skill = j.skill("melee") if w.melee else j.skill("shooting")
                return p216(skill) * mean2(w.dice)
        else:
            raise ValueError(how)
        best = None
        for j in cands:  # sheet order; ties keep the first
            if best is None or key(j) > key(best):
                best = j
        return best

    def choose_reaction(self, d: Char, can_dodge: bool, att: Char) -> str:
        how = d.strategy["reaction"]
        if how == "none":
            return NONE
        if how == "dodge":
            return DODGE if can_dodge else GUARD
        if how == "guard":
            return GUARD
        # auto (T-11): the least expected damage, in 1/432 HP (twice the means x 216)
        d2 = mean2(att.weapon.dice)
        mine = d.weapon
        kind = None
        if att.weapon.physical and not mine.body and mine.kind in ("melee", "ranged"):
            kind = "roll" if mine.melee else "digit"
        if kind is None and any(d.arm[p] is None for p in d.parts):
            kind = "arm"
        best, e_best = NONE, d2 * 216
        pd = p216(d.skill("dodge") - d.symptom)
        if can_dodge and pd >= int(round(d.strategy["dodge_threshold"] * 216)) and (216 - pd) * d2 < e_best:
            best, e_best = DODGE, (216 - pd) * d2
        if kind == "roll":
            e = max(d2 - mean2(mine.dice), 0) * 216
        elif kind is not None:
            a2 = d2 if d2 < 20 else 9  # twice what a last digit guard absorbs, roughly
            e = (d2 - a2) * 216
            if kind == "arm":
                skill = d.skill("melee") if mine.melee else d.skill("shooting")
                pen = d.symptom + self.arm_penalty(d)
                e += int(d.strategy["arm_horizon"]) * (p216(skill - pen) - p216(skill - pen - a2 // 2)) * mean2(mine.dice)
        if kind is not None and e < e_best:
            best = GUARD
        return best

    # ------------------------------------------------------------------ attack
    def damage(self, att: Char, d: Char, w: Weapon, crit: bool, covered: bool, reaction: bool) -> int:
        guard = None  # ("digit", part or None) | ("roll", dice)
        if reaction and not d.sub_used and d.can_act:
            r = self.choose_reaction(d, not covered, att)
            if r == DODGE and not covered:  # a coverer never dodges
                d.sub_used = True
                oc = self.check(d, d.skill("dodge"), self.penalty(d), "dodge")
                if oc in (SUCCESS, CRITICAL):
                    return 0
                if oc == FUMBLE and self.lose_turn and self.fumble_any:
                    d.skip += 1
            elif r == GUARD:
                g = d.weapon  # only the equipped weapon guards, physical attacks only
                if w.physical and (self.q("fists_are_a_weapon") or not g.body):
                    if g.melee:
                        guard = ("roll", g.dice)
                    elif g.kind == "ranged":  # a thrown weapon guards as an arm
                        guard = ("digit", None)
                if guard is None:
                    for p in d.parts:
                        if d.arm[p] is None:
                            guard = ("digit", p)
                            break
                if guard is not None:
                    d.sub_used = True
        dmg = self.rng.roll(w.dice)
        enhanced = w.enhanced
        for ab in att.abilities:
            if ab.kind == "damage_bonus":
                self.pay(att, ab.cost)
                if ab.dice is not None:
                    dmg += self.rng.roll(ab.dice)
                dmg += ab.fixed
                enhanced = enhanced or ab.enhanced
        if crit and self.double_crit:
            dmg *= 2
        if d.kaii and w.physical and not enhanced:
            return 0
        # R-10 order: armour % -> armour fixed -> guard -> items -> ability % -> ability fixed/rolled
        dmg = max(dmg, 0)
        dmg -= dmg * d.armour_pct // 100
        dmg = max(dmg - d.armour_fixed, 0)
        if guard is not None and guard[0] == "digit":
            absorbed = dmg % 10
            dmg -= absorbed
            if guard[1] is not None:
                d.arm[guard[1]] = absorbed
        elif guard is not None:
            dmg = max(dmg - self.rng.roll(guard[1]), 0)
        dmg = max(dmg - d.item_reduction, 0)
        for ab in d.abilities:
            if ab.kind == "reduction" and ab.pct > 0:
                self.pay(d, ab.cost)
                dmg -= dmg * ab.pct // 100
        for ab in d.abilities:
            if ab.kind == "reduction" and ab.pct == 0:
                self.pay(d, ab.cost)
                red = ab.fixed + (self.rng.roll(ab.dice) if ab.dice is not None else 0)
                dmg = max(dmg - red, 0)
        return dmg

    def hurt(self, att: Char, d: Char, dmg: int) -> None:
        d.hp -= dmg
        att.dealt += dmg
        d.taken += dmg
        self.fall_if_down(d)

    def attack(self, c: Char, t: Char, w: Weapon) -> bool:
        """Returns True when a critical leaves the main action unspent (R-2 free_action, T-1)."""
        band = self.band(c, t)
        skill = c.skill("melee") if w.melee else c.skill("shooting")
        pen = self.penalty(c) + self.arm_penalty(c) + (0 if w.melee else w.bands[band])
        if w.ammo > 0:
            c.ammo[c.equip] -= 1
        oc = self.check(c, skill, pen, "attack")
        self.log.append(("attack", c.cid, t.cid, oc))
        if oc == FUMBLE:
            if self.lose_turn:
                c.skip += 1
            else:
                allies = [a for a in self.chars if a is not c and a.side == c.side and a.can_act
                          and w.reaches(self.band(c, a))]
                if allies:
                    a = self.rng.pick(allies)
                    self.hurt(c, a, self.damage(c, a, w, False, False, False))
            return False
        if oc == FAIL:
            return False
        crit = oc == CRITICAL
        d, covered = t, False
        for a in self.chars:  # T-2: the first willing ally of the target within near range
            if a is t or a is c or a.side != t.side or not a.can_act or not a.strategy["cover"] \
                    or self.dist(a, t) > 1:
                continue
            if not a.strategy["cover_any"] and not self.cover_saves(a, t, w, crit and self.double_crit):
                continue
            oc2 = self.check(a, a.skill("athletics"), self.penalty(a), "cover")
            if oc2 in (SUCCESS, CRITICAL):
                d, covered = a, True
            elif oc2 == FUMBLE:
                self.other_fumble(a)
            break
        self.hurt(c, d, self.damage(c, d, w, crit, covered, True))
        return crit and not self.double_crit

    def move(self, c: Char, t: Char, away: bool) -> None:
        """Athletics: success spends the main action, failure main and sub; one square either way."""
        sub_was_used = c.sub_used
        oc = self.check(c, c.skill("athletics"), self.penalty(c), "move")
        if oc in (FAIL, FUMBLE):
            c.sub_used = True
        if oc == FUMBLE:
            self.other_fumble(c)
        if oc in (FAIL, FUMBLE) and sub_was_used:
            return  # a failure with the sub action already spent does not move
        dx = t.x - c.x
        dy = t.y - c.y if self.grid else 0
        s = -1 if away else 1
        if dx != 0 or away:
            c.x += s * (1 if dx > 0 else (-1 if dx < 0 else 1))
        if dy != 0:
            c.y += s * (1 if dy > 0 else -1)

    def reload(self, c: Char) -> bool:
        """Reload the equipped weapon if it is empty; True when that ends the turn."""
        w = c.weapon
        if w.reloads and c.ammo[c.equip] == 0:
            c.ammo[c.equip] = w.ammo
            if w.reload == "main" or c.sub_used:
                return True  # a main action (or the sub action is gone: the main one reloads)
            c.sub_used = True
        return False

    def usable(self, c: Char, s: int, band: int) -> bool:
        """Slot s reaches ``band`` and is not an empty weapon (a used-up thrown one, R-17)."""
        w = c.weapons[s]
        return w.reaches(band) and not (w.ammo > 0 and c.ammo[s] == 0)

    def turn_pos(self, side: int) -> int:
        return self.side_order().index(side)

    def kite(self, c: Char, t: Char, w: Weapon, band: int) -> str:
        """T-6 keep_range with a ranged / thrown weapon: attack, away or toward."""
        threat = t.weapon.melee
        if band == 0 and not (threat and t.sub_used):
            return "away"
        if threat and band == 1 and not t.sub_used and c.strategy["kite"] and not c.sub_used \
                and self.turn_pos(t.side) < self.turn_pos(c.side):
            return "away"
        reach = 1 if threat else -1
        if band - 1 > reach:
            pen = self.penalty(c) + self.arm_penalty(c) + w.bands[band]
            if p216(c.skill("shooting") - pen) < int(round(c.strategy["min_hit"] * 216)):
                return "toward"
        return "attack"

    def use_item(self, c: Char) -> str | None:
        """T-12: the first item the strategy's thresholds call for (HP at most ``item_hp_at``
        of the maximum, MP at most ``item_mp_at``, and below the maximum) is used: with the
        action the item names, or for a main_or_sub item the one ``item_action`` names (the
        sub action only while free) — "sub" / "main"; None: nothing used. Never above the maximum; MP back to >= 1 ends the symptom."""
        for it in c.items:
            if it.left == 0:
                continue
            hp = it.effect == "heal_hp"
            cur, mx = (c.hp, c.max_hp) if hp else (c.mp, c.max_mp)
            at = int(round(c.strategy["item_hp_at" if hp else "item_mp_at"] * 100))
            if cur >= mx or cur * 100 > mx * at:
                continue
            if it.action == "sub" and c.sub_used:
                continue
            sub_ok = it.action == "sub" or (it.action == "main_or_sub" and c.strategy["item_action"] == "sub")
            how = "sub" if not c.sub_used and sub_ok else "main"
            if how == "sub":
                c.sub_used = True
            if it.left is not None:
                it.left -= 1
            h = max(it.fixed + (self.rng.roll(it.dice) if it.dice is not None else 0), 0)
            if hp:
                c.hp = min(cur + h, mx)
            else:
                c.mp = min(cur + h, mx)
                if cur <= 0 and c.mp >= 1:
                    c.symptom = 0
            return how
        return None

    @staticmethod
    def hit_on(j: Char, w: Weapon, d: int) -> int:
        """Damage d of weapon w as j would take it: less its armour % and fixed and its
        carried reductions; nothing from a physical, unenhanced weapon to a kaii."""
        if j.kaii and w.physical and not w.enhanced:
            return 0
        d -= d * j.armour_pct // 100
        d -= j.armour_fixed + j.item_reduction
        return max(d, 0)

    def cover_saves(self, a: Char, t: Char, w: Weapon, crit: bool) -> bool:
        """T-2 (unless cover_any): the hit's mean damage (the weapon's mean, rounded down;
        twice it on a critical that doubles) as each takes it could fell t and not a; and, unless it does
        a no harm, t would not dodge it itself (reaction dodge with its sub action unspent).
        cover_raw: a critical of the raw mean damage, t at most and a above it."""
        if a.strategy["cover_raw"]:
            return t.hp <= mean2(w.dice) < a.hp
        hit = mean2(w.dice) if crit else mean2(w.dice) // 2
        ha = self.hit_on(a, w, hit)
        if ha > 0 and t.strategy["reaction"] == "dodge" and not t.sub_used and t.can_act:
            return False
        return t.hp <= self.hit_on(t, w, hit) and ha < a.hp

    def heal_needed(self, j: Char) -> bool:
        """T-13 (unless heal_any): j is fallen, or the standing enemies whose weapon in hand
        reaches it could fell it: its HP at most the sum of a critical of each weapon's mean
        damage (twice the mean) less j's armour % and fixed and its carried reductions; a
        physical, unenhanced weapon does nothing to a kaii."""
        if j.fallen:
            return True
        threat = 0
        for e in self.chars:
            w = e.weapon
            if e.side == j.side or not e.standing or not w.reaches(self.band(e, j)):
                continue
            threat += self.hit_on(j, w, mean2(w.dice))
        return j.hp <= threat

    # ------------------------------------------------------------------ a turn
    def turn(self, c: Char) -> None:
        if c.lost:
            return
        if c.skip > 0:  # a fumble's lost turn
            c.skip -= 1
            return
        if c.fallen:  # T-4: a life check against the MP spent
            if not c.mono_used and c.strategy["monologue"] == "fallen":
                self.monologue(c)
            spend = min(c.strategy["life_mp"], max(c.mp, 0))
            self.lose_mp(c, spend)
            pen = 0 if self.q("life_check_no_penalty") else self.penalty(c)
            if self.check(c, spend, pen, "life") in (FAIL, FUMBLE):
                c.lost = True
            return
        for extra in range(2):
            w = c.weapon
            if c.controlled:  # the kaii attacks the nearest character of any side
                t = None
                for j in self.chars:
                    if j is not c and j.standing and (t is None or self.dist(c, j) < self.dist(c, t)):
                        t = j
                if t is None:
                    return
                if not self.q("controlled_fires_empty") and self.reload(c):
                    return
                if self.usable(c, c.equip, self.band(c, t)):
                    self.attack(c, t, w)
                else:
                    self.move(c, t, False)
                return
            if not c.mono_used and c.strategy["monologue"] == "low_mp" and c.mp <= 2:
                self.monologue(c)
            if extra == 0 and self.use_item(c) == "main":  # R-19, T-12
                return
            for ab in c.abilities:  # heal the most hurt ally (or oneself) within near range
                if ab.kind != "heal":
                    continue
                best = None
                for j in self.chars:
                    if j.side == c.side and self.dist(c, j) <= 1 and not j.lost and (j.fallen or not j.controlled) \
                            and j.hp * 100 < j.max_hp * int(round(c.strategy["heal_below"] * 100)) \
                            and (c.strategy["heal_any"] or self.heal_needed(j)):
                        if best is None or j.hp < best.hp:
                            best = j
                if best is not None:
                    self.pay(c, ab.cost)
                    h = ab.fixed + (self.rng.roll(ab.dice) if ab.dice is not None else 0)
                    best.hp = min(best.hp + max(h, 0), best.max_hp)  # never above the maximum
                    if best.hp >= 1 and best.fallen:
                        best.fallen = False  # stands up at once
                    return
            if self.reload(c):
                return
            cands = [j for j in self.chars if j.side != c.side and j.standing]
            if not cands:
                return
            t = self.choose_target(c, cands)
            band = self.band(c, t)
            swap = None  # T-3, T-10: one sub action to change the weapon in hand
            if not c.sub_used:
                if band <= int(c.strategy["swap_to_melee_at"]) and not (w.melee and not w.body):
                    swap = next((s for s, ws in enumerate(c.weapons) if ws.melee and not ws.body), None)
                if swap is None and not self.usable(c, c.equip, band):
                    swap = next((s for s in range(len(c.weapons)) if self.usable(c, s, band)), None)
            if swap is not None:
                c.equip = swap
                c.sub_used = True
                w = c.weapon
            if not self.usable(c, c.equip, band):
                self.move(c, t, False)  # T-6 close_in
                return
            if c.strategy["movement"] == "keep_range" and not w.melee:
                act = self.kite(c, t, w, band)
                if act != "attack":
                    self.move(c, t, act == "away")
                    return
            if not self.attack(c, t, w) or extra == 1:
                return

    # ------------------------------------------------------------------ a combat
    def play(self) -> dict:
        rnd = 0
        winner = -1
        timeout = False
        while True:
            rnd += 1
            if rnd > self.max_rounds:
                timeout = True
                break
            for c in self.chars:
                c.sub_used = False  # sub actions refresh every round
            over = False
            for side in self.side_order():
                for c in self.chars:
                    if c.side != side:
                        continue
                    self.turn(c)
                    able = sorted({x.side for x in self.chars if x.can_act})
                    if len(able) <= 1:  # a side loses when none of its members can act
                        winner = able[0] if able else -1
                        over = True
                        break
                if over:
                    break
            for c in self.chars:
                if c.mono_rounds > 0:
                    c.mono_rounds -= 1
                    if c.mono_rounds == 0:
                        c.mono_crits = 0
            if over:
                break
        return {
            "winner": winner,
            "rounds": min(rnd, self.max_rounds),
            "timeout": timeout,
            "fell": [int(c.fell) for c in self.chars],
            "lost": [int(c.lost) for c in self.chars],
            "standing": [int(c.can_act) for c in self.chars],
            "dealt": [c.dealt for c in self.chars],
            "taken": [c.taken for c in self.chars],
            "draws": self.rng.draws + sum(r.draws for r in (self.side_rngs or ())),
        }


def naive_combat(scenario, key, g: int, quirks: Iterable[str] = ENGINE_QUIRKS) -> dict:
    """Combat ``g`` of run ``key`` (like ``chunk_kernel()(key, g, 1, scenario.nb, out)``).

    ``scenario`` is a compiled :class:`sim.trpg.sheets.Setup` (only its ``config`` tree
    is read) or the configuration dict itself. Returns the winner side (-1: draw), the
    rounds played (``max_rounds`` on a timeout), and per character (sheet order) whether
    it fell, was lost, stands able to act at the end, and the damage dealt and taken.
    ``quirks`` (default: all of :data:`ENGINE_QUIRKS`) copies the engine where it departs
    from the pages; ``quirks=()`` is the pages' reading.
    """
    cfg = scenario if isinstance(scenario, dict) else scenario.config
    sides = len(cfg["scenario"]["sides"])
    return Combat(cfg, Rng(key, g), quirks, [Rng(key, g, 1 + s) for s in range(sides)]).play()
