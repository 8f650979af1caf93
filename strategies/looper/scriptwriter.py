"""Built-in Looper scriptwriter strategies (the scriptwriter knows everything)."""
import numba as nb
import numpy as np

from sim.core.bits import popcount_nb
from sim.core.reasons import reason_nb
from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.looper.enums import I, Why

U1 = np.uint64(1)


@nb.njit
def random_setup_nb(rng, view, params, out):
    """Uniform key person, permanent moves of distinct characters, guest moves.

    Under the rule variants it keeps to them: ``rules.stay_moves = false`` (P-15) draws a
    permanent move's place among the others than its character's table place;
    ``rules.key_person_movable = false`` (P-16) keeps every move off the key person (the
    pinned one, ``view.key``, when [setup] pins it). At the defaults the draws are the
    same as before the variants existed."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    reason_nb(view.why, Why.RANDOM, -1, -1, n - 1)  # the key person among the table characters
    out[0] = 1 + randint_nb(rng, n - 1)
    avail = np.uint64(0)
    for i in range(1, n):
        avail |= U1 << np.uint64(i)
    guests = avail
    if R.info[I.KEY_MOVABLE] == 0:
        key = view.key if view.key > 0 else out[0]
        avail &= ~(U1 << np.uint64(key))
        guests = avail
    stay = R.info[I.STAY_MOVES] != 0
    j = 1
    for _ in range(R.info[I.N_PERM]):
        c = choose_bit_nb(rng, avail)
        avail &= ~(U1 << np.uint64(c))
        out[j] = c
        if stay:
            out[j + 1] = randint_nb(rng, L)
        else:
            l = randint_nb(rng, L - 1)
            out[j + 1] = l + 1 if l >= R.home[c] else l
        j += 2
    for _ in range(R.info[I.N_GUEST]):
        if R.info[I.KEY_MOVABLE] == 0:
            out[j] = choose_bit_nb(rng, guests)
        else:
            out[j] = 1 + randint_nb(rng, n - 1)
        out[j + 1] = randint_nb(rng, L)
        j += 2


@nb.njit
def random_choose_nb(rng, view, params, actor, cand):
    """A uniform candidate; knob ``aim`` (``view.knobs[0]``, default 0): with that
    probability a choice kills the key person, else the protagonist, when it can (no
    draw is made at 0, so the default plays exactly as the uniform choice)."""
    aim = view.knobs[0]
    if aim > 0.0 and uniform_nb(rng) < aim:
        kp = view.key
        if (cand >> np.uint64(kp)) & U1:
            reason_nb(view.why, Why.AIMS, kp, -1, aim)
            return kp
        if cand & U1:
            reason_nb(view.why, Why.AIMS, 0, -1, aim)
            return 0
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cand))
    return choose_bit_nb(rng, cand)


@nb.njit
def pool_setup_nb(rng, view, params, out):
    """A setup drawn uniformly from the rows of ``params`` (prepared in Python)."""
    row = randint_nb(rng, params.shape[0])
    reason_nb(view.why, Why.POOL, row, -1, params.shape[0])
    for j in range(out.shape[0]):
        out[j] = params[row, j]


@nb.njit
def adversarial_choose_nb(rng, view, params, actor, cand):
    """Kill the key person, else the protagonist, else anyone eligible."""
    kp = view.key
    if (cand >> np.uint64(kp)) & U1:
        reason_nb(view.why, Why.AIMS, kp, -1, 1.0)
        return kp
    if cand & U1:
        reason_nb(view.why, Why.AIMS, 0, -1, 1.0)
        return 0
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cand))
    return choose_bit_nb(rng, cand)


@nb.njit
def fixed_setup_nb(rng, view, params, out):
    """The script written in the configuration (P-19): row 0 of ``params`` (prepared by
    :func:`strategies.looper.fixed_prepare` from ``[setup]``); no draw."""
    reason_nb(view.why, Why.SCRIPT)
    for j in range(out.shape[0]):
        out[j] = params[0, j]


@nb.njit
def fixed_choose_nb(rng, view, params, actor, cand):
    """``[setup] choose``: "first" (the last column of ``params`` is 1) picks the first
    candidate in roster order, "random" a uniform one from the scriptwriter's stream,
    "adversarial" (2) the key person, else the protagonist, as the adversarial scriptwriter."""
    mode = params[0, params.shape[1] - 1]
    if mode == 2:
        return adversarial_choose_nb(rng, view, params, actor, cand)
    if mode == 1:
        c = np.int64(0)
        while not ((cand >> np.uint64(c)) & U1):
            c += 1
        reason_nb(view.why, Why.FIRST, c)
        return c
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cand))
    return choose_bit_nb(rng, cand)
