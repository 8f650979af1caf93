"""Looper plug-ins with an off-by-one play at chance (issue 38; tests/plugins/oob_looper.py).

* power: the plug-in's decoder, given the scriptwriter's real stream right after the setup
  (what lay past the end of the player's stream in the old layout), names the key person
  in most games;
* chance: in the real kernel it names the key person about 1 time in 23 (what lies past its
  stream now is zeros), while ``oracle_key`` always does; the probes, reading outside every
  array of the player's and the scriptwriter's views, scratch and hook arguments, play
  exactly as ``random`` does;
* audit: under ``--check-bounds`` the plug-in is one ``error:`` line naming it and ``rng``.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest
from scipy.stats import binomtest

from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.looper import GAME
from sim.looper.enums import Stream
from strategies.looper import PLAYERS
from tests.plugins import hostile_looper as H
from tests.plugins import oob_looper as O
from tests.test_looper_honest import _named, _true_key, base, naming  # noqa: F401 (fixtures)
from tests.test_oob_werewolf import run_sim

NOJIT = bool(numba.config.DISABLE_JIT)
jit_only = pytest.mark.skipif(NOJIT, reason="reads outside an array raise in plain Python")


@jit_only
def test_the_scriptwriter_stream_names_the_key_person(base):
    key = run_key(31)
    hits = 0
    for g in range(100):
        st = np.zeros(4, np.uint64)
        seed_stream_nb(st, key, g, Stream.SCRIPTWRITER)
        out = np.zeros(1 + 2 * int(base.nb.info[5]) + 2 * int(base.nb.info[6]), np.int64)
        H._replay_nb(st, base.nb, out)  # the setup's draws: where the player's first move found it
        hits += int(O.key_from_nb(st, base.nb)) == _true_key(base, key, g)
    assert hits >= 60, hits  # chance: about 4 of 100


@jit_only
def test_oob_stream_names_the_key_person_at_chance(naming):
    right, named = _named(naming, O.oob_stream, 3000, 4242)
    assert named > 1500
    assert binomtest(right, named, 1 / (naming.n_chars - 1), alternative="greater").pvalue > 1e-3, (right, named)
    o_right, o_named = _named(naming, PLAYERS.get("oracle_key"), 3000, 4242)
    assert o_right == o_named  # the same statistic sees an oracle at once


def _totals(player, writer, games, sets=()):
    roster = GAME.setup(None, list(sets))
    return GAME.run(roster, GAME.strategies({"player": player, "scriptwriter": writer}), games, 8).totals


@jit_only
@pytest.mark.parametrize("sets", [(), ("rules.key_person_movable=false", "rules.stay_moves=false")])
def test_probes_play_as_random(sets):
    base = _totals("random", "random", 1500, sets)
    got = _totals(O.probe, O.probe_writer, 1500, sets)
    assert all(np.array_equal(base[k], got[k]) for k in base)


@jit_only
def test_check_bounds_names_the_strategy_and_the_array():
    spec = "tests.plugins.oob_looper:oob_stream"
    r = run_sim("looper", "run", "--games", "20", "--player", spec, "--check-bounds")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --check-bounds:"), r.stderr
    assert spec in lines[0] and "rng[" in lines[0] and "oob_looper.py:" in lines[0], lines[0]
