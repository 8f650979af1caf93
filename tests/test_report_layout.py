"""Every text of every report figure lies inside its figure; rates stay within [0, 1]."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from typer.testing import CliRunner

import sim.analysis.figures as F
from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_save_grows_a_figure_until_no_text_sticks_out(tmp_path, monkeypatch):
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [0, 1])
    ax.set_yticks([0, 1], ["a tick label far too long for so small a figure", "b"])
    ax.set_title("a title that is also much longer than the figure is wide, by a lot")
    assert F.outside_texts(fig)  # as drawn, texts stick out …
    monkeypatch.setattr(plt, "close", lambda f: None)  # keep it open to look at after save
    F.save(fig, tmp_path / "x.png")
    assert F.outside_texts(fig) == []  # … and save made room for them


def test_stacked_bars_end_inside_the_axes(tmp_path, monkeypatch):
    """The longest bar ends before the frame (a zero-width last segment used to pin the
    axis to it, so the bar looked cut off)."""
    kept = []
    monkeypatch.setattr(F, "save", lambda fig, path: kept.append(fig))
    F.stacked(["a", "b"], {"r1": np.array([0.10, 0.02]), "r2": np.array([0.06, 0.0]),
                           "r3": np.array([0.0, 0.01])}, "x", "t", tmp_path / "s.png")
    lo, hi = kept[0].axes[0].get_xlim()
    plt.close(kept[0])
    assert lo == 0 and hi > 0.16 * 1.02


@pytest.fixture
def checked_figures(monkeypatch):
    """Every figure the report saves, checked before it is written."""
    seen: list[tuple[str, list[str], list]] = []
    real = F.save

    def save(fig, path):
        monkey_close = plt.close
        plt.close = lambda f: None  # look at the figure as saved, then close it
        try:
            real(fig, path)
        finally:
            plt.close = monkey_close
        seen.append((Path(path).name, F.outside_texts(fig), [ax.get_ylim() for ax in fig.axes]))
        plt.close(fig)

    monkeypatch.setattr(F, "save", save)
    return seen


def test_report_figures_keep_their_texts_inside(tmp_path, checked_figures):
    spec = tmp_path / "s.toml"
    spec.write_text('''game = "race"
name = "layout"
seed = 1
games = 300
paired = true
samples = 3
[base]
p2 = "threshold"
[[axes]]
path = "rules.target"
values = [8, 12, 16]
[[axes]]
path = "p1"
values = ["bold", "cautious"]
[[axes]]
path = "rules.head_start"
random = {low = 0, high = 9}
[[axes]]
path = "p2.k"
random = {choices = [-3, 0, 3]}
''')
    for args in (["sweep", spec, "--out", tmp_path / "sw"],
                 ["report", tmp_path / "sw", "--out", tmp_path / "rep"],
                 ["ladder", "race", "--games", "300", "--out", tmp_path / "lad"],
                 ["report", tmp_path / "lad", "--out", tmp_path / "rep2"],
                 ["sensitivity", ROOT / "examples" / "sensitivity" / "race_sens.toml", "--games", "40", "--out",
                  tmp_path / "sens"],
                 ["report", tmp_path / "sens" / "game=race" / "sensitivity=race-sens", "--out", tmp_path / "rep3"],
                 ["looper", "run", "--games", "300", "--out", tmp_path / "lo"],  # a game's own histogram
                 ["report", tmp_path / "lo", "--out", tmp_path / "rep4"]):
        r = runner.invoke(app, [str(a) for a in args])
        assert r.exit_code == 0, (args, r.output)
    names = [n for n, _, _ in checked_figures]
    assert {"rate_0.png", "heatmap_0.png", "tornado.png", "ladder.png", "sensitivity.png", "length.png",
            "hist_loop_end_day.png"} <= set(names)
    for name, outside, ylims in checked_figures:
        assert outside == [], (name, outside)
        if name.startswith("rate_"):
            assert all(0 <= lo and hi <= 1 for lo, hi in ylims), (name, ylims)
