"""Integer constants of the race kernel (NamedTuple constants fold inside njit)."""
from collections import namedtuple

# Slots of the int64 rules vector the kernel receives (Setup.nb).
_R = ("TARGET", "HEAD_START", "FACES", "BUST_FACE", "K1", "K2")
R = namedtuple("R", _R)(*range(len(_R)))
N_R = len(_R)

# How many dice a strategy rolls.
DICE = ("none", "one", "two")
Dice = namedtuple("Dice", [d.upper() for d in DICE])(*range(len(DICE)))

# Slots of the scalar counters.
_C = ("GAMES", "P1_WINS", "TURNS")
C = namedtuple("C", _C)(*range(len(_C)))
N_C = len(_C)

# Slots of the per-player counters (one row per player).
_P = ("TURNS", "TWO_DICE", "BUSTS", "POINTS", "WINS")
P = namedtuple("P", _P)(*range(len(_P)))
N_P = len(_P)

SIDES = ("p1", "p2")

# Random streams of a game (sim.core.rng): the dice, and each player's own choices.
Stream = namedtuple("Stream", ("RULES", "P1", "P2"))(0, 1, 2)

# What a decision's reason says (sim.core.reasons.reason_nb(why, kind, a, b, score)):
# ``always`` the same dice every turn (score: how many), ``behind`` the points behind the
# other player (score; b: the k it is compared with, score >= k rolls two), ``coin`` a fair
# coin (score: the dice it gave).
WHY = ("always", "behind", "coin")
Why = namedtuple("Why", [w.upper() for w in WHY])(*range(len(WHY)))

# Event codes of a trace (sim_race.trace decodes them).
Ev = namedtuple("Ev", ("TURN", "WIN"))(1, 2)
