"""Ladder and equilibrium on the race, where every cell has an exact value (sim_race.exact)."""
import json
import math

import numpy as np
from typer.testing import CliRunner

from sim.analysis.metagame import _cell, equilibrium, measure, parse_tier, solve_zero_sum
from sim.cli import app
from sim.core.game import get
from sim_race.exact import exact_for

GAME = get("race")
TIERS = ["cautious", "bold", "threshold@k=0", "threshold@k=3", "threshold@k=-3"]
runner = CliRunner()


def _exact_matrix(tree, rows, cols):
    def one(a, b):
        setup, st = _cell(GAME, tree, a, b)[1]
        return exact_for(setup, st["p1"], st["p2"])
    return np.array([[one(a, b) for b in cols] for a in rows])


def test_equilibrium_value_matches_the_exact_one_within_4_se():
    tree = GAME.build(sets=["rules.target=12", "rules.head_start=2"])
    rows = [parse_tier(GAME, "p1", t) for t in TIERS]
    cols = [parse_tier(GAME, "p2", t) for t in TIERS]
    exact_value, _, _ = solve_zero_sum(_exact_matrix(tree, rows, cols))
    e = equilibrium(GAME, tree, rows, cols, 20_000, 20261201)
    se = (e.ci_high - e.ci_low) / (2 * 1.959963984540054)
    assert abs(e.value - exact_value) < 4 * se, (e.value, exact_value, se)
    # the exploitability of the exact solution, measured, is small: within 4 SE of a cell
    assert all(v < 4 * math.sqrt(0.25 / 20_000) + 0.01 for v in e.exploitability.values())


def test_ladder_cells_match_the_exact_rates():
    tree = GAME.build()
    rows = [parse_tier(GAME, "p1", t) for t in TIERS[:3]]
    cols = [parse_tier(GAME, "p2", t) for t in TIERS[:3]]
    m = measure(GAME, tree, rows, cols, 20_000, 5, (1,))
    exact = _exact_matrix(tree, rows, cols)
    se = np.sqrt(exact * (1 - exact) / m.games)
    assert (np.abs(m.rate - exact) < 4 * se).all()


def test_ladder_is_deterministic_for_any_thread_count():
    tree = GAME.build()
    rows = [parse_tier(GAME, "p1", t) for t in ("random", "bold")]
    cols = [parse_tier(GAME, "p2", t) for t in ("threshold@k=1",)]
    a = measure(GAME, tree, rows, cols, 30_000, 9, (1,), threads=1)
    b = measure(GAME, tree, rows, cols, 30_000, 9, (1,), threads=2)
    assert (a.successes == b.successes).all()


def _cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_ladder_and_equilibrium_cli():
    r = _cli("ladder", "race", "--tiers", "p1=bold,threshold@k=2", "--tiers", "p2=cautious", "--games", "2000",
             "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert [(c["row"], c["col"]) for c in d["matrix"]] == [("bold", "cautious"), ("threshold@k=2", "cautious")]
    assert all(c["ci_low"] <= c["rate"] <= c["ci_high"] and c["games"] == 2000 for c in d["matrix"])
    r = _cli("equilibrium", "race", "--tiers", "p1=bold,cautious", "--tiers", "p2=bold,cautious", "--games", "2000",
             "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d) >= {"value", "ci_low", "ci_high", "exploitability", "mixture"}
    assert d["mixture"]["p1"] == {"bold": 1.0, "cautious": 0.0}


def test_bad_input_is_one_line_exit_2():
    for args, msg in [
        (("ladder", "race", "--tiers", "p3=bold"), "SIDE=TIER"),
        (("ladder", "race", "--tiers", "p1=nosuch"), "unknown race strategy"),
        (("ladder", "race", "--tiers", "p1=threshold@q=1"), "unknown knob 'q' of 'threshold'; knobs: k"),
        (("ladder", "race", "--tiers", "p1=bold@k=1"), "'bold' has no knobs"),
        (("ladder", "race", "--tiers", "p1=threshold@k=99"), "must be in [-20, 20]"),
        (("ladder", "race", "--tiers", "p1=threshold@k"), "KNOB=VALUE"),
        (("ladder", "race", "--games", "0"), "games"),
        (("equilibrium", "race", "--epsilon", "2"), "epsilon"),
        (("ladder", "nosuchgame"), "unknown game"),
    ]:
        r = _cli(*args)
        assert r.exit_code == 2, (args, r.stdout, r.stderr)
        assert msg in r.stderr and r.stderr.strip().count("\n") == 0, (args, r.stderr)


def test_ladder_on_dask_equals_the_local_one():
    common = ["ladder", "race", "--tiers", "p1=bold,threshold@k=2", "--tiers", "p2=cautious,random", "--games",
              "3000", "--seed", "4", "--json"]
    local = json.loads(_cli(*common).stdout)["matrix"]
    r = _cli(*common, "--dask", "local:2")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["matrix"] == local
