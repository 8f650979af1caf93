"""What the off-by-one plug-ins (tests/plugins/oob_*.py) read: the words just outside an array."""
import numba as nb
import numpy as np

# Offsets in elements past the end and before the start: off-by-ones, a row's width, the
# wrong-stride index of an n × n table (143 = 11·12 + 11), up to the guard's 32 KiB of int64.
OFFSETS = (1, 2, 3, 4, 5, 7, 8, 13, 16, 64, 100, 143, 512, 1000, 4095)


@nb.njit
def outside_nb(a):
    """Whether any word outside the C-contiguous array ``a`` (read flat), at every offset of
    OFFSETS past its end or before its start, is non-zero (1) or all are zero (0)."""
    f = a.reshape(a.size)
    acc = np.int64(0)
    m = f.shape[0]
    for k in OFFSETS:
        acc |= np.int64(f[m - 1 + k] != 0)
        acc |= np.int64(f[-(m + k)] != 0)  # numba wraps a negative index once: k words before
    return acc
