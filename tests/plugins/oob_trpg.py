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

OFFSETS = (1, 2, 3, 4, 5, 7, 8, 13, 16, 64, 100, 512, 1000, 4095)


@nb.njit
def _e1_nb(a):
    acc = np.int64(0)
    m = a.shape[0]
    for k in OFFSETS:
        acc |= np.int64(a[m - 1 + k] != 0)
        acc |= np.int64(a[-(m + k)] != 0)
    return acc


@nb.njit
def _e2_nb(a):
    acc = np.int64(0)
    r, c = a.shape
    for k in OFFSETS:
        acc |= np.int64(a[max(r - 1, 0), c - 1 + k] != 0)
        acc |= np.int64(a[0, -(c + k)] != 0)
    return acc


@nb.njit
def leak_nb(rng, view):
    acc = _e1_nb(rng) | _e1_nb(view.side) | _e1_nb(view.x) | _e1_nb(view.y) | _e1_nb(view.status)
    acc |= _e1_nb(view.controlled) | _e1_nb(view.hp_band) | _e1_nb(view.equip) | _e1_nb(view.melee)
    acc |= _e1_nb(view.shooting) | _e1_nb(view.sheet) | _e1_nb(view.state) | _e1_nb(view.my_weapons)
    acc |= _e2_nb(view.weapons) | _e2_nb(view.dice)
    if view.hp_public == 0:  # hidden HP is a row of HIDDEN values: only outside it must be zeros
        acc |= _e1_nb(view.hp)
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
