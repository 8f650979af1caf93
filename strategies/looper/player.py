"""Built-in Looper player strategies: the honest ones see only a PlayerView (no hidden
state); ``oracle_key`` is the labelled exception (it reads the judge's key person)."""
import numba as nb
import numpy as np

from sim.core.bits import popcount_nb
from sim.core.reasons import explaining_nb, reason_nb
from sim.core.rng import choose_bit_nb, randint_nb
from sim.looper.enums import I, Why
from strategies.looper.common import protect_knobs_nb, protect_nb

U1 = np.uint64(1)


@nb.njit
def random_move_nb(rng, view, own, out):
    """Up to the daily limit of distinct living characters, each to a uniform location
    (knob ``max_moves``, ``view.knobs[0]``: at most that many a day)."""
    L = view.rules.info[I.N_LOC]
    avail = view.alive
    k = 0
    cap = view.rules.info[I.MOVES]
    if view.knobs.shape[0] >= 1 and view.knobs[0] >= 1.0:  # 0: a plug-in without the knob
        cap = min(cap, np.int64(view.knobs[0]))
    while k < cap and avail:
        c = choose_bit_nb(rng, avail)
        avail &= ~(U1 << np.uint64(c))
        out[k, 0] = c
        out[k, 1] = randint_nb(rng, L)
        k += 1
    return k


@nb.njit
def random_name_nb(rng, view, own):
    """R-2 variant: name a uniformly random living table character."""
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(view.alive & ~U1))
    return choose_bit_nb(rng, view.alive & ~U1)


@nb.njit
def cautious_move_nb(rng, view, own, out):
    """Protect the protagonist, then any living character (every one may be the key person)."""
    return protect_knobs_nb(rng, view, own, view.alive, out)


@nb.njit
def _candidates_nb(view, mem):
    """Key-person candidates consistent with the announcements of finished loops.

    mem[0]: candidate mask + 1 (0 = not started); mem[1]: loops already digested.
    """
    R = view.rules
    n = R.info[I.N_CHARS]
    days = R.info[I.DAYS]
    if mem[0] == 0:
        full = np.uint64(0)
        for i in range(1, n):
            full |= U1 << np.uint64(i)
        mem[0] = np.int64(full) + 1
    cand = np.uint64(mem[0] - 1)
    loop = view.loop
    for lp in range(mem[1], loop):
        end = view.loop_end[lp]
        last = end - 1 if 1 <= end <= days else days
        for d in range(last):  # died without ending the loop: not the key person
            for c in range(1, n):
                if view.ann[lp, d, c] >= 0:
                    cand &= ~(U1 << np.uint64(c))
        if 1 <= end <= days and view.ann[lp, end - 1, 0] < 0:
            # the protagonist lived, so the key person died that day
            final = np.uint64(0)
            for c in range(1, n):
                if view.ann[lp, end - 1, c] >= 0:
                    final |= U1 << np.uint64(c)
            cand &= final
        elif end == days + 1 and view.named[lp] >= 0:
            cand &= ~(U1 << np.uint64(view.named[lp]))
    # the current loop's earlier deaths are not the key person either
    for d in range(view.day - 1):
        for c in range(1, n):
            if view.ann[loop, d, c] >= 0:
                cand &= ~(U1 << np.uint64(c))
    mem[1] = loop
    mem[0] = np.int64(cand) + 1
    return cand


@nb.njit
def deducer_move_nb(rng, view, own, out):
    """Protect the protagonist and the key-person candidates left by earlier loops (its
    reason, in a trace: those candidates, then the protection's)."""
    cand = _candidates_nb(view, own.mem)
    if explaining_nb(view.why):
        c = cand & view.alive
        for i in range(64):
            if (c >> np.uint64(i)) & U1:
                reason_nb(view.why, Why.CANDIDATE, i, -1, 1.0 / popcount_nb(c))
    return protect_knobs_nb(rng, view, own, U1 | (cand & view.alive), out)


@nb.njit
def deducer_name_nb(rng, view, own):
    cand = _candidates_nb(view, own.mem) & view.alive
    if cand:
        if explaining_nb(view.why):
            for i in range(64):
                if (cand >> np.uint64(i)) & U1:
                    reason_nb(view.why, Why.CANDIDATE, i, -1, 1.0 / popcount_nb(cand))
        return choose_bit_nb(rng, cand)
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(view.alive & ~U1))
    return choose_bit_nb(rng, view.alive & ~U1)


@nb.njit
def oracle_key_move_nb(rng, view, own, out):
    """ORACLE: protect the protagonist and the true key person (the judge's ``view.key``)."""
    return protect_nb(rng, view, own, U1 | (U1 << np.uint64(view.key)), out)


@nb.njit
def oracle_key_name_nb(rng, view, own):
    """ORACLE: name the true key person."""
    reason_nb(view.why, Why.TOLD, view.key)
    return view.key
