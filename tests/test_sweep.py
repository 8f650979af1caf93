"""`sim sweep` / `sim compare`: specs, cells, datasets, resume, adaptive sampling, pairing."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.stats import wilson
from sim.sweep.dataset import read, sweep_dir
from sim.sweep.run import run_sweep
from sim.sweep.spec import build_cells, cell_spawn, parse_spec
from tests.power import t_variance_band

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "sweeps"
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def write_spec(tmp_path, text, name="spec.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


WW = """
game = "werewolf"
name = "t"
seed = 3
games = 4000
[base]
roles = "werewolf*2,seer,villager*6"
[[axes]]
path = "variants.max_runoffs"
values = [1, 50]
[[axes]]
path = "village"
values = ["random", "claims"]
"""


def frame(out: Path, table="summary") -> pl.DataFrame:
    return read(out, table).collect().sort("cell")


# ----------------------------------------------------------------------------- examples
def _is_equilibrium(p: Path) -> bool:
    return __import__("tomllib").loads(p.read_text()).get("metric") == "equilibrium"


@pytest.mark.parametrize("spec", sorted(p.name for p in EXAMPLES.glob("*.toml") if not _is_equilibrium(p)))
def test_example_specs_run_tiny(spec, tmp_path):
    r = invoke("sweep", EXAMPLES / spec, "--games", 300, "--out", tmp_path, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["cells_run"] == d["cells"] > 1 and d["games"] == 300 * d["cells"]
    df = pl.scan_parquet(tmp_path / "**" / "part-*.parquet", hive_partitioning=True).collect()
    assert df.height == d["cells"] and set(df["cell"]) == set(range(d["cells"]))
    assert {"game", "sweep", "rate", "rate_ci_low", "rate_ci_high", "games"} <= set(df.columns)
    assert (df["games"] == 300).all() and (df["rate_ci_low"] <= df["rate"]).all()
    spec_raw = __import__("tomllib").loads((EXAMPLES / spec).read_text())
    for axis in spec_raw["axes"]:
        assert axis["path"] in df.columns


@pytest.mark.parametrize("spec", sorted(p.name for p in EXAMPLES.glob("*.toml") if _is_equilibrium(p)))
def test_example_sweeps_of_equilibria_run_tiny(spec, tmp_path):
    """A shipped ``metric = "equilibrium"`` example, its growth cut to one round of two
    evaluations on 200 games a matrix cell: every cell has its warm value beside its cold one."""
    import tomllib

    raw = tomllib.loads((EXAMPLES / spec).read_text())
    body = (EXAMPLES / spec).read_text()
    for k in ("rounds", "budget", "games"):
        body = body.replace(f"\n{k} = {raw['equilibrium'][k]}\n", f"\n{k} = {dict(rounds=1, budget=2, games=200)[k]}\n")
    r = invoke("sweep", write_spec(tmp_path, body), "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["metric"] == "equilibrium" and d["cells_run"] == d["cells"] == len(d["rows"]) > 1
    for row in d["rows"]:
        assert row["rate_ci_low"] <= row["rate"] <= row["rate_ci_high"] and row["cold_games"] > 0
        assert json.loads(row["warm_from"]) and row["games"] > 0


def test_dry_run_lists_cells_and_writes_nothing(tmp_path):
    r = invoke("sweep", EXAMPLES / "trpg_alley.toml", "--out", tmp_path / "o", "--dry-run", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["cells"] == 36 == len(d["points"]) and d["max_games"] == 36 * 10000
    assert {p["characters.ren.skills.melee"] for p in d["points"]} == {10, 12, 14, 16}
    assert not (tmp_path / "o").exists()
    r = invoke("sweep", write_spec(tmp_path, "game = 'werewolf'\n[[axes]]\npath = 'count.seer'\nvalues = [-1]"),
               "--dry-run")
    assert r.exit_code == 2 and "count.seer" in r.stderr


def test_trpg_example_axes_really_change_the_game(tmp_path):
    r = invoke("sweep", EXAMPLES / "trpg_alley.toml", "--games", 1500, "--out", tmp_path, "--json")
    assert r.exit_code == 0, r.output
    df = frame(tmp_path)
    # 4 melee values x 3 target strategies x 3 random draws of (Aoi's HP, pistol dice)
    assert df.height == 36 and df["characters.aoi.hp"].is_between(10, 20).all()
    assert df["characters.aoi.hp"].n_unique() > 1
    assert set(df["weapons.pistol.dice"]) <= {"1d6+2", "2d6", "2d6+2"}
    draws = df.select("characters.aoi.hp", "weapons.pistol.dice").unique()
    assert draws.height == 3  # distinct random points
    chars = read(tmp_path, "characters").filter(pl.col("character") == "ren").collect()
    assert chars.height == 36
    # the axes move the rate: the random draws (Aoi's HP and the pistol's dice) by far more
    # than the noise of 1500 games x 12 cells; the shade's target choice: the cells share their
    # random numbers (paired), so an axis that were not applied would give three identical
    # rates (since R-20 sends the monologue's criticals to attacks, dodges and life checks,
    # the target choice moves the rate by about a point only)
    by_draw = df.group_by("characters.aoi.hp", "weapons.pistol.dice").agg(pl.col("rate").mean())
    assert by_draw["rate"].max() - by_draw["rate"].min() > 0.1
    by_target = df.group_by("characters.shade.strategy.target").agg(pl.col("rate").mean())
    assert by_target["rate"].n_unique() == 3


# ----------------------------------------------------------------------------- cells
def test_cell_equals_a_plain_run_and_batches_add_up(tmp_path):
    from sim.werewolf.game import run

    spec = parse_spec(__import__("tomllib").loads(WW), tmp_path / "s.toml")
    cells = build_cells(spec)
    assert [c.params for c in cells] == [
        {"variants.max_runoffs": 1, "village": "random"}, {"variants.max_runoffs": 1, "village": "claims"},
        {"variants.max_runoffs": 50, "village": "random"}, {"variants.max_runoffs": 50, "village": "claims"}]
    run_sweep(spec, tmp_path / "out")
    df = frame(tmp_path / "out")
    c = cells[3]
    plain = run(4000, 3, village="claims", roles="werewolf*2,seer,villager*6", sets=["variants.max_runoffs=50"],
                spawn=cell_spawn(spec, c.params))
    row = df.filter(pl.col("cell") == 3).row(0, named=True)
    assert row["successes"] == plain.summary["village_wins"][0] and row["games"] == 4000
    blocks = read(tmp_path / "out", "blocks").filter(pl.col("cell") == 3).collect().sort("block")
    assert blocks["games"].sum() == 4000 and blocks["successes"].sum() == row["successes"]
    assert blocks.height == 16 and (blocks["start"].diff().drop_nulls() == 250).all()
    # two batches of a run are the run: games [0, 1500) + [1500, 4000)
    a = run(1500, 3, village="claims", setup=c.compiled[0], spawn=cell_spawn(spec, c.params))
    b = run(2500, 3, village="claims", setup=c.compiled[0], spawn=cell_spawn(spec, c.params), start=1500)
    assert a.summary["village_wins"][0] + b.summary["village_wins"][0] == row["successes"]


def test_same_dataset_for_any_thread_count(tmp_path):
    spec = parse_spec(__import__("tomllib").loads(WW), tmp_path / "s.toml")
    run_sweep(spec, tmp_path / "a", threads=1)
    run_sweep(spec, tmp_path / "b", threads=2)
    for table in ("summary", "blocks", "roles", "endings"):
        assert frame(tmp_path / "a", table).equals(frame(tmp_path / "b", table)), table


def test_cells_get_distinct_streams_unless_paired(tmp_path):
    text = WW.replace('values = ["random", "claims"]', 'values = ["random"]')
    spec = parse_spec(__import__("tomllib").loads(text.replace('"variants.max_runoffs"', '"variants.max_days"')
                                                  .replace("[1, 50]", "[200, 300]")), None)
    run_sweep(spec, tmp_path / "u")
    df = frame(tmp_path / "u")
    assert df["successes"][0] != df["successes"][1]  # independent streams, max_days never binds
    spec = parse_spec({**spec.raw, "paired": True}, None)
    run_sweep(spec, tmp_path / "p")
    df = frame(tmp_path / "p")
    assert df["successes"][0] == df["successes"][1]  # same streams, same games


# ----------------------------------------------------------------------------- adaptive
def test_adaptive_stops_at_the_first_batch_meeting_the_target(tmp_path):
    spec = write_spec(tmp_path, """
game = "werewolf"
seed = 2
target_ci = 0.012
batch = 2000
max_games = 40000
[base]
roles = "werewolf*2,seer,villager*6"
[[axes]]
path = "count.villager"
values = [4, 6]
[[axes]]
path = "variants.start"
values = ["day", "night"]
""")
    r = invoke("sweep", spec, "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    df = frame(tmp_path / "o")
    blocks = read(tmp_path / "o", "blocks").collect()
    for row in df.iter_rows(named=True):
        assert row["games"] % 2000 == 0 and row["batches"] == row["games"] // 2000
        assert row["stopped"] == "target_ci" and row["half_width"] <= 0.012
        b = blocks.filter(pl.col("cell") == row["cell"]).sort("start")
        early = b.filter(pl.col("start") < row["games"] - 2000)
        lo, hi = wilson(int(early["successes"].sum()), int(early["games"].sum()))
        assert (hi - lo) / 2 > 0.012  # one batch fewer would not have been enough
    assert df["games"].n_unique() > 1  # cells with different variances need different sizes


def test_adaptive_respects_max_games(tmp_path):
    spec = write_spec(tmp_path, """
game = "werewolf"
target_ci = 0.001
batch = 1000
max_games = 3000
""")
    r = invoke("sweep", spec, "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0, r.output
    row = frame(tmp_path / "o").row(0, named=True)
    assert row["games"] == 3000 and row["stopped"] == "max_games" and row["batches"] == 3


# ----------------------------------------------------------------------------- resume
def test_rerun_skips_finished_cells_and_cleans_leftovers(tmp_path):
    spec = write_spec(tmp_path, WW)
    out = tmp_path / "o"
    assert invoke("sweep", spec, "--out", out, "--json").exit_code == 0
    before = frame(out)
    sd = sweep_dir(out, "werewolf", "t")
    import shutil
    shutil.rmtree(sd / "cell=2")
    (sd / ".tmp-cell=2-junk").mkdir()
    (sd / ".tmp-cell=2-junk" / "part-0.parquet").write_bytes(b"half a file")
    r = invoke("sweep", spec, "--out", out, "--json")
    d = json.loads(r.stdout)
    assert d["cells_run"] == 1 and d["cells_skipped"] == 3
    assert not list(sd.glob(".tmp-*"))
    assert frame(out).equals(before)


def test_rerun_with_a_different_spec_is_refused(tmp_path):
    spec = write_spec(tmp_path, WW)
    out = tmp_path / "o"
    assert invoke("sweep", spec, "--out", out, "--json").exit_code == 0
    r = invoke("sweep", spec, "--out", out, "--seed", 9)
    assert r.exit_code == 2 and "different spec" in r.stderr


# ----------------------------------------------------------------------------- compare
def test_compare_paired_matches_the_exact_difference(tmp_path):
    from sim.werewolf.exact import exact_village_win

    spec = write_spec(tmp_path, """
game = "werewolf"
name = "p"
seed = 11
games = 60000
paired = true
[base]
roles = "werewolf*2,villager*7"
[[axes]]
path = "variants.max_runoffs"
values = [50, 1]
""")
    assert invoke("sweep", spec, "--out", tmp_path / "o").exit_code == 0
    sd = sweep_dir(tmp_path / "o", "werewolf", "p")
    r = invoke("compare", sd / "cell=0", sd / "cell=1", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    exact = float(exact_village_win(2, 7, 0, max_runoffs=50) - exact_village_win(2, 7, 0, max_runoffs=1))
    assert d["paired"] and d["blocks"] == 16
    assert abs(d["diff"] - exact) <= 4 * d["se"], (d, exact)
    assert d["se"] < 0.8 * d["unpaired_se"]  # common random numbers pay off
    # the same cell against itself: exactly zero
    d0 = json.loads(invoke("compare", sd / "cell=0", sd / "cell=0", "--json").stdout)
    assert d0["diff"] == 0 and d0["ci_low"] == 0 == d0["ci_high"]


def test_compare_unpaired_cells_use_the_independent_interval(tmp_path):
    spec = write_spec(tmp_path, WW)
    assert invoke("sweep", spec, "--out", tmp_path / "o").exit_code == 0
    sd = sweep_dir(tmp_path / "o", "werewolf", "t")
    d = json.loads(invoke("compare", sd / "cell=0", sd / "cell=2", "--json").stdout)
    assert not d["paired"]
    se = math.sqrt(d["rate_a"] * (1 - d["rate_a"]) / 4000 + d["rate_b"] * (1 - d["rate_b"]) / 4000)
    assert d["se"] == pytest.approx(se) and d["ci_high"] - d["ci_low"] == pytest.approx(2 * 1.959964 * se)
    r = invoke("compare", sd / "cell=0", tmp_path)
    assert r.exit_code == 2 and "not a sweep cell" in r.stderr


# ----------------------------------------------------------------------------- bad input
BAD = [
    ("game = 'chess'", "unknown game 'chess'"),
    ("game = 'werewolf'\nbogus = 1", "unknown key 'bogus'"),
    ("game = 'werewolf'\n[[axes]]\npath = 'variants.max_runofs'\nvalues = [1]", "unknown parameter path"),
    ("game = 'werewolf'\n[[axes]]\npath = 'variants.max_runoffs'\nvalues = []", "empty axis"),
    ("game = 'werewolf'\n[[axes]]\npath = 'count.seer'\nvalues = [1, -2]", "count.seer"),
    ("game = 'werewolf'\n[[axes]]\npath = 'count.dragon'\nvalues = [1]", "unknown role 'dragon'"),
    ("game = 'werewolf'\n[[axes]]\npath = 'variants.vote_rule'\nvalues = ['runoff', 'coin']", "vote_rule"),
    ("game = 'werewolf'\n[[axes]]\npath = 'village'\nvalues = ['psychic']", "unknown village strategy"),
    ("game = 'werewolf'\n[[axes]]\npath = 'x'\ngrid = {start = 5, stop = 1}", "empty axis"),
    ("game = 'werewolf'\n[[axes]]\npath = 'x'\nrandom = {low = 1, high = 3}", "samples = N"),
    ("game = 'werewolf'\ngames = -5", "games: expected a positive integer"),
    ("game = 'werewolf'\nsamples = 5\n[[axes]]\npath = 'variants.max_runoffs'\nrandom = {choices = [1, 2]}",
     "only 2 distinct points"),
    ("game = 'werewolf'\ngames = 10\ntarget_ci = 0.01", "not both"),
    ("game = 'looper'\n[[axes]]\npath = 'cat.amount'\nvalues = [1, 'high']", "cell 1"),
    ("game = 'looper'\n[[axes]]\npath = 'setup.key_person'\nvalues = ['nobody']", "not a table character"),
    ("game = 'trpg'\n[base]\nscenario = 'squad.toml'\n[[axes]]\npath = 'characters.p1.skills.magic'\nvalues = [3]",
     "unknown skill"),
    ("game = 'trpg'\n[base]\nscenario = 'squad.toml'\n[[axes]]\npath = 'characters.p9.hp'\nvalues = [3]",
     "unknown parameter path"),
    ("game = 'werewolf'\n[[axes]\npath = 'x'", "malformed TOML"),
]


@pytest.mark.parametrize("text, match", BAD)
def test_bad_specs_exit_2_before_any_work(tmp_path, text, match):
    spec = write_spec(tmp_path, text)
    out = tmp_path / "never"
    r = invoke("sweep", spec, "--out", out)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and match in err[0], r.stderr
    assert "Traceback" not in r.output
    assert not out.exists()


def test_bad_dask_address_exits_2(tmp_path):
    r = invoke("sweep", write_spec(tmp_path, WW), "--out", tmp_path / "o", "--dask", "local:zero")
    assert r.exit_code == 2 and "local:N" in r.stderr and not (tmp_path / "o").exists()


# ----------------------------------------------------------------------------- kill -9, Dask
KILL_SPEC = """
game = "werewolf"
name = "k"
seed = 5
games = 400000
[[axes]]
path = "variants.max_days"
grid = { start = 100, stop = 107 }
"""


def test_resume_after_kill_9(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    spec = write_spec(tmp_path, KILL_SPEC)
    out = tmp_path / "o"
    sd = sweep_dir(out, "werewolf", "k")
    cmd = [sys.executable, "-m", "sim", "sweep", str(spec), "--out", str(out), "--json"]
    env = {**os.environ, "SIM_THREADS": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and len(list(sd.glob("cell=*"))) < 2:
        time.sleep(0.01)
    assert proc.poll() is None, "the sweep finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = sorted(sd.glob("cell=*"))
    assert 2 <= len(done) < 8
    for cell in done:  # every cell present is whole
        row = pl.read_parquet(cell / "part-0.parquet")
        assert row["games"][0] == 400000
        assert row.select("blocks").explode("blocks").unnest("blocks")["games"].sum() == 400000
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["cells_skipped"] == len(done) and d["cells_run"] == 8 - len(done)
    assert not list(sd.glob(".tmp-*"))
    ref = parse_spec(__import__("tomllib").loads(KILL_SPEC), None)
    run_sweep(ref, tmp_path / "ref")
    for table in ("summary", "blocks", "roles"):
        a, b = frame(out, table), frame(tmp_path / "ref", table)
        assert a.height == b.height and a.equals(b), table  # nothing lost, nothing twice


def test_ctrl_c_leaves_a_resumable_dataset(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    spec = write_spec(tmp_path, KILL_SPEC)
    out = tmp_path / "o"
    sd = sweep_dir(out, "werewolf", "k")
    cmd = [sys.executable, "-m", "sim", "sweep", str(spec), "--out", str(out)]
    env = {**os.environ, "SIM_THREADS": "2"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and len(list(sd.glob("cell=*"))) < 1:
        time.sleep(0.01)
    assert proc.poll() is None, "the sweep finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    done = len(list(sd.glob("cell=*")))
    assert 1 <= done < 8 and not list(sd.glob(".tmp-*"))
    r = subprocess.run([*cmd, "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and json.loads(r.stdout)["cells_skipped"] == done


def test_dask_local_cluster_writes_the_same_dataset(tmp_path):
    pytest.importorskip("distributed")
    spec = write_spec(tmp_path, WW)
    r = invoke("sweep", spec, "--out", tmp_path / "local", "--json")
    assert r.exit_code == 0, r.output
    r = invoke("sweep", spec, "--out", tmp_path / "dask", "--dask", "local:2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["cells_run"] == 4
    for table in ("summary", "blocks", "roles", "endings", "days"):
        assert frame(tmp_path / "local", table).equals(frame(tmp_path / "dask", table)), table


def test_dask_joins_a_running_scheduler(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    spec = write_spec(tmp_path, WW)
    assert invoke("sweep", spec, "--out", tmp_path / "local", "--json").exit_code == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        r = invoke("sweep", spec, "--out", tmp_path / "remote", "--dask", cluster.scheduler_address, "--json")
    assert r.exit_code == 0, r.output
    for table in ("summary", "blocks", "roles"):
        assert frame(tmp_path / "local", table).equals(frame(tmp_path / "remote", table)), table
    monkeypatch.setenv("SIM_DASK_TIMEOUT", "2s")
    r = invoke("sweep", spec, "--out", tmp_path / "x", "--dask", "tcp://127.0.0.1:1")
    assert r.exit_code == 2 and "cannot reach the scheduler" in r.stderr
    assert not (tmp_path / "x").exists()  # nothing written before the cluster answers


# ----------------------------------------------------------------------------- design (properties)
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(lists=st.lists(st.lists(st.integers(-5, 5), min_size=1, max_size=4, unique=True), max_size=3),
       rand=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), max_size=2),
       samples=st.integers(1, 6), seed=st.integers(0, 2**32))
def test_design_size_order_and_determinism(lists, rand, samples, seed):
    axes = [{"path": f"variants.l{i}", "values": v} for i, v in enumerate(lists)]
    rand = [(lo, lo + span) for lo, span in rand]
    axes += [{"path": f"variants.r{i}", "random": {"low": lo, "high": hi}} for i, (lo, hi) in enumerate(rand)]
    raw = {"game": "werewolf", "seed": seed, "axes": axes, **({"samples": samples} if rand else {})}
    space = 1
    for lo, hi in rand:
        space *= hi - lo + 1
    try:
        pts = parse_spec(raw).points()
    except Exception as e:  # only a random space smaller than the samples may refuse
        assert rand and space < samples and "distinct points" in str(e)
        return
    n_fixed = 1
    for v in lists:
        n_fixed *= len(v)
    assert len(pts) == n_fixed * (samples if rand else 1)
    assert pts == parse_spec(raw).points()  # same seed, same design
    assert len({json.dumps(p, sort_keys=True) for p in pts}) == len(pts)  # no cell twice
    for p in pts:
        assert list(p) == [a["path"] for a in axes]  # the spec's axis order
        for i, (lo, hi) in enumerate(rand):
            assert lo <= p[f"variants.r{i}"] <= hi
    if lists:  # the first axis varies slowest
        first = [p["variants.l0"] for p in pts]
        assert first == sorted(first, key=lists[0].index)


def test_paired_interval_covers_the_exact_difference(tmp_path):
    """Coverage of the paired 95% interval over 80 independent paired sweeps (seeds 0-79)
    against the exact werewolf difference: a binomial(80, 0.95) count is ≥ 70 with
    probability 0.99; an interval that ignored the block-to-block spread (or the pairing
    itself) would miss far more often. A count cannot say "too wide" (80 of 80 happens 1.7 %
    of the time), so the band is two-sided on the standardised errors (difference − exact)
    / se: Student's t with blocks − 1 degrees of freedom when the se is right, their variance
    inside the 99 % band of that law (tests/power.py), which an se twice too large or too
    small leaves in at least 90 % of such tests (asserted; a 20 % error needs the thousands
    of synthetic comparisons of tests/test_stats_pinned.py). The variance reduction is
    checked too."""
    from sim.werewolf.exact import exact_village_win

    exact = float(exact_village_win(2, 7, 0, max_runoffs=50) - exact_village_win(2, 7, 0, max_runoffs=1))
    hits, ratios, ts = 0, [], []
    for seed in range(80):
        raw = {"game": "werewolf", "name": f"s{seed}", "seed": seed, "games": 20000, "paired": True,
               "base": {"roles": "werewolf*2,villager*7"},
               "axes": [{"path": "variants.max_runoffs", "values": [50, 1]}]}
        rep = run_sweep(parse_spec(raw), tmp_path, threads=1)
        from sim.sweep.compare import compare_cells

        d = compare_cells(rep.path / "cell=0", rep.path / "cell=1")
        hits += d["ci_low"] <= exact <= d["ci_high"]
        ratios.append(d["variance_ratio"])
        ts.append((d["diff"] - exact) / d["se"])
    assert 70 <= hits, hits
    lo, hi, power = t_variance_band(len(ts), d["blocks"] - 1)
    assert power >= 0.9, power
    assert lo <= np.var(ts, ddof=1) <= hi, (np.var(ts, ddof=1), lo, hi)
    assert np.median(ratios) < 0.2  # common random numbers: most of the variance cancels


def test_looper_cells_share_the_adversarial_search_seed(tmp_path):
    from sim.looper.game import run, writer_params
    from strategies.looper import SCRIPTWRITERS

    raw = {"game": "looper", "name": "adv", "seed": 5, "games": 400, "base": {"scriptwriter": "adversarial"},
           "axes": [{"path": "characters.cat.name", "values": ["a", "b"]}]}
    spec = parse_spec(raw)
    cells = build_cells(spec)
    run_sweep(spec, tmp_path)
    df = frame(tmp_path)
    w = SCRIPTWRITERS.get("adversarial")
    for c in cells:
        roster = c.compiled[0]
        plain = run(400, 5, scriptwriter=w, roster=roster, spawn=cell_spawn(spec, c.params),
                    params=writer_params(w, roster, 5))  # the search seeded by the root seed alone
        assert plain.summary["player_wins"][0] == df["successes"][c.index]
        assert plain.tables["key_person"]["games"].to_list() == \
            read(tmp_path, "key_person").filter(pl.col("cell") == c.index).collect()["games"].to_list()
