"""The TRPG kernel's state as refcount-free views (sim/core/nrt.py): the ``View`` and
``Battle`` tuples, unmanaged copies of the battle state and the scenario, and the context
(``context_address_nb`` / ``context_nb``) that packs the addresses and shapes of a combat's
arrays into one int64 array so a real call (``damage_nb``) takes a single argument.
None of these call a strategy hook, so they live outside the kernel template's module
(sim/trpg/game_nb.py)."""
from collections import namedtuple

import numba as nb
import numpy as np

from sim.core.guard import guarded_copy_nb, guarded_nb
from sim.core.nrt import address_nb, at_nb, unmanaged_nb
from sim.trpg.enums import N_B
from sim.trpg.sheets import ScenarioNB

# The judge's state of one combat (the kernel's own; strategies get sim.trpg.views' views)
View = namedtuple("View", "sc bs info")
# info slots: the round, the actor, the game being played, which side streams are seeded
I_ROUND, I_ACTOR, I_GAME, I_SEEDED = 0, 1, 2, 3
Battle = namedtuple("Battle", "bs info")


@nb.njit
def new_battle_nb(n):
    """The battle table in guarded memory of its own (sim.core.guard): the judge's, but
    next to nothing a view hands out."""
    return Battle(guarded_nb((n, N_B), np.int64), np.zeros(4, np.int64))


@nb.njit
def guarded_scenario_nb(s):
    """The scenario's tables copied into guarded memory (views hand out the weapons and dice
    tables, and copies of the sheets' public columns)."""
    return ScenarioNB(guarded_copy_nb(s.chars), guarded_copy_nb(s.skills), guarded_copy_nb(s.weapons),
                      guarded_copy_nb(s.char_weapons), guarded_copy_nb(s.abilities), guarded_copy_nb(s.dice),
                      guarded_copy_nb(s.symptoms), guarded_copy_nb(s.rules))


@nb.njit(inline="always")
def unmanaged_battle_nb(b):
    return Battle(unmanaged_nb(b.bs), unmanaged_nb(b.info))


@nb.njit(inline="always")
def unmanaged_scenario_nb(s):
    return ScenarioNB(unmanaged_nb(s.chars), unmanaged_nb(s.skills), unmanaged_nb(s.weapons),
                      unmanaged_nb(s.char_weapons), unmanaged_nb(s.abilities), unmanaged_nb(s.dice),
                      unmanaged_nb(s.symptoms), unmanaged_nb(s.rules))


# damage() is a real call (inlined, the kernel took minutes to compile), and each array
# passed to a call costs numba refcount calls and ~9 words of arguments. So the kernel
# puts the addresses and shapes of its arrays (scenario tables, battle state, RNG state)
# in one int64 array, and damage() gets that array's address only.
N_CTX = 42  # 14 arrays x (address, rows, columns)


@nb.njit(inline="always")
def _put_nb(ctx, k, a, rows, cols):
    ctx[3 * k] = address_nb(a)
    ctx[3 * k + 1] = rows
    ctx[3 * k + 2] = cols


@nb.njit(inline="always")
def _put2_nb(ctx, k, a):
    _put_nb(ctx, k, a, a.shape[0], a.shape[1])


@nb.njit(inline="always")
def _get2_nb(c, k):
    return at_nb(c[3 * k], (c[3 * k + 1], c[3 * k + 2]), np.int64)


@nb.njit(inline="always")
def _get1_nb(c, k):
    return at_nb(c[3 * k], (c[3 * k + 1],), np.int64)


if nb.config.DISABLE_JIT:  # pragma: no cover - plain Python: the context is the objects themselves

    def context_address_nb(ctx, rng, view, srngs, key, pb):
        return rng, view, srngs, key, pb

    def context_nb(cx):
        return cx

else:

    @nb.njit(inline="always")
    def context_address_nb(ctx, rng, view, srngs, key, pb):
        """Fill ``ctx`` (int64[N_CTX]) for :func:`context_nb`; its address."""
        sc = view.sc
        _put2_nb(ctx, 0, sc.chars)
        _put2_nb(ctx, 1, sc.skills)
        _put2_nb(ctx, 2, sc.weapons)
        _put2_nb(ctx, 3, sc.char_weapons)
        _put2_nb(ctx, 4, sc.abilities)
        _put2_nb(ctx, 5, sc.dice)
        _put2_nb(ctx, 6, sc.symptoms)
        _put_nb(ctx, 7, sc.rules, sc.rules.shape[0], 1)
        _put2_nb(ctx, 8, view.bs)
        _put_nb(ctx, 9, view.info, view.info.shape[0], 1)
        _put_nb(ctx, 10, rng, 4, 1)
        _put2_nb(ctx, 11, srngs)
        _put_nb(ctx, 12, key, 4, 1)
        _put2_nb(ctx, 13, pb)
        return address_nb(ctx)

    @nb.njit(inline="always")
    def context_nb(cx):
        """``(rules rng, judge's view, side streams, key, hidden-HP board)`` from a
        :func:`context_address_nb`: refcount-free views."""
        c = at_nb(cx, (N_CTX,), np.int64)
        sc = ScenarioNB(_get2_nb(c, 0), _get2_nb(c, 1), _get2_nb(c, 2), _get2_nb(c, 3), _get2_nb(c, 4),
                        _get2_nb(c, 5), _get2_nb(c, 6), _get1_nb(c, 7))
        return (at_nb(c[30], (4,), np.uint64), View(sc, _get2_nb(c, 8), _get1_nb(c, 9)),
                at_nb(c[33], (c[34], c[35]), np.uint64), at_nb(c[36], (4,), np.uint64), _get2_nb(c, 13))
