"""The `sim trpg` CLI: run, --json, --out, matrix, outside-combat commands, bad sheets → exit 2."""
import json
from pathlib import Path

from typer.testing import CliRunner

from sim.analysis.dataset import run_tables
from sim.cli import app

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "sim" / "trpg" / "data"
ALLEY = str(DATA / "scenarios" / "alley.toml")
SQUAD = str(DATA / "scenarios" / "squad.toml")


def invoke(*args):
    return runner.invoke(app, list(args))


def test_run_prints_tables():
    r = invoke("trpg", "run", ALLEY, "--games", "2000", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "win rate per side" in r.output and "per character" in r.output


def test_json_fields_and_consistency():
    r = invoke("trpg", "run", SQUAD, "--games", "3000", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for k in ("games", "wins", "win_rate", "ci_low", "ci_high", "draws", "mean_rounds", "games_per_second"):
        assert k in d
    assert set(d["wins"]) == {"players", "gang"}
    assert sum(d["wins"].values()) + d["draws"] == 3000
    for side in d["wins"]:
        assert d["ci_low"][side] <= d["win_rate"][side] <= d["ci_high"][side]
    assert d["mean_rounds"] >= 1


def test_seed_reproducible_across_threads_and_chunks():
    strip = lambda d: {k: v for k, v in d.items() if k not in ("games_per_second", "seconds")}  # noqa: E731
    a = json.loads(invoke("trpg", "run", ALLEY, "--games", "2000", "--seed", "5", "--json").stdout)
    b = json.loads(invoke("trpg", "run", ALLEY, "--games", "2000", "--seed", "5", "--json", "--threads", "1",
                          "--chunk-size", "33").stdout)
    c = json.loads(invoke("trpg", "run", ALLEY, "--games", "2000", "--seed", "6", "--json").stdout)
    assert strip(a) == strip(b)
    assert strip(a) != strip(c)


def test_set_changes_the_fight():
    # the players win alley's sheets ~86% of games (T-2, T-13): --set takes their HP away
    full = json.loads(invoke("trpg", "run", ALLEY, "--games", "4000", "--json").stdout)
    frail = json.loads(invoke("trpg", "run", ALLEY, "--games", "4000", "--json",
                              "--set", "characters.aoi.hp=4", "--set", "characters.ren.hp=4").stdout)
    assert frail["win_rate"]["players"] < full["win_rate"]["players"] - 0.2


def test_first_side_swap_matters_in_a_duel(tmp_path):
    duel = tmp_path / "duel.toml"
    duel.write_text("""
[scenario]
sides = ["a", "b"]
first = "a"
[characters.x]
side = "a"
hp = 2
skills = { melee = 30 }
weapons = ["bat"]
strategy = { reaction = "none" }
[characters.y]
side = "b"
hp = 2
skills = { melee = 30 }
weapons = ["bat"]
strategy = { reaction = "none" }
""")
    a = json.loads(invoke("trpg", "run", str(duel), "--games", "4000", "--json").stdout)
    b = json.loads(invoke("trpg", "run", str(duel), "--games", "4000", "--json", "--set", "scenario.first=b").stdout)
    # 2d6 >= 2 always fells 2 HP: whoever swings first wins unless it fumbles (1/216)
    assert a["win_rate"]["a"] > 0.98 and b["win_rate"]["b"] > 0.98


def test_out_writes_parquet_and_manifest(tmp_path):
    out = tmp_path / "o"
    r = invoke("trpg", "run", ALLEY, "--games", "1500", "--out", str(out))
    assert r.exit_code == 0, r.output
    tables = run_tables(out)
    assert tables["sides"]["side"].to_list() == ["players", "kaii"]
    assert tables["characters"].height == 4
    m = json.loads((out / "_manifest.json").read_text())
    assert m["game"] == "trpg" and m["config"]["characters"]["aoi"]["hp"] == 14


def test_matrix_both_ways(tmp_path):
    r = invoke("trpg", "matrix", str(DATA / "builds.toml"), "--games", "800", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    m = {(x["build"], x["opponent"]): x for x in d["matrix"]}
    assert len(m) == 4 * 3
    for (a, b), x in m.items():
        assert x["games"] == 1600  # both first-move orders
        # a's wins against b plus b's wins against a never exceed the games played
        assert x["wins"] + m[(b, a)]["wins"] <= 1600
        # draws and the split by who acted first add up, and mirror the opponent's row
        assert x["wins"] + x["draws"] + x["losses"] == 1600 and x["losses"] == m[(b, a)]["wins"]
        assert x["first_wins"] + x["second_wins"] == x["wins"] and x["first_draws"] + x["second_draws"] == x["draws"]
        assert x["first_wins"] + x["first_draws"] + m[(b, a)]["second_wins"] == 800
    assert {x["build"] for x in d["overall"]} == {"brawler", "gunslinger", "dodger", "tank"}
    # rivals: only the opponents a build loses to, worst first
    for x in d["rivals"]:
        rates = [m[(x["build"], o)]["win_rate"] for o in x["top_rivals"]]
        assert rates == sorted(rates) and all(r < 0.5 for r in rates) and rates == x["rival_win_rates"]
        beaten = [o for (a, o), y in m.items() if a == x["build"] and y["win_rate"] < 0.5]
        assert len(x["top_rivals"]) == min(3, len(beaten))
    # Bradley–Terry: mean 0, ordered like the pooled win rate here, each inside its interval
    ov = d["overall"]
    assert abs(sum(x["rating"] for x in ov)) < 1e-6
    assert all(x["rating_ci_low"] < x["rating"] < x["rating_ci_high"] for x in ov)
    best = max(ov, key=lambda x: x["win_rate"])
    assert best["rating"] == max(x["rating"] for x in ov)


def test_outside_commands():
    r = invoke("trpg", "check", "--target", "10", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["probabilities"]["success"]["exact"] == "1/2"
    assert invoke("trpg", "labour", "--skill", "11", "--json").exit_code == 0
    assert invoke("trpg", "sleep", "--awake", "21", "--slept", "0", "--json").exit_code == 0


def _bad(args, match, tmp_path=None):
    r = invoke("trpg", *args)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and match in err[0], r.stderr


def test_bad_sheets_exit_2(tmp_path):
    _bad(["run", ALLEY, "--set", "characters.aoi.hp=-1"], "characters.aoi.hp")
    cooking = tmp_path / "cooking.toml"
    cooking.write_text(Path(ALLEY).read_text().replace("perception = 11", "cooking = 11"))
    _bad(["run", str(cooking)], "unknown skill 'cooking'")
    _bad(["run", ALLEY, "--set", "weapons.knife.dice=2x6"], "weapons.knife.dice")
    _bad(["run", ALLEY, "--set", "characters.aoi.strategy.target=telepathy"], "strategy.target")
    _bad(["run", ALLEY, "--set", "characters.aoi.strategy.target=nowhere.mod:f"], "cannot import")
    _bad(["run", ALLEY, "--set", "characters.aoi.weapons=[\"lightsaber\"]"], "unknown weapon 'lightsaber'")
    _bad(["run", ALLEY, "--set", "characters.aoi.side=aliens"], "unknown side 'aliens'")
    _bad(["run", ALLEY, "--games", "0"], "--games must be a positive integer")
    _bad(["run", str(tmp_path / "missing.toml")], "no such file")
    bad = tmp_path / "bad.toml"
    bad.write_text("[scenario\n")
    _bad(["run", str(bad)], "malformed TOML")


def test_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "none"
    r = invoke("trpg", "run", ALLEY, "--out", str(out), "--set", "characters.aoi.hp=0")
    assert r.exit_code == 2 and not out.exists()


def test_user_target_plugin(tmp_path):
    """A plug-in named on one character's sheet drives that character's target choice."""
    duel = tmp_path / "gang.toml"
    duel.write_text("""
[scenario]
sides = ["a", "b"]
[weapons.c5]
dice = "5"
kind = "melee"
[characters.hunter]
side = "a"
hp = 100
skills = { melee = 30 }
weapons = ["c5"]
strategy = { target = "tests.plugins.trpg_target:last_enemy", reaction = "none" }
[characters.first]
side = "b"
hp = 5
skills = { melee = 0 }
weapons = ["fists"]
strategy = { reaction = "none", cover = false }
[characters.second]
side = "b"
hp = 5
skills = { melee = 0 }
weapons = ["fists"]
strategy = { reaction = "none", cover = false }
""")
    args = ["trpg", "run", str(duel), "--games", "2000", "--json", "--set", "rules.max_rounds=1"]
    d = json.loads(invoke(*args).stdout)
    taken = {c["character"]: c["damage_taken"] for c in d["characters"]}
    # one round, one hit of 5 (unless the hunter fumbles, 1/216): always on the last enemy
    assert taken["first"] == 0 and taken["second"] > 4.9
    nearest = json.loads(invoke(*args, "--set", "characters.hunter.strategy.target=nearest").stdout)
    taken = {c["character"]: c["damage_taken"] for c in nearest["characters"]}
    assert taken["second"] == 0 and taken["first"] > 4.9
