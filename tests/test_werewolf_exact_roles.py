"""The Monte Carlo engine under random play agrees with the role chain (sim/werewolf/exact_roles.py).

Every seed role, every vote / start / end rule, the runoff cap, R-2 (``accomplice_counts_as``),
R-6 (``abilities_after_elimination``), changed role data and a binding ``max_days``.

Tolerance: for each case the engine's village win rate over N = 200 000 games at a fixed seed
must be within 4·SE of the chain's value, SE = sqrt(p(1 − p)/N) with p the chain's value
(a false alarm has probability ≈ 6.3e-5 per check, ≈ 4e-3 over the ≈ 60 checks of this
file); likewise the draw rate (where the chain has draws) and the mean number of days,
whose SE uses the engine's sample standard deviation from ``days_hist``. On
werewolf / villager / seer tables the chain must equal the fraction solver to 1e-12.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.werewolf.exact import END_RULES, STARTS, VOTE_RULES, exact_summary
from sim.werewolf.exact_roles import chain_of, roles_summary, solve
from sim.werewolf.game import run
from sim.werewolf.roles import resolve_setup

GAMES = 200_000
SEED = 271828
DEFAULT = "fenrir,hati,accomplice,seer,medium,paladin,witch,villager*5"

# (roles, --set items)
CASES = [
    (DEFAULT, []),
    (DEFAULT, ["variants.start=night"]),
    (DEFAULT, ["variants.vote_rule=plurality"]),
    (DEFAULT, ["variants.vote_rule=random_lynch", "variants.end_rule=no_villagers"]),
    (DEFAULT, ["variants.end_rule=no_villagers"]),
    (DEFAULT, ["variants.accomplice_counts_as=village"]),
    (DEFAULT, ["variants.abilities_after_elimination=true"]),
    (DEFAULT, ["variants.max_runoffs=0"]),
    (DEFAULT, ["variants.max_runoffs=1", "variants.start=night"]),
    (DEFAULT, ["variants.max_days=3"]),                         # draws
    (DEFAULT, ["roles.fenrir.drag=1", "roles.paladin.protect_count=3"]),
    ("fenrir,werewolf,villager*6", []),
    ("fenrir*2,villager*8", []),                                # two drags in one two-way tie
    ("hati,werewolf,seer,medium,villager*4", []),
    ("paladin,werewolf*2,villager*6", []),
    ("paladin,werewolf*2,villager*5", ["roles.paladin.protect_count=3"]),
    ("paladin,werewolf*2,villager*6", ["roles.paladin.protect_count=1", "variants.start=night"]),
    ("paladin,werewolf,villager*2", ["variants.end_rule=no_villagers", "variants.max_runoffs=0"]),
    ("witch,werewolf*2,villager*5", []),
    ("witch,werewolf*2,villager*5", ["variants.abilities_after_elimination=true", "variants.start=night"]),
    ("accomplice,werewolf,villager*5", ["variants.accomplice_counts_as=village"]),
    ("accomplice,werewolf*2,villager*6", ["variants.vote_rule=plurality"]),
    ("paladin,witch,werewolf,villager*3", ["variants.abilities_after_elimination=true"]),
    ("fenrir,paladin,witch,villager*4", ["variants.vote_rule=random_lynch"]),
    ("fenrir,witch,villager*3", ["variants.end_rule=no_villagers", "variants.max_days=4"]),
]


def _id(case):
    roles, sets = case
    return (roles if roles != DEFAULT else "default") + ("|" + ",".join(s.split(".", 1)[1] for s in sets)
                                                         if sets else "")


@pytest.mark.parametrize("roles, sets", CASES, ids=[_id(c) for c in CASES])
def test_monte_carlo_matches_chain(roles, sets):
    ex = roles_summary(resolve_setup(None, sets, roles))
    r = run(GAMES, SEED, roles=roles, sets=sets, threads=2)
    row = r.summary.row(0, named=True)

    p = ex["village_win"]
    se = math.sqrt(p * (1 - p) / GAMES)
    assert abs(row["village_win_rate"] - p) <= 4 * se, (row["village_win_rate"], p, se)
    assert ex["village_win"] + ex["wolf_win"] + ex["draws"] == pytest.approx(1, abs=1e-12)
    q = ex["draws"]
    drawn = row["draws"] / GAMES
    if q > 1e-9:
        assert abs(drawn - q) <= 4 * math.sqrt(q * (1 - q) / GAMES), (drawn, q)
    else:
        assert row["draws"] == 0

    dh = r.totals["days_hist"].astype(float)
    d = np.arange(len(dh))
    sd = math.sqrt(float((dh * (d - row["mean_days"]) ** 2).sum() / GAMES))
    assert abs(row["mean_days"] - ex["expected_days"]) <= 4 * sd / math.sqrt(GAMES), (row["mean_days"], ex)


@pytest.mark.parametrize("vr", VOTE_RULES)
@pytest.mark.parametrize("st", STARTS)
@pytest.mark.parametrize("er", END_RULES)
def test_chain_equals_fraction_solver(vr, st, er):
    for w, v, s in ((1, 3, 1), (2, 5, 1), (3, 7, 0)):
        sets = [f"variants.vote_rule={vr}", f"variants.start={st}", f"variants.end_rule={er}"]
        got = roles_summary(resolve_setup(None, sets, f"werewolf*{w},villager*{v},seer*{s}"))
        want = exact_summary(w, v, s, vote_rule=vr, start=st, end_rule=er)
        assert got["village_win"] == pytest.approx(want["village_win"], abs=1e-12)
        assert got["expected_days"] == pytest.approx(want["expected_days"], abs=1e-12)
        assert got["draws"] == 0


def test_default_table_is_small_and_fast():
    ex = roles_summary(resolve_setup(None, (), DEFAULT))
    assert ex["states"] < 2000 and ex["seconds"] < 30
    assert [sorted(c["roles"]) for c in ex["classes"]] == [["medium", "seer", "villager"], ["paladin"], ["witch"],
                                                          ["accomplice"], ["fenrir"], ["hati"]]


def test_seer_medium_hati_do_not_change_random_play():
    a = solve(chain_of(resolve_setup(None, (), "hati,werewolf,seer,medium,villager*4")))
    b = solve(chain_of(resolve_setup(None, (), "werewolf*2,villager*6")))
    assert a["village_win"] == pytest.approx(b["village_win"], abs=1e-14)


runner = CliRunner()


def _exact(*args):
    return runner.invoke(app, ["werewolf", "exact", *args])


def test_cli_default_table_json():
    import json

    r = _exact("--roles", DEFAULT, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert {"village_win", "wolf_win", "draws", "expected_days", "states", "seconds"} <= set(d)
    assert d["village_win"] == pytest.approx(roles_summary(resolve_setup(None, (), DEFAULT))["village_win"])
    r = _exact("--roles", DEFAULT)
    assert r.exit_code == 0 and "states" in r.stdout and "float64" in r.stdout


@pytest.mark.parametrize("args, msg", [
    (["--roles", "paladin*2,werewolf,villager*4"], "participants with the protect ability"),
    (["--roles", "witch*2,werewolf,villager*4"], "participants with the witch ability"),
    (["--roles", DEFAULT, "--set", "village.follow=1"], "random strategies"),
    (["--roles", "werewolf,villager*40"], "at most 30 participants"),
])
def test_refusals(args, msg):
    r = _exact(*args)
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and msg in lines[0], r.stderr
