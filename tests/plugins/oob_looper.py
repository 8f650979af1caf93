"""Looper plug-ins with an off-by-one (tests/test_oob_looper.py, issue 38).

- ``oob_stream`` (player): its stream was row 0 of one ``2 × 4`` array, so ``rng[4 + i]``
  was the scriptwriter's stream, just after it drew the setup. Stepping that back and
  replaying the random scriptwriter's setup (tests/plugins/hostile_looper.py) names the
  key person; it names its guess (R-2 variant) and moves nobody.
- ``probe`` (player) and ``probe_writer`` (scriptwriter): read every array of their view,
  scratch and hook arguments past the end and before the start by small and large
  offsets; anything but zero changes their play. Otherwise they play exactly as
  ``random`` (the same draws).
"""
import numba as nb
import numpy as np

from sim.core.bits import lowest_nb
from sim.looper.enums import I
from strategies.looper import PlayerStrategy, ScriptwriterStrategy
from strategies.looper.player import random_move_nb, random_name_nb
from strategies.looper.scriptwriter import random_choose_nb, random_setup_nb
from tests.plugins.hostile_looper import BACK, _replay_nb, unstep_nb
from tests.plugins.oob_edges import outside_nb

U1 = np.uint64(1)


@nb.njit
def key_from_nb(s, rules):
    """The key person of the random setup that ends on the scriptwriter state ``s`` (the
    one furthest back that does), or -1."""
    out = np.zeros(1 + 2 * rules.info[I.N_PERM] + 2 * rules.info[I.N_GUEST], np.int64)
    cand = s.copy()
    found = -1
    for _ in range(BACK):
        unstep_nb(cand)
        probe = cand.copy()
        k = _replay_nb(probe, rules, out)
        if probe[0] == s[0] and probe[1] == s[1] and probe[2] == s[2] and probe[3] == s[3]:
            found = k
    return found


@nb.njit
def oob_stream_move_nb(rng, view, own, out):
    if own.mem[0] == 0:
        s = np.zeros(4, np.uint64)
        for i in range(4):
            s[i] = rng[4 + i]  # the scriptwriter's stream in the old 2 × 4 layout
        k = key_from_nb(s, view.rules) if (s[0] | s[1] | s[2] | s[3]) else -1
        own.mem[0] = k + 1 if k > 0 else -1
    return 0


@nb.njit
def oob_stream_name_nb(rng, view, own):
    if own.mem[0] > 0:
        return own.mem[0] - 1
    return random_name_nb(rng, view, own)


@nb.njit
def _rules_nb(R):
    acc = outside_nb(R.info) | outside_nb(R.home) | outside_nb(R.char_attrs) | outside_nb(R.next_loc)
    return acc | outside_nb(R.effects) | outside_nb(R.masks) | outside_nb(R.guest_day)


@nb.njit
def _buf_nb(b):
    acc = outside_nb(b.stress) | outside_nb(b.raw) | outside_nb(b.givers) | outside_nb(b.pos2)
    acc |= outside_nb(b.killer) | outside_nb(b.ann) | outside_nb(b.occ) | outside_nb(b.occ2) | outside_nb(b.dest)
    acc |= outside_nb(b.misrep) | outside_nb(b.fire) | outside_nb(b.req_actor) | outside_nb(b.req_eff)
    acc |= outside_nb(b.req_cand) | outside_nb(b.req_victim) | outside_nb(b.attrs) | outside_nb(b.masks)
    acc |= outside_nb(b.st) | outside_nb(b.kact) | outside_nb(b.kat) | outside_nb(b.ek) | outside_nb(b.ed)
    return acc


@nb.njit
def player_leak_nb(rng, view, own, out):
    acc = outside_nb(rng) | _rules_nb(view.rules) | outside_nb(view.ann) | outside_nb(view.moves)
    acc |= outside_nb(view.loop_end) | outside_nb(view.named) | outside_nb(view.knobs)
    acc |= outside_nb(own.mem) | outside_nb(own.big) | _buf_nb(own.buf)
    acc |= outside_nb(out)
    return acc != 0


@nb.njit
def probe_move_nb(rng, view, own, out):
    if player_leak_nb(rng, view, own, out):
        return 0  # a leak: it stops moving
    return random_move_nb(rng, view, own, out)


@nb.njit
def writer_leak_nb(rng, view, params):
    acc = outside_nb(rng) | _rules_nb(view.rules) | outside_nb(view.setup) | outside_nb(view.pos)
    acc |= outside_nb(view.stress)
    acc |= outside_nb(view.knobs) | outside_nb(params)
    return acc != 0


@nb.njit
def probe_setup_nb(rng, view, params, out):
    leak = writer_leak_nb(rng, view, params)
    random_setup_nb(rng, view, params, out)
    if leak:
        out[0] = 1  # a leak: the key person is always character 1


@nb.njit
def probe_choose_nb(rng, view, params, actor, cand):
    if writer_leak_nb(rng, view, params):
        return lowest_nb(cand)
    return random_choose_nb(rng, view, params, actor, cand)


oob_stream = PlayerStrategy("oob_stream", oob_stream_move_nb, oob_stream_name_nb,
                            doc="reads the scriptwriter's stream past the end of its own; moves nobody")
probe = PlayerStrategy("probe", probe_move_nb, random_name_nb, doc="reads outside every array it is given")
probe_writer = ScriptwriterStrategy("probe_writer", probe_setup_nb, probe_choose_nb,
                                    doc="reads outside every array it is given")
