"""`sim report`: pages and figures for the datasets of all three games, pooled numbers, bad input."""
from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib.image as mpimg
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.analysis.figures import marginal
from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples" / "sweeps"
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def check_page(out: Path, expect: set[str]) -> dict:
    page = out / "index.html"
    html = page.read_text()
    assert not re.search(r'<img src="(?!data:image/png;base64,)', html)  # one file: every figure embedded
    imgs = set(re.findall(r'data-file="([^"]+)"', html))
    assert expect <= {Path(i).name.split("_")[0].removesuffix(".png") for i in imgs}, imgs
    for i in imgs:
        a = mpimg.imread(out / i)  # a real PNG, with something drawn on it
        assert a.shape[0] > 150 and a.shape[1] > 300 and a.std() > 0.01, i
    return {"html": html, "imgs": imgs}


def report(src: Path, out: Path) -> dict:
    r = invoke("report", src, "--out", out, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert Path(d["page"]) == out / "index.html"
    return d


@pytest.mark.parametrize("spec, expect", [
    ("werewolf_seer.toml", {"rate", "heatmap", "tornado", "causes", "length"}),
    ("looper_moves.toml", {"rate", "heatmap", "tornado", "causes", "length", "hist"}),  # hist: loop-end day
    ("trpg_alley.toml", {"rate", "heatmap", "tornado", "causes", "length"}),  # tornado: the crossed axes
])
def test_sweep_reports(tmp_path, spec, expect):
    assert invoke("sweep", EX / spec, "--games", 400, "--out", tmp_path / "data", "--json").exit_code == 0
    d = report(tmp_path / "data", tmp_path / "rep")
    page = check_page(tmp_path / "rep", expect)
    assert len(d["figures"]) == len(page["imgs"])
    axes = [a["path"] for a in __import__("tomllib").loads((EX / spec).read_text())["axes"]]
    for a in axes:
        assert a in page["html"]
    n_axes = len(axes)
    assert sum(1 for f in page["imgs"] if f.startswith("rate_")) == n_axes
    from sim.analysis.dataset import load
    from sim.analysis.marginals import design
    from sim.analysis.report import heatmap_pairs

    d_ = load(tmp_path / "data")
    des = design(d_.cells, axes)
    assert sum(1 for f in page["imgs"] if f.startswith("heatmap_")) == len(heatmap_pairs(axes, des))
    if spec == "trpg_alley.toml":  # random draws of hp and dice: confounded, flagged, no line
        assert des.confounded["characters.aoi.hp"] == ["weapons.pistol.dice"]
        assert "does not cross characters.aoi.hp with weapons.pistol.dice" in page["html"]
    else:
        assert des.full_grid and "Design:" not in page["html"]
    # the report runs again over its own output (replaced whole)
    report(tmp_path / "data", tmp_path / "rep")


def test_single_run_and_matrix_and_loo_reports(tmp_path):
    runs = {
        "looper": ["looper", "run", "--games", "2000"],
        "werewolf": ["werewolf", "run", "--games", "2000"],
        "trpg": ["trpg", "run", str(ROOT / "sim/trpg/data/scenarios/alley.toml"), "--games", "1000"],
        "matrix": ["trpg", "matrix", str(ROOT / "sim/trpg/data/builds.toml"), "--games", "300"],
        "loo": ["werewolf", "loo", "--games", "1000"],
        "looper_loo": ["looper", "loo", "--games", "300"],
        "trpg_loo": ["trpg", "loo", str(ROOT / "sim/trpg/data/scenarios/alley.toml"), "--games", "300"],
    }
    expect = {"looper": {"causes", "length", "hist"}, "werewolf": {"causes", "length"}, "trpg": {"causes", "length"},
              "matrix": {"matrix"}, "loo": {"loo"}, "looper_loo": {"loo"}, "trpg_loo": {"loo"}}
    for name, args in runs.items():
        r = invoke(*args, "--out", tmp_path / name)
        assert r.exit_code == 0, (name, r.output)
        report(tmp_path / name, tmp_path / f"rep-{name}")
        check_page(tmp_path / f"rep-{name}", expect[name])
    assert "the day on which loops ended by a death" in (tmp_path / "rep-looper" / "index.html").read_text()
    # a run's settings line (its manifest's) heads its report
    assert "Settings: player random vs scriptwriter random; seed 0." in (tmp_path / "rep-looper" / "index.html").read_text()
    # the matrix report's overall table carries the Bradley–Terry ratings and their interval
    page = (tmp_path / "rep-matrix" / "index.html").read_text(encoding="utf-8")
    assert all(f"<th>{c}</th>" in page for c in ("rating", "rating_ci_low", "rating_ci_high"))


def test_marginal_pools_counts_over_cells():
    cells = pl.DataFrame({"cell": [0, 1, 2, 3], "a": [1, 1, 2, 2], "b": ["x", "y", "x", "y"],
                          "games": [100, 300, 200, 200], "successes": [10, 90, 100, 20]})
    m = marginal(cells, "a")
    assert m["games"].to_list() == [400, 400] and m["rate"].to_list() == [0.25, 0.3]
    assert (m["lo"] < m["rate"]).all() and (m["rate"] < m["hi"]).all()
    assert marginal(cells, "b")["rate"].to_list() == [110 / 300, 110 / 500]
    lists = cells.with_columns(pl.Series("c", [["m", "l"], ["m"], ["m", "l"], ["m"]]))
    assert marginal(lists, "c")["c"].to_list() == ["m", "m,l"]


def test_bad_report_inputs_exit_2(tmp_path):
    r = invoke("report", tmp_path / "missing", "--out", tmp_path / "rep")
    assert r.exit_code == 2 and "no such dataset" in r.stderr
    (tmp_path / "empty").mkdir()
    r = invoke("report", tmp_path / "empty", "--out", tmp_path / "rep")
    assert r.exit_code == 2 and "not a dataset" in r.stderr
    for spec in ("werewolf_seer.toml", "looper_moves.toml"):
        assert invoke("sweep", EX / spec, "--games", 100, "--out", tmp_path / "two").exit_code == 0
    r = invoke("report", tmp_path / "two", "--out", tmp_path / "rep")
    assert r.exit_code == 2 and "holds 2 sweeps" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "rep").exists()
    # one sweep of the two is fine
    sd = next((tmp_path / "two").glob("game=looper/sweep=*"))
    assert invoke("report", sd, "--out", tmp_path / "rep").exit_code == 0


def test_target_only_when_given(tmp_path):
    """No target: no highlighted cell, no word of one; with --target the highlighted rows are
    exactly the cells whose whole interval lies in the band (read from the dataset)."""
    from sim.analysis.dataset import load

    assert invoke("sweep", EX / "werewolf_seer.toml", "--games", 400, "--out", tmp_path / "data",
                  "--json").exit_code == 0
    report(tmp_path / "data", tmp_path / "plain")
    html = (tmp_path / "plain" / "index.html").read_text().replace(str(tmp_path), "")  # the test's own name
    assert "Highlighted" not in html and 'class="hit"' not in html and "50%" not in html and "target" not in html
    cells = load(tmp_path / "data").cells
    lo, hi = sorted(cells["rate"].to_list())[len(cells) // 2] - 0.1, 0.95   # a band some cells lie in
    r = invoke("report", tmp_path / "data", "--out", tmp_path / "t", "--json", "--target", f"{lo}:{hi}")
    assert r.exit_code == 0, r.output
    html = (tmp_path / "t" / "index.html").read_text()
    inside = sum(1 for x in cells.iter_rows(named=True) if lo <= x["rate_ci_low"] and x["rate_ci_high"] <= hi)
    assert "Highlighted: the whole 95% CI lies in the target" in html and html.count('class="hit"') == inside
    # the figures that sum every cell say so, and over which swept values
    assert f"pooled over all {cells.height} cells, which differ in" in html


def test_ladder_report_orders_tiers_and_pools_nothing(tmp_path):
    from sim.analysis.figures import ladder_order

    m = pl.DataFrame({"row": ["a", "a", "b", "b"], "col": ["x", "y", "x", "y"], "rate": [0.2, 0.4, 0.6, 0.8]})
    assert ladder_order(m) == (["b", "a"], ["x", "y"])   # b's rows are higher; x holds the first side lower
    r = invoke("ladder", "race", "--tiers", "p1=cautious,bold", "--tiers", "p2=bold", "--games", 300,
               "--out", tmp_path / "lad")
    assert r.exit_code == 0, r.output
    report(tmp_path / "lad", tmp_path / "rep")
    html = (tmp_path / "rep" / "index.html").read_text()
    assert "<h2>Cells</h2>" not in html and "the strongest tiers first" in html and "table below" in html
    # one column tier: the equilibrium is the row tier with the higher rate, played purely
    lad = pl.read_parquet(tmp_path / "lad" / "ladder.parquet")
    best = lad.sort("rate", descending=True)["row"][0]
    assert "<h2>equilibrium</h2>" in html and f"p1: {best} 1.00" in html


def test_values_report(tmp_path):
    r = invoke("werewolf", "values", "--games", 500, "--only", "fenrir,seer", "--tiers", "village=random,claims",
               "--out", tmp_path / "v")
    assert r.exit_code == 0, r.output
    d = report(tmp_path / "v", tmp_path / "rep")
    page = check_page(tmp_path / "rep", {"values"})
    assert [f["file"].rsplit("/", 1)[-1] for f in d["figures"]] == ["values.png"]
    assert "one bar per tier" in page["html"] and "Settings: " in page["html"]
    assert "fenrir replaced by a plain werewolf" in page["html"]  # the caption's examples are the table's own


def test_tune_report(tmp_path):
    r = invoke("tune", "race", "--side", "p1", "--budget", 3, "--games", 200, "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    d = report(tmp_path / "t", tmp_path / "rep")
    check_page(tmp_path / "rep", {"tune"})
    assert [f["file"].rsplit("/", 1)[-1] for f in d["figures"]] == ["tune.png"]


def test_heatmap_caption_says_what_each_square_pools(tmp_path):
    """A square of two axes is one cell when nothing else was swept, else the mean of the
    cells that differ in the other axes: the caption says which."""
    from sim.analysis.figures import heatmap

    two = pl.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "successes": [10, 20, 30, 40], "games": [100] * 4})
    cap = heatmap(two, "a", "b", "rate", tmp_path / "h2.png")
    assert "one cell each" in cap and "mean" not in cap
    three = pl.concat([two.with_columns(pl.lit(k).alias("c")) for k in (0, 1)])
    cap = heatmap(three, "a", "b", "rate", tmp_path / "h3.png")
    assert "the mean of up to 2 cells' rates over the other swept axes" in cap
