"""The Monte Carlo win rate against the exact one (dynamic programming over both totals and
whose turn it is), for strategy pairs, k values, targets, head starts and dice."""
from __future__ import annotations

import math

import pytest

from sim_race.exact import exact_for, gains, win_probability
from sim_race.protocol import GAME

GAMES = 200_000
SEED = 20261201

# (p1, p2, sets)
CASES = [
    ("random", "random", []),
    ("cautious", "bold", []),
    ("bold", "cautious", ["rules.head_start=5"]),
    ("bold", "bold", ["rules.target=10"]),
    ("cautious", "cautious", ["rules.target=35", "rules.head_start=4"]),
    ("threshold", "bold", ["p1.k=0"]),
    ("threshold", "threshold", ["p1.k=3", "p2.k=-2", "rules.head_start=3"]),
    ("bold", "threshold", ["p2.k=-20", "rules.target=15"]),
    ("threshold", "cautious", ["p1.k=20", "rules.target=25"]),
    ("threshold", "random", ["p1.k=-4", "rules.target=1"]),
    ("random", "threshold", ["p2.k=5", "rules.target=12", "rules.head_start=11"]),
    ("threshold", "bold", ["p1.k=1", "rules.faces=4", "rules.bust_face=2", "rules.target=16"]),
    ("race_plugins:SPRINT", "threshold", ["p2.k=2"]),
]


@pytest.mark.parametrize("p1,p2,sets", CASES, ids=[f"{a}-{b}-{','.join(s) or 'default'}" for a, b, s in CASES])
def test_monte_carlo_matches_exact(p1, p2, sets):
    setup = GAME.setup(None, sets)
    s = GAME.strategies({"p1": p1, "p2": p2})
    p = exact_for(setup, s["p1"], s["p2"])
    r = GAME.run(setup, s, GAMES, SEED)
    row = r.summary.row(0, named=True)
    se = math.sqrt(max(p * (1 - p), 1e-12) / GAMES)
    assert abs(row["win_rate"] - p) <= 4 * se, (row["win_rate"], p, se)
    assert row["games"] == GAMES and row["p1_wins"] + row["p2_wins"] == GAMES


def test_exact_by_hand():
    """Target 1: any die reaches it, two dice only without a bust face (25/36)."""
    cautious, bold = (lambda *a: 0.0), (lambda *a: 1.0)
    assert win_probability(1, 0, cautious, bold) == pytest.approx(1.0)
    a = 25 / 36  # bold vs bold: p1 scores first with a, else p2 with a, else again
    assert win_probability(1, 0, bold, bold) == pytest.approx(a / (1 - (1 - a) ** 2))
    assert win_probability(1, 0, bold, cautious) == pytest.approx(a)
    # target 2, cautious vs cautious: p1 wins at once unless it rolls a 1; then p2 wins unless it
    # rolls a 1 too, and then p1 surely reaches 2
    assert win_probability(2, 0, cautious, cautious) == pytest.approx(5 / 6 + 1 / 36)


def test_turn_distributions():
    one, two = gains(6, 1)
    assert sum(p for _, p in one) == pytest.approx(1) and sum(p for _, p in two) == pytest.approx(1)
    assert dict(two)[0] == pytest.approx(11 / 36) and min(g for g, _ in two if g) == 4
    assert sum(g * p for g, p in two) == pytest.approx(25 / 36 * 8)  # sum of two faces 2…6, mean 8


def test_head_start_and_k_move_the_rate_the_right_way():
    thr = lambda me, other, target, k: 1.0 if other - me >= k else 0.0  # noqa: E731
    rates = [win_probability(20, h, thr, thr) for h in range(6)]
    assert rates == sorted(rates, reverse=True) and rates[0] > 0.5 > rates[-1]


def test_plugin_without_exact_form():
    setup = GAME.setup()
    assert exact_for(setup, GAME.strategy("p1", "race_plugins:sprint_nb"), GAME.strategy("p2", "bold")) is None
