"""sim sensitivity's estimators on a stand-in with known indices (the Ishigami function)."""
import math

import numpy as np
import pytest

from sim.analysis import sensitivity as S
from sim.errors import SimInputError

A, B = 7.0, 0.1
# Ishigami's analytic variances (Sobol & Levitan 1999)
V = A**2 / 8 + B * math.pi**4 / 5 + B**2 * math.pi**8 / 18 + 0.5
V1 = 0.5 * (1 + B * math.pi**4 / 5) ** 2
V2 = A**2 / 8
V13 = B**2 * math.pi**8 * (1 / 18 - 1 / 50)
S1 = [V1 / V, V2 / V, 0.0]
ST = [(V1 + V13) / V, V2 / V, V13 / V]


def _ishigami(stage, pts):
    x = np.array([[p["x1"], p["x2"], p["x3"]] for p in pts])
    return np.sin(x[:, 0]) + A * np.sin(x[:, 1]) ** 2 + B * x[:, 2] ** 4 * np.sin(x[:, 0])


def _spec(method="both", samples=2048):
    params = [S.Param(f"x{i}", -math.pi, math.pi) for i in (1, 2, 3)]
    return S.SensSpec("race", "ishigami", 5, 1, method, 60, 4, samples, 300, {}, params, {}, None)


def test_sobol_indices_cover_the_analytic_ones():
    t = S.analyse(_spec("sobol"), _ishigami).table()
    for i in range(3):
        r = t.row(i, named=True)
        # the bootstrap 95% CI (widened by 0.02 for the CI's own noise) holds the truth
        assert abs(r["S1"] - S1[i]) <= r["S1_conf"] + 0.02, (i, r["S1"], S1[i], r["S1_conf"])
        assert abs(r["ST"] - ST[i]) <= r["ST_conf"] + 0.02, (i, r["ST"], ST[i], r["ST_conf"])


def test_morris_ranks_and_screens():
    t = S.analyse(_spec("morris"), _ishigami).table()
    mu = dict(zip(t["param"], t["mu_star"]))
    # x3 acts only together with x1: its mean effect mu is ~0 but its mu* and sigma are not
    assert mu["x1"] > 0 and mu["x2"] > 0 and mu["x3"] > 0
    assert "S1" not in t.columns


def test_parameter_values_cover_both_ends():
    p = S.Param("n", 2, 5, integer=True)
    lo, hi = p.bounds
    xs = np.linspace(lo, np.nextafter(hi, -np.inf), 1000)
    assert {p.value(x) for x in xs} == {2, 3, 4, 5}
    q = S.Param("d", values=["1d6", "2d6", "3d6"])
    assert [q.value(x) for x in (0.0, 1.5, 2.999)] == ["1d6", "2d6", "3d6"]


@pytest.mark.parametrize("raw, msg", [
    ({"game": "looper", "params": []}, "at least one"),
    ({"game": "looper", "method": "fast", "params": [{"path": "x", "low": 0, "high": 1}]}, "method"),
    ({"game": "looper", "samples": 30, "params": [{"path": "x", "low": 0, "high": 1}]}, "power of 2"),
    ({"game": "looper", "params": [{"path": "cat.threshold", "low": 3, "high": 1}]}, "low < high"),
    ({"game": "looper", "params": [{"path": "cat.threshold", "low": 1, "high": 3, "values": [1]}]}, "not both"),
    ({"game": "looper", "param": []}, "did you mean 'params'"),
    ({"game": "looper", "params": [{"path": "cat.nosuch", "low": 1, "high": 3}]}, "cat.nosuch"),
])
def test_bad_specs(raw, msg):
    with pytest.raises(SimInputError, match=msg):
        S.parse(raw)


@pytest.mark.parametrize("example", ["werewolf_table", "trpg_alley", "looper_rules"])
def test_every_game_runs_its_example(tmp_path, example):
    import json

    from typer.testing import CliRunner

    from sim.cli import app

    spec = S.Path(__file__).resolve().parents[1] / "examples" / "sensitivity" / f"{example}.toml"
    r = CliRunner().invoke(app, ["sensitivity", str(spec), "--games", "30", "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    want = [p["path"] for p in __import__("tomllib").loads(spec.read_text())["params"]]
    assert [x["param"] for x in d["indices"]] == want
    for x in d["indices"]:
        assert all(math.isfinite(x[k]) for k in ("mu_star", "ST", "S1")) and x["mu_star"] >= 0
