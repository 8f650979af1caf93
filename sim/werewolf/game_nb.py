"""Whole Werewolf games in numba (docs/rules/werewolf.md, docs/werewolf.md).

Participants are bit positions; alive, team and ability sets are uint64 masks.
Strategy hooks, per side (``v_*`` village team, ``w_*`` wolf team incl. the
accomplice), all ``@njit`` and bound by :func:`sim.core.kernels.specialize`:

    vote(rng, view, cands) -> participant      # a set bit of cands (vote and runoffs)
    divine(rng, view) -> participant | -1      # seer, village side
    protect(rng, view) -> uint64 mask          # paladin, village side
    witch(rng, view) -> action*64 + target     # WITCH_PASS / WITCH_ELIMINATE / WITCH_REVIVE
    mark(rng, view) -> participant | -1        # hati, wolf side
    attack(rng, view, cands) -> participant    # wolf side, one decision per night
    speak(rng, view) -> -1 | kind*CLAIM_BASE + target*2 + read
                                               # a public claim "I am the seer (kind 0) / medium (1)
                                               # and target reads wolf(1)/village(0)"

``rng`` is the side's own stream (``Stream.VILLAGE`` / ``Stream.WOLVES`` of the game);
the rules' chance events (the deal, fenrir's drag, plurality tie breaks, random_lynch)
draw from ``Stream.RULES`` (sim.core.rng: one-way, so no side can compute another's
draws). A ``View`` (:mod:`sim.werewolf.views`) holds only what the acting participant
knows, read-only, and its own scratch ``mem``; the hooks ``v_view`` / ``w_view`` build
it (the judge's view for ``oracle_…`` strategies). Views are built per decision from
refcount-free arrays (:mod:`sim.core.nrt`): with managed arrays, numba's atomic
refcounting of the arrays in a view took most of the run time.

``log`` is None in batch runs (every ``emit_nb`` compiles to nothing) or an event log
(:mod:`sim.core.trace`) when ``sim werewolf trace`` replays one game; then each decision's
view carries a fresh reason buffer (``why``, :mod:`sim.core.reasons`: None in a batch) and
its items follow the decision's event in the log.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.bits import lowest_nb, popcount_nb
from sim.core.guard import guarded_copy_nb, guarded_nb, guarded_rows_nb, rows_view_nb
from sim.core.kernels import Choice, Selected, families, kernel_template, specialize
from sim.core.nrt import keep_alive_nb, unmanaged_nb
from sim.core.reasons import explain_nb, new_why_nb
from sim.core.rng import choose_bit_nb, randint_nb, seed_stream_nb
from sim.core.trace import emit_nb
from sim.werewolf.roles import RolesNB
from sim.werewolf.enums import (CLAIM_BASE, CLAIMS, EVENTS, HOW, WITCH_BASE, WITCH_ELIMINATE, WITCH_PASS, WITCH_REVIVE,
                                KNOB_SLOTS, Ab, Ev, How, RF, Stream, T, V, VR, W)
from sim.werewolf.views import JudgeView, View, readonly_rules_nb, view_builder  # noqa: F401 (View: API)

Counts = namedtuple("Counts", "scalars end role_games role_survived role_out days_hist win_days")
C_GAMES, C_VILLAGE, C_WOLVES, C_DRAWS, C_DAYS, C_RUNOFFS, C_NOBODY_OUT = range(7)
N_SCALARS = 7
MEM = 16
# game-constant masks (M_WOLFTEAM must stay 0: sim.werewolf.views reads masks[0])
M_WOLFTEAM, M_ATTACK, M_CWOLF, M_CVILL, M_SEERWOLF, M_MEDWOLF, M_DRAG, M_SEER, M_MEDIUM, \
    M_PALADIN, M_WITCH, M_HATI, M_FULL = range(13)
N_MASKS = 13
U1 = np.uint64(1)

# The judge's state. alive … claim_res are the public record, know[p] is what p has
# learned, mem[p] p's own scratch; votes, hati_last, pal_last, role_of and masks are the
# judge's own (a strategy sees only its own row of hati_last / pal_last).
St = namedtuple("St", "alive out_how out_day revived claim_role claim_res claimed said know mem votes "
                      "hati_last pal_last role_of masks knobs")


def new_counts(R):
    """Fresh count arrays for one chunk."""
    nr = R.table.shape[0]
    return Counts(np.zeros(N_SCALARS, np.int64), np.zeros((4, len(EVENTS)), np.int64),
                  np.zeros(nr, np.int64), np.zeros(nr, np.int64), np.zeros((nr, len(HOW)), np.int64),
                  np.zeros(int(R.var[V.MAX_DAYS]) + 2, np.int64),
                  np.zeros((4, int(R.var[V.MAX_DAYS]) + 2), np.int64))  # [winner, days]: who wins when


@nb.njit
def _bit_nb(i):
    return U1 << np.uint64(i)


@nb.njit
def new_state_nb(n):
    """The owners of a chunk's state. Every array a view hands out has memory of its own
    with guards (sim.core.guard): the public record, and each participant's row of
    knowledge, scratch and knob values (``know``, ``mem`` and ``knobs`` are
    :func:`~sim.core.guard.guarded_rows_nb` owners; :func:`unmanaged_state_nb` gives their
    data), so an index past one array's end never reaches another's."""
    st = St(guarded_nb((1,), np.uint64), guarded_nb((n,), np.int64), guarded_nb((n,), np.int64),
            guarded_nb((n,), np.int64), guarded_nb((n,), np.int64), guarded_nb((n, n), np.int64),
            guarded_nb((len(CLAIMS),), np.uint64), guarded_nb((n, 2), np.uint64),
            guarded_rows_nb(n, n, np.int64), guarded_rows_nb(n, MEM, np.int64), np.zeros(n, np.int64),
            np.full(n, -1, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros(N_MASKS, np.uint64), guarded_rows_nb(2, KNOB_SLOTS, np.float64))
    st.claim_role[:] = -1
    st.claim_res[:, :] = -1
    rows_view_nb(st.know, n)[:, :] = -1
    rows_view_nb(st.knobs, KNOB_SLOTS)[:, :] = np.nan
    return st


@nb.njit(inline="always")
def unmanaged_state_nb(st):
    """The same state as refcount-free views (see sim.core.nrt); ``st`` must outlive it.
    ``know``, ``mem`` and ``knobs`` become the data of their guarded rows."""
    n = st.role_of.shape[0]
    return St(unmanaged_nb(st.alive), unmanaged_nb(st.out_how), unmanaged_nb(st.out_day), unmanaged_nb(st.revived),
              unmanaged_nb(st.claim_role), unmanaged_nb(st.claim_res), unmanaged_nb(st.claimed), unmanaged_nb(st.said),
              rows_view_nb(st.know, n), rows_view_nb(st.mem, MEM),
              unmanaged_nb(st.votes), unmanaged_nb(st.hati_last), unmanaged_nb(st.pal_last),
              unmanaged_nb(st.role_of), unmanaged_nb(st.masks), rows_view_nb(st.knobs, KNOB_SLOTS))


@nb.njit
def guarded_rules_nb(R):
    """The rules' arrays copied into guarded memory (strategies read them), and an empty
    knob table of its own for the rules strategies see (an empty slice of ``R.knobs``
    would point at both sides' knob values)."""
    return (RolesNB(guarded_copy_nb(R.table), guarded_copy_nb(R.var), guarded_copy_nb(R.seats),
                    guarded_copy_nb(R.knobs)), guarded_nb((0, R.knobs.shape[1]), np.float64))


@nb.njit(inline="always")
def unmanaged_rules_nb(R):
    return RolesNB(unmanaged_nb(R.table), unmanaged_nb(R.var), unmanaged_nb(R.seats), unmanaged_nb(R.knobs))


@nb.njit
def setup_game_nb(st, R, rng, log):
    """Deal the roles (uniform shuffle of the composition, the rules' stream) and reset
    every per-game array: the public record, knowledge, memories, last marks and sets."""
    n = R.seats.shape[0]
    t = R.table
    role_of = st.role_of
    for i in range(n):
        role_of[i] = R.seats[i]
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = randint_nb(rng, i + 1)
        tmp = role_of[i]
        role_of[i] = role_of[j]
        role_of[j] = tmp
    # Accumulate in locals: every `st.masks` access would cost an atomic refcount pair.
    acc_village = R.var[V.ACC_VILLAGE] == 1
    full = wolfteam = cwolf = cvill = attack = seerwolf = medwolf = drag = np.uint64(0)
    seer = medium = paladin = witch = hati = np.uint64(0)
    for i in range(n):
        r = role_of[i]
        b = U1 << np.uint64(i)
        full |= b
        madv = t[r, RF.MADMAN] == 1 and acc_village
        if t[r, RF.TEAM] == 1:
            wolfteam |= b
        if t[r, RF.TEAM] == 1 and not madv:
            cwolf |= b
        else:
            cvill |= b
        if t[r, RF.ATTACKS] == 1:
            attack |= b
        if t[r, RF.SEER_WOLF] == 1 and not madv:
            seerwolf |= b
        if t[r, RF.MEDIUM_WOLF] == 1 and not madv:
            medwolf |= b
        if t[r, RF.DRAG] > 0:
            drag |= b
        ab = t[r, RF.ABILITY]
        if ab == Ab.DIVINE:
            seer |= b
        elif ab == Ab.MEDIUM:
            medium |= b
        elif ab == Ab.PROTECT:
            paladin |= b
        elif ab == Ab.WITCH:
            witch |= b
        elif ab == Ab.MARK:
            hati |= b
    ms = st.masks
    ms[M_FULL] = full
    ms[M_WOLFTEAM] = wolfteam
    ms[M_CWOLF] = cwolf
    ms[M_CVILL] = cvill
    ms[M_ATTACK] = attack
    ms[M_SEERWOLF] = seerwolf
    ms[M_MEDWOLF] = medwolf
    ms[M_DRAG] = drag
    ms[M_SEER] = seer
    ms[M_MEDIUM] = medium
    ms[M_PALADIN] = paladin
    ms[M_WITCH] = witch
    ms[M_HATI] = hati
    st.alive[0] = st.masks[M_FULL]
    wt = st.masks[M_WOLFTEAM]
    st.out_how[:] = How.ALIVE
    st.out_day[:] = 0
    st.revived[:] = 0
    st.claim_role[:] = -1
    st.hati_last[:] = -1
    st.pal_last[:] = 0
    st.claim_res[:, :] = -1
    st.claimed[:] = 0
    st.said[:, :] = 0
    st.know[:, :] = -1
    st.mem[:, :] = 0
    st.votes[:] = 0
    know = st.know
    for i in range(n):
        if (wt >> np.uint64(i)) & U1:  # the wolf team knows each other (and so everyone else)
            for j in range(n):
                know[i, j] = 1 if (wt >> np.uint64(j)) & U1 else 0
        else:
            know[i, i] = 0
    for i in range(n):
        emit_nb(log, T.DEAL, i, role_of[i])


@nb.njit(inline="always")
def winner_nb(alive, masks, var):
    """R-7, village first: 1 village, 2 wolves, 0 nobody yet."""
    w = popcount_nb(alive & masks[M_CWOLF])
    if w == 0:
        return W.VILLAGE
    v = popcount_nb(alive & masks[M_CVILL])
    if var[V.END_NO_VILLAGERS] == 1:
        return W.WOLVES if v == 0 else W.NONE
    return W.WOLVES if v <= w else W.NONE


@nb.njit
def leave_nb(alive_a, out_how, out_day, role_of, masks, table, rng, mask, how, day, log):
    """Participants in mask leave; fenrir's drag (the rules' stream) is part of the same event (Q-3)."""
    alive = alive_a[0]
    m = mask & alive
    alive &= ~m
    t = m
    while t:
        p = lowest_nb(t)
        t &= t - U1
        out_how[p] = how
        out_day[p] = day
        emit_nb(log, T.OUT, p, how)
    dr = m & masks[M_DRAG]
    while dr:
        p = lowest_nb(dr)
        dr &= dr - U1
        for _ in range(table[role_of[p], RF.DRAG]):
            cands = alive & masks[M_CVILL]
            if cands == 0:
                break
            c = choose_bit_nb(rng, cands)
            alive &= ~_bit_nb(c)
            out_how[c] = How.DRAGGED
            out_day[c] = day
            emit_nb(log, T.DRAG, p, c)
    alive_a[0] = alive


@nb.njit(inline="always")
def _withheld_nb(var, slot, role):
    """Restricted play (data, not a kernel): the role's ability or claims are withheld."""
    return (var[slot] >> role) & 1 == 1


@nb.njit(inline="always")
def acts_nb(alive, var, p):
    """Whether participant p's ability works now (R-6)."""
    return (alive >> np.uint64(p)) & U1 or var[V.AFTER_ELIM] == 1


@nb.njit(inline="always")
def has_nb(mask, p):
    return (mask >> np.uint64(p)) & U1 != 0


HOOKS = ("v_vote", "v_divine", "v_protect", "v_witch", "v_speak", "v_view",
         "w_vote", "w_mark", "w_attack", "w_speak", "w_view")
# Hooks called with their side's selector first: one kernel plays every built-in family
# of a side (sim.core.kernels.Choice); the view builders are one per kernel.
CHOSEN = tuple(h for h in HOOKS if not h.endswith("_view"))


# The template's hooks are bound to real strategies by sim.core.kernels.specialize.
@kernel_template(hooks=HOOKS, chosen=CHOSEN)
def play_chunk_nb(key, start, count, R, out, log, sel):
    """Template: games [start, start+count) with the bound strategy hooks (``log``: None,
    or an event log that records every event of the games). ``log`` has no default: an
    omitted argument is a type of its own to numba, one more compile of the whole kernel.
    ``sel``: the village's and the wolves' selectors, which candidate of each chosen hook
    plays (:func:`chunk_kernel` appends it)."""
    sel_v = sel[0]
    sel_w = sel[1]
    n = R.seats.shape[0]
    owned = new_state_nb(n)  # keeps the memory alive for the unmanaged views below
    st = unmanaged_state_nb(owned)
    R_owned, no_knobs = guarded_rules_nb(R)
    R = unmanaged_rules_nb(R_owned)
    Rv = readonly_rules_nb(R, no_knobs)  # the rules as strategies see them (no knobs: each side sees its own)
    for s in range(R.knobs.shape[0]):  # the sides' knob values; NaN: the strategy's default
        for k in range(min(R.knobs.shape[1], KNOB_SLOTS)):
            st.knobs[s, k] = R.knobs[s, k]
    # Unpack once: each tuple-field access in the loop would cost atomic refcounts.
    alive_a = st.alive
    out_how = st.out_how
    out_day = st.out_day
    revived = st.revived
    claim_role = st.claim_role
    claim_res = st.claim_res
    claimed = st.claimed
    said = st.said
    know = st.know
    votes = st.votes
    hati_last = st.hati_last
    pal_last = st.pal_last
    role_of = st.role_of
    masks = st.masks
    table = R.table
    var = R.var
    sc = out.scalars
    # The three streams live in one owned array; the loop uses refcount-free views of it
    # (a managed stream passed to every hook cost an atomic refcount pair per decision).
    # Each stream is an allocation of its own with guards (sim.core.guard): a side that reads
    # past its stream's end must not find the other side's or the rules' (issue 38).
    rngs = (guarded_nb((4,), np.uint64), guarded_nb((4,), np.uint64), guarded_nb((4,), np.uint64))
    rng = unmanaged_nb(rngs[0])      # the rules' chance events
    rng_v = unmanaged_nb(rngs[1])    # the village side's decisions
    rng_w = unmanaged_nb(rngs[2])    # the wolf side's decisions
    max_days = var[V.MAX_DAYS]
    rule = var[V.VOTE_RULE]
    nothing = np.uint64(0)
    for g in range(start, start + count):
        seed_stream_nb(rng, key, g, Stream.RULES)
        seed_stream_nb(rng_v, key, g, Stream.VILLAGE)
        seed_stream_nb(rng_w, key, g, Stream.WOLVES)
        setup_game_nb(st, R, rng, log)
        wt = masks[M_WOLFTEAM]
        win = W.NONE
        ev = Ev.MAX_DAYS
        voted_yday = np.uint64(0)
        day = 0
        night_first = var[V.START_NIGHT] == 1
        while win == W.NONE:
            if not night_first:
                day += 1
                if day > max_days:
                    win = W.DRAW
                    emit_nb(log, T.CHECK, W.DRAW, Ev.MAX_DAYS)
                    break
                emit_nb(log, T.PHASE, day, 0)
                # ---- 17:00: hati marks, the seer divines, the medium reads ----
                marked = np.uint64(0)
                hs = masks[M_HATI]
                while hs:
                    h = lowest_nb(hs)
                    hs &= hs - U1
                    if not acts_nb(alive_a[0], var, h):
                        hati_last[h] = -1
                        emit_nb(log, T.IDLE, h, Ab.MARK)
                        continue
                    why = new_why_nb(log)
                    m = -1 if _withheld_nb(var, V.WITHHOLD, role_of[h]) else \
                        w_mark(sel_w, rng_w, w_view(st, Rv, h, day, 0, marked, nothing, why))
                    if m >= 0:
                        if m >= n or m == h or m == hati_last[h] or not has_nb(alive_a[0], m):
                            raise ValueError("hati: illegal mark")
                        marked |= _bit_nb(m)
                    hati_last[h] = m
                    emit_nb(log, T.MARK, h, m)
                    explain_nb(log, why, h)
                ss = masks[M_SEER]
                while ss:
                    s = lowest_nb(ss)
                    ss &= ss - U1
                    if not acts_nb(alive_a[0], var, s):
                        emit_nb(log, T.IDLE, s, Ab.DIVINE)
                        continue
                    why = new_why_nb(log)
                    t = -1 if _withheld_nb(var, V.WITHHOLD, role_of[s]) else \
                        v_divine(sel_v, rng_v, v_view(st, Rv, s, day, 0, marked, nothing, why))
                    if t >= 0:
                        if t >= n or t == s or not has_nb(alive_a[0], t):
                            raise ValueError("seer: illegal divination")
                        know[s, t] = 1 if has_nb(marked | masks[M_SEERWOLF], t) else 0
                        emit_nb(log, T.DIVINE, s, t, know[s, t], has_nb(marked, t))
                        explain_nb(log, why, s)
                ms = masks[M_MEDIUM]
                while ms:
                    md = lowest_nb(ms)
                    ms &= ms - U1
                    if not acts_nb(alive_a[0], var, md):
                        emit_nb(log, T.IDLE, md, Ab.MEDIUM)
                        continue
                    y = voted_yday
                    while y:
                        p = lowest_nb(y)
                        y &= y - U1
                        know[md, p] = 1 if has_nb(masks[M_MEDWOLF], p) else 0
                        emit_nb(log, T.MEDIUM, md, p, know[md, p])
                # public claims
                for p in range(n):
                    if has_nb(alive_a[0], p) and not _withheld_nb(var, V.WITHHOLD_CLAIMS, role_of[p]):
                        why = new_why_nb(log)
                        if has_nb(wt, p):
                            c = w_speak(sel_w, rng_w, w_view(st, Rv, p, day, 0, marked, nothing, why))
                        else:
                            c = v_speak(sel_v, rng_v, v_view(st, Rv, p, day, 0, marked, nothing, why))
                        if c >= 0:
                            kind = c // CLAIM_BASE
                            t = (c % CLAIM_BASE) >> 1
                            r = c & 1
                            if t >= n or kind >= len(CLAIMS):
                                raise ValueError("speak: bad claim")
                            if claim_role[p] >= 0 and claim_role[p] != kind:
                                raise ValueError("speak: a second role claimed")
                            claim_role[p] = kind
                            claimed[kind] |= _bit_nb(p)
                            claim_res[p, t] = r
                            said[p, r] |= _bit_nb(t)
                            said[p, 1 - r] &= ~_bit_nb(t)
                            emit_nb(log, T.CLAIM, p, t, r, kind)
                            explain_nb(log, why, p)
                # ---- 18:00: the vote ----
                out_now = np.uint64(0)
                alive = alive_a[0]
                if rule == VR.RANDOM_LYNCH:
                    out_now = _bit_nb(choose_bit_nb(rng, alive))
                    emit_nb(log, T.LYNCH, lowest_nb(out_now))
                else:
                    cands = alive
                    runoffs = 0
                    while True:
                        for p in range(n):
                            votes[p] = 0
                        for p in range(n):
                            if has_nb(alive, p):
                                why = new_why_nb(log)
                                if has_nb(wt, p):
                                    t = w_vote(sel_w, rng_w, w_view(st, Rv, p, day, runoffs, marked, nothing, why), cands)
                                else:
                                    t = v_vote(sel_v, rng_v, v_view(st, Rv, p, day, runoffs, marked, nothing, why), cands)
                                if t < 0 or t >= n or not has_nb(cands, t):
                                    raise ValueError("vote: not a candidate")
                                votes[t] += 1
                                emit_nb(log, T.BALLOT, p, t, runoffs)
                                explain_nb(log, why, p)
                        best = 0
                        top = np.uint64(0)
                        for p in range(n):
                            if votes[p] > best:
                                best = votes[p]
                                top = _bit_nb(p)
                            elif votes[p] == best and best > 0:
                                top |= _bit_nb(p)
                        k = popcount_nb(top)
                        emit_nb(log, T.TALLY, runoffs, np.int64(top), best)
                        if rule == VR.PLURALITY:
                            if k == 1:
                                out_now = top
                            else:
                                out_now = _bit_nb(choose_bit_nb(rng, top))
                                emit_nb(log, T.TIEBREAK, np.int64(top), lowest_nb(out_now))
                            break
                        if k <= 2:
                            out_now = top
                            break
                        if runoffs >= var[V.MAX_RUNOFFS]:
                            sc[C_NOBODY_OUT] += 1
                            emit_nb(log, T.NOBODY, runoffs)
                            break
                        runoffs += 1
                        sc[C_RUNOFFS] += 1
                        cands = top
                        emit_nb(log, T.RUNOFF, runoffs, np.int64(cands))
                voted_yday = out_now
                if out_now:
                    leave_nb(alive_a, out_how, out_day, role_of, masks, table, rng, out_now, How.VOTED, day, log)
                    win = winner_nb(alive_a[0], masks, var)
                    emit_nb(log, T.CHECK, win, Ev.VOTE)
                    if win != W.NONE:
                        ev = Ev.VOTE
                        break
                # ---- after the vote: the witch ----
                ws = masks[M_WITCH]
                while ws and win == W.NONE:
                    wi = lowest_nb(ws)
                    ws &= ws - U1
                    if not acts_nb(alive_a[0], var, wi):
                        emit_nb(log, T.IDLE, wi, Ab.WITCH)
                        continue
                    why = new_why_nb(log)
                    code = WITCH_PASS if _withheld_nb(var, V.WITHHOLD, role_of[wi]) else \
                        v_witch(sel_v, rng_v, v_view(st, Rv, wi, day, 0, marked, nothing, why))
                    act = code // WITCH_BASE
                    t = code % WITCH_BASE
                    if act == WITCH_ELIMINATE:
                        if t >= n or t == wi or not has_nb(alive_a[0], t):
                            raise ValueError("witch: can only eliminate a living other")
                        emit_nb(log, T.WITCH, wi, act, t)
                        explain_nb(log, why, wi)
                        leave_nb(alive_a, out_how, out_day, role_of, masks, table, rng, _bit_nb(t), How.WITCH, day,
                                 log)
                        win = winner_nb(alive_a[0], masks, var)
                        emit_nb(log, T.CHECK, win, Ev.WITCH)
                        if win != W.NONE:
                            ev = Ev.WITCH
                    elif act == WITCH_REVIVE:
                        if t >= n or t == wi or has_nb(alive_a[0], t):
                            raise ValueError("witch: can only revive an out participant")
                        emit_nb(log, T.WITCH, wi, act, t)
                        explain_nb(log, why, wi)
                        alive_a[0] |= _bit_nb(t)
                        out_how[t] = How.ALIVE
                        revived[t] += 1
                        win = winner_nb(alive_a[0], masks, var)
                        emit_nb(log, T.CHECK, win, Ev.REVIVE)
                        if win != W.NONE:
                            ev = Ev.REVIVE
                    else:
                        emit_nb(log, T.WITCH, wi, 0, -1)
                        explain_nb(log, why, wi)
                if win != W.NONE:
                    break
            night_first = False
            emit_nb(log, T.PHASE, day, 1)
            # ---- 21:00 paladin, 22:00 attack ----
            protected = np.uint64(0)
            ps = masks[M_PALADIN]
            while ps:
                pl = lowest_nb(ps)
                ps &= ps - U1
                if not acts_nb(alive_a[0], var, pl):
                    pal_last[pl] = 0
                    emit_nb(log, T.IDLE, pl, Ab.PROTECT)
                    continue
                why = new_why_nb(log)
                m = np.uint64(0) if _withheld_nb(var, V.WITHHOLD, role_of[pl]) else \
                    v_protect(sel_v, rng_v, v_view(st, Rv, pl, day, 0, nothing, protected, why))
                if (m & ~(alive_a[0] & ~_bit_nb(pl))) or popcount_nb(m) > table[role_of[pl], RF.PROTECT] \
                        or (popcount_nb(m) >= 2 and np.int64(m) == pal_last[pl]):
                    raise ValueError("paladin: illegal protection")
                protected |= m
                pal_last[pl] = np.int64(m)
                emit_nb(log, T.PROTECT, pl, np.int64(m))
                explain_nb(log, why, pl)
            attackers = alive_a[0] & masks[M_ATTACK]
            if not attackers and var[V.LONE_ACC_ATTACKS] == 1:
                attackers = alive_a[0] & wt  # Q-2 variant: the wolf team is the accomplice alone
            if attackers:
                cands = alive_a[0] & ~wt
                if cands:
                    a0 = lowest_nb(attackers)
                    why = new_why_nb(log)
                    t = w_attack(sel_w, rng_w, w_view(st, Rv, a0, day, 0, nothing, protected, why), cands)
                    if t < 0 or t >= n or not has_nb(cands, t):
                        raise ValueError("attack: not a candidate")
                    emit_nb(log, T.ATTACK, a0, t, has_nb(protected, t))
                    explain_nb(log, why, a0)
                    if not (protected & _bit_nb(t)):
                        leave_nb(alive_a, out_how, out_day, role_of, masks, table, rng, _bit_nb(t), How.ATTACKED,
                                 day, log)
                        win = winner_nb(alive_a[0], masks, var)
                        emit_nb(log, T.CHECK, win, Ev.ATTACK)
                        if win != W.NONE:
                            ev = Ev.ATTACK
                else:
                    emit_nb(log, T.NOATTACK, 1)
            else:
                emit_nb(log, T.NOATTACK, 0)
        # ---- tally ----
        sc[C_GAMES] += 1
        if win == W.VILLAGE:
            sc[C_VILLAGE] += 1
        elif win == W.WOLVES:
            sc[C_WOLVES] += 1
        else:
            sc[C_DRAWS] += 1
        d = min(day, max_days)  # a draw played max_days days
        sc[C_DAYS] += d
        out.days_hist[d] += 1
        out.win_days[win, d] += 1
        out.end[win, ev] += 1
        alive = alive_a[0]
        for p in range(n):
            r = role_of[p]
            out.role_games[r] += 1
            if has_nb(alive, p):
                out.role_survived[r] += 1
            else:
                out.role_out[r, out_how[p]] += 1
    # Numba frees a variable after its last use: keep the owners of the views alive to here.
    keep_alive_nb(owned, rngs, R_owned, no_knobs)


V_HOOKS = ("vote", "divine", "protect", "witch", "speak")
W_HOOKS = ("vote", "mark", "attack", "speak")


def _hook_fns(s):
    """A family's hook functions (village or wolves), with its view builder last."""
    names = V_HOOKS if hasattr(s, "divine") else W_HOOKS
    return tuple(getattr(s, k) for k in names) + (view_builder(s),)


def chunk_kernel(village, wolves):
    """The compiled (disk-cached) chunk kernel for a village and a wolf strategy family
    (``kernel(key, start, count, R, out, log)``, ``log`` None or an event log); an ``oracle_…``
    family's hooks receive the judge's view. Any pair of shipped families plays in one
    kernel per kind of views, compiled once (:func:`sim.core.kernels.families`)."""
    from strategies.werewolf import SHIPPED  # here: strategies depend on the game, not back

    # random vs random, the cheapest game (~2 µs), played a third slower among the other
    # families' code: a kernel of its own (sim.werewolf.protocol.Werewolf.kernel_pairs)
    alone = all(getattr(s, "name", None) == "random" for s in (village, wolves))
    group = (lambda s: (view_builder(s), getattr(s, "name", None) == "random")) if alone else view_builder
    (vc, vi), (wc, wi) = families((village, wolves), SHIPPED, _hook_fns, group)
    hooks = {f"v_{k}": Choice(c[j] for c in vc) for j, k in enumerate(V_HOOKS)}
    hooks.update({f"w_{k}": Choice(c[j] for c in wc) for j, k in enumerate(W_HOOKS)})
    hooks["v_view"] = vc[0][-1]
    hooks["w_view"] = wc[0][-1]
    return Selected(specialize(play_chunk_nb, hooks), (vi, wi))
