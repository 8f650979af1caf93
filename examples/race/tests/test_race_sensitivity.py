"""sim sensitivity end to end on the race: a knob the strategy ignores has index 0."""
import json
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()
SPEC = Path(__file__).resolve().parents[3] / "examples" / "sensitivity" / "race_sens.toml"


def test_sensitivity_cli_resume_and_report(tmp_path):
    args = ["sensitivity", str(SPEC), "--out", str(tmp_path / "s"), "--games", "1500", "--json"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    rows = {x["param"]: x for x in d["indices"]}
    # bold never reads p1.k: every point differing only in k plays the same games (paired)
    assert rows["p1.k"]["mu_star"] == 0 and rows["p1.k"]["ST"] == 0
    # the head start moves player 1's rate more than anything else
    assert rows["rules.head_start"]["mu_star"] > rows["rules.target"]["mu_star"]
    assert d["games"] == 1500 * (10 * 4 + 32 * 5)
    again = json.loads(runner.invoke(app, args).stdout)
    assert again["games"] == 0 and again["indices"] == d["indices"]  # resumed: nothing replayed
    r = runner.invoke(app, ["report", str(tmp_path / "s" / "game=race" / "sensitivity=race-sens"), "--out",
                            str(tmp_path / "rep"), "--json"])
    assert r.exit_code == 0, r.stderr
    assert [Path(f["file"]).name for f in json.loads(r.stdout)["figures"]] == ["sensitivity.png"]


def test_sensitivity_refuses_a_foreign_out(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "mine.txt").write_text("keep")
    r = runner.invoke(app, ["sensitivity", str(SPEC), "--out", str(tmp_path / "x"), "--games", "100"])
    assert r.exit_code == 2 and "mine.txt" in r.stderr
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["mine.txt"]
