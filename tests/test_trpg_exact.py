"""Exact 1v1 TRPG duels (sim/trpg/exact.py): hand-checked values, the Monte Carlo engine, bad sheets, CLI.

Monte Carlo tolerance: the engine (``sim.trpg.game.run``, fixed seed) plays N combats of the
same scenario; every side's win rate and the draw rate must be within 4·SE of the exact value,
SE = sqrt(p(1 − p)/N), and the mean number of rounds within 4·sd/sqrt(N) with sd the exact
standard deviation of the rounds (a false alarm has probability ≈ 6e-5 per quantity). An
exact probability of 0 must be observed exactly 0 times.
"""
from __future__ import annotations

import json
import math
from fractions import Fraction as Fr
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import sim.trpg.exact as exact_mod
from sim.errors import SimInputError
from sim.trpg.cli_exact import app as exact_app
from sim.trpg.exact import duel_exact, duel_exact_builds
from sim.trpg.game import run
from sim.trpg.matrix import load_builds, pair_scenario
from sim.trpg.sheets import build_config, compile_setup
from tests.power import detectable_effect

DATA = Path(__file__).resolve().parents[1] / "sim" / "trpg" / "data"
BUILDS = DATA / "builds.toml"

W = {
    "one": {"dice": "1", "kind": "melee"},
    "zero": {"dice": "0", "kind": "melee"},
    "nine": {"dice": "9", "kind": "melee"},
    "club4": {"dice": "4", "kind": "melee"},
    "claw13": {"dice": "13", "kind": "melee", "physical": False},
    "holy": {"dice": "1", "kind": "melee", "enhanced": True},
    "pebble": {"dice": "1", "kind": "thrown", "bands": {"zero": 2, "near": -1}, "unlimited": True},
    # for the Monte Carlo comparisons
    "spear": {"dice": "2d6+1", "kind": "melee"},
    "club": {"dice": "1d6", "kind": "melee"},
    "claw": {"dice": "1d6+3", "kind": "melee", "physical": False},
    "blessed": {"dice": "1d6+1", "kind": "melee", "enhanced": True},
    "sling": {"dice": "1d6+2", "kind": "thrown", "bands": {"zero": 2, "near": -1}},
    "bow": {"dice": "2d6+3", "kind": "ranged", "bands": {"zero": 3, "near": 1}},
    "big": {"dice": "2d10", "kind": "melee"},
}


def scen(a: dict, b: dict, first: str = "a", rules: dict | None = None, dist: int = 0):
    cfg = {"scenario": {"name": "duel", "sides": ["a", "b"], "first": first}, "weapons": W,
           "characters": {"x": {"side": "a", "position": 0, **a}, "y": {"side": "b", "position": dist, **b}}}
    if rules:
        cfg["rules"] = rules
    return compile_setup(build_config(cfg))


def C(hp, melee=10, dodge=10, shooting=10, weapons=("knife",), reaction="none", **kw):
    """A character sheet (strategy entries in ``kw["strategy"]`` override ``reaction``)."""
    strategy = {"reaction": reaction, **kw.pop("strategy", {})}
    return dict(hp=hp, skills=dict(melee=melee, dodge=dodge, shooting=shooting), weapons=list(weapons),
                strategy=strategy, **kw)


def ex(sc):
    """Exact values as Fractions."""
    r = duel_exact(sc, fractions=True)
    e = r["exact"]
    return Fr(e["win_rate"]["a"]), Fr(e["win_rate"]["b"]), Fr(e["draw_rate"]), Fr(e["mean_rounds"])


P_HIT = Fr(215, 216)  # skill 30: everything but the natural 18
Q = Fr(1, 216)  # a natural 3 or a natural 18
HIT_ALLY = {"fumble": "hit_ally"}  # a duellist's fumble just misses (no lost turn)


# --- (1) hand-checkable duels ------------------------------------------------------------------
def test_certain_hits_one_round():
    # a hits unless it rolls 18; then b hits unless it rolls 18; otherwise a draw after round 1
    a, b, d, r = ex(scen(C(1, 30, weapons=["one"]), C(1, 30, weapons=["one"]), rules={"max_rounds": 1}))
    assert (a, b, d, r) == (P_HIT, Q * P_HIT, Q * Q, 1)


@pytest.mark.parametrize("first", ["a", "b"])
def test_certain_hits_lost_turns(first):
    # A fumble costs the next turn: after a fumbles and b fumbles, round 2 is two lost
    # turns, and round 3 starts afresh. 100 rounds = 50 such cycles.
    sc = scen(C(1, 30, weapons=["one"]), C(1, 30, weapons=["one"]), first=first)
    a, b, d, r = ex(sc)
    cycles = [Q ** (2 * k) for k in range(50)]
    p_first, p_second = P_HIT * sum(cycles), Q * P_HIT * sum(cycles)
    assert (a, b) == ((p_first, p_second) if first == "a" else (p_second, p_first))
    assert d == Q ** 100
    assert r == sum((2 * k + 1) * (P_HIT + Q * P_HIT) * c for k, c in enumerate(cycles)) + 100 * Q ** 100
    assert float(a) == pytest.approx(216 / 217 if first == "a" else 1 / 217)  # 100 rounds ≈ forever


def test_dodge():
    # b dodges with 10 (108/216 incl. the critical); a has no reaction
    a, b, d, r = ex(scen(C(1, 30, weapons=["one"]), C(1, 30, 10, weapons=["one"], reaction="dodge"),
                         rules={"max_rounds": 1, **HIT_ALLY}))
    assert a == P_HIT * Fr(1, 2)
    assert b == (1 - a) * P_HIT
    assert d == (1 - a) * Q


def test_auto_reaction_by_expected_damage():
    # T-11: a club in hand guards a club's 1d6 away (expected 0): auto guards; with fists
    # only, an arm guard would cost 8 later punches at +4: auto dodges; with dodge_threshold
    # above its chance it may not dodge, and taking the knife beats hurting an arm
    for mine, att, extra, same_as in ((["club"], "club", {}, "guard"), (["fists"], "knife", {}, "dodge"),
                                      (["fists"], "knife", {"dodge_threshold": 0.9}, "none")):
        a_ = C(10, 12, weapons=[att])
        auto = duel_exact(scen(a_, C(12, 11, 9, weapons=mine, strategy={"reaction": "auto", **extra})))
        fixed = duel_exact(scen(a_, C(12, 11, 9, weapons=mine, reaction=same_as)))
        assert auto["win_rate"] == fixed["win_rate"] and auto["mean_rounds"] == fixed["mean_rounds"], (mine, extra)


def test_critical_doubles_damage():
    # a hits only on a natural 3 (skill 0), for 1 × 2 = 2 damage: b (2 HP) falls at a's first critical
    R = 100
    a, b, d, r = ex(scen(C(1, 0, weapons=["one"]), C(2, 30, weapons=["zero"]), rules=HIT_ALLY))
    assert a == 1 - (1 - Q) ** R and b == 0 and d == (1 - Q) ** R
    assert r == sum((1 - Q) ** k for k in range(R))


def test_critical_free_action():
    # free_action: no doubling, but one more attack; b (2 HP) needs two criticals in total
    R = 10
    a, b, d, _ = ex(scen(C(1, 0, weapons=["one"]), C(2, 30, weapons=["zero"]),
                         rules={"critical": "free_action", "max_rounds": R, **HIT_ALLY}))
    assert a == 1 - (1 - Q) ** R - R * Q * (1 - Q) ** R and b == 0


def test_free_action_attack_after_a_dodge_cannot_be_dodged():
    # b dodges the critical (215/216) and has spent its sub action: the extra attack lands on a natural 3
    a, *_ = ex(scen(C(1, 0, weapons=["one"]), C(1, 30, 30, weapons=["zero"], reaction="dodge"),
                    rules={"critical": "free_action", "max_rounds": 1, **HIT_ALLY}))
    assert a == Q * Q + Q * P_HIT * Q


@pytest.mark.parametrize("hp, expected", [(4, P_HIT), (5, Q), (9, Q), (10, 0)])
def test_armour_then_items(hp, expected):
    # 9 → 9 − floor(9·40/100) = 6 → −1 fixed = 5 → −1 items = 4; critical 18 → 11 → 10 → 9
    b_ = C(hp, weapons=["zero"], armour={"pct": 40, "fixed": 1}, items={"reduction": 1})
    a, *_ = ex(scen(C(1, 30, weapons=["nine"]), b_, rules={"max_rounds": 1, **HIT_ALLY}))
    assert a == expected


@pytest.mark.parametrize("weapon, expected", [("one", 0), ("holy", 1 - Q ** 3), ("claw13", 1 - Q ** 3)])
def test_kaii_immunity(weapon, expected):
    # physical, not enhanced: nothing; enhanced or non-physical: a hit kills
    a, b, d, _ = ex(scen(C(1, 30, weapons=[weapon]), C(1, kaii=True, weapons=["zero"]),
                         rules={"max_rounds": 3, **HIT_ALLY}))
    assert a == expected and b == 0 and d == 1 - expected


@pytest.mark.parametrize("weapons, hp, expected", [
    (["pebble"], 10, Q),  # a thrown weapon guards as an arm: last digit 0 — 9 → 0, critical 18 → 10
    (["pebble"], 11, 0),
    (["club4"], 5, P_HIT),  # a melee weapon subtracts its roll: 9 − 4 = 5, critical 14
    (["club4"], 6, Q),
    (["pebble", "club4"], 5, Q),  # only the equipped weapon guards (the pebble: an arm)
    (["club4", "pebble"], 5, P_HIT),
])
def test_weapon_guard(weapons, hp, expected):
    a, *_ = ex(scen(C(1, 30, weapons=["nine"]), C(hp, weapons=weapons, reaction="guard"),
                    rules={"max_rounds": 1, **HIT_ALLY}))
    assert a == expected


@pytest.mark.parametrize("parts, expected", [(["left_arm", "right_arm"], Q), ([], P_HIT)])
def test_arm_guard_against_non_physical(parts, expected):
    # weapons cannot guard a non-physical attack; an arm makes 13 → 10 (critical 26 → 20)
    a, *_ = ex(scen(C(1, 30, weapons=["claw13"]), C(11, weapons=["zero"], reaction="guard", guard_parts=parts),
                    rules={"max_rounds": 1, **HIT_ALLY}))
    assert a == expected


def test_damaged_arm_penalises_attacks():
    # a's 13 is guarded by b's arm (absorbs 3): b's melee 12 check then needs 3d6 + 3 <= 12 (81/216);
    # after a's miss (only a natural 18 here) b attacks unhurt (160/216). A critical (26 → 20) fells b.
    a, b, d, _ = ex(scen(C(1, 30, weapons=["claw13"]), C(20, 12, weapons=["one"], reaction="guard"),
                         rules={"max_rounds": 1, **HIT_ALLY}))
    assert a == Q
    assert b == Fr(214, 216) * Fr(81, 216) + Q * Fr(160, 216)


@pytest.mark.parametrize("dist, hits", [(0, 10), (1, 56)])
def test_band_modifier_and_sleep_penalty(dist, hits):
    # shooting 10, sleep +3 (21 h awake); pebble +2 in the same square (≤ 5: 10/216), −1 near (≤ 8: 56/216)
    a, *_ = ex(scen(C(1, shooting=10, weapons=["pebble"]), C(1, weapons=["zero"]), dist=dist,
                    rules={"max_rounds": 1, "awake_hours": 21, **HIT_ALLY}))
    assert a == Fr(hits, 216)


def test_float_matches_fractions():
    sc = scen(C(6, 12, 10, weapons=["club"], reaction="dodge"), C(7, 11, 9, weapons=["club"], reaction="guard"))
    f, q = duel_exact(sc), duel_exact(sc, fractions=True)
    for side in ("a", "b"):
        assert f["win_rate"][side] == pytest.approx(float(Fr(q["exact"]["win_rate"][side])), abs=1e-13)
    assert f["mean_rounds"] == pytest.approx(float(Fr(q["exact"]["mean_rounds"])), rel=1e-13)
    assert f["characters"][0]["fall_rate"] == f["win_rate"]["b"]


# --- (2) the Monte Carlo engine agrees ---------------------------------------------------------
GAMES = 200_000
SEED = 2718

MC_CASES = {
    "plain": (C(8, 11), C(10, 10), {}),
    "dodge-b-first": (C(9, 12, 11, weapons=["bat"], reaction="dodge"), C(12, 11, 12, reaction="dodge"),
                      {"first": "b"}),
    "auto-armour-items": (C(18, 13, 9, weapons=["big"], reaction="auto", armour={"pct": 25, "fixed": 1}),
                          C(16, 13, 11, weapons=["spear"], reaction="auto", armour={"pct": 50, "fixed": 2},
                            items={"reduction": 1}), {}),
    "kaii-enhanced": (C(10, 12, 10, weapons=["blessed", "club"], reaction="dodge"),
                      C(12, 11, 9, weapons=["claw"], reaction="dodge", kaii=True), {}),
    "kaii-immune-draws": (C(10, 12, 10, weapons=["club"], reaction="dodge"),
                          C(12, 8, 9, weapons=["claw"], reaction="dodge", kaii=True), {"rules": {"max_rounds": 12}}),
    "guard-arms": (C(14, 12, weapons=["claw"], reaction="guard"),
                   C(14, 12, weapons=["claw"], reaction="guard", guard_parts=["right_arm"]), {}),
    "guard-weapon-roll": (C(14, 12, weapons=["big"], reaction="guard"),
                          C(16, 13, weapons=["spear", "club"], reaction="guard"), {}),
    "guard-digit-near-sleep": (C(12, shooting=13, weapons=["bow", "sling"], reaction="guard"),
                               C(12, 12, weapons=["spear"], reaction="guard"),
                               {"dist": 1, "rules": {"awake_hours": 20}}),
    "free-action-hit-ally": (C(10, 11, 10, weapons=["spear"], reaction="dodge"),
                             C(11, 12, 10, weapons=["club"], reaction="guard"),
                             {"rules": {"critical": "free_action", "fumble": "hit_ally"}}),
    "free-action-arms": (C(12, 12, 12, weapons=["claw"], reaction="dodge"),
                         C(14, 14, 9, weapons=["claw"], reaction="guard"), {"rules": {"critical": "free_action"}}),
    "short-max-rounds": (C(9, 12, 10, weapons=["spear"], reaction="dodge"),
                         C(10, 12, 10, weapons=["spear"], reaction="dodge"), {"rules": {"max_rounds": 2}}),
}


def assert_agrees(sc, games, seed):
    e = duel_exact(sc)
    j = run(games, seed, scenario=sc, threads=2).to_json()
    for p, got in [(e["win_rate"][s], j["win_rate"][s]) for s in ("a", "b")] + [(e["draw_rate"], j["draw_rate"])]:
        if p < 1e-12:  # impossible outcomes never happen
            assert got == 0, (p, got)
            continue
        se = math.sqrt(p * (1 - p) / games)
        # sees shifts of detectable_effect(games, p) (tests/power.py): at most 0.6 points at
        # 200,000 games; a smaller bug needs an exact test (tests/test_trpg_exact_fumbles.py)
        assert abs(got - p) <= 4 * se, (got, p, se, detectable_effect(games, p))
    se = e["sd_rounds"] / math.sqrt(games)
    assert abs(j["mean_rounds"] - e["mean_rounds"]) <= 4 * se + 1e-12, (j["mean_rounds"], e["mean_rounds"], se)
    return e, j


@pytest.mark.parametrize("name", list(MC_CASES))
def test_monte_carlo_agrees(name):
    a, b, kw = MC_CASES[name]
    assert_agrees(scen(a, b, **kw), GAMES, SEED)


def test_monte_carlo_agrees_builds():
    # the example builds at the matrix's distance (long duels: fewer combats, same 4·SE rule)
    cfg = load_builds(BUILDS)
    sc = pair_scenario(cfg, "brawler", "dodger", "b")
    e, _ = assert_agrees(sc, 50_000, SEED)
    assert e == {**duel_exact_builds(BUILDS, "brawler", "dodger", "b"), "seconds": e["seconds"]}


def test_builds_use_the_matrix_distance(tmp_path):
    # a thrown weapon is +2 in the same square, −1 near: the builds pair stands as the matrix puts it
    f = tmp_path / "b.toml"
    f.write_text('[matrix]\ndistance = 1\n[weapons.pebble]\ndice = "1d6"\nkind = "thrown"\nunlimited = true\n'
                 'bands = { zero = 2, near = -1 }\n'
                 '[builds.p]\nhp = 8\nskills = { shooting = 11, melee = 9 }\nweapons = ["pebble"]\n'
                 '[builds.q]\nhp = 9\nskills = { melee = 11 }\nweapons = ["club"]\n'
                 '[weapons.club]\ndice = "1d6"\nkind = "melee"\n')
    got = duel_exact_builds(f, "p", "q")
    cfg = load_builds(f)
    at = {}
    for dist in (0, 1):
        cfg["matrix"]["distance"] = dist
        at[dist] = duel_exact(pair_scenario(cfg, "p", "q", "a"))
    assert got["win_rate"] == at[1]["win_rate"] != at[0]["win_rate"]
    # a distance the model cannot play (melee two squares apart): one error that names it
    f.write_text(f.read_text(encoding="utf-8").replace("distance = 1", "distance = 2"), encoding="utf-8")
    with pytest.raises(SimInputError, match=r"does not reach distance 2.*\[matrix\] distance = 2"):
        duel_exact_builds(f, "q", "p")


# --- (3) sheets outside the model ---------------------------------------------------------------
@pytest.mark.parametrize("a, b, kw, words", [
    (C(5, abilities=[{"kind": "damage_bonus", "dice": "1d6"}]), C(5), {}, "abilities"),
    (C(5, weapons=["pistol"]), C(5), {}, "ammunition"),
    (C(5), C(5, strategy={"reaction": "mymod:react"}), {}, "plug-in"),
    (C(5, mp=2, strategy={"reaction": "none", "monologue": "low_mp"}), C(5), {}, "low_mp"),
    (C(5), C(5), {"dist": 2}, "does not reach"),
    (C(5, weapons=["stone"], strategy={"reaction": "none", "movement": "keep_range"}), C(5), {}, "keep_range"),
])
def test_rejected(a, b, kw, words):
    with pytest.raises(SimInputError, match=words) as e:
        duel_exact(scen(a, b, **kw))
    assert "\n" not in str(e.value) and str(e.value).startswith("exact duel")


def test_rejected_not_one_v_one():
    cfg = {"scenario": {"sides": ["a", "b"]},
           "characters": {"x": {"side": "a", **C(5)}, "y": {"side": "b", **C(5)}, "z": {"side": "b", **C(5)}}}
    with pytest.raises(SimInputError, match="two characters"):
        duel_exact(compile_setup(build_config(cfg)))
    with pytest.raises(SimInputError):
        duel_exact("not a scenario")


def test_rejected_too_many_states(monkeypatch):
    monkeypatch.setattr(exact_mod, "MAX_STATES", 50)
    with pytest.raises(SimInputError, match="states"):
        duel_exact(scen(C(30), C(30)))


def test_inert_features_accepted():
    # unequipped ammunition weapons, monologue fallen / low_mp with MP > 2, a target plug-in, cover
    r = duel_exact(scen(C(5, weapons=["knife", "pistol"], strategy={"reaction": "guard", "monologue": "low_mp",
                                                                    "target": "mymod:pick", "cover": False}),
                        C(5, mp=0, strategy={"reaction": "dodge", "monologue": "fallen"})))
    assert sum(r["win_rate"].values()) + r["draw_rate"] == pytest.approx(1)


def test_builds_bad_names():
    with pytest.raises(SimInputError, match="unknown build 'nope'"):
        duel_exact_builds(BUILDS, "tank", "nope")
    with pytest.raises(SimInputError, match="--first"):
        duel_exact_builds(BUILDS, "tank", "dodger", first="c")


# --- (4) CLI ----------------------------------------------------------------------------------------
def cli(*args):
    parent = typer.Typer()  # registered like `sim trpg`: the command appended to a group

    @parent.callback()
    def _group():
        pass

    for cmd in exact_app.registered_commands:
        parent.registered_commands.append(cmd)
    return CliRunner().invoke(parent, ["exact", *map(str, args)])


def test_cli_builds_json():
    r = cli("--builds", BUILDS, "--a", "dodger", "--b", "tank", "--first", "b", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["first"] == "b" and d["arithmetic"] == "float64"
    assert d["win_rate"] == duel_exact_builds(BUILDS, "dodger", "tank", "b")["win_rate"]
    assert sum(d["win_rate"].values()) + d["draw_rate"] == pytest.approx(1)


def test_cli_scenario_json_fractions_and_table(tmp_path):
    f = tmp_path / "duel.toml"
    f.write_text('[scenario]\nsides = ["p", "q"]\n[rules]\nmax_rounds = 1\n'
                 '[characters.x]\nside = "p"\nhp = 1\nskills = { melee = 30 }\nstrategy = { reaction = "none" }\n'
                 '[characters.y]\nside = "q"\nhp = 1\nskills = { melee = 30 }\nstrategy = { reaction = "none" }\n')
    r = cli(f, "--set", "rules.fumble=hit_ally", "--fractions", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["exact"]["win_rate"] == {"p": "215/216", "q": "215/46656"}
    r = cli(f)
    assert r.exit_code == 0 and "exact outcome per character" in r.output


@pytest.mark.parametrize("args", [
    ("--builds", BUILDS, "--a", "gunslinger", "--b", "tank"),  # ammunition, keep_range
    ("--builds", BUILDS, "--a", "tank"),
    (DATA / "scenarios" / "alley.toml",),  # 2v2
    (),
    ("no/such/file.toml",),
])
def test_cli_bad_input(args):
    r = cli(*args)
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.output
