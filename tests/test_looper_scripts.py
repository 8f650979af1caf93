"""The hand-written script library (examples/looper/scripts, issue 41): every script is
one the scriptwriter can lose — `oracle_planner`, told the setup, wins it in loop 1 — and
the honest reasoning players never decide holding no setup consistent with what was
announced on it, and win it (the competence bars of issue 41)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sim.looper.game import posterior_report, resolve_setup, run
from sim.looper.game_nb import C_GAMES, C_WINS

LIBRARY = Path(__file__).resolve().parents[1] / "examples" / "looper" / "scripts"
SCRIPTS = sorted(LIBRARY.glob("*.toml"))
TRAP = LIBRARY.parent / "trap.toml"

# every test here but the first plays the filter's players (oracle_planner, bayes, planner), whose
# kernels take one to twenty CPU minutes each to compile cold: the heavy tier (`make test-heavy`)
HEAVY = pytest.mark.heavy


def _roster(path):
    return resolve_setup(tomllib.loads(path.read_text()))


def test_the_library_has_ten_scripts_of_several_moves_under_the_variants():
    assert len(SCRIPTS) >= 10
    for f in SCRIPTS:
        cfg = tomllib.loads(f.read_text())
        assert cfg["rules"] == {"stay_moves": False, "key_person_movable": False}, f.name
        s = cfg["setup"]
        assert len(s["permanent_moves"]) + len(s["guest_moves"]) >= 4, f.name
        assert len(s["guest_moves"]) >= 2, f.name


@HEAVY
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_oracle_planner_wins_every_script_in_loop_1(path):
    r = run(40, 1, player="oracle_planner", scriptwriter="fixed", roster=_roster(path))
    assert r.tables["wins_by_loop"]["wins"].to_list()[0] == 40, path.stem


@HEAVY
@pytest.mark.parametrize("path", [*SCRIPTS, TRAP], ids=lambda p: p.stem)
def test_no_decision_is_taken_without_a_consistent_setup(path):
    for player in ("bayes", "planner"):
        r = run(12, 3, player=player, scriptwriter="fixed", roster=_roster(path), tables=False)
        pr = posterior_report(r.totals)
        assert pr["decisions"] > 0 and pr["decisions_without_consistent_world"] == 0, (path.stem, player, pr)


# issue 41's bars: planner ≥ 90 %, bayes ≥ 80 % on every library script. 40 games decide most
# scripts; where the 40 games' point estimate falls below the bar the same run is extended to
# 400 games (its first 40 are those games: game K is the same game in both), whose estimate
# decides — 40 games cannot tell 87.5 % from 90 % (park_cat_socrates: the planner won 35 of its
# first 40, 91.8 % of 400; bayes 77.5 % of 40, 90.8 % of 400 — benchmarks/bench_looper_scripts.py
# --games 400 --seed 5 --only park_cat_socrates).
BARS = {"planner": 0.90, "bayes": 0.80}
FIRST, MORE = 40, 400


@HEAVY
@pytest.mark.parametrize("path,player", [(p, pl) for p in SCRIPTS for pl in BARS],
                         ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_the_reasoning_players_clear_their_bars_on_every_script(path, player):
    rate = 0.0
    for games in (FIRST, MORE):
        r = run(games, 5, player=player, scriptwriter="fixed", roster=_roster(path), tables=False)
        sc = r.totals["scalars"]
        rate = sc[C_WINS] / sc[C_GAMES]
        if rate >= BARS[player]:
            break
    assert rate >= BARS[player], (path.stem, player, games, rate)
