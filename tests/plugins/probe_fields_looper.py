"""Field probes for the Looper honesty harness (issue 43, tests/test_looper_field_probes.py).

``probe`` moves nobody and, whenever a loop survives and it must name the key person (R-2
variant), names whom one field of its view points at beyond what the rules let a player
deduce: its knob ``field`` (slot 0 of ``view.knobs``) names the field by its index in
:data:`FIELDS` (the PlayerView's whitelist, in order), a decoder of that field's shape
turns it into a set of characters, and the name is drawn among those of them that are
still *candidates* — alive, not the protagonist, and consistent with every announcement
so far (the deducer's candidates, ``strategies.looper.player._candidates_nb``) — else among
every candidate. Given an honest view the key person is uniform over the candidates (see
the test's docstring), so an honest field leaves the name right with probability
1 / candidates, in any loop; at the end of a first loop the candidates are the living
characters but the protagonist.

``oracle_probe`` is its twin with the judge's view: the same decoder fed the same field
(from loop ``leak_from`` on) with the key person written into it — what the field would show if it leaked (a death
announced for the key person, a move, a named or loop-end entry, an extra slot of the
rules' info or of the knobs, the key as the scalar or the mask). It shows that each
probe has the power to see such a leak.

Decoders by shape: a scalar → that character; a mask → its bits; ``ann`` → the characters
with an announced death; an array of values (``moves``' characters, ``loop_end``,
``named``, ``knobs`` past the field slot, ``rules.info``) → the characters among its
values. ``rules`` is probed by its info vector: its other arrays are the roster's tables.
"""
import numba as nb
import numpy as np

from sim.core.knobs import Knob
from sim.core.rng import choose_bit_nb
from sim.looper.enums import I
from strategies.looper import PlayerStrategy
from strategies.looper.player import _candidates_nb

U1 = np.uint64(1)
FIELDS = ("rules", "loop", "day", "alive", "ann", "moves", "loop_end", "named", "knobs")


@nb.njit
def _char_nb(v, n):
    return U1 << np.uint64(v) if 0 < v < n else np.uint64(0)


@nb.njit
def _values_nb(a, n):
    """The characters among the values of the (flat) array ``a``."""
    m = np.uint64(0)
    for v in a:
        m |= _char_nb(np.int64(v), n)
    return m


@nb.njit
def _announced_nb(ann, n):
    """The characters with an announced death anywhere in ``ann[loop, day, c]``."""
    m = np.uint64(0)
    for lp in range(ann.shape[0]):
        for d in range(ann.shape[1]):
            for c in range(min(n, ann.shape[2])):
                if ann[lp, d, c] >= 0:
                    m |= U1 << np.uint64(c)
    return m


@nb.njit
def _values_or_leak_nb(a, n, key):
    """The characters among the values of ``a``; ``key`` > 0: of ``a`` and the key person."""
    return _values_nb(a, n) | (_char_nb(key, n) if key > 0 else np.uint64(0))


@nb.njit
def field_guess_nb(view, f, key):
    """The characters field ``f`` of the view points at; ``key`` > 0: the field as it
    would read with the key person leaked into it (the oracle twin)."""
    n = view.rules.info[I.N_CHARS]
    leak = key > 0
    if f == 0:
        return _values_or_leak_nb(view.rules.info, n, key)
    if f == 1:
        return _char_nb(key if leak else view.loop, n)
    if f == 2:
        return _char_nb(key if leak else view.day, n)
    if f == 3:
        return _char_nb(key, n) if leak else view.alive
    if f == 4:
        ann = view.ann.copy()
        if leak:
            ann[0, 0, key] = 0  # announced: died at the park on day 1
        return _announced_nb(ann, n)
    if f == 5:
        return _values_or_leak_nb(view.moves[:, :, :, 0].copy().ravel(), n, key)
    if f == 6:
        return _values_or_leak_nb(view.loop_end, n, key)
    if f == 7:
        return _values_or_leak_nb(view.named, n, key)
    return _values_or_leak_nb(view.knobs[1:], n, key)


@nb.njit
def stay_nb(rng, view, own, out):
    return 0  # moves nobody: which loop survives never depends on the probe


@nb.njit
def _name_among_nb(rng, view, own, g):
    cand = _candidates_nb(view, own.mem) & view.alive & ~U1
    if not cand:  # announcements inconsistent with every character: the test fails on it
        cand = view.alive & ~U1
    g &= cand
    return choose_bit_nb(rng, g if g else cand)


@nb.njit
def probe_name_nb(rng, view, own):
    return _name_among_nb(rng, view, own, field_guess_nb(view, np.int64(view.knobs[0]), -1))


@nb.njit
def oracle_probe_name_nb(rng, view, own):
    # knob ``leak_from``: the field leaks from that loop on (the first name that is right
    # wins the game, so later loops' power is measured with the leak held back till then)
    leak = view.key if view.loop >= view.knobs[1] else -1
    return _name_among_nb(rng, view, own, field_guess_nb(view, np.int64(view.knobs[0]), leak))


KNOBS = (Knob("field", "int", 0, len(FIELDS) - 1, 0, doc="the view field the name reads (index in FIELDS)"),
         Knob("leak_from", "int", 0, 3, 0, doc="oracle_probe: the first loop whose name reads the leaked field"))
probe = PlayerStrategy("probe", stay_nb, probe_name_nb, knobs=KNOBS,
                       doc="names whom one view field points at; moves nobody")
oracle_probe = PlayerStrategy("oracle_probe", stay_nb, oracle_probe_name_nb, knobs=KNOBS,
                              doc="ORACLE: the probe's decoder fed the field with the key person leaked into it")
