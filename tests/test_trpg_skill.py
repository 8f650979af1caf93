"""TRPG skill machinery through the protocol: side profiles (ladder, tune), restricted play
(withheld abilities) and their input errors. The alley scenario, small game counts; every
profile plays the one combat kernel (profiles are sheet fields, not code)."""
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.analysis.metagame import MEASURE, Tier, measure
from sim.analysis.restrict import restricted_play
from sim.analysis.tune import tune
from sim.cli import app
from sim.core.game import get
from sim.core.knobs import Spec
from sim.errors import SimInputError

G = get("trpg")
N = 3000


@pytest.fixture(scope="module")
def tree():
    return G.build(scenario="alley")


def test_sides_and_profiles_come_from_the_scenario(tree):
    setup = G.compile(tree)
    assert G.sides_of(setup) == ("players", "kaii")
    assert setup.tactics == {"players": "sheet", "kaii": "sheet"}
    regs = G.registries_of(setup)
    assert set(regs) == {"players", "kaii"} and {"sheet", "random", "focus", "ranged"} <= set(regs["players"].names())
    assert G.knob_path("players", "target") == "tactics.players.target"
    # a profile rewrites every character of its side, and only of its side
    focus = G.setup(scenario="alley", sets=["tactics.players.profile=focus", "tactics.players.target=nearest"])
    from sim.trpg.enums import CF, TARGETS
    for i, cid in enumerate(focus.ids):
        side = focus.sides[int(focus.nb.chars[i, CF.SIDE])]
        got = TARGETS[int(focus.nb.chars[i, CF.S_TARGET])]
        if side == "players":
            assert got == "nearest"
        else:
            assert (focus.nb.chars[i] == setup.nb.chars[i]).all()


def test_the_sheet_profile_changes_nothing(tree):
    """``sheet`` is the default: the same games as a plain run, count for count."""
    a = G.run(G.compile(tree), {}, N, 4, tables=False)
    b = G.run(G.compile(tree), G.strategies({"players": "sheet"}, G.compile(tree)), N, 4, tables=False)
    assert all(np.array_equal(a.totals[k], b.totals[k]) for k in a.totals)


def test_ladder_matrix_with_cis_and_the_sheet_cell_is_a_plain_run(tree):
    rows = [Tier("players", "sheet"), Tier("players", "focus")]
    cols = [Tier("kaii", "sheet"), Tier("kaii", "random")]
    m = measure(G, tree, rows, cols, N, 7, (MEASURE,), threads=1)
    f = m.frame()
    assert f.height == 4 and (f["ci_low"] <= f["rate"]).all() and (f["rate"] <= f["ci_high"]).all()
    plain = G.run(G.compile(tree), {}, N, 7, spawn=(MEASURE,), tables=False)
    assert (int(m.successes[0, 0]), int(m.games[0, 0])) == G.primary(plain.totals)
    # the profiles do differ (since issue 16 the sheets' kiting aoi beats focus's close_in:
    # a pistol out of effective range steps in, T-6), and random kaii lose more
    assert m.rate[1, 0] < m.rate[0, 0] - 0.1 and m.rate[0, 1] > m.rate[0, 0]
    # a profile played by name through run() equals the same profile set in the tree
    by_name = G.run(G.compile(tree), G.strategies({"players": "focus"}, G.compile(tree)), N, 7,
                    spawn=(MEASURE,), tables=False)
    assert (int(m.successes[1, 0]), N) == G.primary(by_name.totals)


def test_a_profile_set_in_the_tree_is_kept_for_the_side_not_given(tree):
    """A sweep cell with an axis on one side (``players``) and the other side's profile as a
    tree path (``tactics.kaii.profile``) plays both: the same games as the ladder's cell."""
    cell, (setup, st) = G.make_cell({"tree": tree, "strategies": {}},
                                    {"players": "focus", "tactics.kaii.profile": "ranged"})
    assert {s: p.name for s, p in st.items()} == {"players": "focus", "kaii": "ranged"}
    m = measure(G, tree, [Tier("players", "focus")], [Tier("kaii", "ranged")], N, 5, (MEASURE,), threads=1)
    got = G.primary(G.run(setup, st, N, 5, spawn=(MEASURE,), tables=False).totals)
    assert got == (int(m.successes[0, 0]), N)


def test_tune_players_against_the_sheets(tree):
    res = tune(G, tree, "players", "focus", {"kaii": Spec("kaii", "sheet")}, budget=12, games=1000,
               final_games=4000, seed=3, threads=1)
    assert res.maximise and res.final_games == 4000
    assert set(res.params) == {k.name for k in G.strategy("players", "focus").knobs}
    # the reported rates are the fresh games': replaying them gives the same counts
    from sim.analysis.metagame import _cell
    from sim.analysis.tune import FRESH

    setup, st = _cell(G, tree, Spec("players", "focus", tuple(res.params.items())), Spec("kaii", "sheet"))[1]
    s, g = G.primary(G.run(setup, st, 4000, 3, spawn=(FRESH,), tables=False).totals)
    assert g == 4000 and s / g == pytest.approx(res.tuned_rate)
    assert res.tuned_rate >= res.baseline_rate


def test_restricted_play_rows_and_determinism(tree):
    setup = G.compile(tree)
    names = [a.name for a in G.abilities(setup, {})]
    assert {"aoi.spirit_bullet", "ren.second_wind", "shade.umbral_hide", "aoi.dodge", "ren.guard",
            "ren.cover", "aoi.monologue"} <= set(names)
    df = restricted_play(G, setup, {}, N, 2, only=["aoi.spirit_bullet", "shade.umbral_hide"], threads=1)
    assert df["restricted"].to_list() == ["(none)", "aoi", "shade"]
    r = df.row(1, named=True)
    assert r["side"] == "players" and r["delta"] < 0 and r["delta_ci_low"] <= r["delta"] <= r["delta_ci_high"]
    assert r["value_to_side"] == pytest.approx(-r["delta"])
    # the kaii's hide serves the kaii: the players' rate rises without it
    s = df.row(2, named=True)
    assert s["side"] == "kaii" and s["delta"] > 0 and s["value_to_side"] > 0
    # every ability, twice on the same seed: the same table
    a = restricted_play(G, setup, {}, 500, 9, threads=1)
    b = restricted_play(G, setup, {}, 500, 9, threads=1)
    assert a.height == len(names) + 1 and a.equals(b)


def test_a_withheld_ability_is_gone_and_holds_under_a_profile():
    from sim.trpg.enums import CF, REACTIONS

    setup = G.setup(scenario="alley", sets=["tactics.players.profile=focus"])
    r, _ = G.restrict(setup, {}, "ren.dodge")
    ren = r.ids.index("ren")
    assert REACTIONS[int(r.nb.chars[ren, CF.S_REACTION])] == "guard"  # focus says auto; withheld: guard
    assert r.tactics["players"] == "focus" and r.n == setup.n
    r2, _ = G.restrict(setup, {}, "aoi.spirit_bullet")
    assert r2.nb.abilities.shape[0] == setup.nb.abilities.shape[0] - 1
    with pytest.raises(SimInputError, match="did you mean 'aoi.dodge'"):
        G.setup(scenario="alley", sets=["withhold=aoi.dodgee"])


def _err(args):
    r = CliRunner().invoke(app, args)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    return r.exit_code, lines


@pytest.mark.parametrize("args, words", [
    (["ladder", "trpg", "--scenario", "alley", "--tiers", "player=sheet"], "SIDE players or kaii"),
    (["ladder", "trpg", "--scenario", "alley", "--tiers", "players=focus@traget=weakest"], "did you mean 'target'"),
    (["ladder", "trpg", "--scenario", "alley", "--tiers", "players=focus@life_mp=99"], "must be in [0, 18]"),
    (["ladder", "trpg", "--scenari", "alley"], "did you mean '--scenario'"),
    (["ladder", "trpg"], "missing --scenario"),
    (["tune", "trpg", "--scenario", "alley", "--side", "player"], "did you mean 'players'"),
    (["tune", "trpg", "--scenario", "alley", "--side", "players", "--strategy", "sheet"], "no knobs"),
    (["tune", "trpg", "alley", "--side", "players", "--against", "kaii=focus@dodge_threshold=2"], "must be in"),
    (["equilibrium", "trpg", "alley", "--tiers", "kaii=fokus"], "unknown trpg side profile 'fokus'"),
    (["trpg", "run", "alley", "-n", "10", "--set", "tactics.playrs.profile=focus"], "did you mean 'players'"),
    (["trpg", "run", "alley", "-n", "10", "--set", "tactics.players.profile=focus",
      "--set", "tactics.players.traget=weakest"], "did you mean 'target'"),
    (["trpg", "run", "alley", "-n", "10", "--set", "tactics.players.target=weakest"], "has no knobs"),
    (["trpg", "loo", "alley", "-n", "10", "--restrict", "--ability", "aoi.spirit"], "not an optional ability"),
])
def test_bad_input_is_one_error_line(args, words):
    code, lines = _err(args)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error:") and words in lines[0], lines


def test_ladder_needs_two_sides():
    code, lines = _err(["ladder", "trpg", "alley", "-n", "10", "--set", "scenario.sides=players,kaii,onlookers",
                        "--set", "characters.host.side=onlookers"])
    assert code == 2 and len(lines) == 1 and "two strategy sides" in lines[0] and "3" in lines[0]


def test_cli_ladder_and_restrict_json():
    r = CliRunner().invoke(app, ["ladder", "trpg", "--scenario", "alley", "-n", "500", "--threads", "1", "--json",
                                 "--tiers", "players=sheet,random", "--tiers", "kaii=sheet"])
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["sides"] == ["players", "kaii"] and [x["row"] for x in d["matrix"]] == ["sheet", "random"]
    r = CliRunner().invoke(app, ["trpg", "loo", "alley", "--restrict", "--ability", "ren.second_wind", "-n", "500",
                                 "--threads", "1", "--json"])
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert [x["ability"] for x in rows] == ["", "ren.second_wind"] and rows[1]["delta_ci_low"] is not None


def test_profiles_command_lists_the_knobs():
    r = CliRunner().invoke(app, ["trpg", "profiles", "--json"])
    assert r.exit_code == 0
    d = {x["name"]: x for x in json.loads(r.stdout)}
    assert d["sheet"]["knobs"] == [] and len(d["focus"]["knobs"]) == 18 and d["random"]["fields"]["target"] == "random"
