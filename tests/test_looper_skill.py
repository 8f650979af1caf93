"""Skill machinery on the Looper: strategy knobs delivered as data (``view.knobs``), restricted
play (``sim looper loo --restrict``) and ``sim tune looper``."""
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.core.game import get
from sim.core.rng import seed_stream_nb
from sim.core.seeding import run_key
from sim.looper.enums import I, Stream
from sim.looper.views import WriterView

GAME = get("looper")
runner = CliRunner()
TIMING = ("seconds", "games_per_second", "player", "scriptwriter", "settings")  # settings: the label names the knobs


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def run_json(*args):
    r = invoke("looper", "run", "--games", 3000, "--seed", 5, "--json", *args)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    return {k: v for k, v in d.items() if k not in TIMING}


# ------------------------------------------------------------------------------ knobs
def test_knob_vectors_in_declared_order_with_defaults():
    st = GAME.strategies({"player": "cautious", "scriptwriter": "random"})
    from sim.looper.game import knob_vectors

    pk, wk = knob_vectors(GAME.setup(), st["player"], st["scriptwriter"])
    assert pk.tolist() == [64.0, 1.0, 1.0, 1.0] and wk.tolist() == [0.0]
    pk, wk = knob_vectors(GAME.setup(sets=["player.min_gain=2", "player.protagonist_first=false",
                                           "scriptwriter.aim=0.5"]), st["player"], st["scriptwriter"])
    assert pk.tolist() == [64.0, 0.0, 2.0, 1.0] and wk.tolist() == [0.5]
    assert GAME.knob_vectors(GAME.setup(sets=["player.min_gain=2"]), st)["player"].tolist() == [64.0, 1.0, 2.0, 1.0]


def test_default_knobs_play_exactly_as_no_knobs():
    plain = run_json("--player", "cautious")
    assert plain == run_json("--player", "cautious@max_moves=64@protagonist_first=true@min_gain=1@count_choices=true",
                             "--scriptwriter", "random@aim=0")
    assert run_json("--player", "deducer") == run_json("--player", "deducer@min_gain=1")
    assert run_json() == run_json("--player", "random@max_moves=64")


def test_changed_knobs_change_play():
    plain = run_json("--player", "cautious")
    for spec in ("cautious@min_gain=3", "cautious@max_moves=1", "cautious@count_choices=false"):
        assert run_json("--player", spec) != plain, spec
    assert run_json("--player", "cautious", "--scriptwriter", "random@aim=1") != plain
    # the random player with one move a day moves less: fewer wins than with three
    assert run_json("--player", "random@max_moves=1")["player_wins"] < run_json()["player_wins"]


def test_traces_read_the_knobs_too():
    """The trace path hands the kernel the same knob values: one move a day at most."""
    from collections import Counter

    st = GAME.strategies({"player": "cautious"})
    most = {}
    for sets in ([], ["player.max_moves=1"]):
        setup = GAME.setup(sets=sets)
        per_day = Counter((g, e["group"]) for g in range(60) for e in GAME.trace(setup, st, 0, g).events
                          if e["event"] == "move")
        most[len(sets)] = max(per_day.values())
    assert most == {0: 2, 1: 1}


@pytest.mark.parametrize("args, closest", [
    (("--player", "cautious@max_move=2"), "max_moves"),
    (("--player", "deducer", "--set", "player.min_gian=2"), "min_gain"),
    (("--scriptwriter", "random@aims=0.5"), "aim"),
])
def test_unknown_knob_is_one_error_naming_the_closest(args, closest):
    r = invoke("looper", "run", "--games", 100, *args)
    assert r.exit_code == 2, r.output
    errors = [ln for ln in r.output.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and f"did you mean {closest!r}" in errors[0], r.output
    assert "Traceback" not in r.output


def test_a_knob_out_of_range_is_an_error():
    r = invoke("looper", "run", "--games", 100, "--player", "cautious@min_gain=9")
    assert r.exit_code == 2 and "min_gain" in r.output


# ------------------------------------------------------------------------------ restricted play
def test_abilities_follow_the_rules():
    st = GAME.strategies({"player": "deducer", "scriptwriter": "random"})
    assert [a.name for a in GAME.abilities(GAME.setup(), st)] == ["moves", "permanent_moves", "guest_moves",
                                                                  "victim_choice"]
    naming = GAME.setup(sets=["rules.must_name_key_person=true"])
    assert "naming" in [a.name for a in GAME.abilities(naming, st)]
    # a player that names at random anyway has no naming of its own to give up
    assert "naming" not in [a.name for a in GAME.abilities(naming, GAME.strategies({"player": "cautious"}))]
    bare = GAME.setup({"rules": {"permanent_moves": 0, "guest_move_days": [], "player_moves_per_day": 0}})
    assert [a.name for a in GAME.abilities(bare, st)] == ["victim_choice"]


def _writer_out(setup_fn, roster, g):
    """What a scriptwriter's setup writes in game ``g`` of seed 3 (its own stream)."""
    R = roster.nb
    out = np.zeros(1 + 2 * int(R.info[I.N_PERM]) + 2 * int(R.info[I.N_GUEST]), np.int64)
    rng = np.zeros(4, np.uint64)
    seed_stream_nb(rng, run_key(3), g, Stream.SCRIPTWRITER)
    n = roster.n_chars
    view = WriterView(R, np.int64(0), np.int64(0), np.uint64(0), np.int64(-1), out.copy(),
                      np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(1, np.float64))
    setup_fn(rng, view, np.zeros((1, 1), np.int64), out)
    return out


def test_withheld_moves_keep_the_scriptwriters_other_choices():
    roster = GAME.setup()
    st = GAME.strategies({"player": "cautious", "scriptwriter": "random"})
    home = roster.nb.home
    nperm = int(roster.nb.info[I.N_PERM])
    g0 = 1 + 2 * nperm
    _, perm = GAME.restrict(roster, st, "permanent_moves")
    _, guest = GAME.restrict(roster, st, "guest_moves")
    for g in range(30):
        full = _writer_out(st["scriptwriter"].setup, roster, g)
        p = _writer_out(perm["scriptwriter"].setup, roster, g)
        q = _writer_out(guest["scriptwriter"].setup, roster, g)
        # the key person and the characters chosen are the full game's
        assert p[0] == q[0] == full[0]
        assert (p[1::2] == full[1::2]).all() and (q[1:g0] == full[1:g0]).all()
        assert (q[g0::2] == full[g0::2]).all()
        # permanent moves stay home; guest moves put the character where it stands
        assert all(p[2 + 2 * j] == home[p[1 + 2 * j]] for j in range(nperm))
        base = {int(full[1 + 2 * j]): int(full[2 + 2 * j]) for j in range(nperm)}
        for k in range(int(roster.nb.info[I.N_GUEST])):
            c = int(q[g0 + 2 * k])
            assert q[g0 + 2 * k + 1] == base.get(c, home[c])
    assert perm["scriptwriter"].name == "random-no-permanent_moves"
    assert perm["player"] is st["player"]


def _restrict_rows(seed):
    r = invoke("looper", "loo", "--restrict", "--games", 2000, "--seed", seed, "--player", "cautious", "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_loo_restrict_rows_with_paired_intervals_deterministic():
    d = _restrict_rows(4)
    assert d["metric"] == "player_win_rate" and d["games_per_row"] == 2000
    rows = {r["ability"] or "(none)": r for r in d["rows"]}
    assert list(rows) == ["(none)", "moves", "permanent_moves", "guest_moves", "victim_choice"]
    for name, r in rows.items():
        assert r["games"] == 2000
        assert r["delta_ci_low"] <= r["delta"] <= r["delta_ci_high"], name
        assert r["delta"] == pytest.approx(r["rate"] - rows["(none)"]["rate"]), name
    # the player's moves serve it: never moving loses games
    m = rows["moves"]
    assert m["side"] == "player" and m["delta"] < 0 < m["value_to_side"]
    # the random scriptwriter's choice is a uniform draw already: withholding it changes nothing
    v = rows["victim_choice"]
    assert v["delta"] == 0.0 and v["delta_ci_low"] == 0.0 == v["delta_ci_high"]
    assert _restrict_rows(4) == d
    assert _restrict_rows(5)["rows"] != d["rows"]


def test_loo_restrict_text_and_unknown_ability():
    r = runner.invoke(app, ["looper", "loo", "--restrict", "--ability", "moves", "--games", "500", "--player",
                            "cautious"], env={"COLUMNS": "200"})  # the table's cells unwrapped
    assert r.exit_code == 0, r.output
    assert "restricted play" in r.output and "player never" in r.output
    r = invoke("looper", "loo", "--restrict", "--ability", "movs", "--games", 500)
    assert r.exit_code == 2 and "moves" in r.output


# ------------------------------------------------------------------------------ tune
def test_tune_a_player_knob_against_the_random_scriptwriter():
    r = invoke("tune", "looper", "--side", "player", "--strategy", "cautious", "--against", "scriptwriter=random",
               "--budget", 4, "--games", 300, "--final-games", 600, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    for k in ("baseline_rate", "tuned_rate", "ci_low", "ci_high", "params", "games"):
        assert k in d, k
    assert set(d["params"]) == {"max_moves", "protagonist_first", "min_gain", "count_choices"}
    assert d["ci_low"] <= d["tuned_rate"] <= d["ci_high"]
    assert 0.0 <= d["baseline_rate"] <= 1.0 and d["games"] > 0


def test_tune_leaves_the_cost_knobs_alone():
    """The adversarial search's size (proposals × trials games per evaluation, up to 10^10) is
    how long it runs, not how it plays, and `keep` is the designer's choice of a pool's width:
    `sim tune` searches `against` only."""
    from sim.core.knobs import knobs_of, tunable_knobs
    from strategies.looper import SCRIPTWRITERS

    w = SCRIPTWRITERS.get("adversarial")
    assert {k.name for k in knobs_of(w)} == {"against", "keep", "proposals", "trials"}
    assert [k.name for k in tunable_knobs(w)] == ["against"]
    r = invoke("tune", "looper", "--side", "scriptwriter", "--strategy", "adversarial", "--against", "player=random",
               "--set", "scriptwriter.proposals=8", "--set", "scriptwriter.trials=2",
               "--budget", 1, "--games", 40, "--final-games", 40, "--json")
    assert r.exit_code == 0, r.output
    assert set(json.loads(r.stdout)["params"]) == {"against"}
