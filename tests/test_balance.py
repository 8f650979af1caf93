"""`sim balance`: the search finds what the exact TRPG duel solver says, and bad specs exit 2.

A target is a band (``--target 0.45:0.55``; one rate means ±2 points): a setting hits when
its whole 95% CI lies in the band, and every measured setting is reported with its
distance to the band in points (with CI) and its verdict.

The duel x (14 HP) against y (HP swept) with knives and no reactions is solved exactly by
``duel_exact``; its win rate falls by ≥ 3 points per HP of y near the targets used here,
more than twice the tolerance, so the right integer is unambiguous.
"""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.trpg.exact import duel_exact
from sim.trpg.sheets import resolve_setup

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

DUEL = """
[scenario]
name = "duel"
sides = ["a", "b"]
first = "a"
[characters.x]
side = "a"
position = 0
hp = 14
skills = { melee = 11, dodge = 10 }
weapons = ["knife"]
strategy = { reaction = "none" }
[characters.y]
side = "b"
position = 0
hp = 10
skills = { melee = 11, dodge = 10 }
weapons = ["knife"]
strategy = { reaction = "none" }
"""


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def duel(tmp_path):
    (tmp_path / "duel.toml").write_text(DUEL)
    return tmp_path


def exact(duel_dir, hp) -> float:
    return duel_exact(resolve_setup(duel_dir / "duel.toml", [f"characters.y.hp={hp}"]))["win_rate"]["a"]


def spec(duel_dir, target, low=6, high=30, tol=0.01, extra="") -> Path:
    p = duel_dir / "bal.toml"
    p.write_text(f"""game = "trpg"\nseed = 4\ntarget = {target}\ntolerance = {tol}\n{extra}
[base]\nscenario = "duel.toml"\n[[params]]\npath = "characters.y.hp"\nlow = {low}\nhigh = {high}\n""")
    return p


def test_finds_the_setting_the_exact_solver_gives(duel):
    target = exact(duel, 17)
    assert abs(exact(duel, 16) - target) > 0.03 and abs(exact(duel, 18) - target) > 0.03
    r = invoke("balance", spec(duel, target), "--out", duel / "o", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["settings"] == {"characters.y.hp": 17} and d["hit"]
    assert d["target"] == pytest.approx({"low": target - 0.02, "high": target + 0.02})  # one rate: ±2 points
    assert target - 0.02 <= d["ci_low"] and d["ci_high"] <= target + 0.02
    assert d["verdict"]["status"] == "in band" and d["verdict"]["text"].startswith("in band")
    trace = pl.read_parquet(duel / "o" / "trace.parquet")
    assert trace.height == d["evaluations"] and trace["games"].max() == d["games"]
    # bisection: far fewer points than the 25 in the range
    assert trace["characters.y.hp"].n_unique() <= 8
    assert d["games_used"] < 25 * d["games"]


def test_between_two_integers_it_reports_the_closer_neighbour(duel):
    lo_hp = max(h for h in range(6, 31) if exact(duel, h) > 0.5)
    r = invoke("balance", spec(duel, 0.5), "--out", duel / "o", "--json")
    d = json.loads(r.stdout)
    hp = d["settings"]["characters.y.hp"]
    assert hp in (lo_hp, lo_hp + 1)
    best = min((lo_hp, lo_hp + 1), key=lambda h: abs(exact(duel, h) - 0.5))
    assert hp == best or abs(abs(exact(duel, hp) - 0.5) - abs(exact(duel, best) - 0.5)) < 0.01
    if not d["hit"]:
        assert "neighbours" in d["note"]


def test_unreachable_target_says_so(duel):
    r = invoke("balance", spec(duel, 0.99, low=8, high=30), "--out", duel / "o", "--json")
    d = json.loads(r.stdout)
    assert not d["hit"] and "outside the range" in d["note"]
    assert d["settings"] == {"characters.y.hp": 8}


def test_two_parameters_hit_and_an_independent_run_agrees(tmp_path):
    from sim.werewolf.game import run

    r = invoke("balance", ROOT / "examples" / "balance" / "werewolf_two_knobs.toml", "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["hit"], d
    s = d["settings"]
    roles = f"werewolf*2,seer,paladin,villager*{s['count.villager']}"
    check = run(40000, 999, village="trusting", wolves="trusting", roles=roles,
                sets=[f"roles.paladin.protect_count={s['roles.paladin.protect_count']}"]).summary.row(0, named=True)
    se = (0.75 * 0.25 / 40000) ** 0.5
    # the band of target = 0.75 (0.73-0.77) and 4 SE: a setting 2.2 points outside the band
    # fails 9 times in 10 (detectable_effect(40000, 0.75), tests/power.py)
    assert 0.73 - 4 * se <= check["village_win_rate"] <= 0.77 + 4 * se  # the band of target = 0.75


BAD = [  # each with a target (a spec needs one), so that the error is the one named
    ("game = 'trpg'\ntarget = 0.5\n[base]\nscenario = 'duel.toml'", "params"),
    ("game = 'trpg'\ntarget = 0.5\n[base]\nscenario = 'duel.toml'\n[[params]]\npath = 'characters.y.hp'\nlow = 9\n"
     "high = 3", "empty range"),
    ("game = 'trpg'\ntarget = 0.5\n[base]\nscenario = 'duel.toml'\n[[params]]\npath = 'characters.z.hp'\nlow = 1\n"
     "high = 3", "unknown parameter path"),
    ("game = 'trpg'\ntarget = 0.5\n[base]\nscenario = 'duel.toml'\n[[params]]\npath = 'characters.y.hp'\nlow = -5\n"
     "high = 3", "characters.y.hp"),
    ("game = 'trpg'\ntarget = 1.5\n[base]\nscenario = 'duel.toml'\n[[params]]\npath = 'characters.y.hp'\nlow = 1\nhigh = 3",
     "target"),
    ("game = 'trpg'\n[base]\nscenario = 'duel.toml'\n[[params]]\npath = 'characters.y.hp'\nlow = 1\nhigh = 3",
     "target: missing"),
    ("game = 'werewolf'\ntarget = 0.3\n[[params]]\npath = 'count.seer'\nvalues = [1]", "at least two"),
]


@pytest.mark.parametrize("text, match", BAD)
def test_bad_balance_specs_exit_2(duel, text, match):
    p = duel / "bad.toml"
    p.write_text(text)
    r = invoke("balance", p, "--out", duel / "never")
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and match in err[0], r.stderr
    assert not (duel / "never").exists()


# ----------------------------------------------------------------------------- the search itself
from sim.core.game import Game  # noqa: E402


class _Fake(Game):
    """A stand-in game whose rate is a known function of the parameters (successes are
    the rounded expected count), to test the search logic without sampling noise."""

    metric = "rate"

    def __init__(self, f):
        self.f = f

    def base_cell(self, base, spec_dir):
        return {}

    def assign(self, cell, path, value):
        cell[path] = value

    def compile_cell(self, cell):
        return dict(cell)

    def player(self, compiled, seed, spawn):
        from types import SimpleNamespace

        p = self.f(**{k.replace(".", "_"): v for k, v in compiled.items()})

        def play(start, games, **kw):
            made = round(p * (start + games)) - round(p * start)
            return SimpleNamespace(totals={"s": made, "g": games})
        return play

    def primary(self, totals):
        return totals["s"], totals["g"]


def _spec(f, params, target, tol=0.01):
    from sim.analysis.balance import BalanceSpec, Param
    from sim.core.target import parse_target

    return BalanceSpec("fake", 0, parse_target(str(target)), tol, 10_000_000, 2000, {}, [Param(**p) for p in params],
                       ROOT, {}, _Fake(f))


def test_float_bisection_converges_on_the_root():
    from sim.analysis.balance import balance

    res = balance(_spec(lambda x: x / 10, [{"path": "x", "low": 0.0, "high": 10.0}], 0.37))
    assert res.hit and abs(res.point["x"] - 3.7) <= 0.15
    assert res.trace["x"].n_unique() < 20


def test_integer_bisection_picks_the_closer_neighbour_and_orders_lists():
    from sim.analysis.balance import balance

    res = balance(_spec(lambda n: 1 / (1 + n), [{"path": "n", "low": 0, "high": 40}], 0.1))
    assert res.point == {"n": 9} and res.hit  # 1/10 exactly
    res = balance(_spec(lambda n: 1 / (1 + n), [{"path": "n", "low": 0, "high": 40}], "0.104:0.106", tol=0.002))
    assert res.point == {"n": 9} and not res.hit and "neighbours" in res.note  # 0.1 and 0.111: neither in band
    res = balance(_spec(lambda n: 1 / (1 + n), [{"path": "n", "low": 0, "high": 40}], 0.093))
    assert res.point == {"n": 10} and res.hit  # 10 (0.0909) beats 9 (0.1): both in band, 10 nearer its centre
    res = balance(_spec(lambda w: {"a": 0.2, "b": 0.45, "c": 0.7}[w], [{"path": "w", "values": ["a", "b", "c"]}], 0.45))
    assert res.point == {"w": "b"} and res.hit


def test_two_parameters_find_the_ridge():
    from sim.analysis.balance import balance

    res = balance(_spec(lambda x, y: (x + 2 * y) / 30, [{"path": "x", "low": 0.0, "high": 10.0},
                                                        {"path": "y", "low": 0.0, "high": 10.0}], 0.5))
    assert res.hit and abs((res.point["x"] + 2 * res.point["y"]) / 30 - 0.5) <= 0.02
    res = balance(_spec(lambda a, b: (a * b) / 100, [{"path": "a", "low": 1, "high": 10},
                                                     {"path": "b", "low": 1, "high": 10}], 0.42))
    assert res.hit and res.point["a"] * res.point["b"] == 42


def test_small_integer_spaces_are_searched_within_each_parameters_own_range():
    """Regression: every candidate of a full integer grid lies in its own parameter's range."""
    from sim.analysis.balance import Evaluator, _candidates, parse_balance

    sp = parse_balance({"game": "werewolf", "seed": 1, "target": 0.25, "tolerance": 0.01,
                        "params": [{"path": "roles.fenrir.drag", "low": 0, "high": 3},
                                   {"path": "count.villager", "low": 3, "high": 12}]})
    cands = _candidates(sp, Evaluator(sp), 16)
    assert len(cands) == 40
    assert {c["roles.fenrir.drag"] for c in cands} == {0, 1, 2, 3}
    assert {c["count.villager"] for c in cands} == set(range(3, 13))


def test_band_target_reports_every_setting_with_its_distance_and_verdict(duel):
    """``--target LOW:HIGH`` overrides the spec's; each measured setting is listed once with
    its distance to the band (0 inside, + above, − below; the CI's ends give the distance's
    CI) and its verdict, computed here from its rate and CI alone."""
    lo_b, hi_b = exact(duel, 19) - 0.015, exact(duel, 17) + 0.015  # the band holds hp 17, 18 and 19
    r = invoke("balance", spec(duel, 0.5), "--target", f"{lo_b}:{hi_b}", "--out", duel / "o", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["target"] == pytest.approx({"low": lo_b, "high": hi_b})
    assert d["hit"] and d["settings"]["characters.y.hp"] in (17, 18, 19)

    def dist(x):
        return 100 * (x - hi_b if x > hi_b else x - lo_b if x < lo_b else 0.0)

    cands = d["candidates"]
    hps = [c["characters.y.hp"] for c in cands]
    assert len(hps) == len(set(hps)) >= 3
    for c in cands:
        assert c["distance_points"] == pytest.approx(dist(c["rate"]))
        assert (c["distance_ci_low"], c["distance_ci_high"]) == pytest.approx((dist(c["ci_low"]), dist(c["ci_high"])))
        inside = lo_b <= c["ci_low"] and c["ci_high"] <= hi_b
        outside = c["ci_high"] < lo_b or c["ci_low"] > hi_b
        assert c["verdict"] == ("in band" if inside else "out of band" if outside else "not sure"), c
    assert abs(cands[0]["distance_points"]) <= min(abs(c["distance_points"]) for c in cands)
    trace = pl.read_parquet(duel / "o" / "trace.parquet")  # every evaluation, with its distance and verdict
    assert trace["characters.y.hp"].n_unique() == len(cands) and "verdict" in trace.columns
    text = invoke("balance", spec(duel, 0.5), "--target", f"{lo_b}:{hi_b}", "--out", duel / "t")
    assert text.exit_code == 0, text.output
    assert "closest to the band first" in text.output and "verdict: in band" in text.output
    bad = invoke("balance", spec(duel, 0.5), "--target", "0.6:0.4", "--out", duel / "never")
    assert bad.exit_code == 2 and "LOW must be below HIGH" in bad.output
