"""The zero-sum solver of the meta-game, on games with known solutions."""
import numpy as np
import pytest
from typer.testing import CliRunner

from sim.analysis.metagame import Matrix, Tier, hidden_information, honest_twin, solve_zero_sum
from sim.cli import app


def test_matching_pennies():
    v, x, y = solve_zero_sum([[1, 0], [0, 1]])
    assert v == pytest.approx(0.5) and x == pytest.approx([0.5, 0.5]) and y == pytest.approx([0.5, 0.5])


def test_rock_paper_scissors_as_win_rates():
    a = np.array([[0.5, 0, 1], [1, 0.5, 0], [0, 1, 0.5]])
    v, x, y = solve_zero_sum(a)
    assert v == pytest.approx(0.5) and x == pytest.approx([1 / 3] * 3) and y == pytest.approx([1 / 3] * 3)


def test_saddle_point_and_dominated_rows():
    a = np.array([[0.3, 0.6], [0.4, 0.7], [0.1, 0.9]])
    v, x, y = solve_zero_sum(a)
    assert v == pytest.approx(0.4) and x == pytest.approx([0, 1, 0]) and y == pytest.approx([1, 0])


def test_a_mixed_value_is_the_guaranteed_one():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a = rng.random((4, 3))
        v, x, y = solve_zero_sum(a)
        assert (x @ a).min() == pytest.approx(v, abs=1e-7) and (a @ y).max() == pytest.approx(v, abs=1e-7)


def test_ladder_needs_two_sides():
    # the TRPG's sides are its scenario's: a three-sided one has no ladder
    r = CliRunner().invoke(app, ["ladder", "trpg", "alley", "--set", "scenario.sides=players,kaii,onlookers",
                                 "--set", "characters.host.side=onlookers"])
    assert r.exit_code == 2 and "two strategy sides" in r.stderr


def test_an_oracle_tier_has_an_honest_twin():
    assert honest_twin(Tier("player", "oracle_planner", (("budget", 64),))) == "planner@budget=64"
    assert honest_twin(Tier("p1", "my.mod:oracle_x")) == "my.mod:x"


def test_hidden_information_is_paired_over_the_blocks():
    """Oracle − honest twin, cell by cell: on the same blocks the difference's interval is the
    paired one (identical blocks: exactly zero); the second side gains when the rate falls."""
    rows = [Tier("a", "x"), Tier("a", "oracle_x")]
    cols = [Tier("b", "y"), Tier("b", "oracle_y")]
    starts, n = np.arange(0, 800, 100), np.full(8, 100)
    rng = np.random.default_rng(1)
    base = rng.binomial(100, 0.4, 8)
    blocks = {(0, 0): (starts, n, base), (1, 0): (starts, n, base + 5),  # the row oracle: +5 a block
              (0, 1): (starts, n, base - 3), (1, 1): (starts, n, base - 3)}
    s = np.array([[b[2].sum() for b in (blocks[i, 0], blocks[i, 1])] for i in range(2)])
    m = Matrix(rows, cols, s, np.full((2, 2), 800), blocks)
    h = {(r["side"], r["against"]): r for r in hidden_information(m).iter_rows(named=True)}
    assert set(h) == {("a", "y"), ("a", "oracle_y"), ("b", "x"), ("b", "oracle_x")}
    assert h["a", "y"]["gain"] == pytest.approx(0.05) and h["a", "y"]["ci_low"] == pytest.approx(0.05) \
        == pytest.approx(h["a", "y"]["ci_high"])  # the same shift in every block: no doubt left
    assert h["a", "oracle_y"]["gain"] == pytest.approx(0.0)
    assert h["b", "x"]["gain"] == pytest.approx(0.03) and h["b", "x"]["oracle"] == "oracle_y"  # rate fell 3 points
    assert h["b", "oracle_x"]["gain"] == pytest.approx(0.08)
    # without blocks to pair, the two cells are independent binomials: a wider interval
    unpaired = hidden_information(Matrix(rows, cols, s, np.full((2, 2), 800))).row(0, named=True)
    assert unpaired["gain"] == pytest.approx(0.05) and unpaired["ci_low"] < 0.02 < 0.08 < unpaired["ci_high"]


def test_the_ladder_reports_the_value_of_hidden_information(tmp_path):
    import json

    p = "tests.plugins.race_oracle"
    args = ["ladder", "race", "--tiers", f"p1=cautious,{p}:bold,{p}:oracle_bold", "--tiers", "p2=cautious,bold",
            "--games", "4000", "--seed", "1"]
    r = CliRunner().invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    rate = {(c["row"], c["col"]): c["rate"] for c in d["matrix"]}
    gaps = d["hidden_information"]
    assert [(g["oracle"], g["honest"], g["against"]) for g in gaps] == \
        [(f"{p}:oracle_bold", f"{p}:bold", "cautious"), (f"{p}:oracle_bold", f"{p}:bold", "bold")]
    for g in gaps:
        assert g["gain"] == pytest.approx(rate[g["oracle"], g["against"]] - rate[g["honest"], g["against"]])
        assert g["ci_low"] <= g["gain"] <= g["ci_high"] and g["ci_high"] - g["ci_low"] < 0.1
    text = CliRunner().invoke(app, args, terminal_width=200)
    assert text.exit_code == 0 and "value of the hidden information" in text.output
    # kept in the ladder's manifest, and shown by its report
    assert CliRunner().invoke(app, [*args, "--out", str(tmp_path / "lad")]).exit_code == 0
    r = CliRunner().invoke(app, ["report", str(tmp_path / "lad"), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "value of the hidden information" in page and f"{gaps[1]['gain']:.4f}" in page
    # an oracle without its honest twin on the ladder has no gap to report
    r = CliRunner().invoke(app, ["ladder", "race", "--tiers", f"p1=cautious,{p}:oracle_bold", "--tiers",
                                 "p2=cautious", "--games", "500", "--json"])
    assert r.exit_code == 0 and "hidden_information" not in json.loads(r.stdout)
