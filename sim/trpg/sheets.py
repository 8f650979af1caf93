"""TRPG scenario and character-sheet TOML → validated arrays for the combat kernel."""
from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from sim.core.config import deep_merge, load_toml, set_path, split_assignment
from sim.core.schema import ANY, LIST, Ids, ListOf, Map, check_keys
from sim.core.shipped import find_shipped, tomls
from sim.core.validate import bool_at as _bool, choice_at as _choice, int_at as _int
from sim.errors import SimInputError, did_you_mean
from sim.trpg.enums import (ABILITY_KINDS, CHECK_KINDS, ITEM_ACTIONS, ITEM_EFFECTS, ITEM_KINDS, ITEM_USES, KINDS, MAX_ITEMS,
                            MONOLOGUES, MOVES, N_AF, N_CF, N_IF, N_RL, N_WF, REACTIONS, STRATEGY_DEFAULTS, TARGETS,
                            AF, CF, IA, IE, IF, RL, WF)

DATA = resources.files("sim.trpg") / "data"
MAX_WEAPONS = 4
PLUGIN = 100  # strategy code: "the bound user plug-in" (sim.trpg.game_nb.PLUGIN)
BANDS = ("zero", "near", "mid", "far")

ScenarioNB = namedtuple("ScenarioNB", "chars skills weapons char_weapons abilities dice symptoms rules")

_STRATEGY_DEFAULTS = STRATEGY_DEFAULTS

# Every key _compile reads (docs/trpg.md). Skill names are checked against [system.groups]
# and a sheet's item names (`items.<id> = count`, or the plain `items.reduction = N`) against
# the [items] table by the compiler.
SHEET_SCHEMA = {
    "name": ANY, "side": ANY, "position": ANY, "hp": ANY, "mp": ANY, "sp": ANY, "kaii": ANY,
    "skills": Map(), "weapons": LIST, "armour": {"pct": ANY, "fixed": ANY}, "items": Map(),
    "abilities": ListOf({k: ANY for k in ("name", "kind", "cost", "pct", "fixed", "dice", "enhanced")}),
    "guard_parts": LIST, "strategy": {k: LIST if k == "monologue_checks" else ANY for k in _STRATEGY_DEFAULTS},
}
_WEAPON = {"name": ANY, "dice": ANY, "kind": ANY, "physical": ANY, "enhanced": ANY, "body": ANY,
           "bands": {b: ANY for b in BANDS}, "ammo": ANY, "reload": ANY, "unlimited": ANY}
_ITEM = {"name": ANY, "kind": ANY, "effect": ANY, "fixed": ANY, "dice": ANY, "action": ANY}
_SHARED = {
    "system": {"groups": {g: LIST for g in ("physical", "sense", "intellect", "mind")}},
    "items": Ids(_ITEM, "item"),
    "rules": {k: ANY for k in ("critical", "fumble", "max_rounds", "grid", "growth_amount", "awake_hours",
                               "hp_public", "fumble_applies_to")},
    "symptoms": ListOf({"max": ANY, "name": ANY, "penalty": ANY}),
    "weapons": Ids(_WEAPON, "weapon"),
}
#: A scenario merged over system.toml (and each of those files alone).
SCENARIO_SCHEMA = {
    "scenario": {"name": ANY, "sides": LIST, "first": ANY},
    **_SHARED,
    "characters": Ids(SHEET_SCHEMA, "character"),
    # side profiles (sim.trpg.tactics): tactics.<side>.profile and its knobs, over the sheets
    "tactics": Map(Map()),
    # optional abilities never used (restricted play): "<character>.<ability>" items
    "withhold": LIST,
}
#: A builds file (``sim trpg matrix``): sheets under [builds.<name>], [matrix] distance, and
#: the scenario tables every pair shares (the pair's [scenario] and [characters] are made).
BUILDS_SCHEMA = {**_SHARED, "matrix": {"distance": ANY}, "builds": Ids(SHEET_SCHEMA, "build")}


def load_checked(path: str | Path, schema: dict = SCENARIO_SCHEMA) -> dict:
    """A TRPG TOML file, its keys checked against ``schema``."""
    cfg = load_toml(path)
    check_keys(cfg, schema, str(path))
    return cfg


def system_config() -> dict:
    """The shipped system data (skills, weapons, rules, symptoms)."""
    return load_checked(Path(str(DATA / "system.toml")))


def _first_comment(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
        if line.strip():
            break
    return ""


def shipped_scenarios() -> dict[str, str]:
    """The scenarios shipped in ``sim/trpg/data/scenarios``: name -> one-line description
    (the file's leading ``#`` comment)."""
    return {k: _first_comment(p) for k, p in tomls(Path(str(DATA / "scenarios"))).items()}


def scenario_path(arg: str | Path, base: Path | None = None) -> Path:
    """A scenario argument -> its file: an existing path (relative to ``base`` if given), or
    a shipped scenario by name (``alley`` or ``alley.toml``)."""
    return find_shipped(arg, tomls(Path(str(DATA / "scenarios"))), "scenario", base)


def build_config(scenario: str | Path | dict, sets: Iterable[str] = ()) -> dict:
    """A scenario (path, shipped name or tree) merged over the system data, with ``--set`` items."""
    sc = load_checked(scenario_path(scenario)) if isinstance(scenario, (str, Path)) else scenario
    cfg = deep_merge(system_config(), sc)
    for item in sets:
        path, value = split_assignment(item)
        set_path(cfg, path, value, SCENARIO_SCHEMA)
    return cfg


@dataclass
class Setup:
    """A compiled scenario: ids, sides, names and the kernel arrays."""
    config: dict
    ids: list[str]
    sides: list[str]
    skill_names: list[str]
    weapon_ids: list[str]
    nb: Any
    plugins: dict = None  # strategy kind -> "module:function" of a user plug-in
    tactics: dict = None  # side -> the profile its characters play (sim.trpg.tactics; "sheet")
    item_slots: list = None  # per character: the item ids of its item slots (CF.ITEM0 …, R-19)

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def name(self) -> str:
        return self.config.get("scenario", {}).get("name", "combat")


def fists_fallback(wl: list, weapons: dict) -> list:
    """``["fists"]`` when every weapon of a sheet is a limited thrown one (R-17: once they are
    thrown the character fights bare-handed) and the weapon table has fists; else ``[]``."""
    def limited_thrown(wid):
        w = weapons.get(wid)
        return isinstance(w, dict) and w.get("kind") == "thrown" and not w.get("unlimited", False)
    if "fists" in weapons and len(wl) < MAX_WEAPONS and all(limited_thrown(x) for x in wl):
        return ["fists"]
    return []


def _dice_row(expr: Any, where: str) -> np.ndarray:
    from sim.trpg.dice import parse_dice

    if not isinstance(expr, str):
        raise SimInputError(f"{where}: expected a dice expression such as 2d6+3, got {expr!r}")
    try:
        return np.asarray(parse_dice(expr).to_array(), np.int64)
    except SimInputError as e:
        raise SimInputError(f"{where}: {e}") from None


def compile_setup(cfg: dict) -> Setup:
    """Validate a scenario tree and compile it (a :class:`Setup`): the side profiles
    (``[tactics]``) and withheld abilities (``withhold``) are applied to the sheets first
    (:mod:`sim.trpg.tactics`); ``Setup.config`` is the tree as given."""
    from sim.trpg.tactics import apply_tactics

    try:
        eff, profiles = apply_tactics(cfg)
        sc = _compile(eff)
        sc.config, sc.tactics = cfg, profiles
        return sc
    except SimInputError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as e:
        raise SimInputError(f"trpg scenario: missing or malformed entry ({e})") from None


def _compile(cfg: dict) -> Setup:
    check_keys(cfg, SCENARIO_SCHEMA, "trpg scenario")
    groups = cfg.get("system", {}).get("groups", {})
    skill_names = [s for g in ("physical", "sense", "intellect", "mind") for s in groups.get(g, [])]
    if len(skill_names) != 16 or len(set(skill_names)) != 16:
        raise SimInputError("system.groups: four groups of four distinct skill names are needed (16 skills)")
    for need in ("athletics", "melee", "dodge", "shooting"):
        if need not in skill_names:
            raise SimInputError(f"system.groups: the combat skill {need!r} must be named")

    sc = cfg.get("scenario", {})
    sides = sc.get("sides")
    if not isinstance(sides, list) or len(sides) < 2 or not all(isinstance(s, str) for s in sides):
        raise SimInputError("scenario.sides: at least two side names are needed")
    first = sc.get("first", sides[0])
    if first not in sides:
        raise SimInputError(f"scenario.first: unknown side {first!r}; sides are {', '.join(sides)}")

    rules = cfg.get("rules", {})
    rl = np.zeros(N_RL, np.int64)
    rl[RL.CRIT_FREE] = _choice(rules.get("critical", "double"), "rules.critical", ("double", "free_action"))
    rl[RL.FUMBLE_ALLY] = _choice(rules.get("fumble", "lose_turn"), "rules.fumble", ("lose_turn", "hit_ally"))
    rl[RL.MAX_ROUNDS] = _int(rules.get("max_rounds", 100), "rules.max_rounds", 1)
    rl[RL.GRID] = _choice(rules.get("grid", "line"), "rules.grid", ("line", "grid"))
    awake = _int(rules.get("awake_hours", 0), "rules.awake_hours", 0)
    rl[RL.SLEEP_PENALTY] = max(0, awake - 18)
    rl[RL.FIRST_SIDE] = sides.index(first)
    rl[RL.N_SIDES] = len(sides)
    rl[RL.HP_PUBLIC] = int(_bool(rules.get("hp_public", False), "rules.hp_public"))
    rl[RL.FUMBLE_ATTACK_ONLY] = _choice(rules.get("fumble_applies_to", "any"), "rules.fumble_applies_to",
                                        ("any", "attack"))
    _int(rules.get("growth_amount", 1), "rules.growth_amount", 0)

    dice_rows: list[np.ndarray] = []

    def dice(expr, where) -> int:
        dice_rows.append(_dice_row(expr, where))
        return len(dice_rows) - 1

    weapons = cfg.get("weapons", {})
    weapon_ids = list(weapons)
    wt = np.zeros((max(len(weapon_ids), 1), N_WF), np.int64)
    for k, wid in enumerate(weapon_ids):
        w = weapons[wid]
        where = f"weapons.{wid}"
        wt[k, WF.KIND] = _choice(w.get("kind", "melee"), f"{where}.kind", KINDS)
        wt[k, WF.PHYSICAL] = int(_bool(w.get("physical", True), f"{where}.physical"))
        wt[k, WF.ENHANCED] = int(_bool(w.get("enhanced", False), f"{where}.enhanced"))
        wt[k, WF.BODY] = int(_bool(w.get("body", False), f"{where}.body"))
        # a thrown weapon is gone once thrown: `ammo` is how many are carried (default 1),
        # never reloaded; `unlimited = true` keeps an endless supply (stones all around)
        thrown = wt[k, WF.KIND] == KINDS.index("thrown")
        unlimited = _bool(w.get("unlimited", False), f"{where}.unlimited")
        if unlimited and (not thrown or "ammo" in w):
            raise SimInputError(f"{where}.unlimited: only for a thrown weapon without `ammo`")
        wt[k, WF.AMMO] = 0 if unlimited else _int(w.get("ammo", 1 if thrown else 0), f"{where}.ammo",
                                                  1 if thrown else 0)
        wt[k, WF.RELOAD_MAIN] = _choice(w.get("reload", "sub"), f"{where}.reload", ("sub", "main"))
        bands = w.get("bands", {})
        if not isinstance(bands, dict) or set(bands) - set(BANDS):
            raise SimInputError(f"{where}.bands: keys are {', '.join(BANDS)}")
        for b, name in enumerate(BANDS):
            wt[k, WF.BAND0 + b] = _int(bands.get(name, 0), f"{where}.bands.{name}")
        wt[k, WF.DICE] = dice(w.get("dice"), f"{where}.dice")

    items = _compile_items(cfg.get("items", {}), dice)

    chars = cfg.get("characters", {})
    if not isinstance(chars, dict) or len(chars) < 2:
        raise SimInputError("[characters]: at least two characters are needed")
    ids = list(chars)
    n = len(ids)
    if n > 63:
        raise SimInputError("[characters]: at most 63 characters")
    ct = np.zeros((n, N_CF), np.int64)
    skills = np.zeros((n, 16), np.int64)
    cw = np.full((n, MAX_WEAPONS), -1, np.int64)
    abil: list[list[int]] = []
    item_slots: list[list[str]] = []
    plugins: dict[str, str | None] = {"target": None, "reaction": None}
    for i, cid in enumerate(ids):
        c = chars[cid]
        where = f"characters.{cid}"
        if not isinstance(c, dict):
            raise SimInputError(f"{where}: expected a table")
        side = c.get("side")
        if side not in sides:
            raise SimInputError(f"{where}.side: unknown side {side!r}; sides are {', '.join(sides)}")
        ct[i, CF.SIDE] = sides.index(side)
        pos = c.get("position", 0)
        if isinstance(pos, list):
            if len(pos) != 2:
                raise SimInputError(f"{where}.position: an integer or [x, y]")
            ct[i, CF.X] = _int(pos[0], f"{where}.position.0")
            ct[i, CF.Y] = _int(pos[1], f"{where}.position.1")
        else:
            ct[i, CF.X] = _int(pos, f"{where}.position")
        ct[i, CF.HP] = _int(c.get("hp"), f"{where}.hp", 1)
        ct[i, CF.MP] = _int(c.get("mp", 10), f"{where}.mp", 0)
        ct[i, CF.SP] = _int(c.get("sp", 0), f"{where}.sp", 0)
        ct[i, CF.KAII] = int(_bool(c.get("kaii", False), f"{where}.kaii"))
        sk = c.get("skills", {})
        if not isinstance(sk, dict):
            raise SimInputError(f"{where}.skills: expected a table of skill = value")
        for name, v in sk.items():
            if name not in skill_names:
                raise SimInputError(f"{where}.skills: unknown skill {name!r}; skills are {', '.join(skill_names)}")
            skills[i, skill_names.index(name)] = _int(v, f"{where}.skills.{name}", 0, 30)
        for col, name in ((CF.ATHLETICS, "athletics"), (CF.MELEE, "melee"), (CF.DODGE, "dodge"),
                          (CF.SHOOTING, "shooting")):
            ct[i, col] = skills[i, skill_names.index(name)]
        wl = c.get("weapons", ["fists"])
        if not isinstance(wl, list) or not wl or len(wl) > MAX_WEAPONS:
            raise SimInputError(f"{where}.weapons: a list of 1 to {MAX_WEAPONS} weapon ids")
        wl = list(wl) + fists_fallback(wl, weapons)
        for j, wid in enumerate(wl):
            if wid not in weapon_ids:
                raise SimInputError(f"{where}.weapons: unknown weapon {wid!r}; weapons are {', '.join(weapon_ids)}")
            cw[i, j] = weapon_ids.index(wid)
        ct[i, CF.N_WEAPONS] = len(wl)
        arm = c.get("armour", {})
        ct[i, CF.ARMOUR_PCT] = _int(arm.get("pct", 0), f"{where}.armour.pct", 0, 100)
        ct[i, CF.ARMOUR_FIXED] = _int(arm.get("fixed", 0), f"{where}.armour.fixed", 0)
        item_slots.append(_sheet_items(ct[i], c.get("items", {}), items, where))
        parts = c.get("guard_parts", ["left_arm", "right_arm"])
        if not isinstance(parts, list) or set(parts) - {"left_arm", "right_arm"}:
            raise SimInputError(f"{where}.guard_parts: a list of left_arm, right_arm (R-9)")
        ct[i, CF.GUARD_PARTS] = int("left_arm" in parts) | (int("right_arm" in parts) << 1)
        st = {**_STRATEGY_DEFAULTS, **c.get("strategy", {})}
        for col, key, names in ((CF.S_TARGET, "target", TARGETS), (CF.S_REACTION, "reaction", REACTIONS)):
            v = st[key]
            if isinstance(v, str) and ":" in v:  # a user plug-in (module:function)
                if plugins[key] not in (None, v):
                    raise SimInputError(f"{where}.strategy.{key}: one {key} plug-in per scenario "
                                        f"({plugins[key]!r} and {v!r} given)")
                plugins[key] = v
                ct[i, col] = PLUGIN
            else:
                ct[i, col] = _choice(v, f"{where}.strategy.{key}", names)
        thr = st["dodge_threshold"]
        if isinstance(thr, bool) or not isinstance(thr, (int, float)) or not 0 <= thr <= 1:
            raise SimInputError(f"{where}.strategy.dodge_threshold: a probability between 0 and 1")
        ct[i, CF.S_DODGE_MIN] = int(round(thr * 216))
        ct[i, CF.S_COVER] = int(_bool(st["cover"], f"{where}.strategy.cover"))
        ct[i, CF.S_COVER_ANY] = int(_bool(st["cover_any"], f"{where}.strategy.cover_any"))
        ct[i, CF.S_COVER_RAW] = int(_bool(st["cover_raw"], f"{where}.strategy.cover_raw"))
        ct[i, CF.S_MOVE] = _choice(st["movement"], f"{where}.strategy.movement", MOVES)
        ct[i, CF.S_LIFE_MP] = _int(st["life_mp"], f"{where}.strategy.life_mp", 0)
        ct[i, CF.S_MONOLOGUE] = _choice(st["monologue"], f"{where}.strategy.monologue", MONOLOGUES)
        hb = st["heal_below"]
        if isinstance(hb, bool) or not isinstance(hb, (int, float)) or not 0 <= hb <= 1:
            raise SimInputError(f"{where}.strategy.heal_below: a fraction between 0 and 1")
        ct[i, CF.S_HEAL_BELOW] = int(round(hb * 100))
        ct[i, CF.S_HEAL_ANY] = int(_bool(st["heal_any"], f"{where}.strategy.heal_any"))
        ct[i, CF.S_SWAP_MELEE] = _int(st["swap_to_melee_at"], f"{where}.strategy.swap_to_melee_at", -1)
        ct[i, CF.S_KITE] = int(_bool(st["kite"], f"{where}.strategy.kite"))
        mh = st["min_hit"]
        if isinstance(mh, bool) or not isinstance(mh, (int, float)) or not 0 <= mh <= 1:
            raise SimInputError(f"{where}.strategy.min_hit: a probability between 0 and 1")
        ct[i, CF.S_MIN_HIT] = int(round(mh * 216))
        ct[i, CF.S_ARM_HORIZON] = _int(st["arm_horizon"], f"{where}.strategy.arm_horizon", 0, 100)
        for col, key in ((CF.S_ITEM_HP, "item_hp_at"), (CF.S_ITEM_MP, "item_mp_at")):
            v = st[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
                raise SimInputError(f"{where}.strategy.{key}: a fraction between 0 and 1")
            ct[i, col] = int(round(v * 100))
        ct[i, CF.S_ITEM_SUB] = _choice(st["item_action"], f"{where}.strategy.item_action", ITEM_USES)
        ct[i, CF.S_MONO_CHECKS] = _check_mask(st["monologue_checks"], f"{where}.strategy.monologue_checks")
        for j, a in enumerate(c.get("abilities", [])):
            aw = f"{where}.abilities.{j}"
            if not isinstance(a, dict):
                raise SimInputError(f"{aw}: expected a table")
            row = [0] * N_AF
            row[AF.OWNER] = i
            row[AF.KIND] = _choice(a.get("kind"), f"{aw}.kind", ABILITY_KINDS)
            row[AF.COST] = _int(a.get("cost", 1), f"{aw}.cost", 1)
            row[AF.PCT] = _int(a.get("pct", 0), f"{aw}.pct", 0, 100)
            row[AF.FIXED] = _int(a.get("fixed", 0), f"{aw}.fixed", 0)
            row[AF.DICE] = dice(a["dice"], f"{aw}.dice") if "dice" in a else -1
            row[AF.ENHANCED] = int(_bool(a.get("enhanced", False), f"{aw}.enhanced"))
            abil.append(row)
    for s in range(len(sides)):
        if not np.any(ct[:, CF.SIDE] == s):
            raise SimInputError(f"scenario.sides: side {sides[s]!r} has no member")

    width = max(len(r) for r in dice_rows) if dice_rows else 2
    dt = np.zeros((max(len(dice_rows), 1), width), np.int64)
    for k, r in enumerate(dice_rows):
        dt[k, : len(r)] = r
    symptoms = cfg.get("symptoms", [])
    sy = np.zeros((max(len(symptoms), 1), 2), np.int64)
    sy[0, 0] = 18
    for k, s in enumerate(symptoms):
        sy[k, 0] = _int(s.get("max"), f"symptoms.{k}.max", 3, 18)
        sy[k, 1] = _int(s.get("penalty", 0), f"symptoms.{k}.penalty", 0)
    at = np.array(abil, np.int64).reshape(-1, N_AF) if abil else np.zeros((0, N_AF), np.int64)
    nbs = ScenarioNB(ct, skills, wt, cw, at, dt, sy, rl)
    return Setup(cfg, ids, list(sides), skill_names, weapon_ids, nbs, plugins, item_slots=item_slots)


@dataclass
class _Item:
    effect: str
    tool: bool
    action: int
    fixed: int
    dice: int  # a row of the dice table, -1: none


def _compile_items(table: Any, dice) -> dict[str, _Item]:
    """The ``[items.<id>]`` table (R-19): what each item does, whether it is used up
    (``kind = "consumable"``) or kept (``"tool"``), and which action using it spends."""
    if not isinstance(table, dict):
        raise SimInputError(f"items: expected a table of item ids, got {table!r}")
    out = {}
    for iid, it in table.items():
        where = f"items.{iid}"
        if not isinstance(it, dict):
            raise SimInputError(f"{where}: expected a table")
        if "effect" not in it:
            raise SimInputError(f"{where}.effect: missing; one of {', '.join(ITEM_EFFECTS)}")
        effect = ITEM_EFFECTS[_choice(it["effect"], f"{where}.effect", ITEM_EFFECTS)]
        tool = _choice(it.get("kind", "consumable"), f"{where}.kind", ITEM_KINDS) == 1
        action = _choice(it.get("action", "carried" if effect == "reduction" else "main_or_sub"),
                         f"{where}.action", ITEM_ACTIONS)
        fixed = _int(it.get("fixed", 0), f"{where}.fixed", 0)
        if effect == "reduction":
            if not tool or action != IA.CARRIED or "dice" in it:
                raise SimInputError(f"{where}: a `reduction` item is a tool that works by being carried "
                                    f"(kind = \"tool\", action = \"carried\", a `fixed` amount, no dice)")
        elif action == IA.CARRIED:
            raise SimInputError(f"{where}.action: {effect!r} is used with an action "
                                f"(main_or_sub, main or sub); only a `reduction` tool works by being carried")
        elif fixed == 0 and "dice" not in it:
            raise SimInputError(f"{where}: a {effect!r} item needs `fixed` or `dice` (how much it restores)")
        out[str(iid)] = _Item(effect, tool, action, fixed, dice(it["dice"], f"{where}.dice") if "dice" in it else -1)
    return out


def _sheet_items(row: np.ndarray, carried: Any, items: dict[str, _Item], where: str) -> list[str]:
    """A sheet's ``items`` (R-19) into its row: ``reduction = N`` (a plain carried reduction)
    and ``<item id> = count`` (a consumable: how many; a tool: carried when >= 1). Carried
    reduction tools add to CF.ITEM_FIXED; the others take item slots (CF.ITEM0 …)."""
    if not isinstance(carried, dict):
        raise SimInputError(f"{where}.items: expected a table of item = count")
    fixed = 0
    slot = 0
    names: list[str] = []
    for name, v in carried.items():
        w = f"{where}.items.{name}"
        if name == "reduction":
            fixed += _int(v, w, 0)
            continue
        if name not in items:
            names = ["reduction", *items]
            raise SimInputError(f"{w}: unknown item {name!r}{did_you_mean(name, names)}; "
                                f"items are {', '.join(names)}")
        count = _int(v, w, 0)
        it = items[name]
        if count == 0:
            continue
        if it.effect == "reduction":
            fixed += it.fixed
            continue
        if slot >= MAX_ITEMS:
            raise SimInputError(f"{where}.items: at most {MAX_ITEMS} items used in combat per sheet")
        base = CF.ITEM0 + N_IF * slot
        row[base + IF.EFFECT] = IE.HEAL_HP if it.effect == "heal_hp" else IE.HEAL_MP
        row[base + IF.ACTION] = it.action
        row[base + IF.FIXED] = it.fixed
        row[base + IF.DICE] = it.dice
        row[base + IF.COUNT] = -1 if it.tool else count
        names.append(str(name))
        slot += 1
    row[CF.ITEM_FIXED] = fixed
    return names


def _check_mask(kinds: Any, where: str) -> int:
    """``strategy.monologue_checks`` (R-20): a list of check kinds, or ``"any"`` -> a bit mask over CK."""
    if kinds == "any" or kinds == ["any"]:
        return (1 << len(CHECK_KINDS)) - 1
    if isinstance(kinds, str):
        kinds = [kinds]
    if not isinstance(kinds, list):
        raise SimInputError(f"{where}: a list of check kinds ({', '.join(CHECK_KINDS)}) or \"any\"")
    m = 0
    for k in kinds:
        if k not in CHECK_KINDS:
            raise SimInputError(f"{where}: unknown check kind {k!r}{did_you_mean(k, CHECK_KINDS)}; "
                                f"kinds are {', '.join(CHECK_KINDS)} (or \"any\")")
        m |= 1 << CHECK_KINDS.index(k)
    return m


def resolve_setup(path: str | Path | dict, sets: Iterable[str] = ()) -> Setup:
    """Build and compile a scenario in one step."""
    return compile_setup(build_config(path, sets))
