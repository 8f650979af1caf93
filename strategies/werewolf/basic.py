"""`random` strategies: uniform among the legal choices for every decision."""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.reasons import reason_nb
from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.werewolf.enums import WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE, RF, Why

U1 = np.uint64(1)


@nb.njit(forceinline=True)
def others_alive_nb(view):
    return view.alive & ~(U1 << np.uint64(view.me))


@nb.njit(forceinline=True)
def random_vote_nb(rng, view, cands):
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cands))  # the reason, in a trace
    return choose_bit_nb(rng, cands)


@nb.njit(forceinline=True)
def random_divine_nb(rng, view):
    m = others_alive_nb(view)
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(m))
    return choose_bit_nb(rng, m) if m else -1


@nb.njit(forceinline=True)
def random_mark_nb(rng, view):
    m = others_alive_nb(view)
    last = view.last_mark
    if last >= 0:
        m &= ~(U1 << np.uint64(last))
        reason_nb(view.why, Why.AVOID, last)
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(m))
    return choose_bit_nb(rng, m) if m else -1


@nb.njit(forceinline=True)
def random_subset_nb(rng, avail, k):
    m = np.uint64(0)
    for _ in range(k):
        if avail == 0:
            break
        c = choose_bit_nb(rng, avail)
        avail &= ~(U1 << np.uint64(c))
        m |= U1 << np.uint64(c)
    return m


@nb.njit(forceinline=True)
def random_protect_nb(rng, view):
    """A uniformly random set of protect_count others, never last night's set (Q-1)."""
    avail = others_alive_nb(view)
    k = min(view.rules.table[view.my_role, RF.PROTECT], popcount_nb(avail))
    last = view.last_protect
    if k >= 2 and k == popcount_nb(avail) and avail == last:
        k -= 1  # the only full set is last night's: protect one fewer
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(avail))
    while True:
        m = random_subset_nb(rng, avail, k)
        if m != last or k < 2:  # the rule forbids repeating a set of two or more
            return m


@nb.njit(forceinline=True)
def random_witch_nb(rng, view):
    """Pass, eliminate a living other or revive an out other, uniformly over these options."""
    me = view.me
    n = view.n
    full = (U1 << np.uint64(n)) - U1
    alive = others_alive_nb(view)
    dead = full & ~view.alive & ~(U1 << np.uint64(me))
    k = randint_nb(rng, 1 + popcount_nb(alive) + popcount_nb(dead))
    reason_nb(view.why, Why.RANDOM, -1, -1, 1 + popcount_nb(alive) + popcount_nb(dead))  # options, pass included
    if k == 0:
        return WITCH_PASS * WITCH_BASE
    k -= 1
    if k < popcount_nb(alive):
        m = alive
        for _ in range(k):
            m &= m - U1
        return WITCH_ELIMINATE * WITCH_BASE + lowest_nb(m)
    k -= popcount_nb(alive)
    m = dead
    for _ in range(k):
        m &= m - U1
    return WITCH_REVIVE * WITCH_BASE + lowest_nb(m)


@nb.njit(forceinline=True)
def random_attack_nb(rng, view, cands):
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cands))
    return choose_bit_nb(rng, cands)


@nb.njit(forceinline=True)
def silent_nb(rng, view):
    return -1


@nb.njit(forceinline=True)
def knob_nb(view, slot, default):
    """The side's value of knob ``slot`` (NaN or absent: its declared default)."""
    if slot < view.knobs.shape[0]:
        v = view.knobs[slot]
        if v == v:
            return v
    return default


@nb.njit(forceinline=True)
def chance_nb(rng, p):
    """True with probability p; draws only when 0 < p < 1 (so p = 1 replays p-free play)."""
    if p >= 1.0:
        return True
    if p <= 0.0:
        return False
    return uniform_nb(rng) < p


@nb.njit(forceinline=True)
def known_nb(view, read):
    """Participants the acting one knows to read ``read`` (its own row of ``know``)."""
    m = np.uint64(0)
    for t in range(view.n):
        if view.know[t] == read:
            m |= U1 << np.uint64(t)
    return m
