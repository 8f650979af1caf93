"""``sim equilibrium race --grow`` (double oracle) against the exact meta-game of the race's
families: every pair of strategies has an exact win probability (sim_race.exact, dynamic
programming, independent of the kernels), so the equilibrium of the whole family
{cautious, bold, threshold@k for k = −20 … 20} is one linear program, and the grown
mixtures' exact exploitability can be computed, not estimated."""
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.analysis.grow import grow
from sim.analysis.metagame import _cell, parse_tier, solve_zero_sum
from sim.cli import app
from sim.core.game import get
from sim.errors import SimInputError
from sim_race.exact import exact_for

GAME = get("race")
SETS = ["rules.target=12", "rules.head_start=2"]
FAMILY = ["cautious", "bold"] + [f"threshold@k={k}" for k in range(-20, 21)]
EPS = 0.01


@pytest.fixture(scope="module")
def exact():
    """The exact rate of every pair of the family, and the family's exact equilibrium value."""
    tree = GAME.build(sets=SETS)
    rows = [parse_tier(GAME, "p1", n) for n in FAMILY]
    cols = [parse_tier(GAME, "p2", n) for n in FAMILY]

    def one(a, b):
        setup, st = _cell(GAME, tree, a, b)[1]
        return exact_for(setup, st["p1"], st["p2"])

    m = np.array([[one(a, b) for b in cols] for a in rows])
    return tree, m, solve_zero_sum(m)[0]


def _weights(mixture, side):
    return np.array([mixture[side].get(n, 0.0) for n in FAMILY])


def test_grown_equilibrium_matches_the_exact_one(exact):
    tree, m, value = exact
    start = [parse_tier(GAME, "p1", "cautious")], [parse_tier(GAME, "p2", "cautious")]
    g = grow(GAME, tree, *start, games=2000, seed=1, epsilon=EPS, rounds=6, budget=15,
             families={"p1": ["threshold", "bold"], "p2": ["threshold", "bold"]})
    assert g.converged and len(g.rows) > 1 and len(g.cols) > 1  # it grew, then stopped by itself
    x, y = _weights(g.mixture, "p1"), _weights(g.mixture, "p2")
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)  # every member is in the family
    v = float(x @ m @ y)
    se = (g.ci_high - g.ci_low) / (2 * 1.959963984540054)
    assert abs(g.value - v) < 4 * se, (g.value, v, se)              # the reported value measures the mixtures
    # exact exploitability of the grown mixtures over the whole family: small, and so the
    # family's exact value is close (value lies between the two best responses' rates)
    gain_p1, gain_p2 = float((m @ y).max() - v), float(v - (x @ m).min())
    assert gain_p1 < 2 * EPS and gain_p2 < 2 * EPS, (gain_p1, gain_p2)
    assert abs(g.value - value) < 2 * EPS + 4 * se, (g.value, value)
    # the certificate measures its best response's exact gain
    for side, r in g.certificate.items():
        i = FAMILY.index(r.tier.label)
        exact_gain = float(m[i] @ y - v) if side == "p1" else float(v - x @ m[:, i])
        half = (r.ci_high - r.ci_low) / 2
        assert r.ci_low - half <= exact_gain <= r.ci_high + half, (side, r, exact_gain)


def test_grow_is_deterministic_for_any_thread_count():
    tree = GAME.build(sets=SETS)
    start = [parse_tier(GAME, "p1", "bold")], [parse_tier(GAME, "p2", "cautious")]
    kw = dict(games=500, seed=4, rounds=2, budget=4, families={"p1": ["threshold"], "p2": ["threshold"]})
    a = grow(GAME, tree, *start, threads=1, **kw).to_json()
    b = grow(GAME, tree, *start, threads=2, **kw).to_json()
    assert a == b


def test_grow_cli_json_and_bad_input():
    r = CliRunner().invoke(app, ["equilibrium", "race", "--grow", "--tiers", "p1=bold", "--tiers", "p2=cautious",
                                 "--games", "500", "--rounds", "1", "--budget", "3", "--family", "p2=threshold",
                                 "--json", *[x for s in SETS for x in ("--set", s)]])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d) >= {"value", "ci_low", "ci_high", "mixture", "knobs", "certificate", "rounds", "converged"}
    assert set(d["certificate"]) == {"p1", "p2"} and all("ci_high" in c for c in d["certificate"].values())
    assert all(isinstance(k, dict) for k in d["knobs"]["p2"].values())
    for args, msg in ((["--rounds", "0"], "--rounds"), (["--family", "p3=bold"], "SIDE=NAME"),
                      (["--family", "p1=nosuch"], "not a p1 strategy"), (["--budget", "0"], "--budget")):
        r = CliRunner().invoke(app, ["equilibrium", "race", "--grow", "--games", "200", *args])
        assert r.exit_code == 2 and msg in r.stderr and r.stderr.strip().count("\n") == 0, (args, r.stderr)
    r = CliRunner().invoke(app, ["equilibrium", "race", "--rounds", "3"])
    assert r.exit_code == 2 and "go with --grow" in r.stderr


def test_the_budget_is_part_of_the_answer():
    """A budget that does not exceed a family's one-factor starts searches no knob
    combination: the answer says so (threshold has one knob k, ends −20 and 20: 3 starts)."""
    tree = GAME.build(sets=SETS)
    start = [parse_tier(GAME, "p1", "bold")], [parse_tier(GAME, "p2", "cautious")]
    kw = dict(games=300, seed=4, rounds=1, families={"p1": ["threshold"], "p2": ["threshold"]})
    short = grow(GAME, tree, *start, budget=3, **kw).to_json()
    assert short["search"]["p1"]["threshold"] == {"starts": 3, "budget": 3, "searched": False}
    assert sum("does not exceed its 3 one-factor starts" in n for n in short["notes"]) == 2
    enough = grow(GAME, tree, *start, budget=4, **kw).to_json()
    assert enough["search"]["p2"]["threshold"]["searched"] and not any("starts" in n for n in enough["notes"])


def test_a_family_with_held_knobs_searches_only_the_others():
    """``--family p1=threshold@k=3``: k held, nothing left to search — the family is one
    point, so every p1 candidate is that point or a member of the population."""
    tree = GAME.build(sets=SETS)
    start = [parse_tier(GAME, "p1", "bold")], [parse_tier(GAME, "p2", "cautious")]
    g = grow(GAME, tree, *start, games=300, seed=4, rounds=2, budget=6,
             families={"p1": ["threshold@k=3"], "p2": ["threshold"]})
    p1 = {t.label for t in g.rows} | {g.certificate["p1"].tier.label}
    assert p1 <= {"bold", "threshold@k=3"} and "threshold" not in g.to_json()["search"].get("p1", {})
    assert g.to_json()["search"]["p2"]["threshold"]["starts"] == 3
    for bad in ("threshold@k=99", "threshold@z=1"):
        with pytest.raises(SimInputError):
            grow(GAME, tree, *start, games=100, seed=4, rounds=1, budget=2, families={"p1": [bad]})


def test_a_one_sided_cell_still_has_an_interval():
    """A mixture every game of which one side wins (p = 0 or 1) gets an interval of the
    size a binomial of that many games allows, not width 0."""
    from sim.analysis.grow import _var
    from sim.core.stats import wilson

    for s, n in ((0, 4000), (4000, 4000), (3, 500)):
        half = 1.959963984540054 * math.sqrt(float(_var(s / n, n)))
        lo, hi = wilson(s, n)
        assert 0.5 * (hi - lo) / 2 < half < 2 * (hi - lo) / 2, (s, n, half, lo, hi)
