"""The `sim looper` CLI: happy path, --json, --out, and bad input → exit 2."""
import json

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.analysis.dataset import run_tables
from sim.cli import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, list(args))


def test_run_prints_table():
    r = invoke("looper", "run", "--games", "500", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "player win rate" in r.output
    assert "wins by loop" in r.output
    assert "per key-person choice" in r.output
    assert "killer" in r.output and "rule of" in r.output  # the deaths table: who acted, whose rule (issue 14)


def test_output_to_a_pipe_is_not_cut_at_80_columns(monkeypatch):
    """CliRunner's stdout is no terminal, as a file or a pipe is: the summary line about how
    loops ended stays one line (rich's 80 columns broke it, and cut tables into slivers)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    r = invoke("looper", "run", "--games", "500", "--seed", "1")
    line = next(x for x in r.output.splitlines() if "loops ended by the key person's death" in x)
    assert "mean days per loop" in line and len(line) > 80, line


def test_json_summary_is_consistent():
    r = invoke("looper", "run", "--games", "800", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for k in ("games", "player_wins", "player_win_rate", "ci_low", "ci_high", "games_per_second"):
        assert k in d
    assert d["games"] == 800
    assert d["player_win_rate"] == pytest.approx(d["player_wins"] / 800)
    assert d["ci_low"] <= d["player_win_rate"] <= d["ci_high"]
    assert sum(d["wins_by_loop"]) == d["player_wins"]
    assert sum(k["games"] for k in d["key_person"]) == 800


def test_same_seed_same_json_different_seed_differs():
    a = json.loads(invoke("looper", "run", "--games", "300", "--seed", "4", "--json").stdout)
    b = json.loads(invoke("looper", "run", "--games", "300", "--seed", "4", "--json", "--threads", "1",
                          "--chunk-size", "17").stdout)
    c = json.loads(invoke("looper", "run", "--games", "300", "--seed", "5", "--json").stdout)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("games_per_second", "seconds")}  # noqa: E731
    assert strip(a) == strip(b)
    assert strip(a) != strip(c)


def test_set_changes_the_game():
    # the laid-off man never dies of stress with an unreachable threshold
    base = json.loads(invoke("looper", "run", "--games", "2000", "--seed", "1", "--json").stdout)
    mod = json.loads(invoke("looper", "run", "--games", "2000", "--seed", "1", "--json",
                            "--set", "laid_off_man.threshold=99").stdout)
    killed = lambda d: sum(x["deaths"] for x in d["deaths"]  # noqa: E731
                           if x["character"] == "laid_off_man" and x["rule"] == "die_if_stressed")
    assert killed(base) > 0
    assert killed(mod) == 0


def test_out_writes_parquet_and_manifest(tmp_path):
    out = tmp_path / "res"
    r = invoke("looper", "run", "--games", "400", "--seed", "3", "--out", str(out),
               "--protagonist", "male,loud", "--scriptwriter", "adversarial", "--player", "deducer")
    assert r.exit_code == 0, r.output
    s = pl.read_parquet(out / "summary.parquet")
    assert s["games"][0] == 400 and s["scriptwriter"][0] == "adversarial"
    assert [p.name for p in sorted(out.iterdir())] == ["_manifest.json", "_sim-balance.json", "summary.parquet"]
    tables = run_tables(out)  # the run's tables ride in the summary row, nested
    deaths = tables["deaths"]
    assert set(deaths.columns) >= {"character", "killed_by", "rule", "deaths"}
    kp = tables["key_person"]
    assert kp["games"].sum() == 400
    m = json.loads((out / "_manifest.json").read_text())
    assert m["seed"] == 3 and m["config"]["protagonist"]["attributes"] == ["male", "loud"]
    assert m["player"] == "deducer"


def test_key_person_pinned():
    r = invoke("looper", "run", "--games", "300", "--json", "--key-person", "bully", "--scriptwriter", "adversarial")
    assert r.exit_code == 0, r.output
    kp = json.loads(r.stdout)["key_person"]
    assert [row["key_person"] for row in kp] == ["bully"] and kp[0]["games"] == 300


def test_plugin_player_from_module():
    r = invoke("looper", "run", "--games", "200", "--json", "--player", "tests.plugins.looper_player:stay_home")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["player"] == "tests.plugins.looper_player:stay_home"


def _bad(*args, match):
    r = invoke("looper", "run", "--games", "10", *args)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), r.stderr
    assert match in err[0]
    assert "Traceback" not in r.output


def test_bad_inputs_exit_2(tmp_path):
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[rules\nmax_loops = ")
    _bad("--set", "characters.nobody.location=park", match="unknown parameter path")
    _bad("--set", "characters.cat.location=moon", match="unknown location 'moon'")
    _bad("--set", "bottom_rung_man.other=nobody", match="unknown character 'nobody'")
    _bad("--protagonist", "male,purple", match="unknown attribute 'purple'")
    _bad("--config", str(bad_toml), match="malformed TOML")
    _bad("--config", str(tmp_path / "missing.toml"), match="no such file")
    _bad("--player", "nope", match="unknown player strategy 'nope'")
    _bad("--scriptwriter", "nope.mod:x", match="cannot import")
    _bad("--set", "rules.max_loops=-1", match="rules.max_loops")
    _bad("--set", "rules.permanent_moves=40", match="permanent_moves")
    _bad("--key-person", "protagonist", match="setup.key_person")
    _bad("--key-person", "nobody", match="not a table character")
    r = invoke("looper", "run", "--games", "0")
    assert r.exit_code == 2 and "--games must be a positive integer" in r.stderr


def test_bad_input_writes_no_output(tmp_path):
    out = tmp_path / "never"
    r = invoke("looper", "run", "--games", "10", "--out", str(out), "--set", "cat.amount=lots")
    assert r.exit_code == 2
    assert not out.exists()


def test_strategies_listing():
    r = invoke("looper", "strategies")
    assert r.exit_code == 0
    for name in ("random", "cautious", "deducer", "adversarial"):
        assert name in r.output
