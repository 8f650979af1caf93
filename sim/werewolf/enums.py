"""Integer enums of the Werewolf kernels (NamedTuple constants fold inside njit)."""
from collections import namedtuple

ABILITIES = ("none", "divine", "medium", "protect", "witch", "mark")
Ab = namedtuple("Ab", [a.upper() for a in ABILITIES])(*range(len(ABILITIES)))

# Per-role columns of the int64 role table.
_RF = ("TEAM", "ATTACKS", "ABILITY", "SEER_WOLF", "MEDIUM_WOLF", "MADMAN", "DRAG", "PROTECT")
RF = namedtuple("RF", _RF)(*range(len(_RF)))
N_RF = len(_RF)

# Variant slots.
_V = ("ACC_VILLAGE", "AFTER_ELIM", "MAX_RUNOFFS", "START_NIGHT", "VOTE_RULE", "END_NO_VILLAGERS", "MAX_DAYS")
V = namedtuple("V", _V)(*range(len(_V)))
VOTE_RULES = ("runoff", "plurality", "random_lynch")
VR = namedtuple("VR", [v.upper() for v in VOTE_RULES])(*range(3))

# How a participant left (public record); 0 = in the game.
HOW = ("alive", "voted", "attacked", "dragged", "witch")
How = namedtuple("How", [h.upper() for h in HOW])(*range(len(HOW)))

# Game end: who won and which event ended it.
WINNERS = ("none", "village", "wolves", "draw")
W = namedtuple("W", [w.upper() for w in WINNERS])(*range(4))
EVENTS = ("vote", "witch", "attack", "revive", "max_days")
Ev = namedtuple("Ev", [e.upper() for e in EVENTS])(*range(len(EVENTS)))

# Slots of the `info` vector a strategy sees.
_I = ("N", "DAY", "ACTOR", "MY_ROLE", "RUNOFF", "HATI_LAST", "PALADIN_LAST")
I = namedtuple("I", _I)(*range(len(_I)))
N_INFO = len(_I)

# Witch decisions: action * WITCH_BASE + target.
WITCH_PASS, WITCH_ELIMINATE, WITCH_REVIVE = 0, 1, 2
WITCH_BASE = 64
NO_CLAIM = -1
CLAIM_SEER = 0
