"""A user village strategy that states its reason (sim.core.reasons): it votes the lowest
candidate seat and says so as a suspicion of 7 on it and of 0 on the next one."""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from sim.core.reasons import explaining_nb, reason_nb
from sim.werewolf.enums import Why
from strategies.werewolf import VillageStrategy


@nb.njit(cache=True)
def vote_lowest_saying_why(rng, view, cands):
    t = lowest_nb(cands)
    reason_nb(view.why, Why.SUSPECT, t, -1, 7.0)
    if explaining_nb(view.why):  # work done only to explain: never in a batch run
        rest = cands & (cands - np.uint64(1))  # without its lowest bit
        if rest:
            reason_nb(view.why, Why.SUSPECT, lowest_nb(rest), -1, 0.0)
    return t


lowest = VillageStrategy("lowest", vote=vote_lowest_saying_why, doc="votes the lowest seat and says why")
