"""Same seed → same counts, for any thread count, chunk size or split into batches."""
from __future__ import annotations

import numpy as np
import pytest

from sim_race.protocol import GAME


def _totals(games, seed=7, **kw):
    setup = GAME.setup(None, ["p1.k=2"])
    s = GAME.strategies({"p1": "threshold", "p2": "random"})
    return GAME.run(setup, s, games, seed, tables=False, **kw).totals


def _same(a, b):
    return set(a) == set(b) and all(np.array_equal(a[k], b[k]) for k in a)


def test_threads_and_chunks_do_not_change_results():
    ref = _totals(50_000, threads=1)
    for threads, chunk in ((2, 8192), (2, 1000), (1, 777), (3, 4096)):
        assert _same(ref, _totals(50_000, threads=threads, chunk_size=chunk)), (threads, chunk)


def test_batches_equal_one_run():
    whole = _totals(30_000, threads=2)
    parts = [_totals(10_000, start=s, threads=2) for s in (0, 10_000, 20_000)]
    assert _same(whole, {k: sum(p[k] for p in parts) for k in whole})


def test_seeds_and_spawns_differ():
    a = _totals(20_000, seed=1)
    assert not _same(a, _totals(20_000, seed=2))
    assert not _same(a, _totals(20_000, seed=1, spawn=(5,)))
    assert _same(a, _totals(20_000, seed=1))


def test_bad_plugin_decision_is_an_error():
    with pytest.raises(ValueError, match="decide must return 1 or 2"):
        GAME.run(GAME.setup(), GAME.strategies({"p1": "race_plugins:bad_nb", "p2": "bold"}), 10, 0)


def test_a_player_reading_outside_its_stream_finds_zeros():
    """Every stream is guarded memory of its own (sim.core.guard): a plug-in reading past
    either end of its stream finds zeros, and plays exactly as ``random`` does, game for
    game, on either seat (issue 38)."""
    import numba

    if numba.config.DISABLE_JIT:
        pytest.skip("reads outside an array raise in plain Python")
    setup = GAME.setup()
    for seat in ("p1", "p2"):
        base = GAME.run(setup, GAME.strategies({seat: "random"}), 3000, 9, tables=False).totals
        oob = GAME.run(setup, GAME.strategies({seat: "race_plugins:oob_nb"}), 3000, 9, tables=False).totals
        assert all(np.array_equal(base[k], oob[k]) for k in base)


def test_shared_kernel_plays_each_pair_as_its_own_kernel(monkeypatch):
    """Every pair of shipped strategies plays in one kernel (selectors choose the hooks,
    sim.core.kernels.Choice); a pair's counts equal those of a kernel compiled for that pair
    alone (SIM_KERNELS=single; four pairs, each selector of both sides), and the pairs
    differ from each other."""
    import itertools

    from sim.core import kernels
    from sim_race.game_nb import chunk_kernel
    from sim_race.strategies import SHIPPED

    setup = GAME.setup(None, ["p1.k=2", "p2.k=-1"])
    shared, seen = {}, set()
    for s1, s2 in itertools.product(SHIPPED, SHIPPED):
        k = chunk_kernel(s1, s2)
        seen.add(id(k.kernel))
        shared[s1.name, s2.name] = GAME.run(setup, {"p1": s1, "p2": s2}, 3000, 5, tables=False, threads=1).totals
    assert len(seen) == 1  # one compiled kernel for all 16 pairs
    monkeypatch.setattr(kernels, "SINGLE", True)
    for (n1, n2), tot in list(shared.items())[::5]:  # 4 pairs: each kernel of its own is a compile
        own = GAME.run(setup, GAME.strategies({"p1": n1, "p2": n2}), 3000, 5, tables=False, threads=1).totals
        assert _same(tot, own), (n1, n2)
    assert len({tuple(np.asarray(t["scalars"]).tolist()) for t in shared.values()}) > 8
