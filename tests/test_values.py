"""``sim GAME values``: each row is a plain run of a hand-written variant on the same seed
(so the table is paired), values carry the holder's sign and points, and the substitution
answers a different question from leave-one-out where it must (fenrir → werewolf against
fenrir's seat given to the village)."""
import json

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.game import get

runner = CliRunner()
WG = 6000   # Werewolf games per row: fenrir's two counterfactuals are ~24 points apart, CIs ±1.5
R1_TAIL = "hati,accomplice,seer,medium,paladin,witch,villager*5"   # R-1 after its first seat (fenrir)


def invoke(*args):
    return runner.invoke(app, list(args))


def _rate(roles: str, sets=(), games=WG, seed=3) -> float:
    """The village's rate of a plain run of a composition written out by hand."""
    g = get("werewolf")
    s = g.setup(None, list(sets), roles=roles)
    res = g.run(s, g.strategies(), games, seed, tables=False)
    k, n = g.primary(res.totals)
    return k / n


@pytest.fixture(scope="module")
def ww():
    from sim.analysis.values import values

    g = get("werewolf")
    setup = g.setup(None, [])
    return values(g, setup, g.strategies(), WG, 3, only=["fenrir", "fenrir.drag", "accomplice", "seer.divine"])


def test_werewolf_rows_are_plain_runs_of_the_variants(ww):
    rows = {r["change"]: r for r in ww.iter_rows(named=True)}
    assert list(rows) == ["(none)", "fenrir", "accomplice", "fenrir.drag", "seer.divine"]
    assert rows["(none)"]["rate"] == _rate(f"fenrir,{R1_TAIL}")
    assert rows["fenrir"]["rate"] == _rate(f"werewolf,{R1_TAIL}")          # the plain wolf in fenrir's seat
    assert rows["accomplice"]["rate"] == _rate("fenrir,hati,villager,seer,medium,paladin,witch,villager*5")
    assert rows["fenrir.drag"]["rate"] == _rate(f"fenrir,{R1_TAIL}", ["roles.fenrir.drag=0"])
    assert "plain villager" in rows["accomplice"]["said"] and "joins the village" in rows["accomplice"]["said"]


def test_values_are_signed_for_the_holder_and_in_points(ww):
    base = ww.row(0, named=True)["rate"]
    for r in ww.iter_rows(named=True):
        if r["change"] == "(none)":
            continue
        assert r["delta"] == pytest.approx(r["rate"] - base)
        sign = -1 if r["side"] == "village" else 1      # the rate is the village's: it falls without a village role
        assert r["value"] == pytest.approx(sign * r["delta"])   # with − without, for its side
        assert r["value_points"] == pytest.approx(100 * r["value"])
        assert r["value_ci_low"] <= r["value"] <= r["value_ci_high"]
    fenrir = ww.filter(ww["change"] == "fenrir").row(0, named=True)
    assert fenrir["side"] == "wolves" and fenrir["value_ci_low"] > 0    # fenrir beats a plain werewolf


def test_substitution_is_not_the_seat_removed(ww):
    """fenrir → werewolf keeps the seat on the wolf team; loo gives it to the village: the
    latter also counts a wolf seat's worth, so it must be much larger, CIs apart."""
    g = get("werewolf")
    loo = g.leave_one_out(g.setup(None, []), g.strategies(), WG, 3)
    seat = loo.filter(loo["replaced"] == "fenrir").row(0, named=True)
    assert seat["village_win_rate"] == _rate(f"villager,{R1_TAIL}")
    sub = ww.filter(ww["change"] == "fenrir").row(0, named=True)
    assert seat["delta_ci_low"] > sub["delta_ci_high"]   # the paired intervals do not meet
    assert seat["delta"] - sub["delta"] > 0.10


def test_werewolf_cli_json_tiers_and_bad_input():
    r = invoke("werewolf", "values", "--games", "2000", "--seed", "1", "--only", "fenrir,hati.mark", "--json",
               "--tiers", "village=random,claims", "--tiers", "wolves=random")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["tiers"] == ["village random vs wolves random", "village claims vs wolves random"]
    assert {(x["tier"], x["change"]) for x in d["rows"]} == {(t, c) for t in d["tiers"]
                                                              for c in ("(none)", "fenrir", "hati.mark")}
    r = runner.invoke(app, ["werewolf", "values", "--games", "2000", "--only", "fenrir,hati.mark"],
                      env={"COLUMNS": "250"})   # wide enough that no cell wraps
    assert r.exit_code == 0 and "fenrir replaced by a plain werewolf" in r.stdout
    assert r.stdout.rstrip().splitlines()[-1].startswith("└")   # no target: the table is the last word
    for args, match in ((["--only", "fenrri"], "did you mean 'fenrir'"),
                        (["--tiers", "village=random,claims", "--tiers", "wolves=random,claims,trusting"],
                         "pair up in order"),
                        (["--tiers", "villag=random"], "SIDE=TIER"),
                        (["--tiers", "village=random,random"], "listed twice")):
        r = invoke("werewolf", "values", "--games", "100", *args)
        err = r.stderr.strip().splitlines()
        assert r.exit_code == 2 and len(err) == 1 and err[0].startswith("error:") and match in err[0], r.output


def test_looper_rule_off_keeps_the_character():
    """A rule off is the tree with that character's effects emptied; the character stays."""
    import copy

    from sim.analysis.values import values

    g = get("looper")
    setup = g.setup(None, ["setup.key_person=bottom_rung_man", "rules.max_loops=1"])
    df = values(g, setup, g.strategies(), 1500, 5, only=["yakuza.rule"])
    tree = copy.deepcopy(setup.config)
    tree["characters"]["yakuza"]["effects"] = []
    plain = g.compile(tree)
    assert "yakuza" in plain.ids
    k, n = g.primary(g.run(plain, g.strategies(), 1500, 5, tables=False).totals)
    row = df.filter(df["change"] == "yakuza.rule").row(0, named=True)
    assert row["rate"] == k / n and row["side"] == "player"
    names = [c.name for c in g.changes(setup, g.strategies())]
    assert "maman.rule" not in names and "moves" in names


def test_trpg_gear_taken_from_its_holder():
    g = get("trpg")
    setup = g.setup(None, [], scenario="alley")
    names = [c.name for c in g.changes(setup, {})]
    for n in ("aoi.weapon.pistol", "aoi.armour", "ren.weapon.bat", "aoi.spirit_bullet"):
        assert n in names
    s2, _ = g.change(setup, {}, "aoi.weapon.pistol")
    assert s2.config["characters"]["aoi"]["weapons"] == ["knife"]
    s3, _ = g.change(setup, {}, "ren.weapon.bat")
    assert s3.config["characters"]["ren"]["weapons"] == ["fists"]
    r = invoke("trpg", "values", "alley", "--games", "1000", "--only", "aoi.weapon.pistol", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["rows"]
    alone = invoke("trpg", "run", "alley", "--games", "1000", "--json", "--set", 'characters.aoi.weapons=["knife"]')
    assert alone.exit_code == 0, alone.output
    assert rows[1]["rate"] == pytest.approx(json.loads(alone.stdout)["win_rate"]["players"])


def test_only_a_change_of_one_tier():
    """Claims exist only where the side speaks: --only names a change of any tier; a tier
    without it has its own rate and no such row."""
    r = invoke("werewolf", "values", "--games", "1000", "--only", "seer.claims", "--json",
               "--tiers", "village=random,claims", "--tiers", "wolves=random,claims")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    got = {(x["tier"], x["change"]) for x in d["rows"]}
    a, b = d["tiers"]
    assert got == {(a, "(none)"), (b, "(none)"), (b, "seer.claims")}


def test_trpg_tiers_side_by_side_are_the_separate_runs():
    """``--tiers`` names the scenario's sides and their profiles; each column is what the
    command gives for that profile alone (``--set tactics.players.profile=…``)."""
    args = ("trpg", "values", "alley", "--games", "800", "--only", "aoi.weapon.pistol", "--seed", "5")
    r = invoke(*args, "--tiers", "players=sheet,focus", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["tiers"] == ["players sheet vs kaii sheet", "players focus vs kaii sheet"]
    by_tier = {t: {x["change"]: x for x in d["rows"] if x["tier"] == t} for t in d["tiers"]}
    for tier, sets in zip(d["tiers"], ([], ["--set", "tactics.players.profile=focus"])):
        alone = invoke(*args, *sets, "--json")
        assert alone.exit_code == 0, alone.output
        rows = {x["change"]: x for x in json.loads(alone.stdout)["rows"]}
        for ch in ("(none)", "aoi.weapon.pistol"):
            assert by_tier[tier][ch]["rate"] == rows[ch]["rate"], (tier, ch)
    assert by_tier[d["tiers"][0]]["(none)"]["rate"] != by_tier[d["tiers"][1]]["(none)"]["rate"]
    text = invoke(*args, "--tiers", "players=sheet,focus")
    assert text.exit_code == 0, text.output
    assert "players sheet vs kaii sheet" in text.output and "players focus vs kaii sheet" in text.output
    bad = invoke(*args, "--tiers", "heroes=sheet,focus")
    assert bad.exit_code == 2 and "players, kaii" in bad.output
