"""Every figure carries its settings: the ``settings:`` line of run / loo / values names each
side's strategy with its knob values, the composition or scenario, the config files, every
``--set`` and the seed, so two runs with different settings never print the same header."""
import json

from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def _settings(*args) -> str:
    r = runner.invoke(app, ["werewolf", "run", "--games", "200", "--json", *map(str, args)])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)["settings"]


def test_different_settings_never_share_a_header(tmp_path):
    cfg = tmp_path / "drag.toml"
    cfg.write_text("[roles.fenrir]\ndrag = 2\n")
    variants = {
        "default": (),
        "set": ("--set", "roles.fenrir.drag=0"),
        "knob": ("--village", "claims@report=0.8"),
        "strategy": ("--village", "claims"),
        "config": ("--config", cfg),
        "roles": ("--roles", "werewolf*2,seer,villager*6"),
        "seed": ("--seed", "7"),
    }
    got = {k: _settings(*v) for k, v in variants.items()}
    assert len(set(got.values())) == len(got), got
    assert "--set roles.fenrir.drag=0" in got["set"] and "claims@report=0.8" in got["knob"]
    assert f"config {cfg}" in got["config"] and "werewolf*2" in got["roles"] and "seed 7" in got["seed"]


def test_text_header_and_manifest_carry_it(tmp_path):
    args = ["werewolf", "run", "--games", "200", "--set", "roles.fenrir.drag=0", "--wolves", "claims@fake_claim=0.5"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    line = next(x for x in r.stdout.splitlines() if x.startswith("settings: "))
    assert "--set roles.fenrir.drag=0" in line and "wolves claims@fake_claim=0.5" in line
    r = runner.invoke(app, [*args, "--out", str(tmp_path / "o")])
    man = json.loads((tmp_path / "o" / "_manifest.json").read_text())
    assert man["settings"] == line.removeprefix("settings: ") and man["sets"] == ["roles.fenrir.drag=0"]
