"""A user village strategy: everyone always votes for the lowest-numbered candidate."""
import numba as nb

from sim.core.bits import lowest_nb
from strategies.werewolf import VillageStrategy


@nb.njit(cache=True)
def vote_lowest(rng, view, cands):
    return lowest_nb(cands)


herd = VillageStrategy("herd", vote=vote_lowest, doc="all villagers vote the lowest seat")
