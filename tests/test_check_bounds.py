"""The bounds-checked audit mode (issue 38; sim/core/audit.py).

* every built-in strategy of every game plays under it at least once without an
  out-of-range index (each game in one child process with ``SIM_CHECK_BOUNDS=1``, so the
  kernels are compiled with numba's bounds checking, in their own cache folder);
* the mode is an environment switch the ``sim`` command sets from ``--check-bounds``
  anywhere in its arguments, and it moves the kernel cache to a folder of its own;
* a kernel's ``IndexError`` outside the audit mode stays an internal error.
The plug-ins that do index out of range are in tests/test_oob_*.py.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from sim.core import audit

ROOT = Path(__file__).resolve().parents[1]
NOJIT = bool(numba.config.DISABLE_JIT)

# Each game's built-in strategies, paired so that each appears at least once.
PAIRS = {
    "werewolf": [{"village": "claims", "wolves": "trusting"}, {"village": "trusting", "wolves": "claims"},
                 {"village": "random", "wolves": "oracle_attack"}, {"village": "claims", "wolves": "random"}],
    "looper": [{"player": "cautious", "scriptwriter": "random"}, {"player": "deducer", "scriptwriter": "random"},
               {"player": "oracle_key", "scriptwriter": "random"},
               {"player": "random", "scriptwriter": "random"}],
    # the filter's players (minutes of compiling each: the heavy tier, `make test-heavy`)
    "looper_filter": [{"player": "bayes", "scriptwriter": "adversarial"},
                      {"player": "planner", "scriptwriter": "fixed", "config": "examples/looper/trap.toml"},
                      {"player": "oracle_planner", "scriptwriter": "random"}],
    "trpg": [{}],
}
SETS = {"trpg": ['characters.host.strategy.target="oracle_focus"']}
OPTIONS = {"trpg": {"scenario": "alley"}}
GAMES = {"werewolf": 200, "looper": 20, "trpg": 300}
GAME = {"looper_filter": "looper"}  # a case's game, where the case is not named after it

CHILD = textwrap.dedent("""
    import json, sys
    import numba
    from sim.core import audit
    from sim.core.game import get
    assert audit.enabled() and numba.config.BOUNDSCHECK, "not in the audit mode"
    name, pairs, sets, options, games = json.loads(sys.argv[1])
    game = get(name)
    setup = game.setup(None, sets, **options)
    for pair in pairs:
        config = pair.pop("config", None)  # a pair that needs its own configuration (a fixed script)
        s = game.setup(config, sets, **options) if config else setup
        game.run(s, game.strategies(pair, s), games, 1, threads=1)
    print("ok", len(pairs))
""")


@pytest.mark.skipif(NOJIT, reason="bounds checking is a compile option")
@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.heavy) if g == "looper_filter" else g
                                  for g in sorted(PAIRS)])
def test_every_builtin_strategy_plays_under_check_bounds(game, tmp_path):
    """The trpg's built-in target and reaction profiles are dispatched inside one kernel by
    each sheet's choice; alley's sheets use random/weakest/nearest/dangerous targets and
    every reaction, and the kaii host is switched to oracle_focus here."""
    import json

    env = dict(os.environ, SIM_CHECK_BOUNDS="1", PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    name = GAME.get(game, game)
    arg = json.dumps([name, PAIRS[game], SETS.get(name, []), OPTIONS.get(name, {}), GAMES[name]])
    r = subprocess.run([sys.executable, "-c", CHILD, arg], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.split() == ["ok", str(len(PAIRS[game]))]


def test_the_flag_is_taken_out_of_the_arguments_and_sets_the_mode(monkeypatch, tmp_path):
    monkeypatch.delenv(audit.ENV, raising=False)
    monkeypatch.setenv("SIM_KERNEL_DIR", str(tmp_path / "k"))
    monkeypatch.delenv("NUMBA_BOUNDSCHECK", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "BOUNDSCHECK", numba.config.BOUNDSCHECK)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    argv = ["sim", "werewolf", "run", "--check-bounds", "--games", "5"]
    assert audit.configure(argv) is True
    assert argv == ["sim", "werewolf", "run", "--games", "5"]
    assert audit.enabled() and os.environ["NUMBA_BOUNDSCHECK"] == "1"
    assert Path(os.environ["SIM_KERNEL_DIR"]) == tmp_path / "k" / audit.SUBDIR  # a cache of its own
    assert numba.config.BOUNDSCHECK == 1
    audit.configure(["sim"])  # idempotent: the folder is not nested again
    assert Path(os.environ["SIM_KERNEL_DIR"]) == tmp_path / "k" / audit.SUBDIR


def test_without_the_flag_nothing_changes(monkeypatch):
    monkeypatch.delenv(audit.ENV, raising=False)
    argv = ["sim", "werewolf", "run"]
    assert audit.configure(argv) is False and argv == ["sim", "werewolf", "run"]
    assert not audit.enabled()


def test_the_error_line_names_the_strategies_when_the_replay_finds_nothing(monkeypatch):
    monkeypatch.setattr(audit, "_replay", lambda ctx: None)
    audit.note("werewolf", {}, {"village": "mypkg.v:vote", "wolves": "random"})
    line = audit.explain(IndexError("index is out of bounds"))
    assert line.startswith("--check-bounds:") and "village=mypkg.v:vote" in line and "wolves=random" in line
