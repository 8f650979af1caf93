"""Hooks of restricted play (``sim looper loo --restrict``): an optional ability withheld.

Each side keeps its seat and everything else it does; it only gives one ability up.
The scriptwriter's wrappers call its own ``setup`` first (the same draws from its stream,
so its key person and every other choice are as in the full game) and then undo the one
ability; the kernel cache tells the closures apart by what they capture
(:func:`sim.core.kernels._fn_fingerprint`).

* ``never_move_nb`` — the player never moves anyone (its daily moves, R-6).
* the player's naming (R-2 variant) is given up for :func:`strategies.looper.player.random_name_nb`.
* :func:`permanent_home` — the permanent moves leave their characters where they stand
  (the rules allow it, "leaving one where it already is"); they are still the
  scriptwriter's, so R-6 still overrides the player's moves of them.
* :func:`guests_stay` — each guest move puts its character where it stands that morning
  (its table place, or its permanent move's).
* ``chance_choose_nb`` — a uniform draw from the scriptwriter's stream picks each victim of
  a "one character dies" rule (R-10) instead of its strategy.
"""
import numba as nb

from sim.core.bits import popcount_nb
from sim.core.reasons import reason_nb
from sim.core.rng import choose_bit_nb
from sim.looper.enums import I, Why


@nb.njit
def never_move_nb(rng, view, own, out):
    return 0


@nb.njit
def chance_choose_nb(rng, view, params, actor, cand):
    reason_nb(view.why, Why.RANDOM, -1, -1, popcount_nb(cand))
    return choose_bit_nb(rng, cand)


def permanent_home(setup):
    """``setup`` with every permanent move sending its character to its own table place."""

    @nb.njit
    def setup_permanent_home_nb(rng, view, params, out):
        setup(rng, view, params, out)
        R = view.rules
        for j in range(R.info[I.N_PERM]):
            out[2 + 2 * j] = R.home[out[1 + 2 * j]]

    return setup_permanent_home_nb


def guests_stay(setup):
    """``setup`` with every guest move putting its character where it stands that day."""

    @nb.njit
    def setup_guests_stay_nb(rng, view, params, out):
        setup(rng, view, params, out)
        R = view.rules
        nperm = R.info[I.N_PERM]
        g = 1 + 2 * nperm
        for k in range(R.info[I.N_GUEST]):
            c = out[g + 2 * k]
            loc = R.home[c]
            for j in range(nperm):
                if out[1 + 2 * j] == c:
                    loc = out[2 + 2 * j]
            out[g + 2 * k + 1] = loc

    return setup_guests_stay_nb
