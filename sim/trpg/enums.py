"""Integer enums and table columns of the TRPG kernels."""
from collections import namedtuple


def _enum(name, fields):
    return namedtuple(name, fields)(*range(len(fields)))


# per-character columns
CF = _enum("CF", ("SIDE", "X", "Y", "HP", "MP", "SP", "KAII", "ATHLETICS", "MELEE", "DODGE", "SHOOTING",
                  "ARMOUR_PCT", "ARMOUR_FIXED", "ITEM_FIXED", "N_WEAPONS", "GUARD_PARTS",
                  "S_TARGET", "S_REACTION", "S_DODGE_MIN", "S_COVER", "S_COVER_ANY", "S_COVER_RAW", "S_MOVE", "S_LIFE_MP", "S_MONOLOGUE",
                  "S_HEAL_BELOW", "S_HEAL_ANY", "S_SWAP_MELEE", "S_KITE", "S_MIN_HIT", "S_ARM_HORIZON",
                  "S_ITEM_HP", "S_ITEM_MP", "S_ITEM_SUB", "S_MONO_CHECKS",
                  # the items a character uses: MAX_ITEMS slots of N_IF columns each
                  # (slot k's column f is CF.ITEM0 + N_IF * k + f, f an IF column)
                  "ITEM0"))
N_CF = len(CF)
# the columns of one item slot (CF.ITEM0 + N_IF * slot + IF.*)
IF = _enum("IF", ("EFFECT", "ACTION", "FIXED", "DICE", "COUNT"))
N_IF = len(IF)
MAX_ITEMS = 3
N_CF = N_CF - 1 + N_IF * MAX_ITEMS
# what an item does: `reduction` is folded into CF.ITEM_FIXED when compiled (a tool
# that works by being carried); the kernel acts on heal_hp / heal_mp (IE codes; 0: no item)
ITEM_EFFECTS = ("heal_hp", "heal_mp", "reduction")
IE = _enum("IE", ("NONE", "HEAL_HP", "HEAL_MP"))
ITEM_KINDS = ("consumable", "tool")
# which action using an item spends (R-19: main or sub unless the item says otherwise)
ITEM_ACTIONS = ("main_or_sub", "main", "sub", "carried")
IA = _enum("IA", [a.upper() for a in ITEM_ACTIONS])
# per-weapon columns
WF = _enum("WF", ("KIND", "PHYSICAL", "ENHANCED", "AMMO", "RELOAD_MAIN", "BAND0", "BAND1", "BAND2", "BAND3",
                  "DICE", "BODY"))
N_WF = len(WF)
KINDS = ("melee", "ranged", "thrown")
K = _enum("K", [k.upper() for k in KINDS])
# per-ability columns
AF = _enum("AF", ("OWNER", "KIND", "COST", "PCT", "FIXED", "DICE", "ENHANCED"))
N_AF = len(AF)
ABILITY_KINDS = ("reduction", "damage_bonus", "heal")
AK = _enum("AK", [k.upper() for k in ABILITY_KINDS])
# rule slots
RL = _enum("RL", ("CRIT_FREE", "FUMBLE_ALLY", "MAX_ROUNDS", "GRID", "SLEEP_PENALTY", "FIRST_SIDE", "N_SIDES",
                  "HP_PUBLIC", "FUMBLE_ATTACK_ONLY"))
N_RL = len(RL)
# strategy choices
TARGETS = ("random", "weakest", "nearest", "dangerous", "oracle_focus")  # oracle_…: reads the judge's view
REACTIONS = ("none", "dodge", "guard", "auto")
MOVES = ("close_in", "keep_range")
MONOLOGUES = ("never", "fallen", "low_mp")
ITEM_USES = ("main", "sub")  # strategy.item_action: the action an item usable with either spends (T-12)
T = _enum("T", [t.upper() for t in TARGETS])
RE = _enum("RE", [r.upper() for r in REACTIONS])
MV = _enum("MV", [m.upper() for m in MOVES])
MO = _enum("MO", [m.upper() for m in MONOLOGUES])
# check outcomes
OUT = _enum("OUT", ("FAIL", "SUCCESS", "CRITICAL", "FUMBLE"))
# character status
ST = _enum("ST", ("OK", "FALLEN", "LOST"))  # kaii control is the separate flag B.CTRL
# Per-character battle state: one int64 table ``bs[n, B.*]`` (one array instead of twenty
# keeps numba's per-array bookkeeping out of the hot loop).
B = _enum("B", ("HP", "MP", "X", "Y", "STATUS", "SUB_USED", "EQUIP", "SKIP", "MONO_USED", "MONO_ROUNDS",
                "MONO_CRITS", "SYM_PEN", "DEALT", "TAKEN", "FELL", "EXTRA", "AMMO0", "AMMO1", "AMMO2",
                "AMMO3", "ARM0", "ARM1", "CTRL",
                # how many of each item slot's consumable are left (a tool: -1, never used up; R-19)
                "ITEM0", "ITEM1", "ITEM2",
                # derived, kept for the views (sim/trpg/views.py): the HP band, the weapon in hand
                "BAND", "WIELD"))
N_B = len(B)
# Random streams of one combat (sim.core.rng.seed_stream_nb(state, key, g, stream)): the
# rules' own chance events (every die, the fumble's random ally) draw from RULES; the
# decisions of side k's characters from SIDE0 + k (side k = scenario.sides[k]).
Stream = _enum("Stream", ("RULES", "SIDE0", "SIDE1"))
# Trace events (sim.core.trace.emit_nb; decoded with their rule ids by sim.trpg.trace)
EV = _enum("EV", ("ROUND", "ATTACK", "MOVE", "RELOAD", "SWAP", "HEAL", "SKIP", "LOSE_TURN", "FUMBLE_ALLY",
                  "COVER", "REACTION", "GUARD", "DODGED", "CHECK", "DMG", "HIT", "FALL", "LIFE", "LOST", "MP",
                  "SYMPTOM", "MONOLOGUE", "END", "STAND", "ITEM", "TARGET"))
# What a strategy's reason items say (sim.core.reasons.reason_nb(view.why, kind, a, b, score);
# sim/trpg/trace.py words them): the rule it follows (a 0: a target rule, b its TARGETS code;
# a 1: a reaction rule, b its REACTIONS code), a candidate's value under that rule (a; score:
# its HP band or HP for weakest, distance for nearest, expected damage for dangerous), a
# choice at random among score candidates, the expected damage of a reaction (a: 0 none,
# 1 dodge, 2 guard; score in HP), the dodge chance (score) and the threshold it must reach (b 1).
WHY = ("rule", "value", "random", "expected", "dodge_chance")
Why = _enum("Why", [w.upper() for w in WHY])
# what a check is for (EV.CHECK's second argument)
CHECK_KINDS = ("attack", "dodge", "cover", "move", "life")
CK = _enum("CK", [k.upper() for k in CHECK_KINDS])
# the steps of a damage (EV.DMG's second argument), in the order of R-10
DS = _enum("DS", ("ROLL", "BONUS", "CRIT", "KAII", "ARMOUR_PCT", "ARMOUR_FIXED", "GUARD_DIGIT", "GUARD_WEAPON",
                  "ITEM", "REDUCTION_PCT", "REDUCTION_FIXED"))

# A sheet's strategy fields when it does not say (sim.trpg.sheets compiles them; side
# profiles, sim.trpg.tactics, write them).
STRATEGY_DEFAULTS = {"target": "nearest", "reaction": "auto", "dodge_threshold": 0.0, "cover": True,
                     "cover_any": False, "cover_raw": False,
                     "movement": "close_in", "life_mp": 3, "monologue": "fallen", "heal_below": 0.5, "heal_any": False,
                     "swap_to_melee_at": -1, "kite": True, "min_hit": 0.1, "arm_horizon": 8,
                     "item_hp_at": 0.5, "item_mp_at": 0.3, "item_action": "main",
                     # the check kinds a monologue's criticals go to (the player's choice)
                     "monologue_checks": ["attack", "dodge", "life"]}
