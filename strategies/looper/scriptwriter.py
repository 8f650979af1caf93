"""Built-in Looper scriptwriter strategies (the scriptwriter knows everything)."""
import numba as nb
import numpy as np

from sim.core.rng import choose_bit_nb, randint_nb, uniform_nb
from sim.looper.enums import I

U1 = np.uint64(1)


@nb.njit
def random_setup_nb(rng, view, params, out):
    """Uniform key person, permanent moves of distinct characters, guest moves."""
    R = view.rules
    n = R.info[I.N_CHARS]
    L = R.info[I.N_LOC]
    out[0] = 1 + randint_nb(rng, n - 1)
    avail = np.uint64(0)
    for i in range(1, n):
        avail |= U1 << np.uint64(i)
    j = 1
    for _ in range(R.info[I.N_PERM]):
        c = choose_bit_nb(rng, avail)
        avail &= ~(U1 << np.uint64(c))
        out[j] = c
        out[j + 1] = randint_nb(rng, L)
        j += 2
    for _ in range(R.info[I.N_GUEST]):
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
            return kp
        if cand & U1:
            return 0
    return choose_bit_nb(rng, cand)


@nb.njit
def pool_setup_nb(rng, view, params, out):
    """A setup drawn uniformly from the rows of ``params`` (prepared in Python)."""
    row = randint_nb(rng, params.shape[0])
    for j in range(out.shape[0]):
        out[j] = params[row, j]


@nb.njit
def adversarial_choose_nb(rng, view, params, actor, cand):
    """Kill the key person, else the protagonist, else anyone eligible."""
    kp = view.key
    if (cand >> np.uint64(kp)) & U1:
        return kp
    if cand & U1:
        return 0
    return choose_bit_nb(rng, cand)
