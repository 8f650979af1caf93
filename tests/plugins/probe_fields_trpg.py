"""Field probes for the TRPG honesty harness (issue 43, tests/test_trpg_field_probes.py).

``probe`` is a target plug-in that attacks whom one field of its view alone points at:
its own sheet's ``strategy.arm_horizon`` (read only by the ``auto`` reaction, which the
probe's character does not use) names the field by its index in :data:`FIELDS` (the
View's whitelist, in order); a decoder of that field's shape turns it into a set of
candidates, and the attack draws among those (else among all). The hidden quantity is the
candidates' exact HP (the table shows bands unless ``rules.hp_public``, docs/rules/trpg.md "What the player knows"): the harness
asks whether the probe picks the candidate with the lowest exact HP more often than chance.

``oracle_probe`` is its twin with the judge's view (sim.trpg.views.OracleView): the same
decoder of the same shape fed the candidates' exact HP written into it — what the field
would show if it leaked. It shows that each probe has the power to see such a leak.

Decoders by shape: a scalar → that character; a row by character (and the perceiver's own
rows, read by position) → the candidates with the row's lowest value; a table → the same
on its rows' sums.
"""
import numba as nb
import numpy as np

from sim.core.rng import choose_bit_nb
from sim.trpg.enums import CF, B

U1 = np.uint64(1)
FIELDS = ("me", "round", "grid", "hp_public", "side", "x", "y", "status", "controlled", "hp_band", "hp", "equip",
          "melee", "shooting", "sheet", "state", "my_weapons", "weapons", "dice")
SCALAR, ROW, TABLE = range(3)
SHAPE = (SCALAR, SCALAR, SCALAR, SCALAR, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, ROW, TABLE, TABLE)


@nb.njit
def _scalar_nb(v, cands):
    return (U1 << np.uint64(v)) & cands if 0 <= v < 64 else np.uint64(0)


@nb.njit
def _lowest_nb(row, cands):
    """The candidates j (j < len(row)) with the lowest row[j]."""
    best = np.int64(0)
    m = np.uint64(0)
    for j in range(min(row.shape[0], 64)):
        if not (cands >> np.uint64(j)) & U1:
            continue
        v = np.int64(row[j])
        if m == 0 or v < best:
            best, m = v, U1 << np.uint64(j)
        elif v == best:
            m |= U1 << np.uint64(j)
    return m


@nb.njit
def _row_sums_nb(tab):
    s = np.zeros(tab.shape[0], np.int64)
    for i in range(tab.shape[0]):
        for k in range(tab.shape[1]):
            s[i] += tab[i, k]
    return s


@nb.njit
def field_guess_nb(view, f, cands):
    """The candidates field ``f`` of the view points at."""
    if f == 0:
        return _scalar_nb(view.me, cands)
    if f == 1:
        return _scalar_nb(view.round, cands)
    if f == 2:
        return _scalar_nb(view.grid, cands)
    if f == 3:
        return _scalar_nb(view.hp_public, cands)
    if f == 4:
        return _lowest_nb(view.side, cands)
    if f == 5:
        return _lowest_nb(view.x, cands)
    if f == 6:
        return _lowest_nb(view.y, cands)
    if f == 7:
        return _lowest_nb(view.status, cands)
    if f == 8:
        return _lowest_nb(view.controlled, cands)
    if f == 9:
        return _lowest_nb(view.hp_band, cands)
    if f == 10:
        return _lowest_nb(view.hp, cands)
    if f == 11:
        return _lowest_nb(view.equip, cands)
    if f == 12:
        return _lowest_nb(view.melee, cands)
    if f == 13:
        return _lowest_nb(view.shooting, cands)
    if f == 14:
        return _lowest_nb(view.sheet, cands)
    if f == 15:
        return _lowest_nb(view.state, cands)
    if f == 16:
        return _lowest_nb(view.my_weapons, cands)
    if f == 17:
        return _lowest_nb(_row_sums_nb(view.weapons), cands)
    return _lowest_nb(_row_sums_nb(view.dice), cands)


@nb.njit
def leak_guess_nb(view, f, cands):
    """What the decoder of field f's shape makes of the exact HP written in that shape."""
    hp = view.bs[:, B.HP].copy()
    low = _lowest_nb(hp, cands)
    shape = SHAPE[f]
    if shape == SCALAR:
        j = 0
        while not (low >> np.uint64(j)) & U1:
            j += 1
        return _scalar_nb(j, cands)
    if shape == ROW:
        return _lowest_nb(hp, cands)
    tab = np.zeros((hp.shape[0], 2), np.int64)
    tab[:, 0] = hp
    return _lowest_nb(_row_sums_nb(tab), cands)


@nb.njit
def probe(rng, view, actor, cands):
    g = field_guess_nb(view, np.int64(view.sheet[CF.S_ARM_HORIZON]), cands)
    return choose_bit_nb(rng, g if g else cands)


@nb.njit
def oracle_probe(rng, view, actor, cands):
    g = leak_guess_nb(view, np.int64(view.sc.chars[actor, CF.S_ARM_HORIZON]), cands)
    return choose_bit_nb(rng, g if g else cands)
