"""An oracle named inside a setup (the TRPG's per-character strategies) is labelled in
sweep cells and reports, like a side's oracle strategy."""
import json

from typer.testing import CliRunner

from sim.cli import app

SPEC = """game = "trpg"
name = "oracle"
seed = 1
games = 200
[base]
scenario = "alley.toml"
[[axes]]
path = "characters.shade.strategy.target"
values = ["nearest", "oracle_focus"]
"""


def test_trpg_oracle_cells_and_report_are_labelled(tmp_path):
    (tmp_path / "s.toml").write_text(SPEC)
    r = CliRunner().invoke(app, ["sweep", str(tmp_path / "s.toml"), "--out", str(tmp_path / "out"), "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["rows"]
    labels = {row["characters.shade.strategy.target"]: row["oracles"] for row in rows}
    assert labels["nearest"] == "" and "oracle_focus" in labels["oracle_focus"]
    r = CliRunner().invoke(app, ["report", str(tmp_path / "out"), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    assert "ORACLE strategies" in (tmp_path / "rep" / "index.html").read_text()
