"""``sim race …`` through the CLI: JSON keys, strategies, exact, and bad input (exit 2, one
``error:`` line on stderr, nothing on stdout)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.game import games

runner = CliRunner()


def ok(*args):
    r = runner.invoke(app, list(args))
    assert r.exit_code == 0, (args, r.stdout, r.stderr, r.exception)
    return r.stdout


def test_registered_through_the_entry_point():
    from sim.core.game import entry_points

    assert entry_points().get("race") == "sim_race.protocol:GAME"
    assert games()["race"].name == "race"


def test_run_json_keys():
    d = json.loads(ok("race", "run", "--games", "5000", "--seed", "3", "--p1", "bold", "--p2", "threshold",
                      "--set", "p2.k=-3", "--json"))
    assert {"games", "win_rate", "ci_low", "ci_high"} <= set(d)
    assert d["games"] == 5000 and d["ci_low"] <= d["win_rate"] <= d["ci_high"]
    assert d["p1"] == "bold" and d["p2"] == "threshold" and d["p2_k"] == -3
    assert [p["side"] for p in d["players"]] == ["p1", "p2"]
    again = json.loads(ok("race", "run", "--games", "5000", "--seed", "3", "--p1", "bold", "--p2", "threshold",
                          "--set", "p2.k=-3", "--json", "--threads", "1"))
    assert again["p1_wins"] == d["p1_wins"]


def test_run_text_and_out(tmp_path):
    text = ok("race", "run", "--games", "2000", "--seed", "1", "--out", str(tmp_path / "run"))
    assert "player 1 win rate" in text
    assert (tmp_path / "run" / "summary.parquet").is_file()


def test_strategies_and_exact():
    text = ok("race", "strategies")
    for side in ("p1", "p2"):
        for name in ("cautious", "bold", "threshold", "random"):
            assert any(line.split()[:2] == [side, name] for line in text.splitlines()), (side, name)
    d = json.loads(ok("race", "exact", "--p1", "threshold", "--p2", "threshold", "--set", "rules.head_start=3",
                      "--json"))
    assert d["win_rate"] == pytest.approx(0.4969, abs=1e-4)


def test_no_loo():
    r = runner.invoke(app, ["race", "loo"])
    assert r.exit_code == 2


BAD = [
    ["race", "run", "--games", "10", "--p1", "reckless"],
    ["race", "run", "--games", "10", "--p2", "nosuchmodule:thing"],
    ["race", "run", "--games", "10", "--p1", "os:getcwd"],
    ["race", "run", "--games", "10", "--set", "p1.k=21"],
    ["race", "run", "--games", "10", "--set", "p2.k=-21"],
    ["race", "run", "--games", "10", "--set", "p1.k=0.5"],
    ["race", "run", "--games", "10", "--set", "rules.target=0"],
    ["race", "run", "--games", "10", "--set", "rules.target=-4"],
    ["race", "run", "--games", "10", "--set", "rules.target=twenty"],
    ["race", "run", "--games", "10", "--set", "rules.target=1000000"],
    ["race", "run", "--games", "10", "--set", "rules.head_start=20"],
    ["race", "run", "--games", "10", "--set", "rules.head_start=-1"],
    ["race", "run", "--games", "10", "--set", "rules.bust_face=0"],
    ["race", "run", "--games", "10", "--set", "rules.taget=3"],
    ["race", "run", "--games", "10", "--set", "p3.k=1"],
    ["race", "run", "--games", "0"],
    ["race", "exact", "--set", "rules.target=100000"],
    ["race", "exact", "--p1", "reckless"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a[2:]) for a in BAD])
def test_bad_input_is_one_error_line(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, args)
    assert r.exit_code == 2, (args, r.exit_code, r.stdout, r.stderr, r.exception)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert list(tmp_path.iterdir()) == []


def test_python_m_sim_subprocess():
    """The installed command line as a user runs it (a fresh process finds the entry point)."""
    r = subprocess.run([sys.executable, "-m", "sim", "race", "run", "--games", "1000", "--seed", "1", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert {"games", "win_rate", "ci_low", "ci_high"} <= set(json.loads(r.stdout))
    r = subprocess.run([sys.executable, "-m", "sim", "race", "run", "--games", "10", "--set", "p1.k=99"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.startswith("error: p1.k") and r.stderr.count("\n") == 1
