"""Every command's --help says what its source says: the help texts name TOML tables
([base], [[params]], [builds.NAME]), which rich markup would swallow, so the CLI prints them
as plain text; and no reST markup (``x``) leaks from a docstring."""
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def _commands(cmd, path):
    yield path
    if hasattr(cmd, "list_commands"):
        ctx = cmd.make_context(" ".join(path), [], resilient_parsing=True)
        for name in cmd.list_commands(ctx):
            yield from _commands(cmd.get_command(ctx, name), path + [name])


ALL = list(_commands(get_command(app), []))


def _help(path):
    r = runner.invoke(app, [*path, "--help"])
    assert r.exit_code == 0, r.output
    return r.output


def test_every_game_and_command_is_walked():
    names = {" ".join(p) for p in ALL}
    assert {"looper run", "werewolf exact", "trpg matrix", "balance", "ladder"} <= names


@pytest.mark.parametrize("path, shown", [
    (["balance"], ["[base]", "[[params]]"]),
    (["sensitivity"], ["[base]"]),
    (["trpg", "matrix"], ["[builds.NAME]"]),
    (["trpg", "exact"], ["[builds.NAME]"]),
])
def test_toml_table_names_survive_in_help(path, shown):
    text = " ".join(_help(path).split())
    for s in shown:
        assert s in text, (path, s)


def test_no_docstring_markup_in_any_help():
    for p in ALL:
        text = _help(p)
        assert "``" not in text and ":mod:" not in text and ":func:" not in text, " ".join(p)
