"""Streams independent at every depth (issue 43): every spawn path the project builds — sweep
cells (paired and not), their exploit re-measures, ladder and matrix cells, tune trials, the
balance search — gets a key of its own, by depth and by sibling, for any root seed."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.rng import next_u64_nb, seed_stream_nb
from sim.core.seeding import MAX_SEED, run_key

seeds = st.integers(0, MAX_SEED)
paths = st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(seed=seeds, path=paths, other=st.integers(0, 2**32 - 1))
def test_keys_differ_by_depth_and_by_sibling(seed, path, other):
    key = run_key(seed, *path)
    assert not np.array_equal(key, run_key(seed, *path[:-1])), "a path and its parent"
    assert not np.array_equal(key, run_key(seed, *path, other)), "a path and its child"
    if other != path[-1]:
        assert not np.array_equal(key, run_key(seed, *path[:-1], other)), "two siblings"


def _matrix_spawns(k):
    """The spawn of every game the TRPG matchup matrix of k builds plays, recorded."""
    import sim.trpg.matrix as M

    seen = []

    class R:
        totals = {"wins": (0, 0)}

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(M, "load_builds", lambda path: {"builds": {f"b{i}": {} for i in range(k)}})
        mp.setattr(M, "pair_scenario", lambda *a, **kw: None)
        mp.setattr(M, "run", lambda games, seed, **kw: seen.append(tuple(kw["spawn"])) or R())
        M.matchup_matrix("unused", 1)
    return seen


def project_paths(params_a, params_b) -> dict:
    """Name → spawn path, each built by the code that uses it."""
    from sim.analysis.balance import STREAMS
    from sim.analysis.metagame import FRESH as LADDER_FRESH, MEASURE
    from sim.analysis.tune import FRESH as TUNE_FRESH, SEARCH
    from sim.looper.game import EXPLOIT_STREAM
    from sim.sweep.spec import cell_spawn, parse_spec

    raw = {"game": "werewolf", "name": "s", "seed": 1, "games": 100,
           "axes": [{"path": "variants.max_runoffs", "values": [1, 2]}]}
    unpaired, paired = parse_spec(raw), parse_spec({**raw, "paired": True})
    out = {"sweep paired": cell_spawn(paired, params_a), "sweep cell a": cell_spawn(unpaired, params_a),
           "sweep cell b": cell_spawn(unpaired, params_b), "ladder": (MEASURE,), "ladder fresh": (LADDER_FRESH,),
           "tune search": (SEARCH,), "tune final": (TUNE_FRESH,), "balance": tuple(STREAMS)}
    for name in list(out):  # a Looper run against an exploit list re-measures on its own stream
        out[name + " exploit"] = (*out[name], EXPLOIT_STREAM)
    for s in _matrix_spawns(3):
        out[f"matrix {s}"] = s
    return out


params = st.dictionaries(st.sampled_from(["variants.max_runoffs", "roles.fenrir.drag", "x"]),
                         st.integers(0, 9), min_size=1)


@settings(max_examples=30, deadline=None)
@given(seed=seeds, a=params, b=params)
def test_every_project_path_has_its_own_stream(seed, a, b):
    paths_ = project_paths(a, b)
    if a == b:
        assert paths_["sweep cell a"] == paths_["sweep cell b"]  # a cell keeps its numbers
        del paths_["sweep cell b"], paths_["sweep cell b exploit"]
    assert len(set(paths_.values())) == len(paths_), paths_
    keys = {name: run_key(seed, *p).tobytes() for name, p in paths_.items()}
    assert len(set(keys.values())) == len(keys), "two spawn paths share a key"
    # and the streams themselves: the first draw of game 0 of each
    first = set()
    for p in paths_.values():
        s = np.zeros(4, np.uint64)
        seed_stream_nb(s, run_key(seed, *p), 0)
        first.add(int(next_u64_nb(s)))
    assert len(first) == len(paths_)


def test_matrix_plays_both_orders_of_every_pair():
    spawns = _matrix_spawns(4)
    assert len(spawns) == len(set(spawns)) == 4 * 3  # 6 pairs × 2 first-move orders


@settings(max_examples=100, deadline=None)
@given(seed=seeds, path=paths)
def test_python_side_draws_never_replay_a_kernel_key(seed, path):
    """python_rng (strategy preparation, random design points, the balance search) and run_key
    of the same path must not start from the same entropy."""
    from sim.core.seeding import python_rng

    state = python_rng(seed, *path).bit_generator.seed_seq.generate_state(4, np.uint64)
    assert not np.array_equal(state, run_key(seed, *path))
