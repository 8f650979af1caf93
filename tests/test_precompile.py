"""`sim precompile` (issue 42): after it, the first run of any pair of shipped strategies
compiles nothing. Played with the race example (its kernel compiles in seconds); the games'
own kernels are the same mechanism (sim.core.kernels.families), pinned by the goldens."""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numba as nb
import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(nb.config.DISABLE_JIT, reason="compiled kernels need the JIT")


def _kernels(d: Path) -> set[str]:
    """numba's compiled-code files under ``d`` (the kernel folder and numba's cache folder)."""
    return {str(p.relative_to(d)) for p in d.rglob("*.nbc")}


def _sim(args, env):
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)


def test_precompile_then_every_shipped_pair_runs_without_compiling(tmp_path):
    from sim_race.strategies import SHIPPED

    env = {**os.environ, "SIM_KERNEL_DIR": str(tmp_path / "k"), "NUMBA_CACHE_DIR": str(tmp_path / "n")}
    r = _sim(["precompile", "race", "--jobs", "1"], env)
    assert r.returncode == 0, r.stderr
    assert "race: bold vs bold ready" in r.stderr and "compiling 1 kernels" in r.stderr
    built = _kernels(tmp_path)
    assert built  # the kernel is on disk
    names = [s.name for s in SHIPPED]
    for s1, s2 in list(itertools.product(names, repeat=2))[1::5]:  # 4 of the 16 pairs: each a subprocess
        r = _sim(["race", "run", "--p1", s1, "--p2", s2, "--games", "200", "--seed", "1"], env)
        assert r.returncode == 0, r.stderr
    assert _kernels(tmp_path) == built  # nothing compiled after precompile
    # the marker a ladder's compile_for reads: this pair is built under the current sources
    assert list((tmp_path / "k" / "sim_fn").glob("*/precompiled/race-*")), "no precompile marker"


def test_precompile_refuses_an_unknown_game():
    r = _sim(["precompile", "werewolff"], dict(os.environ))
    assert r.returncode == 2
    assert r.stderr.strip() == ("error: no game 'werewolff' (did you mean 'werewolf'?); "
                                "games: looper, werewolf, trpg, race")


def test_kernel_pairs_cover_each_kind_of_view():
    """One pair per kind of view and side: Werewolf's honest and oracle wolves, each Looper
    pair (a kernel of its own), the TRPG's plain and oracle_focus sheets."""
    from sim.core.game import get

    ww = [p for _, p in get("werewolf").kernel_pairs()]
    assert {p["wolves"].startswith("oracle_") for p in ww} == {True, False}
    lp = [p for _, p in get("looper").kernel_pairs()]
    from strategies.looper import PLAYERS

    from strategies.looper import SCRIPTWRITERS

    assert sorted((p["player"], p["scriptwriter"]) for p in lp) == \
        sorted(itertools.product(PLAYERS.names(), SCRIPTWRITERS.names()))
    from sim.trpg.game import scenario_oracles

    tr = [scenario_oracles(s) for s, _ in get("trpg").kernel_pairs()]
    assert any(any("oracle_focus" in v for v in o.values()) for o in tr) and any(not o for o in tr)


def test_light_leaves_out_only_the_filter_players_kernels():
    """``--light`` (make install): every game's kernels but those of the Looper's filter
    players, whose compiles take minutes; the others all stay."""
    from sim.core.game import get
    from sim.core.precompile import tasks

    every, light = tasks(), tasks(light=True)
    left = [get(g).kernel_pairs()[i][1] for g, i in every if (g, i) not in light]
    assert sorted({p["player"] for p in left}) == ["bayes", "oracle_planner", "planner"]
    assert {g for g, _ in light} == {g for g, _ in every}
    assert tasks(["looper"], light=True) == [t for t in light if t[0] == "looper"]


def _looper_kernel_module(p, w) -> str:
    """The generated module of a Looper pair's kernel (its digest names it; nothing compiles)."""
    from sim.looper.game_nb import strategy_kernel

    fn = strategy_kernel(p, w)
    return getattr(fn, "py_func", fn).__module__


def test_looper_precompile_covers_every_shipped_pair_and_the_search():
    """A Looper pair is a kernel of its own: ``sim precompile --light`` (make install) must
    build every pair but the filter players' — the `fixed` and `adversarial` ones too — and
    the kernels the adversarial search scores its players in. Before this test the light
    precompile built each player against `random` only, and 8 of the 12 light pairs compiled
    on their first run (bench_first_run.py --light: up to 38 s)."""
    from types import SimpleNamespace

    from sim.core.game import get
    from sim.core.precompile import tasks
    from strategies.looper import PLAYERS, SCRIPTWRITERS, against_players
    from strategies.looper import scriptwriter as _w
    from strategies.looper.adversarial import DEFAULT_AGAINST

    g = get("looper")
    pairs = g.kernel_pairs()
    built = {_looper_kernel_module(PLAYERS.get(p["player"]), SCRIPTWRITERS.get(p["scriptwriter"]))
             for (g_, i) in tasks(["looper"], light=True) for p in [pairs[i][1]]}
    for p in PLAYERS.names():
        for w in SCRIPTWRITERS.names():
            mod = _looper_kernel_module(PLAYERS.get(p), SCRIPTWRITERS.get(w))
            assert (mod in built) != g.heavy_kernel({"player": p, "scriptwriter": w}), (p, w)
    # the search's scoring kernels (strategies.looper.adversarial.score_setups)
    writer = SimpleNamespace(setup=_w.pool_setup_nb, choose=_w.adversarial_choose_nb)
    for p in against_players(DEFAULT_AGAINST):
        assert _looper_kernel_module(p, writer) in built, p.name
    # `fixed` pairs are built on a script (without one the run is an input error)
    assert all(s.fixed_key for s, given in pairs if given["scriptwriter"] == "fixed")


def test_a_matrix_compiles_its_missing_kernels_side_by_side(tmp_path, monkeypatch):
    """``compile_for`` (called by every ladder / equilibrium matrix): the kernels the cells
    play in that no precompile built are compiled in worker processes when two or more are
    missing; one missing is left to the run; plug-ins and built pairs are not asked for."""
    import sim.core.precompile as pc
    from sim.core.game import get

    monkeypatch.setenv("SIM_KERNEL_DIR", str(tmp_path))
    monkeypatch.delenv("SIM_KERNELS", raising=False)
    ran = []
    monkeypatch.setattr(pc, "precompile", lambda **kw: ran.append(kw["todo"]))
    cells = [{"village": v, "wolves": w} for v in ("random", "claims", "tests.x:y")
             for w in ("random", "claims", "oracle_attack")]
    g = get("werewolf")
    # honest wolves, oracle_attack, and random vs random (a kernel of its own)
    assert sorted(pc.compile_for("werewolf", cells)) == [("werewolf", 0), ("werewolf", 1), ("werewolf", 2)]
    assert len(ran) == 1 and sorted(ran[0]) == [("werewolf", 0), ("werewolf", 1), ("werewolf", 2)]
    for i in (1, 2):  # two built: the third compiles where it plays
        m = pc._marker("werewolf", g.kernel_pairs()[i][1])
        m.parent.mkdir(parents=True, exist_ok=True)
        m.touch()
    assert pc.compile_for("werewolf", cells) == [] and len(ran) == 1
    # a Looper pair is its own kernel: three pairs, three tasks
    lp = [{"player": "cautious", "scriptwriter": w} for w in ("random", "adversarial", "fixed")]
    assert len(pc.compile_for("looper", lp)) == 3
    monkeypatch.setenv("SIM_KERNELS", "single")  # a kernel per pair: nothing to share
    assert pc.compile_for("looper", lp) == []


def test_werewolf_random_pair_has_a_kernel_of_its_own_and_precompile_builds_every_kernel():
    """Random vs random plays in a kernel of its own (in the shared one it played a third
    slower); every other shipped pair shares one of the view kinds' kernels, and the light
    precompile builds every kernel a shipped pair plays in (nothing compiles)."""
    import itertools

    from sim.core.game import get
    from sim.core.precompile import tasks
    from sim.werewolf.game_nb import chunk_kernel
    from strategies.werewolf import SHIPPED

    def mod(v, w):
        k = chunk_kernel(v, w)
        k = getattr(k, "kernel", k)
        return getattr(k, "py_func", k).__module__

    by = {(v.name, w.name): mod(v, w) for v, w in itertools.product(*SHIPPED)}
    rr = by[("random", "random")]
    assert list(by.values()).count(rr) == 1
    assert by[("random", "claims")] == by[("claims", "claims")]
    g = get("werewolf")
    pairs = g.kernel_pairs()
    reg = g.registries()
    built = {mod(reg["village"].get(p["village"]), reg["wolves"].get(p["wolves"]))
             for name, i in tasks(["werewolf"], light=True) for p in [pairs[i][1]]}
    assert set(by.values()) == built
