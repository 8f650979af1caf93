"""Numba kernels of the Looper: one day (R-7) and whole games.

Conventions: characters are bit positions (bit 0 is the protagonist); ``pos`` is an
int64 location per character; sets of characters (alive, occupancy per location,
attribute classes, candidates) are uint64 masks. A day is split in two kernels
around the scriptwriter's choices, so the same code serves the numba game loop (which
calls the scriptwriter strategy) and the Python API (which calls a Python ``choose``):

    n_req = day_start_nb(pos, alive, R, B, log)      # stress, movement, fixed deaths, requests
    B.req_victim[r] = chosen victim for r < n_req
    dead = day_finish_nb(pos, alive, n_req, R, B, log)  # chosen deaths, announcements

``log`` is an event log (:mod:`sim.core.trace`) or None: the batch passes None, and every
``emit_nb`` then compiles to nothing; a trace passes a log and gets the day's events.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.guard import guarded_copy_nb
from sim.core.nrt import unmanaged_nb
from sim.core.trace import emit_nb
from sim.looper.enums import Ev, F, I, Kind, M
from sim.looper.roster import RosterNB, effect_masks_nb

U0 = np.uint64(0)
U1 = np.uint64(1)

# Scratch buffers of one day; allocate once per chunk with :func:`day_buffers_nb`.
DayBuf = namedtuple(
    "DayBuf",
    "stress raw givers pos2 killer ann occ occ2 dest misrep fire req_actor req_eff req_cand "
    "req_victim attrs masks st kact kat ek ed",
)
# kat / ek: the effects of each kind (ek[kat[k]:kat[k + 1]], in effect order) and ed: the
# death phase's effects in effect order, so that each phase visits its own effects only
_DEATH_KINDS = (Kind.DIE_IF_WITH, Kind.DIE_IF_STRESSED, Kind.DIE_AT, Kind.PAIR_KILL, Kind.KILL_STRESSED_OTHERS,
                Kind.CHOOSE_KILL_IF_STRESSED, Kind.BULLY, Kind.LONE_PAIR_KILL, Kind.KILL_GIVER_IF_STRESSED,
                Kind.GRANT_KILL_IF_STRESSED, Kind.KILL_ATTR)
N_KINDS = len(Kind)
# st slots
S_DEAD, S_NEG, S_PROT, S_ALIVE = 0, 1, 2, 3


@nb.njit
def day_buffers_nb(R):
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    ne = R.effects.shape[0]
    nr = ne + n
    return DayBuf(
        np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.uint64),
        np.zeros(n, np.int64), np.full(n, -1, np.int64), np.full(n, -1, np.int64),
        np.zeros(L, np.uint64), np.zeros(L, np.uint64), np.zeros(L, np.int64),
        np.zeros(L, np.uint8), np.zeros(ne, np.uint8), np.zeros(nr, np.int64),
        np.zeros(nr, np.int64), np.zeros(nr, np.uint64), np.zeros(nr, np.int64),
        R.char_attrs.copy(), R.masks.copy(), np.zeros(4, np.uint64),
        np.full(n, -1, np.int64), *_kind_index_nb(R.effects),
    )


@nb.njit
def _kind_index_nb(eff):
    ne = eff.shape[0]
    kat = np.zeros(N_KINDS + 1, np.int64)
    for e in range(ne):
        kat[eff[e, F.KIND] + 1] += 1
    for k in range(N_KINDS):
        kat[k + 1] += kat[k]
    ek = np.empty(ne, np.int64)
    ed = np.empty(ne, np.int64)
    fill = kat[:N_KINDS].copy()
    nd = 0
    for e in range(ne):
        k = eff[e, F.KIND]
        ek[fill[k]] = e
        fill[k] += 1
        for dk in _DEATH_KINDS:
            if k == dk:
                ed[nd] = e
                nd += 1
    return kat, ek, ed[:nd].copy()


@nb.njit(inline="always")
def unmanaged_buffers_nb(B):
    """The same day buffers as refcount-free views (:mod:`sim.core.nrt`); ``B`` must outlive them."""
    return DayBuf(unmanaged_nb(B.stress), unmanaged_nb(B.raw), unmanaged_nb(B.givers), unmanaged_nb(B.pos2),
                  unmanaged_nb(B.killer), unmanaged_nb(B.ann), unmanaged_nb(B.occ), unmanaged_nb(B.occ2),
                  unmanaged_nb(B.dest), unmanaged_nb(B.misrep), unmanaged_nb(B.fire), unmanaged_nb(B.req_actor),
                  unmanaged_nb(B.req_eff), unmanaged_nb(B.req_cand), unmanaged_nb(B.req_victim),
                  unmanaged_nb(B.attrs), unmanaged_nb(B.masks), unmanaged_nb(B.st), unmanaged_nb(B.kact),
                  unmanaged_nb(B.kat), unmanaged_nb(B.ek), unmanaged_nb(B.ed))


@nb.njit
def guarded_day_buffers_nb(B):
    """Copies of day buffers, each array in guarded memory of its own (sim.core.guard): a
    player's what-if buffer, which its strategy indexes."""
    return DayBuf(guarded_copy_nb(B.stress), guarded_copy_nb(B.raw), guarded_copy_nb(B.givers),
                  guarded_copy_nb(B.pos2), guarded_copy_nb(B.killer), guarded_copy_nb(B.ann), guarded_copy_nb(B.occ),
                  guarded_copy_nb(B.occ2), guarded_copy_nb(B.dest), guarded_copy_nb(B.misrep), guarded_copy_nb(B.fire),
                  guarded_copy_nb(B.req_actor), guarded_copy_nb(B.req_eff), guarded_copy_nb(B.req_cand),
                  guarded_copy_nb(B.req_victim), guarded_copy_nb(B.attrs), guarded_copy_nb(B.masks),
                  guarded_copy_nb(B.st), guarded_copy_nb(B.kact), guarded_copy_nb(B.kat), guarded_copy_nb(B.ek),
                  guarded_copy_nb(B.ed))


@nb.njit
def guarded_roster_nb(R):
    """The roster's arrays copied into guarded memory (strategies read the rules)."""
    return RosterNB(guarded_copy_nb(R.info), guarded_copy_nb(R.home), guarded_copy_nb(R.char_attrs),
                    guarded_copy_nb(R.next_loc), guarded_copy_nb(R.effects), guarded_copy_nb(R.masks),
                    guarded_copy_nb(R.guest_day))


@nb.njit(inline="always")
def unmanaged_roster_nb(R):
    """The roster's arrays as refcount-free views; the caller's ``R`` outlives them."""
    return RosterNB(unmanaged_nb(R.info), unmanaged_nb(R.home), unmanaged_nb(R.char_attrs),
                    unmanaged_nb(R.next_loc), unmanaged_nb(R.effects), unmanaged_nb(R.masks),
                    unmanaged_nb(R.guest_day))


@nb.njit
def ev_nb(log, code, a, b, c, d, e, f, g):
    """:func:`sim.core.trace.emit_nb` behind a plain call. Its ``inline="always"`` overload,
    inlined straight into the game kernel, miscompiled it (a store to ``B.req_victim`` read
    back as 0 on the next line); one call level away it is right, and with ``log`` None
    this is an empty function LLVM drops."""
    emit_nb(log, code, a, b, c, d, e, f, g)


@nb.njit(inline="always")
def _bit_nb(i):
    return U1 << np.uint64(i)


@nb.njit
def _add_stress_nb(e, a, src_loc, R, B, masks, log):
    """Apply stress effect e of actor a standing in src_loc (R-8, R-9)."""
    l = B.dest[src_loc]
    t = B.occ[l] & masks[e, M.A] & ~masks[e, M.NONE]
    if R.effects[e, F.INCLUDE_SELF] == 0:
        t &= ~_bit_nb(a)
    amt = R.effects[e, F.AMOUNT]
    ga = _bit_nb(a)
    while t:
        i = lowest_nb(t)
        t &= t - U1
        B.raw[i] += amt
        ev_nb(log, Ev.STRESS_SRC, i, a, e, amt, 0, 0, 0)
        if amt > 0:
            B.givers[i] |= ga


@nb.njit
def _kill_nb(mask, e, B):
    """Mark ``mask`` dead by effect e (first rule in effect order keeps the credit)."""
    m = mask & ~B.st[S_PROT]
    new = m & ~B.st[S_DEAD]
    while new:
        i = lowest_nb(new)
        new &= new - U1
        B.killer[i] = e
    B.st[S_DEAD] |= m


@nb.njit
def day_start_nb(pos, alive, R, B, log):
    """Stress, movement and every death rule that needs no choice.

    Returns the number of "one character dies" requests written to
    ``B.req_actor / req_eff / req_cand``; the caller fills ``B.req_victim``.
    """
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    eff = R.effects
    ne = eff.shape[0]
    nxt = R.next_loc
    B.st[S_ALIVE] = alive
    B.st[S_DEAD] = U0
    B.st[S_PROT] = U0
    for l in range(L):
        B.occ[l] = U0
        B.dest[l] = l
        B.misrep[l] = 0
    for i in range(n):
        B.raw[i] = 0
        B.givers[i] = U0
        B.killer[i] = -1
        B.kact[i] = -1  # the acting character of a chosen death (the agitated one, P-3); -1: the rule's owner
        B.ann[i] = -1
        if alive & _bit_nb(i):
            B.occ[pos[i]] |= _bit_nb(i)

    masks = R.masks
    # Negation is fixed from the morning positions and lasts the whole day (P-1).
    neg = U0
    for j in range(B.kat[Kind.NEGATE], B.kat[Kind.NEGATE + 1]):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        if alive & _bit_nb(a):
            neg |= B.occ[pos[a]] & masks[e, M.A]
    B.st[S_NEG] = neg
    if neg:
        ev_nb(log, Ev.NEGATED, np.int64(neg), 0, 0, 0, 0, 0, 0)
    live = alive & ~neg  # characters whose effects work today

    if R.info[I.HAS_GRANT]:
        for i in range(n):
            B.attrs[i] = R.char_attrs[i]
        for j in range(B.kat[Kind.GRANT_ATTR], B.kat[Kind.GRANT_ATTR + 1]):
            e = B.ek[j]
            a = eff[e, F.ACTOR]
            if live & _bit_nb(a):
                t = B.occ[pos[a]] & masks[e, M.A] & ~_bit_nb(a)
                while t:
                    i = lowest_nb(t)
                    t &= t - U1
                    B.attrs[i] |= np.uint64(eff[e, F.ATTR])
        effect_masks_nb(eff, B.attrs, B.masks)
        masks = B.masks

    # ---- 1. stress phase ----
    for j in range(B.kat[Kind.REDIRECT_STRESS], B.kat[Kind.REDIRECT_STRESS + 1]):
        a = eff[B.ek[j], F.ACTOR]
        if live & _bit_nb(a):
            B.dest[pos[a]] = nxt[pos[a]]
    for j in range(B.kat[Kind.STRESS], B.kat[Kind.STRESS + 1]):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        if live & _bit_nb(a):
            _add_stress_nb(e, a, pos[a], R, B, masks, log)
    # Conditional effects all read the unconditional snapshot.
    c0, c1 = B.kat[Kind.STRESS_IF_STRESSED], B.kat[Kind.STRESS_IF_STRESSED + 1]
    for j in range(c0, c1):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        B.fire[e] = 1 if live & _bit_nb(a) and max(B.raw[a], 0) >= eff[e, F.THRESHOLD] else 0
    for j in range(c0, c1):
        e = B.ek[j]
        if B.fire[e]:
            a = eff[e, F.ACTOR]
            _add_stress_nb(e, a, pos[a], R, B, masks, log)
    for i in range(n):
        B.stress[i] = max(B.raw[i], 0) if alive & _bit_nb(i) else 0
        if B.raw[i] != 0 or B.givers[i] != U0:
            ev_nb(log, Ev.STRESS, i, B.stress[i], B.raw[i], 0, 0, 0, 0)

    # ---- 2. movement phase ----
    for i in range(n):
        B.pos2[i] = pos[i]
    for j in range(B.kat[Kind.MOVE_IF_STRESSED], B.kat[Kind.MOVE_IF_STRESSED + 1]):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        if live & _bit_nb(a) and B.stress[a] >= eff[e, F.THRESHOLD]:
            B.pos2[a] = nxt[pos[a]]
            ev_nb(log, Ev.WALK, a, pos[a], B.pos2[a], e, 0, 0, 0)
    for l in range(L):
        B.occ2[l] = U0
    for i in range(n):
        if alive & _bit_nb(i):
            B.occ2[B.pos2[i]] |= _bit_nb(i)

    # ---- 3. death phase (one snapshot: pos2, stress) ----
    prot = U0
    for j in range(B.kat[Kind.PROTECT], B.kat[Kind.PROTECT + 1]):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        if live & _bit_nb(a):
            m = B.occ2[B.pos2[a]]
            if eff[e, F.INCLUDE_SELF] == 0:
                m &= ~_bit_nb(a)
            prot |= m
    for j in range(B.kat[Kind.MISREPORT_DEATHS], B.kat[Kind.MISREPORT_DEATHS + 1]):
        a = eff[B.ek[j], F.ACTOR]
        if live & _bit_nb(a):
            B.misrep[B.pos2[a]] = 1
    B.st[S_PROT] = prot
    if prot:
        ev_nb(log, Ev.PROTECTED, np.int64(prot), 0, 0, 0, 0, 0, 0)

    nreq = 0
    for e in B.ed:
        k = eff[e, F.KIND]
        a = eff[e, F.ACTOR]
        ba = _bit_nb(a)
        if not (live & ba):
            continue
        la = B.pos2[a]
        here = B.occ2[la]
        s = B.stress[a]
        thr = eff[e, F.THRESHOLD]
        if k == Kind.DIE_IF_WITH:
            c = eff[e, F.CHAR1]
            if here & _bit_nb(c):
                _kill_nb(ba, e, B)
        elif k == Kind.DIE_IF_STRESSED:
            if s >= thr:
                _kill_nb(ba, e, B)
        elif k == Kind.DIE_AT:
            if la == eff[e, F.LOCATION]:
                _kill_nb(ba, e, B)
        elif k == Kind.PAIR_KILL:
            if (eff[e, F.LOCATION] < 0 or la == eff[e, F.LOCATION]) and popcount_nb(here) == 2:
                other = here & ~ba
                if other & masks[e, M.A]:
                    _kill_nb(other, e, B)
        elif k == Kind.KILL_STRESSED_OTHERS:
            t = here & ~ba
            while t:
                i = lowest_nb(t)
                t &= t - U1
                if B.stress[i] >= thr:
                    _kill_nb(_bit_nb(i), e, B)
        elif k == Kind.CHOOSE_KILL_IF_STRESSED:
            if s >= thr:
                cand = here & masks[e, M.A] & ~ba & ~prot
                if cand:
                    B.req_actor[nreq] = a
                    B.req_eff[nreq] = e
                    B.req_cand[nreq] = cand
                    nreq += 1
        elif k == Kind.BULLY:
            loc = eff[e, F.LOCATION]
            if la == loc and (here & ~masks[e, M.B]) == 0:
                v = eff[e, F.CHAR1]
                fb = eff[e, F.CHAR2]
                if here & _bit_nb(v):
                    _kill_nb(_bit_nb(v), e, B)
                elif fb >= 0 and (here & live & _bit_nb(fb)):
                    _kill_nb(_bit_nb(fb), e, B)
        elif k == Kind.LONE_PAIR_KILL:
            for l in range(L):
                m = B.occ2[l]
                if popcount_nb(m) == 2:
                    x = lowest_nb(m)
                    y = lowest_nb(m & ~_bit_nb(x))
                    bx = _bit_nb(x)
                    by = _bit_nb(y)
                    # each member that qualifies as the victim with the other as partner dies.
                    if x != a and (bx & masks[e, M.A]) and (by & masks[e, M.B]):
                        _kill_nb(bx, e, B)
                    if y != a and (by & masks[e, M.A]) and (bx & masks[e, M.B]):
                        _kill_nb(by, e, B)
        elif k == Kind.KILL_GIVER_IF_STRESSED:
            if s >= thr:
                cand = B.givers[a] & alive & ~ba & ~prot
                if cand:
                    B.req_actor[nreq] = a
                    B.req_eff[nreq] = e
                    B.req_cand[nreq] = cand
                    nreq += 1
        elif k == Kind.GRANT_KILL_IF_STRESSED:
            # P-3; P-18: a negated character gains the kill only under the variant
            t = here & ~ba & (alive if R.info[I.NEG_AGITATION] else live)
            while t:
                x = lowest_nb(t)
                t &= t - U1
                if B.stress[x] >= thr:
                    cand = here & ~_bit_nb(x) & ~prot
                    if cand:
                        B.req_actor[nreq] = x
                        B.req_eff[nreq] = e
                        B.req_cand[nreq] = cand
                        nreq += 1
        elif k == Kind.KILL_ATTR:
            _kill_nb(here & masks[e, M.A] & ~ba, e, B)
    return nreq


@nb.njit
def day_finish_nb(pos, alive, nreq, R, B, log):
    """Apply the chosen deaths, the slaughter rule and the announcements; return the dead mask."""
    eff = R.effects
    for r in range(nreq):
        v = B.req_victim[r]
        if v >= 0:
            if not ((B.st[S_DEAD] | B.st[S_PROT]) & _bit_nb(v)):
                B.kact[v] = B.req_actor[r]  # the credit's rule is this request's (P-11)
            _kill_nb(_bit_nb(v), B.req_eff[r], B)
    live = alive & ~B.st[S_NEG]
    trigger = B.st[S_DEAD]
    for j in range(B.kat[Kind.KILL_ALL_ON_DEATH], B.kat[Kind.KILL_ALL_ON_DEATH + 1]):
        e = B.ek[j]
        a = eff[e, F.ACTOR]
        if live & _bit_nb(a):
            others = B.occ2[B.pos2[a]] & ~_bit_nb(a)
            if trigger & others:
                _kill_nb(others, e, B)
    dead = B.st[S_DEAD]
    t = dead
    while t:
        i = lowest_nb(t)
        t &= t - U1
        l = B.pos2[i]
        B.ann[i] = R.next_loc[l] if B.misrep[l] else l
        ev_nb(log, Ev.DEATH, i, B.killer[i], eff[B.killer[i], F.ACTOR], l, B.kact[i], 0, 0)
    return dead
