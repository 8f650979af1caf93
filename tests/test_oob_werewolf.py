"""Werewolf plug-ins with an off-by-one play at chance (issue 38; tests/plugins/oob_werewolf.py).

Each plug-in reads past the end or before the start of an array its view hands it, where
the kernels once kept another side's stream, the rules' stream or the judge's knowledge
matrix. Three kinds of check:

* **power**: each plug-in's decoder, given memory laid out as it once was (a neighbour's
  real stream or the matrix's other rows), recovers the secret — so the plug-ins would
  win if the memory were there;
* **chance**: in the real kernel each plays exactly as ``random`` does, game for game (its
  out-of-range reads find zeros, so it falls back to the same draws), and the ``oracle_``
  twins that read the judge's view instead move the statistic far;
* **audit**: under ``--check-bounds`` each is one ``error:`` line naming it and the array.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from scipy.stats import binomtest

from sim.core.rng import randint_nb, seed_stream_nb
from sim.core.seeding import run_key
from sim.werewolf.protocol import GAME
from sim.werewolf.enums import RF, Ab, How, Stream
from sim.werewolf.roles import resolve_setup
from strategies.werewolf.basic import random_subset_nb
from tests.plugins import oob_werewolf as O
from tests.test_werewolf_honest import CHANCE, GAMES, first_night_hits

NOJIT = bool(numba.config.DISABLE_JIT)
ROOT = Path(__file__).resolve().parents[1]
jit_only = pytest.mark.skipif(NOJIT, reason="reads outside an array raise in plain Python")


def _totals(village, wolves, games=2000, seed=3, sets=()):
    setup = GAME.setup(None, list(sets))
    res = GAME.run(setup, GAME.strategies({"village": village, "wolves": wolves}), games, seed)
    return res.totals


def _same(a, b):
    return all(np.array_equal(a[k], b[k]) for k in a)


# ------------------------------------------------------------------------------- power

@jit_only
def test_the_village_stream_names_the_protected_pair():
    """Four words before the wolves' stream once lay the village's: rewinding it names the
    paladin's pair, whichever seat he holds."""
    key = run_key(11)
    n, wolves = 12, 0b111
    know = np.array([1 if (wolves >> j) & 1 else 0 for j in range(n)], np.int64)
    alive = np.uint64((1 << n) - 1)
    found = 0
    for g in range(200):
        v = np.zeros(4, np.uint64)
        seed_stream_nb(v, key, g, Stream.VILLAGE)
        p = 3 + g % 9  # the paladin: a village seat
        pair = random_subset_nb(v, alive & ~np.uint64(1 << p), 2)
        found += (O.protect_guess_nb(v, alive, know) & pair) == pair
    assert found == 200


@jit_only
def test_the_rules_stream_names_the_seer():
    """Eight words before the wolves' stream once lay the rules': rewinding it to the deal
    and replaying the shuffle finds the seer in most games (a later start that draws the
    same number of times can pass too), after a few more rules draws as well."""
    setup = resolve_setup()
    R = setup.nb
    seats, table = R.seats, R.table
    seer = next(r for r in range(table.shape[0]) if table[r, RF.ABILITY] == Ab.DIVINE)
    key = run_key(12)
    n = seats.shape[0]
    hits = 0
    for g in range(200):
        s = np.zeros(4, np.uint64)
        seed_stream_nb(s, key, g, Stream.RULES)
        role = seats.copy()
        for i in range(n - 1, 0, -1):
            j = randint_nb(s, i + 1)
            role[i], role[j] = role[j], role[i]
        for _ in range(g % 6):  # tie breaks and drags drawn since
            randint_nb(s, 5)
        know = np.array([1 if table[r, RF.TEAM] == 1 else 0 for r in role], np.int64)
        hits += O.deal_from_nb(s, seats, table, know) == int(np.flatnonzero(role == seer)[0])
    assert hits >= 140, hits  # chance: 1 in 9 (the seer is one of the 9 village-team seats)


@jit_only
def test_the_matrix_rows_name_the_wolf_team():
    """Past the end of a villager's row of an n × n knowledge matrix lay the other rows:
    a wolf's row names the whole team."""
    n, team = 12, (1 << 2) | (1 << 7) | (1 << 9)
    M = np.full((n, n), -1, np.int64)
    for r in range(n):
        M[r, r] = 0
        if (team >> r) & 1:
            M[r] = [1 if (team >> j) & 1 else 0 for j in range(n)]
    flat = M.reshape(-1)
    for me in (0, 5, 11):
        if (team >> me) & 1:
            continue
        assert O.wolves_from_nb(flat[me * n:(me + 1) * n], me, n) == team


# ------------------------------------------------------------------------------- chance

@jit_only
def test_oob_stream_wolves_hit_protection_at_chance():
    hits = first_night_hits(O.oob_stream)
    assert binomtest(hits, GAMES, CHANCE).pvalue > 1e-3, hits / GAMES


@jit_only
@pytest.mark.parametrize("wolves", ["oob_stream", "oob_deal", "probe_wolves"])
def test_off_by_one_wolves_play_as_random(wolves):
    base = _totals("random", "random")
    assert _same(_totals("random", getattr(O, wolves)), base)


@jit_only
@pytest.mark.parametrize("village", ["oob_know", "probe_village"])
def test_off_by_one_village_plays_as_random(village):
    base = _totals("random", "random")
    assert _same(_totals(getattr(O, village), "random"), base)


@jit_only
def test_probes_find_zeros_with_skilled_sides_and_other_tables():
    """The probes read outside every array of every view (both sides, every role) on a
    smaller table with other variants too: still exactly random play."""
    sets = ['composition.default="werewolf,hati,seer,paladin,witch,villager*2"', "variants.start=night"]
    base = _totals("random", "random", 800, 5, sets)
    assert _same(_totals(O.probe_village, O.probe_wolves, 800, 5, sets), base)


def _seer_attacked(t):
    setup = resolve_setup()
    table = setup.nb.table
    seer = next(r for r in range(table.shape[0]) if table[r, RF.ABILITY] == Ab.DIVINE)
    return int(t["role_out"][seer, How.ATTACKED]), int(t["role_games"][seer])


def test_the_oracle_twins_move_the_statistics():
    """Power at the game level: the twins reading the judge's view attack the seer and vote
    for wolves far more than chance, so equal-to-random play above is no blind test."""
    hit, games = _seer_attacked(_totals("random", O.oracle_deal, 1000))
    base_hit, _ = _seer_attacked(_totals("random", "random", 1000))
    assert hit > 2 * base_hit and hit / games > 0.5, (hit, base_hit, games)
    t = _totals(O.oracle_know, "random", 1000)
    b = _totals("random", "random", 1000)
    from sim.werewolf.game_nb import C_VILLAGE

    assert t["scalars"][C_VILLAGE] > 3 * b["scalars"][C_VILLAGE], (t["scalars"], b["scalars"])


# ------------------------------------------------------------------------------- audit

def run_sim(*args, timeout=900):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("SIM_CHECK_BOUNDS", None)
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@jit_only
@pytest.mark.parametrize("side,spec,array", [
    ("--village", "tests.plugins.oob_werewolf:oob_know", "view.know"),
    ("--wolves", "tests.plugins.oob_werewolf:oob_deal", "rng"),
])
def test_check_bounds_names_the_strategy_and_the_array(side, spec, array):
    r = run_sim("werewolf", "run", "--games", "50", "--seed", "1", side, spec, "--check-bounds")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --check-bounds:"), r.stderr
    assert spec in lines[0] and f"{array}[" in lines[0] and "oob_werewolf.py:" in lines[0], lines[0]
