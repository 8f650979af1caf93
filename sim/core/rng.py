"""Counter-seeded xoshiro256** streams for numba kernels.

Kernels never touch numba's global RNG: under ``prange``/threads its state is per
thread, so results would depend on the thread count. Instead every game ``g`` gets its
own stream, derived from a 256-bit run key (from numpy ``SeedSequence``, see
:mod:`sim.core.seeding`) and ``g`` through SplitMix64 — the seeding recommended by the
xoshiro authors. A game's stream therefore does not depend on which chunk or thread
plays it, so results are identical for any thread count and chunk size.
"""
import numba as nb
import numpy as np

from sim.core.bits import highest_nb, nth_set_nb, popcount_nb

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(inline="always")
def splitmix64_nb(z):
    z = z + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit
def seed_stream_nb(state, key, stream):
    """Fill ``state`` (uint64[4]) with the start of stream number ``stream`` under ``key``."""
    z = splitmix64_nb(key[0] ^ splitmix64_nb(np.uint64(stream) ^ key[1]))
    for j in range(4):
        z = splitmix64_nb(z ^ key[(j + 2) & 3])
        state[j] = z
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN  # the all-zero state is a fixed point


@nb.njit(inline="always")
def _rotl_nb(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@nb.njit
def next_u64_nb(state):
    result = _rotl_nb(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl_nb(state[3], 45)
    return result


@nb.njit
def randint_nb(state, n):
    """Uniform integer in [0, n) by Lemire's multiply-shift on the top 32 bits.

    The bias is below n / 2**32, far under any Monte Carlo error we report.
    """
    x = next_u64_nb(state) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@nb.njit
def uniform_nb(state):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64_nb(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit
def choose_bit_nb(state, mask):
    """A uniformly random set bit of a non-zero mask (its index).

    Dense masks use rejection on the bit index (fewer than two draws on average),
    sparse ones pick the k-th set bit.
    """
    c = popcount_nb(mask)
    span = highest_nb(mask) + 1
    if 2 * c >= span:
        while True:
            r = randint_nb(state, span)
            if (mask >> np.uint64(r)) & np.uint64(1):
                return r
    return nth_set_nb(mask, randint_nb(state, c))
