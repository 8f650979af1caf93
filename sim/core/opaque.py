"""``opaque(f, (a, b, …))``: call the jitted ``f`` from a kernel — a plain call, which LLVM
inlines as usual, except in the audit mode (``--check-bounds``), where the call is marked
``noinline`` and the callee stays a function of its own.

Why: numba links every jitted callee into its caller's module and LLVM inlines it there,
so the Looper's bayes (filter, repair, enumeration, move search, the day model it replays
from a dozen places) becomes one function of tens of thousands of instructions, and some
of LLVM's passes (reference-count pruning, instruction combining, vectorisation legality)
grow faster than a function's size: bayes's kernel took 21.5 CPU minutes to compile cold on
2026-12-06, against 43 s before its filter grew; bounds checking makes it bigger still.
With these calls kept out of line it compiled in 3.2 minutes and played the same games,
but about 3x slower (150–186 games/s against 464–547; bayes × random, 4,000 games, one
thread); keeping only the rarest call out of line (the repair: 3 calls in 6 games) still
compiled for 13.5 minutes and played 1.9x slower, for reasons not pinned down
(docs/performance.md). So the speed-critical build keeps
inlining, and the audit build, whose only job is to find an out-of-bounds index and which
runs a few hundred games, takes the quick compile. The calls are in the strategies' code
either way, so both builds run the same functions on the same values.

Under ``NUMBA_DISABLE_JIT`` it is the plain call.
"""
from __future__ import annotations

import numba as nb

if nb.config.DISABLE_JIT:  # pragma: no cover - the plain-Python pass

    def opaque(fn, args):
        return fn(*args)

else:
    from numba import types
    from numba.core.typing import signature
    from numba.extending import intrinsic

    def out_of_line() -> bool:
        """Whether calls through :func:`opaque` compile as calls (the audit mode's bounds
        checking is on: sim.core.audit sets ``numba.config.BOUNDSCHECK``)."""
        return bool(nb.config.BOUNDSCHECK)

    @intrinsic
    def opaque(typingctx, fn, args):
        if not isinstance(fn, types.Dispatcher) or not isinstance(args, types.BaseTuple):
            return None
        callee = typingctx.resolve_function_type(fn, tuple(args.types), {})
        if callee is None:
            return None

        def codegen(context, builder, sig, llargs):
            vals = [builder.extract_value(llargs[1], i) for i in range(len(args.types))]
            impl = context.get_function(fn, callee)
            if not out_of_line():
                return impl(builder, vals)
            plain = builder.call

            def call(f, a, *rest, **kw):  # the call this lowering emits: the callee's
                ins = plain(f, a, *rest, **kw)
                ins.attributes.add("noinline")
                return ins

            builder.call = call
            try:
                return impl(builder, vals)
            finally:
                del builder.call

        return signature(callee.return_type, fn, args), codegen


__all__ = ["opaque"]
