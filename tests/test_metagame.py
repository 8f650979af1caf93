"""The zero-sum solver of the meta-game, on games with known solutions."""
import numpy as np
import pytest
from typer.testing import CliRunner

from sim.analysis.metagame import solve_zero_sum
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
