"""Whole race games in numba.

The chunk kernel :func:`play_chunk_nb` is a template: it calls the two players' decide
hooks ``p1_decide`` / ``p2_decide`` through module globals, and
:func:`sim.core.kernels.specialize` binds them and compiles it with a disk cache
(:func:`chunk_kernel`). Game ``g`` draws only from stream ``g`` of the run key
(:mod:`sim.core.rng`), so any thread count and chunk size give the same counts.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.kernels import kernel_template, specialize
from sim.core.rng import randint_nb, seed_stream_nb
from sim_race.enums import N_C, N_P, C, Dice, P, R

Counts = namedtuple("Counts", "scalars players turns_hist")


def hist_len(target: int) -> int:
    """Bins of the game-length histogram; the last one counts that many turns or more."""
    return 2 * int(target) + 8


def new_counts(rules: np.ndarray) -> Counts:
    return Counts(np.zeros(N_C, np.int64), np.zeros((2, N_P), np.int64),
                  np.zeros(hist_len(rules[R.TARGET]), np.int64))


@nb.njit(inline="always")
def die_nb(rng, faces):
    """One die: a face in 1 … faces."""
    return 1 + randint_nb(rng, faces)


@nb.njit(inline="always")
def roll_nb(rng, dice, faces, bust_face):
    """Points of one turn: one die adds its face; two dice add their sum unless either
    shows ``bust_face`` (then 0). Both dice are always drawn."""
    a = die_nb(rng, faces)
    if dice == Dice.ONE:
        return a
    b = die_nb(rng, faces)
    if a == bust_face or b == bust_face:
        return 0
    return a + b


@kernel_template(hooks=("p1_decide", "p2_decide"))
def play_chunk_nb(key, start, count, rules, out):
    """Play games ``[start, start + count)`` and add their counts to ``out``."""
    rng = np.zeros(4, np.uint64)
    target = rules[R.TARGET]
    faces = rules[R.FACES]
    bust_face = rules[R.BUST_FACE]
    k1 = rules[R.K1]
    k2 = rules[R.K2]
    sc = out.scalars
    pl = out.players
    hist = out.turns_hist
    last = hist.shape[0] - 1
    for g in range(start, start + count):
        seed_stream_nb(rng, key, g)
        tot0 = 0
        tot1 = rules[R.HEAD_START]
        turns = 0
        while True:
            # player 1
            dice = p1_decide(rng, tot0, tot1, target, k1)  # noqa: F821 - bound by specialize
            if dice != Dice.ONE and dice != Dice.TWO:
                raise ValueError("p1 strategy: decide must return 1 or 2 (dice)")
            gain = roll_nb(rng, dice, faces, bust_face)
            turns += 1
            pl[0, P.TURNS] += 1
            if dice == Dice.TWO:
                pl[0, P.TWO_DICE] += 1
                if gain == 0:
                    pl[0, P.BUSTS] += 1
            pl[0, P.POINTS] += gain
            tot0 += gain
            if tot0 >= target:
                pl[0, P.WINS] += 1
                sc[C.P1_WINS] += 1
                break
            # player 2
            dice = p2_decide(rng, tot1, tot0, target, k2)  # noqa: F821 - bound by specialize
            if dice != Dice.ONE and dice != Dice.TWO:
                raise ValueError("p2 strategy: decide must return 1 or 2 (dice)")
            gain = roll_nb(rng, dice, faces, bust_face)
            turns += 1
            pl[1, P.TURNS] += 1
            if dice == Dice.TWO:
                pl[1, P.TWO_DICE] += 1
                if gain == 0:
                    pl[1, P.BUSTS] += 1
            pl[1, P.POINTS] += gain
            tot1 += gain
            if tot1 >= target:
                pl[1, P.WINS] += 1
                break
        sc[C.GAMES] += 1
        sc[C.TURNS] += turns
        hist[min(turns, last)] += 1


def chunk_kernel(p1, p2):
    """The compiled (disk-cached) chunk kernel for two strategies (:class:`RaceStrategy`)."""
    return specialize(play_chunk_nb, {"p1_decide": p1.decide, "p2_decide": p2.decide})
