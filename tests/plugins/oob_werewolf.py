"""Werewolf plug-ins with an off-by-one (tests/test_oob_werewolf.py, issue 38): each reads
past the end or before the start of an array its view hands it, where the kernels once
kept another side's secrets.

- ``oob_stream`` (wolves): its stream was row 2 of one ``3 × 4`` array (rules, village,
  wolves), so ``rng[-8 + i]`` (numba wraps ``-8`` to ``-4``: four words before the start)
  was the village's stream. Rewinding it and replaying a random protection names the
  paladin's pair; it attacks inside that guess (a hit measures what it knew).
- ``oob_deal`` (wolves): ``rng[-12 + i]`` was the rules' stream. Rewinding it to the deal
  and replaying the shuffle (checked against the wolf team it knows) names every role; it
  attacks the seer.
- ``oob_know`` (village): ``view.know[(r - me)·n + j]`` was row ``r`` of the judge's
  knowledge matrix; a wolf's row names the wolf team, and it votes for a wolf.
- ``probe`` (either side): reads every array of its view past the end and before the start
  by small and large offsets; anything but zero makes it vote and attack the lowest
  candidate. Otherwise each plays exactly as ``random`` (the same draws), so with guarded
  memory a run equals random play game for game.

``oracle_deal`` and ``oracle_know`` are the twins that read the judge's view instead: they
show the tests can see the effect the leak would have had.
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from sim.core.rng import choose_bit_nb, randint_nb
from sim.werewolf.enums import RF, Ab
from strategies.werewolf import VillageStrategy, WolfStrategy
from strategies.werewolf.basic import (random_attack_nb, random_divine_nb, random_mark_nb, random_protect_nb,
                                       random_vote_nb, random_witch_nb, silent_nb)
from strategies.werewolf.basic import random_subset_nb
from tests.plugins.hostile_werewolf import rewind_nb
from tests.plugins.oob_edges import outside_nb

U1 = np.uint64(1)
BACK = 64


@nb.njit
def _read4_nb(rng, at):
    s = np.zeros(4, np.uint64)
    for i in range(4):
        s[i] = rng[at + i]
    return s


@nb.njit
def protect_guess_nb(v, alive, know):
    """The pairs a random paladin could just have drawn from the village stream state
    ``v``: for each seat he might hold (not a wolf), rewind 1 … 8 draws and replay his pick
    of two of the others; a replay that lands exactly on ``v`` is what he drew."""
    guess = np.uint64(0)
    for p in range(know.shape[0]):
        if know[p] == 1 or not (alive >> np.uint64(p)) & U1:
            continue
        avail = alive & ~(U1 << np.uint64(p))
        cand = v.copy()
        for _ in range(8):
            rewind_nb(cand)
            r = cand.copy()
            pair = random_subset_nb(r, avail, 2)
            if r[0] == v[0] and r[1] == v[1] and r[2] == v[2] and r[3] == v[3]:
                guess |= pair
    return guess


@nb.njit
def oob_stream_attack_nb(rng, view, cands):
    v = _read4_nb(rng, -8)  # the village's stream in the old 3 × 4 layout
    if v[0] | v[1] | v[2] | v[3]:
        guess = protect_guess_nb(v, view.alive, view.know) & cands
        if guess:
            return choose_bit_nb(rng, guess)
    return random_attack_nb(rng, view, cands)


@nb.njit
def _seer_role_nb(table):
    for r in range(table.shape[0]):
        if table[r, RF.ABILITY] == Ab.DIVINE:
            return r
    return -1


@nb.njit
def deal_from_nb(s, seats, table, know):
    """The seat whose replayed role is the seer, from a rules-stream state ``s``: rewind
    up to BACK steps; a start whose shuffle gives exactly the wolf team this wolf knows
    (``know``) is taken (the one furthest back). -1 when none."""
    n = seats.shape[0]
    seer = _seer_role_nb(table)
    cand = s.copy()
    found = -1
    role = np.zeros(n, np.int64)
    for _ in range(BACK):
        rewind_nb(cand)
        r = cand.copy()
        for i in range(n):
            role[i] = seats[i]
        for i in range(n - 1, 0, -1):  # the kernel's Fisher-Yates (sim.werewolf.game_nb)
            j = randint_nb(r, i + 1)
            t = role[i]
            role[i] = role[j]
            role[j] = t
        ok = True
        for i in range(n):
            if (know[i] == 1) != (table[role[i], RF.TEAM] == 1):
                ok = False
                break
        if ok:
            for i in range(n):
                if role[i] == seer:
                    found = i
    return found


@nb.njit
def oob_deal_attack_nb(rng, view, cands):
    s = _read4_nb(rng, -12)  # the rules' stream in the old 3 × 4 layout
    if s[0] | s[1] | s[2] | s[3]:
        t = deal_from_nb(s, view.rules.seats, view.rules.table, view.know)
        if t >= 0 and (cands >> np.uint64(t)) & U1:
            return t
    return random_attack_nb(rng, view, cands)


@nb.njit
def oracle_deal_attack_nb(rng, view, cands):
    seer = _seer_role_nb(view.rules.table)
    for t in range(view.n):
        if view.role_of[t] == seer and (cands >> np.uint64(t)) & U1:
            return t
    return random_attack_nb(rng, view, cands)


@nb.njit
def wolves_from_nb(row, me, n):
    """Every ``j`` some other row ``r`` of an ``n × n`` matrix marks 1, read through ``row``
    (row ``me`` of it) at ``(r - me)·n + j``."""
    wolves = np.uint64(0)
    for r in range(n):
        if r == me:
            continue
        for j in range(n):
            i = (r - me) * n + j
            if -n <= i < n:  # inside its own row (numba wraps a negative index once): no leak
                continue
            if row[i] == 1:
                wolves |= U1 << np.uint64(j)
    return wolves


@nb.njit
def oob_know_vote_nb(rng, view, cands):
    wolves = wolves_from_nb(view.know, view.me, view.n) & cands
    if wolves:
        return choose_bit_nb(rng, wolves)
    return random_vote_nb(rng, view, cands)


@nb.njit
def oracle_know_vote_nb(rng, view, cands):
    w = view.wolf_team & cands
    if w:
        return choose_bit_nb(rng, w)
    return random_vote_nb(rng, view, cands)


@nb.njit
def leak_nb(view):
    """Whether any word just outside any array of the view is non-zero."""
    acc = outside_nb(view.out_how) | outside_nb(view.out_day) | outside_nb(view.revived)
    acc |= outside_nb(view.claim_role) | outside_nb(view.claim_res) | outside_nb(view.claimed)
    acc |= outside_nb(view.said) | outside_nb(view.know) | outside_nb(view.knobs) | outside_nb(view.mem)
    acc |= outside_nb(view.rules.table) | outside_nb(view.rules.var) | outside_nb(view.rules.seats)
    acc |= outside_nb(view.rules.knobs)
    return acc != 0


@nb.njit
def leak_rng_nb(rng):
    return outside_nb(rng) != 0


@nb.njit
def probe_vote_nb(rng, view, cands):
    if leak_nb(view) or leak_rng_nb(rng):
        return lowest_nb(cands)
    return random_vote_nb(rng, view, cands)


@nb.njit
def probe_attack_nb(rng, view, cands):
    if leak_nb(view) or leak_rng_nb(rng):
        return lowest_nb(cands)
    return random_attack_nb(rng, view, cands)


@nb.njit
def probe_divine_nb(rng, view):
    if leak_nb(view) or leak_rng_nb(rng):
        return -1
    return random_divine_nb(rng, view)


@nb.njit
def probe_protect_nb(rng, view):
    if leak_nb(view) or leak_rng_nb(rng):
        return np.uint64(0)
    return random_protect_nb(rng, view)


@nb.njit
def probe_witch_nb(rng, view):
    leak_nb(view)
    return random_witch_nb(rng, view)


@nb.njit
def probe_mark_nb(rng, view):
    if leak_nb(view) or leak_rng_nb(rng):
        return -1
    return random_mark_nb(rng, view)


@nb.njit
def probe_speak_nb(rng, view):
    leak_nb(view)
    return silent_nb(rng, view)


oob_stream = WolfStrategy("oob_stream", attack=oob_stream_attack_nb,
                          doc="reads the village's stream before the start of its own")
oob_deal = WolfStrategy("oob_deal", attack=oob_deal_attack_nb,
                        doc="reads the rules' stream before the start of its own; attacks the seer")
oracle_deal = WolfStrategy("oracle_deal", attack=oracle_deal_attack_nb, doc="attacks the seer (judge's view)")
oob_know = VillageStrategy("oob_know", vote=oob_know_vote_nb, doc="reads the other rows of the knowledge matrix")
oracle_know = VillageStrategy("oracle_know", vote=oracle_know_vote_nb, doc="votes for a wolf (judge's view)")
probe_village = VillageStrategy("probe_village", vote=probe_vote_nb, divine=probe_divine_nb,
                                protect=probe_protect_nb, witch=probe_witch_nb, speak=probe_speak_nb,
                                doc="reads outside every view array; else random")
probe_wolves = WolfStrategy("probe_wolves", vote=probe_vote_nb, mark=probe_mark_nb, attack=probe_attack_nb,
                            speak=probe_speak_nb, doc="reads outside every view array; else random")
