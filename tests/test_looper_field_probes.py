"""The honesty harness over every Looper player-view field (issue 43): for each field a
probe player (tests/plugins/probe_fields_looper.py) names, at the end of every surviving
loop, whom that field points at among the characters the announcements leave possible.
The hidden quantity is the key person.

The null model, per game: the random scriptwriter draws the key person uniformly and its
moves and victims without regard to it (strategies/looper/scriptwriter.py, ``aim`` 0), the
probe moves nobody, and no rule of a day depends on who the key person is; the key person
only decides when a loop ends (the day it dies) and whether a name is right. So every
character consistent with the announcements so far would have produced the same history
with the same probability: given an honest view the key person is uniform over the
*candidates* — alive, not the protagonist, never dead before a loop's end, among the dead
of a loop's last day when the protagonist lived, never a wrong name (P-9). A name drawn
among candidates (from any subset the view points at) is then right with probability
1 / candidates. The test counts the candidates itself from the trace, with the naive
deducer of tests/naive/looper_strategies.py (not the engine's), sums those probabilities
over the names (a Poisson binomial) and asks the probe's right names to be within 4 sd of
it — separately for first loops (candidates: everyone alive) and later ones (after failed
loops and wrong names). The ``oracle_`` twin, fed the field with the key person written
into it, must be far above: each probe has the power to see a leak of its field. The
scriptwriter's view has no probe: by the rules it knows the whole game (the setup, the
town, the key person); what it does not see is the player's own stream, which
tests/test_looper_honest.py and tests/test_streams_independent.py cover.
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
from types import SimpleNamespace

from sim.looper.enums import LoopEnd
from strategies.looper import SCRIPTWRITERS
from tests.naive.looper_strategies import deducer_candidates
from tests.plugins.probe_fields_looper import FIELDS, oracle_probe, probe

NOJIT = bool(numba.config.DISABLE_JIT)
GAMES = 400 if NOJIT else 3000
# a wrong name ends the loop, not the game (P-9): later loops carry names too
NAMING = ["rules.must_name_key_person=true", "rules.wrong_name_ends_game=false"]


@pytest.fixture(scope="module")
def roster():
    return resolve_setup(sets=NAMING)


def _candidates_at_names(rows, R):
    """(loop, right, candidates) for each name of a traced game: the candidates counted by
    the naive deducer on the player's view rebuilt from the events (announcements, loop
    ends, names) at the moment it names."""
    n, days, loops = int(R.info[I.N_CHARS]), int(R.info[I.DAYS]), int(R.info[I.MAX_LOOPS])
    ann = np.full((loops, days, n), -1, np.int64)
    loop_end = np.zeros(loops, np.int64)
    named = np.full(loops, -1, np.int64)
    lp = day = 0
    out = []
    for r in rows:
        code = r[0]
        if code == Ev.DAY_START:
            lp, day = int(r[1]), int(r[2])
        elif code == Ev.ANNOUNCE:
            ann[lp, day - 1, int(r[1])] = int(r[2])
        elif code == Ev.LOOP_END and r[3] != LoopEnd.SURVIVED:
            loop_end[int(r[1])] = days + 1 if r[3] == LoopEnd.WRONG_NAME else int(r[2])
        elif code == Ev.NAME:
            view = SimpleNamespace(rules=R, loop=int(r[1]), day=days, ann=ann, loop_end=loop_end, named=named)
            died = (ann[int(r[1])] >= 0).any(axis=0)  # in this loop, on any day
            alive = {c for c in range(1, n) if not died[c]}
            out.append((int(r[1]), int(r[3]), len(deducer_candidates(view) & alive)))
            named[int(r[1])] = int(r[2])
    return out


def loop_names(roster, player, field: int, games=GAMES, seed=4343, leak_from=0):
    """{"first": …, "later": …}: (right names, their expected number under the null, its
    variance, names) over the names at the end of first loops and of later loops."""
    w = SCRIPTWRITERS.get("random")
    R = roster.nb
    kernel = kernel_for(player, w)
    key = run_key(seed, field)
    pk = np.array([float(field), float(leak_from)])
    wk = np.zeros(1)
    log = new_log(TRACE_CAPACITY)
    wrong_ends = bool(roster.rules.get("wrong_name_ends_game", False))
    tally = {"first": [0, 0.0, 0.0, 0], "later": [0, 0.0, 0.0, 0]}
    for g in range(games):
        log[0, 0], log[0, 1] = 1, 0
        kernel(key, g, 1, R, EMPTY_PARAMS, wrong_ends, roster.fixed_key, pk, wk, new_counts(R), log)
        assert not log[0, 1]
        for lp, right, cands in _candidates_at_names(log[1:log[0, 0]], R):
            assert cands >= 1  # the true key person is always among them
            p = 1 / cands
            t = tally["first" if lp == 0 else "later"]
            t[0] += right
            t[1] += p
            t[2] += p * (1 - p)
            t[3] += 1
    return {k: tuple(v) for k, v in tally.items()}


def test_every_view_field_has_a_probe():
    # ``why`` closes every view: the strategy's reason sink (sim.core.reasons), not knowledge
    assert FIELDS == PLAYER_KNOWS and PlayerView._fields == PLAYER_KNOWS + ("why",)


@pytest.mark.parametrize("field", FIELDS)
def test_a_field_alone_names_the_key_person_at_chance(roster, field):
    by_loop = loop_names(roster, probe, FIELDS.index(field))
    for when, (right, expect, var, named) in by_loop.items():
        # material: a first loop survives in about half the games, and so on
        assert named > GAMES // 4, (when, named)
        z = (right - expect) / math.sqrt(var)
        assert abs(z) < 4, (field, when, right, round(expect, 1), named, z)


@pytest.mark.parametrize("field", FIELDS)
def test_the_probe_would_see_a_leak(roster, field):
    """Power: the same decoder fed the field with the key person in it names far above
    chance, in first loops and (the leak held back till the second loop, as a right name ends
the game) in later loops (at least 8 sd: the weakest, ``rules``, mixes the
    key with the info vector's other small values)."""
    for when, leak_from in (("first", 0), ("later", 1)):
        right, expect, var, named = loop_names(roster, oracle_probe, FIELDS.index(field), leak_from=leak_from)[when]
        z = (right - expect) / math.sqrt(var)
        assert z > 8, (field, when, right, round(expect, 1), named, z)
