"""Counter-seeded xoshiro256** streams for numba kernels.

Kernels never touch numba's global RNG: under ``prange``/threads its state is per
thread, so results would depend on the thread count. Instead every game ``g`` gets its
own streams, derived from a 256-bit run key (from numpy ``SeedSequence``, see
:mod:`sim.core.seeding`), ``g`` and a stream number ``side``: ``side = 0`` is the
rules' own stream (dice, shuffles, the drag, tie breaks), ``side = 1, 2, …`` each side's
decisions (:data:`RULES`, and each game's ``Stream`` enum). A game's streams therefore
do not depend on which chunk or thread plays it, so results are identical for any
thread count and chunk size.

Why a keyed one-way function. A strategy holds its own xoshiro state, and xoshiro can
be stepped backwards, so it can always recover the state its stream started from. If
that start were an invertible function of the key (as SplitMix64 chains are), it would
give away the key and with it every other stream: the rules' dice to come, the other
side's choices. So each start is made of SipHash-1-3 outputs (a pseudo-random function
keyed by 128 bits of the run key; message: the game, the stream, the other 128 key bits)
expanded by SplitMix64. Recovering the run key from any number of outputs is as hard as
breaking SipHash; one side's start says nothing about another's. (SipHash is fast but
not a cryptographic standard for secrets; it is ample against a strategy plug-in.)
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


RULES = 0  # the stream of the rules' own chance events; sides draw from 1, 2, …


@nb.njit(inline="always")
def _sipround_nb(v0, v1, v2, v3):
    v0 += v1
    v1 = _rotl_nb(v1, 13) ^ v0
    v0 = _rotl_nb(v0, 32)
    v2 += v3
    v3 = _rotl_nb(v3, 16) ^ v2
    v0 += v3
    v3 = _rotl_nb(v3, 21) ^ v0
    v2 += v1
    v1 = _rotl_nb(v1, 17) ^ v2
    v2 = _rotl_nb(v2, 32)
    return v0, v1, v2, v3


@nb.njit
def siphash13_nb(k0, k1, m0, m1, m2, m3):
    """SipHash-1-3 of the four 64-bit words ``m0..m3`` under the key ``(k0, k1)``."""
    v0 = k0 ^ np.uint64(0x736F6D6570736575)
    v1 = k1 ^ np.uint64(0x646F72616E646F6D)
    v2 = k0 ^ np.uint64(0x6C7967656E657261)
    v3 = k1 ^ np.uint64(0x7465646279746573)
    for m in (m0, m1, m2, m3, np.uint64(32) << np.uint64(56)):  # last block: the length
        v3 ^= m
        v0, v1, v2, v3 = _sipround_nb(v0, v1, v2, v3)
        v0 ^= m
    v2 ^= np.uint64(0xFF)
    for _ in range(3):
        v0, v1, v2, v3 = _sipround_nb(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


@nb.njit
def seed_stream_nb(state, key, stream, side=0):
    """Fill ``state`` (uint64[4]) with the start of game ``stream``'s stream ``side``
    (0: the rules', :data:`RULES`) under ``key`` — one-way, see the module's docstring."""
    g = np.uint64(stream)
    s = np.uint64(side) << np.uint64(1)
    a = siphash13_nb(key[0], key[1], g, s, key[2], key[3])
    b = siphash13_nb(key[0], key[1], g, s | np.uint64(1), key[2], key[3])
    state[0] = splitmix64_nb(a)
    state[1] = splitmix64_nb(state[0] ^ b)
    state[2] = splitmix64_nb(b)
    state[3] = splitmix64_nb(state[2] ^ a)
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
