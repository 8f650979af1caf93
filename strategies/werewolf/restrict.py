"""Hooks of restricted play (``sim werewolf loo --restrict``): an ability withheld.

Each keeps the participant in its seat and team; it only never uses the ability. The
claim restrictions wrap the family's own ``speak`` so that one role stays silent while
everyone else speaks as before (the kernel cache tells the closures apart by what they
capture, :func:`sim.core.kernels._fn_fingerprint`).
"""
import numba as nb
import numpy as np

from sim.werewolf.enums import WITCH_PASS


@nb.njit(inline="always")
def never_divine_nb(rng, view):
    return -1


@nb.njit(inline="always")
def never_mark_nb(rng, view):
    return -1


@nb.njit(inline="always")
def never_protect_nb(rng, view):
    return np.uint64(0)


@nb.njit(inline="always")
def never_witch_nb(rng, view):
    return WITCH_PASS


def silent_role(speak, role: int):
    """``speak`` for everyone but the participants of role index ``role``, who never claim."""
    role = int(role)

    @nb.njit(inline="always")
    def speak_unless_role_nb(rng, view):
        if view.my_role == role:
            return -1
        return speak(rng, view)

    return speak_unless_role_nb
