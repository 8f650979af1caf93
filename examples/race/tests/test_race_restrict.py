"""Restricted play on the race: withholding two dice, measured paired, against the exact DP."""
import json
import math

from typer.testing import CliRunner

from sim.analysis.restrict import restricted_play
from sim.cli import app
from sim.core.game import get
from sim_race.exact import exact_for

GAME = get("race")
runner = CliRunner()


def _exact(setup, strategies):
    return exact_for(setup, strategies["p1"], strategies["p2"])


def test_restricted_rates_and_paired_changes_match_the_exact_ones():
    setup = GAME.setup(sets=["p2.k=0"])
    st = GAME.strategies({"p1": "bold", "p2": "threshold"})
    df = restricted_play(GAME, setup, st, 60_000, 11)
    full = _exact(setup, st)
    assert df["restricted"].to_list() == ["(none)", "p1", "p2"]
    for r in df.iter_rows(named=True):
        if r["restricted"] == "(none)":
            continue
        _, rst = GAME.restrict(setup, st, r["ability"])
        want = _exact(setup, rst)
        se = math.sqrt(want * (1 - want) / r["games"])
        assert abs(r["rate"] - want) < 4 * se
        se_d = (r["delta_ci_high"] - r["delta_ci_low"]) / (2 * 1.96)
        assert abs(r["delta"] - (want - full)) < 4 * se_d, (r, want - full)  # within 4 SE of the paired change
        # the interval of the change is a real one: about as wide as two independent rates' (dice
        # streams desynchronise once one player rolls one die instead of two, so pairing gains little here)
        indep = 1.96 * math.sqrt((want * (1 - want) + full * (1 - full)) / r["games"])
        assert 0.5 * indep < (r["delta_ci_high"] - r["delta_ci_low"]) / 2 < 1.5 * indep
    assert df["competent"].to_list()[1:] == [True, True]


def test_an_ability_its_strategy_should_give_up_is_flagged():
    # to reach 2, one die almost always does (5/6); two dice bust 11 times in 36: bold is incompetent here
    setup = GAME.setup(sets=["rules.target=2"])
    st = GAME.strategies({"p1": "bold", "p2": "cautious"})
    df = restricted_play(GAME, setup, st, 40_000, 3)
    row = df.filter(df["ability"] == "p1_two_dice").row(0, named=True)
    assert row["value_to_side"] < 0 and row["value_ci_high"] < 0 and row["competent"] is False


def test_cli_restrict_json_and_errors():
    r = runner.invoke(app, ["race", "loo", "--restrict", "--games", "4000", "--p1", "bold", "--json"])
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert {"restricted", "rate", "delta", "delta_ci_low", "delta_ci_high"} <= set(rows[1])
    r = runner.invoke(app, ["race", "loo", "--restrict", "--ability", "p3_two_dice", "--games", "100"])
    assert r.exit_code == 2 and "choose p1_two_dice, p2_two_dice" in r.stderr
    r = runner.invoke(app, ["race", "loo", "--games", "100"])
    assert r.exit_code == 2 and "--restrict" in r.stderr
    r = runner.invoke(app, ["race", "loo", "--restrict", "--p1", "cautious", "--p2", "cautious", "--games", "100"])
    assert r.exit_code == 2 and "no optional ability" in r.stderr
