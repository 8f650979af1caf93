"""Whole race games in numba.

The chunk kernel :func:`play_chunk_nb` is a template: it calls the two players' decide
hooks ``p1_decide`` / ``p2_decide`` through module globals, and
:func:`sim.core.kernels.specialize` binds them and compiles it with a disk cache
(:func:`chunk_kernel`). Game ``g``'s dice come from its rules stream and each player's
choices from that player's own stream (:mod:`sim.core.rng`, ``Stream``), so any thread
count and chunk size give the same counts, and no strategy can foresee a roll.

``log`` is None in a batch run; :mod:`sim_race.trace` passes an event log
(:mod:`sim.core.trace`) to replay one game with this very kernel.
"""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.guard import guarded_nb
from sim.core.kernels import Choice, Selected, families, kernel_template, specialize
from sim.core.reasons import explain_nb, new_why_nb
from sim.core.rng import randint_nb, seed_stream_nb
from sim.core.trace import emit_nb
from sim_race.enums import N_C, N_P, C, Dice, Ev, P, R, Stream

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
def roll_nb(rng, dice, faces, bust_face, log, player, total):
    """Points of one turn: one die adds its face; two dice add their sum unless either
    shows ``bust_face`` (then 0). Both dice are always drawn."""
    a = die_nb(rng, faces)
    if dice == Dice.ONE:
        emit_nb(log, Ev.TURN, player, dice, a, 0, a, total + a)
        return a
    b = die_nb(rng, faces)
    gain = 0 if (a == bust_face or b == bust_face) else a + b
    emit_nb(log, Ev.TURN, player, dice, a, b, gain, total + gain)
    return gain


# Both hooks are called with their player's selector first (``sel``, appended by
# chunk_kernel): one kernel plays every pair of shipped strategies, compiled once.
@kernel_template(hooks=("p1_decide", "p2_decide"), chosen=("p1_decide", "p2_decide"))
def play_chunk_nb(key, start, count, rules, out, log, sel):
    """Play games ``[start, start + count)`` and add their counts to ``out``."""
    # Each stream in guarded memory of its own (sim.core.guard): a player that indexes past
    # its stream's end reads zeros, not the dice or the other player's stream.
    rng = guarded_nb((4,), np.uint64)   # the dice (rules stream)
    r1 = guarded_nb((4,), np.uint64)    # player 1's own stream
    r2 = guarded_nb((4,), np.uint64)    # player 2's
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
        seed_stream_nb(rng, key, g, Stream.RULES)
        seed_stream_nb(r1, key, g, Stream.P1)
        seed_stream_nb(r2, key, g, Stream.P2)
        tot0 = 0
        tot1 = rules[R.HEAD_START]
        turns = 0
        while True:
            # player 1
            why = new_why_nb(log)  # None in a batch run: reasons compile to nothing
            dice = p1_decide(sel[0], r1, tot0, tot1, target, k1, why)  # noqa: F821 - bound by specialize
            if dice != Dice.ONE and dice != Dice.TWO:
                raise ValueError("p1 strategy: decide must return 1 or 2 (dice)")
            gain = roll_nb(rng, dice, faces, bust_face, log, 0, tot0)
            explain_nb(log, why, 0)  # after the turn's event: the decoder attaches it there
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
                emit_nb(log, Ev.WIN, 0, tot0, tot1, turns)
                break
            # player 2
            why = new_why_nb(log)
            dice = p2_decide(sel[1], r2, tot1, tot0, target, k2, why)  # noqa: F821 - bound by specialize
            if dice != Dice.ONE and dice != Dice.TWO:
                raise ValueError("p2 strategy: decide must return 1 or 2 (dice)")
            gain = roll_nb(rng, dice, faces, bust_face, log, 1, tot1)
            explain_nb(log, why, 1)
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
                emit_nb(log, Ev.WIN, 1, tot1, tot0, turns)
                break
        sc[C.GAMES] += 1
        sc[C.TURNS] += turns
        hist[min(turns, last)] += 1


def chunk_kernel(p1, p2):
    """The compiled (disk-cached) chunk kernel for two strategies (:class:`RaceStrategy`):
    any two shipped ones share one kernel (:func:`sim.core.kernels.families`)."""
    from sim_race.strategies import SHIPPED, with_why  # here: the strategies import the game's enums

    (c1, i1), (c2, i2) = families((p1, p2), (SHIPPED, SHIPPED), lambda s: (with_why(s.decide),))
    return Selected(specialize(play_chunk_nb, {"p1_decide": Choice(c[0] for c in c1),
                                               "p2_decide": Choice(c[0] for c in c2)}), (i1, i2))
