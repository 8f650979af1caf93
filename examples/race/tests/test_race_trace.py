"""Race traces: the batch kernel replaying one game; separate streams keep the dice unforeseeable."""
import json
import subprocess
import sys

import numpy as np
from scipy.stats import binomtest

from sim.core.game import get
from sim.core.rng import RULES, randint_nb, seed_stream_nb
from sim.core.seeding import run_key

GAME = get("race")


def test_trace_equals_one_game_batch_runs_on_1000_games():
    setup = GAME.setup(sets=["p2.k=3"])
    st = GAME.strategies({"p1": "random", "p2": "threshold"})
    for k in range(1000):
        tr = GAME.trace(setup, st, 7, k)
        one = GAME.run(setup, st, 1, 7, start=k, tables=False).totals
        assert (tr.result["winner"] == "p1") == bool(one["scalars"][1])
        assert tr.result["turns"] == int(one["scalars"][2]) == sum(e["event"] == "turn" for e in tr.events)
        # the events add up: each total is the sum of that player's gains
        for p, start in (("p1", 0), ("p2", setup.head_start)):
            gains = [e["gain"] for e in tr.events if e["event"] == "turn" and e["player"] == p]
            assert tr.result[f"{p}_total"] == start + sum(gains)
        assert tr.events[-1]["event"] == "win" and tr.events[-1]["player"] == tr.result["winner"]


def test_every_turn_states_its_reason_and_it_is_true():
    """Each turn carries its strategy's reason, true of the totals before the turn: the
    threshold player's points behind and its k decide one die or two; cautious and bold
    say which they always roll; random the coin's dice. A plug-in states its own (with
    the reason sink as a sixth parameter); one without it plays as before."""
    setup = GAME.setup(sets=["p2.k=3"])
    for p1, p2 in (("random", "threshold"), ("bold", "cautious"), ("race_plugins:explained_nb", "race_plugins:sprint_nb")):
        st = GAME.strategies({"p1": p1, "p2": p2})
        seen = 0
        for k in range(200):
            tr = GAME.trace(setup, st, 7, k)
            totals = {"p1": 0, "p2": setup.head_start}
            for e in tr.events:
                if e["event"] != "turn":
                    continue
                me, other = totals[e["player"]], totals["p2" if e["player"] == "p1" else "p1"]
                name = p1 if e["player"] == "p1" else p2
                reason = e.get("reason", [])
                if name == "race_plugins:sprint_nb":
                    assert not reason, e  # no sink, no reason
                elif name == "race_plugins:explained_nb":
                    assert reason == [{"why": "kind 7", "a": -1, "b": setup.target - me, "score": 1.0}], e
                elif name == "threshold":
                    assert reason[0]["behind"] == other - me and reason[0]["k"] == 3, e
                    assert e["dice"] == (2 if other - me >= 3 else 1), e
                else:
                    assert reason[0]["dice"] == e["dice"], e
                seen += 1
                totals[e["player"]] = e["total"]
        assert seen > 1000


def test_a_slice_of_a_run_is_those_games_of_the_longer_run():
    setup, st = GAME.setup(), GAME.strategies({"p1": "random", "p2": "random"})
    whole = GAME.run(setup, st, 300, 4, tables=False).totals["scalars"]
    parts = [GAME.run(setup, st, n, 4, start=a, tables=False).totals["scalars"] for a, n in ((0, 120), (120, 180))]
    assert (whole == parts[0] + parts[1]).all()


def test_a_strategy_cannot_foresee_the_dice():
    """The peeking plug-in busts at the chance rate 11/36 of two dice (binomial test at a
    fixed seed); had it read the dice's stream it would never bust (checked below)."""
    setup = GAME.setup()
    res = GAME.run(setup, GAME.strategies({"p1": "race_plugins:peek_nb", "p2": "cautious"}), 20_000, 1)
    row = res.tables["players"].row(0, named=True)
    assert row["two_dice_turns"] > 5_000
    assert binomtest(row["busts"], row["two_dice_turns"], 11 / 36).pvalue > 1e-3
    # power: the same prediction made on the rules stream is always right
    key = run_key(1)
    for g in range(200):
        s = np.zeros(4, np.uint64)
        seed_stream_nb(s, key, g, RULES)
        guess = s.copy()
        assert [1 + randint_nb(guess, 6) for _ in range(2)] == [1 + randint_nb(s, 6) for _ in range(2)]


def _sim(*args):
    import os
    from pathlib import Path

    here = str(Path(__file__).resolve().parent)  # so that `race_plugins:…` imports in the child too
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "sim", "race", *args], capture_output=True, text=True, env=env)


def test_trace_cli_text_json_and_find():
    p = _sim("trace", "--seed", "3", "--game", "2", "--p1", "bold")
    assert p.returncode == 0, p.stderr
    assert "round 1" in p.stdout and "(R-3)" in p.stdout and "result: winner=" in p.stdout
    p = _sim("trace", "--seed", "3", "--find", "winner=p2,turns>=9", "--json")
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    last = lines[-1]
    assert last["event"] == "result" and last["winner"] == "p2" and last["turns"] >= 9
    # it is the first such game: every earlier game fails the condition
    setup, st = GAME.setup(), GAME.strategies({})
    for k in range(last["game"]):
        r = GAME.trace(setup, st, 3, k, events=False).result
        assert not (r["winner"] == "p2" and r["turns"] >= 9)
    p = _sim("trace", "--find", "turn=3")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "did you mean 'turns'" in p.stderr
    p = _sim("trace", "--find", "winner=nobody", "--search", "50")
    assert p.returncode == 2 and "no game" in p.stderr


def test_oracle_strategies_are_labelled():
    p = _sim("run", "--games", "1000", "--p1", "race_plugins:oracle_bold_nb", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["oracles"] == {"p1": "race_plugins:oracle_bold_nb"}
    p = _sim("run", "--games", "1000", "--p1", "race_plugins:oracle_bold_nb")
    assert "ORACLE" in p.stdout
