"""run --first-mover: the same games with the other side moving first, paired."""
import json
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

ALLEY = str(Path(__file__).resolve().parents[1] / "sim" / "trpg" / "data" / "scenarios" / "alley.toml")
runner = CliRunner()


def _json(*args):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_trpg_first_mover_is_the_swapped_scenario_on_the_same_games():
    d = _json("trpg", "run", ALLEY, "--games", 4000, "--seed", 3, "--first-mover", "--json")
    fm = d["first_mover"]
    assert fm["rule"] == "scenario.first" and fm["as_played"] == "players first" and fm["swapped"] == "kaii first"
    swapped = _json("trpg", "run", ALLEY, "--games", 4000, "--seed", 3, "--set", "scenario.first=kaii", "--json")
    players = swapped["win_rate"]["players"] if isinstance(swapped["win_rate"], dict) else swapped["win_rate"]
    assert fm["swapped_rate"] == players
    assert abs(fm["advantage"] - (fm["rate"] - fm["swapped_rate"])) < 1e-12
    assert fm["advantage_ci_low"] <= fm["advantage"] <= fm["advantage_ci_high"]


def test_werewolf_first_mover_swaps_the_start():
    d = _json("werewolf", "run", "--games", 4000, "--seed", 3, "--first-mover", "--json")
    fm = d["first_mover"]
    assert fm["rule"] == "variants.start" and fm["rate"] == d["village_win_rate"]
    night = _json("werewolf", "run", "--games", 4000, "--seed", 3, "--set", "variants.start=night", "--json")
    assert fm["swapped_rate"] == night["village_win_rate"]


def test_no_first_mover_rule_is_one_error_line():
    r = runner.invoke(app, ["looper", "run", "--games", "10", "--first-mover"])
    assert r.exit_code == 2 and "say nothing of who moves first" in r.stderr
