"""The filter's search for a setup consistent with everything announced (issue 41), used
by :func:`strategies.looper.bayes.update_nb` when no particle is left.

A setup row splits into parts that shape different days: the key person shapes none (it
is weighed by the exact key mask; under ``precedence = player_for_key_person`` it is kept
from the row), the permanent moves shape every day, and guest move ``k`` only the days of
its guest day. So, given the permanent moves, each guest move is solved **exactly**, by
trying every value on its own days (:func:`solve_guests_nb`). The permanent moves are
searched in two steps:

1. **Descent** (:func:`descend_nb`): from a row with the fewest mismatches, every change of
   one permanent move (every character, or none, to every place) is tried, with the guests
   re-solved after each step, until the row fits or no single change lowers its count.
   This contains every proposal the announced deaths suggest (the victim, a killer or Turf
   King moved to the death's place or the one before it) and the moves away from it.
2. **Enumeration** (:func:`enumerate_nb`): when the descent is stuck, every set of
   permanent moves the rules allow (distinct characters, P-15, P-16), each checked first on
   the days without a guest move and then with its guests solved. It is complete: it finds
   a consistent setup whenever one exists (the true one does), and says so when none does
   (it returns False; the filter then counts mismatches and the decision is reported as
   taken with no consistent world). About 230 000 sets for the base rules, most ruled out
   before any day is run: every announced death must be where its victim can stand
   (:func:`strategies.looper.model.placeable_nb`; on a guest day the guest move may place
   one victim); a set that fits the days without a guest move then has its guests tested
   for zero mismatches only (:func:`guests_fit_nb`), a guest of a day with deaths only
   among the moves of the one victim it must place when there is one
   (:func:`strategies.looper.model.guest_need_nb`). On the collapse that cost bayes most
   over the random scriptwriter's first 10 000 games (seed 1, game 9 478) these two
   checks made the enumeration 12 times faster. It runs at most one pass
   a game: a later call resumes where the last one found its setup (sets it passed over
   had fewer announcements to fit then, and fit none the better now), and once it has run
   the filter resumes it instead of descending again. On a setup of the adversarial pool
   against bayes (issue 41) the descents failed and the enumeration started over day after
   day, up to a second a game.
"""
import numba as nb
import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb
from sim.looper.enums import I
from strategies.looper.model import NO_GUEST, _history_nb, _valid_nb, guest_need_nb, placeable_nb

BIG = 1 << 30
U1 = np.uint64(1)


@nb.njit
def fit_key_nb(rng, R, h, keymask):
    """Whether row ``h`` is one the rules allow with some key person of ``keymask``; if so
    ``h[0]`` is one (kept when it fits). The search treats the key as free: it shapes no
    day (the exact mask weighs it), but under ``rules.key_person_movable = false`` (P-16)
    it must be a character the row does not move."""
    if (keymask >> np.uint64(h[0])) & U1 and _valid_nb(R, h):
        return True
    free = keymask
    if R.info[I.KEY_MOVABLE] == 0:
        for s in range(1, R.info[I.N_PERM] + R.info[I.N_GUEST] + 1):
            if h[2 * s - 1] > 0:
                free &= ~(U1 << np.uint64(h[2 * s - 1]))
    if free == np.uint64(0):
        return False
    old = h[0]
    h[0] = choose_bit_nb(rng, free)
    if _valid_nb(R, h):
        return True
    h[0] = old
    return False


@nb.njit
def _set_slot(h, s, v, L):
    """Move slot ``s`` (1-based: permanent then guest slots) of row ``h`` to value ``v``:
    0 unused, else character ``1 + (v - 1) // L`` to place ``(v - 1) % L``."""
    if v == 0:
        h[2 * s - 1] = -1
        h[2 * s] = 0
    else:
        h[2 * s - 1] = 1 + (v - 1) // L
        h[2 * s] = (v - 1) % L


@nb.njit
def _slot_value(h, s, L):
    c = h[2 * s - 1]
    return 0 if c < 0 else 1 + (c - 1) * L + h[2 * s]


@nb.njit
def solve_guests_nb(rng, view, h, Ds, buf, pos, keymask):
    """Each guest move of ``h`` set, given its permanent moves, to a value with no mismatch
    on its own days when one exists (tried from a random value on, so that the solutions
    vary), else to one with the fewest; returns the mismatches left on the guest days."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    V = 1 + (n - 1) * L
    left = 0
    for k in range(R.info[I.N_GUEST]):
        s = nperm + 1 + k
        cur = _history_nb(view, h, Ds, buf, pos, keymask, BIG, k)
        if cur == 0:
            continue
        best = cur
        bv = _slot_value(h, s, L)
        off = randint_nb(rng, V)
        for t in range(V):
            v = (off + t) % V
            _set_slot(h, s, v, L)
            if not fit_key_nb(rng, R, h, keymask):
                continue
            sc = _history_nb(view, h, Ds, buf, pos, keymask, best - 1, k)
            if sc < best:
                best = sc
                bv = v
                if sc == 0:
                    break
        _set_slot(h, s, bv, L)
        fit_key_nb(rng, R, h, keymask)  # a key another value's check chose may be this move's character
        left += best
    return left


@nb.njit
def descend_nb(rng, view, h, tmp, Ds, buf, pos, keymask, count, ccur):
    """Lower ``h``'s mismatch ``count`` (over every day) by single changes of a permanent
    move (first improvement, from a random slot and value), re-solving the guest moves
    after each, and by :func:`_converge` when none helps; returns the count it reaches (0:
    consistent). ``ccur`` (int64[1], zero at a repair's start) is the converging step's
    cursor, shared by the repair's descents (see there)."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    S = h.shape[0]
    V = 1 + (n - 1) * L
    solve_guests_nb(rng, view, h, Ds, buf, pos, keymask)
    count = _history_nb(view, h, Ds, buf, pos, keymask, BIG, -1)
    while count > 0 and nperm > 0:
        improved = False
        j0 = randint_nb(rng, nperm)
        off = randint_nb(rng, V)
        for jj in range(nperm):
            s = 1 + (j0 + jj) % nperm
            for t in range(V):
                for j in range(S):
                    tmp[j] = h[j]
                _set_slot(tmp, s, (off + t) % V, L)
                if tmp[2 * s - 1] == h[2 * s - 1] and tmp[2 * s] == h[2 * s]:
                    continue
                if not fit_key_nb(rng, R, tmp, keymask):
                    continue
                sc = _history_nb(view, tmp, Ds, buf, pos, keymask, count - 1, -1)
                if sc < count:
                    for j in range(S):
                        h[j] = tmp[j]
                    solve_guests_nb(rng, view, h, Ds, buf, pos, keymask)
                    count = _history_nb(view, h, Ds, buf, pos, keymask, BIG, -1)
                    improved = True
                    break
            if improved:
                break
        if not improved:
            improved, count = _converge(rng, view, h, tmp, Ds, buf, pos, keymask, count, ccur)
        if not improved:
            break
    return count


@nb.njit
def _converge(rng, view, h, tmp, Ds, buf, pos, keymask, count, ccur):
    """The descent's step when no single change helps: the permanent moves remade around one
    place — where a death of the latest day with deaths happened (its announced place, or the
    one before it: Turf King's shift) — from the moves that touch it: a character sent
    there (movers converging on the victim), or one standing there at home sent elsewhere (a
    protector leaving), or none; every set of up to three of them, its guests then solved.
    First improvement; returns (improved, count).

    The sets it tries depend on the announcements only, not on ``h`` (every permanent move
    is remade, the key re-fitted), and a set it passed over had at least as many mismatches
    as a row the repair had already reached (counts only fall within a descent). So within
    one repair a later call resumes after the set the last one returned (``ccur[0]``, the
    sets visited so far), in this descent or the next: on a setup of bayes's adversarial
    pool (issue 41) the three descents re-ran the whole step after every stall, 1.6 - 6 s
    each time."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    if nperm < 1 or nperm > 3:
        return False, count
    lp = -1
    d = -1
    for q in range(view.loop + 1):
        for e in range(1, Ds.shape[1]):
            if Ds[q, e] != np.uint64(0):
                lp, d = q, e
    if lp < 0:
        return False, count
    for j in range(h.shape[0]):
        tmp[j] = h[j]
    k = 0  # sets visited, in a fixed order: those before ccur[0] were tried by an earlier call
    vc = np.empty(n * L + 1, np.int64)
    vl = np.empty(n * L + 1, np.int64)
    for v in range(n):
        a = view.ann[lp, d - 1, v]
        if a < 0:
            continue
        for side in range(2):
            p = a
            if side == 1:
                for x in range(L):
                    if R.next_loc[x] == a:
                        p = x
                if p == a:
                    continue
            # the moves that touch p: none (index 0), into p, out of p
            m = 1
            vc[0] = -1
            vl[0] = 0
            for c in range(1, n):
                if R.home[c] != p:
                    vc[m] = c
                    vl[m] = p
                    m += 1
            for c in range(1, n):
                if R.home[c] == p:
                    for l in range(L):
                        if l != p:
                            vc[m] = c
                            vl[m] = l
                            m += 1
            for i1 in range(1, m):
                for i2 in range(i1 + 1, m) if nperm >= 2 else range(0, 1):
                    if i2 > 0 and vc[i2] == vc[i1]:
                        continue
                    for i3 in range(i2 + 1, m) if nperm >= 3 and i2 > 0 else range(0, 1):
                        if i3 > 0 and (vc[i3] == vc[i1] or vc[i3] == vc[i2]):
                            continue
                        k += 1
                        if k <= ccur[0]:
                            continue
                        tmp[1], tmp[2] = vc[i1], vl[i1]
                        if nperm >= 2:
                            tmp[3], tmp[4] = vc[i2], vl[i2]
                        if nperm >= 3:
                            tmp[5], tmp[6] = vc[i3], vl[i3]
                        if not fit_key_nb(rng, R, tmp, keymask):
                            continue
                        if _history_nb(view, tmp, Ds, buf, pos, keymask, 0, NO_GUEST) != 0:
                            continue
                        if solve_guests_nb(rng, view, tmp, Ds, buf, pos, keymask) >= count:
                            continue
                        for j in range(h.shape[0]):
                            h[j] = tmp[j]
                        ccur[0] = k
                        return True, _history_nb(view, h, Ds, buf, pos, keymask, BIG, -1)
    ccur[0] = k
    return False, count


@nb.njit
def guests_fit_nb(rng, view, h, Ds, buf, pos, keymask):
    """Whether every guest move of ``h`` has a value with no mismatch on its own days, given
    the permanent moves (each set to one when so): :func:`solve_guests_nb` asking only for
    zero — each value checked up to its first mismatch, the guests whose days saw deaths
    first, stopping at the first guest that none fits (the enumeration's inner test)."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    ng = R.info[I.N_GUEST]
    V = 1 + (n - 1) * L
    for rnd in range(2):  # the guests with deaths on their days, then the others
        for k in range(ng):
            dead = False
            for lp in range(view.loop + 1):
                for d in range(1, np.int64(Ds[lp, 0]) + 1):
                    if R.guest_day[d] == k and Ds[lp, d] != np.uint64(0):
                        dead = True
            if dead != (rnd == 0):
                continue
            if _history_nb(view, h, Ds, buf, pos, keymask, 0, k) == 0:
                continue
            s = nperm + 1 + k
            need = guest_need_nb(view, h, k, Ds, buf, pos) if dead else -1
            if need == -2:
                _set_slot(h, s, 0, L)
                return False
            off = randint_nb(rng, V)
            ok = False
            for t in range(V):
                v = (off + t) % V
                if need >= 0 and (v == 0 or 1 + (v - 1) // L != need):
                    continue  # only a move of the victim it must place can fit
                _set_slot(h, s, v, L)
                if not fit_key_nb(rng, R, h, keymask):
                    continue
                if _history_nb(view, h, Ds, buf, pos, keymask, 0, k) == 0:
                    ok = True
                    break
            if not ok:
                _set_slot(h, s, 0, L)
                return False
    return fit_key_nb(rng, R, h, keymask)


@nb.njit
def enumerate_nb(rng, view, h, Ds, buf, pos, keymask, cursor):
    """Every set of permanent moves the rules allow (with a key of ``keymask`` that fits),
    each with its guest moves solved exactly: sets ``h`` to the first consistent setup found
    and returns True; False when there is none. Complete: a permanent move's slot order does
    not matter, so the characters are taken in increasing order (unused slots last).

    ``cursor`` (int64[2], the player's scratch, zero at a game's start) makes a game's
    enumerations one pass: the sets are visited from a random one on (``cursor[0]`` − 1),
    and a later call resumes at the set the last one returned (``cursor[1]``). That is
    still complete: a set rejected earlier was inconsistent with fewer announcements, and
    announcements only add constraints (the played days and the player's moves on them do
    not change; the key mask only narrows)."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    V = 1 + (n - 1) * L
    if nperm > 3:
        return False  # written for up to 3 permanent moves (the base rules)
    for s in range(1, nperm + 1):
        _set_slot(h, s, 0, L)
    for k in range(R.info[I.N_GUEST]):
        _set_slot(h, nperm + 1 + k, 0, L)
    t0 = V if nperm >= 1 else 1
    t1 = V if nperm >= 2 else 1
    t2 = V if nperm >= 3 else 1
    if cursor[0] == 0:
        cursor[0] = 1 + randint_nb(rng, t0)
        cursor[1] = 0
    o1 = cursor[0] - 1
    for idx in range(cursor[1], t0 * t1 * t2):
        a = (o1 + idx // (t1 * t2)) % t0
        b = (idx // t2) % t1
        c = idx % t2
        if b != 0 and (a == 0 or (b - 1) // L <= (a - 1) // L):
            continue  # characters in increasing order, unused slots last
        if c != 0 and (b == 0 or (c - 1) // L <= (b - 1) // L):
            continue
        if nperm >= 1:
            _set_slot(h, 1, a, L)
        if nperm >= 2:
            _set_slot(h, 2, b, L)
        if nperm >= 3:
            _set_slot(h, 3, c, L)
        if not fit_key_nb(rng, R, h, keymask):
            continue
        if not placeable_nb(view, h, Ds, buf, pos):
            continue
        if _history_nb(view, h, Ds, buf, pos, keymask, 0, NO_GUEST) != 0:
            continue
        if guests_fit_nb(rng, view, h, Ds, buf, pos, keymask):
            cursor[1] = idx
            return True
        for k in range(R.info[I.N_GUEST]):
            _set_slot(h, nperm + 1 + k, 0, L)
    cursor[1] = t0 * t1 * t2
    return False
