"""``sim equilibrium --grow`` and ``sim balance --adapt`` on every shipped game through the
Game protocol (issue 40; the race checks them against exact values in
examples/race/tests/). Small budgets: these check what holds at any budget —

* the reported value measures the final mixtures: it agrees, within the noise, with the
  same mixtures' value computed from a matrix played on other streams (``measure``, the
  ladder's code path, not grow's);
* every certificate's gain is the difference it claims (its candidate's rate against the
  other side's mixture minus the side's own mixture's rate, from the same independent
  matrix, within the noise), and its candidate belongs to the side's families;
* the same seed gives the same answer with 1 or 2 threads;
* ``--adapt`` evaluates every setting and reports the grown equilibrium's value there.
"""
import math

import numpy as np
import pytest

from sim.analysis.balance import parse_balance
from sim.analysis.balance_adapt import adapted_balance
from sim.analysis.grow import grow
from sim.analysis.metagame import measure, parse_tier
from sim.core.game import get

CASES = {
    "werewolf": dict(sets=[], opts={}, rows=["claims"], cols=["claims"], fam={"village": ["trusting"]},
                     param=("roles.fenrir.drag", [0, 3])),
    "trpg": dict(sets=[], opts={"scenario": "alley"}, rows=["sheet"], cols=["sheet"], fam={},
                 param=("characters.shade.hp", [12, 40])),
    "looper": dict(sets=[], opts={}, rows=["cautious"], cols=["random"], fam={"player": ["random"]},
                   param=("rules.max_loops", [2, 4])),
}
Z = 1.959963984540054


def _setup(name):
    game = get(name)
    c = CASES[name]
    tree = game.build(sets=c["sets"], **c["opts"])
    sides = game.sides_of(game.compile(tree))
    a, b = sides[0], sides[1]
    return game, tree, a, b, [parse_tier(game, a, t) for t in c["rows"]], [parse_tier(game, b, t) for t in c["cols"]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_grown_value_and_certificate_hold_on_independent_games(name):
    game, tree, a, b, rows, cols = _setup(name)
    kw = dict(games=300, seed=5, rounds=2, budget=3, epsilon=0.01, families=CASES[name]["fam"])
    g = grow(game, tree, rows, cols, threads=2, **kw)
    assert g.to_json() == grow(game, tree, rows, cols, threads=1, **kw).to_json()  # any thread count
    x = np.array([g.mixture[a].get(t.label, 0.0) for t in g.rows])
    y = np.array([g.mixture[b].get(t.label, 0.0) for t in g.cols])
    assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
    # an independent matrix of the final population and both certificates' candidates
    rr = list(dict.fromkeys([*g.rows, g.certificate[a].tier]))
    cc = list(dict.fromkeys([*g.cols, g.certificate[b].tier]))
    n = 2000
    m = measure(game, tree, rr, cc, n, 77, (9, 9))
    p = m.successes / m.games
    xx = np.array([x[g.rows.index(t)] if t in g.rows else 0.0 for t in rr])
    yy = np.array([y[g.cols.index(t)] if t in g.cols else 0.0 for t in cc])
    v = float(xx @ p @ yy)
    se = math.sqrt(float(((np.outer(xx, yy) ** 2) * p * (1 - p) / n).sum()) + ((g.ci_high - g.ci_low) / (2 * Z)) ** 2)
    assert abs(g.value - v) < 4.5 * max(se, 1e-3), (g.value, v, se)
    for side, r in g.certificate.items():
        assert r.tier.name in {t.name for t in (g.rows if side == a else g.cols)} | set(CASES[name]["fam"].get(side, []))
        if side == a:
            i = rr.index(r.tier)
            gain = float(p[i] @ yy - xx @ p @ yy)
        else:
            j = cc.index(r.tier)
            gain = float(xx @ p @ yy - xx @ p[:, j])
        half = (r.ci_high - r.ci_low) / 2
        assert r.ci_low - half - 4 / math.sqrt(n) <= gain <= r.ci_high + half + 4 / math.sqrt(n), (side, r, gain)


@pytest.mark.parametrize("name", sorted(CASES))
def test_adapted_balance_evaluates_every_setting_at_equilibrium(name):
    c = CASES[name]
    game, tree, a, b, rows, cols = _setup(name)
    path, values = c["param"]
    # the TRPG's strategies live in its scenario's sheets (its default tiers: sheet vs sheet)
    base = ({"scenario": f"{c['opts']['scenario']}.toml"} if "scenario" in c["opts"] else
            {a: c["rows"][0], b: c["cols"][0]})
    spec = parse_balance({"game": name, "seed": 2, "target": 0.5, "tolerance": 0.2, "max_games": 400_000,
                          "base": base, "params": [{"path": path, "values": values}],
                          "adapt": {"rounds": 1, "budget": 2, "games": 300, **({"families": c["fam"]} if c["fam"]
                                                                                else {})}})
    res, fixed, at_eq = adapted_balance(spec)
    seen = set(res.trace[path].to_list())
    assert seen == set(values)  # both ends are evaluated by the bisection
    assert res.point[path] in values and 0 <= res.ci_low <= res.rate <= res.ci_high <= 1
    assert "exploitability" in res.trace.columns and res.trace["exploitability"].drop_nulls().len() == res.trace.height
    assert at_eq["point"] == fixed.point and at_eq["ci_low"] <= at_eq["value"] <= at_eq["ci_high"]
