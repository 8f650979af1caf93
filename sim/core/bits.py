"""Bit tricks on uint64 masks for numba kernels.

Characters, roles and attribute sets are bit positions; a set of them is one uint64.
The intrinsics map to single LLVM instructions (ctpop / cttz). Under
NUMBA_DISABLE_JIT=1 plain-Python equivalents are used so kernels still run as Python.
"""
import numba as nb
import numpy as np
from numba import types
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)

if nb.config.DISABLE_JIT:  # pragma: no cover - exercised by the no-JIT test pass

    def popcount_nb(x):
        return bin(int(x)).count("1")

    def lowest_nb(x):
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest_nb(x):
        return int(x).bit_length() - 1

else:

    @intrinsic
    def _ctpop_nb(typingctx, src):
        if not isinstance(src, types.Integer):
            return None
        sig = types.int64(src)

        def codegen(context, builder, signature, args):
            res = builder.ctpop(args[0])
            return context.cast(builder, res, signature.args[0], types.int64)

        return sig, codegen

    @intrinsic
    def _cttz_nb(typingctx, src):
        if not isinstance(src, types.Integer):
            return None
        sig = types.int64(src)

        def codegen(context, builder, signature, args):
            res = builder.cttz(args[0], context.get_constant(types.boolean, False))
            return context.cast(builder, res, signature.args[0], types.int64)

        return sig, codegen

    @intrinsic
    def _ctlz_nb(typingctx, src):
        if not isinstance(src, types.Integer):
            return None
        sig = types.int64(src)

        def codegen(context, builder, signature, args):
            res = builder.ctlz(args[0], context.get_constant(types.boolean, False))
            return context.cast(builder, res, signature.args[0], types.int64)

        return sig, codegen

    @nb.njit(inline="always")
    def highest_nb(x):
        """Index of the highest set bit of a non-zero uint64 mask."""
        return 63 - _ctlz_nb(x)

    @nb.njit(inline="always")
    def popcount_nb(x):
        return _ctpop_nb(x)

    @nb.njit(inline="always")
    def lowest_nb(x):
        """Index of the lowest set bit of a non-zero mask."""
        return _cttz_nb(x)


@nb.njit(inline="always")
def bit_nb(i):
    return np.uint64(1) << np.uint64(i)


@nb.njit(inline="always")
def nth_set_nb(mask, k):
    """Index of the k-th (0-based) set bit of mask, in increasing bit order."""
    m = mask
    for _ in range(k):
        m &= m - np.uint64(1)
    return lowest_nb(m)
