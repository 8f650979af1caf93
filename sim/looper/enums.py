"""Integer enums of the Looper kernels (NamedTuple instances constant-fold inside njit)."""
from collections import namedtuple

from sim.core.rng import RULES

# Random streams of one game (sim.core.rng.seed_stream_nb(state, key, g, side)): each side
# decides from its own stream, so nothing a side holds lets it compute the other's draws.
# The Looper's rules have no chance events of their own: RULES is reserved, never drawn.
Stream = namedtuple("Stream", ("RULES", "PLAYER", "SCRIPTWRITER"))(RULES, 1, 2)

# Guest-move days a roster may have: the players' belief keeps each guest move it has seen in
# a fixed slot of their per-game scratch (strategies/looper/common.py MEM_GUEST).
MAX_GUEST_DAYS = 36

# Effect kinds; the TOML spelling is the field name in lower case.
_KINDS = (
    "STRESS",                  # add `amount` to matching characters in the actor's location
    "STRESS_IF_STRESSED",      # same, conditional on the actor's unconditional stress >= threshold
    "MOVE_IF_STRESSED",        # movement phase: to the next location if stress >= threshold
    "DIE_IF_WITH",             # dies if `other` is in its location
    "DIE_IF_STRESSED",         # dies if stress >= threshold
    "DIE_AT",                  # dies if in `location`
    "PAIR_KILL",               # location holds exactly actor + one other matching victim_any: it dies
    "KILL_STRESSED_OTHERS",    # every other character in the location with stress >= threshold dies
    "CHOOSE_KILL_IF_STRESSED", # stress >= threshold: one matching other in the location dies (chosen)
    "BULLY",                   # in `location`, everyone there has `everyone`, `victim` there: it dies
    "SUBSTITUTE_VICTIM",       # marks the actor as the bully rule's fallback victim
    "LONE_PAIR_KILL",          # any location of exactly two: a victim_any (not actor) with a partner_any dies
    "KILL_GIVER_IF_STRESSED",  # stress >= threshold: one character that gave it stress dies (chosen)
    "GRANT_KILL_IF_STRESSED",  # others here with stress >= threshold each kill one other here (chosen)
    "MISREPORT_DEATHS",        # deaths in its location are announced in the next location
    "NEGATE",                  # matching characters in its location lose their effects for the day
    "REDIRECT_STRESS",         # stress effects aimed at its location hit the next location instead
    "PROTECT",                 # characters in its location do not die
    "KILL_ATTR",               # matching other characters in its location die
    "KILL_ALL_ON_DEATH",       # if another character dies in its location, all others there die
    "GRANT_ATTR",              # matching others in its location gain `attr` for the day
)
Kind = namedtuple("Kind", _KINDS)(*range(len(_KINDS)))
KIND_NAMES = tuple(k.lower() for k in _KINDS)

# Columns of the int64 effect table.
_FIELDS = ("ACTOR", "KIND", "AMOUNT", "THRESHOLD", "INCLUDE_SELF", "LOCATION", "CHAR1", "CHAR2",
           "ATTR_A", "ATTR_NONE", "ATTR_B", "ATTR")
F = namedtuple("F", _FIELDS)(*range(len(_FIELDS)))
N_FIELDS = len(_FIELDS)

# Columns of the per-effect character masks derived from attribute masks.
M = namedtuple("M", ("A", "NONE", "B"))(0, 1, 2)

# Slots of the int64 `info` vector of the public rules (RosterNB.info): constants of the
# configuration only. The clock (loop, day) and the key person are not rules: views carry
# them as their own fields (sim/looper/views.py), the key person only in the judge's.
_INFO = ("N_CHARS", "N_LOC", "MAX_LOOPS", "DAYS", "MOVES", "N_PERM", "N_GUEST", "MUST_NAME",
         "HAS_GRANT", "PROTAGONIST",
         "STAY_MOVES",      # rules.stay_moves (P-15): 1 = a permanent move may leave its character in place
         "KEY_MOVABLE",     # rules.key_person_movable (P-16): 1 = the scriptwriter's moves may move the key person
         "PRECEDENCE",      # rules.precedence: a Precedence value
         "NEG_AGITATION")   # rules.negated_gains_agitation (P-18): 1 = a negated character gains the agitator's kill
I = namedtuple("I", _INFO)(*range(len(_INFO)))
N_INFO = len(_INFO)

# rules.precedence (R-6, P-17): whose move wins when the player and the scriptwriter move one character
PRECEDENCE_NAMES = ("scriptwriter", "player_for_key_person", "player")
Precedence = namedtuple("Precedence", ("SCRIPTWRITER", "PLAYER_FOR_KEY_PERSON", "PLAYER"))(0, 1, 2)

PROTAGONIST = 0  # bit 0 / first in roster order
NO_CHAR = -1

# Which TOML fields each kind takes (required fields have no default).
SCHEMA = {
    "stress": {"amount": None, "target_any": [], "target_none": [], "include_self": False},
    "stress_if_stressed": {"threshold": None, "amount": None, "target_any": [], "target_none": [],
                           "include_self": False},
    "move_if_stressed": {"threshold": None},
    "die_if_with": {"other": None},
    "die_if_stressed": {"threshold": None},
    "die_at": {"location": None},
    "pair_kill": {"location": "", "victim_any": []},
    "kill_stressed_others": {"threshold": None},
    "choose_kill_if_stressed": {"threshold": None, "victim_any": []},
    "bully": {"location": None, "everyone": None, "victim": None},
    "substitute_victim": {"rule_of": None, "instead_of": None},
    "lone_pair_kill": {"victim_any": None, "partner_any": None},
    "kill_giver_if_stressed": {"threshold": None},
    "grant_kill_if_stressed": {"threshold": None},
    "misreport_deaths": {},
    "negate": {"target_any": None},
    "redirect_stress": {},
    "protect": {"include_self": True},
    "kill_attr": {"victim_any": None},
    "kill_all_on_death": {},
    "grant_attr": {"target_any": None, "attr": None},
}
assert set(SCHEMA) == set(KIND_NAMES)
# Effect fields that name a character (an id), not an attribute or a location: removing a
# character must drop the effects that name it (``sim looper loo``, P-14).
CHAR_FIELDS = ("other", "victim", "rule_of", "instead_of")
assert set(CHAR_FIELDS) <= {f for fields in SCHEMA.values() for f in fields}

# Event codes of a traced game (sim.core.trace.emit_nb rows; decoded by sim/looper/trace.py).
_EVENTS = (
    "SETUP_KEY",     # key, the strategy's pick, pinned (P-13)
    "SETUP_PERM",    # j, character, location                     permanent move (R-3 setup 2)
    "SETUP_GUEST",   # k, day, character, location                guest move (setup 3)
    "LOOP_START",    # loop
    "DAY_START",     # loop, day
    "MOVE",          # character, location, status (MoveStatus)   the player's move (R-6, P-7)
    "GUEST",         # character, location, applied               today's guest move
    "NEGATED",       # mask                                       Psychic Misa (R-12, P-1)
    "STRESS_SRC",    # target, actor, effect, amount              one source of stress
    "STRESS",        # character, stress, raw sum                 the day's stress (R-7 1)
    "WALK",          # character, from, to, effect                Kenkichi's move (R-7 2)
    "PROTECTED",     # mask                                       Princess Flute (P-12)
    "CHOICE",        # actor, effect, candidates, victim          the scriptwriter picks
    "DEATH",         # character, effect, actor, true place       a death and its rule (P-11)
    "ANNOUNCE",      # character, announced place, true place    
    "NAME",          # loop, named, right                         R-2 variant
    "LOOP_END",      # loop, day, why (LoopEnd)
    "GAME_END",      # won, won loop, loops used, days
    "DECIDE",        # loop, day, moves                           the player decides (its reason follows)
    "BOARD",         # character, place, stress, alive, died      the day's board, one row a character
)
Ev = namedtuple("Ev", _EVENTS)(*range(1, len(_EVENTS) + 1))
EVENT_NAMES = {i + 1: k.lower() for i, k in enumerate(_EVENTS)}
# What a player's reason items say (sim.core.reasons.reason_nb(view.why, kind, a, b, score);
# sim/looper/trace.py words them): a character at risk today (a; score: the share of the
# worlds it believes in where it is), a key-person candidate (a; score: its share), the
# character a move takes out of danger (a; b: the move's index), the expected loss before
# (a = -1) and after move a, a move made free of the worlds (a: the character, b: the move),
# the planner's mean rollout value of a move set (a: 0 the greedy set, 1 none, 2… a change
# of it; b: 1 for the set chosen). Names and the scriptwriter's setup and choices: drawn at
# random (score: among how many), aimed at a character (a; score: the aim's chance), the
# key person as the judge tells an oracle (a), row a of a pool of setups (score: its size),
# the written script (P-19), the first candidate in roster order (a).
WHY = ("at_risk", "candidate", "prevents", "loss", "free", "rollout", "random", "aims", "told", "pool",
       "script", "first")
Why = namedtuple("Why", [w.upper() for w in WHY])(*range(len(WHY)))
MoveStatus = namedtuple("MoveStatus", ("DONE", "OVERRIDDEN", "DEAD", "REPEATED"))(0, 1, 2, 3)
LoopEnd = namedtuple("LoopEnd", ("PROTAGONIST", "KEY", "BOTH", "SURVIVED", "WRONG_NAME"))(1, 2, 3, 4, 5)
