"""Hostile Werewolf wolves (tests/test_werewolf_honest.py): every trick for naming the
paladin's protected pair without being told it.

``hostile`` attacks whom it believes protected tonight, so that its hit rate measures
what it knows. Its guesses, in turn:

1. *Invert the generator*: step its own xoshiro256** state back (``rewind_nb``) and
   replay the draws a random paladin would have made just before — what worked when one
   stream served the whole game.
2. *Stale slots*: the view's own last-choice fields (``last_protect``, ``last_mark``;
   the old shared info vector held the paladin's last pair for everyone) and its memory
   of earlier nights and games.
3. Its own record of the public past (who survived an attack).

It also records every trick in ``mem`` so that a test can see it ran. ``writer_*``
wolves try to write into their view (the kernel must refuse to compile them), and
``peeker`` reads a field only the judge's view has.
"""
import numba as nb
import numpy as np

from sim.core.rng import choose_bit_nb
from strategies.werewolf import WolfStrategy
from strategies.werewolf.basic import random_subset_nb

U1 = np.uint64(1)


@nb.njit
def _rotr_nb(x, k):
    return (x >> np.uint64(k)) | (x << np.uint64(64 - k))


@nb.njit
def rewind_nb(s):
    """One xoshiro256** step backwards (the inverse of sim.core.rng.next_u64_nb's update)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    a = _rotr_nb(s3, 45)          # = old s3 ^ old s1
    x = s1 ^ s2                    # = old s1 ^ (old s1 << 17)
    y = x
    for _ in range(4):             # undo y ^ (y << 17)
        y = x ^ (y << np.uint64(17))
    o1 = y
    u = s1 ^ o1                    # = old s2 ^ old s0
    o3 = a ^ o1
    o0 = s0 ^ a
    o2 = u ^ o0
    s[0], s[1], s[2], s[3] = o0, o1, o2, o3


@nb.njit
def replay_nb(rng, cands):
    """Rewind a copy of ``rng`` k = 1 … 8 draws and replay a random pair of ``cands``; a
    replay that uses exactly those k draws (it ends at the current state) is what was
    drawn last: on a stream that the paladin's random protection had just used, his pair."""
    c = rng.copy()
    for _ in range(8):
        rewind_nb(c)
        r = c.copy()
        pair = random_subset_nb(r, cands, 2)
        if r[0] == rng[0] and r[1] == rng[1] and r[2] == rng[2] and r[3] == rng[3]:
            return pair
    return np.uint64(0)


@nb.njit
def _guess_nb(rng, view, cands):
    """The participants this wolf believes protected tonight (a mask, maybe empty)."""
    guess = np.uint64(0)
    # 2. stale slots: anything left in the view's last-choice fields
    if view.last_protect != 0:
        guess |= view.last_protect
        view.mem[1] += 1
    if view.last_mark >= 0:
        view.mem[2] += 1
    # 1. invert the generator
    guess |= replay_nb(rng, cands)
    view.mem[3] += 1
    # 3. memory: the one who survived last night's attack (stored below)
    if view.mem[4] > 0:
        t = view.mem[4] - 1
        if (cands >> np.uint64(t)) & U1:
            guess |= U1 << np.uint64(t)
    return guess


@nb.njit
def hostile_attack_nb(rng, view, cands):
    guess = _guess_nb(rng, view, cands) & cands
    view.mem[0] += 1
    t = choose_bit_nb(rng, guess if guess else cands)
    view.mem[4] = t + 1
    return t


@nb.njit
def writer_attack_nb(rng, view, cands):
    view.out_how[0] = 4  # a forged public record
    return choose_bit_nb(rng, cands)


@nb.njit
def writer_know_attack_nb(rng, view, cands):
    view.know[0] = 0
    return choose_bit_nb(rng, cands)


@nb.njit
def writer_rules_attack_nb(rng, view, cands):
    view.rules.table[0, 0] = 1
    return choose_bit_nb(rng, cands)


@nb.njit
def peeker_attack_nb(rng, view, cands):
    safe = cands & ~view.protected  # only the judge's view has it
    return choose_bit_nb(rng, safe if safe else cands)


hostile = WolfStrategy("hostile", attack=hostile_attack_nb, doc="tries every trick to name the protected pair")
writer = WolfStrategy("writer", attack=writer_attack_nb, doc="writes into its view's public record")
writer_know = WolfStrategy("writer_know", attack=writer_know_attack_nb, doc="writes into its own knowledge row")
writer_rules = WolfStrategy("writer_rules", attack=writer_rules_attack_nb, doc="writes into the role table")
peeker = WolfStrategy("peeker", attack=peeker_attack_nb, doc="reads tonight's protection (not an oracle name)")
