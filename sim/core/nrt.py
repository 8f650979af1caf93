"""Refcount-free array views for hot numba loops.

Every array numba passes around carries a reference-counted meminfo, and each copy of
it into a tuple or a variable costs an atomic increment and decrement. In a game loop
that builds strategy views thousands of times per game this dominated the run time
(60% in ``NRT_incref``/``NRT_decref`` under perf). :func:`unmanaged_nb` returns a view of
the same memory with no meminfo, for which numba's refcount calls are no-ops. The
caller must keep the original array alive while the view is used (kernels allocate
their arrays at the top and use the views below, so this holds by construction).
"""
import numba as nb
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

if nb.config.DISABLE_JIT:  # pragma: no cover - plain-Python pass

    def unmanaged_nb(a):
        return a

    def address_nb(a):
        return a

    def at_nb(addr, shape, dtype):
        return addr

else:

    @intrinsic
    def _voidptr_nb(typingctx, addr):
        sig = types.voidptr(addr)

        def codegen(context, builder, signature, args):
            return builder.inttoptr(args[0], cgutils.voidptr_t)

        return sig, codegen

    @nb.njit(inline="always")
    def unmanaged_nb(a):
        """``a``'s memory as an array without a meminfo (no refcounting)."""
        return nb.carray(_voidptr_nb(a.ctypes.data), a.shape, a.dtype)


    @nb.njit(inline="always")
    def address_nb(a):
        """The address of ``a``'s data, for :func:`at_nb` (the caller keeps ``a`` alive)."""
        return a.ctypes.data

    @nb.njit(inline="always")
    def at_nb(addr, shape, dtype):
        """The C-contiguous array of ``shape`` and ``dtype`` at ``addr``, without a meminfo."""
        return nb.carray(_voidptr_nb(addr), shape, dtype)


SCRATCH = 64  # float64 slots of a stack scratch (a Werewolf table has at most 63 seats)

if nb.config.DISABLE_JIT:  # pragma: no cover - plain-Python pass
    import numpy as _np

    def scratch_nb(n):
        return _np.empty(n)

else:

    @intrinsic
    def _alloca_f64_nb(typingctx):
        sig = types.CPointer(types.float64)()

        def codegen(context, builder, signature, args):
            return cgutils.alloca_once(builder, context.get_value_type(types.float64), size=SCRATCH)

        return sig, codegen

    @nb.njit(inline="always")
    def scratch_nb(n):
        """``n`` (≤ SCRATCH) uninitialised float64s on the calling function's stack: a
        per-decision scratch with no heap allocation and no refcount. Inlined, so the
        memory belongs to the caller's frame; never return it."""
        return nb.carray(_alloca_f64_nb(), n)


@nb.njit
def keep_alive_nb(*owners):
    """A use of ``owners`` (arrays or tuples of arrays) at the call site: numba frees a
    variable after its last use, so a kernel that works on :func:`unmanaged_nb` views calls
    this at its end to keep the owning arrays alive until then."""
    return len(owners)
