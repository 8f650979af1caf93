"""Guarded allocations: every array a strategy's view can reach lives in memory of its own,
with :data:`GUARD` bytes of zeros before and after it.

numba does not check array bounds (unless ``--check-bounds``, :mod:`sim.core.audit`), so a
plug-in that indexes past the end of an array it was given reads whatever lies next to it.
When the kernels kept each side's stream as a row of one ``(sides, 4)`` array, or each
participant's knowledge as a row of the judge's ``n × n`` matrix, the next row was another
side's stream or another participant's knowledge: an off-by-one leaked hidden information
(issue 38). So kernels build every array a view hands out — each side's stream, each
participant's knowledge, scratch and memory, the public record and the rules — with the
functions below:

- :func:`guarded_nb` / :func:`guarded_copy_nb`: one allocation per array, laid out
  ``[GUARD zeros][the array][GUARD zeros]``;
- :func:`guarded_rows_nb`: per-participant rows, each row with its own guards (a row's
  trailing guard is not the next row's leading one, so a write past one row's end and a
  read before the next row's start never meet within :data:`GUARD` bytes).

What this guarantees: an index up to ``GUARD`` bytes before the start or past the end of
any array a view hands out reads zeros (a participant's own guard), never another side's
stream, another participant's row or the judge's state. What it cannot: an index further
out, or code that scans memory on purpose (a plug-in is native code in the same process) —
see docs/adding-a-game.md "Threat model". ``--check-bounds`` turns any out-of-range index
into an error instead.
"""
import numba as nb
import numpy as np

from sim.core.nrt import unmanaged_nb

GUARD = 1 << 15  # bytes: more than the largest wrong-stride index of a 63-seat n × n table
ALIGN = 64


@nb.njit(inline="always")
def _padded_nb(nbytes):
    return ((nbytes + ALIGN - 1) // ALIGN) * ALIGN


@nb.njit
def guarded_nb(shape, dtype):
    """A zeroed C-contiguous array of ``shape`` and ``dtype`` in an allocation of its own,
    with :data:`GUARD` zero bytes before and after it (a managed array: it keeps the
    allocation alive)."""
    count = 1
    for s in shape:
        count *= s
    item = np.zeros(1, dtype).itemsize
    buf = np.zeros(GUARD + _padded_nb(count * item) + GUARD, np.uint8)
    return buf[GUARD:GUARD + count * item].view(dtype).reshape(shape)


@nb.njit
def guarded_copy_nb(a):
    """A copy of the C-contiguous array ``a`` laid out as :func:`guarded_nb`."""
    g = guarded_nb(a.shape, a.dtype)
    flat = g.reshape(a.size)
    src = a.reshape(a.size)
    for i in range(a.size):
        flat[i] = src[i]
    return g


@nb.njit
def guarded_rows_nb(rows, cols, dtype):
    """The owner of a ``rows × cols`` table whose every row has its own guards: a zeroed
    C array ``rows × (2·g + padded cols)``, ``g`` = GUARD / itemsize; row ``r``'s data are
    columns ``g … g+cols`` (:func:`rows_view_nb`, :func:`row_nb`)."""
    item = np.zeros(1, dtype).itemsize
    g = GUARD // item
    stride = 2 * g + _padded_nb(cols * item) // item
    return np.zeros((rows, stride), dtype)


@nb.njit(inline="always")
def rows_view_nb(owner, cols):
    """The ``rows × cols`` data of a :func:`guarded_rows_nb` owner, refcount-free (the
    caller keeps ``owner`` alive)."""
    g = GUARD // owner.itemsize
    return unmanaged_nb(owner)[:, g:g + cols]


if nb.config.DISABLE_JIT:  # pragma: no cover - plain-Python pass

    def row_nb(a, r):
        return a[r]

else:
    from sim.core.nrt import at_nb

    @nb.njit(inline="always")
    def row_nb(a, r):
        """Row ``r`` of a 2-D array whose rows are contiguous (a :func:`rows_view_nb`) as a
        C-contiguous 1-D array of the same memory, refcount-free: what a view hands out."""
        return at_nb(a.ctypes.data + r * a.strides[0], (a.shape[1],), a.dtype)
