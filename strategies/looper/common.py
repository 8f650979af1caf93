"""Helpers for Looper strategies: beliefs about the layout and what-if days.

Everything here reads only the fields of a PlayerView (sim/looper/views.py: the public
rules, the clock, who is alive, announcements, the player's own moves, loop ends and names)
and writes only the player's own Scratch (``own.mem``, ``own.buf``), so strategies built on
it are honest, not oracles. (An oracle view has the same fields and more, so they serve
``oracle_…`` players too.)
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.reasons import explaining_nb, reason_nb
from sim.core.rng import randint_nb
from sim.looper.enums import MAX_GUEST_DAYS, F, I, Kind, Why
from sim.looper.day_nb import S_DEAD
from strategies.looper.model import model_day_start_nb

U1 = np.uint64(1)
# mem slots used by these helpers (strategies own the others)
MEM_SEEN = 2      # days of announcements already digested
MEM_POS = 64      # MEM_POS + c: believed base location of c, plus 1 (0 = as in the table)
MEM_PINNED = 3    # mask of characters seen ignoring the player's moves (scriptwriter-moved)
MEM_GUEST = 128   # MEM_GUEST + 2k, +2k+1: guest move k seen in an announcement (char + 1, loc);
                  # room for MAX_GUEST_DAYS (sim/looper/roster.py enforces it) below bayes's slots (200 …)
assert MEM_GUEST + 2 * MAX_GUEST_DAYS <= 200


@nb.njit
def at_risk_nb(pos, alive, rules, buf):
    """Characters that a day on ``pos`` would kill or could kill (any choice candidate)."""
    nreq = model_day_start_nb(pos, alive, rules, buf)
    risk = buf.st[S_DEAD]
    for r in range(nreq):
        risk |= buf.req_cand[r]
    return risk


@nb.njit
def believed_layout_nb(view, mem, pos):
    """The layout the player believes in: the table, corrected by what deaths revealed.

    A character announced dead somewhere else than its table place, on a day without a
    guest move and without a move of the player's, was moved there by the scriptwriter
    for good (permanent moves are the same every loop). Turf King's false places are
    undone where the body was announced one place past a misreporter the character is
    believed to stand with (the death is believed to have happened at the misreporter's).
    """
    R = view.rules
    n = R.info[I.N_CHARS]
    days = R.info[I.DAYS]
    now = view.loop * days + view.day - 1
    for t in range(mem[MEM_SEEN], now):
        lp = t // days
        d = t % days
        gk = R.guest_day[d + 1]
        for c in range(1, n):
            l = view.ann[lp, d, c]
            if l < 0:
                continue
            # Turf King (misreport rule) may have moved the body one place on: if the
            # character was believed to stand where a misreporter stands, believe that.
            cur = mem[MEM_POS + c] - 1 if mem[MEM_POS + c] > 0 else R.home[c]
            for e in range(R.effects.shape[0]):
                if R.effects[e, F.KIND] == Kind.MISREPORT_DEATHS:
                    a = R.effects[e, F.ACTOR]
                    ma = mem[MEM_POS + a] - 1 if mem[MEM_POS + a] > 0 else R.home[a]
                    if R.next_loc[ma] == l and cur == ma:
                        l = ma
            mine = -1
            for j in range(view.moves.shape[2]):
                if view.moves[lp, d, j, 0] == c:
                    mine = view.moves[lp, d, j, 1]
            if gk >= 0 and l != R.home[c] and mine < 0:
                # died away from its place on a guest day: most likely today's guest move,
                # which is the same in every loop
                mem[MEM_GUEST + 2 * gk] = c + 1
                mem[MEM_GUEST + 2 * gk + 1] = l
            elif gk >= 0:
                continue
            elif mine < 0:
                mem[MEM_POS + c] = l + 1
            elif mine != l and R.next_loc[mine] != l:
                # moved by the player yet died elsewhere: the scriptwriter holds it
                mem[MEM_POS + c] = l + 1
                mem[MEM_PINNED] |= np.int64(1) << np.int64(c)
    if now > mem[MEM_SEEN]:
        mem[MEM_SEEN] = now
    for i in range(n):
        pos[i] = mem[MEM_POS + i] - 1 if i > 0 and mem[MEM_POS + i] > 0 else R.home[i]
    gk = R.guest_day[view.day]
    if gk >= 0 and mem[MEM_GUEST + 2 * gk] > 0:
        pos[mem[MEM_GUEST + 2 * gk] - 1] = mem[MEM_GUEST + 2 * gk + 1]


@nb.njit
def _risk_count_nb(pos, alive, R, buf, protect_mask, choices):
    """Protected characters at risk; ``choices`` False counts only certain deaths, not the
    candidates of a "one character dies" rule."""
    nreq = model_day_start_nb(pos, alive, R, buf)
    risk = buf.st[S_DEAD]
    if choices:
        for r in range(nreq):
            risk |= buf.req_cand[r]
    return risk & protect_mask & alive


# The knobs of the protecting players (cautious, deducer), in their declared order; a
# strategy's view.knobs holds them (strategies.looper.PROTECT_KNOBS).
PK_MAX_MOVES, PK_PROTAGONIST_FIRST, PK_MIN_GAIN, PK_COUNT_CHOICES = range(4)
MAX_MOVES_ALL = 64  # more moves than characters: the rules' daily limit is the only one


@nb.njit
def protect_knobs_nb(rng, view, own, protect_mask, out):
    """:func:`protect_with_nb` with the knob values of ``view.knobs`` (the defaults when
    the strategy declares fewer: a plug-in reusing a built-in move without its knobs)."""
    kn = view.knobs
    if kn.shape[0] < 4:
        return protect_nb(rng, view, own, protect_mask, out)
    return protect_with_nb(rng, view, own, protect_mask, out, np.int64(kn[PK_MAX_MOVES]),
                           kn[PK_PROTAGONIST_FIRST] != 0.0, np.int64(kn[PK_MIN_GAIN]), kn[PK_COUNT_CHOICES] != 0.0)


@nb.njit
def protect_nb(rng, view, own, protect_mask, out):
    """:func:`protect_with_nb` at the defaults (every move, protagonist first, any gain,
    choice candidates count as at risk)."""
    return protect_with_nb(rng, view, own, protect_mask, out, MAX_MOVES_ALL, True, 1, True)


@nb.njit
def protect_with_nb(rng, view, own, protect_mask, out, max_moves, protagonist_first, min_gain, count_choices):
    """Use the day's moves to take protected characters out of visible danger.

    Greedy, protagonist first (bit 0 is lowest; ``protagonist_first`` False: it is drawn
    with the others), then the others in random order. For a character at risk it tries
    moving the character itself or anyone sharing its place (a likely killer) to every
    other place, and keeps the move that leaves the fewest protected characters at risk,
    if that is at least ``min_gain`` fewer than now. At most ``max_moves`` moves a day
    (and the rules' limit). A character is at risk when a day on the believed layout
    kills it, or (``count_choices``) it is a candidate of a "one character dies" rule.
    Its reason (a trace): the protected characters at risk on the believed layout, and for
    each move those it takes out of danger.
    """
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    mpd = R.info[I.MOVES]
    alive = view.alive
    mem = own.mem
    pos = np.empty(n, np.int64)
    believed_layout_nb(view, mem, pos)
    risk = _risk_count_nb(pos, alive, R, own.buf, protect_mask, count_choices)
    if explaining_nb(view.why):
        t = risk
        while t:
            reason_nb(view.why, Why.AT_RISK, lowest_nb(t), -1, 1.0)
            t &= t - U1
    k = 0
    tried = np.uint64(0)
    moved = np.uint64(0)
    cap = min(mpd, max_moves)
    while k < cap and (risk & ~tried):
        todo = risk & ~tried
        if protagonist_first and (todo & U1):
            c = 0
        else:
            j = randint_nb(rng, popcount_nb(todo))
            t = todo
            for _ in range(j):
                t &= t - U1
            c = lowest_nb(t)
        tried |= U1 << np.uint64(c)
        best = popcount_nb(risk) - (min_gain - 1)  # a move must leave fewer than this at risk
        best_x = -1
        best_l = -1
        movers = np.uint64(0)
        for i in range(n):
            if (alive >> np.uint64(i)) & U1 and pos[i] == pos[c]:
                movers |= U1 << np.uint64(i)
        movers &= ~moved & ~np.uint64(mem[MEM_PINNED])
        gk = R.guest_day[view.day]
        if gk >= 0 and mem[MEM_GUEST + 2 * gk] > 0:
            movers &= ~(U1 << np.uint64(mem[MEM_GUEST + 2 * gk] - 1))  # today's guest
        off = randint_nb(rng, L)
        m = movers
        while m:
            x = lowest_nb(m)
            m &= m - U1
            old = pos[x]
            for s in range(L):
                l = (off + s) % L
                if l == old:
                    continue
                pos[x] = l
                r2 = _risk_count_nb(pos, alive, R, own.buf, protect_mask, count_choices)
                if popcount_nb(r2) < best:
                    best = popcount_nb(r2)
                    best_x = x
                    best_l = l
            pos[x] = old
        if best_x >= 0:
            pos[best_x] = best_l
            moved |= U1 << np.uint64(best_x)
            out[k, 0] = best_x
            out[k, 1] = best_l
            k += 1
            before = risk
            risk = _risk_count_nb(pos, alive, R, own.buf, protect_mask, count_choices)
            if explaining_nb(view.why):
                t = before & ~risk
                while t:
                    reason_nb(view.why, Why.PREVENTS, lowest_nb(t), k - 1)
                    t &= t - U1
            tried = np.uint64(0)  # the layout changed: everyone at risk is worth a new try
    return k
