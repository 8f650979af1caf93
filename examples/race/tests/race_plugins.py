"""Strategies given on the command line as ``module:object`` (tests of the plug-in path)."""
import numba as nb

from sim.core.reasons import reason_nb
from sim.core.rng import randint_nb

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


@nb.njit
def peek_nb(rng, me, other, target, k):
    """Hostile: copies its generator and rolls the two dice it expects; rolls two only
    when neither would bust. With one stream for dice and choices this never busted."""
    s = rng.copy()
    a = 1 + randint_nb(s, 6)
    b = 1 + randint_nb(s, 6)
    return 2 if (a != 1 and b != 1) else 1


@nb.njit
def oracle_bold_nb(rng, me, other, target, k):
    """An oracle by name only (the race hides nothing): labelled wherever it is used."""
    return 2


OFFSETS = (1, 2, 3, 4, 5, 8, 16, 64, 512, 4095)


@nb.njit
def oob_nb(rng, me, other, target, k):
    """Hostile with an off-by-one: reads past the end and before the start of its stream,
    where the dice's stream and the other player's once lay beside it. Anything but zero
    there makes it roll two dice; otherwise it flips the same coin as ``random``."""
    for j in OFFSETS:
        if rng[3 + j] != 0 or rng[-(4 + j)] != 0:
            return 2
    return 1 + randint_nb(rng, 2)


@nb.njit
def explained_nb(rng, me, other, target, k, why):
    """Two dice within 10 of the target, saying so (a plug-in states its reason like the
    shipped ones: the kind is its own number, shown as such)."""
    reason_nb(why, 7, -1, target - me, 1.0)
    return 2 if target - me <= 10 else 1
