"""A user TRPG target strategy: always attack the enemy with the highest sheet index."""
import numba as nb

from sim.core.bits import highest_nb


@nb.njit
def last_enemy(rng, view, actor, cands):
    return highest_nb(cands)
