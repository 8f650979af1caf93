"""TRPG plug-ins with an off-by-one play as the built-ins do (issue 38; tests/plugins/oob_trpg.py).

The probes read outside every array of their view and their side's stream, both sides,
by small and large offsets. With every view array a guarded copy (sim.trpg.views) they
find zeros and choose exactly as ``dangerous`` / ``auto`` do, so the run equals the shipped
scenario game for game; under ``--check-bounds`` they are one ``error:`` line.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.trpg.protocol import GAME
from tests.test_oob_werewolf import run_sim

NOJIT = bool(numba.config.DISABLE_JIT)
TARGET = "tests.plugins.oob_trpg:probe_target"
REACTION = "tests.plugins.oob_trpg:probe_reaction"
PROBES = [f'characters.aoi.strategy.target="{TARGET}"', f'characters.aoi.strategy.reaction="{REACTION}"',
          f'characters.shade.strategy.reaction="{REACTION}"']


def _totals(sets, games=3000):
    setup = GAME.setup(None, list(sets), scenario="alley")
    return GAME.run(setup, GAME.strategies({}, setup), games, 5).totals


@pytest.mark.skipif(NOJIT, reason="reads outside an array raise in plain Python")
@pytest.mark.parametrize("hp_public", [False, True])
def test_probes_choose_as_the_builtins(hp_public):
    extra = [f"rules.hp_public={str(hp_public).lower()}"]
    base = _totals(extra)
    got = _totals(extra + PROBES)
    assert all(np.array_equal(base[k], got[k]) for k in base)


@pytest.mark.skipif(NOJIT, reason="bounds checking needs the compiled kernel")
def test_check_bounds_names_the_strategy_and_the_array():
    sets = [a for s in PROBES[:1] for a in ("--set", s)]
    r = run_sim("trpg", "run", "alley", "--games", "20", *sets, "--check-bounds")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --check-bounds:"), r.stderr
    assert "probe_target" in lines[0] and "oob_edges.py:" in lines[0] and "rng[" in lines[0], lines[0]
