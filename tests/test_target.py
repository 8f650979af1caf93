"""``--target``: a band of the first side's rate and the verdict every analysis ends with;
no target, no verdict (and no word of 50%)."""
import json

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.target import Target, in_band, parse_target, verdict

runner = CliRunner()


def test_parse_band_and_single_value():
    assert parse_target("0.45:0.55") == Target(0.45, 0.55)
    assert parse_target("0.5") == Target(0.48, 0.52)          # one value: ±2 points
    assert parse_target("0.01") == Target(0.0, 0.03)          # clipped to a rate
    assert parse_target(None) is None


@pytest.mark.parametrize("text, match", [("45:55", "fractions of 1"), ("0.6:0.4", "LOW must be below HIGH"),
                                         ("x", "LOW:HIGH"), ("0.1:0.2:0.3", "LOW:HIGH"), ("50", "fractions")])
def test_parse_rejects(text, match):
    from sim.errors import SimInputError

    with pytest.raises(SimInputError, match=match):
        parse_target(text)


def test_verdicts():
    t = Target(0.45, 0.55)
    v = verdict(t, 0.50, 0.49, 0.51, ("village", "wolves"))
    assert v["status"] == "in band" and not v["favoured"]
    v = verdict(t, 0.66, 0.65, 0.67, ("village", "wolves"), "claims vs claims")
    assert v["status"] == "out of band" and v["favoured"] == "village"
    assert v["points"] == pytest.approx(11.0) and v["points_ci_low"] == pytest.approx(10.0)
    assert "village favoured by 11.0 points" in v["text"] and "under claims vs claims" in v["text"]
    v = verdict(t, 0.30, 0.29, 0.31, ("village", "wolves"))
    assert v["favoured"] == "wolves" and v["points"] == pytest.approx(15.0) and v["points_ci_high"] == pytest.approx(16.0)
    v = verdict(t, 0.56, 0.54, 0.58, ("p1", "p2"))
    assert v["status"] == "not sure" and "more games" in v["text"]
    assert in_band(t, 0.5, 0.44, 0.56) == "maybe" and in_band(t, 0.3, 0.2, 0.4) == "no"


def _json(*args):
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_run_verdict_follows_the_interval():
    d = _json("race", "run", "--games", "20000", "--seed", "2", "--json", "--target", "0.45:0.55")
    lo, hi = d["ci_low"], d["ci_high"]
    status = "in band" if 0.45 <= lo and hi <= 0.55 else "out of band" if hi < 0.45 or lo > 0.55 else "not sure"
    assert d["verdict"]["status"] == status and d["target"] == {"low": 0.45, "high": 0.55}
    r = runner.invoke(app, ["race", "run", "--games", "20000", "--seed", "2", "--target", "0.45:0.55"])
    assert r.stdout.rstrip().splitlines()[-1].startswith("verdict: ")


def test_no_target_no_verdict_no_fifty():
    r = runner.invoke(app, ["race", "run", "--games", "2000"])
    assert r.exit_code == 0 and "verdict" not in r.stdout and "50%" not in r.stdout and "0.5 " not in r.stdout
    assert "verdict" not in _json("race", "run", "--games", "2000", "--json")


def test_values_into_band_are_the_rows_in_the_band():
    d = _json("werewolf", "values", "--games", "3000", "--seed", "1", "--json", "--target", "0.25:0.35",
              "--only", "fenrir,accomplice,witch")
    (v,) = d["verdicts"]
    rows = [r for r in d["rows"] if r["change"] != "(none)"]
    assert [m["change"] for m in v["into_band"]] == [r["change"] for r in rows if 0.25 <= r["rate"] <= 0.35]
    base = d["rows"][0]
    assert base["change"] == "(none)" and base["ci_high"] < 0.25          # random play: far below the band
    assert v["verdict"]["status"] == "out of band" and v["verdict"]["favoured"] == "wolves"
    assert v["verdict"]["points"] == pytest.approx(100 * (0.25 - base["rate"]))


def test_loo_verdict():
    d = _json("werewolf", "loo", "--games", "2000", "--seed", "1", "--json", "--target", "0.5")
    assert d["target"] == {"low": 0.48, "high": 0.52} and d["verdict"]["status"] in ("in band", "out of band", "not sure")
    assert all(0.48 <= m["rate"] <= 0.52 for m in d["into_band"])
    assert {r["replaced"] for r in d["rows"] if r["village_win_rate"] is not None
            and 0.48 <= r["village_win_rate"] <= 0.52} == {m["change"] for m in d["into_band"]}


def test_sweep_in_band_cells(tmp_path):
    from pathlib import Path

    spec = Path(__file__).resolve().parents[1] / "examples" / "sweeps" / "werewolf_seer.toml"
    r = runner.invoke(app, ["sweep", str(spec), "--games", "400", "--out", str(tmp_path / "o"), "--json",
                            "--target", "0.1:0.3"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [c["cell"] for c in d["in_band"]] == [x["cell"] for x in d["rows"] if 0.1 <= x["rate"] <= 0.3]
    assert all(c["sure"] == (0.1 <= x["rate_ci_low"] and x["rate_ci_high"] <= 0.3)
               for c in d["in_band"] for x in d["rows"] if x["cell"] == c["cell"])
    r = runner.invoke(app, ["sweep", str(spec), "--games", "400", "--out", str(tmp_path / "o"), "--target", "0.1:0.3"])
    assert r.exit_code == 0 and r.stdout.rstrip().splitlines()[-1].startswith("verdict: ")


def test_ladder_verdict_of_every_pair():
    d = _json("ladder", "race", "--tiers", "p1=bold,cautious", "--tiers", "p2=bold,cautious", "--games", "3000",
              "--json", "--target", "0.45:0.55")
    by = {(c["row"], c["col"]): c for c in d["matrix"]}
    assert len(d["verdicts"]) == len(by) == 4
    for v in d["verdicts"]:
        c = by[(v["row"], v["col"])]
        inside = 0.45 <= c["ci_low"] and c["ci_high"] <= 0.55
        outside = c["ci_high"] < 0.45 or c["ci_low"] > 0.55
        assert v["status"] == ("in band" if inside else "out of band" if outside else "not sure")
        if outside:
            assert v["favoured"] == ("p1" if c["ci_low"] > 0.55 else "p2")
