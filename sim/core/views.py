"""Read-only views for strategies: what a participant may know, and nothing it may write.

A strategy receives a ``View`` (a namedtuple) whose fields come from its game's
whitelist (``sim/<game>/views.py``): a field is visible only once someone names it
there, and each rules page lists the same fields under "what the … knows". Every array
in a view is passed through :func:`readonly_nb`, which gives numba's *read-only* array
type to the same memory: a strategy that assigns into its view does not compile
("No implementation of function setitem"), and under ``NUMBA_DISABLE_JIT=1`` it gets a
numpy array with ``writeable=False`` (``ValueError: assignment destination is
read-only``). Kernels build a view's arrays as the participant's own copies of what it
was told, so a view never aliases the judge's state either.

Strategies whose name starts with ``oracle_`` get the judge's state instead (each
game's ``oracle`` view); every output that used one says so (:func:`oracle_label`).
"""
from __future__ import annotations

from typing import Any, Mapping

import numba as nb
import numpy as np
from numba import types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

ORACLE_PREFIX = "oracle_"

if nb.config.DISABLE_JIT:  # pragma: no cover - plain-Python pass

    def readonly_nb(a):
        v = np.asarray(a).view()
        v.flags.writeable = False
        return v

else:

    @intrinsic
    def _readonly_nb(typingctx, a):
        if not isinstance(a, types.Array):
            return None
        rt = a.copy(readonly=True)

        def codegen(context, builder, signature, args):
            return impl_ret_borrowed(context, builder, rt, args[0])

        return rt(a), codegen

    @nb.njit(inline="always")
    def readonly_nb(a):
        """``a``'s memory as numba's read-only array type (writes do not compile)."""
        return _readonly_nb(a)


def strategy_name(strategy: Any) -> str:
    """A strategy's name as the user gave it (``random``, ``mypkg.mod:oracle_x``)."""
    return str(getattr(strategy, "name", strategy))


def is_oracle(strategy: Any) -> bool:
    """Whether a strategy reads more than its participant may know: its name (the
    registered name, or the object part of ``module:object``) starts with ``oracle_``."""
    return strategy_name(strategy).rpartition(":")[2].startswith(ORACLE_PREFIX)


def oracles(strategies: Mapping[str, Any]) -> dict[str, str]:
    """Side → name of every oracle strategy among ``strategies`` (empty when all are honest)."""
    return {side: strategy_name(s) for side, s in strategies.items() if is_oracle(s)}


def oracle_label(strategies: Mapping[str, Any]) -> str:
    """One line that says which sides read hidden information, or ``""``."""
    o = oracles(strategies)
    if not o:
        return ""
    return "ORACLE: " + ", ".join(f"{side}={name}" for side, name in o.items()) + \
        " reads hidden information; these figures are not those of honest play"


def representatives(names) -> list[str]:
    """One strategy of each kind of view among ``names``: an honest one, an ``oracle_…`` one
    (``sim precompile`` builds a kernel per kind of view)."""
    names = list(names)
    out = []
    for want in (False, True):
        pick = next((n for n in names if is_oracle(n) == want), None)
        if pick is not None:
            out.append(pick)
    return out
