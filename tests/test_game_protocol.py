"""The Game protocol and its registry (sim.core.game)."""
from __future__ import annotations

import copy

import pytest
from typer.testing import CliRunner

from sim.core import game as G
from sim.errors import SimInputError

OPTIONS = {"looper": {}, "werewolf": {}, "trpg": {"scenario": "alley"}}


def test_builtin_games_are_registered():
    gs = G.games()
    assert list(gs)[:3] == ["looper", "werewolf", "trpg"]
    for name, g in gs.items():
        assert g.name == name and g.metric and g.title
        assert set(g.registries()) == set(g.sides)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_a_misspelt_strategy_names_the_closest_one(name):
    """Every side of every game: one letter off a registered name is an error naming it."""
    g = G.get(name)
    for side, reg in g.registries().items():
        real = reg.names()[0]
        typo = real[:-1] + ("x" if real[-1] != "x" else "y")
        with pytest.raises(SimInputError, match=f"unknown {reg.what} {typo!r} \\(did you mean {real!r}\\?\\)"):
            g.strategy(side, typo)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_listed_parameter_can_be_assigned_and_compiled(name):
    """``parameters`` lists only paths a sweep can really set: assigning each its own
    value goes through the game's assign and compile."""
    g = G.get(name)
    tree = g.build(None, (), **OPTIONS[name])
    params = g.parameters(tree)
    assert set(g.sides) <= set(params)
    base = {"tree": tree, "strategies": {s: "random" for s in g.sides}}
    paths = sorted(params)
    for path in paths[:: max(1, len(paths) // 80)]:  # an even sample of at most ~80 paths
        cell = copy.deepcopy(base)
        g.assign(cell, path, params[path])
        g.compile_cell(cell)


def test_an_installed_game_that_fails_to_load_is_left_out(monkeypatch):
    monkeypatch.setattr(G, "_GAMES", {})
    monkeypatch.setattr(G, "_BROKEN", {})
    monkeypatch.setattr(G, "entry_points", lambda: {"ghost": "tests.plugins.no_such_module:GAME",
                                                    "werewolf": "tests.plugins.no_such_module:GAME"})
    assert list(G.games()) == ["looper", "werewolf", "trpg"]  # a built-in name is never shadowed
    with pytest.raises(SimInputError, match="ghost.*does not load"):
        G.get("ghost")
    with pytest.raises(SimInputError, match="unknown game 'chess'"):
        G.get("chess")


def test_an_installed_game_is_found_through_its_entry_point(monkeypatch):
    monkeypatch.setattr(G, "_GAMES", {})
    monkeypatch.setattr(G, "_BROKEN", {})
    monkeypatch.setattr(G, "entry_points", lambda: {"coin": "tests.plugins.coin_game:GAME"})
    assert G.get("coin").name == "coin"
    from sim.game_cli import game_app

    r = CliRunner().invoke(game_app(G.get("coin")), ["run", "--games", "4000", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    import json

    d = json.loads(r.stdout)
    assert d["games"] == 4000 and abs(d["win_rate"] - 0.5) < 0.04


@pytest.mark.parametrize("name", list(OPTIONS))
def test_params_command_lists_the_paths(name):
    from sim.cli import app

    args = [name, "params", *(OPTIONS[name].values()), "--json"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    import json

    assert set(G.get(name).sides) <= set(json.loads(r.stdout))


def _primary(name: str, first: int, games: int, chunk: int = 64) -> tuple[int, int]:
    """(successes, games) of the primary rate over games first … first+games−1 (seed 5)."""
    g = G.get(name)
    setup = g.setup(None, (), **OPTIONS[name])
    res = g.run(setup, g.strategies(), games, 5, start=first, chunk_size=chunk, tables=False)
    return g.primary(res.totals)


@pytest.mark.parametrize("name", list(OPTIONS))
def test_first_game_plays_that_slice_of_a_longer_run(name):
    """Games K … K+N−1 and games 0 … K−1 add up to games 0 … K+N−1, whatever the chunks."""
    whole = _primary(name, 0, 300, chunk=97)
    assert _primary(name, 0, 120)[0] + _primary(name, 120, 180, chunk=7)[0] == whole[0]


@pytest.mark.parametrize("name", list(OPTIONS))
def test_first_game_option_of_run(name, tmp_path):
    """``run --first-game K --games N`` writes the same games as the API's slice."""
    from sim.cli import app

    out = tmp_path / "o"
    args = [name, "run", *OPTIONS[name].values(), "--games", "40", "--seed", "5", "--first-game", "200",
            "--out", str(out), "--json"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    from sim.analysis.dataset import run_tables

    tables = run_tables(out)
    assert (G.get(name).run_primary(tables), int(tables["summary"]["games"][0])) == _primary(name, 200, 40)
    bad = CliRunner().invoke(app, [name, "run", *OPTIONS[name].values(), "--first-game", "-1"])
    assert bad.exit_code == 2 and "first-game" in bad.stderr
