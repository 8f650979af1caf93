"""TRPG outside combat: growth (R-14), labour, sleep, and the `growth/labour/sleep/check` CLI."""
import json
from fractions import Fraction
from math import comb

import icepool
import numpy as np
import pytest
from typer.testing import CliRunner

from sim.errors import SimInputError
from sim.trpg.cli_outside import app
from sim.trpg.dice import check_probability
from sim.trpg.outside import (growth_distribution, growth_mc, growth_step_probabilities, labour_exact,
                              labour_mc, normalize_skills, sleep_check_probability, sleep_mp_recovery,
                              sleep_penalty)
from tests.power import detectable_shift

SKILLS = [10, 9, 8, 7, 12, 11, 10, 9, 8, 8, 8, 8, 6, 7, 8, 9]
FLAT = [8] * 16


# --- skills input ---------------------------------------------------------------------------
def test_normalize_skills_forms():
    names, vals = normalize_skills(SKILLS)
    assert vals == tuple(SKILLS) and names[0] == "physical_1" and names[15] == "mind_4"
    d = {f"s{i}": v for i, v in enumerate(SKILLS)}
    assert normalize_skills(d) == (tuple(d), tuple(SKILLS))
    grouped = {"physical": SKILLS[0:4], "sense": SKILLS[4:8], "intellect": SKILLS[8:12],
               "mind": {"a": 6, "b": 7, "c": 8, "d": 9}}
    names, vals = normalize_skills(grouped)
    assert vals == tuple(SKILLS) and names[12:] == ("a", "b", "c", "d")
    assert normalize_skills(np.array(SKILLS))[1] == tuple(SKILLS)


@pytest.mark.parametrize("bad", [[1, 2, 3], SKILLS + [1], {"a": 1}, "1,2", SKILLS[:15] + ["x"],
                                 SKILLS[:15] + [1.5], {"physical": [1, 2], "sense": [1] * 4,
                                                        "intellect": [1] * 4, "mind": [1] * 4}])
def test_normalize_skills_errors(bad):
    with pytest.raises(SimInputError):
        normalize_skills(bad)


# --- growth: exact ---------------------------------------------------------------------------
def test_one_roll_lowest_by_hand():
    # mind_1 (6) is the lowest of all: its own slot 1/36, free skill in mind 2/36,
    # free group (→ mind) then slot 1: 2/36, free group then free skill: 4/36 → 9/36
    p = growth_step_probabilities(SKILLS)
    assert p["mind_1"] == Fraction(1, 4)
    assert p["mind_2"] == p["mind_3"] == p["mind_4"] == Fraction(3, 36)
    assert p["physical_4"] == Fraction(3, 36)  # lowest of physical
    assert p["physical_1"] == Fraction(1, 36)
    assert p["intellect_1"] == Fraction(3, 36)  # ties in a group: the leftmost
    assert sum(p.values()) == 1


def test_one_roll_flat_ties_leftmost():
    p = list(growth_step_probabilities(FLAT, "lowest").values())
    assert p[:4] == [Fraction(9, 36)] + [Fraction(3, 36)] * 3
    for g in (1, 2, 3):
        assert p[4 * g:4 * g + 4] == [Fraction(3, 36)] + [Fraction(1, 36)] * 3
    q = growth_step_probabilities(SKILLS, "highest")
    assert q["sense_1"] == Fraction(1, 4) and q["physical_1"] == Fraction(3, 36)
    assert set(growth_step_probabilities(SKILLS, "random").values()) == {Fraction(1, 16)}


def test_growth_zero_rolls():
    d = growth_distribution(SKILLS, 0)
    assert d.states == {tuple(SKILLS): 1}
    assert d.expected_gain() == [0] * 16


@pytest.mark.parametrize("choice", ["lowest", "highest", "random"])
@pytest.mark.parametrize("k, amount", [(1, 1), (3, 1), (4, 2)])
def test_growth_distribution_is_a_distribution(choice, k, amount):
    d = growth_distribution(SKILLS, k, amount=amount, choice=choice)
    assert sum(d.states.values()) == 1
    assert sum(d.expected_gain()) == k * amount
    for s in d.states:
        assert sum(s) - sum(SKILLS) == k * amount
        assert all(a >= b and (a - b) % amount == 0 for a, b in zip(s, SKILLS))


def test_growth_random_is_multinomial():
    k = 5
    d = growth_distribution(SKILLS, k, choice="random")
    for i in range(16):
        m = d.marginal(i)
        for j in range(k + 1):
            assert m[SKILLS[i] + j] == comb(k, j) * Fraction(1, 16) ** j * Fraction(15, 16) ** (k - j)
    assert d.expected_gain() == [Fraction(k, 16)] * 16


def test_growth_lowest_two_rolls_by_hand():
    # mind_1 = 6 raised once (1/4) becomes 7: the global lowest is now physical_4 = 7 (the
    # leftmost 7), so free groups go to physical; inside mind, mind_1 (7) still wins the tie
    # with mind_2 (7): 1/36 + 2/36 = 1/12 for the second raise
    d = growth_distribution(SKILLS, 2)
    assert d.marginal("mind_1")[8] == Fraction(1, 4) * Fraction(1, 12)
    assert d.p_raised()[12] == 1 - Fraction(3, 4) ** 2


def test_growth_six_rolls_fast():
    import time

    t = time.perf_counter()
    d = growth_distribution(SKILLS, 6, choice="random")
    d.to_json()
    assert time.perf_counter() - t < 5
    assert len(d.states) == comb(21, 6)


@pytest.mark.parametrize("choice", ["lowest", "highest", "random"])
def test_growth_mc_matches_exact(choice):
    k, amount = 4, 2
    exact = [float(x) for x in growth_distribution(SKILLS, k, amount=amount, choice=choice).expected_gain()]
    mc = growth_mc(SKILLS, k, games=60_000, seed=5, amount=amount, choice=choice)
    assert mc.hist.shape == (16, k + 1) and (mc.hist.sum(axis=1) == mc.games).all()
    assert (mc.hist.sum(axis=0) * np.arange(k + 1)).sum() == k * mc.games
    # sees a mean gain moved by (4 + 1.28)·se (tests/power.py detectable_shift): < 0.05 of a skill point here
    assert np.all(np.abs(mc.mean_gain - exact) <= 4 * mc.se + 1e-12), (mc.mean_gain, exact)
    assert np.all(detectable_shift(mc.se) < 0.05), detectable_shift(mc.se)
    assert np.allclose(mc.mean, np.array(SKILLS) + mc.mean_gain)


def test_growth_mc_histogram_matches_exact_marginal():
    k = 3
    d = growth_distribution(SKILLS, k)
    mc = growth_mc(SKILLS, k, games=60_000, seed=9)
    for i in (3, 12, 13):
        m = d.marginal(i)
        for j in range(k + 1):
            p = float(m.get(SKILLS[i] + j, 0))
            se = max(np.sqrt(p * (1 - p) / mc.games), 1e-12)
            assert abs(mc.hist[i, j] / mc.games - p) <= 4 * se


def test_growth_mc_reproducible():
    a = growth_mc(SKILLS, 3, games=2000, seed=1)
    b = growth_mc(SKILLS, 3, games=2000, seed=1)
    assert np.array_equal(a.hist, b.hist)


@pytest.mark.parametrize("kw", [dict(k=-1), dict(k=9), dict(k=2, amount=0), dict(k=2, choice="best")])
def test_growth_errors(kw):
    with pytest.raises(SimInputError):
        growth_distribution(SKILLS, **kw)


def test_growth_mc_errors():
    with pytest.raises(SimInputError):
        growth_mc(SKILLS, 2, games=0)


# --- labour ----------------------------------------------------------------------------------
def test_labour_exact_by_hand():
    r = labour_exact(10)
    assert r.check["success"] == Fraction(1, 2)
    assert r.expected_cr == 7
    assert r.expected_mp_lost == Fraction(1, 2) * Fraction(7, 2)
    assert r.mp_lost.probability(0) == Fraction(1, 2) and r.mp_lost.probability(6) == Fraction(1, 12)
    assert r.cr.probability(7) == Fraction(1, 6)
    low = labour_exact(2)  # only a critical succeeds
    assert low.expected_mp_lost == Fraction(215, 216) * Fraction(7, 2)
    high = labour_exact(30)  # only a fumble fails
    assert high.expected_mp_lost == Fraction(1, 216) * Fraction(7, 2)
    assert labour_exact(10, penalty=2).check == check_probability(10, 2)
    dbl = labour_exact(10, critical_double=True)
    assert dbl.expected_cr == 7 + Fraction(7, 216)


@pytest.mark.parametrize("skill, penalty, dbl", [(10, 0, False), (12, 3, True), (2, 0, False)])
def test_labour_mc_matches_exact(skill, penalty, dbl):
    ex = labour_exact(skill, penalty, critical_double=dbl)
    mc = labour_mc(skill, games=100_000, seed=3, penalty=penalty, critical_double=dbl)
    assert abs(mc.mean_cr - float(ex.expected_cr)) <= 4 * mc.se_cr
    assert abs(mc.mean_mp_lost - float(ex.expected_mp_lost)) <= 4 * mc.se_mp_lost
    p = float(ex.check["success"])
    assert abs(mc.success_rate - p) <= 4 * np.sqrt(p * (1 - p) / mc.games) + 1e-12
    for v, c in zip(mc.mp_values.tolist(), mc.mp_counts.tolist()):
        q = float(ex.mp_lost.probability(v))
        assert abs(c / mc.games - q) <= 4 * np.sqrt(q * (1 - q) / mc.games) + 1e-12
    assert mc.cr_counts.sum() == mc.games


def test_labour_errors():
    with pytest.raises(SimInputError):
        labour_mc(10, games=0)
    with pytest.raises(SimInputError):
        labour_exact("ten")


# --- sleep -----------------------------------------------------------------------------------
@pytest.mark.parametrize("awake, slept, pen", [
    (16, 0, 0), (18, 0, 0), (18.5, 0, 0), (19, 0, 1), (20, 0, 2), (24, 0, 6), (21, 3, 3), (21, 5.9, 3),
    (21, 6, 0), (30, 8, 0),
])
def test_sleep_penalty(awake, slept, pen):
    assert sleep_penalty(awake, slept) == pen


@pytest.mark.parametrize("bad", [(-1, 0), (10, -2), (float("nan"), 0), ("x", 0)])
def test_sleep_penalty_errors(bad):
    with pytest.raises(SimInputError):
        sleep_penalty(*bad)


def test_sleep_recovery():
    assert sleep_mp_recovery(0).probability(0) == 1
    assert sleep_mp_recovery(2.9).probability(0) == 1
    assert sleep_mp_recovery(3).equals(icepool.d6)
    assert sleep_mp_recovery(7).equals(2 @ icepool.d6)
    assert sleep_mp_recovery(9).equals(3 @ icepool.d6)
    capped = sleep_mp_recovery(7, mp=5, max_mp=8)  # at most 3 MP of room
    assert capped.probability(2) == Fraction(1, 36) and capped.probability(3) == Fraction(35, 36)
    assert sleep_mp_recovery(7, mp=9, max_mp=8).probability(0) == 1
    with pytest.raises(SimInputError):
        sleep_mp_recovery(7, mp=5)


def test_sleep_check_probability():
    assert sleep_check_probability(10, 21, 0) == check_probability(10, 3)
    assert sleep_check_probability(10, 21, 6) == check_probability(10, 0)
    assert sleep_check_probability(10, 20, 0, penalty=1) == check_probability(10, 3)


# --- CLI -------------------------------------------------------------------------------------
runner = CliRunner()
CSV = ",".join(map(str, SKILLS))


def invoke(*args):
    return runner.invoke(app, list(args))


def assert_input_error(r, *words):
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    for w in words:
        assert w in lines[0]


def test_cli_check():
    r = invoke("check", "--target", "10", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)["probabilities"]
    assert d["success"] == {"p": 0.5, "exact": "1/2"}
    assert d["critical"]["exact"] == "1/216"
    r = invoke("check", "--target", "2")
    assert r.exit_code == 0 and "1/216" in r.stdout and "success" in r.stdout


def test_cli_labour():
    r = invoke("labour", "--skill", "10", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["expected_cr"]["exact"] == "7/1" and d["expected_mp_lost"]["exact"] == "7/4"
    assert abs(sum(x["p"] for x in d["mp_lost"]) - 1) < 1e-12
    r = invoke("labour", "--skill", "11", "--penalty", "1")
    assert r.exit_code == 0 and "MP lost" in r.stdout


def test_cli_sleep():
    r = invoke("sleep", "--awake", "21", "--slept", "4", "--skill", "10", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["penalty"] == 3 and d["recovery_dice"] == "1d6"
    assert d["check"]["probabilities"]["success"]["exact"] == "35/216"
    r = invoke("sleep", "--awake", "20", "--slept", "7")
    assert r.exit_code == 0 and "2d6" in r.stdout


def test_cli_growth_inline_and_files(tmp_path):
    r = invoke("growth", "--skills", CSV, "--rolls", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["rolls"] == 2 and len(d["skills"]) == 16
    assert d["skills"][12]["p_raised_exact"] == "7/16"
    assert abs(sum(s["expected_gain"] for s in d["skills"]) - 2) < 1e-12
    names = [f"sk{i}" for i in range(16)]
    (tmp_path / "s.csv").write_text("name,value\n" + "\n".join(f"{n},{v}" for n, v in zip(names, SKILLS)))
    (tmp_path / "s.json").write_text(json.dumps(SKILLS))
    (tmp_path / "s.toml").write_text("[skills]\n" + "\n".join(f"{n} = {v}" for n, v in zip(names, SKILLS)))
    for f in ("s.csv", "s.json", "s.toml"):
        r = invoke("growth", "--skills", str(tmp_path / f), "--rolls", "2", "--json")
        assert r.exit_code == 0, (f, r.output)
        assert json.loads(r.stdout)["skills"][12]["p_raised_exact"] == "7/16"
    r = invoke("growth", "--skills", ",".join(f"{n}={v}" for n, v in zip(names, SKILLS)), "--rolls", "3",
               "--choice", "random", "--amount", "2")
    assert r.exit_code == 0 and "sk15" in r.stdout


@pytest.mark.parametrize("args, words", [
    (("growth", "--skills", "1,2,3", "--rolls", "2"), ["16 skills"]),
    (("growth", "--skills", CSV, "--rolls", "2", "--choice", "best"), ["best"]),
    (("growth", "--skills", CSV, "--rolls", "50"), ["growth rolls"]),
    (("growth", "--skills", CSV, "--rolls", "2", "--amount", "0"), ["amount"]),
    (("growth", "--skills", "missing/skills.csv", "--rolls", "2"), ["not found"]),
    (("growth", "--skills", "a,b", "--rolls", "2"), ["skills"]),
    (("sleep", "--awake", "-3"), ["hours awake"]),
    (("sleep", "--awake", "20", "--slept", "7", "--mp", "3"), ["MP"]),
])
def test_cli_bad_input(args, words):
    assert_input_error(invoke(*args), *words)
