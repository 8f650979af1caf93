"""Helpers for Looper strategies: what-if days on a believed layout."""
import numba as nb
import numpy as np

from sim.core.bits import lowest
from sim.core.rng import randint
from sim.looper.enums import I
from sim.looper.nb import S_DEAD, day_start_nb

U1 = np.uint64(1)


@nb.njit(cache=True)
def at_risk(pos, alive, rules, buf):
    """Characters that a day on ``pos`` would kill or could kill (any choice candidate)."""
    nreq = day_start_nb(pos, alive, rules, buf)
    risk = buf.st[S_DEAD]
    for r in range(nreq):
        risk |= buf.req_cand[r]
    return risk


@nb.njit(cache=True)
def believed_layout(view, pos):
    """The layout the player can see: the initial table plus its protagonist."""
    R = view.rules
    for i in range(R.info[I.N_CHARS]):
        pos[i] = R.home[i]


@nb.njit(cache=True)
def protect(rng, view, protect_mask, out):
    """Move protected characters out of places the player can tell are deadly.

    Greedy, protagonist first (bit 0 is lowest), then the others in random order; a
    move is kept only if it saves the character without putting more protected
    characters at risk. Returns the number of moves written to ``out``.
    """
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    mpd = R.info[I.MOVES]
    alive = view.known[0]
    pos = np.empty(n, np.int64)
    believed_layout(view, pos)
    risk = at_risk(pos, alive, R, view.buf) & protect_mask & alive
    k = 0
    tried = np.uint64(0)
    while k < mpd and (risk & ~tried):
        todo = risk & ~tried
        if todo & U1:
            c = 0
        else:
            # a random protected character at risk
            cnt = 0
            t = todo
            while t:
                cnt += 1
                t &= t - U1
            j = randint(rng, cnt)
            t = todo
            for _ in range(j):
                t &= t - U1
            c = lowest(t)
        bc = U1 << np.uint64(c)
        tried |= bc
        old = pos[c]
        n_risk = 0
        t = risk
        while t:
            n_risk += 1
            t &= t - U1
        off = randint(rng, L)
        for s in range(L):
            l = (off + s) % L
            if l == old:
                continue
            pos[c] = l
            r2 = at_risk(pos, alive, R, view.buf) & protect_mask & alive
            cnt2 = 0
            t = r2
            while t:
                cnt2 += 1
                t &= t - U1
            if not (r2 & bc) and cnt2 < n_risk:
                out[k, 0] = c
                out[k, 1] = l
                k += 1
                risk = r2
                break
            pos[c] = old
    return k
