"""`trusting` strategies (a naive baseline): the seer claims publicly; the village and wolves act on claims.

Village: the seer claims and reports her newest result every day; everyone votes a
participant some living claimer reported as wolf (the seer her own wolves), else a
random uncleared participant; the paladin guards the claimed seers; the witch
eliminates reported wolves and revives a claimed seer who is out.
Wolves: attack the claimed seers first; the accomplice fake-claims seer and reports a
random village-team participant as wolf; hati marks the most cleared (trusted)
participant; wolves vote for reported-village participants, else anyone outside the team.

Knobs (data: ``--village claims@follow=0.5``, ``[village] follow = 0.5``, ``--set
village.follow=0.5``; ``sim tune`` searches them). At their defaults the play is the one
described above, draw for draw; a probability draws from the side's stream only when it
is strictly between 0 and 1.
"""
import numba as nb
import numpy as np

from sim.core.bits import popcount_nb
from sim.core.knobs import Knob
from sim.core.rng import choose_bit_nb
from sim.werewolf.enums import CLAIM_SEER, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, Ab, RF
from strategies.werewolf.basic import (chance_nb, knob_nb, known_nb as _known_nb, others_alive_nb, random_mark_nb,
                                      random_protect_nb, random_subset_nb)

U1 = np.uint64(1)
MEM_LAST_DIVINED = 0  # last divination target + 1
MEM_FAKE = 1          # the accomplice's decision for this game: 0 undecided, 1 claims, 2 stays silent

# View.knobs slots, in the order of the Knob tuples below (a test checks that they agree).
KV_CLAIM_DAY, KV_FOLLOW, KV_TRUST, KV_GUARD, KV_ELIMINATE, KV_REVIVE = range(6)
KW_FAKE, KW_HUNT, KW_VOTE, KW_FRAME = range(4)

VILLAGE_KNOBS = (
    Knob("claim_day", "int", 1, 8, 1, doc="the seer claims and reports from this day on (before: silent)"),
    Knob("follow", "float", 0.0, 1.0, 1.0, doc="chance a villager votes a reported wolf when there is one"),
    Knob("trust", "bool", default=True, doc="a seer claimer counts as cleared (never voted unless reported)"),
    Knob("guard_claimers", "bool", default=True, doc="the paladin protects claimers first"),
    Knob("eliminate", "float", 0.0, 1.0, 1.0, doc="chance the witch eliminates a reported wolf when she can"),
    Knob("revive", "bool", default=True, doc="the witch revives a fallen claimer"),
)
WOLF_KNOBS = (
    Knob("fake_claim", "float", 0.0, 1.0, 1.0, doc="chance (per game) the accomplice fake-claims seer"),
    Knob("hunt", "bool", default=True, doc="attack seer claimers first"),
    Knob("vote_claimers", "bool", default=True, doc="vote seer claimers outside the team first"),
    Knob("frame", "bool", default=True, doc="hati marks the most cleared participant (else at random)"),
)


@nb.njit(forceinline=True)
def _my_ability_nb(view):
    return view.rules.table[view.my_role, RF.ABILITY]


@nb.njit(forceinline=True)
def _reported_nb(view, read):
    """Participants that some living claimer reported as ``read`` (1 wolf, 0 village)."""
    n = view.n
    m = np.uint64(0)
    for c in range(n):
        if view.claim_role[c] == CLAIM_SEER and (view.alive >> np.uint64(c)) & U1:
            for t in range(n):
                if view.claim_res[c, t] == read:
                    m |= U1 << np.uint64(t)
    return m


@nb.njit(forceinline=True)
def _claimers_nb(view):
    return view.claimed[CLAIM_SEER]


@nb.njit(forceinline=True)
def _pick_nb(rng, prefer, cands, me):
    m = prefer & cands & ~(U1 << np.uint64(me))
    if m:
        return choose_bit_nb(rng, m)
    m = cands & ~(U1 << np.uint64(me))
    return choose_bit_nb(rng, m if m else cands)


@nb.njit(forceinline=True)
def village_vote_nb(rng, view, cands):
    me = view.me
    if _my_ability_nb(view) == Ab.DIVINE:
        wolves = _known_nb(view, 1) & ~(U1 << np.uint64(me))
        if wolves & cands:
            return choose_bit_nb(rng, wolves & cands)
        return _pick_nb(rng, ~_known_nb(view, 0), cands, me)
    wolves = _reported_nb(view, 1)
    if wolves & cands & ~(U1 << np.uint64(me)) and chance_nb(rng, knob_nb(view, KV_FOLLOW, 1.0)):
        return _pick_nb(rng, wolves, cands, me)
    cleared = _reported_nb(view, 0) | _known_nb(view, 0)
    if knob_nb(view, KV_TRUST, 1.0) != 0.0:
        cleared |= _claimers_nb(view)
    return _pick_nb(rng, ~cleared, cands, me)


@nb.njit(forceinline=True)
def village_divine_nb(rng, view):
    m = others_alive_nb(view) & ~_known_nb(view, 0) & ~_known_nb(view, 1)
    if not m:
        m = others_alive_nb(view)
    if not m:
        return -1
    t = choose_bit_nb(rng, m)
    view.mem[MEM_LAST_DIVINED] = t + 1
    return t


@nb.njit(forceinline=True)
def village_speak_nb(rng, view):
    if _my_ability_nb(view) != Ab.DIVINE or view.mem[MEM_LAST_DIVINED] == 0:
        return -1
    if view.day < knob_nb(view, KV_CLAIM_DAY, 1.0):
        return -1
    t = view.mem[MEM_LAST_DIVINED] - 1
    return t * 2 + view.know[t]


@nb.njit(forceinline=True)
def village_protect_nb(rng, view):
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    last = view.last_protect
    m = _claimers_nb(view) & avail if knob_nb(view, KV_GUARD, 1.0) != 0.0 else np.uint64(0)
    while popcount_nb(m) > k:
        m &= m - U1
    m |= random_subset_nb(rng, avail & ~m, k - popcount_nb(m))
    if m == last and popcount_nb(m) >= 2:
        return random_protect_nb(rng, view)
    return m


@nb.njit(forceinline=True)
def village_witch_nb(rng, view):
    me = view.me
    wolves = (_reported_nb(view, 1) | _known_nb(view, 1)) & others_alive_nb(view)
    if wolves and chance_nb(rng, knob_nb(view, KV_ELIMINATE, 1.0)):
        return WITCH_ELIMINATE * WITCH_BASE + choose_bit_nb(rng, wolves)
    n = view.n
    full = (U1 << np.uint64(n)) - U1
    dead_claimers = _claimers_nb(view) & full & ~view.alive & ~(U1 << np.uint64(me))
    if dead_claimers and knob_nb(view, KV_REVIVE, 1.0) != 0.0:
        return WITCH_REVIVE * WITCH_BASE + choose_bit_nb(rng, dead_claimers)
    return WITCH_PASS * WITCH_BASE


@nb.njit(forceinline=True)
def wolf_vote_nb(rng, view, cands):
    me = view.me
    team = _known_nb(view, 1)
    seers = _claimers_nb(view) & ~team
    if seers & cands and knob_nb(view, KW_VOTE, 1.0) != 0.0:
        return choose_bit_nb(rng, seers & cands)
    return _pick_nb(rng, ~team, cands, me)


@nb.njit(forceinline=True)
def wolf_attack_nb(rng, view, cands):
    seers = _claimers_nb(view) & cands
    if seers and knob_nb(view, KW_HUNT, 1.0) != 0.0:
        return choose_bit_nb(rng, seers)
    return choose_bit_nb(rng, cands)


@nb.njit(forceinline=True)
def wolf_mark_nb(rng, view):
    if knob_nb(view, KW_FRAME, 1.0) == 0.0:
        return random_mark_nb(rng, view)
    n = view.n
    last = view.last_mark
    avail = others_alive_nb(view) & ~_known_nb(view, 1)
    if last >= 0:
        avail &= ~(U1 << np.uint64(last))
    if not avail:
        return -1
    best = -1
    best_score = -1
    for t in range(n):
        if (avail >> np.uint64(t)) & U1:
            score = 0
            for c in range(n):
                if view.claim_res[c, t] == 0:
                    score += 1
            if score > best_score:
                best_score = score
                best = t
    return best


@nb.njit(forceinline=True)
def wolf_speak_nb(rng, view):
    """The accomplice fake-claims seer, 'finding' a village-team participant as wolf."""
    if view.rules.table[view.my_role, RF.MADMAN] != 1:
        return -1
    if view.mem[MEM_FAKE] == 0:  # decided once per game (mem starts at zero every game)
        view.mem[MEM_FAKE] = 1 if chance_nb(rng, knob_nb(view, KW_FAKE, 1.0)) else 2
    if view.mem[MEM_FAKE] == 2:
        return -1
    m = others_alive_nb(view) & ~_known_nb(view, 1)
    if not m:
        return -1
    return choose_bit_nb(rng, m) * 2 + 1
