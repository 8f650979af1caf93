"""Strategies given on the command line as ``module:object`` (tests of the plug-in path)."""
import numba as nb

from sim_race.strategies import RaceStrategy


@nb.njit
def sprint_nb(rng, me, other, target, k):
    """two dice while more than 6 points from the target"""
    return 2 if target - me > 6 else 1


# the same decision with its exact form, so the DP can check it
SPRINT = RaceStrategy("sprint", sprint_nb, lambda me, other, target, k: 1.0 if target - me > 6 else 0.0,
                      doc="two dice while more than 6 points from the target")


@nb.njit
def bad_nb(rng, me, other, target, k):
    return 3  # not a number of dice
