"""`trusting` strategies (a naive baseline): the seer claims publicly; the village and wolves act on claims.

Village: the seer claims and reports her newest result every day; everyone votes a
participant some living claimer reported as wolf (the seer her own wolves), else a
random uncleared participant; the paladin guards the claimed seers; the witch
eliminates reported wolves and revives a claimed seer who is out.
Wolves: attack the claimed seers first; the accomplice fake-claims seer and reports a
random village-team participant as wolf; hati marks the most cleared (trusted)
participant; wolves vote for the seer claimers outside their team, else anyone outside the team.

Knobs (data: ``--village claims@follow=0.5``, ``[village] follow = 0.5``, ``--set
village.follow=0.5``; ``sim tune`` searches them). At their defaults the play is the one
described above, draw for draw; a probability draws from the side's stream only when it
is strictly between 0 and 1.

Reasons (in a trace, sim.core.reasons): each decision states the rule it followed — a
known or reported wolf, a seer claimer, how many cleared were left out, and the size of
the pool it drew from at random (``random``), or the reading a claim announces.
"""
import numba as nb
import numpy as np

from sim.core.bits import popcount_nb
from sim.core.knobs import Knob
from sim.core.reasons import explaining_nb, reason_nb
from sim.core.rng import choose_bit_nb
from sim.werewolf.enums import CLAIM_SEER, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, Ab, RF, Why
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
def _pool_nb(prefer, cands, me):
    """The set ``_pick_nb`` draws from."""
    m = prefer & cands & ~(U1 << np.uint64(me))
    if m:
        return m
    m = cands & ~(U1 << np.uint64(me))
    return m if m else cands


@nb.njit(forceinline=True)
def _pick_nb(rng, prefer, cands, me):
    return choose_bit_nb(rng, _pool_nb(prefer, cands, me))


@nb.njit(forceinline=True)
def _reporter_nb(view, t):
    """A living seer claimer who reported ``t`` as wolf (-1: none)."""
    for c in range(view.n):
        if view.claim_role[c] == CLAIM_SEER and (view.alive >> np.uint64(c)) & U1 and view.claim_res[c, t] == 1:
            return c
    return -1


@nb.njit(forceinline=True)
def _explain_pick_nb(view, cleared, cands, me):
    """Reason of a ``_pick_nb`` among the not ``cleared``: the cleared left out, the pool's size."""
    pool = _pool_nb(~cleared, cands, me)
    reason_nb(view.why, Why.CLEARED, -1, -1, popcount_nb(cleared & cands & ~(U1 << np.uint64(me)) & ~pool))
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(pool))


@nb.njit(forceinline=True)
def village_vote_nb(rng, view, cands):
    me = view.me
    if _my_ability_nb(view) == Ab.DIVINE:
        wolves = _known_nb(view, 1) & ~(U1 << np.uint64(me))
        if wolves & cands:
            t = choose_bit_nb(rng, wolves & cands)
            reason_nb(view.why, Why.KNOWN, t, -1, 1.0)
            reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(wolves & cands))
            return t
        t = _pick_nb(rng, ~_known_nb(view, 0), cands, me)
        if explaining_nb(view.why):
            _explain_pick_nb(view, _known_nb(view, 0), cands, me)
        return t
    wolves = _reported_nb(view, 1)
    if wolves & cands & ~(U1 << np.uint64(me)) and chance_nb(rng, knob_nb(view, KV_FOLLOW, 1.0)):
        t = _pick_nb(rng, wolves, cands, me)
        reason_nb(view.why, Why.REPORTED, t, _reporter_nb(view, t), 1.0)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(_pool_nb(wolves, cands, me)))
        return t
    cleared = _reported_nb(view, 0) | _known_nb(view, 0)
    if knob_nb(view, KV_TRUST, 1.0) != 0.0:
        cleared |= _claimers_nb(view)
    t = _pick_nb(rng, ~cleared, cands, me)
    if explaining_nb(view.why):
        _explain_pick_nb(view, cleared, cands, me)
    return t


@nb.njit(forceinline=True)
def village_divine_nb(rng, view):
    m = others_alive_nb(view) & ~_known_nb(view, 0) & ~_known_nb(view, 1)
    if m:
        reason_nb(view.why, Why.UNREAD, -1, -1, popcount_nb(m))
    else:
        m = others_alive_nb(view)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(m))
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
    reason_nb(view.why, Why.ANNOUNCES, t, -1, view.know[t])
    return t * 2 + view.know[t]


@nb.njit(forceinline=True)
def village_protect_nb(rng, view):
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    last = view.last_protect
    m = _claimers_nb(view) & avail if knob_nb(view, KV_GUARD, 1.0) != 0.0 else np.uint64(0)
    while popcount_nb(m) > k:
        m &= m - U1
    guarded = m
    m |= random_subset_nb(rng, avail & ~m, k - popcount_nb(m))
    if m == last and popcount_nb(m) >= 2:
        return random_protect_nb(rng, view)  # last night's set: drawn again at random (its reason)
    if explaining_nb(view.why):
        for c in range(view.n):
            if (guarded >> np.uint64(c)) & U1:
                reason_nb(view.why, Why.CLAIMER, c, -1, CLAIM_SEER)
        if popcount_nb(m) > popcount_nb(guarded):
            reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(avail & ~guarded))
    return m


@nb.njit(forceinline=True)
def village_witch_nb(rng, view):
    me = view.me
    wolves = (_reported_nb(view, 1) | _known_nb(view, 1)) & others_alive_nb(view)
    if wolves and chance_nb(rng, knob_nb(view, KV_ELIMINATE, 1.0)):
        t = choose_bit_nb(rng, wolves)
        if (_known_nb(view, 1) >> np.uint64(t)) & U1:
            reason_nb(view.why, Why.KNOWN, t, -1, 1.0)
        else:
            reason_nb(view.why, Why.REPORTED, t, _reporter_nb(view, t), 1.0)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(wolves))
        return WITCH_ELIMINATE * WITCH_BASE + t
    n = view.n
    full = (U1 << np.uint64(n)) - U1
    dead_claimers = _claimers_nb(view) & full & ~view.alive & ~(U1 << np.uint64(me))
    if dead_claimers and knob_nb(view, KV_REVIVE, 1.0) != 0.0:
        t = choose_bit_nb(rng, dead_claimers)
        reason_nb(view.why, Why.CLAIMER, t, -1, CLAIM_SEER)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(dead_claimers))
        return WITCH_REVIVE * WITCH_BASE + t
    if wolves:  # the eliminate knob's draw said no
        reason_nb(view.why, Why.THRESHOLD, -1, -1, knob_nb(view, KV_ELIMINATE, 1.0))
    else:
        reason_nb(view.why, Why.NOTHING)
    return WITCH_PASS * WITCH_BASE


@nb.njit(forceinline=True)
def wolf_vote_nb(rng, view, cands):
    me = view.me
    team = _known_nb(view, 1)
    seers = _claimers_nb(view) & ~team
    if seers & cands and knob_nb(view, KW_VOTE, 1.0) != 0.0:
        t = choose_bit_nb(rng, seers & cands)
        reason_nb(view.why, Why.CLAIMER, t, -1, CLAIM_SEER)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(seers & cands))
        return t
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(_pool_nb(~team, cands, me)))
    return _pick_nb(rng, ~team, cands, me)


@nb.njit(forceinline=True)
def wolf_attack_nb(rng, view, cands):
    seers = _claimers_nb(view) & cands
    if seers and knob_nb(view, KW_HUNT, 1.0) != 0.0:
        t = choose_bit_nb(rng, seers)
        reason_nb(view.why, Why.CLAIMER, t, -1, CLAIM_SEER)
        reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(seers))
        return t
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cands))
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
    reason_nb(view.why, Why.CLEARED, best, -1, best_score)
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
    t = choose_bit_nb(rng, m)
    reason_nb(view.why, Why.ANNOUNCES, t, -1, 1.0)
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(m))
    return t * 2 + 1
