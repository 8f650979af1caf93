"""Whole Looper games in numba: setup, loops, days, player moves, aggregation.

Strategy hooks (all ``@njit``; see docs/looper.md and strategies/looper/):

    player.move(rng, view: PlayerView, mem, out) -> int    # fills out[k] = (char, loc)
    player.name_key(rng, view: PlayerView, mem) -> int     # R-2 variant: named character
    scriptwriter.setup(rng, view: WriterView, params, out)  # key, permanent and guest moves
    scriptwriter.choose(rng, view: WriterView, params, actor, candidates) -> int

``rng`` is the game's own xoshiro256** state; ``mem`` an int64[256] scratch that
persists across the days and loops of one game. A ``PlayerView`` holds only what the
player knows (rules, initial layout, its own moves, announcements, loop ends).
"""
from collections import namedtuple

import numpy as np

from sim.core.bits import lowest_nb
from sim.core.kernels import kernel_template, specialize
from sim.core.rng import seed_stream_nb
from sim.looper.enums import I
from sim.looper.day_nb import day_buffers_nb, day_finish_nb, day_start_nb

# ``rules`` is the public RosterNB; ``buf`` a DayBuf a strategy may use for its own
# what-if days (e.g. strategies.looper.common.at_risk).
PlayerView = namedtuple("PlayerView", "rules info ann moves loop_end named known buf")
WriterView = namedtuple("WriterView", "rules info pos alive stress setup buf")
Counts = namedtuple("Counts", "scalars wins_by_loop deaths key_games key_wins end_day")
# scalars slots
C_GAMES, C_WINS, C_LOOPS, C_DAYS, C_PROT_DEATHS, C_KEY_DEATHS, C_WRONG_NAME = range(7)
N_SCALARS = 7
MEM = 256  # strategy scratch per game (int64)


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
    )


def setup_size(R) -> int:
    """Columns of a scriptwriter's setup row for this roster."""
    return 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])


# The template's hooks are bound to real strategies by sim.core.kernels.specialize.
@kernel_template(hooks=("p_move", "p_name", "w_setup", "w_choose"))
def play_chunk_nb(key, start, count, R, w_params, wrong_name_ends, fixed_key, out):
    """Template: games [start, start+count) with the bound strategy hooks."""
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    loops = R.info[I.MAX_LOOPS]
    days = R.info[I.DAYS]
    mpd = R.info[I.MOVES]
    nperm = R.info[I.N_PERM]
    must_name = R.info[I.MUST_NAME]
    B = day_buffers_nb(R)
    rng = np.zeros(4, np.uint64)
    pinfo = R.info.copy()
    winfo = R.info.copy()
    ann = np.full((loops, days, n), -1, np.int64)
    moves = np.full((loops, days, max(mpd, 1), 2), -1, np.int64)
    loop_end = np.zeros(loops, np.int64)
    named = np.full(loops, -1, np.int64)
    known = np.zeros(1, np.uint64)
    setup = np.zeros(1 + 2 * nperm + 2 * R.info[I.N_GUEST], np.int64)
    wpos = np.zeros(n, np.int64)
    walive = np.zeros(1, np.uint64)
    pv = PlayerView(R, pinfo, ann, moves, loop_end, named, known, day_buffers_nb(R))
    wv = WriterView(R, winfo, wpos, walive, B.stress, setup, day_buffers_nb(R))
    mem = np.zeros(MEM, np.int64)
    mv = np.zeros((max(mpd, 1), 2), np.int64)
    base = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    full = np.uint64(0)
    for i in range(n):
        full |= np.uint64(1) << np.uint64(i)
    for g in range(start, start + count):
        seed_stream_nb(rng, key, g)
        ann[:] = -1
        moves[:] = -1
        loop_end[:] = 0
        named[:] = -1
        mem[:] = 0
        pinfo[I.LOOP] = 0
        pinfo[I.DAY] = 0
        pinfo[I.KEY] = -1  # hidden from the player
        winfo[I.LOOP] = 0
        winfo[I.DAY] = 0
        winfo[I.KEY] = -1
        # --- scriptwriter setup (secret) ---
        w_setup(rng, wv, w_params, setup)
        if fixed_key > 0:  # P-13: after the strategy's draws, so its other choices are unchanged
            setup[0] = fixed_key
        kp = setup[0]
        if kp < 1 or kp >= n:
            raise ValueError("scriptwriter setup: key person must be a table character (R-3)")
        winfo[I.KEY] = kp
        for i in range(n):
            base[i] = R.home[i]
        wmoved = np.uint64(0)
        for j in range(nperm):
            c = setup[1 + 2 * j]
            l = setup[2 + 2 * j]
            if c < 1 or c >= n or l < 0 or l >= L:
                raise ValueError("scriptwriter setup: bad permanent move")
            bc = np.uint64(1) << np.uint64(c)
            if wmoved & bc:
                raise ValueError("scriptwriter setup: permanent moves need distinct characters")
            wmoved |= bc
            base[c] = l
        gbase = 1 + 2 * nperm
        for j in range(R.info[I.N_GUEST]):
            c = setup[gbase + 2 * j]
            l = setup[gbase + 2 * j + 1]
            if c < 1 or c >= n or l < 0 or l >= L:
                raise ValueError("scriptwriter setup: bad guest move")
        won_loop = -1
        loops_used = 0
        for lp in range(loops):
            loops_used = lp + 1
            pinfo[I.LOOP] = lp
            winfo[I.LOOP] = lp
            alive = full
            known[0] = full
            survived = True
            for d in range(1, days + 1):
                pinfo[I.DAY] = d
                winfo[I.DAY] = d
                out.scalars[C_DAYS] += 1
                for i in range(n):
                    pos[i] = base[i]
                gk = R.guest_day[d]
                moved_today = wmoved
                gc = -1
                if gk >= 0:
                    gc = setup[gbase + 2 * gk]
                    moved_today |= np.uint64(1) << np.uint64(gc)
                # --- player moves (R-6: scriptwriter precedence, silently) ---
                k = p_move(rng, pv, mem, mv) if mpd > 0 else 0
                done = np.uint64(0)
                for j in range(min(k, mpd)):
                    c = mv[j, 0]
                    l = mv[j, 1]
                    if c < 0 or c >= n or l < 0 or l >= L:
                        raise ValueError("player move out of range")
                    bc = np.uint64(1) << np.uint64(c)
                    if done & bc:
                        continue  # one move per character and day
                    done |= bc
                    moves[lp, d - 1, j, 0] = c
                    moves[lp, d - 1, j, 1] = l
                    if (alive & bc) and not (moved_today & bc):
                        pos[c] = l
                if gc >= 0:
                    pos[gc] = setup[gbase + 2 * gk + 1]
                # --- resolve the day ---
                for i in range(n):
                    wpos[i] = pos[i]
                walive[0] = alive
                nreq = day_start_nb(pos, alive, R, B)
                for i in range(n):
                    wpos[i] = B.pos2[i]
                for r in range(nreq):
                    B.req_victim[r] = w_choose(rng, wv, w_params, B.req_actor[r], B.req_cand[r])
                    if not ((B.req_cand[r] >> np.uint64(B.req_victim[r])) & np.uint64(1)):
                        raise ValueError("scriptwriter choose returned a non-candidate")
                dead = day_finish_nb(pos, alive, nreq, R, B)
                t = dead
                while t:
                    i = lowest_nb(t)
                    t &= t - np.uint64(1)
                    ann[lp, d - 1, i] = B.ann[i]
                    out.deaths[i, B.killer[i]] += 1
                alive &= ~dead
                known[0] = alive  # the player hears every death (place may be false)
                kd = (dead >> np.uint64(kp)) & np.uint64(1)
                pd = dead & np.uint64(1)
                if kd or pd:
                    if kd:
                        out.scalars[C_KEY_DEATHS] += 1
                    if pd:
                        out.scalars[C_PROT_DEATHS] += 1
                    loop_end[lp] = d
                    out.end_day[d] += 1
                    survived = False
                    break
            if survived:
                if must_name:
                    nm = p_name(rng, pv, mem)
                    named[lp] = nm
                    if nm != kp:
                        out.scalars[C_WRONG_NAME] += 1
                        loop_end[lp] = days + 1  # survived, named wrongly (P-9)
                        out.end_day[days + 1] += 1
                        if wrong_name_ends:
                            break
                        continue
                won_loop = lp
                out.end_day[0] += 1
                break
        out.scalars[C_GAMES] += 1
        out.scalars[C_LOOPS] += loops_used
        out.key_games[kp] += 1
        if won_loop >= 0:
            out.scalars[C_WINS] += 1
            out.wins_by_loop[won_loop] += 1
            out.key_wins[kp] += 1


def chunk_kernel(p_move, p_name, w_setup, w_choose):
    """The compiled (disk-cached) chunk kernel for one combination of strategies."""
    return specialize(play_chunk_nb, {"p_move": p_move, "p_name": p_name,
                                      "w_setup": w_setup, "w_choose": w_choose})


def play_chunk(key, start, count, R, p_move, p_name, w_setup, w_choose, w_params,
               wrong_name_ends, out, fixed_key=0):
    """Play games [start, start+count) with the given strategies into ``out`` (Counts)."""
    chunk_kernel(p_move, p_name, w_setup, w_choose)(key, start, count, R, w_params,
                                                     wrong_name_ends, fixed_key, out)
