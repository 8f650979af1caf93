"""The Looper's `deducer` and `bayes` against their own oracle (issue 43): their key-person
candidates (the deducer's ``_candidates_nb``, bayes's exact ``key_mask_nb``) after histories
written by hand, each derived from the rules (docs/rules/looper.md: a loop ends when
the protagonist or the key person dies; a character that died before the loop's last day did
not end it). Default roster: 25 characters (0 the protagonist), 4 loops of 7 days."""
import numpy as np
import pytest

from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.looper import build_config, compile_setup
from sim.looper.day_nb import day_buffers_nb
from sim.looper.game_nb import BIG, MEM
from sim.looper.views import PlayerView, Scratch
from strategies.looper import bayes as BY
from strategies.looper import player as P

LOC = 1  # where a death is announced (any location: the deducer does not use it)


@pytest.fixture(scope="module")
def roster():
    return compile_setup(build_config())


def _ro(a):
    a = np.asarray(a).view()
    a.setflags(write=False)
    return a


def view(roster, *, loop, day, deaths=(), ends=(), named=(), alive=None):
    """deaths: (loop, day, character); ends[lp] = the day loop lp ended (days + 1: it ran out);
    named[lp] = the character named at its end."""
    R = roster.nb
    n, loops, days, mpd = roster.n_chars, int(R.info[2]), int(R.info[3]), int(R.info[4])
    ann = np.full((loops, days, n), -1, np.int64)
    for lp, d, c in deaths:
        ann[lp, d - 1, c] = LOC
    loop_end = np.zeros(loops, np.int64)
    loop_end[:len(ends)] = ends
    nm = np.full(loops, -1, np.int64)
    nm[:len(named)] = named
    if alive is None:
        alive = (1 << n) - 1
        for lp, d, c in deaths:
            if lp == loop:
                alive &= ~(1 << c)
    rules = type(R)(*(_ro(a) for a in R))
    return PlayerView(rules, np.int64(loop), np.int64(day), np.uint64(alive), _ro(ann),
                      _ro(np.full((loops, days, mpd, 2), -1, np.int64)), _ro(loop_end), _ro(nm),
                      _ro(np.zeros(1, np.float64)))


@pytest.fixture(params=["deducer", "bayes"])
def candidates(request):
    def of(v) -> set[int]:
        m = P._candidates_nb(v, np.zeros(MEM, np.int64)) if request.param == "deducer" else BY.key_mask_nb(v)
        return {c for c in range(64) if int(m) >> c & 1}
    return of


EVERYONE = set(range(1, 25))


def test_the_protagonist_lived_so_the_key_person_died_that_day(roster, candidates):
    """Loop 0 ended on day 2 with the protagonist alive: the key person is one of the two who
    died on day 2 (3, 5), not the one who died on day 1 (2)."""
    v = view(roster, loop=1, day=1, deaths=[(0, 1, 2), (0, 2, 3), (0, 2, 5)], ends=[2])
    assert candidates(v) == {3, 5}


def test_the_protagonist_died_so_the_last_day_says_nothing(roster, candidates):
    """Loop 0 ended on day 3 by the protagonist's death: 4 (day 1) and 8 (day 2) are cleared,
    but 6, who died on day 3 with the protagonist, may or may not be the key person."""
    v = view(roster, loop=1, day=1, deaths=[(0, 1, 4), (0, 2, 8), (0, 3, 0), (0, 3, 6)], ends=[3])
    assert candidates(v) == EVERYONE - {4, 8}


def test_a_wrong_name_at_the_end_is_not_the_key_person(roster, candidates):
    v = view(roster, loop=1, day=1, deaths=[(0, 2, 9)], ends=[8], named=[11])
    assert candidates(v) == EVERYONE - {9, 11}


def test_two_loops_and_the_current_one_combine(roster, candidates):
    """Loop 0: key among {3, 5, 7} (died on its last day, 2, the protagonist alive); loop 1
    ended the same way on day 4 with 5 and 8 dying: 5. In loop 2, nothing more to learn."""
    deaths = [(0, 2, 3), (0, 2, 5), (0, 2, 7), (1, 2, 3), (1, 4, 5), (1, 4, 8)]
    assert candidates(view(roster, loop=2, day=3, deaths=deaths, ends=[2, 4])) == {5}
    # and within a loop: who died on an earlier day of it is out (loop 1, day 3: 3 died yesterday)
    assert candidates(view(roster, loop=1, day=3, deaths=deaths[:4], ends=[2])) == {5, 7}


def test_the_deducer_names_a_candidate(roster):
    v = view(roster, loop=1, day=7, deaths=[(0, 2, 3), (0, 2, 5)], ends=[2])
    key = run_key(43)
    got = set()
    for g in range(60):
        rng = np.zeros(4, np.uint64)
        seed_stream_nb(rng, key, g)
        own = Scratch(np.zeros(MEM, np.int64), day_buffers_nb(roster.nb), np.zeros(BIG, np.int64))
        got.add(int(P.deducer_name_nb(rng, v, own)))
    assert got == {3, 5}
