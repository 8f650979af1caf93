"""A user plug-in as a designer would write it: a bare @njit move function."""
import numba as nb


@nb.njit(cache=True)
def stay_home(rng, view, own, out):
    """Never moves anyone."""
    return 0
