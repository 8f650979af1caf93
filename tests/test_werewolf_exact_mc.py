"""The Monte Carlo engine under random play agrees with the exact solver (sim/werewolf/exact.py).

For plain werewolf / villager / seer tables the random strategies make the game the Markov
chain that ``exact_village_win`` solves (the seer's readings are never used), so the
engine's village win rate over N games must match the exact value up to sampling error.

Tolerance: |p̂ − p| ≤ 4·SE with SE = sqrt(p(1 − p)/N), p the exact value and N = 200 000
games with a fixed seed (a false alarm has probability ≈ 6e-5 per case; 4·SE ≈ 0.004 here: a
rule bug that moves the village's rate by 0.6 points or more fails 9 times in 10, tests/power.py).
The engine's ``randint_nb`` bias (< n/2³², see sim/core/rng.py) is far below that. The mean
number of days (votes held) is checked the same way against ``exact_summary``'s
``expected_days``, with the sample standard deviation from the engine's ``days_hist``.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from sim.werewolf.exact import exact_summary
from sim.werewolf.game import run

GAMES = 200_000
SEED = 314159

# (werewolves, villagers, seers, vote_rule, start, end_rule, max_runoffs)
CASES = [
    (1, 4, 1, "runoff", "day", "parity", 50),
    (2, 5, 1, "runoff", "day", "parity", 50),
    (2, 6, 0, "runoff", "night", "parity", 50),
    (3, 8, 1, "runoff", "day", "parity", 50),
    (2, 5, 1, "plurality", "day", "parity", 50),
    (2, 6, 1, "plurality", "night", "parity", 50),
    (2, 5, 1, "random_lynch", "day", "parity", 50),
    (1, 7, 0, "random_lynch", "night", "parity", 50),   # Migdał's mafia game
    (2, 5, 1, "runoff", "day", "no_villagers", 50),
    (2, 4, 0, "random_lynch", "night", "no_villagers", 50),
    (2, 6, 1, "runoff", "day", "parity", 0),             # every three-way tie: nobody out
    (2, 6, 1, "runoff", "night", "parity", 1),
]


@pytest.mark.parametrize("w, v, s, vote_rule, start, end_rule, max_runoffs", CASES,
                         ids=[f"{c[0]}w{c[1]}v{c[2]}s-{c[3]}-{c[4]}-{c[5]}-r{c[6]}" for c in CASES])
def test_monte_carlo_matches_exact(w, v, s, vote_rule, start, end_rule, max_runoffs):
    roles = f"werewolf*{w},villager*{v},seer*{s}"
    sets = [f"variants.vote_rule={vote_rule}", f"variants.start={start}", f"variants.end_rule={end_rule}",
            f"variants.max_runoffs={max_runoffs}"]
    r = run(GAMES, SEED, roles=roles, sets=sets, threads=2)
    row = r.summary.row(0, named=True)
    ex = exact_summary(w, v, s, vote_rule=vote_rule, start=start, end_rule=end_rule, max_runoffs=max_runoffs)

    p = ex["village_win"]
    se = math.sqrt(p * (1 - p) / GAMES)
    assert abs(row["village_win_rate"] - p) <= 4 * se, (row["village_win_rate"], p, se)
    assert row["draws"] == 0  # random play always ends long before max_days

    dh = r.totals["days_hist"].astype(float)
    d = np.arange(len(dh))
    sd = math.sqrt(float((dh * (d - row["mean_days"]) ** 2).sum() / GAMES))
    assert abs(row["mean_days"] - ex["expected_days"]) <= 4 * sd / math.sqrt(GAMES), (row["mean_days"], ex)
    if vote_rule != "runoff":
        assert row["runoffs_per_game"] == 0 and row["days_nobody_voted_out"] == 0
    elif max_runoffs == 0:
        assert row["runoffs_per_game"] == 0 and row["days_nobody_voted_out"] > 0
