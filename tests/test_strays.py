"""Strays of issue 39, each against a hostile or careless user: ``--config`` twice merges in
order (the later wins, the header says so), an empty config is a warning, a UTF-8 BOM is
accepted, ``werewolf exact`` answers for the table ``run`` plays, Ctrl-C is one line and 130.
(Duplicate sweep axis values are cases of tests/test_hostile_inputs.py.)"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
RUN = ("werewolf", "run", "--games", "3000", "--seed", "4", "--json")


def _run(*args):
    r = runner.invoke(app, [*RUN, *map(str, args)])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), r.stderr


def test_config_twice_merges_in_order(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("[roles.fenrir]\ndrag = 0\n[variants]\nmax_runoffs = 3\n")
    b.write_text("[roles.fenrir]\ndrag = 1\n")
    merged, _ = _run("--config", a, "--config", b)
    by_hand, _ = _run("--set", "roles.fenrir.drag=1", "--set", "variants.max_runoffs=3")
    assert merged["village_wins"] == by_hand["village_wins"]           # b's drag wins, a's runoffs stay
    flipped, _ = _run("--config", b, "--config", a)
    assert flipped["village_wins"] == _run("--set", "roles.fenrir.drag=0", "--set",
                                           "variants.max_runoffs=3")[0]["village_wins"]
    assert f"config {a} then {b} (merged in order: a later file wins)" in merged["settings"]
    assert merged["settings"] != flipped["settings"] != by_hand["settings"]


def test_empty_config_is_a_warning(tmp_path):
    e = tmp_path / "empty.toml"
    e.write_text("# only a comment\n")
    got, err = _run("--config", e)
    assert err.strip().splitlines() == [f"warning: {e} is empty (no keys): it changes nothing"]
    assert got["village_wins"] == _run()[0]["village_wins"]


def test_bom_is_accepted(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf[roles.fenrir]\ndrag = 1\n")
    got, err = _run("--config", p)
    assert not err and got["village_wins"] == _run("--set", "roles.fenrir.drag=1")[0]["village_wins"]


def test_exact_defaults_to_the_table_run_plays():
    r = runner.invoke(app, ["werewolf", "exact", "--json"])
    assert r.exit_code == 0, r.output
    exact = json.loads(r.stdout)
    run = json.loads(runner.invoke(app, ["werewolf", "run", "--games", "40000", "--seed", "1", "--json"]).stdout)
    assert exact["composition"] == run["composition"]
    assert run["ci_low"] <= exact["village_win"] <= run["ci_high"]


def test_ctrl_c_is_one_line_and_130(tmp_path):
    out = tmp_path / "o"
    cmd = [sys.executable, "-m", "sim", "race", "run", "--games", "900000000", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "SIM_THREADS": "2"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and not list(tmp_path.glob(".o.sim-tmp-*")):
        time.sleep(0.02)                       # the output directory is claimed: the command is running
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    stdout, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: nothing was written") and "again" in lines[0]
    assert not out.exists() and not list(tmp_path.glob(".o.sim-tmp-*"))
