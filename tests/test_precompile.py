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


def test_precompile_refuses_an_unknown_game():
    r = _sim(["precompile", "werewolff"], dict(os.environ))
    assert r.returncode == 2
    assert r.stderr.strip() == ("error: no game 'werewolff' (did you mean 'werewolf'?); "
                                "games: looper, werewolf, trpg, race")


def test_kernel_pairs_cover_each_kind_of_view():
    """One pair per kind of view and side: Werewolf's honest and oracle wolves, each Looper
    player (its own kernel), the TRPG's plain and oracle_focus sheets."""
    from sim.core.game import get

    ww = [p for _, p in get("werewolf").kernel_pairs()]
    assert {p["wolves"].startswith("oracle_") for p in ww} == {True, False}
    lp = [p for _, p in get("looper").kernel_pairs()]
    from strategies.looper import PLAYERS

    assert sorted(p["player"] for p in lp) == PLAYERS.names()
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
    assert sorted(p["player"] for p in left) == ["bayes", "oracle_planner", "planner"]
    assert {g for g, _ in light} == {g for g, _ in every}
    assert tasks(["looper"], light=True) == [t for t in light if t[0] == "looper"]
