"""The honesty harness over every Looper player-view field (issue 43): for each field a
probe player (tests/plugins/probe_fields_looper.py) names, at the end of a surviving first
loop, whom that field alone points at. The hidden quantity is the key person.

The null model, per game: the random scriptwriter draws the key person uniformly and its
moves and victims without regard to it (strategies/looper/scriptwriter.py), and no rule
of a day depends on who the key person is; so the deaths of a first loop that survives are
independent of the key person but for one thing — it is not among them. Given everything
an honest view shows, the key person is then uniform over the living characters but the
protagonist, and a name drawn among them (from any subset the view points at) is right
with probability 1/alive. The test sums those probabilities over the games (a Poisson
binomial) and asks the probe's right names to be within 4 sd of it. The ``oracle_`` twin,
fed the field with the key person written into it, must be far above: each probe has the
power to see a leak of its field. The scriptwriter's view has no probe: by the rules it
knows the whole game (the setup, the town, the key person); what it does not see is the
player's own stream, which tests/test_looper_honest.py and tests/test_streams_independent.py
cover.
"""
import math

import numba
import numpy as np
import pytest

from sim.core.seeding import run_key
from sim.core.trace import new_log
from sim.looper.enums import Ev, I
from sim.looper.game import EMPTY_PARAMS, TRACE_CAPACITY, kernel_for, resolve_setup
from sim.looper.game_nb import new_counts
from sim.looper.views import PLAYER_KNOWS, PlayerView
from strategies.looper import SCRIPTWRITERS
from tests.plugins.probe_fields_looper import FIELDS, oracle_probe, probe

NOJIT = bool(numba.config.DISABLE_JIT)
GAMES = 400 if NOJIT else 3000
NAMING = ["rules.must_name_key_person=true", "rules.wrong_name_ends_game=true"]


@pytest.fixture(scope="module")
def roster():
    return resolve_setup(sets=NAMING)


def first_loop_names(roster, player, field: int, games=GAMES, seed=4343):
    """(right names, their expected number under the null, its variance, names) over the
    games whose first loop survived."""
    w = SCRIPTWRITERS.get("random")
    R = roster.nb
    kernel = kernel_for(player, w)
    key = run_key(seed, field)
    pk = np.array([float(field)])
    wk = np.zeros(1)
    log = new_log(TRACE_CAPACITY)
    others = int(R.info[I.N_CHARS]) - 1
    right = expect = var = named = 0
    for g in range(games):
        log[0, 0], log[0, 1] = 1, 0
        kernel(key, g, 1, R, EMPTY_PARAMS, True, roster.fixed_key, pk, wk, new_counts(R), log)
        assert not log[0, 1]
        rows = log[1:log[0, 0]]
        first_end = np.flatnonzero(rows[:, 0] == Ev.LOOP_END)[0]
        name = rows[:first_end][rows[:first_end, 0] == Ev.NAME]
        if not len(name):
            continue  # the first loop failed: what follows is legitimately informative
        dead = int((rows[:first_end, 0] == Ev.ANNOUNCE).sum())
        p = 1 / (others - dead)
        right += int(name[0, 3])
        expect += p
        var += p * (1 - p)
        named += 1
    return right, expect, var, named


def test_every_view_field_has_a_probe():
    # ``why`` closes every view: the strategy's reason sink (sim.core.reasons), not knowledge
    assert FIELDS == PLAYER_KNOWS and PlayerView._fields == PLAYER_KNOWS + ("why",)


@pytest.mark.parametrize("field", FIELDS)
def test_a_field_alone_names_the_key_person_at_chance(roster, field):
    right, expect, var, named = first_loop_names(roster, probe, FIELDS.index(field))
    assert named > GAMES // 4  # material: a first loop survives in about half the games
    z = (right - expect) / math.sqrt(var)
    assert abs(z) < 4, (field, right, round(expect, 1), named, z)


@pytest.mark.parametrize("field", FIELDS)
def test_the_probe_would_see_a_leak(roster, field):
    """Power: the same decoder fed the field with the key person in it names far above
    chance (at least 8 sd: the weakest, ``rules``, mixes the key with the info vector's
    other small values)."""
    right, expect, var, named = first_loop_names(roster, oracle_probe, FIELDS.index(field))
    z = (right - expect) / math.sqrt(var)
    assert z > 8, (field, right, round(expect, 1), named, z)
