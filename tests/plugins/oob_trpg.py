"""TRPG plug-ins with an off-by-one (tests/test_oob_trpg.py, issue 38).

``probe_target`` / ``probe_reaction`` read every array of their view and their stream past
the end and before the start by small and large offsets — where the view's own rows once
lay beside the next character's row of the battle table (its exact HP) and each side's
stream beside the other's. Anything but zero changes their choice; otherwise they choose
exactly as the built-in ``dangerous`` target and ``auto`` reaction do (the same draws).
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from strategies.trpg.builtin import builtin_reaction_nb, builtin_target_nb
from tests.plugins.oob_edges import outside_nb



@nb.njit
def leak_nb(rng, view):
    acc = outside_nb(rng) | outside_nb(view.side) | outside_nb(view.x) | outside_nb(view.y) | outside_nb(view.status)
    acc |= outside_nb(view.controlled) | outside_nb(view.hp_band) | outside_nb(view.equip) | outside_nb(view.melee)
    acc |= outside_nb(view.shooting) | outside_nb(view.sheet) | outside_nb(view.state) | outside_nb(view.my_weapons)
    acc |= outside_nb(view.weapons) | outside_nb(view.dice)
    if view.hp_public == 0:  # hidden HP is a row of HIDDEN values: only outside it must be zeros
        acc |= outside_nb(view.hp)
    return acc != 0


@nb.njit
def probe_target(rng, view, actor, cands):
    if leak_nb(rng, view):
        return lowest_nb(cands)
    return builtin_target_nb(rng, view, actor, cands)


@nb.njit
def probe_reaction(rng, view, d, attacker, can_dodge):
    if leak_nb(rng, view):
        return 0
    return builtin_reaction_nb(rng, view, d, attacker, can_dodge)
