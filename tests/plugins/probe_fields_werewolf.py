"""Field probes for the Werewolf honesty harness (issue 43, tests/test_werewolf_field_probes.py).

``probe`` wolves attack whom one view field alone points at: the knob ``field`` (slot 0 of
``view.knobs``) names the field by its index in :data:`FIELDS` (the view's whitelist, in
order), a decoder of that field's shape turns it into a set of participants, and the attack
picks among those candidates (else among all). If the field carries nothing about the
paladin's choice, the probe hits a protected participant at chance.

``oracle_probe`` is its twin with the judge's view: the same decoder of the same shape, fed
tonight's protected set written into that shape — what the field would show if it leaked.
It shows that each probe has the power to see such a leak.

Decoders by shape: a participant index (scalar) → that participant; a mask → its bits; a
per-participant row → the participants whose value differs from the row's most common one;
a table by (claimer, target) → the same on its column sums; per-claim masks → their union.
``rules`` is probed by its seat list, ``knobs`` by slot 1.
"""
import numba as nb
import numpy as np

from sim.core.knobs import Knob
from sim.core.rng import choose_bit_nb
from strategies.werewolf import WolfStrategy

U1 = np.uint64(1)
FIELDS = ("n", "day", "runoff", "rules", "alive", "out_how", "out_day", "revived", "claim_role", "claim_res",
          "claimed", "said", "me", "my_role", "know", "last_mark", "last_protect", "knobs", "mem")
SCALAR, MASK, ROW, TABLE, MASKS = range(5)
SHAPE = (SCALAR, SCALAR, SCALAR, ROW, MASK, ROW, ROW, ROW, ROW, TABLE, MASKS, MASKS, SCALAR, SCALAR, ROW,
         SCALAR, MASK, SCALAR, ROW)


@nb.njit
def _scalar_nb(v, n):
    return U1 << np.uint64(v) if 0 <= v < n else np.uint64(0)


@nb.njit
def _minority_nb(a, n):
    """The participants whose a[t] differs from the most common value of a[:n]."""
    mode, best = a[0], 0
    for i in range(n):
        c = 0
        for j in range(n):
            c += a[j] == a[i]
        if c > best:
            best, mode = c, a[i]
    m = np.uint64(0)
    for t in range(n):
        if a[t] != mode:
            m |= U1 << np.uint64(t)
    return m


@nb.njit
def _columns_nb(tab, n):
    s = np.zeros(n, np.int64)
    for c in range(tab.shape[0]):
        for t in range(n):
            s[t] += tab[c, t]
    return _minority_nb(s, n)


@nb.njit
def _union_nb(masks):
    m = np.uint64(0)
    for x in masks.ravel():
        m |= x
    return m


@nb.njit
def field_guess_nb(view, f):
    """The participants field ``f`` of the view points at."""
    n = view.n
    if f == 0:
        return _scalar_nb(view.n, n)
    if f == 1:
        return _scalar_nb(view.day, n)
    if f == 2:
        return _scalar_nb(view.runoff, n)
    if f == 3:
        return _minority_nb(view.rules.seats, n)
    if f == 4:
        return view.alive
    if f == 5:
        return _minority_nb(view.out_how, n)
    if f == 6:
        return _minority_nb(view.out_day, n)
    if f == 7:
        return _minority_nb(view.revived, n)
    if f == 8:
        return _minority_nb(view.claim_role, n)
    if f == 9:
        return _columns_nb(view.claim_res, n)
    if f == 10:
        return _union_nb(view.claimed)
    if f == 11:
        return _union_nb(view.said)
    if f == 12:
        return _scalar_nb(view.me, n)
    if f == 13:
        return _scalar_nb(view.my_role, n)
    if f == 14:
        return _minority_nb(view.know, n)
    if f == 15:
        return _scalar_nb(view.last_mark, n)
    if f == 16:
        return view.last_protect
    if f == 17:
        k = view.knobs[1] if view.knobs.shape[0] > 1 else np.nan
        return _scalar_nb(np.int64(k), n) if k == k else np.uint64(0)
    return _minority_nb(view.mem, n)


@nb.njit
def leak_guess_nb(view, f):
    """What the decoder of field f's shape makes of tonight's protection written in that shape."""
    n = view.n
    p = view.protected
    shape = SHAPE[f]
    if shape == SCALAR:
        low = -1
        for t in range(n):
            if (p >> np.uint64(t)) & U1:
                low = t
                break
        return _scalar_nb(low, n)
    if shape == MASK:
        return p
    row = np.zeros(n, np.int64)
    for t in range(n):
        row[t] = (p >> np.uint64(t)) & U1
    if shape == ROW:
        return _minority_nb(row, n)
    if shape == TABLE:
        tab = np.full((n, n), -1, np.int64)
        tab[0, :] = row
        return _columns_nb(tab, n)
    return _union_nb(np.array([p, np.uint64(0)]))


@nb.njit
def probe_attack_nb(rng, view, cands):
    g = field_guess_nb(view, np.int64(view.knobs[0])) & cands
    return choose_bit_nb(rng, g if g else cands)


@nb.njit
def oracle_probe_attack_nb(rng, view, cands):
    g = leak_guess_nb(view, np.int64(view.knobs[0])) & cands
    return choose_bit_nb(rng, g if g else cands)


KNOBS = (Knob("field", "int", 0, len(FIELDS) - 1, 0, doc="the view field the attack reads (index in FIELDS)"),)
probe = WolfStrategy("probe", attack=probe_attack_nb, knobs=KNOBS,
                     doc="attacks whom one view field points at")
oracle_probe = WolfStrategy("oracle_probe", attack=oracle_probe_attack_nb, knobs=KNOBS, oracle=True,
                            doc="ORACLE: the probe's decoder fed tonight's protection")
