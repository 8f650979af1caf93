"""sim.core.opaque: the callee's result and exceptions; a plain (inlined) call in the
normal build, a call LLVM may not inline in the audit build (bounds checking on), where
big strategies' kernels then compile in minutes instead of tens of minutes; the plain
call under NUMBA_DISABLE_JIT."""
import numba as nb
import numpy as np
import pytest

from sim.core.opaque import opaque


@nb.njit
def _scaled_sum(a, x):
    s = 0.0
    for i in range(a.size):
        s += a[i] * x
    return s


@nb.njit
def _picky(k):
    if k < 0:
        raise ValueError("negative")
    return k * 2


def _both_py(a):
    return opaque(_scaled_sum, (a, 2.0)) + _scaled_sum(a, 1.0)


@nb.njit
def _calls_picky(k):
    return opaque(_picky, (k,))


def test_the_result_is_the_callees():
    a = np.arange(5.0)
    assert nb.njit(_both_py)(a) == 3 * a.sum()
    assert _calls_picky(4) == 8


def test_the_callees_exception_passes_through():
    with pytest.raises(ValueError, match="negative"):
        _calls_picky(-1)


def _calls_left(boundscheck: int) -> list[str]:
    """The calls of _scaled_sum left in a fresh compile of _both_py's LLVM."""
    was = nb.config.BOUNDSCHECK
    nb.config.BOUNDSCHECK = boundscheck
    try:
        f = nb.njit(_both_py)
        f(np.arange(3.0))
        ir = f.inspect_llvm(f.signatures[0])
    finally:
        nb.config.BOUNDSCHECK = was
    return [ln for ln in ir.splitlines() if " call " in ln and "_scaled_sum" in ln]


@pytest.mark.skipif(nb.config.DISABLE_JIT, reason="no LLVM without the JIT")
def test_inlined_in_the_normal_build_a_call_of_its_own_in_the_audit_build():
    assert _calls_left(0) == []  # both calls inlined: the speed-critical build
    (kept,) = _calls_left(1)     # the opaque call stays a call, the plain one is inlined
    assert "#" in kept  # its attribute group (noinline)
