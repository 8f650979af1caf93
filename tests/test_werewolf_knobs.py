"""The `trusting` families' knobs: declared as data, delivered to the views, each one a real
change of play, the engine still equal to the naive reference with knobs set, and bad
knob input one error line."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.knobs import knob_vector
from sim.core.seeding import run_key
from sim.werewolf.game import run, with_knobs
from sim.werewolf.game_nb import chunk_kernel, new_counts
from sim.werewolf.roles import resolve_setup
from strategies.werewolf import VILLAGE, WOLVES
from strategies.werewolf import trusting as c
from tests.naive.werewolf import counts_of, naive_game
from tests.naive.werewolf_strategies import naive_village, naive_wolves

GAMES = 4000
V, W = VILLAGE.get("trusting"), WOLVES.get("trusting")


def test_slots_follow_the_declared_order():
    """The hooks read view.knobs[KV_…]; the Knob tuples fix the order knob_vector writes."""
    v = [k.name for k in c.VILLAGE_KNOBS]
    w = [k.name for k in c.WOLF_KNOBS]
    assert v.index("claim_day") == c.KV_CLAIM_DAY and v.index("follow") == c.KV_FOLLOW
    assert v.index("trust") == c.KV_TRUST and v.index("guard_claimers") == c.KV_GUARD
    assert v.index("eliminate") == c.KV_ELIMINATE and v.index("revive") == c.KV_REVIVE
    assert w.index("fake_claim") == c.KW_FAKE and w.index("hunt") == c.KW_HUNT
    assert w.index("vote_claimers") == c.KW_VOTE and w.index("frame") == c.KW_FRAME
    assert V.knobs == c.VILLAGE_KNOBS and W.knobs == c.WOLF_KNOBS


def _totals(sets=(), village=V, wolves=W, games=GAMES):
    setup = resolve_setup(sets=list(sets))
    return run(games, 5, setup=setup, village=village, wolves=wolves, tables=False).totals


def test_declared_defaults_are_the_hooks_defaults():
    """Knobs set to their declared defaults play exactly as a kernel given no knobs at all
    (the hooks' built-in defaults, what direct kernel calls see)."""
    sets = [f"village.{k.name}={str(k.default).lower()}" for k in c.VILLAGE_KNOBS]
    sets += [f"wolves.{k.name}={str(k.default).lower()}" for k in c.WOLF_KNOBS]
    got = _totals(sets)
    setup = resolve_setup()
    assert setup.nb.knobs.shape == (2, 0)
    out = new_counts(setup.nb)
    chunk_kernel(V, W)(run_key(5), 0, GAMES, setup.nb, out, None)
    for k, a in got.items():
        assert np.array_equal(a, getattr(out, k)), k


MOVES = [("village", "claim_day", 3), ("village", "follow", 0.5), ("village", "trust", "false"),
         ("village", "guard_claimers", "false"), ("village", "eliminate", 0.0), ("village", "revive", "false"),
         ("wolves", "fake_claim", 0.5), ("wolves", "hunt", "false"), ("wolves", "vote_claimers", "false"),
         ("wolves", "frame", "false")]


def test_every_knob_changes_play():
    base = _totals()
    for side, k, v in MOVES:
        got = _totals([f"{side}.{k}={v}"])
        assert not all(np.array_equal(a, got[n]) for n, a in base.items()), f"{side}.{k}={v} changed nothing"


@pytest.mark.parametrize("sets", [["village.follow=0.5", "village.trust=false", "wolves.fake_claim=0.5"],
                                  ["village.claim_day=2", "village.eliminate=0.3", "wolves.frame=false",
                                   "wolves.hunt=false"]])
def test_engine_matches_naive_with_knobs(sets):
    assert_engine_matches_naive(resolve_setup(sets=sets), V, W, 11)


def assert_engine_matches_naive(setup, village, wolves, seed, games=150):
    """Games 0 … games-1 with the setup's knob values (``with_knobs``): the kernel's counts
    equal the naive reference's, game by game, the naive side playing the families re-stated
    in tests/naive (tests/test_werewolf_claims.py uses it too)."""
    R = with_knobs(setup, village, wolves)
    kernel = chunk_kernel(village, wolves)
    key = run_key(seed)
    nv, nw = naive_village(village), naive_wolves(wolves)
    for g in range(games):
        out = new_counts(R)
        kernel(key, g, 1, R, out, None)
        want = counts_of(setup, [naive_game(replace(setup, nb=R), key, g, nv, nw)])
        got = out._asdict()
        assert all(np.array_equal(got[k], want[k]) for k in want), f"game {g} differs"


def test_knob_vector_order_defaults_and_checks():
    vec = knob_vector(V, "trusting", {"follow": 0.25, "trust": False}, "village")
    assert vec.tolist() == [1.0, 0.25, 0.0, 1.0, 1.0, 1.0]
    with pytest.raises(Exception, match="did you mean 'follow'"):
        knob_vector(V, "trusting", {"folow": 0.2}, "village")
    with pytest.raises(Exception, match=r"must be in \[0.0, 1.0\]"):
        knob_vector(V, "trusting", {"follow": 2}, "village")


@pytest.mark.parametrize("args, says", [
    (["--village", "trusting@folow=1"], "did you mean 'follow'"),
    (["--village", "trusting", "--set", "village.claim_dya=2"], "did you mean 'claim_day'"),
    (["--set", "village.follow=0.5"], "strategy 'random' has no knobs"),
    (["--wolves", "trusting@fake_claim=1.5"], "must be in [0.0, 1.0]"),
])
def test_bad_knobs_are_one_error_line(tmp_path, args, says):
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["werewolf", "run", "--games", "100", "--out", str(out), *args])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and says in lines[0], r.output
    assert not out.exists()


def test_knobs_from_a_strategy_file(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('[village]\nstrategy = "trusting"\ntrust = false\n')
    r = CliRunner().invoke(app, ["werewolf", "run", "--games", "2000", "--seed", "5", "--village", str(f),
                                 "--wolves", "trusting", "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)["village_wins"]
    want = int(_totals(["village.trust=false"], games=2000)["scalars"][1])
    assert got == want
