"""Whole Looper games in numba: setup, loops, days, player moves, aggregation.

Strategy hooks (all ``@njit``; see docs/looper.md and strategies/looper/):

    player.move(rng, view: PlayerView, own: Scratch, out) -> int  # fills out[k] = (char, loc)
    player.name_key(rng, view: PlayerView, own: Scratch) -> int   # R-2 variant: named character
    scriptwriter.setup(rng, view: WriterView, params, out)        # key, permanent and guest moves
    scriptwriter.choose(rng, view: WriterView, params, actor, candidates) -> int

Each side's ``rng`` is its own xoshiro256** stream of the game (``Stream.PLAYER``,
``Stream.SCRIPTWRITER``; one-way seeding, :mod:`sim.core.rng`), so a player that steps its
generator back reaches only its own start. Views are built from whitelists
(:mod:`sim.looper.views`) for each decision, every array read-only (each side's knob
values ``p_knobs`` / ``w_knobs``, float64, reach it as ``view.knobs``); ``own`` is the
player's writable scratch (``mem`` int64[256], kept across the days and loops of one game,
and a day buffer for what-if days). ``p_view`` is bound with the player: the honest
:func:`~sim.looper.views.player_view_nb`, or the judge's state for ``oracle_…`` players.

``log`` is None for the batch (every ``emit_nb`` compiles to nothing) or an event log
(:mod:`sim.core.trace`) when a game is traced: the same kernel either way. In a trace each
decision's view carries a fresh reason buffer (``why``, :mod:`sim.core.reasons`; None in
a batch), whose items follow the decision's event; each day ends with its board (every
character's place and stress).
"""
from collections import namedtuple

import numpy as np

from sim.core.bits import lowest_nb
from sim.core.kernels import Selected, kernel_template, specialize
from sim.core.guard import guarded_copy_nb, guarded_nb
from sim.core.nrt import keep_alive_nb, unmanaged_nb
from sim.core.reasons import explain_nb, new_why_nb
from sim.core.rng import seed_stream_nb
from sim.core.views import is_oracle
from sim.looper.enums import Ev, F, I, LoopEnd, MoveStatus, Precedence, Stream
from sim.looper.day_nb import (day_buffers_nb, day_finish_nb, day_start_nb, ev_nb, guarded_day_buffers_nb,
                              guarded_roster_nb, unmanaged_buffers_nb, unmanaged_roster_nb)
from sim.looper.views import (OracleView, PlayerView, Scratch, WriterView, oracle_view_nb,  # noqa: F401
                              player_view_nb, rules_view_nb, writer_view_nb)

# deaths[victim, effect]; killers[victim, effect, actor]: the same deaths by the character that
# acted (the agitated one for the agitator's granted kill, P-3; else the rule's owner);
# key_end[c]: loops that ended with c's death as the key person
Counts = namedtuple("Counts", "scalars wins_by_loop deaths key_games key_wins end_day killers key_end")
# scalars slots; C_DECISIONS / C_BLIND: what a reasoning player reports of its own decisions
# (own.mem[MEM_DECISIONS], own.mem[MEM_BLIND], summed at each game's end; 0 for the others)
C_GAMES, C_WINS, C_LOOPS, C_DAYS, C_PROT_DEATHS, C_KEY_DEATHS, C_WRONG_NAME, C_DECISIONS, C_BLIND = range(9)
N_SCALARS = 9
MEM = 256  # strategy scratch per game (int64)
# a player's report slots in own.mem: its decisions, and those it took holding no hypothesis
# consistent with everything announced (strategies/looper/bayes.py counts them)
MEM_DECISIONS = MEM - 2
MEM_BLIND = MEM - 1
BIG = 8192  # a strategy's larger scratch (int64), NOT zeroed per game: a strategy sets what it reads


def new_counts(R):
    """Fresh count arrays for one chunk."""
    n = int(R.info[I.N_CHARS])
    return Counts(
        np.zeros(N_SCALARS, np.int64),
        np.zeros(int(R.info[I.MAX_LOOPS]), np.int64),
        np.zeros((n, R.effects.shape[0]), np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.zeros(int(R.info[I.DAYS]) + 2, np.int64),
        np.zeros((n, R.effects.shape[0], n), np.int64),
        np.zeros(n, np.int64),
    )


def setup_size(R) -> int:
    """Columns of a scriptwriter's setup row for this roster."""
    return 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])


# The template's hooks are bound to real strategies by sim.core.kernels.specialize.
# p_move, p_name, w_setup and w_choose are called with their side's selector first, so a
# kernel could hold several candidates (sim.core.kernels.Choice); the Looper binds one per
# pair (strategy_kernel says why), and the player's view builder is one per kernel.
@kernel_template(hooks=("p_move", "p_name", "p_view", "w_setup", "w_choose"),
                 chosen=("p_move", "p_name", "w_setup", "w_choose"))
def play_chunk_nb(key, start, count, R, w_params, wrong_name_ends, fixed_key, p_knobs, w_knobs, out, log, sel):
    """Template: games [start, start+count) with the bound strategy hooks (``sel``: the
    player's and the scriptwriter's selectors, appended by :func:`chunk_kernel`)."""
    sel_p = sel[0]
    sel_w = sel[1]
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    loops = R.info[I.MAX_LOOPS]
    days = R.info[I.DAYS]
    mpd = R.info[I.MOVES]
    nperm = R.info[I.N_PERM]
    must_name = R.info[I.MUST_NAME]
    stay = R.info[I.STAY_MOVES]
    key_movable = R.info[I.KEY_MOVABLE]
    prec = R.info[I.PRECEDENCE]
    # Every array the loop and the hooks touch is a refcount-free view (sim.core.nrt) of an
    # array owned here (or of the caller's arguments): a strategy that hands its view or
    # scratch to non-inlined helpers (bayes, per particle and per candidate move) otherwise
    # paid an atomic refcount pair per array per call, half of its run time under perf.
    B_owned = day_buffers_nb(R)
    B = unmanaged_buffers_nb(B_owned)
    # Every array a view or a hook argument hands a strategy has memory of its own with
    # guards (sim.core.guard): the rules, each side's stream, knobs and parameters, the
    # player's copies and scratch, the scriptwriter's copies. An index past one of them
    # reads zeros, never the other side's stream or the judge's setup (issue 38).
    R_owned = guarded_roster_nb(R)
    R = unmanaged_roster_nb(R_owned)
    knobs_owned = (guarded_copy_nb(p_knobs), guarded_copy_nb(w_knobs), guarded_copy_nb(w_params))
    p_knobs = unmanaged_nb(knobs_owned[0])
    w_knobs = unmanaged_nb(knobs_owned[1])
    w_params = unmanaged_nb(knobs_owned[2])
    rules = rules_view_nb(R)  # public; the same read-only arrays for both sides
    rng_owned = (guarded_nb((4,), np.uint64), guarded_nb((4,), np.uint64))
    prng = unmanaged_nb(rng_owned[0])
    wrng = unmanaged_nb(rng_owned[1])
    # the player's own copies of what it was told
    ann_owned = guarded_nb((loops, days, n), np.int64)
    ann = unmanaged_nb(ann_owned)
    moves_owned = guarded_nb((loops, days, max(mpd, 1), 2), np.int64)
    moves = unmanaged_nb(moves_owned)
    loop_end_owned = guarded_nb((loops,), np.int64)
    loop_end = unmanaged_nb(loop_end_owned)
    named_owned = guarded_nb((loops,), np.int64)
    named = unmanaged_nb(named_owned)
    own_owned = Scratch(guarded_nb((MEM,), np.int64), guarded_day_buffers_nb(day_buffers_nb(R)),
                        guarded_nb((BIG,), np.int64))
    own = Scratch(unmanaged_nb(own_owned.mem), unmanaged_buffers_nb(own_owned.buf), unmanaged_nb(own_owned.big))
    # the scriptwriter's: its setup as it made it, the town when it chooses
    S = 1 + 2 * nperm + 2 * R.info[I.N_GUEST]
    w_owned = (guarded_nb((S,), np.int64), guarded_nb((n,), np.int64), guarded_nb((n,), np.int64))
    wsetup = unmanaged_nb(w_owned[0])
    wpos = unmanaged_nb(w_owned[1])
    wstress = unmanaged_nb(w_owned[2])
    # the judge's
    j_owned = np.zeros((3, max(S, n)), np.int64)
    setup = unmanaged_nb(j_owned[0, :S])
    base = unmanaged_nb(j_owned[1, :n])
    pos = unmanaged_nb(j_owned[2, :n])
    mv_owned = guarded_nb((max(mpd, 1), 2), np.int64)  # the player's move buffer
    mv = unmanaged_nb(mv_owned)
    full = np.uint64(0)
    for i in range(n):
        full |= np.uint64(1) << np.uint64(i)
    for g in range(start, start + count):
        seed_stream_nb(prng, key, g, Stream.PLAYER)
        seed_stream_nb(wrng, key, g, Stream.SCRIPTWRITER)
        ann[:] = -1
        moves[:] = -1
        loop_end[:] = 0
        named[:] = -1
        own.mem[:] = 0
        wsetup[:] = 0
        wpos[:] = 0
        wstress[:] = 0
        B.stress[:] = 0  # the judge's: an oracle must not see the last game's
        # --- scriptwriter setup (secret) ---
        # its view's key is the pinned key person (P-13) when there is one, else -1, so a
        # strategy can keep its moves off it under rules.key_person_movable = false (P-16)
        why = new_why_nb(log)
        w_setup(sel_w, wrng, writer_view_nb(rules, 0, 0, np.uint64(0), fixed_key if fixed_key > 0 else -1, wsetup, wpos,
                                     wstress, w_knobs, why), w_params, wsetup)
        for j in range(setup.shape[0]):
            setup[j] = wsetup[j]
        if fixed_key > 0:  # P-13: after the strategy's draws, so its other choices are unchanged
            setup[0] = fixed_key
        kp = setup[0]
        if kp < 1 or kp >= n:
            raise ValueError("scriptwriter setup: key person must be a table character (R-3)")
        ev_nb(log, Ev.SETUP_KEY, kp, wsetup[0], fixed_key > 0, 0, 0, 0, 0)
        explain_nb(log, why, -1)
        for i in range(n):
            base[i] = R.home[i]
        wmoved = np.uint64(0)
        for j in range(nperm):
            c = setup[1 + 2 * j]
            l = setup[2 + 2 * j]
            if c == -1:
                continue  # a slot the script leaves unused (P-19): no move
            if c < 1 or c >= n or l < 0 or l >= L:
                raise ValueError("scriptwriter setup: bad permanent move")
            bc = np.uint64(1) << np.uint64(c)
            if wmoved & bc:
                raise ValueError("scriptwriter setup: permanent moves need distinct characters")
            if stay == 0 and l == R.home[c]:
                raise ValueError("scriptwriter setup: a permanent move must change its location (P-15)")
            if key_movable == 0 and c == kp:
                raise ValueError("scriptwriter setup: the key person may not be moved (P-16)")
            wmoved |= bc
            base[c] = l
            ev_nb(log, Ev.SETUP_PERM, j, c, l, 0, 0, 0, 0)
        gbase = 1 + 2 * nperm
        for j in range(R.info[I.N_GUEST]):
            c = setup[gbase + 2 * j]
            l = setup[gbase + 2 * j + 1]
            if c == -1:
                continue  # no guest move that day (P-19)
            if c < 1 or c >= n or l < 0 or l >= L:
                raise ValueError("scriptwriter setup: bad guest move")
            if key_movable == 0 and c == kp:
                raise ValueError("scriptwriter setup: the key person may not be moved (P-16)")
        for d in range(1, days + 1):
            if R.guest_day[d] >= 0 and setup[gbase + 2 * R.guest_day[d]] >= 0:
                k = R.guest_day[d]
                ev_nb(log, Ev.SETUP_GUEST, k, d, setup[gbase + 2 * k], setup[gbase + 2 * k + 1], 0, 0, 0)
        # R-6 / P-17: the characters whose player moves beat the scriptwriter's
        pwins = np.uint64(0)
        if prec == Precedence.PLAYER:
            pwins = full
        elif prec == Precedence.PLAYER_FOR_KEY_PERSON:
            pwins = np.uint64(1) << np.uint64(kp)
        won_loop = -1
        loops_used = 0
        for lp in range(loops):
            loops_used = lp + 1
            ev_nb(log, Ev.LOOP_START, lp, 0, 0, 0, 0, 0, 0)
            alive = full
            survived = True
            for d in range(1, days + 1):
                ev_nb(log, Ev.DAY_START, lp, d, 0, 0, 0, 0, 0)
                out.scalars[C_DAYS] += 1
                for i in range(n):
                    pos[i] = base[i]
                gk = R.guest_day[d]
                moved_today = wmoved
                gc = -1
                if gk >= 0 and setup[gbase + 2 * gk] >= 0:
                    gc = setup[gbase + 2 * gk]
                    moved_today |= np.uint64(1) << np.uint64(gc)
                moved_today &= ~pwins  # P-17: these characters follow the player's move
                # --- player moves (R-6: scriptwriter precedence, silently) ---
                k = 0
                if mpd > 0:
                    why = new_why_nb(log)
                    k = p_move(sel_p, prng, p_view(rules, lp, d, alive, ann, moves, loop_end, named, p_knobs, kp, setup, pos,
                                            B.stress, why), own, mv)
                    ev_nb(log, Ev.DECIDE, lp, d, k, 0, 0, 0, 0)
                    explain_nb(log, why, 0)
                done = np.uint64(0)
                pmoved = np.uint64(0)  # characters the player's moves placed today
                for j in range(min(k, mpd)):
                    c = mv[j, 0]
                    l = mv[j, 1]
                    if c < 0 or c >= n or l < 0 or l >= L:
                        raise ValueError("player move out of range")
                    bc = np.uint64(1) << np.uint64(c)
                    if done & bc:
                        ev_nb(log, Ev.MOVE, c, l, MoveStatus.REPEATED, 0, 0, 0, 0)
                        continue  # one move per character and day
                    done |= bc
                    moves[lp, d - 1, j, 0] = c
                    moves[lp, d - 1, j, 1] = l
                    if (alive & bc) and not (moved_today & bc):
                        pos[c] = l
                        pmoved |= bc
                        ev_nb(log, Ev.MOVE, c, l, MoveStatus.DONE, 0, 0, 0, 0)
                    elif alive & bc:
                        ev_nb(log, Ev.MOVE, c, l, MoveStatus.OVERRIDDEN, 0, 0, 0, 0)
                    else:
                        ev_nb(log, Ev.MOVE, c, l, MoveStatus.DEAD, 0, 0, 0, 0)
                if gc >= 0 and not (pmoved & pwins & (np.uint64(1) << np.uint64(gc))):
                    pos[gc] = setup[gbase + 2 * gk + 1]
                    ev_nb(log, Ev.GUEST, gc, pos[gc], (alive >> np.uint64(gc)) & np.uint64(1), 0, 0, 0, 0)
                # --- resolve the day (on the read-only rules the strategies pass too: one compile) ---
                nreq = day_start_nb(pos, alive, rules, B, log)
                if nreq > 0:
                    for i in range(n):
                        wpos[i] = B.pos2[i]
                        wstress[i] = B.stress[i]
                for r in range(nreq):
                    why = new_why_nb(log)
                    wv = writer_view_nb(rules, lp, d, alive, kp, wsetup, wpos, wstress, w_knobs, why)
                    B.req_victim[r] = w_choose(sel_w, wrng, wv, w_params, B.req_actor[r], B.req_cand[r])
                    if not ((B.req_cand[r] >> np.uint64(B.req_victim[r])) & np.uint64(1)):
                        raise ValueError("scriptwriter choose returned a non-candidate")
                    ev_nb(log, Ev.CHOICE, B.req_actor[r], B.req_eff[r], np.int64(B.req_cand[r]), B.req_victim[r], 0, 0, 0)
                    explain_nb(log, why, -1)
                dead = day_finish_nb(pos, alive, nreq, rules, B, log)
                t = dead
                while t:
                    i = lowest_nb(t)
                    t &= t - np.uint64(1)
                    ann[lp, d - 1, i] = B.ann[i]
                    out.deaths[i, B.killer[i]] += 1
                    out.killers[i, B.killer[i], B.kact[i] if B.kact[i] >= 0 else R.effects[B.killer[i], F.ACTOR]] += 1
                    ev_nb(log, Ev.ANNOUNCE, i, B.ann[i], B.pos2[i], 0, 0, 0, 0)
                for i in range(n):  # the day's board (with log None an empty loop, removed)
                    ev_nb(log, Ev.BOARD, i, B.pos2[i], B.stress[i], (alive >> np.uint64(i)) & np.uint64(1),
                          (dead >> np.uint64(i)) & np.uint64(1), 0, 0)
                alive &= ~dead  # the player hears every death (the place may be false)
                kd = (dead >> np.uint64(kp)) & np.uint64(1)
                pd = dead & np.uint64(1)
                if kd or pd:
                    if kd:
                        out.scalars[C_KEY_DEATHS] += 1
                        out.key_end[kp] += 1
                    if pd:
                        out.scalars[C_PROT_DEATHS] += 1
                    loop_end[lp] = d
                    out.end_day[d] += 1
                    survived = False
                    ev_nb(log, Ev.LOOP_END, lp, d, LoopEnd.BOTH if kd and pd else
                            (LoopEnd.KEY if kd else LoopEnd.PROTAGONIST), 0, 0, 0, 0)
                    break
            if survived:
                if must_name:
                    why = new_why_nb(log)
                    nm = p_name(sel_p, prng, p_view(rules, lp, days, alive, ann, moves, loop_end, named, p_knobs, kp, setup,
                                             pos, B.stress, why), own)
                    named[lp] = nm
                    ev_nb(log, Ev.NAME, lp, nm, nm == kp, 0, 0, 0, 0)
                    explain_nb(log, why, 0)
                    if nm != kp:
                        out.scalars[C_WRONG_NAME] += 1
                        loop_end[lp] = days + 1  # survived, named wrongly (P-9)
                        out.end_day[days + 1] += 1
                        ev_nb(log, Ev.LOOP_END, lp, days, LoopEnd.WRONG_NAME, 0, 0, 0, 0)
                        if wrong_name_ends:
                            break
                        continue
                won_loop = lp
                out.end_day[0] += 1
                ev_nb(log, Ev.LOOP_END, lp, days, LoopEnd.SURVIVED, 0, 0, 0, 0)
                break
        out.scalars[C_GAMES] += 1
        out.scalars[C_LOOPS] += loops_used
        out.scalars[C_DECISIONS] += own.mem[MEM_DECISIONS]
        out.scalars[C_BLIND] += own.mem[MEM_BLIND]
        out.key_games[kp] += 1
        ev_nb(log, Ev.GAME_END, won_loop >= 0, won_loop, loops_used, 0, 0, 0, 0)
        if won_loop >= 0:
            out.scalars[C_WINS] += 1
            out.wins_by_loop[won_loop] += 1
            out.key_wins[kp] += 1
    # Numba frees a variable after its last use: keep the owners of the views alive to here.
    keep_alive_nb(B_owned, rng_owned, ann_owned, moves_owned, loop_end_owned, named_owned, own_owned, w_owned,
                  j_owned, mv_owned, R_owned, knobs_owned)


def chunk_kernel(p_move, p_name, w_setup, w_choose, p_view=player_view_nb, sel=(0, 0)):
    """The compiled (disk-cached) chunk kernel for one combination of strategies and the
    player's view builder (:func:`~sim.looper.views.oracle_view_nb` for ``oracle_…`` players);
    each of the four strategy hooks may be a :class:`~sim.core.kernels.Choice`, ``sel`` then
    names the player's and the scriptwriter's candidates."""
    return Selected(specialize(play_chunk_nb, {"p_move": p_move, "p_name": p_name, "p_view": p_view,
                                               "w_setup": w_setup, "w_choose": w_choose}), sel)


def strategy_kernel(p, w):
    """The chunk kernel of a player and a scriptwriter (strategy objects, or anything with
    their hook functions as attributes); an ``oracle_…`` player gets the judge's state as its
    view, every other one the PlayerView. Each pair has a kernel of its own (unlike
    Werewolf's and race's shared kernels): all players in one kernel ran 8 CPU minutes
    without finishing, and bayes with the three scriptwriters spent over 11 CPU minutes in
    numba's reference-count pruning pass without finishing, in ``sim precompile`` on the
    loaded machine (2026-12-06; docs/performance.md)."""
    return chunk_kernel(p.move, p.name_key, w.setup, w.choose, oracle_view_nb if is_oracle(p) else player_view_nb)


NO_KNOBS = np.zeros(1, np.float64)  # a strategy without knobs (knob_vector's form: never empty)


def play_chunk(key, start, count, R, p_move, p_name, w_setup, w_choose, w_params,
               wrong_name_ends, out, fixed_key=0, log=None, p_view=player_view_nb, p_knobs=NO_KNOBS,
               w_knobs=NO_KNOBS):
    """Play games [start, start+count) with the given strategies into ``out`` (Counts)."""
    chunk_kernel(p_move, p_name, w_setup, w_choose, p_view)(key, start, count, R, w_params,
                                                             wrong_name_ends, fixed_key, p_knobs, w_knobs, out, log)
