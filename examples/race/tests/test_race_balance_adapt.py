"""``sim balance --adapt`` on the race: each head start's value is its grown equilibrium's,
checked against the exact equilibrium of the threshold family at that head start
(sim_race.exact + linear programming, independent of the kernels and of the search)."""
import json
from functools import lru_cache

import numpy as np
from typer.testing import CliRunner

from sim.analysis.balance import parse_balance
from sim.analysis.balance_adapt import adapted_balance
from sim.analysis.metagame import _cell, parse_tier, solve_zero_sum
from sim.cli import app
from sim.core.game import get
from sim_race.exact import exact_for

GAME = get("race")
FAMILY = ["bold"] + [f"threshold@k={k}" for k in range(-20, 21)]
SPEC = {"game": "race", "seed": 1, "target": 0.5, "tolerance": 0.02,
        "base": {"p1": "threshold", "p2": "threshold", "set": ["rules.target=12"]},
        "params": [{"path": "rules.head_start", "low": 0, "high": 6}],
        "adapt": {"families": {"p1": ["bold"], "p2": ["bold"]}, "rounds": 4, "budget": 10, "games": 1000}}


@lru_cache(maxsize=None)
def exact_equilibrium(head: int) -> float:
    tree = GAME.build(sets=["rules.target=12", f"rules.head_start={head}"])
    rows = [parse_tier(GAME, "p1", n) for n in FAMILY]
    cols = [parse_tier(GAME, "p2", n) for n in FAMILY]

    def one(a, b):
        setup, st = _cell(GAME, tree, a, b)[1]
        return exact_for(setup, st["p1"], st["p2"])

    return solve_zero_sum(np.array([[one(a, b) for b in cols] for a in rows]))[0]


def test_adapted_balance_lands_where_the_exact_equilibrium_does():
    res, fixed, at_eq = adapted_balance(parse_balance(SPEC))
    h = res.point["rules.head_start"]
    near = {k: abs(exact_equilibrium(k) - 0.5) for k in (h - 1, h, h + 1) if 0 <= k <= 6}
    assert near[h] <= min(near.values()) + 0.02, (h, near)  # the closest setting at equilibrium, within noise
    se = (res.ci_high - res.ci_low) / (2 * 1.959963984540054)
    assert abs(res.rate - exact_equilibrium(h)) < 0.02 + 4 * se, (res.rate, exact_equilibrium(h))
    f = fixed.point["rules.head_start"]
    se = (at_eq["ci_high"] - at_eq["ci_low"]) / (2 * 1.959963984540054)
    assert abs(at_eq["value"] - exact_equilibrium(f)) < 0.02 + 4 * se  # the fixed pick, measured at equilibrium
    assert at_eq["off_target"] == at_eq["value"] - 0.5


def test_adapt_cli_json_and_bad_adapt_table(tmp_path):

    spec = tmp_path / "fair.toml"
    spec.write_text('game = "race"\nseed = 2\ntarget = 0.5\ntolerance = 0.03\nmax_games = 400000\n'
                    '[base]\np1 = "threshold"\np2 = "threshold"\nset = ["rules.target=10"]\n'
                    '[[params]]\npath = "rules.head_start"\nlow = 0\nhigh = 4\n'
                    '[adapt]\nrounds = 2\nbudget = 4\ngames = 500\n')
    r = CliRunner().invoke(app, ["balance", str(spec), "--adapt", "--json", "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d) >= {"adapted", "fixed", "fixed_at_equilibrium"}
    assert d["fixed_at_equilibrium"]["point"] == d["fixed"]["settings"]
    import polars as pl

    trace = pl.read_parquet(tmp_path / "o" / "trace.parquet")
    assert set(trace["search"]) == {"adapted", "fixed"} and trace["exploitability"].drop_nulls().len() > 0
    spec.write_text(spec.read_text().replace("rounds = 2", "rounds = 0"))
    r = CliRunner().invoke(app, ["balance", str(spec), "--adapt", "--out", str(tmp_path / "o2")])
    assert r.exit_code == 2 and "adapt.rounds" in r.stderr
    spec.write_text(spec.read_text().replace("rounds = 0", "roundz = 2"))
    r = CliRunner().invoke(app, ["balance", str(spec), "--adapt", "--out", str(tmp_path / "o3")])
    assert r.exit_code == 2 and "rounds" in r.stderr
