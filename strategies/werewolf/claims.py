"""`claims` strategies: the seer claims publicly; the village and wolves act on claims.

Village: the seer claims and reports her newest result every day; everyone votes a
participant some living claimer reported as wolf (the seer her own wolves), else a
random uncleared participant; the paladin guards the claimed seers; the witch
eliminates reported wolves and revives a claimed seer who is out.
Wolves: attack the claimed seers first; the accomplice fake-claims seer and reports a
random village-team participant as wolf; hati marks the most cleared (trusted)
participant; wolves vote for reported-village participants, else anyone outside the team.
"""
import numba as nb
import numpy as np

from sim.core.bits import popcount_nb
from sim.core.rng import choose_bit_nb
from sim.werewolf.enums import CLAIM_SEER, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, Ab, RF
from strategies.werewolf.basic import others_alive_nb, random_protect_nb, random_subset_nb

U1 = np.uint64(1)
MEM_LAST_DIVINED = 0  # last divination target + 1


@nb.njit
def _my_ability_nb(view):
    return view.rules.table[view.my_role, RF.ABILITY]


@nb.njit
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


@nb.njit
def _claimers_nb(view):
    n = view.n
    m = np.uint64(0)
    for c in range(n):
        if view.claim_role[c] == CLAIM_SEER:
            m |= U1 << np.uint64(c)
    return m


@nb.njit
def _known_nb(view, read):
    n = view.n
    m = np.uint64(0)
    for t in range(n):
        if view.know[t] == read:
            m |= U1 << np.uint64(t)
    return m


@nb.njit
def _pick_nb(rng, prefer, cands, me):
    m = prefer & cands & ~(U1 << np.uint64(me))
    if m:
        return choose_bit_nb(rng, m)
    m = cands & ~(U1 << np.uint64(me))
    return choose_bit_nb(rng, m if m else cands)


@nb.njit
def village_vote_nb(rng, view, cands):
    me = view.me
    if _my_ability_nb(view) == Ab.DIVINE:
        wolves = _known_nb(view, 1) & ~(U1 << np.uint64(me))
        if wolves & cands:
            return choose_bit_nb(rng, wolves & cands)
        return _pick_nb(rng, ~_known_nb(view, 0), cands, me)
    wolves = _reported_nb(view, 1)
    if wolves & cands & ~(U1 << np.uint64(me)):
        return _pick_nb(rng, wolves, cands, me)
    cleared = _reported_nb(view, 0) | _claimers_nb(view) | _known_nb(view, 0)
    return _pick_nb(rng, ~cleared, cands, me)


@nb.njit
def village_divine_nb(rng, view):
    m = others_alive_nb(view) & ~_known_nb(view, 0) & ~_known_nb(view, 1)
    if not m:
        m = others_alive_nb(view)
    if not m:
        return -1
    t = choose_bit_nb(rng, m)
    view.mem[MEM_LAST_DIVINED] = t + 1
    return t


@nb.njit
def village_speak_nb(rng, view):
    if _my_ability_nb(view) != Ab.DIVINE or view.mem[MEM_LAST_DIVINED] == 0:
        return -1
    t = view.mem[MEM_LAST_DIVINED] - 1
    return t * 2 + view.know[t]


@nb.njit
def village_protect_nb(rng, view):
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    last = view.last_protect
    m = _claimers_nb(view) & avail
    while popcount_nb(m) > k:
        m &= m - U1
    m |= random_subset_nb(rng, avail & ~m, k - popcount_nb(m))
    if m == last and popcount_nb(m) >= 2:
        return random_protect_nb(rng, view)
    return m


@nb.njit
def village_witch_nb(rng, view):
    me = view.me
    wolves = (_reported_nb(view, 1) | _known_nb(view, 1)) & others_alive_nb(view)
    if wolves:
        return WITCH_ELIMINATE * WITCH_BASE + choose_bit_nb(rng, wolves)
    n = view.n
    full = (U1 << np.uint64(n)) - U1
    dead_claimers = _claimers_nb(view) & full & ~view.alive & ~(U1 << np.uint64(me))
    if dead_claimers:
        return WITCH_REVIVE * WITCH_BASE + choose_bit_nb(rng, dead_claimers)
    return WITCH_PASS * WITCH_BASE


@nb.njit
def wolf_vote_nb(rng, view, cands):
    me = view.me
    team = _known_nb(view, 1)
    seers = _claimers_nb(view) & ~team
    if seers & cands:
        return choose_bit_nb(rng, seers & cands)
    return _pick_nb(rng, ~team, cands, me)


@nb.njit
def wolf_attack_nb(rng, view, cands):
    seers = _claimers_nb(view) & cands
    if seers:
        return choose_bit_nb(rng, seers)
    return choose_bit_nb(rng, cands)


@nb.njit
def wolf_mark_nb(rng, view):
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


@nb.njit
def wolf_speak_nb(rng, view):
    """The accomplice fake-claims seer, 'finding' a village-team participant as wolf."""
    if view.rules.table[view.my_role, RF.MADMAN] != 1:
        return -1
    m = others_alive_nb(view) & ~_known_nb(view, 1)
    if not m:
        return -1
    return choose_bit_nb(rng, m) * 2 + 1
