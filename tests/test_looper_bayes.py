"""`bayes`, `planner`, `oracle_planner` (issue 14): the posterior never rules out the true
setup, the trap script is won, the oracle is at least as good as the honest planner."""
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.core.kernels import stamped
from sim.core.seeding import python_rng, run_key
from sim.looper.day_nb import day_buffers_nb
from sim.looper.enums import I
from sim.looper.game import resolve_setup, run
from sim.looper.views import PlayerView
from strategies.looper import PLAYERS, SCRIPTWRITERS, PlayerStrategy
from strategies.looper import bayes as B
from strategies.looper.player import random_move_nb, random_name_nb
from tests.naive.looper import naive_game

# the filter's kernels and its update take one to twenty CPU minutes each to compile from a
# cold cache: those tests are the heavy tier (`make test-heavy`, docs/testing.md)
HEAVY = pytest.mark.heavy

# the model's functions, disk-cached (compiling them takes about a minute)
HISTORY = stamped(B.history_mismatch_nb)
KEYS = stamped(B.key_mask_nb)
VALID = stamped(B._valid_nb)
LAYOUT = stamped(B.layout_nb)

# the shipped trap (README, docs/looper.md): the tests read the file a designer runs
TRAP = tomllib.loads((Path(__file__).resolve().parents[1] / "examples" / "looper" / "trap.toml").read_text())


def _recording(move, name):
    """A player playing ``move`` / ``name`` that keeps its last view (the arrays are the
    game's own, read-only, so they end up holding the whole history)."""
    seen = {}

    def mv(rng, view, own, out):
        seen["view"] = view
        return move(rng, view, own, out)

    def nm(rng, view, own):
        seen["view"] = view
        return name(rng, view, own)
    return PlayerStrategy("recording", mv, nm), seen


def _readonly(view):
    """``view`` with every array read-only (views of the same memory), as the kernel hands
    it to a strategy: the helpers a test calls then run the kernel's own compiled versions,
    not a second compile for writable arrays (numba types them apart)."""
    def ro(a):
        a = a.view()
        a.setflags(write=False)
        return a
    rules = type(view.rules)(*(ro(a) for a in view.rules))
    return type(view)(rules, *(ro(x) if isinstance(x, np.ndarray) else x for x in view[1:]))


def _final_view(v, res, days):
    """The player's view after the game: every played day digested."""
    last = len(res["loop_end"]) - 1
    e = res["loop_end"][last]
    played = e if 1 <= e <= days else days
    return _readonly(PlayerView(v.rules, np.int64(last), np.int64(played + 1), np.uint64(0), v.ann, v.moves,
                                v.loop_end, v.named, v.knobs))


def _finished_game(roster, key, g, w, params, Ds):
    """Game ``g`` of run ``key`` played by random moves (the naive engine): the player's
    final view, the game's result and the exact key mask; ``Ds`` filled with its deaths."""
    p, seen = _recording(random_move_nb, random_name_nb)
    res = naive_game(roster, key, g, p, w, params)
    v = _final_view(seen["view"], res, int(roster.nb.info[I.DAYS]))
    Ds[:] = 0
    stamped(B._deaths_nb)(v, Ds)
    return v, res, KEYS(v)


ROSTERS = {
    "base": ({}, []),
    "precedence_key": ({}, ["rules.precedence=player_for_key_person"]),
    "precedence_all": ({}, ["rules.precedence=player"]),
    "locked": ({}, ["rules.stay_moves=false", "rules.key_person_movable=false"]),
    "naming": ({}, ["rules.must_name_key_person=true"]),
    "agitation": ({}, ["rules.negated_gains_agitation=true", "protagonist.location=underworld"]),
    "trap": (TRAP, []),
}


@pytest.mark.parametrize("name", [*ROSTERS, "expansion"])
def test_the_true_setup_is_never_ruled_out(name):
    """Over random games (the naive reference engine, random moves so that R-6 overrides
    happen), the true setup fits every announced day and its key person stays a candidate;
    a wrong setup (another key person, or the true one with a permanent move changed) is
    ruled out often enough that the check is not vacuous."""
    config, sets = ROSTERS.get(name, ({}, []))
    roster = resolve_setup(config or None, sets, expansion=name == "expansion",
                           protagonist=["male", "loud"] if name == "agitation" else None)
    writers = ["fixed"] if name == "trap" else ["random", "adversarial"] if name == "base" else ["random"]
    R = roster.nb
    n, days = roster.n_chars, int(R.info[3])
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    key = run_key(7)
    ruled_out = checked = 0
    for wname in writers:
        w = SCRIPTWRITERS.get(wname)
        params = (np.ascontiguousarray(w.prepare(roster, python_rng(7)), dtype=np.int64) if w.prepare else None)
        games = 12 if wname == "adversarial" else 40
        for g in range(games):
            p, seen = _recording(random_move_nb, random_name_nb)
            res = naive_game(roster, key, g, p, w, params)
            v = _final_view(seen["view"], res, days)
            truth = np.asarray(res["setup"], np.int64)
            km = int(KEYS(v))
            assert km >> int(truth[0]) & 1, (wname, g, "key person ruled out")
            assert HISTORY(v, truth, buf, pos, np.uint64(km), 1 << 30) == 0, (wname, g, res["setup"])
            # a wrong setup: the same with the first permanent move elsewhere (or another key person)
            wrong = truth.copy()
            if wrong[1] >= 0:
                wrong[2] = (wrong[2] + 1 + g % 4) % int(R.info[1])
            else:
                wrong[1], wrong[2] = 1 + g % (n - 1), g % int(R.info[1])
            if not VALID(R, wrong):
                continue
            checked += 1
            ruled_out += HISTORY(v, wrong, buf, pos, np.uint64(km), 1 << 30) > 0
    assert checked and ruled_out >= max(1, checked // 20), (ruled_out, checked)


def test_the_day_model_is_the_engines():
    """A hypothesis that differs from the truth only where no announcement can see it
    (a guest move on a day that was never played) still fits, and the layout the model
    builds for the true setup puts the trap's Socrates in the underworld, whatever the
    player's move of him (R-6)."""
    roster = resolve_setup(TRAP)
    R = roster.nb
    h = np.full(1 + 2 * 3 + 2 * 3, -1, np.int64)
    h[0] = roster.index("attention_seeker")
    h[2::2] = 0  # the places of unused slots
    h[1], h[2] = roster.index("socrates_in_love"), roster.loc_index("underworld")
    mv = np.array([[roster.index("socrates_in_love"), roster.loc_index("park")], [-1, -1], [-1, -1]], np.int64)
    pos = np.zeros(roster.n_chars, np.int64)
    LAYOUT(R, h, 1, np.uint64((1 << roster.n_chars) - 1), mv, 1, pos)
    assert pos[roster.index("socrates_in_love")] == roster.loc_index("underworld")
    prec = resolve_setup(TRAP, ["rules.precedence=player"])
    LAYOUT(prec.nb, h, 1, np.uint64((1 << roster.n_chars) - 1), mv, 1, pos)
    assert pos[roster.index("socrates_in_love")] == roster.loc_index("park")


@pytest.fixture(scope="module")
def trap():
    return resolve_setup(TRAP)


def _rate(roster, player, games=300, seed=1):
    r = run(games, seed, player=player, scriptwriter="fixed", roster=roster)
    row = r.summary.row(0, named=True)
    return row["player_win_rate"], row["ci_low"], row["ci_high"]


@HEAVY
def test_trap_bayes_and_planner_win_random_does_not(trap):
    """The trap (issue 14): the key person dies on day 1 unless moved; one lost loop tells
    bayes why (Socrates, 4 loud stress, in the underworld) and it moves her away."""
    assert _rate(trap, "random", 2000)[0] < 0.05
    assert _rate(trap, "bayes")[0] >= 0.95
    assert _rate(trap, "planner", 200)[0] >= 0.95


@HEAVY
def test_oracle_planner_is_not_worse_than_planner():
    """Told the setup, the planner does at least as well (within the CIs) on the trap with
    the scriptwriter's choices the first candidate and a guest move, where the honest
    planner must spend a loop to learn."""
    hard = resolve_setup({"setup": {**TRAP["setup"], "choose": "first",
                                    "guest_moves": [{"day": 2, "character": "cat", "location": "underworld"}]}})
    o, olo, ohi = _rate(hard, "oracle_planner", 200)
    p, plo, phi = _rate(hard, "planner", 200)
    assert ohi >= plo and o >= p - 0.05, (o, p)


def test_registered_with_knobs():
    for name in ("bayes", "planner", "oracle_planner"):
        s = PLAYERS.get(name)
        assert s.knobs and s.knobs[0].name == "particles"
    assert [k.name for k in PLAYERS.get("planner").knobs][-3:] == ["budget", "horizon", "alternatives"]


def test_the_knob_slots_the_kernel_reads_are_the_declared_ones():
    """bayes.py reads view.knobs[K_*]; knob_vector writes the declared order. A knob added
    to BAYES_KNOBS without moving the planner's slots (or the reverse) would have the planner
    read its rollout budget from another knob, silently."""
    for name in ("bayes", "planner", "oracle_planner"):
        names = [k.name for k in PLAYERS.get(name).knobs]
        slots = {"particles": B.K_PARTICLES, "samples": B.K_SAMPLES, "candidates": B.K_CANDIDATES,
                 "protagonist_weight": B.K_PROT_W, "choice_risk": B.K_CHOICE_RISK, "repair": B.K_REPAIR,
                 "max_moves": B.K_MAX_MOVES, "descents": B.K_DESCENTS}
        if name != "bayes":
            slots.update(budget=B.K_BUDGET, horizon=B.K_HORIZON, alternatives=B.K_ALTERNATIVES)
        assert {n: names.index(n) for n in slots} == slots, name
        assert len(names) == len(slots), name
    d = next(k for k in PLAYERS.get("bayes").knobs if k.name == "descents")
    assert not d.tune  # how much the repair costs, not how the player plays


@HEAVY
def test_same_seed_same_games_whatever_the_chunks():
    """The particles live in ``own.big``, which the kernel never zeroes: bayes must draw them
    afresh each game, so one thread in chunks of 7 plays exactly the games of the default run
    (the trap's kernel, already compiled above; its repair search draws from the stream)."""
    small = resolve_setup(TRAP, ["player.particles=16", "player.samples=2"])
    a = run(120, 4, player="bayes", scriptwriter="fixed", roster=small)
    b = run(120, 4, player="bayes", scriptwriter="fixed", roster=small, threads=1, chunk_size=7)
    for k in a.totals:
        assert np.array_equal(np.asarray(a.totals[k]), np.asarray(b.totals[k])), k


# ---- the particle filter's bookkeeping (update_nb called on a hand-made history) ----------

UPDATE = stamped(B.update_nb)
EXPLAIN = stamped(B._explain_death)


def _history(roster, moves_day1, deaths_day1, loop_end, particles, repair=4000):
    """A player view after loop 1's day 1 (moves and announced deaths given), now at loop 2
    day 1 when ``loop_end`` is 1; the scratch of a fresh game."""
    from sim.core.knobs import knob_vector
    from sim.looper.game_nb import BIG, MEM
    from sim.looper.views import Scratch
    R = roster.nb
    n, days, loops, mpd = roster.n_chars, int(R.info[I.DAYS]), int(R.info[I.MAX_LOOPS]), int(R.info[I.MOVES])
    ann = np.full((loops, days, n), -1, np.int64)
    mv = np.full((loops, days, mpd, 2), -1, np.int64)
    for j, (c, l) in enumerate(moves_day1):
        mv[0, 0, j] = roster.index(c), roster.loc_index(l)
    alive = (1 << n) - 1
    for c, l in deaths_day1:
        ann[0, 0, roster.index(c)] = roster.loc_index(l)
        alive &= ~(1 << roster.index(c))
    ends = np.zeros(loops, np.int64)
    ends[0] = loop_end
    knobs = knob_vector(PLAYERS.get("bayes"), "bayes", {"particles": particles, "repair": repair}, "test")
    lp, day = (1, 1) if loop_end else (0, 2)
    if loop_end:
        alive = (1 << n) - 1
    named = np.full(loops, -1, np.int64)
    view = _readonly(PlayerView(R, np.int64(lp), np.int64(day), np.uint64(alive), ann, mv, ends, named, knobs))
    morning = _readonly(PlayerView(R, np.int64(0), np.int64(1), np.uint64((1 << n) - 1), np.full_like(ann, -1), mv,
                                   np.zeros(loops, np.int64), named, knobs))
    own = Scratch(np.zeros(MEM, np.int64), day_buffers_nb(R), np.zeros(BIG, np.int64))
    return morning, view, own


def _rng(seed):
    from sim.core.rng import seed_stream_nb
    st = np.zeros(4, np.uint64)
    seed_stream_nb(st, run_key(seed), 0)
    return st


@HEAVY
def test_a_loop_ended_by_the_key_person_keeps_the_particles():
    """The player walked the verge-of-madness woman into the ruins (she dies there) and the
    loop ended with the protagonist alive: she is the key person. A particle's key never
    changes the layout under the default precedence, so every particle takes her as its key
    and lives on (one that moved her permanently, so that she could not have gone, is
    refilled): no repair search is needed. With 4 particles the old filter, which let every
    particle with another key die, needed one in 5 of 6 games."""
    roster = resolve_setup(None)
    verge = roster.index("verge_of_madness")
    for seed in range(6):
        morning, view, own = _history(roster, [("verge_of_madness", "ruins")], [("verge_of_madness", "ruins")], 1, 4)
        rng = _rng(seed)
        UPDATE(rng, morning, own, False)  # the particles are drawn on the first morning
        live = UPDATE(rng, view, own, False)
        S = 1 + 2 * int(roster.nb.info[I.N_PERM]) + 2 * int(roster.nb.info[I.N_GUEST])
        assert live == 4 and own.mem[B.M_SPENT] == 0, (seed, live, own.mem[B.M_SPENT])
        assert all(own.big[i * S] == verge for i in range(4))


@HEAVY
def test_the_repair_search_spends_its_budget_once_a_game():
    """A death the 4 particles do not explain sends the filter to its repair search; the
    search may spend ``repair`` re-simulated days in the whole game (plus the one step that
    crosses it), not that much again every day it falls short."""
    roster = resolve_setup(None)
    days = int(roster.nb.info[I.DAYS])
    for seed in range(4):
        morning, view, own = _history(roster, [], [("laid_off_man", "school"), ("cat", "ruins")], 0, 4, repair=60)
        rng = _rng(seed)
        UPDATE(rng, morning, own, False)
        UPDATE(rng, view, own, False)
        first = own.mem[B.M_SPENT]
        assert 0 < first <= 60 + days, first
        later = view._replace(day=np.int64(3))  # day 2 was quiet
        UPDATE(rng, later, own, False)
        if own.mem[B.M_EXACT] == 0:
            assert own.mem[B.M_SPENT] <= 60 + days
            assert first < 60 or own.mem[B.M_SPENT] == first


def test_a_death_is_explained_by_moving_its_victim_or_a_killer_there():
    """The repair's targeted proposal changes one move: a permanent one, or the guest move of
    the death's day, to the announced place or the one before it (Turf King); half the time
    it names the victim, so "the verge-of-madness woman was moved to the ruins" is proposed
    about one time in four."""
    roster = resolve_setup(None)
    R = roster.nb
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    S = 1 + 2 * nperm + 2 * nguest
    _, view, _ = _history(roster, [], [("verge_of_madness", "ruins")], 0, 4)
    ruins, verge = roster.loc_index("ruins"), roster.index("verge_of_madness")
    before = [x for x in range(int(R.info[I.N_LOC])) if R.next_loc[x] == ruins][0]
    h = np.full(S, -1, np.int64)
    h[0] = 1
    h[2::2] = 0
    tmp = np.empty(S, np.int64)
    rng = _rng(3)
    hits = 0
    for _ in range(400):
        ok = EXPLAIN(rng, view, h, tmp)
        assert ok >= 1
        diff = [s for s in range(1, nperm + nguest + 1) if (tmp[2 * s - 1], tmp[2 * s]) != (h[2 * s - 1], h[2 * s])]
        assert len(diff) == 1 and tmp[0] == h[0]
        s = diff[0]
        assert s <= nperm  # day 1 has no guest move
        assert tmp[2 * s] in (ruins, before) and tmp[2 * s - 1] >= 1
        hits += tmp[2 * s - 1] == verge and tmp[2 * s] == ruins
    assert 60 <= hits <= 140, hits


def test_rollouts_with_choice_risk_one_are_deterministic():
    """The planner stops after one round over its worlds when no rollout drew a random
    choice: with ``choice_risk`` 1 the rollouts' scriptwriter takes the most valued
    candidate without a draw, so the same world and moves give the same value whatever the
    stream; below 1 a rollout that met a choice says it drew."""
    roster = resolve_setup(None)
    R = roster.nb
    rollout = stamped(B._rollout)
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    n = roster.n_chars
    _, view, own = _history(roster, [], [], 0, 4)
    wts = np.zeros(n)
    wts[0] = 1.0
    pos = np.zeros(n, np.int64)
    mv = np.full((3, 2), -1, np.int64)
    drew_any = 0
    for seed in range(40):
        h = np.full(S, -1, np.int64)
        h[2::2] = 0
        r = np.random.default_rng(seed)
        h[0] = 1 + seed % (n - 1)
        for j in range(3):  # three random permanent moves
            h[1 + 2 * j], h[2 + 2 * j] = 1 + (seed * 7 + j * 5) % (n - 1), r.integers(5)
        if not VALID(R, h):
            continue
        a = rollout(_rng(1), view, own, h, mv, 0, wts, pos, 1, 1.0)
        b = rollout(_rng(2), view, own, h, mv, 0, wts, pos, 1, 1.0)
        assert a == b and not a[2], (a, b)
        drew_any += rollout(_rng(1), view, own, h, mv, 0, wts, pos, 1, 0.5)[2]
    assert drew_any > 0


def test_a_candidate_with_the_greedy_sets_layouts_has_its_rollout():
    """The planner takes the greedy set's rollout value for a candidate whose morning layouts
    equal the greedy set's on every day left (``_same_days``) instead of rolling it out: over
    random worlds and one-move changes (half of them to the place the character already
    has), every such pair rolls out to the same value and days, and both answers occur."""
    roster = resolve_setup(None)
    R = roster.nb
    rollout, same = stamped(B._rollout), stamped(B._same_days)
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    n, L, days = roster.n_chars, int(R.info[I.N_LOC]), int(R.info[I.DAYS])
    _, view, own = _history(roster, [], [], 0, 4)  # loop 1, day 2
    wts = np.zeros(n)
    wts[0] = 1.0
    pos = np.zeros(n, np.int64)
    r = np.random.default_rng(5)
    seen = {True: 0, False: 0}
    for _ in range(300):
        h = _random_world(r, R, S, n, L)
        if not VALID(R, h):
            continue
        mv0 = np.full((2, 2), -1, np.int64)
        mv0[0] = r.integers(n), r.integers(L)
        mvc = mv0.copy()
        x = int(r.integers(n))
        LAYOUT(R, h, int(view.day), view.alive, mv0, 1, pos)
        mvc[1] = x, (pos[x] if r.random() < 0.5 else r.integers(L))
        eq = bool(same(R, h, int(view.day), days, view.alive, mv0, 1, mvc, 2))
        seen[eq] += 1
        a = rollout(_rng(1), view, own, h, mv0, 1, wts, pos, 1, 1.0)
        b = rollout(_rng(1), view, own, h, mvc, 2, wts, pos, 1, 1.0)
        if eq:
            assert a[:2] == b[:2], (h, mv0, mvc, a, b)
    assert seen[True] > 20 and seen[False] > 20, seen


@pytest.mark.parametrize("name", ["base", "precedence_key", "precedence_all", "locked"])
def test_the_planners_layout_check_is_the_whole_layouts(name):
    """``_same_days`` compares only the characters the two move sets move (``_place``); over
    random worlds, move sets (repeated characters, unused slots, moves of the dead) and
    living, and every precedence, it answers what comparing the whole morning layouts of
    every day answers, and both answers occur."""
    cfg, sets = ROSTERS[name]
    roster = resolve_setup(cfg, sets)
    R = roster.nb
    same = stamped(B._same_days)
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    n, L, days = roster.n_chars, int(R.info[I.N_LOC]), int(R.info[I.DAYS])
    r = np.random.default_rng(8)
    seen = {True: 0, False: 0}
    p0, p1 = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for _ in range(400):
        h = _random_world(r, R, S, n, L)
        if r.random() < 0.3:  # an unused guest slot, as a `fixed` script may leave
            h[S - 2] = -1
        alive = np.uint64(int(r.integers(1 << n)) | 1)
        d0 = int(r.integers(1, days + 1))
        mv0 = np.full((3, 2), -1, np.int64)
        k0 = int(r.integers(0, 4))
        for j in range(k0):
            mv0[j] = r.integers(-1, n), r.integers(L)
        mv = mv0.copy()
        k = int(r.integers(max(k0, 1), 4))
        j = int(r.integers(k))
        mv[j] = (mv0[int(r.integers(k0))][0] if k0 and r.random() < 0.5 else r.integers(n)), r.integers(L)
        if r.random() < 0.3:  # to the place it already has: often the same layouts
            LAYOUT(R, h, d0, alive, mv0, k0, p0)
            if mv[j, 0] >= 0:
                mv[j, 1] = p0[mv[j, 0]]
        want = True
        for d in range(d0, days + 1):
            LAYOUT(R, h, d, alive, mv0, k0, p0)
            LAYOUT(R, h, d, alive, mv, k, p1)
            want &= bool((p0 == p1).all())
        got = bool(same(R, h, d0, days, alive, mv0, k0, mv, k))
        assert got == want, (name, h, alive, d0, mv0[:k0], mv[:k])
        seen[got] += 1
    assert seen[True] > 30 and seen[False] > 30, seen


def _random_world(r, R, S, n, L):
    h = np.full(S, -1, np.int64)
    h[0] = r.integers(1, n)
    for j in range(int(R.info[I.N_PERM])):
        h[1 + 2 * j], h[2 + 2 * j] = r.integers(1, n), r.integers(L)
    g = int(R.info[I.N_GUEST])
    for j in range(g):
        h[S - 2 * g + 2 * j], h[S - 2 * g + 2 * j + 1] = r.integers(1, n), r.integers(L)
    return h


def test_the_greedy_move_search_is_the_obvious_one():
    """bayes's move search (which skips moves that change no world's layout and reuses a
    world's loss where a move leaves its layout alone) chooses exactly what the obvious
    greedy search chooses: every mover to every place (in the same rotated order), each
    weighed by the mean of its loss recomputed in every world, the best strict improvement
    that makes no world's loss larger kept, until none is left."""
    from sim.core.rng import randint_nb

    roster = resolve_setup(None)
    R = roster.nb
    greedy, loss, risk = stamped(B.greedy_moves_nb), stamped(B._loss), stamped(B._risk_nb)
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    n, L = roster.n_chars, int(R.info[I.N_LOC])
    cap = int(R.info[I.MOVES])
    _, view, own = _history(roster, [], [], 0, 4)
    r = np.random.default_rng(11)
    moved_any = 0
    for trial in range(25):
        nw = int(r.integers(1, 9))
        hs = np.zeros((nw, S), np.int64)
        w = 0
        while w < nw:
            hs[w] = _random_world(r, R, S, n, L)
            if r.random() < 0.3 and w:  # worlds that agree, as a posterior's often do
                hs[w] = hs[w - 1]
            w += VALID(R, hs[w])
        wts = np.zeros(n)
        wts[0] = 1.0
        for c in r.choice(np.arange(1, n), 3, replace=False):
            wts[c] = 1.0 / 3
        out = np.full((cap, 2), -1, np.int64)
        k = greedy(_rng(trial), view, own, hs, nw, wts, out)
        # the obvious search, on the same stream (one draw per round: where the places start)
        rng = _rng(trial)
        pos = np.zeros(n, np.int64)
        mv = np.full((cap, 2), -1, np.int64)

        def each(kk):
            return [loss(view, own, hs[w], mv, kk, wts, pos, 1.0) for w in range(nw)]

        def mean(kk):
            return sum(each(kk)) / nw

        cur = mean(0)
        worlds = each(0)
        want = 0
        if cur > 0:
            prot = sum(1 << i for i in range(n) if wts[i] > 0) & int(view.alive)
            movers = 0
            for w in range(nw):
                at = int(risk(view, own, hs[w], mv, 0, pos)) & prot
                for i in range(n):
                    if at >> i & 1:
                        movers |= sum(1 << x for x in range(n) if pos[x] == pos[i] or x == i)
            movers &= int(view.alive)
            moved = 0
            while want < cap and cur > 0:
                best, bx, bl = cur - 1e-9, -1, -1
                off = randint_nb(rng, L)
                # the protected movers first (issue 41: of equal moves, the victim's wins)
                for x in sorted(range(n), key=lambda x: not prot >> x & 1):
                    if not (movers >> x & 1) or moved >> x & 1:
                        continue
                    for s in range(L):
                        mv[want] = x, (off + s) % L
                        e = each(want + 1)
                        v = sum(e) / nw
                        # issue 41: a move that makes some world's loss larger is not made
                        if v < best and all(e[w] <= worlds[w] + 1e-9 for w in range(nw)):
                            best, bx, bl = v, x, (off + s) % L
                if bx < 0:
                    break
                mv[want] = bx, bl
                moved |= 1 << bx
                cur = best
                worlds = each(want + 1)
                want += 1
        assert k == want and (out[:k] == mv[:want]).all(), (trial, out[:k], mv[:want])
        moved_any += k > 0
    assert moved_any >= 5, moved_any


# ---- shortcuts that must not change a decision ---------------------------------------------

def _repeating_player(seed, n, L, mpd):
    """A player that repeats yesterday's moves half the time (quiet days with the same moves
    then repeat, which the digest skips) and else makes random moves."""
    r = np.random.default_rng(seed)
    last = np.full((mpd, 2), -1, np.int64)
    k = [0]

    def mv(rng, view, own, out):
        if r.random() >= 0.5:
            k[0] = int(r.integers(mpd + 1))
            for j in range(k[0]):
                last[j] = r.integers(n), r.integers(L)
        out[:mpd] = last
        return k[0]
    return mv


def _views_by_day(v, res, days):
    """The player's view on each morning of a finished game (loop, day, the living; later
    loops' ends not yet known), in the order the game met them."""
    out = []
    n = v.ann.shape[2]
    for lp in range(len(res["loop_end"])):
        e = res["loop_end"][lp]
        ends = np.array(v.loop_end)
        ends[lp:] = 0
        alive = (1 << n) - 1
        for d in range(1, (e if 1 <= e <= days else days) + 1):
            out.append(_readonly(v._replace(loop=np.int64(lp), day=np.int64(d), alive=np.uint64(alive), loop_end=ends)))
            alive &= ~sum(1 << c for c in range(n) if v.ann[lp, d - 1, c] >= 0)
    return out


@HEAVY
@pytest.mark.parametrize("name", ["base", "precedence_key", "locked"])
def test_the_digest_keeps_only_consistent_particles(name):
    """update_nb skips re-simulating a particle's day when an earlier particle had the same
    layout that day, and skips a quiet day that repeats an earlier quiet day of the loop
    (the same moves, no guest move, nobody died); over games of a player that often repeats
    its moves, every particle it keeps live fits every announced day, morning by morning."""
    config, sets = ROSTERS[name]
    roster = resolve_setup(config or None, sets)
    R = roster.nb
    n, days, L, mpd = roster.n_chars, int(R.info[I.DAYS]), int(R.info[I.N_LOC]), int(R.info[I.MOVES])
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    w = SCRIPTWRITERS.get("random")
    checked = 0
    for g in range(30 if name == "base" else 80):
        p, seen = _recording(_repeating_player(g, n, L, mpd), random_name_nb)
        res = naive_game(roster, run_key(8), g, p, w, None)
        _, _, own = _history(roster, [], [], 0, 16 if name == "base" else 64)
        rng = _rng(g)
        for v in _views_by_day(seen["view"], res, days):
            UPDATE(rng, v, own, False)
            if own.mem[B.M_EXACT] != 1:
                continue
            km = np.uint64(own.mem[B.M_KEY])
            N = int(own.mem[B.M_N])
            for i in range(N):
                if own.big[N * S + i] == 0:
                    checked += 1
                    assert HISTORY(v, own.big[i * S:(i + 1) * S], buf, pos, km, 0) == 0, (g, int(v.loop), int(v.day), i)
    assert checked > 2000, checked


@pytest.mark.parametrize("name", ["base", "precedence_key"])
def test_a_mutations_recheck_is_the_whole_history_check(name):
    """The refill re-simulates only the days a mutation can change (none for a new key, the
    guest move's own days for a guest move): over mutations of the true setup of random
    games, its answer is the whole history check's, and both answers occur."""
    config, sets = ROSTERS[name]
    roster = resolve_setup(config or None, sets)
    R = roster.nb
    n, days = roster.n_chars, int(R.info[I.DAYS])
    mutate, recheck = stamped(B._mutate), stamped(B._recheck_nb)
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    Ds = np.zeros((int(R.info[I.MAX_LOOPS]), days + 1), np.uint64)
    w = SCRIPTWRITERS.get("random")
    seen_answers = {True: 0, False: 0}
    slots = set()
    for g in range(25):
        v, res, km = _finished_game(roster, run_key(9), g, w, None, Ds)
        truth = np.asarray(res["setup"], np.int64)
        tmp = np.empty_like(truth)
        rng = _rng(g)
        for _ in range(60):
            s = mutate(rng, v, truth, tmp, km)
            if s < 0:
                continue
            slots.add(int(s))
            want = HISTORY(v, tmp, buf, pos, km, 0) == 0
            assert bool(recheck(v, tmp, s, Ds, buf, pos, km)) == want, (g, s, truth, tmp)
            seen_answers[want] += 1
    assert min(seen_answers.values()) > 20 and len(slots) == 1 + int(R.info[I.N_PERM]) + int(R.info[I.N_GUEST])


def test_a_rollout_skips_only_the_days_it_would_repeat():
    """A rollout does not re-simulate a day without a guest move once such a day was quiet
    with the same living (the same layout: quiet again), and counts it as played: value,
    days counted and whether it drew are those of the obvious rollout that plays every day,
    at every starting day and with random choices (``choice_risk`` 0.5) too."""
    from sim.looper.day_nb import day_finish_nb, day_start_nb

    roster = resolve_setup(None)
    R = roster.nb
    rollout, victim = stamped(B._rollout), stamped(B._choose_victim)
    start, finish = stamped(day_start_nb), stamped(day_finish_nb)
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    n, L, days = roster.n_chars, int(R.info[I.N_LOC]), int(R.info[I.DAYS])
    _, view0, own = _history(roster, [], [], 0, 4)
    pos = np.zeros(n, np.int64)
    r = np.random.default_rng(12)
    outcomes = set()
    for trial in range(300):
        h = _random_world(r, R, S, n, L)
        if not VALID(R, h):
            continue
        view = view0._replace(day=np.int64(r.integers(1, days + 1)))
        wts = np.zeros(n)
        wts[0], wts[int(h[0])] = 1.0, 0.5
        mv = np.full((2, 2), -1, np.int64)
        k = int(r.integers(3))
        for j in range(k):
            mv[j] = r.integers(n), r.integers(L)
        cr = 1.0 if trial % 2 else 0.5
        got = rollout(_rng(trial), view, own, h, mv, k, wts, pos, 1, cr)
        # the obvious rollout: every day played
        rng = _rng(trial)
        alive, used, drew, value = int(view.alive), 0, False, None
        for d in range(int(view.day), days + 1):
            LAYOUT(R, h, d, np.uint64(alive), mv, k, pos)
            nreq = start(pos, np.uint64(alive), R, own.buf, None)
            for q in range(nreq):
                own.buf.req_victim[q] = victim(rng, own.buf.req_cand[q], wts, cr)
            drew |= nreq > 0 and cr < 1.0
            dead = int(finish(pos, np.uint64(alive), nreq, R, own.buf, None))
            used += 1
            alive &= ~dead
            if dead & (1 | 1 << int(h[0])):
                value = 0.0
                break
        if value is None:
            value = 1.0 + sum(0.01 * wts[i] for i in range(n) if alive >> i & 1)
        assert got[1] == used and bool(got[2]) == drew and got[0] == pytest.approx(value), (trial, got, value)
        outcomes.add(value == 0.0)
    assert outcomes == {True, False}


@pytest.mark.parametrize("name", ["base", "precedence_key", "precedence_all"])
def test_rows_the_digest_takes_as_one_have_one_layout(name):
    """The digest shares a day's count between rows ``_same_day`` calls equal (and hashes
    alike): such rows give that day the same morning layout under any moves, the moves of
    the scriptwriter's own characters included (R-6 / P-17 precedence)."""
    config, sets = ROSTERS[name]
    roster = resolve_setup(config or None, sets)
    R = roster.nb
    same, hsh = stamped(B._same_day), stamped(B._day_hash)
    nperm, nguest = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    S = 1 + 2 * nperm + 2 * nguest
    n, L, days, mpd = roster.n_chars, int(R.info[I.N_LOC]), int(R.info[I.DAYS]), int(R.info[I.MOVES])
    alive = np.uint64((1 << n) - 1)
    r = np.random.default_rng(13)
    p1, p2 = np.zeros(n, np.int64), np.zeros(n, np.int64)
    counts = {True: 0, False: 0}
    for _ in range(3000):
        h = _random_world(r, R, S, n, L)
        h2 = h.copy()
        s = int(r.integers(1 + nperm + nguest))
        if s == 0:
            h2[0] = r.integers(1, n)
        else:
            h2[2 * s - 1], h2[2 * s] = r.integers(1, n), r.integers(L)
        d = int(r.integers(1, days + 1))
        mv = np.full((mpd, 2), -1, np.int64)
        for j in range(mpd):  # moves of the rows' own characters, the key persons among them
            c = [h[0], h2[0], *h[1:1 + 2 * nperm:2], *h[1 + 2 * nperm::2], int(r.integers(n))][int(r.integers(3 + nperm + nguest))]
            mv[j] = max(int(c), 0), r.integers(L)
        eq = bool(same(R, h, h2, d))
        counts[eq] += 1
        if eq:
            LAYOUT(R, h, d, alive, mv, mpd, p1)
            LAYOUT(R, h2, d, alive, mv, mpd, p2)
            assert (p1 == p2).all() and hsh(R, h, d) == hsh(R, h2, d), (h, h2, d, mv)
    assert min(counts.values()) > 300, counts


@pytest.mark.parametrize("name", ["base", "precedence_key"])
def test_the_repairs_rescore_is_the_whole_history_count(name):
    """The repair scores a proposal (one slot of a row changed, by a blind mutation or by
    explaining a death) re-simulating only the days that slot can change, from the row's
    own count: the whole history count whenever that is at most the row's (else above it
    too), over random rows of random games; proposals that are kept and dropped both occur."""
    config, sets = ROSTERS[name]
    roster = resolve_setup(config or None, sets)
    R = roster.nb
    n, days, L = roster.n_chars, int(R.info[I.DAYS]), int(R.info[I.N_LOC])
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    mutate, rescore = stamped(B._mutate), stamped(B._rescore_nb)
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    Ds = np.zeros((int(R.info[I.MAX_LOOPS]), days + 1), np.uint64)
    w = SCRIPTWRITERS.get("random")
    r = np.random.default_rng(14)
    kept = {True: 0, False: 0}
    for g in range(25):
        v, _, km = _finished_game(roster, run_key(10), g, w, None, Ds)
        rng = _rng(g)
        tmp = np.empty(S, np.int64)
        for _ in range(40):
            h = _random_world(r, R, S, n, L)
            h[0] = B.choose_bit_nb(_rng(int(r.integers(1 << 30))), km)
            if not VALID(R, h):
                continue
            count = int(HISTORY(v, h, buf, pos, km, 1 << 30))
            s = EXPLAIN(rng, v, h, tmp) if r.random() < 0.5 else mutate(rng, v, h, tmp, km)
            if s < 0:
                continue
            full = int(HISTORY(v, tmp, buf, pos, km, 1 << 30))
            got = int(rescore(v, h, tmp, s, count, Ds, buf, pos, km))
            assert (got == full) if full <= count else (got > count), (g, s, count, full, got)
            kept[full <= count] += 1
    assert min(kept.values()) > 50, kept


@pytest.mark.parametrize("name", ["base", "locked"])
def test_the_enumeration_resumed_day_by_day_always_finds_a_consistent_setup(name):
    """The filter's last resort (strategies/looper/repair.py ``enumerate_nb``) runs once a
    game: each call resumes at the set the previous one returned, since a set an earlier
    call rejected had fewer announcements to fit. Asked on every morning of random games,
    it must never say "none" (the true setup is consistent) and what it returns must fit
    the whole history; its cursor never moves back, and it stops where a scan from the
    start would. A cursor moved past a set that may still fit, or a guest solved wrongly,
    fails here."""
    from strategies.looper import repair

    config, sets = ROSTERS[name]
    roster = resolve_setup(config or None, sets)
    R = roster.nb
    n, days = roster.n_chars, int(R.info[I.DAYS])
    S = 1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST])
    enum, deaths = stamped(repair.enumerate_nb), stamped(B._deaths_nb)
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    w = SCRIPTWRITERS.get("random")
    found = resumed = 0
    for g in range(6):
        p, seen = _recording(random_move_nb, random_name_nb)
        res = naive_game(roster, run_key(12), g, p, w, None)
        cursor = np.zeros(2, np.int64)
        rng = _rng(g)
        h = np.empty(S, np.int64)
        Ds = np.zeros((int(R.info[I.MAX_LOOPS]), days + 1), np.uint64)
        for v in _views_by_day(seen["view"], res, days)[1:]:
            km = KEYS(v)
            Ds[:] = 0
            deaths(v, Ds)
            before = cursor.copy()
            assert enum(rng, v, h, Ds, buf, pos, km, cursor), (g, int(v.loop), int(v.day))
            assert HISTORY(v, h, buf, pos, km, 0) == 0 and VALID(R, h), (g, int(v.loop), int(v.day), h)
            assert cursor[1] >= before[1] and (before[0] == 0 or cursor[0] == before[0])
            # resuming skips only sets that no longer fit: a scan from the start (the same
            # random start) stops at the same set
            fresh = np.array([cursor[0], 0], np.int64)
            assert enum(rng, v, h.copy(), Ds, buf, pos, km, fresh) and fresh[1] == cursor[1], (g, fresh, cursor)
            found += 1
            resumed += before[0] != 0
    assert found > 30 and resumed > 20, (found, resumed)


@pytest.mark.parametrize("name", [*ROSTERS, "expansion"])
def test_the_quick_checks_never_rule_out_what_the_day_kernel_allows(name):
    """The filter's checks that read a layout without running the day (model.py
    ``_misplaced_nb``: a victim dies where it stands or, if it walks when stressed, one
    place on, and is announced there or, with Turf King, one place on again) must be implied
    by the day kernel: over random games (the naive engine, random moves) and rows near the
    truth (the truth, and the truth with one slot redrawn), a history check asking only for
    zero (``stop`` 0, which takes the quick path) is zero exactly when the full count is;
    the truth is ``placeable_nb`` and each of its guest moves is one ``guest_need_nb``
    allows. Not vacuous: the quick path rejects rows, and rows are accepted."""
    from strategies.looper import model

    config, sets = ROSTERS.get(name, ({}, []))
    roster = resolve_setup(config or None, sets, expansion=name == "expansion",
                           protagonist=["male", "loud"] if name == "agitation" else None)
    R = roster.nb
    n, days = roster.n_chars, int(R.info[I.DAYS])
    nperm, ng = int(R.info[I.N_PERM]), int(R.info[I.N_GUEST])
    S = 1 + 2 * nperm + 2 * ng
    place, need, mutate = stamped(model.placeable_nb), stamped(model.guest_need_nb), stamped(B._mutate)
    buf = day_buffers_nb(R)
    pos = np.zeros(n, np.int64)
    Ds = np.zeros((int(R.info[I.MAX_LOOPS]), days + 1), np.uint64)
    w = SCRIPTWRITERS.get("fixed" if name == "trap" else "random")
    params = np.ascontiguousarray(w.prepare(roster, python_rng(9)), dtype=np.int64) if w.prepare else None
    agree = {True: 0, False: 0}
    unplaceable = 0
    tmp = np.empty(S, np.int64)
    for g in range(30):
        v, res, km = _finished_game(roster, run_key(15), g, w, params, Ds)
        truth = np.asarray(res["setup"], np.int64)
        assert place(v, truth, Ds, buf, pos), (g, truth)
        for k in range(ng):
            c = int(truth[1 + 2 * nperm + 2 * k])
            got = int(need(v, truth, k, Ds, buf, pos))
            assert got == -1 or got == c, (g, k, c, got)
        rng = _rng(g)
        rows = [truth]
        for _ in range(30):
            if mutate(rng, v, truth, tmp, km) >= 0:
                rows.append(tmp.copy())
        for h in rows:
            full = int(HISTORY(v, h, buf, pos, km, 1 << 30))
            quick = int(HISTORY(v, h, buf, pos, km, 0))
            assert (quick == 0) == (full == 0), (g, h, full, quick)
            agree[full == 0] += 1
            if full and not place(v, h, Ds, buf, pos):
                unplaceable += 1
            if full == 0:
                assert place(v, h, Ds, buf, pos), (g, h)
    assert agree[True] > 100 and agree[False] > 50 and unplaceable > 10, (agree, unplaceable)


@pytest.mark.parametrize("name", ["base", "agitation", "expansion"])
def test_every_death_the_day_kernel_announces_passes_the_quick_check(name):
    """``_misplaced_nb`` (model.py) is a consequence of the engine's day kernel: on random
    layouts and living sets, with random victims for the "one character dies" rules, no
    death the kernel announces is called misplaced. Not vacuous: victims that walked before
    dying (wandering Kenkichi), deaths Turf King moved in the announcement, and both at
    once (two places from the morning's) occur."""
    from sim.looper.day_nb import day_finish_nb, day_start_nb
    from strategies.looper import model

    config, sets = ROSTERS.get(name, ({}, []))
    roster = resolve_setup(config or None, sets, expansion=name == "expansion",
                           protagonist=["male", "loud"] if name == "agitation" else None)
    R = roster.nb
    n, L = roster.n_chars, int(R.info[I.N_LOC])
    start, finish, misplaced = stamped(day_start_nb), stamped(day_finish_nb), stamped(model._misplaced_nb)
    buf = day_buffers_nb(R)
    r = np.random.default_rng(16)
    walked = shifted = both = deaths = 0
    for _ in range(20000):
        pos = r.integers(L, size=n).astype(np.int64)
        alive = np.uint64(sum(1 << i for i in range(n) if i == 0 or r.random() < 0.85))
        nreq = start(pos, alive, R, buf, None)
        for q in range(nreq):
            cand = [i for i in range(n) if int(buf.req_cand[q]) >> i & 1]
            buf.req_victim[q] = cand[r.integers(len(cand))] if cand else -1
        dead = int(finish(pos, alive, nreq, R, buf, None))
        ann = buf.ann.copy()
        assert misplaced(R, np.uint64(dead), ann, pos, buf) == 0, (pos, dead, ann)
        for i in range(n):
            if dead >> i & 1:
                deaths += 1
                w, t = int(buf.pos2[i]) != int(pos[i]), int(ann[i]) != int(buf.pos2[i])
                walked, shifted, both = walked + w, shifted + t, both + (w and t)
    assert deaths > 1000 and walked > 0 and shifted > 0 and both > 0, (deaths, walked, shifted, both)


# docs/looper.md's attention-seeker setup (bayes's adversarial pool under the variants): the
# filter collapses and repairs in most games, so the repair's knobs change what is played
ATTENTION = tomllib.loads('''
[rules]
stay_moves = false
key_person_movable = false
[setup]
key_person = "attention_seeker"
permanent_moves = [{ character = "socrates_in_love", location = "park" }, { character = "pushy_feminist", location = "underworld" }, { character = "turf_king", location = "underworld" }]
guest_moves = [{ day = 2, character = "right_winger", location = "underworld" }, { day = 4, character = "socrates_in_love", location = "ruins" }, { day = 7, character = "childrens_rights", location = "underworld" }]
choose = "adversarial"
''')


@HEAVY
def test_the_descents_knob_reaches_the_kernel():
    """``player.descents`` (the constructive repair's descents before the enumeration) is
    read by the kernel: on the attention-seeker setup 0 and 3 reach other consistent
    setups, so they play other games (the deaths differ), each with no decision taken
    without a consistent setup and both winning nearly every game. A slot read from the
    wrong place, or a default that ignores the knob vector, plays the same games twice."""
    from sim.looper.game import posterior_report

    out = {}
    for d in (0, 3):
        r = run(30, 1, player="bayes", scriptwriter="fixed", roster=resolve_setup(ATTENTION, [f"player.descents={d}"]))
        pr = posterior_report(r.totals)
        row = r.summary.row(0, named=True)
        assert pr["decisions"] > 0 and pr["decisions_without_consistent_world"] == 0, (d, pr)
        assert row["player_win_rate"] >= 0.9, (d, row)
        out[d] = (r.tables["deaths"].to_dicts(), row["mean_loops"])
    assert out[0] != out[3], out
