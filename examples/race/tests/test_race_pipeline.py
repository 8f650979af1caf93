"""A sweep, a report and a balance run of race at tiny sizes, through the CLI."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()
SPECS = Path(__file__).resolve().parents[1] / "specs"

SWEEP = """
game = "race"
name = "tiny"
seed = 1
games = 400
paired = true

[base]
p2 = "threshold"
set = ["p2.k=0"]

[[axes]]
path = "rules.target"
values = [8, 12]

[[axes]]
path = "rules.head_start"
values = [0, 3]

[[axes]]
path = "p1"
values = ["bold", "threshold"]

[[axes]]
path = "p1.k"
values = [-2, 2]
"""


def ok(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, (args, r.stdout, r.stderr, r.exception)
    return r.stdout


def test_sweep_then_report(tmp_path):
    spec = tmp_path / "tiny.toml"
    spec.write_text(SWEEP)
    d = json.loads(ok("sweep", spec, "--out", tmp_path / "out", "--json"))
    assert d["game"] == "race" and d["cells"] == 16 and d["metric"] == "win_rate"
    rows = d["rows"]
    assert {r["rules.target"] for r in rows} == {8, 12} and {r["p1.k"] for r in rows} == {-2, 2}
    assert all(r["games"] == 400 for r in rows)
    # k changes nothing for bold, and on paired streams the cells are then identical
    bold = {(r["rules.target"], r["rules.head_start"], r["p1.k"]): r["successes"] for r in rows if r["p1"] == "bold"}
    assert all(bold[(t, h, -2)] == bold[(t, h, 2)] for t in (8, 12) for h in (0, 3))
    rep = json.loads(ok("report", tmp_path / "out" / "game=race" / "sweep=tiny", "--out", tmp_path / "rep",
                        "--json"))
    files = {Path(f["file"]).name for f in rep["figures"]}
    assert {"rate_0.png", "heatmap_0.png", "tornado.png", "causes.png", "length.png"} <= files
    assert (tmp_path / "rep" / "index.html").read_text().count("<figure>") == len(files)


def test_run_out_then_report(tmp_path):
    ok("race", "run", "--games", "3000", "--seed", "2", "--p1", "threshold", "--set", "p1.k=2",
       "--out", tmp_path / "run")
    rep = json.loads(ok("report", tmp_path / "run", "--out", tmp_path / "rep", "--json"))
    assert {Path(f["file"]).name for f in rep["figures"]} == {"causes.png", "length.png"}
    assert "race" in (tmp_path / "rep" / "index.html").read_text()


def test_balance_head_start(tmp_path):
    d = json.loads(ok("balance", SPECS / "race_fair.toml", "--out", tmp_path / "bal",
                      "--json"))
    assert d["game"] == "race" and d["metric"] == "win_rate"
    assert d["settings"] == {"rules.head_start": 3} and d["hit"]  # exact: 0.4969 (head start 3)
    assert (tmp_path / "bal" / "trace.parquet").is_file()


def test_example_sweep_spec_compiles():
    d = json.loads(ok("sweep", SPECS / "race_sweep.toml", "--dry-run", "--json"))
    assert d["game"] == "race" and d["cells"] == 81


def test_bad_sweep_axis(tmp_path):
    spec = tmp_path / "bad.toml"
    spec.write_text(SWEEP.replace("values = [-2, 2]", "values = [-2, 25]"))
    r = runner.invoke(app, ["sweep", str(spec), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith("error: cell") and "p1.k" in r.stderr and len(r.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_oracles_are_labelled_in_sweeps_runs_and_reports(tmp_path):
    spec = tmp_path / "o.toml"
    spec.write_text(SWEEP.replace('values = ["bold", "threshold"]',
                                  'values = ["bold", "race_plugins:oracle_bold_nb"]'))
    d = json.loads(ok("sweep", spec, "--out", tmp_path / "out", "--json"))
    assert {r["oracles"] for r in d["rows"]} == {"", "p1=race_plugins:oracle_bold_nb"}
    ok("report", tmp_path / "out" / "game=race" / "sweep=tiny", "--out", tmp_path / "rep")
    assert "ORACLE strategies: p1=race_plugins:oracle_bold_nb" in (tmp_path / "rep" / "index.html").read_text()
    ok("race", "run", "--games", "500", "--p1", "race_plugins:oracle_bold_nb", "--out", tmp_path / "run")
    man = json.loads((tmp_path / "run" / "_manifest.json").read_text())
    assert man["oracles"] == {"p1": "race_plugins:oracle_bold_nb"}
    ok("report", tmp_path / "run", "--out", tmp_path / "rep2")
    assert "ORACLE" in (tmp_path / "rep2" / "index.html").read_text()
    # honest runs say nothing of oracles
    ok("race", "run", "--games", "500", "--out", tmp_path / "run3")
    assert "oracles" not in json.loads((tmp_path / "run3" / "_manifest.json").read_text())
