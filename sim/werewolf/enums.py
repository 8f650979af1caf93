"""Integer enums of the Werewolf kernels (NamedTuple constants fold inside njit)."""
from collections import namedtuple

ABILITIES = ("none", "divine", "medium", "protect", "witch", "mark")
Ab = namedtuple("Ab", [a.upper() for a in ABILITIES])(*range(len(ABILITIES)))

# Per-role columns of the int64 role table.
_RF = ("TEAM", "ATTACKS", "ABILITY", "SEER_WOLF", "MEDIUM_WOLF", "MADMAN", "DRAG", "PROTECT")
RF = namedtuple("RF", _RF)(*range(len(_RF)))
N_RF = len(_RF)

# Variant slots.
_V = ("ACC_VILLAGE", "AFTER_ELIM", "MAX_RUNOFFS", "START_NIGHT", "VOTE_RULE", "END_NO_VILLAGERS", "MAX_DAYS",
      "LONE_ACC_ATTACKS",
      # restricted play (sim werewolf loo --restrict): bit r set = role r's ability / its
      # claims are withheld (the hook is not asked); never read from a configuration
      "WITHHOLD", "WITHHOLD_CLAIMS")
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

# Random streams of a game (sim.core.rng.seed_stream_nb(state, key, g, side)): the rules'
# chance events (the deal, fenrir's drag, plurality tie breaks, random_lynch) and each
# side's decisions. A side's stream gives away neither the key nor another stream.
Stream = namedtuple("Stream", "RULES VILLAGE WOLVES")(0, 1, 2)

# Witch decisions: action * WITCH_BASE + target.
WITCH_PASS, WITCH_ELIMINATE, WITCH_REVIVE = 0, 1, 2
WITCH_BASE = 64
NO_CLAIM = -1
# Public claims: the role a claimer says it holds. speak returns
# kind * CLAIM_BASE + target * 2 + reading (target < 64, so kind 0 is the old seer claim).
CLAIMS = ("seer", "medium")
CLAIM_SEER, CLAIM_MEDIUM = 0, 1
CLAIM_BASE = 128

# Trace event codes (sim/werewolf/trace.py decodes them; arguments in comments).
_T = ("PHASE",    # day, 0 evening / 1 night
      "DEAL",     # participant, role
      "IDLE",     # participant, ability: its role is out, the ability does nothing
      "MARK",     # hati, target (-1: none)
      "DIVINE",   # seer, target, reading (1 wolf), marked today
      "MEDIUM",   # medium, participant, reading
      "CLAIM",    # participant, target, announced reading, the role claimed (CLAIM_*)
      "BALLOT",   # voter, target, round
      "TALLY",    # round, mask of the most voted, their votes
      "RUNOFF",   # round, mask of the candidates
      "NOBODY",   # round: the runoff cap, nobody is out
      "TIEBREAK", # mask of the tied, the one picked (plurality)
      "LYNCH",    # the one picked (random_lynch)
      "OUT",      # participant, How
      "DRAG",     # fenrir, the one dragged
      "WITCH",    # witch, action, target
      "PROTECT",  # paladin, mask
      "ATTACK",   # attacker, target, protected
      "NOATTACK", # reason: 0 no living wolf, 1 no target
      "CHECK")    # winner (W), event (Ev) after which it was checked
T = namedtuple("T", _T)(*range(1, len(_T) + 1))

# What a strategy's reason items say (sim.core.reasons.reason_nb(view.why, kind, a, b, score);
# sim/werewolf/trace.py words them): a ranking of suspicion or trust (a the participant,
# the score its value), a threshold the decision compared with (score), a choice at random
# among score candidates, a participant avoided (a), a participant reported wolf (a) by b.
# A reason item's kind (sim.core.reasons; worded by sim/werewolf/trace.py): ``known`` a
# participant's read as the decider knows it (its own divination or reading, its team;
# score 1 wolf, 0 village), ``claimer`` a participant claiming a role (score: its index in CLAIMS), ``cleared`` how many
# were left out as cleared (with a participant: the reports clearing it), ``announces``
# the reading a claim states (a, score 1 wolf / 0 village), ``unread`` the size of the
# pool of participants no reading covers yet, ``nothing`` nothing to act on, ``seats`` the
# highest seats guarded (score: how many; the table votes the lowest seats first).
WHY = ("suspect", "trust", "threshold", "random", "avoid", "reported", "known", "claimer", "cleared",
       "announces", "unread", "nothing", "seats")
Why = namedtuple("Why", [w.upper() for w in WHY])(*range(len(WHY)))

# A side strategy's knob values reach its views (View.knobs, float64[KNOB_SLOTS]) in the
# order the strategy declares them (sim.core.knobs); unset slots are NaN (the default).
KNOB_SLOTS = 16
