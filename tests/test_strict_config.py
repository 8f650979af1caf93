"""Strict files (issue 10, part 2): every TOML file the project reads rejects unknown keys
with the full dotted path and the closest valid key; --set reaches every documented key;
lists in --set; `sim werewolf exact` refuses what it does not model."""
import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.config import parse_value, set_path
from sim.core.schema import ANY, Ids, ListOf, Map, check_keys
from sim.errors import SimInputError

ROOT = Path(__file__).resolve().parents[1]
ALLEY = ROOT / "sim/trpg/data/scenarios/alley.toml"
SQUAD = ROOT / "sim/trpg/data/scenarios/squad.toml"
runner = CliRunner()

DUEL = """
[scenario]
name = "duel"
sides = ["a", "b"]

[characters.a]
side = "a"
hp = 12
skills = { athletics = 10, melee = 12, dodge = 8, shooting = 8 }
weapons = ["bat"]

[characters.b]
side = "b"
position = 1
hp = 12
skills = { athletics = 10, melee = 12, dodge = 8, shooting = 8 }
weapons = ["knife"]
"""


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_error(r, *needles):
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:"), r.stderr
    for n in needles:
        assert n in err[0], err[0]
    assert "Traceback" not in r.output
    return err[0]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ----------------------------------------------------------------------------- the mechanism
SCHEMA = {"rules": {"max_rounds": ANY, "grid": ANY}, "scenario": {"first": ANY},
          "characters": Ids({"hp": ANY, "skills": Map(), "abilities": ListOf({"cost": ANY})}, "character")}


def test_check_keys_names_path_and_closest_key():
    check_keys({"rules": {"max_rounds": 3}, "characters": {"x": {"hp": 1, "skills": {"any": 3}}}}, SCHEMA)
    with pytest.raises(SimInputError) as e:
        check_keys({"rules": {"max_round": 5}}, SCHEMA, "f.toml")
    assert str(e.value) == "f.toml: unknown key 'rules.max_round' (did you mean 'rules.max_rounds'?)"
    with pytest.raises(SimInputError, match=r"'scenario.grid' \(did you mean 'rules.grid'\?\)"):
        check_keys({"scenario": {"grid": "grid"}}, SCHEMA)  # the same key in another table
    with pytest.raises(SimInputError, match=r"'characters.x.abilities.0.cots' \(did you mean "
                                            r"'characters.x.abilities.0.cost'\?\)"):
        check_keys({"characters": {"x": {"abilities": [{"cots": 1}]}}}, SCHEMA)
    with pytest.raises(SimInputError) as e:  # every unknown key, in one error
        check_keys({"rulez": {}, "characters": {"x": {"zzz": 1}}}, SCHEMA)
    assert "'rulez' (did you mean 'rules'?)" in str(e.value) and "'characters.x.zzz'" in str(e.value)


@pytest.mark.parametrize("data, message", [
    ({"rules": 3}, "rules: expected a table, got 3"),                                # a fixed table
    ({"characters": ["x"]}, "characters: expected a table, got ['x']"),              # an id table
    ({"characters": {"x": "hero"}}, "characters.x: expected a table, got 'hero'"),   # an id's entry
    ({"characters": {"x": {"skills": 12}}}, "characters.x.skills: expected a table, got 12"),  # a map
])
def test_check_keys_says_when_a_value_stands_where_a_table_belongs(data, message):
    """Once, in the shared mechanism, for every game: no compiler takes a value for a table."""
    with pytest.raises(SimInputError) as e:
        check_keys(data, SCHEMA, "f.toml")
    assert str(e.value) == f"f.toml: {message}"


def test_set_path_with_schema():
    cfg = {"rules": {}, "characters": {"x": {"hp": 1, "abilities": [{"cost": 1}]}}}
    set_path(cfg, "rules.max_rounds", 5, SCHEMA)            # a key the data leaves at its default
    set_path(cfg, "characters.x.skills.melee", 3, SCHEMA)    # a missing table is made
    set_path(cfg, "characters.x.abilities.0.cost", 2, SCHEMA)
    assert cfg == {"rules": {"max_rounds": 5},
                   "characters": {"x": {"hp": 1, "abilities": [{"cost": 2}], "skills": {"melee": 3}}}}
    for path, msg in [("rules.max_round", "(did you mean 'rules.max_rounds'?)"),
                      ("characters.y.hp", "no character 'characters.y'"),
                      ("characters.x.abilities.3.cost", "no item 'characters.x.abilities.3'"),
                      ("characters.x", "is a table"), ("rules", "is a table")]:
        with pytest.raises(SimInputError, match=msg.replace("(", r"\(").replace(")", r"\)").replace("?", r"\?")):
            set_path(cfg, path, 1, SCHEMA)


def test_parse_value_lists():
    assert parse_value("1,2,3") == [1, 2, 3]
    assert parse_value("[1, 2, 3]") == [1, 2, 3]
    assert parse_value("male,loud") == ["male", "loud"]
    assert parse_value("1.5, true, park") == [1.5, True, "park"]
    assert parse_value("") == []


# ----------------------------------------------------------------------------- shipped files
def test_every_shipped_file_passes_its_schema():
    from sim.analysis.balance import load_balance
    from sim.looper.roster import CONFIG_SCHEMA as LOOPER
    from sim.sweep.spec import load_spec
    from sim.trpg.sheets import BUILDS_SCHEMA, SCENARIO_SCHEMA
    from sim.werewolf.roles import CONFIG_SCHEMA as WEREWOLF

    files = [(ROOT / "sim/looper/data/base.toml", LOOPER), (ROOT / "sim/looper/data/expansion.toml", LOOPER),
             (ROOT / "sim/werewolf/data/roles.toml", WEREWOLF), (ROOT / "sim/trpg/data/system.toml", SCENARIO_SCHEMA),
             (ROOT / "sim/trpg/data/builds.toml", BUILDS_SCHEMA)]
    files += [(p, SCENARIO_SCHEMA) for p in sorted((ROOT / "sim/trpg/data/scenarios").glob("*.toml"))]
    files += [(p, LOOPER) for p in sorted((ROOT / "examples/looper").rglob("*.toml"))]  # the trap, the script library
    for p, schema in files:
        check_keys(tomllib.loads(p.read_text(encoding="utf-8")), schema, str(p))
    for p in sorted((ROOT / "examples/sweeps").glob("*.toml")):
        load_spec(p)
    for p in sorted((ROOT / "examples/balance").glob("*.toml")):
        load_balance(p)


# ----------------------------------------------------------------------------- unknown keys, per file type
def test_looper_config_unknown_keys(tmp_path):
    for text, needles in [
        ("[rules]\nmax_loop = 3\n", ("unknown key 'rules.max_loop'", "did you mean 'rules.max_loops'")),
        ("[charaters.cat]\nlocation = 'park'\n", ("unknown key 'charaters'", "did you mean 'characters'")),
        ("[characters.cat]\neffects = [{ kind = 'stress', amout = 1 }]\n",
         ("'characters.cat.effects.0.amout'", "did you mean 'characters.cat.effects.0.amount'")),
        ("[setup]\nkey_persn = 'cat'\n", ("'setup.key_persn'", "'setup.key_person'")),
        ("[locations.park]\nnxt = 'school'\n", ("'locations.park.nxt'", "'locations.park.next'")),
    ]:
        cfg = write(tmp_path, "user.toml", text)
        msg = one_error(invoke("looper", "run", "--games", "10", "--config", cfg), *needles)
        assert str(cfg) in msg


def test_werewolf_config_unknown_keys(tmp_path):
    cfg = write(tmp_path, "ww.toml", "[roles.seer]\ntema = 'wolf'\n[variants]\nmax_runofs = 3\n")
    one_error(invoke("werewolf", "run", "--games", "10", "--config", cfg),
              "'roles.seer.tema' (did you mean 'roles.seer.team'?)",
              "'variants.max_runofs' (did you mean 'variants.max_runoffs'?)")
    one_error(invoke("werewolf", "run", "--games", "10", "--config", write(tmp_path, "w2.toml", "[compositon]\n")),
              "'compositon' (did you mean 'composition'?)")


@pytest.mark.parametrize("patch, needles", [
    ("[rules]\nmax_round = 5\n", ("unknown key 'rules.max_round'", "did you mean 'rules.max_rounds'")),
    ("[weapon.club]\ndice = '1d6'\n", ("unknown key 'weapon'", "did you mean 'weapons'")),
    ("[weapons.club]\ndice = '1d6'\nbands = { farr = 1 }\n", ("'weapons.club.bands.farr'", "'weapons.club.bands.far'")),
    ("[[symptoms]]\nmax = 18\npenalti = 1\n", ("'symptoms.0.penalti'", "'symptoms.0.penalty'")),
])
def test_trpg_scenario_unknown_tables_and_keys(tmp_path, patch, needles):
    sc = write(tmp_path, "s.toml", ALLEY.read_text(encoding="utf-8") + "\n" + patch)
    assert str(sc) in one_error(invoke("trpg", "run", sc, "--games", "10"), *needles)


def test_trpg_scenario_and_sheet_keys(tmp_path):
    text = ALLEY.read_text(encoding="utf-8")
    sc = write(tmp_path, "s.toml", text.replace('first = "players"', 'frist = "players"'))
    one_error(invoke("trpg", "run", sc, "--games", "10"), "'scenario.frist' (did you mean 'scenario.first'?)")
    sc = write(tmp_path, "s.toml", text.replace('armour = { pct = 10, fixed = 0 }',
                                                'armour = { pct = 10, fixed = 0 }\nitems = { potion = 2 }'))
    one_error(invoke("trpg", "run", sc, "--games", "10"), "characters.aoi.items.potion: unknown item 'potion'",
              "items are reduction, first_aid")  # item names are the [items] table's
    sc = write(tmp_path, "s.toml", text.replace('strategy = { target = "weakest", reaction = "dodge" }',
                                                'strategy = { target = "weakest", reacton = "dodge" }'))
    one_error(invoke("trpg", "run", sc, "--games", "10"),
              "'characters.host.strategy.reacton' (did you mean 'characters.host.strategy.reaction'?)")
    sc = write(tmp_path, "s.toml", text.replace('cost = 4, dice = "1d6"', 'cost = 4, dise = "1d6"'))
    one_error(invoke("trpg", "run", sc, "--games", "10"),
              "'characters.aoi.abilities.0.dise' (did you mean 'characters.aoi.abilities.0.dice'?)")
    sc = write(tmp_path, "s.toml", text + "\n[system.groups]\nphysicl = []\n")
    one_error(invoke("trpg", "run", sc, "--games", "10"), "'system.groups.physicl'", "'system.groups.physical'")


def test_trpg_system_file_is_checked(tmp_path):
    from sim.trpg.sheets import load_checked

    sysf = write(tmp_path, "system.toml", (ROOT / "sim/trpg/data/system.toml").read_text(encoding="utf-8")
                 .replace("max_rounds = 100", "max_round = 100"))
    with pytest.raises(SimInputError, match=r"unknown key 'rules.max_round' \(did you mean 'rules.max_rounds'\?\)"):
        load_checked(sysf)


def test_trpg_builds_file_unknown_keys(tmp_path):
    text = (ROOT / "sim/trpg/data/builds.toml").read_text(encoding="utf-8")
    b = write(tmp_path, "b.toml", text.replace("distance = 1", "distanse = 1"))
    one_error(invoke("trpg", "matrix", b, "--games", "10"), "'matrix.distanse' (did you mean 'matrix.distance'?)")
    b = write(tmp_path, "b.toml", text.replace("hp = 22", "hp = 22\nhpp = 3"))
    one_error(invoke("trpg", "matrix", b, "--games", "10"), "'builds.tank.hpp' (did you mean 'builds.tank.hp'?)")
    b = write(tmp_path, "b.toml", text + "\n[scenario]\nname = 'x'\n")  # the pair's scenario is made
    one_error(invoke("trpg", "matrix", b, "--games", "10"), "unknown key 'scenario'")


@pytest.mark.parametrize("text, needles", [
    ("game = 'werewolf'\ngmaes = 10", ("unknown key 'gmaes'", "did you mean 'games'")),
    ("game = 'werewolf'\n[base]\nvilage = 'random'", ("'base.vilage'", "did you mean 'base.village'")),
    ("game = 'werewolf'\n[[axes]]\npth = 'x'\nvalues = [1]", ("'axes.0.pth'", "did you mean 'axes.0.path'")),
    ("game = 'werewolf'\n[[axes]]\npath = 'variants.max_runoffs'\ngrid = {start = 1, stop = 3, stepp = 1}",
     ("'axes.0.grid.stepp'", "'axes.0.grid.step'")),
    ("game = 'trpg'\n[base]\nscenario = 'alley.toml'\n[[axes]]\npath = 'rules.max_round'\nvalues = [5]",
     ("unknown parameter path 'rules.max_round'", "did you mean 'rules.max_rounds'")),
    ("game = 'trpg'\n[base]\nscenario = 'alley.toml'\nconfig = {rules = {max_round = 5}}",
     ("base.config: unknown key 'rules.max_round'",)),
])
def test_sweep_spec_unknown_keys(tmp_path, text, needles):
    spec = write(tmp_path, "s.toml", text)
    one_error(invoke("sweep", spec, "--out", tmp_path / "o", "--dry-run"), *needles)


@pytest.mark.parametrize("text, needles", [
    ("game = 'werewolf'\ntolerence = 0.1\n[[params]]\npath = 'count.seer'\nvalues = [1, 2]",
     ("unknown key 'tolerence'", "did you mean 'tolerance'")),
    ("game = 'werewolf'\n[[params]]\npath = 'count.seer'\nlow = 1\nhgh = 2",
     ("'params.0.hgh'", "did you mean 'params.0.high'")),
    ("game = 'werewolf'\n[base]\nrols = 'werewolf,villager*4'\n[[params]]\npath = 'count.seer'\nvalues = [1, 2]",
     ("'base.rols'", "did you mean 'base.roles'")),
])
def test_balance_spec_unknown_keys(tmp_path, text, needles):
    spec = write(tmp_path, "b.toml", text)
    one_error(invoke("balance", spec, "--out", tmp_path / "o"), *needles)


# ----------------------------------------------------------------------------- --set reaches every documented key
def test_trpg_set_keys_left_at_their_default(tmp_path):
    from sim.trpg.enums import CF
    from sim.trpg.sheets import resolve_setup

    duel = write(tmp_path, "duel.toml", DUEL)
    sc = resolve_setup(duel, ["characters.b.kaii=true", "characters.a.strategy.cover=false"])
    assert sc.config["characters"]["b"]["kaii"] is True
    assert sc.nb.chars[1, CF.KAII] == 1 and sc.nb.chars[0, CF.S_COVER] == 0
    sq = resolve_setup(SQUAD, ["characters.p1.strategy.cover=false", "characters.p1.items.reduction=2"])
    assert sq.config["characters"]["p1"]["strategy"] == {"cover": False}
    assert sq.nb.chars[0, CF.S_COVER] == 0 and sq.nb.chars[0, CF.ITEM_FIXED] == 2
    # and they change the result: a kaii takes nothing from the (physical) bat
    base = json.loads(invoke("trpg", "run", duel, "--games", "2000", "--seed", "1", "--json").stdout)
    r = invoke("trpg", "run", duel, "--games", "2000", "--seed", "1", "--json", "--set", "characters.b.kaii=true")
    assert r.exit_code == 0, r.output
    kaii = json.loads(r.stdout)
    assert base["win_rate"]["a"] > 0.1 and kaii["win_rate"]["a"] == 0.0


def test_trpg_set_unknown_keys_exit_2():
    one_error(invoke("trpg", "run", ALLEY, "--games", "10", "--set", "rules.max_round=5"),
              "unknown parameter path 'rules.max_round' (did you mean 'rules.max_rounds'?)")
    one_error(invoke("trpg", "run", ALLEY, "--games", "10", "--set", "characters.aoii.hp=5"),
              "no character 'characters.aoii' (did you mean 'characters.aoi'?)")
    one_error(invoke("trpg", "run", ALLEY, "--games", "10", "--set", "characters.aoi.items.potion=2"),
              "characters.aoi.items.potion: unknown item 'potion'", "items are reduction")
    one_error(invoke("trpg", "run", ALLEY, "--games", "10", "--set", "characters.aoi.items.reductoin=2"),
              "unknown item 'reductoin' (did you mean 'reduction'?)")


def test_looper_set_lists_and_defaults():
    from sim.looper.roster import build_config, compile_setup

    for value in ("1,2,3", "[1,2,3]", "[1, 2, 3]"):
        r = compile_setup(build_config(sets=[f"rules.guest_move_days={value}"]))
        assert r.config["rules"]["guest_move_days"] == [1, 2, 3]
        assert r.nb.guest_day.tolist()[:4] == [-1, 0, 1, 2]
    assert compile_setup(build_config(sets=["rules.guest_move_days=5"])).config["rules"]["guest_move_days"] == [5]
    assert compile_setup(build_config(sets=["rules.guest_move_days="])).config["rules"]["guest_move_days"] == []
    r = compile_setup(build_config(sets=["rules.wrong_name_ends_game=true", "characters.cat.attributes=weak,strong",
                                          "characters.cat.effects.0.amount=-2"]))
    assert r.config["rules"]["wrong_name_ends_game"] is True
    assert r.config["characters"]["cat"]["attributes"] == ["weak", "strong"]
    assert r.config["characters"]["cat"]["effects"][0]["amount"] == -2
    with pytest.raises(SimInputError, match="no item 'characters.cat.effects.5'"):
        build_config(sets=["characters.cat.effects.5.amount=1"])


def test_looper_cli_list_set_changes_the_game():
    args = ("looper", "run", "--games", "300", "--seed", "3", "--json")
    base = invoke(*args)
    assert base.exit_code == 0, base.output
    r = invoke(*args, "--set", "rules.guest_move_days=1,2,3,4,5,6,7")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["deaths"] != json.loads(base.stdout)["deaths"]  # guests move every day
    one_error(invoke(*args, "--set", "rules.max_loop=3"), "(did you mean 'rules.max_loops'?)")


def test_werewolf_set_key_left_at_its_default():
    from sim.werewolf.enums import RF
    from sim.werewolf.roles import resolve_setup

    s = resolve_setup(None, ["roles.seer.drag=1", "composition.default=werewolf*2,villager*5"])
    assert s.nb.table[s.role_ids.index("seer"), RF.DRAG] == 1  # seer has no drag key in roles.toml
    assert s.seats == ["werewolf"] * 2 + ["villager"] * 5      # a comma list back into a composition
    with pytest.raises(SimInputError, match="no role 'roles.sear' \\(did you mean 'roles.seer'\\?\\)"):
        resolve_setup(None, ["roles.sear.drag=1"])


def test_sweep_axis_may_set_a_key_left_at_its_default(tmp_path):
    spec = write(tmp_path, "s.toml", "game = 'trpg'\ngames = 10\n[base]\nscenario = 'squad.toml'\n"
                 "[[axes]]\npath = 'characters.p1.kaii'\nvalues = [true, false]\n"
                 "[[axes]]\npath = 'characters.p1.strategy.cover'\nvalues = [false]\n")
    r = invoke("sweep", spec, "--out", tmp_path / "o", "--dry-run")
    assert r.exit_code == 0, r.output


# ----------------------------------------------------------------------------- werewolf exact refuses what it does not model
PLAIN = ("--roles", "werewolf*2,villager*7,seer")   # the plain table the fraction solver models


def exact(*args):
    """``werewolf exact`` of the plain table unless ``--roles`` says otherwise (exact's own
    default is the table ``run`` plays: tests/test_strays.py)."""
    return invoke("werewolf", "exact", "--json", *(() if "--roles" in args else PLAIN), *args)


def test_exact_default_still_works():
    from sim.werewolf.exact import exact_summary

    r = exact()
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["village_win_exact"] == exact_summary(2, 7, 1)["village_win_exact"]
    # settings it models or that cannot matter here are accepted
    for s in ("variants.vote_rule=plurality", "variants.max_runoffs=3", "roles.fenrir.drag=1",
              "roles.seer.name=x", "variants.accomplice_counts_as=village", "roles.villager.drag=0",
              "variants.abilities_after_elimination=true", "variants.max_days=7"):
        assert exact("--set", s).exit_code == 0, s
        assert json.loads(exact("--set", s).stdout)["arithmetic"] == "fraction", s
    same = json.loads(exact("--set", "variants.max_days=7").stdout)
    want = json.loads(r.stdout)
    assert same.pop("seconds") >= 0 and want.pop("seconds") >= 0 and same == want


@pytest.mark.parametrize("args", [
    ["--set", "roles.seer.team=wolf"], ["--set", "roles.werewolf.drag=1"],
    ["--set", "roles.werewolf.seer_reads=village"], ["--set", "variants.max_days=6"],
    ["--set", "variants.max_days=3", "--set", "variants.vote_rule=plurality"],
    ["--all-variants", "--set", "variants.max_days=6"],
])
def test_exact_outside_the_fraction_solver_goes_to_the_chain(args):
    """Changed role data and a binding max_days, once refused, are modelled by the float64
    chain of sim.werewolf.exact_roles (tests/test_werewolf_exact_roles.py checks it)."""
    r = exact(*args)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for row in d if isinstance(d, list) else [d]:
        assert row["arithmetic"] == "float64" and row["states"] > 0
        # max_days=3 under plurality draws often; the 7-day games max_days=6 cuts need several
        # nobody-out days (each < 1e-33): a draw chance below float64's range, reported as 0
        assert (row["draws"] > 1e-3) == ("max_days=3" in " ".join(args)) and row["draws"] < 1e-200 + (
            "max_days=3" in " ".join(args))


@pytest.mark.parametrize("args, needle", [
    (["--set", "roles.villager.ability=protect"], "7 participants with the protect ability"),
    (["--roles", "witch*2,werewolf,villager*4"], "2 participants with the witch ability"),
    (["--set", "wolves.anything=1"], "wolves.anything"),
    (["--all-variants", "--set", "variants.start=night"], "--all-variants"),
    (["--all-variants", "--set", "variants.start=night", "--set", "roles.werewolf.drag=1"], "--all-variants"),
    (["--set", "composition.default=werewolf,villager*3"], "--roles"),
    (["--set", "composition.default=fenrir,villager*3"], "--roles"),
])
def test_exact_refuses_what_it_does_not_model(args, needle):
    one_error(exact(*args), "exact mode does not model", needle)


def test_longest_game_is_where_the_engine_starts_drawing():
    from sim.werewolf.exact import longest_game

    assert longest_game(2, 8) == 7 and longest_game(2, 8, vote_rule="plurality") == 4
    assert longest_game(2, 8, start="night") == 6 and longest_game(2, 8, end_rule="no_villagers") == 8
    # werewolf + 3 villagers, no runoffs: a 4-way tie puts nobody out, so the game can last 2 days
    assert longest_game(1, 3, vote_rule="runoff") == 2
    args = ("werewolf", "run", "--roles", "werewolf,villager*3", "--games", "4000", "--seed", "1", "--json",
            "--set", "variants.max_runoffs=0")
    draws = {d: json.loads(invoke(*args, "--set", f"variants.max_days={d}").stdout)["draws"] for d in (1, 2)}
    assert draws[1] > 0 and draws[2] == 0
    # a binding max_days goes to the float64 chain, which has the draws; 2 days: fractions, none
    one = json.loads(exact("--roles", "werewolf,villager*3", "--set", "variants.max_runoffs=0", "--set",
                           "variants.max_days=1").stdout)
    assert one["arithmetic"] == "float64" and one["draws"] > 0
    two = json.loads(exact("--roles", "werewolf,villager*3", "--set", "variants.max_runoffs=0", "--set",
                           "variants.max_days=2").stdout)
    assert two["arithmetic"] == "fraction" and two["draws"] == 0


def test_trpg_skills_file_with_a_skills_table_has_nothing_else(tmp_path):
    from sim.trpg.cli_outside import load_skills

    body = "[skills]\n" + "\n".join(f"s{i} = 10" for i in range(16)) + "\n"
    assert len(load_skills(str(write(tmp_path, "ok.toml", body)))) == 16
    with pytest.raises(SimInputError, match=r"unknown key 'skils' \(did you mean 'skills'\?\)"):
        load_skills(str(write(tmp_path, "bad.toml", body + "[skils]\nx = 1\n")))
