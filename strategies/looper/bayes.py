"""`bayes`, `planner` and `oracle_planner`: Looper players that keep a posterior over the
hidden setup (issue 14).

**The model.** A hypothesis is a whole setup row, the scriptwriter's own format
(``[key, c1, l1, …, guest1_char, guest1_loc, …]``; a character −1 is a slot left unused, as
a `fixed` script may). The prior: the key uniform, each slot independently unused (1/n) or a
character at a place (1/(n·L) each), restricted to the setups the rules allow (P-15, P-16).
The likelihood of a day is 1 when the engine's own day kernel (``day_start_nb`` /
``day_finish_nb``), run on the morning layout the hypothesis gives (the table, its
permanent moves, the player's recorded moves with R-6 / P-17 precedence, its guest move of
the day), can produce exactly the announced deaths at exactly the announced places
(Turf King's shift is the kernel's own), for *some* choices of the scriptwriter (R-10); else
0. The scriptwriter's choices are not modelled (any candidate may be picked), so the
posterior is the prior restricted to the setups consistent with everything announced.
The key person is kept exactly (by enumeration of the 24 characters): a character that
died before its loop ended is not it; a loop that ended with the protagonist alive had
it among that day's dead; a wrong name (P-9) is not it.

**The filter.** ``particles`` hypotheses live in the player's scratch ``own.big``. Each
day the new announcements are checked against every live particle (one re-simulated day
per distinct layout of the day; none for a quiet day that repeats an earlier one of the
loop); dead slots are refilled by copies of live ones, each then moved by one mutation that
is kept only if it is consistent with the whole history (re-checked on the days it changes). A particle whose key person the
exact mask has just ruled out takes a new key from the mask instead of dying (the key does
not change a day's layout, except under ``precedence = player_for_key_person``, where the
new key is re-checked). When no particle is left, a repair search (mutations that do not
increase the number of mismatched deaths over the history; half of them explain a random
announced death by moving its victim, or anyone, to its announced place) looks for
consistent ones within ``repair`` re-simulated days a game; whatever it reaches is used,
and after it falls short every particle keeps counting its mismatches day by day. The true setup always has likelihood 1
(tests/test_looper_bayes.py checks it over random games), so it is never ruled out; a
finite particle set may of course not hold it.

**Moves.** `bayes` weighs each character at risk in ``samples`` particles (a certain death
1, a candidate of a "one character dies" rule ``choice_risk + (1 − choice_risk)/|candidates|``),
the protagonist by ``protagonist_weight`` and the key-person candidates by their posterior
(when at most ``candidates`` remain), and greedily adds the move that lowers the expected
weighted loss most. `planner` scores candidate move sets (bayes's own, none, and one-move
changes of it) by determinised rollouts on sampled particles: the day, and with
``horizon = loop`` the rest of the loop replaying the same moves, the scriptwriter killing
a protected character when it can with probability ``choice_risk``; it stops at ``budget``
rolled-out days per decision, or after one round over its worlds when no rollout drew a
random choice (``choice_risk`` 1: a second round would repeat the first); duplicate
candidates are rolled out once, and with ``choice_risk`` 1 a candidate whose layouts in a
world equal the greedy set's on every day left takes the greedy set's value there.
`oracle_planner` is the same planner whose only world is the true setup (it reads the
judge's ``setup`` and ``key``: an oracle, labelled as such).
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.nrt import keep_alive_nb, unmanaged_nb
from sim.core.opaque import opaque
from sim.core.reasons import explaining_nb, reason_nb
from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.looper.day_nb import S_DEAD
from sim.looper.enums import I, Precedence, Why
from sim.looper.game_nb import MEM_BLIND, MEM_DECISIONS
from strategies.looper.model import (MAX_ENUM, NO_GUEST, _alive_at, _bit, _deaths_nb, _history_nb,  # noqa: F401
                                     _mismatch_nb, _observed, _overridden, _played, _srow, _valid_nb,
                                     day_mismatch_nb, history_mismatch_nb, key_mask_nb, layout_nb,
                                     model_day_finish_nb, model_day_start_nb)
from strategies.looper.repair import descend_nb, enumerate_nb

U0 = np.uint64(0)
U1 = np.uint64(1)

# own.mem slots (the common helpers use 0 … 3, 64 … 127 and 128 … 199)
M_INIT = 200     # 1 once the particles are drawn this game
M_LOOP = 201     # the next (loop, day) of the history to digest
M_DAY = 202
M_KEY = 203      # the exact key-person candidate mask
M_LIVE = 204     # live particles
M_N = 205        # particles in use
M_EXACT = 206    # 1 while the live particles are exactly consistent (0: repair fell short)
M_SPENT = 207    # re-simulated days the repair search has spent this game
M_FORCED = 209   # the free moves greedy_moves_nb put first in its set this decision
M_STUCK = 208    # 1 once the complete enumeration found nothing this game (not reachable with true announcements)
M_ENUM = 210     # 210, 211: the enumeration's cursor this game (its random start + 1, the set it last returned)

# knob slots (view.knobs, strategies.looper.BAYES_KNOBS / PLANNER_KNOBS order)
K_PARTICLES, K_SAMPLES, K_CANDIDATES, K_PROT_W, K_CHOICE_RISK, K_REPAIR, K_MAX_MOVES, K_DESCENTS = range(8)
K_BUDGET, K_HORIZON, K_ALTERNATIVES = 8, 9, 10
@nb.njit
def _quiet_again(view, lp, d, D):
    """Whether (loop ``lp``, day ``d``) repeats an earlier quiet day of the loop for every
    hypothesis: nobody died on either or in between (the same living), neither has a guest
    move, and the player made the same moves. Each hypothesis then has the same morning
    layout on both days, so a particle consistent with that day is consistent with this
    one (the digest's live particles all are)."""
    R = view.rules
    if D != U0 or R.guest_day[d] >= 0:
        return False
    mv = view.moves[lp, d - 1]
    for e in range(d - 1, 0, -1):
        if _observed(view, lp, e) != U0:
            return False
        if R.guest_day[e] >= 0:
            continue
        pm = view.moves[lp, e - 1]
        same = True
        for j in range(mv.shape[0]):
            if pm[j, 0] != mv[j, 0] or (mv[j, 0] >= 0 and pm[j, 1] != mv[j, 1]):
                same = False
                break
        if same:
            return True
    return False


@nb.njit
def _rescore_nb(view, h, tmp, s, count, Ds, buf, pos, keymask):
    """The repair's score of ``tmp``, row ``h`` (``count`` mismatches over the history, its
    full count) with slot ``s`` changed: exactly ``_history_nb(…, tmp, …, count)`` — the
    full count when it is at most ``count`` (else some count above it) — re-simulating only
    the days the change can alter: none for a new key the mask allows (it alters no layout,
    except under ``precedence = player_for_key_person``), and for a guest move its own
    days, for both rows (the other days' mismatches are unchanged)."""
    R = view.rules
    nperm = R.info[I.N_PERM]
    if not (keymask & _bit(tmp[0])):
        return 1 << 20
    if s == 0 and R.info[I.PRECEDENCE] != Precedence.PLAYER_FOR_KEY_PERSON:
        return count
    if s > nperm:
        g = s - 1 - nperm
        return (count - _history_nb(view, h, Ds, buf, pos, keymask, 1 << 30, g)
                + _history_nb(view, tmp, Ds, buf, pos, keymask, 1 << 30, g))
    return _history_nb(view, tmp, Ds, buf, pos, keymask, count, -1)


@nb.njit
def _day_hash(R, h, d):
    """A hash of what of ``h`` shapes day ``d`` (:func:`_same_day`)."""
    nperm = R.info[I.N_PERM]
    x = np.int64(R.info[I.PRECEDENCE] == Precedence.PLAYER_FOR_KEY_PERSON) * (h[0] + 1)
    for j in range(1, 1 + 2 * nperm):
        x = (x * 131 + h[j] + 1) % 2147483647  # no overflow (also without the JIT)
    gk = R.guest_day[d]
    if gk >= 0:
        g = 1 + 2 * nperm + 2 * gk
        x = (x * 131 + h[g] + 1) % 2147483647
        x = (x * 131 + h[g + 1] + 1) % 2147483647
    return x


@nb.njit
def _same_day(R, h, h2, d):
    """Whether rows ``h`` and ``h2`` give day ``d`` the same layout and overrides
    (:func:`layout_nb`, :func:`_overridden`) for any player moves: the same permanent
    slots, the same guest move that day and, where the precedence reads it, the same key."""
    nperm = R.info[I.N_PERM]
    if R.info[I.PRECEDENCE] == Precedence.PLAYER_FOR_KEY_PERSON and h[0] != h2[0]:
        return False
    for j in range(1, 1 + 2 * nperm):
        if h[j] != h2[j]:
            return False
    gk = R.guest_day[d]
    if gk >= 0:
        g = 1 + 2 * nperm + 2 * gk
        if h[g] != h2[g] or h[g + 1] != h2[g + 1]:
            return False
    return True


@nb.njit
def _draw_slot(rng, R, h, s):
    """A new value for component ``s`` of ``h`` (0: key; then permanent, then guest slots),
    uniform over its domain."""
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    c = randint_nb(rng, n)  # 0 (the protagonist, never moved): the slot is unused
    l = randint_nb(rng, L)
    h[2 * s - 1] = c if c > 0 else -1
    h[2 * s] = l if c > 0 else 0


@nb.njit
def _sample_prior(rng, R, h, keymask):
    ns = R.info[I.N_PERM] + R.info[I.N_GUEST]
    for _ in range(1000):
        h[0] = choose_bit_nb(rng, keymask)
        for s in range(1, ns + 1):
            _draw_slot(rng, R, h, s)
        if _valid_nb(R, h):
            return
    h[0] = choose_bit_nb(rng, keymask)
    for s in range(1, ns + 1):
        h[2 * s - 1] = -1
        h[2 * s] = 0


@nb.njit
def _mutate(rng, view, h, tmp, keymask):
    """tmp = h with one component redrawn (the key from ``keymask``); returns that
    component's slot (0 the key, then the permanent, then the guest slots), −1 if the row
    is not one the rules allow."""
    R = view.rules
    ns = R.info[I.N_PERM] + R.info[I.N_GUEST]
    for j in range(h.shape[0]):
        tmp[j] = h[j]
    s = randint_nb(rng, ns + 1)
    if s == 0:
        tmp[0] = choose_bit_nb(rng, keymask)
    else:
        _draw_slot(rng, R, tmp, s)
    return s if _valid_nb(R, tmp) else -1


@nb.njit
def _recheck_nb(view, tmp, s, Ds, buf, pos, keymask):
    """Whether ``tmp``, a row consistent with the history with slot ``s`` changed
    (:func:`_mutate`), is consistent too: exactly ``_history_nb(…, 0) == 0``, re-simulating
    only the days whose layout the change can alter. A new key alters none (it is weighed
    by the exact mask; under ``precedence = player_for_key_person`` it alters every day), a
    permanent move every day, a guest move only its own days."""
    R = view.rules
    nperm = R.info[I.N_PERM]
    if s == 0 and R.info[I.PRECEDENCE] != Precedence.PLAYER_FOR_KEY_PERSON:
        return (keymask & _bit(tmp[0])) != U0
    only = s - 1 - nperm if s > nperm else -1
    return _history_nb(view, tmp, Ds, buf, pos, keymask, 0, only) == 0


@nb.njit
def _explain_death(rng, view, h, tmp):
    """tmp = h with one move set to explain a random announced death: the victim (or, half
    the time, anyone: a killer) moved to the announced place or the one before it (Turf
    King's shift), by a permanent move or, half the time on a guest day, by that day's guest
    move. A blind redraw names the victim one time in 25; the repair needs these pairs.
    Returns the slot it changed (:func:`_mutate`), −1 if nothing died yet or the row is not
    one the rules allow."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    nperm = R.info[I.N_PERM]
    cnt = 0
    vc = -1
    va = -1
    vd = -1
    for lp in range(view.loop + 1):
        for d in range(1, _played(view, lp) + 1):
            for c in range(n):
                a = view.ann[lp, d - 1, c]
                if a >= 0:
                    cnt += 1
                    if randint_nb(rng, cnt) == 0:
                        vc, va, vd = c, a, d
    if vc < 0 or nperm + R.info[I.N_GUEST] == 0:
        return -1
    for j in range(h.shape[0]):
        tmp[j] = h[j]
    c = vc
    if c == 0 or randint_nb(rng, 2) == 1:
        c = 1 + randint_nb(rng, n - 1)  # the protagonist is never moved by the scriptwriter
    l = va
    if randint_nb(rng, 2) == 1:
        for x in range(L):
            if R.next_loc[x] == va:
                l = x
    gk = R.guest_day[vd]
    guest = 0 <= gk < R.info[I.N_GUEST]  # the death's day has a guest move
    if nperm == 0 and not guest:
        return -1
    if guest and (nperm == 0 or randint_nb(rng, 2) == 0):
        s = nperm + 1 + gk
    else:
        s = 1 + randint_nb(rng, nperm)
        for j in range(nperm):  # already moved permanently: move it elsewhere in its own slot
            if tmp[1 + 2 * j] == c:
                s = j + 1
    tmp[2 * s - 1] = c
    tmp[2 * s] = l
    return s if _valid_nb(R, tmp) else -1


@nb.njit
def _n_particles(view, S, big):
    N = 64
    if view.knobs.shape[0] > K_PARTICLES and view.knobs[K_PARTICLES] >= 1.0:
        N = np.int64(view.knobs[K_PARTICLES])
    return max(1, min(N, big.shape[0] // (S + 1)))


@nb.njit
def _knob(view, k, default):
    return view.knobs[k] if view.knobs.shape[0] > k else default


@nb.njit
def _redraw_keys(rng, view, own, km, N, S, pos, Ds):
    """A live particle whose key person the exact mask ``km`` has just ruled out gets a new
    one drawn from ``km`` (a Gibbs step on the key given the moves) instead of dying: the
    key never changes a day's layout unless the precedence is ``player_for_key_person``,
    so the particle stays consistent (that precedence: re-checked over the history). Without
    this, a loop ended by the key person's death killed every particle whose key was not
    among that day's dead, and the repair search re-found the moves at great cost."""
    R = view.rules
    big = own.big
    W = N * S
    matters = R.info[I.PRECEDENCE] == Precedence.PLAYER_FOR_KEY_PERSON
    for i in range(N):
        h = big[i * S:(i + 1) * S]
        if big[W + i] != 0 or (km & _bit(h[0])):
            continue
        old = h[0]
        ok = False
        for _ in range(8):
            h[0] = choose_bit_nb(rng, km)
            if _valid_nb(R, h):
                ok = True
                break
        if ok and matters:
            ok = _history_nb(view, h, Ds, own.buf, pos, km, 0, -1) == 0
        if not ok:
            # no allowed key left for its moves (P-16: the candidates left are all moved):
            # dead now — the digest below sees only new days, and there may be none
            h[0] = old
            big[W + i] = max(big[W + i], 1 << 20)


@nb.njit
def _construct_nb(rng, view, own, N, S, W, tmp, Ds, pos, km):
    """No particle fits: the descent of strategies/looper/repair.py from each of the
    ``descents`` (knob, default 3) fewest-mismatch particles in turn, then the enumeration of
    every set of permanent moves. The enumeration is one pass a game (it resumes where it
    last found a setup: ``M_ENUM``), so once it has run, a later repair resumes it at once
    instead of descending again: its cost in a game is bounded by one pass, the descents'
    is not. Still the descents stay first: on 12 of the 13 library scripts bayes plays
    1.8 - 31 times faster with them than with the enumeration's partial pass alone; on the
    setup of bayes's adversarial pool where they loop (issue 41) the enumeration alone is
    only 1.6 times faster (docs/looper.md, "descents"). Returns 1 with one particle made
    consistent, else 0."""
    big = own.big
    cursor = own.mem[M_ENUM:M_ENUM + 2]
    b = 0
    if cursor[0] == 0:
        tried = np.zeros(N, np.uint8)
        ccur = np.zeros(1, np.int64)  # the converging step's cursor, shared by the descents
        for _ in range(min(np.int64(_knob(view, K_DESCENTS, 3.0)), N)):
            b = -1
            for i in range(N):
                if tried[i] == 0 and (b < 0 or big[W + i] < big[W + b]):
                    b = i
            tried[b] = 1
            h = big[b * S:(b + 1) * S]
            big[W + b] = opaque(descend_nb, (rng, view, h, tmp, Ds, own.buf, pos, km, big[W + b], ccur))
            if big[W + b] == 0:
                return 1
    if own.mem[M_STUCK] == 0:
        h = big[b * S:(b + 1) * S]
        if opaque(enumerate_nb, (rng, view, h, Ds, own.buf, pos, km, cursor)):
            big[W + b] = 0
            return 1
        own.mem[M_STUCK] = 1
        big[W + b] = _history_nb(view, h, Ds, own.buf, pos, km, 1 << 30, -1)
    return 0


@nb.njit
def update_nb(rng, view, own, through_today):
    """Bring the particles up to the announcements so far (and today's, ``through_today``:
    the naming at a loop's end); returns the number of live particles."""
    R = view.rules
    mem = own.mem
    big = own.big
    buf = own.buf
    S = _srow(R)
    n = R.info[I.N_CHARS]
    N = _n_particles(view, S, big)
    W = N * S  # status of particle i at big[W + i]: 0 consistent, else its mismatch count
    # scratch as refcount-free views (sim.core.nrt): every call below passes them on
    owned = (np.empty(n, np.int64), np.empty(S, np.int64),
             np.zeros((R.info[I.MAX_LOOPS], R.info[I.DAYS] + 1), np.uint64),
             np.empty((3, N), np.int64))
    pos = unmanaged_nb(owned[0])
    tmp = unmanaged_nb(owned[1])
    Ds = unmanaged_nb(owned[2])
    seen_h = unmanaged_nb(owned[3][0])  # the digest's distinct layouts of the day: hash,
    seen_i = unmanaged_nb(owned[3][1])  # particle,
    seen_r = unmanaged_nb(owned[3][2])  # mismatch count
    _deaths_nb(view, Ds)  # the played days
    km = key_mask_nb(view)
    if through_today:  # digest today as if it were played (naming after day 7)
        # and every history check below covers it: a refill's mutation re-checked without
        # today's announcements let an inconsistent particle in, never digested again
        Ds[view.loop, 0] = np.uint64(view.day)
        Ds[view.loop, view.day] = _observed(view, view.loop, view.day)
        km2 = km & ~_observed(view, view.loop, view.day)
        if km2:
            km = km2
    if km == U0:
        km = _bit(1)  # not reachable with true announcements; keep a valid row
    if mem[M_INIT] == 0:
        mem[M_INIT] = 1
        mem[M_N] = N
        mem[M_LOOP] = 0
        mem[M_DAY] = 1
        mem[M_EXACT] = 1
        mem[M_SPENT] = 0
        for i in range(N):
            _sample_prior(rng, R, big[i * S:(i + 1) * S], km)
            big[W + i] = 0
    if np.uint64(mem[M_KEY]) != km:
        _redraw_keys(rng, view, own, km, N, S, pos, Ds)
    mem[M_KEY] = np.int64(km)
    # digest the new days
    lp = mem[M_LOOP]
    d = mem[M_DAY]
    news = False
    while lp <= view.loop:
        last = _played(view, lp)
        if lp == view.loop and through_today:
            last = view.day
        if d > last:
            if lp == view.loop:
                break
            lp += 1
            d = 1
            continue
        news = True
        alive = _alive_at(view, lp, d)
        D = _observed(view, lp, d)
        nseen = 0
        again = mem[M_EXACT] == 1 and _quiet_again(view, lp, d, D)
        for i in range(N):
            # exact: a live particle dies at its first mismatch; after a repair fell short
            # every particle keeps counting its mismatches (the fewest are planned on)
            if big[W + i] == 0 or mem[M_EXACT] == 0:
                h = big[i * S:(i + 1) * S]
                if not (km & _bit(h[0])):
                    big[W + i] = max(big[W + i], 1 << 20)
                    continue
                if again:
                    continue  # consistent on that day, so on this one
                # a particle with an earlier one's layout today (a refill's copy, or one
                # differing only on other days) has its count: the same day, the same value
                hk = _day_hash(R, h, d)
                r = -1
                for q in range(nseen):
                    if seen_h[q] == hk and _same_day(R, h, big[seen_i[q] * S:(seen_i[q] + 1) * S], d):
                        r = seen_r[q]
                        break
                if r < 0:
                    r = _mismatch_nb(view, h, lp, d, alive, D, buf, pos, True, mem[M_EXACT] == 1)
                    seen_h[nseen] = hk
                    seen_i[nseen] = i
                    seen_r[nseen] = r
                    nseen += 1
                big[W + i] += r
        d += 1
    mem[M_LOOP] = lp
    mem[M_DAY] = d
    live = 0
    for i in range(N):
        if big[W + i] == 0:
            live += 1
    if not news and live == N:
        mem[M_LIVE] = live
        keep_alive_nb(owned)
        return live
    if live == 0:
        # repair: walk each particle down the number of mismatches, guided to announced
        # places, within what is left of the game's budget (a search that fell short is
        # not started again from scratch every day); then the constructive search of
        # strategies/looper/repair.py, which cannot fall short silently
        budget = np.int64(_knob(view, K_REPAIR, 4000.0)) - mem[M_SPENT]
        spent = 0
        for i in range(N):
            h = big[i * S:(i + 1) * S]
            if not _valid_nb(R, h) or not (km & _bit(h[0])):
                _sample_prior(rng, R, h, km)
            big[W + i] = _history_nb(view, h, Ds, buf, pos, km, 1 << 30, -1)
            if big[W + i] == 0:
                live += 1
        i = 0
        while live < min(N, 4) and spent < budget:
            if big[W + i] != 0:
                h = big[i * S:(i + 1) * S]
                ms = (_explain_death(rng, view, h, tmp) if randint_nb(rng, 2) == 0
                      else _mutate(rng, view, h, tmp, km))
                if ms >= 0:
                    sc = _rescore_nb(view, h, tmp, ms, big[W + i], Ds, buf, pos, km)
                    spent += view.loop * R.info[I.DAYS] + view.day
                    if sc <= big[W + i]:
                        for j in range(S):
                            h[j] = tmp[j]
                        big[W + i] = sc
                        if sc == 0:
                            live += 1
                else:
                    spent += 1
            i = (i + 1) % N
        mem[M_SPENT] += max(spent, 0)
        if live == 0:
            live = opaque(_construct_nb, (rng, view, own, N, S, W, tmp, Ds, pos, km))
        mem[M_EXACT] = 1 if live > 0 else 0
        if live == 0:
            mem[M_LIVE] = 0
            keep_alive_nb(owned)
            return 0
    # refill the dead slots from the live ones, each moved by one consistent mutation
    if live < N:
        ids = np.empty(live, np.int64)
        q = 0
        for i in range(N):
            if big[W + i] == 0:
                ids[q] = i
                q += 1
        for i in range(N):
            if big[W + i] != 0:
                src = ids[randint_nb(rng, live)]
                for j in range(S):
                    big[i * S + j] = big[src * S + j]
                big[W + i] = 0
                h = big[i * S:(i + 1) * S]
                ms = _mutate(rng, view, h, tmp, km)
                if ms >= 0 and _recheck_nb(view, tmp, ms, Ds, buf, pos, km):
                    for j in range(S):
                        h[j] = tmp[j]
        live = N
    mem[M_EXACT] = 1
    mem[M_LIVE] = live
    keep_alive_nb(owned)
    return live


@nb.njit
def _worlds(rng, view, own, K, out_idx):
    """Up to K particle indices to plan on: live ones (or, after a failed repair, the
    fewest-mismatch ones); returns how many."""
    S = _srow(view.rules)
    big = own.big
    N = own.mem[M_N]
    W = N * S
    best = 1 << 62
    for i in range(N):
        best = min(best, big[W + i])
    cnt = 0
    for i in range(N):
        if big[W + i] == best:
            cnt += 1
    k = 0
    if cnt <= K:
        for i in range(N):
            if big[W + i] == best:
                out_idx[k] = i
                k += 1
        return k
    # K distinct ones at random
    seen = np.zeros(N, np.uint8)
    while k < K:
        i = randint_nb(rng, N)
        if big[W + i] == best and seen[i] == 0:
            seen[i] = 1
            out_idx[k] = i
            k += 1
    return k


@nb.njit
def _key_shares(view, own, km, shares):
    """The key-person posterior over the candidates ``km``: each one's share of the live
    particles where the rules tie the key person to the moves (P-16 forbids moving it;
    under ``precedence = player_for_key_person`` its move is the player's) — there a
    candidate the exact mask keeps may be impossible given the moves; elsewhere the key
    person is independent of the layout, so the posterior is uniform over ``km`` (the
    particles' shares would only add noise). Returns the total share (0: use uniform)."""
    R = view.rules
    n = R.info[I.N_CHARS]
    for i in range(n):
        shares[i] = 0.0
    if R.info[I.KEY_MOVABLE] != 0 and R.info[I.PRECEDENCE] != Precedence.PLAYER_FOR_KEY_PERSON:
        return 0.0
    if own.mem[M_EXACT] != 1 or own.mem[M_INIT] == 0:
        return 0.0
    S = _srow(R)
    N = own.mem[M_N]
    W = N * S
    total = 0.0
    for i in range(N):
        k = own.big[i * S]
        if own.big[W + i] == 0 and 0 <= k < n and (km & _bit(k)):
            shares[k] += 1.0
            total += 1.0
    if total > 0.0:
        for i in range(n):
            shares[i] /= total
    return total


@nb.njit
def _weights(view, own, wts, oracle_key):
    """Loss weight of each character: the protagonist's knob, the key-person candidates'
    posterior (when at most ``candidates`` remain; :func:`_key_shares`), 0 for the others."""
    R = view.rules
    n = R.info[I.N_CHARS]
    for i in range(n):
        wts[i] = 0.0
    wts[0] = _knob(view, K_PROT_W, 1.0)
    if oracle_key >= 0:
        wts[oracle_key] = 1.0
        return
    km = np.uint64(own.mem[M_KEY]) & view.alive
    nk = popcount_nb(km)
    if nk == 0 or nk > np.int64(_knob(view, K_CANDIDATES, 24.0)):
        return
    shares = np.empty(n)
    if _key_shares(view, own, km, shares) > 0.0:
        for i in range(n):
            wts[i] = shares[i] if i > 0 else wts[0]
        return
    t = km
    while t:
        i = lowest_nb(t)
        t &= t - U1
        wts[i] = 1.0 / nk


@nb.njit
def _loss(view, own, h, mv, k, wts, pos, choice_risk):
    """Expected weighted loss of today under world ``h`` with moves ``mv[:k]``."""
    R = view.rules
    buf = own.buf
    layout_nb(R, h, view.day, view.alive, mv, k, pos)
    nreq = model_day_start_nb(pos, view.alive, R, buf)
    dead = buf.st[S_DEAD] & view.alive
    loss = 0.0
    t = dead
    while t:
        i = lowest_nb(t)
        t &= t - U1
        loss += wts[i]
    for r in range(nreq):
        c = buf.req_cand[r] & ~dead
        if c == U0:
            continue
        p = choice_risk + (1.0 - choice_risk) / popcount_nb(buf.req_cand[r])
        mx = 0.0  # the scriptwriter takes one victim: the worst one at risk counts
        while c:
            i = lowest_nb(c)
            c &= c - U1
            mx = max(mx, wts[i])
        loss += p * mx
    return loss


@nb.njit
def _risk_nb(view, own, h, mv, k, pos):
    """Characters that today kills or may kill (a choice candidate) in world ``h``; ``pos``
    is left at the morning layout."""
    R = view.rules
    buf = own.buf
    layout_nb(R, h, view.day, view.alive, mv, k, pos)
    nreq = model_day_start_nb(pos, view.alive, R, buf)
    risk = buf.st[S_DEAD]
    for r in range(nreq):
        risk |= buf.req_cand[r]
    return risk & view.alive


@nb.njit
def _mean_loss(view, own, hs, nw, mv, k, wts, pos, cr, base, same, each, above, order):
    """The mean loss over the worlds, each world's loss kept in ``each``; a world where
    ``same`` says the moves leave the layout of ``base``'s moves (bit w set) takes its loss
    ``base[w]`` (the same layout, the same day, the same value). Given ``above``, it stops
    once the losses summed so far (the free ``same`` worlds first, then the others in
    ``order``, likely the costliest first) show the mean is above it — losses are never
    negative — and returns that partial mean; a full mean is summed in world order, so a
    caller that keeps only means below ``above`` decides exactly as with every mean in full
    (the margin keeps a rounding of the other order from rejecting a mean just below).
    ``above`` = inf: every world in full (``order`` unread). No defaults: an omitted argument
    is a type of its own to numba, one more compile."""
    if above == np.inf:
        s = 0.0
        for w in range(nw):
            each[w] = base[w] if same & _bit(w) else _loss(view, own, hs[w], mv, k, wts, pos, cr)
            s += each[w]
        return s / nw
    bound = above * nw + 1e-9
    s = 0.0
    for w in range(nw):
        if same & _bit(w):
            each[w] = base[w]
            s += each[w]
    if s > bound:
        return s / nw
    for q in range(nw):
        w = order[q]
        if not (same & _bit(w)):
            each[w] = _loss(view, own, hs[w], mv, k, wts, pos, cr)
            s += each[w]
            if s > bound:
                return s / nw
    s = 0.0
    for w in range(nw):
        s += each[w]
    return s / nw


@nb.njit
def _died_here_mask(view, x):
    """The places character ``x`` may have stood when it died on today's day of an earlier
    loop (the announced place, and the one before it: Turf King's shift), as a bit mask;
    0 when it did not die on this day before."""
    R = view.rules
    L = R.info[I.N_LOC]
    m = U0
    for lp in range(view.loop):
        a = view.ann[lp, view.day - 1, x]
        if a >= 0:
            m |= _bit(a)
            for y in range(L):
                if R.next_loc[y] == a:
                    m |= _bit(y)
    return m


@nb.njit
def _harmless(each, base, nw):
    """Whether a move leaves every world's loss at most what it was without it: a move that
    creates a death (or a risk) in some sampled world is not made, unless it removes a
    worse one there (issue 41)."""
    for w in range(nw):
        if each[w] > base[w] + 1e-9:
            return False
    return True


@nb.njit
def greedy_moves_nb(rng, view, own, hs, nw, wts, out):
    """Greedy moves lowering the mean loss over the worlds ``hs[:nw]``; returns how many."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    cap = R.info[I.MOVES]
    mm = _knob(view, K_MAX_MOVES, 64.0)
    if mm >= 1.0:
        cap = min(cap, np.int64(mm))
    cr = _knob(view, K_CHOICE_RISK, 1.0)
    pos_o = np.empty(n, np.int64)
    pos = unmanaged_nb(pos_o)
    # each world's loss under the moves chosen so far, under the candidate being weighed,
    # and under the best candidate of the round
    loss_o = np.empty((3, max(nw, 1)))
    base = unmanaged_nb(loss_o[0])
    each = unmanaged_nb(loss_o[1])
    kept = unmanaged_nb(loss_o[2])
    order_o = np.empty(nw, np.int64)
    order = unmanaged_nb(order_o)  # the worlds by their loss so far, largest first
    cur = _mean_loss(view, own, hs, nw, out, 0, wts, pos, cr, base, U0, base, np.inf, order)
    reason_nb(view.why, Why.LOSS, -1, -1, cur)
    own.mem[M_FORCED] = 0
    if cur <= 0.0 and view.loop == 0:  # nothing to lower, and no earlier loop to free anyone from
        keep_alive_nb(pos_o, loss_o, order_o)
        return 0
    # movers: the protected characters at risk in some world, and whoever shares a place
    # with one there (a likely killer)
    prot = U0
    for i in range(n):
        if wts[i] > 0.0:
            prot |= _bit(i)
    prot &= view.alive
    movers = U0
    for w in range(nw):
        risk = _risk_nb(view, own, hs[w], out, 0, pos) & prot
        t = risk
        while t:
            i = lowest_nb(t)
            t &= t - U1
            for x in range(n):
                if pos[x] == pos[i] or x == i:
                    movers |= _bit(x)
    movers &= view.alive
    # each world's layout with the moves chosen so far and the characters whose player move
    # the scriptwriter's overrides there (R-6 / P-17): a candidate that changes no world's
    # layout scores the current loss exactly, which never beats it, so it is not weighed
    lay_o = (np.empty((nw, n), np.int64), np.empty(nw, np.uint64))
    lay = unmanaged_nb(lay_o[0])
    held = unmanaged_nb(lay_o[1])
    for w in range(nw):
        held[w] = _overridden(R, hs[w], view.day)
    every = ~U0 if nw >= 64 else _bit(nw) - U1
    k = 0
    moved = U0
    # free moves first: a protected character that died on this day of an earlier loop is
    # moved away from where it died when no world has the scriptwriter override its move
    # (to the best place of the others, by the mean loss), whatever the worlds expect
    for x in range(n):
        if k >= cap or not (prot & _bit(x)):
            continue
        avoid = _died_here_mask(view, x)
        if avoid == U0:
            continue
        free = True
        for w in range(nw):
            if held[w] & _bit(x):
                free = False
        if not free:
            continue
        bl = -1
        bv = np.inf
        for l in range(L):
            if avoid & _bit(l):
                continue
            out[k, 0] = x
            out[k, 1] = l
            v = _mean_loss(view, own, hs, nw, out, k + 1, wts, pos, cr, base, U0, each, np.inf, order)
            if v < bv:
                bv = v
                bl = l
                for w in range(nw):
                    kept[w] = each[w]
        if bl < 0:
            continue
        out[k, 0] = x
        out[k, 1] = bl
        moved |= _bit(x)
        cur = bv
        reason_nb(view.why, Why.FREE, x, k)
        reason_nb(view.why, Why.LOSS, k, -1, cur)
        for w in range(nw):
            base[w] = kept[w]
        k += 1
    own.mem[M_FORCED] = k
    while k < cap and cur > 0.0:
        best = cur - 1e-9
        bx = -1
        bl = -1
        off = randint_nb(rng, L)
        for w in range(nw):
            layout_nb(R, hs[w], view.day, view.alive, out, k, lay[w])
            q = w
            while q > 0 and base[order[q - 1]] < base[w]:
                order[q] = order[q - 1]
                q -= 1
            order[q] = w
        # the protected movers are weighed first, so that of moves that lower the loss
        # alike the one that moves the victim wins over one that moves a killer: it holds
        # in worlds the samples do not show, where the killer is someone else (issue 41)
        m = movers & ~moved
        while m:
            x = lowest_nb(m & prot) if m & prot else lowest_nb(m)
            m &= ~_bit(x)
            out[k, 0] = x
            for s in range(L):
                out[k, 1] = (off + s) % L
                same = U0  # the worlds whose layout the move leaves as it is
                for w in range(nw):
                    if (held[w] & _bit(x)) or lay[w, x] == out[k, 1]:
                        same |= _bit(w)
                if same == every:
                    continue
                v = _mean_loss(view, own, hs, nw, out, k + 1, wts, pos, cr, base, same, each, best, order)
                if v < best and _harmless(each, base, nw):
                    best = v
                    bx = x
                    bl = out[k, 1]
                    for w in range(nw):
                        kept[w] = each[w]
        if bx < 0:
            break
        out[k, 0] = bx
        out[k, 1] = bl
        moved |= _bit(bx)
        cur = best
        reason_nb(view.why, Why.LOSS, k, -1, cur)
        for w in range(nw):
            base[w] = kept[w]
        k += 1
    keep_alive_nb(pos_o, lay_o, loss_o, order_o)
    return k


@nb.njit
def _gather(rng, view, own, hs):
    """Update the posterior and copy the worlds to plan on into ``hs``; returns how many.
    Counts the decision, and whether it is taken holding no hypothesis consistent with
    everything announced (the kernel sums both into the run's counts: ``C_DECISIONS``,
    ``C_BLIND``)."""
    live = opaque(update_nb, (rng, view, own, False))
    own.mem[MEM_DECISIONS] += 1
    if live == 0:
        own.mem[MEM_BLIND] += 1
    S = _srow(view.rules)
    K = hs.shape[0]
    idx_o = np.empty(K, np.int64)
    idx = unmanaged_nb(idx_o)
    nw = _worlds(rng, view, own, K, idx)
    for w in range(nw):
        for j in range(S):
            hs[w, j] = own.big[idx[w] * S + j]
    keep_alive_nb(idx_o)
    return nw


@nb.njit
def _explain_worlds_nb(view, own, hs, nw, out):
    """The reason behind a decision on the worlds ``hs[:nw]`` (a trace only): the
    key-person candidates by their share of the worlds (the three largest), and each
    living character at risk this morning in some world, with the share of those worlds.
    Called after the decision: it reuses the day buffer the decision is done with."""
    if not explaining_nb(view.why) or nw == 0:
        return
    n = view.rules.info[I.N_CHARS]
    keys = np.zeros(n)
    risk = np.zeros(n)
    pos = np.empty(n, np.int64)
    for w in range(nw):
        keys[hs[w, 0]] += 1.0 / nw
        r = _risk_nb(view, own, hs[w], out, 0, pos)
        while r:
            risk[lowest_nb(r)] += 1.0 / nw
            r &= r - U1
    for _ in range(3):
        b = -1
        for i in range(n):
            if keys[i] > 0.0 and (b < 0 or keys[i] > keys[b]):
                b = i
        if b < 0:
            break
        reason_nb(view.why, Why.CANDIDATE, b, -1, keys[b])
        keys[b] = 0.0
    for i in range(n):
        if risk[i] > 0.0:
            reason_nb(view.why, Why.AT_RISK, i, -1, risk[i])


@nb.njit
def _n_samples(view):
    return max(1, np.int64(_knob(view, K_SAMPLES, 8.0)))


@nb.njit
def bayes_move_nb(rng, view, own, out):
    """Protect the protagonist and the likely key persons from the dangers the posterior expects."""
    owned = (np.empty((_n_samples(view), _srow(view.rules)), np.int64), np.empty(view.rules.info[I.N_CHARS]))
    hs = unmanaged_nb(owned[0])
    wts = unmanaged_nb(owned[1])
    nw = _gather(rng, view, own, hs)
    _weights(view, own, wts, -1)
    k = opaque(greedy_moves_nb, (rng, view, own, hs, nw, wts, out))
    _explain_worlds_nb(view, own, hs, nw, out)
    keep_alive_nb(owned)
    return k


@nb.njit
def bayes_name_nb(rng, view, own):
    """R-2 variant: the most likely key person of the posterior (:func:`_key_shares`; ties
    and a uniform posterior: a candidate at random)."""
    opaque(update_nb, (rng, view, own, True))
    km = np.uint64(own.mem[M_KEY]) & view.alive & ~U1
    shares = np.empty(view.rules.info[I.N_CHARS])
    if km and _key_shares(view, own, km, shares) > 0.0:
        top = 0.0
        for i in range(shares.shape[0]):
            top = max(top, shares[i])
        best = U0
        for i in range(shares.shape[0]):
            if shares[i] == top:
                best |= _bit(i)
        if explaining_nb(view.why):
            for i in range(shares.shape[0]):
                if shares[i] > 0.0:
                    reason_nb(view.why, Why.CANDIDATE, i, -1, shares[i])
        return choose_bit_nb(rng, best)
    if km:
        if explaining_nb(view.why):
            for i in range(64):
                if (km >> np.uint64(i)) & U1:
                    reason_nb(view.why, Why.CANDIDATE, i, -1, 1.0 / popcount_nb(km))
        return choose_bit_nb(rng, km)
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(view.alive & ~U1))
    return choose_bit_nb(rng, view.alive & ~U1)


# ---- planner ------------------------------------------------------------------------------

@nb.njit
def _choose_victim(rng, cand, wts, cr):
    """The rollouts' scriptwriter: with probability ``cr`` the most valued candidate, else a
    random one (``cr`` 1, the default, draws nothing: the rollout is then deterministic)."""
    if cr >= 1.0 or (cr > 0.0 and uniform_nb(rng) < cr):
        best = -1.0
        v = -1
        t = cand
        while t:
            i = lowest_nb(t)
            t &= t - U1
            if wts[i] > best:
                best = wts[i]
                v = i
        return v
    return choose_bit_nb(rng, cand)


@nb.njit
def _last_day(view, horizon):
    """The last day a rollout plays: today (horizon 0) or the loop's last (horizon 1)."""
    return view.day if horizon == 0 else view.rules.info[I.DAYS]


@nb.njit
def _rollout(rng, view, own, h, mv, k, wts, pos, horizon, cr):
    """Value of moves ``mv[:k]`` in world ``h`` (its key person ``h[0]``): 0 when the
    protagonist or that key person dies by the end of today (horizon 0) or of the loop
    replaying the same moves (horizon 1), else 1 plus 0.01 x the protected weight alive;
    the days it rolled out (the caller's budget); and whether it drew a random choice (if
    not, rolling the same world out again gives the same value)."""
    R = view.rules
    buf = own.buf
    n = R.info[I.N_CHARS]
    alive = view.alive
    last = _last_day(view, horizon)
    used = 0
    drew = False
    quiet = False  # a day without a guest move was played with today's living and nobody died
    for d in range(view.day, last + 1):
        used += 1  # a skipped day counts too: the budget, and so every decision, is as before
        if quiet and R.guest_day[d] < 0:
            continue  # the same morning layout as that day (the same moves, the same living): quiet again
        layout_nb(R, h, d, alive, mv, k, pos)
        nreq = model_day_start_nb(pos, alive, R, buf)
        for r in range(nreq):
            buf.req_victim[r] = _choose_victim(rng, buf.req_cand[r], wts, cr)
        drew |= nreq > 0 and cr < 1.0
        dead = model_day_finish_nb(pos, alive, nreq, R, buf)
        alive &= ~dead
        if dead & (U1 | _bit(h[0])):
            return 0.0, used, drew  # the world's loop ends: lost
        if dead:
            quiet = False
        elif R.guest_day[d] < 0:
            quiet = True
    v = 1.0  # the loop goes on (or survives) in this world; ties go to the protected weight alive
    for i in range(n):
        if alive & _bit(i):
            v += 0.01 * wts[i]
    return v, used, drew


@nb.njit
def _place(R, h, d, alive, z, dest):
    """Character ``z``'s place in :func:`layout_nb`'s morning layout of day ``d`` under
    hypothesis ``h`` when the player's (first) move of ``z`` sends it to ``dest`` (−1: no
    move). A place depends on the character's own move only, so this is that layout's
    entry ``z`` whatever the other moves are."""
    nperm = R.info[I.N_PERM]
    p = R.home[z]
    for j in range(nperm):
        if h[1 + 2 * j] == z:
            p = h[2 + 2 * j]
    moved = False
    if dest >= 0 and (alive & _bit(z)) and not (_overridden(R, h, d) & _bit(z)):
        p = dest
        moved = True
    gk = R.guest_day[d]
    if gk >= 0 and not moved:
        g = 1 + 2 * nperm + 2 * gk
        if h[g] == z:
            p = h[g + 1]
    return p


@nb.njit
def _dest(mv, k, z):
    """Where moves ``mv[:k]`` send character ``z`` (its first move: :func:`layout_nb` skips a
    repeat), −1 if nowhere."""
    for j in range(k):
        if mv[j, 0] == z:
            return mv[j, 1]
    return -1


@nb.njit
def _same_days(R, h, d0, d1, alive, mv0, k0, mv, k):
    """Whether moves ``mv[:k]`` give world ``h`` the same morning layouts as ``mv0[:k0]``
    (another candidate's) on every day ``d0 … d1``: only the characters either set moves
    can stand elsewhere (:func:`_place`), so only they are compared. Each character's place
    depends only on its own move, whether it is alive and the scriptwriter's moves, so
    layouts equal under ``alive`` stay equal under any subset of it: the two rollouts then
    see the same days."""
    for side in range(2):
        m = mv0 if side == 0 else mv
        kk = k0 if side == 0 else k
        for j in range(kk):
            z = m[j, 0]
            if z < 0:
                continue
            a = _dest(mv0, k0, z)
            b = _dest(mv, k, z)
            if a == b:
                continue
            for d in range(d0, d1 + 1):
                if _place(R, h, d, alive, z, a) != _place(R, h, d, alive, z, b):
                    return False
    return True


@nb.njit
def _kills_only(first, c, b, nw):
    """Whether candidate ``c`` loses (value 0) some world of the first ``nw`` that candidate
    ``b`` survives, and survives none that ``b`` loses."""
    kills = False
    for w in range(nw):
        if first[c, w] <= 0.0 < first[b, w]:
            kills = True
        if first[b, w] <= 0.0 < first[c, w]:
            return False
    return kills


@nb.njit
def plan_nb(rng, view, own, hs, nw, wts, out):
    """Candidate move sets scored by determinised rollouts on the worlds ``hs[:nw]``."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    mpd = R.info[I.MOVES]
    k0 = opaque(greedy_moves_nb, (rng, view, own, hs, nw, wts, out))
    budget = np.int64(_knob(view, K_BUDGET, 256.0))
    horizon = np.int64(_knob(view, K_HORIZON, 1.0))
    alts = np.int64(_knob(view, K_ALTERNATIVES, 6.0))
    cr = _knob(view, K_CHOICE_RISK, 1.0)
    pos_o = np.empty(n, np.int64)
    pos = unmanaged_nb(pos_o)
    cap = mpd
    mm = _knob(view, K_MAX_MOVES, 64.0)
    if mm >= 1.0:
        cap = min(cap, np.int64(mm))
    if cap <= 0:
        keep_alive_nb(pos_o)
        return 0
    # candidates: the greedy set, none, and one-move changes of the greedy set
    ncand = 2 + alts
    owned = (np.full((ncand, cap, 2), -1, np.int64), np.zeros(ncand, np.int64), np.zeros(ncand),
             np.zeros(ncand, np.int64), np.zeros(ncand, np.uint8))
    cm = unmanaged_nb(owned[0])
    ck = unmanaged_nb(owned[1])
    for j in range(k0):
        cm[0, j, 0] = out[j, 0]
        cm[0, j, 1] = out[j, 1]
    ck[0] = k0
    # "none" keeps the free moves (greedy_moves_nb makes them first): a protected character
    # is never left where it died on this day of an earlier loop when its move is free
    kf = min(own.mem[M_FORCED], k0)
    for j in range(kf):
        cm[1, j, 0] = out[j, 0]
        cm[1, j, 1] = out[j, 1]
    ck[1] = kf
    prot = U0
    for i in range(n):
        if wts[i] > 0.0:
            prot |= _bit(i)
    prot &= view.alive
    for c in range(2, ncand):
        for j in range(k0):
            cm[c, j, 0] = out[j, 0]
            cm[c, j, 1] = out[j, 1]
        kk = k0
        x = choose_bit_nb(rng, prot if (prot and randint_nb(rng, 2) == 0) else view.alive)
        slot = kk if kk < cap else randint_nb(rng, cap)
        for j in range(kk):
            if cm[c, j, 0] == x:
                slot = j
        if slot < kf and cm[c, slot, 0] != x:
            slot = kf + randint_nb(rng, cap - kf) if kf < cap else slot  # a free move stays
        cm[c, slot, 0] = x
        cm[c, slot, 1] = randint_nb(rng, L)
        if slot < kf:  # a free move may go elsewhere, but not back where it died
            avoid = _died_here_mask(view, x)
            while avoid & _bit(cm[c, slot, 1]) and avoid != _bit(L) - U1:
                cm[c, slot, 1] = (cm[c, slot, 1] + 1) % L
        ck[c] = max(kk, slot + 1)
    # a candidate with the same moves as an earlier one ("none" and an empty greedy set on a
    # quiet day) is not rolled out and cannot be chosen
    dup = unmanaged_nb(owned[4])
    for c in range(1, ncand):
        for c2 in range(c):
            if ck[c2] == ck[c] and not dup[c2]:
                same = True
                for j in range(ck[c]):
                    if cm[c, j, 0] != cm[c2, j, 0] or cm[c, j, 1] != cm[c2, j, 1]:
                        same = False
                if same:
                    dup[c] = 1
                    break
    # score round-robin over worlds until the budget (rolled-out days) is spent; a round
    # over every world that drew no random choice (choice_risk 1) ends it: another round
    # would repeat the same values
    score = unmanaged_nb(owned[2])
    runs = unmanaged_nb(owned[3])
    # with choice_risk 1 a rollout draws nothing, so a candidate whose layouts in a world are
    # the greedy set's (its changed move is overridden there, or leaves the character where
    # it stands) has the greedy set's value there: taken, not rolled out again (the same
    # value and days counted, so the same decisions)
    exact = cr >= 1.0
    d0 = view.day
    d1 = _last_day(view, horizon)  # the days a rollout plays: the same the skip compares
    spent = 0
    w = 0
    npass = 0
    first_o = np.zeros((ncand, max(nw, 1)))
    first = unmanaged_nb(first_o)  # each candidate's value in each world, first round
    random = False
    v0 = 0.0
    used0 = 0
    while True:
        for c in range(ncand):
            if dup[c]:
                continue
            if c > 0 and exact and _same_days(R, hs[w], d0, d1, view.alive, cm[0], ck[0], cm[c], ck[c]):
                v, used, drew = v0, used0, False
            else:
                v, used, drew = _rollout(rng, view, own, hs[w], cm[c], ck[c], wts, pos, horizon, cr)
            if c == 0:
                v0, used0 = v, used
            random |= drew
            score[c] += v
            runs[c] += 1
            spent += used
            if npass < nw:
                first[c, w] = v
        w = (w + 1) % nw
        npass += 1
        if (w == 0 and not random) or spent >= budget or runs[0] >= 4 * nw:
            break
    # a set that loses a world "none" (the free moves alone) survives, and saves none that
    # "none" loses, is not chosen: a move that only kills is not made
    b0 = 0 if dup[1] else 1
    bc = -1
    for c in range(ncand):
        if dup[c] or (c != b0 and _kills_only(first, c, b0, min(npass, nw))):
            continue
        if bc < 0 or score[c] / runs[c] > score[bc] / runs[bc] + 1e-12:
            bc = c
    for j in range(ck[bc]):
        out[j, 0] = cm[bc, j, 0]
        out[j, 1] = cm[bc, j, 1]
    k = ck[bc]
    if explaining_nb(view.why):  # the chosen set's rollout value, and the greedy set's and none's
        reason_nb(view.why, Why.ROLLOUT, bc, 1, score[bc] / runs[bc])
        for c in range(2):
            if c != bc and not dup[c]:
                reason_nb(view.why, Why.ROLLOUT, c, 0, score[c] / runs[c])
    keep_alive_nb(pos_o, owned, first_o)
    return k


@nb.njit
def planner_move_nb(rng, view, own, out):
    """Moves chosen by rollouts on worlds sampled from bayes's posterior."""
    owned = (np.empty((_n_samples(view), _srow(view.rules)), np.int64), np.empty(view.rules.info[I.N_CHARS]))
    hs = unmanaged_nb(owned[0])
    wts = unmanaged_nb(owned[1])
    nw = _gather(rng, view, own, hs)
    _weights(view, own, wts, -1)
    k = plan_nb(rng, view, own, hs, nw, wts, out)
    _explain_worlds_nb(view, own, hs, nw, out)
    keep_alive_nb(owned)
    return k


@nb.njit
def oracle_planner_move_nb(rng, view, own, out):
    """ORACLE: the planner with the true setup (the judge's ``view.setup``) as its only world
    and the true key person (``view.key``) as the one to protect."""
    S = _srow(view.rules)
    owned = (np.empty((1, S), np.int64), np.empty(view.rules.info[I.N_CHARS]))
    hs = unmanaged_nb(owned[0])
    wts = unmanaged_nb(owned[1])
    for j in range(S):
        hs[0, j] = view.setup[j]
    _weights(view, own, wts, view.key)
    k = plan_nb(rng, view, own, hs, 1, wts, out)
    _explain_worlds_nb(view, own, hs, 1, out)
    keep_alive_nb(owned)
    return k


@nb.njit
def oracle_planner_name_nb(rng, view, own):
    """ORACLE: name the true key person."""
    reason_nb(view.why, Why.TOLD, view.key)
    return view.key


