"""The filter's model of the hidden setup (strategies/looper/bayes.py, repair.py): a setup
row's morning layouts, whether it can produce the announced deaths (the engine's own day
kernel), the exact key-person mask, and the mismatch count over the history."""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.opaque import opaque
from sim.looper.day_nb import S_DEAD, day_finish_nb, day_start_nb
from sim.looper.enums import F, I, Kind, Precedence

U0 = np.uint64(0)
U1 = np.uint64(1)
NO_GUEST = -2    # _history_nb's `only`: the days without a guest move
MAX_ENUM = 256   # choice assignments enumerated per day (beyond: the day is taken as consistent)


@nb.njit
def model_day_start_nb(pos, alive, R, buf):
    """The engine's day start (no log) through :func:`sim.core.opaque.opaque`: the
    strategies that play a day in their heads call it from nine places."""
    return opaque(day_start_nb, (pos, alive, R, buf, None))


@nb.njit
def model_day_finish_nb(pos, alive, nreq, R, buf):
    """The engine's day finish (no log), as :func:`model_day_start_nb`."""
    return opaque(day_finish_nb, (pos, alive, nreq, R, buf, None))


@nb.njit(inline="always")
def _bit(i):
    return U1 << np.uint64(i)


@nb.njit
def _srow(R):
    return 1 + 2 * R.info[I.N_PERM] + 2 * R.info[I.N_GUEST]


@nb.njit
def layout_nb(R, h, d, alive, mv, k, pos):
    """The morning layout of day ``d`` under hypothesis ``h`` (a setup row) with the
    player's moves ``mv[:k]``: the engine's rules (game_nb: permanent moves, R-6 / P-17
    precedence, P-7, the guest move after the player's)."""
    n = R.info[I.N_CHARS]
    nperm = R.info[I.N_PERM]
    for i in range(n):
        pos[i] = R.home[i]
    for j in range(nperm):
        c = h[1 + 2 * j]
        if c >= 0:
            pos[c] = h[2 + 2 * j]
    moved = _overridden(R, h, d)
    gbase = 1 + 2 * nperm
    gk = R.guest_day[d]
    gc = h[gbase + 2 * gk] if gk >= 0 else -1
    pmoved = U0
    done = U0
    for j in range(k):
        c = mv[j, 0]
        if c < 0:
            continue
        bc = _bit(c)
        if done & bc:
            continue
        done |= bc
        if (alive & bc) and not (moved & bc):
            pos[c] = mv[j, 1]
            pmoved |= bc
    # the guest move comes after the player's, unless the player's move of that character
    # took effect (it did only where the precedence is the player's)
    if gc >= 0 and not (pmoved & _bit(gc)):
        pos[gc] = h[gbase + 2 * gk + 1]


@nb.njit
def _overridden(R, h, d):
    """The characters whose player move of day ``d`` has no effect under hypothesis ``h``:
    the scriptwriter moves them that day (its permanent moves, the day's guest move) and
    the precedence (R-6 / P-17) is its (the engine's rule; :func:`layout_nb` and the greedy
    move search both read it here)."""
    nperm = R.info[I.N_PERM]
    prec = R.info[I.PRECEDENCE]
    moved = U0
    for j in range(nperm):
        if h[1 + 2 * j] >= 0:
            moved |= _bit(h[1 + 2 * j])
    gbase = 1 + 2 * nperm
    gk = R.guest_day[d]
    if gk >= 0 and h[gbase + 2 * gk] >= 0:
        moved |= _bit(h[gbase + 2 * gk])
    if prec == Precedence.PLAYER:
        return U0
    if prec == Precedence.PLAYER_FOR_KEY_PERSON:
        moved &= ~_bit(h[0])
    return moved


@nb.njit
def _observed(view, lp, d):
    n = view.rules.info[I.N_CHARS]
    D = U0
    for c in range(n):
        if view.ann[lp, d - 1, c] >= 0:
            D |= _bit(c)
    return D


@nb.njit
def day_mismatch_nb(view, h, lp, d, alive, buf, pos, exact):
    """0 when hypothesis ``h`` can produce the announcements of (loop ``lp``, day ``d``)
    for some choices of the scriptwriter; else a positive count of mismatches (deaths
    predicted and not announced, announced and not possible, misplaced). ``exact`` False
    stops at the cheap necessary conditions (no enumeration of the choices)."""
    return _mismatch_nb(view, h, lp, d, alive, _observed(view, lp, d), buf, pos, exact, False)


@nb.njit
def _misplaced_nb(R, D, ann, pos, buf):
    """The announced dead of ``D`` who cannot have died where ``ann`` says on the morning
    layout ``pos``: a victim dies where it stands after the movement phase — its morning
    place, or the next if it walks when stressed (its own MOVE_IF_STRESSED effect) — and is
    announced there or, when some effect misreports deaths (Turf King, R-11), in the next
    place. A necessary condition the day kernel implies, read without running the day."""
    nxt = R.next_loc
    mis = buf.kat[Kind.MISREPORT_DEATHS + 1] > buf.kat[Kind.MISREPORT_DEATHS]
    out = U0
    t = D
    while t:
        i = lowest_nb(t)
        t &= t - U1
        x = pos[i]
        a = ann[i]
        if a == x or (mis and nxt[x] == a):
            continue
        walks = False
        for j in range(buf.kat[Kind.MOVE_IF_STRESSED], buf.kat[Kind.MOVE_IF_STRESSED + 1]):
            if R.effects[buf.ek[j], F.ACTOR] == i:
                walks = True
        if walks and (a == nxt[x] or (mis and nxt[nxt[x]] == a)):
            continue
        out |= _bit(i)
    return out


@nb.njit
def _unguested_misplaced_nb(view, h, lp, d, alive, D, buf, pos):
    """:func:`_misplaced_nb` of (loop ``lp``, day ``d``, its announced dead ``D``) on ``h``'s layout without the day's
    guest move: a guest move places one character and leaves every other where it stands."""
    R = view.rules
    gk = R.guest_day[d]
    g = 1 + 2 * R.info[I.N_PERM] + 2 * gk
    gc = h[g] if gk >= 0 else -1
    if gk >= 0:
        h[g] = -1
    layout_nb(R, h, d, alive, view.moves[lp, d - 1], view.moves.shape[2], pos)
    if gk >= 0:
        h[g] = gc
    return _misplaced_nb(R, D, view.ann[lp, d - 1], pos, buf)


@nb.njit
def placeable_nb(view, h, Ds, buf, pos):
    """Whether every announced death of the history (``Ds``, :func:`_deaths_nb`) can have
    happened where it was announced under ``h``'s key and permanent moves, whatever its
    guest moves: on a day without a guest move no victim misplaced (:func:`_misplaced_nb`),
    on a guest day at most one. A necessary condition for ``_history_nb(…) == 0`` with some
    guest moves, read without running a day: the enumeration skips most sets by it."""
    n = view.rules.info[I.N_CHARS]
    every = (U1 << np.uint64(n)) - U1 if n < 64 else ~U0
    for lp in range(view.loop + 1):
        alive = every
        for d in range(1, np.int64(Ds[lp, 0]) + 1):
            if Ds[lp, d] != U0:
                m = popcount_nb(_unguested_misplaced_nb(view, h, lp, d, alive, Ds[lp, d], buf, pos))
                if m > (1 if view.rules.guest_day[d] >= 0 else 0):
                    return False
            alive &= ~Ds[lp, d]
    return True


@nb.njit
def guest_need_nb(view, h, k, Ds, buf, pos):
    """What guest move ``k`` must do for the announced deaths of its days to be where they
    were announced, given ``h``'s other moves: −1 nothing in particular, a character ``c``:
    it must move ``c`` (the one victim misplaced without it), −2: no guest move can (two
    victims misplaced). Read without running a day (:func:`_misplaced_nb`)."""
    n = view.rules.info[I.N_CHARS]
    every = (U1 << np.uint64(n)) - U1 if n < 64 else ~U0
    m = U0
    for lp in range(view.loop + 1):
        alive = every
        for d in range(1, np.int64(Ds[lp, 0]) + 1):
            if Ds[lp, d] != U0 and view.rules.guest_day[d] == k:
                m |= _unguested_misplaced_nb(view, h, lp, d, alive, Ds[lp, d], buf, pos)
            alive &= ~Ds[lp, d]
    if m == U0:
        return -1
    if m & (m - U1):
        return -2
    return lowest_nb(m)


@nb.njit
def _mismatch_nb(view, h, lp, d, alive, D, buf, pos, exact, quick):
    """:func:`day_mismatch_nb` with the day's announced dead ``D`` already read. ``quick``:
    the caller needs only whether the count is 0, so a day whose announced deaths cannot be
    where they were announced (:func:`_misplaced_nb`) is 1 without running the day."""
    R = view.rules
    layout_nb(R, h, d, alive, view.moves[lp, d - 1], view.moves.shape[2], pos)
    if quick and D != U0 and _misplaced_nb(R, D, view.ann[lp, d - 1], pos, buf) != U0:
        return 1
    nreq = model_day_start_nb(pos, alive, R, buf)
    fixed = buf.st[S_DEAD]
    reach = fixed
    bad = 0
    for r in range(nreq):
        cr = buf.req_cand[r] & D
        if cr == U0:
            bad += 1  # the rule must kill one of its candidates, and none died
        reach |= cr
    bad += popcount_nb(fixed & ~D)
    # a slaughter angel (expansion) kills beyond the rules' own victims
    chain = buf.kat[Kind.KILL_ALL_ON_DEATH + 1] > buf.kat[Kind.KILL_ALL_ON_DEATH]
    if not chain:
        bad += popcount_nb(D & ~reach)
    t = D
    while t:
        i = lowest_nb(t)
        t &= t - U1
        l = buf.pos2[i]
        a = R.next_loc[l] if buf.misrep[l] else l
        if a != view.ann[lp, d - 1, i]:
            bad += 1
    if bad or not exact or nreq == 0:
        if bad == 0 and nreq == 0:  # no choice: the kernel's deaths are the fixed ones
            dead = model_day_finish_nb(pos, alive, 0, R, buf)
            return 0 if dead == D else 1
        return bad
    # enumerate the choices (victims among the announced dead) up to MAX_ENUM of them
    total = 1
    for r in range(nreq):
        total *= popcount_nb(buf.req_cand[r] & D)
        if total > MAX_ENUM:
            return 0  # too many to try: the necessary conditions hold, keep it (never rule out the truth)
    for a in range(total):
        rest = a
        for r in range(nreq):
            cr = buf.req_cand[r] & D
            j = rest % popcount_nb(cr)
            rest //= popcount_nb(cr)
            for _ in range(j):
                cr &= cr - U1
            buf.req_victim[r] = lowest_nb(cr)
        buf.st[S_DEAD] = fixed
        dead = model_day_finish_nb(pos, alive, nreq, R, buf)
        if dead == D:
            ok = True
            t = D
            while t:
                i = lowest_nb(t)
                t &= t - U1
                if buf.ann[i] != view.ann[lp, d - 1, i]:
                    ok = False
            if ok:
                return 0
    return 1


@nb.njit
def _played(view, lp):
    """Days of loop ``lp`` that were played before now (the current loop: before today)."""
    days = view.rules.info[I.DAYS]
    if lp < view.loop:
        e = view.loop_end[lp]
        return e if 1 <= e <= days else days
    return view.day - 1


@nb.njit
def _alive_at(view, lp, d):
    n = view.rules.info[I.N_CHARS]
    alive = U0
    for i in range(n):
        alive |= _bit(i)
    for dd in range(1, d):
        alive &= ~_observed(view, lp, dd)
    return alive


@nb.njit
def key_mask_nb(view):
    """The exact key-person candidates of the history (by enumeration of every character)."""
    R = view.rules
    n = R.info[I.N_CHARS]
    days = R.info[I.DAYS]
    cand = U0
    for i in range(1, n):
        cand |= _bit(i)
    for lp in range(view.loop + 1):
        last = _played(view, lp)
        end = view.loop_end[lp]  # 0 for the loop being played
        for d in range(1, last + 1):
            D = _observed(view, lp, d)
            if d == end and 1 <= end <= days:
                if not (D & U1):
                    cand &= D  # the protagonist lived: the key person died that day
            else:
                cand &= ~D  # died and the loop went on: not the key person
        if end == days + 1 and view.named[lp] >= 0:
            cand &= ~_bit(view.named[lp])
    return cand


@nb.njit
def history_mismatch_nb(view, h, buf, pos, keymask, stop):
    """Mismatches of ``h`` over every digested day (0: consistent with all of it); stops
    counting once above ``stop``."""
    R = view.rules
    Ds = np.zeros((R.info[I.MAX_LOOPS], R.info[I.DAYS] + 1), np.uint64)
    _deaths_nb(view, Ds)
    return _history_nb(view, h, Ds, buf, pos, keymask, stop, -1)


@nb.njit
def _deaths_nb(view, Ds):
    """Ds[lp, d] = the announced dead of every played day (read once per update, not per
    particle); Ds[lp, 0] = the days of loop ``lp`` a history check covers (its played days;
    the filter's update adds today's when it digests it, the naming after a loop's last day)."""
    for lp in range(view.loop + 1):
        Ds[lp, 0] = np.uint64(_played(view, lp))
        for d in range(1, _played(view, lp) + 1):
            Ds[lp, d] = _observed(view, lp, d)


@nb.njit
def _history_nb(view, h, Ds, buf, pos, keymask, stop, only):
    """:func:`_history_body_nb` through :func:`sim.core.opaque.opaque` (the filter counts
    histories from 18 places)."""
    return opaque(_history_body_nb, (view, h, Ds, buf, pos, keymask, stop, only))


@nb.njit
def _history_body_nb(view, h, Ds, buf, pos, keymask, stop, only):
    """:func:`history_mismatch_nb` on the announced dead ``Ds`` (:func:`_deaths_nb`);
    ``only`` >= 0: the days of guest move ``only`` alone (:func:`_recheck_nb`); -1: every day;
    -2 (``NO_GUEST``): the days without a guest move (they depend on the key and the
    permanent moves alone)."""
    if not (keymask & _bit(h[0])):
        return 1 << 20
    n = view.rules.info[I.N_CHARS]
    every = (U1 << np.uint64(n)) - U1 if n < 64 else ~U0
    bad = 0
    # the days with deaths first: a wrong setup shows there, so a caller that stops at `stop`
    # (the refill at the first mismatch, the repair above the current count) stops sooner;
    # a full count is the same sum in any order
    for quiet in range(2):
        for lp in range(view.loop + 1):
            last = np.int64(Ds[lp, 0])  # today too once the update digested it (a refill's re-check)
            alive = every
            for d in range(1, last + 1):
                gd = view.rules.guest_day[d]
                if (Ds[lp, d] == U0) == (quiet == 1) and (only == -1 or gd == only or (only == NO_GUEST and gd < 0)):
                    bad += _mismatch_nb(view, h, lp, d, alive, Ds[lp, d], buf, pos, True, stop == 0)
                    if bad > stop:
                        return bad
                alive &= ~Ds[lp, d]
    return bad



@nb.njit
def _valid_nb(R, h):
    """Whether setup row ``h`` is one the rules allow (distinct permanent characters, P-15, P-16)."""
    nperm = R.info[I.N_PERM]
    seen = U0
    for j in range(nperm):
        c = h[1 + 2 * j]
        if c < 0:
            continue
        if seen & _bit(c):
            return False
        seen |= _bit(c)
        if R.info[I.STAY_MOVES] == 0 and h[2 + 2 * j] == R.home[c]:
            return False
        if R.info[I.KEY_MOVABLE] == 0 and c == h[0]:
            return False
    if R.info[I.KEY_MOVABLE] == 0:
        gbase = 1 + 2 * nperm
        for j in range(R.info[I.N_GUEST]):
            if h[gbase + 2 * j] == h[0]:
                return False
    return True


